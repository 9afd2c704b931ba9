/// Shrinks notification text until a serialized payload fits its platform limit.
///
/// The body is cut first, then the title, always at a grapheme-cluster boundary, with an ellipsis; the payload is
/// rebuilt by the caller's closure each time, so the measured size is exactly the size sent and the result is
/// always well-formed.
public enum TextFitting {
    /// The mark appended to cut text.
    public static let ellipsis = "\u{2026}"

    /// The first `count` grapheme clusters of `text`, trailing whitespace removed, plus an ellipsis.
    public static func truncated(_ characters: [Character], keeping count: Int) -> String {
        var prefix = String(characters.prefix(count))
        while let last = prefix.last, last.isWhitespace { prefix.removeLast() }
        return prefix + ellipsis
    }

    /// The payload built from the longest title and body that fit in `limit` bytes, or `nil` when even no text
    /// does not fit.
    public static func fit(
        title: String?, body: String?, limit: Int, build: (_ title: String?, _ body: String?) -> [UInt8]
    ) -> [UInt8]? {
        let full = build(title, body)
        if full.count <= limit { return full }
        if let body {
            let characters = Array(body)
            if let bytes = longestFitting(characters, limit: limit, build: { build(title, $0) }) {
                return bytes
            }
        }
        if let title {
            let characters = Array(title)
            if let bytes = longestFitting(characters, limit: limit, build: { build($0, nil) }) {
                return bytes
            }
        }
        let bare = build(nil, nil)
        return bare.count <= limit ? bare : nil
    }

    private static func longestFitting(
        _ characters: [Character], limit: Int, build: (String) -> [UInt8]
    ) -> [UInt8]? {
        // Cut by the measured overflow first (usually one build), then fall back to a binary search, which is
        // exact because the size grows with the number of clusters kept.
        var kept = characters.count
        var bytes = build(truncated(characters, keeping: kept))
        for _ in 0..<4 where kept > 0 {
            var excess = bytes.count - limit
            if excess <= 0 { return bytes }
            while excess > 0, kept > 0 {
                kept -= 1
                // The UTF-8 size is a lower bound of the escaped size; the next build measures the truth.
                excess -= characters[kept].utf8.count
            }
            bytes = build(truncated(characters, keeping: kept))
        }
        if bytes.count <= limit { return bytes }
        var best: [UInt8]? = nil
        var low = 0
        var high = kept - 1
        while low <= high {
            let middle = (low + high) / 2
            let bytes = build(truncated(characters, keeping: middle))
            if bytes.count <= limit {
                best = bytes
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return best
    }
}
