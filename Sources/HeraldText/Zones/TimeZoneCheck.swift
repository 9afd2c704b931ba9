import Foundation
import HeraldCore

/// Answers probe lines about zones and compares them with expected answers (from an independent tz reader).
///
/// Lines are tab-separated, the last field being the expected answer:
/// - `known ZONE 1|0`: whether the id is accepted;
/// - `offset ZONE UNIX OFFSET`: total UTC offset in seconds at an instant;
/// - `transitions ZONE FROM TO LIST`: every offset change in [FROM, TO], comma-separated ("-" for none);
/// - `local ZONE YYYY-MM-DDTHH:MM:SS UNIX`: a wall time resolved by Herald's DST policy.
public struct TimeZoneCheck: Sendable {
    /// Which implementation answers.
    public enum Engine: Sendable {
        /// `ICUZoneDirectory`'s rules: tables read from ICU and answered in Swift (what Herald uses).
        case table
        /// ICU calls for every answer, through the facade.
        case icu
    }

    /// One wrong answer.
    public struct Mismatch: Sendable, CustomStringConvertible {
        /// The probe line without its expected answer.
        public var probe: String
        /// The expected answer.
        public var expected: String
        /// Herald's answer.
        public var actual: String
        /// "probe: expected X, Herald Y".
        public var description: String { "\(probe): expected \(expected), Herald \(actual)" }
    }

    /// The outcome of a run.
    public struct Report: Sendable {
        /// Probes per kind.
        public var counts: [String: Int] = [:]
        /// Distinct zones probed.
        public var zones: Set<String> = []
        /// Every wrong answer.
        public var mismatches: [Mismatch] = []
        /// Lines that could not be read.
        public var malformed = 0

        /// Counts plus the first 50 mismatches.
        public var text: String {
            let total = counts.values.reduce(0, +)
            var lines = [
                "probes \(total) zones \(zones.count) mismatches \(mismatches.count) malformed \(malformed)"
            ]
            for kind in counts.keys.sorted() { lines.append("  \(kind) \(counts[kind]!)") }
            for mismatch in mismatches.prefix(50) { lines.append("MISMATCH \(mismatch)") }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    private let engine: Engine

    /// A checker answering with `engine`.
    public init(engine: Engine = .table) {
        self.engine = engine
    }

    /// Answers and compares every line of `input`.
    public func run(_ input: String) -> Report {
        var report = Report()
        let answerer = Answerer(engine: engine)
        for line in input.split(separator: "\n") where !line.isEmpty && !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 3, let actual = answerer.answer(Array(fields.dropLast())) else {
                report.malformed += 1
                continue
            }
            report.counts[fields[0], default: 0] += 1
            report.zones.insert(fields[1])
            if actual != fields[fields.count - 1] {
                report.mismatches.append(
                    Mismatch(
                        probe: fields.dropLast().joined(separator: " "), expected: fields[fields.count - 1],
                        actual: actual))
            }
        }
        return report
    }
}

/// Computes Herald's answer for one probe.
private final class Answerer {
    let engine: TimeZoneCheck.Engine
    let directory = ICUZoneDirectory()
    var handles: [String: ICUHandleBox] = [:]

    init(engine: TimeZoneCheck.Engine) {
        self.engine = engine
    }

    func answer(_ fields: [String]) -> String? {
        let kind = fields[0]
        let zone = fields[1]
        if kind == "known" { return directory.zone(zone) == nil ? "0" : "1" }
        switch (kind, fields.count) {
        case ("offset", 3):
            guard let second = Int(fields[2]) else { return nil }
            return offset(zone, second).map(String.init) ?? "unknown"
        case ("transitions", 4):
            guard let from = Int(fields[2]), let to = Int(fields[3]) else { return nil }
            guard let list = transitions(zone, from: from, to: to) else { return "unknown" }
            return list.isEmpty ? "-" : list.map(String.init).joined(separator: ",")
        case ("local", 3):
            guard let local = Self.parse(fields[2]) else { return nil }
            return resolve(zone, local).map(String.init) ?? "unknown"
        default:
            return nil
        }
    }

    private func offset(_ zone: String, _ second: Int) -> Int? {
        switch engine {
        case .table:
            return directory.zone(zone)?.offsetSeconds(
                at: Date(timeIntervalSince1970: TimeInterval(second)))
        case .icu:
            return handle(zone)?.handle.totalOffset(atSecond: second)
        }
    }

    private func transitions(_ zone: String, from: Int, to: Int) -> [Int]? {
        var result: [Int] = []
        var cursor = from - 1
        switch engine {
        case .table:
            guard let rules = directory.zone(zone) else { return nil }
            while let next = rules.nextTransition(
                after: Date(timeIntervalSince1970: TimeInterval(cursor))),
                Int(next.timeIntervalSince1970) <= to
            {
                cursor = Int(next.timeIntervalSince1970)
                result.append(cursor)
            }
        case .icu:
            guard let box = handle(zone) else { return nil }
            while let next = box.handle.nextOffsetChange(after: cursor), next <= to {
                cursor = next
                result.append(next)
            }
        }
        return result
    }

    private func resolve(_ zone: String, _ local: LocalDateTime) -> Int? {
        switch engine {
        case .table:
            return directory.zone(zone).map { Int($0.instant(for: local).timeIntervalSince1970) }
        case .icu:
            return handle(zone)?.handle.resolve(local)
        }
    }

    private func handle(_ zone: String) -> ICUHandleBox? {
        if let box = handles[zone] { return box }
        guard let handle = try? ICUZoneHandle(id: zone) else { return nil }
        let box = ICUHandleBox(handle)
        handles[zone] = box
        return box
    }

    /// "YYYY-MM-DDTHH:MM:SS".
    static func parse(_ text: String) -> LocalDateTime? {
        let parts = text.split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
        guard parts.count == 6 else { return nil }
        let local = LocalDateTime(
            year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4],
            second: parts[5])
        return local.isValid ? local : nil
    }
}

/// Lets a noncopyable ICU handle live in a dictionary.
private final class ICUHandleBox {
    let handle: ICUZoneHandle
    init(_ handle: consuming ICUZoneHandle) {
        self.handle = handle
    }
}
