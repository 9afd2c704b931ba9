import Foundation
import Testing

@testable import HeraldCore

/// An event's ciphertext: base64 in bounded sizes, one for every device or one per installation, refused where the
/// app does not run first, and stored and read back with the event.
@Suite struct CiphertextTests {
    @Test(arguments: [
        ("QUJD", true), ("QUI=", true), ("QQ==", true), ("QUI", true), ("QQ", true), ("a+/b", true), ("a-_b", true),
        ("", false), ("Q", false), ("QUJDQ", false), ("QUI==", false), ("Q===", false), ("=", false),
        ("a+_b", false), ("QU=D", false), ("QU D", false), ("QUJD\n", false), ("ąęść", false),
    ])
    func base64Is(_ text: String, valid: Bool) {
        #expect(Ciphertext.isBase64(text) == valid)
    }

    @Test func problemsNameTheMemberAndTheRuleNeverTheContent() {
        let secret = "bm90IGJhc2U2NA*"
        let errors = Ciphertext.perInstallation([
            "ios": secret, "web": String(repeating: "QUJD", count: Ciphertext.maxBytes / 4 + 1), "a/b": "QUJD",
            "ok": "QUJD",
        ]).validate()
        #expect(errors.map(\.pointer) == ["/ciphertext/a~1b", "/ciphertext/ios", "/ciphertext/web"])
        #expect(errors.map(\.code) == ["invalid_format", "invalid_format", "invalid_length"])
        #expect(errors.allSatisfy { !$0.description.contains(secret) && !$0.description.contains("QUJD") })
        #expect(Ciphertext.shared(secret).validate().map(\.pointer) == ["/ciphertext"])
        #expect(Ciphertext.shared("QUJD").validate().isEmpty)
    }

    @Test func aMapIsBoundedInEntriesAndInAll() {
        #expect(Ciphertext.perInstallation([:]).validate().map(\.code) == ["invalid_length"])
        let many = Dictionary(uniqueKeysWithValues: (0...Ciphertext.maxInstallations).map { ("d\($0)", "QUJD") })
        #expect(Ciphertext.perInstallation(many).validate().map(\.code) == ["too_many"])
        let large = String(repeating: "QUJD", count: Ciphertext.maxBytes / 4)
        let heavy = Dictionary(uniqueKeysWithValues: (0..<9).map { ("d\($0)", large) })
        #expect(Ciphertext.perInstallation(heavy).validate().map(\.pointer) == ["/ciphertext"])
    }

    @Test func onlyAppAndCombinedCategoriesCarryIt() {
        #expect(Ciphertext.admission(in: Fixture.category(mode: .app)) == nil)
        #expect(Ciphertext.admission(in: Fixture.category(mode: .combined)) == nil)
        let refusal = Ciphertext.admission(in: Fixture.category(mode: .system))
        #expect(refusal?.pointer == "/ciphertext" && refusal?.code == "not_allowed")
    }

    @Test func anEventValidatesItsCiphertext() {
        var event = Fixture.event()
        event.ciphertext = .perInstallation(["ios": "*"])
        #expect(event.validate().map(\.pointer) == ["/ciphertext/ios"])
    }

    @Test(arguments: [Ciphertext.shared("QUJD"), .perInstallation(["ios": "aW9z", "web": "d2Vi"])])
    func theStoredEventKeepsItsCiphertext(_ ciphertext: Ciphertext) throws {
        var event = Fixture.event()
        event.ciphertext = ciphertext
        let stored = try #require(EventDocument.decode(Array(EventDocument.encode(event).utf8)))
        #expect(stored.ciphertext == ciphertext)
        #expect(stored == event)
    }

    @Test func aStoredCiphertextOfAnotherShapeMakesTheEventUndecodable() {
        let base = #"{"id":"e","source":"s","category":"c","occurred_at":"2026-12-01T09:00:00Z","recipients":{},"#
        #expect(EventDocument.decode(Array((base + #""data":{},"ciphertext":null}"#).utf8))?.ciphertext == nil)
        #expect(EventDocument.decode(Array((base + #""data":{},"ciphertext":{"ios":1}}"#).utf8)) == nil)
        #expect(EventDocument.decode(Array((base + #""data":{},"ciphertext":[]}"#).utf8)) == nil)
    }
}
