import Foundation

/// The human table printed after a run: one row per figure, name left, value right-aligned, and for the rows of a
/// phase the CPU its events cost (herald / PostgreSQL microseconds per event) in a third column.
struct BenchTable {
    private(set) var rows: [(name: String, value: String, cpu: String)] = []

    static let header = (name: "figure", value: "value", cpu: "CPU µs/event herald / PostgreSQL")

    /// Adds one row, with the phase's CPU per event when it has one, and reports it on standard error at once: a
    /// long run shows each phase's figures as the phase ends.
    mutating func add(_ name: String, _ value: String, cpu: BenchCPU.Usage? = nil) {
        rows.append((name, value, cpu?.text ?? ""))
        StandardError.write("bench:   \(name): \(value)\(cpu.map { ", CPU µs/event " + $0.text } ?? "")\n")
    }

    /// The table as text, a header and one row a line.
    var text: String {
        let all = [Self.header] + rows
        let nameWidth = all.map(\.name.count).max() ?? 0
        let valueWidth = all.map(\.value.count).max() ?? 0
        let cpuWidth = all.map(\.cpu.count).max() ?? 0
        let pad = { (text: String, width: Int) in String(repeating: " ", count: width - text.count) }
        return all.map { row in
            let line =
                row.name + pad(row.name, nameWidth + 2) + pad(row.value, valueWidth) + row.value
                + (row.cpu.isEmpty ? "" : "  " + pad(row.cpu, cpuWidth) + row.cpu)
            return line
        }.joined(separator: "\n") + "\n"
    }

    /// A number with a fixed count of decimals.
    static func format(_ value: Double, decimals: Int = 0) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
