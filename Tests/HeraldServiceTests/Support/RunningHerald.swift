import Foundation
import HeraldHTTP
import HeraldSupport
import HeraldTestSupport
import Synchronization

/// The real `herald` binary (`HERALD_BINARY`, else the one beside the test bundle) serving on a free port with its
/// own data folder and embedded PostgreSQL.
final class RunningHerald: @unchecked Sendable {
    // @unchecked: the Process is only touched from the test that owns this value.
    let process: Process
    let port: Int
    let dataDirectory: String
    let adminKey: String
    private let outputFile: String
    private let cleanUp: Bool

    struct Reply {
        var status: Int
        var body: String
    }

    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["HERALD_BINARY"] { return path }
        // The test bundle sits beside the binaries of the same build; look in its folder and the one above.
        let bundle = Bundle.main.bundleURL
        for folder in [bundle, bundle.deletingLastPathComponent()] {
            let candidate = folder.appendingPathComponent("herald").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return bundle.appendingPathComponent("herald").path
    }

    static func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "herald-e2e-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        // The embedded PostgreSQL may run as the `postgres` user, which must reach the folder.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    /// A port no other test of this process was given, below the kernel's ephemeral range (32768 and up) so that
    /// no outgoing connection can take it between this check and the server's bind.
    static func freePort() -> Int {
        while true {
            let port = nextPort.withLock { next in
                defer { next = next >= 32_000 ? 20_000 : next + 1 }
                return next
            }
            if isBindable(port) { return port }
        }
    }

    private static let nextPort = Mutex(20_000 + Int(getpid()) % 10_000)

    private static func isBindable(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 }
        }
    }

    private init(
        process: Process, port: Int, dataDirectory: String, adminKey: String, outputFile: String, cleanUp: Bool
    ) {
        self.process = process
        self.port = port
        self.dataDirectory = dataDirectory
        self.adminKey = adminKey
        self.outputFile = outputFile
        self.cleanUp = cleanUp
    }

    /// Starts `herald serve`; `environment` adds variables, or removes them with `nil` (`HERALD_ADMIN_KEY` is set
    /// to a fresh key unless removed or replaced there).
    static func start(
        dataDirectory: String? = nil, cleanUp: Bool = false, environment extra: [String: String?] = [:]
    ) throws -> RunningHerald {
        let folder = try dataDirectory ?? temporaryFolder()
        let port = freePort()
        let key = "hk_e2e_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve"]
        var environment = ProcessInfo.processInfo.environment
        environment["HERALD_DATA_DIR"] = folder + "/data"
        environment["HERALD_HTTP_ADDR"] = "127.0.0.1:\(port)"
        environment["HERALD_ADMIN_KEY"] = key
        environment.removeValue(forKey: "DATABASE_URL")
        environment.removeValue(forKey: "ICU_TIMEZONE_FILES_DIR")
        for (name, value) in extra { environment[name] = value }
        process.environment = environment
        let outputFile = folder + "/stdout-\(port).txt"
        _ = FileManager.default.createFile(atPath: outputFile, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputFile))
        let errorFile = folder + "/stderr-\(port).txt"
        _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorFile))
        try process.run()
        return RunningHerald(
            process: process, port: port, dataDirectory: folder, adminKey: environment["HERALD_ADMIN_KEY"] ?? "",
            outputFile: outputFile,
            cleanUp: cleanUp || dataDirectory == nil)
    }

    /// Runs herald with `arguments` to completion and returns its status and stderr.
    static func runToEnd(
        _ arguments: [String], environment extra: [String: String]
    ) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExited()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func stdout() -> String {
        (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
    }

    /// What this start wrote on stderr (the log).
    func stderr() -> String {
        (try? String(contentsOfFile: dataDirectory + "/stderr-\(port).txt", encoding: .utf8)) ?? ""
    }

    func request(_ method: String, _ path: String, json: String? = nil, key: String? = nil) async throws -> Reply {
        let reply = try await LoopbackHTTP.request(port: port, method, path, json: json, key: key)
        return Reply(status: reply.status, body: reply.body)
    }

    func get(_ path: String, key: String? = nil) async throws -> Reply { try await request("GET", path, key: key) }

    func post(_ path: String, json: String, key: String? = nil) async throws -> Reply {
        try await request("POST", path, json: json, key: key)
    }

    /// Polls `/ready` until it answers 200 (the first start runs initdb, so allow a generous deadline).
    func waitUntilReady(deadline: Duration = .seconds(120)) async throws -> Reply {
        do {
            let reply = try await LoopbackHTTP.waitUntilReady(port: port, deadline: deadline) { [process] in
                process.isRunning
            }
            return Reply(status: reply.status, body: reply.body)
        } catch let failure as LoopbackHTTP.NotReady {
            throw StartFailure(message: "herald: \(failure.description): \(stdout())")
        }
    }

    /// Sends SIGTERM, waits for the exit and returns the status.
    func terminate() throws -> Int32 {
        process.terminate()
        process.waitUntilExited()
        return process.terminationStatus
    }

    /// Whether a postgres server still runs on this instance's data folder.
    func embeddedPostgresRunning() -> Bool {
        embeddedPostgresProcess() != nil
    }

    /// The process id of the postgres server running on this instance's data folder, if one does.
    func embeddedPostgresProcess() -> Int32? {
        let folder = dataDirectory + "/data/pg/data"
        guard let text = try? String(contentsOfFile: folder + "/postmaster.pid", encoding: .utf8),
            let pid = Int32(text.split(separator: "\n").first ?? ""), Glibc.kill(pid, 0) == 0,
            let command = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8),
            command.contains(folder)
        else { return nil }
        return pid
    }

    /// Stops herald, and the embedded server it may have left running (a herald killed with SIGKILL cannot stop
    /// it), so that no test leaves a server behind for the rest of the run.
    func kill() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExited()
        }
        if let postgres = embeddedPostgresProcess() {
            Glibc.kill(postgres, SIGQUIT)
            let deadline = ContinuousClock.now + .seconds(30)
            while Glibc.kill(postgres, 0) == 0, ContinuousClock.now < deadline { usleep(10_000) }
        }
        if cleanUp { try? FileManager.default.removeItem(atPath: dataDirectory) }
    }

    struct StartFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
