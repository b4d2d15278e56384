/* The launch table of a reduce-overhead capture: what a replay walks.
 *
 * Every launch carries its kernel, a kernel context whose views already
 * point at their final memory (arena offsets resolved, views and in-place
 * outputs aliased, Tensor[] lists filled), its stream and the events it
 * waits for before running and records after. A replay does no lookup,
 * no allocation and no graph walk: per launch it waits, calls, records.
 *
 * Events are numbered 0..nevents-1; each is recorded exactly once per
 * replay (after a launch, or at the start of its stream when
 * record_after is none) and waited on exactly once. */
#ifndef AIRC_REPLAY_LAUNCH_H
#define AIRC_REPLAY_LAUNCH_H

#include "airc/kernel.h"
#include "core/core.h"
#include "ops/kernel.h"

typedef struct airc_launch {
    airc_kernel_fn fn;
    void *user_data;
    airc_kernel_ctx k;   /* node, op, bound arguments, views: all final */
    uint32_t stream;     /* 0 = main */
    uint32_t wait_first; /* waits[wait_first .. +nwait): events to wait for first */
    uint32_t nwait;
    uint32_t record_first; /* records[record_first .. +nrecord): events recorded
                              after */
    uint32_t nrecord;
    void *owner; /* the capture the launch belongs to */
} airc_launch;

typedef struct airc_launch_table {
    size_t nlaunches;
    airc_launch *launches;      /* global launch order (all streams interleaved) */
    uint32_t nstreams;          /* main included */
    const char **stream_labels; /* [0] = "main" */
    uint32_t nevents;
    uint32_t *waits;   /* event ids, by launch */
    uint32_t *records; /* event ids, by launch */
    /* events recorded at the start of a stream, before its first launch
     * (a fork from a main stream that has launched nothing yet) */
    uint32_t nstart_records;
    uint32_t *start_records;
    uint32_t *start_record_stream; /* the stream each is recorded on */
    /* events the main stream waits for before the outputs (joins, user
     * waits before the output) */
    uint32_t nout_waits;
    uint32_t *out_waits;
    /* per event: its kind (airc_stream_event_kind) and the streams */
    int32_t *event_kind;
    uint32_t *event_record_stream;
    uint32_t *event_wait_stream;
} airc_launch_table;

/* One traced replay: per launch, start and end in ns (CLOCK_MONOTONIC);
 * per event, when it was recorded and when its wait was satisfied. */
typedef struct airc_replay_trace {
    size_t nlaunches;
    uint64_t *start_ns;
    uint64_t *end_ns;
    uint32_t nevents;
    uint64_t *record_ns;
    uint64_t *wait_ns;
    uint64_t t0_ns; /* when the replay began (input copies included) */
} airc_replay_trace;

/* Writes `trace` of `table` as Chrome trace JSON (docs/replay.md). */
AIRC_HIDDEN airc_status airc_replay_trace_write(const airc_launch_table *table,
                                                const airc_replay_trace *trace, const char *path);

#endif
