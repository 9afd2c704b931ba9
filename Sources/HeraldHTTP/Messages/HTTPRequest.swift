/// A complete HTTP request as a value: what a handler sees, with or without a socket behind it.
public struct HTTPRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The path as sent, still percent-encoded, without the query string.
    public var path: String
    /// The decoded query items, in order.
    public var queryItems: [QueryItem]
    /// The header fields; names are lowercased.
    public var headers: HTTPHeaders
    /// The request body bytes.
    public var body: [UInt8]
    /// The request id: the client's `X-Request-Id` when acceptable, else a generated one.
    public var requestID: String
    /// The client's IP address, when known.
    public var remoteAddress: String?

    /// Creates a request value; header names are lowercased here so lookups never depend on the sender's casing.
    public init(
        method: HTTPMethod,
        path: String,
        queryItems: [QueryItem] = [],
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        requestID: String = "local",
        remoteAddress: String? = nil
    ) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.headers = HTTPHeaders(headers.fields.map { ($0.name.lowercased(), $0.value) })
        self.body = body
        self.requestID = requestID
        self.remoteAddress = remoteAddress
    }

    /// Creates a request from a request target such as `/v1/users?limit=10`, splitting off and decoding the query.
    public init(
        method: HTTPMethod,
        target: String,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [],
        requestID: String = "local",
        remoteAddress: String? = nil
    ) {
        let (path, query) = Self.split(target: target)
        self.init(
            method: method, path: path, queryItems: QueryItem.parse(query), headers: headers, body: body,
            requestID: requestID, remoteAddress: remoteAddress)
    }

    /// The first decoded value of a query item.
    public func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The first value of a header, looked up case-insensitively.
    public func header(_ name: String) -> String? {
        headers[name]
    }

    /// Splits a request target into its path and raw query, dropping a fragment and an absolute-form origin.
    static func split(target: String) -> (path: String, query: Substring) {
        var rest = Substring(target)
        if let hash = rest.firstIndex(of: "#") {
            rest = rest[..<hash]
        }
        if rest.hasPrefix("http://") || rest.hasPrefix("https://") {
            let afterScheme = rest[rest.index(rest.firstIndex(of: ":")!, offsetBy: 3)...]
            rest =
                afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }).map { afterScheme[$0...] } ?? "/"
        }
        guard let question = rest.firstIndex(of: "?") else { return (String(rest), "") }
        return (String(rest[..<question]), rest[rest.index(after: question)...])
    }
}
