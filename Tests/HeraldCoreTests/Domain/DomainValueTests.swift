import Foundation
import Testing

@testable import HeraldCore

@Suite struct KeyTemplateTests {
    @Test(arguments: [
        ("msg:{thread_id}", "msg:42"), ("{category}/{actor}", "chat.message/sender"), ("static", "static"),
        ("order:{data.order_id}", "order:A-7"), ("{data.count}x", "3x"),
    ])
    func renders(template: String, key: String) throws {
        var event = Fixture.event()
        event.data = ["order_id": .string("A-7"), "count": .int(3)]
        #expect(try KeyTemplate(template).render(for: event) == key)
    }

    @Test func aMissingFieldMeansNoKey() throws {
        #expect(try KeyTemplate("msg:{thread_id}").render(for: Fixture.event(thread: nil)) == nil)
        #expect(try KeyTemplate("{data.nope}").render(for: Fixture.event()) == nil)
    }

    @Test(arguments: [
        ("", 0), ("a{", 1), ("a}", 1), ("{a{b}}", 2), ("x{thread}", 1), ("{data.}", 0), ("{data.a b}", 0),
    ])
    func rejects(template: String, offset: Int) {
        #expect(throws: KeyTemplate.ParseError.self) { try KeyTemplate(template) }
        do {
            _ = try KeyTemplate(template)
        } catch {
            #expect(error.offset == offset)
        }
    }
}

@Suite struct PreferenceAndMuteTests {
    @Test(arguments: [
        (
            false, PreferenceSetting?.none, PreferenceSetting.on, PreferenceSetting.on,
            EffectivePreference.Source.categoryDefault
        ),
        (false, .off, .on, .off, .user), (false, .digest, .off, .digest, .user),
        (false, nil, .off, .off, .categoryDefault),
        (true, .off, .off, .on, .required), (true, .digest, .on, .on, .required),
    ])
    func effectivePreference(
        required: Bool, user: PreferenceSetting?, fallback: PreferenceSetting, setting: PreferenceSetting,
        source: EffectivePreference.Source
    ) {
        let category = Fixture.category(required: required, defaultPreference: fallback)
        #expect(
            EffectivePreference.resolve(category: category, userSetting: user)
                == .init(setting: setting, source: source))
    }

    @Test(arguments: [
        (Mute(id: "m", scope: .all), true), (Mute(id: "m", scope: .all, until: Fixture.now), false),
        (Mute(id: "m", scope: .all, until: Fixture.now + 1), true),
        (Mute(id: "m", scope: .category, key: "chat.message"), true),
        (Mute(id: "m", scope: .category, key: "other"), false), (Mute(id: "m", scope: .thread, key: "42"), true),
        (Mute(id: "m", scope: .thread, key: "43"), false),
    ])
    func muteApplies(mute: Mute, applies: Bool) {
        #expect(mute.applies(category: "chat.message", thread: "42", at: Fixture.now) == applies)
    }

    @Test func aThreadMuteNeverMatchesAnEventWithoutThread() {
        #expect(!Mute(id: "m", scope: .thread, key: "42").applies(category: "c", thread: nil, at: Fixture.now))
    }
}

@Suite struct LocaleFallbackTests {
    @Test(arguments: [
        ("pt-BR", "fr", "en", ["pt-BR", "fr", "pt", "en"]), (nil, "pl-PL", "en", ["pl-PL", "pl", "en"]),
        ("en-GB", "en-GB", "en", ["en-GB", "en"]), (nil, nil, "de", ["de"]),
        ("zh-Hant-TW", nil, "en", ["zh-Hant-TW", "zh-Hant", "en"]), ("sr-Latn", nil, "en", ["sr-Latn", "en"]),
        ("es-419", "pt_BR", "en", ["es-419", "pt_BR", "es", "pt", "en"]),
    ])
    func chain(device: String?, user: String?, fallback: String, expected: [String]) {
        #expect(LocaleFallback.chain(deviceLocale: device, userLocale: user, defaultLocale: fallback) == expected)
    }

    @Test(
        arguments: [
            ("en-US", "en"), ("EN-us", "EN"), ("zh_Hant_TW", "zh-Hant"), ("zh-Hant-419", "zh-Hant"),
            ("es-419", "es"), ("de-DE-1996", "de"), ("x-zz", "x"), ("en--US", "en"), ("-en-US", "en"), ("en-US-", "en"),
            // Tags that name no region the rule knows: nothing to drop.
            ("en", nil), ("", nil), ("-", nil), ("sr-Latn", nil), ("zh-Hant", nil), ("es-41", nil), ("en-USA", nil),
            ("zh-Han1-TW", nil), ("en-1A", nil), ("a-Z1", nil),
            // BCP 47 subtags are ASCII: a letter or digit of another script is neither a region nor a script.
            ("é-FR", "é"), ("en-ÉU", nil), ("sr-Ćyrl-RS", nil), ("ar-٣٣٣", nil), ("sr-Latn-ÉU", nil),
        ] as [(String, String?)])
    func languageDropsTheRegion(tag: String, expected: String?) {
        #expect(LocaleFallback.language(of: tag) == expected)
    }

    @Test func resolvesCaseInsensitively() {
        let templates = ["pt-BR": Fixture.englishTemplates]
        #expect(LocaleFallback.resolve(["pt-br"], in: templates)?.locale == "pt-BR")
        #expect(LocaleFallback.resolve(["xx"], in: templates) == nil)
    }
}

