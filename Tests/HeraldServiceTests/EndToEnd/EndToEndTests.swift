import Foundation
import Testing

/// Starts the real `herald` binary on its own embedded PostgreSQL and talks HTTP to it.
@Suite("herald binary end to end", .serialized)
struct EndToEndTests {
    @Test("serve: ready, authenticated API, clean stop on SIGTERM that also stops the embedded database")
    func serveAndStop() async throws {
        let herald = try RunningHerald.start()
        defer { herald.kill() }
        let ready = try await herald.waitUntilReady()
        #expect(ready.status == 200)
        #expect(ready.body.contains("\"ready\""))
        #expect(try await herald.get("/health").status == 200)
        #expect(try await herald.get("/v1/api-keys").status == 401)
        #expect(try await herald.get("/v1/api-keys", key: herald.adminKey).status == 200)
        let metrics = try await herald.get("/metrics")
        #expect(metrics.body.contains("herald_http_requests_total"))
        #expect(herald.stdout().contains("listening on http://127.0.0.1:\(herald.port)"))
        let status = try herald.terminate()
        #expect(status == 0)
        #expect(!herald.embeddedPostgresRunning())
    }

    @Test(
        "a SIGTERM while serve is still starting ends it, and leaves no embedded database running",
        arguments: ["icu-tz", "pg"])
    func stopWhileStarting(phase folder: String) async throws {
        let herald = try RunningHerald.start()
        defer { herald.kill() }
        // The moment the first start builds the tz data (then serve executes itself again), or starts its database.
        let path = herald.dataDirectory + "/data/" + folder
        let reached = await offCooperativePool {
            let deadline = ContinuousClock.now + .seconds(120)
            while !FileManager.default.fileExists(atPath: path) {
                guard herald.process.isRunning, ContinuousClock.now < deadline else { return false }
                usleep(500)
            }
            herald.process.terminate()
            return herald.process.waitUntilExited(timeout: .seconds(120))
        }
        #expect(reached, "serve did not reach \(folder), or did not end after SIGTERM: \(herald.stderr().suffix(400))")
        #expect(!herald.embeddedPostgresRunning())
    }

    @Test("serve reuses its database on the next start")
    func restartReusesCluster() async throws {
        let first = try RunningHerald.start()
        _ = try await first.waitUntilReady()
        let created = try await first.post(
            "/v1/api-keys", json: #"{"name":"kept","scopes":["events:write"]}"#, key: first.adminKey)
        #expect(created.status == 201)
        #expect(try first.terminate() == 0)
        let second = try RunningHerald.start(dataDirectory: first.dataDirectory, cleanUp: true)
        defer { second.kill() }
        _ = try await second.waitUntilReady()
        let list = try await second.get("/v1/api-keys", key: second.adminKey)
        #expect(list.body.contains("\"kept\""))
    }

    @Test("bad configuration is reported all at once with a non-zero exit")
    func badConfiguration() throws {
        let result = try RunningHerald.runToEnd(
            ["serve"], environment: ["HERALD_HTTP_ADDR": "nowhere", "HERALD_DB_POOL_SIZE": "0"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("HERALD_HTTP_ADDR"))
        #expect(result.stderr.contains("HERALD_DB_POOL_SIZE"))
    }
}
