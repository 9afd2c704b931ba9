import Testing

@testable import HeraldCore

@Suite("What opens read")
struct ReceiptEffectsTests {
    @Test("Each device's opens are one read on that device: by item where one is named, else by id, each once")
    func readsPerDevice() {
        let reads = ReceiptEffects.reads(
            userId: "u1",
            opens: [
                ("phone", [OpenedNotification(notificationId: "n1", itemId: "i1")]),
                ("tablet", [OpenedNotification(notificationId: "n2", itemId: nil)]),
                (
                    "phone",
                    [
                        OpenedNotification(notificationId: "n3", itemId: "i1"),
                        OpenedNotification(notificationId: "n4", itemId: nil),
                    ]
                ),
            ])
        #expect(reads.map(\.originInstallationId) == ["phone", "tablet"])
        #expect(reads[0].itemIds == ["i1"])
        #expect(reads[0].notificationIds == ["n4"])
        #expect(reads[1].itemIds.isEmpty)
        #expect(reads[1].notificationIds == ["n2"])
        #expect(reads.allSatisfy { $0.userId == "u1" && $0.threadId == nil })
    }

    @Test("An open of a digest stored before digests named their burst reads nothing, and asks no read")
    func nothingToRead() {
        #expect(ReceiptEffects.reads(userId: "u1", opens: [("phone", [])]).isEmpty)
        #expect(ReceiptEffects.reads(userId: "u1", opens: []).isEmpty)
    }
}
