#ifndef HERALD_SHA256_BLOCKS_H
#define HERALD_SHA256_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

/// Whether the processor runs SHA-256 rounds in hardware (x86-64: the SHA extensions, with SSSE3 and SSE4.1).
int herald_sha256_hardware_available(void);

/// Compresses `count` consecutive 64-byte blocks into `state` (H0 to H7, in order) with the processor's SHA-256
/// instructions; `constants` are the 64 round constants. Call only when `herald_sha256_hardware_available()`.
void herald_sha256_hardware_blocks(
    uint32_t state[8], const void *blocks, size_t count, const uint32_t constants[64]);

#endif
