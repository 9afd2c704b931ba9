import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// The wire form of a stored category: its document plus `version`, `archived` and timestamps, with its ETag.
enum CategoryView {
    /// The editable document of `category`: what a merge patch applies to.
    static func document(_ category: Category) throws -> HeraldHTTP.JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var document = try HeraldHTTP.JSONValue(parsing: Array(try encoder.encode(category)))
        if case .object(var members) = document {
            members.removeValue(forKey: "archived")
            document = .object(members)
        }
        return document
    }

    /// The full representation of `record`.
    static func json(_ record: CategoryRecord) throws -> HeraldHTTP.JSONValue {
        guard case .object(var members) = try document(record.category) else { return .null }
        members["version"] = .int(record.version)
        members["archived"] = .bool(record.archivedAt != nil)
        members["archived_at"] = record.archivedAt.map { .string(ISO8601.format($0)) } ?? .null
        members["created_at"] = .string(ISO8601.format(record.createdAt))
        members["updated_at"] = .string(ISO8601.format(record.updatedAt))
        return .object(members)
    }

    /// `record` as a response with its `ETag`, and `Location` when it was just created.
    static func response(
        _ record: CategoryRecord, status: HTTPStatus = .ok, created: Bool = false
    ) throws -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.set("ETag", CategoryETag.value(record.version))
        if created { headers.set("Location", "/v1/categories/\(record.category.id)") }
        return HTTPResponse.json(try json(record), status: status, headers: headers)
    }
}
