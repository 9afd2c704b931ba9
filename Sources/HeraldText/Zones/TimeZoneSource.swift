import Foundation

/// The OS tz database as a folder of TZif files plus `tzdata.zi` (version, zones, links) and `zone.tab` (regions).
struct TimeZoneSource {
    /// The folder, e.g. /usr/share/zoneinfo.
    var directory: URL
    /// The IANA release, e.g. "2025b".
    var version: String
    /// Zones with their own TZif data, sorted.
    var zones: [String]
    /// Link name → target zone.
    var links: [String: String]
    /// Zone → ISO 3166 country code, from zone.tab.
    var regions: [String: String]

    /// Reads the version line of `tzdata.zi` ("# version 2025b").
    static func version(in directory: URL) throws -> String {
        let text = try read(directory.appendingPathComponent("tzdata.zi"))
        guard let first = text.split(separator: "\n", maxSplits: 1).first, first.hasPrefix("# version ")
        else {
            throw TimeZoneDataError(.badSource, "tzdata.zi has no version line")
        }
        let version = first.dropFirst("# version ".count).trimmingCharacters(in: .whitespaces)
        guard !version.isEmpty,
            version.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: "/") })
        else {
            throw TimeZoneDataError(.badSource, "tzdata.zi has a malformed version")
        }
        return version
    }

    /// Loads names and regions; TZif files are read later, one zone at a time.
    static func load(from directory: URL) throws -> TimeZoneSource {
        let zi = try read(directory.appendingPathComponent("tzdata.zi"))
        var zones: [String] = []
        var links: [String: String] = [:]
        for line in zi.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.count >= 2 && fields[0] == "Z" {
                zones.append(String(fields[1]))
            } else if fields.count >= 3 && fields[0] == "L" {
                links[String(fields[2])] = String(fields[1])
            }
        }
        guard !zones.isEmpty else { throw TimeZoneDataError(.badSource, "tzdata.zi lists no zones") }
        var regions: [String: String] = [:]
        let tab = try read(directory.appendingPathComponent("zone.tab"))
        for line in tab.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t")
            if fields.count >= 3 { regions[String(fields[2])] = String(fields[0]) }
        }
        return TimeZoneSource(
            directory: directory, version: try version(in: directory), zones: zones.sorted(),
            links: links,
            regions: regions)
    }

    /// The TZif file of one zone.
    func tzif(_ zone: String) throws -> TZifFile {
        let url = directory.appendingPathComponent(zone)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw TimeZoneDataError(.badSource, "cannot read TZif file of \(zone)")
        }
        return try TZifFile(data: data, name: zone)
    }

    private static func read(_ url: URL) throws -> String {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw TimeZoneDataError(.badSource, "cannot read \(url.lastPathComponent)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
