import Foundation
import HeraldCore

/// Herald's JSON value tree, shared with the domain.
public typealias JSONValue = HeraldCore.JSONValue

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

    /// The compact JSON text of the value as a string.
    public var jsonText: String {
        String(decoding: serialized(), as: UTF8.self)
    }
}
