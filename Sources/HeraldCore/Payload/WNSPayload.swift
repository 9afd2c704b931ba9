import Foundation

/// The WNS request for one channel: a toast (XML) for alerts, a raw push (JSON) for withdrawals, a badge update
/// (XML) for badge-only pushes.
///
/// An alert with a ciphertext (or `fetch`) is a raw push too: a toast has no member for data its app reads before
/// it is shown, so the app's background task receives the JSON Web Push's service worker reads (with `tag` the
/// WNS tag), decrypts and shows the toast itself, with the fallback text if it cannot.
public enum WNSPayload {
    /// WNS rejects payloads over 5000 bytes.
    public static let maxBodyBytes = 5_000

    /// Headers: `X-WNS-Type` with its matching `Content-Type`, `X-WNS-TTL`, and a tag (≤ 16 alphanumerics) so
    /// the toast can be replaced or removed.
    ///
    /// No `X-WNS-Group` is sent: Windows identifies a toast by tag and group together, so a group taken from the
    /// thread would stop a digest (which spans a burst, not a thread) from replacing the burst's first toast, and a
    /// withdrawal, which knows only collapse ids, could not name the toast it removes.
    public static func headers(for content: PushContent) -> [String: String] {
        var headers: [String: String] = ["X-WNS-TTL": String(content.ttlSeconds)]
        // Raw pushes are not cached by default; the newest is worth keeping for an offline device.
        func raw() {
            headers["X-WNS-Type"] = "wns/raw"
            headers["Content-Type"] = "application/octet-stream"
            headers["X-WNS-Cache-Policy"] = "cache"
        }
        switch content.purpose {
        case .alert where isRaw(content), .digest where isRaw(content):
            raw()
        case .alert, .digest:
            headers["X-WNS-Type"] = "wns/toast"
            headers["Content-Type"] = "text/xml"
            if let collapseId = content.collapseId {
                headers["X-WNS-Tag"] = CollapseIdentifier.wnsTag(for: collapseId)
            }
        case .badge:
            headers["X-WNS-Type"] = "wns/badge"
            headers["Content-Type"] = "text/xml"
        case .withdraw:
            raw()
        }
        return headers
    }

    /// The body, fitted to 5000 bytes; `nil` only if the identifiers alone exceed it.
    public static func body(for content: PushContent) -> [UInt8]? { fittedBody(for: content)?.bytes }

    /// The body, fitted to 5000 bytes, and whether its image was left out to fit.
    static func fittedBody(for content: PushContent) -> PlatformBody.Fitted? {
        switch content.purpose {
        case .alert, .digest:
            if isRaw(content) {
                return PlatformBody.visible(content, limit: maxBodyBytes, build: rawAlert(for:title:body:))
            }
            return PlatformBody.visible(content, limit: maxBodyBytes) { content, title, body in
                Array(toast(for: content, title: title, body: body).utf8)
            }
        case .badge:
            return PlatformBody.Fitted(bytes: Array("<badge value=\"\(max(0, content.badge ?? 0))\"/>".utf8))
        case .withdraw:
            // The app removes toasts by the WNS tags it was shown with.
            var tagged = content
            tagged.withdrawIds = content.withdrawIds.map(CollapseIdentifier.wnsTag(for:))
            let bytes = WithdrawKeys.body(tagged, limit: maxBodyBytes, cost: WithdrawKeys.arrayElementCost) {
                WithdrawKeys.flaggingSync(WebPushPayload.document(for: $0, title: nil, body: nil), $1)
            }
            return PlatformBody.Fitted(bytes: bytes)
        }
    }

    /// Whether an alert goes raw, for its app to decrypt: it carries a ciphertext or says `fetch`.
    static func isRaw(_ content: PushContent) -> Bool {
        content.visibleCiphertext != nil || content.visibleFetch
    }

    /// The raw alert: Web Push's service-worker document (no browser shows it, so no declarative members), whose `tag` is the WNS tag the app shows its toast with, so a digest
    /// replaces it and a withdrawal removes it as it does a toast of Herald's.
    static func rawAlert(for content: PushContent, title: String?, body: String?) -> [UInt8] {
        var root = WebPushPayload.serviceWorkerMembers(for: content, title: title, body: body)
        if let collapseId = content.collapseId { root["tag"] = .string(CollapseIdentifier.wnsTag(for: collapseId)) }
        return JSONValue.object(root).serialized()
    }

    /// The toast XML. A tap hands the app the notification id (`launch`) or, with a link, opens the link
    /// (protocol activation); an image is shown inline below the text.
    static func toast(for content: PushContent, title: String?, body: String?) -> String {
        var xml = "<toast"
        if let link = content.visibleLink {
            xml += " activationType=\"protocol\" launch=\"" + escape(link) + "\""
        } else {
            xml += " launch=\"" + escape(content.notificationId) + "\""
        }
        xml += "><visual><binding template=\"ToastGeneric\">"
        if let title { xml += "<text>" + escape(title) + "</text>" }
        if let body { xml += "<text>" + escape(body) + "</text>" }
        if let image = content.visibleImage { xml += "<image src=\"" + escape(image) + "\"/>" }
        xml += "</binding></visual>"
        if content.isQuiet {
            xml += "<audio silent=\"true\"/>"
        }
        return xml + "</toast>"
    }

    /// XML text escaping; characters XML 1.0 forbids (most C0 controls) become spaces.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
