internal import CICUShim
import HeraldCore

/// An open ICU zone (a `UCalendar` behind the facade). Not thread-safe: callers keep it behind a lock or on one
/// thread.
struct ICUZoneHandle: ~Copyable {
    private let pointer: OpaquePointer
    /// The canonical IANA id the zone was opened under.
    let identifier: String

    /// Opens `id` (aliases accepted); unknown ids, Etc/Unknown and Factory throw `.unknownZone`.
    init(id: String) throws(TimeZoneDataError) {
        guard let canonical = Self.canonicalIdentifier(id) else {
            throw TimeZoneDataError(.unknownZone, "unknown time zone id")
        }
        var status: Int32 = 0
        guard let pointer = hz_zone_open(canonical, &status) else {
            throw status == Int32(HZ_UNKNOWN_ZONE)
                ? TimeZoneDataError(.unknownZone, "unknown time zone id")
                : TimeZoneDataError(.icuFailed, "ICU could not open a time zone")
        }
        self.pointer = pointer
        self.identifier = canonical
    }

    deinit { hz_zone_close(pointer) }

    /// The IANA canonical id of `id` in ICU's loaded data, or nil when ICU does not know it.
    static func canonicalIdentifier(_ id: String) -> String? {
        guard !id.isEmpty, id.utf8.count < 200, id.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            return nil
        }
        var buffer = [CChar](repeating: 0, count: 256)
        guard hz_zone_canonical_id(id, &buffer, Int32(buffer.count)) == Int32(HZ_OK) else { return nil }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Every id in ICU's loaded data (or only canonical ones), without Etc/Unknown and Factory.
    static func identifiers(canonicalOnly: Bool) -> [String] {
        let needed = hz_zone_ids(canonicalOnly, nil, 0)
        guard needed > 0 else { return [] }
        var buffer = [CChar](repeating: 0, count: Int(needed))
        _ = hz_zone_ids(canonicalOnly, &buffer, needed)
        let bytes = buffer.map { UInt8(bitPattern: $0) }
        return bytes.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Raw and DST offsets in seconds at an instant in milliseconds.
    func offsets(atMilliseconds ms: Double) -> (raw: Int, dst: Int)? {
        var raw: Int32 = 0
        var dst: Int32 = 0
        guard hz_zone_offset(pointer, ms, &raw, &dst) == Int32(HZ_OK) else { return nil }
        return (Int(raw) / 1000, Int(dst) / 1000)
    }

    /// The total offset in seconds at an instant in whole seconds.
    func totalOffset(atSecond second: Int) -> Int {
        offsets(atMilliseconds: Double(second) * 1000).map { $0.raw + $0.dst } ?? 0
    }

    /// ICU's next transition strictly after `ms` (it may keep the total offset), in milliseconds.
    func nextTransition(afterMilliseconds ms: Double) -> Double? {
        var out = 0.0
        return hz_zone_next_transition(pointer, ms, &out) == Int32(HZ_OK) ? out : nil
    }

    /// The next change of the total offset strictly after `second`.
    func nextOffsetChange(after second: Int) -> Int? {
        var current = totalOffset(atSecond: second)
        var ms = Double(second) * 1000
        while let next = nextTransition(afterMilliseconds: ms) {
            let at = Int((next / 1000).rounded(.down))
            let offset = totalOffset(atSecond: at)
            if offset != current { return at }
            current = offset
            ms = next
        }
        return nil
    }

    /// ICU's own resolution of a wall time with Herald's policy, in whole seconds.
    func resolve(_ local: LocalDateTime) -> Int? {
        var out = 0.0
        let status = hz_zone_resolve_local(
            pointer, Int32(local.year), Int32(local.month), Int32(local.day), Int32(local.hour),
            Int32(local.minute), Int32(local.second), &out)
        return status == Int32(HZ_OK) ? Int((out / 1000).rounded(.down)) : nil
    }
}
