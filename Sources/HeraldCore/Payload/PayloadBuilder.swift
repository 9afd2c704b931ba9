/// Wraps push content in the envelope of the device's platform, producing the queue row.
public enum PayloadBuilder {
    /// The delivery of `content` to `device`, or `nil` when even the bare identifiers exceed the platform limit
    /// (identifiers are bounded by event validation, so this does not happen for valid events).
    public static func delivery(
        for content: PushContent, to device: Device, userId: String
    )
        -> Delivery?
    {
        let headers: [String: String]
        let body: [UInt8]?
        let priority: Int
        switch device.platform {
        case .apns:
            headers = APNsPayload.headers(
                for: content, bundleId: device.appId, installationId: device.installationId)
            body = APNsPayload.body(for: content)
            priority = APNsPayload.priority(for: content)
        case .fcm:
            headers = ["Content-Type": "application/json"]
            body = FCMPayload.body(for: content, token: device.token)
            priority = APNsPayload.priority(for: content)
        case .webpush:
            headers = WebPushPayload.headers(for: content)
            body = WebPushPayload.body(for: content)
            priority = WebPushPayload.priority(for: content)
        case .wns:
            headers = WNSPayload.headers(for: content)
            body = WNSPayload.body(for: content)
            priority = APNsPayload.priority(for: content)
        }
        guard let body else { return nil }
        return Delivery(
            platform: device.platform, kind: content.purpose.deliveryKind, userId: userId,
            installationId: device.installationId, token: device.token, environment: device.environment,
            headers: headers, body: body, collapseId: content.isVisible ? content.collapseId : nil,
            priority: priority, expiresAt: content.expiresAt, availableAt: content.availableAt,
            notificationId: content.notificationId, eventId: content.eventId,
            coalesceKey: content.coalesceKey)
    }
}
