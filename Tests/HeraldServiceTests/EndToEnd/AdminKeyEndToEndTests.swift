import Foundation
import Glibc
import Testing

/// The bootstrap admin key of the real binary: shown once, kept 0600, never from the command line, and a
/// revocation that survives restarts.
@Suite("bootstrap admin key end to end", .serialized)
struct AdminKeyEndToEndTests {
    @Test("a generated key is printed once, kept 0600, and a revocation survives the next start")
    func generatedKeyIsShownOnceAndRevocationHolds() async throws {
        let first = try RunningHerald.start(environment: ["HERALD_ADMIN_KEY": nil])
        _ = try await first.waitUntilReady()
        let keyFile = first.dataDirectory + "/data/admin-key"
        let key = try String(contentsOfFile: keyFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(key.count >= 16)
        #expect(Self.mode(keyFile) == 0o600)
        #expect(first.stdout().contains(key))
        #expect(!first.stderr().contains(key))
        #expect(try await first.get("/v1/api-keys", key: key).status == 200)
        let other = try await first.post(
            "/v1/api-keys", json: #"{"name":"second admin","scopes":["admin"]}"#, key: key)
        #expect(other.status == 201)
        let otherKey = try #require(Self.secret(in: other.body))
        #expect(try await first.request("DELETE", "/v1/api-keys/admin", key: otherKey).status == 204)
        #expect(try first.terminate() == 0)

        let second = try RunningHerald.start(
            dataDirectory: first.dataDirectory, cleanUp: true, environment: ["HERALD_ADMIN_KEY": nil])
        defer { second.kill() }
        _ = try await second.waitUntilReady()
        #expect(!second.stdout().contains(key))
        #expect(second.stdout().contains("kept in"))
        #expect(try await second.get("/v1/api-keys", key: key).status == 401)
        #expect(try await second.get("/v1/api-keys", key: otherKey).status == 200)
    }

    @Test("the key can come from HERALD_ADMIN_KEY_FILE and is not printed")
    func keyFromFile() async throws {
        let folder = try RunningHerald.temporaryFolder()
        let keyFile = folder + "/admin-key-secret"
        let key = "hk_file_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        try (key + "\n").write(toFile: keyFile, atomically: true, encoding: .utf8)
        let herald = try RunningHerald.start(
            dataDirectory: folder, cleanUp: true,
            environment: ["HERALD_ADMIN_KEY": nil, "HERALD_ADMIN_KEY_FILE": keyFile])
        defer { herald.kill() }
        _ = try await herald.waitUntilReady()
        #expect(try await herald.get("/v1/api-keys", key: key).status == 200)
        #expect(!herald.stdout().contains(key))
        #expect(!FileManager.default.fileExists(atPath: folder + "/data/admin-key"))
    }

    @Test("--admin-key on the command line is refused, and the value is not echoed")
    func commandLineFlagIsRefused() throws {
        let key = "hk_cli_0123456789abcdef0123456789"
        let result = try RunningHerald.runToEnd(["serve", "--admin-key", key], environment: [:])
        #expect(result.status == 64)
        #expect(result.stderr.contains("HERALD_ADMIN_KEY"))
        #expect(!result.stderr.contains(key))
    }

    static func secret(in body: String) -> String? {
        let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        return object?["secret"] as? String
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return info.st_mode & 0o777
    }
}
