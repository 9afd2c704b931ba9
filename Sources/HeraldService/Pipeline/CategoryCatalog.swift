import Foundation
import HeraldCore
import HeraldPostgres

/// Categories as the engine needs them, decoded from their stored documents.
enum CategoryCatalog {
    /// The categories `ids` that exist; a document that does not decode counts as missing.
    static func load(_ ids: [String], on connection: PostgresConnection) throws -> [String: HeraldCore.Category] {
        var categories: [String: HeraldCore.Category] = [:]
        for row in try PipelineRepository.categories(ids, on: connection) {
            guard var category = try? JSONDecoder().decode(HeraldCore.Category.self, from: Data(row.document.utf8))
            else { continue }
            category.id = row.id
            category.archived = category.archived || row.archived
            categories[row.id] = category
        }
        return categories
    }
}
