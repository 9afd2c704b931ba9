import Foundation
import Glibc
import HeraldSupport

/// Runs PostgreSQL's server programs, as the `postgres` system user when this process is root (initdb and
/// postgres refuse to run as root).
struct ServerCommand: Sendable {
    /// The account to run as, when it differs from the current one.
    let account: SystemAccount?

    /// The owner to give the cluster's folder: `postgres` when running as root, else the current user.
    static func forCurrentUser() throws -> ServerCommand {
        guard geteuid() == 0 else { return ServerCommand(account: nil) }
        guard let entry = getpwnam("postgres") else {
            throw EmbeddedPostgresError(.prepareFolder, "running as root but there is no 'postgres' system user")
        }
        return ServerCommand(
            account: SystemAccount(name: "postgres", uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid))
    }

    /// Runs `executable` and returns its combined output; throws with that output on a non-zero exit.
    @discardableResult
    func run(
        _ executable: String, _ arguments: [String], in folder: String, failing step: EmbeddedPostgresError.Step
    )
        throws -> String
    {
        let (status, output) = try runStatus(executable, arguments, in: folder)
        guard status == 0 else { throw EmbeddedPostgresError(step, "exit status \(status): \(output)") }
        return output
    }

    /// Runs `executable` and returns its exit status and combined output.
    func runStatus(_ executable: String, _ arguments: [String], in folder: String) throws -> (Int32, String) {
        var command: [String]
        if let account {
            if let runuser = Self.executable(named: "runuser") {
                command = [runuser, "-u", account.name, "--", executable] + arguments
            } else {
                let line = ([executable] + arguments).map(Self.shellQuoted).joined(separator: " ")
                command = ["/bin/su", account.name, "-s", "/bin/sh", "-c", line]
            }
        } else {
            command = [executable] + arguments
        }
        let process = Process()
        // Foundation watches a descriptor that the child inherits to learn when it exits; `pg_ctl start` would
        // pass it on to the long-lived server, and the wait would never end. So close every inherited
        // descriptor above stderr first.
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", Self.closeInheritedDescriptors, "herald"] + command
        // A folder the server account can enter, so it does not complain about the inherited directory.
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        // Output goes to a file, not a pipe: the server started by pg_ctl inherits descriptors and would keep a
        // pipe open for its whole life.
        let outputPath = NSTemporaryDirectory() + "/herald-pg-command-\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: outputPath, contents: nil),
            let output = FileHandle(forWritingAtPath: outputPath)
        else { throw EmbeddedPostgresError(.prepareFolder, "cannot create \(outputPath)") }
        defer {
            try? output.close()
            try? FileManager.default.removeItem(atPath: outputPath)
        }
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw EmbeddedPostgresError(.findBinaries, "cannot run \(executable): \(error)")
        }
        process.waitUntilExited()
        let data = FileManager.default.contents(atPath: outputPath) ?? Data()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Gives `path` to the server account (when there is one).
    func handOver(_ path: String) throws {
        guard let account else { return }
        guard chown(path, account.uid, account.gid) == 0 else {
            throw EmbeddedPostgresError(.prepareFolder, "chown \(path) failed: errno \(errno)")
        }
    }

    /// The first executable called `name` on `PATH` or in the system folders.
    static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin", "/usr/bin", "/bin"]
        return folders.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static let closeInheritedDescriptors = """
        for fd in /proc/$$/fd/*; do n=${fd##*/}; if [ "$n" -gt 2 ] && [ -e "$fd" ]; then eval "exec $n>&-"; fi; done
        exec "$@"
        """

    static func shellQuoted(_ argument: String) -> String {
        "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// A system user account.
struct SystemAccount: Sendable {
    let name: String
    let uid: uid_t
    let gid: gid_t
}
