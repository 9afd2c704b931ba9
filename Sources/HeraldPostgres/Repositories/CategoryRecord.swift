import Foundation
import HeraldCore

/// A stored category with its version (the ETag) and timestamps.
public struct CategoryRecord: Sendable, Hashable {
    /// The category as last saved; `archived` agrees with `archivedAt`.
    public var category: Category
    /// Counts every change, starting at 1.
    public var version: Int
    /// When the category was created.
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date
    /// When it was archived, if it is.
    public var archivedAt: Date?

    /// Creates a record.
    public init(category: Category, version: Int, createdAt: Date, updatedAt: Date, archivedAt: Date?) {
        self.category = category
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.archivedAt = archivedAt
    }
}

/// What a conditional category update came to.
public enum CategoryUpdate: Sendable, Hashable {
    /// The new version was stored, with its history row.
    case updated(CategoryRecord)
    /// Someone else changed the category first; `currentVersion` is what it is now.
    case stale(currentVersion: Int)
    /// No category has this id.
    case notFound
}
