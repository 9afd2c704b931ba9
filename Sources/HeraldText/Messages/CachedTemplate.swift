import Synchronization

/// A template compiled for one zone, with a few ICU handles that threads borrow one at a time.
///
/// ICU's MessageFormat is not thread-safe, and a new handle's first format costs about 10 µs against 1.5 µs later,
/// so handles are kept warm and reused: a caller takes the first free slot, and waits on one only when all are busy.
final class CachedTemplate: Sendable {
    let template: MessageTemplate
    let timeZone: String
    /// The cache clock at the last use, for eviction.
    let lastUse: Atomic<Int>
    private let slots: [HandleSlot]
    private let nextWait = Atomic<Int>(0)
    /// The pattern itself when it has no argument and no quoting (no `{`, `}` or `'`): MessageFormat then prints
    /// it unchanged, so formatting it needs no handle. Titles such as "New message" are formatted on every push.
    private let literal: String?

    /// Wraps `first`, the handle compiled while validating; the other slots open on demand.
    init(
        template: MessageTemplate, timeZone: String, first: consuming sending MessageHandle, slotCount: Int, clock: Int
    ) {
        self.template = template
        self.timeZone = timeZone
        self.lastUse = Atomic(clock)
        var slots = [HandleSlot(handle: first)]
        for _ in 1..<max(slotCount, 1) { slots.append(HandleSlot(handle: MessageHandle())) }
        self.slots = slots
        let special: Set<UInt8> = [UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "'")]
        self.literal =
            template.arguments.isEmpty && !template.pattern.utf8.contains(where: special.contains)
            ? template.pattern : nil
    }

    /// How many handles are open (for tests and metrics).
    var openHandles: Int { slots.reduce(0) { $0 + ($1.isOpen ? 1 : 0) } }

    /// Formats on a free handle (see `MessageHandle.format(_:_:strict:)`).
    func format(_ values: [String: MessageValue], strict: Bool) -> FormatResult {
        if let literal {
            return FormatResult(outcome: .text(literal), missing: [], mismatched: [], arguments: template.arguments)
        }
        for slot in slots {
            if let outcome = slot.formatIfFree(values, strict: strict, template: template, timeZone: timeZone) {
                return outcome
            }
        }
        let index = nextWait.wrappingAdd(1, ordering: .relaxed).oldValue & Int.max
        return slots[index % slots.count].format(values, strict: strict, template: template, timeZone: timeZone)
    }
}
