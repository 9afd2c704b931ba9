import Foundation
import HeraldHTTP
import HeraldPostgres
import Testing

@testable import HeraldService

/// A write that reads the user's state before it stores (counting devices or mutes against a cap, changing part of
/// the profile) holds the user's row meanwhile, so two writes at once cannot both see room for one more, or lose
/// each other's change.
@Suite("Writes that read a user first, under writers at once")
struct UserRowLockTests {
    static let begin = Query(unsafeSQL: "BEGIN", name: "test.begin")
    static let commit = Query(unsafeSQL: "COMMIT", name: "test.commit")
    static let holdUser = Query(name: "test.hold_user", sql: "SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE")

    /// Sends `request` while another transaction holds user `user`'s row: it must wait for that transaction
    /// (seen as a backend waiting on a lock, polled with a deadline) and go on once it commits.
    static func sendWhileUserIsHeld(
        _ service: TestService, user: String, _ request: @escaping @Sendable () -> HTTPResponse
    ) async throws -> HTTPResponse {
        let holder = try PostgresConnection(conninfo: service.conninfo)
        try holder.executeScript(begin)
        #expect(try holder.query(holdUser, [user]).count == 1)
        // On a thread of its own: the request blocks in libpq until the holder commits.
        async let sent = offCooperativePool { request() }
        let waited = try await LockWaiters.appear(conninfo: service.conninfo)
        #expect(waited, "the write did not wait for the transaction holding its user")
        try holder.executeScript(commit)
        return await sent
    }

    @Test func aDeviceRegistrationWaitsForTheUsersOtherWriter() async throws {
        let service = try TestService.make()
        defer { service.close() }
        #expect(service.registerAPNs("first", user: "u", token: SampleTokens.apns(1)).status == .created)
        let second = try await Self.sendWhileUserIsHeld(service, user: "u") {
            service.registerAPNs("second", user: "u", token: SampleTokens.apns(2))
        }
        #expect(second.status == .created)
        #expect(try service.count("SELECT count(*) FROM devices WHERE user_id = 'u'") == 2)
    }

    @Test func aMuteWaitsForTheUsersOtherWriter() async throws {
        let service = try TestService.make()
        defer { service.close() }
        #expect(service.send(.put, "/v1/users/u", json: #"{"locale":"en"}"#).status == .created)
        let mute = try await Self.sendWhileUserIsHeld(service, user: "u") {
            service.send(.post, "/v1/users/u/mutes", json: #"{"scope":"thread","key":"conversation:42"}"#)
        }
        #expect(mute.status == .created)
        #expect(service.send(.post, "/v1/users/nobody/mutes", json: #"{"scope":"all"}"#).status == .notFound)
    }

    @Test func aChangeOfTheQuietHoursWaitsForTheUsersOtherWriter() async throws {
        let service = try TestService.make()
        defer { service.close() }
        #expect(service.send(.put, "/v1/users/u", json: #"{"time_zone":"Europe/Berlin"}"#).status == .created)
        let token = service.context.clientTokens!.mint(
            userID: "u", issuedAt: Date(), expiresAt: Date().addingTimeInterval(3600))
        let quiet = try await Self.sendWhileUserIsHeld(service, user: "u") {
            service.send(
                .put, "/v1/me/quiet-hours", json: #"{"quiet_hours":{"start":"22:00","end":"07:00"}}"#, key: token)
        }
        #expect(quiet.status == .ok)
    }
}
