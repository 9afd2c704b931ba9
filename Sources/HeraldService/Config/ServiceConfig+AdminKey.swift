import Foundation

/// The bootstrap admin key comes from the environment or a file, never from the command line: any local user can
/// read another process's arguments in `/proc`.
extension ServiceConfig {
    /// A problem for a flag that used to carry a secret, so an old command line fails loudly instead of silently.
    static func secretFlagProblem(_ flag: String) -> ConfigProblem? {
        guard flag == "--admin-key" else { return nil }
        return ConfigProblem(
            setting: "--admin-key",
            message: "is no longer accepted: a command line is visible to every local user; "
                + "set HERALD_ADMIN_KEY or HERALD_ADMIN_KEY_FILE instead")
    }

    /// Reads `HERALD_ADMIN_KEY`, or the first line of the file `HERALD_ADMIN_KEY_FILE` names; messages never echo
    /// the key.
    mutating func applyAdminKey(_ environment: [String: String], problems: inout [ConfigProblem]) {
        let direct = environment["HERALD_ADMIN_KEY"]
        let file = environment["HERALD_ADMIN_KEY_FILE"]
        if direct != nil && file != nil {
            problems.append(
                ConfigProblem(setting: "HERALD_ADMIN_KEY_FILE", message: "set either it or HERALD_ADMIN_KEY, not both"))
            return
        }
        let setting: String
        let key: String
        if let direct {
            (setting, key) = ("HERALD_ADMIN_KEY", direct)
        } else if let file {
            setting = "HERALD_ADMIN_KEY_FILE"
            guard let data = FileManager.default.contents(atPath: file) else {
                problems.append(ConfigProblem(setting: setting, message: "cannot read the file"))
                return
            }
            key = String(String(decoding: data, as: UTF8.self).split(separator: "\n").first ?? "")
                .trimmingCharacters(in: .whitespaces)
        } else {
            return
        }
        guard (16...256).contains(key.count), !key.contains(where: { $0.isWhitespace }) else {
            problems.append(ConfigProblem(setting: setting, message: "must be 16 to 256 characters without spaces"))
            return
        }
        adminKey = key
    }
}
