import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A secret kept in a file of the data folder: written mode 0600 from its first byte (never readable by others,
/// not even for a moment), synced, and put in place with `link`, so that when two instances start at once on one
/// folder the first one's secret holds and the other adopts it.
struct SecretFile {
    let path: String

    /// The stored text, trimmed; nil when there is none.
    func stored() -> String? {
        guard let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            !text.isEmpty
        else { return nil }
        return text
    }

    /// Stores `text` unless a secret is stored already; returns the one that holds. A failure throws `failure`.
    func store(_ text: String, failure: ServiceStartError) throws -> String {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let temporary = path + ".new.\(getpid())"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure }
        let bytes = Array((text + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        defer { unlink(temporary) }
        guard written == bytes.count, synced else { throw failure }
        // link, not rename: when another instance stored its secret first, that one holds and this one is dropped.
        guard link(temporary, path) == 0 || errno == EEXIST, let stored = stored() else { throw failure }
        return stored
    }
}
