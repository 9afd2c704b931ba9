import HeraldPostgres

extension PostgresPool {
    /// Runs `countSQL` (one integer) every `interval` until it answers 0; returns whether that happened within
    /// `deadline`.
    func pollUntilZero(_ countSQL: String, every interval: Duration, deadline: Duration) async throws -> Bool {
        let end = ContinuousClock.now + deadline
        while ContinuousClock.now < end {
            let count = try await withConnection { connection in
                try connection.query(Query(unsafeSQL: countSQL)).single().int(0)
            }
            if count == 0 { return true }
            try await Task.sleep(for: interval)
        }
        return false
    }
}
