internal import CICUShim

/// A CLDR plural category, in CLDR order.
public enum PluralCategory: String, Sendable, Hashable, CaseIterable, Comparable {
    /// `zero` (e.g. Arabic 0, Welsh 0).
    case zero
    /// `one`.
    case one
    /// `two`.
    case two
    /// `few` (e.g. Polish 2–4, Arabic 3–10).
    case few
    /// `many` (e.g. Polish 5–21, Arabic 11–99).
    case many
    /// `other`: every locale has it.
    case other

    init(facadeCategory: Int32) {
        switch facadeCategory {
        case HM_PLURAL_ZERO: self = .zero
        case HM_PLURAL_ONE: self = .one
        case HM_PLURAL_TWO: self = .two
        case HM_PLURAL_FEW: self = .few
        case HM_PLURAL_MANY: self = .many
        default: self = .other
        }
    }

    /// The facade's `HM_PLURAL_*` code, which follows CLDR order.
    var facadeCode: Int32 {
        switch self {
        case .zero: HM_PLURAL_ZERO
        case .one: HM_PLURAL_ONE
        case .two: HM_PLURAL_TWO
        case .few: HM_PLURAL_FEW
        case .many: HM_PLURAL_MANY
        case .other: HM_PLURAL_OTHER
        }
    }

    /// CLDR order: zero < one < two < few < many < other.
    public static func < (lhs: PluralCategory, rhs: PluralCategory) -> Bool { lhs.facadeCode < rhs.facadeCode }
}
