import Foundation
import HeraldCore
import HeraldHTTP
import HeraldObservability
import Testing

@testable import HeraldService

@Suite("Client receipts", .serialized)
struct ClientReceiptsTests {
    let start = Date(timeIntervalSince1970: 1_796_130_000)

    func receipt(_ id: String, _ event: String, device: String = "phone") -> String {
        #"{"notification_id":"\#(id)","device":"\#(device)","event":"\#(event)","at":"2026-12-01T10:00:00Z"}"#
    }

    @Test func anOpenIsAReadAndEveryReceiptCountsOncePerCategory() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("u1")
        try await harness.user("u2")
        try await harness.device("phone", user: "u1", platform: .apns)
        try await harness.device("tablet", user: "u1", platform: .fcm)
        try await harness.notify("u1", items: ["i1", "i2"], at: start)
        try await harness.notify("u2", items: ["j1"], at: start)
        let ids = try await harness.sql(
            "SELECT notification_id FROM decisions WHERE user_id = 'u1' ORDER BY feed_seq"
        ).map { try $0.string(0) }
        let foreign = try await harness.sql("SELECT notification_id FROM decisions WHERE user_id = 'u2'").single()
            .string(0)

        let body = [
            receipt(ids[0], "displayed"), receipt(ids[0], "opened"), receipt(ids[1], "displayed"),
            receipt(ids[1], "dismissed"), receipt(foreign, "opened"),
        ]
        let response = await harness.sendAsClient(
            "u1", .post, "/v1/me/receipts", json: #"{"receipts":[\#(body.joined(separator: ","))]}"#)
        #expect(response.status == .ok)
        #expect(response.json["accepted"] == .int(4))
        #expect(response.json["duplicates"] == .int(0))
        #expect(response.json["unknown"] == .array([.string(foreign)]), "another user's notification is unknown")
        #expect(response.json["items_read"] == .int(1))
        #expect(response.json["unread_count"] == .int(1))
        #expect(try await harness.count("SELECT count(*) FROM deliveries WHERE kind = 'withdraw'") == 1)
        #expect(try await harness.count("SELECT unread FROM recipient_counters WHERE user_id = 'u2'") == 1)

        let retry = await harness.sendAsClient(
            "u1", .post, "/v1/me/receipts", json: #"{"receipts":[\#(body[0]),\#(body[1])]}"#)
        #expect(retry.json["accepted"] == .int(0))
        #expect(retry.json["duplicates"] == .int(2))
        #expect(retry.json["items_read"] == .int(0))

        let stats = await harness.send(.get, "/v1/categories/chat.message/stats")
        #expect(stats.status == .ok)
        #expect(stats.json["displayed"] == .int(2))
        #expect(stats.json["opened"] == .int(1))
        #expect(stats.json["dismissed"] == .int(1))
        #expect(stats.json["opened_per_displayed"] == .double(0.5))
        let metric = harness.context.metrics.counterValue(ReceiptMetrics.name, labels: ["chat.message", "displayed"])
        #expect(metric == 2)
        #expect(await harness.send(.get, "/v1/categories/nope.none/stats").status == .notFound)
    }

    @Test func anOpenReadsANotificationThatNamesNoItem() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("u1")
        try await harness.device("phone", user: "u1", platform: .apns)
        let events = ["a", "b"].map { PipelineHarness.event(id: "plain-\($0)", users: ["u1"], occurredAt: start) }
        _ = await harness.send(.post, "/v1/events", json: "[\(events.joined(separator: ","))]")
        try await harness.decideAll()
        let ids = try await harness.sql(
            "SELECT notification_id FROM decisions WHERE user_id = 'u1' AND item_id IS NULL ORDER BY feed_seq"
        ).map { try $0.string(0) }
        try #require(ids.count == 2)
        let counted = try await harness.count(
            "SELECT count(*) FROM decisions WHERE notification_id = $1 AND counts_unread", [ids[0]])

        let response = await harness.sendAsClient(
            "u1", .post, "/v1/me/receipts", json: #"{"receipts":[\#(receipt(ids[0], "opened"))]}"#)
        #expect(response.status == .ok)
        let read = try await harness.sql(
            "SELECT notification_id FROM decisions WHERE user_id = 'u1' AND read_at IS NOT NULL"
        ).map { try $0.string(0) }
        #expect(read == [ids[0]], "only the opened notification is read")
        #expect(response.json["items_read"] == .int(counted), "the unread count drops by the one notification")
    }

    /// Opens from two devices in one report are each a read on the device that opened: each device withdraws what the
    /// other opened, and keeps nothing the user read.
    @Test func opensFromTwoDevicesEachWithdrawWhatTheOtherOpened() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("u1")
        try await harness.device("phone", user: "u1", platform: .apns)
        try await harness.device("tablet", user: "u1", platform: .fcm)
        try await harness.notify("u1", items: ["i1", "i2"], at: start)
        let sent = try await harness.sql(
            "SELECT notification_id, collapse_id FROM decisions WHERE user_id = 'u1' ORDER BY feed_seq"
        ).map { (try $0.string(0), try $0.string(1)) }
        try #require(sent.count == 2)

        let body = [receipt(sent[0].0, "opened", device: "phone"), receipt(sent[1].0, "opened", device: "tablet")]
        let response = await harness.sendAsClient(
            "u1", .post, "/v1/me/receipts", json: #"{"receipts":[\#(body.joined(separator: ","))]}"#)
        #expect(response.status == .ok)
        #expect(response.json["items_read"] == .int(2))
        #expect(response.json["unread_count"] == .int(0))
        // A withdrawal names the collapse id it takes away in its body.
        let withdrawn = try await harness.sql(
            "SELECT installation_id, body FROM deliveries WHERE kind = 'withdraw' ORDER BY installation_id")
        #expect(try withdrawn.map { try $0.string(0) } == ["phone", "tablet"])
        #expect(try withdrawn.first?.string(1).contains(sent[1].1) == true)
        #expect(try withdrawn.last?.string(1).contains(sent[0].1) == true)
    }

    /// A notification opened from the feed while its pushes wait for the end of quiet hours is not pushed then.
    @Test func anOpenStopsTheNotificationsPushesStillHeldForQuietHours() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        // 14:00 in Berlin, inside quiet hours from 13:00 to 07:00.
        try await harness.user("u1", timeZone: "Europe/Berlin", quiet: (13 * 60, 7 * 60))
        try await harness.device("phone", user: "u1", platform: .apns)
        try await harness.device("web", user: "u1", platform: .webpush)
        try await harness.notify("u1", items: ["i1", "i2"], at: start)
        let ids = try await harness.sql(
            "SELECT notification_id FROM decisions WHERE outcome = 'deferred.quiet_hours' ORDER BY feed_seq"
        ).map { try $0.string(0) }
        try #require(ids.count == 2)

        harness.clock.advance(60)
        let response = await harness.sendAsClient(
            "u1", .post, "/v1/me/receipts", json: #"{"receipts":[\#(receipt(ids[0], "opened", device: "web"))]}"#)
        #expect(response.json["items_read"] == .int(1))
        let queued = try await harness.sql(
            "SELECT DISTINCT notification_id FROM deliveries WHERE kind = 'alert' AND state = 'queued'"
        ).map { try $0.string(0) }
        #expect(queued == [ids[1]])
        #expect(
            try await harness.count(
                "SELECT count(*) FROM deliveries WHERE notification_id = $1 AND state = 'expired'", [ids[0]]) == 2)
    }

