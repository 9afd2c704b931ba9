import Testing

@testable import HeraldCore

@Suite struct UTF8OrderTests {
    /// Texts that differ in their first, middle or last byte, that are prefixes of each other, that are empty,
    /// small enough to live inline or longer than that, and that hold multi-byte characters (including two
    /// spellings of one accented letter, which Swift's own `<` orders as equal).
    static let texts: [String] = [
        "", "a", "b", "ab", "abc", "abd", "abc\u{0}", "u1", "u10", "u2", "U1", "a_column_name_longer_than_15",
        "a_column_name_longer_than_16", "a_column_name_longer_than_1", "caf\u{E9}", "cafe\u{301}", "café_long_text_ok",
        "ユーザー", "ユーザ", "\u{7F}", "\u{80}", "\u{FFFF}", "😀", "z",
    ]

    @Test func agreesWithTheUTF8ViewsOrderForEveryPair() {
        for a in Self.texts {
            for b in Self.texts {
                #expect(UTF8Order.precedes(a, b) == a.utf8.lexicographicallyPrecedes(b.utf8), "\(a) \(b)")
            }
        }
    }

    @Test func sortsByBytesNotByCanonicalEquivalence() {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed)
        #expect(UTF8Order.precedes(decomposed, composed))
        #expect(!UTF8Order.precedes(composed, decomposed))
        #expect(
            Self.texts.sorted(by: UTF8Order.precedes)
                == Self.texts.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    @Test func aTextDoesNotPrecedeItself() {
        for text in Self.texts { #expect(!UTF8Order.precedes(text, text)) }
    }
}
