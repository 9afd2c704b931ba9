// Time zone queries over the system ICU (C API only), behind the opaque hz_ facade of herald_zone.h.
#include "herald_zone.h"

#include <unicode/ucal.h>
#include <unicode/ures.h>
#include <unicode/ustring.h>

#include <cstring>
#include <string>
#include <vector>

struct hz_zone {
    UCalendar *calendar;
};

namespace {

// ICU answers these ids, but to Herald they mean "no zone": both are plain UTC in disguise.
bool isRejectedId(const std::string &id) { return id == "Etc/Unknown" || id == "Factory"; }

int32_t copyOut(const std::string &value, char *out, int32_t cap) {
    if ((int32_t)value.size() >= cap) return HZ_BUFFER_TOO_SMALL;
    std::memcpy(out, value.data(), value.size());
    out[value.size()] = 0;
    return HZ_OK;
}

std::string toUTF8(const UChar *text, int32_t length) {
    std::string result;
    result.reserve((size_t)length);
    for (int32_t i = 0; i < length; i++) result.push_back((char)text[i]);  // zone ids are ASCII
    return result;
}

// The loaded zoneinfo64 bundle (the file from ICU_TIMEZONE_FILES_DIR when set), opened for one lookup.
class ZoneTable {
  public:
    ZoneTable() {
        UErrorCode st = U_ZERO_ERROR;
        top_ = ures_openDirect(nullptr, "zoneinfo64", &st);
        if (U_SUCCESS(st)) names_ = ures_getByKey(top_, "Names", nullptr, &st);
        if (U_SUCCESS(st)) zones_ = ures_getByKey(top_, "Zones", nullptr, &st);
        ok_ = U_SUCCESS(st);
    }
    ~ZoneTable() {
        if (zones_) ures_close(zones_);
        if (names_) ures_close(names_);
        if (top_) ures_close(top_);
    }
    bool ok() const { return ok_; }
    int32_t count() const { return ures_getSize(names_); }

    std::string name(int32_t index) const {
        UErrorCode st = U_ZERO_ERROR;
        int32_t len = 0;
        const UChar *s = ures_getStringByIndex(names_, index, &len, &st);
        return U_SUCCESS(st) ? toUTF8(s, len) : std::string();
    }

    // Names are sorted by code unit, which for ASCII ids is byte order.
    int32_t find(const std::string &id) const {
        int32_t lo = 0, hi = count() - 1;
        while (lo <= hi) {
            int32_t mid = (lo + hi) / 2;
            int c = name(mid).compare(id);
            if (c == 0) return mid;
            if (c < 0) lo = mid + 1; else hi = mid - 1;
        }
        return -1;
    }

    // A link's entry in Zones is an int: the index of its target.
    int32_t target(int32_t index) const {
        UErrorCode st = U_ZERO_ERROR;
        UResourceBundle *entry = ures_getByIndex(zones_, index, nullptr, &st);
        int32_t result = index;
        if (U_SUCCESS(st) && ures_getType(entry) == URES_INT) result = ures_getInt(entry, &st);
        if (entry) ures_close(entry);
        return U_SUCCESS(st) ? result : -1;
    }

  private:
    UResourceBundle *top_ = nullptr;
    UResourceBundle *names_ = nullptr;
    UResourceBundle *zones_ = nullptr;
    bool ok_ = false;
};

int32_t canonical(const char *id, std::string &result) {
    std::string key(id);
    if (isRejectedId(key)) return HZ_UNKNOWN_ZONE;
    ZoneTable table;
    if (!table.ok()) return HZ_ICU_ERROR;
    int32_t index = table.find(key);
    if (index < 0) return HZ_UNKNOWN_ZONE;
    int32_t target = table.target(index);
    if (target < 0) return HZ_ICU_ERROR;
    result = table.name(target);
    return isRejectedId(result) ? HZ_UNKNOWN_ZONE : HZ_OK;
}

}  // namespace

int32_t hz_tzdata_version(char *out, int32_t cap) {
    UErrorCode st = U_ZERO_ERROR;
    const char *v = ucal_getTZDataVersion(&st);
    if (U_FAILURE(st) || v == nullptr || cap <= 0) return 0;
    int32_t n = (int32_t)std::strlen(v);
    if (n >= cap) n = cap - 1;
    std::memcpy(out, v, (size_t)n);
    out[n] = 0;
    return n;
}

