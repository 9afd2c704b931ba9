import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres
import Testing

@testable import HeraldService

/// Campaigns through the API, the wave runner driven by hand and the real decision pipeline.
@Suite("Campaign execution", .serialized)
struct CampaignExecutionTests {
    static let midnight = ISO8601.parse("2026-12-01T00:00:00Z")!

    static func harness() async throws -> PipelineHarness {
        let harness = try await PipelineHarness.make(start: midnight)
        try await harness.category(PipelineHarness.chatCategory())
        return harness
    }

    /// Decisions a campaign produced per user: (users with one, users with more than one).
    static func decisionsPerUser(_ harness: PipelineHarness, campaign: String) async throws -> (once: Int, more: Int) {
        let once = try await harness.count(
            """
            SELECT count(*) FROM (SELECT d.user_id
                                  FROM campaign_events ce JOIN decisions d ON d.event_seq = ce.event_seq
                                  WHERE ce.campaign_id = $1 GROUP BY 1 HAVING count(*) = 1) AS x
            """, [campaign])
        let more = try await harness.count(
            """
            SELECT count(*) FROM (SELECT d.user_id
                                  FROM campaign_events ce JOIN decisions d ON d.event_seq = ce.event_seq
                                  WHERE ce.campaign_id = $1 GROUP BY 1 HAVING count(*) > 1) AS x
            """, [campaign])
        return (once, more)
    }

    @Test func wavesRunAtTheirInstantsThroughThePipelineWithProgress() async throws {
        let harness = try await Self.harness()
        defer { harness.close() }
        // Zones as the users API stores them, canonical: the default zone `UTC` is planned as `Etc/UTC` too.
        try await CampaignTestSupport.users(250, prefix: "utc", zone: "Etc/UTC", on: harness)
        try await CampaignTestSupport.users(150, prefix: "ind", zone: "Asia/Kolkata", on: harness)
        try await CampaignTestSupport.users(20, prefix: "none", zone: nil, on: harness)
        try await CampaignTestSupport.devices(on: harness)
        _ = try await harness.sql(
            """
            INSERT INTO user_preferences (user_id, category_id, setting, updated_at)
            SELECT id, 'chat.message', 'off', $1::timestamptz FROM users WHERE id IN ('utc0000001', 'ind0000001')
            """, [harness.clock.now])
        let created = await harness.send(
            .post, "/v1/campaigns", json: CampaignTestSupport.body(id: "digest-1", date: "2026-12-01", time: "09:00"))
        #expect(created.status == .created)
        #expect(created.headers["location"] == "/v1/campaigns/digest-1")
        #expect(created.json["status"]?.stringValue == "scheduled")
        let waves = created.json["waves"]?.arrayValue ?? []
        #expect(waves.map { $0["due_at"]?.stringValue } == ["2026-12-01T03:30:00Z", "2026-12-01T09:00:00Z"])
        #expect(waves.map { $0["planned"]?.intValue } == [150, 270])
        #expect(waves.map { $0["zones"]?.stringArray ?? [] } == [["Asia/Kolkata"], ["Etc/UTC"]])

        #expect(try await CampaignTestSupport.runDue(harness).isEmpty)
        harness.clock.set(ISO8601.parse("2026-12-01T03:30:00Z")!)
        let first = try await CampaignTestSupport.runDue(harness)
        #expect(first.map(\.enqueued) == [100, 50])
        #expect(first.last?.waveFinished == true)
        try await harness.decideAll()
        let midway = await harness.send(.get, "/v1/campaigns/digest-1")
        #expect(midway.json["status"]?.stringValue == "running")
        let wave1 = midway.json["waves"]?.arrayValue.first
        #expect(wave1?["state"]?.stringValue == "done")
        #expect(wave1?["enqueued"]?.intValue == 150)
        #expect(wave1?["decided"]?.intValue == 150)
        #expect(wave1?["delivered"]?.intValue == 149)
        #expect(wave1?["suppressed"]?["suppressed.preference"]?.intValue == 1)
        #expect(midway.json["waves"]?.arrayValue.last?["state"]?.stringValue == "pending")

        harness.clock.set(ISO8601.parse("2026-12-01T09:00:00Z")!)
        #expect(try await CampaignTestSupport.runDue(harness).reduce(0) { $0 + $1.enqueued } == 270)
        // Every wave handed out: completed, but not settled while its last recipients wait in the pipeline.
        let handedOut = await harness.send(.get, "/v1/campaigns/digest-1")
        #expect(handedOut.json["status"]?.stringValue == "completed")
        #expect(handedOut.json["decided"]?.intValue == 150)
        #expect(handedOut.json["settled"] == .bool(false))
        #expect(midway.json["settled"] == .bool(false))
        try await harness.decideAll()
        let done = await harness.send(.get, "/v1/campaigns/digest-1")
        #expect(done.json["settled"] == .bool(true))
        #expect(done.json["status"]?.stringValue == "completed")
        #expect(done.json["decided"]?.intValue == 420)
        #expect(done.json["delivered"]?.intValue == 418)
        let perUser = try await Self.decisionsPerUser(harness, campaign: "digest-1")
        #expect(perUser.once == 420 && perUser.more == 0)
        // The events carry the campaign's category and data, under deterministic ids.
        let event = await harness.send(.get, "/v1/events/campaign/digest-1:1:1")
        #expect(event.status == .ok)

        let listed = await harness.send(.get, "/v1/campaigns")
        #expect(listed.json["items"]?.arrayValue.map { $0["id"]?.stringValue } == ["digest-1"])
        #expect(listed.json["items"]?.arrayValue.first?["enqueued"]?.intValue == 420)
    }

