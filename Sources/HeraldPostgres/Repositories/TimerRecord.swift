import Foundation

/// A collapse-window close timer: at `dueAt`, close the group `key` of `userId`.
public struct TimerRecord: Sendable, Hashable {
    public var userId: String
    public var key: String
    public var categoryId: String
    public var dueAt: Date

    /// Creates a timer.
    public init(userId: String, key: String, categoryId: String, dueAt: Date) {
        self.userId = userId
        self.key = key
        self.categoryId = categoryId
        self.dueAt = dueAt
    }
}
