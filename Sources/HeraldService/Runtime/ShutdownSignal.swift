import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Blocks the calling thread until SIGINT or SIGTERM arrives, and reports which one.
// @unchecked: the signal sources are set up in `init` and only cancelled in `deinit`; what the handlers share with
// `wait()` is a semaphore and a locked value. So another thread may wait on it.
public final class ShutdownSignal: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let sources: [any DispatchSourceSignal]
    private let receivedNumber: LockedValue<Int32?>

    /// Takes over SIGINT and SIGTERM (and ignores SIGPIPE, which a closed client socket would raise).
    public init() {
        signal(SIGPIPE, SIG_IGN)
        let semaphore = self.semaphore
        let received = LockedValue<Int32?>(nil)
        self.receivedNumber = received
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

    /// The first shutdown signal's number, if one arrived; does not wait.
    public var received: Int32? { receivedNumber.withLock { $0 } }

    /// Waits for the first shutdown signal and returns its number.
    public func wait() -> Int32 {
        semaphore.wait()
        return receivedNumber.withLock { $0 } ?? SIGTERM
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
