import Foundation
import HeraldCore

/// How many rows a bulk import wrote.
public struct ImportCounts: Sendable, Hashable {
    /// Users created or changed (a user on several lines counts once: the last line wins; an unchanged one not at
    /// all).
    public var users: Int
    /// Devices created or replaced.
    public var devices: Int
    /// Installations removed because an imported device took their token.
    public var displacedDevices: Int
    /// Lines not stored because their user would have held more than `Device.maxPerUser` active devices; every
    /// line of such a user is refused, so that no user is written without its devices.
    public var refusedLines: [Int] = []
    /// Time spent streaming rows into the staging table (the caller's parsing included).
    public var stagingMilliseconds: Int
    /// Time spent upserting from the staging table.
    public var upsertMilliseconds: Int

    /// Creates counts.
    public init(
        users: Int, devices: Int, displacedDevices: Int, stagingMilliseconds: Int = 0, upsertMilliseconds: Int = 0
    ) {
        self.users = users
        self.devices = devices
        self.displacedDevices = displacedDevices
        self.stagingMilliseconds = stagingMilliseconds
        self.upsertMilliseconds = upsertMilliseconds
    }
}

/// Bulk import of users and their devices: rows stream through COPY into a session-local staging table, then a few
/// set-based statements upsert them, all in one transaction. Duplicates inside one import resolve to the last line.
public enum ImportRepository {
    // Temporary tables live as long as the pooled session; ON COMMIT DELETE ROWS empties them after every import.
    static let createStaging = Query(
        unsafeSQL: """
            CREATE TEMP TABLE IF NOT EXISTS import_rows (
                line integer NOT NULL, kind "char" NOT NULL, user_id text COLLATE "C" NOT NULL,
                locale text, time_zone text, quiet_start smallint, quiet_end smallint, quiet_days smallint,
                badge boolean, installation_id text COLLATE "C", platform text, token text COLLATE "C",
                p256dh text, auth text, environment text, app_id text, device_locale text, app_version text,
                app_builds boolean
            ) ON COMMIT DELETE ROWS;
            CREATE TEMP TABLE IF NOT EXISTS import_devices (
                line integer NOT NULL, installation_id text COLLATE "C" NOT NULL, user_id text COLLATE "C" NOT NULL,
                platform text NOT NULL, token text COLLATE "C" NOT NULL, p256dh text, auth text,
                environment text NOT NULL, app_id text NOT NULL, device_locale text, app_version text,
                app_builds boolean NOT NULL
            ) ON COMMIT DELETE ROWS;
            """, name: "import_create_staging")
    static let copyRows = Query(
        name: "import_copy",
        sql: """
            COPY import_rows (line, kind, user_id, locale, time_zone, quiet_start, quiet_end, quiet_days, badge,
                              installation_id, platform, token, p256dh, auth, environment, app_id, device_locale,
                              app_version, app_builds) FROM STDIN
            """)
    // Temporary tables are never analysed automatically; without statistics the joins below may plan badly.
    static let analyzeRows = Query(unsafeSQL: "ANALYZE import_rows", name: "import_analyze_rows")
    static let analyzeDevices = Query(unsafeSQL: "ANALYZE import_devices", name: "import_analyze_devices")
    // A user whose profile is unchanged is not rewritten, so importing the same file again costs reads only.
    // Most imports name each user once; they skip the sort that de-duplicating needs, and fall back to it when the
    // upsert meets a user twice (SQLSTATE 21000).
    static let savepoint = Query(name: "import_savepoint", sql: "SAVEPOINT import_users")
    static let rollbackToSavepoint = Query(
        name: "import_rollback_savepoint", sql: "ROLLBACK TO SAVEPOINT import_users")
    static let upsertDistinctUsers = Query(
        name: "import_upsert_distinct_users",
        joining: insertUsers,
        """
        SELECT user_id, locale, time_zone, quiet_start, quiet_end, quiet_days, badge, $1, $1
        FROM import_rows WHERE kind = 'u'
        """, updateChangedUsers)
    static let upsertUsers = Query(
        name: "import_upsert_users",
        joining: insertUsers,
        """
        SELECT DISTINCT ON (user_id) user_id, locale, time_zone, quiet_start, quiet_end, quiet_days, badge, $1, $1
        FROM import_rows WHERE kind = 'u' ORDER BY user_id, line DESC
        """, updateChangedUsers)
    private static let insertUsers: StaticString = """
        INSERT INTO users (id, locale, time_zone, quiet_start_minute, quiet_end_minute, quiet_days, badge,
                           created_at, updated_at)
        """
    private static let updateChangedUsers: StaticString = """
        ON CONFLICT (id) DO UPDATE SET
            locale = EXCLUDED.locale, time_zone = EXCLUDED.time_zone,
            quiet_start_minute = EXCLUDED.quiet_start_minute, quiet_end_minute = EXCLUDED.quiet_end_minute,
            quiet_days = EXCLUDED.quiet_days, badge = EXCLUDED.badge, updated_at = EXCLUDED.updated_at
        WHERE (users.locale, users.time_zone, users.quiet_start_minute, users.quiet_end_minute, users.quiet_days,
               users.badge)
            IS DISTINCT FROM (EXCLUDED.locale, EXCLUDED.time_zone, EXCLUDED.quiet_start_minute,
                              EXCLUDED.quiet_end_minute, EXCLUDED.quiet_days, EXCLUDED.badge)
        """
    // The last line wins per installation, then per token, so the upsert below never meets one key twice.
    static let stageDevices = Query(
        name: "import_stage_devices",
        sql: """
            INSERT INTO import_devices
            SELECT DISTINCT ON (platform, token) * FROM (
                SELECT DISTINCT ON (installation_id) line, installation_id, user_id, platform, token, p256dh, auth,
                       environment, app_id, device_locale, app_version, app_builds
                FROM import_rows WHERE kind = 'd' ORDER BY installation_id, line DESC
            ) latest
            ORDER BY platform, token, line DESC
            """)
    // An imported installation another user holds moves, as a registration moves it (`DeviceRepository.moveQuery`):
    // the old owner's loss is recorded, and its queued pushes and Live Activity tokens on it go.
    static let moveDevices = Query(
        name: "import_move_devices",
        joining: """
            WITH lost AS (
                SELECT d.installation_id, d.user_id, d.platform, d.token
                FROM devices d JOIN import_devices i ON i.installation_id = d.installation_id
                WHERE d.user_id <> i.user_id
                FOR UPDATE OF d
            ), dropped AS (
                DELETE FROM deliveries q USING lost m WHERE q.installation_id = m.installation_id AND q.state = 'queued'
            ), activities AS (
                DELETE FROM live_activity_tokens t USING lost m WHERE t.installation_id = m.installation_id
            )
            """, DeviceRepository.recordLoss, "$2, $3, NULL, $1 FROM lost")
    static let displaceDevices = Query(
        name: "import_displace_devices",
        joining: """
            WITH lost AS (
                DELETE FROM devices d USING import_devices i
                WHERE d.platform = i.platform AND d.token = i.token AND d.installation_id <> i.installation_id
                  AND NOT EXISTS (SELECT 1 FROM import_devices j WHERE j.installation_id = d.installation_id)
                RETURNING d.installation_id, d.user_id, d.platform, d.token
            )
            """, DeviceRepository.recordLoss, "$2, $3, NULL, $1 FROM lost")
    // An imported installation keeps its row when another imported installation takes its token (two devices
    // swapping tokens): its token is set aside first, under a value no push token can have, so that the upsert
    // below never meets the unique (platform, token) index mid-way.
    static let setAsideTakenTokens = Query(
        name: "import_set_aside_tokens",
        sql: """
            UPDATE devices d SET token = 'set aside ' || d.installation_id
            FROM import_devices i
            WHERE i.installation_id = d.installation_id
              AND EXISTS (SELECT 1 FROM import_devices j
                          WHERE j.platform = d.platform AND j.token = d.token AND j.installation_id <> d.installation_id)
            """)
    static let upsertDevices = Query(
        name: "import_upsert_devices",
        joining: DeviceRepository.insertDevice,
        """
        SELECT installation_id, user_id, platform, token, p256dh, auth, environment, app_id, device_locale,
               app_version, app_builds, true, $1, $1
        FROM import_devices
        """, DeviceRepository.reregisterDevice)
    /// How many active devices each user with imported devices now holds; whether that is too many is
    /// `Device.capAllows`'s to say.
    static let importedUsersActiveDevices = Query(
        name: "import_users_active_devices",
        sql: """
            SELECT d.user_id, count(*) FROM devices d
            WHERE d.active AND d.user_id IN (SELECT user_id FROM import_devices)
            GROUP BY d.user_id
            """)
    static let refuseUsers = Query(
        name: "import_refuse_users",
        sql: """
            WITH refused AS (DELETE FROM import_rows WHERE user_id = ANY($1::text[]) RETURNING line)
            SELECT DISTINCT line FROM refused ORDER BY line
            """)
    static let attemptSavepoint = Query(name: "import_attempt_savepoint", sql: "SAVEPOINT import_attempt")
    static let rollbackAttempt = Query(
        name: "import_rollback_attempt", sql: "ROLLBACK TO SAVEPOINT import_attempt")
    static let releaseAttempt = Query(name: "import_release_attempt", sql: "RELEASE SAVEPOINT import_attempt")

