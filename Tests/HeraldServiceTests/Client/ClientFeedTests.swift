import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres
import Testing

@testable import HeraldService

@Suite("Client feed by cursor", .serialized)
struct ClientFeedTests {
    let start = Date(timeIntervalSince1970: 1_796_130_000)

    func prepared() async throws -> PipelineHarness {
        let harness = try await PipelineHarness.make(start: start)
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("u1")
        try await harness.user("u2")
        try await harness.device("phone", user: "u1", platform: .apns)
        return harness
    }

    @Test func pagesComeInOrderRenderedWithTheBadgeAndARepeatableCursor() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        try await harness.notify("u1", items: ["i1", "i2", "i3", "i4", "i5"], at: start)

        let first = await harness.sendAsClient("u1", .get, "/v1/me/feed?limit=2")
        #expect(first.status == .ok)
        #expect(first.json["has_more"] == .bool(true))
        #expect(first.json["unread_count"] == .int(5))
        #expect(first.json["badge"] == .int(5))
        guard case .array(let items)? = first.json["items"], case .string(let cursor)? = first.json["next_cursor"]
        else {
            Issue.record("no items")
            return
        }
        #expect(items.map { $0["item_id"] } == [.string("i1"), .string("i2")])
        #expect(items[0]["title"] == .string("New message"))
        #expect(items[0]["body"] == .string("hi"))
        #expect(items[0]["category"] == .string("chat.message"))
        #expect(items[0]["read"] == .bool(false))
        #expect(items[1]["cursor"] == .string(cursor))

        let again = await harness.sendAsClient("u1", .get, "/v1/me/feed?limit=2&after=\(cursor)")
        let repeated = await harness.sendAsClient("u1", .get, "/v1/me/feed?limit=2&after=\(cursor)")
        #expect(again.body == repeated.body)
        let rest = await harness.drainFeed("u1", after: cursor, limit: 2)
        #expect(rest.items.map { $0["item_id"] } == [.string("i3"), .string("i4"), .string("i5")])

        let empty = await harness.sendAsClient("u1", .get, "/v1/me/feed?after=\(rest.cursor!)")
        #expect(empty.json["items"] == .array([]))
        #expect(empty.json["next_cursor"] == .string(rest.cursor!))
        #expect(empty.json["has_more"] == .bool(false))

