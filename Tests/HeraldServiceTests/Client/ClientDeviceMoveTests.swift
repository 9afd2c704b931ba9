import Foundation
import HeraldHTTP
import HeraldPostgres
import Testing

@testable import HeraldService

/// A user's app acts on an installation only while it is that user's: the owner is checked by the write itself,
/// so a move of the device to another user committed while the app's request waits on the device's row wins.
@Suite("Client device writes against a move", .serialized)
struct ClientDeviceMoveTests {
    let start = Date(timeIntervalSince1970: 1_796_130_000)
    static let begin = Query(unsafeSQL: "BEGIN", name: "test.begin")
    static let commit = Query(unsafeSQL: "COMMIT", name: "test.commit")
    static let move = Query(name: "test.move", sql: "UPDATE devices SET user_id = 'u2' WHERE installation_id = 'd'")

    /// Sends u1's `request` while a move of `d` to u2 is under way, then commits the move once the request waits.
    func duringAMove(
        _ harness: PipelineHarness, _ request: @escaping @Sendable () async -> HTTPResponse
    ) async throws -> HTTPResponse {
        let mover = try PostgresConnection(conninfo: harness.conninfo)
        try mover.executeScript(Self.begin)
        #expect(try mover.execute(Self.move) == 1)
        async let answer = request()
        #expect(try await LockWaiters.appear(conninfo: harness.conninfo), "the request did not reach the device")
        try mover.executeScript(Self.commit)
        return await answer
    }

    func moving() async throws -> PipelineHarness {
        let harness = try await PipelineHarness.make(start: start)
        for user in ["u1", "u2"] { try await harness.user(user) }
        try await harness.device("d", user: "u1", platform: .apns)
        return harness
    }

    @Test func theOldOwnersSignOutLeavesTheNewOwnersDevice() async throws {
        let harness = try await moving()
        defer { harness.close() }
        let token = harness.clientToken("u1")
        let signOut = try await duringAMove(harness) {
            await harness.sendAsClient("u1", .delete, "/v1/me/devices/d", token: token)
        }
        #expect(signOut.status == .notFound)
        #expect(try await harness.count("SELECT count(*) FROM devices WHERE user_id = 'u2'") == 1)
    }

    @Test func theOldOwnerPutsNoLiveActivityTokenOnTheNewOwnersDevice() async throws {
        let harness = try await moving()
        defer { harness.close() }
        let token = harness.clientToken("u1")
        let put = try await duringAMove(harness) {
            await harness.sendAsClient(
                "u1", .put, "/v1/me/devices/d/live-activities/match-42",
                json: #"{"token":"\#(String(repeating: "cd", count: 32))"}"#, token: token)
        }
        #expect(put.status == .notFound)
        #expect(try await harness.count("SELECT count(*) FROM live_activity_tokens") == 0)
    }
}
