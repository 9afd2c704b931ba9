internal import CLibPQ
import Glibc

/// The rows and columns of one statement's result. It can cross threads: nothing in it changes once made.
public struct PostgresResult: Sendable, RandomAccessCollection {
    /// Column names in result order.
    public var columns: [String] { storage.columns }
    /// Rows changed by INSERT/UPDATE/DELETE/COPY (or returned by SELECT), from the command tag.
    public let affectedRows: Int

    let storage: Storage

    /// Shared, immutable cell storage; rows refer into it instead of copying.
    ///
    /// A result from the server keeps libpq's own result and reads a cell's text out of it when the cell is asked
    /// for: a batch reads thousands of cells and many of them never, and one block freed at the end costs far less
    /// than a string made and destroyed per cell. libpq never changes a result after returning it, so reading it
    /// from several threads at once is safe; it is freed once, when the last row referring to it is gone.
    final class Storage: @unchecked Sendable {
        /// Where the cells' texts are: libpq's result, or texts given (an empty result, a test's rows).
        enum Cells {
            case libpq(OpaquePointer)
            case texts([String?])
        }

        let columns: [String]
        let rowCount: Int
        private let cells: Cells
        /// Column positions by name, in an open-addressed table of a power-of-two size at least twice the columns
        /// (-1 for an empty slot). Rows are read by name cell by cell, and a name's length and first and last
        /// bytes find its slot for a fraction of what a dictionary's full hash of the name costs. Names match byte
        /// for byte, as PostgreSQL matches them: two spellings of one accented letter are two names.
        private let slots: [Int]
        /// The columns' names as UTF-8 bytes, compared with a wanted name's bytes in place.
        private let names: [[UInt8]]

        init(columns: [String], rowCount: Int, cells: Cells) {
            self.columns = columns
            self.rowCount = rowCount
            self.cells = cells
            let names = columns.map { Array($0.utf8) }
            var size = 8
            while size < columns.count * 2 { size *= 2 }
            var slots = [Int](repeating: -1, count: size)
            for (position, name) in names.enumerated() {
                name.withUnsafeBufferPointer { name in
                    var slot = Self.slot(of: name) & (size - 1)
                    // The first of a repeated name keeps it.
                    while slots[slot] >= 0, !names[slots[slot]].withUnsafeBufferPointer({ Self.same($0, name) }) {
                        slot = (slot + 1) & (size - 1)
                    }
                    if slots[slot] < 0 { slots[slot] = position }
                }
            }
            self.names = names
            self.slots = slots
        }

        deinit {
            if case .libpq(let result) = cells { PQclear(result) }
        }

        /// The text of the cell at `row` and `column` (both within bounds); nil for SQL NULL.
        func text(row: Int, column: Int) -> String? {
            switch cells {
            case .texts(let texts):
                return texts[row * columns.count + column]
            case .libpq(let result):
                let (row, column) = (Int32(row), Int32(column))
                if PQgetisnull(result, row, column) == 1 { return nil }
                let length = Int(PQgetlength(result, row, column))
                let bytes = UnsafeRawPointer(PQgetvalue(result, row, column)!).assumingMemoryBound(to: UInt8.self)
                return String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
            }
        }

        /// Lends the bytes of the cell at `row` and `column` (both within bounds) to `body`, nil for SQL NULL,
        /// without making a string of them: a number, a flag or a time is parsed where libpq keeps it.
        func withCell<R>(row: Int, column: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
            switch cells {
            case .texts(let texts):
                guard var text = texts[row * columns.count + column] else { return try body(nil) }
                return try text.withUTF8 { try body($0) }
            case .libpq(let result):
                let (row, column) = (Int32(row), Int32(column))
                if PQgetisnull(result, row, column) == 1 { return try body(nil) }
                let length = Int(PQgetlength(result, row, column))
                let bytes = UnsafeRawPointer(PQgetvalue(result, row, column)!).assumingMemoryBound(to: UInt8.self)
                return try body(UnsafeBufferPointer(start: bytes, count: length))
            }
        }

        /// The position of the first column named `name`, or nil.
        func position(of name: String) -> Int? {
            // A native or small string always lends its bytes; the copy is for any other.
            if let found = name.utf8.withContiguousStorageIfAvailable({ position(of: $0) }) { return found }
            return Array(name.utf8).withUnsafeBufferPointer { position(of: $0) }
        }

        private func position(of name: UnsafeBufferPointer<UInt8>) -> Int? {
            let mask = slots.count - 1
            var slot = Self.slot(of: name) & mask
            while slots[slot] >= 0 {
                let position = slots[slot]
                if names[position].withUnsafeBufferPointer({ Self.same($0, name) }) { return position }
                slot = (slot + 1) & mask
            }
            return nil
        }

        @inline(__always)
        private static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
            a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
        }

        @inline(__always)
        private static func slot(of name: UnsafeBufferPointer<UInt8>) -> Int {
            name.count &* 40_503 &+ Int(name.first ?? 0) &* 131 &+ Int(name.last ?? 0)
        }
    }

    /// A result of `cells`, row after row.
    init(columns: [String], cells: [String?], affectedRows: Int) {
        let rowCount = columns.isEmpty ? 0 : cells.count / columns.count
        self.storage = Storage(columns: columns, rowCount: rowCount, cells: .texts(cells))
        self.affectedRows = affectedRows
    }

    /// The rows of libpq's successful `result`, which this result now owns and frees.
    init(adopting result: OpaquePointer) {
        let rowCount = Int(PQntuples(result))
        let columns = (0..<PQnfields(result)).map { String(cString: PQfname(result, $0)) }
        self.storage = Storage(columns: columns, rowCount: rowCount, cells: .libpq(result))
        self.affectedRows = Self.affectedRows(of: result)
    }

    /// The rows a successful libpq `result` changed, from its command tag, or the rows it returned.
    static func affectedRows(of result: OpaquePointer) -> Int {
        Int(String(cString: PQcmdTuples(result))) ?? Int(PQntuples(result))
    }

    /// The first row index.
    public var startIndex: Int { 0 }
    /// One past the last row index.
    public var endIndex: Int { storage.rowCount }

    /// The row at `position`.
    public subscript(position: Int) -> PostgresRow { PostgresRow(storage: storage, row: position) }

    /// The first row, or a decoding error when the result is empty.
    public func single() throws -> PostgresRow {
        guard let row = first else { throw PostgresError(kind: .decoding, message: "expected a row, got none") }
        return row
    }
}
