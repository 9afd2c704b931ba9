import Glibc

/// Bind parameters laid out for libpq: every value in one buffer, with its length and its format.
///
/// Values travel as text, except an array bound to a `text[]` parameter of a prepared statement: that one goes in
/// PostgreSQL's binary array form, each element's bytes behind their length. Neither side then escapes or parses
/// the quotes and backslashes of the elements, and queue rows carry JSON payloads full of quotes through such
/// arrays. Only `text[]` qualifies because a binary element must be in its type's own binary form, and a text
/// element's binary form is its bytes.
struct PostgresParameters {
    /// The type oid of `text[]` (`pg_type.oid` of `_text`), fixed in every PostgreSQL catalog.
    static let textArrayType: UInt32 = 1009
    /// The type oid of `text`, the element type a binary `text[]` value names.
    static let textType: UInt32 = 25

    private var buffer: [UInt8] = []
    /// Where each value starts in `buffer`; nil for SQL NULL.
    private var offsets: [Int?] = []
    private var lengths: [Int32] = []
    private var formats: [Int32] = []
    private var anyBinary = false

    /// How many values there are.
    var count: Int { offsets.count }

    /// Lays out `parameters`; `binaryTextArrays[i]` says that parameter `i` is a `text[]` of a prepared statement.
    /// Throws for a NUL byte, which neither a C string nor PostgreSQL text can hold.
    init(_ parameters: [(any PostgresEncodable)?], binaryTextArrays: [Bool] = []) throws {
        offsets.reserveCapacity(parameters.count)
        lengths.reserveCapacity(parameters.count)
        formats.reserveCapacity(parameters.count)
        for (index, parameter) in parameters.enumerated() {
            guard let parameter else {
                offsets.append(nil)
                lengths.append(0)
                formats.append(0)
                continue
            }
            let start = buffer.count
            if let array = parameter as? PipelineArray, index < binaryTextArrays.count, binaryTextArrays[index] {
                try Self.appendBinary(array.elements, to: &buffer, parameter: index)
                formats.append(1)
                anyBinary = true
            } else {
                var text = parameter.postgresText
                try text.withUTF8 { bytes in
                    if let base = bytes.baseAddress, memchr(base, 0, bytes.count) != nil {
                        throw Self.nulError(parameter: index)
                    }
                    buffer.append(contentsOf: bytes)
                }
                buffer.append(0)
                formats.append(0)
            }
            offsets.append(start)
            lengths.append(Int32(clamping: buffer.count - start))
        }
    }

    /// Calls `body` with libpq's value pointers, lengths and formats; lengths and formats are nil when every value
    /// is text, as libpq then reads each value up to its NUL.
    func withPointers<R>(
        _ body: (
            UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?
        ) throws -> R
    ) rethrows -> R {
        try buffer.withUnsafeBytes { storage in
            // The base is nil only when every value is NULL, and then no offset needs it.
            let base = storage.baseAddress?.assumingMemoryBound(to: CChar.self)
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in offset.flatMap { base?.advanced(by: $0) } }
            return try pointers.withUnsafeBufferPointer { values in
                guard anyBinary else { return try body(values.baseAddress, nil, nil) }
                return try lengths.withUnsafeBufferPointer { lengths in
                    try formats.withUnsafeBufferPointer {
                        try body(values.baseAddress, lengths.baseAddress, $0.baseAddress)
                    }
                }
            }
        }
    }

    /// A one-dimensional `text[]` in the binary form `array_recv` reads: the number of dimensions (0 when empty),
    /// whether any element is NULL, the element type, the length and lower bound (1) of the dimension, then each
    /// element as its byte count (-1 for NULL) and its bytes. Integers are big-endian.
    static func appendBinary(_ elements: [String?], to buffer: inout [UInt8], parameter: Int) throws {
        appendInt32(elements.isEmpty ? 0 : 1, to: &buffer)
        appendInt32(elements.contains(nil) ? 1 : 0, to: &buffer)
        appendInt32(Int32(bitPattern: textType), to: &buffer)
        guard !elements.isEmpty else { return }
        appendInt32(Int32(clamping: elements.count), to: &buffer)
        appendInt32(1, to: &buffer)
        for element in elements {
            guard var element else {
                appendInt32(-1, to: &buffer)
                continue
            }
            try element.withUTF8 { bytes in
                if let base = bytes.baseAddress, memchr(base, 0, bytes.count) != nil {
                    throw nulError(parameter: parameter)
                }
                appendInt32(Int32(clamping: bytes.count), to: &buffer)
                buffer.append(contentsOf: bytes)
            }
        }
    }

    private static func appendInt32(_ value: Int32, to buffer: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) }
    }

    private static func nulError(parameter index: Int) -> PostgresError {
        PostgresError(kind: .invalidValue, message: "parameter $\(index + 1) contains a NUL byte")
    }
}
