/// An HTTP request method, kept as its uppercase token so that unusual methods still route to a 405.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token as sent on the request line, for example `GET`.
    public let rawValue: String

    /// Creates a method from its token; tokens are case-sensitive in HTTP, so no case folding happens.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The method token.
    public var description: String { rawValue }

    /// `GET`.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`.
    public static let options = HTTPMethod(rawValue: "OPTIONS")
}
