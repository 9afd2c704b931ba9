import Foundation
import HeraldPostgres
import Testing

@testable import HeraldService

/// History by UTC day: partitions past the retention period are dropped whole, except a day still holding an
/// undecided event or a queued delivery, and the idempotency keys of dropped events are trimmed after them.
@Suite("Retention by day partition")
struct RetentionTests {
    @Test func dayPartitionsPastRetentionAreDroppedAndLiveWorkIsKept() async throws {
        let harness = try await PipelineHarness.make(start: Date())
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        let today = try await harness.database { try RetentionRepository.today(on: $0) }
        _ = try await harness.database {
            try RetentionRepository.ensurePartitions(from: today - 40, through: today - 1, on: $0)
        }
        // Day -40: all done. Day -38: an event still undecided. Day -36: a delivery still queued. Day -10: recent.
        for (day, eventState, deliveryState) in [
            (today - 40, "decided", "sent"), (today - 38, "pending", "sent"), (today - 36, "decided", "queued"),
            (today - 10, "decided", "sent"),
        ] {
            try await Self.history(harness, day: day, eventState: eventState, deliveryState: deliveryState)
        }
        // Day -34: a queued delivery whose time to live ran out, which nothing consumed.
        try await Self.history(
            harness, day: today - 34, eventState: "decided", deliveryState: "queued",
            expiresAt: harness.clock.now.addingTimeInterval(-60))
        let accepted = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "today-1", occurredAt: harness.clock.now))
        #expect(accepted.status == .accepted)

        let job = RetentionJob(
            settings: RetentionJob.Settings(retentionDays: 30), pool: harness.context.pool,
            logger: harness.context.logger, metrics: harness.context.metrics, clock: harness.context.clock)
        let report = try await offCooperativePool { try job.runOnce() }
        let remaining = Set(try await harness.database { try RetentionRepository.partitions(on: $0) }.map(\.name))

        func name(_ table: String, _ day: Int) -> String {
            let date = Date(timeIntervalSince1970: Double(day) * 86_400)
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyyMMdd"
            return table + "_" + formatter.string(from: date)
        }
        for table in ["events", "decisions", "digests", "deliveries"] {
            #expect(!remaining.contains(name(table, today - 40)), "\(table) of day -40 was kept")
            #expect(remaining.contains(name(table, today - 10)), "\(table) of day -10 was dropped")
            #expect(remaining.contains(name(table, today)), "\(table) of today was dropped")
            #expect(remaining.contains(name(table, today + 3)), "\(table) of day +3 was not created")
        }
        // The undecided event keeps its day's events and decisions; its digests and deliveries go.
        #expect(remaining.contains(name("events", today - 38)) && remaining.contains(name("decisions", today - 38)))
        #expect(!remaining.contains(name("deliveries", today - 38)) && !remaining.contains(name("digests", today - 38)))
        // The expired one is marked so and its day goes; the live queued delivery keeps its day's deliveries (the
        // rest of that day goes).
        #expect(!remaining.contains(name("deliveries", today - 34)))
        #expect(remaining.contains(name("deliveries", today - 36)) && !remaining.contains(name("events", today - 36)))
        // Days -40 to -31 are past 30 days of retention: 10 days of 4 tables, less the 3 partitions kept.
        #expect(report.dropped.count == 37)
        #expect(report.dropped.contains(name("decisions", today - 40)))
        // Decisions are dropped before the events of the same day.
        let decisionsAt = try #require(report.dropped.firstIndex(of: name("decisions", today - 40)))
        let eventsAt = try #require(report.dropped.firstIndex(of: name("events", today - 40)))
        #expect(decisionsAt < eventsAt)

        // Keys below the oldest remaining events partition (day -38) are gone; the others stay.
        #expect(report.keysTrimmed == 1)
        #expect(try await harness.count("SELECT count(*) FROM event_keys WHERE id LIKE 'old-%'") == 4)
        #expect(try await harness.count("SELECT count(*) FROM events WHERE id = 'today-1'") == 1)
        #expect(try await harness.count("SELECT count(*) FROM deliveries WHERE state = 'queued'") == 1)

        // Today's event is still recognised when sent again, and a second run finds nothing more to do.
        let again = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "today-1", occurredAt: harness.clock.now))
        #expect(again.json["status"] == .string("duplicate"))
        let second = try await offCooperativePool { try job.runOnce() }
        #expect(second == RetentionJob.Report())
    }

    @Test func feedPositionsGoOnAfterTheNotificationsBehindThemWereDropped() async throws {
        let harness = try await PipelineHarness.make(start: Date())
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("u1")
        try await harness.device("phone", user: "u1")
        for id in ["first", "second"] {
            _ = await harness.send(
                .post, "/v1/events", json: PipelineHarness.event(id: id, occurredAt: harness.clock.now))
            _ = try await harness.decideAll()
            // As if retention had dropped the day of every notification the user had.
            if id == "first" { _ = try await harness.sql("DELETE FROM decisions WHERE user_id = 'u1'") }
        }
        let positions = try await harness.sql("SELECT feed_seq FROM decisions WHERE user_id = 'u1'").map {
            try $0.int(0)
        }
        #expect(positions == [2])
    }

    @Test func workersClaimPendingEventsAcrossDayPartitionsInAcceptanceOrder() async throws {
        let harness = try await PipelineHarness.make(start: Date())
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        let today = try await harness.database { try RetentionRepository.today(on: $0) }
        _ = try await harness.database {
            try RetentionRepository.ensurePartitions(from: today - 3, through: today - 1, on: $0)
        }
        for (day, state) in [(today - 3, "pending"), (today - 2, "decided"), (today - 1, "pending")] {
            try await Self.history(harness, day: day, eventState: state, deliveryState: "sent")
        }
        let accepted = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "today-1", occurredAt: harness.clock.now))
        #expect(accepted.status == .accepted)

        // Two workers at once: the first takes the two oldest and holds them; the second skips those.
        let pool = harness.context.pool
        let (first, second) = try await harness.database { connection in
            try connection.transaction { connection in
                let first = try EventRepository.claims(
                    from: connection.pipeline([EventRepository.claimQuery(limit: 2)])[0]
                ).map(\.id)
                let second = try pool.withConnectionBlocking { other in
                    try other.transaction { other in
                        try EventRepository.claims(from: other.pipeline([EventRepository.claimQuery(limit: 5)])[0])
                            .map(\.id)
                    }
                }
                return (first, second)
            }
        }
        #expect(first == ["old-\(today - 3)", "old-\(today - 1)"])
        #expect(second == ["today-1"])
        // The claim is kept an index walk, whatever the statistics of a freshly filled partition say, and in
        // PL/pgSQL, whose plan lasts the session (a SQL function with a SET clause is planned on every call).
        let settings = try await harness.sql(
            """
            SELECT array_to_string(p.proconfig, ',') || ' ' || l.lanname
            FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.proname = 'herald_claim_events'
            """)
        #expect(try settings.single().string(0) == "enable_sort=off plpgsql")
    }

    @Test func oneProgressCallRecordsEventsOfSeveralDayPartitions() async throws {
        let harness = try await PipelineHarness.make(start: Date())
        defer { harness.close() }
        try await harness.category(PipelineHarness.chatCategory())
        let today = try await harness.database { try RetentionRepository.today(on: $0) }
        _ = try await harness.database {
            try RetentionRepository.ensurePartitions(from: today - 2, through: today - 1, on: $0)
        }
        for day in [today - 2, today - 1] {
            try await Self.history(harness, day: day, eventState: "pending", deliveryState: "sent")
        }
        let accepted = await harness.send(
            .post, "/v1/events", json: PipelineHarness.event(id: "today-1", occurredAt: harness.clock.now))
        #expect(accepted.status == .accepted)
        let seqs = try await harness.sql("SELECT seq FROM events ORDER BY seq").map { try $0.int64(0) }
        #expect(seqs.count == 3)
        let now = harness.clock.now
        // The oldest is done, the next has a topic page left, the newest reached nobody for its own reason.
        let progress = [
            EventProgress(seq: seqs[0], done: true, fanoutAfter: nil, recipients: 2),
            EventProgress(seq: seqs[1], done: false, fanoutAfter: "u7", recipients: 5),
            EventProgress(seq: seqs[2], done: true, fanoutAfter: nil, recipients: 0, outcome: "rejected.undecodable"),
        ]
        let updated = try await harness.database { connection in
            try connection.transaction { try $0.pipeline([EventRepository.progressQuery(progress, at: now)]) }
        }
        #expect(try updated[0].single().int(0) == 3)
        let rows = try await harness.sql(
            """
            SELECT state, decided_at IS NOT NULL, fanout_after, recipients_decided, outcome FROM events ORDER BY seq
            """)
        #expect(try rows[0].string(0) == "decided" && rows[0].bool(1) && rows[0].decode(String?.self, 2) == nil)
        #expect(try rows[0].int(3) == 2)
        #expect(try rows[1].string(0) == "pending" && !rows[1].bool(1) && rows[1].decode(String?.self, 2) == "u7")
        #expect(try rows[1].int(3) == 5)
        #expect(try rows[2].string(0) == "decided" && rows[2].decode(String?.self, 4) == "rejected.undecodable")
        // A plain statement was planned on every call; the function asks for the generic plan, made once per session.
        let settings = try await harness.sql(
            """
            SELECT array_to_string(p.proconfig, ',') || ' ' || l.lanname
            FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.proname = 'herald_record_progress'
            """)
        #expect(try settings.single().string(0) == "plan_cache_mode=force_generic_plan plpgsql")
    }

    @Test func theDayNumberIsTheUTCDayAndIsInlinedIntoEveryRowDefault() async throws {
        let harness = try await PipelineHarness.make(start: Date())
        defer { harness.close() }
        // Every 37 minutes 13.123457 seconds from 1960 to 2101, and both sides of a few midnights.
        let wrong = try await harness.sql(
            """
            SELECT count(*) FROM (
                SELECT timestamptz '1960-01-01 00:00:00+00' + g * interval '37 minutes 13.123457 seconds' AS t
                FROM generate_series(0, 2000000) g
                UNION ALL
                SELECT timestamptz '2026-12-04 00:00:00+00' + d * interval '1 day' + s * interval '1 microsecond'
                FROM generate_series(-3, 3) d, generate_series(-1, 0) s
            ) x WHERE herald_day_number(t) <> floor(extract(epoch FROM t) / 86400)::integer
            """)
        #expect(try wrong.single().int(0) == 0)
        // Inlined, the default is an expression of `now()`, not a call of the function for each row inserted.
        let plan = try await harness.sql("EXPLAIN (VERBOSE) SELECT herald_day_number(now())")
        let text = try plan.map { try $0.string(0) }.joined(separator: "\n")
        #expect(text.contains("floor") && !text.contains("herald_day_number"), "\(text)")
    }

    /// One day of history: an event with its key, a decision, a digest and a delivery.
    static func history(
        _ harness: PipelineHarness, day: Int, eventState: String, deliveryState: String,
        expiresAt: Date = Date().addingTimeInterval(86_400)
    ) async throws {
        _ = try await harness.sql(
            """
            WITH e AS (
                INSERT INTO events (seq, source, id, category_id, body_hash, document, state, accepted_at, decided_at)
                VALUES (($1::bigint << 44) + 1, 'chat', 'old-' || $1, 'chat.message', repeat('a', 64), '{}', $2,
                        to_timestamp($1 * 86400.0), CASE WHEN $2 = 'decided' THEN to_timestamp($1 * 86400.0) END)
                RETURNING seq, source, id, body_hash, accepted_at
            ),
            k AS (INSERT INTO event_keys SELECT source, id, seq, body_hash, accepted_at FROM e),
            d AS (
                INSERT INTO decisions (event_seq, user_id, outcome, decided_at)
                SELECT seq, 'u1', 'no_devices', accepted_at FROM e
            ),
            g AS (
                INSERT INTO digests (notification_id, user_id, collapse_key, category_id, outcome, decided_at,
                                     stored_day)
                VALUES ('digest-' || $1, 'u1', 'k', 'chat.message', 'delivered', to_timestamp($1 * 86400.0), $1)
            )
            INSERT INTO deliveries (id, user_id, installation_id, platform, environment, token, kind, headers, body,
                                    priority, created_at, available_at, expires_at, state, finished_at, stored_day)
            VALUES ('delivery-' || $1, 'u1', 'i1', 'apns', 'production', 't', 'alert', '{}', '{}', 10,
                    to_timestamp($1 * 86400.0), to_timestamp($1 * 86400.0), $4::timestamptz,
                    $3, CASE WHEN $3 = 'sent' THEN to_timestamp($1 * 86400.0) END, $1)
            """, [day, eventState, deliveryState, expiresAt])
    }
}

