import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres
import Testing

@testable import HeraldService

@Suite("Reads, withdrawal and badge", .serialized)
struct ReadsTests {
    let start = Date(timeIntervalSince1970: 1_796_130_000)

    /// u1 with a phone (APNs) and a tablet (FCM), and two decided events about items i1 and i2.
    func prepared() async throws -> PipelineHarness {
        let harness = try await PipelineHarness.make(start: start)
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("u1")
        try await harness.device("phone", user: "u1", platform: .apns)
        try await harness.device("tablet", user: "u1", platform: .fcm)
        let events = ["i1", "i2"].map { (item: String) in
            PipelineHarness.event(id: "e-" + item, item: item, occurredAt: start)
        }
        _ = await harness.send(.post, "/v1/events", json: "[\(events.joined(separator: ","))]")
        try await harness.decideAll()
        return harness
    }

    @Test func aReadLowersTheCountOnceAndWithdrawsFromTheOtherDevices() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        #expect(try await harness.count("SELECT unread FROM recipient_counters WHERE user_id = 'u1'") == 2)
        let queuedBefore = try await harness.count("SELECT count(*) FROM deliveries")
        let collapseId = try await harness.sql(
            "SELECT collapse_id FROM decisions WHERE item_id = 'i1'"
        ).single().string(0)

        harness.clock.advance(60)
        let read = await harness.send(.post, "/v1/users/u1/read", json: #"{"item_ids":["i1"],"device":"phone"}"#)
        #expect(read.status == .ok)
        #expect(read.json["items_read"] == .int(1))
        #expect(read.json["unread_count"] == .int(1))
        #expect(read.json["badge"] == .int(1))
        #expect(read.json["withdrawn"] == .array([.string(collapseId)]))
        let withdrawals = try await harness.sql(
            "SELECT installation_id, kind, body FROM deliveries WHERE kind <> 'alert' ORDER BY installation_id")
        #expect(withdrawals.count == 1)
        #expect(try withdrawals.first?.string("installation_id") == "tablet")
        #expect(try withdrawals.first?.string("kind") == "withdraw")
        #expect(try withdrawals.first?.string("body").contains(collapseId) == true)
        #expect(try await harness.count("SELECT unread FROM recipient_counters WHERE user_id = 'u1'") == 1)

        let again = await harness.send(.post, "/v1/users/u1/read", json: #"{"item_ids":["i1"],"device":"phone"}"#)
        #expect(again.json["items_read"] == .int(0))
        #expect(again.json["unread_count"] == .int(1))
        #expect(again.json["delivery_ids"] == .array([]))
        #expect(try await harness.count("SELECT count(*) FROM deliveries") == queuedBefore + 1)
    }

    @Test func anItemReadEventWithdrawsAndSendsTheBadgeToTheOtherDevices() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        harness.clock.advance(60)
        let event =
            #"{"id":"r1","source":"chat","category":"item.read","recipients":["u1"],"item_id":"i2","#
            + #""occurred_at":"\#(ISO8601.format(start))","data":{"device":"tablet"}}"#
        #expect(await harness.send(.post, "/v1/events", json: event).status == .accepted)
        try await harness.decideAll()
        #expect(try await harness.count("SELECT unread FROM recipient_counters WHERE user_id = 'u1'") == 1)
        let decision = try await harness.sql(
            "SELECT d.outcome, d.detail FROM decisions d JOIN events e ON e.seq = d.event_seq WHERE e.id = 'r1'"
        ).single()
        #expect(try decision.string("outcome") == "read")
        #expect(try decision.string("detail") == "items_read=1")
        // The phone (APNs) gets the withdrawal and a badge-only push; the tablet read it and gets nothing.
        let pushes = try await harness.sql(
            "SELECT installation_id, kind FROM deliveries WHERE kind <> 'alert' ORDER BY kind")
        #expect(try pushes.map { try $0.string("installation_id") } == ["phone", "phone"])
        #expect(try pushes.map { try $0.string("kind") } == ["background", "withdraw"])
    }

