import Foundation
import HeraldObservability

/// Starts the campaign runner of `herald serve` as configured.
enum CampaignService {
    /// The runner's settings from the configuration.
    static func settings(_ config: ServiceConfig) -> CampaignRunner.Settings {
        CampaignRunner.Settings(
            batchSize: config.campaignBatchSize, minimumWaveSeconds: Double(config.campaignMinWaveSeconds))
    }

    /// Starts one runner on its own connection.
    static func start(context: ServiceContext, conninfo: String) throws -> CampaignRunner {
        let settings = settings(context.config)
        let runner = try CampaignRunner(
            conninfo: conninfo, settings: settings, logger: context.logger, clock: context.clock)
        context.logger.info(
            "campaign runner started",
            [
                "campaign.batch": .int(settings.batchSize),
                "campaign.min_wave_seconds": .int(context.config.campaignMinWaveSeconds),
            ])
        return runner
    }
}
