import Foundation
import HeraldCore

/// The SQL of campaigns: the audience counted per zone, the stored plan, listing, progress and cancel.
public enum CampaignRepository {
    /// The source of the events campaign batches store (`enqueue` writes it), which no publisher may use.
    public static let eventSource = "campaign"

    /// Whether user `u` is in the campaign's audience, whose kind, topic and users are `$1`, `$2` and `$3` in
    /// every statement that joins it.
    static let inAudience: StaticString = """
        ($1 = 'all'
         OR ($1 = 'topic' AND EXISTS (SELECT 1 FROM topic_subscriptions t WHERE t.topic = $2 AND t.user_id = u.id))
         OR ($1 = 'users' AND u.id = ANY($3::text[])))
        """

    /// The audience grouped by zone, the users without one apart: users never leave the database, only one row per
    /// zone does.
    static let zoneCounts = Query(
        name: "campaign_zone_counts",
        joining: "SELECT u.time_zone AS zone, count(*) AS recipients FROM users u WHERE", inAudience, "GROUP BY 1")

    static let insertCampaign = Query(
        name: "campaign_insert",
        sql: """
            INSERT INTO campaigns (id, category_id, audience_kind, audience_topic, audience_users, local_date,
                                   local_time, data, late, default_time_zone, unknown_zones, created_at)
            VALUES ($1, $2, $3, $4, $5::text[], $6::date, $7, $8::jsonb, $9, $10, $11::text[], $12)
            ON CONFLICT ON CONSTRAINT campaigns_pkey DO NOTHING
            RETURNING id
            """)

    static let insertWave = Query(
        name: "campaign_wave_insert",
        sql: """
            INSERT INTO campaign_waves (campaign_id, number, due_at, zones, sends_zoneless, planned, state,
                                        next_batch_at, finished_at)
            VALUES ($1, $2, $3, $4::text[], $5, $6, $7, $3, $8)
            """)

    static let select = Query(
        name: "campaign_select",
        sql: """
            SELECT id, category_id, audience_kind, audience_topic, audience_users, local_date::text AS local_date,
                   local_time, data::text AS data, late, default_time_zone, unknown_zones, created_at, canceled_at
            FROM campaigns WHERE id = $1
            """)

    static let page = Query(
        name: "campaign_page",
        sql: """
            SELECT id, category_id, audience_kind, audience_topic, audience_users, local_date::text AS local_date,
                   local_time, data::text AS data, late, default_time_zone, unknown_zones, created_at, canceled_at
            FROM campaigns WHERE id > $1 ORDER BY id LIMIT $2
            """)

    static let waves = Query(
        name: "campaign_waves",
        sql: """
            SELECT campaign_id, number, due_at, zones, sends_zoneless, planned, state, batches, selected, enqueued,
                   started_at, finished_at
            FROM campaign_waves WHERE campaign_id = ANY($1::text[]) ORDER BY campaign_id, number
            """)

    static let outcomes = Query(
        name: "campaign_outcomes",
        sql: """
            SELECT ce.wave, d.outcome, count(*) AS decisions
            FROM campaign_events ce JOIN decisions d ON d.event_seq = ce.event_seq
            WHERE ce.campaign_id = $1
            GROUP BY 1, 2
            """)

    static let cancelCampaign = Query(
        name: "campaign_cancel",
        sql: "UPDATE campaigns SET canceled_at = COALESCE(canceled_at, $2) WHERE id = $1 RETURNING id")

    static let cancelWaves = Query(
        name: "campaign_cancel_waves",
        sql: """
            UPDATE campaign_waves SET state = 'canceled', finished_at = $2
            WHERE campaign_id = $1 AND state IN ('pending', 'running')
            """)

    static let categoryState = Query(
        name: "campaign_category_state",
        sql: """
            SELECT archived_at IS NOT NULL AS archived, document->>'kind' AS kind
            FROM categories WHERE id = $1
            """)

    /// Whether the category is archived, and its kind (notification when it names none; nil when it names one
    /// this version does not know); `nil` when no category has this id.
    public static func categoryState(
        _ id: String, on connection: PostgresConnection
    ) throws -> (archived: Bool, kind: Category.Kind?)? {
        try connection.query(categoryState, [id]).first.map { row in
            let kind = try row.decode(String?.self, "kind").map(Category.Kind.init(rawValue:)) ?? .notification
            return (try row.bool("archived"), kind)
        }
    }

