import Foundation
import HeraldCore

/// A stand-in for ICU MessageFormat: replaces `{name}` by its argument and fails on a missing argument, so
/// fallback paths can be exercised. The template `{!fail}` always fails.
struct TestRenderer: TextRenderer {
    struct Failure: Error {}

    func render(template: String, locale: String, zone: String, arguments: [String: TemplateValue]) throws -> String {
        var out = ""
        var name: String?
        for character in template {
            switch (character, name) {
            case ("{", nil): name = ""
            case ("}", .some(let field)):
                guard let value = arguments[field] else { throw Failure() }
                out += Self.text(value)
                name = nil
            case (_, .some(let field)): name = field + String(character)
            case (_, nil): out.append(character)
            }
        }
        return out
    }

    static func text(_ value: TemplateValue) -> String {
        switch value {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .date(let date): return String(Int(date.timeIntervalSince1970))
        }
    }
}
