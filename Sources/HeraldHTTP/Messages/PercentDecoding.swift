/// Percent-decoding of URL components (RFC 3986 section 2.1).
enum PercentDecoding {
    /// Decodes `%XX` escapes; returns nil when an escape is malformed or the bytes are not UTF-8.
    static func decode(_ text: Substring, plusAsSpace: Bool = false) -> String? {
        let utf8 = text.utf8
        if !utf8.contains(UInt8(ascii: "%")) && !(plusAsSpace && utf8.contains(UInt8(ascii: "+"))) {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                guard first != utf8.endIndex else { return nil }
                let second = utf8.index(after: first)
                guard second != utf8.endIndex, let high = hexValue(utf8[first]),
                    let low = hexValue(utf8[second])
                else { return nil }
                bytes.append(high << 4 | low)
                index = utf8.index(after: second)
                continue
            }
            bytes.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index = utf8.index(after: index)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Decodes like `decode`, but keeps the text as it is (with invalid UTF-8 repaired) when it cannot be decoded.
    static func decodeLeniently(_ text: Substring, plusAsSpace: Bool) -> String {
        decode(text, plusAsSpace: plusAsSpace) ?? String(text)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
