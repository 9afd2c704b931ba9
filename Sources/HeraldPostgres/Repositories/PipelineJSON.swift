import Foundation

/// The JSON form of engine state kept in `jsonb` columns (collapse groups, silent budgets): instants as
/// milliseconds since 1970, so they round-trip to the millisecond and stay readable.
public enum PipelineJSON {
    /// Encodes state for a `jsonb` column.
    public static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Decodes state read from a `jsonb` column.
    public static func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        do {
            return try decoder.decode(type, from: Data(text.utf8))
        } catch {
            throw PostgresError(kind: .decoding, message: "stored \(T.self) does not decode")
        }
    }
}
