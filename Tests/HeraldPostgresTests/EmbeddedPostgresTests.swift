import Foundation
import Glibc
import Testing

@testable import HeraldPostgres

@Suite struct EmbeddedPostgresTests {
    @Test func clusterIsReusedAcrossStopStartAndAfterAStalePidFile() async throws {
        try await onOwnThread { try Self.reuseScenario() }
    }

    /// A durable cluster starts with the write settings, and a setting named in its options wins over them; a
    /// throwaway (not durable) cluster keeps PostgreSQL's defaults.
    @Test func aDurableClusterStartsWithTheWriteSettingsUnlessTheOptionsNameThem() async throws {
        try await onOwnThread {
            let durable = try Self.settings(
                of: .init(settings: ["checkpoint_timeout": "20min"]),
                ["shared_buffers", "max_wal_size", "checkpoint_timeout"])
            #expect(durable == ["512MB", "8GB", "20min"])
            let throwaway = try Self.settings(of: .init(durable: false), ["shared_buffers", "max_wal_size"])
            #expect(throwaway == ["128MB", "1GB"])
        }
    }

    /// Herald reaches its own server through the unix socket in the cluster's folder, and on 127.0.0.1 when the
    /// socket is not there (as for a server adopted running without one).
    @Test func connectionsUseTheUnixSocketAndFallBackToLoopback() async throws {
        try await onOwnThread {
            try withStartedCluster("herald-embedded", Self.socketScenario)
        }
    }

    /// A folder whose path is too long for a unix socket gets a server without one, reached on 127.0.0.1.
    @Test func aFolderTooDeepForASocketIsReachedOnLoopback() async throws {
        try await onOwnThread {
            try withStartedCluster("herald-" + String(repeating: "d", count: 100)) { server, conninfo in
                #expect(server.socketPath(port: try #require(server.port)).utf8.count >= 107)
                #expect(conninfo.contains("host='127.0.0.1'"))
                let address = try PostgresConnection(conninfo: conninfo)
                    .query(Query(unsafeSQL: "SELECT inet_server_addr()::text")).single()
                #expect(try address.decode(String?.self, 0) == "127.0.0.1/32")
            }
        }
    }

    static func socketScenario(_ server: EmbeddedPostgres, _ viaSocket: String) throws {
        let port = try #require(server.port)
        #expect(viaSocket.contains("host='\(server.folder)'"))
        let serverAddress = Query(unsafeSQL: "SELECT inet_server_addr()::text")
        let overSocket = try PostgresConnection(conninfo: viaSocket).query(serverAddress).single()
        #expect(try overSocket.decode(String?.self, 0) == nil)

        #expect(unlink(server.socketPath(port: port)) == 0)
        let viaLoopback = try #require(server.conninfo(database: EmbeddedPostgres.database))
        #expect(viaLoopback.contains("host='127.0.0.1'"))
        let overLoopback = try PostgresConnection(conninfo: viaLoopback).query(serverAddress).single()
        #expect(try overLoopback.decode(String?.self, 0) == "127.0.0.1/32")
    }

    static func settings(of options: EmbeddedPostgres.Options, _ names: [String]) throws -> [String] {
        try withStartedCluster("herald-embedded", options: options) { _, conninfo in
            let connection = try PostgresConnection(conninfo: conninfo)
            return try names.map { try connection.query(Query(unsafeSQL: "SHOW \($0)")).single().string(0) }
        }
    }

    static func reuseScenario() throws {
        let folder = NSTemporaryDirectory() + "herald-embedded-\(UUID().uuidString.prefix(8))"
        let server = EmbeddedPostgres(folder: folder, options: .init(durable: false))
        defer {
            try? server.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }
        let conninfo = try server.start()
        #expect(conninfo.contains("dbname='herald'"))
        let first = try PostgresConnection(conninfo: conninfo)
        try first.executeScript(Query(unsafeSQL: "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')"))
        let port = try #require(server.port)
        try server.stop()
        #expect(throws: PostgresError.self) { try PostgresConnection(conninfo: conninfo) }

        // A crash leaves postmaster.pid behind, and its pid may since belong to an unrelated live process.
        let pidFile = server.dataDirectory + "/postmaster.pid"
        try "\(getpid())\n\(server.dataDirectory)\n0\n\(port)\n\(folder)\n127.0.0.1\n0 0\nready\n"
            .write(toFile: pidFile, atomically: true, encoding: .utf8)
        let again = try server.start()
        let row = try PostgresConnection(conninfo: again).query(Query(unsafeSQL: "SELECT v FROM kept")).single()
        #expect(try row.string(0) == "still here")
        #expect(server.port == port)

        // A second instance adopts the running server instead of starting another.
        let adopter = EmbeddedPostgres(folder: folder)
        #expect(try adopter.start() == again)
        #expect(FileManager.default.fileExists(atPath: server.logFile))
        #expect(FileManager.default.fileExists(atPath: folder + "/.s.PGSQL.\(port)"))
        let socketConnection = try PostgresConnection(
            conninfo: "host=\(folder) port=\(port) user=herald dbname=herald passfile=\(server.passwordFile)")
        #expect(socketConnection.isConnected)
        try server.stop()
        #expect(server.runningServerPort() == nil)
    }
}
