/// What a notification points at: an image the device downloads before it shows the notification, and where a tap
/// leads. Each comes from the event (`image_url`, `link`) or else from its category's template over the event's
/// fields (`image_template`, `link_template`), whose placeholders are percent-encoded into the address.
public enum NotificationMedia {
    /// The longest image address or link, in UTF-8 bytes.
    public static let maxBytes = 1_024

    /// Schemes a link may not use: they run code or read local files where the link is opened, or are not
    /// encrypted.
    static let refusedSchemes: Set<String> = ["http", "javascript", "data", "file", "vbscript", "blob", "about"]

    /// Whether `text` is an image address Herald puts in a payload: `https://` with a host, at most `maxBytes`,
    /// printable ASCII only (the device fetches it as is).
    public static func isImageURL(_ text: String) -> Bool {
        guard text.utf8.count <= maxBytes, isPrintableASCII(text), text.hasPrefix("https://") else { return false }
        let host = text.dropFirst("https://".count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !host.isEmpty
    }

    /// Whether `text` is a link a tap may open: an `https://` address, or an app's deep link (`scheme:…` with a
    /// scheme of its own, such as `chat://t/42`), at most `maxBytes`, printable ASCII only.
    public static func isLink(_ text: String) -> Bool {
        if isImageURL(text) { return true }
        guard text.utf8.count <= maxBytes, isPrintableASCII(text), let colon = text.firstIndex(of: ":") else {
            return false
        }
        let scheme = text[..<colon].lowercased()
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }),
            !refusedSchemes.contains(scheme), !scheme.hasPrefix("https")
        else { return false }
        return text.index(after: colon) < text.endIndex
    }

    /// The image address of `event` in `category`, or nil when there is none or its template renders no valid one.
    public static func image(for event: Event, category: Category) -> String? {
        resolve(event.imageURL, template: category.imageTemplate, for: event, valid: isImageURL)
    }

    /// The link of `event` in `category`, or nil when there is none or its template renders no valid one.
    public static func link(for event: Event, category: Category) -> String? {
        resolve(event.link, template: category.linkTemplate, for: event, valid: isLink)
    }

    private static func resolve(
        _ own: String?, template: String?, for event: Event, valid: (String) -> Bool
    ) -> String? {
        if let own { return valid(own) ? own : nil }
        guard let template, let rendered = try? KeyTemplate(template).render(for: event, encoding: percentEncoded)
        else { return nil }
        return valid(rendered) ? rendered : nil
    }

    /// A placeholder's value inside an address: everything but RFC 3986's unreserved characters percent-encoded.
    static func percentEncoded(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80, character.isLetter || character.isNumber || "-._~".contains(character) {
                out.append(character)
            } else {
                out +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return out
    }

    private static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !"\"<>\\^`{|}".utf8.contains($0) }
    }
}
