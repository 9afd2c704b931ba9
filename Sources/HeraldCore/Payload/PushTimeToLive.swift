import Foundation

/// What is left of a push's time to live when a sender is handed it. APNs carries an absolute expiry
/// (`apns-expiration`); Web Push (`TTL`), WNS (`X-WNS-TTL`) and FCM (`android.ttl`) carry seconds counted from when
/// the push service receives the request. A push is built when it is decided, so one handed out later (after a
/// retry, a lease that ran out, a backlog) would still say its whole time to live, and a push service could keep
/// it past its expiry. Handed out, its relative time to live is cut to what is left until then.
public enum PushTimeToLive {
    /// Whole seconds left at `now` until `expiresAt`, at least 1.
    public static func seconds(until expiresAt: Date, at now: Date) -> Int {
        max(1, Int(expiresAt.timeIntervalSince(now).rounded(.down)))
    }

    /// The headers (a JSON object) and body of a push for `platform`, with each relative time to live in them cut to
    /// what is left at `now`, never raised. What holds none, or cannot be read, is returned as it was.
    public static func handedOut(
        platform: Device.Platform, headers: String, body: String, expiresAt: Date, now: Date
    ) -> (headers: String, body: String) {
        let left = seconds(until: expiresAt, at: now)
        switch platform {
        case .webpush: return (cut(headers, at: ["TTL"], to: left, suffix: ""), body)
        case .wns: return (cut(headers, at: ["X-WNS-TTL"], to: left, suffix: ""), body)
        case .fcm: return (headers, cut(body, at: ["message", "android", "ttl"], to: left, suffix: "s"))
        case .apns: return (headers, body)
        }
    }

    /// `json` with the string of seconds (followed by `suffix`) at `path` lowered to `left`.
    private static func cut(_ json: String, at path: [String], to left: Int, suffix: String) -> String {
        guard let value = try? JSONParser.parse(Array(json.utf8)),
            let lowered = lowering(value, at: path[...], to: left, suffix: suffix)
        else { return json }
        return String(decoding: lowered.serialized(), as: UTF8.self)
    }

    private static func lowering(
        _ value: JSONValue, at path: ArraySlice<String>, to left: Int, suffix: String
    ) -> JSONValue? {
        guard case .object(var members) = value, let name = path.first, let member = members[name] else { return nil }
        if path.count > 1 {
            guard let lowered = lowering(member, at: path.dropFirst(), to: left, suffix: suffix) else { return nil }
            members[name] = lowered
        } else {
            guard case .string(let text) = member, text.hasSuffix(suffix),
                let seconds = Int(text.dropLast(suffix.count)), seconds > left
            else { return nil }
            members[name] = .string("\(left)\(suffix)")
        }
        return .object(members)
    }
}
