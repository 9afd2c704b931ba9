import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres
import HeraldText

/// `/v1/categories`: product managers create, read, edit (with `If-Match`), archive and restore categories, edit
/// one locale's templates, preview the rendered push, and read every change. Reads need any valid key; writes need
/// `categories:write`.
enum CategoriesAPI {
    static let defaultPageSize = 50
    static let maxPageSize = 200
    /// History entries carry two documents each, so their pages are smaller.
    static let defaultHistoryPageSize = 20
    static let maxHistoryPageSize = 100

    /// What the handlers share, built once when the routes are registered.
    struct Handlers: Sendable {
        let store: CategoryStore
        let validator: CategoryValidator
        let preview: CategoryPreview
        let clock: @Sendable () -> Date
    }

    static func register(on router: inout Router, context: ServiceContext) {
        let renderer = ICUMessageRenderer()
        let handlers = Handlers(
            store: CategoryStore(pool: context.pool, clock: context.clock),
            validator: CategoryValidator(renderer: renderer),
            preview: CategoryPreview(renderer: renderer, zones: context.zones, policy: context.config.policy),
            clock: context.clock)
        let write = AuthRequirement.scope(.categoriesWrite)
        router.post("/v1/categories", auth: write) { request, match in
            try handlers.create(request, actor: match.principal?.keyID)
        }
        router.get("/v1/categories", auth: .anyKey) { request, _ in try handlers.list(request) }
        router.get("/v1/categories/{id}", auth: .anyKey) { _, match in
            try CategoryView.response(try handlers.store.find(try match.parameter("id")))
        }
        router.put("/v1/categories/{id}", auth: write) { request, match in
            try handlers.replace(request, id: try match.parameter("id"), actor: match.principal?.keyID)
        }
        router.patch("/v1/categories/{id}", auth: write) { request, match in
            try handlers.patch(request, id: try match.parameter("id"), actor: match.principal?.keyID)
        }
        router.delete("/v1/categories/{id}", auth: write) { request, match in
            try handlers.setArchived(true, request, id: try match.parameter("id"), actor: match.principal?.keyID)
        }
        router.post("/v1/categories/{id}/restore", auth: write) { request, match in
            try handlers.setArchived(false, request, id: try match.parameter("id"), actor: match.principal?.keyID)
        }
        router.put("/v1/categories/{id}/templates/{locale}", auth: write) { request, match in
            try handlers.putTemplates(
                request, id: try match.parameter("id"), locale: try match.parameter("locale"),
                actor: match.principal?.keyID)
        }
        router.delete("/v1/categories/{id}/templates/{locale}", auth: write) { request, match in
            try handlers.deleteTemplates(
                request, id: try match.parameter("id"), locale: try match.parameter("locale"),
                actor: match.principal?.keyID)
        }
        router.post("/v1/categories/{id}/preview", auth: .anyKey) { request, match in
            try handlers.renderPreview(request, id: try match.parameter("id"))
        }
        router.get("/v1/categories/{id}/history", auth: .anyKey) { request, match in
            try handlers.history(request, id: try match.parameter("id"))
        }
    }
}

extension CategoriesAPI.Handlers {
    func create(_ request: HTTPRequest, actor: String?) throws -> HTTPResponse {
        var reader = CategoryReader()
        let category = reader.category(from: try request.decodeJSONValue(), pathId: nil)
        try validator.check(category, readingErrors: reader.errors)
        return try CategoryView.response(try store.create(category, actor: actor), status: .created, created: true)
    }

    func list(_ request: HTTPRequest) throws -> HTTPResponse {
        let limit = try PageCursor.limit(
            request, defaultValue: CategoriesAPI.defaultPageSize, maximum: CategoriesAPI.maxPageSize)
        let cursor = try request.query("cursor").map { cursor throws(HTTPError) in
            try PageCursor.categoryId(from: cursor)
        }
        var archived: Bool?
        switch request.query("archived") {
        case nil: archived = nil
        case "true": archived = true
        case "false": archived = false
        default:
            throw HTTPError(
                status: .badRequest, type: "invalid-query", detail: "archived must be true or false.",
                pointer: "archived")
        }
        // One extra row tells whether another page follows without a count query.
        let records = try store.page(after: cursor, limit: limit + 1, archived: archived)
        let page = records.prefix(limit)
        let next = records.count > limit ? page.last.map { PageCursor.category(after: $0.category.id) } : nil
        return HTTPResponse.json(
            .object([
                "items": .array(try page.map(CategoryView.json)),
                "next_cursor": next.map(HeraldHTTP.JSONValue.string) ?? .null,
            ]))
    }

