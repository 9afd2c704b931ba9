import Foundation
import HeraldCore
import HeraldHTTP
import Testing

@testable import HeraldService

@Suite("Client tokens and the preference center", .serialized)
struct MePreferenceCenterTests {
    let start = Date(timeIntervalSince1970: 1_796_130_000)

    func prepared() async throws -> PipelineHarness {
        let harness = try await PipelineHarness.make(start: start)
        try await harness.category(PipelineHarness.chatCategory())
        try await harness.user("u1")
        try await harness.user("u2")
        try await harness.device("phone-1", user: "u1")
        try await harness.device("phone-2", user: "u2")
        return harness
    }

    @Test func theBackendMintsATokenThatExpiresAndCannotBeBent() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        let minted = await harness.send(.post, "/v1/users/u1/client-tokens", json: #"{"ttl_seconds":120}"#)
        #expect(minted.status == .created)
        #expect(minted.headers["Cache-Control"] == "no-store")
        guard case .string(let token)? = minted.json["token"] else {
            Issue.record("no token")
            return
        }
        #expect(minted.json["user_id"] == .string("u1"))
        #expect(await harness.sendAsClient("u1", .get, "/v1/me/feed", token: token).status == .ok)
        #expect(await harness.sendAsClient("u1", .get, "/v1/users/u1", token: token).status == .forbidden)
        #expect(await harness.sendAsClient("u1", .post, "/v1/events", json: "[]", token: token).status == .forbidden)
        let tampered = String(token.dropLast()) + (token.hasSuffix("A") ? "B" : "A")
        #expect(await harness.sendAsClient("u1", .get, "/v1/me/feed", token: tampered).status == .unauthorized)
        harness.clock.advance(121)
        #expect(await harness.sendAsClient("u1", .get, "/v1/me/feed", token: token).status == .unauthorized)

        #expect(await harness.send(.post, "/v1/users/ghost/client-tokens").status == .notFound)
        let tooLong = await harness.send(.post, "/v1/users/u1/client-tokens", json: #"{"ttl_seconds":999999}"#)
        #expect(tooLong.status == .unprocessableContent)
        // The user is the path's; a body naming another is refused rather than quietly ignored.
        let stray = await harness.send(.post, "/v1/users/u1/client-tokens", json: #"{"user_id":"u2"}"#)
        #expect(stray.status == .unprocessableContent)
        #expect(stray.json["pointer"] == .string("/user_id"))
        let defaulted = await harness.send(.post, "/v1/users/u1/client-tokens")
        #expect(defaulted.status == .created)
    }

    @Test func preferencesMutesAndQuietHoursGoThroughTheServerRules() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        let set = await harness.sendAsClient(
            "u1", .put, "/v1/me/preferences/chat.message", json: #"{"setting":"off"}"#)
        #expect(set.status == .ok)
        let serverView = await harness.send(.get, "/v1/users/u1/preferences")
        #expect(serverView.json["items"].map { "\($0)" }?.contains("off") == true)
        let bad = await harness.sendAsClient("u1", .put, "/v1/me/preferences/chat.message", json: #"{"setting":"x"}"#)
        #expect(bad.status == .unprocessableContent)
        #expect(await harness.sendAsClient("u1", .get, "/v1/me/preferences").status == .ok)
        #expect(await harness.sendAsClient("u1", .delete, "/v1/me/preferences/chat.message").status == .noContent)

        let mute = await harness.sendAsClient("u1", .post, "/v1/me/mutes", json: #"{"scope":"thread","key":"t1"}"#)
        #expect(mute.status == .created)
        #expect(mute.headers["Location"]?.hasPrefix("/v1/me/mutes/") == true)
        guard case .string(let muteId)? = mute.json["id"] else { return }
        #expect(await harness.sendAsClient("u2", .delete, "/v1/me/mutes/\(muteId)").status == .notFound)
        #expect(await harness.sendAsClient("u2", .get, "/v1/me/mutes").json["items"] == .array([]))
        #expect(await harness.sendAsClient("u1", .delete, "/v1/me/mutes/\(muteId)").status == .noContent)

        let noZone = await harness.sendAsClient(
            "u1", .put, "/v1/me/quiet-hours", json: #"{"quiet_hours":{"start":"22:00","end":"07:00"}}"#)
        #expect(noZone.status == .unprocessableContent)
        let quiet = await harness.sendAsClient(
            "u1", .put, "/v1/me/quiet-hours",
            json: #"{"quiet_hours":{"start":"22:00","end":"07:00"},"time_zone":"Europe/Berlin"}"#)
        #expect(quiet.status == .ok)
        #expect(quiet.json["quiet_hours"]?["start"] == .string("22:00"))
        #expect(quiet.json["locale"] == .string("en"), "the rest of the profile is kept")
        // Without `quiet_hours` the request says nothing of them: refused, and they stay.
        let unsaid = await harness.sendAsClient(
            "u1", .put, "/v1/me/quiet-hours", json: #"{"time_zone":"Europe/Paris"}"#)
        #expect(unsaid.status == .unprocessableContent)
        #expect(unsaid.json["pointer"] == .string("/quiet_hours"))
        let cleared = await harness.sendAsClient("u1", .put, "/v1/me/quiet-hours", json: #"{"quiet_hours":null}"#)
        #expect(cleared.json["quiet_hours"] == .null)
        #expect(cleared.json["time_zone"] == .string("Europe/Berlin"))
    }

    @Test func devicesBelongToTheTokenUser() async throws {
        let harness = try await prepared()
        defer { harness.close() }
        let token = String(repeating: "cd", count: 32)
        let body = #"{"platform":"apns","token":"\#(token)","app_id":"com.example.app"}"#
        let created = await harness.sendAsClient("u1", .put, "/v1/me/devices/tablet-1", json: body)
        #expect(created.status == .created)
        #expect(created.json["user_id"] == .string("u1"))
        let spoofed = #"{"user_id":"u2","platform":"apns","token":"\#(token)","app_id":"com.example.app"}"#
        #expect(
            await harness.sendAsClient("u1", .put, "/v1/me/devices/tablet-1", json: spoofed).status
                == .unprocessableContent)
        #expect(await harness.sendAsClient("u1", .delete, "/v1/me/devices/phone-2").status == .notFound)
        #expect(
            try await harness.count("SELECT count(*) FROM devices WHERE installation_id = 'phone-2' AND active") == 1)
        #expect(await harness.sendAsClient("u1", .delete, "/v1/me/devices/tablet-1").status == .noContent)
    }
}
