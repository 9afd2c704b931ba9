import Foundation
import Glibc
import HeraldPostgres
import Testing

/// The real `herald serve` with its embedded PostgreSQL, probed from outside like another local user would.
@Suite("embedded database needs its password", .serialized)
struct EmbeddedDatabaseSecurityTests {
    @Test("without the password the embedded server refuses TCP and socket connections; with it both work")
    func passwordIsRequired() async throws {
        let herald = try RunningHerald.start()
        defer { herald.kill() }
        _ = try await herald.waitUntilReady()
        let folder = herald.dataDirectory + "/data/pg"
        let portText = try String(contentsOfFile: folder + "/port", encoding: .utf8)
        let port = try #require(Int(portText.trimmingCharacters(in: .whitespacesAndNewlines)))
        let passwordFile = folder + "/pgpass"
        let secret = try String(contentsOfFile: passwordFile, encoding: .utf8)
        let password = try #require(secret.split(separator: ":").last).trimmingCharacters(in: .newlines)
        #expect(password.count >= 43)
        try await offCooperativePool { () throws in
            for host in ["127.0.0.1", folder] {
                let base = "host='\(host)' port=\(port) user=herald dbname=herald"
                #expect(throws: PostgresError.self) {
                    try PostgresConnection(conninfo: base + " passfile='\(folder)/none'")
                }
                #expect(try PostgresConnection(conninfo: base + " passfile='\(passwordFile)'").isConnected)
            }
        }
        #expect(Self.mode(passwordFile) == 0o600)
        #expect(Self.mode(folder) == 0o700)
        #expect(Self.mode(folder + "/data") == 0o700)
        // Root runs the server as `postgres`, which may pass through the data folder but not read it.
        #expect(Self.mode(herald.dataDirectory + "/data") & 0o776 == 0o700)
        #expect(try herald.terminate() == 0)
        #expect(!herald.stdout().contains(password))
        #expect(!herald.stderr().contains(password))
        let log = (try? String(contentsOfFile: folder + "/postgres.log", encoding: .utf8)) ?? ""
        #expect(!log.contains(password))
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return info.st_mode & 0o777
    }
}
