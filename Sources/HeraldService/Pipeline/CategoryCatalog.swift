import Foundation
import HeraldCore
import HeraldPostgres

/// Categories as the engine needs them, loaded once per batch.
enum CategoryCatalog {
    /// The categories `ids` that exist, archived ones included (the engine rejects their events).
    static func load(_ ids: [String], on connection: PostgresConnection) throws -> [String: HeraldCore.Category] {
        try CategoryRepository.categories(ids: ids, on: connection)
    }
}
