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

    /// Runs `work` for every item, the items dealt round-robin to `lanes` threads; returns each lane's results.
    static func each<T: Sendable, R: Sendable>(
        _ items: [T], lanes: Int, _ work: @escaping @Sendable (T) throws -> R
    ) throws -> [R] {
        let lanes = max(1, lanes)
        return try run(lanes) { lane in
            try stride(from: lane, to: items.count, by: lanes).map { try work(items[$0]) }
        }.flatMap { $0 }
    }

    /// `items` cut into consecutive batches of at most `size`.
    static func batches<T>(_ items: [T], of size: Int) -> [[T]] {
        stride(from: 0, to: items.count, by: size).map { Array(items[$0..<min($0 + size, items.count)]) }
    }
}
