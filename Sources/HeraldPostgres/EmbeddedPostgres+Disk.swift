import Foundation

/// Whether the disk can hold the WAL the embedded cluster may keep: with the write settings a burst may leave up to
/// `max_wal_size` of WAL before a checkpoint recycles it, and a full disk stops the server.
extension EmbeddedPostgres {
    /// The disk's free space falling short of the WAL the cluster may keep.
    public struct DiskShortfall: Sendable, Hashable {
        /// Free bytes on the filesystem that holds the cluster's folder.
        public var freeBytes: Int64
        /// The cluster's `max_wal_size`, in bytes.
        public var walAllowanceBytes: Int64
    }

    /// The shortfall, when the filesystem of the cluster's folder has less free space than `max_wal_size`; `nil`
    /// when it has enough, when the setting is not a size, or when the free space cannot be read.
    public func diskShortfall() -> DiskShortfall? {
        var stats = statvfs()
        guard statvfs(folder, &stats) == 0 else { return nil }
        return Self.shortfall(
            freeBytes: Int64(stats.f_bavail) * Int64(stats.f_frsize), maxWalSize: serverSettings["max_wal_size"])
    }

    /// The shortfall for `freeBytes` of free space and a `max_wal_size` setting (PostgreSQL's default, 1 GB, when
    /// it is not set).
    static func shortfall(freeBytes: Int64, maxWalSize: String?) -> DiskShortfall? {
        guard let allowance = bytes(ofSize: maxWalSize ?? "1GB"), freeBytes < allowance else { return nil }
        return DiskShortfall(freeBytes: freeBytes, walAllowanceBytes: allowance)
    }

    /// The bytes a PostgreSQL size setting names (`8GB`, `512MB`, `64kB`, `1TB`; a bare number of `max_wal_size`
    /// is megabytes), or `nil` for anything else.
    static func bytes(ofSize text: String) -> Int64? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard let number = Int64(digits), number <= Int64(Int32.max) else { return nil }
        let units: [String: Int64] = ["": 1 << 20, "kB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40]
        guard let unit = units[String(text.dropFirst(digits.count)).trimmingCharacters(in: .whitespaces)] else {
            return nil
        }
        return number * unit
    }
}
