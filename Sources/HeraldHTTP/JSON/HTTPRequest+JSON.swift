import HeraldCore

extension HTTPRequest {
    /// Decodes the JSON body into a typed value: a non-JSON content type is 415, an empty body or broken syntax
    /// 400, a shape mismatch 422 with the pointer of the offending member.
    public func decodeJSON<T: Decodable>(_ type: T.Type = T.self) throws(HTTPError) -> T {
        try requireJSONBody()
        return try JSONCoders.decode(type, from: body)
    }

    /// `decodeJSON` for a body whose object takes only `members`: any other member is a 422 naming it, as
    /// "is not a member of `what`".
    public func decodeJSON<T: Decodable>(
        _ type: T.Type = T.self, members: Set<String>, of what: String
    ) throws(HTTPError) -> T {
        let tree = try decodeJSONValue()
        if case .object(let object) = tree {
            let unknown = object.keys.filter { !members.contains($0) }.sorted()
            if !unknown.isEmpty {
                throw HTTPError.invalidFields(
                    unknown.map {
                        FieldError(pointer: "/" + FieldError.token($0), message: "is not a member of \(what)")
                    })
            }
        }
        return try tree.decode(type)
    }

    /// Parses the JSON body into a value tree (for merge patches); errors as in `decodeJSON`.
    public func decodeJSONValue() throws(HTTPError) -> JSONValue {
        try requireJSONBody()
        return try JSONValue(parsing: body)
    }

    /// Whether a media type is JSON: `application/json` or any `+json` suffix, parameters ignored.
    static func isJSONMediaType(_ contentType: String) -> Bool {
        let mediaType =
            contentType.split(separator: ";", maxSplits: 1).first.map {
                $0.trimmingSpaces().lowercased()
            } ?? ""
        return mediaType == "application/json"
            || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
    }

    /// Refuses a body that cannot be JSON before it is parsed: a non-JSON content type (415), or no body at all
    /// (400).
    public func requireJSONBody() throws(HTTPError) {
        if let contentType = headers["content-type"], !Self.isJSONMediaType(contentType) {
            throw HTTPError.unsupportedContentType()
        }
        if body.isEmpty {
            throw HTTPError.malformedJSON("The request body is empty; a JSON document is required.")
        }
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = lastIndex(where: { !isSpace($0) })!
        return self[first...last]
    }
}
