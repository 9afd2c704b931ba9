import Foundation
import HeraldCore
import HeraldHTTP
import HeraldPostgres

/// `/v1/deliveries`: push senders claim leased batches and ack them.
enum DeliveriesAPI {
    static func register(on router: inout Router, environment: PipelineEnvironment) {
        router.post("/v1/deliveries/claim", auth: .scope(.deliveriesConsume)) { request, _ in
            let body: ClaimBody = try request.decodeJSONValue().decode()
            let platform = try validate(body)
            let now = environment.context.clock()
            // Fresh and unguessable on every claim: an ack must name it, so a consumer whose lease ran out and
            // was handed to another cannot change the row any more.
            let leaseId = Hex.encode(SecureRandom.bytes(count: 16))
            let claim = try environment.database { connection in
                try DeliveryRepository.claim(
                    platform: platform, limit: body.limit ?? 100, leaseSeconds: body.leaseSeconds ?? 60,
                    leaseId: leaseId, now: now, on: connection)
            }
            environment.metrics.recordClaim(
                leased: claim.leased.map(\.platform), expired: claim.expiredPlatforms,
                leaseExpired: claim.leaseExpiredPlatforms)
            return try HTTPResponse.json(
                ClaimView(
                    leaseId: leaseId, leasedUntil: now + TimeInterval(body.leaseSeconds ?? 60),
                    deliveries: claim.leased.map { LeaseView($0) }))
        }
        router.post("/v1/deliveries/ack", auth: .scope(.deliveriesConsume)) { request, _ in
            let body: AckBody = try request.decodeJSONValue().decode()
            let acks = try validate(body)
            let now = environment.context.clock()
            let results = try environment.database { connection in
                let results = try DeliveryRepository.ack(acks, now: now, on: connection)
                // A dead token deactivates the device the push went to, with its other pushes queued to that token,
                // unless the device registered again since the claim (the failure was seen during the lease) or
                // holds another token now; another device that took the token meanwhile is not concerned.
                let reports = results.filter { $0.state == "dead_token" }.compactMap { result -> FeedbackReport? in
                    guard let name = result.platform, let platform = Device.Platform(rawValue: name),
                        let token = result.token, let installationId = result.installationId
                    else { return nil }
                    return FeedbackReport(
                        target: .push(installationId: installationId, platform: platform, token: token),
                        reason: "dead_token", failedAt: result.leasedAt ?? now)
                }
                if !reports.isEmpty { _ = try FeedbackRepository.apply(reports, now: now, on: connection) }
                return results
            }
            environment.metrics.recordAcks(
                Dictionary(grouping: results, by: { $0.state ?? $0.status.rawValue }).mapValues(\.count))
            return try HTTPResponse.json(AckView(results: results.map(AckResultView.init)))
        }
    }

    struct ClaimBody: Decodable {
        var platform: String?
        var limit: Int?
        var leaseSeconds: Int?
    }

    static func validate(_ body: ClaimBody) throws -> String? {
        var errors: [FieldError] = []
        if let platform = body.platform, Device.Platform(rawValue: platform) == nil {
            errors.append(FieldError(pointer: "/platform", message: "must be apns, fcm, webpush or wns"))
        }
        if let limit = body.limit, !(1...1_000).contains(limit) {
            errors.append(FieldError(pointer: "/limit", message: "must be from 1 to 1000"))
        }
        if let lease = body.leaseSeconds, !(1...3_600).contains(lease) {
            errors.append(FieldError(pointer: "/lease_seconds", message: "must be from 1 to 3600"))
        }
        if !errors.isEmpty { throw HTTPError.invalidFields(errors) }
        return body.platform
    }

    struct AckBody: Decodable {
        struct Item: Decodable {
            var id: String
            var leaseId: String?
            var outcome: String
            var detail: String?
            var retryAfterSeconds: Int?
        }

        var acks: [Item]
    }

    static func validate(_ body: AckBody) throws -> [DeliveryAck] {
        var errors: [FieldError] = []
        if !(1...1_000).contains(body.acks.count) {
            errors.append(FieldError(pointer: "/acks", message: "must hold 1 to 1000 acks"))
        }
        var acks: [DeliveryAck] = []
        for (index, item) in body.acks.enumerated() {
            let pointer = "/acks/\(index)"
            if !isLeaseId(item.leaseId) {
                errors.append(
                    FieldError(
                        pointer: pointer + "/lease_id",
                        message: "required: the lease_id its claim returned (1 to 64 letters, digits, - or _)"))
            }
            guard let outcome = DeliveryAck.Outcome(rawValue: item.outcome) else {
                errors.append(
                    FieldError(pointer: pointer + "/outcome", message: "must be sent, retry or dead_token"))
                continue
            }
            if item.id.isEmpty || item.id.utf8.count > 64 || !StorableText.isStorable(item.id) {
                errors.append(FieldError(pointer: pointer + "/id", message: "must be 1 to 64 bytes"))
            }
            if let detail = item.detail, detail.utf8.count > 1_000 || !StorableText.isStorable(detail) {
                errors.append(
                    FieldError(pointer: pointer + "/detail", message: "at most 1000 bytes, without NUL"))
            }
            if let delay = item.retryAfterSeconds, !(0...86_400).contains(delay) {
                errors.append(
                    FieldError(pointer: pointer + "/retry_after_seconds", message: "must be 0 to 86400"))
            }
            acks.append(
                DeliveryAck(
                    id: item.id, leaseId: item.leaseId ?? "", outcome: outcome, detail: item.detail,
                    retryAfterSeconds: item.retryAfterSeconds))
        }
        if !errors.isEmpty { throw HTTPError.invalidFields(errors) }
        return acks
    }

    /// A lease id as claims issue them: 1 to 64 ASCII letters, digits, `-` or `_`.
    static func isLeaseId(_ text: String?) -> Bool {
        guard let text, (1...64).contains(text.utf8.count) else { return false }
        return text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_")
        }
    }
}
