import Foundation
import HeraldCore
import Testing

@testable import HeraldService

@Suite("The limit phases' rows")
struct BenchLimitRowsTests {
    /// One shape per platform, each with a body of its own length.
    private static func rows(users: Int) -> BenchLimitRows {
        let shapes = BenchPopulation.platforms.enumerated().map { turn, platform in
            BenchLimitRows.Shape(
                delivery: Delivery(
                    platform: platform, kind: .alert, userId: "u2", installationId: "i8", token: "sample",
                    environment: .production, headers: ["h": platform.rawValue],
                    body: Array(String(repeating: "b", count: 100 * (turn + 1)).utf8), collapseId: "c", priority: 5,
                    expiresAt: Date(timeIntervalSince1970: 0), availableAt: Date(timeIntervalSince1970: 0),
                    notificationId: "n", eventId: "e2", coalesceKey: nil),
                headersText: #"{"h": "\#(platform.rawValue)"}"#,
                bodyText: String(repeating: "b", count: 100 * (turn + 1)))
        }
        let tokens = (0..<users * 4).map { "token-\($0)" }
        return BenchLimitRows(shapes: shapes, users: users, tokens: tokens)
    }

    @Test func identifiersAreThirtyTwoHexDigitsAndNeverRepeat() {
        let seqs = (0..<2_000).map { (20_000 << 44) + $0 }
        let ids = seqs.flatMap { seq in (0..<3).map { BenchLimitRows.deliveryId(seq, slot: $0) } }
        let notifications = seqs.map(BenchLimitRows.notificationId)
        for id in ids + notifications {
            #expect(id.utf8.count == 32)
            #expect(id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        }
        #expect(Set(ids).count == ids.count)
        #expect(Set(notifications).count == notifications.count)
    }

    @Test func identifiersOfNeighbouringEventsAreScatteredNotInOrder() {
        let ids = (0..<1_000).map { BenchLimitRows.deliveryId((20_000 << 44) + $0, slot: 0) }
        let ascending = zip(ids, ids.dropFirst()).filter { $0 < $1 }.count
        // In order, all 999 pairs would ascend; scattered, about half do.
        #expect((350...650).contains(ascending))
    }

    @Test func eventIdsAreAsShortAsIngestsAndDropTheDay() {
        #expect(BenchLimitRows.eventId((20_000 << 44) + 4_648) == "e4648")
    }

    @Test func eachDeviceRowTakesItsPlatformsShapeAndItsOwnToken() {
        let rows = Self.rows(users: 10)
        let seq = (20_000 << 44) + 5
        let user = rows.user(seq)
        #expect(BenchPopulation.deviceCount(user) == 3)
        for slot in 0..<3 {
            let texts = rows.copyTexts(seq, slot: slot, source: "bench-limit", created: "c", expires: "x")
            let platform = BenchPopulation.platform(user, slot: slot)
            #expect(texts.count == 18)
            #expect(texts[0] == BenchLimitRows.deliveryId(seq, slot: slot))
            #expect(texts[1] == BenchLimitRows.notificationId(seq))
            #expect(texts[4] == "u\(user)")
            #expect(texts[5] == BenchPopulation.installationId(user, slot: slot))
            #expect(texts[6] == platform.rawValue)
            #expect(texts[8] == "token-\(user * 4 + slot)")
            #expect(texts[10] == #"{"h": "\#(platform.rawValue)"}"#)
            #expect(texts[11]?.utf8.count == 100 * (BenchPopulation.turn(user, slot: slot) + 1))
            #expect(texts[12] == BenchLimitRows.notificationId(seq))

            let delivery = rows.delivery(seq, slot: slot, at: Date(timeIntervalSince1970: 1_000))
            #expect(delivery.platform == platform)
            #expect(delivery.token == texts[8])
            #expect(delivery.installationId == texts[5])
            #expect(delivery.notificationId == texts[1])
            #expect(delivery.collapseId == texts[12])
            #expect(delivery.bodyText == texts[11])
            #expect(delivery.expiresAt == Date(timeIntervalSince1970: 1_000 + 86_400))
        }
    }

    @Test func theTokensAreThoseThePopulationImports() {
        // User 2's devices are seeds 8, 9 and 10, in the turns webpush, apns, fcm.
        #expect(BenchPopulation.token(2, slot: 0) == "https://push.example.net/8")
        #expect(BenchPopulation.token(2, slot: 1) == String(repeating: "0", count: 63) + "9")
        #expect(BenchPopulation.token(2, slot: 2) == "fcm10:APA91b" + String(repeating: "k", count: 120))
        let line = BenchPopulation(users: 3).importLine(2)
        for slot in 0..<3 {
            #expect(line.contains(BenchPopulation.token(2, slot: slot)))
            #expect(line.contains(#""platform":"\#(BenchPopulation.platform(2, slot: slot).rawValue)""#))
        }
    }
}
