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
        let file = SecretFile(path: path)
        if let key = file.stored() { return (key, false) }
        let key = generate()
        let stored = try file.store(
            key, failure: ServiceStartError(message: "cannot write the admin key file in the data folder"))
        return (stored, stored == key)
    }
}

/// A start-up failure with a message fit for the operator.
public struct ServiceStartError: Error, CustomStringConvertible {
    /// What went wrong, without secrets.
    public var message: String

    public var description: String { message }
}
