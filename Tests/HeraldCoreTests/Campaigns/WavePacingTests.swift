import Foundation
import HeraldCore
import Testing

@Suite("A wave's batches spread over its minimum duration")
struct WavePacingTests {
    static let started = Date(timeIntervalSince1970: 1_893_456_000)

    @Test(
        "The next batch waits for the share of the duration that the share of recipients selected has earned",
        arguments: [
            (0, 1_000, 0.0),  // nothing selected yet: due at once
            (250, 1_000, 150.0),  // a quarter of 600 s
            (1_000, 1_000, 600.0),  // all of it
            (5_000, 1_000, 600.0),  // more than planned: never past the whole duration
            (3, 0, 600.0),  // planned none: counts as one
        ])
    func share(selected: Int, planned: Int, waits seconds: Double) {
        let next = WavePacing.nextBatchAt(
            startedAt: Self.started, selected: selected, planned: planned, minimumDuration: 600, now: Self.started)
        #expect(next == Self.started.addingTimeInterval(seconds))
    }

    @Test("A batch already late is due now, never in the past")
    func neverBefore() {
        let now = Self.started.addingTimeInterval(900)
        let next = WavePacing.nextBatchAt(
            startedAt: Self.started, selected: 500, planned: 1_000, minimumDuration: 600, now: now)
        #expect(next == now)
    }
}
