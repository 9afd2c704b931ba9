import Foundation
import HeraldHTTP
import HeraldTestSupport
import Testing

/// A client that dribbles headers it never finishes loses its connection after the header timeout, not after the
/// idle timeout it keeps from firing; one address holds a bounded number of connections.
@Suite struct HeaderDeadlineTests {
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
        #expect(configuration.validationProblems() == ["header timeout must be at least 0.1 second"])
    }
}
