import HeraldCore
import Testing

@Suite("Who may register a device, and what it may take")
struct DeviceRegistrarTests {
    @Test("Only the backend creates users and moves another user's installation")
    func backendPowers() {
        #expect(DeviceRegistrar.backend.createsUsers)
        #expect(DeviceRegistrar.backend.movesInstallations)
        #expect(!DeviceRegistrar.user.createsUsers)
        #expect(!DeviceRegistrar.user.movesInstallations)
    }

    @Test("A user's app may not take a push token another user's installation holds; the backend may")
    func anotherUsersToken() {
        #expect(
            DeviceRegistrar.user.refusal(userExists: true, tokenHeldByAnotherUser: true, otherActiveDevices: 0)
                == .tokenOfAnotherUser)
        #expect(
            DeviceRegistrar.backend.refusal(userExists: true, tokenHeldByAnotherUser: true, otherActiveDevices: 0)
                == nil)
    }

    @Test("A registration for a user that does not exist is refused first")
    func unknownUser() {
        for registrar in [DeviceRegistrar.user, .backend] {
            #expect(
                registrar.refusal(userExists: false, tokenHeldByAnotherUser: true, otherActiveDevices: 500)
                    == .unknownUser)
        }
    }

    @Test("Every registrar counts against the cap of active devices besides this installation")
    func cap() {
        for registrar in [DeviceRegistrar.user, .backend] {
            #expect(
                registrar.refusal(
                    userExists: true, tokenHeldByAnotherUser: false, otherActiveDevices: Device.maxPerUser - 1) == nil)
            #expect(
                registrar.refusal(
                    userExists: true, tokenHeldByAnotherUser: false, otherActiveDevices: Device.maxPerUser)
                    == .tooManyDevices)
        }
    }

    @Test("The cap allows a user exactly 100 active devices, the number a registration and an import both ask about")
    func capAllows() {
        #expect(Device.maxPerUser == 100)
        #expect(Device.capAllows(activeDevices: 0))
        #expect(Device.capAllows(activeDevices: 100))
        #expect(!Device.capAllows(activeDevices: 101))
    }
}
