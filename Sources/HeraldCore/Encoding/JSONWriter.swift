/// Writes the JSON of a fixed shape straight into bytes, members in the order the caller gives.
///
/// The push payload builders, the stored event document and the answer to a batch of events are written with it
/// instead of building `JSONValue` dictionaries and sorting their keys each time: callers list members already
/// sorted by their UTF-8 bytes, so the output is byte for byte what `JSONValue.serialized()` produces for the same
/// document, with the same string escaping.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// Whether the innermost open object or array has nothing in it yet (no comma before the next member).
    private var atObjectStart = false

    public init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    /// Opens an object, as a document, as the value of the preceding key or as an element (after `nextElement`).
    public mutating func openObject() {
        bytes.append(UInt8(ascii: "{"))
        atObjectStart = true
    }

    /// Closes the innermost object.
    public mutating func closeObject() {
        bytes.append(UInt8(ascii: "}"))
        atObjectStart = false
    }

    /// Writes `"name":`, preceded by a comma unless it is the object's first member; `name` needs no escaping.
    public mutating func key(_ name: StaticString) {
        if !atObjectStart { bytes.append(UInt8(ascii: ",")) }
        atObjectStart = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Opens an array, as the value of the preceding key; each element follows a `nextElement`.
    public mutating func openArray() {
        bytes.append(UInt8(ascii: "["))
        atObjectStart = true
    }

    /// Starts the next element of the innermost array: a comma unless it is the first.
    public mutating func nextElement() {
        if !atObjectStart { bytes.append(UInt8(ascii: ",")) }
        atObjectStart = false
    }

    /// Closes the innermost array.
    public mutating func closeArray() {
        bytes.append(UInt8(ascii: "]"))
        atObjectStart = false
    }

    /// An array of strings, escaped as `JSONValue` escapes them.
    public mutating func strings(_ values: [String]) {
        openArray()
        for value in values {
            nextElement()
            string(value)
        }
        closeArray()
    }

    /// A value that is JSON already, serialized as `JSONValue.serialized()` writes it.
    public mutating func json(_ value: JSONValue) {
        value.write(into: &bytes)
    }

    /// A string value, escaped as `JSONValue` escapes it.
    public mutating func string(_ value: String) {
        JSONValue.writeString(value, into: &bytes)
    }

    /// A string value that needs no escaping (a fixed word).
    public mutating func word(_ value: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
    }

    /// An integer value.
    public mutating func int(_ value: Int) {
        digits(value)
    }

    /// An integer written as a JSON string (FCM `data` values are strings only).
    public mutating func intString(_ value: Int) {
        bytes.append(UInt8(ascii: "\""))
        digits(value)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A number with a fraction, as `JSONValue.double` writes it.
    public mutating func double(_ value: Double) {
        JSONValue.writeDouble(value, into: &bytes)
    }

    /// A boolean value.
    public mutating func bool(_ value: Bool) {
        if value {
            bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])  // true
        } else {
            bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])  // false
        }
    }

    /// Decimal digits of `value`, as `String(value)` writes them.
    private mutating func digits(_ value: Int) {
        DecimalDigits.append(value, to: &bytes)
    }
}
