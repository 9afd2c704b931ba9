/* Time zones through the system ICU, behind opaque handles.
 * No ICU header or type is reachable from here (see CICUShim.h). Strings are UTF-8, NUL-terminated.
 * Instants are milliseconds since 1970-01-01T00:00:00Z as doubles, exactly as ICU's UDate. */
#pragma once
#include <stdint.h>
#include <stdbool.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Status codes of the hz_ functions. */
enum {
    HZ_OK = 0,
    HZ_UNKNOWN_ZONE = 1,      /* the id is not in ICU's zone data (or is Etc/Unknown / Factory) */
    HZ_ICU_ERROR = 2,         /* ICU reported a failure */
    HZ_BUFFER_TOO_SMALL = 3,  /* the output buffer was too small; nothing useful was written */
    HZ_NO_TRANSITION = 4      /* the zone has no later transition */
};

/* A zone opened for queries. Not thread-safe: one handle serves one thread at a time. */
typedef struct hz_zone hz_zone;

/* ICU's time zone data version, e.g. "2025b". Returns the length written (0 on failure). */
int32_t hz_tzdata_version(char *out, int32_t cap);

/* The IANA canonical id of `id` (links followed in ICU's loaded zoneinfo64 data).
 * Returns HZ_OK, HZ_UNKNOWN_ZONE or HZ_BUFFER_TOO_SMALL. */
int32_t hz_zone_canonical_id(const char *id, char *out, int32_t cap);

/* Opens the zone named `id` (aliases accepted, the zone is opened under its canonical id).
 * Returns NULL and sets *status to HZ_UNKNOWN_ZONE or HZ_ICU_ERROR on failure. */
hz_zone *hz_zone_open(const char *id, int32_t *status);

/* Closes a handle from hz_zone_open; NULL is ignored. */
void hz_zone_close(hz_zone *zone);

/* The offsets in effect at `utc_ms`: raw (standard) and DST parts in milliseconds. Returns a status. */
int32_t hz_zone_offset(hz_zone *zone, double utc_ms, int32_t *raw_ms, int32_t *dst_ms);

/* The first transition strictly after `utc_ms` as ICU reports it (it may leave the total offset unchanged
 * when only the raw/DST split changes). Returns HZ_OK, HZ_NO_TRANSITION or HZ_ICU_ERROR. */
int32_t hz_zone_next_transition(hz_zone *zone, double utc_ms, double *out_ms);

/* The instant of a local wall time (month 1-12) by Herald's policy: a skipped time resolves to the first valid
 * instant after the gap (ICU UCAL_WALLTIME_NEXT_VALID), a repeated one to its first occurrence
 * (UCAL_WALLTIME_FIRST). Fields must form a valid date; ICU would otherwise roll them over. */
int32_t hz_zone_resolve_local(hz_zone *zone, int32_t year, int32_t month, int32_t day, int32_t hour,
                              int32_t minute, int32_t second, double *out_ms);

/* All ids in ICU's zone data ('\n'-separated, sorted), without Etc/Unknown and Factory. With canonical_only,
 * links are left out. Returns the byte length needed (without a terminator); writes only when it fits in cap. */
int32_t hz_zone_ids(bool canonical_only, char *out, int32_t cap);

#ifdef __cplusplus
}
#endif
