import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.1 client over one loopback keep-alive connection, posting event batches and timing each
/// request. It runs on its own thread (blocking socket calls stay off the cooperative pool).
final class BenchConnection {
    private let socket: Int32
    private let adminKey: String
    private var buffer: [UInt8] = []

    init(port: UInt16, adminKey: String) throws {
        self.adminKey = adminKey
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard socket >= 0, connected == 0 else { throw ServiceStartError(message: "bench: cannot connect") }
        var one: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(socket) }

    /// Posts one batch body to `/v1/events`; returns the latency in milliseconds, or throws when not accepted.
    func post(_ body: String) throws -> Double {
        let bytes = Array(body.utf8)
        let head =
            "POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(adminKey)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(bytes.count)\r\n\r\n"
        let request = Array(head.utf8) + bytes
        let start = ContinuousClock.now
        var sent = 0
        while sent < request.count {
            let written = request[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
            guard written > 0 else { throw ServiceStartError(message: "bench: send failed") }
            sent += written
        }
        let status = try readResponse()
        guard (200..<300).contains(status) else {
            throw ServiceStartError(message: "bench: POST /v1/events answered \(status)")
        }
        return BenchStatistics.seconds(since: start) * 1000
    }

    /// Reads one response with a Content-Length body; returns its status code.
    private func readResponse() throws -> Int {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headerEnd: Int?
        while true {
            if headerEnd == nil, buffer.count >= 4 {
                headerEnd = (0...(buffer.count - 4)).first { buffer[$0..<($0 + 4)].elementsEqual(separator) }
            }
            if let end = headerEnd {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                let lines = head.split(separator: "\r\n")
                let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
                let length =
                    lines.first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                if buffer.count >= end + 4 + length {
                    buffer.removeFirst(end + 4 + length)
                    return status
                }
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let received = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard received > 0 else { throw ServiceStartError(message: "bench: connection closed") }
            buffer += chunk[..<received]
        }
    }
}

/// Drives `BenchConnection`s from dedicated threads.
struct BenchClient: Sendable {
    let port: UInt16
    let adminKey: String

    /// Posts `batches` from `connections` concurrent connections; returns every request's latency.
    func ingest(batches: [String], connections: Int) throws -> [Double] {
        try lanes(connections) { lane, connection in
            try stride(from: lane, to: batches.count, by: connections).map { try connection.post(batches[$0]) }
        }
    }

    /// Posts every `lanes`-th of `bodies`, from `lane` on, over one connection until `stopped()`; returns the count
    /// of bodies posted.
    func post(
        _ bodies: [String], lane: Int, of lanes: Int, until stopped: @escaping @Sendable () -> Bool
    ) throws -> Int {
        let connection = try BenchConnection(port: port, adminKey: adminKey)
        var posted = 0
        for index in stride(from: lane, to: bodies.count, by: lanes) {
            guard !stopped() else { break }
            _ = try connection.post(bodies[index])
            posted += 1
        }
        return posted
    }

    /// Posts `count` bodies at a steady pace, one every `interval` seconds, spread over `connections` connections;
    /// returns every request's latency. Body `index` is `body(index)`, asked for when it is due: a prepared array
    /// keeps its making out of the figures, a body made then keeps a long run's memory flat.
    func steady(
        count: Int, interval: Double, connections: Int, body: @escaping @Sendable (Int) -> String
    ) throws -> [Double] {
        let start = Date()
        return try lanes(connections) { lane, connection in
            try stride(from: lane, to: count, by: connections).map { index in
                let due = start.addingTimeInterval(Double(index) * interval)
                if due > Date() { Thread.sleep(until: due) }
                return try connection.post(body(index))
            }
        }
    }

    private func lanes(
        _ count: Int, _ work: @escaping @Sendable (Int, BenchConnection) throws -> [Double]
    ) throws -> [Double] {
        try BenchThreads.run(count) { [port, adminKey] lane in
            try work(lane, try BenchConnection(port: port, adminKey: adminKey))
        }.flatMap { $0 }
    }
}
