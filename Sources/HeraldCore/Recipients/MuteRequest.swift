import Foundation

/// A request to mute something, checked before it is stored.
public struct MuteRequest: Sendable, Hashable {
    /// What is muted.
    public var scope: Mute.Scope
    /// The category id or thread key; must be absent for `all`.
    public var key: String?
    /// The end of the mute; nil mutes until removed.
    public var until: Date?

    /// Creates a request.
    public init(scope: Mute.Scope, key: String? = nil, until: Date? = nil) {
        self.scope = scope
        self.key = key
        self.until = until
    }

    /// The longest thread key.
    public static let maxKeyLength = 200

    /// Problems with the request at `now`: a key that does not fit the scope, or an end already past (such a mute
    /// would never apply, which is almost certainly a client clock or unit mistake).
    public func validate(now: Date) -> [FieldError] {
        var errors: [FieldError] = []
        switch scope {
        case .all:
            if key != nil {
                errors.append(FieldError(pointer: "/key", code: "not_allowed", message: "must be absent for scope all"))
            }
        case .category:
            if let key {
                if !OpaqueIdentifier.isCategoryId(key) {
                    errors.append(
                        FieldError(
                            pointer: "/key", code: "invalid_value",
                            message: "must be a category id: 1 to 64 of a-z 0-9 . _ - starting with a letter or digit"))
                }
            } else {
                errors.append(FieldError(pointer: "/key", code: "required", message: "names the category to mute"))
            }
        case .thread:
            if let key {
                // Counted in code points, as the database's check counts.
                if key.isEmpty || key.unicodeScalars.count > Self.maxKeyLength
                    || key.unicodeScalars.contains(where: Self.isControl)
                {
                    errors.append(
                        FieldError(
                            pointer: "/key", code: "invalid_value",
                            message: "must be 1 to \(Self.maxKeyLength) characters without control characters"))
                }
            } else {
                errors.append(FieldError(pointer: "/key", code: "required", message: "names the thread to mute"))
            }
        }
        if let until, until <= now {
            errors.append(FieldError(pointer: "/until", code: "in_the_past", message: "must be in the future"))
        }
        return errors
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
