import Foundation
import HeraldHTTP
import HeraldPostgres
import Testing

@testable import HeraldService

/// Valid and unknown keys are remembered apart: a flood of made-up keys never pushes a valid key out.
@Suite("Database authenticator")
struct DatabaseAuthenticatorTests {
    @Test func aFloodOfUnknownKeysLeavesValidKeysKnown() throws {
        let conninfo = try TemporaryPostgres.freshDatabase()
        _ = try MigrateCommand.apply(try Migrator(folder: TestService.sqlFolder), conninfo: conninfo)
        let pool = try PostgresPool(conninfo: conninfo, size: 1)
        defer { pool.close() }
        let valid = APIKeySecret.generate().hash
        _ = try pool.withConnectionBlocking { connection in
            try APIKeyRepository.upsertAdmin(id: "admin", name: "admin", keyHash: valid, now: Date(), on: connection)
        }
        // Answers expire at once, so every known key is checked again: the revocation below is seen.
        let authenticator = DatabaseAuthenticator(pool: pool, lifetime: .zero, validKeys: 4, unknownKeys: 8)
        #expect(try authenticator.knownPrincipal(forKeyHash: valid) == nil)
        #expect(try authenticator.principal(forKeyHash: valid)?.keyID == "admin")
        for _ in 0..<100 {
            #expect(try authenticator.principal(forKeyHash: APIKeySecret.generate().hash) == nil)
        }
        #expect(try authenticator.knownPrincipal(forKeyHash: valid)?.keyID == "admin")
        #expect(try authenticator.knownPrincipal(forKeyHash: APIKeySecret.generate().hash) == nil)
        _ = try pool.withConnectionBlocking { try APIKeyRepository.revoke(id: "admin", now: Date(), on: $0) }
        #expect(try authenticator.knownPrincipal(forKeyHash: valid) == nil)
    }
}
