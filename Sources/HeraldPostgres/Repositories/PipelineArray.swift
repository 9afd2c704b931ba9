import HeraldCore

/// A one-dimensional PostgreSQL array as a text-format bind parameter (`{"a","b",NULL}`), for `= ANY($1)` lookups
/// and `unnest` bulk writes: one parameter carries a whole batch, so a batch costs one round trip.
public struct PipelineArray: PostgresEncodable, Hashable {
    /// The elements in their text form; `nil` is SQL NULL.
    public let elements: [String?]

    /// An array of text values. Each is wrapped by `map`: assigning `[String]` to `[String?]` converts the array
    /// through a dynamic cast of every element.
    public init(_ elements: [String]) { self.elements = elements.map { $0 } }

    /// An array whose elements may be NULL.
    public init(optional elements: [String?]) { self.elements = elements }

    /// An array of any encodable values (numbers, timestamps, JSON text), `nil` as NULL.
    public init(encoding values: [(any PostgresEncodable)?]) { self.elements = values.map { $0?.postgresText } }

    public static func == (lhs: PipelineArray, rhs: PipelineArray) -> Bool { lhs.elements == rhs.elements }
    public func hash(into hasher: inout Hasher) { hasher.combine(elements) }

    /// Every element double-quoted, with `"` and `\` escaped, so no element text can break the literal.
    public var postgresText: String {
        var out: [UInt8] = []
        appendPostgresText(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `postgresText`, written straight into the buffer a statement's parameters are sent from.
    public func appendPostgresText(to out: inout [UInt8]) {
        // Room for the whole literal at once; growing at least twofold, so that a statement's parameters written
        // one after another into one buffer do not copy it again for each.
        let needed = out.count + elements.reduce(2) { $0 + ($1?.utf8.count ?? 4) + 3 }
        if out.capacity < needed { out.reserveCapacity(max(needed, out.capacity * 2)) }
        out.append(UInt8(ascii: "{"))
        for (index, element) in elements.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            guard let element else {
                out.append(contentsOf: "NULL".utf8)
                continue
            }
            out.append(UInt8(ascii: "\""))
            Self.appendEscaped(element, to: &out)
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends the element's bytes with a backslash before each `"` and `\`, copying the runs between them whole
    /// (queue rows carry kilobytes of payload through here).
    private static func appendEscaped(_ element: String, to out: inout [UInt8]) {
        var element = element
        element.withUTF8 { bytes in
            guard ByteScan.contains(UnsafeRawBufferPointer(bytes), UInt8(ascii: "\""), UInt8(ascii: "\\")) else {
                out.append(contentsOf: bytes)
                return
            }
            var runStart = 0
            for index in bytes.indices where bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                out.append(UInt8(ascii: "\\"))
                runStart = index
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
    }
}

extension PipelineArray {
    /// Parses a one-dimensional text array as PostgreSQL prints it (`{a,"b c",NULL}`); NULL elements are dropped.
    public static func parse(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return [] }
        var values: [String] = []
        var index = 1
        let end = bytes.count - 1
        while index < end {
            var element: [UInt8] = []
            var quoted = false
            if bytes[index] == UInt8(ascii: "\"") {
                quoted = true
                index += 1
                while index < end, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                    if index < end { element.append(bytes[index]) }
                    index += 1
                }
                index += 1
            } else {
                while index < end, bytes[index] != UInt8(ascii: ",") {
                    element.append(bytes[index])
                    index += 1
                }
            }
            let value = String(decoding: element, as: UTF8.self)
            if quoted || value != "NULL" { values.append(value) }
            index += 1  // the comma
        }
        return values
    }
}
