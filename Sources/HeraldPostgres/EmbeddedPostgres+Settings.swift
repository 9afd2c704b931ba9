import Foundation

extension EmbeddedPostgres {
    /// The settings a durable embedded server starts with, before `Options.settings` (which win), for a
    /// write-heavy queue on one machine:
    /// - `shared_buffers`: a quarter of the memory, at least PostgreSQL's 128MB and at most 1GB. With the default of
    ///   128MB the hot tables and their indexes outgrow the buffers and every batch reads pages back from the OS.
    /// - `max_wal_size` 4GB and `checkpoint_timeout` 15min: fewer checkpoints, so fewer full-page images in the
    ///   WAL (the first change of every page after a checkpoint logs the whole page).
    /// - `wal_compression` lz4, when the server is built with it: the full-page images that remain are compressed.
    /// - `wal_buffers` 16MB: a batch's WAL fits before it is flushed.
    static func tunedSettings(physicalMemory: UInt64, hasLZ4: Bool) -> [String: String] {
        let quarter = physicalMemory / 4 / 1_048_576
        var settings = [
            "shared_buffers": "\(min(1_024, max(128, quarter)))MB",
            "max_wal_size": "4GB",
            "checkpoint_timeout": "15min",
            "wal_buffers": "16MB",
        ]
        if hasLZ4 { settings["wal_compression"] = "lz4" }
        return settings
    }

    /// Whether the server in `binaries` was built with lz4, by its `pg_config --configure`.
    static func serverHasLZ4(binaries: String) -> Bool {
        let pgConfig = binaries + "/pg_config"
        guard FileManager.default.isExecutableFile(atPath: pgConfig),
            let (status, output) = try? ServerCommand(account: nil).runStatus(pgConfig, ["--configure"], in: "/"),
            status == 0
        else { return false }
        return output.contains("--with-lz4")
    }

    /// Every setting the server starts with: the tuned ones for a durable server, then `options.settings`.
    func startSettings(binaries: String) -> [String: String] {
        guard options.durable else { return options.settings }
        let tuned = Self.tunedSettings(
            physicalMemory: ProcessInfo.processInfo.physicalMemory, hasLZ4: Self.serverHasLZ4(binaries: binaries))
        return tuned.merging(options.settings) { $1 }
    }
}
