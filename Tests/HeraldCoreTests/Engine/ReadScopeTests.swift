import Testing

@testable import HeraldCore

@Suite struct ReadScopeTests {
    static func candidate(
        _ key: Int, notificationId: String? = nil, item: String? = nil, thread: String? = nil,
        collapse: String? = nil, countsUnread: Bool = true, isRead: Bool = false
    ) -> ReadCandidate<Int> {
        ReadCandidate(
            key: key, notificationId: notificationId ?? "n\(key)", itemId: item, threadId: thread,
            collapseId: collapse, countsUnread: countsUnread, isRead: isRead)
    }

    /// The same four notifications, read four ways.
    static let notifications = [
        candidate(1, item: "i1", thread: "t1"), candidate(2, item: "i2", thread: "t1"),
        candidate(3, item: "i3", thread: "t2"), candidate(4, item: nil, thread: nil),
    ]

    static let scopes: [(ReadScope, [Int])] = [
        (ReadScope(userId: "u1", itemIds: ["i2", "i3", "i9"], threadId: nil), [2, 3]),
        (ReadScope(userId: "u1", itemIds: [], threadId: "t1"), [1, 2]),
        (ReadScope(userId: "u1", itemIds: [], threadId: nil, notificationIds: ["n4", "n3"]), [3, 4]),
        (ReadScope(userId: "u1", itemIds: ["i1"], threadId: "t2", notificationIds: ["n4"]), [1, 3, 4]),
        (ReadScope(userId: "u1", itemIds: ["i9"], threadId: "t9", notificationIds: ["n9"]), []),
    ]

    @Test(arguments: scopes)
    func aReadCoversItsItemsItsThreadAndItsIdsInOrder(scope: ReadScope, expected: [Int]) {
        #expect(scope.select(Self.notifications).covered.map(\.key) == expected)
    }

    @Test func anItemlessNotificationIsNotCoveredByANilThread() {
        // A read of items only must not match every notification that has no thread.
        let scope = ReadScope(userId: "u1", itemIds: ["i1"], threadId: nil)
        #expect(scope.select([Self.candidate(1, item: nil, thread: nil)]).covered.isEmpty)
    }

    @Test func alreadyReadOnesAreSkipped() {
        let scope = ReadScope(userId: "u1", itemIds: ["i1"], threadId: "t1", notificationIds: ["n3"])
        let selection = scope.select([
            Self.candidate(1, item: "i1", collapse: "a", isRead: true),
            Self.candidate(2, thread: "t1", collapse: "b", isRead: true), Self.candidate(3, isRead: true),
            Self.candidate(4, item: "i1", collapse: "c"),
        ])
        #expect(selection.covered.map(\.key) == [4])
        #expect(selection.collapseIds == ["c"])
        #expect(selection.itemsRead == 1)
    }

    @Test func decisionsWithoutANotificationAreSkipped() {
        let suppressed = ReadCandidate(
            key: 1, notificationId: nil, itemId: "i1", threadId: "t1", collapseId: "a", countsUnread: false,
            isRead: false)
        let selection = ReadScope(userId: "u1", itemIds: ["i1"], threadId: "t1").select([suppressed])
        #expect(selection.covered.isEmpty)
        #expect(selection.collapseIds.isEmpty)
        #expect(selection.notice == nil)
    }

    @Test func collapseIdsAreWithdrawnOnceInTheOrderFirstMet() {
        let selection = ReadScope(userId: "u1", itemIds: [], threadId: "t1").select([
            Self.candidate(1, thread: "t1", collapse: "msg:7"), Self.candidate(2, thread: "t1"),
            Self.candidate(3, thread: "t1", collapse: "msg:3"), Self.candidate(4, thread: "t1", collapse: "msg:7"),
            Self.candidate(5, thread: "t2", collapse: "msg:9"), Self.candidate(6, thread: "t1", collapse: "msg:3"),
        ])
        #expect(selection.covered.map(\.key) == [1, 2, 3, 4, 6])
        #expect(selection.collapseIds == ["msg:7", "msg:3"])
    }

