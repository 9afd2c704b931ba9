import Testing

@testable import HeraldCore

@Suite struct ByteScanTests {
    /// The word-at-a-time check agrees with the plain definition for every byte value at every position of texts
    /// of every length up to three words, among plain bytes, high bytes and bytes next to the ones looked for, for
    /// each question the escapers ask (COPY: a backslash or below 0x0E; an array literal: a quote or a backslash;
    /// JSON: a quote, a backslash, a control character or any byte of a multi-byte character).
    @Test(arguments: [
        (UInt8(0x5C), UInt8(0x5C), UInt8(0x0E), false), (UInt8(0x22), UInt8(0x5C), UInt8(0), false),
        (UInt8(0x22), UInt8(0x5C), UInt8(0x20), true),
    ])
    func findsExactlyTheBytesAskedFor(first: UInt8, second: UInt8, limit: UInt8, highBytes: Bool) {
        for length in 1...24 {
            for position in 0..<length {
                for filler: UInt8 in [0x61, 0x7F, 0x5B, 0x5D, 0x21, 0x23, 0x0E, 0x20] {
                    for value in 0...255 {
                        var bytes = [UInt8](repeating: filler, count: length)
                        bytes[position] = UInt8(value)
                        let expected = bytes.contains {
                            $0 == first || $0 == second || $0 < limit || (highBytes && $0 >= 0x80)
                        }
                        let found = bytes.withUnsafeBytes {
                            ByteScan.contains($0, first, second, below: limit, highBytes: highBytes)
                        }
                        if found != expected {
                            Issue.record("length \(length), byte \(value) at \(position) among \(filler)")
                            return
                        }
                    }
                }
            }
        }
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        #expect(!ByteScan.contains(empty, first, second, below: limit, highBytes: highBytes))
    }

    /// Without `highBytes`, text of high bytes alone (UTF-8 of other scripts) has nothing to escape.
    @Test func highBytesAloneAreLeftAloneUnlessAskedFor() {
        let text = Array("Grüße, 你好, 👩‍👩‍👧".utf8.filter { $0 >= 0x80 })
        #expect(!text.withUnsafeBytes { ByteScan.contains($0, 0x22, 0x5C) })
        #expect(text.withUnsafeBytes { ByteScan.contains($0, 0x22, 0x5C, highBytes: true) })
    }
}
