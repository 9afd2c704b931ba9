import Foundation
import Glibc

extension EmbeddedPostgres {
    /// The server binaries: `pg_config --bindir` when it has them, else the newest `/usr/lib/postgresql/*/bin`.
    static func findBinaries(command: ServerCommand) throws -> String {
        func hasServer(_ folder: String) -> Bool {
            ["initdb", "pg_ctl", "postgres"].allSatisfy {
                FileManager.default.isExecutableFile(atPath: folder + "/" + $0)
            }
        }
        if let pgConfig = ServerCommand.executable(named: "pg_config"),
            let (status, output) = try? ServerCommand(account: nil).runStatus(pgConfig, ["--bindir"], in: "/"),
            status == 0
        {
            let folder = output.trimmingCharacters(in: .whitespacesAndNewlines)
            if hasServer(folder) { return folder }
        }
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        let newest = versions.compactMap { name in Int(name).map { ($0, "\(root)/\(name)/bin") } }
            .sorted { $0.0 > $1.0 }
            .map(\.1)
            .first(where: hasServer)
        guard let newest else {
            throw EmbeddedPostgresError(.findBinaries, "no initdb/pg_ctl/postgres via pg_config or under \(root)")
        }
        return newest
    }

    /// Creates the folder, gives it to the server account and makes sure that account can reach it.
    func prepareFolder(command: ServerCommand) throws {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw EmbeddedPostgresError(.prepareFolder, "cannot create \(folder): \(error)")
        }
        try command.handOver(folder)
        guard chmod(folder, 0o700) == 0 else {
            throw EmbeddedPostgresError(.prepareFolder, "chmod \(folder) failed: errno \(errno)")
        }
        guard command.account != nil else { return }
        // The server account must be able to pass through every parent folder (e.g. /root is 0700).
        var parent = URL(fileURLWithPath: folder).deletingLastPathComponent()
        while parent.path != "/" && !parent.path.isEmpty {
            var info = stat()
            if stat(parent.path, &info) == 0, info.st_mode & S_IXOTH == 0 {
                guard chmod(parent.path, (info.st_mode & 0o7777) | S_IXOTH) == 0 else {
                    throw EmbeddedPostgresError(.prepareFolder, "cannot make \(parent.path) traversable")
                }
            }
            parent = parent.deletingLastPathComponent()
        }
    }

    /// The port of a live postmaster for this data directory, read from its `postmaster.pid`.
    func runningServerPort() -> Int? {
        guard let text = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8) else {
            return nil
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 4, let pid = Int32(lines[0]), let port = Int(lines[3]) else { return nil }
        return Self.isPostmaster(pid: pid, dataDirectory: dataDirectory) ? port : nil
    }

    /// Whether `pid` is a postgres process serving `dataDirectory`; after a crash the pid may belong to anything.
    static func isPostmaster(pid: Int32, dataDirectory: String) -> Bool {
        guard pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let commandLine = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
        let arguments = commandLine.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        return arguments.first.map { $0.hasSuffix("/postgres") || $0 == "postgres" } == true
            && arguments.contains(dataDirectory)
    }

    /// Removes `postmaster.pid` and socket lock files that no live server owns (left by a crash), because a
    /// recycled pid in them would make the new server refuse to start.
    func removeStaleLockFiles() {
        let files = FileManager.default
        try? files.removeItem(atPath: dataDirectory + "/postmaster.pid")
        for name in (try? files.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(".s.PGSQL.") {
            try? files.removeItem(atPath: folder + "/" + name)
        }
    }

    /// The port used last time when it is still free (a stable address is friendlier), else any free port.
    func choosePort() throws -> Int {
        if let text = try? String(contentsOfFile: folder + "/port", encoding: .utf8),
            let previous = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)),
            Self.bindLoopback(port: previous) != nil
        {
            return previous
        }
        guard let port = Self.bindLoopback(port: 0) else {
            throw EmbeddedPostgresError(.start, "no free TCP port on 127.0.0.1")
        }
        return port
    }

    /// Binds 127.0.0.1:`port` and releases it again; returns the bound port, or `nil` when taken.
    static func bindLoopback(port: Int) -> Int? {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { return nil }
        defer { close(socketDescriptor) }
        // The server binds with SO_REUSEADDR, so a port whose old connections linger in TIME_WAIT is free to it.
        var reuse: Int32 = 1
        setsockopt(socketDescriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socketDescriptor, generic, length) == 0 && getsockname(socketDescriptor, generic, &length) == 0
            }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }
}
