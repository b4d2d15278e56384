/* Offline memory planner of the reduce-overhead capture (issue 5): gives
 * every intermediate buffer of a launch table an offset in one arena, so that
 * buffers whose lifetimes do not overlap share bytes, and reports the three
 * numbers the issue names (naive bytes, liveness lower bound, arena).
 *
 * Model. Positions are indices in the global launch order (all streams
 * interleaved as captured). A buffer is live on the closed interval
 * [start, end] of positions, where
 *   start = min(first_use, fork)   end = max(last_use, join)
 * and, for a buffer touched by a side stream (stream != 0), a missing fork
 * means "from position 0" and a missing join "to the last position of the
 * plan": launch order says nothing about when a side stream runs, so only
 * the events that order it against the main stream bound its lifetime.
 * Without the fork, a side-stream buffer could take the bytes of a
 * main-stream buffer whose last reader has been launched but not run yet;
 * without the join, the main stream could reuse bytes a side-stream launch
 * still reads. The extension applies to same-stream pairs too (conservative:
 * one rule that is easy to check).
 *
 * Each buffer occupies [offset, offset + round_up(size, align)) and its
 * offset is a multiple of its alignment; the arena's base must be aligned to
 * the largest alignment (airc_mem_plan.arena_align). Views are not buffers:
 * the caller maps a view to its base, whose lifetime covers the view's uses.
 * Buffers the caller keeps outside the arena (graph inputs and outputs) are
 * flagged `unplanned`: they get AIRC_MEM_UNPLANNED and count nowhere.
 *
 * Results are deterministic: they depend only on the buffer list. */
#ifndef AIRC_MEMORY_PLAN_H
#define AIRC_MEMORY_PLAN_H

#include "core/core.h"

/* fork/join value meaning "no such event". */
#define AIRC_MEM_NO_EVENT UINT32_MAX
/* Offset given to unplanned buffers. */
#define AIRC_MEM_UNPLANNED UINT64_MAX
/* Alignment used when a buffer says 0: a cache line (AIRC_CPU_ALIGN). */
#define AIRC_MEM_DEFAULT_ALIGN 64u
/* Largest alignment accepted (keeps every rounding far from overflow). */
#define AIRC_MEM_MAX_ALIGN ((uint64_t)1 << 40)

typedef struct airc_mem_buffer {
    uint64_t size;      /* bytes; 0 is allowed (occupies nothing, offset 0) */
    uint64_t align;     /* power of two; 0 = AIRC_MEM_DEFAULT_ALIGN */
    uint32_t first_use; /* position of the launch that writes it first */
    uint32_t last_use;  /* position of its last reader; >= first_use */
    uint32_t stream;    /* 0: only main-stream launches touch it; else a side stream */
    uint32_t fork;      /* latest event the side stream waited for before first_use, or
                           AIRC_MEM_NO_EVENT */
    uint32_t join;      /* event joining the side stream back after last_use, or
                           AIRC_MEM_NO_EVENT */
    bool unplanned;     /* kept outside the arena (graph input/output) */
} airc_mem_buffer;

/* A buffer live on [first_use, last_use] of the main stream, default
 * alignment, no events. */
AIRC_HIDDEN airc_mem_buffer airc_mem_buffer_make(uint64_t size, uint32_t first_use,
                                                 uint32_t last_use);

/* Which heuristic produced the arena (the smallest of those tried wins; ties
 * go to the earlier one in this list). */
typedef enum airc_mem_strategy {
    AIRC_MEM_STRATEGY_SIZE_FIRST_FIT = 0,    /* largest first, lowest offset */
    AIRC_MEM_STRATEGY_SIZE_BEST_FIT = 1,     /* largest first, tightest gap */
    AIRC_MEM_STRATEGY_BREADTH_FIRST_FIT = 2, /* busiest position first, then size */
    AIRC_MEM_STRATEGY_BREADTH_BEST_FIT = 3,
    AIRC_MEM_STRATEGY_START_FIRST_FIT = 4, /* launch order (a linear scan), then size */
    AIRC_MEM_STRATEGY_START_BEST_FIT = 5,
    AIRC_MEM_STRATEGY_NAIVE = 6, /* every buffer its own slot (never worse than naive) */
    AIRC_MEM_STRATEGY_SEARCH = 7, /* size orders with random weights, while above the bound */
} airc_mem_strategy;

typedef struct airc_mem_plan {
    uint64_t arena_bytes;       /* size of the arena the offsets index */
    uint64_t naive_bytes;       /* sum over planned buffers of round_up(size, align) */
    uint64_t lower_bound_bytes; /* max over positions of that sum over buffers live there */
    uint64_t arena_align;       /* largest alignment of a planned buffer (1 when none) */
    size_t planned;             /* buffers given an arena offset */
    int32_t strategy;           /* airc_mem_strategy that won */
} airc_mem_plan;

/* Plans the arena of n buffers. offsets (n entries, caller-owned) receives
 * each buffer's offset (AIRC_MEM_UNPLANNED for unplanned ones); *out the
 * numbers. Scratch memory comes from ctx's allocator and is freed before
 * returning. Cost: O(n log n + sum over buffers of k log n), k the buffers
 * live beside it, for each of the six heuristics.
 * Returns AIRC_OK; AIRC_E_INVALID_ARGUMENT (NULL pointer with n > 0, a bad
 * alignment, first_use > last_use, a size or total that overflows 64 bits,
 * n >= 2^32 - 1), AIRC_E_OUT_OF_MEMORY. offsets and *out are untouched on
 * failure. Thread-safe for distinct outputs. */
AIRC_HIDDEN airc_status airc_memory_plan(airc_context *ctx, const airc_mem_buffer *bufs, size_t n,
                                         uint64_t *offsets, airc_mem_plan *out);

/* Checks a plan independently of the planner: every planned buffer aligned,
 * inside [0, arena_bytes), and no two planned buffers whose effective
 * lifetimes (the model above, side streams included) overlap share a byte;
 * unplanned buffers carry AIRC_MEM_UNPLANNED. Meant for tests and debug
 * builds of the capture.
 * Returns AIRC_OK; AIRC_E_INVALID_ARGUMENT with the offending buffers'
 * indices in the message (or a bad input as airc_memory_plan would report);
 * AIRC_E_OUT_OF_MEMORY. */
AIRC_HIDDEN airc_status airc_memory_plan_check(airc_context *ctx, const airc_mem_buffer *bufs,
                                               size_t n, const uint64_t *offsets,
                                               uint64_t arena_bytes);

/* Static name of a strategy ("size_first_fit", ...), "unknown" otherwise. */
AIRC_HIDDEN const char *airc_mem_strategy_name(int32_t strategy);

#endif
