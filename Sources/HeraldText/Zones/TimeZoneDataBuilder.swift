import Foundation
import HeraldSupport

/// Compiles the OS tz database into ICU's `zoneinfo64.res` with `genrb` (Debian package icu-devtools).
///
/// Only `zoneinfo64.res` is produced. Herald does all zone math through the system ICU facade (never Foundation's
/// `TimeZone`/`Calendar` for rules), and the system ICU keeps using its built-in CLDR files (`metaZones`,
/// `timezoneTypes`, `windowsZones`) when they are missing from `ICU_TIMEZONE_FILES_DIR`. Foundation's bundled ICU
/// does not fall back that way: with the variable set, its display names and CLDR canonical ids degrade, but its
/// offsets stay correct, which is why nothing in Herald may depend on Foundation's zone names.
public struct TimeZoneDataBuilder: Sendable {
    /// Bumped whenever the generated data would change for the same OS tzdata, so that caches are rebuilt.
    public static let generatorRevision = 1

    /// The OS tz database folder.
    public var sourceDirectory: URL
    /// Write transitions out to 2100 instead of using final rules (exercises the fallback path).
    public var forceExpansion: Bool
    /// Keep the `zoneinfo64.txt` that `genrb` compiled beside the result, for inspection.
    public var keepText = false

    /// A builder reading `sourceDirectory` (default /usr/share/zoneinfo).
    public init(
        sourceDirectory: URL = TimeZoneData.defaultSourceDirectory, forceExpansion: Bool = false
    ) {
        self.sourceDirectory = sourceDirectory
        self.forceExpansion = forceExpansion
    }

    /// What a build produced.
    public struct Report: Sendable {
        /// The folder holding `zoneinfo64.res`.
        public var directory: URL
        /// The IANA release compiled.
        public var version: String
        /// Zones with their own data (including ICU-only ones).
        public var zoneCount: Int
        /// Links (aliases).
        public var linkCount: Int
        /// Zones with a final rule.
        public var finalRuleCount: Int
        /// Seconds spent reading and converting TZif files.
        public var generationSeconds: Double
        /// Seconds spent in `genrb`.
        public var compileSeconds: Double
    }

    /// Builds into `directory` atomically: everything is written to a fresh sibling folder which then replaces it.
    @discardableResult
    public func build(into directory: URL) throws -> Report {
        let started = Date()
        let data = try generate()
        let generated = Date()
        let parent = directory.deletingLastPathComponent()
        try createDirectory(parent)
        let staging = parent.appendingPathComponent(
            ".\(directory.lastPathComponent).building-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try createDirectory(staging)
        defer { try? FileManager.default.removeItem(at: staging) }
        let textFile = staging.appendingPathComponent("zoneinfo64.txt")
        try write(data.text(), to: textFile)
        try Self.runGenrb(input: textFile, outputDirectory: staging)
        if !keepText { try FileManager.default.removeItem(at: textFile) }
        try write(
            "version \(data.version)\nrevision \(Self.generatorRevision)\n",
            to: staging.appendingPathComponent(TimeZoneData.buildInfoFile))
        let compiled = Date()
        try Self.replace(directory, with: staging)
        return Report(
            directory: directory, version: data.version, zoneCount: data.zones.count,
            linkCount: data.links.count,
            finalRuleCount: data.finalRuleCount, generationSeconds: generated.timeIntervalSince(started),
            compileSeconds: compiled.timeIntervalSince(generated))
    }

    /// Reads every TZif zone and converts it, adding ICU's legacy ids.
    func generate() throws -> ZoneInfo64 {
        let source = try TimeZoneSource.load(from: sourceDirectory)
        var compiler = ZoneCompiler(forceExpansion: forceExpansion)
        var zones: [String: CompiledZone] = [:]
        for name in source.zones {
            zones[name] = try compiler.compile(source.tzif(name), name: name)
        }
        var links: [String: String] = [:]
        for (name, target) in source.links {
            var resolved = target
            var hops = 0
            while let next = source.links[resolved], hops < 8 {
                resolved = next
                hops += 1
            }
            guard zones[resolved] != nil else {
                throw TimeZoneDataError(.badSource, "link \(name) points to unknown zone \(target)")
            }
            links[name] = resolved
        }
        for (name, zone) in LegacyICUZones.systemVZones() where zones[name] == nil && links[name] == nil {
            zones[name] = zone
        }
        if zones[LegacyICUZones.unknown] == nil && links[LegacyICUZones.unknown] == nil {
            zones[LegacyICUZones.unknown] = .fixed(0)
        }
        for (name, target) in LegacyICUZones.links where zones[name] == nil && links[name] == nil {
            let resolved = links[target] ?? target
            if zones[resolved] != nil { links[name] = resolved }
        }
        return ZoneInfo64(version: source.version, zones: zones, links: links, regions: source.regions)
    }

    /// Runs `genrb -q -k -d DIR FILE`, failing with its output when it reports an error.
    static func runGenrb(input: URL, outputDirectory: URL) throws {
        guard let genrb = executable(named: "genrb") else {
            throw TimeZoneDataError(
                .compilerFailed, "genrb not found in PATH (Debian package icu-devtools)")
        }
        let process = Process()
        process.executableURL = genrb
        process.arguments = ["-q", "-k", "-d", outputDirectory.path, input.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = errors
        do { try process.run() } catch {
            throw TimeZoneDataError(.compilerFailed, "cannot start genrb")
        }
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExited()
        let produced = outputDirectory.appendingPathComponent("zoneinfo64.res")
        guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: produced.path)
        else {
            let text = String(decoding: output.prefix(400), as: UTF8.self)
            throw TimeZoneDataError(
                .compilerFailed, "genrb exited with \(process.terminationStatus): \(text)")
        }
    }

    static func executable(named name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Puts `staging` in place of `target`. When another process finished the same folder first, that one is kept.
    static func replace(_ target: URL, with staging: URL) throws {
        if rename(staging.path, target.path) == 0 { return }
        guard errno == EEXIST || errno == ENOTEMPTY else {
            throw TimeZoneDataError(
                .outputFailed, "cannot move the new data into \(target.lastPathComponent)")
        }
        let retired = target.deletingLastPathComponent().appendingPathComponent(
            ".\(target.lastPathComponent).retired-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        guard rename(target.path, retired.path) == 0, rename(staging.path, target.path) == 0 else {
            throw TimeZoneDataError(.outputFailed, "cannot replace \(target.lastPathComponent)")
        }
        // Processes already running keep their mapping of the old file; only new ones read the new folder.
        try? FileManager.default.removeItem(at: retired)
    }

    private func createDirectory(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw TimeZoneDataError(.outputFailed, "cannot create folder \(url.lastPathComponent)")
        }
    }

    private func write(_ text: String, to url: URL) throws {
        do {
            try Data(text.utf8).write(to: url)
        } catch {
            throw TimeZoneDataError(.outputFailed, "cannot write \(url.lastPathComponent)")
        }
    }
}
