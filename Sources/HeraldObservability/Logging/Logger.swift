#if canImport(Glibc)
    import Glibc
#endif

/// Writes one JSON object per line with dotted keys (`http.status`, `request.id`), a level, a timestamp and a
/// message.
public struct Logger: Sendable {
    /// Severity, in increasing order.
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        /// Detail for debugging.
        case debug
        /// Normal operation, including access lines.
        case info
        /// Something unexpected that was handled.
        case warning
        /// A failure that needs attention.
        case error

        /// The level named `debug`, `info`, `warning` (or `warn`) or `error`, in any case.
        public init?(name: String) {
            switch name.lowercased() {
            case "debug": self = .debug
            case "info": self = .info
            case "warning", "warn": self = .warning
            case "error": self = .error
            default: return nil
            }
        }

        /// The level as written in the line.
        public var name: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }

        /// Orders levels by severity.
        public static func < (lhs: Level, rhs: Level) -> Bool {
            lhs.rawValue < rhs.rawValue
        }
    }

    /// Lines below this level are dropped.
    public let minimumLevel: Level
    private let sink: LogSink
    private let baseFields: [(String, LogValue)]

    /// Creates a logger writing to `sink` (stderr by default).
    public init(minimumLevel: Level = .info, sink: LogSink = .standardError) {
        self.minimumLevel = minimumLevel
        self.sink = sink
        self.baseFields = []
    }

    private init(minimumLevel: Level, sink: LogSink, baseFields: [(String, LogValue)]) {
        self.minimumLevel = minimumLevel
        self.sink = sink
        self.baseFields = baseFields
    }

    /// A logger that adds `fields` to every line it writes.
    public func with(_ fields: KeyValuePairs<String, LogValue>) -> Logger {
        Logger(
            minimumLevel: minimumLevel, sink: sink,
            baseFields: baseFields + fields.map { ($0.key, $0.value) })
    }

    /// Whether lines of `level` are written.
    public func isEnabled(_ level: Level) -> Bool {
        level >= minimumLevel
    }

    /// Writes a line at `level` with `fields` after the logger's own fields.
    public func log(_ level: Level, _ message: String, _ fields: [(String, LogValue)]) {
        guard isEnabled(level) else { return }
        sink.write(
            Self.line(level: level, message: message, fields: baseFields + fields, time: Self.now()))
    }

    /// Writes a debug line.
    public func debug(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        log(.debug, message, fields.map { ($0.key, $0.value) })
    }

    /// Writes an info line.
    public func info(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        log(.info, message, fields.map { ($0.key, $0.value) })
    }

    /// Writes a warning line.
    public func warning(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        log(.warning, message, fields.map { ($0.key, $0.value) })
    }

    /// Writes an error line.
    public func error(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        log(.error, message, fields.map { ($0.key, $0.value) })
    }

    /// The bytes of one line: `{"timestamp":…,"level":…,"message":…,<fields>}` and a newline.
    static func line(
        level: Level, message: String, fields: [(String, LogValue)], time: timespec
    )
        -> [UInt8]
    {
        var output: [UInt8] = []
        output.reserveCapacity(128 + message.utf8.count + fields.count * 32)
        output.append(contentsOf: #"{"timestamp":""#.utf8)
        appendTimestamp(time, to: &output)
        output.append(contentsOf: #"","level":""#.utf8)
        output.append(contentsOf: level.name.utf8)
        output.append(contentsOf: #"","message":"#.utf8)
        JSONStringEscaping.append(message, to: &output)
        for (key, value) in fields {
            output.append(UInt8(ascii: ","))
            JSONStringEscaping.append(key, to: &output)
            output.append(UInt8(ascii: ":"))
            value.append(to: &output)
        }
        output.append(contentsOf: "}\n".utf8)
        return output
    }

    private static func now() -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return time
    }

    /// RFC 3339 in UTC with milliseconds, formatted by hand because this runs for every request.
    private static func appendTimestamp(_ time: timespec, to output: inout [UInt8]) {
        var seconds = time.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        appendDigits(Int(parts.tm_year) + 1900, width: 4, to: &output)
        output.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mon) + 1, width: 2, to: &output)
        output.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mday), width: 2, to: &output)
        output.append(UInt8(ascii: "T"))
        appendDigits(Int(parts.tm_hour), width: 2, to: &output)
        output.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_min), width: 2, to: &output)
        output.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_sec), width: 2, to: &output)
        output.append(UInt8(ascii: "."))
        appendDigits(Int(time.tv_nsec) / 1_000_000, width: 3, to: &output)
        output.append(UInt8(ascii: "Z"))
    }

    private static func appendDigits(_ value: Int, width: Int, to output: inout [UInt8]) {
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: width)
        var rest = value
        for index in stride(from: width - 1, through: 0, by: -1) {
            digits[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        output.append(contentsOf: digits)
    }
}
