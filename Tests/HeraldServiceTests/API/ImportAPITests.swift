import Foundation
import HeraldHTTP
import HeraldSupport
import HeraldTestSupport
import Testing

@testable import HeraldService

@Suite("Bulk import")
struct ImportAPITests {
    static func importing(_ service: TestService, _ lines: [String]) -> HTTPResponse {
        service.dispatcher.respond(
            to: HTTPRequest(
                method: .post, target: "/v1/users:import",
                headers: ["Authorization": "Bearer \(service.adminKey)", "Content-Type": "application/x-ndjson"],
                body: Array(lines.joined(separator: "\n").utf8)))
    }

    @Test("Good lines load while bad lines are reported with line number, pointer and detail")
    func goodAndBadLines() throws {
        let service = try TestService.make()
        defer { service.close() }
        service.registerAPNs("old-phone", user: "someone", token: SampleTokens.apns(77))
        let token = SampleTokens.apns(1)
        let lines = [
            #"{"id":"u1","locale":"en_GB","time_zone":"Europe/London"}"#,  // 1
            #"{"id":"u2","time_zone":"Europe/Londn"}"#,  // 2: unknown zone
            #"{"id":"u3","#,  // 3: not JSON
            "",  // 4: blank, skipped
            #"{"id":"u4","devices":[{"installation_id":"i4","platform":"apns","token":"\#(token)","app_id":"com.x"}]}"#,
            #"{"id":"u5","devices":[{"installation_id":"i5","platform":"apns","token":"zz","app_id":"com.x"}]}"#,  // 6
            #"{"id":"u1","locale":"fr","time_zone":"Europe/Paris","badge":false}"#,  // 7: replaces line 1
            #"{"id":"bad id"}"#,  // 8
            #"{"id":"u6","devices":[{"installation_id":"i6","platform":"apns","token":"\#(SampleTokens.apns(77))","#
                + #""app_id":"com.x"}]}"#,
            #"{"id":"u7","quiet_hours":{"start":"23:00","end":"06:00"},"time_zone":"America/Sao_Paulo"}"#,  // 10
            #"{"id":"u8","devices":[{"installation_id":"i8","platform":"fcm","token":7,"app_id":"p"}]}"#,  // 11
            "[1,2]",  // 12
        ]
        let response = Self.importing(service, lines)
        #expect(response.status == .ok, "\(response.bodyText)")
        let summary = response.json
        #expect(summary["lines"] == .int(11))
        #expect(summary["imported_lines"] == .int(5))
        #expect(summary["failed_lines"] == .int(6))
        #expect(summary["users"] == .int(4))
        #expect(summary["devices"] == .int(2))
        #expect(summary["displaced_devices"] == .int(1))
        #expect(summary["errors_truncated"] == .bool(false))
        let errors = summary[array: "errors"].map { error -> String in
            guard case .int(let line)? = error["line"] else { return "?" }
            return "\(line) \(error[string: "pointer"] ?? "?")"
        }
        #expect(errors == ["2 /time_zone", "3 ", "6 /devices/0/token", "8 /id", "11 /devices/0/token", "12 "])

        let u1 = service.send(.get, "/v1/users/u1")
        #expect(u1.json[string: "locale"] == "fr")
        #expect(u1.json[string: "time_zone"] == "Europe/Paris")
        #expect(u1.json["badge"] == .bool(false))
        #expect(service.send(.get, "/v1/users/u2").status == .notFound)
        #expect(service.send(.get, "/v1/users/u5").status == .notFound)
        #expect(service.send(.get, "/v1/users/u4").json[array: "devices"].count == 1)
        #expect(service.send(.get, "/v1/devices/old-phone").status == .notFound)
        #expect(service.send(.get, "/v1/devices/i6").json[string: "user_id"] == "u6")
        #expect(service.send(.get, "/v1/users/u7").json["quiet_hours"]?[string: "start"] == "23:00")
    }

