import Foundation
import HeraldCore
import HeraldHTTP
import HeraldObservability
import Testing

@Suite("Client tokens")
struct ClientTokenTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let current = ClientTokenKey(id: "k2", secret: Array(repeating: 2, count: 32))!
    let previous = ClientTokenKey(id: "k1", secret: Array(repeating: 1, count: 32))!

    var signer: ClientTokenSigner { ClientTokenSigner(keys: [current, previous])! }

    @Test func aMintedTokenVerifiesUntilItExpires() {
        let token = signer.mint(userID: "user-42", issuedAt: now, expiresAt: now.addingTimeInterval(3600))
        #expect(ClientToken.looksLikeClientToken(token))
        #expect(token.hasPrefix("hct2.k2."))
        #expect(token.utf8.count < 512)
        let claims = ClientToken(
            userID: "user-42", issuedAt: now, expiresAt: now.addingTimeInterval(3600), keyID: "k2")
        #expect(signer.verify(token, now: now) == .valid(claims))
        #expect(signer.verify(token, now: now.addingTimeInterval(3599)) == .valid(claims))
        #expect(signer.verify(token, now: now.addingTimeInterval(3600)) == .expired)
    }

    @Test func anOlderKeyStillVerifiesAfterRotation() {
        let old = ClientTokenSigner(keys: [previous])!.mint(
            userID: "u", issuedAt: now, expiresAt: now.addingTimeInterval(60))
        #expect(
            signer.verify(old, now: now)
                == .valid(ClientToken(userID: "u", issuedAt: now, expiresAt: now + 60, keyID: "k1")))
        let dropped = ClientTokenSigner(keys: [current])!
        #expect(dropped.verify(old, now: now) == .invalid)
    }

    @Test func everyAlteredCharacterIsRefused() {
        let token = signer.mint(userID: "user-42", issuedAt: now, expiresAt: now.addingTimeInterval(3600))
        var bytes = Array(token.utf8)
        for index in bytes.indices where bytes[index] != UInt8(ascii: ".") {
            let original = bytes[index]
            bytes[index] = original == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            let altered = String(decoding: bytes, as: UTF8.self)
            #expect(
                signer.verify(altered, now: now)
                    != .valid(
                        ClientToken(userID: "user-42", issuedAt: now, expiresAt: now + 3600, keyID: "k2")),
                "position \(index)")
            bytes[index] = original
        }
    }

    @Test func aForgedExpiryIssueTimeOrUserIsInvalidNotExpired() {
        let token = signer.mint(userID: "alice", issuedAt: now, expiresAt: now.addingTimeInterval(60))
        var parts = token.split(separator: ".").map(String.init)
        parts[4] = String(Int(parts[4])! + 86_400)
        #expect(signer.verify(parts.joined(separator: "."), now: now) == .invalid)
        parts = token.split(separator: ".").map(String.init)
        parts[3] = String(Int(parts[3])! + 3_600)
        #expect(signer.verify(parts.joined(separator: "."), now: now) == .invalid)
        parts = token.split(separator: ".").map(String.init)
        parts[2] = Base64URL.encode(Array("bob".utf8))
        #expect(signer.verify(parts.joined(separator: "."), now: now) == .invalid)
        let other = ClientTokenSigner(keys: [ClientTokenKey(id: "k2", secret: Array(repeating: 9, count: 32))!])!
        #expect(other.verify(token, now: now) == .invalid)
    }

    @Test(arguments: [
        "", "hct1", "hct1.k2", "hct1.k2.YQ.1.", "hct1.k2.YQ.x.AAAA", "hct1.zz.YQ.1.AAAA", "hk_abc", "hct2.k2.YQ.1.AAAA",
        "hct2.k2.YQ.1.2.", "hct2.k2.YQ.01.2.AAAA", "hct3.k2.YQ.1.2.AAAA",
    ])
    func malformedTokensAreInvalid(_ token: String) {
        #expect(signer.verify(token, now: now) == .invalid)
    }

    @Test func keyListsParseAndRefuseWeakOrDuplicateKeys() {
        let secret = Base64URL.encode(Array(repeating: 5, count: 32))
        let keys = ClientTokenKey.parseList("a:\(secret), b:\(secret)")
        #expect(keys?.map(\.id) == ["a", "b"])
        #expect(ClientTokenKey.parseList("a:\(secret),a:\(secret)") == nil)
        #expect(ClientTokenKey.parseList("a:" + Base64URL.encode(Array(repeating: 5, count: 16))) == nil)
        #expect(ClientTokenKey.parseList("bad id:\(secret)") == nil)
        #expect(ClientTokenKey.parseList(secret) == nil)
        let standard = Data(Array(repeating: 0xFB, count: 33)).base64EncodedString()
        #expect(ClientTokenKey.parseList("std:\(standard)")?.first?.id == "std")
        #expect(!"\(keys!)".contains(secret))
    }

    @Test func theDispatcherSeparatesClientTokensFromAPIKeys() throws {
        var router = Router()
        router.get("/v1/me/feed", auth: .clientUser) { _, match in
            HTTPResponse.json(.string(match.principal?.clientUserID ?? "none"))
        }
        router.get("/v1/other", auth: .anyKey) { _, _ in HTTPResponse.json(.string("other")) }
        let clock = now
        let dispatcher = RequestDispatcher(
            router: router,
            authenticator: StaticAuthenticator(secrets: ["hk_key": Principal(keyID: "k", scopes: [.admin])]),
            logger: Logger(minimumLevel: .error, sink: .discard),
            clientTokens: ClientTokenAuthentication(signer: signer, clock: { clock }) { user in
                user == "alice" ? clock - 60 : nil
            })
        func get(_ path: String, _ bearer: String) -> HTTPResponse {
            var headers = HTTPHeaders()
            headers.set("Authorization", "Bearer " + bearer)
            return dispatcher.respond(to: HTTPRequest(method: .get, target: path, headers: headers, body: []))
        }
        let token = signer.mint(userID: "alice", issuedAt: now, expiresAt: now.addingTimeInterval(60))
        let expired = signer.mint(userID: "alice", issuedAt: now - 120, expiresAt: now.addingTimeInterval(-1))
        #expect(get("/v1/me/feed", token).status == .ok)
        #expect(String(decoding: get("/v1/me/feed", token).body, as: UTF8.self) == #""alice""#)
        #expect(get("/v1/other", token).status == .forbidden)
        #expect(get("/v1/me/feed", expired).status == .unauthorized)
        #expect(get("/v1/other", expired).status == .unauthorized)
        #expect(get("/v1/me/feed", token + "x").status == .unauthorized)
        #expect(get("/v1/me/feed", "hk_key").status == .forbidden)
        #expect(get("/v1/me/feed", "hk_unknown").status == .unauthorized)
        #expect(get("/v1/other", "hk_key").status == .ok)
        // A token of a user who no longer exists opens nothing.
        let ghost = signer.mint(userID: "ghost", issuedAt: now, expiresAt: now.addingTimeInterval(60))
        #expect(get("/v1/me/feed", ghost).status == .unauthorized)
    }

    /// A legacy token, minted before tokens carried their issue time: it still verifies, as issued as early as it
    /// can have been.
    @Test func aLegacyTokenVerifiesAsIssuedAsEarlyAsPossible() {
        let signed = ["hct1", current.id, Base64URL.encode(Array("ana".utf8)), "1800003600"].joined(separator: ".")
        let mac = HMACSHA256.authenticationCode(for: Array(signed.utf8), key: Array(repeating: 2, count: 32))
        let token = signed + "." + Base64URL.encode(mac)
        guard case .valid(let claims) = signer.verify(token, now: now) else {
            Issue.record("the legacy token was refused")
            return
        }
        #expect(claims.userID == "ana")
        #expect(claims.issuedAt == Date(timeIntervalSince1970: 1_800_003_600 - 86_400))
    }

    /// A token belongs to the user record that existed when it was minted, compared in whole milliseconds.
    @Test func aTokenBelongsOnlyToTheUserItWasMintedFor() {
        let claims = ClientToken(userID: "u", issuedAt: now, expiresAt: now + 60, keyID: "k2")
        #expect(claims.isFor(userCreatedAt: now - 3_600))
        #expect(claims.isFor(userCreatedAt: now.addingTimeInterval(0.000_4)))
        #expect(!claims.isFor(userCreatedAt: now.addingTimeInterval(0.001)))
        // Minted in the same millisecond as its user, after it: the token is the user's.
        let minted = ClientTokenSigner(keys: [current])!.mint(
            userID: "u", issuedAt: now.addingTimeInterval(0.0427), expiresAt: now + 60)
        guard case .valid(let verified) = signer.verify(minted, now: now) else {
            Issue.record("refused")
            return
        }
        #expect(verified.isFor(userCreatedAt: now.addingTimeInterval(0.0421)))
        #expect(!verified.isFor(userCreatedAt: now.addingTimeInterval(0.0431)))
    }
}
