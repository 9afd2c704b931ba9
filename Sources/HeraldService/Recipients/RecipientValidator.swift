import Foundation
import HeraldCore
import HeraldText

/// Checks what clients say about recipients against the data Herald runs on: zone ids against the loaded tz data
/// (aliases canonicalized, unknown ids rejected, never read as UTC) and locales through ICU. Answers are cached per
/// validator, so a bulk import asks ICU once per distinct zone and locale.
struct RecipientValidator {
    let zones: ICUZoneDirectory
    private var zoneCache: [String: String?] = [:]
    private var localeCache: [String: String?] = [:]

    init(zones: ICUZoneDirectory) {
        self.zones = zones
    }

    /// The canonical IANA id of `identifier`, or nil when the tz data does not know it.
    mutating func canonicalZone(_ identifier: String) -> String? {
        if let cached = zoneCache[identifier] { return cached }
        let canonical = zones.canonicalIdentifier(identifier)
        if zoneCache.count < 10_000 { zoneCache[identifier] = canonical }
        return canonical
    }

    /// The canonical BCP 47 form of `tag`, or nil when it is not a usable tag.
    mutating func canonicalLocale(_ tag: String) -> String? {
        if let cached = localeCache[tag] { return cached }
        // The stored form must fit the same 128 bytes as the input (canonicalization may lengthen a tag).
        let canonical = (try? LocaleTag(tag).identifier).flatMap { $0.utf8.count <= 128 ? $0 : nil }
        if localeCache.count < 10_000 { localeCache[tag] = canonical }
        return canonical
    }

    /// The canonical locale, or an error at `pointer`.
    mutating func locale(_ tag: String, at pointer: String, into errors: inout [FieldError]) -> String? {
        guard let canonical = canonicalLocale(tag) else {
            errors.append(
                .init(pointer: pointer, message: "is not a BCP 47 language tag such as en, pt-BR or zh-Hant-TW"))
            return nil
        }
        return canonical
    }

    /// Whether `text` is free of control characters and at most `maxLength` code points long, and not empty.
    static func isPlainText(_ text: String, maxLength: Int) -> Bool {
        let scalars = text.unicodeScalars
        return !scalars.isEmpty && scalars.count <= maxLength
            && !scalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }
}
