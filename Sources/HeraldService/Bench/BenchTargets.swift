import Foundation

/// The speed targets a full run on the reference 2-core machine is held to, each read off one run's figures: the
/// run prints them met or missed under its table and writes them to the JSON as `targets`.
enum BenchTargets {
    /// One target: its figure in this run (nil when a phase did not write it) and the bound it must meet.
    struct Target: Equatable {
        enum Bound: Equatable {
            case atLeast(Double)
            case below(Double)
            case atMost(Double)
        }

        var name: String
        var key: String
        var value: Double?
        var bound: Bound

        var met: Bool {
            guard let value else { return false }
            switch bound {
            case .atLeast(let limit): return value >= limit
            case .below(let limit): return value < limit
            case .atMost(let limit): return value <= limit
            }
        }

        var boundText: String {
            let (sign, limit) =
                switch bound {
                case .atLeast(let limit): ("≥", limit)
                case .below(let limit): ("<", limit)
                case .atMost(let limit): ("≤", limit)
                }
            return sign + " " + BenchCommand.fmt(limit, limit < 10 ? 1 : 0)
        }

        var json: [String: Any] {
            var object: [String: Any] = ["name": name, "target": boundText, "met": met]
            object["value"] = value ?? NSNull()
            return object
        }
    }

    /// One figure of a phase in `results` (the run's JSON figures by phase).
    static func figure(_ results: [String: Any], _ phase: String, _ name: String) -> Double? {
        ((results[phase] as? [String: Any])?[name] as? NSNumber)?.doubleValue
    }

    /// Herald's and PostgreSQL's CPU microseconds per event of a phase in `results`, together.
    static func cpu(_ results: [String: Any], _ phase: String) -> Double? {
        guard let herald = figure(results, phase, "cpu_herald_us_per_event"),
            let postgres = figure(results, phase, "cpu_postgres_us_per_event")
        else { return nil }
        return herald + postgres
    }

    /// Every target, evaluated on `results` (the run's JSON figures by phase).
    static func evaluate(_ results: [String: Any]) -> [Target] {
        func figure(_ phase: String, _ name: String) -> Double? { Self.figure(results, phase, name) }
        func cpu(_ phase: String) -> Double? { Self.cpu(results, phase) }
        func ratio(_ a: Double?, _ b: Double?) -> Double? {
            guard let a, let b, b > 0 else { return nil }
            return a / b
        }
        return [
            Target(
                name: "pipeline ÷ limit", key: "pipeline_to_limit", value: figure("pipeline", "ratio_to_limit"),
                bound: .atLeast(0.8)),
            Target(
                name: "CPU per event, pipeline ÷ limit (herald + PostgreSQL)", key: "cpu_pipeline_to_limit",
                value: ratio(cpu("pipeline"), cpu("limit")), bound: .atMost(1.3)),
            Target(
                name: "CPU per event, 1,000 events/s ÷ pipeline", key: "cpu_latency_to_pipeline",
                value: ratio(cpu("latency"), cpu("pipeline")), bound: .atMost(1.5)),
            Target(
                name: "ingest alone ÷ its limit", key: "ingest_alone_to_limit",
                value: figure("ingest_alone", "ratio_to_limit"), bound: .atLeast(0.6)),
            Target(
                name: "mixed: decided events/s", key: "mixed_decided_per_second",
                value: figure("mixed", "events_per_second"), bound: .atLeast(6_000)),
            Target(
                name: "latency at 1,000 events/s, p50 ms", key: "latency_p50_ms", value: figure("latency", "p50_ms"),
                bound: .below(8)),
            Target(
                name: "latency at 1,000 events/s, p99 ms", key: "latency_p99_ms", value: figure("latency", "p99_ms"),
                bound: .below(20)),
            Target(
                name: "campaign: handed out/s", key: "campaign_handed_out_per_second",
                value: figure("campaign", "recipients_per_second"), bound: .atLeast(20_000)),
            Target(
                name: "campaign: decided/s end to end", key: "campaign_decided_per_second",
                value: figure("campaign", "decided_recipients_per_second"), bound: .atLeast(8_000)),
            Target(
                name: "peak RSS MB", key: "peak_rss_mb", value: figure("memory", "peak_rss_mb"), bound: .below(150)),
        ]
    }

    /// The targets' lines for the printed report: name, value, bound and whether it was met.
    static func text(_ targets: [Target]) -> String {
        let rows = targets.map { target in
            let value = target.value.map { BenchCommand.fmt($0, abs($0) < 10 ? 2 : abs($0) < 1_000 ? 1 : 0) } ?? "—"
            return (target.name, value, target.boundText, target.met ? "met" : "missed")
        }
        let widths = (rows.map(\.0.count).max() ?? 0, rows.map(\.1.count).max() ?? 0, rows.map(\.2.count).max() ?? 0)
        let pad = { (text: String, width: Int) in String(repeating: " ", count: max(0, width - text.count)) }
        return "targets (for a full run on a 2-core machine):\n"
            + rows.map { name, value, bound, met in
                name + pad(name, widths.0 + 2) + pad(value, widths.1) + value + "  " + bound + pad(bound, widths.2 + 2)
                    + met
            }.joined(separator: "\n") + "\n"
    }

    /// The targets for the JSON, by key.
    static func json(_ targets: [Target]) -> [String: Any] {
        Dictionary(uniqueKeysWithValues: targets.map { ($0.key, $0.json) })
    }
}
