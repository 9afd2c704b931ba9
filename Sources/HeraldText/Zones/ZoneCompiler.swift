import HeraldCore

/// Turns one TZif zone into ICU's zoneinfo64 shape.
///
/// TZif stores only total offsets and a DST flag; ICU wants the standard and DST parts, a final `SimpleTimeZone`
/// rule for future years, and no negative DST. See `splitOffsets` and `finalRule(for:)` for how each is derived.
struct ZoneCompiler {
    /// Without a representable final rule, future transitions are written out up to this year.
    var expandUntilYear = 2100
    /// Write transitions out instead of using final rules (to test the fallback path).
    var forceExpansion = false
    /// Converted footers, since most zones share a handful of rules.
    private var ruleCache: [String: ICUFinalRule?] = [:]

    init(expandUntilYear: Int = 2100, forceExpansion: Bool = false) {
        self.expandUntilYear = expandUntilYear
        self.forceExpansion = forceExpansion
    }

    /// Compiles a parsed TZif file.
    mutating func compile(_ file: TZifFile, name: String) throws -> CompiledZone {
        let periods = [file.types[0]] + file.transitionTypes.map { file.types[$0] }
        let split = Self.splitOffsets(periods)
        var changes: [(at: Int, offsets: CompiledZone.OffsetType)] = []
        for (i, at) in file.transitions.enumerated() { changes.append((at, split[i + 1])) }

        guard !file.footer.isEmpty else {
            return CompiledZone(initial: split[0], changes: changes, final: nil)
        }
        let posix = Self.positiveDaylight(try POSIXZoneRule(parsing: file.footer))
        guard posix.daylight != nil, !posix.isPermanentDaylight else {
            return CompiledZone(initial: split[0], changes: changes, final: nil)
        }
        if !forceExpansion, let rule = finalRule(for: posix, footer: file.footer),
            var year = Self.finalYear(rule: rule, changes: changes, initial: split[0])
        {
            // ICU enumerates no transitions at all before the final rule when a zone has no explicit one (its
            // getNextTransition needs a historic rule to start from), so keep at least the first real change.
            if let first = changes.first(where: { $0.offsets != split[0] }),
                first.at >= Self.startOfYear(year)
            {
                year = Self.yearOf(first.at) + 1
            }
            let cut = Self.startOfYear(year)
            let kept = changes.filter { $0.at < cut }
            return CompiledZone(initial: split[0], changes: kept, final: .init(rule: rule, year: year))
        }
        return CompiledZone(
            initial: split[0], changes: changes + expand(posix, after: file.transitions.last),
            final: nil)
    }

    private mutating func finalRule(for posix: POSIXZoneRule, footer: String) -> ICUFinalRule? {
        if let cached = ruleCache[footer] { return cached }
        let rule = ICUFinalRule(posix: posix)
        ruleCache[footer] = rule
        return rule
    }

    /// The footer with negative DST (Dublin's winter "GMT" as DST) turned into positive DST the other way round:
    /// the lower offset becomes standard time and the start and end swap. Offsets are unchanged.
    static func positiveDaylight(_ rule: POSIXZoneRule) -> POSIXZoneRule {
        guard let daylight = rule.daylight, daylight.offset < rule.standardOffset else { return rule }
        var flipped = rule
        flipped.standardOffset = daylight.offset
        flipped.daylight = .init(offset: rule.standardOffset, start: daylight.end, end: daylight.start)
        return flipped
    }

    /// The earliest year from which `rule` alone reproduces every later explicit change, or nil.
    static func finalYear(
        rule: ICUFinalRule, changes: [(at: Int, offsets: CompiledZone.OffsetType)],
        initial: CompiledZone.OffsetType
    ) -> Int? {
        // Real (total offset) changes only: ICU's answers depend on totals, and the split is a heuristic anyway.
        var totals: [(at: Int, offset: Int)] = []
        var current = initial.total
        for change in changes where change.offsets.total != current {
            totals.append((change.at, change.offsets.total))
            current = change.offsets.total
        }
        let lastYear = totals.last.map { yearOf($0.at) } ?? 1900
        var best: Int?
        var year = lastYear + 1
        while year >= 1800 {
            guard
                reproduces(
                    rule: rule, totals: totals, initial: initial.total, from: year, through: lastYear + 1)
            else { break }
            best = year
            year -= 1
        }
        return best
    }

    /// Whether the rule's offset at 1 January `from` and every change after it match the explicit ones.
    private static func reproduces(
        rule: ICUFinalRule, totals: [(at: Int, offset: Int)], initial: Int, from: Int, through: Int
    ) -> Bool {
        let cut = CivilCalendar.days(year: from, month: 1, day: 1) * 86_400
        let lastExplicit = totals.last?.at ?? Int.min
        var ruleChanges: [(at: Int, offset: Int)] = []
        for year in (from - 1)...(through + 1) {
            guard let c = rule.changes(year: year) else { return false }
            ruleChanges.append((c.start, rule.standardOffset + rule.savings))
            ruleChanges.append((c.end, rule.standardOffset))
        }
        ruleChanges.sort { $0.at < $1.at }
        let before = ruleChanges.last { $0.at <= cut }?.offset ?? rule.standardOffset
        guard (totals.last { $0.at <= cut }?.offset ?? initial) == before else { return false }
        let ruleInRange = ruleChanges.filter { $0.at > cut && $0.at <= lastExplicit }
        let explicitInRange = totals.filter { $0.at > cut }
        return ruleInRange.elementsEqual(explicitInRange) { $0.at == $1.at && $0.offset == $1.offset }
    }

    /// Future changes written out from the footer, for rules ICU cannot express.
    private func expand(
        _ posix: POSIXZoneRule, after last: Int?
    ) -> [(
        at: Int, offsets: CompiledZone.OffsetType
    )] {
        guard let daylight = posix.daylight else { return [] }
        let std = CompiledZone.OffsetType(raw: posix.standardOffset, dst: 0)
        let dst = CompiledZone.OffsetType(
            raw: posix.standardOffset, dst: daylight.offset - posix.standardOffset)
        let firstYear = last.map { Self.yearOf($0) } ?? 1970
        var result: [(at: Int, offsets: CompiledZone.OffsetType)] = []
        for year in firstYear...expandUntilYear {
            guard let c = posix.changes(year: year) else { continue }
            result.append((c.start, dst))
            result.append((c.end, std))
        }
        return result.filter { $0.at > (last ?? Int.min) }.sorted { $0.at < $1.at }
    }

    static func startOfYear(_ year: Int) -> Int {
        CivilCalendar.days(year: year, month: 1, day: 1) * 86_400
    }

    static func yearOf(_ second: Int) -> Int {
        CivilCalendar.date(days: CivilCalendar.floorDiv(second, 86_400)).year
    }
}
