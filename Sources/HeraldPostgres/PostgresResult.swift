import Glibc

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
        let cells: [String?]
        /// Column positions by name, in an open-addressed table of a power-of-two size at least twice the columns
        /// (-1 for an empty slot). Rows are read by name cell by cell, and a name's length and first and last
        /// bytes find its slot for a fraction of what a dictionary's full hash of the name costs. Names match byte
        /// for byte, as PostgreSQL matches them: two spellings of one accented letter are two names.
        private let slots: [Int]

        init(columns: [String], cells: [String?]) {
            self.columns = columns
            self.cells = cells
            var size = 8
            while size < columns.count * 2 { size *= 2 }
            var slots = [Int](repeating: -1, count: size)
            for (position, name) in columns.enumerated() {
                var slot = Self.slot(of: name, size: size)
                // The first of a repeated name keeps it.
                while slots[slot] >= 0, !Self.same(columns[slots[slot]], name) { slot = (slot + 1) & (size - 1) }
                if slots[slot] < 0 { slots[slot] = position }
            }
            self.slots = slots
        }

        /// The position of the first column named `name`, or nil.
        func position(of name: String) -> Int? {
            var slot = Self.slot(of: name, size: slots.count)
            while slots[slot] >= 0 {
                if Self.same(columns[slots[slot]], name) { return slots[slot] }
                slot = (slot + 1) & (slots.count - 1)
            }
            return nil
        }

        /// Whether two names have the same UTF-8 bytes (`==` on strings would also match other spellings of the
        /// same text, which hash to other slots).
        @inline(__always)
        private static func same(_ a: String, _ b: String) -> Bool {
            let equal = a.utf8.withContiguousStorageIfAvailable { x in
                b.utf8.withContiguousStorageIfAvailable { y in
                    x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
                }
            }
            return equal.flatMap { $0 } ?? a.utf8.elementsEqual(b.utf8)
        }

        private static func slot(of name: String, size: Int) -> Int {
            let bytes = name.utf8
            let key = bytes.count &* 40_503 &+ Int(bytes.first ?? 0) &* 131 &+ Int(bytes.last ?? 0)
            return key & (size - 1)
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
