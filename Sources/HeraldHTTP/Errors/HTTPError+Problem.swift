import HeraldCore

extension HTTPError {
    /// The prefix that turns a problem slug into the `type` URI; a URN because the types are not web pages.
    public static let problemTypePrefix = "urn:herald:problem:"

    /// The RFC 9457 problem document for this error.
    public func problemDocument(instance: String?, requestID: String) -> JSONValue {
        var members: [String: JSONValue] = [
            "type": .string(Self.problemTypePrefix + type),
            "title": .string(title),
            "status": .int(status.rawValue),
            "request_id": .string(requestID),
        ]
        if let detail { members["detail"] = .string(detail) }
        if let instance { members["instance"] = .string(instance) }
        if let pointer { members["pointer"] = .string(pointer) }
        if !errors.isEmpty {
            members["errors"] = .array(errors.map(\.json))
        }
        return .object(members)
    }
}
