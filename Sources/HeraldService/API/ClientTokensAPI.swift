import Foundation
import HeraldHTTP
import HeraldPostgres

/// `POST /v1/users/{id}/client-tokens`: the app's backend mints a short-lived token the app uses for `/v1/me`.
enum ClientTokensAPI {
    struct MintBody: Decodable {
        var ttlSeconds: Int?
    }

    struct TokenView: Encodable {
        var token: String
        var tokenType = "Bearer"
        var userId: String
        var expiresAt: Date
        var keyId: String
    }

    static func register(on router: inout Router, context: ServiceContext) {
        router.post("/v1/users/{id}/client-tokens", auth: .scope(.usersWrite)) { request, match in
            let id = try RecipientPaths.identifier(match, "id", write: true)
            let body: MintBody =
                request.body.isEmpty
                ? MintBody() : try request.decodeJSON(members: ["ttl_seconds"], of: "a token request")
            let maximum = ClientToken.longestLifetimeSeconds
            let ttl = body.ttlSeconds ?? context.config.clientTokenTTLSeconds
            guard (60...maximum).contains(ttl) else {
                throw HTTPError.invalidField("/ttl_seconds", "must be from 60 to \(maximum)")
            }
            guard let signer = context.clientTokens else {
                throw HTTPError(
                    status: .serviceUnavailable, type: "client-tokens-disabled",
                    detail: "No client token key is configured.")
            }
            try context.pool.withConnectionBlocking { connection in try UsersAPI.requireUser(id, on: connection) }
            let now = context.clock()
            let expiresAt = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + Double(ttl)).rounded(.down))
            let view = TokenView(
                token: signer.mint(userID: id, issuedAt: now, expiresAt: expiresAt), userId: id, expiresAt: expiresAt,
                keyId: signer.keys[0].id)
            return try HTTPResponse.json(view, status: .created, headers: ["Cache-Control": "no-store"])
        }
    }
}
