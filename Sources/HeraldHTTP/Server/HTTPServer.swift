internal import CMicroHTTPD
import Foundation
import HeraldObservability
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd's epoll thread pool. Handlers run synchronously on its worker threads.
public final class HTTPServer: Sendable {
    private enum Phase {
        case idle
        case running(Running)
        case stopped
    }

    private struct Running {
        let daemon: OpaquePointer
        let port: UInt16
        let core: Unmanaged<ServerCore>
    }

    private let core: ServerCore
    private let phase = Mutex(Phase.idle)

    /// Creates a stopped server. Metrics, when given, record every request.
    public init(
        configuration: HTTPServerConfiguration, dispatcher: RequestDispatcher, logger: Logger,
        metrics: Metrics? = nil
    ) {
        let core = ServerCore(configuration: configuration, dispatcher: dispatcher, logger: logger, metrics: metrics)
        self.core = core
        if let metrics {
            metrics.registerGauge(
                metrics.namespace + "_http_requests_active",
                help: "HTTP requests whose handler is running or whose response is being sent."
            ) { Double(core.active.load(ordering: .relaxed)) }
        }
    }

    /// The configuration the server was created with.
    public var configuration: HTTPServerConfiguration { core.configuration }

    /// The bound port while running (the real one when the configuration asked for port 0).
    public var port: UInt16? {
        phase.withLock { phase in
            if case .running(let running) = phase { return running.port }
            return nil
        }
    }

    /// Requests that have started (request line received) and are not yet complete, including uploads.
    public var inFlightRequests: Int {
        core.inFlight.load(ordering: .acquiring)
    }

    /// Requests whose handler is running or whose response is being sent; graceful stop waits for these.
    public var activeRequests: Int {
        core.active.load(ordering: .acquiring)
    }

    /// Whether `stop` has begun: new connections are refused and responses close their connection.
    public var isDraining: Bool {
        core.draining.load(ordering: .acquiring)
    }

    /// Binds and starts serving; throws when the configuration is invalid, the address is taken or the daemon
    /// fails to start.
    public func start() throws(HTTPServerError) {
        let configuration = core.configuration
        let problems = configuration.validationProblems()
        guard problems.isEmpty else {
            throw HTTPServerError(.invalidConfiguration, problems.joined(separator: "; "))
        }
        try phase.withLock { (phase: inout Phase) throws(HTTPServerError) in
            guard case .idle = phase else {
                throw HTTPServerError(.invalidState, "the server was already started")
            }
            phase = .running(try launch(configuration))
        }
        core.logger.info(
            "http server listening",
            [
                "http.host": .string(configuration.host), "http.port": .int(Int(port ?? 0)),
                "http.connection_limit": .int(configuration.connectionLimit),
            ])
    }

    private func launch(_ configuration: HTTPServerConfiguration) throws(HTTPServerError) -> Running {
        guard let address = SocketAddress(host: configuration.host, port: configuration.port) else {
            throw HTTPServerError(.invalidConfiguration, "host is not an IP address")
        }
        let socket: Int32
        do {
            socket = try ListeningSocket.open(address, backlog: 1024)
        } catch let error as HTTPServerError {
            throw error
        } catch {
            throw HTTPServerError(.listenFailed, "could not open the listening socket")
        }
        let retained = Unmanaged.passRetained(core)
        guard
            let daemon = MHDDaemon.start(
                configuration, listenSocket: socket, ipv6: address.family == AF_INET6,
                core: retained.toOpaque())
        else {
            // Not closed here: libmicrohttpd closes a socket it was handed on some of its failure paths and not on
            // others, and closing a descriptor twice could close one another thread has just opened.
            retained.release()
            throw HTTPServerError(.daemonFailed, "libmicrohttpd did not start; see its log line")
        }
        let port = ListeningSocket.boundPort(of: socket) ?? configuration.port
        core.deadlines.start()
        return Running(daemon: daemon, port: port, core: retained)
    }

    /// Stops gracefully and blocks until done: closes new connections as soon as they are accepted, lets active
    /// requests finish for up to `timeout`, then stops the worker threads (which waits for any handler still
    /// running) and closes every connection and the listening socket; uploads still in progress are cut. Safe to
    /// call twice.
    public func stop(timeout: Duration = .seconds(10)) {
        let running: Running? = phase.withLock { phase in
            guard case .running(let running) = phase else { return nil }
            phase = .stopped
            return running
        }
        guard let running else { return }
        core.draining.store(true, ordering: .releasing)
        let deadline = ContinuousClock.now + timeout
        while core.active.load(ordering: .acquiring) > 0, ContinuousClock.now < deadline {
            // Shutdown is rare and bounded; a short poll keeps this free of extra signalling in the request path.
            usleep(2_000)
        }
        let unfinished = core.active.load(ordering: .acquiring)
        // Closes the listening socket too: it was handed over at start.
        MHD_stop_daemon(running.daemon)
        core.deadlines.stop()
        running.core.release()
        core.logger.info("http server stopped", ["http.unfinished_requests": .int(unfinished)])
    }

    /// Stops gracefully without blocking Swift's cooperative threads: the blocking part runs on its own thread.
    public func stop(timeout: Duration = .seconds(10)) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                self.stop(timeout: timeout)
                continuation.resume()
            }.start()
        }
    }
}
