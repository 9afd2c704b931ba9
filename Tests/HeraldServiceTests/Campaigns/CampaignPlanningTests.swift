import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres
import Testing

@testable import HeraldService

/// Plans over one user in every zone of the OS tz database, compared wave by wave with Python's `zoneinfo`.
@Suite("Campaign planning against zoneinfo", .serialized)
struct CampaignPlanningTests {
    /// An ordinary day, the US and EU spring-forward gaps, and the US and EU fall-back overlaps.
    @Test(arguments: [
        ("2026-12-01", "09:00"), ("2026-03-08", "02:30"), ("2026-03-29", "02:30"), ("2026-11-01", "01:30"),
        ("2026-10-25", "02:30"),
    ])
    func everyZoneIsPlannedAtTheInstantZoneinfoGives(date: String, time: String) async throws {
        let oracle = try await CampaignTestSupport.oracle(date: date, time: time)
        let zones = oracle.keys.filter { PipelineHarness.zones.zone($0) != nil }.sorted()
        #expect(zones.count > 590)
        let harness = try await PipelineHarness.make(start: Date(timeIntervalSince1970: 1_700_000_000))
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        _ = try await harness.sql(
            """
            INSERT INTO users (id, time_zone, created_at, updated_at)
            SELECT 'z' || ord, zone, $2::timestamptz, $2::timestamptz FROM unnest($1::text[]) WITH ORDINALITY AS z(zone, ord)
            """, [PipelineArray(zones), harness.clock.now])
        try await CampaignTestSupport.users(3, prefix: "nozone", zone: nil, on: harness)

        let created = await harness.send(
            .post, "/v1/campaigns", json: CampaignTestSupport.body(date: date, time: time, defaultZone: "Asia/Kolkata"))
        #expect(created.status == .created)
        let waves = created.json["waves"]?.arrayValue ?? []
        var planned: [String: Date] = [:]
        for wave in waves {
            let due = try #require(wave["due_at"]?.dateValue)
            for zone in wave["zones"]?.stringArray ?? [] {
                #expect(planned[zone] == nil, "zone \(zone) in two waves")
                planned[zone] = due
            }
            #expect(wave["state"]?.stringValue == "pending")
        }
        #expect(Set(planned.keys) == Set(zones))
        var mismatches: [String] = []
        for zone in zones where planned[zone].map({ Int($0.timeIntervalSince1970) }) != oracle[zone] {
            mismatches.append("\(zone): herald \(planned[zone].map(ISO8601.format) ?? "none")")
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        #expect(created.json["planned"]?.intValue == zones.count + 3)
        // Distinct instants, in due order: one wave each.
        let instants = waves.compactMap { $0["due_at"]?.dateValue }
        #expect(instants == instants.sorted() && Set(instants).count == instants.count)
        #expect(Set(instants).count == Set(oracle.filter { zones.contains($0.key) }.values).count)
        // The users without a zone are sent with the default zone's wave.
        let kolkata = waves.first { ($0["zones"]?.stringArray ?? []).contains("Asia/Kolkata") }
        let kolkataUsers = zones.filter { $0 == "Asia/Kolkata" }.count
        #expect(kolkata?["planned"]?.intValue ?? 0 >= kolkataUsers + 3)
    }
}
