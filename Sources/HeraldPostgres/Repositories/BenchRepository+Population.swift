import Foundation

extension BenchRepository {
    // Some users turn promotions off, so the pipeline also takes its preference path.
    static let promotionsOff = Query(
        name: "bench_promotions_off",
        sql: """
            INSERT INTO user_preferences (user_id, category_id, setting, updated_at)
            SELECT id, 'promo.offer', 'off', $1::timestamptz FROM users WHERE right(id, 1) IN ('3', '8')
            """)
    // The zones worth spreading a campaign over: region/city names, without the aliases and legacy folders.
    static let zoneNames = Query(
        name: "bench_zone_names",
        sql: """
            SELECT name FROM pg_timezone_names
            WHERE name LIKE '%/%' AND name NOT LIKE 'posix/%' AND name NOT LIKE 'Etc/%'
              AND name NOT LIKE 'SystemV/%' AND name NOT LIKE 'US/%' AND name NOT LIKE 'right/%'
            ORDER BY name
            """)
    static let campaignUsers = Query(
        name: "bench_campaign_users",
        sql: """
            INSERT INTO users (id, locale, time_zone, created_at, updated_at)
            SELECT 'c' || lpad(i::text, 7, '0'), 'en',
                   CASE WHEN i % 50 = 0 THEN NULL ELSE ($1::text[])[1 + i % cardinality($1::text[])] END,
                   $3::timestamptz, $3::timestamptz
            FROM generate_series(0, $2::int - 1) AS i
            """)
    static let campaignDevices = Query(
        name: "bench_campaign_devices",
        sql: """
            INSERT INTO devices (installation_id, user_id, platform, token, app_id, last_registered_at,
                                 created_at)
            SELECT 'ios-' || id, id, 'apns', md5(id) || md5('x' || id), 'com.example.app', $1::timestamptz, $1::timestamptz
            FROM users WHERE id LIKE 'c%'
            """)
    static let analyzeUsers = Query(unsafeSQL: "ANALYZE users", name: "bench_analyze_users")
    static let analyzeDevices = Query(unsafeSQL: "ANALYZE devices", name: "bench_analyze_devices")
    static let userCount = Query(name: "bench_user_count", sql: "SELECT count(*) FROM users")
    static let waveCount = Query(
        name: "bench_wave_count", sql: "SELECT count(*) FROM campaign_waves WHERE campaign_id = $1")
    static let deliveryCount = Query(
        name: "bench_delivery_count", sql: "SELECT count(*) FROM deliveries WHERE event_source = $1")
    static let pendingCount = Query(
        name: "bench_pending_count", sql: "SELECT count(*) FROM events WHERE state = 'pending'")
    static let setting = Query(name: "bench_setting", sql: "SELECT current_setting($1)")

    /// Turns the category `promo.offer` off for the users whose id ends in 3 or 8.
    public static func turnPromotionsOff(at now: Date, on connection: PostgresConnection) throws {
        _ = try connection.execute(promotionsOff, [now])
    }

    /// The region/city zone names the database knows, sorted.
    public static func zoneNames(on connection: PostgresConnection) throws -> [String] {
        try connection.query(zoneNames).map { try $0.string(0) }
    }

    /// Inserts `users` campaign users `c0000000`… round-robin over `zones` (every 50th without a zone), each with
    /// one APNs device, in one transaction, and refreshes the planner's statistics of both tables.
    public static func insertCampaignPopulation(
        users: Int, zones: [String], at now: Date, on connection: PostgresConnection
    ) throws {
        try connection.transaction { connection in
            _ = try connection.execute(campaignUsers, [PipelineArray(zones), users, now])
            _ = try connection.execute(campaignDevices, [now])
        }
        _ = try connection.execute(analyzeUsers)
        _ = try connection.execute(analyzeDevices)
    }

    /// How many users there are.
    public static func userCount(on connection: PostgresConnection) throws -> Int {
        try connection.query(userCount).single().int(0)
    }

    /// How many waves the campaign `campaignId` was planned in.
    public static func waveCount(campaignId: String, on connection: PostgresConnection) throws -> Int {
        try connection.query(waveCount, [campaignId]).single().int(0)
    }

    /// How many queue rows the events of `source` made.
    public static func deliveryCount(eventSource source: String, on connection: PostgresConnection) throws -> Int {
        try connection.query(deliveryCount, [source]).single().int(0)
    }

    /// How many events are waiting for the pipeline.
    public static func pendingEventCount(on connection: PostgresConnection) throws -> Int {
        try connection.query(pendingCount).single().int(0)
    }

    /// The value of the server setting `name`, such as `shared_buffers`.
    public static func setting(_ name: String, on connection: PostgresConnection) throws -> String {
        try connection.query(setting, [name]).single().string(0)
    }
}
