import Foundation
import HeraldCore
import HeraldPostgres

@testable import HeraldService

extension InMemoryDecisionStore {
    /// Adds a user.
    func user(_ id: String, locale: String? = "en", timeZone: String? = nil, badge: Bool = true) {
        tables.profiles[id] = UserProfile(id: id, locale: locale, timeZone: timeZone, badge: badge)
    }

    /// Adds an active device of `user`, registered at `at`.
    func device(_ installation: String, user: String, platform: Device.Platform = .apns, at: Date) {
        let device = Device(
            installationId: installation, userId: user, platform: platform,
            token: PipelineHarness.token(installation, platform: platform),
            webPushKeys: platform == .webpush ? Device.WebPushKeys(p256dh: "BPk", auth: "auth") : nil,
            appId: "com.example.app", lastRegisteredAt: at)
        tables.devices[user, default: []].append(device)
    }

    /// Adds a category.
    func category(_ category: HeraldCore.Category) {
        tables.categories[category.id] = category
    }

    /// Subscribes users to a topic.
    func subscribe(_ users: [String], to topic: String) {
        tables.subscriptions[topic, default: []].formUnion(users)
    }

    /// Accepts `event` as ingest does (its canonical document, undecided); returns its seq.
    @discardableResult
    func accept(_ event: HeraldCore.Event) -> Int64 {
        accept(document: EventDocument.encode(event), source: event.source, id: event.id, category: event.category)
    }

    /// Accepts a stored document as it is, decodable or not (a row written by another version, or by hand).
    @discardableResult
    func accept(document: String, source: String, id: String, category: String) -> Int64 {
        let seq = Int64(tables.events.count + 1)
        let claim = EventClaim(
            seq: seq, source: source, id: id, categoryId: category, document: document, fanoutAfter: nil,
            recipientsDecided: 0)
        tables.events.append(StoredEvent(claim: claim))
        return seq
    }

    /// The stored event `seq`.
    func event(_ seq: Int64) -> StoredEvent? {
        tables.events.first { $0.claim.seq == seq }
    }

    /// The decisions of the event `seq`, in the order they were written.
    func decisions(of seq: Int64) -> [DecisionRecord] {
        tables.decisions.filter { $0.eventSeq == seq }
    }
}