    func replace(_ request: HTTPRequest, id: String, actor: String?) throws -> HTTPResponse {
        let condition = try CategoryETag.requiredCondition(of: request)
        let body = try request.decodeJSONValue()
        let validator = self.validator
        let (_, record, _) = try store.modify(id, condition: condition, action: .replace, actor: actor) { current in
            var reader = CategoryReader()
            var category = reader.category(from: body, pathId: id)
            category.archived = current.category.archived
            try validator.check(category, readingErrors: reader.errors)
            return category
        }
        return try CategoryView.response(record)
    }

    func patch(_ request: HTTPRequest, id: String, actor: String?) throws -> HTTPResponse {
        let condition = try CategoryETag.requiredCondition(of: request)
        let patch = try request.decodeJSONValue()
        guard case .object(let members) = patch else {
            throw HTTPError.invalidField("", "A merge patch must be a JSON object.")
        }
        let validator = self.validator
        let (_, record, _) = try store.modify(id, condition: condition, action: .patch, actor: actor) { current in
            let merged = try CategoryView.document(current.category).applyingMergePatch(patch)
            var reader = CategoryReader()
            var category = reader.category(from: merged, pathId: id)
            category.takeKindDefaults(replacing: current.category.kind, except: Set(members.keys))
            category.archived = current.category.archived
            try validator.check(category, readingErrors: reader.errors)
            return category
        }
        return try CategoryView.response(record)
    }

    func setArchived(_ archived: Bool, _ request: HTTPRequest, id: String, actor: String?) throws -> HTTPResponse {
        let (_, record, _) = try store.modify(
            id, condition: CategoryETag.condition(of: request), action: archived ? .archive : .restore, actor: actor
        ) { current in
            var category = current.category
            category.archived = archived
            return category
        }
        return try CategoryView.response(record)
    }

    func putTemplates(_ request: HTTPRequest, id: String, locale: String, actor: String?) throws -> HTTPResponse {
        let condition = try CategoryETag.requiredCondition(of: request)
        let body = try request.decodeJSONValue()
        var reader = CategoryReader()
        let canonical = reader.canonicalLocale(locale, pointer: "/templates/" + FieldError.token(locale))
        let templates = reader.localizedTemplates(from: body, locale: canonical)
        let readingErrors = reader.errors
        let validator = self.validator
        let (before, record, _) = try store.modify(id, condition: condition, action: .templatePut, actor: actor) {
            current in
            var category = current.category
            category.templates[canonical] = templates
            if category.templates.count > CategoryReader.maxLocales {
                throw HTTPError.invalidField("/templates", "at most \(CategoryReader.maxLocales) locales")
            }
            try validator.check(category, readingErrors: readingErrors)
            return category
        }
        guard before.category.templates[canonical] == nil else { return try CategoryView.response(record) }
        var response = try CategoryView.response(record, status: .created)
        response.headers.set("Location", "/v1/categories/\(id)/templates/\(canonical)")
        return response
    }

    func deleteTemplates(_ request: HTTPRequest, id: String, locale: String, actor: String?) throws -> HTTPResponse {
        let canonical = ICUMessageRenderer.canonicalLocale(locale) ?? locale
        let (_, record, _) = try store.modify(
            id, condition: CategoryETag.condition(of: request), action: .templateDelete, actor: actor
        ) { current in
            var category = current.category
            guard category.templates[canonical] != nil else {
                throw HTTPError.notFound("The category '\(id)' has no templates for '\(canonical)'.")
            }
            if canonical == category.defaultLocale {
                throw HTTPError.conflict(
                    "'\(canonical)' is the default locale; change default_locale before deleting its templates.",
                    type: "default-locale-templates")
            }
            category.templates[canonical] = nil
            return category
        }
        return try CategoryView.response(record)
    }

    func renderPreview(_ request: HTTPRequest, id: String) throws -> HTTPResponse {
        let zones = preview.zones
        let (body, draft) = PreviewDraft.split(try request.decodeJSONValue())
        let record = try store.find(id)
        let input = try PreviewRequest.read(body) { zones.zone($0) != nil }
        let category = try draft.map { draft throws(HTTPError) in
            try PreviewDraft.apply(draft, to: record.category, validator: validator)
        }
        return HTTPResponse.json(preview.render(category ?? record.category, request: input, now: clock()))
    }

    func history(_ request: HTTPRequest, id: String) throws -> HTTPResponse {
        let limit = try PageCursor.limit(
            request, defaultValue: CategoriesAPI.defaultHistoryPageSize, maximum: CategoriesAPI.maxHistoryPageSize)
        let after = try request.query("cursor").map { cursor throws(HTTPError) in
            try PageCursor.historyVersion(from: cursor)
        }
        let changes = try store.history(of: id, afterVersion: after ?? 0, limit: limit + 1)
        let page = changes.prefix(limit)
        let next = changes.count > limit ? page.last.map { PageCursor.history(after: $0.version) } : nil
        return HTTPResponse.json(
            .object([
                "items": .array(try page.map(CategoryHistoryView.json)),
                "next_cursor": next.map(HeraldHTTP.JSONValue.string) ?? .null,
            ]))
    }
}
