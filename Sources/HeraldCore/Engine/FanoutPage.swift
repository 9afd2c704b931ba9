/// Who one batch decides an event for, when its audience is larger than a batch. The first batch takes the users
/// the event names and the first page of its topic's subscribers; each later batch takes the next page, without the
/// named users, who were decided already. Nobody is decided twice, and a read reaches no topic.
public struct FanoutPage: Sendable, Hashable {
    /// The users this batch decides the event for, in order, each once.
    public var recipients: [String]
    /// The subscriber the next page starts after; nil when this page is the event's last.
    public var nextAfter: String?

    /// Whether the event is done once this page is decided.
    public var isLast: Bool { nextAfter == nil }

    /// The topic whose subscribers `event` reaches, page by page; nil when it names none, or is a read.
    public static func topic(of event: Event) -> String? {
        ReadEvent.isRead(event) ? nil : event.recipients.topic
    }

    /// The page of an event that names the users `named` and whose topic's subscribers are `subscribers`, read in
    /// order after the previous page's last, at most `pageSize` of them; `firstPage` when no batch decided the
    /// event yet. A page as long as `pageSize` may not be the last.
    public init(named: [String], subscribers: [String], firstPage: Bool, pageSize: Int) {
        if firstPage {
            recipients = Decider.recipients(named: named, topicSubscribers: subscribers)
        } else {
            let named = Set(named)
            recipients = Decider.recipients(named: [], topicSubscribers: subscribers.filter { !named.contains($0) })
        }
        nextAfter = subscribers.count >= pageSize ? subscribers.last : nil
    }
}