    /// Two unopened dismissals halve a limit of 4 an hour to 2 for the next decisions; an open restores it.
    @Test func dismissalsReportedByTheAppHalveTheCategoryLimitUntilAnOpen() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        var category = PipelineHarness.chatCategory()
        category.rateLimit = .init(count: 4, windowSeconds: 3_600, halveAfterDismissals: 2)
        try await harness.category(category)
        try await harness.user("u1")
        try await harness.device("phone", user: "u1")
        func delivered(_ round: String) async throws -> Int {
            try await harness.notify("u1", items: (0..<6).map { "\(round)-\($0)" }, at: harness.clock.now)
            let count = try await harness.count(
                "SELECT count(*) FROM decisions WHERE outcome = 'delivered' AND item_id LIKE $1", [round + "-%"])
            harness.clock.advance(3_600)
            return count
        }
        #expect(try await delivered("a") == 4)
        let ids = try await harness.sql(
            "SELECT notification_id FROM decisions WHERE item_id IN ('a-0', 'a-1') ORDER BY item_id"
        ).map { try $0.string(0) }
        let dismissals = ids.map { receipt($0, "dismissed") }.joined(separator: ",")
        _ = await harness.sendAsClient("u1", .post, "/v1/me/receipts", json: #"{"receipts":[\#(dismissals)]}"#)
        #expect(try await delivered("b") == 2)
        _ = await harness.sendAsClient(
            "u1", .post, "/v1/me/receipts", json: #"{"receipts":[\#(receipt(ids[1], "opened"))]}"#)
        #expect(try await delivered("c") == 4)
    }

    @Test(arguments: [
        #"{"receipts":[]}"#,
        #"{"receipts":[{"notification_id":"n","device":"d","event":"swiped","at":"2026-12-01T10:00:00Z"}]}"#,
        #"{"receipts":[{"notification_id":"","device":"d","event":"opened","at":"2026-12-01T10:00:00Z"}]}"#,
        #"{"receipts":[{"notification_id":"n","device":"d","event":"opened"}]}"#,
    ])
    func malformedBatchesAreRefusedWhole(_ json: String) async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.user("u1")
        let response = await harness.sendAsClient("u1", .post, "/v1/me/receipts", json: json)
        #expect([.badRequest, .unprocessableContent].contains(response.status))
    }

