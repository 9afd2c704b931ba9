import Foundation
import HeraldObservability
import HeraldPostgres

/// Builds the pipeline workers of `herald serve` as configured.
enum PipelineService {
    /// Registers the pipeline gauges and builds the workers, not yet started; `nil` when configured to run none.
    static func workers(context: ServiceContext, conninfo: String) -> PipelineWorkers? {
        let metrics = PipelineMetrics(context.metrics)
        metrics.registerGauges()
        guard context.config.pipelineWorkers > 0 else {
            context.logger.info("pipeline workers disabled")
            return nil
        }
        var limits = BatchLimits()
        limits.events = context.config.pipelineBatchSize
        let processor = BatchProcessor(decider: PipelineEnvironment.decider(context), limits: limits)
        return PipelineWorkers(
            conninfo: conninfo, count: context.config.pipelineWorkers, processor: processor, metrics: metrics,
            logger: context.logger, clock: context.clock)
    }
}
