/// The closed vocabularies a category chooses from; raw values are the wire spellings.
extension Category {
    /// What a category's events become.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Notifications, by the category's delivery mode.
        case notification
        /// `liveactivity` pushes updating or ending an iOS Live Activity, to the devices that registered a push
        /// token for the event's activity. Quiet hours default to `bypass` (an activity shows what is happening
        /// now, silently); they may be `defer` or `drop`, never `silent`.
        case liveActivity = "live_activity"

        /// Whether a campaign may send events of a category of this kind: a campaign's event names no Live Activity
        /// to update, so only notifications would ever reach anyone.
        public var takesCampaigns: Bool { self == .notification }
    }

    /// The quiet-hours policy of a category of `kind` that names none: `bypass` for Live Activities, which show
    /// what is happening now and make no sound; `defer` for notifications.
    public static func defaultQuietHours(for kind: Kind) -> QuietHoursPolicy {
        kind == .liveActivity ? .bypass : .defer
    }

    /// Whether a category of `kind` that does not say counts toward the unread badge: a Live Activity's update
    /// changes what is already on screen and leaves nothing to read, so it does not; a notification does.
    public static func defaultCountsTowardBadge(for kind: Kind) -> Bool {
        kind != .liveActivity
    }

    /// Completes a change of kind from `previous`: a member whose default depends on the kind and that still holds
    /// `previous`'s default takes this kind's, unless the change set it itself (`setMembers`, by wire name). A
    /// stored category holds every member, so holding the old default is what having chosen nothing looks like; a
    /// change of kind carries over what was chosen, not what was defaulted.
    public mutating func takeKindDefaults(replacing previous: Kind, except setMembers: Set<String>) {
        guard kind != previous else { return }
        if !setMembers.contains(CodingKeys.quietHours.rawValue), quietHours == Self.defaultQuietHours(for: previous) {
            quietHours = Self.defaultQuietHours(for: kind)
        }
        if !setMembers.contains(CodingKeys.countsTowardBadge.rawValue),
            countsTowardBadge == Self.defaultCountsTowardBadge(for: previous)
        {
            countsTowardBadge = Self.defaultCountsTowardBadge(for: kind)
        }
    }

    /// Whether the category's events become notifications in the user's feed, each with its feed position: a Live
    /// Activity's update changes what is already on screen in place and is nothing to read later, so it leaves no
    /// feed entry.
    public var leavesFeedEntry: Bool { kind == .notification }

    /// Whether each of the category's notifications counts in the user's unread count: one that leaves a feed
    /// entry, in a category that counts toward the badge (an update of a Live Activity never does, whatever the
    /// stored category says, since nothing would ever read it).
    public var countsUnread: Bool { leavesFeedEntry && countsTowardBadge }

    /// Who writes the notification text.
    public enum DeliveryMode: String, Sendable, Hashable, Codable, CaseIterable {
        /// Herald writes the final localized text; the OS shows it with no app code.
        case system
        /// Identifiers plus a fallback text; the app builds the notification after a wake.
        case app
        /// Full text plus mutable-content, so the app may enrich it.
        case combined
    }

    /// How urgently the platform should deliver an alert.
    public enum Priority: String, Sendable, Hashable, Codable, CaseIterable {
        case high
        case normal
    }

    /// APNs interruption levels, reused for every platform's notion of urgency.
    public enum InterruptionLevel: String, Sendable, Hashable, Codable, CaseIterable {
        case passive
        case active
        case timeSensitive = "time-sensitive"
        case critical
    }

    /// What happens to an event that arrives during the recipient's quiet hours.
    public enum QuietHoursPolicy: String, Sendable, Hashable, Codable, CaseIterable {
        /// Hold until the window ends, then send unless the TTL ran out.
        case `defer`
        /// Send now without sound, interruption level passive.
        case silent
        /// Time-sensitive: send as usual.
        case bypass
        /// Do not send.
        case drop
    }

    /// Burst collapsing: events with the same rendered key within the window become one digest.
    public struct CollapseRule: Sendable, Hashable, Codable {
        public var keyTemplate: String
        public var windowSeconds: Int

        /// Creates a collapse rule.
        public init(keyTemplate: String, windowSeconds: Int) {
            self.keyTemplate = keyTemplate
            self.windowSeconds = windowSeconds
        }

        enum CodingKeys: String, CodingKey {
            case keyTemplate = "key_template"
            case windowSeconds = "window_seconds"
        }
    }

    /// A token bucket: at most `count` pushes per `windowSeconds`, refilled smoothly.
    public struct RateLimitRule: Sendable, Hashable, Codable {
        public var count: Int
        public var windowSeconds: Int
        /// Opt-in learned budget: after this many notifications of the category dismissed unopened in a row, the
        /// user's limit is halved until they open one again (see `InterruptionBudget`).
        public var halveAfterDismissals: Int?

        /// Creates a rate-limit rule.
        public init(count: Int, windowSeconds: Int, halveAfterDismissals: Int? = nil) {
            self.count = count
            self.windowSeconds = windowSeconds
            self.halveAfterDismissals = halveAfterDismissals
        }

        enum CodingKeys: String, CodingKey {
            case count
            case windowSeconds = "window_seconds"
            case halveAfterDismissals = "halve_after_dismissals"
        }
    }
}
