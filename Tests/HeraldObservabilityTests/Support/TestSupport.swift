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

    var all: [String] { lines.withLock { $0 } }
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