    @Test("Within one import the last line wins, per user, installation and token")
    func duplicates() throws {
        let service = try TestService.make()
        defer { service.close() }
        let token = SampleTokens.apns(5)
        let lines = [
            #"{"id":"a","devices":[{"installation_id":"x","platform":"apns","token":"\#(token)","app_id":"com.x"}]}"#,
            #"{"id":"b","devices":[{"installation_id":"y","platform":"apns","token":"\#(token)","app_id":"com.x"}]}"#,
            #"{"id":"a","devices":[{"installation_id":"z","platform":"apns","token":"\#(SampleTokens.apns(6))","#
                + #""app_id":"com.x"}]}"#,
        ]
        let response = Self.importing(service, lines)
        #expect(response.json["users"] == .int(2))
        #expect(try service.count("SELECT count(*) FROM devices") == 2)
        #expect(service.send(.get, "/v1/devices/y").json[string: "token"] == token)
        #expect(service.send(.get, "/v1/devices/x").status == .notFound)
        // A second import of the same file rewrites no user.
        let again = Self.importing(service, lines)
        #expect(again.json["failed_lines"] == .int(0))
        #expect(again.json["users"] == .int(0))
        #expect(try service.count("SELECT count(*) FROM devices") == 2)
    }

    @Test("Only NDJSON is accepted; an empty body imports nothing")
    func mediaType() throws {
        let service = try TestService.make()
        defer { service.close() }
        let json = service.send(.post, "/v1/users:import", json: #"{"id":"u1"}"#)
        #expect(json.status == .unsupportedMediaType)
        let empty = Self.importing(service, [])
        #expect(empty.status == .ok)
        #expect(empty.json["lines"] == .int(0))
    }

    @Test("Over HTTP the import route takes bodies beyond the server-wide 1 MiB limit; other routes do not")
    func bodyLimitPerRoute() async throws {
        let herald = try ImportTestServer.start()
        defer { herald.stop() }
        try await herald.waitUntilReady()
        let lines = (0..<30_000).map { #"{"id":"bulk-\#($0)","locale":"en","time_zone":"Europe/Berlin"}"# }
        let body = Data(lines.joined(separator: "\n").utf8)
        #expect(body.count > 1 << 20)
        let imported = try await herald.post("/v1/users:import", body: body, contentType: "application/x-ndjson")
        #expect(imported.status == 200)
        #expect(imported.body.contains(#""users":30000"#))

        let large = "{\"name\":\"" + String(repeating: "x", count: 1 << 20) + "\",\"scopes\":[\"admin\"]}"
        let rejected = try await herald.post("/v1/api-keys", body: Data(large.utf8), contentType: "application/json")
        #expect(rejected.status == 413)
    }
}

/// The `herald` binary serving on a free port with its own embedded PostgreSQL, output discarded.
struct ImportTestServer {
    let process: Process
    let port: Int
    let key: String
    let folder: String

    static func start() throws -> ImportTestServer {
        let folder = try RunningHerald.temporaryFolder()
        let port = RunningHerald.freePort()
        let key = "hk_import_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RunningHerald.binary)
        process.arguments = ["serve"]
        var environment = ProcessInfo.processInfo.environment
        environment["HERALD_DATA_DIR"] = folder + "/data"
        environment["HERALD_HTTP_ADDR"] = "127.0.0.1:\(port)"
        environment["HERALD_ADMIN_KEY"] = key
        // The route's body limit is under test, not the database's speed: 30,000 users on a loaded machine may
        // take longer than the default statement timeout.
        environment["HERALD_DB_STATEMENT_TIMEOUT_MS"] = "0"
        environment["HERALD_DB_LOCK_TIMEOUT_MS"] = "0"
        environment.removeValue(forKey: "DATABASE_URL")
        environment.removeValue(forKey: "ICU_TIMEZONE_FILES_DIR")
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return ImportTestServer(process: process, port: port, key: key, folder: folder)
    }

    func post(_ path: String, body: Data, contentType: String) async throws -> (status: Int, body: String) {
        let reply = try await LoopbackHTTP.request(
            port: port, "POST", path, headers: [("Authorization", "Bearer \(key)"), ("Content-Type", contentType)],
            body: Array(body), timeoutSeconds: 300)
        return (reply.status, reply.body)
    }

    /// Polls `/ready` with a deadline (the first start runs initdb).
    func waitUntilReady() async throws {
        _ = try await LoopbackHTTP.waitUntilReady(port: port) { [process] in process.isRunning }
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExited()
        }
        try? FileManager.default.removeItem(atPath: folder)
    }
}
