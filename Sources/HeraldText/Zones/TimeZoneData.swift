import Foundation

/// Herald's ICU time zone data: where it lives, building it when the OS tzdata is newer, and making ICU load it.
///
/// ICU reads `ICU_TIMEZONE_FILES_DIR` once, at its first time zone use, so `activate` must run before anything in
/// the process touches a zone (ICU's or Foundation's). `herald` calls `prepare` and then `activate` first thing.
public enum TimeZoneData {
    /// The variable ICU reads to find `zoneinfo64.res`.
    public static let environmentVariable = "ICU_TIMEZONE_FILES_DIR"
    /// The OS tz database.
    public static let defaultSourceDirectory = URL(fileURLWithPath: "/usr/share/zoneinfo")
    /// Written beside `zoneinfo64.res`: the tzdata version and generator revision it was built from.
    static let buildInfoFile = "herald-tzdata.txt"

    /// The OS tzdata version, from `tzdata.zi`.
    public static func osVersion(sourceDirectory: URL = defaultSourceDirectory) throws -> String {
        try TimeZoneSource.version(in: sourceDirectory)
    }

    /// The folder for a version under a data directory: `<dataDir>/icu-tz/<version>`.
    public static func folder(dataDir: URL, version: String) -> URL {
        dataDir.appendingPathComponent("icu-tz", isDirectory: true).appendingPathComponent(
            version, isDirectory: true)
    }

    /// The stable link `<dataDir>/icu-tz/current`, pointing at the folder of the newest build (what systemd and
    /// container files put into `ICU_TIMEZONE_FILES_DIR`).
    public static func currentLink(dataDir: URL) -> URL {
        dataDir.appendingPathComponent("icu-tz", isDirectory: true).appendingPathComponent("current")
    }

    /// Returns the data folder for the current OS tzdata, building it first when it is missing, incomplete or made
    /// by another generator revision, and points `icu-tz/current` at it.
    public static func prepare(dataDir: URL, sourceDirectory: URL = defaultSourceDirectory) throws -> URL {
        let version = try osVersion(sourceDirectory: sourceDirectory)
        let folder = folder(dataDir: dataDir, version: version)
        if !isCurrent(folder, version: version) {
            try TimeZoneDataBuilder(sourceDirectory: sourceDirectory).build(into: folder)
        }
        try pointCurrentLink(dataDir: dataDir, at: version)
        return folder
    }

    /// Atomically repoints `icu-tz/current` at the sibling folder `version` (a relative symlink).
    static func pointCurrentLink(dataDir: URL, at version: String) throws {
        let link = currentLink(dataDir: dataDir)
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == version { return }
        let staging = link.deletingLastPathComponent().appendingPathComponent(
            ".current-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        guard symlink(version, staging.path) == 0, rename(staging.path, link.path) == 0 else {
            unlink(staging.path)
            throw TimeZoneDataError(.outputFailed, "cannot point icu-tz/current at \(version)")
        }
    }

    /// Whether `folder` holds a complete build of `version` by this generator revision.
    static func isCurrent(_ folder: URL, version: String) -> Bool {
        let info = FileManager.default.contents(
            atPath: folder.appendingPathComponent(buildInfoFile).path)
        let expected = "version \(version)\nrevision \(TimeZoneDataBuilder.generatorRevision)\n"
        return info.map { String(decoding: $0, as: UTF8.self) } == expected
            && FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("zoneinfo64.res").path)
    }

    /// Makes this process run on `folder`: returns when `ICU_TIMEZONE_FILES_DIR` already leads there (symlinks such
    /// as `icu-tz/current` followed); otherwise sets it and re-executes the program (`/proc/self/exe`) with the same
    /// arguments, so that the variable is in the environment before any library reads it. Returns only in the first
    /// case; throws if exec fails.
    public static func activate(folder: URL, arguments: [String] = CommandLine.arguments) throws {
        let wanted = folder.resolvingSymlinksInPath().standardizedFileURL.path
        if let current = ProcessInfo.processInfo.environment[environmentVariable],
            URL(fileURLWithPath: current).resolvingSymlinksInPath().standardizedFileURL.path == wanted
        {
            return
        }
        setenv(environmentVariable, wanted, 1)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        execv("/proc/self/exe", &argv)
        // Only reached when exec failed.
        for pointer in argv { free(pointer) }
        throw TimeZoneDataError(.reexecFailed, "cannot re-execute with \(environmentVariable) set (errno \(errno))")
    }

    /// What ICU runs on compared with the OS, for `/ready` and the start-up log. It loads ICU's zone data, so call
    /// it only after `activate`.
    public static func status(sourceDirectory: URL = defaultSourceDirectory) -> TimeZoneDataStatus {
        TimeZoneDataStatus(
            osVersion: try? osVersion(sourceDirectory: sourceDirectory),
            icuVersion: ICUInfo.tzdataVersion,
            filesDirectory: getenv(environmentVariable).map { String(cString: $0) })
    }
}

/// Which tz data ICU has loaded versus what the OS ships.
public struct TimeZoneDataStatus: Sendable, Equatable, Codable {
    /// The OS tzdata version, nil when it could not be read.
    public var osVersion: String?
    /// The version ICU reports (its built-in one when Herald's data was not loaded).
    public var icuVersion: String
    /// `ICU_TIMEZONE_FILES_DIR`, when set.
    public var filesDirectory: String?

    /// A status from its parts.
    public init(osVersion: String?, icuVersion: String, filesDirectory: String?) {
        self.osVersion = osVersion
        self.icuVersion = icuVersion
        self.filesDirectory = filesDirectory
    }

    /// True when ICU answers from the same tz release as the OS; anything else deserves a loud warning.
    public var matchesOS: Bool { osVersion != nil && osVersion == icuVersion }

    /// One line for the start-up log.
    public var summary: String {
        let os = osVersion ?? "unknown"
        return matchesOS
            ? "tz data \(icuVersion) (same as the OS)"
            : "WARNING: ICU runs on tz data \(icuVersion) but the OS has \(os); local times may be wrong"
    }
}
