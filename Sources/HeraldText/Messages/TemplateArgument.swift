internal import CICUShim

/// One argument name a template refers to, nested ones included, and how it is used.
public struct TemplateArgument: Sendable, Hashable {
    /// The argument name, e.g. `count` in `{count, plural, ...}`.
    public let name: String
    /// The first typed use of the name; `plain` when it only appears as `{name}`.
    public let kind: ArgumentKind
    /// True when every use sits inside a plural/select branch, so some data may never reach it.
    public let isNested: Bool
    /// The value kinds every use accepts, as a bit set over `HM_VALUE_*`.
    let acceptedValues: Int32

    init(name: String, kind: ArgumentKind, isNested: Bool, acceptedValues: Int32) {
        self.name = name
        self.kind = kind
        self.isNested = isNested
        self.acceptedValues = acceptedValues
    }

    /// Whether every use of this argument can format `value` (a whole number counts as text for `select`).
    public func accepts(_ value: MessageValue) -> Bool { coerced(value) != nil }

    /// `value` as this argument needs it, or nil when it cannot be used.
    func coerced(_ value: MessageValue) -> MessageValue? {
        if acceptedValues & (1 << value.facadeKind) != 0 { return value }
        // JSON data often carries a selector such as a level as a number; `select` only takes text.
        if case .int(let number) = value, acceptedValues & (1 << HM_VALUE_STRING) != 0 {
            return .string(String(number))
        }
        return nil
    }
}
