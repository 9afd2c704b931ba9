import Foundation
import Testing

@testable import HeraldText

@Suite("Time zone data build")
struct TimeZoneDataBuilderTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-tz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("prepare builds <dataDir>/icu-tz/<version> once and reuses it")
    func prepareBuildsOnce() throws {
        let dataDir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dataDir) }
        let version = try TimeZoneData.osVersion()
        let folder = try TimeZoneData.prepare(dataDir: dataDir)
        #expect(folder == TimeZoneData.folder(dataDir: dataDir, version: version))
        let res = folder.appendingPathComponent("zoneinfo64.res")
        let first =
            try FileManager.default.attributesOfItem(atPath: res.path)[.modificationDate] as? Date
        #expect(try TimeZoneData.prepare(dataDir: dataDir) == folder)
        let second =
            try FileManager.default.attributesOfItem(atPath: res.path)[.modificationDate] as? Date
        #expect(first != nil && first == second)
        // No staging folders are left behind; `current` points at the version.
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder.deletingLastPathComponent().path)
        #expect(entries.sorted() == ["current", version].sorted())
        let link = TimeZoneData.currentLink(dataDir: dataDir)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == version)
    }

    @Test("A stale or incomplete folder is rebuilt in place")
    func rebuildsStaleFolder() throws {
        let dataDir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dataDir) }
        let folder = TimeZoneData.folder(dataDir: dataDir, version: try TimeZoneData.osVersion())
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: folder.appendingPathComponent("zoneinfo64.res"))
        #expect(try TimeZoneData.prepare(dataDir: dataDir) == folder)
        let size =
            try FileManager.default.attributesOfItem(
                atPath: folder.appendingPathComponent("zoneinfo64.res").path)[.size] as? Int
        #expect((size ?? 0) > 100_000)
    }

    @Test("The generated resource has every OS name, ICU's legacy ids and the OS version")
    func generatedContent() throws {
        let data = try TimeZoneDataBuilder().generate()
        let source = try TimeZoneSource.load(from: TimeZoneData.defaultSourceDirectory)
        #expect(data.version == source.version)
        #expect(Set(source.zones).isSubset(of: data.zones.keys))
        #expect(Set(source.links.keys).isSubset(of: data.links.keys))
        for name in ["ACT", "PST", "SystemV/EST5EDT", "SystemV/HST10", "Etc/Unknown", "US/Pacific-New"] {
            #expect(data.zones[name] != nil || data.links[name] != nil, "\(name) present")
        }
        #expect(data.links.values.allSatisfy { data.zones[$0] != nil }, "links resolve to zones")
        let names = data.names
        #expect(names == names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        let text = data.text()
        #expect(text.contains("TZVersion { \"\(source.version)\" }"))
        // Dublin: negative DST is turned round, so the final rule has standard time 0 and a positive saving.
        let dublin = try #require(data.zones["Europe/Dublin"]?.final)
        #expect(dublin.rule.standardOffset == 0 && dublin.rule.savings == 3600)
        #expect(data.zones.values.allSatisfy { zone in zone.types.allSatisfy { $0.dst >= 0 } })
    }

    @Test("activate returns at once when ICU_TIMEZONE_FILES_DIR already leads to the folder")
    func activateWithoutReexec() throws {
        // Only safe with the variable set: otherwise activate would (correctly) re-execute the test process.
        let current = try #require(
            ProcessInfo.processInfo.environment[TimeZoneData.environmentVariable],
            "run with ICU_TIMEZONE_FILES_DIR set (make test does)")
        let dataDir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dataDir) }
        // Through a symlink, as deploy files use icu-tz/current.
        let alias = dataDir.appendingPathComponent("alias")
        try FileManager.default.createSymbolicLink(atPath: alias.path, withDestinationPath: current)
        try TimeZoneData.activate(folder: alias, arguments: ["not-executed"])
        try TimeZoneData.activate(folder: URL(fileURLWithPath: current), arguments: ["not-executed"])
        #expect(ProcessInfo.processInfo.environment[TimeZoneData.environmentVariable] == current)
    }

    @Test("The build is deterministic")
    func deterministic() throws {
        let builder = TimeZoneDataBuilder()
        #expect(try builder.generate().text() == (try builder.generate().text()))
    }
}
