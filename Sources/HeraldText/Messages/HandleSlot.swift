import Synchronization

/// One lock-protected ICU handle.
final class HandleSlot: Sendable {
    private let handle: Mutex<MessageHandle>

    init(handle: consuming sending MessageHandle) {
        self.handle = Mutex(handle)
    }

    var isOpen: Bool { handle.withLock { $0.pointer != nil } }

    /// Formats when the slot is free; nil when another thread holds it.
    func formatIfFree(
        _ values: [String: MessageValue], strict: Bool, template: MessageTemplate, timeZone: String
    )
        -> FormatResult?
    {
        handle.withLockIfAvailable { handle in
            Self.format(values, strict: strict, on: &handle, template: template, timeZone: timeZone)
        }
    }

    /// Formats, waiting for the slot if needed.
    func format(
        _ values: [String: MessageValue], strict: Bool, template: MessageTemplate, timeZone: String
    )
        -> FormatResult
    {
        handle.withLock { handle in
            Self.format(values, strict: strict, on: &handle, template: template, timeZone: timeZone)
        }
    }

    private static func format(
        _ values: [String: MessageValue], strict: Bool, on handle: inout MessageHandle, template: MessageTemplate,
        timeZone: String
    ) -> FormatResult {
        if handle.pointer == nil {
            do {
                try handle.open(pattern: template.pattern, locale: template.locale.identifier, timeZone: timeZone)
            } catch {
                let failed = MessageHandle.Outcome.failed(icuErrorName: error.icuErrorName)
                return FormatResult(outcome: failed, missing: [], mismatched: [], arguments: template.arguments)
            }
        }
        return handle.format(template.arguments, values, strict: strict)
    }
}
