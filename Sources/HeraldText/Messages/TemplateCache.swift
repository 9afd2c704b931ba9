import Synchronization

/// Compiled templates keyed by (pattern, locale, time zone) for the sending hot path; safe to share between threads.
///
/// A miss compiles and validates outside the lock; hits cost a dictionary lookup. The cache holds at most `capacity`
/// templates and drops the least recently used eighth when full. A warm ICU handle takes about 70 KB, and a template
/// opens a second one only when two threads format it at the same moment.
public final class TemplateCache: Sendable {
    private struct Key: Hashable, Sendable {
        let pattern: String
        let locale: String
        let timeZone: String
    }

    private struct State: ~Copyable {
        var entries: [Key: CachedTemplate] = [:]
        var clock = 0
    }

    /// The most templates kept.
    public let capacity: Int
    private let handlesPerTemplate: Int
    private let state = Mutex(State())

    /// A cache of at most `capacity` templates, each with up to `handlesPerTemplate` ICU handles for parallel use.
    public init(capacity: Int = 512, handlesPerTemplate: Int = 2) {
        self.capacity = max(capacity, 1)
        self.handlesPerTemplate = max(handlesPerTemplate, 1)
    }

    /// How many templates are cached.
    public var count: Int { state.withLock { $0.entries.count } }

    /// Drops every cached template.
    public func removeAll() { state.withLock { $0.entries.removeAll() } }

    /// The validated template for `pattern` in `locale`, compiled for `timeZone` (an IANA id).
    public func template(
        pattern: String, locale: LocaleTag, timeZone: String
    ) throws(MessageFormatError)
        -> MessageTemplate
    {
        try entry(pattern: pattern, localeKey: locale.identifier, locale: locale, timeZone: timeZone).template
    }

    /// Formats strictly: every argument needs a value of a kind it accepts.
    public func format(
        pattern: String, locale: LocaleTag, timeZone: String, values: [String: MessageValue]
    )
        throws(MessageFormatError) -> String
    {
        let entry = try entry(pattern: pattern, localeKey: locale.identifier, locale: locale, timeZone: timeZone)
        return try entry.format(values, strict: true).text()
    }

    /// Formats strictly with `locale` as stored (a BCP 47 tag), parsed only when the template is first compiled:
    /// parsing a tag costs about as much as a cached format.
    public func format(
        pattern: String, locale: String, timeZone: String, values: [String: MessageValue]
    )
        throws(MessageFormatError) -> String
    {
        let entry = try entry(pattern: pattern, localeKey: locale, locale: nil, timeZone: timeZone)
        return try entry.format(values, strict: true).text()
    }

    /// Formats strictly with an already compiled template.
    public func format(
        _ template: MessageTemplate, timeZone: String, values: [String: MessageValue]
    )
        throws(MessageFormatError) -> String
    {
        try format(pattern: template.pattern, locale: template.locale, timeZone: timeZone, values: values)
    }

    /// Formats leniently: arguments without a usable value stay visible as `{name}` and are listed.
    public func render(
        pattern: String, locale: LocaleTag, timeZone: String, values: [String: MessageValue]
    )
        throws(MessageFormatError) -> RenderedMessage
    {
        let entry = try entry(pattern: pattern, localeKey: locale.identifier, locale: locale, timeZone: timeZone)
        return try entry.format(values, strict: false).rendered()
    }

    /// Formats leniently with `locale` as stored (a BCP 47 tag), parsed only when the template is first compiled.
    public func render(
        pattern: String, locale: String, timeZone: String, values: [String: MessageValue]
    )
        throws(MessageFormatError) -> RenderedMessage
    {
        let entry = try entry(pattern: pattern, localeKey: locale, locale: nil, timeZone: timeZone)
        return try entry.format(values, strict: false).rendered()
    }

    /// How many ICU handles are open across all templates (for tests and metrics).
    var openHandles: Int {
        let entries = state.withLock { Array($0.entries.values) }
        return entries.reduce(0) { $0 + $1.openHandles }
    }

    /// The entry for `localeKey` (a tag as given); `locale` is that tag parsed, or nil to parse it on a miss.
    private func entry(
        pattern: String, localeKey: String, locale: LocaleTag?, timeZone: String
    )
        throws(MessageFormatError) -> CachedTemplate
    {
        let key = Key(pattern: pattern, locale: localeKey, timeZone: timeZone)
        let hit = state.withLock { state -> CachedTemplate? in
            state.clock += 1
            guard let entry = state.entries[key] else { return nil }
            entry.lastUse.store(state.clock, ordering: .relaxed)
            return entry
        }
        if let hit { return hit }

        // Lock, decide, unlock, act: compiling takes microseconds, so it happens outside the lock.
        let parsed: LocaleTag
        do {
            parsed = try locale ?? LocaleTag(localeKey)
        } catch {
            throw MessageFormatError(.invalidTemplate, templateError: TemplateError(.invalidLocale))
        }
        let handle = try MessageTemplate.open(pattern: pattern, locale: parsed, timeZone: timeZone)
        let template = MessageTemplate(pattern: pattern, locale: parsed, handle: handle)
        let fresh = CachedTemplate(
            template: template, timeZone: timeZone, first: handle, slotCount: handlesPerTemplate, clock: 0)
        let capacity = self.capacity
        return state.withLock { state in
            // Another thread may have compiled the same template meanwhile; keep the first.
            if let existing = state.entries[key] { return existing }
            if state.entries.count >= capacity { Self.evictOldest(&state.entries, keeping: capacity) }
            fresh.lastUse.store(state.clock, ordering: .relaxed)
            state.entries[key] = fresh
            return fresh
        }
    }

    /// Drops the least recently used eighth (at least one), so eviction runs rarely.
    private static func evictOldest(_ entries: inout [Key: CachedTemplate], keeping capacity: Int) {
        let surplus = entries.count - capacity + 1
        let drop = max(surplus, capacity / 8, 1)
        let oldest = entries.map { ($0.key, $0.value.lastUse.load(ordering: .relaxed)) }
            .sorted { $0.1 < $1.1 }
            .prefix(drop)
        for (key, _) in oldest { entries.removeValue(forKey: key) }
    }
}
