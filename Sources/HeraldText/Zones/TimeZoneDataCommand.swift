import Foundation

/// `herald tzdata …`: builds and checks the ICU time zone data compiled from the OS tz database.
public enum TimeZoneDataCommand {
    static let usage = """
        usage: herald tzdata build [--data-dir DIR | --out DIR] [--zoneinfo DIR] [--print-dir] [--expand] [--keep-text]
               herald tzdata version [--zoneinfo DIR]
               herald tzdata activate [--data-dir DIR] [--zoneinfo DIR]
               herald tzdata check [--engine table|icu] < probes
               herald tzdata bench
        """

    /// Runs the subcommand with its arguments (after `tzdata`) and returns the process exit status.
    public static func run(arguments: [String]) -> Int32 {
        do {
            var options = try Options(arguments.dropFirst())
            switch arguments.first {
            case "build": return try build(&options)
            case "version": return version(options)
            case "activate": return try activate(options, arguments: CommandLine.arguments)
            case "check": return try check(options)
            case "bench":
                StandardStreams.output(TimeZoneBenchmark.run())
                return 0
            default:
                StandardStreams.error(usage + "\n")
                return 2
            }
        } catch let error as TimeZoneDataError {
            StandardStreams.error("herald tzdata: \(error)\n")
            return 1
        } catch {
            StandardStreams.error("herald tzdata: \(error)\n")
            return 1
        }
    }

    private static func build(_ options: inout Options) throws -> Int32 {
        let source = options.zoneinfo
        let target: URL
        let version = try TimeZoneData.osVersion(sourceDirectory: source)
        if let out = options.out {
            target = out
        } else {
            target = TimeZoneData.folder(dataDir: options.dataDir, version: version)
        }
        var builder = TimeZoneDataBuilder(sourceDirectory: source, forceExpansion: options.expand)
        builder.keepText = options.keepText
        let report = try builder.build(into: target)
        if options.out == nil { try TimeZoneData.pointCurrentLink(dataDir: options.dataDir, at: version) }
        let folder = report.directory.standardizedFileURL.path
        if options.printDirectory {
            StandardStreams.output(folder + "\n")
            return 0
        }
        StandardStreams.output(
            """
            \(folder)
            tz data \(report.version): \(report.zoneCount) zones, \(report.linkCount) links, \
            \(report.finalRuleCount) final rules; generated in \(milliseconds(report.generationSeconds)) ms, \
            genrb \(milliseconds(report.compileSeconds)) ms

            """)
        return 0
    }

    /// Prepares the data under the data folder, re-executes with it active, and reports what ICU then runs on.
    private static func activate(_ options: Options, arguments: [String]) throws -> Int32 {
        let folder = try TimeZoneData.prepare(dataDir: options.dataDir, sourceDirectory: options.zoneinfo)
        try TimeZoneData.activate(folder: folder, arguments: arguments)
        return version(options)
    }

    private static func version(_ options: Options) -> Int32 {
        let status = TimeZoneData.status(sourceDirectory: options.zoneinfo)
        StandardStreams.output(
            """
            os \(status.osVersion ?? "unknown")
            icu \(status.icuVersion)
            files \(status.filesDirectory ?? "-")
            \(status.matchesOS ? "match" : "MISMATCH")

            """)
        return status.matchesOS ? 0 : 1
    }

    private static func check(_ options: Options) throws -> Int32 {
        var input = Data()
        while let chunk = try FileHandle.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty {
            input.append(chunk)
        }
        let engine: TimeZoneCheck.Engine = options.engine == "icu" ? .icu : .table
        let report = TimeZoneCheck(engine: engine).run(String(decoding: input, as: UTF8.self))
        StandardStreams.output(report.text)
        return report.mismatches.isEmpty && report.malformed == 0 ? 0 : 1
    }

    private static func milliseconds(_ seconds: Double) -> Int { Int((seconds * 1000).rounded()) }

    /// Parsed flags.
    struct Options {
        var dataDir = URL(
            fileURLWithPath: ProcessInfo.processInfo.environment["HERALD_DATA_DIR"] ?? ".herald")
        var out: URL?
        var zoneinfo = TimeZoneData.defaultSourceDirectory
        var expand = false
        var keepText = false
        var printDirectory = false
        var engine = "table"

        init(_ arguments: ArraySlice<String>) throws {
            var rest = arguments[...]
            while let flag = rest.popFirst() {
                func value() throws -> String {
                    guard let v = rest.popFirst() else {
                        throw TimeZoneDataError(.badSource, "\(flag) needs a value")
                    }
                    return v
                }
                switch flag {
                case "--data-dir": dataDir = URL(fileURLWithPath: try value())
                case "--out": out = URL(fileURLWithPath: try value())
                case "--zoneinfo": zoneinfo = URL(fileURLWithPath: try value())
                case "--expand": expand = true
                case "--keep-text": keepText = true
                case "--print-dir": printDirectory = true
                case "--engine": engine = try value()
                default: throw TimeZoneDataError(.badSource, "unknown option \(flag)\n\(usage)")
                }
            }
        }
    }
}

/// Writes to stdout/stderr without touching C's global `FILE` streams.
enum StandardStreams {
    static func output(_ text: String) { write(1, text) }
    static func error(_ text: String) { write(2, text) }

    private static func write(_ descriptor: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
