/// Lowercase hexadecimal text for bytes: digests, HMACs, lease and request ids.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Lowercase hex, two characters per byte, written straight into the string's storage.
    public static func encode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            var written = 0
            for byte in bytes {
                write(byte, into: out, at: written)
                written += 2
            }
            return written
        }
    }

    /// Writes the two digits of `byte` at `index` and `index + 1`, for text that mixes hex with other characters.
    @inline(__always)
    static func write(_ byte: UInt8, into out: UnsafeMutableBufferPointer<UInt8>, at index: Int) {
        out[index] = digits[Int(byte >> 4)]
        out[index + 1] = digits[Int(byte & 0x0F)]
    }

    /// Decodes hex text (either case); nil for odd length or a non-hex character.
    public static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
