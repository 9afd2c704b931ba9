import Foundation
import Testing

@testable import HeraldCore

/// A `live_activity` category turns its events into `liveactivity` pushes to the Apple devices that registered a
/// push token for the event's activity, under the user's preferences, mutes and the category's quiet hours.
@Suite struct DeciderLiveActivityTests {
    static func category(quietHours: HeraldCore.Category.QuietHoursPolicy = .bypass) -> HeraldCore.Category {
        var category = Fixture.category(id: "sports.score", quietHours: quietHours)
        category.kind = .liveActivity
        category.priority = .normal
        return category
    }

    static func devices() -> [Device] {
        var phone = Fixture.device("phone")
        phone.liveActivityTokens = ["match-42": "aa11", "match-7": "bb22"]
        var pad = Fixture.device("pad")
        pad.liveActivityTokens = ["match-7": "cc33"]
        var android = Fixture.device("android", platform: .fcm)
        android.liveActivityTokens = ["match-42": "not-apple"]
        return [phone, pad, android]
    }

    static func event(_ activity: String? = "match-42", event kind: LiveActivityUpdate.Kind = .update) -> Event {
        var event = Fixture.event(thread: nil)
        event.category = "sports.score"
        event.data = ["home": .int(2), "away": .int(1)]
        event.liveActivity = activity.map { LiveActivityUpdate(activityId: $0, event: kind) }
        return event
    }

    static func decide(
        _ event: Event, category: HeraldCore.Category = category(), state: RecipientState? = nil,
        now: Date = Fixture.now
    ) -> DecisionResult {
        Fixture.decider().decide(
            event: event, category: category, recipients: ["u1"],
            states: ["u1": state ?? Fixture.state(devices: devices())], now: now)
    }

    @Test func onlyTheAppleDevicesWithATokenForTheActivityGetTheUpdateStampedWithNow() throws {
        let now = Fixture.now + 42
        let result = Self.decide(Self.event(), now: now)
        #expect(result.decisions[0].outcome == .delivered && result.decisions[0].deliveries == 1)
        let delivery = try #require(result.deliveries.first)
        #expect(result.deliveries.count == 1 && delivery.installationId == "phone" && delivery.token == "aa11")
        #expect(delivery.headers["apns-push-type"] == "liveactivity")
        let aps = try #require(Fixture.parse(delivery.body)?["aps"] as? [String: Any])
        #expect(aps["timestamp"] as? Int == Int(now.timeIntervalSince1970))
        #expect(aps["event"] as? String == "update")
        #expect((aps["content-state"] as? [String: Any])?["home"] as? Int == 2)
    }

    @Test func noDeviceWithATokenIsNoDevicesSaidSo() {
        let result = Self.decide(Self.event("match-99"))
        #expect(result.decisions[0].outcome == .noDevices && result.decisions[0].detail == "no_activity_token")
        #expect(result.deliveries.isEmpty)
        #expect(Self.decide(Self.event(nil)).decisions[0].detail == "no_live_activity")
    }

    @Test func preferencesAndMutesApply() {
        let off = Self.decide(Self.event(), state: Fixture.state(devices: Self.devices(), preference: .off))
        #expect(off.decisions[0].outcome == .suppressedPreference && off.deliveries.isEmpty)
        let muted = Self.decide(
            Self.event(),
            state: Fixture.state(
                devices: Self.devices(), mutes: [Mute(id: "m", scope: .category, key: "sports.score", until: nil)]))
        #expect(muted.decisions[0].outcome == .suppressedMuted)
        // A digest preference does not hold an activity's update back: each carries the whole state.
        let digest = Self.decide(Self.event(), state: Fixture.state(devices: Self.devices(), preference: .digest))
        #expect(digest.decisions[0].outcome == .delivered && digest.deliveries.count == 1)
    }

    @Test func quietHoursAreBypassedByDefaultAndDeferWhenTheCategorySaysSo() throws {
        // 23:00 UTC, inside quiet hours from 22:00 to 07:00.
        let night = instant(2026, 6, 1, 23)
        let quiet = QuietHours(start: LocalTime(hour: 22, minute: 0)!, end: LocalTime(hour: 7, minute: 0)!)
        let state = Fixture.state(devices: Self.devices(), quietHours: quiet)
        let bypassed = Self.decide(Self.event(), state: state, now: night)
        #expect(bypassed.decisions[0].outcome == .delivered)
        #expect(bypassed.deliveries.first?.availableAt == night)
        let deferred = Self.decide(Self.event(), category: Self.category(quietHours: .defer), state: state, now: night)
        #expect(deferred.decisions[0].outcome == .deferredQuietHours)
        let held = try #require(deferred.deliveries.first)
        #expect(held.availableAt == instant(2026, 6, 2, 7))
        // The timestamp is when Herald decided, so a later update decided before the deferral ends still wins.
        let aps = try #require(Fixture.parse(held.body)?["aps"] as? [String: Any])
        #expect(aps["timestamp"] as? Int == Int(night.timeIntervalSince1970))
    }

