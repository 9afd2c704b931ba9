#include "herald_message.h"
#include <unicode/uversion.h>
#include <cstring>

int32_t hm_icu_version(char *out, int32_t cap) {
    UVersionInfo v;
    u_getVersion(v);
    char buf[U_MAX_VERSION_STRING_LENGTH];
    u_versionToString(v, buf);
    int32_t n = (int32_t)std::strlen(buf);
    if (cap <= 0) return 0;
    if (n >= cap) n = cap - 1;
    std::memcpy(out, buf, (size_t)n);
    out[n] = 0;
    return n;
}
