import Foundation

extension PostgresRow {
    /// A text column by index.
    public func string(_ column: Int) throws -> String { try decode(String.self, column) }
    /// A text column by name.
    public func string(_ column: String) throws -> String { try decode(String.self, column) }
    /// An integer column by index.
    public func int(_ column: Int) throws -> Int { try decode(Int.self, column) }
    /// An integer column by name.
    public func int(_ column: String) throws -> Int { try decode(Int.self, column) }
    /// A `bigint` column by index.
    public func int64(_ column: Int) throws -> Int64 { try decode(Int64.self, column) }
    /// A `bigint` column by name.
    public func int64(_ column: String) throws -> Int64 { try decode(Int64.self, column) }
    /// A boolean column by index.
    public func bool(_ column: Int) throws -> Bool { try decode(Bool.self, column) }
    /// A boolean column by name.
    public func bool(_ column: String) throws -> Bool { try decode(Bool.self, column) }
    /// A `double precision` column by index.
    public func double(_ column: Int) throws -> Double { try decode(Double.self, column) }
    /// A `double precision` column by name.
    public func double(_ column: String) throws -> Double { try decode(Double.self, column) }
    /// A `timestamptz` column by index.
    public func date(_ column: Int) throws -> Date { try decode(Date.self, column) }
    /// A `timestamptz` column by name.
    public func date(_ column: String) throws -> Date { try decode(Date.self, column) }
    /// A `json`/`jsonb` column by index, as the server's JSON text.
    public func json(_ column: Int) throws -> String { try decode(JSONText.self, column).text }
    /// A `json`/`jsonb` column by name, as the server's JSON text.
    public func json(_ column: String) throws -> String { try decode(JSONText.self, column).text }
}