    @Test func withdrawalsOverTheSilentBudgetAreCoalescedIntoOneQueuedPush() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("u3")
        try await harness.device("phone", user: "u3", platform: .apns)
        try await harness.device("tablet", user: "u3", platform: .fcm)
        let items = (1...5).map { "c\($0)" }
        let events = items.map { item in PipelineHarness.event(id: item, users: ["u3"], item: item, occurredAt: start) }
        _ = await harness.send(.post, "/v1/events", json: "[\(events.joined(separator: ","))]")
        try await harness.decideAll()
        harness.clock.advance(60)
        for item in items {
            let read = await harness.send(
                .post, "/v1/users/u3/read", json: #"{"item_ids":["\#(item)"],"device":"phone"}"#)
            #expect(read.status == .ok)
        }
        // Three go out at once (three per hour); the fourth waits for the budget and the fifth joins it.
        let withdrawals = try await harness.sql(
            """
            SELECT body, coalesce_key, available_at FROM deliveries
            WHERE installation_id = 'tablet' AND kind = 'withdraw' ORDER BY available_at
            """
        )
        #expect(withdrawals.count == 4)
        let pending = try #require(withdrawals.last)
        #expect(try pending.decode(String?.self, "coalesce_key") != nil)
        #expect(try pending.date("available_at") > harness.clock.now)
        let c4 = try await harness.sql("SELECT collapse_id FROM decisions WHERE item_id = 'c4'").single().string(0)
        let c5 = try await harness.sql("SELECT collapse_id FROM decisions WHERE item_id = 'c5'").single().string(0)
        #expect(try pending.string("body").contains(c4) && pending.string("body").contains(c5))
        #expect(try await harness.count("SELECT unread FROM recipient_counters WHERE user_id = 'u3'") == 0)
    }

