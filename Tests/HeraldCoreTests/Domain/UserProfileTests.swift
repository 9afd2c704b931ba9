import HeraldCore
import Testing

@Suite("User profile")
struct UserProfileTests {
    @Test func theAppBadgeIsTheUnreadCountUnlessTheUserTurnedBadgesOff() {
        #expect(UserProfile(id: "ana").appBadge(unread: 3) == 3)
        #expect(UserProfile(id: "ana").appBadge(unread: 0) == 0)
        #expect(UserProfile(id: "ana", badge: false).appBadge(unread: 3) == nil)
    }
}
