import Foundation

/// The decision policy: a pure function of (event, category, recipients' state, now, config).
///
/// It reads no clock, no database and no environment. The shell loads the state, calls `decide`, and writes the
/// returned decisions, deliveries and state changes in one transaction. Digest timers come back through
/// `windowClosed`, reads through `read`.
public struct Decider: Sendable {
    public var config: DeciderConfig
    public var zones: any ZoneDirectory
    public var renderer: any TextRenderer

    /// Creates a decider; `config` has no default, so every caller says which policy it decides under.
    public init(config: DeciderConfig, zones: any ZoneDirectory, renderer: any TextRenderer) {
        self.config = config
        self.zones = zones
        self.renderer = renderer
    }

    /// The recipients of `event`: its explicit user ids then `topicSubscribers` (one streamed batch of the topic),
    /// without duplicates, in first-seen order. The actor stays in the list so its decision is recorded.
    public static func recipients(of event: Event, topicSubscribers: [String] = []) -> [String] {
        recipients(named: event.recipients.userIds, topicSubscribers: topicSubscribers)
    }

    /// The users `named`, then `topicSubscribers`, without duplicates, in first-seen order.
    static func recipients(named: [String], topicSubscribers: [String]) -> [String] {
        // Most events name one user and no topic: nothing to merge, nothing twice.
        if topicSubscribers.isEmpty, named.count <= 1 { return named }
        var seen = Set<String>()
        return (named + topicSubscribers).filter { seen.insert($0).inserted }
    }

    /// The collapse-group keys the shell should load for each recipient of `event`.
    public static func collapseKeys(for event: Event, category: Category) -> [String] {
        var keys = [digestKey(for: category)]
        if let key = collapseKey(for: event, category: category) {
            keys.insert(burstKey(categoryId: category.id, collapseKey: key), at: 0)
        }
        return keys
    }

    /// The collapse key of an event of a collapsing category: the event's own `collapse_key` template, else the
    /// category's, rendered from the event; nil when the category does not collapse (an event's key alone does
    /// not make it collapse) or a field the template names is missing. It is the collapse id of the burst's pushes.
    public static func collapseKey(for event: Event, category: Category) -> String? {
        guard let rule = category.collapse else { return nil }
        return (try? KeyTemplate(event.collapseKey ?? rule.keyTemplate))?.render(for: event)
    }

    /// The key of the collapse group of a category's burst: the category and the collapse key, so two categories
    /// with the same template keep apart bursts, each closed and checked (preference, mutes) by its own category.
    /// A category id has no `:`, so it never meets another category's burst or a digest group (`digestKey`).
    public static func burstKey(categoryId: String, collapseKey: String) -> String {
        "burst:" + categoryId + ":" + collapseKey
    }

    /// The burst `event` joins for `userId`: its group in `groups`, else a new one whose collapse id is the collapse
    /// key, so the platforms still replace the notifications of one key in place as they did; nil when the event
    /// does not collapse (`collapseKey`).
    public static func burst(
        of event: Event, category: Category, userId: String, groups: [String: CollapseGroup]
    ) -> CollapseGroup? {
        guard let collapseKey = collapseKey(for: event, category: category) else { return nil }
        let key = burstKey(categoryId: category.id, collapseKey: collapseKey)
        return groups[key]
            ?? CollapseGroup(userId: userId, key: key, collapseId: CollapseIdentifier.apns(for: collapseKey))
    }

    /// The collapse key of the digest a user with preference `digest` receives for `category`.
    public static func digestKey(for category: Category) -> String { digestKey(categoryId: category.id) }

    static func digestKey(categoryId: String) -> String { "digest:" + categoryId }

    /// Whether the collapse group `key` gathers events of category `categoryId`: its digest group, or one of its
    /// bursts.
    public static func groupKey(_ key: String, gathers categoryId: String) -> Bool {
        key == digestKey(categoryId: categoryId) || key.hasPrefix(burstKey(categoryId: categoryId, collapseKey: ""))
    }

    /// The thread an event belongs to: its own thread id, else the category's thread key template (none without
    /// a category).
    public static func threadKey(for event: Event, category: Category?) -> String? {
        if let threadId = event.threadId { return threadId }
        return category?.threadKeyTemplate.flatMap { try? KeyTemplate($0) }?.render(for: event)
    }

    /// Decides `event` for every recipient: exactly one decision each, in order, plus deliveries and state.
    ///
    /// `states` holds the loaded state by user id; a recipient missing from it is an unknown user.
    public func decide(
        event: Event, category: Category?, recipients: [String], states: [String: RecipientState],
        now: Date
    ) -> DecisionResult {
        var result = DecisionResult()
        var seen = Set<String>()
        for userId in recipients where seen.insert(userId).inserted {
            let decision = decideRecipient(
                userId, event: event, category: category, state: states[userId], now: now, into: &result)
            result.decisions.append(decision)
        }
        return result
    }
}
