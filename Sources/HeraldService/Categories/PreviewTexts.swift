import HeraldCore
import HeraldHTTP

/// Which template of which locale produced each text of a preview, read back from the renderer's calls.
struct PreviewTexts {
    /// One rendered template field.
    struct Field {
        var name: String
        var locale: String
        var template: String
        var text: String
        var missing: [String]

        var json: HeraldHTTP.JSONValue {
            .object([
                "field": .string(name), "locale": .string(locale), "template": .string(template),
                "text": .string(text), "missing_arguments": .array(missing.map(HeraldHTTP.JSONValue.string)),
            ])
        }
    }

    private(set) var title: String?
    private(set) var body: String?
    /// The locale of the body (or of the title when there is no body).
    private(set) var locale: String?
    private(set) var fields: [Field] = []
    private(set) var missing: [String] = []
    private(set) var mismatched: [String] = []

    /// Classifies `records` (in the order the decider rendered them) as title or body texts.
    init(records: [RecordingRenderer.Record], category: Category, digest: Bool) {
        let titleFields = digest ? ["digest_title", "title"] : ["title"]
        let bodyFields = digest ? ["digest_body", "body"] : ["fallback_body", "body"]
        var titleField: Field?
        var bodyField: Field?
        for record in records where !record.text.isEmpty {
            let templates = category.templates[record.locale]?.fields ?? []
            let names = templates.filter { $0.template == record.template }.map(\.name)
            let isTitle = names.contains(where: titleFields.contains)
            let isBody = names.contains(where: bodyFields.contains)
            // The decider renders the title before the body, so a template used for both is the title first.
            let asTitle = isTitle && (!isBody || titleField == nil)
            let name = names.first { (asTitle ? titleFields : bodyFields).contains($0) } ?? names.first ?? "body"
            let field = Field(
                name: name, locale: record.locale, template: record.template, text: record.text,
                missing: record.missingArguments)
            if asTitle { titleField = field } else { bodyField = field }
            for argument in record.missingArguments where !missing.contains(argument) { missing.append(argument) }
            for argument in record.mismatchedArguments where !mismatched.contains(argument) {
                mismatched.append(argument)
            }
        }
        title = titleField?.text
        body = bodyField?.text
        locale = bodyField?.locale ?? titleField?.locale
        fields = [titleField, bodyField].compactMap { $0 }
    }
}
