import Foundation
import HeraldHTTP

/// The client token key used when `HERALD_CLIENT_TOKEN_KEYS` is not set: generated once and kept in the data
/// folder (mode 0600), so tokens minted before a restart still verify. It is never printed or logged.
struct ClientTokenKeyFile {
    /// Where the key lives: `<data dir>/client-token-key`, one `kid:base64url` line.
    let path: String

    init(dataDirectory: String) {
        path = (dataDirectory as NSString).appendingPathComponent("client-token-key")
    }

    /// The stored keys, creating a single key when there is none yet (when two instances start at once, both end
    /// with the first one's key).
    func loadOrCreate() throws -> [ClientTokenKey] {
        let file = SecretFile(path: path)
        var text = file.stored()
        if text == nil {
            guard let key = ClientTokenKey.generate(id: "local") else {
                throw ServiceStartError(message: "cannot generate a client token key")
            }
            text = try file.store(
                key.listEntry,
                failure: ServiceStartError(message: "cannot write the client token key file in the data folder"))
        }
        guard let text, let keys = ClientTokenKey.parseList(text) else {
            throw ServiceStartError(message: "the client token key file in the data folder is malformed")
        }
        return keys
    }

    /// The configured keys, or the data folder's when none are configured.
    static func keys(for config: ServiceConfig) throws -> [ClientTokenKey] {
        if !config.clientTokenKeys.isEmpty { return config.clientTokenKeys }
        return try ClientTokenKeyFile(dataDirectory: config.dataDirectory).loadOrCreate()
    }
}
