import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres
import HeraldText

/// What the pipeline's handlers share: the service context, the decision engine, the backlog bound, metrics.
final class PipelineEnvironment: Sendable {
    let context: ServiceContext
    let decider: Decider
    let backlog: BacklogMonitor
    let metrics: PipelineMetrics

    init(context: ServiceContext) {
        self.context = context
        self.decider = Self.decider(zones: context.zones)
        self.backlog = BacklogMonitor(limit: context.config.eventBacklogLimit)
        self.metrics = PipelineMetrics(context.metrics)
    }

    /// The engine as the service runs it: ICU zones and ICU MessageFormat templates.
    static func decider(zones: any ZoneDirectory) -> Decider {
        Decider(config: DeciderConfig(), zones: zones, renderer: ICUMessageRenderer(capacity: 1_024))
    }

    /// Runs database work for a handler; a database that is restarting or unreachable becomes a 503 with
    /// `Retry-After` (the client retries), not a 500.
    func database<R: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> R) throws -> R {
        do {
            return try context.pool.withConnectionBlocking(body)
        } catch let error as PostgresError where error.isRetryable {
            context.logger.warning("database unavailable", ["error": .string(String(describing: error))])
            throw HTTPError(
                status: .serviceUnavailable, type: "database-unavailable",
                detail: "The database is briefly unavailable; retry shortly.", headers: ["Retry-After": "1"])
        }
    }
}
