import Foundation
import HeraldCore
import HeraldHTTP
import HeraldText

/// Renders a category for one imaginary recipient with one device, through the real decider and payload builders,
/// so the preview shows exactly the text and the platform request the pipeline would queue.
///
/// One event renders the alert; a count above one renders the digest of a burst of that many events closing now.
/// The recipient has no quiet hours, mutes or history, and has the category switched on. For a `live_activity`
/// category the event updates an activity the Apple device holds a token for, with `data` as its content state.
struct CategoryPreview {
    static let userId = "preview-user"

    let renderer: ICUMessageRenderer
    let zones: any ZoneDirectory
    /// The service's policy, the pipeline's own: a digest preview spans the configured digest window.
    let policy: DeciderConfig

    /// The preview of `category` for `request` at `now`, as the response document.
    func render(_ category: Category, request: PreviewRequest, now: Date) -> HeraldHTTP.JSONValue {
        var category = category
        // An archived category still previews: that is how one checks it before restoring it.
        category.archived = false
        let recorder = RecordingRenderer(base: renderer)
        let decider = Decider(config: policy, zones: zones, renderer: recorder)
        let state = RecipientState(
            profile: UserProfile(id: Self.userId, timeZone: request.timeZone), preference: .on,
            devices: [device(for: request, now: now)], unreadCount: request.count > 1 ? request.count : 0)
        let deliveries: [Delivery]
        let outcome: Outcome?
        let detail: String?
        if request.count == 1 {
            let result = decider.decide(
                event: event(category: category, request: request, now: now), category: category,
                recipients: [Self.userId], states: [Self.userId: state], now: now)
            deliveries = result.deliveries
            outcome = result.decisions.first?.outcome
            detail = result.decisions.first?.detail
        } else {
            let result = decider.windowClosed(
                group: burst(category: category, request: request, now: now), category: category, state: state,
                now: now)
            deliveries = result.deliveries
            outcome = result.outcome
            detail = result.detail
        }
        let chain = HeraldCore.LocaleFallback.chain(
            deviceLocale: request.locale, userLocale: nil, defaultLocale: category.defaultLocale)
        let texts = PreviewTexts(records: recorder.calls, category: category, digest: request.count > 1)
        var members: [String: HeraldHTTP.JSONValue] = [
            "category_id": .string(category.id),
            "purpose": .string(request.count > 1 ? "digest" : "alert"),
            "count": .int(request.count),
            "locale_requested": .string(request.locale ?? category.defaultLocale),
            "locale_chain": .array(chain.map(HeraldHTTP.JSONValue.string)),
            "locale": texts.locale.map(HeraldHTTP.JSONValue.string) ?? .null,
            "missing_arguments": .array(texts.missing.map(HeraldHTTP.JSONValue.string)),
            "mismatched_arguments": .array(texts.mismatched.map(HeraldHTTP.JSONValue.string)),
            "fields": .array(texts.fields.map(\.json)),
            "outcome": outcome.map { .string($0.rawValue) } ?? .null,
            "detail": detail.map(HeraldHTTP.JSONValue.string) ?? .null,
            "payload": deliveries.first.map(Self.payload) ?? .null,
        ]
        // Never empty, as the decider's own text.
        let shown = category.nonEmptyText(title: texts.title, body: texts.body)
        members["title"] = shown.title.map(HeraldHTTP.JSONValue.string) ?? .null
        members["body"] = shown.body.map(HeraldHTTP.JSONValue.string) ?? .null
        return .object(members)
    }

    private func device(for request: PreviewRequest, now: Date) -> Device {
        let token: String
        var keys: Device.WebPushKeys?
        switch request.platform {
        case .apns: token = String(repeating: "0", count: 64)
        case .fcm: token = "preview-fcm-registration-token"
        case .webpush:
            token = "https://push.example.net/send/preview"
            keys = Device.WebPushKeys(p256dh: "preview-p256dh", auth: "preview-auth")
        case .wns: token = "https://wns.example.net/?token=preview"
        }
        var device = Device(
            installationId: "preview-device", userId: Self.userId, platform: request.platform, token: token,
            webPushKeys: keys, appId: request.appId, locale: request.locale,
            appBuildsNotifications: request.appBuildsNotifications, lastRegisteredAt: now)
        if request.platform == .apns { device.liveActivityTokens[Self.activityId] = String(repeating: "0", count: 64) }
        return device
    }

    /// The activity a `live_activity` category's preview updates, which the imaginary Apple device runs.
    static let activityId = "preview-activity"

    /// The event the preview decides, occurring at `now`; in a burst, one with id `id` by its `actor`th actor.
    private func event(
        category: Category, request: PreviewRequest, now: Date, id: String = "preview-event", actor: Int = 0
    ) -> Event {
        Event(
            id: id, category: category.id, recipients: Event.Recipients(userIds: [Self.userId]),
            actor: request.actors.isEmpty ? nil : "preview-actor-\(actor)",
            actorName: request.actors.isEmpty ? nil : request.actors[actor], threadId: request.threadId,
            itemId: request.itemId, data: request.data, occurredAt: now, imageURL: request.imageURL,
            link: request.link,
            liveActivity: category.kind == .liveActivity ? LiveActivityUpdate(activityId: Self.activityId) : nil)
    }

    /// A burst of `request.count` events that began one window ago and is closing now, its events spread evenly over
    /// the window as a burst's arrive: the first began it, and each expires as the pipeline's would, its time to
    /// live after it occurred. A time to live shorter than what is left of the window after the last event leaves
    /// nothing to send when it closes.
    private func burst(category: Category, request: PreviewRequest, now: Date) -> CollapseGroup {
        let sample = event(category: category, request: request, now: now)
        let window = TimeInterval(category.collapse?.windowSeconds ?? policy.digestWindowSeconds)
        let start = now - window
        var group =
            Decider.burst(of: sample, category: category, userId: Self.userId, groups: [:])
            ?? CollapseGroup(userId: Self.userId, key: Decider.digestKey(for: category))
        for index in 0..<request.count {
            let occurred = start + window * Double(index) / Double(request.count)
            let event = event(
                category: category, request: request, now: occurred, id: "preview-event-\(index + 1)",
                actor: request.actors.isEmpty ? 0 : index % request.actors.count)
            let item = CollapsedItem(
                event, category: category, thread: Decider.threadKey(for: event, category: category))
            _ = group.eventHeldBack(item, window: window, at: occurred)
        }
        return group
    }

    /// A queued delivery as the preview shows it: the exact headers and body, and the body parsed when it is JSON.
    static func payload(_ delivery: Delivery) -> HeraldHTTP.JSONValue {
        var members: [String: HeraldHTTP.JSONValue] = [
            "platform": .string(delivery.platform.rawValue),
            "kind": .string(delivery.kind.rawValue),
            "headers": .object(delivery.headers.mapValues(HeraldHTTP.JSONValue.string)),
            "body": .string(delivery.bodyText),
            "body_bytes": .int(delivery.body.count),
            "collapse_id": delivery.collapseId.map(HeraldHTTP.JSONValue.string) ?? .null,
            "priority": .int(delivery.priority),
            "expires_at": .string(ISO8601.format(delivery.expiresAt)),
            "available_at": .string(ISO8601.format(delivery.availableAt)),
        ]
        if let parsed = try? HeraldHTTP.JSONValue(parsing: delivery.body) { members["body_json"] = parsed }
        return .object(members)
    }
}
