import Foundation
import HeraldCore

/// Measures the zone answers the decision pipeline makes per recipient (`herald tzdata bench`).
enum TimeZoneBenchmark {
    /// Runs the measurements and returns printable lines.
    static func run(iterations: Int = 2_000_000) -> String {
        let directory = ICUZoneDirectory()
        var lines: [String] = []
        let ids = directory.identifiers
        let loadStart = Date()
        let zones = ids.compactMap { directory.zone($0) }
        let loadSeconds = Date().timeIntervalSince(loadStart)
        lines.append("tables for \(zones.count) zones built in \(Int(loadSeconds * 1000)) ms")

        let base = 1_767_225_600.0  // 2026-01-01T00:00Z
        var checksum = 0
        func measure(_ name: String, _ body: (Int) -> Int) {
            let start = Date()
            for i in 0..<iterations { checksum &+= body(i) }
            let seconds = Date().timeIntervalSince(start)
            lines.append("\(name): \(Int(Double(iterations) / seconds)) per second (one thread)")
        }
        measure("directory lookup + offset at instant") { i in
            let zone = directory.zone(ids[i % ids.count])!
            return zone.offsetSeconds(at: Date(timeIntervalSince1970: base + Double(i) * 997))
        }
        measure("local date-time at instant") { i in
            zones[i % zones.count].localDateTime(at: Date(timeIntervalSince1970: base + Double(i) * 997)).hour
        }
        let local = LocalDateTime(year: 2026, month: 3, day: 29, hour: 2, minute: 30)
        measure("local wall time to instant") { i in
            Int(zones[i % zones.count].instant(for: local.addingDays(i % 300)).timeIntervalSince1970)
        }
        let time = LocalTime(hour: 7, minute: 0)!
        measure("next occurrence of 07:00") { i in
            Int(
                zones[i % zones.count].nextOccurrence(
                    of: time, atOrAfter: Date(timeIntervalSince1970: base + Double(i) * 997)
                ).timeIntervalSince1970)
        }
        lines.append("checksum \(checksum)")
        return lines.joined(separator: "\n") + "\n"
    }
}
