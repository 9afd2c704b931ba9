import Foundation
import Testing

@testable import HeraldService

@Suite("Benchmark targets")
struct BenchTargetsTests {
    /// A run's figures by phase, with every target's inputs.
    private func results(latencyP99: Double = 14.9, latencyHerald: Double = 100) -> [String: Any] {
        [
            "limit": ["cpu_herald_us_per_event": 20.0, "cpu_postgres_us_per_event": 80.0],
            "pipeline": [
                "ratio_to_limit": 0.85, "cpu_herald_us_per_event": 40.0, "cpu_postgres_us_per_event": 80.0,
            ],
            "latency": [
                "p50_ms": 7.5, "p99_ms": latencyP99, "cpu_herald_us_per_event": latencyHerald,
                "cpu_postgres_us_per_event": 80.0,
            ],
            "ingest_alone": ["ratio_to_limit": 0.67],
            "mixed": ["events_per_second": 6_108.0],
            "campaign": ["recipients_per_second": 17_049.0, "decided_recipients_per_second": 10_506],
            "memory": ["peak_rss_mb": 129.2],
        ]
    }

    @Test func eachTargetIsReadOffItsPhaseAndJudged() throws {
        let targets = BenchTargets.evaluate(results())
        let byKey = Dictionary(uniqueKeysWithValues: targets.map { ($0.key, $0) })
        #expect(targets.count == 10)
        // (40 + 80) ÷ (20 + 80) and (100 + 80) ÷ (40 + 80).
        #expect(try #require(byKey["cpu_pipeline_to_limit"]?.value) == 1.2)
        #expect(byKey["cpu_pipeline_to_limit"]?.met == true)
        #expect(try #require(byKey["cpu_latency_to_pipeline"]?.value) == 1.5)
        #expect(byKey["cpu_latency_to_pipeline"]?.met == true)
        #expect(byKey["campaign_handed_out_per_second"]?.met == false)
        #expect(byKey["campaign_decided_per_second"]?.value == 10_506)
        #expect(byKey["campaign_decided_per_second"]?.met == true)
        #expect(targets.filter { !$0.met }.map(\.key) == ["campaign_handed_out_per_second"])
    }

    @Test func boundsAreStrictWhereTheTargetSaysBelow() {
        let atTwenty = BenchTargets.evaluate(results(latencyP99: 20, latencyHerald: 101))
        let missed = atTwenty.filter { !$0.met }.map(\.key)
        #expect(missed == ["cpu_latency_to_pipeline", "latency_p99_ms", "campaign_handed_out_per_second"])
    }

    @Test func aFigureNoPhaseWroteIsMissedAndWrittenAsNull() throws {
        var figures = results()
        figures["mixed"] = nil
        let targets = BenchTargets.evaluate(figures)
        let mixed = try #require(targets.first { $0.key == "mixed_decided_per_second" })
        #expect(mixed.value == nil)
        #expect(!mixed.met)
        #expect(mixed.json["value"] is NSNull)
        #expect(BenchTargets.text(targets).contains("mixed: decided events/s"))
    }
}
