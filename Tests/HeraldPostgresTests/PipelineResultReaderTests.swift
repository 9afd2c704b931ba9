import Testing

@testable import HeraldPostgres

/// The read loop of a pipeline, fed made-up `PQgetResult` sequences: the paths a live server rarely takes.
@Suite struct PipelineResultReaderTests {
    /// One `PQgetResult` outcome: a result, the sync point, or null on a connection that is or is not still up.
    enum Got { case result, sync, null, nullOnBrokenConnection }

    /// Feeds `sequence` to a reader and returns its steps, stopping at the first that ends the read.
    static func read(_ sequence: [Got]) -> [PipelineResultReader.Step] {
        var reader = PipelineResultReader()
        var steps: [PipelineResultReader.Step] = []
        for got in sequence {
            let step: PipelineResultReader.Step
            switch got {
            case .result: step = reader.result(isSync: false)
            case .sync: step = reader.result(isSync: true)
            case .null: step = reader.noResult(connectionOK: true)
            case .nullOnBrokenConnection: step = reader.noResult(connectionOK: false)
            }
            steps.append(step)
            if step == .finished || step == .connectionLost { break }
        }
        return steps
    }

    @Test func eachStatementRecordsItsFirstResultAndTheSyncEndsTheRead() {
        #expect(
            Self.read([.result, .null, .result, .result, .null, .sync]) == [
                .record(index: 0), .next, .record(index: 1), .skip, .next, .finished,
            ])
    }

    @Test func twoNullsInARowAreADeadEndNotALoop() {
        // libpq returns null for ever once it has dropped the connection; the sync would never come.
        #expect(Self.read([.result, .null, .null, .null]) == [.record(index: 0), .next, .connectionLost])
    }

    @Test func aNullOnABrokenConnectionEndsTheReadAtOnce() {
        #expect(Self.read([.nullOnBrokenConnection]) == [.connectionLost])
        #expect(Self.read([.result, .nullOnBrokenConnection]) == [.record(index: 0), .connectionLost])
    }

    @Test func aResultBetweenNullsKeepsTheReadGoing() {
        #expect(
            Self.read([.result, .null, .result, .null, .result, .null, .sync]) == [
                .record(index: 0), .next, .record(index: 1), .next, .record(index: 2), .next, .finished,
            ])
    }
}