    @Test func aReadOfAThreadCoversItsItemsAndBadInputIsRefused() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("u2")
        let events = (1...3).map {
            PipelineHarness.event(id: "t\($0)", users: ["u2"], thread: $0 == 3 ? "other" : "t", occurredAt: start)
        }
        _ = await harness.send(.post, "/v1/events", json: "[\(events.joined(separator: ","))]")
        try await harness.decideAll()
        let read = await harness.send(.post, "/v1/users/u2/read", json: #"{"thread_id":"t"}"#)
        #expect(read.json["items_read"] == .int(2))
        #expect(read.json["unread_count"] == .int(1))
        #expect(await harness.send(.post, "/v1/users/nobody/read", json: #"{"thread_id":"t"}"#).status == .notFound)
        #expect(await harness.send(.post, "/v1/users/u2/read", json: "{}").status == .unprocessableContent)
        #expect(
            await harness.send(.post, "/v1/users/u2/read", json: #"{"item_ids":[""]}"#).status == .unprocessableContent)
        // A device of another user's is refused, as in a receipt, and the read changes nothing.
        try await harness.user("u9")
        try await harness.device("their-phone", user: "u9", platform: .apns)
        let foreign = await harness.send(
            .post, "/v1/users/u2/read", json: #"{"item_ids":["t3"],"device":"their-phone"}"#)
        #expect(foreign.status == .unprocessableContent)
        #expect(foreign.json["pointer"] == .string("/device"))
        #expect(try await harness.count("SELECT unread FROM recipient_counters WHERE user_id = 'u2'") == 1)
    }

    /// Events that name no thread belong to the one their category's thread key template gives them; their pushes
    /// are grouped by it, and a read of that thread covers them.
    @Test func aReadOfTheThreadACategoryGivesItsEventsCoversThem() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        var category = PipelineHarness.chatCategory()
        category.threadKeyTemplate = "conversation:{data.conversation_id}"
        try await harness.category(category)
        try await harness.user("u4")
        try await harness.device("phone", user: "u4", platform: .apns)
        let events = [("42", "k1"), ("42", "k2"), ("43", "k3")].map { conversation, id in
            PipelineHarness.event(
                id: id, users: ["u4"], item: id, occurredAt: start,
                data: #"{"text":"hi","conversation_id":"\#(conversation)"}"#)
        }
        _ = await harness.send(.post, "/v1/events", json: "[\(events.joined(separator: ","))]")
        try await harness.decideAll()
        let body = try await harness.sql(
            "SELECT body FROM deliveries WHERE notification_id = (SELECT notification_id FROM decisions WHERE item_id = 'k1')"
        ).single().string(0)
        #expect(body.contains(#""thread-id":"conversation:42""#))

        harness.clock.advance(60)
        let read = await harness.send(.post, "/v1/users/u4/read", json: #"{"thread_id":"conversation:42"}"#)
        #expect(read.json["items_read"] == .int(2))
        #expect(read.json["unread_count"] == .int(1))
    }

    /// A notification held for the end of quiet hours and read meanwhile (in the feed, say) is not pushed when they
    /// end: its held pushes end unsent on every device, by the read route and by an `item.read` event alike, also for
    /// a notification decided earlier in the read's batch.
    @Test func aReadStopsThePushesStillHeldForQuietHours() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        // 14:00 in Berlin, inside quiet hours from 13:00 to 07:00.
        try await harness.user("u6", timeZone: "Europe/Berlin", quiet: (13 * 60, 7 * 60))
        try await harness.device("phone", user: "u6", platform: .apns)
        try await harness.device("tablet", user: "u6", platform: .fcm)
        let events = ["h1", "h2", "h3"].map {
            PipelineHarness.event(id: $0, users: ["u6"], item: $0, occurredAt: start)
        }
        _ = await harness.send(.post, "/v1/events", json: "[\(events.joined(separator: ","))]")
        try await harness.decideAll()
        #expect(try await harness.count("SELECT count(*) FROM decisions WHERE outcome = 'deferred.quiet_hours'") == 3)
        func held() async throws -> [String] {
            try await harness.sql(
                """
                SELECT d.item_id || '@' || q.installation_id FROM deliveries q JOIN decisions d USING (notification_id)
                WHERE q.kind = 'alert' AND q.state = 'queued' ORDER BY 1
                """
            ).map { try $0.string(0) }
        }
        #expect(try await held().count == 6)

        harness.clock.advance(60)
        let read = await harness.send(.post, "/v1/users/u6/read", json: #"{"item_ids":["h1"],"device":"phone"}"#)
        #expect(read.json["items_read"] == .int(1))
        let batch = [
            PipelineHarness.event(id: "h4", users: ["u6"], item: "h4", occurredAt: harness.clock.now),
            PipelineHarness.event(
                id: "r1", category: "item.read", users: ["u6"], item: "h2", occurredAt: harness.clock.now,
                data: #"{"device":"tablet","item_ids":["h4"]}"#),
        ]
        #expect(await harness.send(.post, "/v1/events", json: "[\(batch.joined(separator: ","))]").status == .accepted)
        #expect(try await harness.decideAll().count == 1)
        #expect(try await held() == ["h3@phone", "h3@tablet"])
        let ended = try await harness.sql(
            """
            SELECT q.state, q.detail, q.finished_at FROM deliveries q JOIN decisions d USING (notification_id)
            WHERE d.item_id IN ('h1', 'h2', 'h4') AND q.kind = 'alert'
            """)
        #expect(ended.count == 6)
        #expect(try ended.allSatisfy { try $0.string("state") == "expired" })
        #expect(try ended.allSatisfy { try $0.decode(String?.self, "detail") == "read before it was sent" })
        #expect(try ended.allSatisfy { try $0.decode(Date?.self, "finished_at") == harness.clock.now })
        #expect(try await harness.count("SELECT unread FROM recipient_counters WHERE user_id = 'u6'") == 1)
    }

    @Test func aReadEventCoversStoredNotificationsAndOnesDecidedEarlierInItsBatchAlike() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("u5")
        try await harness.device("phone", user: "u5", platform: .apns)
        try await harness.device("tablet", user: "u5", platform: .fcm)
        let stored = PipelineHarness.event(id: "s1", users: ["u5"], thread: "t", item: "s1", occurredAt: start)
        _ = await harness.send(.post, "/v1/events", json: "[\(stored)]")
        try await harness.decideAll()
        harness.clock.advance(60)
        // One batch: a second message of the thread, one of another thread, then the thread read on the tablet.
        let batch = [
            PipelineHarness.event(id: "b1", users: ["u5"], thread: "t", item: "b1", occurredAt: start + 60),
            PipelineHarness.event(id: "b2", users: ["u5"], thread: "other", item: "b2", occurredAt: start + 60),
            PipelineHarness.event(
                id: "r1", category: "item.read", users: ["u5"], thread: "t", occurredAt: start + 60,
                data: #"{"device":"tablet"}"#),
        ]
        _ = await harness.send(.post, "/v1/events", json: "[\(batch.joined(separator: ","))]")
        #expect(try await harness.decideAll().count == 1)
        let read = try await harness.sql(
            "SELECT detail FROM decisions d JOIN events e ON e.seq = d.event_seq WHERE e.id = 'r1'"
        ).single()
        #expect(try read.string("detail") == "items_read=2")
        let readAt = try await harness.sql(
            """
            SELECT e.id, d.read_at FROM decisions d JOIN events e ON e.seq = d.event_seq
            WHERE d.user_id = 'u5' AND d.notification_id IS NOT NULL ORDER BY e.id
            """)
        #expect(try readAt.map { try $0.string("id") } == ["b1", "b2", "s1"])
        #expect(try readAt.map { try $0.decode(Date?.self, "read_at") } == [harness.clock.now, nil, harness.clock.now])
        #expect(try await harness.count("SELECT unread FROM recipient_counters WHERE user_id = 'u5'") == 1)
        // Both are read now, wherever they were when the first read came.
        let again = await harness.send(.post, "/v1/users/u5/read", json: #"{"thread_id":"t","device":"tablet"}"#)
        #expect(again.json["items_read"] == .int(0))
        #expect(again.json["unread_count"] == .int(1))
    }

    /// A burst of three in one thread, whose digest replaced its first push on both devices, then read one message
    /// at a time on the phone: the digest stays on the tablet while some of the burst is unread, with the new
    /// badge, and is withdrawn with the last.
    @Test func aBurstsDigestIsWithdrawnOnlyWhenTheLastOfItsMessagesIsRead() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.collapsingChat(devices: [("phone", .apns), ("tablet", .fcm)])
        for n in 1...3 {
            try await harness.decideMessage("m\(n)", item: "i\(n)")
            harness.clock.advance(5)
        }
        harness.clock.advance(60)
        try await harness.decideAll()
        #expect(try await harness.count("SELECT count(*) FROM digests WHERE outcome = 'delivered'") == 1)

        func read(_ item: String) async throws -> (json: JSONValue, tablet: [String]) {
            harness.clock.advance(1)
            let read = await harness.send(
                .post, "/v1/users/u1/read", json: #"{"item_ids":["\#(item)"],"device":"phone"}"#)
            #expect(read.status == .ok)
            let ids = read.json["delivery_ids"].flatMap { value -> [String]? in
                guard case .array(let ids) = value else { return nil }
                return ids.compactMap { if case .string(let id) = $0 { id } else { nil } }
            }
            let bodies = try await harness.sql(
                "SELECT body FROM deliveries WHERE installation_id = 'tablet' AND kind = 'withdraw' AND id = ANY($1)",
                [PipelineArray(ids ?? [])]
            ).map { try $0.string(0) }
            return (read.json, bodies)
        }
        let first = try await read("i1")
        #expect(first.json["unread_count"] == .int(2))
        #expect(first.json["withdrawn"] == .array([]))
        #expect(
            first.tablet.count == 1 && first.tablet.allSatisfy { !$0.contains("msg:t") && $0.contains(#""badge":"2""#) }
        )
        let second = try await read("i2")
        #expect(second.json["withdrawn"] == .array([]))
        let last = try await read("i3")
        #expect(last.json["unread_count"] == .int(0))
        #expect(last.json["withdrawn"] == .array([.string("msg:t")]))
        #expect(last.tablet.count == 1 && last.tablet.allSatisfy { $0.contains("msg:t") })
    }
}
