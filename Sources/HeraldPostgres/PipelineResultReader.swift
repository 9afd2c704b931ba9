/// How the results of a pipeline are read, one `PQgetResult` at a time, kept apart from libpq so that every path,
/// the dead ends included, is tested with a made-up sequence.
///
/// libpq hands out, per statement, one or more results and then a null; after the last statement comes the sync
/// result. A statement's first result is the one that counts. Once libpq has noticed the connection is gone (a
/// terminated backend, say) it returns null for ever and the sync never comes, so a null on a broken connection,
/// or a second null in a row, ends the read with an error instead of a loop that never ends.
struct PipelineResultReader {
    /// What to do with what `PQgetResult` returned.
    enum Step: Equatable {
        /// Record this result as statement `index`'s.
        case record(index: Int)
        /// A further result of a statement already recorded: drop it.
        case skip
        /// Read the next result.
        case next
        /// The sync point: every statement has its result.
        case finished
        /// The connection is gone; the sync will never come.
        case connectionLost
    }

    private var recorded = 0
    private var currentHasResult = false
    private var endedStatement = false

    /// `PQgetResult` returned null: one statement's results end, unless the read is at a dead end.
    mutating func noResult(connectionOK: Bool) -> Step {
        guard connectionOK, !endedStatement else { return .connectionLost }
        currentHasResult = false
        endedStatement = true
        return .next
    }

    /// `PQgetResult` returned a result; `isSync` when it is the pipeline's sync point.
    mutating func result(isSync: Bool) -> Step {
        endedStatement = false
        if isSync { return .finished }
        guard !currentHasResult else { return .skip }
        currentHasResult = true
        recorded += 1
        return .record(index: recorded - 1)
    }
}
