import Foundation

/// The text of a feed item: the notification's title and body as the user reads them in the app, in the user's
/// current locale (the category default after it), rendered when the feed is read so a locale change shows at once.
public enum FeedText {
    /// The title and body of `event` for `profile`; the category name when no template renders.
    public static func render(
        event: Event, category: Category, profile: UserProfile, renderer: any TextRenderer
    ) -> (title: String?, body: String?) {
        let arguments = MessageText.eventArguments(event, category: category)
        let chain = LocaleFallback.chain(
            deviceLocale: nil, userLocale: profile.locale, defaultLocale: category.defaultLocale)
        let zone = profile.timeZone ?? "UTC"
        func field(_ pick: (LocalizedTemplates) -> String?) -> String? {
            for locale in chain {
                guard let (resolved, templates) = LocaleFallback.resolve([locale], in: category.templates),
                    let template = pick(templates)
                else { continue }
                if let text = try? renderer.render(
                    template: template, locale: resolved, zone: zone, arguments: arguments), !text.isEmpty
                {
                    return text
                }
            }
            return nil
        }
        let title = field(\.title)
        let body = field { $0.body ?? $0.fallbackBody }
        return category.nonEmptyText(title: title, body: body)
    }

    /// The image address and the link of `event`'s feed item: those its alert carries on every platform
    /// (`NotificationMedia`), from the event or else from the category's templates; nil when it has none.
    public static func media(event: Event, category: Category) -> (imageURL: String?, link: String?) {
        (
            NotificationMedia.image(for: event, category: category),
            NotificationMedia.link(for: event, category: category)
        )
    }

    /// The ciphertext of `event` a feed item carries for the installation `installationId`: the one its push
    /// carried, or would have had it fit; none in a `system` category, or without an installation.
    public static func ciphertext(event: Event, category: Category, installationId: String?) -> String? {
        guard let installationId, category.deliveryMode.carriesCiphertext else { return nil }
        return event.ciphertext?.value(for: installationId)
    }
}
