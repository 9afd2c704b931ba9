/// Everything the decider needs to know about one recipient, loaded by the shell in one batch.
public struct RecipientState: Sendable, Hashable {
    public var profile: UserProfile
    /// The user's own setting for the event's category, if any.
    public var preference: PreferenceSetting?
    public var mutes: [Mute]
    /// The user's devices; inactive ones are skipped.
    public var devices: [Device]
    public var unreadCount: Int
    /// This user's bucket for the event's category.
    public var categoryBucket: TokenBucket?
    /// This user's bucket over all categories.
    public var userBucket: TokenBucket?
    /// Open collapse groups by key (see `Decider.collapseKeys(for:category:)` for which keys to load).
    public var collapseGroups: [String: CollapseGroup]
    /// Silent-push budgets by installation id.
    public var silentBudgets: [String: SilentBudget]
    /// The position of the user's latest notification in their feed (0: none yet).
    public var feedPosition: Int64 = 0
    /// Notifications of the event's category the user dismissed unopened in a row, as their apps reported.
    public var dismissalStreak: Int = 0

    /// Creates a recipient's state; absent buckets start full, absent groups idle.
    public init(
        profile: UserProfile, preference: PreferenceSetting? = nil, mutes: [Mute] = [],
        devices: [Device] = [],
        unreadCount: Int = 0, categoryBucket: TokenBucket? = nil, userBucket: TokenBucket? = nil,
        collapseGroups: [String: CollapseGroup] = [:], silentBudgets: [String: SilentBudget] = [:]
    ) {
        self.profile = profile
        self.preference = preference
        self.mutes = mutes
        self.devices = devices
        self.unreadCount = unreadCount
        self.categoryBucket = categoryBucket
        self.userBucket = userBucket
        self.collapseGroups = collapseGroups
        self.silentBudgets = silentBudgets
    }

    /// The devices pushes go to. When every device is active (most users), the stored array itself: filtering
    /// would copy each device, every string it holds retained once more.
    public var activeDevices: [Device] {
        if devices.indices.allSatisfy({ isActive(at: $0) }) { return devices }
        return devices.indices.filter { isActive(at: $0) }.map { devices[$0] }
    }

    /// Whether any device is one pushes go to, read in place.
    public var hasActiveDevice: Bool {
        devices.indices.contains { isActive(at: $0) }
    }

    private func isActive(at index: Int) -> Bool {
        devices[index].active && devices[index].userId == profile.id
    }
}
