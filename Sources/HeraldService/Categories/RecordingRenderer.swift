import HeraldCore
import HeraldText
import Synchronization

/// Renders through ICU and remembers every call, so a preview can show which template of which locale produced
/// each text and which arguments were missing, exactly as the decider rendered them.
final class RecordingRenderer: TextRenderer {
    /// One render call.
    struct Record: Sendable, Hashable {
        var template: String
        var locale: String
        var text: String
        var missingArguments: [String]
        var mismatchedArguments: [String]
    }

    private let base: ICUMessageRenderer
    private let records = Mutex<[Record]>([])

    init(base: ICUMessageRenderer) {
        self.base = base
    }

    /// The calls so far, in order.
    var calls: [Record] { records.withLock { $0 } }

    func render(
        template: String, locale: String, zone: String, arguments: [String: TemplateValue]
    ) throws -> String {
        let rendered = try base.renderMessage(template: template, locale: locale, zone: zone, arguments: arguments)
        let record = Record(
            template: template, locale: locale, text: rendered.text, missingArguments: rendered.missingArguments,
            mismatchedArguments: rendered.mismatchedArguments)
        records.withLock { $0.append(record) }
        return rendered.text
    }
}
