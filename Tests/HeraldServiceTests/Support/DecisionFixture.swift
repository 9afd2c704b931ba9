import Foundation
import HeraldCore
import HeraldText

@testable import HeraldService

/// What the PostgreSQL-free pipeline tests share: a fixed instant, the service's engine and event builders.
enum DecisionFixture {
    /// 2026-12-01T22:30:00Z; the tests' clock never reads the real date.
    static let now = Date(timeIntervalSince1970: 1_796_164_200)

    /// The batch processor as the service builds it (the default policy, ICU zones and templates).
    static func processor(_ limits: BatchLimits = BatchLimits()) -> BatchProcessor {
        BatchProcessor(decider: decider(), limits: limits)
    }

    /// The engine as the service runs it.
    static func decider() -> Decider {
        Decider(
            config: ServiceConfig.defaults.policy, zones: PipelineHarness.zones,
            renderer: ICUMessageRenderer(capacity: 64))
    }

    /// A store with the chat category (collapsing by thread when `collapse`) and user `u1` with one phone.
    static func store(
        collapse: Bool = false, devices: [(String, Device.Platform)] = [("phone", .apns)]
    )
        -> InMemoryDecisionStore
    {
        let store = InMemoryDecisionStore()
        store.category(PipelineHarness.chatCategory(collapse: collapse ? PipelineHarness.threadBurst : nil))
        store.user("u1")
        for (installation, platform) in devices { store.device(installation, user: "u1", platform: platform, at: now) }
        return store
    }

    /// A chat message for `users`.
    static func message(
        _ id: String, users: [String] = ["u1"], thread: String? = nil, item: String? = nil, topic: String? = nil,
        at: Date = now
    ) -> HeraldCore.Event {
        HeraldCore.Event(
            source: "chat", id: id, category: "chat.message",
            recipients: HeraldCore.Event.Recipients(userIds: users, topic: topic), threadId: thread, itemId: item,
            data: ["text": .string("hi")], occurredAt: at)
    }

    /// An `item.read` event: `user` read `items` on `device`.
    static func read(_ id: String, user: String = "u1", items: [String], device: String? = nil) -> HeraldCore.Event {
        var data: [String: JSONValue] = ["item_ids": .array(items.map { .string($0) })]
        if let device { data["device"] = .string(device) }
        return HeraldCore.Event(
            source: "chat", id: id, category: "item.read", recipients: HeraldCore.Event.Recipients(userIds: [user]),
            data: data, occurredAt: now)
    }
}
