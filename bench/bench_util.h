/* Helpers shared by the benchmark programs: a monotonic clock and fatal
 * API errors (a benchmark stops at the first failure). Each program
 * defines BENCH_NAME before including this. */
#ifndef AIRC_BENCH_UTIL_H
#define AIRC_BENCH_UTIL_H

#include <airc/airc.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline void die(const char *what)
{
    fprintf(stderr, "%s: %s failed: %s (%s)\n", BENCH_NAME, what, airc_last_error(),
            airc_status_name(airc_last_error_code()));
    exit(1);
}

#define CHECK(call, what)                                                                          \
    do {                                                                                           \
        if ((call) != AIRC_OK)                                                                     \
            die(what);                                                                             \
    } while (0)

#endif
