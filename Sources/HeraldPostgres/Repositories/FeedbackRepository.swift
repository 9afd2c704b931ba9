import Foundation
import HeraldCore

/// What one dead-token report did.
public struct FeedbackResult: Sendable, Hashable {
    /// The outcome.
    public var outcome: FeedbackOutcome
    /// The installation the report resolved to, when a device was found.
    public var installationId: String?

    /// Creates a result.
    public init(outcome: FeedbackOutcome, installationId: String?) {
        self.outcome = outcome
        self.installationId = installationId
    }
}

/// The SQL of dead-token feedback: lock the device, decide with `FeedbackOutcome.decide`, deactivate and record.
public enum FeedbackRepository {
    static let lockByInstallation = Query(
        name: "feedback_lock_installation",
        sql: """
            SELECT installation_id, active, last_registered_at, platform, token FROM devices
            WHERE installation_id = $1 FOR UPDATE
            """)
    static let lockByToken = Query(
        name: "feedback_lock_token",
        sql: """
            SELECT installation_id, active, last_registered_at FROM devices
            WHERE platform = $1 AND token = $2 FOR UPDATE
            """)
    static let deactivateQuery = Query(
        name: "feedback_deactivate",
        joining: """
            WITH lost AS (
                UPDATE devices SET active = false, deactivated_at = $2, deactivation_reason = $3
                WHERE installation_id = $1
                RETURNING installation_id, user_id, platform, token
            )
            """, DeviceRepository.recordLoss, "$5, $3, $4, $2 FROM lost")

    /// The longest reason stored; longer ones (FCM messages) are cut.
    public static let maxReasonLength = 200

    /// Applies each report in its own short transaction (so concurrent reports never deadlock on each other's
    /// locks) and returns one result per report, in order.
    public static func apply(
        _ reports: [FeedbackReport], now: Date, on connection: PostgresConnection
    ) throws -> [FeedbackResult] {
        try reports.map { report in
            try connection.transaction { connection in try apply(report, now: now, on: connection) }
        }
    }

    static func apply(_ report: FeedbackReport, now: Date, on connection: PostgresConnection) throws -> FeedbackResult {
        let rows: PostgresResult
        var pushedWith: (platform: Device.Platform, token: String)?
        switch report.target {
        case .installation(let id): rows = try connection.query(lockByInstallation, [id])
        case .token(let platform, let token): rows = try connection.query(lockByToken, [platform.rawValue, token])
        case .push(let id, let platform, let token):
            rows = try connection.query(lockByInstallation, [id])
            pushedWith = (platform, token)
        }
        guard let row = rows.first else { return FeedbackResult(outcome: .unknownDevice, installationId: nil) }
        let installationId = try row.string("installation_id")
        var holdsToken = true
        if let pushedWith {
            holdsToken =
                try row.string("platform") == pushedWith.platform.rawValue
                && row.decode(String?.self, "token") == pushedWith.token
        }
        let outcome = FeedbackOutcome.decide(
            reasonClass: report.reasonClass, failedAt: report.failedAt,
            device: (active: try row.bool("active"), lastRegisteredAt: try row.date("last_registered_at")),
            holdsReportedToken: holdsToken)
        if outcome == .deactivated {
            // A push's dead token first ends the device's other pushes queued to it, as dead tokens too; the
            // deactivation then removes whatever else the device had queued.
            if case .push(let id, _, let token) = report.target {
                try DeliveryRepository.dropQueued(to: [(id, token)], now: now, on: connection)
            }
            // Control characters (NUL cannot be stored at all) become spaces; the length counts code points.
            let scalars = report.reason.unicodeScalars.prefix(maxReasonLength).map { $0.value < 0x20 ? " " : $0 }
            var reason = String(String.UnicodeScalarView(scalars))
            if reason.trimmingCharacters(in: .whitespaces).isEmpty { reason = "unspecified" }
            try connection.execute(
                deactivateQuery, [installationId, now, reason, report.failedAt, DeviceLoss.feedback.rawValue])
        }
        return FeedbackResult(outcome: outcome, installationId: installationId)
    }
}
