import Testing

@testable import HeraldCore

/// The identifiers are the first 16 bytes of SHA-256 over their parts joined by NUL. The expected values were
/// computed with another SHA-256 implementation; any change to them would give a reprocessed event new ids, and
/// the queue could then no longer refuse its duplicates.
@Suite struct NotificationIdentityTests {
    @Test func aNotificationIdHashesItsEventAndUser() {
        #expect(
            NotificationIdentity.notificationId(eventId: "evt-1", userId: "u1") == "5d57ac63986779a6d1e190cf2894322f")
        #expect(
            NotificationIdentity.notificationId(eventId: "événement", userId: "ユーザー")
                == "c84b20980e450dfb14398c8bdaa3d926")
    }

    @Test func aDigestIdHashesItsUserKeyAndLastEvent() {
        #expect(
            NotificationIdentity.digestId(userId: "u1", key: "comments:42", lastEventId: "e9")
                == "0173815acc5ec232a4da3b90baf7ef5f")
    }

    @Test func aBackgroundIdHashesItsUserDeviceAndSeed() {
        #expect(
            NotificationIdentity.backgroundId(userId: "u1", installationId: "inst-1", seed: "seed")
                == "e6ad93353c859c15beee777dd43502e9")
        #expect(
            NotificationIdentity.backgroundId(userId: "", installationId: "", seed: "")
                == "91ce314c0a497422917fd072edfe96ee")
    }

    /// The separator keeps parts apart: moving a byte from one part to the next gives another id.
    @Test func partsAreSeparated() {
        #expect(
            NotificationIdentity.notificationId(eventId: "ab", userId: "c")
                != NotificationIdentity.notificationId(eventId: "a", userId: "bc"))
    }
}
