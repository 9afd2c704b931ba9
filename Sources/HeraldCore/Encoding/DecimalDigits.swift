/// Decimal digits of an integer appended to bytes, as `String(value)` writes them, without making a string: the
/// payload writer and the database's COPY rows write numbers this way on every delivery.
public enum DecimalDigits {
    public static func append(_ value: Int, to bytes: inout [UInt8]) {
        var magnitude = value.magnitude
        if value >= 0, magnitude < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude))
            return
        }
        // Written from the end of a stack buffer (an Int has at most 19 digits and a sign) and appended in one copy.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = 24
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start..<24]))
        }
    }
}
