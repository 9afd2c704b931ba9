import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres
import Testing

@testable import HeraldService

@Suite("User mutes")
struct UsersMutesTests {
    @Test("A mute stops applying at its end, by the injected clock; past ends are rejected")
    func expiry() throws {
        let clock = ManualClock()
        let service = try TestService.make(clock: clock.function)
        defer { service.close() }
        try service.category("chat.message")
        #expect(service.send(.put, "/v1/users/u1", json: "{}").status == .created)
        let inOneHour = ISO8601.format(clock.now.addingTimeInterval(3600))
        let timed = service.send(
            .post, "/v1/users/u1/mutes", json: #"{"scope":"thread","key":"conversation:42","until":"\#(inOneHour)"}"#)
        #expect(timed.status == .created)
        #expect(timed.json["until"] == .string(inOneHour))
        let forever = service.send(.post, "/v1/users/u1/mutes", json: #"{"scope":"category","key":"chat.message"}"#)
        #expect(forever.status == .created)
        #expect(service.send(.get, "/v1/users/u1/mutes").json[array: "items"].count == 2)

        clock.advance(3600)
        let listed = service.send(.get, "/v1/users/u1/mutes").json[array: "items"]
        #expect(listed.compactMap { $0[string: "scope"] } == ["category"])
        let now = clock.now
        let applied = try service.context.pool.withConnectionBlocking { connection in
            try MuteRepository.active(userIds: ["u1", "u2"], now: now, on: connection)
        }
        #expect(applied["u1"]?.map(\.scope.rawValue) == ["category"])

        let past = ISO8601.format(clock.now.addingTimeInterval(-1))
        let rejected = service.send(.post, "/v1/users/u1/mutes", json: #"{"scope":"all","until":"\#(past)"}"#)
        #expect(rejected.status == .unprocessableContent)
        #expect(rejected.json["pointer"] == .string("/until"))

        // Muting the same thread again revives it with the new end.
        let again = service.send(.post, "/v1/users/u1/mutes", json: #"{"scope":"thread","key":"conversation:42"}"#)
        #expect(again.status == .ok)
        #expect(again.json["id"] == timed.json["id"])
        #expect(again.json["until"] == .null)
    }

    @Test("Mutes that ended are removed when another is stored, so short mutes cannot pass the cap")
    func endedMutesGo() throws {
        let clock = ManualClock()
        let service = try TestService.make(clock: clock.function)
        defer { service.close() }
        #expect(service.send(.put, "/v1/users/u1", json: "{}").status == .created)
        for index in 0..<3 {
            let soon = ISO8601.format(clock.now.addingTimeInterval(1))
            let mute = service.send(
                .post, "/v1/users/u1/mutes", json: #"{"scope":"thread","key":"t\#(index)","until":"\#(soon)"}"#)
            #expect(mute.status == .created)
            clock.advance(2)
        }
        #expect(try service.count("SELECT count(*) FROM user_mutes") == 1)
        // A key 200 characters long, each with a combining mark, is 400 code points: refused as the table would.
        let marked = String(repeating: "e\u{301}", count: 200)
        let long = service.send(.post, "/v1/users/u1/mutes", json: #"{"scope":"thread","key":"\#(marked)"}"#)
        #expect(long.status == .unprocessableContent)
        #expect(long.json["pointer"] == .string("/key"))
    }

    @Test("Deleting mutes, and requests that cannot be stored")
    func deleteAndValidate() throws {
        let service = try TestService.make()
        defer { service.close() }
        #expect(service.send(.put, "/v1/users/u1", json: "{}").status == .created)
        let mute = service.send(.post, "/v1/users/u1/mutes", json: #"{"scope":"all"}"#)
        let id = mute.json[string: "id"] ?? ""
        #expect(mute.headers["Location"] == "/v1/users/u1/mutes/\(id)")
        #expect(service.send(.delete, "/v1/users/u2/mutes/\(id)").status == .notFound)
        #expect(service.send(.delete, "/v1/users/u1/mutes/\(id)").status == .noContent)
        #expect(service.send(.delete, "/v1/users/u1/mutes/\(id)").status == .notFound)
        #expect(service.send(.delete, "/v1/users/u1/mutes/not-a-uuid").status == .notFound)
        #expect(service.send(.post, "/v1/users/u2/mutes", json: #"{"scope":"all"}"#).status == .notFound)
        for (body, pointer) in [
            (#"{"scope":"everything"}"#, "/scope"), (#"{"scope":"all","key":"x"}"#, "/key"),
            (#"{"scope":"category","key":"no.such"}"#, "/key"), (#"{"scope":"thread"}"#, "/key"),
            (#"{"scope":"all","until":"tomorrow"}"#, "/until"),
        ] {
            let response = service.send(.post, "/v1/users/u1/mutes", json: body)
            #expect(response.status == .unprocessableContent, "\(body)")
            #expect(response.json["pointer"] == .string(pointer), "\(body): \(response.bodyText)")
        }
    }

    @Test("An archived category takes no new mute, as it takes no new preference; its mutes stay removable")
    func archivedCategory() throws {
        let service = try TestService.make()
        defer { service.close() }
        try service.category("old.feature")
        #expect(service.send(.put, "/v1/users/u1", json: "{}").status == .created)
        let before = service.send(.post, "/v1/users/u1/mutes", json: #"{"scope":"category","key":"old.feature"}"#)
        #expect(before.status == .created)
        try service.sql(
            #"UPDATE categories SET archived_at = $1, document = document || '{"archived": true}' WHERE id = 'old.feature'"#,
            [service.now])
        let refused = service.send(.post, "/v1/users/u1/mutes", json: #"{"scope":"category","key":"old.feature"}"#)
        #expect(refused.status == .conflict)
        #expect(refused.json["type"]?.stringValue?.hasSuffix("category-archived") == true)
        #expect(try service.count("SELECT count(*) FROM user_mutes") == 1)
        #expect(service.send(.delete, "/v1/users/u1/mutes/\(before.json[string: "id"] ?? "")").status == .noContent)
    }
}
