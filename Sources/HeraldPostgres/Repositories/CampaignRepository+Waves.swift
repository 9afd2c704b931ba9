import Foundation
import HeraldCore

extension CampaignRepository {
    /// The wave whose next batch is due. SKIP LOCKED: a wave being worked by another runner (another process) is
    /// passed over, never fired twice; the row lock lasts until the batch's transaction ends, so a crash hands the
    /// wave back with its cursor as last committed. The campaign's row is share-locked for the batch: the one check
    /// that it exists while its recipients are recorded (they carry no foreign key, which would check each row).
    static let claimWave = Query(
        name: "campaign_wave_claim",
        sql: """
            SELECT w.campaign_id, w.number, w.zones, w.sends_zoneless, w.planned, w.segment, w.after_user,
                   w.batches, w.selected, w.started_at, c.category_id, c.audience_kind, c.audience_topic,
                   c.audience_users, c.data::text AS data, c.canceled_at IS NOT NULL AS canceled
            FROM campaign_waves w JOIN campaigns c ON c.id = w.campaign_id
            WHERE w.state IN ('pending', 'running') AND w.next_batch_at <= $1
            ORDER BY w.next_batch_at
            LIMIT 1
            FOR UPDATE OF w SKIP LOCKED
            FOR KEY SHARE OF c SKIP LOCKED
            """)

    /// One page of a zone's audience in user id order, served by `users_time_zone_id`.
    static let zonePage = Query(
        name: "campaign_zone_page",
        joining: "SELECT u.id FROM users u WHERE u.time_zone = $4 AND u.id > $5 AND", inAudience,
        "ORDER BY u.id LIMIT $6")

    /// The same for the users without a zone (sent with the default zone's wave).
    static let zonelessPage = Query(
        name: "campaign_zoneless_page",
        joining: "SELECT u.id FROM users u WHERE u.time_zone IS NULL AND u.id > $4 AND", inAudience,
        "ORDER BY u.id LIMIT $5")

    /// Records the batch's recipients (a user the campaign already reached is left out), stores one inbox event
    /// naming the new ones under a deterministic id, links it to the wave, moves the wave's cursor and wakes the
    /// pipeline workers: one statement, so the batch's writes cost one round trip with its COMMIT. The event's
    /// source is `eventSource`, which ingest refuses, so its key is the batch's own: were it taken, the statement
    /// fails and nothing of the batch is recorded (before, its recipients counted as reached, and none was sent);
    /// the wave then tries again under the next batch number.
    static let enqueue = Query(
        name: "campaign_enqueue",
        sql: """
            WITH fresh AS (
                INSERT INTO campaign_recipients (campaign_id, user_id, wave)
                SELECT $1, u, $2 FROM unnest($3::text[]) AS u
                ON CONFLICT ON CONSTRAINT campaign_recipients_pkey DO NOTHING
                RETURNING user_id
            ),
            document AS (
                SELECT count(*) AS recipients,
                       jsonb_build_object(
                           'source', 'campaign', 'id', $4::text, 'category', $5::text,
                           'occurred_at', to_char($6::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                           'data', $7::jsonb,
                           'recipients', jsonb_build_object(
                               'user_ids', COALESCE(jsonb_agg(user_id ORDER BY user_id), '[]'::jsonb))) AS body
                FROM fresh
            ),
            hashed AS (
                SELECT body, encode(sha256(convert_to(body::text, 'UTF8')), 'hex') AS body_hash
                FROM document WHERE recipients > 0
            ),
            event AS (
                INSERT INTO event_keys (source, id, body_hash, accepted_at)
                SELECT 'campaign', $4, body_hash, $6 FROM hashed
                RETURNING seq
            ),
            stored AS (
                INSERT INTO events (seq, source, id, category_id, body_hash, document, accepted_at)
                SELECT event.seq, 'campaign', $4, $5, hashed.body_hash, hashed.body, $6 FROM event, hashed
            ),
            link AS (
                INSERT INTO campaign_events (campaign_id, wave, event_seq) SELECT $1, $2, seq FROM event
            ),
            advanced AS (
                UPDATE campaign_waves
                SET state = $8, segment = $9, after_user = $10, batches = batches + 1,
                    selected = selected + cardinality($3::text[]),
                    enqueued = enqueued + (SELECT recipients FROM document), next_batch_at = $11,
                    started_at = COALESCE(started_at, $6), finished_at = $12
                WHERE campaign_id = $1 AND number = $2
            )
            SELECT (SELECT recipients FROM document) AS recipients,
                   (SELECT pg_notify('herald_events', '') FROM document WHERE recipients > 0) AS notified
            """)

    static let skipBatchNumber = Query(
        name: "campaign_wave_skip_batch_number",
        sql: "UPDATE campaign_waves SET batches = batches + 1 WHERE campaign_id = $1 AND number = $2 AND batches = $3")

    static let stopCanceled = Query(
        name: "campaign_wave_stop_canceled",
        sql: """
            UPDATE campaign_waves SET state = 'canceled', finished_at = $3 WHERE campaign_id = $1 AND number = $2
            """)

