import Foundation
import Testing

@testable import HeraldPostgres

/// The embedded cluster's check that its disk can hold the WAL its settings let it keep.
@Suite struct EmbeddedPostgresDiskTests {
    @Test func sizeSettingsReadAsPostgreSQLWritesThem() {
        #expect(EmbeddedPostgres.bytes(ofSize: "8GB") == 8 << 30)
        #expect(EmbeddedPostgres.bytes(ofSize: "512MB") == 512 << 20)
        #expect(EmbeddedPostgres.bytes(ofSize: "64kB") == 64 << 10)
        #expect(EmbeddedPostgres.bytes(ofSize: "2TB") == 2 << 40)
        #expect(EmbeddedPostgres.bytes(ofSize: "1024") == 1 << 30)
        for text in ["", "GB", "8GiB", "8gb", "-1GB", "8 PB", "99999999999GB"] {
            #expect(EmbeddedPostgres.bytes(ofSize: text) == nil, "\(text)")
        }
    }

    @Test func aDiskWithLessFreeSpaceThanTheWALAllowanceFallsShort() {
        let gigabyte: Int64 = 1 << 30
        #expect(
            EmbeddedPostgres.shortfall(freeBytes: 7 * gigabyte, maxWalSize: "8GB")
                == .init(freeBytes: 7 * gigabyte, walAllowanceBytes: 8 * gigabyte))
        #expect(EmbeddedPostgres.shortfall(freeBytes: 9 * gigabyte, maxWalSize: "8GB") == nil)
        // Unset: PostgreSQL's default of 1 GB.
        #expect(EmbeddedPostgres.shortfall(freeBytes: gigabyte / 2, maxWalSize: nil)?.walAllowanceBytes == gigabyte)
        #expect(EmbeddedPostgres.shortfall(freeBytes: 2 * gigabyte, maxWalSize: nil) == nil)
        #expect(EmbeddedPostgres.shortfall(freeBytes: 0, maxWalSize: "lots") == nil)
    }

    @Test func theClusterReadsTheFreeSpaceOfItsOwnFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Two petabytes of WAL: no test machine has that much free.
        let huge = EmbeddedPostgres(folder: folder.path, options: .init(settings: ["max_wal_size": "2000000000MB"]))
        let shortfall = try #require(huge.diskShortfall())
        #expect(shortfall.walAllowanceBytes == 2_000_000_000 << 20)
        #expect(shortfall.freeBytes > 0 && shortfall.freeBytes < shortfall.walAllowanceBytes)
        let small = EmbeddedPostgres(folder: folder.path, options: .init(settings: ["max_wal_size": "1kB"]))
        #expect(small.diskShortfall() == nil)
    }
}
