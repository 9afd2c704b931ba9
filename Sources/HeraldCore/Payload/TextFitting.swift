/// Shrinks notification text until a serialized payload fits its platform limit.
///
/// The body is cut first, then the title, always at a grapheme-cluster boundary, with an ellipsis; the payload is
/// rebuilt by the caller's closure each time, so the measured size is exactly the size sent and the result is
/// always well-formed.
public enum TextFitting {
    /// The mark appended to cut text.
    public static let ellipsis = "\u{2026}"

    /// The first `count` grapheme clusters of `text`, trailing whitespace removed, plus an ellipsis.
    public static func truncated(_ text: String, keeping count: Int) -> String {
        truncated(Clusters(text), keeping: count)
    }

    /// A text with the start index of every grapheme cluster, so any prefix is an O(1) slice.
    struct Clusters {
        let text: String
        /// Start of each cluster, then `text.endIndex`.
        let boundaries: [String.Index]

        init(_ text: String) {
            self.text = text
            self.boundaries = Array(text.indices) + [text.endIndex]
        }

        var count: Int { boundaries.count - 1 }

        func prefix(_ count: Int) -> Substring { text[..<boundaries[count]] }

        /// UTF-8 bytes of the cluster at `position`.
        func width(at position: Int) -> Int {
            text.utf8.distance(from: boundaries[position], to: boundaries[position + 1])
        }
    }

    static func truncated(_ clusters: Clusters, keeping count: Int) -> String {
        var prefix = clusters.prefix(count)
        while let last = prefix.last, last.isWhitespace { prefix.removeLast() }
        return String(prefix) + ellipsis
    }

    /// The payload built from the longest title and body that fit in `limit` bytes, or `nil` when even no text
    /// does not fit.
    public static func fit(
        title: String?, body: String?, limit: Int, build: (_ title: String?, _ body: String?) -> [UInt8]
    ) -> [UInt8]? {
        let full = build(title, body)
        if full.count <= limit { return full }
        if let body, let bytes = longestFitting(Clusters(body), limit: limit, build: { build(title, $0) }) {
            return bytes
        }
        if let title, let bytes = longestFitting(Clusters(title), limit: limit, build: { build($0, nil) }) {
            return bytes
        }
        let bare = build(nil, nil)
        return bare.count <= limit ? bare : nil
    }

    private static func longestFitting(_ clusters: Clusters, limit: Int, build: (String) -> [UInt8]) -> [UInt8]? {
        // Cut by the measured overflow first (usually one or two builds). A cluster's UTF-8 size is at most what
        // removing it frees (escaping only adds), so each cut frees at least the overflow and may free more: the
        // first cut that fits can be short. A binary search between it and the last count that did not fit then
        // finds the longest, exactly, since the size grows with the number of clusters kept.
        var tooLong = clusters.count + 1
        var kept = clusters.count
        var bytes = build(truncated(clusters, keeping: kept))
        for _ in 0..<4 where kept > 0 && bytes.count > limit {
            tooLong = kept
            var excess = bytes.count - limit
            while excess > 0, kept > 0 {
                kept -= 1
                excess -= clusters.width(at: kept)
            }
            bytes = build(truncated(clusters, keeping: kept))
        }
        var best: [UInt8]? = nil
        var low = 0
        var high = kept - 1
        if bytes.count <= limit {
            best = bytes
            low = kept + 1
            high = tooLong - 1
        }
        while low <= high {
            let middle = (low + high) / 2
            let candidate = build(truncated(clusters, keeping: middle))
            if candidate.count <= limit {
                best = candidate
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return best
    }
}
