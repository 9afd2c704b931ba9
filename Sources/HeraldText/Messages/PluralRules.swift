internal import CICUShim
import Synchronization

/// CLDR plural rules for one locale, through ICU; safe to share between threads.
public final class PluralRules: Sendable {
    /// Cardinal (`1 file`, `2 files`) or ordinal (`1st`, `2nd`) rules.
    public enum Kind: Sendable, Hashable {
        /// Counting: what `plural` uses.
        case cardinal
        /// Ranking: what `selectordinal` uses.
        case ordinal
    }

    /// The locale the rules are for.
    public let locale: LocaleTag
    /// Cardinal or ordinal.
    public let kind: Kind
    /// The categories this locale distinguishes, in CLDR order (always ending with `other`).
    public let categories: [PluralCategory]
    // ICU's rules are read-only once built, but the handle is a raw pointer, which Swift cannot prove safe to share;
    // a lock costs about 20 ns here and needs no unchecked conformance.
    private let rules: Mutex<PluralHandle>

    /// The rules of `locale`, or nil when ICU cannot build them (out of memory). Locales without data get root's.
    public init?(locale: LocaleTag, kind: Kind = .cardinal) {
        var tag = locale.identifier
        var error = hm_error()
        let pointer = tag.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { bytes in
                hm_plural_open(bytes.baseAddress, Int32(bytes.count), kind == .ordinal, &error)
            }
        }
        guard let pointer else { return nil }
        let mask = hm_plural_categories(pointer)
        self.locale = locale
        self.kind = kind
        self.categories = PluralCategory.allCases.filter { mask & (1 << $0.facadeCode) != 0 }
        self.rules = Mutex(PluralHandle(pointer: pointer))
    }

    /// The category `number` falls in.
    public func category(for number: Double) -> PluralCategory {
        rules.withLock { PluralCategory(facadeCategory: hm_plural_select($0.pointer, number)) }
    }

    /// The category `number` falls in.
    public func category(for number: Int) -> PluralCategory { category(for: Double(number)) }
}

/// Owns an ICU plural rules handle.
struct PluralHandle: ~Copyable {
    let pointer: OpaquePointer

    deinit { hm_plural_close(pointer) }
}
