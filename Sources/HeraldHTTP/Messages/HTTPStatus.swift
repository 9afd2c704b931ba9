/// An HTTP status code with its standard reason phrase.
public struct HTTPStatus: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    /// The numeric code, for example 404.
    public let rawValue: Int

    /// Creates a status from its numeric code.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Creates a status from an integer literal.
    public init(integerLiteral value: Int) {
        self.rawValue = value
    }

    /// The code as text, for example `404`.
    public var description: String { String(rawValue) }

    /// The standard reason phrase, used as the default problem title.
    public var reasonPhrase: String {
        Self.reasonPhrases[rawValue] ?? (rawValue >= 500 ? "Server Error" : "Client Error")
    }

    /// Whether the status may carry a body (1xx, 204 and 304 never do).
    public var allowsBody: Bool {
        !(100..<200).contains(rawValue) && rawValue != 204 && rawValue != 304
    }

    /// 200.
    public static let ok: HTTPStatus = 200
    /// 201.
    public static let created: HTTPStatus = 201
    /// 202.
    public static let accepted: HTTPStatus = 202
    /// 204.
    public static let noContent: HTTPStatus = 204
    /// 304.
    public static let notModified: HTTPStatus = 304
    /// 400.
    public static let badRequest: HTTPStatus = 400
    /// 401.
    public static let unauthorized: HTTPStatus = 401
    /// 403.
    public static let forbidden: HTTPStatus = 403
    /// 404.
    public static let notFound: HTTPStatus = 404
    /// 405.
    public static let methodNotAllowed: HTTPStatus = 405
    /// 409.
    public static let conflict: HTTPStatus = 409
    /// 412.
    public static let preconditionFailed: HTTPStatus = 412
    /// 413.
    public static let contentTooLarge: HTTPStatus = 413
    /// 415.
    public static let unsupportedMediaType: HTTPStatus = 415
    /// 422.
    public static let unprocessableContent: HTTPStatus = 422
    /// 428.
    public static let preconditionRequired: HTTPStatus = 428
    /// 429.
    public static let tooManyRequests: HTTPStatus = 429
    /// 500.
    public static let internalServerError: HTTPStatus = 500
    /// 503.
    public static let serviceUnavailable: HTTPStatus = 503

    private static let reasonPhrases: [Int: String] = [
        200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 304: "Not Modified",
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 409: "Conflict", 410: "Gone",
        412: "Precondition Failed", 413: "Content Too Large", 415: "Unsupported Media Type",
        422: "Unprocessable Content", 428: "Precondition Required", 429: "Too Many Requests",
        500: "Internal Server Error", 501: "Not Implemented", 503: "Service Unavailable",
    ]
}
