extension ZoneCompiler {
    /// Splits each period's total offset into standard and DST parts, as ICU stores them.
    ///
    /// TZif has only the total and a DST flag. A DST period's saving is its offset minus the neighbouring standard
    /// offset (previous, else next); when both neighbours give different savings (standard time changed at the
    /// same moment), a plausible one (a multiple of 15 min up to 2 h) wins, then the smaller. A DST flag without
    /// any offset change counts as a 1 h saving. Negative DST (Dublin's winter, Morocco's Ramadan, Windhoek
    /// 1994–2017) is turned round first: such a period becomes standard time, and the standard periods enclosed by
    /// two of them become DST. The split never changes a total offset.
    static func splitOffsets(_ periods: [TZifFile.LocalTimeType]) -> [CompiledZone.OffsetType] {
        let count = periods.count
        func nearestStandard(to index: Int, step: Int, isDST: [Bool]) -> Int? {
            var j = index + step
            while j >= 0 && j < count {
                if !isDST[j] { return j }
                j += step
            }
            return nil
        }
        let flagged = periods.map(\.isDST)
        var negative = [Bool](repeating: false, count: count)
        for i in 0..<count where flagged[i] {
            let neighbours = [
                nearestStandard(to: i, step: -1, isDST: flagged),
                nearestStandard(to: i, step: 1, isDST: flagged),
            ].compactMap { $0 }
            negative[i] =
                !neighbours.isEmpty
                && neighbours.allSatisfy { periods[$0].utcOffset > periods[i].utcOffset }
        }
        var isDST = flagged
        for i in 0..<count where negative[i] { isDST[i] = false }
        for i in 0..<count
        where !flagged[i] && i > 0 && i + 1 < count && negative[i - 1] && negative[i + 1] {
            isDST[i] = true
        }
        return (0..<count).map { i in
            let total = periods[i].utcOffset
            guard isDST[i] else { return CompiledZone.OffsetType(raw: total, dst: 0) }
            let savings = [
                nearestStandard(to: i, step: -1, isDST: isDST),
                nearestStandard(to: i, step: 1, isDST: isDST),
            ].compactMap { $0 }.map { total - periods[$0].utcOffset }.filter { $0 > 0 }
            let save: Int
            if savings.isEmpty {
                save = 3600
            } else if Set(savings).count == 1 {
                save = savings[0]
            } else {
                let plausible = savings.filter { $0 % 900 == 0 && $0 <= 7200 }
                save = (plausible.isEmpty ? savings : plausible).min()!
            }
            return CompiledZone.OffsetType(raw: total - save, dst: save)
        }
    }
}
