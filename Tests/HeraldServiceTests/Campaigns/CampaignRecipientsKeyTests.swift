import Foundation
import HeraldCore
import Testing

@testable import HeraldPostgres
@testable import HeraldService

/// A campaign's recipients carry no foreign key: the claim of a wave holds the campaign for the batch instead, and
/// deleting a campaign still removes them (`0027_campaign_recipients_key_checked_per_batch.sql`).
@Suite("Campaign recipients' key", .serialized)
struct CampaignRecipientsKeyTests {
    static func harness() async throws -> PipelineHarness {
        let harness = try await PipelineHarness.make(start: ISO8601.parse("2026-12-01T00:00:00Z")!)
        try await harness.category(PipelineHarness.chatCategory())
        try await CampaignTestSupport.users(30, prefix: "u", zone: "UTC", on: harness)
        try await CampaignTestSupport.devices(on: harness)
        let created = await harness.send(
            .post, "/v1/campaigns", json: CampaignTestSupport.body(id: "held", date: "2026-12-01", time: "09:00"))
        #expect(created.status == .created)
        harness.clock.set(ISO8601.parse("2026-12-01T09:00:00Z")!)
        return harness
    }

    @Test func aClaimedBatchHoldsItsCampaignUntilItCommits() async throws {
        let harness = try await Self.harness()
        defer { harness.close() }
        let now = harness.clock.now
        let conninfo = harness.conninfo
        try await offCooperativePool {
            let claimer = try PostgresConnection(conninfo: conninfo)
            let deleter = try PostgresConnection(conninfo: conninfo)
            let lockCampaign = Query(unsafeSQL: "SELECT id FROM campaigns WHERE id = 'held' FOR UPDATE NOWAIT")
            let claimed = try claimer.pipeline([
                PipelineRepository.beginQuery, BoundQuery(CampaignRepository.claimWave, [now]),
            ])
            #expect(try claimed[1].single().string("campaign_id") == "held")
            // A delete would need this lock: it waits for the batch, as the per-row key check made it do.
            #expect(throws: PostgresError.self) { _ = try deleter.query(lockCampaign) }
            _ = try claimer.pipeline([PipelineRepository.commitQuery])
            #expect(try deleter.query(lockCampaign).count == 1)
        }
    }

    @Test func deletingACampaignRemovesItsRecipients() async throws {
        let harness = try await Self.harness()
        defer { harness.close() }
        #expect(try await CampaignTestSupport.runDue(harness, size: 10).map(\.enqueued).reduce(0, +) == 30)
        #expect(try await harness.count("SELECT count(*) FROM campaign_recipients WHERE campaign_id = 'held'") == 30)
        // Not something the API offers: an operator's cleanup, which must not leave recipients behind.
        _ = try await harness.sql("DELETE FROM campaigns WHERE id = 'held'")
        #expect(try await harness.count("SELECT count(*) FROM campaign_recipients") == 0)
        #expect(try await harness.count("SELECT count(*) FROM campaign_waves") == 0)
    }
}
