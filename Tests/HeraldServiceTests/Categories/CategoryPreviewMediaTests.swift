import Foundation
import HeraldHTTP
import Testing

@testable import HeraldService

/// The preview shows where each platform carries an event's image and link, and says when the image had to go.
@Suite("Categories: preview of images and links")
struct CategoryPreviewMediaTests {
    static let media = #""image_url":"https://img.example/p/1.jpg","link":"https://chat.example/t/42""#

    static func payload(_ service: TestService, platform: String, extra: String = media) -> JSONValue? {
        let response = CategoryPreviewTests.preview(
            service, #"{"platform":"\#(platform)","app_builds_notifications":false,\#(extra)}"#)
        #expect(response.status == .ok, "\(response.bodyText)")
        return response.json["payload"]
    }

    @Test("Each platform's payload carries the image and the link where that platform reads them")
    func everyPlatform() throws {
        let service = try TestService.make(clock: { CategoryPreviewTests.now })
        defer { service.close() }
        service.createChat()
        let apns = try #require(Self.payload(service, platform: "apns"))
        #expect(apns.at("body_json", "img")?.stringValue == "https://img.example/p/1.jpg")
        #expect(apns.at("body_json", "link")?.stringValue == "https://chat.example/t/42")
        #expect(apns.at("body_json", "aps", "mutable-content")?.intValue == 1)
        let fcm = try #require(Self.payload(service, platform: "fcm")?.at("body_json", "message"))
        #expect(fcm.at("notification", "image")?.stringValue == "https://img.example/p/1.jpg")
        #expect(fcm.at("apns", "fcm_options", "image")?.stringValue == "https://img.example/p/1.jpg")
        #expect(fcm.at("data", "link")?.stringValue == "https://chat.example/t/42")
        #expect(fcm.at("webpush", "fcm_options", "link")?.stringValue == "https://chat.example/t/42")
        let web = try #require(Self.payload(service, platform: "webpush"))
        #expect(web.at("body_json", "image")?.stringValue == "https://img.example/p/1.jpg")
        #expect(web.at("body_json", "data", "url")?.stringValue == "https://chat.example/t/42")
        let wns = try #require(Self.payload(service, platform: "wns")?["body"]?.stringValue)
        #expect(wns.contains(#"<toast activationType="protocol" launch="https://chat.example/t/42">"#))
        #expect(wns.contains(#"<image src="https://img.example/p/1.jpg"/>"#))
    }

    @Test("An image that does not fit is left out, and the preview's detail says so")
    func droppedImage() throws {
        let service = try TestService.make(clock: { CategoryPreviewTests.now })
        defer { service.close() }
        service.createChat()
        let image = "https://img.example/" + String(repeating: "p", count: 1_000)
        let text = String(repeating: "long text ", count: 330)
        let response = CategoryPreviewTests.preview(
            service, #"{"platform":"apns","image_url":"\#(image)","data":{"preview":"\#(text)"}}"#)
        #expect(response.status == .ok, "\(response.bodyText)")
        #expect(response.json["detail"]?.stringValue == "image_dropped")
        #expect(response.json.at("payload", "body_json", "img") == nil)
    }

    @Test("An image or link that is not an allowed address is a 422 naming the field")
    func invalid() throws {
        let service = try TestService.make(clock: { CategoryPreviewTests.now })
        defer { service.close() }
        service.createChat()
        let response = CategoryPreviewTests.preview(
            service, #"{"image_url":"http://img.example/1.jpg","link":"javascript:alert(1)"}"#)
        #expect(response.status == .unprocessableContent, "\(response.bodyText)")
        let pointers = response.json["errors"]?.arrayValue.compactMap { $0["pointer"]?.stringValue }
        #expect(pointers == ["/image_url", "/link"])
    }
}
