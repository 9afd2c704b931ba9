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
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);
typedef int (*gettimeofday_fn)(struct timeval *, void *);

/*
 * Resolved once, as the library is loaded and before any thread of the process exists: looked up on a first call
 * from several threads at once, or read with getenv while a thread changes the environment, they could race. A
 * library initialized before this one that reads the clock from its own constructor gets it through the system
 * calls of `real_clock`, shifted all the same.
 */
static clock_gettime_fn real_clock_gettime;
static gettimeofday_fn real_gettimeofday;
static long shift;
static int shift_read;

static long shift_seconds(void) {
    if (!shift_read) {
        const char *text = getenv("CLOCK_SHIFT_SECONDS");
        shift = text ? strtol(text, NULL, 10) : 0;
        shift_read = 1;
    }
    return shift;
}

__attribute__((constructor)) static void resolve(void) {
    real_clock_gettime = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
    real_gettimeofday = (gettimeofday_fn)dlsym(RTLD_NEXT, "gettimeofday");
    shift_seconds();
}

/*
 * Before the constructor has run, or while dlsym itself runs in it (an allocator that reads the clock while dlsym
 * frees its own memory), the clocks are read by their system calls: looking the functions up from here would enter
 * dlsym again and free its memory twice.
 */
static int real_clock(clockid_t clock, struct timespec *now) {
    if (real_clock_gettime) return real_clock_gettime(clock, now);
    return (int)syscall(SYS_clock_gettime, clock, now);
}

/* Whether the code at `caller` belongs to a library that arms kernel timeouts with the wall clock it reads. */
static int keeps_real_clock(const void *caller) {
    Dl_info info;
    if (!dladdr(caller, &info) || !info.dli_fname) return 0;
    return strstr(info.dli_fname, "libdispatch") || strstr(info.dli_fname, "libswift_Concurrency")
        || strstr(info.dli_fname, "libnats");
}

static int shifted_clock_gettime(clockid_t clock, struct timespec *now, const void *caller) {
    int result = real_clock(clock, now);
    if (result == 0 && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE) && !keeps_real_clock(caller)) {
        now->tv_sec += shift_seconds();
    }
    return result;
}

int clock_gettime(clockid_t clock, struct timespec *now) {
    return shifted_clock_gettime(clock, now, __builtin_return_address(0));
}

int gettimeofday(struct timeval *now, void *zone) {
    int result = real_gettimeofday ? real_gettimeofday(now, zone) : (int)syscall(SYS_gettimeofday, now, zone);
    if (result == 0 && !keeps_real_clock(__builtin_return_address(0))) now->tv_sec += shift_seconds();
    return result;
}

time_t time(time_t *out) {
    struct timespec now;
    shifted_clock_gettime(CLOCK_REALTIME, &now, __builtin_return_address(0));
    if (out) *out = now.tv_sec;
    return now.tv_sec;
}
