import Foundation
import HeraldCore
import HeraldText

/// The engine's `TextRenderer` over ICU MessageFormat, with compiled templates cached across events.
struct PipelineTextRenderer: TextRenderer {
    let cache: TemplateCache

    /// A renderer with its own cache.
    init(cache: TemplateCache = TemplateCache(capacity: 1_024)) {
        self.cache = cache
    }

    func render(
        template: String, locale: String, zone: String, arguments: [String: TemplateValue]
    ) throws
        -> String
    {
        let values = arguments.mapValues { value -> MessageValue in
            switch value {
            case .string(let text): .string(text)
            case .int(let number): .int(number)
            case .double(let number): .double(number)
            case .date(let instant): .date(instant)
            }
        }
        return try cache.format(pattern: template, locale: locale, timeZone: zone, values: values)
    }
}
