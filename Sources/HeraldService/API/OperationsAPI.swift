import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// `/health`, `/ready` and `/metrics`: unauthenticated, for load balancers and scrapers. `/metrics` is served on the
/// API port unless `HERALD_METRICS_ADDR` gives it an address of its own.
enum OperationsAPI {
    static func register(on router: inout Router, context: ServiceContext) {
        registerProbes(on: &router, context: context)
        if context.config.metricsAddress == nil { registerMetrics(on: &router, context: context) }
    }

    /// `/health` and `/ready`.
    static func registerProbes(on router: inout Router, context: ServiceContext) {
        router.get("/health", auth: .public) { _, _ in
            try HTTPResponse.json(Health(status: "ok", version: Herald.version))
        }
        router.get("/ready", auth: .public) { _, _ in
            let readiness = check(context)
            return try HTTPResponse.json(readiness, status: readiness.status == "ready" ? .ok : .serviceUnavailable)
        }
    }

    /// `/metrics`, in Prometheus's text format.
    static func registerMetrics(on router: inout Router, context: ServiceContext) {
        router.get("/metrics", auth: .public) { _, _ in
            context.metrics.prometheusResponse()
        }
    }

    struct Health: Encodable {
        var status: String
        var version: String
    }

    struct Check: Encodable {
        var ok: Bool
        var detail: String?
    }

    struct Readiness: Encodable {
        var status: String
        var checks: [String: Check]
        var tzdata: [String: String]
    }

    /// Database reachable, migrations current, tz data matching the OS.
    static func check(_ context: ServiceContext) -> Readiness {
        var checks: [String: Check] = [:]
        do {
            // A probe answers promptly: a pool whose every connection is held up reports busy rather than
            // making the probe wait out the requests' own deadline.
            let status = try context.pool.withConnectionBlocking(maximumWait: .milliseconds(500)) { connection in
                try context.migrator.status(on: connection)
            }
            checks["database"] = Check(ok: true, detail: nil)
            checks["migrations"] = Check(
                ok: status.isCurrent,
                detail: status.isCurrent
                    ? "\(status.applied.count) applied"
                    : "\(status.pending.count) pending, \(status.modified.count) modified")
        } catch let error as PostgresError where error.kind == .poolTimeout {
            checks["database"] = Check(ok: false, detail: "busy")
            checks["migrations"] = Check(ok: false, detail: "unknown")
        } catch {
            checks["database"] = Check(ok: false, detail: "unreachable")
            checks["migrations"] = Check(ok: false, detail: "unknown")
        }
        let tz = context.timeZoneData
        checks["tzdata"] = Check(ok: tz.matchesOS, detail: tz.summary)
        let ready = checks.values.allSatisfy(\.ok)
        return Readiness(
            status: ready ? "ready" : "not_ready", checks: checks,
            tzdata: ["os": tz.osVersion ?? "unknown", "icu": tz.icuVersion])
    }
}