    @Test func lateZonesAreSkippedOrSentNow() async throws {
        let harness = try await Self.harness()
        defer { harness.close() }
        try await CampaignTestSupport.users(5, prefix: "utc", zone: "UTC", on: harness)
        try await CampaignTestSupport.users(3, prefix: "ind", zone: "Asia/Kolkata", on: harness)
        harness.clock.set(ISO8601.parse("2026-12-01T05:00:00Z")!)
        let skipped = await harness.send(
            .post, "/v1/campaigns",
            json: CampaignTestSupport.body(id: "late-skip", date: "2026-12-01", time: "09:00", late: "skip"))
        let skipWaves = skipped.json["waves"]?.arrayValue ?? []
        #expect(skipWaves.map { $0["state"]?.stringValue } == ["skipped", "pending"])
        #expect(skipWaves.map { $0["planned"]?.intValue } == [3, 5])
        let now = await harness.send(
            .post, "/v1/campaigns",
            json: CampaignTestSupport.body(id: "late-now", date: "2026-12-01", time: "09:00", late: "send_now"))
        let nowWaves = now.json["waves"]?.arrayValue ?? []
        #expect(nowWaves.map { $0["due_at"]?.stringValue } == ["2026-12-01T05:00:00Z", "2026-12-01T09:00:00Z"])
        #expect(nowWaves.map { $0["state"]?.stringValue } == ["pending", "pending"])
        let ran = try await CampaignTestSupport.runDue(harness)
        #expect(ran.map(\.campaignId) == ["late-now"])
        #expect(ran.map(\.enqueued) == [3])
    }

