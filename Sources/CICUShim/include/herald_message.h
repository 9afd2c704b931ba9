#pragma once
#include <stdint.h>
#include <stdbool.h>
#ifdef __cplusplus
extern "C" {
#endif
/* ICU's version, e.g. "72.1". Returns the length written. */
int32_t hm_icu_version(char *out, int32_t cap);
#ifdef __cplusplus
}
#endif
