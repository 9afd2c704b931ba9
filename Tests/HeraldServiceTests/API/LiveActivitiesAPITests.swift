import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres
import Testing

@testable import HeraldService

/// Live Activity push tokens on the device routes, and a `live_activity` category's events decided into
/// `liveactivity` pushes to them, stamped with the service's clock.
@Suite("Live Activities", .serialized)
struct LiveActivitiesAPITests {
    let start = Date(timeIntervalSince1970: 1_796_130_000)
    static let token = String(repeating: "5e", count: 40)

    static func first(_ value: JSONValue?) -> JSONValue? {
        guard case .array(let items)? = value else { return nil }
        return items.first
    }

    static func parse(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    func prepared() async throws -> PipelineHarness {
        let harness = try await PipelineHarness.make(start: start)
        var category = PipelineHarness.chatCategory(id: "sports.score")
        category.kind = .liveActivity
        category.quietHours = .bypass
        try await harness.category(category)
        try await harness.category(PipelineHarness.chatCategory())
        for user in ["u1", "u2"] { try await harness.user(user) }
        try await harness.device("phone", user: "u1", platform: .apns)
        try await harness.device("pixel", user: "u1", platform: .fcm)
        try await harness.device("other", user: "u2", platform: .apns)
        return harness
    }

    /// Registers the phone's token for `match-42`.
    static func registerToken(on harness: PipelineHarness) async throws {
        let reply = await harness.send(
            .put, "/v1/devices/phone/live-activities/match-42", json: #"{"token":"\#(Self.token)"}"#)
        try #require(reply.status == .created)
    }

    @Test func tokensAreRegisteredReplacedListedAndRemovedWithinTheirLimits() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        let path = "/v1/devices/phone/live-activities/match-42"
        let created = await harness.send(.put, path, json: #"{"token":"\#(Self.token.uppercased())"}"#)
        #expect(created.status == .created && created.headers["Location"] == path)
        #expect(created.json["token"] == .string(Self.token))
        let replaced = await harness.send(.put, path, json: #"{"token":"\#(String(repeating: "ab", count: 40))"}"#)
        #expect(replaced.status == .ok)
        let list = await harness.send(.get, "/v1/devices/phone/live-activities")
        #expect(Self.first(list.json["items"])?["activity_id"] == .string("match-42"))

        let android = await harness.send(
            .put, "/v1/devices/pixel/live-activities/match-42", json: #"{"token":"\#(Self.token)"}"#)
        #expect(
            android.status == .unprocessableContent
                && Self.first(android.json["errors"])?["code"] == .string("not_allowed"))
        let malformed = await harness.send(.put, path, json: #"{"token":"not hex"}"#)
        #expect(malformed.status == .unprocessableContent && malformed.json["pointer"] == .string("/token"))
        #expect(
            await harness.send(.put, "/v1/devices/nowhere/live-activities/a", json: #"{"token":"\#(Self.token)"}"#)
                .status == .notFound)
        for index in 1..<LiveActivityRegistration.maxActivitiesPerDevice {
            let reply = await harness.send(
                .put, "/v1/devices/phone/live-activities/a\(index)", json: #"{"token":"\#(Self.token)"}"#)
            #expect(reply.status == .created)
        }
        let over = await harness.send(
            .put, "/v1/devices/phone/live-activities/one-too-many", json: #"{"token":"\#(Self.token)"}"#)
        #expect(over.status == .unprocessableContent && Self.first(over.json["errors"])?["code"] == .string("too_many"))

        #expect(await harness.send(.delete, path).status == .noContent)
        #expect(await harness.send(.delete, path).status == .notFound)
    }

    @Test func aClientManagesOnlyItsOwnDevicesActivities() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        let body = #"{"token":"\#(Self.token)"}"#
        let own = await harness.sendAsClient("u1", .put, "/v1/me/devices/phone/live-activities/match-42", json: body)
        #expect(own.status == .created)
        let foreign = await harness.sendAsClient(
            "u1", .put, "/v1/me/devices/other/live-activities/match-42", json: body)
        #expect(foreign.status == .notFound)
        #expect(await harness.sendAsClient("u2", .get, "/v1/me/devices/phone/live-activities").status == .notFound)
        #expect(
            await harness.sendAsClient("u2", .delete, "/v1/me/devices/phone/live-activities/match-42").status
                == .notFound)
        #expect(
            await harness.sendAsClient("u1", .delete, "/v1/me/devices/phone/live-activities/match-42").status
                == .noContent)
    }

    @Test func anUpdateGoesToTheActivitysTokenStampedWithTheServicesClock() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        try await Self.registerToken(on: harness)
        let event = PipelineHarness.event(
            id: "goal-1", category: "sports.score", users: ["u1"], occurredAt: start, data: #"{"home":2,"away":1}"#)
        let body =
            event.dropLast() + #","live_activity":{"activity_id":"match-42","event":"end","#
            + #""dismissal_date":"\#(ISO8601.format(start + 600))"}}"#
        #expect(await harness.send(.post, "/v1/events", json: String(body)).status == .accepted)
        // A Live Activity update in a category of notifications is refused at ingest.
        let misplaced = String(
            PipelineHarness.event(id: "goal-2", users: ["u1"], occurredAt: start).dropLast()
                + #","live_activity":{"activity_id":"match-42"}}"#)
        let refused = await harness.send(.post, "/v1/events", json: misplaced)
        #expect(
            refused.status == .unprocessableContent && refused.json["pointer"] == .string("/live_activity"),
            "\(String(decoding: refused.body, as: UTF8.self))")

        harness.clock.advance(7)
        try await harness.decideAll()
        let rows = try await harness.sql(
            "SELECT installation_id, token, headers::text AS headers, body FROM deliveries ORDER BY id")
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        #expect(try row.string("installation_id") == "phone" && row.string("token") == Self.token)
        let headers = try #require(Self.parse(try row.string("headers")))
        #expect(headers["apns-push-type"] as? String == "liveactivity")
        #expect(headers["apns-topic"] as? String == "com.example.app.push-type.liveactivity")
        let aps = try #require(Self.parse(try row.string("body"))?["aps"] as? [String: Any])
        #expect(aps["timestamp"] as? Int == Int((start + 7).timeIntervalSince1970))
        #expect(aps["event"] as? String == "end")
        #expect(aps["dismissal-date"] as? Int == Int((start + 600).timeIntervalSince1970))
        #expect((aps["content-state"] as? [String: Any])?["home"] as? Int == 2)
        let decision = await harness.send(.get, "/v1/events/chat/goal-1")
        #expect(
            Self.first(decision.json["recipients"])?["reason"] == .string("delivered"),
            "\(String(decoding: decision.body, as: UTF8.self))")
    }

    @Test func anUpdateLeavesNoFeedEntryAndNoUnreadCount() async throws {
        // The stored category even says it counts toward the badge (written before that was refused): the core
        // still gives its updates no feed position and no unread count.
        let harness = try await prepared()
        defer { harness.close() }
        try await Self.registerToken(on: harness)
        for index in 1...2 {
            let update =
                PipelineHarness.event(
                    id: "goal-\(index)", category: "sports.score", users: ["u1"], occurredAt: start,
                    data: #"{"home":\#(index),"away":0}"#
                ).dropLast() + #","live_activity":{"activity_id":"match-42"}}"#
            #expect(await harness.send(.post, "/v1/events", json: String(update)).status == .accepted)
        }
        try await harness.decideAll()
        let updates = try await harness.sql(
            """
            SELECT d.feed_seq, d.counts_unread, d.outcome FROM decisions d JOIN events e ON e.seq = d.event_seq
            WHERE e.category_id = 'sports.score'
            """)
        #expect(updates.count == 2)
        for row in updates {
            #expect(try row.string("outcome") == "delivered")
            #expect(try row.decode(Int64?.self, "feed_seq") == nil)
            #expect(try row.bool("counts_unread") == false)
        }
        let feed = await harness.sendAsClient("u1", .get, "/v1/me/feed")
        #expect(feed.json["items"] == .array([]) && feed.json["unread_count"] == .int(0))

        // A notification after them takes the first position of the feed and counts.
        let message = PipelineHarness.event(id: "m-1", users: ["u1"], occurredAt: start)
        #expect(await harness.send(.post, "/v1/events", json: message).status == .accepted)
        try await harness.decideAll()
        let items = await harness.drainFeed("u1", after: nil, limit: 50).items
        #expect(items.count == 1 && items.first?["category"] == .string("chat.message"))
        #expect(items.first?["cursor"] == .string(FeedCursor(position: 1).text))
        #expect(await harness.sendAsClient("u1", .get, "/v1/me/feed").json["unread_count"] == .int(1))
    }

    @Test func aLiveActivityCategoryThatCountsTowardTheBadgeIsRefusedByName() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        let body = #"""
            {"id":"sports.live","name":"Live score","kind":"live_activity","counts_toward_badge":true,
             "templates":{"en":{"title":"Score"}}}
            """#
        let refused = await harness.send(.post, "/v1/categories", json: body)
        #expect(refused.status == .unprocessableContent, "\(String(decoding: refused.body, as: UTF8.self))")
        #expect(
            Self.first(refused.json["errors"])?["pointer"] == .string("/counts_toward_badge")
                && Self.first(refused.json["errors"])?["code"] == .string("not_allowed"))
        // Without it, the kind's default (no badge) applies.
        let created = await harness.send(
            .post, "/v1/categories", json: body.replacingOccurrences(of: #","counts_toward_badge":true"#, with: ""))
        #expect(created.status == .created, "\(String(decoding: created.body, as: UTF8.self))")
        #expect(created.json["counts_toward_badge"] == .bool(false))
    }

    @Test func thePreviewShowsTheLiveActivityPushOfAnAppleDevice() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        let preview = await harness.send(
            .post, "/v1/categories/sports.score/preview", json: #"{"platform":"apns","data":{"home":3}}"#)
        #expect(preview.status == .ok)
        let payload = preview.json["payload"]
        #expect(payload?["headers"]?["apns-push-type"] == .string("liveactivity"))
        #expect(payload?["body_json"]?["aps"]?["content-state"] == .object(["home": .int(3)]))
        let web = await harness.send(.post, "/v1/categories/sports.score/preview", json: #"{"platform":"webpush"}"#)
        #expect(web.json["payload"] == .null && web.json["detail"] == .string("no_activity_token"))
    }

    @Test("A device moved to another user drops its old owner's activity tokens")
    func aMoveDropsTheOldOwnersActivityTokens() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        try await Self.registerToken(on: harness)
        let token = PipelineHarness.token("phone", platform: .apns)
        let moved = await harness.send(
            .put, "/v1/devices/phone",
            json: #"{"user_id":"u2","platform":"apns","token":"\#(token)","app_id":"com.example.app"}"#)
        #expect(moved.status == .ok)
        #expect(try await harness.count("SELECT count(*) FROM live_activity_tokens") == 0)
        let read = await harness.sendAsClient("u2", .get, "/v1/me/devices/phone/live-activities")
        #expect(read.status == .ok)
        #expect(!String(decoding: read.body, as: UTF8.self).contains(Self.token))

        let event = PipelineHarness.event(
            id: "goal-1", category: "sports.score", users: ["u2"], occurredAt: start, data: #"{"home":2}"#)
        let body = event.dropLast() + #","live_activity":{"activity_id":"match-42"}}"#
        #expect(await harness.send(.post, "/v1/events", json: String(body)).status == .accepted)
        try await harness.decideAll()
        #expect(try await harness.count("SELECT count(*) FROM deliveries WHERE token = $1", [Self.token]) == 0)
    }
}
