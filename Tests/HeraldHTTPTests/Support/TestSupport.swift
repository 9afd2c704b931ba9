import Glibc
import HeraldHTTP
import HeraldObservability
import Synchronization

/// Collects log lines in memory.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    var sink: LogSink {
        LogSink { [self] bytes in
            let line = String(decoding: bytes, as: UTF8.self)
            lines.withLock { $0.append(line) }
        }
    }

    var logger: Logger { Logger(minimumLevel: .debug, sink: sink) }

    var all: [String] { lines.withLock { $0 } }
}

/// Polls `condition` until it holds or the deadline passes; returns whether it held.
func waitUntil(timeout: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(1_000)
    }
    return condition()
}

/// Keys used by the tests' stub authenticator.
enum TestKeys {
    static let admin = "hk_admin_secret"
    static let events = "hk_events_secret"
    static let none = "hk_no_scopes"

    static let authenticator = StaticAuthenticator(secrets: [
        admin: Principal(keyID: "key-admin", scopes: [.admin]),
        events: Principal(keyID: "key-events", scopes: [.eventsWrite]),
        none: Principal(keyID: "key-none", scopes: []),
    ])
}

/// A value shared between a test and the threads it starts.
final class SharedBox<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) {
        storage = Mutex(value)
    }

    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