        // The other user's feed is their own, whatever cursor they hold.
        let other = await harness.sendAsClient("u2", .get, "/v1/me/feed?after=\(cursor)")
        #expect(other.json["items"] == .array([]))
    }

    @Test func itemsCarryTheImageAndLinkAsTheirPushesDo() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        var templated = PipelineHarness.chatCategory(id: "chat.photo")
        templated.imageTemplate = "https://img.example/t/{thread_id}.png"
        templated.linkTemplate = "chat://t/{thread_id}"
        try await harness.category(templated)
        let own =
            PipelineHarness.event(id: "own", users: ["u1"], thread: "t1", occurredAt: start).dropLast()
            + #","image_url":"https://cdn.example/own.jpg","link":"https://chat.example/t/1"}"#
        for body in [
            String(own), PipelineHarness.event(id: "tpl", category: "chat.photo", thread: "a b", occurredAt: start),
            PipelineHarness.event(id: "plain", occurredAt: start),
        ] {
            #expect(await harness.send(.post, "/v1/events", json: body).status == .accepted)
        }
        try await harness.decideAll()
        let items = await harness.drainFeed("u1", after: nil, limit: 50).items
        #expect(items.count == 3)
        // Every item names both members, null when its event has none; the thread id tells the events apart.
        func media(_ thread: JSONValue) -> [JSONValue?]? {
            items.first { $0["thread_id"] == thread }.map { [$0["image_url"], $0["link"]] }
        }
        #expect(media(.string("t1")) == [.string("https://cdn.example/own.jpg"), .string("https://chat.example/t/1")])
        #expect(media(.string("a b")) == [.string("https://img.example/t/a%20b.png"), .string("chat://t/a%20b")])
        #expect(media(.null) == [.null, .null])
        let rows = try await harness.sql("SELECT event_id, body FROM deliveries ORDER BY event_id")
        var pushed: [String: [String: Any]] = [:]
        for row in rows {
            pushed[try row.string("event_id")] =
                (try? JSONSerialization.jsonObject(with: Data(try row.string("body").utf8))) as? [String: Any]
        }
        // Exactly as the pushes carry them.
        #expect(pushed["own"]?["img"] as? String == "https://cdn.example/own.jpg")
        #expect(pushed["own"]?["link"] as? String == "https://chat.example/t/1")
        #expect(pushed["tpl"]?["img"] as? String == "https://img.example/t/a%20b.png")
        #expect(pushed["tpl"]?["link"] as? String == "chat://t/a%20b")
        #expect(pushed["plain"]?["img"] == nil)
    }

    @Test(arguments: ["nope", "AQAAAAAAAAAB", "AgAAAAAAAAAB", "AQAAAAAAAAAB==", "%00"])
    func aCursorHeraldDidNotIssueIsA400NamingAfter(_ cursor: String) async throws {
        let harness = try await prepared()
        defer { harness.close() }
        let valid = FeedCursor(position: 1).text
        #expect(valid == "AQAAAAAAAAAB")
        let response = await harness.sendAsClient("u1", .get, "/v1/me/feed?after=\(cursor)")
        if cursor == valid {
            #expect(response.status == .ok)
        } else {
            #expect(response.status == .badRequest)
            #expect(response.json["pointer"] == .string("after"))
        }
    }

    @Test func aReadThroughTheClientShowsInTheFeedAndWithdrawsElsewhere() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        try await harness.device("tablet", user: "u1", platform: .fcm)
        try await harness.notify("u1", items: ["i1", "i2"], at: start)
        let read = await harness.sendAsClient(
            "u1", .post, "/v1/me/read", json: #"{"item_ids":["i1"],"device":"phone"}"#)
        #expect(read.status == .ok)
        #expect(read.json["unread_count"] == .int(1))
        #expect(try await harness.count("SELECT count(*) FROM deliveries WHERE kind = 'withdraw'") == 1)
        let feed = await harness.sendAsClient("u1", .get, "/v1/me/feed")
        guard case .array(let items)? = feed.json["items"] else { return }
        #expect(items.map { $0["read"] } == [.bool(true), .bool(false)])
        #expect(feed.json["badge"] == .int(1))
    }

    /// Reads name items in the caller's own feed only: the same item id in another user's feed stays unread, and
    /// that user's devices get no withdrawal.
    @Test func aReadThroughTheClientLeavesAnotherUsersSameItemAlone() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        try await harness.device("bo-phone", user: "u2", platform: .fcm)
        try await harness.notify("u1", items: ["i1"], at: start)
        try await harness.notify("u2", items: ["i1"], at: start)
        let read = await harness.sendAsClient("u1", .post, "/v1/me/read", json: #"{"item_ids":["i1"]}"#)
        #expect(read.status == .ok)
        #expect(read.json["unread_count"] == .int(0))
        #expect(try await harness.count("SELECT unread FROM recipient_counters WHERE user_id = 'u2'") == 1)
        #expect(
            try await harness.count("SELECT count(*) FROM deliveries WHERE kind = 'withdraw' AND user_id = 'u2'") == 0)
        let feed = await harness.sendAsClient("u2", .get, "/v1/me/feed")
        guard case .array(let items)? = feed.json["items"] else {
            Issue.record("no feed")
            return
        }
        #expect(items.map { $0["read"] } == [.bool(false)])
        #expect(feed.json["badge"] == .int(1))
    }

    @Test func appBuiltPayloadsCarryTheCursorOfTheirFeedItem() async throws {
        let harness = try await PipelineHarness.make(start: start)
        defer { harness.close() }
        var category = PipelineHarness.chatCategory()
        category.deliveryMode = .combined
        try await harness.category(category)
        try await harness.user("u1")
        try await harness.device("phone", user: "u1", platform: .apns)
        try await harness.device("pixel", user: "u1", platform: .fcm)
        try await harness.device("web", user: "u1", platform: .webpush)
        _ = try await harness.sql("UPDATE devices SET app_builds_notifications = installation_id <> 'web'")
        try await harness.notify("u1", items: ["i1", "i2"], at: start)

        let feed = await harness.sendAsClient("u1", .get, "/v1/me/feed")
        guard case .array(let items)? = feed.json["items"], case .string(let second)? = items.last?["cursor"] else {
            Issue.record("no feed")
            return
        }
        let rows = try await harness.sql(
            """
            SELECT d.installation_id, d.body FROM deliveries d JOIN decisions n ON n.notification_id = d.notification_id
            WHERE n.item_id = 'i2' ORDER BY d.installation_id
            """)
        #expect(rows.count == 3)
        for row in rows {
            let body = try row.string("body")
            if try row.string("installation_id") == "web" {
                #expect(!body.contains("cursor"), "a system-displayed push needs no cursor")
            } else {
                #expect(body.contains(#""cursor":"\#(second)""#), "\(body)")
            }
        }
        // After the push's cursor there is nothing new; before it, exactly that item.
        let after = await harness.sendAsClient("u1", .get, "/v1/me/feed?after=\(second)")
        #expect(after.json["items"] == .array([]))
    }

    /// Two workers decide small batches for one user while a reader pages the feed: the reader must end with every
    /// notification exactly once. Batches claimed in event order can commit out of order; positions cannot.
    @Test func pagingWhileWorkersInsertConcurrentlySkipsAndRepeatsNothing() async throws {
        let harness = try await PipelineHarness.make(start: start, batchSize: 3)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("u1")
        try await harness.device("phone", user: "u1", platform: .apns)
        let total = 240
        let processor = harness.processor
        let clock = harness.clock
        // The reader's pages so far. After each batch but the last the writer waits for one more, so that the
        // reader pages while the writers run however the two tasks happen to be scheduled.
        let pages = PageTally()

        async let writer: Void = {
            for batch in stride(from: 0, to: total, by: 40) {
                let events = (batch..<batch + 40).map { index in
                    PipelineHarness.event(id: "e\(index)", item: "i\(index)", occurredAt: start)
                }
                _ = await harness.send(.post, "/v1/events", json: "[\(events.joined(separator: ","))]")
                // Two deciders at once, on two connections, racing for the same user's events.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<2 {
                        group.addTask {
                            while true {
                                let report = try await harness.database { connection in
                                    try processor.run(on: PostgresDecisionStore(connection), now: clock.now)
                                }
                                if !report.didWork { return }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                if batch + 40 < total { try await pages.waitForOneMore() }
            }
        }()
        var seen: [JSONValue] = []
        var cursor: String?
        var reads = 0
        while seen.count < total, reads < 10_000 {
            let page = await harness.drainFeed("u1", after: cursor, limit: 7)
            seen += page.items
            cursor = page.cursor
            reads += 1
            await pages.add()
        }
        try await writer
        let tail = await harness.drainFeed("u1", after: cursor, limit: 7)
        seen += tail.items
        let ids = seen.compactMap { item -> String? in
            if case .string(let id)? = item["notification_id"] { return id }
            return nil
        }
        #expect(ids.count == total)
        #expect(Set(ids).count == total)
        let cursors = seen.compactMap { item -> Int64? in
            if case .string(let text)? = item["cursor"] { return FeedCursor(text: text)?.position }
            return nil
        }
        #expect(cursors == Array(1...Int64(total)))
        #expect(reads > 1, "the reader should have paged while the writers ran")
        let inversions = try await harness.count(
            """
            SELECT count(*) FROM decisions a JOIN decisions b ON a.user_id = b.user_id
            WHERE a.event_seq < b.event_seq AND a.feed_seq > b.feed_seq
            """)
        print("feed paging under concurrent inserts: \(reads) reads, \(inversions) commit-order inversions")
    }
}

/// How many pages a concurrent reader has read, for a writer that must not run ahead of it.
private actor PageTally {
    struct Stalled: Error, CustomStringConvertible {
        var description: String { "the reader read no page in 30 s while the writers waited for it" }
    }

    private var count = 0

    func add() { count += 1 }

    /// Returns once another page has been read; fails after 30 s.
    func waitForOneMore() async throws {
        let seen = count
        let deadline = ContinuousClock.now + .seconds(30)
        while count == seen {
            guard ContinuousClock.now < deadline else { throw Stalled() }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}
