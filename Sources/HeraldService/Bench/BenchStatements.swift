import Foundation
import HeraldPostgres
import HeraldSupport

/// `--explain-top N`: the statements that took the most PostgreSQL execution and planning time in a phase, from
/// `pg_stat_statements` (reset before the phase, read after it).
enum BenchStatements {
    /// Forgets the figures so far; does nothing unless the service tracks statements.
    static func reset(_ service: BenchService) throws {
        guard service.tracksStatements else { return }
        try service.database { try BenchRepository.resetStatementStatistics(on: $0) }
    }

    /// Prints the phase's top `count` statements by total time and returns them for the JSON results.
    static func report(_ service: BenchService, phase: String, count: Int) throws -> [[String: Any]] {
        guard service.tracksStatements, count > 0 else { return [] }
        let top = try service.database { try BenchRepository.topStatements(limit: count, on: $0) }
        StandardOutput.write(text(top, phase: phase))
        return top.map {
            [
                "calls": $0.calls, "total_ms": $0.totalMilliseconds, "mean_ms": $0.meanMilliseconds,
                "plan_ms": $0.planMilliseconds, "plans": $0.plans, "rows": $0.rows, "wal_bytes": $0.walBytes,
                "wal_fpi": $0.walFullPages, "statement": $0.text,
            ]
        }
    }

    /// The statements as a table under a title line.
    static func text(_ top: [BenchStatementFigures], phase: String) -> String {
        let rows = top.map {
            [
                String($0.calls), BenchTable.format($0.totalMilliseconds),
                BenchTable.format($0.meanMilliseconds, decimals: 3), BenchTable.format($0.planMilliseconds),
                String($0.plans), String($0.rows), BenchTable.format($0.walBytes / 1024), String($0.walFullPages),
            ]
        }
        let header = ["calls", "total ms", "mean ms", "plan ms", "plans", "rows", "WAL kB", "WAL FPI"]
        let widths = (0..<header.count).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        let line = { (cells: [String], statement: String) in
            zip(cells, widths).map { String(repeating: " ", count: $1 - $0.count) + $0 }.joined(separator: "  ")
                + "  " + statement
        }
        let body = zip(rows, top).map { line($0, $1.text) }
        return (["top \(top.count) statements by total time, \(phase) phase:", line(header, "statement")] + body)
            .joined(separator: "\n") + "\n\n"
    }
}
