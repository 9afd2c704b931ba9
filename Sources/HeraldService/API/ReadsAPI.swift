import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// `POST /v1/users/{id}/read`: the user read items or a thread on one device; the unread count drops once per
/// notification, and the other devices get withdrawals and the new badge.
enum ReadsAPI {
    static let maxItems = 1_000

    static func register(on router: inout Router, environment: PipelineEnvironment) {
        router.post("/v1/users/{id}/read", auth: .scope(.eventsWrite)) { request, match in
            let userId = try match.parameter("id")
            guard isIdentifier(userId) else { throw HTTPError.notFound("No user has this id.") }
            let body: ReadBody = try request.decodeJSONValue().decode()
            let readRequest = try validate(body, userId: userId)
            let now = environment.context.clock()
            let outcome = try environment.database { connection -> ReadOutcome? in
                try apply(readRequest, decider: environment.decider, now: now, on: connection)
            }
            guard let outcome else { throw HTTPError.notFound("No user has this id.") }
            return try HTTPResponse.json(ReadView(userId: userId, outcome: outcome))
        }
    }

    /// Applies a read in its own transaction under the user's lock; `nil` for an unknown user.
    static func apply(
        _ request: ReadScope, decider: Decider, now: Date, on connection: PostgresConnection
    ) throws -> ReadOutcome? {
        let store = PostgresDecisionStore(connection)
        do {
            try store.begin()
            let snapshot = try store.recipients([request.userId], now: now, lock: true)
            var book = RecipientBook(snapshot)
            guard book.knows(request.userId) else {
                store.abandon()
                return nil
            }
            // The device a read happened on must be the user's own, as a receipt's must. Its active devices are
            // already in the snapshot; only another name needs the user's inactive ones read.
            if let device = request.originInstallationId,
                !(snapshot.devices[request.userId] ?? []).contains(where: { $0.installationId == device }),
                try !DeviceRepository.devices(userId: request.userId, on: connection)
                    .contains(where: { $0.device.installationId == device })
            {
                throw HTTPError.invalidField("/device", "is not one of this user's installations")
            }
            var output = BatchOutput()
            let outcome = try ReadApplication.apply(
                request, decider: decider, book: &book, output: &output, store: store, now: now, eventSource: nil,
                eventId: nil)
            try store.commit(output, book: book, now: now)
            return outcome
        } catch {
            store.abandon()
            throw error
        }
    }

    struct ReadBody: Decodable {
        var itemIds: [String]?
        var threadId: String?
        var device: String?
    }

    static func validate(_ body: ReadBody, userId: String) throws -> ReadScope {
        var errors: [FieldError] = []
        let items = body.itemIds ?? []
        if items.isEmpty && body.threadId == nil {
            errors.append(FieldError(pointer: "", message: "name item_ids or a thread_id"))
        }
        if items.count > maxItems {
            // Too many to check one by one: the list itself is the error.
            throw HTTPError.invalidField("/item_ids", "at most \(maxItems) items")
        }
        for (index, item) in items.enumerated() where !isIdentifier(item) {
            errors.append(FieldError(pointer: "/item_ids/\(index)", message: "must be 1 to 128 bytes"))
        }
        if let thread = body.threadId, !isIdentifier(thread) {
            errors.append(FieldError(pointer: "/thread_id", message: "must be 1 to 128 bytes"))
        }
        if let device = body.device, !isIdentifier(device) {
            errors.append(FieldError(pointer: "/device", message: "must be 1 to 128 bytes"))
        }
        if !errors.isEmpty { throw HTTPError.invalidFields(errors) }
        return ReadScope(userId: userId, itemIds: items, threadId: body.threadId, originInstallationId: body.device)
    }

    /// 1 to 128 bytes, storable.
    static func isIdentifier(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= Event.maxIdentifierBytes && StorableText.isStorable(text)
    }

    struct ReadView: Encodable {
        var userId: String
        var itemsRead: Int
        var unreadCount: Int
        var badge: Int?
        var withdrawn: [String]
        var deliveryIds: [String]

        init(userId: String, outcome: ReadOutcome) {
            self.userId = userId
            itemsRead = outcome.itemsRead
            unreadCount = outcome.unreadCount
            badge = outcome.badge
            withdrawn = outcome.withdrawn
            deliveryIds = outcome.deliveryIds
        }
    }
}
