import Foundation

/// How fast a wave hands out its recipients: spread over at least its minimum duration, so that a wave of a
/// million users does not reach the pipeline, and the push services, at once.
public enum WavePacing {
    /// When the wave's next batch may start: once the share of the planned recipients selected so far has had the
    /// same share of the minimum duration since the wave started, and never before `now`. A wave planned with no
    /// recipients counts as planned for one; one that found more than it planned waits the whole duration at most.
    public static func nextBatchAt(
        startedAt: Date, selected: Int, planned: Int, minimumDuration: TimeInterval, now: Date
    ) -> Date {
        let share = min(1, Double(selected) / Double(max(1, planned)))
        return max(now, startedAt.addingTimeInterval(minimumDuration * share))
    }
}
