import HeraldText
import Testing

@Suite("Plural rules")
struct PluralRulesTests {
    static let cardinal: [(String, Double, PluralCategory)] = [
        ("en", 0, .other), ("en", 1, .one), ("en", 2, .other), ("en", 1.5, .other),
        ("ar", 0, .zero), ("ar", 1, .one), ("ar", 2, .two), ("ar", 3, .few), ("ar", 11, .many), ("ar", 100, .other),
        ("pl", 1, .one), ("pl", 2, .few), ("pl", 5, .many), ("pl", 22, .few), ("pl", 1.5, .other),
        ("pl", 0, .many), ("pl", 12, .many),
        ("ru", 1, .one), ("ru", 2, .few), ("ru", 5, .many), ("ru", 11, .many), ("ru", 21, .one), ("ru", 1.5, .other),
        ("ja", 0, .other), ("ja", 1, .other), ("ja", 2, .other), ("ja", 1.5, .other),
        ("cy", 0, .zero), ("cy", 1, .one), ("cy", 2, .two), ("cy", 3, .few), ("cy", 6, .many), ("cy", 4, .other),
    ]

    @Test("cardinal category", arguments: cardinal)
    func cardinalCategory(locale: String, number: Double, expected: PluralCategory) throws {
        let rules = try #require(PluralRules(locale: try LocaleTag(locale)))
        #expect(rules.category(for: number) == expected)
    }

    static let categorySets: [(String, [PluralCategory])] = [
        ("en", [.one, .other]),
        ("ar", [.zero, .one, .two, .few, .many, .other]),
        ("pl", [.one, .few, .many, .other]),
        ("ru", [.one, .few, .many, .other]),
        ("ja", [.other]),
        ("cy", [.zero, .one, .two, .few, .many, .other]),
    ]

    @Test("categories a locale has, in CLDR order", arguments: categorySets)
    func categories(locale: String, expected: [PluralCategory]) throws {
        let rules = try #require(PluralRules(locale: try LocaleTag(locale)))
        #expect(rules.categories == expected)
    }

    @Test(
        "ordinal rules",
        arguments: [
            (1, PluralCategory.one), (2, .two), (3, .few), (4, .other), (11, .other),
            (12, .other), (13, .other), (21, .one), (22, .two), (101, .one),
        ])
    func ordinal(number: Int, expected: PluralCategory) throws {
        let rules = try #require(PluralRules(locale: try LocaleTag("en"), kind: .ordinal))
        #expect(rules.category(for: number) == expected)
        #expect(rules.categories == [.one, .two, .few, .other])
    }

    @Test func categoriesAreOrderedAsCLDR() {
        #expect(PluralCategory.allCases.sorted() == [.zero, .one, .two, .few, .many, .other])
    }

    @Test func sharedRulesGiveTheSameAnswersFromManyTasks() async throws {
        let rules = try #require(PluralRules(locale: try LocaleTag("ru")))
        let expected = (0..<200).map { rules.category(for: $0) }
        let results = await withTaskGroup(of: [PluralCategory].self) { group in
            for _ in 0..<8 { group.addTask { (0..<200).map { rules.category(for: $0) } } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == expected })
    }
}
