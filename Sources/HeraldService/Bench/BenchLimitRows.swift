import Foundation
import HeraldCore
import HeraldPostgres

/// The queue and decision rows the limit phases write, shaped as the pipeline's for the same events: each device's
/// own platform and token, the headers and body the engine builds for that platform, and identifiers as long and as
/// scattered as the pipeline's. The shapes come from one sample decision, made with the service's own engine before
/// any clock starts; each row then only takes its event's and device's identifiers. Rows smaller than the
/// pipeline's, or keys in order where the pipeline's are scattered, would make the floor cheaper than the rows it
/// stands for.
struct BenchLimitRows: Sendable {
    /// One platform's part of a row, as the pipeline's queue row for a bench event carries it.
    struct Shape: Sendable {
        var delivery: Delivery
        /// The headers as the queue's COPY sends them.
        var headersText: String
        var bodyText: String
    }

    /// By platform, in `BenchPopulation.platforms`' order.
    let shapes: [Shape]
    let users: Int
    /// Every device's token, at `user * 4 + slot`, made before any clock starts.
    let tokens: [String]

    /// Decides one bench event for a user with a device of every platform, as a worker would, and keeps what each
    /// platform's delivery looks like.
    static func sample(_ service: BenchService, users: Int) throws -> BenchLimitRows {
        let index = 2
        guard users > index, BenchPopulation.deviceCount(index) == 3 else {
            throw ServiceStartError(message: "bench: the limit's sample needs a user with three devices")
        }
        let userId = "u\(index)"
        let now = service.context.clock()
        let snapshot = try service.database {
            try RecipientStateRepository.load([userId], now: now, lock: false, on: $0)
        }
        let category = BenchPopulation.category("chat.message")
        let event = Event(
            source: "bench-limit", id: "e\(index)", category: category.id, recipients: .init(userIds: [userId]),
            data: ["text": .string("hello number \(index)")], occurredAt: now)
        let state = RecipientBook(snapshot).state(of: userId, category: category.id)
        let result = PipelineEnvironment.decider(service.context).decide(
            event: event, category: category, recipients: [userId], states: state.map { [userId: $0] } ?? [:],
            now: now)
        let shapes = try BenchPopulation.platforms.map { platform in
            guard let delivery = result.deliveries.first(where: { $0.platform == platform }) else {
                throw ServiceStartError(message: "bench: the limit's sample decision wrote no \(platform.rawValue) row")
            }
            return Shape(
                delivery: delivery,
                headersText: String(decoding: JSONValue.serialized(stringMembers: delivery.headers), as: UTF8.self),
                bodyText: delivery.bodyText)
        }
        var tokens = [String](repeating: "", count: users * 4)
        for user in 0..<users {
            for slot in 0..<BenchPopulation.deviceCount(user) {
                tokens[user * 4 + slot] = BenchPopulation.token(user, slot: slot)
            }
        }
        return BenchLimitRows(shapes: shapes, users: users, tokens: tokens)
    }

    /// The recipient of the event with seq `seq`.
    func user(_ seq: Int) -> Int { seq % users }

    /// Device `slot` of the event `seq`'s recipient: its platform's shape, its token and installation.
    func delivery(_ seq: Int, slot: Int, at now: Date) -> Delivery {
        let user = user(seq)
        var delivery = shapes[BenchPopulation.turn(user, slot: slot)].delivery
        let notification = Self.notificationId(seq)
        delivery.userId = "u\(user)"
        delivery.installationId = BenchPopulation.installationId(user, slot: slot)
        delivery.token = tokens[user * 4 + slot]
        delivery.notificationId = notification
        delivery.collapseId = delivery.collapseId.map { _ in notification }
        delivery.eventId = Self.eventId(seq)
        delivery.availableAt = now
        delivery.expiresAt = now.addingTimeInterval(86_400)
        return delivery
    }

    /// The COPY texts of device `slot`'s queue row for the event `seq`, in `BenchRepository.copyDeliveries`' order:
    /// `delivery`'s fields, with the shape's headers and body as texts made once.
    func copyTexts(_ seq: Int, slot: Int, source: String, created: String, expires: String) -> [String?] {
        let shape = shapes[BenchPopulation.turn(user(seq), slot: slot)]
        let row = delivery(seq, slot: slot, at: Date(timeIntervalSince1970: 0))
        return [
            Self.deliveryId(seq, slot: slot), row.notificationId, source, row.eventId, row.userId, row.installationId,
            row.platform.rawValue, row.environment.rawValue, row.token, row.kind.rawValue, shape.headersText,
            shape.bodyText, row.collapseId, row.coalesceKey, String(row.priority), created, created, expires,
        ]
    }

    /// An event id as long as ingest's bench events have: `e` and the counter a seq holds below its day.
    static func eventId(_ seq: Int) -> String { "e\(Int64(seq) & EventRepository.counterMask)" }

    /// 32 hex digits, scattered over the key space as the pipeline's SHA-256 identifiers are, without hashing.
    static func deliveryId(_ seq: Int, slot: Int) -> String {
        scattered(UInt64(bitPattern: Int64(seq)) &* 4 &+ UInt64(slot))
    }

    /// The event `seq`'s notification id (and collapse id), shaped as `deliveryId`.
    static func notificationId(_ seq: Int) -> String { scattered(~UInt64(bitPattern: Int64(seq))) }

    /// Two rounds of a 64-bit mixer over `value`, as 32 hex digits: distinct values stay distinct.
    static func scattered(_ value: UInt64) -> String {
        let high = mix(value)
        let halves = [high, mix(high ^ value)]
        return String(unsafeUninitializedCapacity: 32) { text in
            for index in 0..<32 {
                let nibble = Int(truncatingIfNeeded: halves[index / 16] >> (60 - 4 * UInt64(index % 16))) & 0xF
                text[index] = UInt8(ascii: "0") + UInt8(nibble) + (nibble > 9 ? 39 : 0)
            }
            return 32
        }
    }

    /// A bijection of 64-bit values that spreads neighbours apart: each step (an xor with a shift of itself, a
    /// product with an odd number) can be undone.
    private static func mix(_ value: UInt64) -> UInt64 {
        var x = value &* 0x9E37_79B9_7F4A_7C15
        x ^= x >> 29
        x = x &* 0xD6E8_FEB8_6659_FD93
        return x ^ (x >> 32)
    }
}
