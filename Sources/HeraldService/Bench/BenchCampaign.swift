import Foundation
import HeraldPostgres

/// The campaign phase: adds a population of campaign users spread over about 400 zones (one device each), plans a
/// 09:00-local campaign to everyone for tomorrow (plan seconds, waves), then fans a campaign with one wave due now
/// out through the runner (recipients handed to the pipeline per second) and waits until the workers decided it all
/// (recipients decided per second, end to end).
enum BenchCampaign {
    /// The figures of one campaign run.
    struct Figures: Sendable {
        var recipients: Int
        var waves: Int
        var zones: Int
        var loadSeconds: Double
        var planSeconds: Double
        var fanOutSeconds: Double
        var decidedSeconds: Double
        /// The CPU of the fan-out and the decisions, per recipient.
        var cpu: BenchCPU.Usage
    }

    /// The phase's JSON figures and its table rows.
    static func measure(
        _ service: BenchService, users: Int
    ) throws -> (json: [String: Any], rows: [(label: String, value: String, cpu: BenchCPU.Usage?)]) {
        let figures = try run(service, users: users)
        let fanOut = BenchStatistics.rate(figures.recipients, seconds: figures.fanOutSeconds)
        let decided = BenchStatistics.rate(figures.recipients, seconds: figures.decidedSeconds)
        let json: [String: Any] = figures.cpu.json.merging([
            "status": "run", "recipients": figures.recipients, "waves": figures.waves, "zones": figures.zones,
            "load_seconds": figures.loadSeconds, "plan_seconds": figures.planSeconds,
            "fan_out_seconds": figures.fanOutSeconds, "recipients_per_second": fanOut,
            "decided_seconds": figures.decidedSeconds, "decided_recipients_per_second": decided,
        ]) { $1 }
        let plan =
            "\(figures.recipients) in \(figures.zones) zones: "
            + "\(BenchTable.format(figures.planSeconds, decimals: 2)) s, \(figures.waves) waves"
        return (
            json,
            [
                ("campaign: plan", plan, nil),
                (
                    "campaign: fan-out recipients/s (decided/s)",
                    "\(BenchTable.format(fanOut)) (\(BenchTable.format(decided)))", figures.cpu
                ),
            ]
        )
    }

    private static func run(_ service: BenchService, users: Int) throws -> Figures {
        var started = ContinuousClock.now
        let zones = try loadPopulation(service, users: users)
        let loadSeconds = BenchStatistics.seconds(since: started)
        let recipients = try service.database { try BenchRepository.userCount(on: $0) }
        _ = service.send(
            .post, "/v1/categories",
            body:
                #"{"id":"bench.campaign","name":"Bench campaign","templates":{"en":{"title":"Digest","body":"{edition}"}}}"#
        )

        let calendar = Calendar(identifier: .gregorian)
        let format = { (date: Date) -> String in
            let parts = calendar.dateComponents(in: TimeZone(identifier: "UTC")!, from: date)
            return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        }
        let now = Date()
        started = ContinuousClock.now
        let plan = service.send(.post, "/v1/campaigns", body: campaign(id: "bench-plan", date: format(now + 86_400)))
        let planSeconds = BenchStatistics.seconds(since: started)
        guard plan.status == 201 else { throw failure("planning answered \(plan.status)") }
        let waves = try service.database { try BenchRepository.waveCount(campaignId: "bench-plan", on: $0) }
        _ = service.send(.post, "/v1/campaigns/bench-plan/cancel", body: "")

        let fanOut = service.send(
            .post, "/v1/campaigns", body: campaign(id: "bench-now", date: format(now - 86_400), late: "send_now"))
        guard fanOut.status == 201 else { throw failure("the fan-out campaign answered \(fanOut.status)") }
        let decidedBefore = service.eventsDecided
        let cpuStart = service.cpu.read()
        started = ContinuousClock.now
        let settings = CampaignRunner.Settings(
            batchSize: service.context.config.campaignBatchSize, minimumWaveSeconds: 0)
        let reports = try service.database { connection in
            try CampaignRunner.runDue(now: Date(), settings: settings, on: connection)
        }
        let fanOutSeconds = BenchStatistics.seconds(since: started)
        let enqueued = reports.reduce(0) { $0 + $1.enqueued }
        guard enqueued == recipients else { throw failure("\(enqueued) of \(recipients) recipients enqueued") }
        // A batch that handed anyone out stored one inbox event for them.
        try service.waitForDecided(
            reports.filter { $0.enqueued > 0 }.count, since: decidedBefore, timeoutSeconds: 3_600)
        let decidedSeconds = BenchStatistics.seconds(since: started)
        let cpu = service.cpu.usage(since: cpuStart, events: recipients)
        try service.waitForDrain()
        return Figures(
            recipients: recipients, waves: waves, zones: zones, loadSeconds: loadSeconds, planSeconds: planSeconds,
            fanOutSeconds: fanOutSeconds, decidedSeconds: decidedSeconds, cpu: cpu)
    }

    /// Inserts `users` campaign users round-robin over up to 400 zones the service knows (every 50th without a
    /// zone), each with one APNs device; returns the number of zones used.
    private static func loadPopulation(_ service: BenchService, users: Int) throws -> Int {
        let candidates = try service.database { try BenchRepository.zoneNames(on: $0) }
        let zones = Array(candidates.filter { service.context.zones.zone($0) != nil }.prefix(400))
        guard !zones.isEmpty else { throw failure("no zone of the database is known to the tz data") }
        let now = service.context.clock()
        try service.database { connection in
            try BenchRepository.insertCampaignPopulation(users: users, zones: zones, at: now, on: connection)
        }
        return zones.count
    }

    private static func campaign(id: String, date: String, late: String = "skip") -> String {
        #"{"id":"\#(id)","category":"bench.campaign","audience":{"all":true},"date":"\#(date)","local_time":"09:00","#
            + #""late":"\#(late)","default_time_zone":"UTC","data":{"edition":"Tuesday"}}"#
    }

    private static func failure(_ message: String) -> ServiceStartError {
        ServiceStartError(message: "bench campaign: \(message)")
    }
}
