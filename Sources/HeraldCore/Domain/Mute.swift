import Foundation

/// A user's temporary or permanent silence for everything, one category or one thread.
public struct Mute: Sendable, Hashable, Codable {
    /// The most mutes a user has running at once: every decision for the user reads all of them.
    public static let maxPerUser = 1_000

    /// What a mute covers.
    public enum Scope: String, Sendable, Hashable, Codable, CaseIterable {
        case all
        case category
        case thread
    }

    public var id: String
    public var scope: Scope
    /// The category id or thread key; ignored for `all`.
    public var key: String?
    /// The mute stops applying at this instant; `nil` means until removed.
    public var until: Date?

    /// Creates a mute.
    public init(id: String, scope: Scope, key: String? = nil, until: Date? = nil) {
        self.id = id
        self.scope = scope
        self.key = key
        self.until = until
    }

    /// Whether the mute still runs at `now`: it has no end, or its end is later. An ended mute applies to nothing
    /// and is shown nowhere.
    public func isRunning(at now: Date) -> Bool {
        guard let until else { return true }
        return until > now
    }

    /// Whether the mute silences an event of `category` in `thread` at `now`; expired mutes never apply.
    public func applies(category: String, thread: String?, at now: Date) -> Bool {
        guard isRunning(at: now) else { return false }
        switch scope {
        case .all: return true
        case .category: return key == category
        case .thread: return thread != nil && key == thread
        }
    }
}
