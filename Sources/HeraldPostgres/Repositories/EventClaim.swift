import Foundation

/// An undecided event a worker holds locked for the length of its transaction.
public struct EventClaim: Sendable, Hashable {
    public var seq: Int64
    public var source: String
    public var id: String
    public var categoryId: String
    /// The canonical JSON stored at ingest.
    public var document: String
    /// The last topic subscriber decided by an earlier page, if any.
    public var fanoutAfter: String?
    /// Recipients decided by earlier pages.
    public var recipientsDecided: Int

    /// Creates a claim (the workers get theirs from `EventRepository.claims(from:)`).
    public init(
        seq: Int64, source: String, id: String, categoryId: String, document: String, fanoutAfter: String?,
        recipientsDecided: Int
    ) {
        self.seq = seq
        self.source = source
        self.id = id
        self.categoryId = categoryId
        self.document = document
        self.fanoutAfter = fanoutAfter
        self.recipientsDecided = recipientsDecided
    }
}
