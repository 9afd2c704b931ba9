import Foundation
import HeraldCore
import HeraldHTTP
import HeraldTestSupport
import Testing

@testable import HeraldService

/// What an import does to a user's devices as a whole: the cap on active devices holds across lines and with the
/// devices a user already has, and devices that trade tokens keep their rows.
@Suite("Import and a user's devices")
struct ImportDevicesTests {
    static func deviceLine(_ user: String, _ installations: Range<Int>, tokens: Int = 0) -> String {
        let devices = installations.map { index in
            #"{"installation_id":"\#(user)-\#(index)","platform":"apns","token":"\#(SampleTokens.apns(tokens + index))","#
                + #""app_id":"com.x"}"#
        }
        return #"{"id":"\#(user)","devices":[\#(devices.joined(separator: ","))]}"#
    }

    @Test("Two lines of 100 devices each refuse the user whole, and the other users are stored")
    func capAcrossLines() throws {
        let service = try TestService.make()
        defer { service.close() }
        let lines = [
            Self.deviceLine("many", 0..<100),  // 1
            #"{"id":"other","locale":"en"}"#,  // 2
            Self.deviceLine("many", 100..<200),  // 3
            Self.deviceLine("few", 0..<2, tokens: 1000),  // 4
        ]
        let response = ImportAPITests.importing(service, lines)
        #expect(response.status == .ok, "\(response.bodyText)")
        #expect(response.json["imported_lines"] == .int(2))
        #expect(response.json["failed_lines"] == .int(2))
        #expect(response.json["users"] == .int(2))
        #expect(response.json["devices"] == .int(2))
        let errors = response.json[array: "errors"].map { error -> String in
            guard case .int(let line)? = error["line"] else { return "?" }
            return "\(line) \(error[string: "pointer"] ?? "?")"
        }
        #expect(errors == ["1 /devices", "3 /devices"])
        #expect(service.send(.get, "/v1/users/many").status == .notFound)
        #expect(try service.count("SELECT count(*) FROM devices WHERE user_id = 'many'") == 0)
        #expect(try service.count("SELECT count(*) FROM devices WHERE user_id = 'few'") == 2)
        #expect(service.send(.get, "/v1/users/other").status == .ok)
    }

    @Test("Devices a user already has count: 99 registered and 2 imported refuse the line and change nothing")
    func capWithRegisteredDevices() throws {
        let service = try TestService.make()
        defer { service.close() }
        #expect(ImportAPITests.importing(service, [Self.deviceLine("u", 0..<99)]).json["devices"] == .int(99))
        let over = ImportAPITests.importing(service, [Self.deviceLine("u", 99..<101)])
        #expect(over.json["failed_lines"] == .int(1))
        #expect(over.json[array: "errors"].first?[string: "detail"]?.contains("more than 100 active devices") == true)
        #expect(try service.count("SELECT count(*) FROM devices WHERE user_id = 'u'") == 99)
        // Exactly 100 is allowed, and re-importing devices the user holds does not count them twice.
        let one = ImportAPITests.importing(service, [Self.deviceLine("u", 50..<100)])
        #expect(one.json["failed_lines"] == .int(0))
        #expect(try service.count("SELECT count(*) FROM devices WHERE user_id = 'u'") == 100)
    }

    @Test("Two installations that trade tokens keep their rows, and nothing is recorded as displaced")
    func tokenSwap() throws {
        let service = try TestService.make()
        defer { service.close() }
        let first = [
            #"{"id":"u","devices":[{"installation_id":"a","platform":"apns","token":"\#(SampleTokens.apns(1))","#
                + #""app_id":"com.x"},{"installation_id":"b","platform":"apns","token":"\#(SampleTokens.apns(2))","#
                + #""app_id":"com.x"}]}"#
        ]
        #expect(ImportAPITests.importing(service, first).json["devices"] == .int(2))
        let created = try service.sql("SELECT installation_id, created_at::text FROM devices ORDER BY 1").map {
            "\(try $0.string(0)) \(try $0.string(1))"
        }
        let swapped = [
            #"{"id":"u","devices":[{"installation_id":"a","platform":"apns","token":"\#(SampleTokens.apns(2))","#
                + #""app_id":"com.x"},{"installation_id":"b","platform":"apns","token":"\#(SampleTokens.apns(1))","#
                + #""app_id":"com.x"}]}"#
        ]
        let response = ImportAPITests.importing(service, swapped)
        #expect(response.status == .ok, "\(response.bodyText)")
        #expect(response.json["displaced_devices"] == .int(0))
        #expect(response.json["devices"] == .int(2))
        #expect(service.send(.get, "/v1/devices/a").json[string: "token"] == SampleTokens.apns(2))
        #expect(service.send(.get, "/v1/devices/b").json[string: "token"] == SampleTokens.apns(1))
        let after = try service.sql("SELECT installation_id, created_at::text FROM devices ORDER BY 1").map {
            "\(try $0.string(0)) \(try $0.string(1))"
        }
        #expect(after == created)
        #expect(try service.count("SELECT count(*) FROM device_deactivations") == 0)
    }
}
