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

    /// The number of bytes `string` takes once escaped and quoted as a JSON string.
    public static func encodedLength(of string: String) -> Int {
        var length = 2
        for scalar in string.unicodeScalars {
            length += escapedWidth(scalar)
        }
        return length
    }

    /// U+2028/U+2029 break JavaScript string literals and U+FEFF is stripped by some parsers, so all three are
    /// written as `\uXXXX` escapes.
    private static func isEscapedNonASCII(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0xFEFF
    }

    private static func escapedWidth(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x22, 0x5C, 0x08, 0x0C, 0x0A, 0x0D, 0x09: return 2
        case 0x00..<0x20: return 6
        case 0x20..<0x80: return 1
        default: return isEscapedNonASCII(scalar) ? 6 : UTF8.width(scalar)
        }
    }

    private func write(into out: inout [UInt8]) {
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
            out.append(UInt8(ascii: "{"))
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                members[key, default: .null].write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeDouble(_ value: Double, into out: inout [UInt8]) {
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

    private static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0x00..<0x20: writeUnicodeEscape(scalar.value, into: &out)
            case 0x20..<0x80: out.append(UInt8(scalar.value))
            default:
                if isEscapedNonASCII(scalar) {
                    writeUnicodeEscape(scalar.value, into: &out)
                } else {
                    out.append(contentsOf: UTF8.encode(scalar)!)
                }
            }
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
