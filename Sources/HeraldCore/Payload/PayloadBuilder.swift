/// Wraps push content in the envelope of the device's platform, producing the queue row.
public enum PayloadBuilder {
    /// A queue row, and whether its image was left out, or its ciphertext replaced by `fetch`, to fit the
    /// platform's size limit.
    public struct Built: Sendable, Hashable {
        public var delivery: Delivery
        public var imageDropped: Bool
        public var ciphertextFetched = false
    }

    /// The delivery of `content` to `device`, or `nil` when even the bare identifiers exceed the platform limit
    /// (identifiers are bounded by event validation, so this does not happen for valid events).
    public static func delivery(for content: PushContent, to device: Device, userId: String) -> Delivery? {
        build(content, to: device, userId: userId)?.delivery
    }

    /// `delivery(for:to:userId:)`, telling also whether the image or the ciphertext had to go.
    public static func build(_ content: PushContent, to device: Device, userId: String) -> Built? {
        let headers: [String: String]
        let body: PlatformBody.Fitted?
        let priority: Int
        switch device.platform {
        case .apns:
            headers = APNsPayload.headers(
                for: content, bundleId: device.appId, installationId: device.installationId)
            body = APNsPayload.fittedBody(for: content)
            priority = APNsPayload.priority(for: content)
        case .fcm:
            headers = ["Content-Type": "application/json"]
            body = FCMPayload.fittedBody(for: content, token: device.token)
            priority = APNsPayload.priority(for: content)
        case .webpush:
            headers = WebPushPayload.headers(for: content)
            body = WebPushPayload.fittedBody(for: content)
            priority = WebPushPayload.priority(for: content)
        case .wns:
            headers = WNSPayload.headers(for: content)
            body = WNSPayload.fittedBody(for: content)
            priority = APNsPayload.priority(for: content)
        }
        guard let body else { return nil }
        let delivery = Delivery(
            platform: device.platform, kind: content.purpose.deliveryKind, userId: userId,
            installationId: device.installationId, token: device.token, environment: device.environment,
            headers: headers, body: body.bytes, collapseId: content.isVisible ? content.collapseId : nil,
            priority: priority, expiresAt: content.expiresAt, availableAt: content.availableAt,
            notificationId: content.notificationId, eventId: content.eventId,
            coalesceKey: content.coalesceKey)
        return Built(
            delivery: delivery, imageDropped: body.imageDropped, ciphertextFetched: body.ciphertextFetched)
    }
}
