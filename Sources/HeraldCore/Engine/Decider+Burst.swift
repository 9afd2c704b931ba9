import Foundation

/// What a collapse-group action needs to be carried out for one recipient.
struct BurstContext {
    var userId: String
    var category: Category
    var state: RecipientState
    var badge: Int?
    var timing: QuietHoursTiming
    var now: Date
}

extension Decider {
    /// Records the group's new state and performs its action: arm a timer, or queue the digest. Returns when
    /// the folded event will go out (the digest time), if known.
    func apply(
        _ action: CollapseGroup.Action, to group: CollapseGroup, burst: BurstContext,
        into result: inout DecisionResult
    ) -> Date? {
        result.changes.collapseGroups.append(group)
        switch action {
        case .scheduleDigest(let at), .notYet(let at):
            result.changes.digestTimers.append(
                StateChanges.DigestTimer(
                    userId: burst.userId, key: group.key, categoryId: burst.category.id, at: at))
            return at
        case .accumulated(let until):
            return until
        case .sendDigest(let summary):
            // The window had closed before its timer fired; the event that caught it up passed the decision order
            // for this user just now, so the digest goes the same way.
            let sendAt = burst.timing.sendAt(now: burst.now)
            let before = result.deliveries.count
            let notificationId = fanOutDigest(summary, burst: burst, sendAt: sendAt, into: &result)
            let queued = result.deliveries.count - before
            let stop = queued == 0 ? DecisionOrder.Stop(outcome: .noDevices) : DecisionOrder.sent(burst.timing)
            result.caughtUpDigests.append(
                CaughtUpDigest(
                    notificationId: notificationId, summary: summary, outcome: stop.outcome,
                    deliverAt: stop.outcome.deliverAt(until: stop.until, now: burst.now)))
            return sendAt
        case .sendFirst, .nothing:
            return nil
        }
    }

    /// Queues the digest of `summary` to every active device, replacing the burst's first notification in place.
    /// Returns the digest's notification id.
    @discardableResult
    func fanOutDigest(
        _ summary: DigestSummary, burst: BurstContext, sendAt: Date, into result: inout DecisionResult
    ) -> String {
        let lastEventId = summary.latestItems.last?.eventId ?? summary.key
        let notificationId = NotificationIdentity.digestId(userId: burst.userId, summary: summary)
        let arguments = MessageText.digestArguments(summary, category: burst.category)
        var memo = MessageText.Memo()
        for device in burst.state.activeDevices {
            let mode = device.appBuildsNotifications ? burst.category.deliveryMode : .system
            let text = memo.text(mode: mode, device: device) {
                MessageText.render(
                    .digest, category: burst.category, mode: mode, device: device, profile: burst.state.profile,
                    arguments: arguments, renderer: renderer)
            }
            var content = PushContent(
                purpose: .digest, mode: mode, notificationId: notificationId, eventId: lastEventId,
                categoryId: burst.category.id, title: text.title, body: text.body, badge: burst.badge,
                silenced: burst.timing.isSilenced, interruptionLevel: burst.category.interruptionLevel,
                priority: burst.category.priority, threadId: nil, apnsCategory: burst.category.apnsCategory,
                androidChannelId: burst.category.androidChannelId, collapseId: summary.collapseId,
                itemId: summary.latestItems.last?.itemId, count: summary.unread,
                expiresAt: summary.expiresAt,
                availableAt: sendAt)
            content.relevanceScore = burst.category.relevanceScore
            if let delivery = PayloadBuilder.delivery(for: content, to: device, userId: burst.userId) {
                result.deliveries.append(delivery)
            }
        }
        return notificationId
    }

    /// What queueing one event's alert did: how many deliveries, and whether some device's push had to leave out
    /// its image, or say `fetch` in place of its ciphertext, to fit its platform's limit.
    struct FannedOut {
        var queued = 0
        var imageDropped = false
        var ciphertextFetched = false
    }

    /// Queues one event's alert to every active device. A device whose app builds notifications gets the event's
    /// ciphertext for it, if any, beside the fallback text (`Category.DeliveryMode.forDevice`).
    func fanOutAlert(
        event: Event, category: Category, state: RecipientState, devices: [Device], thread: String?,
        notificationId: String, collapseId: String, badge: Int?, cursor: String? = nil, timing: QuietHoursTiming,
        sendAt: Date,
        expiresAt: Date, into result: inout DecisionResult
    ) -> FannedOut {
        let arguments = MessageText.eventArguments(event, category: category)
        let image = NotificationMedia.image(for: event, category: category)
        let link = NotificationMedia.link(for: event, category: category)
        var fanned = FannedOut()
        var memo = MessageText.Memo()
        let reference = event.reference  // joined once, not once per device
        for device in devices {
            let mode = Category.DeliveryMode.forDevice(device, category: category, encrypted: event.ciphertext != nil)
            let text = memo.text(mode: mode, device: device) {
                MessageText.render(
                    .alert, category: category, mode: mode, device: device, profile: state.profile,
                    arguments: arguments, renderer: renderer)
            }
            var content = PushContent(
                purpose: .alert, mode: mode, notificationId: notificationId, eventId: reference,
                categoryId: category.id, title: text.title, body: text.body, badge: badge,
                silenced: timing.isSilenced, interruptionLevel: category.interruptionLevel,
                priority: category.priority, threadId: thread, apnsCategory: category.apnsCategory,
                androidChannelId: category.androidChannelId, collapseId: collapseId, itemId: event.itemId,
                expiresAt: expiresAt, availableAt: sendAt)
            content.cursor = cursor
            content.imageURL = image
            content.link = link
            content.relevanceScore = category.relevanceScore
            if mode.carriesCiphertext { content.ciphertext = event.ciphertext?.value(for: device.installationId) }
            if let built = PayloadBuilder.build(content, to: device, userId: state.profile.id) {
                fanned.imageDropped = fanned.imageDropped || built.imageDropped
                fanned.ciphertextFetched = fanned.ciphertextFetched || built.ciphertextFetched
                fanned.queued += 1
                // Last, so that the delivery is built's last use and can move into the result.
                result.deliveries.append(built.delivery)
            }
        }
        return fanned
    }
}
