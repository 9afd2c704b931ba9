/// The keyset cursor of a topic's subscriber list: the last user id of a page, base64url-encoded so it reads as
/// opaque and survives any URL.
public enum SubscriberCursor {
    /// The cursor that continues after `userId`.
    public static func encode(after userId: String) -> String {
        Base64URL.encode(userId.utf8)
    }

    /// The user id a cursor continues after, or nil when the cursor was not made by `encode(after:)`.
    public static func decode(_ cursor: String) -> String? {
        guard !cursor.isEmpty, cursor.utf8.count <= 400 else { return nil }
        guard let bytes = Base64URL.decode(cursor), let userId = String(validating: bytes, as: UTF8.self),
            OpaqueIdentifier.isValid(userId), encode(after: userId) == cursor
        else { return nil }
        return userId
    }
}
