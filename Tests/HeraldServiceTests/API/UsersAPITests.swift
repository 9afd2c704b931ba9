import Foundation
import HeraldHTTP
import Testing

@testable import HeraldService

@Suite("Users")
struct UsersAPITests {
    @Test("PUT creates then replaces a profile; aliases and locales come back canonical")
    func upsert() throws {
        let clock = ManualClock()
        let service = try TestService.make(clock: clock.function)
        defer { service.close() }
        let body = #"""
            {"locale":"pt_br","time_zone":"Asia/Calcutta","badge":false,
             "quiet_hours":{"start":"22:30","end":"07:00","days":["sun","mon"]}}
            """#
        let created = service.send(.put, "/v1/users/ana@example.com", json: body)
        #expect(created.status == .created)
        #expect(created.headers["Location"] == "/v1/users/ana@example.com")
        #expect(created.json["time_zone"] == .string("Asia/Kolkata"))
        #expect(created.json["locale"] == .string("pt-BR"))
        #expect(created.json["badge"] == .bool(false))
        #expect(
            created.json["quiet_hours"]
                == .object([
                    "start": .string("22:30"), "end": .string("07:00"),
                    "days": .array([.string("mon"), .string("sun")]),
                ]))
        #expect(created.json["devices"] == .array([]))

        clock.advance(60)
        let replaced = service.send(.put, "/v1/users/ana@example.com", json: #"{"time_zone":"UTC"}"#)
        #expect(replaced.status == .ok)
        #expect(replaced.headers["Location"] == nil)
        #expect(replaced.json["quiet_hours"] == .null)
        #expect(replaced.json["locale"] == .null)
        #expect(replaced.json["badge"] == .bool(true))
        #expect(replaced.json["created_at"] == created.json["created_at"])
        #expect(replaced.json["updated_at"] != created.json["updated_at"])

        let read = service.send(.get, "/v1/users/ana@example.com")
        #expect(read.status == .ok)
        #expect(read.json["time_zone"] == .string("Etc/UTC") || read.json["time_zone"] == .string("UTC"))
        #expect(service.send(.get, "/v1/users/nobody").status == .notFound)
        #expect(service.send(.get, "/v1/users/not%20valid").status == .notFound)
        #expect(service.send(.put, "/v1/users/not%20valid", json: "{}").status == .badRequest)
    }

    @Test(
        "Invalid profiles are 422 naming the member; an unknown zone is never UTC",
        arguments: [
            (#"{"time_zone":"Europe/Berln"}"#, "/time_zone"),
            (#"{"time_zone":"Etc/Unknown"}"#, "/time_zone"),
            (#"{"time_zone":"Mars/Olympus_Mons"}"#, "/time_zone"),
            (#"{"time_zone":""}"#, "/time_zone"),
            (#"{"locale":"not a locale!"}"#, "/locale"),
            (#"{"locale":""}"#, "/locale"),
            (#"{"time_zone":"Europe/Berlin","quiet_hours":{"start":"25:00","end":"07:00"}}"#, "/quiet_hours/start"),
            (#"{"time_zone":"Europe/Berlin","quiet_hours":{"start":"22:00","end":"7:00"}}"#, "/quiet_hours/end"),
            (#"{"time_zone":"Europe/Berlin","quiet_hours":{"start":"22:00","end":"22:00"}}"#, "/quiet_hours/end"),
            (
                #"{"time_zone":"Europe/Berlin","quiet_hours":{"start":"22:00","end":"06:00","days":[]}}"#,
                "/quiet_hours/days"
            ),
            (
                #"{"time_zone":"Europe/Berlin","quiet_hours":{"start":"22:00","end":"06:00","days":["mon","mon"]}}"#,
                "/quiet_hours/days/1"
            ),
            (
                #"{"time_zone":"Europe/Berlin","quiet_hours":{"start":"22:00","end":"06:00","days":["monday"]}}"#,
                "/quiet_hours/days/0"
            ),
            (#"{"quiet_hours":{"start":"22:00","end":"06:00"}}"#, "/time_zone"),
            (#"{"time_zone":"Europe/Berlin","quiet_hours":{"start":"22:00"}}"#, "/quiet_hours/end"),
            (#"{"badge":"yes"}"#, "/badge"),
        ])
    func validation(body: String, pointer: String) throws {
        let service = try TestService.make()
        defer { service.close() }
        let response = service.send(.put, "/v1/users/u1", json: body)
        #expect(response.status == .unprocessableContent, "\(body)")
        let pointers = response.json[array: "errors"].compactMap { $0[string: "pointer"] }
        #expect(pointers.contains(pointer), "\(body): \(response.bodyText)")
        #expect(service.send(.get, "/v1/users/u1").status == .notFound)
    }

    @Test("GET lists devices and marks the ones unseen for 270 days as stale")
    func staleDevices() throws {
        let clock = ManualClock()
        let service = try TestService.make(clock: clock.function)
        defer { service.close() }
        #expect(service.send(.put, "/v1/users/u1", json: "{}").status == .created)
        #expect(service.registerAPNs("old-phone", user: "u1", token: SampleTokens.apns(1)).status == .created)
        clock.advance(200 * 86_400)
        #expect(service.registerAPNs("new-phone", user: "u1", token: SampleTokens.apns(2)).status == .created)
        clock.advance(71 * 86_400)
        let user = service.send(.get, "/v1/users/u1")
        let stale = Dictionary(
            uniqueKeysWithValues: user.json[array: "devices"].map { ($0[string: "installation_id"] ?? "", $0["stale"]) }
        )
        #expect(stale == ["old-phone": .bool(true), "new-phone": .bool(false)])
    }

    @Test("DELETE removes the user with devices, preferences, mutes and subscriptions in one go")
    func deletionCascades() throws {
        let service = try TestService.make()
        defer { service.close() }
        try service.category("chat.message")
        #expect(service.send(.put, "/v1/users/u1", json: #"{"time_zone":"Europe/Warsaw"}"#).status == .created)
        #expect(service.send(.put, "/v1/users/u2", json: "{}").status == .created)
        service.registerAPNs("phone", user: "u1", token: SampleTokens.apns(7))
        service.registerAPNs("other", user: "u2", token: SampleTokens.apns(8))
        #expect(service.send(.put, "/v1/users/u1/preferences/chat.message", json: #"{"setting":"off"}"#).status == .ok)
        #expect(service.send(.post, "/v1/users/u1/mutes", json: #"{"scope":"all"}"#).status == .created)
        #expect(service.send(.put, "/v1/topics/conversation:1/subscribers/u1").status == .noContent)
        #expect(service.send(.put, "/v1/topics/conversation:1/subscribers/u2").status == .noContent)
        #expect(service.send(.delete, "/v1/devices/phone").status == .noContent)
        service.registerAPNs("phone2", user: "u1", token: SampleTokens.apns(9))

        #expect(service.send(.delete, "/v1/users/u1").status == .noContent)
        #expect(service.send(.get, "/v1/users/u1").status == .notFound)
        #expect(service.send(.delete, "/v1/users/u1").status == .notFound)
        for table in ["devices", "user_preferences", "user_mutes", "topic_subscriptions", "device_deactivations"] {
            #expect(try service.count("SELECT count(*) FROM \(table) WHERE user_id = 'u1'") == 0, "\(table)")
        }
        #expect(try service.count("SELECT count(*) FROM devices WHERE user_id = 'u2'") == 1)
        let subscribers = service.send(.get, "/v1/topics/conversation:1/subscribers")
        #expect(subscribers.json[array: "items"].compactMap { $0[string: "user_id"] } == ["u2"])
    }
}
