import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres
import HeraldSupport

@testable import HeraldService

/// Shared pieces of the campaign tests: request bodies, the wave runner driven by hand, and the Python oracle.
enum CampaignTestSupport {
    /// A `POST /v1/campaigns` body.
    static func body(
        id: String? = nil, category: String = "chat.message", audience: String = #"{"all":true}"#, date: String,
        time: String, late: String? = nil, defaultZone: String? = nil, data: String = #"{"text":"Daily digest"}"#
    ) -> String {
        var members = [
            #""category":"\#(category)""#, #""audience":\#(audience)"#, #""date":"\#(date)""#,
            #""local_time":"\#(time)""#, #""data":\#(data)"#,
        ]
        if let id { members.append(#""id":"\#(id)""#) }
        if let late { members.append(#""late":"\#(late)""#) }
        if let defaultZone { members.append(#""default_time_zone":"\#(defaultZone)""#) }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// Inserts users `prefix1…prefixN` with `zone` (NULL when nil) in one statement.
    static func users(_ count: Int, prefix: String, zone: String?, on harness: PipelineHarness) async throws {
        _ = try await harness.sql(
            """
            INSERT INTO users (id, locale, time_zone, created_at, updated_at)
            SELECT $1 || lpad(g::text, 7, '0'), 'en', $2, $4::timestamptz, $4::timestamptz FROM generate_series(1, $3) g
            """, [prefix, zone, count, harness.clock.now])
    }

    /// Gives every user without a device one APNs device, so decisions are `delivered`; `$1` is the time of
    /// registration, from the clock of the test.
    static let devicesSQL = """
        INSERT INTO devices (installation_id, user_id, platform, token, app_id, last_registered_at, created_at)
        SELECT 'ios-' || u.id, u.id, 'apns', md5(u.id) || md5('x' || u.id), 'com.example.app', $1::timestamptz, $1::timestamptz
        FROM users u WHERE NOT EXISTS (SELECT 1 FROM devices d WHERE d.user_id = u.id)
        """

    /// `devicesSQL` through the harness, registered at the harness clock's time.
    static func devices(on harness: PipelineHarness) async throws {
        _ = try await harness.sql(devicesSQL, [harness.clock.now])
    }

    /// Polls until every wave is done and every event decided; returns whether that happened within `deadline`.
    static func waitUntilSettled(_ pool: PostgresPool, deadline: Duration) async throws -> Bool {
        try await pool.pollUntilZero(
            """
            SELECT (SELECT count(*) FROM campaign_waves WHERE state <> 'done')
                 + (SELECT count(*) FROM events WHERE state = 'pending')
            """, every: .milliseconds(100), deadline: deadline)
    }

    /// Runs one wave batch at the harness clock's time.
    static func batch(_ harness: PipelineHarness, size: Int = 100) async throws -> CampaignBatchReport? {
        try await harness.database { [clock = harness.clock] connection in
            try CampaignRepository.runBatch(
                now: clock.now, batchSize: size, minimumWaveDuration: 0, on: connection)
        }
    }

    /// Runs every due batch at the harness clock's time.
    @discardableResult
    static func runDue(_ harness: PipelineHarness, size: Int = 100) async throws -> [CampaignBatchReport] {
        try await harness.database { [clock = harness.clock] connection in
            try CampaignRunner.runDue(
                now: clock.now, settings: CampaignRunner.Settings(batchSize: size, minimumWaveSeconds: 0),
                on: connection)
        }
    }

    /// The repository's `scripts/campaign_oracle.py`.
    static let oracleScript: String = {
        TestService.sqlFolder.deletingLastPathComponent().appendingPathComponent("scripts/campaign_oracle.py").path
    }()

    /// Python's `zoneinfo` answer for every zone it knows: zone id → epoch seconds of `time` on `date`.
    static func oracle(date: String, time: String) async throws -> [String: Int] {
        try await offCooperativePool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", oracleScript, date, time]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExited()
            var answers: [String: Int] = [:]
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                let parts = line.split(separator: "\t")
                if parts.count == 2, let seconds = Int(parts[1]) { answers[String(parts[0])] = seconds }
            }
            return answers
        }
    }
}

extension JSONValue {
    /// The member's array of strings.
    var stringArray: [String] { arrayValue.compactMap(\.stringValue) }

    /// An ISO 8601 member as a date.
    var dateValue: Date? { stringValue.flatMap(ISO8601.parse) }
}
