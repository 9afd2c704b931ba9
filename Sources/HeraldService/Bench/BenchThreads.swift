import Foundation

/// Runs blocking benchmark work on dedicated threads (never on the cooperative pool) and gathers the results.
enum BenchThreads {
    /// Runs `work(lane)` for lanes `0..<count`, each on its own thread; returns the results in lane order, or
    /// rethrows the first lane's error.
    static func run<R: Sendable>(_ count: Int, _ work: @escaping @Sendable (Int) throws -> R) throws -> [R] {
        let results = LockedValue<[Int: Result<R, any Error>]>([:])
        let group = DispatchGroup()
        for lane in 0..<count {
            group.enter()
            let thread = Thread {
                let result = Result { try work(lane) }
                results.withLock { $0[lane] = result }
                group.leave()
            }
            thread.start()
        }
        group.wait()
        let gathered = results.withLock { $0 }
        return try (0..<count).map { try gathered[$0]!.get() }
    }
}
