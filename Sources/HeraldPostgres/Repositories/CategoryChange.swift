import Foundation

/// One entry of a category's history: who changed it, when, how, and the documents before and after.
public struct CategoryChange: Sendable, Hashable {
    /// The kind of change, as stored.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        case create
        case replace
        case patch
        case archive
        case restore
        case templatePut = "template_put"
        case templateDelete = "template_delete"
    }

    /// The version this change produced.
    public var version: Int
    public var action: Action
    /// The API key that made the change.
    public var actorKeyId: String?
    /// That key's name at the time of the change.
    public var actorName: String?
    public var changedAt: Date
    /// The category document before the change, as JSON text; nil for `create`.
    public var before: String?
    /// The category document after the change, as JSON text.
    public var after: String

    /// Creates a history entry.
    public init(
        version: Int, action: Action, actorKeyId: String?, actorName: String?, changedAt: Date, before: String?,
        after: String
    ) {
        self.version = version
        self.action = action
        self.actorKeyId = actorKeyId
        self.actorName = actorName
        self.changedAt = changedAt
        self.before = before
        self.after = after
    }
}