    @Test func aCategoryOfThisKindDefaultsToBypassAndNoBadgeAndRefusesCollapsingAndSilence() throws {
        let decoded = try JSONDecoder().decode(
            HeraldCore.Category.self, from: Data(#"{"id":"sports.score","name":"Score","kind":"live_activity"}"#.utf8))
        #expect(decoded.kind == .liveActivity && decoded.quietHours == .bypass && !decoded.countsTowardBadge)
        let counted = try JSONDecoder().decode(
            HeraldCore.Category.self,
            from: Data(#"{"id":"sports.score","name":"Score","kind":"live_activity","counts_toward_badge":true}"#.utf8))
        #expect(counted.countsTowardBadge)
        let plain = try JSONDecoder().decode(
            HeraldCore.Category.self, from: Data(#"{"id":"chat.message","name":"Chat"}"#.utf8))
        #expect(plain.kind == .notification && plain.quietHours == .defer && plain.countsTowardBadge)
        var invalid = Self.category(quietHours: .silent)
        invalid.collapse = .init(keyTemplate: "m:{thread_id}", windowSeconds: 60)
        let pointers = invalid.validate().map(\.pointer)
        #expect(pointers.contains("/collapse") && pointers.contains("/quiet_hours"))
        // Counting toward the badge is refused by name: an update leaves nothing that a read would take back.
        #expect(counted.validate().contains { $0.pointer == "/counts_toward_badge" && $0.code == "not_allowed" })
        #expect(!decoded.validate().contains { $0.pointer == "/counts_toward_badge" })
    }

    @Test(arguments: [false, true])
    func anUpdateLeavesNoFeedEntryAndNeverCountsUnread(countsTowardBadge: Bool) throws {
        // Whatever a stored category says about the badge, an update changes what is on screen in place.
        var category = Self.category()
        category.countsTowardBadge = countsTowardBadge
        #expect(!category.leavesFeedEntry && !category.countsUnread)
        var state = Fixture.state(devices: Self.devices())
        state.unreadCount = 3
        state.feedPosition = 41
        let result = Self.decide(Self.event(), category: category, state: state)
        let decision = try #require(result.decisions.first)
        #expect(decision.outcome == .delivered && result.deliveries.count == 1)
        #expect(decision.feedPosition == nil && !decision.countsUnread)
        #expect(result.changes.feedPositions.isEmpty && result.changes.unreadCounts.isEmpty)
        // The badge the decision records is the user's count as it stands.
        #expect(decision.badge == 3)
        #expect(decision.notificationId != nil)
        // A notification right after still takes the next position and counts.
        var chat = Fixture.category()
        chat.countsTowardBadge = countsTowardBadge
        let next = Fixture.decider().decide(
            event: Fixture.event(), category: chat, recipients: ["u1"], states: ["u1": state], now: Fixture.now)
        #expect(next.decisions[0].feedPosition == 42 && next.changes.feedPositions["u1"] == 42)
        #expect(next.decisions[0].countsUnread == countsTowardBadge)
    }

    @Test func anEventValidatesItsActivityAndBoundsItsContentState() {
        var errors: [FieldError] = []
        #expect(
            LiveActivityUpdate(
                json: .object(["activity_id": .string("bad id"), "event": .string("start"), "x": .null]),
                errors: &errors) == nil)
        #expect(errors.map(\.pointer) == ["/live_activity/x", "/live_activity/activity_id", "/live_activity/event"])
        var event = Self.event()
        event.data = ["text": .string(String(repeating: "x", count: LiveActivityUpdate.maxContentStateBytes))]
        #expect(event.validate().map(\.pointer) == ["/data"])
        let stored = EventDocument.decode(Array(EventDocument.encode(Self.event(event: .end)).utf8))
        #expect(stored?.liveActivity == LiveActivityUpdate(activityId: "match-42", event: .end))
    }
}
