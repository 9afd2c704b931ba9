/// One zone in ICU's zoneinfo64 shape: (raw, dst) types, transitions into them, and an optional final rule.
struct CompiledZone: Equatable {
    /// A period's offsets in seconds: standard ("raw") and daylight saving parts.
    struct OffsetType: Hashable {
        var raw: Int
        var dst: Int
        var total: Int { raw + dst }
    }

    /// The final rule and the year from which ICU applies it (from 1 January, 00:00 UTC).
    struct Final: Equatable {
        var rule: ICUFinalRule
        var year: Int
    }

    /// Types; `types[0]` applies before the first transition.
    var types: [OffsetType]
    /// Transitions as (instant, index into `types`), increasing in time.
    var transitions: [(at: Int, type: Int)]
    /// The rule for instants from `final.year` on, if the zone has ongoing DST.
    var final: Final?

    static func == (lhs: CompiledZone, rhs: CompiledZone) -> Bool {
        lhs.types == rhs.types && lhs.final == rhs.final
            && lhs.transitions.elementsEqual(rhs.transitions) { $0.at == $1.at && $0.type == $1.type }
    }

    /// Builds the type table from a list of periods: the initial offsets and (instant, offsets) changes. Changes
    /// that keep both parts equal are dropped.
    init(initial: OffsetType, changes: [(at: Int, offsets: OffsetType)], final: Final?) {
        var types = [initial]
        var index: [OffsetType: Int] = [initial: 0]
        var transitions: [(at: Int, type: Int)] = []
        var current = initial
        for change in changes where change.offsets != current {
            let type: Int
            if let existing = index[change.offsets] {
                type = existing
            } else {
                type = types.count
                index[change.offsets] = type
                types.append(change.offsets)
            }
            transitions.append((change.at, type))
            current = change.offsets
        }
        self.types = types
        self.transitions = transitions
        self.final = final
    }

    /// A zone with one offset forever.
    static func fixed(_ offset: Int) -> CompiledZone {
        CompiledZone(initial: OffsetType(raw: offset, dst: 0), changes: [], final: nil)
    }
}
