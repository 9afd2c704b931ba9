/// The bounds a category's fields must respect, in one place so validation and documentation agree.
public enum CategoryRules {
    /// FCM's maximum TTL (28 days); APNs stores for at most 30 days.
    public static let ttlSeconds = 1...2_419_200
    public static let collapseWindowSeconds = 1...86_400
    public static let rateLimitCount = 1...10_000
    public static let rateLimitWindowSeconds = 1...604_800
    /// Characters (grapheme clusters), as people count them in any script.
    public static let nameLength = 1...200
    public static let descriptionMaxLength = 2_000
    /// Bytes (UTF-8), so that no character carrying thousands of combining marks makes a name or description huge;
    /// 16 a character, room for any script's clusters.
    public static let nameMaxBytes = 3_200
    public static let descriptionMaxBytes = 32_000
    public static let templateMaxLength = 4_000
    public static let apnsCategoryMaxBytes = 64
    public static let androidChannelMaxBytes = 100

    /// Whether `id` is a category slug: `^[a-z0-9][a-z0-9._-]{0,63}$`.
    public static func isSlug(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard let first = bytes.first, bytes.count <= 64, isLowerAlnum(first) else { return false }
        return bytes.dropFirst().allSatisfy {
            isLowerAlnum($0) || $0 == UInt8(ascii: ".") || $0 == 0x5F || $0 == 0x2D
        }
    }

    private static func isLowerAlnum(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
    }

    /// Whether `tag` has the shape of a BCP 47 tag (`en`, `pt-BR`, `zh-Hant-TW`); whether ICU knows it is a
    /// separate question answered by a `TemplateSyntaxChecker`.
    public static func isLocaleTag(_ tag: String) -> Bool {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = subtags.first, (2...3).contains(language.count),
            language.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return subtags.dropFirst().allSatisfy { subtag in
            (1...8).contains(subtag.count)
                && subtag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
