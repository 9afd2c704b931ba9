#include "sha256_blocks.h"

#if defined(__x86_64__)

#include <cpuid.h>
#include <immintrin.h>

int herald_sha256_hardware_available(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    const int ssse3 = (ecx >> 9) & 1, sse41 = (ecx >> 19) & 1;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    const int sha = (ebx >> 29) & 1;
    return ssse3 && sse41 && sha;
}

/// The instructions keep the eight working variables in two registers, A B E F and C D G H, and take four
/// message words (plus constants) per two-round step; the message schedule is extended four words at a time.
__attribute__((target("sha,ssse3,sse4.1")))
void herald_sha256_hardware_blocks(
    uint32_t state[8], const void *blocks, size_t count, const uint32_t constants[64]) {
    // Each 32-bit word of the message is big-endian.
    const __m128i byteSwap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]);
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);

    for (size_t block = 0; block < count; block++) {
        const uint8_t *data = (const uint8_t *)blocks + 64 * block;
        const __m128i abefBefore = abef, cdghBefore = cdgh;
        __m128i words[4];
#pragma clang loop unroll(full)
        for (int group = 0; group < 16; group++) {
            __m128i next;
            if (group < 4) {
                next = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * group)), byteSwap);
            } else {
                // w[t] = w[t-16] + s0(w[t-15]) + w[t-7] + s1(w[t-2]), for four t at once.
                __m128i sum = _mm_sha256msg1_epu32(words[group & 3], words[(group + 1) & 3]);
                sum = _mm_add_epi32(sum, _mm_alignr_epi8(words[(group + 3) & 3], words[(group + 2) & 3], 4));
                next = _mm_sha256msg2_epu32(sum, words[(group + 3) & 3]);
            }
            words[group & 3] = next;
            __m128i input = _mm_add_epi32(next, _mm_loadu_si128((const __m128i *)&constants[4 * group]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, input);
            input = _mm_shuffle_epi32(input, 0x0E);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, input);
        }
        abef = _mm_add_epi32(abef, abefBefore);
        cdgh = _mm_add_epi32(cdgh, cdghBefore);
    }

    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    dcba = _mm_blend_epi16(feba, dchg, 0xF0);
    hgfe = _mm_alignr_epi8(dchg, feba, 8);
    _mm_storeu_si128((__m128i *)&state[0], dcba);
    _mm_storeu_si128((__m128i *)&state[4], hgfe);
}

#else

int herald_sha256_hardware_available(void) { return 0; }

/// Never called where `herald_sha256_hardware_available()` is 0; a call by mistake stops the process instead of
/// returning a wrong digest.
void herald_sha256_hardware_blocks(
    uint32_t state[8], const void *blocks, size_t count, const uint32_t constants[64]) {
    (void)state;
    (void)blocks;
    (void)count;
    (void)constants;
    __builtin_trap();
}

#endif
