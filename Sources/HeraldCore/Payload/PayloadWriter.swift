/// Writes the JSON of a fixed payload shape straight into bytes, members in the order the caller gives.
///
/// The platform builders write alert bodies with it instead of building `JSONValue` dictionaries and sorting their
/// keys for every device: callers list members already sorted by their UTF-8 bytes, so the output is byte for byte
/// what `JSONValue.serialized()` produces for the same document, with the same string escaping.
struct PayloadWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the innermost open object has no member yet (no comma before the next key).
    private var atObjectStart = false

    init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    /// Opens an object, as a document or as the value of the preceding key.
    mutating func openObject() {
        bytes.append(UInt8(ascii: "{"))
        atObjectStart = true
    }

    /// Closes the innermost object.
    mutating func closeObject() {
        bytes.append(UInt8(ascii: "}"))
        atObjectStart = false
    }

    /// Writes `"name":`, preceded by a comma unless it is the object's first member; `name` needs no escaping.
    mutating func key(_ name: StaticString) {
        if !atObjectStart { bytes.append(UInt8(ascii: ",")) }
        atObjectStart = false
        JSONValue.writeKey(name, into: &bytes)
    }

    /// A string value, escaped as `JSONValue` escapes it.
    mutating func string(_ value: String) {
        JSONValue.writeString(value, into: &bytes)
    }

    /// A string value that needs no escaping (a fixed word).
    mutating func word(_ value: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
    }

    /// An integer value.
    mutating func int(_ value: Int) {
        digits(value)
    }

    /// An integer written as a JSON string (FCM `data` values are strings only).
    mutating func intString(_ value: Int) {
        bytes.append(UInt8(ascii: "\""))
        digits(value)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A number with a fraction, as `JSONValue.double` writes it.
    mutating func double(_ value: Double) {
        JSONValue.writeDouble(value, into: &bytes)
    }

    /// A boolean value.
    mutating func bool(_ value: Bool) {
        if value {
            bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])  // true
        } else {
            bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])  // false
        }
    }

    /// Decimal digits of `value`, as `String(value)` writes them.
    private mutating func digits(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var reversed: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0
        )
        // Ten digits cover every count and second this writes; larger values take the general path.
        guard magnitude < 10_000_000_000 else {
            bytes.append(contentsOf: String(magnitude).utf8)
            return
        }
        var count = 0
        withUnsafeMutableBytes(of: &reversed) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }
}
