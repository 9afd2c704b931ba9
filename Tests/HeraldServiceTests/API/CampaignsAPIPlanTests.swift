import Foundation
import HeraldHTTP
import Testing

@testable import HeraldService

@Suite("Campaigns: the plan before confirming")
struct CampaignsAPIPlanTests {
    @Test("POST /v1/campaigns:plan answers the waves a create would store, and stores nothing")
    func planStoresNothing() throws {
        // A fixed clock two weeks before the campaign's day, so its waves stay ahead of now whenever this runs.
        let service = try TestService.make(clock: { Date(timeIntervalSince1970: 1_893_456_000) })  // 2030-01-01
        defer { service.close() }
        service.createChat()
        for (user, zone) in [("paris", "Europe/Paris"), ("kolkata", "Asia/Kolkata"), ("kolkata-2", "Asia/Kolkata")] {
            #expect(service.send(.put, "/v1/users/\(user)", json: #"{"time_zone":"\#(zone)"}"#).status == .created)
        }
        let body = CampaignTestSupport.body(id: "plan-1", date: "2030-01-15", time: "09:00", defaultZone: "UTC")
        let plan = service.send(.post, "/v1/campaigns:plan", json: body)
        #expect(plan.status == .ok, "\(plan.bodyText)")
        let waves = plan.json["waves"]?.arrayValue ?? []
        #expect(waves.count == 2)
        #expect(waves.map { $0["planned"]?.intValue } == [2, 1])
        #expect(waves.first?["due_at"]?.stringValue == "2030-01-15T03:30:00Z")
        #expect(plan.json["planned"]?.intValue == 3)
        #expect(service.send(.get, "/v1/campaigns/plan-1").status == .notFound)
        // Planning again, then creating, gives the same waves.
        let created = service.send(.post, "/v1/campaigns", json: body)
        #expect(created.status == .created)
        #expect(created.json["waves"] == plan.json["waves"])
        // A plan of an id that exists still answers: nothing is stored, so nothing conflicts.
        #expect(service.send(.post, "/v1/campaigns:plan", json: body).status == .ok)
        let unknown = service.send(
            .post, "/v1/campaigns:plan",
            json: CampaignTestSupport.body(category: "nope", date: "2030-01-15", time: "09:00"))
        #expect(unknown.status == .unprocessableContent)
    }
}
