import Foundation
import HeraldSupport
import Synchronization

@testable import HeraldService

/// Three `nats-server -js` processes clustered on 127.0.0.1 (free ports, a temporary folder each), which a test
/// may stop and start again one at a time.
final class NATSTestCluster: Sendable {
    struct Node: Sendable {
        var name: String
        var clientPort: Int
        var routePort: Int
        var folder: String
    }

    let nodes: [Node]
    let root: String
    private let processes = Mutex<[Int: Process]>([:])

    init(size: Int = 3) throws {
        let root = try RunningHerald.temporaryFolder()
        self.root = root
        nodes = (0..<size).map { index in
            Node(
                name: "n\(index + 1)", clientPort: RunningHerald.freePort(), routePort: RunningHerald.freePort(),
                folder: root + "/n\(index + 1)")
        }
    }

    /// The client URLs, comma-separated, as `HERALD_NATS_URL` takes them.
    var url: String { nodes.map { "nats://127.0.0.1:\($0.clientPort)" }.joined(separator: ",") }

    var servers: [String] { nodes.map { "nats://127.0.0.1:\($0.clientPort)" } }

    /// Starts every node.
    func start() throws {
        for index in nodes.indices { try start(node: index) }
    }

    /// Starts one node with the cluster's routes.
    func start(node index: Int) throws {
        let node = nodes[index]
        try FileManager.default.createDirectory(atPath: node.folder, withIntermediateDirectories: true)
        let routes = nodes.map { "nats://127.0.0.1:\($0.routePort)" }.joined(separator: ",")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = [
            "-a", "127.0.0.1", "-p", String(node.clientPort), "-js", "-sd", node.folder, "--server_name", node.name,
            "--cluster_name", "herald-test", "--cluster", "nats://127.0.0.1:\(node.routePort)", "--routes", routes,
        ]
        let log = root + "/\(node.name).log"
        if !FileManager.default.fileExists(atPath: log) {
            _ = FileManager.default.createFile(atPath: log, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try handle.seekToEnd()
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        processes.withLock { $0[index] = process }
    }

    /// Stops one node (SIGTERM, as an orchestrator does) and waits for it to exit.
    func stop(node index: Int) {
        guard let process = processes.withLock({ $0.removeValue(forKey: index) }) else { return }
        process.terminate()
        process.waitUntilExited()
    }

    /// Stops every node and removes the folders.
    func shutDown() {
        for index in nodes.indices { stop(node: index) }
        try? FileManager.default.removeItem(atPath: root)
    }

    static var binary: String {
        ProcessInfo.processInfo.environment["NATS_SERVER_BINARY"] ?? "/usr/sbin/nats-server"
    }

    /// Creates (or finds) a stream, retrying while the cluster elects its JetStream leader.
    func ensureStream(name: String, subjects: [String], replicas: Int, deadline: Duration = .seconds(60)) throws {
        let end = ContinuousClock.now + deadline
        while true {
            do {
                let client = try NATSClient(servers: servers, name: "herald-test-admin")
                try client.ensureStream(name: name, subjects: subjects, replicas: replicas)
                return
            } catch {
                guard ContinuousClock.now < end else { throw error }
                Thread.sleep(forTimeInterval: 0.25)
            }
        }
    }
}
