/// One row of a result, readable by column index or name.
public struct PostgresRow: Sendable {
    let storage: PostgresResult.Storage
    let row: Int

    /// The raw text of a cell; `nil` for SQL NULL.
    public func text(_ column: Int) throws -> String? {
        storage.text(row: row, column: try checked(column))
    }

    /// `column`, once it is known to be within the result's columns.
    private func checked(_ column: Int) throws -> Int {
        guard column >= 0, column < storage.columns.count else {
            throw PostgresError(kind: .decoding, message: "no column at index \(column)")
        }
        return column
    }

    /// The raw text of a cell by column name; `nil` for SQL NULL.
    public func text(_ column: String) throws -> String? {
        try text(try position(of: column))
    }

    /// The position of the column named `name`, to read many rows of one result by position.
    public func position(of name: String) throws -> Int {
        guard let index = storage.position(of: name) else {
            throw PostgresError(kind: .decoding, message: "no column named \(name)")
        }
        return index
    }

    /// Whether the cell at `column` is SQL NULL.
    public func isNull(_ column: Int) throws -> Bool { try text(column) == nil }

    /// Whether the cell named `column` is SQL NULL.
    public func isNull(_ column: String) throws -> Bool { try text(column) == nil }

    /// Decodes the cell at `column`; NULL is an error unless `T` is an `Optional`.
    public func decode<T: PostgresDecodable>(_ type: T.Type = T.self, _ column: Int) throws -> T {
        try Self.decode(type, storage, row: row, column: try checked(column), name: "#\(column)")
    }

    /// Decodes the cell named `column`; NULL is an error unless `T` is an `Optional`.
    public func decode<T: PostgresDecodable>(_ type: T.Type = T.self, _ column: String) throws -> T {
        try Self.decode(type, storage, row: row, column: try position(of: column), name: column)
    }

    /// `name` names the cell in an error only, so it is built only for one (positions are read per cell).
    private static func decode<T: PostgresDecodable>(
        _ type: T.Type, _ storage: PostgresResult.Storage, row: Int, column: Int, name: @autoclosure () -> String
    ) throws -> T {
        try storage.withCell(row: row, column: column) { bytes in
            guard let bytes else {
                guard let null = T.postgresNull else {
                    throw PostgresError(kind: .decoding, message: "column \(name()) is NULL, expected \(T.self)")
                }
                return null
            }
            guard let value = T(postgresBytes: bytes) else {
                throw PostgresError(kind: .decoding, message: "column \(name()) is not a valid \(T.self)")
            }
            return value
        }
    }
}
