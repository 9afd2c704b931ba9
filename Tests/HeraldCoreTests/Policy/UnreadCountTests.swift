import Testing

@testable import HeraldCore

@Suite struct UnreadCountTests {
    @Test func risesByOneFromWhatIsStoredAndNeverFromBelowZero() {
        #expect(UnreadCount.raised(0) == 1)
        #expect(UnreadCount.raised(41) == 42)
        #expect(UnreadCount.raised(-3) == 1)
    }

    @Test func fallsByWhatGoesButNeverBelowZero() {
        #expect(UnreadCount.lowered(5, by: 2) == 3)
        #expect(UnreadCount.lowered(2, by: 5) == 0)
        #expect(UnreadCount.lowered(-1, by: 0) == 0)
        // A negative lowering lowers nothing: it never raises the count.
        #expect(UnreadCount.lowered(4, by: -2) == 4)
    }
}
