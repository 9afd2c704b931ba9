import Foundation
import HeraldCore

/// The SQL of the delivery queue: bulk enqueue (COPY), coalescing, the SKIP LOCKED claim, acks, lease expiry.
public enum DeliveryRepository {
    /// The channel a transaction that queued deliveries due at once notifies when it commits, so that consumers
    /// reading the queue (the NATS relay, the benchmark's watcher) look at once instead of at their next poll.
    public static let readyChannel = "herald_deliveries"
    static let readyNotify = Query(name: "deliveries_ready_notify", sql: "SELECT pg_notify('herald_deliveries', '')")

    /// The notification that due deliveries were queued, for the end of the transaction that queues `rows`: `nil`
    /// when none of them is available by `now` (deferred to the end of quiet hours, say), since nobody could
    /// claim them yet.
    public static func readyQuery(_ rows: [DeliveryRow], now: Date) -> BoundQuery? {
        rows.contains { $0.delivery.availableAt <= now } ? BoundQuery(readyNotify) : nil
    }

    static let copy = Query(
        name: "deliveries_copy",
        sql: """
            COPY deliveries (id, notification_id, event_source, event_id, user_id, installation_id, platform,
                             environment, token, kind, headers, body, collapse_id, coalesce_key, priority, created_at,
                             available_at, expires_at) FROM STDIN
            """)

    /// Queues rows without a coalesce key by COPY (the bulk path: one stream for the whole batch).
    public static func copy(_ rows: [DeliveryRow], now: Date, on connection: PostgresConnection) throws {
        guard !rows.isEmpty else { return }
        // Rows of a batch share their creation time, mostly their headers and their availability and expiry
        // times: each distinct value is rendered once per batch, not once per row.
        var texts = BatchTexts()
        let created = now.postgresText
        try connection.copyIn(copy) { writer in
            try rows.withUnsafeBufferPointer { rows in
                for index in rows.indices {
                    try write(rows.baseAddress! + index, created: created, texts: &texts, to: writer)
                }
            }
        }
    }

    /// One row of `copy`, read in place through its address: a row copied whole retains every string it holds.
    private static func write(
        _ row: UnsafePointer<DeliveryRow>, created: String, texts: inout BatchTexts, to writer: CopyWriter
    ) throws {
        try writer.cell(row.pointee.id)
        try writer.cell(row.pointee.delivery.notificationId)
        try writer.cell(row.pointee.eventSource)
        try writer.cell(row.pointee.eventId)
        try writer.cell(row.pointee.delivery.userId)
        try writer.cell(row.pointee.delivery.installationId)
        try writer.cell(row.pointee.delivery.platform.rawValue)
        try writer.cell(row.pointee.delivery.environment.rawValue)
        try writer.cell(row.pointee.delivery.token)
        try writer.cell(row.pointee.delivery.kind.rawValue)
        try writer.cell(utf8: JSONValue.serialized(stringMembers: row.pointee.delivery.headers))
        try writer.cell(utf8: row.pointee.delivery.body)
        try writer.cell(row.pointee.delivery.collapseId)
        try writer.cell(row.pointee.delivery.coalesceKey)
        writer.cell(row.pointee.delivery.priority)
        try writer.cell(created)
        try writer.cell(texts.date(row.pointee.delivery.availableAt))
        try writer.cell(texts.date(row.pointee.delivery.expiresAt))
        try writer.endRow()
    }

    static let insertPlain = Query(
        name: "deliveries_insert_plain",
        sql: """
            INSERT INTO deliveries (id, notification_id, event_source, event_id, user_id, installation_id, platform,
                                    environment, token, kind, headers, body, collapse_id, coalesce_key, priority,
                                    created_at, available_at, expires_at)
            SELECT n.id, n.notification_id, n.event_source, n.event_id, n.user_id, n.installation_id, n.platform,
                   n.environment, n.token, n.kind, n.headers, n.body, n.collapse_id, NULL, n.priority, $16,
                   n.available_at, n.expires_at
            FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                        $8::text[], $9::text[], $10::text[], $11::jsonb[], $12::text[], $13::text[], $14::smallint[],
                        $15::timestamptz[], $17::timestamptz[])
                 AS n(id, notification_id, event_source, event_id, user_id, installation_id, platform, environment,
                      token, kind, headers, body, collapse_id, priority, available_at, expires_at)
            """)

    /// Queues a few rows without a coalesce key as one statement for the batch's closing pipeline: the same rows
    /// as `copy`, without COPY's two extra round trips (which cost more than they save on small batches).
    public static func insertQuery(_ rows: [DeliveryRow], now: Date) -> BoundQuery? {
        guard !rows.isEmpty else { return nil }
        let d = rows.map(\.delivery)
        var texts = BatchTexts()
        return BoundQuery(
            insertPlain,
            [
                PipelineArray(rows.map(\.id)), PipelineArray(optional: d.map(\.notificationId)),
                PipelineArray(optional: rows.map(\.eventSource)), PipelineArray(optional: rows.map(\.eventId)),
                PipelineArray(d.map(\.userId)), PipelineArray(d.map(\.installationId)),
                PipelineArray(d.map(\.platform.rawValue)), PipelineArray(d.map(\.environment.rawValue)),
                PipelineArray(d.map(\.token)), PipelineArray(d.map(\.kind.rawValue)),
                PipelineArray(d.map { headersJSON($0.headers) }), PipelineArray(d.map(\.bodyText)),
                PipelineArray(optional: d.map(\.collapseId)), PipelineArray(d.map { String($0.priority) }),
                PipelineArray(d.map { texts.date($0.availableAt) }), now,
                PipelineArray(d.map { texts.date($0.expiresAt) }),
            ])
    }

