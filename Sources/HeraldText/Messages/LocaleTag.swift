internal import CICUShim

/// A canonical BCP 47 language tag, e.g. `pl-PL`, `zh-Hant-TW`, `sr-Latn`.
///
/// Built only through ICU's canonicalization, so two tags naming the same locale compare equal:
/// case is normalised (`ZH-hant-tw` → `zh-Hant-TW`), deprecated codes are replaced (`iw` → `he`, `sh` → `sr-Latn`),
/// and ICU ids with underscores (`pl_PL`, as some devices send them) are accepted.
public struct LocaleTag: Sendable, Hashable, CustomStringConvertible {
    /// The canonical tag.
    public let identifier: String

    /// Validates and canonicalizes `tag`.
    public init(_ tag: String) throws(LocaleTagError) {
        guard !tag.isEmpty else { throw LocaleTagError(.empty) }
        guard tag.utf8.count <= 128 else { throw LocaleTagError(.tooLong) }
        var tag = tag
        var error = hm_error()
        var buffer = [CChar](repeating: 0, count: 160)
        let length = tag.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { bytes in
                hm_locale_canonicalize(bytes.baseAddress, Int32(bytes.count), &buffer, Int32(buffer.count), &error)
            }
        }
        guard length >= 0, Int(length) < buffer.count else { throw LocaleTagError(.malformed) }
        identifier = String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A tag already in canonical form (e.g. one this type produced).
    init(canonical identifier: String) {
        self.identifier = identifier
    }

    /// The subtags, split on `-`.
    private var subtags: [Substring] { identifier.split(separator: "-") }

    /// The language subtag, e.g. `zh`.
    public var language: String { String(subtags.first ?? "") }

    /// The script subtag, e.g. `Hant`, if present.
    public var script: String? {
        let tags = subtags
        guard tags.count > 1, tags[1].count == 4 else { return nil }
        return String(tags[1])
    }

    /// The region subtag, e.g. `TW` or `419`, if present.
    public var region: String? {
        var tags = subtags.dropFirst()
        if let first = tags.first, first.count == 4 { tags = tags.dropFirst() }
        guard let candidate = tags.first,
            candidate.count == 2 || (candidate.count == 3 && candidate.allSatisfy(\.isNumber))
        else { return nil }
        return String(candidate)
    }

    /// The language with its script but without region, variants or extensions (`zh-Hant-TW` → `zh-Hant`,
    /// `pt-BR` → `pt`), or nil when that is this tag already. The script stays: `sr-Latn` must not become `sr`.
    public var withoutRegion: LocaleTag? {
        var base = language
        if let script { base += "-" + script }
        return base == identifier ? nil : LocaleTag(canonical: base)
    }

    /// The canonical tag.
    public var description: String { identifier }
}
