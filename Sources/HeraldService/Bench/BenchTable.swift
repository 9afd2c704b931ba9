import Foundation

/// The human table printed after a run: one row per figure, name left, value right-aligned.
struct BenchTable {
    private(set) var rows: [(name: String, value: String)] = []

    /// Adds one row.
    mutating func add(_ name: String, _ value: String) { rows.append((name, value)) }

    /// The table as text, one row a line.
    var text: String {
        let nameWidth = rows.map(\.name.count).max() ?? 0
        let valueWidth = rows.map(\.value.count).max() ?? 0
        return rows.map { row in
            row.name + String(repeating: " ", count: nameWidth - row.name.count + 2)
                + String(repeating: " ", count: valueWidth - row.value.count) + row.value
        }.joined(separator: "\n") + "\n"
    }

    /// A number with a fixed count of decimals.
    static func format(_ value: Double, decimals: Int = 0) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
