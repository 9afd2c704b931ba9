/// The rows and columns of one statement's result, copied out of libpq so it can cross threads.
public struct PostgresResult: Sendable, RandomAccessCollection {
    /// Column names in result order.
    public var columns: [String] { storage.columns }
    /// Rows changed by INSERT/UPDATE/DELETE/COPY (or returned by SELECT), from the command tag.
    public let affectedRows: Int

    let storage: Storage

    /// Shared, immutable cell storage; rows refer into it instead of copying.
    final class Storage: Sendable {
        let columns: [String]
        let columnIndex: [String: Int]
        let cells: [String?]

        init(columns: [String], cells: [String?]) {
            self.columns = columns
            self.cells = cells
            var index: [String: Int] = [:]
            for (position, name) in columns.enumerated() where index[name] == nil { index[name] = position }
            self.columnIndex = index
        }
    }

    init(columns: [String], cells: [String?], affectedRows: Int) {
        self.storage = Storage(columns: columns, cells: cells)
        self.affectedRows = affectedRows
    }

    /// The first row index.
    public var startIndex: Int { 0 }
    /// One past the last row index.
    public var endIndex: Int { storage.columns.isEmpty ? 0 : storage.cells.count / storage.columns.count }

    /// The row at `position`.
    public subscript(position: Int) -> PostgresRow { PostgresRow(storage: storage, row: position) }

    /// The first row, or a decoding error when the result is empty.
    public func single() throws -> PostgresRow {
        guard let row = first else { throw PostgresError(kind: .decoding, message: "expected a row, got none") }
        return row
    }
}
