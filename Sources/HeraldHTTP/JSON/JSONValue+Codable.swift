import Foundation

extension JSONValue: Codable {
    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as itself.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// Parses JSON bytes; malformed JSON is a 400 problem.
    public init(parsing bytes: [UInt8]) throws(HTTPError) {
        do {
            self = try JSONCoders.decoder.decode(JSONValue.self, from: Data(bytes))
        } catch {
            throw HTTPError.malformedJSON()
        }
    }

    /// Builds the tree of an encodable value, with the API's key and date conventions.
    public init(encoding value: some Encodable) throws {
        self = try JSONCoders.decoder.decode(JSONValue.self, from: JSONCoders.encoder.encode(value))
    }

    /// Decodes a typed value from this tree; a shape mismatch is a 422 problem naming the field.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws(HTTPError) -> T {
        try JSONCoders.decode(type, from: serialized())
    }

    /// The compact JSON text of the value, with object keys sorted so equal trees serialize identically.
    public func serialized() -> [UInt8] {
        var output: [UInt8] = []
        write(to: &output)
        return output
    }

    /// The compact JSON text of the value as a string.
    public var jsonText: String {
        String(decoding: serialized(), as: UTF8.self)
    }

    private func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): output.append(contentsOf: String(value).utf8)
        case .double(let value):
            // JSON has no NaN or infinity; null is the conventional stand-in.
            output.append(contentsOf: (value.isFinite ? "\(value)" : "null").utf8)
        case .string(let value): JSONStringEscaping.append(value, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (offset, key) in members.keys.sorted().enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                JSONStringEscaping.append(key, to: &output)
                output.append(UInt8(ascii: ":"))
                members[key]!.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }
}
