/// Per-category receipt counts.
public struct ReceiptCounts: Sendable, Hashable {
    public var displayed = 0
    public var opened = 0
    public var dismissed = 0

    /// No receipts.
    public init() {}
}
