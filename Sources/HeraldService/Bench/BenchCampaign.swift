import Foundation

/// The campaign phase's slot: plans a campaign to every benchmark user and fans it out. Until campaigns exist,
/// `runner` is `nil` and the phase reports "not run".
enum BenchCampaign {
    /// The figures of one campaign run.
    struct Figures: Sendable {
        var recipients: Int
        var planSeconds: Double
        var fanOutSeconds: Double
    }

    /// Runs the phase on the service for `users` recipients; `nil` while no campaign runner exists.
    static let runner: (@Sendable (BenchService, Int) throws -> Figures)? = nil

    /// The phase's JSON figures and its table row.
    static func measure(_ service: BenchService, users: Int) throws -> (json: [String: Any], row: String) {
        guard let runner else { return (["status": "not run"], "not run (no campaign runner)") }
        let figures = try runner(service, users)
        let rate = BenchStatistics.rate(figures.recipients, seconds: figures.fanOutSeconds)
        return (
            [
                "status": "run", "recipients": figures.recipients, "plan_seconds": figures.planSeconds,
                "fan_out_seconds": figures.fanOutSeconds, "recipients_per_second": rate,
            ],
            "plan \(BenchTable.format(figures.planSeconds, decimals: 1)) s, \(BenchTable.format(rate)) recipients/s"
        )
    }
}
