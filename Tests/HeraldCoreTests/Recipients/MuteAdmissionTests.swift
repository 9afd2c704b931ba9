import Foundation
import HeraldCore
import Testing

@Suite("Storing a mute among the user's mutes")
struct MuteAdmissionTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let earlier = now.addingTimeInterval(-86_400)

    static func stored(
        _ id: String, _ scope: Mute.Scope, _ key: String? = nil, endsIn seconds: Double?
    ) -> (
        mute: Mute, createdAt: Date
    ) {
        (Mute(id: id, scope: scope, key: key, until: seconds.map { now.addingTimeInterval($0) }), earlier)
    }

    @Test("A mute runs until its end, and one without an end runs until removed")
    func running() {
        #expect(Mute(id: "m", scope: .all).isRunning(at: Self.now))
        #expect(Mute(id: "m", scope: .all, until: Self.now.addingTimeInterval(1)).isRunning(at: Self.now))
        #expect(!Mute(id: "m", scope: .all, until: Self.now).isRunning(at: Self.now))
        #expect(!Mute(id: "m", scope: .all, until: Self.now).applies(category: "c", thread: nil, at: Self.now))
    }

    @Test("Ended mutes go, except the one the request renews")
    func endedMutesGo() {
        let request = MuteRequest(scope: .category, key: "chat", until: Self.now.addingTimeInterval(60))
        let admission = MuteAdmission(
            request,
            among: [
                Self.stored("ended-all", .all, endsIn: -1), Self.stored("renewed", .category, "chat", endsIn: -5),
                Self.stored("running", .thread, "t1", endsIn: 30), Self.stored("ended-now", .thread, "t2", endsIn: 0),
            ], now: Self.now)
        #expect(admission.ended == ["ended-all", "ended-now"])
        #expect(admission.hasRoom)
        // The renewed mute had ended: it counts as created again now.
        #expect(admission.createdAt == Self.now)
    }

    @Test("A running mute renewed keeps its creation time")
    func renewedKeepsItsCreation() {
        let request = MuteRequest(scope: .thread, key: "t1")
        let admission = MuteAdmission(
            request, among: [Self.stored("running", .thread, "t1", endsIn: 30)], now: Self.now)
        #expect(admission.createdAt == Self.earlier)
        #expect(admission.ended.isEmpty)
    }

    @Test("The cap counts the running mutes besides the one the request renews")
    func capCountsOthersRunning() {
        let full = (0..<Mute.maxPerUser).map { Self.stored("m\($0)", .thread, "t\($0)", endsIn: nil) }
        #expect(!MuteAdmission(MuteRequest(scope: .all), among: full, now: Self.now).hasRoom)
        // Renewing one of them takes no room of its own.
        #expect(MuteAdmission(MuteRequest(scope: .thread, key: "t7"), among: full, now: Self.now).hasRoom)
        // Ended mutes take no room.
        var ending = full
        ending[3] = Self.stored("m3", .thread, "t3", endsIn: -10)
        let admission = MuteAdmission(MuteRequest(scope: .all), among: ending, now: Self.now)
        #expect(admission.hasRoom)
        #expect(admission.ended == ["m3"])
    }

    @Test("A request renews the mute of the same scope and key only")
    func renews() {
        #expect(MuteRequest(scope: .all).renews(Mute(id: "m", scope: .all)))
        #expect(MuteRequest(scope: .thread, key: "a").renews(Mute(id: "m", scope: .thread, key: "a")))
        #expect(!MuteRequest(scope: .thread, key: "a").renews(Mute(id: "m", scope: .thread, key: "b")))
        #expect(!MuteRequest(scope: .category, key: "a").renews(Mute(id: "m", scope: .thread, key: "a")))
    }
}
