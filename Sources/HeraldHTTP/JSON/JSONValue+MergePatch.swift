extension JSONValue {
    /// Applies an RFC 7396 JSON merge patch: objects merge member by member, `null` removes a member, and anything
    /// else replaces the target.
    public func applyingMergePatch(_ patch: JSONValue) -> JSONValue {
        guard case .object(let patchMembers) = patch else { return patch }
        var members: [String: JSONValue]
        if case .object(let existing) = self {
            members = existing
        } else {
            members = [:]
        }
        for (name, value) in patchMembers {
            if value.isNull {
                members.removeValue(forKey: name)
            } else {
                members[name] = (members[name] ?? .null).applyingMergePatch(value)
            }
        }
        return .object(members)
    }
}
