import Foundation
import HeraldPostgres
import Testing

@testable import HeraldService

@Suite("Benchmark CPU figures")
struct BenchCPUTests {
    @Test func statFieldsAreCountedFromTheLastParenthesis() {
        let line =
            "4242 (postgres: (x) y) S 17 4242 4242 0 -1 4194560 120 0 0 0 250 75 30 12 20 0 1 0 900 1000 10 "
            + "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"
        #expect(BenchCPU.parse(line) == BenchCPU.Stat(parent: 17, ownTicks: 325, reapedChildrenTicks: 42))
        #expect(BenchCPU.parse("no fields here") == nil)
        #expect(BenchCPU.parse("1 (short) S 0 1 2") == nil)
    }

    @Test func usagePerEventIsInMicroseconds() {
        let usage = BenchCPU.Usage(events: 5_000, heraldSeconds: 0.6, postgresSeconds: 1.3)
        #expect(abs(usage.heraldPerEvent - 120) < 1e-9)
        #expect(abs((usage.postgresPerEvent ?? 0) - 260) < 1e-9)
        #expect(usage.text == "120 / 260")
        #expect(usage.json["cpu_postgres_us_per_event"] as? Double == usage.postgresPerEvent)
        let external = BenchCPU.Usage(events: 10, heraldSeconds: 0.001, postgresSeconds: nil)
        #expect(external.postgresPerEvent == nil)
        #expect(external.json["cpu_postgres_us_per_event"] == nil)
        #expect(external.text == "100 / —")
        #expect(BenchCPU.Usage(events: 0, heraldSeconds: 1, postgresSeconds: 1).heraldPerEvent == 0)
    }

    @Test func thisProcessSpendsCPU() {
        let meter = BenchCPU(postmaster: nil)
        let start = meter.read()
        var sum = 0.0
        let deadline = ContinuousClock.now + .milliseconds(100)
        while ContinuousClock.now < deadline { sum += sin(sum) + 1 }
        let usage = meter.usage(since: start, events: 1)
        #expect(sum > 0)
        #expect(usage.heraldSeconds > 0)
        #expect(usage.postgresSeconds == nil)
    }

    @Test func theTableShowsTheCPUColumnOnlyForPhases() {
        var table = BenchTable()
        table.add(
            "limit: events/s", "10000", cpu: BenchCPU.Usage(events: 100, heraldSeconds: 0.01, postgresSeconds: 0.02))
        table.add("memory: MB", "80.0")
        let lines = table.text.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasSuffix(BenchTable.header.cpu))
        #expect(lines[1].hasSuffix("100 / 200"))
        #expect(lines[2].hasSuffix("80.0"))
    }

    @Test func statementsPrintUnderTheirPhase() {
        let text = BenchStatements.text(
            [
                .init(
                    calls: 849, totalMilliseconds: 1_853.4, meanMilliseconds: 2.183, planMilliseconds: 412.6,
                    plans: 851, rows: 8_490, walBytes: 3_276_800, walFullPages: 97, text: "WITH k AS")
            ],
            phase: "pipeline")
        let lines = text.split(separator: "\n")
        #expect(lines[0] == "top 1 statements by total time, pipeline phase:")
        #expect(lines[1].contains("plan ms") && lines[1].contains("plans"))
        #expect(lines[2].contains("849") && lines[2].contains("1853") && lines[2].hasSuffix("WITH k AS"))
        #expect(lines[2].contains(" 413 ") && lines[2].contains(" 851 "))
        #expect(lines[1].contains("WAL kB") && lines[2].contains(" 3200 ") && lines[2].contains(" 97 "))
    }
}
