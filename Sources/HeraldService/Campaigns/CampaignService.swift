import Foundation
import HeraldObservability

/// Builds the campaign runner of `herald serve` as configured.
enum CampaignService {
    /// The runner's settings from the configuration.
    static func settings(_ config: ServiceConfig) -> CampaignRunner.Settings {
        CampaignRunner.Settings(
            batchSize: config.campaignBatchSize, minimumWaveSeconds: Double(config.campaignMinWaveSeconds))
    }

    /// One runner on a connection of its own, not yet started.
    static func runner(context: ServiceContext, conninfo: String) -> CampaignRunner {
        CampaignRunner(
            conninfo: conninfo, settings: settings(context.config), logger: context.logger, clock: context.clock)
    }
}
