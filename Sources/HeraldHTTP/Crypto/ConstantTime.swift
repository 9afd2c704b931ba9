/// Comparisons whose running time does not depend on where the inputs differ.
public enum ConstantTime {
    /// Whether two byte strings are equal; only the length may leak through timing.
    public static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices {
            difference |= lhs[index] ^ rhs[index]
        }
        return difference == 0
    }

    /// Whether two strings have equal UTF-8 bytes; only the length may leak through timing.
    public static func equals(_ lhs: String, _ rhs: String) -> Bool {
        equals(Array(lhs.utf8), Array(rhs.utf8))
    }
}
