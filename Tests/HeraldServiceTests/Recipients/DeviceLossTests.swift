import Foundation
import HeraldHTTP
import Testing

@testable import HeraldService

/// Once a device is gone — signed out, its user deleted, its token moved, or reported dead — nothing queued for it
/// may still be claimed.
@Suite("Queued deliveries follow their device")
struct DeviceLossTests {
    /// Puts one queued and one leased delivery on `installation` of `user`.
    static func queue(_ service: TestService, user: String, installation: String) throws {
        let now = service.now
        for (id, state, lease) in [("q-\(installation)", "queued", nil), ("l-\(installation)", "leased", now)] {
            try service.sql(
                """
                INSERT INTO deliveries (id, user_id, installation_id, platform, environment, token, kind, headers,
                    body, priority, created_at, available_at, expires_at, state, leased_until)
                VALUES ($1, $2, $3, 'apns', 'production', 't', 'alert', '{}', '{}', 10, $4, $4, $5, $6, $7)
                """, [id, user, installation, now, now.addingTimeInterval(3_600), state, lease])
        }
    }

    func remaining(_ service: TestService, _ installation: String) throws -> [String] {
        try service.sql(
            "SELECT state FROM deliveries WHERE installation_id = '\(installation)' ORDER BY state"
        ).map { try $0.string(0) }
    }

    @Test("Sign-out drops the queued delivery and leaves the leased one to its sender")
    func signOut() throws {
        let service = try TestService.make()
        defer { service.close() }
        #expect(service.registerAPNs("phone-1", user: "ana", token: SampleTokens.apns(1)).status.rawValue < 300)
        try Self.queue(service, user: "ana", installation: "phone-1")
        #expect(service.send(.delete, "/v1/devices/phone-1").status == .noContent)
        #expect(try remaining(service, "phone-1") == ["leased"])
    }

    @Test("The backend moving an installation to another user records the move and drops the old owner's queue")
    func movedToAnotherUser() throws {
        let service = try TestService.make()
        defer { service.close() }
        #expect(service.registerAPNs("phone-3", user: "cy", token: SampleTokens.apns(4)).status == .created)
        try Self.queue(service, user: "cy", installation: "phone-3")
        #expect(service.registerAPNs("phone-3", user: "di", token: SampleTokens.apns(4)).status == .ok)
        #expect(try remaining(service, "phone-3") == ["leased"])
        #expect(
            try service.count(
                "SELECT count(*) FROM device_deactivations WHERE installation_id = 'phone-3' AND user_id = 'cy'"
                    + " AND cause = 'user_changed'") == 1)
        #expect(
            try service.count("SELECT count(*) FROM devices WHERE installation_id = 'phone-3' AND user_id = 'di'") == 1)
    }

    @Test("Deleting the user drops the queued deliveries of all its devices and its timers")
    func userDeleted() throws {
        let service = try TestService.make()
        defer { service.close() }
        service.registerAPNs("phone-2", user: "bo", token: SampleTokens.apns(2))
        service.registerAPNs("tablet-2", user: "bo", token: SampleTokens.apns(3))
        try Self.queue(service, user: "bo", installation: "phone-2")
        try Self.queue(service, user: "bo", installation: "tablet-2")
        try service.sql("INSERT INTO categories (id, document) VALUES ('c', '{\"id\":\"c\"}')")
        try service.sql(
            "INSERT INTO timers (user_id, key, category_id, due_at) VALUES ('bo', 'k', 'c', $1)", [service.now])
        #expect(service.send(.delete, "/v1/users/bo").status == .noContent)
        #expect(try remaining(service, "phone-2") == ["leased"])
        #expect(try remaining(service, "tablet-2") == ["leased"])
        #expect(try service.count("SELECT count(*) FROM timers WHERE user_id = 'bo'") == 0)
    }

    @Test("A token moving to another installation drops what was queued for the old one")
    func tokenMoves() throws {
        let service = try TestService.make()
        defer { service.close() }
        service.registerAPNs("old-phone", user: "cy", token: SampleTokens.apns(4))
        try Self.queue(service, user: "cy", installation: "old-phone")
        #expect(service.registerAPNs("new-phone", user: "cy", token: SampleTokens.apns(4)).status.rawValue < 300)
        #expect(try remaining(service, "old-phone") == ["leased"])
    }
}
