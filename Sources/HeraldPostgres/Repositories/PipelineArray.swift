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

    /// `postgresText`, written straight into the buffer a statement's parameters are sent from. The literal is
    /// written byte by byte into scratch room for the worst case (every byte escaped), with a backslash before each
    /// `"` and `\`, and appended in one copy: a batch's arrays hold hundreds of short ids and a few kilobytes of
    /// JSON with a quote every few bytes, so appending each element, or each run between quotes, cost more than the
    /// bytes themselves.
    public func appendPostgresText(to out: inout [UInt8]) {
        let bound = elements.reduce(2) { $0 + 2 * ($1?.utf8.count ?? 2) + 3 }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { scratch in
            let target = scratch.baseAddress!
            let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
            var next = 0
            func put(_ byte: UInt8) {
                target[next] = byte
                next += 1
            }
            put(UInt8(ascii: "{"))
            for index in elements.indices {
                if index > 0 { put(UInt8(ascii: ",")) }
                guard var element = elements[index] else {
                    for byte in "NULL".utf8 { put(byte) }
                    continue
                }
                put(quote)
                element.withUTF8 { bytes in
                    // The position stays in a register for the element's bytes.
                    var position = next
                    for byte in bytes {
                        if byte == quote || byte == backslash {
                            target[position] = backslash
                            position &+= 1
                        }
                        target[position] = byte
                        position &+= 1
                    }
                    next = position
                }
                put(quote)
            }
            put(UInt8(ascii: "}"))
            out.append(contentsOf: UnsafeBufferPointer(start: target, count: next))
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
