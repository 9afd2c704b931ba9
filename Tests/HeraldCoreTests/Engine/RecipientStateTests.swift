import HeraldCore
import Testing

@Suite struct RecipientStateTests {
    @Test func pushesGoToTheUsersActiveDevicesInTheirOrder() {
        let all = Fixture.state(devices: [Fixture.device("a"), Fixture.device("b", platform: .fcm)])
        #expect(all.activeDevices.map(\.installationId) == ["a", "b"])
        #expect(all.hasActiveDevice)

        let mixed = Fixture.state(devices: [
            Fixture.device("a", active: false), Fixture.device("b"), Fixture.device("moved", user: "u2"),
            Fixture.device("c", platform: .webpush),
        ])
        #expect(mixed.activeDevices.map(\.installationId) == ["b", "c"])
        #expect(mixed.hasActiveDevice)
    }

    @Test func aUserWithoutAnActiveDeviceHasNone() {
        let inactive = Fixture.state(devices: [Fixture.device("a", active: false), Fixture.device("b", user: "u2")])
        #expect(inactive.activeDevices.isEmpty)
        #expect(!inactive.hasActiveDevice)
        let none = Fixture.state(devices: [])
        #expect(none.activeDevices.isEmpty)
        #expect(!none.hasActiveDevice)
    }
}
