import HeraldCore
import HeraldHTTP

/// Templates a preview renders in place of the stored ones: an editor's unsaved text, previewed as it is typed.
/// They are read and validated exactly as a write of the same templates would be, so an ICU error comes back as
/// the same 422 with the same pointer (`/templates/pl/body`) and offset; nothing is stored.
enum PreviewDraft {
    /// Splits the preview body into the request proper and its `templates` member, when it has one.
    static func split(_ body: HeraldHTTP.JSONValue) -> (request: HeraldHTTP.JSONValue, templates: HeraldHTTP.JSONValue?)
    {
        guard case .object(var members) = body, let templates = members.removeValue(forKey: "templates") else {
            return (body, nil)
        }
        return (.object(members), templates)
    }

    /// `category` with the draft's locales replacing its own, or a 422 listing every problem of the result.
    static func apply(
        _ draft: HeraldHTTP.JSONValue, to category: Category, validator: CategoryValidator
    ) throws(HTTPError) -> Category {
        guard case .object(let locales) = draft else {
            throw HTTPError.invalidField("/templates", "must be an object keyed by locale")
        }
        var reader = CategoryReader()
        var category = category
        for key in locales.keys.sorted() {
            let pointer = "/templates/" + FieldError.token(key)
            let canonical = reader.canonicalLocale(key, pointer: pointer)
            category.templates[canonical] = reader.localizedTemplates(from: locales[key]!, locale: canonical)
        }
        if category.templates.count > CategoryReader.maxLocales {
            throw HTTPError.invalidField("/templates", "at most \(CategoryReader.maxLocales) locales")
        }
        try validator.check(category, readingErrors: reader.errors)
        return category
    }
}
