/// One decoded `name=value` pair of a request's query string.
public struct QueryItem: Sendable, Hashable {
    /// The decoded name.
    public var name: String
    /// The decoded value; empty when the item had no `=`.
    public var value: String

    /// Creates a query item.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Decodes a raw query string (without `?`) into items; `+` means space, and a malformed escape is kept literally
    /// because query values are validated by the handler that reads them.
    public static func parse(_ rawQuery: Substring) -> [QueryItem] {
        var items: [QueryItem] = []
        for part in rawQuery.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentDecoding.decodeLeniently(pieces[0], plusAsSpace: true)
            let value =
                pieces.count > 1 ? PercentDecoding.decodeLeniently(pieces[1], plusAsSpace: true) : ""
            items.append(QueryItem(name: name, value: value))
        }
        return items
    }
}
