import Dispatch
import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres
import Synchronization
import Testing

@testable import HeraldService

@Suite("Pipeline: ingest → decide → queue", .serialized)
struct PipelineDecisionTests {
    /// 2026-12-01T22:30:00Z, which is 23:30 in Berlin.
    let lateEvening = Date(timeIntervalSince1970: 1_796_164_200)

    /// A pipeline at `lateEvening` with the chat category and user `u1` on `devices`.
    func chatUser(devices: [(String, Device.Platform)]) async throws -> PipelineHarness {
        let harness = try await PipelineHarness.make(start: lateEvening)
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("u1")
        for (installation, platform) in devices {
            try await harness.device(installation, user: "u1", platform: platform)
        }
        return harness
    }

    /// The queue-depth gauge counts each platform's queued deliveries up to its cap, so its cost never grows with a
    /// stalled queue.
    @Test func theQueueDepthIsCountedPerPlatformUpToItsCap() async throws {
        let harness = try await chatUser(devices: [("phone", .apns), ("tablet", .fcm)])
        defer { harness.close() }
        for id in ["m1", "m2", "m3"] {
            let accepted = await harness.send(
                .post, "/v1/events", json: PipelineHarness.event(id: id, occurredAt: lateEvening))
            #expect(accepted.status == .accepted)
        }
        try await harness.decideAll()
        let full = try await harness.database { try DeliveryRepository.queueDepth(cap: 100, on: $0) }
        #expect(full == ["apns": 3, "fcm": 3, "webpush": 0, "wns": 0])
        let capped = try await harness.database { try DeliveryRepository.queueDepth(cap: 2, on: $0) }
        #expect(capped == ["apns": 2, "fcm": 2, "webpush": 0, "wns": 0])
    }

    /// A stored document that no longer decodes (written by another version, or by hand) is not silently decided
    /// for no one: the event gets the outcome `rejected.undecodable`, counted like every other outcome.
    @Test func anEventWhoseStoredDocumentDoesNotDecodeIsRejectedUndecodable() async throws {
        let harness = try await chatUser(devices: [("phone", .apns)])
        defer { harness.close() }
        for id in ["bad", "good"] {
            let accepted = await harness.send(
                .post, "/v1/events", json: PipelineHarness.event(id: id, occurredAt: lateEvening))
            #expect(accepted.status == .accepted)
        }
        _ = try await harness.sql(
            #"UPDATE events SET document = '{"source":"chat","id":"bad"}' WHERE source = 'chat' AND id = 'bad'"#)
        let reports = try await harness.decideAll()
        #expect(reports.map { $0.outcomes["rejected.undecodable", default: 0] }.reduce(0, +) == 1)
        #expect(reports.flatMap(\.undecodable).map(\.id) == ["bad"])

        let bad = await harness.send(.get, "/v1/events/chat/bad").json
        #expect(bad["status"] == .string("decided"))
        #expect(bad["outcome"] == .string("rejected.undecodable"))
        #expect(bad["recipients"] == .array([]))
        let good = await harness.send(.get, "/v1/events/chat/good").json
        #expect(good["outcome"] == nil)
        #expect(try await harness.count("SELECT count(*) FROM deliveries") == 1)
    }

    @Test func oneRecipientWithTwoDevicesGetsOneDecisionAndTwoQueuedPushes() async throws {
        let harness = try await chatUser(devices: [("phone", .apns), ("tablet", .fcm)])
        defer { harness.close() }
        let accepted = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "m1", item: "msg-1", occurredAt: lateEvening))
        #expect(accepted.status == .accepted)
        let reports = try await harness.decideAll()
        #expect(reports.map(\.eventsDone).reduce(0, +) == 1)

