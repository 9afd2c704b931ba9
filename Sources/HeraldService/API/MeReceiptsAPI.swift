import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// `POST /v1/me/receipts`: what the app displayed, opened or dismissed, in batches. Each receipt is stored once;
/// `opened` is also a read of the notification's item (or of the notification alone when it names no item), so
/// the badge drops and the other devices withdraw it. A receipt may name a digest: opening it reads the
/// notifications of the burst it summarises, each the same way.
enum MeReceiptsAPI {
    static let maxReceipts = 500

    struct ReceiptsBody: Decodable {
        var receipts: [ReceiptBody]
    }

    struct ReceiptBody: Decodable {
        var notificationId: String
        var device: String
        var event: String
        var at: Date
    }

    struct ReceiptsView: Encodable {
        var accepted: Int
        var duplicates: Int
        var unknown: [String]
        var itemsRead: Int
        var unreadCount: Int?
        var badge: Int?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(accepted, forKey: .accepted)
            try container.encode(duplicates, forKey: .duplicates)
            try container.encode(unknown, forKey: .unknown)
            try container.encode(itemsRead, forKey: .itemsRead)
            try container.encode(unreadCount, forKey: .unreadCount)
            try container.encode(badge, forKey: .badge)
        }

        enum CodingKeys: String, CodingKey {
            case accepted, duplicates, unknown, badge
            case itemsRead = "items_read"
            case unreadCount = "unread_count"
        }
    }

    static func register(on router: inout Router, environment: PipelineEnvironment, metrics: ReceiptMetrics) {
        let context = environment.context
        router.post("/v1/me/receipts", auth: .clientUser) { request, match in
            let userId = try ClientUser.id(match)
            let body: ReceiptsBody = try request.decodeJSON()
            let receipts = try validate(body)
            let now = context.clock()
            let result = try environment.database { connection in
                try store(receipts, userId: userId, decider: environment.decider, now: now, on: connection)
            }
            metrics.record(result.stored)
            return try HTTPResponse.json(result.view)
        }
    }

    static func validate(_ body: ReceiptsBody) throws -> [ReceiptInput] {
        var errors: [FieldError] = []
        if body.receipts.isEmpty { errors.append(.init(pointer: "/receipts", message: "must not be empty")) }
        if body.receipts.count > maxReceipts {
            // Too many to check one by one: the list itself is the error.
            throw HTTPError.invalidField("/receipts", "at most \(maxReceipts) receipts per request")
        }
        var inputs: [ReceiptInput] = []
        for (index, receipt) in body.receipts.enumerated() {
            if !ReadsAPI.isIdentifier(receipt.notificationId) {
                errors.append(.init(pointer: "/receipts/\(index)/notification_id", message: "must be 1 to 128 bytes"))
            }
            if !ReadsAPI.isIdentifier(receipt.device) {
                errors.append(.init(pointer: "/receipts/\(index)/device", message: "must be 1 to 128 bytes"))
            }
            if let kind = ReceiptKind(rawValue: receipt.event) {
                inputs.append(
                    ReceiptInput(
                        notificationId: receipt.notificationId, device: receipt.device, event: kind, at: receipt.at))
            } else {
                errors.append(
                    .init(pointer: "/receipts/\(index)/event", message: "must be displayed, opened or dismissed"))
            }
        }
        if !errors.isEmpty { throw HTTPError.invalidFields(errors) }
        return inputs
    }

    /// Stores the receipts, then applies the opens as reads, one per device that opened (`ReceiptEffects`).
    static func store(
        _ receipts: [ReceiptInput], userId: String, decider: Decider, now: Date, on connection: PostgresConnection
    ) throws -> (view: ReceiptsView, stored: [(kind: ReceiptKind, categoryId: String, at: Date)]) {
        // A receipt speaks for one of the user's own installations; any other name would let one user's app
        // store rows without end and move every category's figures.
        let installations = Set(
            try DeviceRepository.devices(userId: userId, on: connection).map(\.device.installationId))
        let strangers = receipts.enumerated().filter { !installations.contains($0.element.device) }
        if !strangers.isEmpty {
            throw HTTPError.invalidFields(
                strangers.prefix(FieldError.listedAtMost).map {
                    FieldError(
                        pointer: "/receipts/\($0.offset)/device", message: "is not one of this user's installations")
                })
        }
        let ids = Array(Set(receipts.map(\.notificationId)))
        let targets = try ReceiptRepository.targets(userId: userId, notificationIds: ids, on: connection)
        let stored = try ReceiptRepository.store(userId: userId, receipts, targets: targets, now: now, on: connection)
        try ReceiptRepository.advanceStreaks(userId: userId, stored, now: now, on: connection)
        let known = receipts.filter { targets[$0.notificationId] != nil }
        var view = ReceiptsView(
            accepted: stored.count, duplicates: Set(known).count - stored.count,
            unknown: ids.filter { targets[$0] == nil }.sorted(), itemsRead: 0)
        let opens = known.filter { $0.event == .opened }.map { receipt in
            (device: receipt.device, opened: targets[receipt.notificationId]?.opens ?? [])
        }
        for read in ReceiptEffects.reads(userId: userId, opens: opens) {
            guard let outcome = try ReadsAPI.apply(read, decider: decider, now: now, on: connection) else { break }
            view.itemsRead += outcome.itemsRead
            view.unreadCount = outcome.unreadCount
            view.badge = outcome.badge
        }
        return (view, stored)
    }
}
