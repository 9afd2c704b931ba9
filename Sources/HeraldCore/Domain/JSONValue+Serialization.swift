/// Herald's own JSON writer: deterministic (keys sorted), compact, and always valid UTF-8 JSON, so payload sizes
/// measured here are exactly the bytes the platform receives.
extension JSONValue {
    /// The compact JSON text of the value, keys sorted by their UTF-8 bytes.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out)
        return out
    }

    /// The compact JSON text of an object whose members are all strings: the bytes
    /// `JSONValue.object(members.mapValues { .string($0) }).serialized()` gives, without building the tree first
    /// (push headers, written for every queued delivery).
    public static func serialized(stringMembers members: [String: String]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(members.reduce(2) { $0 + $1.key.utf8.count + $1.value.utf8.count + 6 })
        writeObject(members, into: &out) { value, out in writeString(value, into: &out) }
        return out
    }

    /// The number of bytes `string` takes once escaped and quoted as a JSON string.
    public static func encodedLength(of string: String) -> Int {
        var copy = string
        return copy.withUTF8 { bytes in
            var length = 2
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= 0x80, specialEscape(bytes, at: index) != nil {
                    length += 6
                    index += 3
                    continue
                }
                length += byte >= 0x80 ? 1 : asciiWidth(byte)
                index += 1
            }
            return length
        }
    }

    private static func asciiWidth(_ byte: UInt8) -> Int {
        switch byte {
        case 0x22, 0x5C, 0x08, 0x0C, 0x0A, 0x0D, 0x09: return 2
        case 0x00..<0x20: return 6
        default: return 1
        }
    }

    /// U+2028/U+2029 break JavaScript string literals and U+FEFF is stripped by some parsers, so all three are
    /// written as `\uXXXX` escapes. Returns the scalar when a 3-byte sequence at `index` is one of them.
    private static func specialEscape(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32? {
        guard index + 2 < bytes.count else { return nil }
        switch (bytes[index], bytes[index + 1], bytes[index + 2]) {
        case (0xE2, 0x80, 0xA8): return 0x2028
        case (0xE2, 0x80, 0xA9): return 0x2029
        case (0xEF, 0xBB, 0xBF): return 0xFEFF
        default: return nil
        }
    }

    /// Appends the compact JSON text of the value to `out`.
    func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): out.append(contentsOf: String(value).utf8)
        case .double(let value): Self.writeDouble(value, into: &out)
        case .string(let value): Self.writeString(value, into: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            Self.writeObject(members, into: &out) { value, out in value.write(into: &out) }
        }
    }

    /// An object's members in the order of their keys' UTF-8 bytes, each value written by `write`.
    private static func writeObject<Value>(
        _ members: [String: Value], into out: inout [UInt8], value write: (Value, inout [UInt8]) -> Void
    ) {
        out.append(UInt8(ascii: "{"))
        let sorted = members.sorted { UTF8Order.precedes($0.key, $1.key) }
        for (index, member) in sorted.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            writeString(member.key, into: &out)
            out.append(UInt8(ascii: ":"))
            write(member.value, &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    static func writeDouble(_ value: Double, into out: inout [UInt8]) {
        // JSON has no NaN or infinity; null keeps the document valid.
        guard value.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        if value == value.rounded(), abs(value) < 1e15 {
            out.append(contentsOf: String(Int(value)).utf8)
        } else {
            out.append(contentsOf: "\(value)".utf8)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `string` as a JSON string, quoted and escaped as every string of a serialized value is.
    static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var copy = string
        copy.withUTF8 { bytes in
            // Most strings are plain ASCII with nothing to escape: copied whole after one word-at-a-time check.
            guard ByteScan.contains(UnsafeRawBufferPointer(bytes), 0x22, 0x5C, below: 0x20, highBytes: true) else {
                out.append(contentsOf: bytes)
                return
            }
            // Runs of bytes that need no escaping are copied in one go.
            var runStart = 0
            var index = 0
            func flush() {
                if runStart < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= 0x80 {
                    if let scalar = specialEscape(bytes, at: index) {
                        flush()
                        writeUnicodeEscape(scalar, into: &out)
                        index += 3
                        runStart = index
                    } else {
                        index += 1
                    }
                    continue
                }
                let escape: UInt8?
                switch byte {
                case 0x22: escape = 0x22
                case 0x5C: escape = 0x5C
                case 0x0A: escape = UInt8(ascii: "n")
                case 0x0D: escape = UInt8(ascii: "r")
                case 0x09: escape = UInt8(ascii: "t")
                case 0x08: escape = UInt8(ascii: "b")
                case 0x0C: escape = UInt8(ascii: "f")
                case 0x00..<0x20: escape = 0
                default: escape = nil
                }
                guard let escape else {
                    index += 1
                    continue
                }
                flush()
                if escape == 0 {
                    writeUnicodeEscape(UInt32(byte), into: &out)
                } else {
                    out.append(contentsOf: [0x5C, escape])
                }
                index += 1
                runStart = index
            }
            flush()
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func writeUnicodeEscape(_ value: UInt32, into out: inout [UInt8]) {
        out.append(contentsOf: [0x5C, UInt8(ascii: "u")])
        for shift in stride(from: 12, through: 0, by: -4) {
            out.append(hexDigits[Int((value >> UInt32(shift)) & 0x0F)])
        }
    }
}
