import Foundation
import HeraldObservability
import HeraldPostgres

/// Starts the pipeline workers of `herald serve` as configured.
enum PipelineService {
    /// Registers the pipeline gauges and starts the workers; `nil` when configured to run none.
    static func start(context: ServiceContext, conninfo: String) throws -> PipelineWorkers? {
        let metrics = PipelineMetrics(context.metrics)
        metrics.registerGauges()
        guard context.config.pipelineWorkers > 0 else {
            context.logger.info("pipeline workers disabled")
            return nil
        }
        var limits = BatchLimits()
        limits.events = context.config.pipelineBatchSize
        let processor = BatchProcessor(decider: PipelineEnvironment.decider(context), limits: limits)
        let workers = try PipelineWorkers(
            conninfo: conninfo, count: context.config.pipelineWorkers, processor: processor, metrics: metrics,
            logger: context.logger, clock: context.clock)
        context.logger.info(
            "pipeline workers started",
            ["pipeline.workers": .int(context.config.pipelineWorkers), "pipeline.batch": .int(limits.events)])
        return workers
    }
}
