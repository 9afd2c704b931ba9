/// A query together with the values for its placeholders, for batches such as pipelines.
public struct BoundQuery: Sendable {
    /// The statement to run.
    public let query: Query
    /// The values for `$1`, `$2`, …; `nil` is SQL NULL.
    public let parameters: [(any PostgresEncodable)?]

    /// Binds `parameters` to `query`.
    public init(_ query: Query, _ parameters: [(any PostgresEncodable)?] = []) {
        self.query = query
        self.parameters = parameters
    }
}
