import Foundation

/// The keyset cursor of a topic's subscriber list: the last user id of a page, base64url-encoded so it reads as
/// opaque and survives any URL.
public enum SubscriberCursor {
    /// The cursor that continues after `userId`.
    public static func encode(after userId: String) -> String {
        Data(userId.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The user id a cursor continues after, or nil when the cursor was not made by `encode(after:)`.
    public static func decode(_ cursor: String) -> String? {
        guard !cursor.isEmpty, cursor.utf8.count <= 400 else { return nil }
        guard let data = Base64URL.decode(cursor), let userId = String(data: data, encoding: .utf8),
            OpaqueIdentifier.isValid(userId), encode(after: userId) == cursor
        else { return nil }
        return userId
    }
}
