import Testing

@testable import HeraldCore

@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "The quick brown fox jumps over the lazy dog",
            "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"
        ),
    ])
    func knownVectors(input: String, digest: String) {
        #expect(SHA256.hex(input) == digest)
    }

    @Test func hexPrefixesAreTheDigestsLeadingBytes() {
        let bytes = Array("The quick brown fox jumps over the lazy dog".utf8)
        let full = "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"
        #expect(SHA256.hexPrefix(bytes, byteCount: 16) == String(full.prefix(32)))
        #expect(SHA256.hexPrefix(bytes, byteCount: 32) == full)
        #expect(SHA256.hexPrefix(bytes, byteCount: 99) == full)
        #expect(SHA256.hexPrefix(bytes, byteCount: 0) == "")
    }

    @Test func millionAs() {
        let digest = SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        let hex = digest.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        #expect(hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func paddingBoundaries() {
        // Lengths around the 55/56/64-byte padding edges must all hash to distinct 32-byte digests.
        let digests = (50...70).map { SHA256.hash([UInt8](repeating: 0x61, count: $0)) }
        #expect(digests.allSatisfy { $0.count == 32 })
        #expect(Set(digests.map { $0.description }).count == digests.count)
    }

    /// Lengths at the padding edges (one or two tail blocks), against digests from a reference implementation.
    @Test(arguments: [
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
        (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
        (128, "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e"),
    ])
    func paddingEdgeVectors(length: Int, digest: String) {
        #expect(Hex.encode(SHA256.hash([UInt8](repeating: 0x61, count: length))) == digest)
        #expect(SHA256.hex(String(repeating: "a", count: length)) == digest)
        #expect(Hex.encode(SHA256.hash((0..<length).lazy.map { _ in UInt8(0x61) })) == digest)
    }
}

@Suite struct SHA256RoundsTests {
    /// Bytes that differ from length to length and position to position.
    private func message(_ length: Int) -> [UInt8] {
        (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ length &* 7 &+ ($0 >> 3)) }
    }

    private func digest(_ bytes: [UInt8], hardware: Bool) -> [UInt8] {
        bytes.withUnsafeBytes { SHA256.digest(of: $0, hardware: hardware) }
    }

    @Test func theSwiftRoundsGiveTheKnownVectors() {
        #expect(
            Hex.encode(digest(Array("abc".utf8), hardware: false))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Hex.encode(digest([UInt8](repeating: 0x61, count: 119), hardware: false))
                == "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb")
        #expect(
            Hex.encode(digest([], hardware: false))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    /// Where the processor has SHA-256 instructions, they and the Swift rounds agree on every length across the
    /// one-, two- and many-block paddings. Elsewhere only the Swift rounds run, and this test is skipped.
    @Test(.enabled(if: SHA256.hardwareAvailable, "the processor has no SHA-256 instructions"))
    func theProcessorsRoundsAgreeWithTheSwiftRounds() {
        for length in 0...300 {
            let bytes = message(length)
            #expect(digest(bytes, hardware: true) == digest(bytes, hardware: false), "length \(length)")
        }
        #expect(
            Hex.encode(digest(Array("abc".utf8), hardware: true))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
