import HeraldObservability
import Synchronization

/// Collects log lines in memory.
public final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    public init() {}

    /// A sink that appends each line here.
    public var sink: LogSink {
        LogSink { [self] bytes in
            let line = String(decoding: bytes, as: UTF8.self)
            lines.withLock { $0.append(line) }
        }
    }

    /// A logger of every level into this capture.
    public var logger: Logger { Logger(minimumLevel: .debug, sink: sink) }

    /// Every line so far.
    public var all: [String] { lines.withLock { $0 } }
}

/// A value shared between a test and the threads it starts.
public final class SharedBox<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    public init(_ value: Value) {
        storage = Mutex(value)
    }

    public var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
