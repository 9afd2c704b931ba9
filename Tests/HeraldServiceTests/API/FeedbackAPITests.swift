import Foundation
import HeraldCore
import HeraldHTTP
import Testing

@testable import HeraldService

@Suite("Dead-token feedback")
struct FeedbackAPITests {
    static func outcomes(_ response: HTTPResponse) -> [String] {
        response.json[array: "results"].compactMap { $0[string: "outcome"] }
    }

    @Test("A permanent failure deactivates the device and records the reason; a transient one changes nothing")
    func deactivation() throws {
        let clock = ManualClock()
        let service = try TestService.make(clock: clock.function)
        defer { service.close() }
        service.registerAPNs("phone", user: "u1", token: SampleTokens.apns(1))
        clock.advance(60)
        let transient = service.send(
            .post, "/v1/feedback", json: #"{"installation_id":"phone","reason":"ServiceUnavailable"}"#)
        #expect(transient.status == .ok)
        #expect(Self.outcomes(transient) == ["ignored_transient"])
        let dead = service.send(.post, "/v1/feedback", json: #"{"installation_id":"phone","reason":"Unregistered"}"#)
        #expect(Self.outcomes(dead) == ["deactivated"])
        #expect(dead.json[array: "results"].first?[string: "installation_id"] == "phone")
        let device = service.send(.get, "/v1/devices/phone")
        #expect(device.json["active"] == .bool(false))
        #expect(device.json[string: "deactivation_reason"] == "Unregistered")
        let record = try service.sql("SELECT cause, reason, failed_at IS NOT NULL AS timed FROM device_deactivations")
            .single()
        #expect(try record.string("cause") == "feedback")
        #expect(try record.string("reason") == "Unregistered")
        #expect(try record.bool("timed"))
        let again = service.send(.post, "/v1/feedback", json: #"{"installation_id":"phone","reason":"Unregistered"}"#)
        #expect(Self.outcomes(again) == ["already_inactive"])
        #expect(try service.count("SELECT count(*) FROM device_deactivations") == 1)
        // Registering again brings the device back.
        clock.advance(60)
        #expect(service.registerAPNs("phone", user: "u1", token: SampleTokens.apns(1)).json["active"] == .bool(true))
    }

    @Test("A device re-registered after the failure instant stays active (APNs 410 timestamp semantics)")
    func reregistrationRace() throws {
        let clock = ManualClock()
        let service = try TestService.make(clock: clock.function)
        defer { service.close() }
        let token = SampleTokens.apns(9)
        service.registerAPNs("phone", user: "u1", token: token)
        let failedAt = clock.now.addingTimeInterval(5)
        clock.advance(10)
        service.registerAPNs("phone", user: "u1", token: token)  // the app registered again after the 410
        clock.advance(10)
        let milliseconds = Int(failedAt.timeIntervalSince1970 * 1000)
        let stale = service.send(
            .post, "/v1/feedback",
            json: #"{"token":"\#(token)","platform":"apns","reason":"Unregistered","at":\#(milliseconds)}"#)
        #expect(Self.outcomes(stale) == ["ignored_reregistered"])
        #expect(service.send(.get, "/v1/devices/phone").json["active"] == .bool(true))
        let fresh = service.send(
            .post, "/v1/feedback",
            json:
                #"{"token":"\#(token)","platform":"apns","reason":"Unregistered","#
                + #""at":"\#(ISO8601.format(clock.now))"}"#
        )
        #expect(Self.outcomes(fresh) == ["deactivated"])
        #expect(service.send(.get, "/v1/devices/phone").json["active"] == .bool(false))
    }

    @Test("gorush's feedback hook format, single and batched, with unknown devices and platforms")
    func gorush() throws {
        let service = try TestService.make()
        defer { service.close() }
        service.registerAPNs("iphone", user: "u1", token: SampleTokens.apns(3))
        #expect(
            service.send(
                .put, "/v1/devices/pixel",
                json: #"{"user_id":"u1","platform":"fcm","token":"\#(SampleTokens.fcm(4))","app_id":"proj"}"#
            ).status == .created)
        let ios = service.send(
            .post, "/v1/feedback",
            json: #"""
                {"notif_id":"n-1","type":"failed-push","platform":"ios","token":"\#(SampleTokens.apns(3).uppercased())",
                 "message":"hello","error":"Unregistered"}
                """#)
        #expect(ios.status == .ok)
        #expect(Self.outcomes(ios) == ["deactivated"])
        let batch = service.send(
            .post, "/v1/feedback",
            json: #"""
                [{"type":"failed-push","platform":"android","token":"\#(SampleTokens.fcm(4))",
                  "error":"Requested entity was not found."},
                 {"type":"failed-push","platform":"huawei","token":"abc","error":"whatever"},
                 {"type":"failed-push","platform":"android","token":"unknown-token",
                  "error":"Requested entity was not found."},
                 {"installation_id":"nobody","reason":"410"}]
                """#)
        #expect(Self.outcomes(batch) == ["deactivated", "unsupported_platform", "unknown_device", "unknown_device"])
        #expect(service.send(.get, "/v1/devices/pixel").json["active"] == .bool(false))
    }

    @Test(
        "Malformed reports are 422 naming the member",
        arguments: [
            (#"{"installation_id":"phone"}"#, "/reason"),
            (#"{"reason":"Unregistered"}"#, "/installation_id"),
            (#"{"installation_id":"phone","token":"ab","platform":"apns","reason":"x"}"#, "/token"),
            (#"{"token":"ab","reason":"Unregistered"}"#, "/platform"),
            (#"{"token":"ab","platform":"blackberry","reason":"Unregistered"}"#, "/platform"),
            (#"{"installation_id":"phone","reason":"x","at":"yesterday"}"#, "/at"),
            (#"[{"installation_id":"phone","reason":"x"},{"reason":"x"}]"#, "/1/installation_id"),
            (#"{"type":"failed-push","token":"ab","error":"Unregistered"}"#, "/platform"),
            ("[]", ""),
        ])
    func validation(body: String, pointer: String) throws {
        let service = try TestService.make()
        defer { service.close() }
        let response = service.send(.post, "/v1/feedback", json: body)
        #expect(response.status == .unprocessableContent, "\(body)")
        let pointers = response.json[array: "errors"].compactMap { $0[string: "pointer"] }
        #expect(pointers.contains(pointer), "\(body): \(response.bodyText)")
    }
}
