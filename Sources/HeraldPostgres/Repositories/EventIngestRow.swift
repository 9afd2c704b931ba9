/// One validated event on its way into the inbox.
public struct EventIngestRow: Sendable, Hashable {
    public var source: String
    public var id: String
    public var categoryId: String
    /// SHA-256 (hex) of `document`, the event's canonical JSON.
    public var bodyHash: String
    /// The canonical JSON object of the event.
    public var document: String

    /// Creates an ingest row.
    public init(source: String, id: String, categoryId: String, bodyHash: String, document: String) {
        self.source = source
        self.id = id
        self.categoryId = categoryId
        self.bodyHash = bodyHash
        self.document = document
    }
}
