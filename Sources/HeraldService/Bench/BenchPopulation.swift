import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// The synthetic recipients and events of a benchmark run, loaded through the service's own bulk paths.
struct BenchPopulation: Sendable {
    static let zones = [
        "Europe/London", "Europe/Paris", "America/New_York", "America/Sao_Paulo", "Asia/Tokyo", "Asia/Kolkata",
        "Australia/Sydney", "Africa/Lagos", "America/Los_Angeles", "Europe/Berlin", "Asia/Singapore",
        "Pacific/Auckland",
    ]
    static let p256dh = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"

    let users: Int

    /// Devices of user `index`: one to three, cycling through the platforms.
    static func deviceCount(_ index: Int) -> Int { index % 3 + 1 }

    /// The platforms users' devices take in turn.
    static let platforms: [Device.Platform] = [.apns, .fcm, .webpush]

    /// The turn of device `slot` of user `index`: its platform's position in `platforms`.
    static func turn(_ index: Int, slot: Int) -> Int { (index + slot) % platforms.count }

    /// The platform of device `slot` of user `index`.
    static func platform(_ index: Int, slot: Int) -> Device.Platform { platforms[turn(index, slot: slot)] }

    /// The installation id of device `slot` of user `index`.
    static func installationId(_ index: Int, slot: Int) -> String { "i\(index * 4 + slot)" }

    /// The push token of device `slot` of user `index` as its queue rows carry it: the APNs or FCM token, or the
    /// Web Push endpoint.
    static func token(_ index: Int, slot: Int) -> String {
        let seed = index * 4 + slot
        switch platform(index, slot: slot) {
        case .apns:
            let hex = String(seed, radix: 16)
            return String(repeating: "0", count: 64 - hex.count) + hex
        case .fcm: return "fcm\(seed):APA91b" + String(repeating: "k", count: 120)
        default: return "https://push.example.net/\(seed)"
        }
    }

    /// One import line for user `index`.
    func importLine(_ index: Int) -> String {
        var devices: [String] = []
        for slot in 0..<Self.deviceCount(index) {
            let installation = #""installation_id":"\#(Self.installationId(index, slot: slot))""#
            let token = Self.token(index, slot: slot)
            switch Self.platform(index, slot: slot) {
            case .apns:
                devices.append(#"{\#(installation),"platform":"apns","token":"\#(token)","app_id":"com.bench"}"#)
            case .fcm:
                devices.append(#"{\#(installation),"platform":"fcm","token":"\#(token)","app_id":"com.bench"}"#)
            default:
                devices.append(
                    #"{\#(installation),"platform":"webpush","token":{"endpoint":"\#(token)","#
                        + #""p256dh":"\#(Self.p256dh)","auth":"tBHItJI5svbpez7KI4CCXg"},"app_id":"com.bench"}"#)
            }
        }
        let quiet = index % 7 == 0 ? #","quiet_hours":{"start":"23:00","end":"06:00"}"# : ""
        let zone = Self.zones[index % Self.zones.count]
        let head = #"{"id":"u\#(index)","locale":"en","time_zone":"\#(zone)"\#(quiet)"#
        return head + #","devices":[\#(devices.joined(separator: ","))]}"#
    }

    /// Stores the categories, imports every user with devices, and turns one category off for some users.
    func load(_ service: BenchService) throws {
        for category in [Self.category("chat.message"), Self.category("promo.offer")] {
            _ = try service.database { connection in
                try CategoryRepository.create(category, actorKeyId: nil, now: service.context.clock(), on: connection)
            }
        }
        var start = 0
        while start < users {
            let end = min(start + 2_000, users)
            let body = (start..<end).map(importLine).joined(separator: "\n")
            let response = service.send(.post, "/v1/users:import", body: body, contentType: "application/x-ndjson")
            guard response.status == .ok else {
                throw ServiceStartError(message: "bench: user import failed with status \(response.status.rawValue)")
            }
            start = end
        }
        let now = service.context.clock()
        try service.database { try BenchRepository.turnPromotionsOff(at: now, on: $0) }
    }

    /// A category with an English template.
    static func category(_ id: String) -> HeraldCore.Category {
        HeraldCore.Category(
            id: id, name: id, quietHours: .defer, ttlSeconds: 86_400, collapse: nil,
            templates: [
                "en": LocalizedTemplates(
                    title: "New message", body: "{text}", digestTitle: "New messages",
                    digestBody: "{count, plural, one {# new message} other {# new messages}}")
            ])
    }

    /// A batch body of events `range` from `source`, each to one user; one in ten is a promotion.
    func eventBatch(source: String, _ range: Range<Int>) -> String {
        let occurred = ISO8601.format(Date())
        let events = range.map { index in
            let category = index % 10 == 9 ? "promo.offer" : "chat.message"
            return #"{"id":"e\#(index)","source":"\#(source)","category":"\#(category)","occurred_at":"\#(occurred)","#
                + #""recipients":["u\#(index % users)"],"data":{"text":"hello number \#(index)"}}"#
        }
        return #"{"events":[\#(events.joined(separator: ","))]}"#
    }
}
