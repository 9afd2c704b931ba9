import Foundation
import Testing

@testable import HeraldCore

@Suite struct WebPushPayloadTests {
    @Test(arguments: [
        (APNsPayloadTests.content(), "high"), (APNsPayloadTests.content(priority: .normal), "normal"),
        (APNsPayloadTests.content(silenced: true), "low"), (APNsPayloadTests.content(.withdraw), "normal"),
        (APNsPayloadTests.content(.badge), "low"),
    ])
    func urgency(content: PushContent, expected: String) {
        #expect(WebPushPayload.headers(for: content)["Urgency"] == expected)
    }

    @Test func alertHeadersAndBody() {
        let content = APNsPayloadTests.content()
        let headers = WebPushPayload.headers(for: content)
        #expect(headers["TTL"] == "86400")
        // "msg:42" has a colon, outside the URL-safe alphabet, so the topic is hashed.
        #expect(headers["Topic"] == CollapseIdentifier.webPushTopic(for: "msg:42"))
        #expect(headers["Topic"]?.count == 32)
        let body = Fixture.parse(WebPushPayload.body(for: content)!)!
        #expect(body["tag"] as? String == "msg:42")
        #expect(body["title"] as? String == "Asha" && body["badge"] as? Int == 3)
    }

    @Test func withdrawReplacesByTheSameTopic() {
        let headers = WebPushPayload.headers(for: APNsPayloadTests.content(.withdraw))
        #expect(headers["Topic"] == CollapseIdentifier.webPushTopic(for: "msg:43"))
    }

    @Test(arguments: [
        ("abc_DEF-123", "abc_DEF-123"), (String(repeating: "a", count: 32), String(repeating: "a", count: 32)),
    ])
    func topicsThatAlreadyQualifyAreKept(id: String, topic: String) {
        #expect(CollapseIdentifier.webPushTopic(for: id) == topic)
    }

    @Test(arguments: ["msg:42", String(repeating: "a", count: 33), "ż", "a b", "a+b/c="])
    func otherTopicsAreHashedIntoTheAlphabet(id: String) {
        let topic = CollapseIdentifier.webPushTopic(for: id)
        #expect(topic.count == 32)
        #expect(topic.utf8.allSatisfy(CollapseIdentifier.isURLSafeBase64))
        #expect(topic != id)
    }

    @Test(arguments: [
        ("short", "short"), (String(repeating: "x", count: 64), String(repeating: "x", count: 64)),
    ])
    func apnsCollapseIdsUpToSixtyFourBytesAreKept(key: String, id: String) {
        #expect(CollapseIdentifier.apns(for: key) == id)
    }

    @Test func longerApnsCollapseIdsAreHashedToSixtyFourBytes() {
        let key = String(repeating: "ą", count: 33)  // 66 bytes
        let id = CollapseIdentifier.apns(for: key)
        #expect(id.utf8.count == 64 && id.hasPrefix("h-"))
        #expect(id != CollapseIdentifier.apns(for: key + "x"))
    }
}

@Suite struct WNSPayloadTests {
    @Test func toastEscapesTextAndSetsATagButNoGroup() {
        var content = APNsPayloadTests.content()
        content.body = "a < b & \"c\" \u{1}"
        let headers = WNSPayload.headers(for: content)
        #expect(headers["X-WNS-Type"] == "wns/toast" && headers["Content-Type"] == "text/xml")
        #expect(headers["X-WNS-Tag"] == CollapseIdentifier.wnsTag(for: "msg:42"))
        // A group from the thread would keep the burst's digest (no thread) from replacing this toast.
        #expect(headers["X-WNS-Group"] == nil)
        #expect(headers["X-WNS-TTL"] == "86400")
        let xml = String(decoding: WNSPayload.body(for: content)!, as: UTF8.self)
        #expect(xml.contains("<text>a &lt; b &amp; &quot;c&quot;  </text>"))
        #expect(xml.hasPrefix("<toast launch=\"0123456789abcdef0123456789abcdef\">"))
    }

    @Test func withdrawIsRawJSONNamingWNSTags() {
        let content = APNsPayloadTests.content(.withdraw)
        #expect(WNSPayload.headers(for: content)["X-WNS-Type"] == "wns/raw")
        let body = Fixture.parse(WNSPayload.body(for: content)!)!
        #expect(body["withdraw"] as? [String] == ["msg:42", "msg:43"].map(CollapseIdentifier.wnsTag(for:)))
    }

    @Test func badgeOnlyIsABadgeNotification() {
        let content = APNsPayloadTests.content(.badge)
        #expect(WNSPayload.headers(for: content)["X-WNS-Type"] == "wns/badge")
        #expect(String(decoding: WNSPayload.body(for: content)!, as: UTF8.self) == #"<badge value="3"/>"#)
    }

    @Test(arguments: ["abc123", "msg:42", String(repeating: "a", count: 17)])
    func tagsAreAtMostSixteenAlphanumerics(id: String) {
        let tag = CollapseIdentifier.wnsTag(for: id)
        #expect(tag.count <= 16 && tag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }
}
