import HeraldCore
import HeraldHTTP
import Testing

@Suite struct CryptoTests {
    /// RFC 4231 test cases 1–4, 6 and 7 (case 5 is truncated and checked separately).
    @Test(arguments: [
        (
            [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        (
            Array(1...25), [UInt8](repeating: 0xcd, count: 50),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
        (
            [UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        (
            [UInt8](repeating: 0xaa, count: 131),
            Array(
                ("This is a test using a larger than block-size key and a larger than block-size data. The key needs "
                    + "to be hashed before being used by the HMAC algorithm.").utf8),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
        ),
    ])
    func hmacRFC4231(key: [UInt8], message: [UInt8], code: String) {
        #expect(Hex.encode(HMACSHA256.authenticationCode(for: message, key: key)) == code)
        #expect(HMACSHA256.isValid(Hex.decode(code)!, for: message, key: key))
    }

    @Test func hmacRFC4231TruncatedCase5() {
        let code = HMACSHA256.authenticationCode(
            for: Array("Test With Truncation".utf8), key: [UInt8](repeating: 0x0c, count: 20))
        #expect(Hex.encode(code.prefix(16)) == "a3b6167473100ee06e0c796c2955552b")
    }

    @Test func hmacWithEmptyKeyAndMessage() {
        #expect(
            Hex.encode(HMACSHA256.authenticationCode(for: [], key: []))
                == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func tamperedCodeIsRejected() {
        var code = HMACSHA256.authenticationCode(for: Array("token".utf8), key: Array("k".utf8))
        code[31] ^= 1
        #expect(!HMACSHA256.isValid(code, for: Array("token".utf8), key: Array("k".utf8)))
    }

    @Test func constantTimeCompare() {
        #expect(ConstantTime.equals("abc", "abc"))
        #expect(!ConstantTime.equals("abc", "abd"))
        #expect(!ConstantTime.equals("abc", "abcd"))
        #expect(ConstantTime.equals([UInt8](), []))
    }

    @Test func hexRoundTripsAndRejectsGarbage() {
        #expect(Hex.decode("00ffA0") == [0, 255, 160])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
    }

    @Test func generatedKeysAreUniqueAndWellFormed() {
        var seen: Set<String> = []
        for _ in 0..<200 {
            let secret = APIKeySecret.generate()
            #expect(secret.value.hasPrefix("hk_"))
            #expect(secret.value.count == 3 + 32)
            #expect(secret.value.dropFirst(3).allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            #expect(seen.insert(secret.value).inserted)
        }
        #expect(APIKeySecret.generate(embedding: "k42").value.hasPrefix("hk_k42_"))
    }

    @Test func keyHashIsSHA256HexAndDescriptionIsRedacted() {
        let secret = APIKeySecret("hk_example")
        #expect(secret.hash == SHA256.hex("hk_example"))
        #expect(secret.hash.count == 64)
        #expect(!"\(secret)".contains("hk_example"))
    }

    @Test func adminSatisfiesEveryScope() {
        let admin = Principal(keyID: "a", scopes: [.admin])
        let events = Principal(keyID: "e", scopes: [.eventsWrite])
        for scope in Scope.allCases {
            #expect(admin.allows(scope))
            #expect(events.allows(scope) == (scope == .eventsWrite))
        }
        #expect(
            Scope.allCases.map(\.rawValue) == [
                "events:write", "categories:write", "users:write", "campaigns:write", "deliveries:consume", "admin",
            ])
    }

    @Test(arguments: [
        ("abc-123", true), ("a.b_c", true), ("", false), ("a b", false), ("ü", false),
        (String(repeating: "x", count: 64), true), (String(repeating: "x", count: 65), false),
    ])
    func requestIDAcceptance(candidate: String, accepted: Bool) {
        #expect(RequestID.isAcceptable(candidate) == accepted)
        #expect((RequestID.accepting(candidate) == candidate) == accepted)
    }
}
