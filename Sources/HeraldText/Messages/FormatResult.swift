/// What formatting produced, and which arguments had no usable value.
struct FormatResult: Sendable {
    /// The format call's outcome; nil when strict formatting stopped before calling ICU.
    let outcome: MessageHandle.Outcome?
    let missing: [String]
    let mismatched: [String]
    /// The argument table the outcome's indices refer to.
    let arguments: [TemplateArgument]

    /// The text of a strict format, or the error it reports.
    func text() throws(MessageFormatError) -> String {
        if !missing.isEmpty { throw MessageFormatError(.missingArguments, arguments: missing) }
        if !mismatched.isEmpty { throw MessageFormatError(.mismatchedArguments, arguments: mismatched) }
        switch outcome {
        case .text(let text):
            return text
        case .badValue(let index):
            let name = arguments.indices.contains(index) ? arguments[index].name : "?"
            throw MessageFormatError(.mismatchedArguments, arguments: [name])
        case .failed, nil:
            throw MessageFormatError(.formatFailed)
        }
    }

    /// The result of a lenient format.
    func rendered() throws(MessageFormatError) -> RenderedMessage {
        let text = try FormatResult(outcome: outcome, missing: [], mismatched: [], arguments: arguments).text()
        return RenderedMessage(text: text, missingArguments: missing, mismatchedArguments: mismatched)
    }
}
