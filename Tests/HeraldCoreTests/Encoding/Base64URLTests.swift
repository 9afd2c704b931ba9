import Testing

@testable import HeraldCore

@Suite struct Base64URLTests {
    /// RFC 4648 section 10 test vectors, unpadded as base64url writes them, plus the two characters it changes.
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.encode(plain.utf8) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test(arguments: [("Zg==", "f"), ("Zm8=", "fo"), ("Zm9vYg==", "foob"), ("Zm9vYmE=", "fooba")])
    func paddedFormsDecode(encoded: String, plain: String) {
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test func urlSafeAlphabetReplacesPlusAndSlash() {
        #expect(Base64URL.encode([0xfb, 0xff, 0xfe]) == "-__-")
        #expect(Base64URL.decode("-__-") == [0xfb, 0xff, 0xfe])
        #expect(Base64URL.decode("+//+") == nil)
        #expect(Base64URL.decode("+//+", acceptingStandardAlphabet: true) == [0xfb, 0xff, 0xfe])
    }

    @Test(arguments: ["a", "Zm9vY", "ab c", "Zg=a", "Zg===", "=Zg", "é"])
    func malformedTextIsRejected(text: String) {
        #expect(Base64URL.decode(text) == nil)
        #expect(Base64URL.decode(text, acceptingStandardAlphabet: true) == nil)
    }

    @Test func everyLengthAndByteRoundTrips() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let text = Base64URL.encode(bytes)
            #expect(text.utf8.count == (length * 4 + 2) / 3)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text) == bytes)
        }
    }
}
