#include "herald_zone.h"
#include <unicode/ucal.h>
#include <cstring>

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
