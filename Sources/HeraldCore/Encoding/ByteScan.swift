/// Word-at-a-time checks over text that is about to be escaped (JSON strings, COPY cells, array literals): most
/// values need no escape at all, and a check of eight bytes per step lets them be copied whole. Exact, not a
/// filter: a `true` always has a byte that matches.
public enum ByteScan {
    /// Whether `bytes` holds `first` or `second`, a byte below `limit` (at most 128; 0 for none) or, with
    /// `highBytes`, a byte of 0x80 or more. In a word, a byte `b` is below `limit` exactly when `b - limit` borrows
    /// into its top bit while `b`'s own top bit is clear (a borrow only ever spreads upward from a byte that
    /// matched), and it equals `first` exactly when `b ^ first` is below 1. Inlinable, so that each caller's
    /// constant arguments fold into its loop.
    @inlinable
    public static func contains(
        _ bytes: UnsafeRawBufferPointer, _ first: UInt8, _ second: UInt8, below limit: UInt8 = 0,
        highBytes: Bool = false
    ) -> Bool {
        precondition(limit <= 128)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let spreadFirst = ones &* UInt64(first)
        let spreadSecond = ones &* UInt64(second)
        let spreadLimit = ones &* UInt64(limit)
        let high = highBytes ? highs : 0
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let equalFirst = word ^ spreadFirst
            let equalSecond = word ^ spreadSecond
            let found =
                ((word &- spreadLimit) & ~word) | ((equalFirst &- ones) & ~equalFirst)
                | ((equalSecond &- ones) & ~equalSecond) | (word & high)
            if found & highs != 0 { return true }
            offset += 8
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == first || byte == second || byte < limit || (highBytes && byte >= 0x80) { return true }
            offset += 1
        }
        return false
    }
}
