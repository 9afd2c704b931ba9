import Foundation
import HeraldHTTP
import Testing

/// A body shaped like the service's preference documents, with nesting, arrays, enums and dates.
private struct Preferences: Codable {
    struct QuietHours: Codable {
        var start: String
        var end: String
        var weekdays: [Int]?
    }

    enum Channel: String, Codable {
        case push, email
    }

    struct Mute: Codable {
        var scope: String
        var until: Date?
    }

    var userId: Int
    var quietHours: QuietHours?
    var channel: Channel?
    var mutes: [Mute]?
    var labels: [String: Int]?
    var enabled: Bool?
    var ratio: Double?
    var level: UInt8?
}

@Suite struct JSONDecodingTests {
    private func failure(_ json: String) -> HTTPError? {
        do {
            _ = try JSONCoders.decode(Preferences.self, from: Array(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test(
        arguments: [
            (#"{"user_id":"7"}"#, "/user_id"),
            (#"{"quiet_hours":{"start":"22:00","end":"07:00"}}"#, "/user_id"),
            (#"{"user_id":1,"quiet_hours":{"start":22,"end":"07:00"}}"#, "/quiet_hours/start"),
            (#"{"user_id":1,"quiet_hours":{"start":"22:00"}}"#, "/quiet_hours/end"),
            (#"{"user_id":1,"quiet_hours":{"start":null,"end":"x"}}"#, "/quiet_hours/start"),
            (#"{"user_id":1,"quiet_hours":"22-07"}"#, "/quiet_hours"),
            (#"{"user_id":1,"quiet_hours":{"start":"a","end":"b","weekdays":[1,"x"]}}"#, "/quiet_hours/weekdays/1"),
            (#"{"user_id":1,"channel":"pigeon"}"#, "/channel"),
            (#"{"user_id":1,"mutes":[{"scope":"all"},{"scope":3}]}"#, "/mutes/1/scope"),
            (#"{"user_id":1,"mutes":[{"until":"2026-01-01T00:00:00Z"}]}"#, "/mutes/0/scope"),
            (#"{"user_id":1,"mutes":[{"scope":"all","until":"tomorrow"}]}"#, "/mutes/0/until"),
            (#"{"user_id":1,"labels":{"a/b":"x"}}"#, "/labels/a~1b"),
            (#"{"user_id":1,"enabled":"yes"}"#, "/enabled"),
            (#"{"user_id":1,"ratio":"high"}"#, "/ratio"),
            (#"{"user_id":1.5}"#, "/user_id"),
            (#"{"user_id":99999999999999999999999}"#, "/user_id"),
            (#"{"user_id":1,"level":300}"#, nil),
            (#"{"user_id":1,"mutes":{"scope":"all"}}"#, "/mutes"),
            ("[1,2]", ""),
            ("42", ""),
        ] as [(String, String?)])
    func shapeErrorsNameTheMember(json: String, pointer: String?) throws {
        let error = try #require(failure(json))
        #expect(error.status == .unprocessableContent)
        #expect(error.type == "validation-failed")
        #expect(error.pointer == pointer)
        #expect(error.errors.first?.pointer == pointer)
    }

    @Test(arguments: ["{", "", "{\"user_id\":1} trailing", "nul", "{'a':1}", "\u{FEFF}{{"])
    func syntaxErrorsAre400(json: String) throws {
        let error = try #require(failure(json))
        #expect(error.status == .badRequest)
        #expect(error.type == "malformed-json")
    }

    @Test func validBodyDecodesWithSnakeCaseAndDates() throws {
        let json = #"""
            {"user_id":3,"quiet_hours":{"start":"22:00","end":"07:00","weekdays":[1,2]},"channel":"email",
             "mutes":[{"scope":"all","until":"2026-12-01T09:00:00.250Z"},
                      {"scope":"t","until":"2026-12-01T10:00:00+01:00"}]}
            """#
        let value = try JSONCoders.decode(Preferences.self, from: Array(json.utf8))
        #expect(value.userId == 3)
        #expect(value.quietHours?.weekdays == [1, 2])
        #expect(value.channel == .email)
        #expect(value.mutes?[0].until?.timeIntervalSince1970 == 1_796_115_600.25)
        #expect(value.mutes?[1].until?.timeIntervalSince1970 == 1_796_115_600)
    }

    @Test(arguments: [
        ("quietHours", "quiet_hours"), ("userId", "user_id"), ("id", "id"), ("myURLValue", "my_url_value"),
        ("userID", "user_id"), ("a1B", "a1_b"), ("already_snake", "already_snake"),
    ])
    func propertyNamesMapToWireNames(property: String, wire: String) {
        #expect(JSONPointer.snakeCase(property) == wire)
    }

    @Test func pointerTokensAreEscaped() {
        #expect(JSONPointer.make(["a/b", "c~d", "0"]) == "/a~1b/c~0d/0")
        #expect(JSONPointer.make([]) == "")
    }

    @Test func encoderWritesSnakeCaseSortedKeysAndISODates() throws {
        struct Out: Encodable {
            var userId = 1
            var createdAt = Date(timeIntervalSince1970: 1_796_115_600)
            var updatedAt = Date(timeIntervalSince1970: 1_796_115_600.5)
        }
        let text = String(decoding: try JSONCoders.encoder.encode(Out()), as: UTF8.self)
        #expect(
            text
                == #"{"created_at":"2026-12-01T09:00:00Z","updated_at":"2026-12-01T09:00:00.500Z","user_id":1}"#)
    }
}
