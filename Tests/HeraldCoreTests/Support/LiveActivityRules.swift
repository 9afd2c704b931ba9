import Foundation

@testable import HeraldCore

/// The APNs rules of Live Activity pushes, checked on a finished delivery, and random content for property loops.
enum LiveActivityRules {
    static let apsKeys: Set<String> = [
        "content-state", "event", "timestamp", "stale-date", "dismissal-date", "relevance-score",
    ]

    static func violations(of delivery: Delivery, content: LiveActivityContent) -> [String] {
        var broken: [String] = []
        func rule(_ holds: Bool, _ name: String) { if !holds { broken.append(name) } }
        rule(delivery.platform == .apns, "apns only")
        rule(delivery.body.count <= 4_096, "apns body <= 4096")
        let headers = delivery.headers
        rule(headers["apns-push-type"] == "liveactivity", "apns-push-type liveactivity")
        rule(headers["apns-topic"] == "com.example.chat.push-type.liveactivity", "topic has the liveactivity suffix")
        rule(["5", "10"].contains(headers["apns-priority"] ?? ""), "priority 5 or 10")
        rule(headers["apns-priority"] == String(delivery.priority), "queue priority is the header's")
        rule((Int(headers["apns-expiration"] ?? "") ?? 0) > 0, "apns-expiration is positive UNIX seconds")
        rule(headers["apns-collapse-id"] == nil, "no collapse id")
        guard let root = Fixture.parse(delivery.body), let aps = root["aps"] as? [String: Any] else {
            return broken + ["body is a JSON object with aps"]
        }
        rule(Set(aps.keys).isSubset(of: apsKeys), "only Live Activity keys inside aps")
        rule(aps["alert"] == nil && aps["sound"] == nil && aps["badge"] == nil, "no alert, sound or badge")
        rule(aps["event"] as? String == content.update.event.rawValue, "event is the event's")
        rule(aps["timestamp"] as? Int == Int(content.timestamp.timeIntervalSince1970), "timestamp is the clock's")
        rule(aps["content-state"] is [String: Any], "content-state is an object")
        let state = (try? JSONSerialization.data(withJSONObject: aps["content-state"] ?? [:], options: .sortedKeys))
        let expected = try? JSONSerialization.data(
            withJSONObject: Fixture.parse(JSONValue.object(content.contentState).serialized()) ?? [:],
            options: .sortedKeys)
        rule(state == expected, "content-state is the event's data, whole")
        for (key, date) in [("stale-date", content.update.staleDate), ("dismissal-date", content.update.dismissalDate)]
        {
            rule((aps[key] as? Int) == date.map { Int($0.timeIntervalSince1970.rounded(.down)) }, key)
        }
        rule(root["activity"] as? String == content.update.activityId, "activity id beside aps")
        return broken
    }

    static func randomContent(using generator: inout SeededGenerator) -> LiveActivityContent {
        var state: [String: JSONValue] = [:]
        for index in 0..<Int.random(in: 0...12, using: &generator) {
            let text = RandomText.string(length: Int.random(in: 0...60, using: &generator), using: &generator)
            state["k\(index)"] =
                [
                    JSONValue.string(text), .int(Int.random(in: -1_000...1_000, using: &generator)),
                    .bool(Bool.random(using: &generator)), .double(Double.random(in: -1...1, using: &generator)),
                    .array([.string(text), .null]), .object(["nested": .string(text)]),
                ].randomElement(using: &generator)!
        }
        // Within the ingest limit, as every stored event is.
        while JSONValue.object(state).serialized().count > LiveActivityUpdate.maxContentStateBytes {
            state.removeValue(forKey: state.keys.sorted().last!)
        }
        func date() -> Date? {
            Bool.random(using: &generator) ? Fixture.now + Double.random(in: -7_200...86_400, using: &generator) : nil
        }
        let update = LiveActivityUpdate(
            activityId: String(repeating: "a", count: Int.random(in: 1...128, using: &generator)),
            event: LiveActivityUpdate.Kind.allCases.randomElement(using: &generator)!, staleDate: date(),
            dismissalDate: date())
        return LiveActivityContent(
            notificationId: String(SHA256.hex("\(state.count)").prefix(32)), eventId: "score/e1",
            categoryId: String(repeating: "c", count: Int.random(in: 1...64, using: &generator)), update: update,
            contentState: state, timestamp: Fixture.now + Double.random(in: 0...1_000, using: &generator),
            priority: Category.Priority.allCases.randomElement(using: &generator)!,
            relevanceScore: Bool.random(using: &generator) ? Double.random(in: 0...100, using: &generator) : nil,
            expiresAt: Fixture.now + Double.random(in: 1...86_400, using: &generator), availableAt: Fixture.now)
    }
}
