import Testing

@testable import HeraldPostgres

@Suite struct ByteScanTests {
    /// The word-at-a-time check agrees with the plain definition for every byte value at every position of texts
    /// of every length up to three words, among plain bytes, high bytes and bytes next to the ones looked for, for
    /// both questions the escapers ask (COPY: a backslash or below 0x0E; an array literal: a quote or a backslash).
    @Test(arguments: [(UInt8(0x5C), UInt8(0x5C), UInt8(0x0E)), (UInt8(0x22), UInt8(0x5C), UInt8(0))])
    func findsExactlyTheBytesAskedFor(first: UInt8, second: UInt8, limit: UInt8) {
        for length in 1...24 {
            for position in 0..<length {
                for filler: UInt8 in [0x61, 0xFF, 0x80, 0x5B, 0x5D, 0x21, 0x23, 0x0E] {
                    for value in 0...255 {
                        var bytes = [UInt8](repeating: filler, count: length)
                        bytes[position] = UInt8(value)
                        let expected = bytes.contains { $0 == first || $0 == second || $0 < limit }
                        let found = bytes.withUnsafeBytes { ByteScan.contains($0, first, second, below: limit) }
                        if found != expected {
                            Issue.record("length \(length), byte \(value) at \(position) among \(filler)")
                            return
                        }
                    }
                }
            }
        }
        #expect(!ByteScan.contains(UnsafeRawBufferPointer(start: nil, count: 0), first, second, below: limit))
    }
}
