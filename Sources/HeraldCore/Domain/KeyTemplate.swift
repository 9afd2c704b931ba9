/// A key template such as `msg:{thread_id}`: literal text with placeholders naming event fields.
///
/// Used for collapse keys and thread keys. A placeholder is one of `event_id`, `category`, `thread_id`, `item_id`,
/// `actor`, `topic`, or `data.<name>` for a scalar in the event's data.
public struct KeyTemplate: Sendable, Hashable {
    /// One piece of a parsed template.
    public enum Part: Sendable, Hashable {
        case literal(String)
        case field(String)
    }

    /// Why a template does not parse, with the character offset of the problem.
    public struct ParseError: Error, Sendable, Hashable {
        public var offset: Int
        public var message: String
    }

    /// The event fields a placeholder may name, besides `data.<name>`.
    public static let knownFields: Set<String> = [
        "event_id", "category", "thread_id", "item_id", "actor", "topic",
    ]

    public let source: String
    public let parts: [Part]

    /// Parses a template; unknown fields, empty or unclosed placeholders are errors.
    public init(_ source: String) throws(ParseError) {
        self.source = source
        var parts: [Part] = []
        var literal = ""
        var field: String?
        var fieldStart = 0
        for (offset, character) in source.enumerated() {
            switch (character, field) {
            case ("{", nil):
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                field = ""
                fieldStart = offset
            case ("{", .some):
                throw ParseError(offset: offset, message: "nested '{' inside a placeholder")
            case ("}", nil):
                throw ParseError(offset: offset, message: "'}' without a matching '{'")
            case ("}", .some(let name)):
                try Self.checkField(name, offset: fieldStart)
                parts.append(.field(name))
                field = nil
            case (_, nil):
                literal.append(character)
            case (_, .some(let name)):
                field = name + String(character)
            }
        }
        if field != nil {
            throw ParseError(offset: fieldStart, message: "placeholder is not closed")
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        if parts.isEmpty {
            throw ParseError(offset: 0, message: "template is empty")
        }
        self.parts = parts
    }

    private static func checkField(_ name: String, offset: Int) throws(ParseError) {
        if knownFields.contains(name) { return }
        if name.hasPrefix("data."), name.count > 5,
            name.dropFirst(5).allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
        {
            return
        }
        throw ParseError(offset: offset, message: "unknown event field '\(name)'")
    }

    /// Renders the key for `event`, or `nil` when a field it names is absent (the event then stands alone).
    public func render(for event: Event) -> String? {
        render(for: event) { $0 }
    }

    /// Renders with every placeholder's value passed through `encoding` (for instance percent-encoded into an
    /// address); `nil` when a field it names is absent.
    public func render(for event: Event, encoding: (String) -> String) -> String? {
        var out = ""
        for part in parts {
            switch part {
            case .literal(let text): out += text
            case .field(let name):
                guard let value = Self.value(of: name, in: event), !value.isEmpty else { return nil }
                out += encoding(value)
            }
        }
        return out
    }

    private static func value(of field: String, in event: Event) -> String? {
        switch field {
        case "event_id": return event.reference
        case "category": return event.category
        case "thread_id": return event.threadId
        case "item_id": return event.itemId
        case "actor": return event.actor
        case "topic": return event.recipients.topic
        default: return event.data[String(field.dropFirst(5))]?.scalarText
        }
    }
}
