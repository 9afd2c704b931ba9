/// Weekday sets as a 7-bit mask (bit 0 = Monday … bit 6 = Sunday), the compact form quiet-hour days are stored in.
public enum WeekdayMask {
    /// The mask of `days`; an empty set is 0.
    public static func mask(_ days: Set<Weekday>) -> Int {
        days.reduce(0) { $0 | (1 << ($1.isoNumber - 1)) }
    }

    /// The days whose bits are set in `mask`; bits above 6 are ignored.
    public static func days(_ mask: Int) -> Set<Weekday> {
        Set(Weekday.allCases.filter { mask & (1 << ($0.isoNumber - 1)) != 0 })
    }
}
