/// Herald's JSON reader, straight from UTF-8 bytes: to the value tree (`parse`), or member by member into a typed
/// value without building the tree (`readObject`, `readString`, …). Ingest and the workers read thousands of events
/// per second; going through `Decodable` costs several times more than the parse itself. Strings may not carry
/// U+0000, which PostgreSQL cannot store.
public struct JSONParser {
    /// Why a document is not JSON, or not of the shape asked for.
    public struct Malformed: Error {
        public init() {}
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    /// Nesting deeper than this is refused rather than recursed into.
    public static let maximumDepth = 64

    /// Parses a whole document; trailing non-space bytes are an error.
    public static func parse(_ bytes: [UInt8]) throws(Malformed) -> JSONValue {
        var parser = JSONParser(bytes)
        let value = try parser.readValue()
        try parser.end()
        return value
    }

    /// A reader at the start of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Checks that only white space follows.
    public mutating func end() throws(Malformed) {
        skipSpace()
        guard index == bytes.count else { throw Malformed() }
    }

    /// Whether the next value is `null`; consumes it when it is.
    public mutating func readNull() throws(Malformed) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "n") else { return false }
        _ = try literal("null", .null)
        return true
    }

    /// The next value, which must be a string.
    public mutating func readString() throws(Malformed) -> String {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Malformed() }
        return try string()
    }

    /// The next value, which must be a string or `null`.
    public mutating func readOptionalString() throws(Malformed) -> String? {
        try readNull() ? nil : readString()
    }

    /// The next value, whatever it is, as a tree.
    public mutating func readValue() throws(Malformed) -> JSONValue {
        try value()
    }

    /// Reads an object, calling `member` with each key and the reader positioned on its value, which `member` must
    /// read whole.
    public mutating func readObject(
        _ member: (String, inout JSONParser) throws(Malformed) -> Void
    ) throws(Malformed) {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { throw Malformed() }
        depth += 1
        guard depth <= Self.maximumDepth else { throw Malformed() }
        defer { depth -= 1 }
        index += 1
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Malformed() }
            let key = try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw Malformed() }
            index += 1
            try member(key, &self)
            skipSpace()
            guard index < bytes.count else { throw Malformed() }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw Malformed() }
            index += 1
            return
        }
    }

    /// Reads an array, calling `element` with the reader positioned on each element, which it must read whole.
    public mutating func readArray(_ element: (inout JSONParser) throws(Malformed) -> Void) throws(Malformed) {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { throw Malformed() }
        depth += 1
        guard depth <= Self.maximumDepth else { throw Malformed() }
        defer { depth -= 1 }
        index += 1
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            try element(&self)
            skipSpace()
            guard index < bytes.count else { throw Malformed() }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw Malformed() }
            index += 1
            return
        }
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value() throws(Malformed) -> JSONValue {
        skipSpace()
        guard index < bytes.count else { throw Malformed() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    private mutating func literal(
        _ word: StaticString, _ value: JSONValue
    ) throws(Malformed)
        -> JSONValue
    {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw Malformed() }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw Malformed() }
        index += count
        return value
    }

    private mutating func object() throws(Malformed) -> JSONValue {
        var members: [String: JSONValue] = [:]
        try readObject { (key, parser) throws(Malformed) in members[key] = try parser.value() }
        return .object(members)
    }

    private mutating func array() throws(Malformed) -> JSONValue {
        var items: [JSONValue] = []
        try readArray { (parser) throws(Malformed) in items.append(try parser.value()) }
        return .array(items)
    }

    private mutating func string() throws(Malformed) -> String {
        index += 1
        let start = index
        // The common case has no escape: one slice, decoded once.
        var highBits: UInt8 = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
            guard bytes[index] >= 0x20 else { throw Malformed() }
            highBits |= bytes[index]
            index += 1
        }
        guard index < bytes.count else { throw Malformed() }
        if bytes[index] == UInt8(ascii: "\"") {
            let end = index
            index += 1
            // ASCII is valid UTF-8 as it stands; only text with other bytes needs the validating decoder.
            if highBits < 0x80 {
                return bytes.withUnsafeBufferPointer {
                    String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self)
                }
            }
            guard let text = String(validating: bytes[start..<end], as: UTF8.self) else { throw Malformed() }
            return text
        }
        var out = Array(bytes[start..<index])
        while bytes[index] != UInt8(ascii: "\"") {
            // A backslash escape.
            index += 1
            guard index < bytes.count else { throw Malformed() }
            switch bytes[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(bytes[index])
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                // PostgreSQL cannot store U+0000 in text or jsonb, so no event may carry it.
                let scalar = try unicodeEscape()
                guard scalar.value != 0 else { throw Malformed() }
                appendScalar(scalar, to: &out)
            default: throw Malformed()
            }
            index += 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                guard bytes[index] >= 0x20 else { throw Malformed() }
                out.append(bytes[index])
                index += 1
            }
            guard index < bytes.count else { throw Malformed() }
        }
        index += 1
        guard let text = String(validating: out, as: UTF8.self) else { throw Malformed() }
        return text
    }

    /// Reads `XXXX` after `\u` (and a low surrogate's `\uXXXX` after a high one); leaves `index` on its last digit.
    private mutating func unicodeEscape() throws(Malformed) -> Unicode.Scalar {
        let high = try hex4()
        if (0xD800..<0xDC00).contains(high) {
            guard index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\"), bytes[index + 2] == UInt8(ascii: "u")
            else { throw Malformed() }
            index += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low),
                let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            else { throw Malformed() }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else { throw Malformed() }
        return scalar
    }

    private mutating func hex4() throws(Malformed) -> UInt32 {
        guard index + 4 < bytes.count else { throw Malformed() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            index += 1
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Malformed()
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private func appendScalar(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        out.append(contentsOf: UTF8.encode(scalar)!)
    }

    private mutating func number() throws(Malformed) -> JSONValue {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        var integral = true
        let digitsStart = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        guard index > digitsStart else { throw Malformed() }
        if bytes[digitsStart] == UInt8(ascii: "0"), index - digitsStart > 1 { throw Malformed() }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            let fraction = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > fraction else { throw Malformed() }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            let exponent = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > exponent else { throw Malformed() }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let value = Int(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw Malformed() }
        return .double(value)
    }
}
