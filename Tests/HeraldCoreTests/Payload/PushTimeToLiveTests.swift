import Foundation
import Testing

@testable import HeraldCore

/// A push handed out after it was built says how long it has left, not how long it had.
@Suite struct PushTimeToLiveTests {
    let now = Date(timeIntervalSince1970: 1_796_130_000)

    @Test func theSecondsLeftAreWholeAndAtLeastOne() {
        #expect(PushTimeToLive.seconds(until: now.addingTimeInterval(600.9), at: now) == 600)
        #expect(PushTimeToLive.seconds(until: now.addingTimeInterval(0.2), at: now) == 1)
    }

    @Test func webPushAndWNSHeadersAreCut() {
        let webPush = PushTimeToLive.handedOut(
            platform: .webpush, headers: #"{"TTL":"3600","Urgency":"high"}"#, body: "{}",
            expiresAt: now.addingTimeInterval(600), now: now)
        #expect(webPush.headers == #"{"TTL":"600","Urgency":"high"}"#)
        let wns = PushTimeToLive.handedOut(
            platform: .wns, headers: #"{"X-WNS-TTL":"3600","X-WNS-Type":"wns/toast"}"#, body: "<toast/>",
            expiresAt: now.addingTimeInterval(600), now: now)
        #expect(wns.headers == #"{"X-WNS-TTL":"600","X-WNS-Type":"wns/toast"}"#)
        #expect(wns.body == "<toast/>")
    }

    @Test func theFCMBodyIsCutAndOtherwiseTheSameBytes() throws {
        let body = String(
            decoding: try #require(FCMPayload.body(for: APNsPayloadTests.content(), token: "tok")), as: UTF8.self)
        #expect(body.contains(#""ttl":"86400s""#))
        let fresh = PushTimeToLive.handedOut(
            platform: .fcm, headers: "{}", body: body, expiresAt: now.addingTimeInterval(86_400), now: now)
        #expect(fresh.body == body)
        let late = PushTimeToLive.handedOut(
            platform: .fcm, headers: "{}", body: body, expiresAt: now.addingTimeInterval(600), now: now)
        #expect(late.body == body.replacingOccurrences(of: #""ttl":"86400s""#, with: #""ttl":"600s""#))
    }

    @Test func nothingIsRaisedAndAPNsIsLeftAlone() {
        let headers = #"{"TTL":"60"}"#
        #expect(
            PushTimeToLive.handedOut(
                platform: .webpush, headers: headers, body: "{}", expiresAt: now.addingTimeInterval(600), now: now
            ).headers == headers)
        let apns = #"{"apns-expiration":"1796130600"}"#
        #expect(
            PushTimeToLive.handedOut(
                platform: .apns, headers: apns, body: "{}", expiresAt: now.addingTimeInterval(60), now: now
            ).headers == apns)
    }
}