@Suite struct WireFormatTests {
    @Test func categoryDecodesWithDefaultsAndRoundTrips() throws {
        let json = #"""
            {"id":"chat.message","name":"Chat","delivery_mode":"combined","interruption_level":"time-sensitive",
             "quiet_hours":"silent","collapse":{"key_template":"msg:{thread_id}","window_seconds":120},
             "rate_limit":{"count":5,"window_seconds":60},"templates":{"en":{"body":"Hi","fallback_body":"New"}}}
            """#
        let category = try JSONDecoder().decode(HeraldCore.Category.self, from: Data(json.utf8))
        #expect(category.deliveryMode == .combined && category.interruptionLevel == .timeSensitive)
        #expect(category.quietHours == .silent && category.ttlSeconds == 86_400 && category.defaultPreference == .on)
        #expect(category.collapse == .init(keyTemplate: "msg:{thread_id}", windowSeconds: 120))
        #expect(category.templates["en"]?.fallbackBody == "New")
        // A document stored before the member existed counts toward the user-wide budget, as every category did.
        #expect(category.countsTowardUserRateLimit)
        let again = try JSONDecoder().decode(HeraldCore.Category.self, from: JSONEncoder().encode(category))
        #expect(again == category)
        var exempt = category
        exempt.countsTowardUserRateLimit = false
        let encoded = try JSONEncoder().encode(exempt)
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""counts_toward_user_rate_limit":false"#))
        #expect(try JSONDecoder().decode(HeraldCore.Category.self, from: encoded) == exempt)
    }

    @Test func eventDecodesSnakeCase() throws {
        let json = #"""
            {"id":"e1","category":"chat.message","recipients":{"user_ids":["u1"],"topic":"conversation:42"},
             "actor":"u9","actor_name":"Asha","thread_id":"42","item_id":"m1","data":{"n":1},"occurred_at":0}
            """#
        let event = try JSONDecoder().decode(Event.self, from: Data(json.utf8))
        #expect(event.recipients.topic == "conversation:42" && event.threadId == "42" && event.data["n"] == .int(1))
        #expect(event.validate().isEmpty)
    }

    @Test(arguments: [
        (Event(id: "", category: "c", recipients: .init(userIds: ["u"]), occurredAt: Fixture.now), "/id"),
        (Event(id: "e", category: "Bad Id", recipients: .init(userIds: ["u"]), occurredAt: Fixture.now), "/category"),
        (Event(id: "e", category: "c", recipients: .init(), occurredAt: Fixture.now), "/recipients"),
        (
            Event(
                id: "e", category: "c", recipients: .init(userIds: ["u"]), threadId: String(repeating: "t", count: 129),
                occurredAt: Fixture.now),
            "/thread_id"
        ),
        (
            Event(id: "e", category: "c", recipients: .init(userIds: ["u", ""]), occurredAt: Fixture.now),
            "/recipients/user_ids/1"
        ),
        // A topic follows the subscriptions' rule: no subscriber could ever be found for this one.
        (
            Event(id: "e", category: "c", recipients: .init(topic: "news/uk"), occurredAt: Fixture.now),
            "/recipients/topic"
        ),
    ])
    func eventValidation(event: Event, pointer: String) {
        #expect(event.validate().map(\.pointer) == [pointer])
    }

    @Test func anEventMayNameAnyTopicASubscriptionCanHave() {
        let longest = String(repeating: "t", count: OpaqueIdentifier.maxTopicLength)
        let event = Event(id: "e", category: "c", recipients: .init(topic: longest), occurredAt: Fixture.now)
        #expect(event.validate().isEmpty)
    }

    @Test func decisionAndDeliveryEncodeForStorage() throws {
        let result = Fixture.decider().decide(
            event: Fixture.event(), category: Fixture.category(), recipients: ["u1"], states: ["u1": Fixture.state()],
            now: Fixture.now)
        let decision =
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(result.decisions[0])) as? [String: Any]
        #expect(decision?["outcome"] as? String == "delivered" && decision?["event_id"] as? String == "e1")
        let delivery = result.deliveries[0]
        let decoded = try JSONDecoder().decode(Delivery.self, from: JSONEncoder().encode(delivery))
        #expect(decoded == delivery)
    }
}

@Suite("A stored category's preference terms")
struct CategoryPreferenceTermsTests {
    @Test(
        "Members left out, or holding nothing the rules know, take a new category's defaults",
        arguments: [
            (String?.none, String?.none, PreferenceSetting.on, false),
            ("off", "true", .off, true),
            ("digest", "false", .digest, false),
            ("sometimes", "yes", .on, false),
        ])
    func terms(defaultPreference: String?, required: String?, setting: PreferenceSetting, isRequired: Bool) {
        let terms = HeraldCore.Category.preferenceTerms(defaultPreference: defaultPreference, required: required)
        #expect(terms.defaultPreference == setting)
        #expect(terms.required == isRequired)
        let fresh = HeraldCore.Category(id: "c", name: "c")
        #expect(
            HeraldCore.Category.preferenceTerms(defaultPreference: nil, required: nil) == (
                fresh.defaultPreference, fresh.required
            ))
    }
}
