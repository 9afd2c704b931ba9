import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres
import HeraldTestSupport
import Testing

@testable import HeraldService

/// A campaign batch's event key is its own: no publisher may take it first, and a batch whose key is taken records
/// nothing instead of counting recipients it never notified.
@Suite("Campaign event keys", .serialized)
struct CampaignEventKeyTests {
    @Test func publishersCannotUseTheCampaignSource() async throws {
        let harness = try await CampaignExecutionTests.harness()
        defer { harness.close() }
        try await harness.user("u1")
        let response = await harness.send(
            .post, "/v1/events",
            json: PipelineHarness.event(
                id: "digest:1:1", source: CampaignRepository.eventSource, occurredAt: harness.clock.now))
        #expect(response.status == .unprocessableContent)
        #expect(response.json["errors"]?.pointers == ["/source"])
        #expect(try await harness.count("SELECT count(*) FROM event_keys") == 0)
    }

    @Test func aBatchWhoseKeyIsTakenRecordsNothingAndTheWaveGoesOnUnderTheNextNumber() async throws {
        let harness = try await CampaignExecutionTests.harness()
        defer { harness.close() }
        try await CampaignTestSupport.users(3, prefix: "u", zone: "UTC", on: harness)
        let created = await harness.send(
            .post, "/v1/campaigns", json: CampaignTestSupport.body(id: "digest", date: "2026-12-01", time: "09:00"))
        #expect(created.status == .created)
        // The key of the campaign's first batch, taken some other way (stored before the source was reserved).
        _ = try await harness.sql(
            """
            INSERT INTO event_keys (source, id, body_hash, accepted_at)
            VALUES ($1, 'digest:1:1', repeat('a', 64), $2)
            """, [CampaignRepository.eventSource, harness.clock.now])
        harness.clock.set(ISO8601.parse("2026-12-01T09:00:00Z")!)
        let skipped = try #require(try await CampaignTestSupport.batch(harness))
        #expect(skipped.enqueued == 0 && !skipped.waveFinished && skipped.skippedBatch == 1)
        let log = LogCapture()
        CampaignRunner.log(skipped, to: log.logger)
        #expect(log.all.count == 1)
        #expect(log.all.first?.contains("event key was already taken") == true)
        #expect(log.all.first?.contains(#""campaign.batch":1"#) == true)
        #expect(try await harness.count("SELECT count(*) FROM campaign_recipients") == 0)
        let sent = try #require(try await CampaignTestSupport.batch(harness))
        #expect(sent.enqueued == 3 && sent.skippedBatch == nil)
        #expect(
            try await harness.sql("SELECT e.id FROM campaign_events c JOIN events e ON e.seq = c.event_seq")
                .map { try $0.string(0) } == ["digest:1:2"])
        try await harness.decideAll()
        let decided = try await CampaignExecutionTests.decisionsPerUser(harness, campaign: "digest")
        #expect(decided.once == 3 && decided.more == 0)
    }
}
