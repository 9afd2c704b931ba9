/// Finds `\u0000` escapes in JSON text. PostgreSQL text cannot hold U+0000, so Herald refuses it at the edge
/// with a 422 instead of failing deep inside a query.
public enum NULEscape {
    /// Whether `bytes` contain a `\u0000` escape (an escaped backslash followed by `u0000` does not count).
    public static func isPresent(in bytes: some Collection<UInt8>) -> Bool {
        let backslash = UInt8(ascii: "\\")
        let bytes = Array(bytes)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == backslash else {
                index += 1
                continue
            }
            let next = index + 1
            guard next < bytes.count else { return false }
            if bytes[next] == UInt8(ascii: "u"), next + 4 < bytes.count,
                bytes[(next + 1)...(next + 4)].allSatisfy({ $0 == UInt8(ascii: "0") })
            {
                return true
            }
            // Skip the escaped character, so `\\u0000` (a backslash, then text) is not mistaken for an escape.
            index = next + 1
        }
        return false
    }
}
