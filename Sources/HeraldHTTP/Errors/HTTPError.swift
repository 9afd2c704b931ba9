import HeraldCore

/// An error that knows its HTTP status and renders as an RFC 9457 problem document.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The response status.
    public var status: HTTPStatus
    /// The problem type slug, for example `validation-failed`; rendered as `urn:herald:problem:<slug>`.
    public var type: String
    /// A short summary that does not change between occurrences of the same type.
    public var title: String
    /// An explanation of this occurrence.
    public var detail: String?
    /// The pointer of the primary offending member, when one is known.
    public var pointer: String?
    /// Every offending member, when the error is about the request body.
    public var errors: [FieldError]
    /// Headers the response must carry, such as `Allow` or `WWW-Authenticate`.
    public var headers: HTTPHeaders

    /// Creates an error; the title defaults to the status's reason phrase.
    public init(
        status: HTTPStatus,
        type: String,
        title: String? = nil,
        detail: String? = nil,
        pointer: String? = nil,
        errors: [FieldError] = [],
        headers: HTTPHeaders = HTTPHeaders()
    ) {
        self.status = status
        self.type = type
        self.title = title ?? status.reasonPhrase
        self.detail = detail
        self.pointer = pointer
        self.errors = errors
        self.headers = headers
    }

    /// A summary for logs: status, type and detail.
    public var description: String {
        "HTTPError(\(status.rawValue) \(type)\(detail.map { ": " + $0 } ?? ""))"
    }

    /// 400 for a request the server cannot parse.
    public static func badRequest(_ detail: String, type: String = "bad-request") -> HTTPError {
        HTTPError(status: .badRequest, type: type, detail: detail)
    }

    /// 415 for a body sent as another media type than the route reads; `expected` says what to send.
    public static func unsupportedContentType(
        _ expected: String = "The body must be JSON, sent with Content-Type: application/json."
    ) -> HTTPError {
        HTTPError(status: .unsupportedMediaType, type: "unsupported-content-type", detail: expected)
    }

    /// 400 for a body that is not JSON.
    public static func malformedJSON(
        _ detail: String = "The request body is not valid JSON."
    )
        -> HTTPError
    {
        HTTPError(status: .badRequest, type: "malformed-json", title: "Malformed JSON", detail: detail)
    }

    /// 422 naming one offending member.
    public static func invalidField(_ pointer: String, _ detail: String) -> HTTPError {
        HTTPError(
            status: .unprocessableContent, type: "validation-failed", title: "Validation failed",
            detail: detail,
            pointer: pointer, errors: [FieldError(pointer: pointer, message: detail)])
    }

    /// 422 naming several offending members: the first `FieldError.listedAtMost` of them, so that an answer stays
    /// small whatever the request holds.
    public static func invalidFields(_ errors: [FieldError]) -> HTTPError {
        let listed = errors.count > FieldError.listedAtMost ? ", the first \(FieldError.listedAtMost) listed" : ""
        return HTTPError(
            status: .unprocessableContent, type: "validation-failed", title: "Validation failed",
            detail: errors.count == 1 ? errors[0].message : "\(errors.count) members are invalid\(listed).",
            pointer: errors.first?.pointer, errors: FieldError.listed(errors))
    }

    /// 404 for a resource that does not exist.
    public static func notFound(_ detail: String = "No resource exists at this path.") -> HTTPError {
        HTTPError(status: .notFound, type: "not-found", detail: detail)
    }

    /// 409 for a request that conflicts with the current state.
    public static func conflict(_ detail: String, type: String = "conflict") -> HTTPError {
        HTTPError(status: .conflict, type: type, detail: detail)
    }

    /// 405 with the `Allow` header listing the methods the path supports.
    public static func methodNotAllowed(allowed: [HTTPMethod]) -> HTTPError {
        let allow = allowed.map(\.rawValue).joined(separator: ", ")
        return HTTPError(
            status: .methodNotAllowed, type: "method-not-allowed",
            detail: "This path supports \(allow).", headers: ["Allow": allow])
    }

    /// 401 with `WWW-Authenticate: Bearer`, for a missing, malformed or unknown key.
    public static func unauthorized(_ detail: String) -> HTTPError {
        HTTPError(
            status: .unauthorized, type: "unauthorized", detail: detail,
            headers: ["WWW-Authenticate": #"Bearer realm="herald""#])
    }

    /// 403 for a valid key that lacks the scope a route needs.
    public static func forbidden(missing scope: Scope) -> HTTPError {
        HTTPError(
            status: .forbidden, type: "forbidden",
            detail: "The API key lacks the scope \(scope.rawValue).",
            headers: [
                "WWW-Authenticate":
                    #"Bearer realm="herald", error="insufficient_scope", scope="\#(scope.rawValue)""#
            ])
    }

    /// 413 for a body over the configured limit.
    public static func contentTooLarge(limit: Int) -> HTTPError {
        HTTPError(
            status: .contentTooLarge, type: "content-too-large",
            detail: "The request body exceeds the limit of \(limit) bytes.")
    }

    /// 500 that reveals nothing about the cause; the cause goes to the log under the same request id.
    public static let internalError = HTTPError(
        status: .internalServerError, type: "internal-error",
        detail: "The server failed to handle the request; quote the request id when reporting it.")

    /// Errors compare by what a client sees.
    public static func == (lhs: HTTPError, rhs: HTTPError) -> Bool {
        lhs.status == rhs.status && lhs.type == rhs.type && lhs.title == rhs.title
            && lhs.detail == rhs.detail
            && lhs.pointer == rhs.pointer && lhs.errors == rhs.errors && lhs.headers == rhs.headers
    }
}
