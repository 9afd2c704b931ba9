import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// `/v1/campaigns`: plan a campaign into waves by time zone, list and show them with progress, cancel.
enum CampaignsAPI {
    static let defaultLimit = 50
    static let maxLimit = 200

    static func register(on router: inout Router, context: ServiceContext) {
        let database = CampaignsAPI.Database(context: context)
        router.post("/v1/campaigns", auth: .scope(.campaignsWrite)) { request, _ in
            let body = try CampaignRequest.parse(try EventBodyParser.body(of: request), zones: context.zones)
            let (campaign, waves) = try create(body, context: context, database: database)
            return HTTPResponse.json(
                CampaignView.full(campaign, waves: waves, outcomes: [:]), status: .created,
                headers: HTTPHeaders([("Location", "/v1/campaigns/" + campaign.id)]))
        }
        // The same plan as a create, shown before confirming it: nothing is stored and nothing will be sent.
        router.post("/v1/campaigns:plan", auth: .scope(.campaignsWrite)) { request, _ in
            let body = try CampaignRequest.parse(try EventBodyParser.body(of: request), zones: context.zones)
            let (campaign, waves) = try create(body, context: context, database: database, store: false)
            return HTTPResponse.json(CampaignView.full(campaign, waves: waves, outcomes: [:]))
        }
        router.get("/v1/campaigns", auth: .scope(.campaignsWrite)) { request, _ in
            let (limit, after) = try paging(request)
            let (campaigns, waves) = try database { connection in
                let campaigns = try CampaignRepository.campaigns(after: after ?? "", limit: limit + 1, on: connection)
                return (campaigns, try CampaignRepository.waves(of: campaigns.map(\.id), on: connection))
            }
            let page = campaigns.prefix(limit)
            let next = campaigns.count > limit ? page.last.map { SubscriberCursor.encode(after: $0.id) } : nil
            return HTTPResponse.json(
                .object([
                    "items": .array(page.map { CampaignView.summary($0, waves: waves[$0.id] ?? []) }),
                    "next_cursor": next.map(HeraldHTTP.JSONValue.string) ?? .null,
                ]))
        }
        router.get("/v1/campaigns/{id}", auth: .scope(.campaignsWrite)) { _, match in
            let id = try campaignId(match)
            return HTTPResponse.json(try show(id, database: database))
        }
        router.post("/v1/campaigns/{id}/cancel", auth: .scope(.campaignsWrite)) { _, match in
            let id = try campaignId(match)
            let now = context.clock()
            let found = try database { connection -> Bool in
                guard let campaign = try CampaignRepository.campaign(id, on: connection) else { return false }
                let waves = try CampaignRepository.waves(of: [id], on: connection)[id] ?? []
                if CampaignView.status(campaign, waves: waves).takesCancel {
                    _ = try CampaignRepository.cancel(id, at: now, on: connection)
                }
                return true
            }
            guard found else { throw HTTPError.notFound("No campaign has this id.") }
            return HTTPResponse.json(try show(id, database: database))
        }
    }

    /// Database access for the handlers, on the request pool; failures become problems in the dispatcher
    /// (`DatabaseProblem`).
    struct Database: Sendable {
        let context: ServiceContext

        func callAsFunction<R: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> R) throws -> R {
            try context.pool.withConnectionBlocking(body)
        }
    }

    /// Counts the audience per zone, plans the waves and stores them (unless `store` is false), in one transaction.
    static func create(
        _ body: CampaignRequest, context: ServiceContext, database: Database, store: Bool = true
    ) throws -> (CampaignRecord, [CampaignWaveRecord]) {
        let now = context.clock()
        let id = body.id ?? "cmp_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let zones = context.zones
        guard let defaultZone = zones.zone(body.defaultTimeZone) else {
            throw HTTPError.invalidField("/default_time_zone", "is not a time zone of the tz database")
        }
        // Stored and planned under its canonical id, as a user's zone is, so that an alias (`US/Eastern`) and the
        // users stored in its zone (`America/New_York`) share one name in a wave.
        let defaultZoneId = defaultZone.identifier
        let result = try database {
            connection -> Result<(CampaignRecord, [CampaignWaveRecord]), HTTPError> in
            try connection.transaction { connection in
                guard let category = try CampaignRepository.categoryState(body.category, on: connection) else {
                    return .failure(HTTPError.invalidField("/category", "is not a known category"))
                }
                if category.archived { return .failure(HTTPError.invalidField("/category", "is archived")) }
                if category.kind?.takesCampaigns != true {
                    let detail = "is not a category of notifications: a campaign's event names no activity to update"
                    return .failure(HTTPError.invalidField("/category", detail))
                }
                let counts = try CampaignRepository.zoneCounts(body.audience, on: connection)
                let plan = CampaignPlanner.plan(
                    counts, date: body.date, time: body.localTime, now: now, late: body.late,
                    defaultZone: defaultZone, named: defaultZoneId, directory: zones)
                let campaign = CampaignRecord(
                    id: id, categoryId: body.category, audience: body.audience, date: dateText(body.date),
                    localTime: body.localTime.text, data: HeraldHTTP.JSONValue.object(body.data).jsonText,
                    late: body.late.rawValue, defaultTimeZone: defaultZoneId,
                    unknownZones: plan.unknownZones, createdAt: now)
                let waves = plan.waves.map { wave in
                    CampaignWaveRecord(
                        campaignId: id, number: wave.number, dueAt: wave.dueAt, zones: wave.zones,
                        sendsZoneless: wave.sendsZoneless, planned: wave.recipients, state: wave.state.rawValue,
                        finishedAt: wave.finishedAt)
                }
                guard try !store || CampaignRepository.insert(campaign, waves: waves, on: connection) else {
                    return .failure(HTTPError.conflict("A campaign with this id exists.", type: "campaign-exists"))
                }
                return .success((campaign, waves))
            }
        }
        return try result.get()
    }

    /// The campaign with its waves and their decisions so far.
    static func show(_ id: String, database: Database) throws -> HeraldHTTP.JSONValue {
        let found = try database { connection -> HeraldHTTP.JSONValue? in
            guard let campaign = try CampaignRepository.campaign(id, on: connection) else { return nil }
            let waves = try CampaignRepository.waves(of: [id], on: connection)[id] ?? []
            let outcomes = try CampaignRepository.outcomes(of: id, on: connection)
            return CampaignView.full(campaign, waves: waves, outcomes: outcomes)
        }
        guard let found else { throw HTTPError.notFound("No campaign has this id.") }
        return found
    }

    /// `limit` (1 to 200, default 50) and the campaign id the `cursor` continues after.
    static func paging(_ request: HTTPRequest) throws -> (limit: Int, after: String?) {
        let limit = try PageCursor.limit(request, defaultValue: defaultLimit, maximum: maxLimit)
        guard let cursor = request.query("cursor") else { return (limit, nil) }
        guard let after = SubscriberCursor.decode(cursor), CampaignRequest.isCampaignId(after) else {
            throw PageCursor.unknownIdCursor
        }
        return (limit, after)
    }

    private static func campaignId(_ match: RouteMatch) throws -> String {
        let id = try match.parameter("id")
        guard CampaignRequest.isCampaignId(id) else { throw HTTPError.notFound("No campaign has this id.") }
        return id
    }

    static func dateText(_ date: CivilDate) -> String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return pad(date.year, 4) + "-" + pad(date.month, 2) + "-" + pad(date.day, 2)
    }
}