    @Test func aReceiptSpeaksForOneOfTheUsersOwnInstallations() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        for user in ["u1", "u2"] { try await harness.user(user) }
        try await harness.device("phone", user: "u1", platform: .apns)
        try await harness.device("other", user: "u2", platform: .apns)
        try await harness.notify("u1", items: ["i1"], at: start)
        let id = try await harness.sql("SELECT notification_id FROM decisions WHERE user_id = 'u1'").single().string(0)
        let body = [
            receipt(id, "displayed"), receipt(id, "displayed", device: "made-up"),
            receipt(id, "opened", device: "other"),
        ]
        let response = await harness.sendAsClient(
            "u1", .post, "/v1/me/receipts", json: #"{"receipts":[\#(body.joined(separator: ","))]}"#)
        #expect(response.status == .unprocessableContent)
        #expect(response.bodyText.contains("/receipts/1/device") && response.bodyText.contains("/receipts/2/device"))
        #expect(try await harness.count("SELECT count(*) FROM receipts") == 0)
        let own = await harness.sendAsClient(
            "u1", .post, "/v1/me/receipts", json: #"{"receipts":[\#(body[0])]}"#)
        #expect(own.json["accepted"] == .int(1))
    }

    @Test func batchesAreBounded() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.user("u1")
        let many = (0...MeReceiptsAPI.maxReceipts).map { receipt("n\($0)", "displayed") }
        let response = await harness.sendAsClient(
            "u1", .post, "/v1/me/receipts", json: #"{"receipts":[\#(many.joined(separator: ","))]}"#)
        #expect(response.status == .unprocessableContent)
    }

    /// The digest on the phone carries its own id as `nid`, which is what the app reports when it is opened: the
    /// open reads the burst the digest summarises, and neither the thread's notification before the burst nor the
    /// one after it.
    @Test func openingADigestReadsTheBurstItSummarises() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.collapsingChat(devices: [("phone", .apns), ("tablet", .fcm)])
        try await harness.decideMessage("before")
        harness.clock.advance(120)
        for n in 1...3 {
            try await harness.decideMessage("m\(n)")
            harness.clock.advance(5)
        }
        harness.clock.advance(60)
        try await harness.decideAll()
        try await harness.decideMessage("after")
        #expect(try await harness.count("SELECT unread FROM recipient_counters WHERE user_id = 'u1'") == 5)
        let digest = try await harness.sql("SELECT notification_id, event_count FROM digests").single()
        #expect(try digest.int("event_count") == 3)
        let digestId = try digest.string("notification_id")
        let phoneBody = try await harness.sql(
            "SELECT body FROM deliveries WHERE installation_id = 'phone' AND notification_id = $1", [digestId]
        ).single().string(0)
        #expect(phoneBody.contains(digestId))

        let response = await harness.sendAsClient(
            "u1", .post, "/v1/me/receipts", json: #"{"receipts":[\#(receipt(digestId, "opened"))]}"#)
        #expect(response.status == .ok)
        #expect(response.json["unknown"] == .array([]))
        #expect(response.json["accepted"] == .int(1))
        #expect(response.json["items_read"] == .int(3))
        #expect(response.json["unread_count"] == .int(2))
        let unread = try await harness.sql(
            "SELECT item_id FROM decisions WHERE user_id = 'u1' AND read_at IS NULL ORDER BY item_id"
        ).map { try $0.string(0) }
        #expect(unread == ["after", "before"])
        let stored = try await harness.sql("SELECT category_id FROM receipts WHERE notification_id = $1", [digestId])
        #expect(try stored.single().string(0) == "chat.message")
    }

    /// One batch decided, at one instant, the event that caught a late burst's digest up (x) and the first two of
    /// the next burst (y, z). Opening the next burst's digest reads y and z, its own, and not x, which was decided
    /// at the instant that burst began and comes first in seq order.
    @Test func openingADigestReadsOnlyItsOwnBurstOfTheBatchThatBeganIt() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        try await harness.collapsingChat(devices: [("phone", .apns)])
        for n in 1...2 {
            try await harness.decideMessage("m\(n)")
            harness.clock.advance(5)
        }
        // The first burst's close timer is late: x, y and z come in one batch after its window ended.
        _ = try await harness.sql("UPDATE timers SET due_at = due_at + interval '1 day'")
        harness.clock.advance(120)
        let events = ["x", "y", "z"].map {
            PipelineHarness.event(id: $0, thread: "t", item: $0, occurredAt: harness.clock.now)
        }
        let posted = await harness.send(.post, "/v1/events", json: "[" + events.joined(separator: ",") + "]")
        #expect(posted.status.rawValue < 300)
        try await harness.decideAll()
        harness.clock.advance(61)
        try await harness.decideAll()
        let counts = try await harness.sql("SELECT event_count FROM digests ORDER BY decided_at").map {
            try $0.int(0)
        }
        #expect(counts == [3, 2])
        let digestId = try await harness.sql(
            "SELECT notification_id FROM digests WHERE event_count = 2"
        ).single().string(0)

        let response = await harness.sendAsClient(
            "u1", .post, "/v1/me/receipts", json: #"{"receipts":[\#(receipt(digestId, "opened"))]}"#)
        #expect(response.status == .ok)
        #expect(response.json["items_read"] == .int(2))
        let unread = try await harness.sql(
            "SELECT item_id FROM decisions WHERE user_id = 'u1' AND read_at IS NULL ORDER BY item_id"
        ).map { try $0.string(0) }
        #expect(unread == ["m1", "m2", "x"])
    }
}
