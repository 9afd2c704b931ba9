#pragma once
#include <stdint.h>
#include <stdbool.h>
#ifdef __cplusplus
extern "C" {
#endif
/* ICU's time zone data version, e.g. "2026f". Returns the length written. */
int32_t hz_tzdata_version(char *out, int32_t cap);
#ifdef __cplusplus
}
#endif
