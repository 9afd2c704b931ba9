import HeraldCore

/// Ids that ICU has always known but the IANA database no longer ships, so that code and CLDR data asking ICU for
/// them keep working once ICU reads Herald's zone data instead of its own.
enum LegacyICUZones {
    /// Old Java-style three-letter ids and retired names, as links to the zones ICU maps them to.
    static let links: [(name: String, target: String)] = [
        ("ACT", "Australia/Darwin"), ("AET", "Australia/Sydney"),
        ("AGT", "America/Argentina/Buenos_Aires"),
        ("ART", "Africa/Cairo"), ("AST", "America/Anchorage"), ("BET", "America/Sao_Paulo"),
        ("BST", "Asia/Dhaka"),
        ("CAT", "Africa/Maputo"), ("CNT", "America/St_Johns"), ("CST", "America/Chicago"),
        ("CTT", "Asia/Shanghai"), ("EAT", "Africa/Nairobi"), ("ECT", "Europe/Paris"),
        ("IET", "America/Indiana/Indianapolis"), ("IST", "Asia/Kolkata"), ("JST", "Asia/Tokyo"),
        ("MIT", "Pacific/Apia"), ("NET", "Asia/Yerevan"), ("NST", "Pacific/Auckland"),
        ("PLT", "Asia/Karachi"),
        ("PNT", "America/Phoenix"), ("PRT", "America/Puerto_Rico"), ("PST", "America/Los_Angeles"),
        ("SST", "Pacific/Guadalcanal"), ("VST", "Asia/Ho_Chi_Minh"),
        ("Canada/East-Saskatchewan", "America/Regina"), ("US/Pacific-New", "America/Los_Angeles"),
    ]

    /// The id ICU uses for "no zone"; Herald rejects it but ICU's data has always contained it.
    static let unknown = "Etc/Unknown"

    /// ICU's SystemV zones: fixed offsets, and the same offsets with a US-style rule that ran from 1900 on.
    static func systemVZones() -> [(name: String, zone: CompiledZone)] {
        let zones: [(String, Int, Bool)] = [
            ("SystemV/AST4", -4, false), ("SystemV/AST4ADT", -4, true), ("SystemV/CST6", -6, false),
            ("SystemV/CST6CDT", -6, true), ("SystemV/EST5", -5, false), ("SystemV/EST5EDT", -5, true),
            ("SystemV/HST10", -10, false), ("SystemV/MST7", -7, false), ("SystemV/MST7MDT", -7, true),
            ("SystemV/PST8", -8, false), ("SystemV/PST8PDT", -8, true), ("SystemV/YST9", -9, false),
            ("SystemV/YST9YDT", -9, true),
        ]
        return zones.map { name, hours, observesDST in
            let std = hours * 3600
            guard observesDST else { return (name, CompiledZone.fixed(std)) }
            return (name, daylightZone(standardOffset: std))
        }
    }

    /// DST from the last Sunday of April to the last Sunday of October at 02:00, except 1974 (from 6 January)
    /// and 1975 (from 23 February); written out for 1900–1976 and as a final rule from 1977.
    private static func daylightZone(standardOffset std: Int) -> CompiledZone {
        let standard = CompiledZone.OffsetType(raw: std, dst: 0)
        let daylight = CompiledZone.OffsetType(raw: std, dst: 3600)
        func lastSunday(_ year: Int, _ month: Int) -> Int {
            let last = CivilCalendar.days(
                year: year, month: month, day: CivilCalendar.daysInMonth(year: year, month: month))
            return last - CivilCalendar.isoWeekday(days: last) % 7
        }
        var changes: [(at: Int, offsets: CompiledZone.OffsetType)] = []
        for year in 1900...1976 {
            let startDay: Int
            switch year {
            case 1974: startDay = CivilCalendar.days(year: 1974, month: 1, day: 6)
            case 1975: startDay = CivilCalendar.days(year: 1975, month: 2, day: 23)
            default: startDay = lastSunday(year, 4)
            }
            changes.append((startDay * 86_400 + 7200 - std, daylight))
            changes.append((lastSunday(year, 10) * 86_400 + 7200 - std - 3600, standard))
        }
        let rule = ICUFinalRule(
            start: ICUAnnualChange(month: 3, day: -1, weekday: 1, time: 7200, mode: .wall),
            end: ICUAnnualChange(month: 9, day: -1, weekday: 1, time: 7200, mode: .wall),
            savings: 3600, standardOffset: std)
        return CompiledZone(initial: standard, changes: changes, final: .init(rule: rule, year: 1977))
    }
}
