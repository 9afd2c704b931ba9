internal import CICUShim

extension LocaleTag {
    /// How much data ICU has for this locale.
    public var icuData: LocaleDataSupport {
        var tag = identifier
        var actual = [CChar](repeating: 0, count: 96)
        let status = tag.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { bytes in
                hm_locale_data(bytes.baseAddress, Int32(bytes.count), &actual, Int32(actual.count))
            }
        }
        switch status {
        case HM_LOCALE_DATA_EXACT:
            return .exact
        case HM_LOCALE_DATA_FALLBACK:
            let end = actual.firstIndex(of: 0) ?? actual.endIndex
            return .fallback(String(decoding: actual[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self))
        default:
            return .none
        }
    }

    /// Whether ICU has data for this locale or for its language.
    public var hasICUData: Bool { icuData != .none }
}
