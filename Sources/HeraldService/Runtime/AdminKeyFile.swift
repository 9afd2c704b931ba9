import Foundation

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// The admin key used when `HERALD_ADMIN_KEY` is not set: generated once and kept in the data folder (mode 0600),
/// so a restarted service keeps accepting the key it printed before.
struct AdminKeyFile {
    /// Where the key lives: `<data dir>/admin-key`.
    let path: String

    init(dataDirectory: String) {
        path = (dataDirectory as NSString).appendingPathComponent("admin-key")
    }

    /// Returns the stored key, creating it with `generate` when there is none yet.
    func loadOrCreate(generate: () -> String) throws -> String {
        if let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            !text.isEmpty
        {
            return text
        }
        let key = generate()
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let temporary = path + ".tmp"
        guard
            FileManager.default.createFile(
                atPath: temporary, contents: Data((key + "\n").utf8), attributes: [.posixPermissions: 0o600])
        else {
            throw ServiceStartError(message: "cannot write the admin key file in the data folder")
        }
        guard rename(temporary, path) == 0 else {
            throw ServiceStartError(message: "cannot write the admin key file in the data folder")
        }
        return key
    }
}

/// A start-up failure with a message fit for the operator.
public struct ServiceStartError: Error, CustomStringConvertible {
    /// What went wrong, without secrets.
    public var message: String

    public var description: String { message }
}
