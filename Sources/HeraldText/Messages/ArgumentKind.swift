internal import CICUShim

/// How a template uses an argument, which decides the values it accepts.
public enum ArgumentKind: String, Sendable, Hashable, CaseIterable {
    /// `{name}`: any value, shown with the locale's default format.
    case plain
    /// `{n, number}` (also `spellout`, `ordinal`, `duration`): a number.
    case number
    /// `{d, date}`: an instant.
    case date
    /// `{d, time}`: an instant.
    case time
    /// `{n, plural, ...}`: a number that picks a CLDR plural category.
    case plural
    /// `{g, select, ...}`: text that picks a branch.
    case select
    /// `{n, selectordinal, ...}`: a number that picks an ordinal category.
    case selectOrdinal = "selectordinal"

    init(facadeKind: Int32) {
        switch facadeKind {
        case HM_KIND_NUMBER: self = .number
        case HM_KIND_DATE: self = .date
        case HM_KIND_TIME: self = .time
        case HM_KIND_PLURAL: self = .plural
        case HM_KIND_SELECT: self = .select
        case HM_KIND_SELECTORDINAL: self = .selectOrdinal
        default: self = .plain
        }
    }
}
