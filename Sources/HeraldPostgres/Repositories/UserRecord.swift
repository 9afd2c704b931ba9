import Foundation
import HeraldCore

/// A user as stored: the profile plus its timestamps.
public struct UserRecord: Sendable, Hashable {
    /// Locale, zone, quiet hours and badge setting.
    public var profile: UserProfile
    /// When the user was first written.
    public var createdAt: Date
    /// When the profile was last replaced.
    public var updatedAt: Date

    /// Creates a record.
    public init(profile: UserProfile, createdAt: Date, updatedAt: Date) {
        self.profile = profile
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
