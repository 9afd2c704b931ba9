import Foundation
import Testing

@testable import HeraldCore

/// Goldens of Live Activity pushes: the exact headers and body of an update and of an end, each checked against the
/// APNs rules for push type `liveactivity`.
@Suite struct LiveActivityGoldenTests {
    static let notificationId = "9bf31c7ff062936a96d3c8bd1f8f2ff3"

    /// An update of the match `match-42` at `Fixture.now`, or its end with the dates Apple's end pushes use.
    static func content(_ event: LiveActivityUpdate.Kind, priority: Category.Priority = .normal) -> LiveActivityContent
    {
        let update =
            event == .update
            ? LiveActivityUpdate(activityId: "match-42", event: .update, staleDate: Fixture.now + 900)
            : LiveActivityUpdate(activityId: "match-42", event: .end, dismissalDate: Fixture.now + 3_600)
        return LiveActivityContent(
            notificationId: notificationId, eventId: "score/e12", categoryId: "sports.score", update: update,
            contentState: ["home": .int(2), "away": .int(1), "minute": .string("78'")], timestamp: Fixture.now,
            priority: priority, relevanceScore: event == .update ? 50 : nil, expiresAt: Fixture.now + 3_600,
            availableAt: Fixture.now)
    }

    static let token = String(repeating: "cd", count: 80)

    static func delivery(_ content: LiveActivityContent) throws -> Delivery {
        let device = Fixture.device("ios-1")
        let delivery = try #require(LiveActivityPayload.delivery(for: content, to: device, token: token, userId: "u1"))
        let broken = LiveActivityRules.violations(of: delivery, content: content)
        #expect(broken.isEmpty, "rules broken: \(broken)")
        return delivery
    }

    @Test func anUpdateCarriesTheStateTheServicesTimestampAndTheStaleDate() throws {
        let delivery = try Self.delivery(Self.content(.update))
        #expect(
            delivery.headers == [
                "apns-push-type": "liveactivity", "apns-topic": "com.example.chat.push-type.liveactivity",
                "apns-priority": "5", "apns-expiration": "1780318800",
                "apns-id": NotificationIdentity.apnsId(
                    notificationId: Self.notificationId, installationId: "ios-1", purpose: .alert),
            ])
        #expect(
            delivery.bodyText
                == Golden.compact(
                    #"""
                    {"activity":"match-42",
                     "aps":{"content-state":{"away":1,"home":2,"minute":"78'"},"event":"update",
                            "relevance-score":50,"stale-date":1780316100,"timestamp":1780315200},
                     "cat":"sports.score","kind":"live_activity","nid":"9bf31c7ff062936a96d3c8bd1f8f2ff3","v":1}
                    """#))
        #expect(delivery.token == Self.token && delivery.kind == .alert && delivery.priority == 5)
        #expect(delivery.coalesceKey == "live_activity:ios-1:match-42" && delivery.collapseId == nil)
    }

    @Test func anEndCarriesTheFinalStateAndTheDismissalDate() throws {
        let delivery = try Self.delivery(Self.content(.end, priority: .high))
        #expect(delivery.headers["apns-priority"] == "10" && delivery.priority == 10)
        #expect(
            delivery.bodyText
                == Golden.compact(
                    #"""
                    {"activity":"match-42",
                     "aps":{"content-state":{"away":1,"home":2,"minute":"78'"},"dismissal-date":1780318800,
                            "event":"end","timestamp":1780315200},
                     "cat":"sports.score","kind":"live_activity","nid":"9bf31c7ff062936a96d3c8bd1f8f2ff3","v":1}
                    """#))
    }

    @Test func aContentStateOverTheLimitMakesNoPush() {
        var content = Self.content(.update)
        content.contentState = ["text": .string(String(repeating: "x", count: 4_096))]
        #expect(
            LiveActivityPayload.delivery(for: content, to: Fixture.device("ios-1"), token: Self.token, userId: "u1")
                == nil)
    }
}
