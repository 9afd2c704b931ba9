/// An ordered list of header fields with case-insensitive lookup; repeated names are kept.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in the order they were added.
    public private(set) var fields: [(name: String, value: String)]

    /// Creates an empty header list.
    public init() {
        self.fields = []
    }

    /// Creates headers from name/value pairs, in order.
    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// Creates headers from a literal such as `["Content-Type": "text/plain"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value of the named field, compared case-insensitively.
    public subscript(name: String) -> String? {
        fields.first { Self.namesMatch($0.name, name) }?.value
    }

    /// Every value of the named field, compared case-insensitively.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
    }

    /// Appends a field, keeping any existing field of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field of that name with a single value.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name: name, value: value))
    }

    /// Removes every field of that name.
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.namesMatch($0.name, name) }
    }

    /// Whether a field of that name is present.
    public func contains(_ name: String) -> Bool {
        self[name] != nil
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// Field names are ASCII tokens, so comparing them byte by byte with ASCII case folding is exact and avoids
    /// allocating lowercased copies on every lookup.
    static func namesMatch(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count
            && zip(lhs.utf8, rhs.utf8).allSatisfy { a, b in
                a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= UInt8(ascii: "a") && (a | 0x20) <= UInt8(ascii: "z"))
            }
    }

    /// Headers are equal when they hold the same fields in the same order.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}
