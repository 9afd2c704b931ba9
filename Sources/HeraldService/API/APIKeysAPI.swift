import Foundation
import HeraldCore
import HeraldHTTP
import HeraldObservability
import HeraldPostgres

/// `/v1/api-keys`: admins create keys (the secret is shown once), list and revoke them.
enum APIKeysAPI {
    static let defaultPageSize = 100
    static let maxPageSize = 1_000

    static func register(on router: inout Router, context: ServiceContext) {
        router.post("/v1/api-keys", auth: .scope(.admin)) { request, _ in
            let body: CreateRequest = try request.decodeJSON(members: ["name", "scopes"], of: "an API key request")
            let scopes = try validate(body)
            let id =
                "key_"
                + Base64URL.encode(SecureRandom.bytes(count: 9)).lowercased()
                .replacingOccurrences(of: "-", with: "x")
            let secret = APIKeySecret.generate(embedding: nil)
            let record = try context.pool.withConnectionBlocking { connection in
                try APIKeyRepository.create(
                    id: id, name: body.name, keyHash: secret.hash, scopes: scopes.map(\.rawValue), now: context.clock(),
                    on: connection)
            }
            context.logger.info("api key created", ["api_key.id": .string(id)])
            var headers = HTTPHeaders()
            headers.set("Location", "/v1/api-keys/\(id)")
            return try HTTPResponse.json(
                Created(key: KeyView(record), secret: secret.value), status: .created, headers: headers)
        }
        router.get("/v1/api-keys", auth: .scope(.admin)) { request, _ in
            let limit = try PageCursor.limit(request, defaultValue: defaultPageSize, maximum: maxPageSize)
            let cursor = try request.query("cursor").map { cursor throws(HTTPError) in
                try PageCursor.apiKey(from: cursor)
            }
            // One extra row tells whether another page follows without a count query.
            let records = try context.pool.withConnectionBlocking { connection in
                try APIKeyRepository.page(after: cursor, limit: limit + 1, on: connection)
            }
            let page = records.prefix(limit)
            let next =
                records.count > limit ? page.last.map { PageCursor.apiKey(after: $0.createdAt, id: $0.id) } : nil
            return try HTTPResponse.json(KeyList(items: page.map(KeyView.init), nextCursor: next))
        }
        router.delete("/v1/api-keys/{id}", auth: .scope(.admin)) { _, match in
            let id = try match.parameter("id")
            if match.principal?.keyID == id {
                throw HTTPError.conflict(
                    "A key cannot revoke itself; use another admin key, so access is never lost by accident.",
                    type: "self-revocation")
            }
            let found = try context.pool.withConnectionBlocking { connection in
                try APIKeyRepository.revoke(id: id, now: context.clock(), on: connection)
            }
            guard found else { throw HTTPError.notFound("No API key has this id.") }
            context.authenticator.forgetAll()
            context.logger.info("api key revoked", ["api_key.id": .string(id)])
            return .noContent()
        }
    }

    struct CreateRequest: Decodable {
        var name: String
        var scopes: [String]
    }

    static func validate(_ body: CreateRequest) throws -> [Scope] {
        var errors: [FieldError] = []
        let name = body.name.trimmingCharacters(in: .whitespacesAndNewlines)
        // Counted as the database counts (code points), so that no name it refuses gets this far.
        if name.isEmpty || body.name.unicodeScalars.count > 200 {
            errors.append(FieldError(pointer: "/name", message: "must be 1 to 200 characters"))
        }
        if body.scopes.isEmpty || body.scopes.count > Scope.allCases.count {
            errors.append(FieldError(pointer: "/scopes", message: "must list 1 to \(Scope.allCases.count) scopes"))
        }
        var scopes: [Scope] = []
        for (index, name) in body.scopes.enumerated() {
            if let scope = Scope(rawValue: name) {
                if scopes.contains(scope) {
                    errors.append(FieldError(pointer: "/scopes/\(index)", message: "is listed twice"))
                }
                scopes.append(scope)
            } else {
                errors.append(FieldError(pointer: "/scopes/\(index)", message: "is not a known scope"))
            }
        }
        if !errors.isEmpty { throw HTTPError.invalidFields(errors) }
        return scopes
    }

    struct KeyView: Encodable {
        var id: String
        var name: String
        var scopes: [String]
        var createdAt: Date
        var revokedAt: Date?

        init(_ record: APIKeyRecord) {
            id = record.id
            name = record.name
            scopes = record.scopes
            createdAt = record.createdAt
            revokedAt = record.revokedAt
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(scopes, forKey: .scopes)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(revokedAt, forKey: .revokedAt)
        }

        enum CodingKeys: String, CodingKey { case id, name, scopes, createdAt, revokedAt }
    }

    struct Created: Encodable {
        var key: KeyView
        var secret: String

        func encode(to encoder: any Encoder) throws {
            try key.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(secret, forKey: .secret)
        }

        enum CodingKeys: String, CodingKey { case secret }
    }

    struct KeyList: Encodable {
        var items: [KeyView]
        var nextCursor: String?

        enum CodingKeys: String, CodingKey {
            case items
            case nextCursor = "next_cursor"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(items, forKey: .items)
            try container.encode(nextCursor, forKey: .nextCursor)
        }
    }
}
