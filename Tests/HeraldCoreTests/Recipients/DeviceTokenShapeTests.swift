import Foundation
import HeraldCore
import Testing

@Suite("Device token shapes")
struct DeviceTokenShapeTests {
    static let apnsToken = String(repeating: "a1B2", count: 16)
    static let fcmToken = "dQw4w9WgXcQ:APA91bH" + String(repeating: "x-_Y", count: 30)
    static let p256dh = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
    static let auth = "tBHItJI5svbpez7KI4CCXg"

    @Test(
        "Accepted tokens come back canonical",
        arguments: [
            (Device.Platform.apns, apnsToken, apnsToken.lowercased()),
            (.fcm, fcmToken, fcmToken),
            (.webpush, "https://fcm.googleapis.com/fcm/send/abc:def", "https://fcm.googleapis.com/fcm/send/abc:def"),
            (.wns, "https://db5.notify.windows.com/?token=AwYAAAB", "https://db5.notify.windows.com/?token=AwYAAAB"),
        ])
    func accepted(platform: Device.Platform, token: String, canonical: String) {
        #expect(DeviceTokenShape.canonical(token, platform: platform) == .valid(canonical))
    }

    @Test(
        "Malformed tokens are rejected with a pointer",
        arguments: [
            (Device.Platform.apns, "xyz", ""),
            (.apns, String(repeating: "a", count: 63), ""),  // odd length
            (.apns, String(repeating: "g", count: 64), ""),  // not hex
            (.apns, "https://example.com/push", ""),
            (.fcm, "short", ""),
            (.fcm, String(repeating: "a", count: 40) + " space", ""),
            (.webpush, "http://push.example.com/abc", "/endpoint"),
            (.webpush, "https://", "/endpoint"),
            (.webpush, "https://user:pw@push.example.com/abc", "/endpoint"),
            (.webpush, "https://push.example.com/a b", "/endpoint"),
            (.wns, "https://example.com/?token=1", ""),
            (.wns, "https://evilnotify.windows.com/x", ""),
        ])
    func rejected(platform: Device.Platform, token: String, pointer: String) {
        guard case .invalid(let error) = DeviceTokenShape.canonical(token, platform: platform) else {
            Issue.record("\(platform) \(token) was accepted")
            return
        }
        #expect(error.pointer == pointer)
        #expect(error.code == "invalid_token")
    }

    @Test("Web Push keys: a 65-byte uncompressed point and a 16-byte secret, padded or not")
    func webPushKeys() {
        #expect(DeviceTokenShape.webPushKeyErrors(p256dh: Self.p256dh, auth: Self.auth).isEmpty)
        #expect(DeviceTokenShape.webPushKeyErrors(p256dh: Self.p256dh + "=", auth: Self.auth + "==").isEmpty)
        let wrong = DeviceTokenShape.webPushKeyErrors(p256dh: Self.auth, auth: Self.p256dh)
        #expect(wrong.map(\.pointer) == ["/p256dh", "/auth"])
        #expect(DeviceTokenShape.webPushKeyErrors(p256dh: "not base64!", auth: "%%").count == 2)
    }

    @Test("Tokens are stored and compared as registration canonicalises them: APNs hex in lowercase, others as given")
    func storedForm() {
        #expect(DeviceTokenShape.storedForm("AbCd", platform: .apns) == "abcd")
        #expect(DeviceTokenShape.storedForm("AbCd:X", platform: .fcm) == "AbCd:X")
        let hex = String(repeating: "A1", count: 32)
        #expect(
            DeviceTokenShape.canonical(hex, platform: .apns)
                == .valid(DeviceTokenShape.storedForm(hex, platform: .apns)))
    }
}