        let status = await harness.send(.get, "/v1/events/chat/m1").json
        #expect(status["status"] == .string("decided"))
        guard case .array(let recipients)? = status["recipients"], let decision = recipients.first else {
            Issue.record("no decision")
            return
        }
        #expect(recipients.count == 1)
        #expect(decision["reason"] == .string("delivered"))
        #expect(decision["badge"] == .int(1))
        guard case .array(let ids)? = decision["delivery_ids"] else {
            Issue.record("no delivery ids")
            return
        }
        #expect(ids.count == 2)
        let rows = try await harness.sql(
            "SELECT id, platform, kind, state, body, event_source, event_id FROM deliveries ORDER BY platform")
        #expect(rows.count == 2)
        #expect(try rows.map { try $0.string("platform") } == ["apns", "fcm"])
        #expect(try rows.allSatisfy { try $0.string("state") == "queued" && $0.string("kind") == "alert" })
        #expect(try rows.allSatisfy { try $0.string("event_source") == "chat" && $0.string("event_id") == "m1" })
        #expect(
            try Set(rows.map { try $0.string("id") })
                == Set(ids.compactMap { if case .string(let s) = $0 { s } else { nil } }))
        #expect(try rows[0].string("body").contains("\"badge\":1"))
        #expect(try await harness.count("SELECT unread FROM recipient_counters WHERE user_id = 'u1'") == 1)
    }

    /// Ended mutes stay stored until the user next stores one; the pipeline reads them with the others, and only
    /// the running one silences.
    @Test func aMuteSilencesUntilItsEndAndNotAfter() async throws {
        let harness = try await chatUser(devices: [("phone", .apns)])
        defer { harness.close() }
        let inOneHour = ISO8601.format(lateEvening.addingTimeInterval(3600))
        let muted = await harness.send(
            .post, "/v1/users/u1/mutes", json: #"{"scope":"category","key":"chat.message","until":"\#(inOneHour)"}"#)
        #expect(muted.status == .created)
        for (id, offset) in [("during", 0.0), ("after", 3600.0)] {
            harness.clock.set(lateEvening.addingTimeInterval(offset))
            let event = PipelineHarness.event(id: id, occurredAt: harness.clock.now)
            #expect(await harness.send(.post, "/v1/events", json: event).status == .accepted)
            try await harness.decideAll()
        }
        #expect(try await harness.count("SELECT count(*) FROM user_mutes WHERE user_id = 'u1'") == 1)
        let outcomes = try await harness.sql(
            "SELECT e.id, d.outcome FROM decisions d JOIN events e ON e.seq = d.event_seq ORDER BY e.id")
        #expect(
            try outcomes.map { "\(try $0.string("id"))=\(try $0.string("outcome"))" } == [
                "after=delivered", "during=suppressed.muted",
            ])
    }

    @Test func aQuietHoursDeferralBecomesClaimableWhenTheWindowEnds() async throws {
        let harness = try await PipelineHarness.make(start: lateEvening)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory(quietHours: .defer))
        try await harness.user("night", timeZone: "Europe/Berlin", quiet: (start: 22 * 60, end: 7 * 60))
        try await harness.device("phone", user: "night")
        _ = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "late", users: ["night"], occurredAt: lateEvening))
        try await harness.decideAll()
        let morning = Date(timeIntervalSince1970: 1_796_191_200)  // 2026-12-02T06:00:00Z = 07:00 in Berlin
        let decision = await harness.send(.get, "/v1/events/chat/late").json["recipients"]
        guard case .array(let recipients)? = decision else {
            Issue.record("no decision")
            return
        }
        #expect(recipients.first?["reason"] == .string("deferred.quiet_hours"))
        #expect(recipients.first?["deliver_at"] == .string(ISO8601.format(morning)))

        let tooEarly = await harness.send(.post, "/v1/deliveries/claim", json: #"{"limit":10}"#)
        #expect(tooEarly.json["deliveries"] == .array([]))
        harness.clock.set(morning - 1)
        #expect(await harness.send(.post, "/v1/deliveries/claim", json: "{}").json["deliveries"] == .array([]))
        harness.clock.set(morning)
        let due = await harness.send(.post, "/v1/deliveries/claim", json: "{}")
        guard case .array(let leased)? = due.json["deliveries"] else {
            Issue.record("no deliveries")
            return
        }
        #expect(leased.count == 1)
        #expect(leased.first?["available_at"] == .string(ISO8601.format(morning)))
    }

    @Test func aBurstDecidedByTwoConcurrentWorkersProducesOneFirstPushAndOneDigest() async throws {
        let harness = try await PipelineHarness.make(start: lateEvening, batchSize: 1)
        defer { harness.close() }
        try await Self.collapsingChatToOnePhone(harness)
        let events = (0..<20).map {
            PipelineHarness.event(id: "burst-\($0)", thread: "t1", actor: "a\($0 % 3)", occurredAt: lateEvening)
        }
        #expect(await harness.send(.post, "/v1/events", json: "[\(events.joined(separator: ","))]").status == .accepted)

        // Two workers at once: each runs batches of one event on its own pool connection.
        try await Self.twoWorkers(harness)
        #expect(try await harness.count("SELECT count(*) FROM decisions") == 20)
        #expect(try await harness.count("SELECT count(*) FROM decisions WHERE outcome = 'delivered'") == 1)
        #expect(try await harness.count("SELECT count(*) FROM decisions WHERE outcome = 'collapsed'") == 19)
        #expect(try await harness.count("SELECT count(*) FROM deliveries") == 1)
        #expect(try await harness.count("SELECT count(*) FROM timers") == 1)

        harness.clock.advance(61)
        try await Self.twoWorkers(harness)
        #expect(try await harness.count("SELECT count(*) FROM digests") == 1)
        #expect(try await harness.count("SELECT event_count FROM digests") == 20)
        #expect(try await harness.count("SELECT count(*) FROM timers") == 0)
        #expect(try await harness.count("SELECT count(DISTINCT collapse_id) FROM deliveries") == 1)
        let bodies = try await harness.sql("SELECT body FROM deliveries ORDER BY created_at, id").map {
            try $0.string(0)
        }
        #expect(bodies.count == 2)
        #expect(bodies.contains { $0.contains("20 new messages") })
        #expect(try await harness.count("SELECT unread FROM recipient_counters WHERE user_id = 'u1'") == 20)
    }

    @Test func aDigestAnEventCatchesUpIsRecordedWithTheEventsItSummarises() async throws {
        let harness = try await PipelineHarness.make(start: lateEvening)
        defer { harness.close() }
        try await Self.collapsingChatToOnePhone(harness)
        for id in ["first", "second"] {
            _ = await harness.send(
                .post, "/v1/events",
                json: PipelineHarness.event(id: id, thread: "t1", occurredAt: harness.clock.now))
            _ = try await harness.decideAll()
        }
        // The window closes and its timer has not fired (a loaded worker is late): the next event catches it up.
        _ = try await harness.sql("DELETE FROM timers")
        harness.clock.advance(61)
        _ = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "third", thread: "t1", occurredAt: harness.clock.now))
        _ = try await harness.decideAll()
        let digest = try #require(
            try await harness.sql("SELECT event_count, detail, outcome, folded FROM digests").first)
        #expect(try digest.int(0) == 3)
        #expect(try digest.int(3) == 2)
        #expect(try digest.string(1) == "caught_up")
        #expect(try digest.string(2) == "delivered")
        // Every collapsed event is in a digest, with the first event it replaces.
        #expect(try await harness.count("SELECT count(*) FROM decisions WHERE outcome = 'collapsed'") == 2)
    }

    @Test func aTopicIsDecidedPageByPageOncePerSubscriber() async throws {
        let harness = try await PipelineHarness.make(start: lateEvening, topicPage: 2)
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        let members = ["m1", "m2", "m3", "m4", "m5"]
        for member in members { try await harness.user(member) }
        try await harness.subscribe(members, to: "room:1")
        // m3 is named explicitly and also subscribed; m5 caused the event.
        _ = await harness.send(
            .post, "/v1/events",
            json: PipelineHarness.event(id: "t1", users: ["m3"], actor: "m5", occurredAt: lateEvening, topic: "room:1"))
        let reports = try await harness.decideAll()
        #expect(reports.count == 3)
        #expect(try await harness.count("SELECT count(*) FROM decisions") == 5)
        #expect(try await harness.count("SELECT count(*) FROM decisions WHERE outcome = 'suppressed.actor'") == 1)
        #expect(try await harness.count("SELECT count(*) FROM decisions WHERE outcome = 'no_devices'") == 4)
        #expect(try await harness.count("SELECT recipients_decided FROM events") == 5)
        #expect(try await harness.count("SELECT count(*) FROM events WHERE state = 'decided'") == 1)
    }

    @Test func twoEventsForOneUserInOneBatchSeeEachOthersState() async throws {
        let harness = try await chatUser(devices: [("phone", .apns)])
        defer { harness.close() }
        let events = (1...3).map { PipelineHarness.event(id: "s\($0)", occurredAt: lateEvening) }
        _ = await harness.send(.post, "/v1/events", json: "[\(events.joined(separator: ","))]")
        let reports = try await harness.decideAll()
        #expect(reports.count == 1)
        let badges = try await harness.sql("SELECT badge FROM decisions ORDER BY event_seq").map { try $0.int(0) }
        #expect(badges == [1, 2, 3])
    }
}

extension PipelineDecisionTests {
    /// A chat category collapsing by thread over 60 s, and user `u1` with one phone.
    static func collapsingChatToOnePhone(_ harness: PipelineHarness) async throws {
        try await harness.collapsingChat(devices: [("phone", .apns)])
    }

    /// Runs two batch loops at the same time until neither finds work.
    static func twoWorkers(_ harness: PipelineHarness) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<2 { group.addTask { _ = try await harness.decideAll() } }
            try await group.waitForAll()
        }
    }
}