    static func headersJSON(_ headers: [String: String]) -> String {
        String(decoding: JSONValue.serialized(stringMembers: headers), as: UTF8.self)
    }

    /// Rewrites the unsent queued row of each coalesce key with the newer push (keeping the row's id).
    static let replaceCoalesced = Query(
        name: "deliveries_replace_coalesced",
        sql: """
            UPDATE deliveries AS d
            SET notification_id = n.notification_id, token = n.token, headers = n.headers, body = n.body,
                collapse_id = n.collapse_id, priority = n.priority, available_at = n.available_at,
                expires_at = n.expires_at
            FROM unnest($1::text[], $2::text[], $3::text[], $4::jsonb[], $5::text[], $6::text[], $7::smallint[],
                        $8::timestamptz[], $9::timestamptz[])
                 AS n(coalesce_key, notification_id, token, headers, body, collapse_id, priority, available_at,
                      expires_at)
            WHERE d.coalesce_key = n.coalesce_key AND d.state = 'queued'
            """)
    /// Adds the coalescing rows that found no queued row to replace.
    static let insertCoalesced = Query(
        name: "deliveries_insert_coalesced",
        sql: """
            INSERT INTO deliveries (id, notification_id, event_source, event_id, user_id, installation_id, platform,
                                    environment, token, kind, headers, body, collapse_id, coalesce_key, priority,
                                    created_at, available_at, expires_at)
            SELECT n.id, n.notification_id, NULL, NULL, n.user_id, n.installation_id, n.platform, n.environment,
                   n.token, n.kind, n.headers, n.body, n.collapse_id, n.coalesce_key, n.priority, $15, n.available_at,
                   n.expires_at
            FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                        $8::text[], $9::jsonb[], $10::text[], $11::text[], $12::text[], $13::smallint[],
                        $14::timestamptz[], $16::timestamptz[])
                 AS n(id, notification_id, user_id, installation_id, platform, environment, token, kind, headers,
                      body, collapse_id, coalesce_key, priority, available_at, expires_at)
            WHERE NOT EXISTS (
                SELECT 1 FROM deliveries AS q WHERE q.coalesce_key = n.coalesce_key AND q.state = 'queued')
            ON CONFLICT DO NOTHING
            """)

    /// Statements that queue rows carrying a coalesce key: replace the queued row of the key, else add one. The
    /// last row per key wins.
    public static func coalescingQueries(_ rows: [DeliveryRow], now: Date) -> [BoundQuery] {
        var latest: [String: DeliveryRow] = [:]
        var order: [String] = []
        for row in rows {
            guard let key = row.delivery.coalesceKey else { continue }
            if latest.updateValue(row, forKey: key) == nil { order.append(key) }
        }
        guard !order.isEmpty else { return [] }
        let unique = order.map { latest[$0]! }
        let d = unique.map(\.delivery)
        let replace = BoundQuery(
            replaceCoalesced,
            [
                PipelineArray(order), PipelineArray(optional: d.map(\.notificationId)), PipelineArray(d.map(\.token)),
                PipelineArray(d.map { headersJSON($0.headers) }), PipelineArray(d.map(\.bodyText)),
                PipelineArray(optional: d.map(\.collapseId)), PipelineArray(d.map { String($0.priority) }),
                PipelineArray(d.map { $0.availableAt.postgresText }),
                PipelineArray(d.map { $0.expiresAt.postgresText }),
            ])
        let insert = BoundQuery(
            insertCoalesced,
            [
                PipelineArray(unique.map(\.id)), PipelineArray(optional: d.map(\.notificationId)),
                PipelineArray(d.map(\.userId)), PipelineArray(d.map(\.installationId)),
                PipelineArray(d.map(\.platform.rawValue)), PipelineArray(d.map(\.environment.rawValue)),
                PipelineArray(d.map(\.token)), PipelineArray(d.map(\.kind.rawValue)),
                PipelineArray(d.map { headersJSON($0.headers) }), PipelineArray(d.map(\.bodyText)),
                PipelineArray(optional: d.map(\.collapseId)), PipelineArray(order),
                PipelineArray(d.map { String($0.priority) }), PipelineArray(d.map { $0.availableAt.postgresText }),
                now, PipelineArray(d.map { $0.expiresAt.postgresText }),
            ])
        return [replace, insert]
    }

    // The queued pushes of notifications that were read end unsent. Their user's devices lead to them through the
    // partial index of queued rows by installation (a device that went away took its queued rows with it, 0006);
    // leased rows are a sender's already and report their own outcome.
    static let stopQueued = Query(
        name: "deliveries_stop_queued",
        sql: """
            UPDATE deliveries SET state = 'expired', finished_at = $1, detail = $2
            WHERE installation_id = ANY($3::text[]) AND state = 'queued' AND notification_id = ANY($4::text[])
            """)

    /// The statement that ends, at `now` and with `detail`, the queued pushes of `notificationIds` to
    /// `installationIds`; `nil` when there is nothing to end.
    public static func stopQueuedQuery(
        notificationIds: [String], installationIds: [String], detail: String, now: Date
    ) -> BoundQuery? {
        guard !notificationIds.isEmpty, !installationIds.isEmpty else { return nil }
        return BoundQuery(
            stopQueued, [now, detail, PipelineArray(installationIds), PipelineArray(notificationIds)])
    }
}
