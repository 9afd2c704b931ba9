/// End-to-end encrypted content an event carries for the app to decrypt: Herald never reads it, only hands it on.
///
/// Either one base64 text for every device (`shared`), or one per installation (`perInstallation`), each encrypted
/// for that device's own key. It travels in the push of an `app` or `combined` category and in the recipient
/// device's feed item; it never reaches a log, a metric, a problem document, a preview or the decisions.
public enum Ciphertext: Sendable, Hashable {
    /// The same text for every device.
    case shared(String)
    /// A text per installation id; a device without an entry gets none.
    case perInstallation([String: String])

    /// The longest single ciphertext, in bytes of base64 text (6 KiB of content). A push carries at most about
    /// 4 KB, so a longer one reaches the device through the feed (`fetch`); the bound keeps the inbox row small.
    public static let maxBytes = 8_192
    /// The most installations one event encrypts for.
    public static let maxInstallations = 100
    /// The most base64 text of all of an event's ciphertexts together, in bytes.
    public static let maxTotalBytes = 65_536

    /// The ciphertext for the device `installationId`.
    public func value(for installationId: String) -> String? {
        switch self {
        case .shared(let text): text
        case .perInstallation(let texts): texts[installationId]
        }
    }

    /// Whether `text` is base64 (RFC 4648, the standard or the URL-safe alphabet, padding optional): 1 or more
    /// characters of one alphabet, `=` only at the end to complete a group of four.
    public static func isBase64(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        let digits = bytes.dropLast(padding)
        guard !digits.isEmpty, padding <= 2, digits.count % 4 != 1 else { return false }
        if padding > 0, bytes.count % 4 != 0 { return false }
        let standard = digits.allSatisfy { isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") }
        let urlSafe = digits.allSatisfy { isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
        return standard || urlSafe
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: false
        }
    }

    /// Every problem of the ciphertext, at `/ciphertext` or `/ciphertext/<installation>`. The messages name the
    /// rule broken, never the content.
    public func validate() -> [FieldError] {
        func text(_ value: String, _ pointer: String) -> FieldError? {
            if value.utf8.count > Self.maxBytes {
                return FieldError(
                    pointer: pointer, code: "invalid_length", message: "at most \(Self.maxBytes) bytes of base64")
            }
            if !Self.isBase64(value) {
                return FieldError(pointer: pointer, code: "invalid_format", message: "must be base64 text")
            }
            return nil
        }
        switch self {
        case .shared(let value):
            return [text(value, "/ciphertext")].compactMap { $0 }
        case .perInstallation(let texts):
            if texts.isEmpty {
                return [
                    FieldError(
                        pointer: "/ciphertext", code: "invalid_length", message: "names at least one installation")
                ]
            }
            if texts.count > Self.maxInstallations {
                return [
                    FieldError(
                        pointer: "/ciphertext", code: "too_many",
                        message: "at most \(Self.maxInstallations) installations")
                ]
            }
            var errors: [FieldError] = []
            for installation in texts.keys.sorted() {
                let pointer = "/ciphertext/" + FieldError.token(installation)
                if !OpaqueIdentifier.isValid(installation) {
                    errors.append(
                        FieldError(
                            pointer: pointer, code: "invalid_format",
                            message: "is not an installation id: " + OpaqueIdentifier.rule()))
                } else if let error = text(texts[installation]!, pointer) {
                    errors.append(error)
                }
            }
            if errors.isEmpty, texts.values.reduce(0, { $0 + $1.utf8.count }) > Self.maxTotalBytes {
                errors.append(
                    FieldError(
                        pointer: "/ciphertext", code: "invalid_length",
                        message: "at most \(Self.maxTotalBytes) bytes of base64 in all"))
            }
            return errors
        }
    }

    /// The refusal of ciphertext on an event of `category`: only `app` and `combined` categories carry it, as the
    /// app must run to decrypt it.
    public static func admission(in category: Category) -> FieldError? {
        if category.deliveryMode.carriesCiphertext { return nil }
        return FieldError(
            pointer: "/ciphertext", code: "not_allowed",
            message: "the category's delivery mode is system; only app and combined categories carry ciphertext")
    }
}

extension Category.DeliveryMode {
    /// Whether pushes in this mode may carry an event's ciphertext: the app runs before the notification shows.
    public var carriesCiphertext: Bool { self != .system }

    /// The mode of one device's push of an event: a device whose app does not build notifications gets `system`;
    /// an encrypted event goes in `app` mode to the others, since Herald cannot read its content and sends only the
    /// fallback text beside it.
    public static func forDevice(_ device: Device, category: Category, encrypted: Bool) -> Self {
        guard device.appBuildsNotifications else { return .system }
        return encrypted && category.deliveryMode.carriesCiphertext ? .app : category.deliveryMode
    }
}

extension Ciphertext: Codable {
    /// Decodes a string (one for every device) or an object of strings by installation id.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .shared(text)
        } else {
            self = .perInstallation(try container.decode([String: String].self))
        }
    }

    /// Encodes the string or the object it was given as.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .shared(let text): try container.encode(text)
        case .perInstallation(let texts): try container.encode(texts)
        }
    }

    /// The JSON form, as an event carries it.
    public var json: JSONValue {
        switch self {
        case .shared(let text): .string(text)
        case .perInstallation(let texts): .object(texts.mapValues(JSONValue.string))
        }
    }

    /// The ciphertext a JSON value holds: a string, or an object whose members are all strings.
    public init?(json: JSONValue) {
        switch json {
        case .string(let text): self = .shared(text)
        case .object(let members):
            var texts: [String: String] = [:]
            for (installation, value) in members {
                guard case .string(let text) = value else { return nil }
                texts[installation] = text
            }
            self = .perInstallation(texts)
        default: return nil
        }
    }
}
