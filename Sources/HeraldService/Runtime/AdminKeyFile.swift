import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The admin key used when `HERALD_ADMIN_KEY` is not set: generated once and kept in the data folder (mode 0600),
/// so a restarted service keeps accepting the key it printed once, when it was created.
struct AdminKeyFile {
    /// Where the key lives: `<data dir>/admin-key`.
    let path: String

    init(dataDirectory: String) {
        path = (dataDirectory as NSString).appendingPathComponent("admin-key")
    }

    /// Returns the stored key, creating it with `generate` when there is none yet; `created` says which.
    func loadOrCreate(generate: () -> String) throws -> (key: String, created: Bool) {
        if let key = stored() { return (key, false) }
        let key = generate()
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let temporary = path + ".new.\(getpid())"
        unlink(temporary)
        // Created 0600 from the first byte (not chmod-ed afterwards), so the key is never readable by others.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ServiceStartError(message: "cannot write the admin key file in the data folder")
        }
        let bytes = Array((key + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced else {
            unlink(temporary)
            throw ServiceStartError(message: "cannot write the admin key file in the data folder")
        }
        // link, not rename: when another instance stored its key first, that key holds and this one is dropped.
        defer { unlink(temporary) }
        guard link(temporary, path) == 0 || errno == EEXIST, let stored = stored() else {
            throw ServiceStartError(message: "cannot write the admin key file in the data folder")
        }
        return (stored, stored == key)
    }

    private func stored() -> String? {
        guard let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            !text.isEmpty
        else { return nil }
        return text
    }
}

/// A start-up failure with a message fit for the operator.
public struct ServiceStartError: Error, CustomStringConvertible {
    /// What went wrong, without secrets.
    public var message: String

    public var description: String { message }
}
