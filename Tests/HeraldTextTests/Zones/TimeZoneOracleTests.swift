import Foundation
import HeraldCore
import HeraldSupport
import Testing

@testable import HeraldText

/// Herald's zone answers against Python's `zoneinfo` on the same OS tz database, for every zone.
@Suite("Time zone oracle")
struct TimeZoneOracleTests {
    @Test("ICU runs on the OS tz data version")
    func dataVersionMatchesOS() throws {
        ZoneTestSupport.requireCurrentData()
        let status = TimeZoneData.status()
        #expect(status.osVersion == (try TimeZoneData.osVersion()))
        #expect(ICUInfo.tzdataVersion == status.icuVersion)
    }

    @Test(
        "Every zone agrees with Python zoneinfo (offsets, transitions 2020-2037, gaps and overlaps)")
    func everyZoneAgreesWithZoneinfo() throws {
        ZoneTestSupport.requireCurrentData()
        let probes = try Self.pythonProbes()
        let names = try TimeZoneSource.load(from: TimeZoneData.defaultSourceDirectory)
        let expectedZones = names.zones.count + names.links.count
        for engine in [TimeZoneCheck.Engine.table, .icu] {
            let report = TimeZoneCheck(engine: engine).run(probes)
            print("oracle (\(engine)): \(report.text)", terminator: "")
            #expect(report.malformed == 0)
            #expect(report.zones.count >= expectedZones, "every OS zone is probed")
            #expect((report.counts["offset"] ?? 0) > 100_000)
            #expect((report.counts["local"] ?? 0) > 100_000)
            #expect((report.counts["transitions"] ?? 0) >= expectedZones - 1)
            let examples = report.mismatches.prefix(20).map(\.description).joined(separator: "\n")
            #expect(
                report.mismatches.isEmpty,
                "\(report.mismatches.count) mismatches (\(engine)), e.g.:\n\(examples)")
        }
        // The same probes through the real command line, when the test harness names the built binary.
        if let binary = ProcessInfo.processInfo.environment["HERALD_BINARY"] {
            let (status, output) = try Self.run(binary, ["tzdata", "check"], input: probes)
            print("herald tzdata check: \(output.prefix { $0 != "\n" })")
            #expect(status == 0, "herald tzdata check failed:\n\(output.prefix(4000))")
            #expect(output.hasPrefix("probes \(probes.split(separator: "\n").count) "))
        }
    }

    /// Runs a program with `input` on stdin; returns its exit status and stdout.
    static func run(_ program: String, _ arguments: [String], input: String) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        // Feed stdin from another thread so a full stdout pipe cannot deadlock the exchange.
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExited()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("Mexico City has no DST from 2023 on; Ciudad Juarez is a known zone")
    func recentRuleChanges() throws {
        ZoneTestSupport.requireCurrentData()
        let mexico = try ZoneTestSupport.rules("America/Mexico_City")
        #expect(mexico.offsetSeconds(at: ZoneTestSupport.utc("2026-07-01T12:00:00Z")) == -6 * 3600)
        let juarez = try ZoneTestSupport.rules("America/Ciudad_Juarez")
        #expect(juarez.identifier == "America/Ciudad_Juarez")
        #expect(juarez.offsetSeconds(at: ZoneTestSupport.utc("2026-07-01T12:00:00Z")) == -6 * 3600)
        #expect(juarez.offsetSeconds(at: ZoneTestSupport.utc("2026-01-15T12:00:00Z")) == -7 * 3600)
    }

    /// Runs `scripts/tz/tz_oracle.py probes` and returns its output.
    static func pythonProbes() throws -> String {
        let script = ZoneTestSupport.repositoryRoot.appendingPathComponent("scripts/tz/tz_oracle.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "probes"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // A stuck oracle must fail the test, not hang the run.
        DispatchQueue.global().asyncAfter(deadline: .now() + 600) { [process] in
            if process.isRunning { process.terminate() }
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExited()
        try #require(process.terminationStatus == 0, "tz_oracle.py failed")
        return String(decoding: data, as: UTF8.self)
    }
}