    static let nextDue = Query(
        name: "campaign_wave_next_due",
        sql: "SELECT min(next_batch_at) FROM campaign_waves WHERE state IN ('pending', 'running')")

    /// Runs one batch of the wave that is due first, in ONE transaction: claim (SKIP LOCKED), page up to
    /// `batchSize` users from the stored cursor, enqueue them as one event, move the cursor. Returns `nil` when no
    /// wave is due. The next batch of the wave is held back so the wave spans at least `minimumWaveDuration`.
    /// Statements travel in pipelines (BEGIN with the claim, the writes with COMMIT): a batch is three round trips
    /// plus one per zone it crosses.
    public static func runBatch(
        now: Date, batchSize: Int, minimumWaveDuration: TimeInterval, on connection: PostgresConnection
    ) throws -> CampaignBatchReport? {
        do {
            let opened = try connection.pipeline([PipelineRepository.beginQuery, BoundQuery(claimWave, [now])])
            guard let row = opened[1].first else {
                _ = try connection.pipeline([PipelineRepository.commitQuery])
                return nil
            }
            let report = try runClaimed(
                row, now: now, batchSize: batchSize, minimumWaveDuration: minimumWaveDuration, on: connection)
            return report
        } catch {
            connection.rollbackIfNeeded()
            throw error
        }
    }

    private static func runClaimed(
        _ row: PostgresRow, now: Date, batchSize: Int, minimumWaveDuration: TimeInterval,
        on connection: PostgresConnection
    ) throws -> CampaignBatchReport {
        let campaignId = try row.string("campaign_id")
        let number = try row.int("number")
        if try row.bool("canceled") {
            _ = try connection.pipeline([
                BoundQuery(stopCanceled, [campaignId, number, now]), PipelineRepository.commitQuery,
            ])
            return CampaignBatchReport(
                campaignId: campaignId, wave: number, selected: 0, enqueued: 0, waveFinished: true)
        }
        var cursor = WaveCursor(
            zones: PipelineArray.parse(try row.string("zones")), sendsZoneless: try row.bool("sends_zoneless"),
            segment: try row.int("segment"), after: try row.string("after_user"))
        let kind = try row.string("audience_kind")
        let topic = try row.decode(String?.self, "audience_topic")
        let users = try row.decode(String?.self, "audience_users").map { PipelineArray(PipelineArray.parse($0)) }
        var page: [String] = []
        // Fill the batch across segments: a small zone ends and the next one continues the same batch.
        while !cursor.isFinished, page.count < batchSize {
            let limit = batchSize - page.count
            let result =
                if let zone = cursor.zone {
                    try connection.query(zonePage, [kind, topic, users, zone, cursor.after, limit])
                } else {
                    try connection.query(zonelessPage, [kind, topic, users, cursor.after, limit])
                }
            let ids = try result.map { try $0.string("id") }
            page += ids
            cursor.advance(past: ids, limit: limit)
        }
        let state = cursor.stateAfterBatch
        let startedAt = try row.decode(Date?.self, "started_at") ?? now
        let selected = try row.int("selected") + page.count
        let nextBatchAt = WavePacing.nextBatchAt(
            startedAt: startedAt, selected: selected, planned: try row.int("planned"),
            minimumDuration: minimumWaveDuration, now: now)
        let batches = try row.int("batches")
        let eventId = "\(campaignId):\(number):\(batches + 1)"
        let results: [PostgresResult]
        do {
            results = try connection.pipeline([
                BoundQuery(
                    enqueue,
                    [
                        campaignId, number, PipelineArray(page), eventId, try row.string("category_id"), now,
                        try row.string("data"), state.rawValue, cursor.segment, cursor.after, nextBatchAt,
                        state == .done ? now : nil,
                    ]),
                PipelineRepository.commitQuery,
            ])
        } catch let error as PostgresError where error.kind == .uniqueViolation && error.constraint == "event_keys_pkey"
        {
            // The batch's key was taken some other way (an event stored under it before `eventSource` was reserved,
            // or a campaign of the same id deleted by hand): nothing of the batch was recorded, and the wave's next
            // try takes the next number, so that one taken key cannot hold this wave and every wave due after it.
            connection.rollbackIfNeeded()
            _ = try connection.pipeline([
                PipelineRepository.beginQuery, BoundQuery(skipBatchNumber, [campaignId, number, batches]),
                PipelineRepository.commitQuery,
            ])
            return CampaignBatchReport(
                campaignId: campaignId, wave: number, selected: 0, enqueued: 0, waveFinished: false,
                skippedBatch: batches + 1)
        }
        return CampaignBatchReport(
            campaignId: campaignId, wave: number, selected: page.count,
            enqueued: try results[0].single().int("recipients"), waveFinished: cursor.isFinished)
    }

    /// When the next wave batch may run, if any wave is left.
    public static func nextDue(on connection: PostgresConnection) throws -> Date? {
        try connection.query(nextDue).single().decode(Date?.self, 0)
    }
}
