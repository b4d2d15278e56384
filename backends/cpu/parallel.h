/* Intra-op parallelism for the CPU kernels: a range [0, n) split into
 * chunks that the calling thread and a process-wide pool of workers take
 * in turn. A kernel passes its budget, airc_kernel_ctx.num_threads (the CPU
 * runtime splits the machine between its busy streams); ranges too small
 * to pay for waking a worker run on the caller alone, and so does a call
 * made while another is using the pool (a second busy stream), so a kernel
 * never waits for the pool. The range function must not fail: kernels
 * check their arguments first, and a chunk that meets bad data records it
 * for the caller to report (see airc_ew's status). */
#ifndef AIRC_CPU_PARALLEL_H
#define AIRC_CPU_PARALLEL_H

#include "core/core.h"

/* fn(arg, begin, end) for disjoint [begin, end) covering [0, n); chunks
 * are at least `grain` long (the last may be shorter). */
typedef void (*airc_cpu_range_fn)(void *arg, int64_t begin, int64_t end);

AIRC_HIDDEN void airc_cpu_parallel_for(int32_t threads, int64_t n, int64_t grain,
                                       airc_cpu_range_fn fn, void *arg);

/* Items per chunk when each costs `item_cost` (elements, multiply-adds)
 * and a chunk should cost about `chunk_cost`: at least 1. */
static inline int64_t airc_cpu_grain(int64_t item_cost, int64_t chunk_cost)
{
    return item_cost >= chunk_cost ? 1 : chunk_cost / (item_cost > 0 ? item_cost : 1);
}

/* Elements below which an elementwise map stays on one thread: about
 * 20 us of the cheapest maps, more than a worker's wake-up costs. */
#define AIRC_CPU_GRAIN_EW ((int64_t)1 << 16)

#endif