    @Test func cancelStopsARunningWaveAtItsNextBatchAndPendingWavesNeverStart() async throws {
        let harness = try await Self.harness()
        defer { harness.close() }
        try await CampaignTestSupport.users(300, prefix: "utc", zone: "UTC", on: harness)
        try await CampaignTestSupport.users(10, prefix: "ny", zone: "America/New_York", on: harness)
        _ = await harness.send(
            .post, "/v1/campaigns", json: CampaignTestSupport.body(id: "stop-me", date: "2026-12-01", time: "09:00"))
        harness.clock.set(ISO8601.parse("2026-12-01T09:00:00Z")!)
        let batch = try await CampaignTestSupport.batch(harness)
        #expect(batch?.enqueued == 100 && batch?.waveFinished == false)
        let canceled = await harness.send(.post, "/v1/campaigns/stop-me/cancel")
        #expect(canceled.status == .ok)
        #expect(canceled.json["status"]?.stringValue == "canceled")
        #expect(canceled.json["waves"]?.arrayValue.map { $0["state"]?.stringValue } == ["canceled", "canceled"])
        harness.clock.set(ISO8601.parse("2026-12-01T23:00:00Z")!)
        #expect(try await CampaignTestSupport.runDue(harness).isEmpty)
        #expect(
            try await harness.count("SELECT count(*) FROM campaign_recipients WHERE campaign_id = 'stop-me'") == 100)
        #expect((await harness.send(.post, "/v1/campaigns/nope/cancel")).status == .notFound)
    }

    @Test func aUserWhoMovesZoneIsSentByTheZoneAtWaveTimeAndNeverTwice() async throws {
        let harness = try await Self.harness()
        defer { harness.close() }
        try await harness.user("early-mover", timeZone: "UTC")
        try await harness.user("late-mover", timeZone: "Asia/Kolkata")
        try await harness.user("missed", timeZone: "UTC")
        try await harness.user("stayer", timeZone: "UTC")
        try await CampaignTestSupport.devices(on: harness)
        _ = await harness.send(
            .post, "/v1/campaigns", json: CampaignTestSupport.body(id: "movers", date: "2026-12-01", time: "09:00"))
        // Before the Kolkata wave: moves into it and gets it there.
        _ = try await harness.sql("UPDATE users SET time_zone = 'Asia/Kolkata' WHERE id = 'early-mover'")
        harness.clock.set(ISO8601.parse("2026-12-01T03:30:00Z")!)
        #expect(try await CampaignTestSupport.runDue(harness).map(\.enqueued) == [2])
        // After it: one moves to UTC (already sent: not again), one moves into the zone whose wave has run.
        _ = try await harness.sql("UPDATE users SET time_zone = 'UTC' WHERE id = 'late-mover'")
        _ = try await harness.sql("UPDATE users SET time_zone = 'Asia/Kolkata' WHERE id = 'missed'")
        harness.clock.set(ISO8601.parse("2026-12-01T09:00:00Z")!)
        let second = try await CampaignTestSupport.runDue(harness)
        #expect(second.map(\.selected) == [2])
        #expect(second.map(\.enqueued) == [1])
        try await harness.decideAll()
        let waveOf = try await harness.sql(
            "SELECT user_id, wave FROM campaign_recipients WHERE campaign_id = 'movers' ORDER BY user_id")
        let sent = try waveOf.map { (try $0.string("user_id"), try $0.int("wave")) }
        #expect(sent.map(\.0) == ["early-mover", "late-mover", "stayer"])
        #expect(sent.map(\.1) == [1, 1, 2])
        let perUser = try await Self.decisionsPerUser(harness, campaign: "movers")
        #expect(perUser.once == 3 && perUser.more == 0)
    }

    @Test func audiencesByTopicAndByListSendOnlyTheirUsers() async throws {
        let harness = try await Self.harness()
        defer { harness.close() }
        try await CampaignTestSupport.users(5, prefix: "u", zone: "UTC", on: harness)
        try await harness.subscribe(["u0000002", "u0000004"], to: "news")
        let topic = await harness.send(
            .post, "/v1/campaigns",
            json: CampaignTestSupport.body(
                id: "by-topic", audience: #"{"topic":"news"}"#, date: "2026-12-01", time: "09:00"))
        #expect(topic.json["planned"]?.intValue == 2)
        let list = await harness.send(
            .post, "/v1/campaigns",
            json: CampaignTestSupport.body(
                id: "by-list", audience: #"{"users":["u0000001","u0000005","ghost"]}"#, date: "2026-12-01",
                time: "09:00"))
        #expect(list.json["planned"]?.intValue == 2)
        harness.clock.set(ISO8601.parse("2026-12-01T09:00:00Z")!)
        try await CampaignTestSupport.runDue(harness)
        let rows = try await harness.sql(
            "SELECT campaign_id || '/' || user_id AS r FROM campaign_recipients ORDER BY 1")
        #expect(
            try rows.map { try $0.string("r") } == [
                "by-list/u0000001", "by-list/u0000005", "by-topic/u0000002", "by-topic/u0000004",
            ])
    }

    @Test func invalidRequestsAreRefusedWithEveryProblem() async throws {
        let harness = try await Self.harness()
        defer { harness.close() }
        let bad = await harness.send(
            .post, "/v1/campaigns",
            json: #"{"category":"Bad Id","audience":{"all":true,"topic":"x"},"date":"2026-02-30","local_time":"24:00","#
                + #""late":"later","default_time_zone":"Mars/Base","extra":1}"#
        )
        #expect(bad.status == .unprocessableContent)
        let pointers = Set((bad.json["errors"]?.arrayValue ?? []).compactMap { $0["pointer"]?.stringValue })
        #expect(
            pointers == ["/category", "/audience", "/date", "/local_time", "/late", "/default_time_zone", "/extra"])
        let unknown = await harness.send(
            .post, "/v1/campaigns",
            json: CampaignTestSupport.body(category: "no.such", date: "2026-12-01", time: "09:00"))
        #expect(unknown.status == .unprocessableContent)
        let first = await harness.send(
            .post, "/v1/campaigns", json: CampaignTestSupport.body(id: "twice", date: "2026-12-01", time: "09:00"))
        #expect(first.status == .created)
        let again = await harness.send(
            .post, "/v1/campaigns", json: CampaignTestSupport.body(id: "twice", date: "2026-12-01", time: "09:00"))
        #expect(again.status == .conflict)
        #expect((await harness.send(.get, "/v1/campaigns/none")).status == .notFound)
        let badCursor = await harness.send(.get, "/v1/campaigns?cursor=%%%")
        #expect(badCursor.status == .badRequest)
        #expect(badCursor.json["pointer"]?.stringValue == "cursor")
    }

    @Test func aCampaignTakesACategoryOfNotificationsADateEveryZoneCanReachAndTheDefaultZonesCanonicalId()
        async throws
    {
        let harness = try await Self.harness()
        defer { harness.close() }
        var live = PipelineHarness.chatCategory(id: "sports.score", quietHours: .bypass)
        live.kind = .liveActivity
        live.countsTowardBadge = false
        try await harness.category(live)
        let liveCampaign = await harness.send(
            .post, "/v1/campaigns:plan",
            json: CampaignTestSupport.body(category: "sports.score", date: "2026-12-01", time: "09:00"))
        #expect(liveCampaign.status == .unprocessableContent)
        #expect(liveCampaign.json["pointer"]?.stringValue == "/category")
        // 23:59 on the last day is already year 10000 in UTC from New York.
        let lastDay = await harness.send(
            .post, "/v1/campaigns:plan", json: CampaignTestSupport.body(date: "9999-12-31", time: "23:59"))
        #expect(lastDay.status == .unprocessableContent)
        #expect(lastDay.json["pointer"]?.stringValue == "/date")
        #expect(
            await harness.send(
                .post, "/v1/campaigns:plan", json: CampaignTestSupport.body(date: "9999-12-30", time: "23:59")
            ).status == .ok)
        try await CampaignTestSupport.users(3, prefix: "ny", zone: "America/New_York", on: harness)
        try await CampaignTestSupport.users(2, prefix: "none", zone: nil, on: harness)
        let alias = await harness.send(
            .post, "/v1/campaigns:plan",
            json: CampaignTestSupport.body(date: "2026-12-01", time: "09:00", defaultZone: "US/Eastern"))
        #expect(alias.status == .ok, "\(alias.bodyText)")
        #expect(alias.json["default_time_zone"]?.stringValue == "America/New_York")
        let waves = alias.json["waves"]?.arrayValue ?? []
        #expect(waves.map { $0["zones"]?.stringArray ?? [] } == [["America/New_York"]])
        #expect(waves.map { $0["planned"]?.intValue } == [5])
    }

    @Test func cancelingACompletedCampaignLeavesItCompleted() async throws {
        let harness = try await Self.harness()
        defer { harness.close() }
        try await CampaignTestSupport.users(5, prefix: "utc", zone: "Etc/UTC", on: harness)
        _ = await harness.send(
            .post, "/v1/campaigns", json: CampaignTestSupport.body(id: "done", date: "2026-12-01", time: "09:00"))
        harness.clock.set(ISO8601.parse("2026-12-01T09:00:00Z")!)
        #expect(try await CampaignTestSupport.runDue(harness).reduce(0) { $0 + $1.enqueued } == 5)
        let canceled = await harness.send(.post, "/v1/campaigns/done/cancel")
        #expect(canceled.status == .ok)
        #expect(canceled.json["status"]?.stringValue == "completed")
        #expect(canceled.json["canceled_at"] == .null)
    }
}
