import Foundation
import Testing

@testable import HeraldCore

@Suite struct DeciderPropertyTests {
    /// A random world: users with random preferences, mutes, quiet hours, zones, devices and counters.
    static func randomState(_ user: String, using generator: inout SeededGenerator) -> RecipientState {
        let platforms = Device.Platform.allCases
        let devices = (0..<Int.random(in: 0...3, using: &generator)).map { index in
            var device = Fixture.device(
                "\(user)-d\(index)", user: user, platform: platforms.randomElement(using: &generator)!,
                locale: ["pl-PL", "en", nil, "fr"].randomElement(using: &generator)!,
                appBuilds: Bool.random(using: &generator), active: Int.random(in: 0..<5, using: &generator) > 0)
            if Bool.random(using: &generator) { device.liveActivityTokens = [activityId: activityToken(device)] }
            return device
        }
        var mutes: [Mute] = []
        if Int.random(in: 0..<5, using: &generator) == 0 {
            mutes.append(
                Mute(
                    id: "m", scope: Mute.Scope.allCases.randomElement(using: &generator)!,
                    key: ["chat.message", "42", "7"].randomElement(using: &generator)!,
                    until: Bool.random(using: &generator)
                        ? Fixture.now + Double.random(in: -7_200...7_200, using: &generator) : nil))
        }
        let quietHours: QuietHours? =
            Bool.random(using: &generator)
            ? QuietHours(
                start: LocalTime(hour: Int.random(in: 0...23, using: &generator), minute: 0)!,
                end: LocalTime(hour: Int.random(in: 0...23, using: &generator), minute: 30)!)
            : nil
        return RecipientState(
            profile: UserProfile(
                id: user, locale: ["en", "pl", nil].randomElement(using: &generator)!,
                timeZone: (TestZones.standard.map(\.identifier) + ["Nowhere/Land"]).randomElement(using: &generator)!,
                quietHours: quietHours, badge: Int.random(in: 0..<4, using: &generator) > 0),
            preference: [nil, .on, .off, .digest].randomElement(using: &generator)!, mutes: mutes, devices: devices,
            unreadCount: Int.random(in: -2...500, using: &generator))
    }

    static let activityId = "match-1"

    /// The activity push token of `device`, its own.
    static func activityToken(_ device: Device) -> String { SHA256.hex("activity-" + device.installationId) }

    /// The ciphertext an event encrypted for `installationId` alone (base64 of the id), unlike any other device's.
    static func ciphertext(for installationId: String) -> String {
        Data(("for " + installationId).utf8).base64EncodedString()
    }

