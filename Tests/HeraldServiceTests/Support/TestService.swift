import Foundation
import HeraldHTTP
import HeraldObservability
import HeraldPostgres
import HeraldText

@testable import HeraldService

/// A whole service on a fresh database, driven without sockets: requests go straight to the dispatcher.
struct TestService: Sendable {
    let context: ServiceContext
    let dispatcher: RequestDispatcher
    /// The secret of an admin key.
    let adminKey: String
    /// The database, for a test's own connections.
    let conninfo: String

    /// The repository's `sql/` folder.
    static let sqlFolder: URL = {
        if let dir = ProcessInfo.processInfo.environment["HERALD_SQL_DIR"] { return URL(fileURLWithPath: dir) }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("sql")
    }()

    /// A service on a new, migrated database, with an admin key; `clock` stands in for the wall clock.
    static func make(
        clock: @escaping @Sendable () -> Date = { Date() }, config: ServiceConfig = .defaults
    ) throws -> TestService {
        let conninfo = try TemporaryPostgres.freshDatabase()
        let migrator = try Migrator(folder: sqlFolder)
        _ = try MigrateCommand.apply(migrator, conninfo: conninfo)
        let pool = try PostgresPool(conninfo: conninfo, size: 2)
        let logger = Logger(minimumLevel: .error, sink: .discard)
        let context = ServiceContext(
            config: config, pool: pool, logger: logger, metrics: Metrics(), migrator: migrator,
            timeZoneData: TimeZoneData.status(), zones: ICUZoneDirectory(),
            authenticator: DatabaseAuthenticator(pool: pool, lifetime: .zero), clock: clock,
            clientTokens: ClientTokenSigner(keys: [TestService.testClientTokenKey]))
        let service = TestService(
            context: context,
            dispatcher: RequestDispatcher(
                router: APIRoutes.router(context: context), authenticator: context.authenticator, logger: logger,
                clientTokens: context.clientTokenAuthentication, dependencyProblem: DatabaseProblem.problem(for:)),
            adminKey: APIKeySecret.generate().value, conninfo: conninfo)
        _ = try pool.withConnectionBlocking { [adminKey = service.adminKey] connection in
            try APIKeyRepository.upsertAdmin(
                id: "admin", name: "test admin", keyHash: APIKeySecret(adminKey).hash, now: clock(), on: connection)
        }
        return service
    }

    /// The key that signs the test service's client tokens.
    static let testClientTokenKey = ClientTokenKey(id: "test", secret: Array(repeating: 7, count: 32))!

    /// Creates a key with `scopes` directly in the database and returns its secret.
    func key(_ scopes: [Scope], name: String = "test key") throws -> String {
        let secret = APIKeySecret.generate()
        let id = "key_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        try context.pool.withConnectionBlocking { connection in
            _ = try APIKeyRepository.create(
                id: id, name: name, keyHash: secret.hash, scopes: scopes.map(\.rawValue), now: context.clock(),
                on: connection)
        }
        return secret.value
    }

    /// Sends one request; `key` nil sends no Authorization header, the default is the admin key.
    func send(
        _ method: HTTPMethod, _ target: String, json: String? = nil, key: String?? = .some(nil),
        headers extra: [(String, String)] = []
    ) -> HTTPResponse {
        var headers = HTTPHeaders(extra)
        let bearer: String? =
            switch key {
            case .some(.some(let value)): value
            case .some(.none): adminKey
            case .none: nil
            }
        if let bearer { headers.set("Authorization", "Bearer \(bearer)") }
        if json != nil { headers.set("Content-Type", "application/json") }
        return dispatcher.respond(
            to: HTTPRequest(method: method, target: target, headers: headers, body: Array((json ?? "").utf8)))
    }

    /// Closes the pool.
    func close() { context.pool.close() }
}

extension HTTPResponse {
    /// The body parsed as JSON, or `.null` when it is not JSON.
    var json: JSONValue { (try? JSONValue(parsing: body)) ?? .null }
}
