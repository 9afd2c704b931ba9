import Foundation
import HeraldHTTP
import HeraldPostgres
import Synchronization
import Testing

@testable import HeraldService

/// Where the bootstrap admin key may come from, and that a revocation outlives a restart.
@Suite("bootstrap admin key secrets")
struct AdminKeySecretTests {
    static let key = "hk_test_0123456789abcdef0123456789"

    @Test(arguments: [["--admin-key", key], ["--admin-key=\(key)"]])
    func theCommandLineFlagIsRefusedWithoutEchoingTheKey(_ arguments: [String]) {
        guard case .failure(let problems) = ServiceConfig.load(environment: [:], arguments: arguments) else {
            Issue.record("--admin-key was accepted")
            return
        }
        #expect(problems.problems.map(\.setting) == ["--admin-key"])
        #expect(problems.description.contains("HERALD_ADMIN_KEY_FILE"))
        #expect(!problems.description.contains(Self.key))
    }

    @Test func theKeyIsReadFromTheEnvironmentOrFromAFile() throws {
        let direct = try ServiceConfig.load(environment: ["HERALD_ADMIN_KEY": Self.key], arguments: []).get()
        #expect(direct.adminKey == Self.key)
        let file = NSTemporaryDirectory() + "herald-admin-key-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try (Self.key + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let fromFile = try ServiceConfig.load(environment: ["HERALD_ADMIN_KEY_FILE": file], arguments: []).get()
        #expect(fromFile.adminKey == Self.key)
        #expect(try ServiceConfig.load(environment: [:], arguments: []).get().adminKey == nil)
    }

    @Test func badKeySourcesAreReportedWithoutTheKey() throws {
        let file = NSTemporaryDirectory() + "herald-admin-key-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "short secret\n".write(toFile: file, atomically: true, encoding: .utf8)
        let cases: [[String: String]] = [
            ["HERALD_ADMIN_KEY": Self.key, "HERALD_ADMIN_KEY_FILE": file],
            ["HERALD_ADMIN_KEY_FILE": file],
            ["HERALD_ADMIN_KEY_FILE": file + ".missing"],
            ["HERALD_ADMIN_KEY": "short secret"],
        ]
        for environment in cases {
            guard case .failure(let problems) = ServiceConfig.load(environment: environment, arguments: []) else {
                Issue.record("accepted \(environment.keys.sorted())")
                continue
            }
            #expect(problems.problems.count == 1)
            #expect(!problems.description.contains(Self.key) && !problems.description.contains("short secret"))
        }
    }

    @Test func aRevokedBootstrapKeyStaysRevokedUntilItsValueChanges() throws {
        let conninfo = try TemporaryPostgres.freshDatabase()
        _ = try MigrateCommand.apply(try Migrator(folder: TestService.sqlFolder), conninfo: conninfo)
        let connection = try PostgresConnection(conninfo: conninfo)
        let first = APIKeySecret.generate().hash
        #expect(
            try !APIKeyRepository.upsertAdmin(
                id: "admin", name: "bootstrap", keyHash: first, now: Date(), on: connection))
        #expect(try APIKeyRepository.revoke(id: "admin", now: Date(), on: connection))
        // The next start brings the same value: the revocation holds.
        #expect(
            try APIKeyRepository.upsertAdmin(
                id: "admin", name: "bootstrap", keyHash: first, now: Date(), on: connection))
        #expect(try APIKeyRepository.active(keyHash: first, on: connection) == nil)
        // A new value is a new key.
        let second = APIKeySecret.generate().hash
        #expect(
            try !APIKeyRepository.upsertAdmin(
                id: "admin", name: "bootstrap", keyHash: second, now: Date(), on: connection))
        #expect(try APIKeyRepository.active(keyHash: second, on: connection)?.id == "admin")
        #expect(try APIKeyRepository.active(keyHash: first, on: connection) == nil)
    }

    /// Replicas of one deployment start together with the same key: every one of them comes up.
    @Test func replicasStartingTogetherAllStoreTheSameBootstrapKey() throws {
        let conninfo = try TemporaryPostgres.freshDatabase()
        _ = try MigrateCommand.apply(try Migrator(folder: TestService.sqlFolder), conninfo: conninfo)
        let hash = APIKeySecret.generate().hash
        let pool = try PostgresPool(conninfo: conninfo, size: 6)
        defer { pool.close() }
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do {
                _ = try pool.withConnectionBlocking { connection in
                    try APIKeyRepository.upsertAdmin(
                        id: "admin", name: "bootstrap", keyHash: hash, now: Date(), on: connection)
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(
            try pool.withConnectionBlocking { try APIKeyRepository.active(keyHash: hash, on: $0)?.id } == "admin")
    }
}
