/// A complete HTTP response as a value.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: HTTPStatus
    /// The header fields; `Content-Length` is added by the server.
    public var headers: HTTPHeaders
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body decoded as UTF-8, for tests and logs.
    public var bodyText: String {
        String(decoding: body, as: UTF8.self)
    }

    /// A `text/plain` response.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8)
        )
    }

    /// A 204 response without a body.
    public static func noContent(headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        HTTPResponse(status: .noContent, headers: headers)
    }

    /// A JSON response of an encodable value, with snake_case keys and ISO 8601 dates.
    public static func json(
        _ value: some Encodable, status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders()
    ) throws -> HTTPResponse {
        var response = HTTPResponse(
            status: status, headers: headers, body: Array(try JSONCoders.encoder.encode(value)))
        response.headers.set("Content-Type", "application/json")
        return response
    }

    /// A JSON response of a value tree.
    public static func json(
        _ value: JSONValue, status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders()
    ) -> HTTPResponse {
        json(text: value.serialized(), status: status, headers: headers)
    }

    /// A JSON response of text written already (by a `JSONWriter`, say).
    public static func json(
        text: [UInt8], status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders()
    ) -> HTTPResponse {
        var response = HTTPResponse(status: status, headers: headers, body: text)
        response.headers.set("Content-Type", "application/json")
        return response
    }

    /// An `application/problem+json` response for an error, carrying the error's own headers.
    public static func problem(
        _ error: HTTPError, instance: String?, requestID: String
    )
        -> HTTPResponse
    {
        var response = HTTPResponse(
            status: error.status, headers: error.headers,
            body: error.problemDocument(instance: instance, requestID: requestID).serialized())
        response.headers.set("Content-Type", "application/problem+json")
        return response
    }
}
