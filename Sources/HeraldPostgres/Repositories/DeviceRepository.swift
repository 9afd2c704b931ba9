import Foundation
import HeraldCore

/// The SQL of devices: registration (token rotation and moves), sign-out, reads, and the batch load of active
/// devices for the decision pipeline.
public enum DeviceRepository {
    // Another installation holding the same token loses it: the token moved with a reinstall, a restored backup or
    // a new account on the same phone. The removal is recorded like every other deactivation.
    static let displaceQuery = Query(
        name: "devices_displace",
        joining: """
            WITH lost AS (
                DELETE FROM devices WHERE platform = $1 AND token = $2 AND installation_id <> $3
                RETURNING installation_id, user_id, platform, token
            )
            """, recordLoss, "$5, $6, NULL, $4 FROM lost RETURNING installation_id")
    // The installation belongs to another user and moves to `$2`: the old owner's loss is recorded, and what was
    // queued for the old owner on it goes (it is that user's, not the new one's), with the old owner's Live Activity
    // tokens (the new owner must neither read them nor have updates pushed to them).
    static let moveQuery = Query(
        name: "devices_move",
        joining: """
            WITH lost AS (
                SELECT installation_id, user_id, platform, token FROM devices
                WHERE installation_id = $1 AND user_id <> $2
                FOR UPDATE
            ), dropped AS (
                DELETE FROM deliveries
                WHERE installation_id = $1 AND state = 'queued' AND EXISTS (SELECT 1 FROM lost)
            ), activities AS (
                DELETE FROM live_activity_tokens WHERE installation_id = $1 AND EXISTS (SELECT 1 FROM lost)
            )
            """, recordLoss, "$4, $5, NULL, $3 FROM lost RETURNING user_id")
    // Whether another user's installation holds the token (locked, so that the displacement after sees the same).
    static let tokenOfAnotherUserQuery = Query(
        name: "devices_token_of_another_user",
        sql: """
            SELECT 1 FROM devices WHERE platform = $1 AND token = $2 AND installation_id <> $3 AND user_id <> $4
            FOR UPDATE
            """)
    static let otherActiveDevicesQuery = Query(
        name: "devices_other_active",
        sql: "SELECT count(*) FROM devices WHERE user_id = $1 AND installation_id <> $2 AND active")
    // Every registration of a user's devices holds this lock while it counts them against the cap, so two at once
    // cannot both see room for one more. It is also how a client's registration learns that its user exists: a
    // client acting for a deleted user re-creates nothing.
    static let userLockQuery = Query(
        name: "devices_user_lock", sql: "SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE")
    static let upsertQuery = Query(
        name: "devices_upsert",
        joining: insertDevice,
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, true, $12, $12)",
        reregisterDevice,
        """
        WHERE $13::boolean OR devices.user_id = EXCLUDED.user_id
        RETURNING installation_id, user_id, platform, token, web_push_p256dh, web_push_auth, environment, app_id,
                  locale, app_version, app_builds_notifications, active, last_registered_at, created_at,
                  deactivated_at, deactivation_reason, (xmax = 0) AS created
        """)
    /// The columns a registration writes, for the single registration and the bulk import alike.
    static let insertDevice: StaticString = """
        INSERT INTO devices (installation_id, user_id, platform, token, web_push_p256dh, web_push_auth,
                             environment, app_id, locale, app_version, app_builds_notifications, active,
                             last_registered_at, created_at)
        """
    /// What registering a known installation again replaces: everything but its creation time, and it is active.
    static let reregisterDevice: StaticString = """
        ON CONFLICT (installation_id) DO UPDATE SET
            user_id = EXCLUDED.user_id, platform = EXCLUDED.platform, token = EXCLUDED.token,
            web_push_p256dh = EXCLUDED.web_push_p256dh, web_push_auth = EXCLUDED.web_push_auth,
            environment = EXCLUDED.environment, app_id = EXCLUDED.app_id, locale = EXCLUDED.locale,
            app_version = EXCLUDED.app_version, app_builds_notifications = EXCLUDED.app_builds_notifications,
            active = true, deactivated_at = NULL, deactivation_reason = NULL,
            last_registered_at = EXCLUDED.last_registered_at
        """
    static let removeQuery = Query(
        name: "devices_remove",
        joining: """
            WITH lost AS (
                DELETE FROM devices WHERE installation_id = $1 AND ($3::text IS NULL OR user_id = $3)
                RETURNING installation_id, user_id, platform, token
            )
            """, recordLoss, "$4, $5, NULL, $2 FROM lost RETURNING installation_id")
    /// How a lost device is recorded, after a statement's `lost` rows (installation, user, platform, token): its
    /// token only as a SHA-256 fingerprint, never in clear. The select list goes on with the cause, the reason, when
    /// the push service failed (or NULL) and when it was recorded, then `FROM lost`.
    static let recordLoss: StaticString = """
        INSERT INTO device_deactivations (installation_id, user_id, platform, token_sha256, cause, reason, failed_at,
                                          recorded_at)
        SELECT installation_id, user_id, platform, encode(sha256(convert_to(token, 'UTF8')), 'hex'),
        """
    static let findQuery = Query(
        name: "devices_find",
        sql: """
            SELECT installation_id, user_id, platform, token, web_push_p256dh, web_push_auth, environment, app_id,
                   locale, app_version, app_builds_notifications, active, last_registered_at, created_at,
                   deactivated_at, deactivation_reason
            FROM devices WHERE installation_id = $1
            """)
    static let byUserQuery = Query(
        name: "devices_by_user",
        sql: """
            SELECT installation_id, user_id, platform, token, web_push_p256dh, web_push_auth, environment, app_id,
                   locale, app_version, app_builds_notifications, active, last_registered_at, created_at,
                   deactivated_at, deactivation_reason
            FROM devices WHERE user_id = $1 ORDER BY created_at, installation_id
            """)
    static let activeBatchQuery = Query(
        name: "devices_active_batch",
        sql: """
            SELECT installation_id, user_id, platform, token, web_push_p256dh, web_push_auth, environment, app_id,
                   locale, app_version, app_builds_notifications, active, last_registered_at, created_at,
                   deactivated_at, deactivation_reason
            FROM devices WHERE user_id = ANY($1::text[]) AND active ORDER BY user_id, created_at, installation_id
            """)

    /// Registers `device` at `now`: takes its token away from any other installation, and creates or replaces the
    /// installation (a new token replaces the old one; a deactivated device becomes active again). What happens to
    /// a missing user, another user's installation or token and a full set of devices is `registrar`'s rule
    /// (`DeviceRegistrar.refusal`); a refusal throws `DeviceRegistrar.Refusal` and changes nothing. Runs in one
    /// transaction, retried when a concurrent registration of the same token wins.
    public static func register(
        _ device: Device, now: Date, by registrar: DeviceRegistrar, on connection: PostgresConnection
    ) throws
        -> DeviceRegistration
    {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try connection.transaction { connection in
                    if registrar.createsUsers {
                        try UserRepository.ensure(id: device.userId, now: now, on: connection)
                    }
                    let userExists = !(try connection.query(userLockQuery, [device.userId]).isEmpty)
                    var tokenHeldByAnotherUser = false
                    var others = 0
                    if userExists, !registrar.takesOtherUsersTokens {
                        tokenHeldByAnotherUser =
                            !(try connection.query(
                                tokenOfAnotherUserQuery,
                                [device.platform.rawValue, device.token, device.installationId, device.userId]
                            ).isEmpty)
                    }
                    if userExists {
                        others = try connection.query(otherActiveDevicesQuery, [device.userId, device.installationId])
                            .single().int(0)
                    }
                    if let refusal = registrar.refusal(
                        userExists: userExists, tokenHeldByAnotherUser: tokenHeldByAnotherUser,
                        otherActiveDevices: others)
                    {
                        throw refusal
                    }
                    let movedFrom =
                        registrar.movesInstallations
                        ? try connection.query(
                            moveQuery, [device.installationId, device.userId, now] + Self.loss(.userChanged)
                        ).first?.string(0)
                        : nil
                    let displaced = try connection.query(
                        displaceQuery,
                        [device.platform.rawValue, device.token, device.installationId, now] + Self.loss(.tokenMoved)
                    ).map { try $0.string(0) }
                    let rows = try connection.query(
                        upsertQuery,
                        [
                            device.installationId, device.userId, device.platform.rawValue, device.token,
                            device.webPushKeys?.p256dh, device.webPushKeys?.auth, device.environment.rawValue,
                            device.appId, device.locale, device.appVersion, device.appBuildsNotifications, now,
                            registrar.movesInstallations,
                        ]
                    )
                    // No row: the installation is another user's and the conflict clause kept it.
                    guard let row = rows.first else { throw DeviceRegistrar.Refusal.installationOfAnotherUser }
                    return DeviceRegistration(
                        record: try record(row), created: try row.bool("created"), displacedInstallations: displaced,
                        movedFromUser: movedFrom)
                }
            } catch let error as PostgresError
                where attempt < 3 && (error.kind == .uniqueViolation || error.isRetryable)
            {
                // Two installations registered the same token at once; the next attempt displaces the winner.
                continue
            }
        }
    }

    /// Removes installation `installationId` at once (sign-out) and records why; returns whether it existed.
    /// With `ownerId`, only while the installation is that user's: the check is the deletion's own, so a device
    /// moved to another user meanwhile stays.
    public static func remove(
        installationId: String, ownerId: String? = nil, now: Date, on connection: PostgresConnection
    ) throws -> Bool {
        !(try connection.query(removeQuery, [installationId, now, ownerId] + Self.loss(.signedOut)).isEmpty)
    }

    /// The cause and reason parameters of a statement that records a loss through `recordLoss`.
    static func loss(_ loss: DeviceLoss) -> [(any PostgresEncodable)?] { [loss.rawValue, loss.reason] }

    /// The installation `installationId`, if registered.
    public static func find(installationId: String, on connection: PostgresConnection) throws -> DeviceRecord? {
        try connection.query(findQuery, [installationId]).first.map(record)
    }

    /// Every device of user `userId`, active or not, oldest first.
    public static func devices(userId: String, on connection: PostgresConnection) throws -> [DeviceRecord] {
        try connection.query(byUserQuery, [userId]).map(record)
    }

    /// The active devices of the users among `userIds`, keyed by user id, in one statement.
    public static func activeDevices(
        userIds: [String], on connection: PostgresConnection
    ) throws
        -> [String: [Device]]
    {
        guard !userIds.isEmpty else { return [:] }
        var devices: [String: [Device]] = [:]
        for row in try connection.query(activeBatchQuery, [PipelineArray(userIds)]) {
            let device = try record(row).device
            devices[device.userId, default: []].append(device)
        }
        return devices
    }

    static func record(_ row: PostgresRow) throws -> DeviceRecord {
        guard let device = try device(row) else {
            throw PostgresError(kind: .decoding, message: "unknown device platform or environment")
        }
        return DeviceRecord(
            device: device, createdAt: try row.date("created_at"),
            deactivatedAt: try row.decode(Date?.self, "deactivated_at"),
            deactivationReason: try row.decode(String?.self, "deactivation_reason"))
    }

    /// The device of a row with the device columns; `nil` for a platform or environment this build does not know.
    static func device(_ row: PostgresRow) throws -> Device? {
        try device(row, DeviceColumns(row))
    }

    /// `device`, with the columns' positions found once for a whole result (a batch reads thousands of devices).
    static func device(_ row: PostgresRow, _ columns: DeviceColumns) throws -> Device? {
        guard let platform = Device.Platform(rawValue: try row.string(columns.platform)),
            let environment = Device.Environment(rawValue: try row.string(columns.environment))
        else { return nil }
        var keys: Device.WebPushKeys?
        if let p256dh = try row.decode(String?.self, columns.p256dh),
            let auth = try row.decode(String?.self, columns.auth)
        {
            keys = Device.WebPushKeys(p256dh: p256dh, auth: auth)
        }
        return Device(
            installationId: try row.string(columns.installationId), userId: try row.string(columns.userId),
            platform: platform, token: try row.string(columns.token), webPushKeys: keys, environment: environment,
            appId: try row.string(columns.appId), locale: try row.decode(String?.self, columns.locale),
            appVersion: try row.decode(String?.self, columns.appVersion),
            appBuildsNotifications: try row.bool(columns.appBuildsNotifications), active: try row.bool(columns.active),
            lastRegisteredAt: try row.date(columns.lastRegisteredAt))
    }
}

/// Where the device columns are in a result, by their names in the devices table.
struct DeviceColumns {
    let installationId, userId, platform, token, p256dh, auth, environment, appId, locale, appVersion: Int
    let appBuildsNotifications, active, lastRegisteredAt: Int

    init(_ row: PostgresRow) throws {
        installationId = try row.position(of: "installation_id")
        userId = try row.position(of: "user_id")
        platform = try row.position(of: "platform")
        token = try row.position(of: "token")
        p256dh = try row.position(of: "web_push_p256dh")
        auth = try row.position(of: "web_push_auth")
        environment = try row.position(of: "environment")
        appId = try row.position(of: "app_id")
        locale = try row.position(of: "locale")
        appVersion = try row.position(of: "app_version")
        appBuildsNotifications = try row.position(of: "app_builds_notifications")
        active = try row.position(of: "active")
        lastRegisteredAt = try row.position(of: "last_registered_at")
    }
}
