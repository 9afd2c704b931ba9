import Foundation
import Synchronization
import Testing

@testable import HeraldText

@Suite("Template cache")
struct TemplateCacheTests {
    static let digest = "{count, plural, one {# new message} other {# new messages}} from {sender}"
    static let timed = "{when, time, short}: {count, plural, one {# event} other {# events}}"
    static let instant = Date(timeIntervalSince1970: 1_710_511_500)

    struct Job: Sendable {
        let pattern: String
        let locale: String
        let zone: String
        let count: Int
    }

    /// Patterns without arguments or quoting print unchanged, exactly as ICU prints them after an empty argument.
    @Test(arguments: ["New message", "", "Café # 100% | <b> — ok", "Ünïcödé 🎉 \"quoted\"", "a\u{2028}b"])
    func literalPatternsFormatToThemselvesAsICUDoes(_ pattern: String) throws {
        let cache = TemplateCache()
        let literal = try cache.format(pattern: pattern, locale: "en", timeZone: "UTC", values: [:])
        let throughICU = try cache.format(
            pattern: pattern + "{x}", locale: "en", timeZone: "UTC", values: ["x": .string("")])
        #expect(literal == pattern)
        #expect(literal == throughICU)
        #expect(throws: MessageFormatError.self) {
            try cache.format(pattern: pattern, locale: "not a locale", timeZone: "UTC", values: [:])
        }
    }

    static func jobs() -> [Job] {
        var jobs: [Job] = []
        for count in 0..<30 {
            jobs.append(Job(pattern: digest, locale: "en", zone: "UTC", count: count))
            jobs.append(Job(pattern: digest, locale: "ar", zone: "UTC", count: count))
            jobs.append(Job(pattern: timed, locale: "en", zone: "Europe/Berlin", count: count))
            jobs.append(Job(pattern: timed, locale: "en", zone: "America/New_York", count: count))
        }
        return jobs
    }

    static func values(_ job: Job) -> [String: MessageValue] {
        ["count": .int(job.count), "sender": "Ann", "when": .date(instant)]
    }

    /// What each job must produce, from a template compiled just for it.
    static func expected(_ jobs: [Job]) throws -> [String] {
        try jobs.map { job in
            try MessageTemplate.compile(pattern: job.pattern, locale: job.locale)
                .format(values(job), timeZone: job.zone)
        }
    }

    @Test(arguments: [1, 4])
    func manyTasksFormattingAtOnceGetIdenticalResults(handlesPerTemplate: Int) async throws {
        let jobs = Self.jobs()
        let expected = try Self.expected(jobs)
        let cache = TemplateCache(handlesPerTemplate: handlesPerTemplate)
        let results = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<16 {
                group.addTask {
                    var out: [String] = []
                    for _ in 0..<5 {
                        for job in jobs {
                            out.append(
                                try cache.format(
                                    pattern: job.pattern, locale: try LocaleTag(job.locale), timeZone: job.zone,
                                    values: Self.values(job)))
                        }
                    }
                    return out
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let all = Array(repeating: expected, count: 5).flatMap { $0 }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 == all })
        #expect(cache.count == 4)
        #expect(cache.openHandles <= 4 * handlesPerTemplate)
    }

    @Test func threadsSharingOneTemplateGetIdenticalResults() throws {
        let cache = TemplateCache(handlesPerTemplate: 2)
        let locale = try LocaleTag("pl")
        let expected = try (0..<50).map { n in
            try MessageTemplate.compile(pattern: Self.digest, locale: "pl").format(["count": .int(n), "sender": "Ola"])
        }
        let mismatches = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for round in 0..<500 {
                let n = round % 50
                let text = try? cache.format(
                    pattern: Self.digest, locale: locale, timeZone: "Europe/Warsaw",
                    values: ["count": .int(n), "sender": "Ola"])
                if text != expected[n] { mismatches.add(1, ordering: .relaxed) }
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
        #expect(cache.openHandles <= 2)
    }

    @Test func keysIncludeLocaleAndZone() throws {
        let cache = TemplateCache()
        let en = try LocaleTag("en")
        let values: [String: MessageValue] = ["count": 1, "when": .date(Self.instant)]
        let berlin = try cache.format(pattern: Self.timed, locale: en, timeZone: "Europe/Berlin", values: values)
        let tokyo = try cache.format(pattern: Self.timed, locale: en, timeZone: "Asia/Tokyo", values: values)
        #expect(berlin == "3:05\u{202F}PM: 1 event")
        #expect(tokyo == "11:05\u{202F}PM: 1 event")
        _ = try cache.format(pattern: Self.timed, locale: en, timeZone: "Asia/Tokyo", values: values)
        #expect(cache.count == 2)
    }

    @Test func storedLocaleStringsAreParsedOnlyOnAMiss() throws {
        let cache = TemplateCache()
        let values: [String: MessageValue] = ["count": 2, "sender": "Ola"]
        #expect(
            try cache.format(pattern: Self.digest, locale: "pl_PL", timeZone: "UTC", values: values)
                == "2 new messages from Ola")
        #expect(
            try cache.format(pattern: Self.digest, locale: "pl_PL", timeZone: "UTC", values: values)
                == "2 new messages from Ola")
        #expect(
            try cache.template(pattern: Self.digest, locale: try LocaleTag("pl-PL"), timeZone: "UTC").locale
                == LocaleTag("pl-PL"))
        #expect(cache.count == 2)
        let rendered = try cache.render(pattern: Self.digest, locale: "pl-PL", timeZone: "UTC", values: ["count": 5])
        #expect(rendered.missingArguments == ["sender"])
        #expect(cache.count == 2)
        let invalid = #expect(throws: MessageFormatError.self) {
            try cache.format(pattern: Self.digest, locale: "en-", timeZone: "UTC", values: values)
        }
        #expect(invalid?.templateError?.code == .invalidLocale)
    }

    @Test func sizeIsBounded() throws {
        let cache = TemplateCache(capacity: 8)
        let en = try LocaleTag("en")
        for index in 0..<40 {
            let text = try cache.format(pattern: "#\(index) {x}", locale: en, timeZone: "UTC", values: ["x": "y"])
            #expect(text == "#\(index) y")
            #expect(cache.count <= 8)
        }
        // The most recent templates survive eviction.
        let recent = try cache.template(pattern: "#39 {x}", locale: en, timeZone: "UTC")
        #expect(recent.arguments.map(\.name) == ["x"])
        #expect(cache.count <= 8)
        cache.removeAll()
        #expect(cache.count == 0)
    }

    @Test func invalidTemplatesAreReportedAndNotCached() throws {
        let cache = TemplateCache()
        let error = #expect(throws: MessageFormatError.self) {
            try cache.format(pattern: "{n, plural, one {x}}", locale: try LocaleTag("en"), timeZone: "UTC", values: [:])
        }
        #expect(error?.code == .invalidTemplate)
        #expect(error?.templateError?.code == .missingOther)
        #expect(cache.count == 0)
        let unknownLocale = #expect(throws: MessageFormatError.self) {
            try cache.format(pattern: "hi", locale: try LocaleTag("xx"), timeZone: "UTC", values: [:])
        }
        #expect(unknownLocale?.templateError?.code == .unknownLocale)
    }

    @Test func strictAndLenientFormattingThroughTheCache() throws {
        let cache = TemplateCache()
        let en = try LocaleTag("en")
        let error = #expect(throws: MessageFormatError.self) {
            try cache.format(pattern: Self.digest, locale: en, timeZone: "UTC", values: ["count": 3])
        }
        #expect(error?.code == .missingArguments)
        #expect(error?.arguments == ["sender"])
        let rendered = try cache.render(pattern: Self.digest, locale: en, timeZone: "UTC", values: ["count": 3])
        #expect(rendered.text == "3 new messages from {sender}")
        #expect(rendered.missingArguments == ["sender"])
        let template = try MessageTemplate.compile(pattern: Self.digest, locale: en)
        #expect(
            try cache.format(template, timeZone: "UTC", values: ["count": 1, "sender": "Ann"])
                == "1 new message from Ann")
    }
}
