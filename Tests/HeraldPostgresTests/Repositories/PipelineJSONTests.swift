import Foundation
import HeraldCore
import Testing

@testable import HeraldPostgres

struct PipelineJSONTests {
    /// A collapse group is stored between batches with its instants in milliseconds; the instant its burst began
    /// comes back to the same microsecond, whatever finer digits the clock had, so the burst still knows its first
    /// notification, whose decision time its row keeps to the microsecond.
    @Test func aStoredBurstStillKnowsItsFirstNotification() throws {
        let base = Date(timeIntervalSince1970: 1_800_000_000)
        var lost: [Double] = []
        for n in 0..<5_000 {
            let decidedAt = base.addingTimeInterval(Double(n) * 0.000_001_37 + 0.000_000_4)
            var group = CollapseGroup(userId: "u1", key: "burst:chat.message:t", collapseId: "c")
            _ = group.eventArrived(
                CollapsedItem(eventId: "e\(n)", occurredAt: decidedAt, expiresAt: base + 3_600), window: 60,
                at: decidedAt)
            let stored = try PipelineJSON.decode(CollapseGroup.self, from: try PipelineJSON.encode(group))
            let first = BurstNotification(
                notificationId: NotificationIdentity.notificationId(eventId: "e\(n)", userId: "u1"), collapseId: "c",
                categoryId: "chat.message", decidedAt: decidedAt.inWholeMicroseconds)
            if stored.membership?.contains(first) != true
                || stored.startedAt?.wholeMicrosecondsSince1970 != decidedAt.wholeMicrosecondsSince1970
            {
                lost.append(decidedAt.timeIntervalSince1970)
            }
        }
        #expect(lost.isEmpty)
    }
}
