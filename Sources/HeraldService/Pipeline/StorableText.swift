/// Whether text can be stored: PostgreSQL refuses U+0000 in text values, so identifiers carrying it are refused at
/// the edge (as a 422 or a 404) instead of failing in the database.
enum StorableText {
    /// Whether `text` holds no U+0000.
    static func isStorable(_ text: String) -> Bool { !text.utf8.contains(0) }
}
