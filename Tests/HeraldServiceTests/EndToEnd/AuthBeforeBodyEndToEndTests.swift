import Foundation
import HeraldTestSupport
import Testing

/// Against the real binary: the route and the caller are settled on the headers, so a stranger or a key without
/// the route's scope is answered before any body byte is read, a declared length over the route's limit is a 413
/// at once, and a chunked body is cut at the limit. None of it makes the server hold the bodies.
@Suite("Authentication before the body (binary end to end)", .serialized)
struct AuthBeforeBodyEndToEndTests {
    static let mebibyte = 1 << 20

    /// The resident memory of `pid` in MB.
    static func residentMB(_ pid: Int32) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first ?? 0
        return kilobytes / 1_024
    }

    /// Opens one connection per request, sends every head first (all connections open at once), then reads each
    /// answer before any body is sent, and finally tries to send the bodies the server no longer wants.
    static func heads(
        port: Int, count: Int, method: String = "POST", target: String, length: Int, key: String?
    ) throws -> [Int] {
        var headers = [("Content-Type", "application/json"), ("Content-Length", "\(length)")]
        if let key { headers.append(("Authorization", "Bearer \(key)")) }
        var clients: [RawHTTPClient] = []
        for _ in 0..<count {
            let client = try RawHTTPClient(port: UInt16(port), timeoutSeconds: 20)
            var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            try client.send(Array((head + "\r\n").utf8))
            clients.append(client)
        }
        let statuses = try clients.map { try $0.readResponse().status }
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: min(length, mebibyte))
        for client in clients { try? client.send(body) }
        return statuses
    }

    @Test func strangersAndOversizedBodiesAreAnsweredBeforeTheBodyAndHoldNoMemory() async throws {
        let herald = try RunningHerald.start()
        defer { herald.kill() }
        _ = try await herald.waitUntilReady()
        let port = herald.port
        let pid = herald.process.processIdentifier
        let created = try await herald.post(
            "/v1/api-keys", json: #"{"name":"events only","scopes":["events:write"]}"#, key: herald.adminKey)
        let eventsKey = try #require(
            ((try? JSONSerialization.jsonObject(with: Data(created.body.utf8))) as? [String: Any])?["secret"]
                as? String)
        let idle = Self.residentMB(pid)
        var peak = idle

        let (strangers, publicBodies, imports, unscoped, tooLong, tooLongImport) = try await offCooperativePool {
            () -> ([Int], [Int], [Int], [Int], [Int], [Int]) in
            let strangers = try Self.heads(
                port: port, count: 150, target: "/v1/events", length: Self.mebibyte, key: nil)
            // A public route needs no key, and a GET takes no body: nobody makes the server hold one there.
            let publicBodies = try Self.heads(
                port: port, count: 100, method: "GET", target: "/health", length: Self.mebibyte, key: nil)
            let imports = try Self.heads(
                port: port, count: 4, target: "/v1/users:import", length: 64 * Self.mebibyte, key: "hk_wrong")
            let unscoped = try Self.heads(
                port: port, count: 2, target: "/v1/users:import", length: 64 * Self.mebibyte, key: eventsKey)
            let tooLong = try Self.heads(
                port: port, count: 2, target: "/v1/events", length: 2 * Self.mebibyte, key: eventsKey)
            let tooLongImport = try Self.heads(
                port: port, count: 1, target: "/v1/users:import", length: 300 * Self.mebibyte, key: herald.adminKey)
            return (strangers, publicBodies, imports, unscoped, tooLong, tooLongImport)
        }
        peak = max(peak, Self.residentMB(pid))
        #expect(strangers == Array(repeating: 401, count: 150))
        #expect(publicBodies == Array(repeating: 413, count: 100))
        #expect(imports == [401, 401, 401, 401])
        #expect(unscoped == [403, 403])
        #expect(tooLong == [413, 413])
        #expect(tooLongImport == [413])

        // A chunked body has no declared length: it is counted as it arrives and cut at the 1 MiB limit.
        let chunked = try await offCooperativePool { () -> Int in
            let client = try RawHTTPClient(port: UInt16(port), timeoutSeconds: 20)
            try client.send(
                Array(
                    ("POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(eventsKey)\r\n"
                        + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n").utf8))
            let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 64 * 1_024)
            for _ in 0..<24 {
                try client.send(Array("10000\r\n".utf8) + chunk + Array("\r\n".utf8))
            }
            try client.send(Array("0\r\n\r\n".utf8))
            return try client.readResponse().status
        }
        peak = max(peak, Self.residentMB(pid))
        #expect(chunked == 413)
        print("auth before body: RSS idle \(idle) MB, peak \(peak) MB")
        #expect(peak - idle < 40)
        // The server still serves the rightful caller.
        #expect(try await herald.get("/v1/api-keys", key: herald.adminKey).status == 200)
    }
}
