import Foundation
import Testing

@testable import HeraldCore

@Suite("Feed cursor in payloads")
struct FeedCursorTests {
    @Test func cursorsRoundTripAndOrderLikeTheirPositions() {
        var generator = SeededGenerator(seed: 11)
        var previous = FeedCursor(position: 0)
        for _ in 0..<500 {
            let position = previous.position + Int64.random(in: 1...1_000_000_000, using: &generator)
            let cursor = FeedCursor(position: position)
            #expect(FeedCursor(text: cursor.text) == cursor)
            #expect(cursor.text.utf8.count == 12)
            #expect(previous < cursor)
            previous = cursor
        }
        for text in ["", "AQ", "AQAAAAAAAAAB=", "AgAAAAAAAAAB", "AQAAAAAAAAA*", "gAAAAAAAAAAA"] {
            #expect(FeedCursor(text: text) == nil, "\(text)")
        }
    }

    @Test(arguments: [Int64(0), 1, 62, 63, 0xFBFF, 0xFFFF_FFFF, 4_000_000_123, 0x00FF_FFFF_FFFF_FFFF, .max])
    func textIsBase64URLOfTheVersionAndTheBigEndianPosition(_ position: Int64) {
        var bytes: [UInt8] = [1]
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: position >> shift)) }
        let expected = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
        #expect(FeedCursor(position: position).text == expected)
    }

    @Test(arguments: [Category.DeliveryMode.app, .combined, .system])
    func appBuiltAndCombinedPayloadsCarryTheCursor(_ mode: Category.DeliveryMode) throws {
        let decider = Fixture.decider()
        var state = Fixture.state(devices: [
            Fixture.device("ios", appBuilds: true), Fixture.device("android", platform: .fcm, appBuilds: true),
        ])
        state.feedPosition = 41
        let result = decider.decide(
            event: Fixture.event("e1"), category: Fixture.category(mode: mode), recipients: ["u1"],
            states: ["u1": state], now: Fixture.now)
        #expect(result.decisions[0].feedPosition == 42)
        #expect(result.changes.feedPositions["u1"] == 42)
        let expected = FeedCursor(position: 42).text
        #expect(result.deliveries.count == 2)
        for delivery in result.deliveries {
            let body = try #require(Fixture.parse(delivery.body))
            let cursor: Any? =
                delivery.platform == .fcm
                ? ((body["message"] as? [String: Any])?["data"] as? [String: Any])?["cursor"] : body["cursor"]
            if mode == .system {
                #expect(cursor == nil)
            } else {
                #expect(cursor as? String == expected, "\(delivery.platform)")
            }
        }
    }
}
