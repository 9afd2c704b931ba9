import Glibc

/// A statement's bind parameters as libpq takes them: each value's text written once into one buffer, ended by a
/// NUL, and a pointer to each (none for SQL NULL).
struct PostgresParameters {
    private var bytes: [UInt8] = []
    private var offsets: [Int?] = []

    /// The number of parameters.
    var count: Int { offsets.count }

    /// Writes every value's text; throws naming the first that holds a NUL byte, which can travel neither in a C
    /// string nor in PostgreSQL text.
    init(_ parameters: [(any PostgresEncodable)?]) throws(PostgresError) {
        offsets.reserveCapacity(parameters.count)
        for (index, parameter) in parameters.enumerated() {
            guard let parameter else {
                offsets.append(nil)
                continue
            }
            let offset = bytes.count
            parameter.appendPostgresText(to: &bytes)
            let holdsNUL = bytes.withUnsafeBytes { written in
                written.count > offset && memchr(written.baseAddress! + offset, 0, written.count - offset) != nil
            }
            guard !holdsNUL else {
                throw PostgresError(kind: .invalidValue, message: "parameter $\(index + 1) contains a NUL byte")
            }
            bytes.append(0)
            offsets.append(offset)
        }
    }

    /// Calls `body` with libpq's array of value pointers, valid only inside it.
    func withPointers<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
        bytes.withUnsafeBytes { storage in
            // Int8 and UInt8 may alias each other; the base is nil only when every value is NULL, and then no
            // offset needs it.
            let base = storage.baseAddress?.assumingMemoryBound(to: CChar.self)
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in offset.flatMap { base?.advanced(by: $0) } }
            return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
        }
    }
}
