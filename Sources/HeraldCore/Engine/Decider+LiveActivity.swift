import Foundation

/// Steps 8 and 11–12 of `DecisionOrder` for a `live_activity` category: its events update or end an iOS Live
/// Activity instead of telling of something new, so there is no digest and no burst; each push carries the whole
/// state, and the newest replaces an unsent older one on the queue.
extension Decider {
    /// What one event of a `live_activity` category does for one recipient: a `liveactivity` push to each of the
    /// user's Apple devices with a push token for the event's activity, stamped with `now`, within the rate limits.
    func decideLiveActivity(
        _ userId: String, event: Event, category: Category, state: RecipientState, timing: QuietHoursTiming,
        notificationId: String, expiresAt: Date, now: Date, into result: inout DecisionResult
    ) -> (stop: DecisionOrder.Stop, queued: Int) {
        let noted = { (note: String) in [timing.note, note].compactMap { $0 }.joined(separator: ",") }
        guard let update = event.liveActivity else {
            return (DecisionOrder.Stop(outcome: .noDevices, detail: noted("no_live_activity")), 0)
        }
        let devices = state.activeDevices.filter {
            $0.platform == .apns && $0.liveActivityTokens[update.activityId] != nil
        }
        if devices.isEmpty { return (DecisionOrder.Stop(outcome: .noDevices, detail: noted("no_activity_token")), 0) }
        if !timing.isDeferred, !admit(userId: userId, category: category, state: state, now: now, into: &result) {
            return (DecisionOrder.Stop(outcome: .rateLimited, detail: timing.note), 0)
        }
        let content = LiveActivityContent(
            notificationId: notificationId, eventId: event.reference, categoryId: category.id, update: update,
            contentState: event.data, timestamp: now, priority: category.priority,
            relevanceScore: category.relevanceScore, expiresAt: expiresAt, availableAt: timing.sendAt(now: now))
        var queued = 0
        for device in devices {
            guard let token = device.liveActivityTokens[update.activityId],
                let delivery = LiveActivityPayload.delivery(for: content, to: device, token: token, userId: userId)
            else { continue }
            result.deliveries.append(delivery)
            queued += 1
        }
        if queued == 0 { return (DecisionOrder.Stop(outcome: .noDevices, detail: noted("content_state_too_large")), 0) }
        return (DecisionOrder.sent(timing), queued)
    }
}
