internal import CICUShim

/// Facts about the ICU library Herald runs on.
public enum ICUInfo {
    /// The time zone data version ICU has loaded, e.g. "2025b".
    public static var tzdataVersion: String {
        var buffer = [CChar](repeating: 0, count: 32)
        let count = hz_tzdata_version(&buffer, Int32(buffer.count))
        return String(decoding: buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
