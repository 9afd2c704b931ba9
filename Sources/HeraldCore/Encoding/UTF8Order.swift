import Foundation

/// The byte order of UTF-8 text: the order PostgreSQL's `COLLATE "C"` gives and the order of members in Herald's
/// canonical JSON. Comparing a string's UTF-8 view element by element goes through the generic collection
/// machinery for every byte; comparing the bytes in place is one `memcmp`.
public enum UTF8Order {
    /// Whether the UTF-8 bytes of `a` sort before those of `b`; a proper prefix sorts first.
    @inlinable
    public static func precedes(_ a: String, _ b: String) -> Bool {
        let ordered = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in precedes(x, y) }
        }
        return ordered.flatMap { $0 } ?? a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Whether the bytes `x` sort before the bytes `y`; a proper prefix sorts first.
    @inlinable
    public static func precedes(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        let common = min(x.count, y.count)
        if common > 0 {
            let order = memcmp(x.baseAddress!, y.baseAddress!, common)
            if order != 0 { return order < 0 }
        }
        return x.count < y.count
    }
}