    /// A burst's first push went out and its digest replaced it (one collapse id for all three); reading one of its
    /// messages leaves the digest standing for the other two, and reading the last of them withdraws it.
    @Test func aCollapseIdAnUnreadNotificationOutsideTheReadSharesIsNotWithdrawn() {
        var burst = [
            Self.candidate(1, item: "i1", collapse: "msg:t"), Self.candidate(2, item: "i2", collapse: "msg:t"),
            Self.candidate(3, item: "i3", collapse: "msg:t"), Self.candidate(4, item: "i4", collapse: "msg:u"),
        ]
        let first = ReadScope(userId: "u1", itemIds: ["i1", "i4"], threadId: nil).select(burst)
        #expect(first.covered.map(\.key) == [1, 4])
        #expect(first.itemsRead == 2)
        #expect(first.collapseIds == ["msg:u"])
        #expect(first.notice?.collapseIds == ["msg:u"])
        #expect(first.notice?.notificationIds == ["n1", "n4"])

        burst[0].isRead = true
        burst[3].isRead = true
        let second = ReadScope(userId: "u1", itemIds: ["i2"], threadId: nil).select(burst)
        #expect(second.collapseIds.isEmpty)
        #expect(second.notice?.itemsRead == 1)
        burst[1].isRead = true
        #expect(ReadScope(userId: "u1", itemIds: ["i3"], threadId: nil).select(burst).collapseIds == ["msg:t"])
    }

    @Test func itemsReadCountsOnlyTheOnesThatRaisedTheCount() {
        let selection = ReadScope(userId: "u1", itemIds: ["i1", "i2", "i3"], threadId: nil).select([
            Self.candidate(1, item: "i1"), Self.candidate(2, item: "i2", countsUnread: false),
            Self.candidate(3, item: "i3"), Self.candidate(4, item: "i4"),
        ])
        #expect(selection.covered.map(\.key) == [1, 2, 3])
        #expect(selection.itemsRead == 2)
    }

    @Test func theNoticeCarriesTheUserTheDeviceAndTheSelection() {
        let scope = ReadScope(userId: "u1", itemIds: ["i1"], threadId: nil, originInstallationId: "phone")
        let selection = scope.select([
            Self.candidate(1, item: "i1", collapse: "msg:1"), Self.candidate(2, notificationId: "n1", item: "i1"),
        ])
        #expect(
            selection.notice
                == ReadNotice(
                    userId: "u1", collapseIds: ["msg:1"], itemsRead: 2, originInstallationId: "phone",
                    notificationIds: ["n1"]))
        #expect(scope.select([Self.candidate(2, item: "i2")]).notice == nil)
    }

    @Test func aSecondReadOfTheSameNotificationsCoversNothing() {
        var generator = SeededGenerator(seed: 7)
        func pick<Value>(_ values: [Value]) -> Value { values.randomElement(using: &generator)! }
        var coveredSome = 0
        for _ in 0..<500 {
            var candidates = (0..<Int.random(in: 0...12, using: &generator)).map { key in
                ReadCandidate(
                    key: key, notificationId: pick([nil, "n\(key % 5)", "n\(key % 5)"]),
                    itemId: pick(["i1", "i2", "i3", nil]), threadId: pick(["t1", "t2", nil]),
                    collapseId: pick(["a", "b", nil]), countsUnread: pick([true, false]),
                    isRead: pick([true, false, false, false]))
            }
            let scope = ReadScope(
                userId: "u1", itemIds: ["i1", "i2", "i3"].filter { _ in pick([true, false]) },
                threadId: pick(["t1", nil]), notificationIds: pick([["n1"], []]))
            let first = scope.select(candidates)
            let coveredKeys = Set(first.covered.map(\.key))
            let standing = candidates.filter { !$0.isRead && $0.notificationId != nil && !coveredKeys.contains($0.key) }
            #expect(Set(first.collapseIds).isDisjoint(with: standing.compactMap(\.collapseId)))
            #expect(first.itemsRead <= first.covered.count)
            #expect(Set(first.collapseIds).count == first.collapseIds.count)
            #expect(first.covered.allSatisfy { !$0.isRead && $0.notificationId != nil })
            if !first.covered.isEmpty { coveredSome += 1 }
            for index in candidates.indices where coveredKeys.contains(candidates[index].key) {
                candidates[index].isRead = true
            }
            let second = scope.select(candidates)
            #expect(second.covered.isEmpty && second.itemsRead == 0 && second.notice == nil)
        }
        #expect(coveredSome > 100)
    }
}
