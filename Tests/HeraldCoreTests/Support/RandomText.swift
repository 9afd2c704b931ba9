/// Generators of awkward text: combining marks, emoji with skin tones and ZWJ sequences, flags, RTL, CJK,
/// controls, quotes and backslashes — everything that breaks naive truncation or escaping.
enum RandomText {
    static let pieces: [String] = [
        "a", "Z", " ", "\"", "\\", "\n", "\t", "\u{0}", "\u{7}", "\u{1B}", "é", "e\u{301}", "ż", "ß", "€", "中", "文",
        "日本", "한", "ا", "ש", "\u{200F}", "👍", "👍🏽", "👩‍👩‍👧‍👦", "🇵🇱", "🏳️‍🌈", "🐢", "\u{FE0F}", "…", "<", "&", "'",
        "क्षि", "ก็", "\u{2028}", "\u{FEFF}", "𝄞", "Ω", "ﷺ",
    ]

    static func string(length: Int, using generator: inout SeededGenerator) -> String {
        var text = ""
        for _ in 0..<length { text += pieces.randomElement(using: &generator)! }
        return text
    }
}