    /// The audience of a campaign counted per effective zone (`default` for users without one).
    public static func zoneCounts(
        _ audience: CampaignAudience, on connection: PostgresConnection
    ) throws -> [ZoneAudience] {
        let (topic, users) = parameters(audience)
        return try connection.query(zoneCounts, [audience.kind, topic, users]).map { row in
            ZoneAudience(zone: try row.decode(String?.self, "zone"), recipients: try row.int("recipients"))
        }
    }

    /// Stores a campaign and its waves; `false` when the id is taken. Run it in the planning transaction.
    public static func insert(
        _ campaign: CampaignRecord, waves: [CampaignWaveRecord], on connection: PostgresConnection
    ) throws -> Bool {
        let (topic, users) = parameters(campaign.audience)
        let inserted = try connection.query(
            insertCampaign,
            [
                campaign.id, campaign.categoryId, campaign.audience.kind, topic, users, campaign.date,
                campaign.localTime, campaign.data, campaign.late, campaign.defaultTimeZone,
                PipelineArray(campaign.unknownZones), campaign.createdAt,
            ])
        guard inserted.first != nil else { return false }
        // Up to a few hundred waves: one round trip for all of them.
        _ = try connection.pipeline(
            waves.map { wave in
                BoundQuery(
                    insertWave,
                    [
                        wave.campaignId, wave.number, wave.dueAt, PipelineArray(wave.zones), wave.sendsZoneless,
                        wave.planned, wave.state, wave.finishedAt,
                    ])
            })
        return true
    }

    /// The campaign `id`, if it exists.
    public static func campaign(_ id: String, on connection: PostgresConnection) throws -> CampaignRecord? {
        try connection.query(select, [id]).first.map(record)
    }

    /// Campaigns after `after` in id order (keyset paging).
    public static func campaigns(
        after: String, limit: Int, on connection: PostgresConnection
    ) throws -> [CampaignRecord] {
        try connection.query(page, [after, limit]).map(record)
    }

    /// The waves of the given campaigns, by campaign id, each in number order.
    public static func waves(
        of ids: [String], on connection: PostgresConnection
    ) throws -> [String: [CampaignWaveRecord]] {
        guard !ids.isEmpty else { return [:] }
        let rows = try connection.query(waves, [PipelineArray(ids)]).map { row in
            CampaignWaveRecord(
                campaignId: try row.string("campaign_id"), number: try row.int("number"),
                dueAt: try row.date("due_at"), zones: PipelineArray.parse(try row.string("zones")),
                sendsZoneless: try row.bool("sends_zoneless"), planned: try row.int("planned"),
                state: try row.string("state"), batches: try row.int("batches"), selected: try row.int("selected"),
                enqueued: try row.int("enqueued"), startedAt: try row.decode(Date?.self, "started_at"),
                finishedAt: try row.decode(Date?.self, "finished_at"))
        }
        return Dictionary(grouping: rows, by: \.campaignId)
    }

    /// The decisions of a campaign's events counted per wave and outcome.
    public static func outcomes(
        of id: String, on connection: PostgresConnection
    ) throws -> [Int: [String: Int]] {
        var counts: [Int: [String: Int]] = [:]
        for row in try connection.query(outcomes, [id]) {
            counts[try row.int("wave"), default: [:]][try row.string("outcome")] = try row.int("decisions")
        }
        return counts
    }

    /// Cancels a campaign: waves not yet finished never run another batch. `false` when it does not exist.
    public static func cancel(_ id: String, at now: Date, on connection: PostgresConnection) throws -> Bool {
        try connection.transaction { connection in
            guard try connection.query(cancelCampaign, [id, now]).first != nil else { return false }
            _ = try connection.execute(cancelWaves, [id, now])
            return true
        }
    }

    static func parameters(_ audience: CampaignAudience) -> (topic: String?, users: PipelineArray?) {
        switch audience {
        case .all: (nil, nil)
        case .topic(let topic): (topic, nil)
        case .users(let users): (nil, PipelineArray(users))
        }
    }

    static func record(_ row: PostgresRow) throws -> CampaignRecord {
        let audience: CampaignAudience
        switch try row.string("audience_kind") {
        case "topic": audience = .topic(try row.string("audience_topic"))
        case "users": audience = .users(PipelineArray.parse(try row.string("audience_users")))
        default: audience = .all
        }
        return CampaignRecord(
            id: try row.string("id"), categoryId: try row.string("category_id"), audience: audience,
            date: try row.string("local_date"), localTime: try row.string("local_time"),
            data: try row.string("data"), late: try row.string("late"),
            defaultTimeZone: try row.string("default_time_zone"),
            unknownZones: PipelineArray.parse(try row.string("unknown_zones")), createdAt: try row.date("created_at"),
            canceledAt: try row.decode(Date?.self, "canceled_at"))
    }
}
