import Foundation

/// Chooses and renders the text of a push: which templates (by delivery mode and purpose), which locale (by the
/// fallback chain), and what to show when rendering fails (never an empty notification).
enum MessageText {
    enum Purpose {
        case alert
        case digest
    }

    struct Rendered: Hashable {
        var title: String?
        var body: String?
    }

    /// The texts already rendered for one recipient, by delivery mode and device locale: the other inputs (the
    /// category, the profile and the arguments) are the same for all of a recipient's devices, so each distinct
    /// pair is rendered once.
    struct Memo {
        private var entries: [(mode: Category.DeliveryMode, locale: String?, text: Rendered)] = []

        /// The text for `mode` on `device`, rendered by `render` only the first time the pair is seen.
        mutating func text(
            mode: Category.DeliveryMode, device: Device, render: () -> Rendered
        ) -> Rendered {
            if let entry = entries.first(where: { $0.mode == mode && $0.locale == device.locale }) {
                return entry.text
            }
            let text = render()
            entries.append((mode, device.locale, text))
            return text
        }
    }

    /// Renders the title and body for one device; each field falls back along the locale chain on its own.
    static func render(
        _ purpose: Purpose, category: Category, mode: Category.DeliveryMode, device: Device,
        profile: UserProfile,
        arguments: [String: TemplateValue], renderer: any TextRenderer
    ) -> Rendered {
        let chain = LocaleFallback.chain(
            deviceLocale: device.locale, userLocale: profile.locale, defaultLocale: category.defaultLocale
        )
        let zone = profile.timeZone ?? "UTC"
        // Each locale of the chain is resolved once for all fields (a miss scans the templates case-insensitively).
        let candidates = chain.compactMap { LocaleFallback.resolve([$0], in: category.templates) }
        func field(_ pick: (LocalizedTemplates) -> String?) -> String? {
            for (resolved, templates) in candidates {
                guard let template = pick(templates) else { continue }
                if let text = try? renderer.render(
                    template: template, locale: resolved, zone: zone, arguments: arguments), !text.isEmpty
                {
                    return text
                }
            }
            return nil
        }
        var rendered: Rendered
        switch (purpose, mode) {
        case (.alert, .app):
            rendered = Rendered(title: nil, body: field { $0.fallbackBody ?? $0.body })
        case (.alert, _):
            rendered = Rendered(title: field(\.title), body: field(\.body))
        case (.digest, _):
            rendered = Rendered(
                title: field { $0.digestTitle ?? $0.title }, body: field { $0.digestBody ?? $0.body })
        }
        (rendered.title, rendered.body) = category.nonEmptyText(title: rendered.title, body: rendered.body)
        return rendered
    }

    /// The arguments of one event's templates: its scalar data plus Herald's own names.
    static func eventArguments(_ event: Event, category: Category) -> [String: TemplateValue] {
        // Room for the data and Herald's seven names, so the table is sized once.
        var arguments = [String: TemplateValue](minimumCapacity: event.data.count + 7)
        for (key, value) in event.data {
            if let argument = TemplateValue(value) { arguments[key] = argument }
        }
        if let actor = event.actorName ?? event.actor { arguments["actor"] = .string(actor) }
        if let actor = event.actor { arguments["actor_id"] = .string(actor) }
        if let thread = event.threadId { arguments["thread_id"] = .string(thread) }
        if let item = event.itemId { arguments["item_id"] = .string(item) }
        arguments["category"] = .string(category.name)
        arguments["count"] = .int(1)
        arguments["occurred_at"] = .date(event.occurredAt)
        return arguments
    }

    /// The arguments of a digest: `count`, `folded`, `actor_count`, `others`, `first_actor`, `second_actor`.
    static func digestArguments(
        _ summary: DigestSummary, category: Category
    ) -> [String:
        TemplateValue]
    {
        var arguments: [String: TemplateValue] = [
            "count": .int(summary.unread), "folded": .int(min(summary.folded, summary.unread)),
            "actor_count": .int(summary.actorCount),
            "others": .int(max(0, summary.actorCount - 1)), "category": .string(category.name),
        ]
        if let first = summary.actorNames.first {
            arguments["first_actor"] = .string(first)
            arguments["actor"] = .string(first)
        }
        if summary.actorNames.count > 1 { arguments["second_actor"] = .string(summary.actorNames[1]) }
        if let last = summary.latestItems.last { arguments["occurred_at"] = .date(last.occurredAt) }
        return arguments
    }
}