    /// What a random event carries for the app: nothing, one ciphertext, or one for some of the devices of `states`.
    static func randomCiphertext(
        _ states: [String: RecipientState], using generator: inout SeededGenerator
    )
        -> Ciphertext?
    {
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: return nil
        case 1: return .shared(Bool.random(using: &generator) ? "c2hhcmVk" : String(repeating: "QUJD", count: 1_200))
        default:
            let installations = states.values.flatMap(\.devices).map(\.installationId).sorted()
            let chosen = installations.filter { _ in Bool.random(using: &generator) }
            return .perInstallation(Dictionary(uniqueKeysWithValues: chosen.map { ($0, ciphertext(for: $0)) }))
        }
    }

    /// The rules of an event's own pushes that depend on its ciphertext or Live Activity: a Live Activity update
    /// goes only to an Apple device's token for the activity; otherwise a push carries exactly its device's
    /// ciphertext (or `fetch`) where the app builds the notification, and no one's elsewhere.
    /// Returns how many pushes carried a ciphertext and how many updated a Live Activity.
    static func expectContentRules(
        _ pushes: [Delivery], event: Event, category: HeraldCore.Category, state: RecipientState?
    ) -> (encrypted: Int, live: Int) {
        var counts = (encrypted: 0, live: 0)
        for push in pushes {
            guard let device = state?.devices.first(where: { $0.installationId == push.installationId }) else {
                continue
            }
            if category.kind == .liveActivity {
                #expect(push.platform == .apns && push.headers["apns-push-type"] == "liveactivity")
                #expect(push.token == activityToken(device))
                counts.live += 1
                continue
            }
            let text = push.bodyText
            let mode = HeraldCore.Category.DeliveryMode.forDevice(
                device, category: category, encrypted: event.ciphertext != nil)
            let expected = mode.carriesCiphertext ? event.ciphertext?.value(for: device.installationId) : nil
            if let expected {
                #expect(text.contains("\"enc\":\"" + expected + "\"") || text.contains("\"fetch\":"))
                counts.encrypted += 1
            } else {
                #expect(!text.contains("\"enc\"") && !text.contains("\"fetch\""))
            }
            for other in state?.devices ?? [] where other.installationId != device.installationId {
                #expect(!text.contains(ciphertext(for: other.installationId)))
            }
        }
        return counts
    }

    @Test func invariantsHoldOverRandomWorlds() {
        var generator = SeededGenerator(seed: 99)
        var decisions = 0
        var deliveries = 0
        var encrypted = 0
        var live = 0
        for round in 0..<1_500 {
            let users = (0..<Int.random(in: 1...6, using: &generator)).map { "u\($0)" }
            var states: [String: RecipientState] = [:]
            for user in users where Int.random(in: 0..<8, using: &generator) > 0 {
                states[user] = Self.randomState(user, using: &generator)
            }
            var category = Fixture.category(
                mode: HeraldCore.Category.DeliveryMode.allCases.randomElement(using: &generator)!,
                quietHours: HeraldCore.Category.QuietHoursPolicy.allCases.randomElement(using: &generator)!,
                ttl: Int.random(in: 60...172_800, using: &generator),
                collapse: Bool.random(using: &generator)
                    ? .init(keyTemplate: "msg:{thread_id}", windowSeconds: 300) : nil,
                rateLimit: Bool.random(using: &generator) ? .init(count: 1, windowSeconds: 600) : nil,
                required: Int.random(in: 0..<4, using: &generator) == 0)
            let now =
                instant(
                    2026, [1, 3, 6, 10, 11].randomElement(using: &generator)!, Int.random(in: 1...28, using: &generator)
                )
                + Double.random(in: 0...86_400, using: &generator)
            var event = Fixture.event(
                "e\(round)", users: users + users.prefix(1), actor: ["u0", "x", nil].randomElement(using: &generator)!,
                thread: ["42", "7", nil].randomElement(using: &generator)!,
                occurredAt: now - Double.random(in: 0...7_200, using: &generator),
                text: RandomText.string(length: Int.random(in: 0...400, using: &generator), using: &generator))
            if Int.random(in: 0..<6, using: &generator) == 0 {
                category.kind = .liveActivity
                category.collapse = nil
                event.liveActivity = LiveActivityUpdate(activityId: Self.activityId)
            }
            event.ciphertext = Self.randomCiphertext(states, using: &generator)
            let recipients = Decider.recipients(of: event)
            let result = Fixture.decider(DeciderConfig(userRateLimit: .init(count: 5, windowSeconds: 3_600)))
                .decide(event: event, category: category, recipients: recipients, states: states, now: now)

            // Exactly one decision per distinct recipient, in order.
            #expect(result.decisions.map(\.userId) == recipients)
            decisions += result.decisions.count
            deliveries += result.deliveries.count
            for decision in result.decisions {
                let state = states[decision.userId]
                // A required category is never suppressed by preference or mute.
                if category.required {
                    #expect(decision.outcome != .suppressedPreference && decision.outcome != .suppressedMuted)
                }
                // The badge is never negative.
                #expect((decision.badge ?? 0) >= 0)
                // Deliveries queued for a user belong to its active devices and match the decision's count.
                let mine = result.deliveries.filter { $0.userId == decision.userId }
                #expect(mine.count == decision.deliveries)
                let counts = Self.expectContentRules(
                    mine.filter { $0.notificationId == decision.notificationId }, event: event, category: category,
                    state: state)
                encrypted += counts.encrypted
                live += counts.live
                let active = Set(state?.activeDevices.map(\.installationId) ?? [])
                #expect(mine.allSatisfy { active.contains($0.installationId) })
                // A deferral never lands inside quiet hours and never after the expiry.
                if decision.outcome == .deferredQuietHours, let state, let until = decision.until,
                    let zone = TestZones().zone(state.profile.timeZone ?? "")
                {
                    #expect(state.profile.quietHours?.window(containing: until, in: zone) == nil)
                    #expect(mine.allSatisfy { $0.availableAt == until && $0.availableAt < $0.expiresAt })
                }
            }
            for delivery in result.deliveries {
                #expect(delivery.availableAt >= now && delivery.expiresAt > delivery.availableAt)
            }
        }
        #expect(decisions > 3_000)
        #expect(deliveries > 1_000)
        #expect(encrypted > 100 && live > 20, "\(encrypted) encrypted pushes, \(live) Live Activity updates")
    }
}
