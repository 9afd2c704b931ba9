/// A list of text values bound as one PostgreSQL `text[]` parameter (`= ANY($1)`), so a batch of users is loaded
/// in one statement whatever its size.
public struct UserIDArray: PostgresEncodable, Hashable {
    /// The values, in order.
    public let values: [String]

    /// Wraps `values`.
    public init(_ values: [String]) { self.values = values }

    /// An array literal with every element double-quoted and `"` and `\` escaped, so no value can break out.
    public var postgresText: String {
        var text = "{"
        for (index, value) in values.enumerated() {
            if index > 0 { text += "," }
            text += "\""
            for character in value.unicodeScalars {
                if character == "\"" || character == "\\" { text += "\\" }
                text.unicodeScalars.append(character)
            }
            text += "\""
        }
        return text + "}"
    }
}
