import HeraldCore

/// Finds `\u0000` escapes in JSON text. PostgreSQL text cannot hold U+0000, so Herald refuses it at the edge
/// with a 422 instead of failing deep inside a query.
public enum NULEscape {
    /// The 422 for `bytes`, which hold a `\u0000` escape: it names the first member (in document order for arrays,
    /// by name for objects) whose name or text holds U+0000, or the document itself when that cannot be told.
    public static func problem(in bytes: [UInt8]) -> HTTPError {
        let detail = "may not contain the NUL character (\\u0000)"
        guard let tree = try? JSONValue(parsing: bytes), let pointer = pointer(in: tree, at: "") else {
            return HTTPError.invalidField("", detail)
        }
        return HTTPError.invalidField(pointer, detail)
    }

    /// The pointer of the first place in `value` (found at `path`) that holds U+0000.
    static func pointer(in value: JSONValue, at path: String) -> String? {
        switch value {
        case .string(let text):
            return text.unicodeScalars.contains("\u{0}") ? path : nil
        case .array(let items):
            for (index, item) in items.enumerated() {
                if let found = pointer(in: item, at: "\(path)/\(index)") { return found }
            }
            return nil
        case .object(let members):
            for name in members.keys.sorted() {
                let memberPath = "\(path)/\(FieldError.token(name))"
                if name.unicodeScalars.contains("\u{0}") { return memberPath }
                if let member = members[name], let found = pointer(in: member, at: memberPath) { return found }
            }
            return nil
        default:
            return nil
        }
    }

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