int32_t hz_zone_canonical_id(const char *id, char *out, int32_t cap) {
    std::string result;
    int32_t status = canonical(id, result);
    return status == HZ_OK ? copyOut(result, out, cap) : status;
}

hz_zone *hz_zone_open(const char *id, int32_t *status) {
    std::string name;
    *status = canonical(id, name);
    if (*status != HZ_OK) return nullptr;
    std::vector<UChar> wide(name.begin(), name.end());
    UErrorCode st = U_ZERO_ERROR;
    UCalendar *cal = ucal_open(wide.data(), (int32_t)wide.size(), "en_US_POSIX", UCAL_GREGORIAN, &st);
    if (U_FAILURE(st) || cal == nullptr) {
        *status = HZ_ICU_ERROR;
        return nullptr;
    }
    // ICU opens unknown ids as Etc/Unknown without an error; make sure the zone is the one asked for.
    UChar got[128];
    int32_t len = ucal_getTimeZoneID(cal, got, 128, &st);
    if (U_FAILURE(st) || toUTF8(got, len) != name) {
        ucal_close(cal);
        *status = HZ_UNKNOWN_ZONE;
        return nullptr;
    }
    // Herald's wall-time policy, set once per handle.
    ucal_setAttribute(cal, UCAL_REPEATED_WALL_TIME, UCAL_WALLTIME_FIRST);
    ucal_setAttribute(cal, UCAL_SKIPPED_WALL_TIME, UCAL_WALLTIME_NEXT_VALID);
    ucal_setAttribute(cal, UCAL_LENIENT, 1);
    return new hz_zone{cal};
}

void hz_zone_close(hz_zone *zone) {
    if (zone == nullptr) return;
    ucal_close(zone->calendar);
    delete zone;
}

int32_t hz_zone_offset(hz_zone *zone, double utc_ms, int32_t *raw_ms, int32_t *dst_ms) {
    UErrorCode st = U_ZERO_ERROR;
    ucal_setMillis(zone->calendar, utc_ms, &st);
    int32_t raw = ucal_get(zone->calendar, UCAL_ZONE_OFFSET, &st);
    int32_t dst = ucal_get(zone->calendar, UCAL_DST_OFFSET, &st);
    if (U_FAILURE(st)) return HZ_ICU_ERROR;
    *raw_ms = raw;
    *dst_ms = dst;
    return HZ_OK;
}

int32_t hz_zone_next_transition(hz_zone *zone, double utc_ms, double *out_ms) {
    UErrorCode st = U_ZERO_ERROR;
    ucal_setMillis(zone->calendar, utc_ms, &st);
    if (U_FAILURE(st)) return HZ_ICU_ERROR;
    UDate next = 0;
    UBool found = ucal_getTimeZoneTransitionDate(zone->calendar, UCAL_TZ_TRANSITION_NEXT, &next, &st);
    if (U_FAILURE(st)) return HZ_ICU_ERROR;
    if (!found) return HZ_NO_TRANSITION;
    *out_ms = next;
    return HZ_OK;
}

int32_t hz_zone_resolve_local(hz_zone *zone, int32_t year, int32_t month, int32_t day, int32_t hour,
                              int32_t minute, int32_t second, double *out_ms) {
    UErrorCode st = U_ZERO_ERROR;
    ucal_clear(zone->calendar);
    ucal_setDateTime(zone->calendar, year, month - 1, day, hour, minute, second, &st);
    UDate millis = ucal_getMillis(zone->calendar, &st);
    if (U_FAILURE(st)) return HZ_ICU_ERROR;
    *out_ms = millis;
    return HZ_OK;
}

int32_t hz_zone_ids(bool canonical_only, char *out, int32_t cap) {
    ZoneTable table;
    if (!table.ok()) return 0;
    std::string joined;
    int32_t n = table.count();
    for (int32_t i = 0; i < n; i++) {
        if (canonical_only && table.target(i) != i) continue;
        std::string name = table.name(i);
        if (isRejectedId(name)) continue;
        if (!joined.empty()) joined.push_back('\n');
        joined += name;
    }
    if ((int32_t)joined.size() <= cap) std::memcpy(out, joined.data(), joined.size());
    return (int32_t)joined.size();
}
