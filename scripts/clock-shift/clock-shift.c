/*
 * Moves the wall clock of a process tree by CLOCK_SHIFT_SECONDS, for test runs that must hold on any date.
 *
 * Preloaded (LD_PRELOAD) into the test runner, which passes it on to the PostgreSQL servers and herald binaries
 * it starts, so every process reads the same shifted wall clock. Only wall-clock reads move: CLOCK_REALTIME and
 * its coarse variant, gettimeofday and time. Monotonic and boot-time clocks stay real, and so does the wall clock
 * read by the libraries that turn it into kernel timeouts (the scheduler of Swift's concurrency runtime,
 * libdispatch, and libnats's timed waits): sleeps, timers and deadlines wait exactly as long as they asked to.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);
#include <string.h>
typedef int (*gettimeofday_fn)(struct timeval *, void *);

static long shift_seconds(void) {
    static long shift = -1;
    static int known = 0;
    if (!known) {
        const char *text = getenv("CLOCK_SHIFT_SECONDS");
        shift = text ? strtol(text, NULL, 10) : 0;
        known = 1;
    }
    return shift;
}

/* Whether the code at `caller` belongs to a library that arms kernel timeouts with the wall clock it reads. */
static int keeps_real_clock(const void *caller) {
    Dl_info info;
    if (!dladdr(caller, &info) || !info.dli_fname) return 0;
    return strstr(info.dli_fname, "libdispatch") || strstr(info.dli_fname, "libswift_Concurrency")
        || strstr(info.dli_fname, "libnats");
}

static int shifted_clock_gettime(clockid_t clock, struct timespec *now, const void *caller) {
    static clock_gettime_fn real;
    if (!real) real = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
    int result = real(clock, now);
    if (result == 0 && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE) && !keeps_real_clock(caller)) {
        now->tv_sec += shift_seconds();
    }
    return result;
}

int clock_gettime(clockid_t clock, struct timespec *now) {
    return shifted_clock_gettime(clock, now, __builtin_return_address(0));
}

int gettimeofday(struct timeval *now, void *zone) {
    static gettimeofday_fn real;
    if (!real) real = (gettimeofday_fn)dlsym(RTLD_NEXT, "gettimeofday");
    int result = real(now, zone);
    if (result == 0 && !keeps_real_clock(__builtin_return_address(0))) now->tv_sec += shift_seconds();
    return result;
}

time_t time(time_t *out) {
    struct timespec now;
    shifted_clock_gettime(CLOCK_REALTIME, &now, __builtin_return_address(0));
    if (out) *out = now.tv_sec;
    return now.tv_sec;
}
