import Foundation
import HeraldCore

/// The API's JSON conventions: snake_case keys and ISO 8601 dates (fractional seconds accepted, and written when
/// present).
public enum JSONCoders {
    /// An encoder with the API's conventions; keys are sorted so equal values give identical bytes.
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601.format(date))
        }
        return encoder
    }()

    /// A decoder with the API's conventions.
    public static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ISO8601.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "Expected an ISO 8601 date-time such as 2026-12-01T09:00:00Z.")
            }
            return date
        }
        return decoder
    }()

    /// A decoder without key conversion: `JSONValue` trees must keep member names exactly as sent.
    static let verbatimDecoder = JSONDecoder()

    /// Decodes a typed value from JSON bytes: malformed JSON is a 400 problem, a shape mismatch a 422 problem whose
    /// pointer names the field.
    public static func decode<T: Decodable>(
        _ type: T.Type, from bytes: [UInt8]
    ) throws(HTTPError)
        -> T
    {
        let data = Data(bytes)
        // Valid JSON, but no text Herald stores can hold U+0000.
        if NULEscape.isPresent(in: bytes) { throw NULEscape.problem(in: bytes) }
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            throw DecodingFailure.problem(for: error, body: data)
        } catch let error as HTTPError {
            throw error
        } catch {
            throw HTTPError(
                status: .unprocessableContent, type: "validation-failed", title: "Validation failed",
                detail: "The request body was rejected.")
        }
    }
}
