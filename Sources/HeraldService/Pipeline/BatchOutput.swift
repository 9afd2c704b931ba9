import Foundation
import HeraldCore
import HeraldPostgres

/// Everything one batch decided, written at the end in the batch's transaction by `DecisionStore.commit`.
struct BatchOutput {
    var decisions: [DecisionRecord] = []
    var digests: [DecisionDigestRecord] = []
    private(set) var deliveries: [DeliveryRow] = []
    private var queuedIds: Set<String> = []
    var progress: [EventProgress] = []
    /// Timers that fired (or lost their user) and are deleted.
    var firedTimers: [TimerRecord] = []
    /// Notifications read in this batch whose pushes still in the queue end unsent (`ReadResult`), and the devices
    /// of their users, where such pushes can wait.
    private(set) var stoppedNotificationIds: [String] = []
    private(set) var stoppedInstallationIds: Set<String> = []

    /// Ends the queued pushes of `notificationIds` to `installationIds`, this batch's own rows included, when the
    /// batch commits.
    mutating func stopPushes(of notificationIds: [String], to installationIds: [String]) {
        guard !notificationIds.isEmpty else { return }
        stoppedNotificationIds += notificationIds
        stoppedInstallationIds.formUnion(installationIds)
    }

    /// Adds queue rows and returns their ids; a row already queued in this batch is not added twice.
    mutating func queue(_ deliveries: [Delivery], eventSource: String?, eventId: String?) -> [String] {
        queue(deliveries, where: { _ in true }, eventSource: eventSource, eventId: eventId)
    }

    /// `queue` for those of `deliveries` whose notification is `notificationId`.
    mutating func queue(
        _ deliveries: [Delivery], of notificationId: String?, eventSource: String?, eventId: String?
    ) -> [String] {
        queue(deliveries, where: { $0 == notificationId }, eventSource: eventSource, eventId: eventId)
    }

    /// Each delivery is read in place and copied once, into its row: filtering or mapping the array first would
    /// copy every delivery, each string it holds retained again.
    private mutating func queue(
        _ deliveries: [Delivery], where notification: (String?) -> Bool, eventSource: String?, eventId: String?
    ) -> [String] {
        var ids: [String] = []
        deliveries.withUnsafeBufferPointer { deliveries in
            for index in deliveries.indices where notification(deliveries[index].notificationId) {
                let id = DeliveryRow.id(
                    notificationId: deliveries[index].notificationId,
                    installationId: deliveries[index].installationId, kind: deliveries[index].kind)
                ids.append(id)
                if queuedIds.insert(id).inserted {
                    self.deliveries.append(
                        DeliveryRow(id: id, delivery: deliveries[index], eventSource: eventSource, eventId: eventId))
                }
            }
        }
        return ids
    }

    /// Whether the batch did anything.
    var isEmpty: Bool {
        decisions.isEmpty && digests.isEmpty && deliveries.isEmpty && progress.isEmpty && firedTimers.isEmpty
    }

    /// Outcome counts, for metrics: decisions and digests together.
    /// The rows are read in place, one field each: a row copied whole retains every string it holds.
    var outcomeCounts: [String: Int] {
        var counts: [String: Int] = [:]
        for index in decisions.indices { counts[decisions[index].outcome, default: 0] += 1 }
        for index in digests.indices { counts["digest." + digests[index].outcome, default: 0] += 1 }
        for index in progress.indices {
            if let outcome = progress[index].outcome { counts[outcome, default: 0] += 1 }
        }
        return counts
    }

    /// Queued rows per platform, for metrics; counted by platform, named once per platform.
    var queuedCounts: [String: Int] {
        var counts: [Device.Platform: Int] = [:]
        for index in deliveries.indices { counts[deliveries[index].delivery.platform, default: 0] += 1 }
        return Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) })
    }
}
