/// A piece of SQL with a name; values never go into the text, they travel as bind parameters.
///
/// Queries written in the source use `Query(name:sql:)` with a string literal (or `Query(name:joining:)` with
/// several), so SQL text cannot be assembled
/// from runtime values by accident. Runtime-built text (migration files, identifiers quoted by the caller) must
/// go through `Query(unsafeSQL:)`, which says so at the call site.
public struct Query: Sendable, Hashable, CustomStringConvertible {
    /// The name used in logs, metrics and as the prepared statement name; `nil` for one-off SQL.
    public let name: String?
    /// The SQL text, with `$1`, `$2`, … placeholders for the parameters.
    public let sql: String
    /// Whether the text is fixed at compile time, so caching a prepared statement under `name` is safe.
    let isPreparable: Bool

    /// A named query whose text is fixed at compile time; it is prepared once per connection.
    public init(name: String, sql: StaticString) {
        self.name = name
        self.sql = sql.description
        self.isPreparable = true
    }

    /// A named query joined line by line from pieces fixed at compile time, so statements that share a clause
    /// write it once; it is prepared like `init(name:sql:)`.
    public init(name: String, joining parts: StaticString...) {
        self.name = name
        self.sql = parts.map(\.description).joined(separator: "\n")
        self.isPreparable = true
    }

    /// SQL text built at runtime; it is never prepared, so give it no values that did not come from the program.
    public init(unsafeSQL sql: String, name: String? = nil) {
        self.name = name
        self.sql = sql
        self.isPreparable = false
    }

    /// Only the name, so that printing a query in a log never prints its text.
    public var description: String { name ?? "unnamed query" }
}
