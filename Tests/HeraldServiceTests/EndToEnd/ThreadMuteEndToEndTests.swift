import Foundation
import HeraldPostgres
import HeraldSupport
import HeraldTestSupport
import Testing

/// Against the real binary: a conversation muted while its burst is open gets no digest when the window closes,
/// because the digest passes the same decision order as a new event, with the burst's thread. A conversation
/// bursting alongside it, not muted, gets its digest: that is how the test knows both windows have closed.
@Suite("A thread muted during a burst (binary end to end)", .serialized)
struct ThreadMuteEndToEndTests {
    @Test func aThreadMutedDuringItsBurstGetsNoDigest() async throws {
        let (conninfo, pool) = try await offCooperativePool {
            let conninfo = try TemporaryPostgres.freshDatabase()
            return (conninfo, try PostgresPool(conninfo: conninfo, size: 1))
        }
        defer { pool.close() }
        let herald = try RunningHerald.start(environment: ["DATABASE_URL": conninfo, "HERALD_PIPELINE_WORKERS": "1"])
        defer { herald.kill() }
        _ = try await herald.waitUntilReady()
        let admin = herald.adminKey
        let category = CategorySamples.chat(extra: [
            "collapse": ["key_template": "msg:{thread_id}", "window_seconds": 10]
        ])
        #expect(try await herald.post("/v1/categories", json: category, key: admin).status == 201)
        #expect(
            try await herald.request("PUT", "/v1/users/ana", json: #"{"locale":"en","time_zone":"UTC"}"#, key: admin)
                .status == 201)
        #expect(
            try await herald.request(
                "PUT", "/v1/devices/phone-ana", json: MeOwnershipEndToEndTests.deviceBody(user: "ana"), key: admin
            ).status == 201)

        func post(_ ids: [String]) async throws {
            let events = ids.map { id in
                PipelineHarness.event(
                    id: id, users: ["ana"], thread: String(id.prefix(7)), actor: "bo", occurredAt: Date(),
                    data: #"{"preview":"hi"}"#)
            }
            let reply = try await herald.post("/v1/events", json: "[\(events.joined(separator: ","))]", key: admin)
            #expect(reply.status == 202, "\(reply.body)")
        }
        func count(_ sql: String) async throws -> Int {
            try await pool.withConnection { try $0.query(Query(unsafeSQL: sql)).single().int(0) }
        }
        func waitFor(_ sql: String, atLeast wanted: Int) async throws {
            let deadline = ContinuousClock.now + .seconds(60)
            while try await count(sql) < wanted {
                guard ContinuousClock.now < deadline else {
                    Issue.record("timed out waiting for \(wanted): \(sql)")
                    throw CancellationError()
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }

        // The first message of each conversation goes out at once and opens its burst.
        try await post(["conv-09-1", "conv-10-1"])
        try await waitFor("SELECT count(*) FROM decisions WHERE outcome = 'delivered'", atLeast: 2)
        // Three more of each fold into the bursts.
        try await post(["conv-09-2", "conv-09-3", "conv-09-4", "conv-10-2", "conv-10-3", "conv-10-4"])
        try await waitFor("SELECT count(*) FROM decisions", atLeast: 8)
        #expect(try await count("SELECT count(*) FROM decisions WHERE outcome = 'collapsed'") == 6)

        // Ana mutes conversation 9 while both windows are still open.
        let mute = try await herald.post(
            "/v1/users/ana/mutes", json: #"{"scope":"thread","key":"conv-09"}"#, key: admin)
        #expect(mute.status == 201)

        try await waitFor("SELECT count(*) FROM digests", atLeast: 2)
        let digests = try await pool.withConnection { connection in
            try connection.query(
                Query(
                    unsafeSQL: """
                        SELECT collapse_key, outcome, coalesce(detail, ''), event_count, cardinality(delivery_ids)
                        FROM digests ORDER BY collapse_key
                        """)
            ).map { row in
                "\(try row.string(0)) \(try row.string(1)) \(try row.string(2)) \(try row.int(3)) \(try row.int(4))"
            }
        }
        // A burst's group is the category's: its key names the category and the rendered collapse key.
        #expect(
            digests == [
                "burst:chat.message:msg:conv-09 suppressed.muted thread 4 0",
                "burst:chat.message:msg:conv-10 delivered  4 1",
            ])
        // Two first messages and one digest reached the phone; nothing of the muted conversation's digest.
        #expect(try await count("SELECT count(*) FROM deliveries") == 3)
    }
}
