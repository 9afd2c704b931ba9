internal import CLibPQ
import Foundation
import Glibc
import HeraldCore

/// The embedded cluster's password: every connection, TCP or unix socket, authenticates with SCRAM-SHA-256.
///
/// The password is generated at the first start and kept in `<folder>/pgpass` (mode 0600, libpq's password file
/// format), which the conninfo names with `passfile=`, so the secret itself never travels in a connection string,
/// a command line or a log line.
extension EmbeddedPostgres {
    /// The file holding the `herald` role's password, in libpq's `.pgpass` format.
    public var passwordFile: String { folder + "/pgpass" }

    /// Client authentication for every local and loopback connection; written over whatever initdb produced.
    static let hostBasedAuthentication = """
        # Written by Herald: every connection authenticates with the password kept in ../pgpass.
        local   all             all                                     scram-sha-256
        host    all             all             127.0.0.1/32            scram-sha-256
        host    all             all             ::1/128                 scram-sha-256
        local   replication     all                                     scram-sha-256
        host    replication     all             127.0.0.1/32            scram-sha-256
        host    replication     all             ::1/128                 scram-sha-256

        """

    var hostBasedAuthenticationFile: String { dataDirectory + "/pg_hba.conf" }

    /// 32 random bytes from the system generator, as unpadded base64url (no `:` or `\` to escape in pgpass).
    static func generatePassword() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(bytes)
    }

    /// The stored password, or `nil` when there is no usable password file yet.
    func storedPassword() -> String? {
        guard let data = FileManager.default.contents(atPath: passwordFile) else { return nil }
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first ?? ""
        let fields = line.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false)
        guard fields.count == 5, !fields[4].isEmpty else { return nil }
        return String(fields[4])
    }

    /// The stored password, generating and storing a new one when there is none.
    func loadOrCreatePassword() throws -> String {
        if let password = storedPassword() { return password }
        let password = Self.generatePassword()
        // Another instance starting on the same folder may store its password first; then that one holds.
        try Self.writeSecret("*:*:*:\(Self.user):\(password)\n", to: passwordFile, owner: nil, replacing: false)
        guard let stored = storedPassword() else {
            throw EmbeddedPostgresError(.secure, "cannot read back \(passwordFile)")
        }
        return stored
    }

    /// Runs initdb with SCRAM authentication; the password reaches it through a short-lived 0600 file.
    func initializeCluster(command: ServerCommand, binaries: String) throws {
        let password = try loadOrCreatePassword()
        let initialPassword = folder + "/initdb-password"
        try Self.writeSecret(password + "\n", to: initialPassword, owner: command)
        defer { unlink(initialPassword) }
        var arguments = [
            "-D", dataDirectory, "-U", Self.user, "-E", "UTF8", "--locale=C.UTF-8", "--auth=scram-sha-256",
            "--pwfile=" + initialPassword,
        ]
        if !options.durable { arguments.append("--no-sync") }
        try command.run(binaries + "/initdb", arguments, in: folder, failing: .initialize)
        try Self.writeSecret(Self.hostBasedAuthentication, to: hostBasedAuthenticationFile, owner: command)
    }

    /// Makes a cluster created by an older Herald with `--auth=trust` require the password: sets the role's
    /// password (as a SCRAM verifier computed here, so the server never sees it), replaces `pg_hba.conf`, reloads,
    /// and waits until a connection without the password is refused. Does nothing when `pg_hba.conf` is Herald's.
    func requirePassword(port: Int, command: ServerCommand) throws {
        let current = FileManager.default.contents(atPath: hostBasedAuthenticationFile)
        guard current != Data(Self.hostBasedAuthentication.utf8) else {
            guard storedPassword() != nil else {
                throw EmbeddedPostgresError(.secure, "\(passwordFile) is missing; restore it or reset the password")
            }
            return
        }
        let password = try loadOrCreatePassword()
        do {
            let connection = try PostgresConnection(conninfo: conninfo(port: port, database: "postgres"))
            let verifier = try connection.scramVerifier(password: password, user: Self.user)
            try connection.executeScript(
                Query(
                    unsafeSQL: "ALTER ROLE \(try connection.quoteIdentifier(Self.user)) PASSWORD "
                        + (try connection.quoteLiteral(verifier))))
            try Self.writeSecret(Self.hostBasedAuthentication, to: hostBasedAuthenticationFile, owner: command)
            _ = try connection.query(Query(unsafeSQL: "SELECT pg_reload_conf()"))
        } catch let error as PostgresError {
            throw EmbeddedPostgresError(.secure, error.debugDescription)
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while (try? PostgresConnection(conninfo: passwordlessConninfo(port: port))) != nil {
            guard ContinuousClock.now < deadline else {
                throw EmbeddedPostgresError(.secure, "the server still accepts connections without the password")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// A conninfo without any password source, to check that the server refuses it.
    func passwordlessConninfo(port: Int) -> String {
        Conninfo.format([
            ("host", "127.0.0.1"), ("port", String(port)), ("user", Self.user), ("dbname", "postgres"),
            ("passfile", folder + "/no-such-pgpass"), ("connect_timeout", "5"),
        ])
    }

    /// Writes `text` to `path` with mode 0600 through a fresh temporary file and a rename, so the file is never
    /// readable by others, not even for a moment; `owner` hands it to the server account. Without `replacing`,
    /// an existing file is left as it is.
    static func writeSecret(_ text: String, to path: String, owner: ServerCommand?, replacing: Bool = true) throws {
        let temporary = path + ".new.\(getpid())"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw EmbeddedPostgresError(.secure, "cannot create \(temporary): errno \(errno)")
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced else {
            unlink(temporary)
            throw EmbeddedPostgresError(.secure, "cannot write \(temporary)")
        }
        try owner?.handOver(temporary)
        if !replacing {
            defer { unlink(temporary) }
            guard link(temporary, path) == 0 || errno == EEXIST else {
                throw EmbeddedPostgresError(.secure, "cannot create \(path): errno \(errno)")
            }
            return
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw EmbeddedPostgresError(.secure, "cannot rename \(temporary): errno \(errno)")
        }
    }
}

extension PostgresConnection {
    /// The SCRAM-SHA-256 verifier of `password`, computed by libpq on this side of the connection.
    func scramVerifier(password: String, user: String) throws -> String {
        guard let verifier = PQencryptPasswordConn(handle, password, user, "scram-sha-256") else {
            throw connectionError()
        }
        defer { PQfreemem(verifier) }
        return String(cString: verifier)
    }

    /// `text` as an SQL string literal, quoted by libpq.
    func quoteLiteral(_ text: String) throws -> String {
        guard let quoted = PQescapeLiteral(handle, text, text.utf8.count) else { throw connectionError() }
        defer { PQfreemem(quoted) }
        return String(cString: quoted)
    }
}
