/// A browser's push subscription, in either form a device registration takes: exactly what
/// `PushSubscription.toJSON()` produces (`{"endpoint", "expirationTime", "keys": {"p256dh", "auth"}}`), or the flat
/// `{"endpoint", "p256dh", "auth"}`.
struct WebPushSubscription: Decodable, Sendable, Hashable {
    /// The push service URL the subscription posts to.
    var endpoint: String
    /// The browser's P-256 public key, base64url.
    var p256dh: String
    /// The 16-byte authentication secret, base64url.
    var auth: String
    /// Where the keys sat in the body, relative to the subscription: `/keys` in the browser's form, `""` flat.
    var keysPointer: String
    /// Whether `expirationTime` was absent, null or a number.
    var expirationTimeIsValid = true

    enum CodingKeys: String, CodingKey {
        case endpoint, p256dh, auth, keys, expirationTime
    }

    struct Keys: Decodable {
        var p256dh: String
        var auth: String
    }

    init(endpoint: String, p256dh: String, auth: String, keysPointer: String = "") {
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.keysPointer = keysPointer
    }

    /// A missing or mistyped member fails with its own path (`/keys/p256dh`, `/expirationTime`), which the
    /// decoder reports as the pointer of a 422.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        endpoint = try container.decode(String.self, forKey: .endpoint)
        if container.contains(.keys) {
            let keys = try container.decode(Keys.self, forKey: .keys)
            p256dh = keys.p256dh
            auth = keys.auth
            keysPointer = "/keys"
        } else {
            p256dh = try container.decode(String.self, forKey: .p256dh)
            auth = try container.decode(String.self, forKey: .auth)
            keysPointer = ""
        }
        // The browser's expiry, null or milliseconds since the epoch; checked for its type, not kept: the push
        // service tells when a subscription is gone, through a 404 or 410 reported as feedback. A wrong type is
        // reported by the device's validation, under the browser's own member name (decoding paths are snake-cased).
        expirationTimeIsValid =
            !container.contains(.expirationTime) || (try? container.decodeNil(forKey: .expirationTime)) == true
            || (try? container.decode(Double.self, forKey: .expirationTime)) != nil
    }
}
