import Foundation

/// The parts of an RFC 8536 TZif file (version 2 or later, 64-bit block) that zone compilation needs.
struct TZifFile {
    /// One local time type: total UTC offset and the file's DST flag.
    struct LocalTimeType: Equatable {
        var utcOffset: Int
        var isDST: Bool
    }

    /// Transition instants (seconds since the epoch, increasing).
    var transitions: [Int]
    /// For each transition, the index into `types` in effect from it on.
    var transitionTypes: [Int]
    /// Local time types; type 0 applies before the first transition.
    var types: [LocalTimeType]
    /// The POSIX TZ string after the data ("" when absent): the rule for instants after the last transition.
    var footer: String

    /// Parses `data`, rejecting version 1 files and files with leap seconds (the "right/" variants).
    init(data: Data, name: String) throws {
        let bytes = [UInt8](data)
        var reader = ByteReader(bytes: bytes, name: name)
        let first = try reader.header()
        guard first.version >= 2 else {
            throw TimeZoneDataError(.badSource, "\(name): TZif version 1 has no 64-bit data")
        }
        try reader.skip(first.v1BlockSize)
        let header = try reader.header()
        guard header.leapCount == 0 else {
            throw TimeZoneDataError(.badSource, "\(name): leap-second TZif files are not supported")
        }
        var transitions: [Int] = []
        transitions.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount { transitions.append(try reader.int64()) }
        var transitionTypes: [Int] = []
        for _ in 0..<header.timeCount { transitionTypes.append(Int(try reader.byte())) }
        var types: [LocalTimeType] = []
        for _ in 0..<header.typeCount {
            let offset = try reader.int32()
            let isDST = try reader.byte() != 0
            _ = try reader.byte()  // abbreviation index
            types.append(LocalTimeType(utcOffset: offset, isDST: isDST))
        }
        guard !types.isEmpty, transitionTypes.allSatisfy({ $0 < types.count }) else {
            throw TimeZoneDataError(.badSource, "\(name): bad local time types")
        }
        try reader.skip(header.charCount + header.isStdCount + header.isUTCount)
        let rest = bytes[reader.position...]
        var footer = ""
        if rest.first == UInt8(ascii: "\n"),
            let end = rest.dropFirst().firstIndex(of: UInt8(ascii: "\n"))
        {
            footer = String(decoding: rest[(rest.startIndex + 1)..<end], as: UTF8.self)
        }
        self.transitions = transitions
        self.transitionTypes = transitionTypes
        self.types = types
        self.footer = footer
    }
}

/// Big-endian reader over a TZif file's bytes.
private struct ByteReader {
    let bytes: [UInt8]
    let name: String
    var position = 0

    struct Header {
        var version: Int
        var isUTCount, isStdCount, leapCount, timeCount, typeCount, charCount: Int

        var v1BlockSize: Int {
            timeCount * 5 + typeCount * 6 + charCount + leapCount * 8 + isStdCount + isUTCount
        }
    }

    init(bytes: [UInt8], name: String) {
        self.bytes = bytes
        self.name = name
    }

    mutating func header() throws -> Header {
        guard bytes.count >= position + 44, bytes[position..<position + 4].elementsEqual("TZif".utf8)
        else {
            throw TimeZoneDataError(.badSource, "\(name): not a TZif file")
        }
        let versionByte = bytes[position + 4]
        let version = versionByte == 0 ? 1 : Int(versionByte) - Int(UInt8(ascii: "0"))
        position += 20
        var counts: [Int] = []
        for _ in 0..<6 { counts.append(try int32()) }
        return Header(
            version: version, isUTCount: counts[0], isStdCount: counts[1], leapCount: counts[2],
            timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
    }

    mutating func skip(_ count: Int) throws {
        guard count >= 0, position + count <= bytes.count else { throw truncated() }
        position += count
    }

    mutating func byte() throws -> UInt8 {
        guard position < bytes.count else { throw truncated() }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func int32() throws -> Int {
        guard position + 4 <= bytes.count else { throw truncated() }
        var value: UInt32 = 0
        for i in 0..<4 { value = value << 8 | UInt32(bytes[position + i]) }
        position += 4
        return Int(Int32(bitPattern: value))
    }

    mutating func int64() throws -> Int {
        guard position + 8 <= bytes.count else { throw truncated() }
        var value: UInt64 = 0
        for i in 0..<8 { value = value << 8 | UInt64(bytes[position + i]) }
        position += 8
        return Int(Int64(bitPattern: value))
    }

    func truncated() -> TimeZoneDataError {
        TimeZoneDataError(.badSource, "\(name): truncated TZif data")
    }
}
