import Foundation
import Testing

/// A client token acts for its own user only: against the real binary, user A's token aimed at user B's ids
/// changes nothing of B's, a deleted user is never re-created through `/v1/me`, and only the app's backend moves an
/// installation between users.
@Suite("/v1/me cannot reach another user's objects (binary end to end)", .serialized)
struct MeOwnershipEndToEndTests {
    static let apnsToken = String(repeating: "ab", count: 32)

    static func deviceBody(user: String? = nil) -> String {
        let owner = user.map { #""user_id":"\#($0)","# } ?? ""
        return #"{\#(owner)"platform":"apns","token":"\#(apnsToken)","app_id":"com.example.chat"}"#
    }

    static func json(_ reply: RunningHerald.Reply) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(reply.body.utf8))) as? [String: Any] ?? [:]
    }

    func clientToken(_ herald: RunningHerald, user: String) async throws -> String {
        let minted = try await herald.post("/v1/users/\(user)/client-tokens", json: "{}", key: herald.adminKey)
        #expect(minted.status == 201 || minted.status == 200)
        return try #require(Self.json(minted)["token"] as? String)
    }

    @Test func aTokenOfOneUserChangesNothingOfAnother() async throws {
        let herald = try RunningHerald.start()
        defer { herald.kill() }
        _ = try await herald.waitUntilReady()
        let admin = herald.adminKey
        for user in ["ana", "bo"] {
            #expect(try await herald.request("PUT", "/v1/users/\(user)", json: "{}", key: admin).status < 300)
        }
        let registered = try await herald.request(
            "PUT", "/v1/devices/phone-bo", json: Self.deviceBody(user: "bo"), key: admin)
        #expect(registered.status == 201)
        let mute = try await herald.post(
            "/v1/users/bo/mutes", json: #"{"scope":"thread","key":"conv-1"}"#, key: admin)
        let muteId = try #require(Self.json(mute)["id"] as? String)
        let ana = try await clientToken(herald, user: "ana")

        // Bo's installation: registering it with Ana's token is a conflict of its own type; removing it is a 404.
        let taken = try await herald.request("PUT", "/v1/me/devices/phone-bo", json: Self.deviceBody(), key: ana)
        #expect(taken.status == 409)
        #expect((Self.json(taken)["type"] as? String)?.hasSuffix("installation-of-another-user") == true)
        #expect(try await herald.request("DELETE", "/v1/me/devices/phone-bo", key: ana).status == 404)
        // Nor is Bo's push token: a new installation of Ana's with it is a conflict too, and Bo keeps his phone.
        let stolen = try await herald.request("PUT", "/v1/me/devices/phone-ana", json: Self.deviceBody(), key: ana)
        #expect(stolen.status == 409)
        #expect((Self.json(stolen)["type"] as? String)?.hasSuffix("token-of-another-user") == true)
        #expect(try await herald.get("/v1/devices/phone-ana", key: admin).status == 404)
        // A token moves between Ana's own installations (a reinstall).
        let otherToken = #"{"platform":"apns","token":"\#(String(repeating: "cd", count: 32))","app_id":"com.x"}"#
        #expect(try await herald.request("PUT", "/v1/me/devices/ana-old", json: otherToken, key: ana).status == 201)
        #expect(try await herald.request("PUT", "/v1/me/devices/ana-new", json: otherToken, key: ana).status == 201)
        #expect(try await herald.get("/v1/devices/ana-old", key: admin).status == 404)
        // Bo's mute is not Ana's to delete.
        #expect(try await herald.request("DELETE", "/v1/me/mutes/\(muteId)", key: ana).status == 404)

        let device = Self.json(try await herald.get("/v1/devices/phone-bo", key: admin))
        #expect(device["user_id"] as? String == "bo")
        #expect(device["active"] as? Bool == true)
        let mutes = try await herald.get("/v1/users/bo/mutes", key: admin)
        #expect(mutes.body.contains(muteId))

        // The app's backend moves the installation after a sign-in on the same phone.
        let moved = try await herald.request(
            "PUT", "/v1/devices/phone-bo", json: Self.deviceBody(user: "ana"), key: admin)
        #expect(moved.status == 200)
        #expect(Self.json(try await herald.get("/v1/devices/phone-bo", key: admin))["user_id"] as? String == "ana")
        // Now it is Ana's own, so her app may refresh it.
        #expect(
            try await herald.request("PUT", "/v1/me/devices/phone-bo", json: Self.deviceBody(), key: ana).status
                == 200)
    }

    @Test func aDeletedUserIsNotRecreatedThroughTheirToken() async throws {
        let herald = try RunningHerald.start()
        defer { herald.kill() }
        _ = try await herald.waitUntilReady()
        let admin = herald.adminKey
        #expect(try await herald.request("PUT", "/v1/users/cy", json: "{}", key: admin).status < 300)
        let cy = try await clientToken(herald, user: "cy")
        #expect(try await herald.request("DELETE", "/v1/users/cy", key: admin).status == 204)

        // The token stopped working with its user: it neither registers a device nor re-creates the user.
        let registered = try await herald.request(
            "PUT", "/v1/me/devices/phone-cy", json: Self.deviceBody(), key: cy)
        #expect(registered.status == 401)
        #expect(try await herald.get("/v1/me/feed", key: cy).status == 401)
        #expect(try await herald.get("/v1/users/cy", key: admin).status == 404)
        #expect(try await herald.get("/v1/devices/phone-cy", key: admin).status == 404)

        // A new user under the same id does not revive the old token; a token minted for the new one works.
        #expect(try await herald.request("PUT", "/v1/users/cy", json: "{}", key: admin).status == 201)
        #expect(try await herald.get("/v1/me/feed", key: cy).status == 401)
        let again = try await clientToken(herald, user: "cy")
        #expect(try await herald.get("/v1/me/feed", key: again).status == 200)
        #expect(
            try await herald.request("PUT", "/v1/me/devices/phone-cy", json: Self.deviceBody(), key: again).status
                < 300)
    }
}
