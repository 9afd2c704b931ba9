import Foundation

/// Requests to a server on 127.0.0.1 through `RawHTTPClient`, one connection per request, on a thread of its own so
/// that the blocking socket never holds one of the few cooperative threads.
public enum LoopbackHTTP {
    public struct Reply: Sendable {
        public var status: Int
        public var body: String
        public var headers: [(String, String)]

        public func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    /// Sends one request and reads its response; throws when the connection is refused, breaks or times out.
    public static func request(
        port: Int, _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = [],
        timeoutSeconds: Int = 10
    ) async throws -> Reply {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        let client = try RawHTTPClient(port: UInt16(port), timeoutSeconds: timeoutSeconds)
                        let response = try client.request(
                            method, path, headers: headers + [("Connection", "close")], body: body)
                        return Reply(status: response.status, body: response.text, headers: response.headers)
                    })
            }.start()
        }
    }

    /// A request with a bearer key and, when given, a JSON body.
    public static func request(
        port: Int, _ method: String, _ path: String, json: String? = nil, key: String?, timeoutSeconds: Int = 10
    ) async throws -> Reply {
        var headers: [(String, String)] = []
        if let key { headers.append(("Authorization", "Bearer \(key)")) }
        if json != nil { headers.append(("Content-Type", "application/json")) }
        return try await request(
            port: port, method, path, headers: headers, body: Array((json ?? "").utf8), timeoutSeconds: timeoutSeconds)
    }

    /// Polls `GET /ready` every 100 ms until it answers 200, while `isRunning` holds; throws when the deadline
    /// passes or the server exits first.
    public static func waitUntilReady(
        port: Int, deadline: Duration = .seconds(120), isRunning: @Sendable () -> Bool
    ) async throws -> Reply {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while clock.now < end {
            guard isRunning() else { throw NotReady(description: "the server exited before it was ready") }
            if let reply = try? await request(port: port, "GET", "/ready", timeoutSeconds: 2), reply.status == 200 {
                return reply
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw NotReady(description: "the server was not ready within \(deadline)")
    }

    public struct NotReady: Error, CustomStringConvertible {
        public let description: String
    }
}
