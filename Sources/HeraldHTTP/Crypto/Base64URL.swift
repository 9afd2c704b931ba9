/// Unpadded base64url (RFC 4648 section 5), the alphabet of API keys and signed tokens.
public enum Base64URL {
    private static let alphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes bytes without padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value: UInt32 = 0
            for byte in chunk { value = value << 8 | UInt32(byte) }
            value <<= UInt32(8 * (3 - chunk.count))
            for position in 0...chunk.count {
                output.append(alphabet[Int((value >> UInt32(18 - 6 * position)) & 0x3F)])
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes unpadded (or padded) base64url; nil for a character outside the alphabet or an impossible length.
    public static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        for byte in text.utf8 where byte != UInt8(ascii: "=") {
            guard let value = alphabet.firstIndex(of: byte) else { return nil }
            values.append(UInt8(value))
        }
        guard values.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        var index = 0
        while index < values.count {
            let chunk = values[index..<min(index + 4, values.count)]
            var value: UInt32 = 0
            for sextet in chunk { value = value << 6 | UInt32(sextet) }
            value <<= UInt32(6 * (4 - chunk.count))
            for position in 0..<(chunk.count - 1) {
                bytes.append(UInt8((value >> UInt32(16 - 8 * position)) & 0xFF))
            }
            index += 4
        }
        return bytes
    }
}
