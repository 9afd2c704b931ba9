import Foundation
import HeraldCore
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
        self.decider = Self.decider(context)
        self.backlog = BacklogMonitor(limit: context.config.eventBacklogLimit)
        self.metrics = PipelineMetrics(context.metrics)
    }

    /// The engine as the service runs it: the configured policy, ICU zones and ICU MessageFormat templates.
    static func decider(_ context: ServiceContext) -> Decider {
        Decider(config: context.config.policy, zones: context.zones, renderer: ICUMessageRenderer(capacity: 1_024))
    }

    /// Runs database work for a handler on the request pool; failures become problems in the dispatcher
    /// (`DatabaseProblem`).
    func database<R: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> R) throws -> R {
        try context.pool.withConnectionBlocking(body)
    }
}
