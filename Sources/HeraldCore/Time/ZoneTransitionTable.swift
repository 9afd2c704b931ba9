/// A zone's UTC offsets as a sorted list of offset changes, answered in pure Swift.
///
/// Built once per zone (from ICU in `HeraldText`, or by hand in tests) and then read without locks from any
/// thread. Times are whole seconds since 1970-01-01T00:00Z.
public struct ZoneTransitionTable: Sendable, Hashable {
    /// Instants at which the total offset changes, strictly increasing.
    public let transitions: [Int]
    /// `offsets[0]` applies before the first transition, `offsets[i + 1]` from `transitions[i]` on.
    public let offsets: [Int]

    /// Keeps only real changes: entries that repeat the previous offset are dropped.
    public init(initialOffset: Int, changes: [(at: Int, offset: Int)]) {
        var transitions: [Int] = []
        var offsets = [initialOffset]
        for change in changes where change.offset != offsets[offsets.count - 1] {
            precondition(transitions.last.map { change.at > $0 } ?? true, "transitions must increase")
            transitions.append(change.at)
            offsets.append(change.offset)
        }
        self.transitions = transitions
        self.offsets = offsets
    }

    /// How many transitions are at or before `second`; also the index into `offsets` in effect there.
    @inline(__always)
    func countAtOrBefore(_ second: Int) -> Int {
        var lo = 0
        var hi = transitions.count
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            if transitions[mid] <= second { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The total offset in effect at `second`.
    public func offset(at second: Int) -> Int {
        offsets[countAtOrBefore(second)]
    }

    /// The first transition strictly after `second`, if any.
    public func nextTransition(after second: Int) -> Int? {
        let index = countAtOrBefore(second)
        return index < transitions.count ? transitions[index] : nil
    }

    /// Offsets never exceed this in either direction (±26 h, beyond any real zone), bounding candidate searches.
    public static let searchWindow = 26 * 3600

    /// The instant of a local wall time given as its fields read as UTC seconds, by Herald's DST policy: the first
    /// occurrence when repeated, the end of the gap (the transition instant) when skipped.
    public func resolve(localSecondsAsUTC local: Int) -> Int {
        let first = countAtOrBefore(local - Self.searchWindow)
        var index = first
        // Periods are visited in time order, so the first valid candidate is the earliest occurrence.
        while index < offsets.count {
            let start = index == 0 ? Int.min : transitions[index - 1]
            if start > local + Self.searchWindow { break }
            let candidate = local - offsets[index]
            let end = index < transitions.count ? transitions[index] : Int.max
            if candidate >= start && candidate < end { return candidate }
            index += 1
        }
        // No period holds the wall time: it lies in a gap; the first valid instant after it is the transition.
        index = max(first, 1)
        while index < offsets.count {
            let at = transitions[index - 1]
            if local >= at + offsets[index - 1] && local < at + offsets[index] { return at }
            if at > local + Self.searchWindow { break }
            index += 1
        }
        return local - offsets[countAtOrBefore(local)]
    }
}
