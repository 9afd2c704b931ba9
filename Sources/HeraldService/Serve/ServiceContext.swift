import Foundation
import HeraldCore
import HeraldHTTP
import HeraldObservability
import HeraldPostgres
import HeraldText

/// What every API handler may use, built once at start and passed down.
struct ServiceContext: Sendable {
    /// The validated configuration.
    let config: ServiceConfig
    /// PostgreSQL connections on dedicated threads.
    let pool: PostgresPool
    /// The JSON line logger.
    let logger: Logger
    /// Request and pipeline metrics.
    let metrics: Metrics
    /// The migrations this binary ships, to tell whether the database is current.
    let migrator: Migrator
    /// Which tz data ICU runs on.
    let timeZoneData: TimeZoneDataStatus
    /// Zone rules from the ICU data.
    let zones: ICUZoneDirectory
    /// Looks up bearer keys.
    let authenticator: DatabaseAuthenticator
    /// The wall clock; tests may pass another.
    let clock: @Sendable () -> Date
    /// Mints and verifies client tokens; nil accepts none.
    var clientTokens: ClientTokenSigner? = nil
    /// The web console's files, served at `/console`; without a folder every file is a 404.
    var console = ConsoleFiles(folder: nil)

    /// What the dispatcher checks client tokens with.
    var clientTokenAuthentication: ClientTokenAuthentication? {
        clientTokens.map { [pool] signer in
            ClientTokenAuthentication(signer: signer, clock: clock) { user in
                try pool.withConnectionBlocking { try UserRepository.createdAt(id: user, on: $0) }
            }
        }
    }
}
