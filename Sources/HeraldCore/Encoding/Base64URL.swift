/// Base64url (RFC 4648 section 5), the alphabet of API keys, signed tokens, cursors and Web Push keys: written
/// unpadded, read padded or unpadded.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The value of each byte in the alphabet, 0xFF for bytes outside it; `+` and `/` (standard base64) are 0xFE.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        table[Int(UInt8(ascii: "+"))] = 0xFE
        table[Int(UInt8(ascii: "/"))] = 0xFE
        return table
    }()

    /// The unpadded text of `bytes`.
    public static func encode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        if let text = bytes.withContiguousStorageIfAvailable({ encode(buffer: $0) }) { return text }
        return Array(bytes).withUnsafeBufferPointer { encode(buffer: $0) }
    }

    /// Writes straight into the string's storage: cursors are encoded once per feed item.
    private static func encode(buffer bytes: UnsafeBufferPointer<UInt8>) -> String {
        let length = (bytes.count * 4 + 2) / 3
        return String(unsafeUninitializedCapacity: length) { out in
            var written = 0
            var index = 0
            while index < bytes.count {
                let count = min(3, bytes.count - index)
                var value: UInt32 = 0
                for offset in 0..<3 {
                    value = value << 8 | (offset < count ? UInt32(bytes[index + offset]) : 0)
                }
                for position in 0...count {
                    out[written] = alphabet[Int((value >> UInt32(18 - 6 * position)) & 0x3F)]
                    written += 1
                }
                index += 3
            }
            return written
        }
    }

    /// The bytes of padded or unpadded base64url text; nil for a character outside the alphabet, padding anywhere
    /// but at the end, or an impossible length. `acceptingStandardAlphabet` also takes `+` and `/` for `-` and `_`,
    /// for values that arrive in either spelling (Web Push keys, secrets made by `openssl rand -base64`).
    public static func decode(_ text: String, acceptingStandardAlphabet: Bool = false) -> [UInt8]? {
        var utf8 = Substring(text).utf8
        var padding = 0
        while utf8.last == UInt8(ascii: "="), padding < 2 {
            utf8 = utf8.dropLast()
            padding += 1
        }
        guard utf8.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3 / 4)
        var value: UInt32 = 0
        var sextets = 0
        for byte in utf8 {
            var sextet = values[Int(byte)]
            if sextet == 0xFE, acceptingStandardAlphabet { sextet = byte == UInt8(ascii: "+") ? 62 : 63 }
            guard sextet < 64 else { return nil }
            value = value << 6 | UInt32(sextet)
            sextets += 1
            if sextets == 4 {
                bytes.append(UInt8(truncatingIfNeeded: value >> 16))
                bytes.append(UInt8(truncatingIfNeeded: value >> 8))
                bytes.append(UInt8(truncatingIfNeeded: value))
                (value, sextets) = (0, 0)
            }
        }
        // Two or three leftover characters carry one or two more bytes.
        if sextets > 0 {
            value <<= UInt32(6 * (4 - sextets))
            for position in 0..<(sextets - 1) {
                bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(16 - 8 * position)))
            }
        }
        return bytes
    }
}
