import Testing

@testable import HeraldCore

@Suite struct CategoryOptionsTests {
    static func category(_ kind: Category.Kind) -> Category {
        var category = Category(
            id: "c", name: "C", quietHours: Category.defaultQuietHours(for: kind),
            countsTowardBadge: Category.defaultCountsTowardBadge(for: kind))
        category.kind = kind
        return category
    }

    @Test(arguments: [(Category.Kind.liveActivity, Category.Kind.notification), (.notification, .liveActivity)])
    func aChangeOfKindTakesTheNewKindsDefaultsWhereTheOldOnesStood(from: Category.Kind, to: Category.Kind) {
        var category = Self.category(from)
        category.kind = to
        category.takeKindDefaults(replacing: from, except: [])
        #expect(category.quietHours == Category.defaultQuietHours(for: to))
        #expect(category.countsTowardBadge == Category.defaultCountsTowardBadge(for: to))
    }

    @Test func aChosenValueAndAValueTheChangeSetsAreKept() {
        var chosen = Self.category(.liveActivity)
        chosen.quietHours = .drop
        chosen.kind = .notification
        chosen.takeKindDefaults(replacing: .liveActivity, except: [])
        #expect(chosen.quietHours == .drop)
        #expect(chosen.countsTowardBadge)

        var set = Self.category(.liveActivity)
        set.kind = .notification
        set.takeKindDefaults(replacing: .liveActivity, except: ["quiet_hours", "counts_toward_badge"])
        #expect(set.quietHours == .bypass)
        #expect(!set.countsTowardBadge)

        var same = Self.category(.liveActivity)
        same.takeKindDefaults(replacing: .liveActivity, except: [])
        #expect(same.quietHours == .bypass)
    }
}
