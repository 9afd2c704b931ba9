/// What a read covers: the notifications it marks read, the collapse ids it withdraws, how far the count drops.
public struct ReadSelection<Key: Hashable & Sendable>: Sendable, Hashable {
    /// The covered candidates, in the order given; the shell marks exactly these read.
    public var covered: [ReadCandidate<Key>]
    /// Collapse ids of the covered notifications, each once, in the order first met, but for those an unread
    /// notification the read does not cover still shares.
    public var collapseIds: [String]
    /// How many covered notifications had raised the unread count.
    public var itemsRead: Int
    /// The notice for `Decider.read`; `nil` when the read covers nothing, so nothing is withdrawn or recounted.
    public var notice: ReadNotice?
}
