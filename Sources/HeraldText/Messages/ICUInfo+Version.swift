internal import CICUShim

extension ICUInfo {
    /// The version of the system ICU that formats messages, e.g. "72.1".
    public static var version: String {
        var buffer = [CChar](repeating: 0, count: 32)
        let length = hm_icu_version(&buffer, Int32(buffer.count))
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
