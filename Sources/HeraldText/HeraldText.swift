internal import CICUShim

/// Facts about the ICU library Herald runs on.
public enum ICUInfo {
    /// The time zone data version ICU has loaded, e.g. "2026f".
    public static var tzdataVersion: String {
        var buf = [CChar](repeating: 0, count: 32)
        let n = hz_tzdata_version(&buf, Int32(buf.count))
        return String(decoding: buf.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
