import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Blocks the calling thread until SIGINT or SIGTERM arrives, and reports which one.
public final class ShutdownSignal {
    private let semaphore = DispatchSemaphore(value: 0)
    private let sources: [any DispatchSourceSignal]
    private let received: LockedValue<Int32?>

    /// Takes over SIGINT and SIGTERM (and ignores SIGPIPE, which a closed client socket would raise).
    public init() {
        signal(SIGPIPE, SIG_IGN)
        let semaphore = self.semaphore
        let received = LockedValue<Int32?>(nil)
        self.received = received
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                received.withLock { if $0 == nil { $0 = number } }
                semaphore.signal()
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    /// Waits for the first shutdown signal and returns its number.
    public func wait() -> Int32 {
        semaphore.wait()
        return received.withLock { $0 } ?? SIGTERM
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
