extension Metrics {
    /// The registry in the Prometheus text exposition format 0.0.4.
    public static let prometheusContentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Renders every family: HELP and TYPE lines, then samples, families and series in a stable order.
    public func renderPrometheus() -> String {
        // Copy under the lock and format outside it; gauge closures may take their own locks.
        let snapshot = state.withLock { $0 }
        var lines: [String] = []
        for name in snapshot.counters.keys.sorted() {
            let family = snapshot.counters[name]!
            lines.append("# HELP \(name) \(Self.escapeHelp(family.help))")
            lines.append("# TYPE \(name) counter")
            for labels in family.series.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                let pairs = Array(zip(family.labelNames, labels))
                lines.append("\(name)\(Self.labelText(pairs)) \(Self.number(family.series[labels]!))")
            }
        }
        for name in snapshot.histograms.keys.sorted() {
            lines.append(contentsOf: Self.histogramLines(name: name, family: snapshot.histograms[name]!))
        }
        var gaugeHelpWritten: Set<String> = []
        for gauge in snapshot.gauges.sorted(by: { $0.name < $1.name }) {
            if gaugeHelpWritten.insert(gauge.name).inserted {
                lines.append("# HELP \(gauge.name) \(Self.escapeHelp(gauge.help))")
                lines.append("# TYPE \(gauge.name) gauge")
            }
            lines.append("\(gauge.name)\(Self.labelText(gauge.labels)) \(Self.number(gauge.read()))")
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    private static func histogramLines(name: String, family: HistogramFamily) -> [String] {
        var lines = ["# HELP \(name) \(escapeHelp(family.help))", "# TYPE \(name) histogram"]
        for labels in family.series.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let series = family.series[labels]!
            let pairs = Array(zip(family.labelNames, labels))
            var cumulative: UInt64 = 0
            for (bound, count) in zip(family.upperBounds, series.bucketCounts) {
                cumulative += count
                lines.append("\(name)_bucket\(labelText(pairs + [("le", number(bound))])) \(cumulative)")
            }
            lines.append("\(name)_bucket\(labelText(pairs + [("le", "+Inf")])) \(series.count)")
            lines.append("\(name)_sum\(labelText(pairs)) \(number(series.sum))")
            lines.append("\(name)_count\(labelText(pairs)) \(series.count)")
        }
        return lines
    }

    /// `{a="1",b="2"}`, or nothing for no labels.
    static func labelText(_ pairs: [(String, String)]) -> String {
        guard !pairs.isEmpty else { return "" }
        return "{" + pairs.map { "\($0.0)=\"\(escapeLabelValue($0.1))\"" }.joined(separator: ",") + "}"
    }

    /// Label values escape backslash, double quote and line feed.
    static func escapeLabelValue(_ value: String) -> String {
        var result = ""
        for character in value {
            switch character {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }

    /// Help text escapes backslash and line feed.
    static func escapeHelp(_ help: String) -> String {
        var result = ""
        for character in help {
            switch character {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }

    /// Integers without a fraction, other values as Swift prints them, infinities and NaN as Prometheus spells them.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return "\(value)"
    }
}
