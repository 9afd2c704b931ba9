import Foundation
import Testing

@testable import HeraldCore

/// The direct alert writers must produce exactly the bytes of the documents they replace.
@Suite struct AlertWriterTests {
    /// Random visible content with every optional field present or absent, hostile text included.
    private static func contents(count: Int, seed: UInt64) -> [PushContent] {
        var generator = SeededGenerator(seed: seed)
        var contents: [PushContent] = []
        while contents.count < count {
            var content = RandomContent.make(using: &generator)
            guard content.isVisible else { continue }
            func maybe<T>(_ value: T?) -> T? { Bool.random(using: &generator) ? value : nil }
            content.body = maybe(content.body)
            content.badge = Bool.random(using: &generator) ? content.badge : Int.random(in: -3...3, using: &generator)
            content.apnsCategory = maybe(content.apnsCategory)
            content.androidChannelId = maybe(content.androidChannelId)
            content.collapseId = maybe(content.collapseId)
            content.itemId = maybe(content.itemId)
            content.threadId = maybe(content.threadId)
            content.cursor = maybe(FeedCursor(position: Int64.random(in: 0...1_000_000, using: &generator)).text)
            content.expiresAt = Fixture.now + Double.random(in: -10...4_000_000, using: &generator)
            contents.append(content)
        }
        return contents
    }

    @Test func apnsAlertBodiesMatchTheirDocuments() {
        for content in Self.contents(count: 3_000, seed: 71) {
            let expected = APNsPayload.document(for: content, title: content.title, body: content.body).serialized()
            let written = APNsPayload.alertBody(for: content, title: content.title, body: content.body)
            #expect(written == expected, "\(String(decoding: expected, as: UTF8.self))")
        }
    }

    @Test func fcmAlertBodiesMatchTheirDocuments() {
        for content in Self.contents(count: 3_000, seed: 72) {
            let token = "token-" + (content.itemId ?? "\u{2028}\"")
            let expected = FCMPayload.document(for: content, token: token, title: content.title, body: content.body)
                .serialized()
            let written = FCMPayload.alertBody(for: content, token: token, title: content.title, body: content.body)
            #expect(written == expected, "\(String(decoding: expected, as: UTF8.self))")
        }
    }

    @Test func webPushAlertBodiesMatchTheirDocuments() {
        for content in Self.contents(count: 3_000, seed: 73) {
            let expected = WebPushPayload.document(for: content, title: content.title, body: content.body)
                .serialized()
            let written = WebPushPayload.alertBody(for: content, title: content.title, body: content.body)
            #expect(written == expected, "\(String(decoding: expected, as: UTF8.self))")
        }
    }

    @Test(arguments: [0, 7, -7, 9_999_999_999, 10_000_000_000, Int.max, Int.min])
    func integersAreWrittenAsSwiftPrintsThem(_ value: Int) {
        var writer = JSONWriter()
        writer.int(value)
        #expect(writer.bytes == Array(String(value).utf8))
    }
}
