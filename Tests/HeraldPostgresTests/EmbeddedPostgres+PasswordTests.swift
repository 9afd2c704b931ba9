import Foundation
import Glibc
import Testing

@testable import HeraldPostgres

@Suite struct EmbeddedPostgresPasswordTests {
    @Test func aNewClusterRefusesConnectionsWithoutThePasswordOnTCPAndTheSocket() async throws {
        try await onOwnThread {
            try Self.withCluster { server, conninfo in
                let port = try #require(server.port)
                try Self.expectPasswordRequired(server, port: port)
                let password = try #require(server.storedPassword())
                #expect(password.utf8.count >= 43)  // 32 random bytes in base64url
                #expect(Self.mode(server.passwordFile) == 0o600)
                #expect(Self.mode(server.folder) == 0o700)
                #expect(Self.mode(server.dataDirectory) == 0o700)
                #expect(!FileManager.default.fileExists(atPath: server.folder + "/initdb-password"))
                let log = (try? String(contentsOfFile: server.logFile, encoding: .utf8)) ?? ""
                #expect(!log.contains(password))
                let rules = try PostgresConnection(conninfo: conninfo).query(
                    Query(unsafeSQL: "SELECT DISTINCT auth_method FROM pg_hba_file_rules"))
                #expect(try rules.map { try $0.string(0) } == ["scram-sha-256"])
            }
        }
    }

    @Test func aClusterCreatedWithTrustIsMadeToRequireThePasswordOnStart() async throws {
        try await onOwnThread {
            let folder = NSTemporaryDirectory() + "herald-trust-\(UUID().uuidString.prefix(8))"
            let server = EmbeddedPostgres(folder: folder, options: .init(durable: false))
            defer {
                try? server.stop()
                try? FileManager.default.removeItem(atPath: folder)
            }
            // What an older Herald left behind: initdb with trust, no password file.
            let command = try ServerCommand.forCurrentUser()
            try server.prepareFolder(command: command)
            try command.run(
                try EmbeddedPostgres.findBinaries(command: command) + "/initdb",
                ["-D", server.dataDirectory, "-U", "herald", "--auth=trust", "--no-sync"], in: folder,
                failing: .initialize)
            #expect(!FileManager.default.fileExists(atPath: server.passwordFile))

            let conninfo = try server.start()
            try Self.expectPasswordRequired(server, port: try #require(server.port))
            #expect(Self.mode(server.passwordFile) == 0o600)
            #expect(try PostgresConnection(conninfo: conninfo).isConnected)

            // A restart keeps the same password and the same rules.
            try server.stop()
            let again = try server.start()
            #expect(try PostgresConnection(conninfo: again).isConnected)
            try Self.expectPasswordRequired(server, port: try #require(server.port))
        }
    }

    static func withCluster(_ body: (EmbeddedPostgres, String) throws -> Void) throws {
        try withStartedCluster("herald-scram", body)
    }

    /// Without the password the server refuses TCP and unix socket connections alike; with it both work.
    static func expectPasswordRequired(_ server: EmbeddedPostgres, port: Int) throws {
        let password = try #require(server.storedPassword())
        let nowhere = server.folder + "/no-such-pgpass"
        for host in ["127.0.0.1", server.folder] {
            let without = "host='\(host)' port=\(port) user=herald dbname=postgres passfile='\(nowhere)'"
            let error = #expect(throws: PostgresError.self) { try PostgresConnection(conninfo: without) }
            #expect(error?.debugDescription.contains("password") == true)
            #expect(error?.debugDescription.contains(password) == false)
            let wrong = "host='\(host)' port=\(port) user=herald dbname=postgres password=not-the-password"
            #expect(throws: PostgresError.self) { try PostgresConnection(conninfo: wrong) }
            let with = "host='\(host)' port=\(port) user=herald dbname=postgres passfile='\(server.passwordFile)'"
            #expect(try PostgresConnection(conninfo: with).isConnected)
        }
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return info.st_mode & 0o777
    }
}
