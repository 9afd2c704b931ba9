import Foundation
import HeraldHTTP
import HeraldPostgres
import Testing

@testable import HeraldService

@Suite("Devices")
struct DevicesAPITests {
    @Test("Registering creates the user if needed; re-registering rotates the token in place")
    func rotation() throws {
        let clock = ManualClock()
        let service = try TestService.make(clock: clock.function)
        defer { service.close() }
        let first = service.registerAPNs("install-1", user: "u1", token: SampleTokens.apns(1).uppercased())
        #expect(first.status == .created)
        #expect(first.json[string: "token"] == SampleTokens.apns(1))
        #expect(first.json["active"] == .bool(true))
        #expect(service.send(.get, "/v1/users/u1").status == .ok)
        clock.advance(10)
        let rotated = service.registerAPNs("install-1", user: "u1", token: SampleTokens.apns(2))
        #expect(rotated.status == .ok)
        #expect(rotated.json[string: "token"] == SampleTokens.apns(2))
        #expect(rotated.json["created_at"] == first.json["created_at"])
        #expect(rotated.json["last_registered_at"] != first.json["last_registered_at"])
        #expect(try service.count("SELECT count(*) FROM devices") == 1)
    }

    @Test("One token, one owner: a token registered by another installation or user moves")
    func moving() throws {
        let service = try TestService.make()
        defer { service.close() }
        let token = SampleTokens.apns(42)
        service.registerAPNs("old-install", user: "u1", token: token)
        #expect(service.registerAPNs("new-install", user: "u2", token: token).status == .created)
        #expect(service.send(.get, "/v1/devices/old-install").status == .notFound)
        #expect(service.send(.get, "/v1/users/u1").json[array: "devices"].isEmpty)
        #expect(
            try service.sql("SELECT cause FROM device_deactivations WHERE installation_id = 'old-install'").single()
                .string(0) == "token_moved")
        // The same installation signed in as someone else belongs to the new user.
        #expect(service.registerAPNs("new-install", user: "u3", token: token).status == .ok)
        #expect(service.send(.get, "/v1/users/u2").json[array: "devices"].isEmpty)
        let devices = service.send(.get, "/v1/users/u3").json[array: "devices"]
        #expect(devices.compactMap { $0[string: "installation_id"] } == ["new-install"])
        let active = try service.context.pool.withConnectionBlocking { connection in
            try DeviceRepository.activeDevices(userIds: ["u1", "u2", "u3"], on: connection)
        }
        #expect(active.mapValues { $0.map(\.installationId) } == ["u3": ["new-install"]])
    }

    @Test("Sign-out removes the device at once and records why")
    func signOut() throws {
        let service = try TestService.make()
        defer { service.close() }
        service.registerAPNs("phone", user: "u1", token: SampleTokens.apns(5))
        #expect(service.send(.delete, "/v1/devices/phone").status == .noContent)
        #expect(service.send(.get, "/v1/devices/phone").status == .notFound)
        #expect(service.send(.delete, "/v1/devices/phone").status == .notFound)
        let active = try service.context.pool.withConnectionBlocking { connection in
            try DeviceRepository.activeDevices(userIds: ["u1"], on: connection)
        }
        #expect(active.isEmpty)
        let record = try service.sql("SELECT cause, user_id, token_sha256 FROM device_deactivations").single()
        #expect(try record.string("cause") == "signed_out")
        #expect(try record.string("user_id") == "u1")
        #expect(try record.string("token_sha256").count == 64)
    }

    @Test("Web Push subscriptions and the other platforms round-trip")
    func platforms() throws {
        let service = try TestService.make()
        defer { service.close() }
        let web = service.send(
            .put, "/v1/devices/browser-1",
            json: #"""
                {"user_id":"u1","platform":"webpush","app_id":"web","locale":"de_DE","app_version":"3.1",
                 "token":{"endpoint":"https://push.example.net/s/abc","p256dh":"\#(SampleTokens.p256dh)",
                          "auth":"\#(SampleTokens.auth)"}}
                """#)
        #expect(web.status == .created)
        #expect(web.json["token"]?[string: "endpoint"] == "https://push.example.net/s/abc")
        #expect(web.json[string: "locale"] == "de-DE")
        let fcm = service.send(
            .put, "/v1/devices/android-1",
            json: #"""
                {"user_id":"u1","platform":"fcm","token":"\#(SampleTokens.fcm(1))","app_id":"proj-1",
                 "app_builds_notifications":true}
                """#)
        #expect(fcm.status == .created)
        #expect(fcm.json["app_builds_notifications"] == .bool(true))
        let sandbox = service.send(
            .put, "/v1/devices/ios-dev",
            json:
                #"{"user_id":"u1","platform":"apns","environment":"sandbox","token":"\#(SampleTokens.apns(3))","#
                + #""app_id":"com.example.app"}"#
        )
        #expect(sandbox.json[string: "environment"] == "sandbox")
    }

    @Test("A browser's PushSubscription.toJSON() registers as it is, expirationTime null or a number")
    func browserSubscription() throws {
        let service = try TestService.make()
        defer { service.close() }
        for (installation, expiration) in [("browser-1", "null"), ("browser-2", "1767225600000")] {
            let response = service.send(
                .put, "/v1/devices/\(installation)",
                json: #"""
                    {"user_id":"u1","platform":"webpush","app_id":"web",
                     "token":{"endpoint":"https://push.example.net/s/\#(installation)","expirationTime":\#(expiration),
                              "keys":{"p256dh":"\#(SampleTokens.p256dh)","auth":"\#(SampleTokens.auth)"}}}
                    """#)
            #expect(response.status == .created, "\(response.bodyText)")
            #expect(response.json["token"]?[string: "endpoint"] == "https://push.example.net/s/\(installation)")
            #expect(response.json["token"]?[string: "p256dh"] == SampleTokens.p256dh)
            #expect(response.json["token"]?[string: "auth"] == SampleTokens.auth)
        }
    }

    @Test(
        "A malformed browser subscription is 422 naming the member under keys",
        arguments: [
            (#""keys":{"p256dh":"AAAA","auth":"\#(SampleTokens.auth)"}"#, "/token/keys/p256dh"),
            (#""keys":{"p256dh":"\#(SampleTokens.p256dh)","auth":"short"}"#, "/token/keys/auth"),
            (#""keys":{"p256dh":"\#(SampleTokens.p256dh)"}"#, "/token/keys/auth"),
            (#""keys":"\#(SampleTokens.p256dh)""#, "/token/keys"),
            (
                #""expirationTime":"soon","keys":{"p256dh":"\#(SampleTokens.p256dh)","auth":"\#(SampleTokens.auth)"}"#,
                "/token/expirationTime"
            ),
        ])
    func browserSubscriptionValidation(members: String, pointer: String) throws {
        let service = try TestService.make()
        defer { service.close() }
        let response = service.send(
            .put, "/v1/devices/d1",
            json:
                #"{"user_id":"u1","platform":"webpush","app_id":"w","token":{"endpoint":"https://push.example.net/x",\#(members)}}"#
        )
        #expect(response.status == .unprocessableContent, "\(members)")
        let pointers =
            response.json[array: "errors"].compactMap { $0[string: "pointer"] }
            + [response.json[string: "pointer"]]
            .compactMap { $0 }
        #expect(pointers.contains(pointer), "\(members): \(response.bodyText)")
    }

    @Test(
        "Malformed registrations are 422 naming the member",
        arguments: [
            (#""platform":"apns","token":"not-hex","app_id":"com.x""#, "/token"),
            (#""platform":"apns","token":"abc","app_id":"com.x""#, "/token"),
            (#""platform":"fcm","token":"tiny","app_id":"p""#, "/token"),
            (#""platform":"webpush","token":"https://push.example.net/x","app_id":"w""#, "/token"),
            (
                #""platform":"webpush","token":{"endpoint":"http://push.example.net/x","#
                    + #""p256dh":"\#(SampleTokens.p256dh)","auth":"\#(SampleTokens.auth)"},"app_id":"w""#,
                "/token/endpoint"
            ),
            (
                #""platform":"webpush","token":{"endpoint":"https://push.example.net/x","p256dh":"AAAA","#
                    + #""auth":"\#(SampleTokens.auth)"},"app_id":"w""#,
                "/token/p256dh"
            ),
            (#""platform":"webpush","token":{"endpoint":"https://push.example.net/x"},"app_id":"w""#, "/token/p256dh"),
            (#""platform":"wns","token":"https://example.com/channel","app_id":"w""#, "/token"),
            (#""platform":"ios","token":"abc","app_id":"com.x""#, "/platform"),
            (
                #""platform":"fcm","environment":"sandbox","token":"\#(SampleTokens.fcm(2))","app_id":"p""#,
                "/environment"
            ),
            (#""platform":"apns","token":"\#(SampleTokens.apns(1))","app_id":"com.x","locale":"?""#, "/locale"),
            (#""platform":"apns","token":"\#(SampleTokens.apns(1))","app_id":"com x""#, "/app_id"),
            (#""platform":"apns","token":"\#(SampleTokens.apns(1))""#, "/app_id"),
            (#""platform":"apns","token":7,"app_id":"com.x""#, "/token"),
        ])
    func validation(members: String, pointer: String) throws {
        let service = try TestService.make()
        defer { service.close() }
        let response = service.send(.put, "/v1/devices/d1", json: #"{"user_id":"u1",\#(members)}"#)
        #expect(response.status == .unprocessableContent, "\(members)")
        let pointers = response.json[array: "errors"].compactMap { $0[string: "pointer"] }
        #expect(pointers.contains(pointer), "\(members): \(response.bodyText)")
        #expect(service.send(.get, "/v1/devices/d1").status == .notFound)
    }

    @Test("A missing or malformed user id is 422")
    func userId() throws {
        let service = try TestService.make()
        defer { service.close() }
        let token = SampleTokens.apns(1)
        for body in [
            #"{"platform":"apns","token":"\#(token)","app_id":"com.x"}"#,
            #"{"user_id":"a b","platform":"apns","token":"\#(token)","app_id":"com.x"}"#,
        ] {
            let response = service.send(.put, "/v1/devices/d1", json: body)
            #expect(response.status == .unprocessableContent)
            #expect(response.json["pointer"] == .string("/user_id"))
        }
    }
}
