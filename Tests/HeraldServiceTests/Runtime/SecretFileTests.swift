import Foundation
import Testing

@testable import HeraldService

/// The data folder's secrets: readable by the owner only, and the first one stored holds.
@Suite struct SecretFileTests {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "herald-secret-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    @Test func theFirstSecretStoredHoldsAndOnlyItsOwnerReadsIt() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = SecretFile(path: folder + "/secret")
        let failure = ServiceStartError(message: "cannot write")
        #expect(try file.store("first", failure: failure) == "first")
        #expect(try file.store("second", failure: failure) == "first")
        #expect(file.stored() == "first")
        #expect(try Self.mode(file.path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["secret"])
    }

    @Test func bothKeyFilesKeepTheirFirstKey() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tokens = ClientTokenKeyFile(dataDirectory: folder)
        let first = try tokens.loadOrCreate()
        #expect(try tokens.loadOrCreate().map(\.listEntry) == first.map(\.listEntry))
        #expect(try Self.mode(tokens.path) == 0o600)
        let admin = AdminKeyFile(dataDirectory: folder)
        let created = try admin.loadOrCreate { "hk_first" }
        #expect(created.key == "hk_first" && created.created)
        let again = try admin.loadOrCreate { "hk_second" }
        #expect(again.key == "hk_first" && !again.created)
        #expect(try Self.mode(admin.path) == 0o600)
    }
}