    /// Runs one import at `now`: `write` streams validated rows into the writer, then users and devices are
    /// upserted. If `write` throws, nothing is stored.
    public static func run(
        now: Date, on connection: PostgresConnection, _ write: (ImportWriter) throws -> Void
    ) throws -> ImportCounts {
        try connection.transaction { connection in
            let clock = ContinuousClock()
            let started = clock.now
            try connection.executeScript(createStaging)
            let staged = try connection.copyIn(copyRows) { copy in try write(ImportWriter(copy)) }
            let stagedAt = clock.now
            var counts = ImportCounts(users: 0, devices: 0, displacedDevices: 0)
            counts.stagingMilliseconds = milliseconds(stagedAt - started)
            guard staged > 0 else { return counts }
            try connection.executeScript(analyzeRows)
            // Users who would end with too many devices are refused whole, and the rest is stored again without
            // them: each round refuses at least one user, so this ends.
            while true {
                try connection.execute(attemptSavepoint)
                try upsert(into: &counts, now: now, on: connection)
                let over = try connection.query(importedUsersActiveDevices).compactMap { row in
                    Device.capAllows(activeDevices: try row.int(1)) ? nil : try row.string(0)
                }
                if over.isEmpty { break }
                try connection.execute(rollbackAttempt)
                // Released, so that the refusal below outlives the next round's rollback.
                try connection.execute(releaseAttempt)
                counts.refusedLines += try connection.query(refuseUsers, [PipelineArray(over)]).map { try $0.int(0) }
            }
            counts.refusedLines.sort()
            counts.upsertMilliseconds = milliseconds(clock.now - stagedAt)
            return counts
        }
    }

    /// Upserts the staged users, then their devices: moves, displaced tokens, set-aside tokens, the devices.
    private static func upsert(into counts: inout ImportCounts, now: Date, on connection: PostgresConnection) throws {
        try connection.execute(savepoint)
        do {
            counts.users = try connection.execute(upsertDistinctUsers, [now])
        } catch let error as PostgresError where error.sqlState == "21000" {
            try connection.execute(rollbackToSavepoint)
            counts.users = try connection.execute(upsertUsers, [now])
        }
        counts.devices = 0
        counts.displacedDevices = 0
        if try connection.execute(stageDevices) > 0 {
            try connection.executeScript(analyzeDevices)
            try connection.execute(moveDevices, [now] + DeviceRepository.loss(.userChanged))
            counts.displacedDevices = try connection.execute(
                displaceDevices, [now] + DeviceRepository.loss(.tokenMoved))
            try connection.execute(setAsideTakenTokens)
            counts.devices = try connection.execute(upsertDevices, [now])
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds) * 1000 + Int(duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
