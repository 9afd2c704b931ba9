import Foundation
import HeraldCore
import HeraldHTTP
import HeraldText

/// Every rule a category must satisfy before it is stored: the reader's type checks, the domain's ranges and
/// vocabularies, ICU's parse of each template, and limits that keep documents and push identifiers bounded.
struct CategoryValidator: Sendable {
    /// The largest stored category document, in bytes of JSON.
    static let maxDocumentBytes = 1_048_576

    let renderer: ICUMessageRenderer

    /// Throws a 422 listing every invalid member, the reader's `readingErrors` included.
    func check(_ category: Category, readingErrors: [FieldError] = []) throws(HTTPError) {
        let errors = self.errors(in: category, readingErrors: readingErrors)
        if !errors.isEmpty { throw HTTPError.invalidFields(errors) }
    }

    /// The reader's errors, then the domain's for members the reader did not already reject.
    func errors(in category: Category, readingErrors: [FieldError]) -> [FieldError] {
        var errors = readingErrors
        let rejected = readingErrors.map(\.pointer)
        func alreadyRejected(_ pointer: String) -> Bool {
            rejected.contains { $0 == pointer || pointer.hasPrefix($0 + "/") || $0.isEmpty }
        }
        for error in category.validate(checker: renderer) + extraErrors(in: category)
        where !alreadyRejected(error.pointer) {
            errors.append(error)
        }
        return errors
    }

    /// Rules beyond the domain's own: a collapse key must be able to fit an APNs collapse id, and the whole
    /// document must stay within the size the API accepts in one request.
    private func extraErrors(in category: Category) -> [FieldError] {
        var errors: [FieldError] = []
        if let rule = category.collapse, let template = try? KeyTemplate(rule.keyTemplate) {
            // Each placeholder renders to at least one byte (an empty value means no key at all).
            let minimum = template.parts.reduce(0) { total, part in
                switch part {
                case .literal(let text): total + text.utf8.count
                case .field: total + 1
                }
            }
            if minimum > CollapseIdentifier.apnsMaxBytes {
                errors.append(
                    FieldError(
                        pointer: "/collapse/key_template", code: "too_long",
                        message: "renders to at least \(minimum) bytes; APNs collapse ids are at most "
                            + "\(CollapseIdentifier.apnsMaxBytes) bytes"))
            }
        }
        if let size = try? JSONEncoder().encode(category).count, size > Self.maxDocumentBytes {
            errors.append(
                FieldError(
                    pointer: "", code: "too_large",
                    message: "the category document would be \(size) bytes; at most \(Self.maxDocumentBytes)"))
        }
        return errors
    }
}