/// A database from before partitioning keeps its history, in one `_before_` partition per table.
@Suite("Partitioning an existing database")
struct RetentionMigrationTests {
    @Test func rowsFromBeforePartitioningMoveIntoOnePartitionPerTableAndStayIdempotent() async throws {
        let (pool, migrator) = try await offCooperativePool { () -> (PostgresPool, Migrator) in
            let conninfo = try TemporaryPostgres.freshDatabase()
            let migrator = try Migrator(folder: TestService.sqlFolder)
            let connection = try PostgresConnection(conninfo: conninfo)
            try Migrator(migrations: migrator.migrations.filter { $0.version <= 10 }).migrate(on: connection)
            try connection.executeScript(
                Query(
                    unsafeSQL: """
                        INSERT INTO categories (id, document, version, created_at, updated_at)
                        SELECT 'chat.message', '{"id": "chat.message"}', 1, now(), now();
                        INSERT INTO events (source, id, category_id, body_hash, document, state, accepted_at,
                                            decided_at)
                        VALUES ('chat', 'legacy-1', 'chat.message', repeat('b', 64), '{}', 'decided', now(), now()),
                               ('chat', 'legacy-2', 'chat.message', repeat('c', 64), '{}', 'pending', now(), NULL);
                        INSERT INTO decisions (event_seq, user_id, outcome, decided_at)
                        SELECT seq, 'u1', 'no_devices', now() FROM events WHERE id = 'legacy-1';
                        INSERT INTO deliveries (id, user_id, installation_id, platform, environment, token, kind,
                                                headers, body, priority, created_at, available_at, expires_at)
                        VALUES ('d1', 'u1', 'i1', 'apns', 'production', 't', 'alert', '{}', '{}', 10, now(), now(),
                                now() + interval '1 day');
                        """))
            return (try PostgresPool(conninfo: conninfo, size: 2), migrator)
        }
        defer { pool.close() }
        try await pool.withConnection { connection -> Void in
            _ = try migrator.migrate(on: connection)
            _ = try RetentionRepository.ensurePartitions(daysAhead: 3, on: connection)
        }
        let partitions = try await pool.withConnection { try RetentionRepository.partitions(on: $0) }
        let legacy = partitions.filter { $0.name.contains("_before_") }.map(\.table).sorted()
        #expect(legacy == ["decisions", "deliveries", "events"])
        let counts = try await pool.withConnection { connection in
            try [
                "SELECT count(*) FROM events", "SELECT count(*) FROM decisions", "SELECT count(*) FROM deliveries",
                "SELECT count(*) FROM event_keys", "SELECT count(*) FROM events WHERE state = 'pending'",
            ].map { try connection.query(Query(unsafeSQL: $0)).single().int(0) }
        }
        #expect(counts == [2, 1, 1, 2, 1])
        // A legacy event sent again is a duplicate; a new one gets a seq carrying today's day.
        let rows = [("legacy-1", "b"), ("new-1", "d")].map { id, digit in
            EventIngestRow(
                source: "chat", id: id, categoryId: "chat.message", bodyHash: String(repeating: digit, count: 64),
                document: "{}")
        }
        let outcomes = try await pool.withConnection { connection in
            try EventRepository.ingest(rows, acceptedAt: Date(), on: connection)
        }
        guard case .duplicate = outcomes[0], case .accepted(let seq, _) = outcomes[1] else {
            Issue.record("unexpected outcomes \(outcomes)")
            return
        }
        let today = try await pool.withConnection { try RetentionRepository.today(on: $0) }
        #expect(seq >> 44 == Int64(today))
        // The undecided legacy event still counts towards the backlog bound (counter parts, not raw seqs).
        let bound = try await pool.withConnection { try EventRepository.backlogUpperBound(on: $0) }
        #expect(bound >= 2 && bound < 1_000)
    }
}
