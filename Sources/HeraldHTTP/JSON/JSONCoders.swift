import Foundation

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
            try container.encode(formatISO8601(date))
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
            guard let date = parseISO8601(text) else {
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
        if NULEscape.isPresent(in: bytes) {
            throw HTTPError(
                status: .unprocessableContent, type: "validation-failed", title: "Validation failed",
                detail: "Strings may not contain the NUL character (\\u0000).")
        }
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

    /// Formats a date as ISO 8601 in UTC, with milliseconds only when the date has a fractional second.
    public static func formatISO8601(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let style = seconds.rounded(.down) == seconds ? plainStyle : fractionalStyle
        return date.formatted(style)
    }

    /// Parses an ISO 8601 date-time with an offset or `Z`, with or without fractional seconds.
    public static func parseISO8601(_ text: String) -> Date? {
        if let date = try? plainStyle.parse(text) { return date }
        return try? fractionalStyle.parse(text)
    }

    private static let plainStyle = Date.ISO8601FormatStyle()
    private static let fractionalStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
