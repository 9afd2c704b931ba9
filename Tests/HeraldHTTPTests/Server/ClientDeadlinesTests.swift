import Foundation
import HeraldCore
import HeraldHTTP
import HeraldTestSupport
import Testing

/// A client that dribbles headers it never finishes, or a body, loses its connection after the header timeout (and
/// for a body, once it falls below the minimum rate), not after the idle timeout it keeps from firing; one address
/// holds a bounded number of connections.
@Suite struct ClientDeadlinesTests {
    static let unfinished = Array("GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: a".utf8)

    @Test func headersNeverFinishedCloseTheConnectionAtTheHeaderTimeout() throws {
        let running = try RunningServer(idleTimeout: .seconds(120), headerTimeout: .seconds(1))
        // Receives give up after 20 s: only the header timeout can close the connection before that.
        let client = try RawHTTPClient(port: running.port, timeoutSeconds: 20)
        try client.send(Self.unfinished)
        #expect(client.isClosedByServer())
    }

    @Test func aKeptAliveConnectionHasTheTimeAgainForItsNextRequest() throws {
        let running = try RunningServer(idleTimeout: .seconds(120), headerTimeout: .seconds(1))
        let client = try RawHTTPClient(port: running.port, timeoutSeconds: 20)
        try client.send(Array("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try client.readResponse().status == 200)
        try client.send(Self.unfinished)
        #expect(client.isClosedByServer())
        // A prompt client is served as before.
        let prompt = try running.client()
        try prompt.send(Array("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try prompt.readResponse().status == 200)
    }

    static func echoHead(length: Int) -> [UInt8] {
        Array(
            ("POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Authorization: Bearer \(TestKeys.events)\r\nContent-Length: \(length)\r\n\r\n").utf8)
    }

    @Test func aBodyThatStopsComingClosesTheConnectionPastItsGrace() throws {
        let running = try RunningServer(idleTimeout: .seconds(120), headerTimeout: .seconds(1), minimumBodyRate: 1024)
        // Receives give up after 20 s: only the body's deadline can close the connection before that.
        let client = try RawHTTPClient(port: running.port, timeoutSeconds: 20)
        try client.send(Self.echoHead(length: 100) + Array(#"{"#.utf8))
        #expect(client.isClosedByServer())
    }

    @Test func aBodyAboveTheRateIsServedThoughItTakesLongerThanTheGrace() throws {
        let running = try RunningServer(idleTimeout: .seconds(120), headerTimeout: .seconds(1), minimumBodyRate: 1024)
        let client = try RawHTTPClient(port: running.port, timeoutSeconds: 20)
        let body = Array(#"{"user_id":1,"tags":["\#(String(repeating: "a", count: 4000))"]}"#.utf8)
        try client.send(Self.echoHead(length: body.count) + body.prefix(3000))
        // The rest comes after the grace: 3,000 bytes in 1.5 s is above 1,024 a second past the first second.
        Thread.sleep(forTimeInterval: 1.5)
        try client.send(Array(body.dropFirst(3000)))
        #expect(try client.readResponse().status == 201)
    }

    /// A caller whose key cannot be looked up is answered on its headers: a route's larger limit is for callers it
    /// admits, and the server holds no body of one it could not check.
    @Test func aCallerWhoseKeyCannotBeLookedUpIsAnsweredBeforeTheBody() throws {
        let running = try RunningServer(maxBodyBytes: 1024, authenticator: UnavailableAuthenticator()) { router in
            router.post("/v1/large", auth: .scope(.usersWrite), maxBodyBytes: 1 << 30) { _, _ in .noContent() }
        }
        let client = try RawHTTPClient(port: running.port, timeoutSeconds: 20)
        try client.send(
            Array(
                ("POST /v1/large HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer hk_made_up\r\n"
                    + "Content-Length: 209715200\r\nExpect: 100-continue\r\n\r\n").utf8))
        let response = try client.readResponse()
        #expect(response.status == 500)
        #expect(client.isClosedByServer())
    }

    @Test func oneAddressHoldsAtMostItsConnections() throws {
        let running = try RunningServer(connectionsPerAddress: 2)
        let first = try running.client()
        let second = try running.client()
        let third = try RawHTTPClient(port: running.port, timeoutSeconds: 20)
        #expect(third.isClosedByServer())
        for client in [first, second] {
            try client.send(Array("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(try client.readResponse().status == 200)
        }
    }

    @Test func theLimitsAreChecked() {
        var configuration = HTTPServerConfiguration(connectionLimit: 10, connectionsPerAddress: 11)
        #expect(configuration.validationProblems().contains { $0.contains("connections per address") })
        configuration.connectionsPerAddress = 0
        configuration.headerTimeout = .milliseconds(10)
        configuration.minimumBodyRate = -1
        #expect(
            configuration.validationProblems() == [
                "header timeout must be at least 0.1 second", "minimum body rate must not be negative",
            ])
    }
}
