internal import CICUShim

extension MessageValue {
    /// The facade's `HM_VALUE_*` code for this value.
    var facadeKind: Int32 {
        switch self {
        case .string: HM_VALUE_STRING
        case .int: HM_VALUE_INT
        case .double: HM_VALUE_DOUBLE
        case .date: HM_VALUE_DATE
        }
    }
}
