import Foundation
import Testing

@testable import HeraldPostgres

@Suite struct EmbeddedPostgresSettingsTests {
    private static let gigabyte: UInt64 = 1_073_741_824

    @Test func sharedBuffersAreAQuarterOfTheMemoryBetween128MBAnd1GB() {
        func buffers(_ memory: UInt64) -> String? {
            EmbeddedPostgres.tunedSettings(physicalMemory: memory, hasLZ4: true)["shared_buffers"]
        }
        #expect(buffers(Self.gigabyte / 4) == "128MB")
        #expect(buffers(2 * Self.gigabyte) == "512MB")
        #expect(buffers(24 * Self.gigabyte) == "1024MB")
    }

    @Test func walCompressionOnlyWhereTheServerHasLZ4() {
        let with = EmbeddedPostgres.tunedSettings(physicalMemory: 8 * Self.gigabyte, hasLZ4: true)
        let without = EmbeddedPostgres.tunedSettings(physicalMemory: 8 * Self.gigabyte, hasLZ4: false)
        #expect(with["wal_compression"] == "lz4")
        #expect(without["wal_compression"] == nil)
        #expect(with["max_wal_size"] == "4GB" && with["checkpoint_timeout"] == "15min")
    }

    /// A durable server starts with the tuned settings, and a setting the caller names wins over them.
    @Test func aDurableServerStartsTunedAndTheCallersSettingsWin() async throws {
        try await onOwnThread {
            let folder = NSTemporaryDirectory() + "herald-embedded-\(UUID().uuidString.prefix(8))"
            let server = EmbeddedPostgres(folder: folder, options: .init(settings: ["checkpoint_timeout": "20min"]))
            defer {
                try? server.stop()
                try? FileManager.default.removeItem(atPath: folder)
            }
            let connection = try PostgresConnection(conninfo: try server.start())
            func show(_ name: String) throws -> String {
                try connection.query(Query(unsafeSQL: "SELECT current_setting('\(name)')")).single().string(0)
            }
            let memory = ProcessInfo.processInfo.physicalMemory
            let tuned = EmbeddedPostgres.tunedSettings(physicalMemory: memory, hasLZ4: true)
            let expectedBuffers = try #require(tuned["shared_buffers"])
            let megabytes = Int(expectedBuffers.dropLast(2))!
            #expect(try show("shared_buffers") == (megabytes % 1_024 == 0 ? "\(megabytes / 1_024)GB" : expectedBuffers))
            #expect(try show("max_wal_size") == "4GB")
            #expect(try show("checkpoint_timeout") == "20min")
            let lz4 = EmbeddedPostgres.serverHasLZ4(
                binaries: try EmbeddedPostgres.findBinaries(command: .forCurrentUser()))
            #expect(try show("wal_compression") == (lz4 ? "lz4" : "off"))
        }
    }
}
