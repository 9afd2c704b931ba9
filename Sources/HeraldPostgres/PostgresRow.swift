/// One row of a result, readable by column index or name.
public struct PostgresRow: Sendable {
    let storage: PostgresResult.Storage
    let row: Int

    /// The raw text of a cell; `nil` for SQL NULL.
    public func text(_ column: Int) throws -> String? {
        let count = storage.columns.count
        guard column >= 0, column < count else {
            throw PostgresError(kind: .decoding, message: "no column at index \(column)")
        }
        return storage.text(row: row, column: column)
    }

    /// The raw text of a cell by column name; `nil` for SQL NULL.
    public func text(_ column: String) throws -> String? {
        guard let index = storage.position(of: column) else {
            throw PostgresError(kind: .decoding, message: "no column named \(column)")
        }
        return try text(index)
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
        guard column >= 0, column < storage.columns.count else {
            throw PostgresError(kind: .decoding, message: "no column at index \(column)")
        }
        return try Self.decode(type, storage, row: row, column: column, name: "#\(column)")
    }

    /// Decodes the cell named `column`; NULL is an error unless `T` is an `Optional`.
    public func decode<T: PostgresDecodable>(_ type: T.Type = T.self, _ column: String) throws -> T {
        guard let index = storage.position(of: column) else {
            throw PostgresError(kind: .decoding, message: "no column named \(column)")
        }
        return try Self.decode(type, storage, row: row, column: index, name: column)
    }

    /// `name` names the cell in an error only, so it is built only for one (positions are read per cell).
    private static func decode<T: PostgresDecodable>(
        _ type: T.Type, _ storage: PostgresResult.Storage, row: Int, column: Int, name: @autoclosure () -> String
    ) throws -> T {
        let value: T?? = storage.withCell(row: row, column: column) { bytes in
            guard let bytes else { return .some(T.postgresNull) }
            return .some(T(postgresBytes: bytes))
        }
        switch value {
        case .some(.some(let value)): return value
        default: break
        }
        let isNull = storage.withCell(row: row, column: column) { $0 == nil }
        if isNull {
            throw PostgresError(kind: .decoding, message: "column \(name()) is NULL, expected \(T.self)")
        }
        throw PostgresError(kind: .decoding, message: "column \(name()) is not a valid \(T.self)")
    }
}
