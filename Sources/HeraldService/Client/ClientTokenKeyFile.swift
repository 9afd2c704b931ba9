import Foundation
import HeraldHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// The client token key used when `HERALD_CLIENT_TOKEN_KEYS` is not set: generated once and kept in the data
/// folder (mode 0600), so tokens minted before a restart still verify. It is never printed or logged.
struct ClientTokenKeyFile {
    /// Where the key lives: `<data dir>/client-token-key`, one `kid:base64url` line.
    let path: String

    init(dataDirectory: String) {
        path = (dataDirectory as NSString).appendingPathComponent("client-token-key")
    }

    /// The stored keys, creating a single key when there is none yet.
    func loadOrCreate() throws -> [ClientTokenKey] {
        if let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            !text.isEmpty
        {
            guard let keys = ClientTokenKey.parseList(text) else {
                throw ServiceStartError(message: "the client token key file in the data folder is malformed")
            }
            return keys
        }
        guard let key = ClientTokenKey.generate(id: "local") else {
            throw ServiceStartError(message: "cannot generate a client token key")
        }
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let temporary = path + ".tmp"
        guard
            FileManager.default.createFile(
                atPath: temporary, contents: Data((key.listEntry + "\n").utf8),
                attributes: [.posixPermissions: 0o600]),
            rename(temporary, path) == 0
        else {
            throw ServiceStartError(message: "cannot write the client token key file in the data folder")
        }
        return [key]
    }

    /// The configured keys, or the data folder's when none are configured.
    static func keys(for config: ServiceConfig) throws -> [ClientTokenKey] {
        if !config.clientTokenKeys.isEmpty { return config.clientTokenKeys }
        return try ClientTokenKeyFile(dataDirectory: config.dataDirectory).loadOrCreate()
    }
}
