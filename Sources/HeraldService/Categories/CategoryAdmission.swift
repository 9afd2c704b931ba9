import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// Whether events may name a category: it must exist and not be archived. Ingest asks before accepting an event;
/// the decider applies the same rule to events already accepted when the category is archived later.
enum CategoryAdmission: Sendable, Hashable {
    /// Events are accepted.
    case open(Category)
    /// No category has this id.
    case unknown(String)
    /// The category is archived; restoring it accepts events again.
    case archived(String)

    /// The admission of events naming `categoryId`.
    static func check(categoryId: String, on connection: PostgresConnection) throws -> CategoryAdmission {
        guard CategoryRules.isSlug(categoryId),
            let record = try CategoryRepository.find(id: categoryId, on: connection)
        else { return .unknown(categoryId) }
        return record.archivedAt == nil ? .open(record.category) : .archived(categoryId)
    }

    /// The machine-readable reason of a rejection, the same words the decider records.
    var reason: String? {
        switch self {
        case .open: nil
        case .unknown: Outcome.rejectedUnknownCategory.rawValue
        case .archived: Outcome.rejectedArchivedCategory.rawValue
        }
    }

    /// The 422 an event naming this category gets, pointing at its `category` member; nil when it is accepted.
    var rejection: HTTPError? {
        switch self {
        case .open: return nil
        case .unknown(let id):
            return HTTPError(
                status: .unprocessableContent, type: "unknown-category", title: "Unknown category",
                detail: "No category has the id '\(id)'.", pointer: "/category",
                errors: [FieldError(pointer: "/category", code: reason, message: "is not a category")])
        case .archived(let id):
            return HTTPError(
                status: .unprocessableContent, type: "archived-category", title: "Archived category",
                detail: "The category '\(id)' is archived and accepts no events; restore it with "
                    + "POST /v1/categories/\(id)/restore.",
                pointer: "/category",
                errors: [FieldError(pointer: "/category", code: reason, message: "is archived")])
        }
    }
}
