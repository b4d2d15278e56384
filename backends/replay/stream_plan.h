/* Stream assignment and event insertion of the reduce-overhead capture
 * (issue 5): which stream each node runs on, and which events order the
 * streams, as the launch table will need them. docs/replay.md states the
 * rules; in short:
 *  - stream 0 is the main stream; a scope opened by air.scope_enter whose
 *    keys hold `_user_stream_label` runs on the stream of that label (one id
 *    per distinct label, numbered from 1 in order of first appearance); the
 *    innermost labelled scope wins, unlabelled scopes inherit;
 *  - only compute nodes are launched: placeholder, get_attr, output,
 *    operator.getitem and every air.* op are not;
 *  - fork: before a side-stream launch, that stream waits for the main
 *    stream's last earlier launch (skipped when it already has);
 *  - data: a launch reading a value produced on another stream waits for an
 *    event recorded right after the producer, unless the consumer's stream
 *    already waited for that producer stream at or after that position;
 *  - user: air.record marks the last launch issued so far on its stream;
 *    air.wait makes its stream wait for those marks before its next launch
 *    (always emitted; they also count as waits for the deduplication);
 *  - join: before the output, the main stream waits for every side stream's
 *    last launch (always emitted, one per side stream that launched).
 *
 * Positions are node indices in graph order (the global launch order, all
 * streams interleaved). A plan keeps pointers into the graph: it is valid
 * until the graph is edited or destroyed. */
#ifndef AIRC_STREAM_PLAN_H
#define AIRC_STREAM_PLAN_H

#include "backends/replay/memory_plan.h"
#include "core/core.h"

/* "No such node/position": an event recorded before any launch on its stream. */
#define AIRC_STREAM_NONE UINT32_MAX
/* Scopes nest at most this deep (the linter's limit). */
#define AIRC_STREAM_MAX_SCOPE_DEPTH 64

typedef enum airc_stream_event_kind {
    AIRC_STREAM_EVENT_FORK = 0, /* side stream waits for the main stream's earlier work */
    AIRC_STREAM_EVENT_DATA = 1, /* a data dependency across streams */
    AIRC_STREAM_EVENT_USER = 2, /* an air.record waited on by an air.wait */
    AIRC_STREAM_EVENT_JOIN = 3  /* main stream waits for a side stream before the output */
} airc_stream_event_kind;

typedef struct airc_stream_event {
    uint32_t record_stream; /* S */
    uint32_t record_after;  /* position of the launch on S it follows; AIRC_STREAM_NONE:
                               before any launch on S */
    uint32_t wait_stream;   /* T (!= S) */
    uint32_t wait_before;   /* position of the launch on T (or the output node) it precedes */
    int32_t kind;           /* airc_stream_event_kind */
    uint32_t origin;        /* USER: position of the air.record node; DATA: of the producer
                               as read (may be a getitem); else AIRC_STREAM_NONE */
} airc_stream_event;

typedef struct airc_stream_node {
    const airc_node *node;
    uint32_t stream;
    bool launched;
} airc_stream_node;

typedef struct airc_stream_plan {
    airc_context *ctx;
    const airc_graph *graph;
    uint32_t nnodes;
    airc_stream_node *nodes; /* by position */
    uint32_t *pos_of_id;     /* node id -> position (AIRC_STREAM_NONE: not in the plan) */
    uint32_t nids;
    uint32_t nstreams;       /* main included */
    const char **labels;     /* nstreams entries; labels[0] = "main"; others point into
                                the graph's arena */
    uint32_t output;         /* position of the output node */
    size_t nevents;
    airc_stream_event *events; /* ordered by wait_before (launch-table order) */
} airc_stream_plan;

/* Builds the plan of g (after passes, lint-clean). *out is written only on
 * success; free it with airc_stream_plan_free. Memory from g's context.
 * Returns AIRC_OK; AIRC_E_INVALID_GRAPH (unpaired or too deeply nested
 * scopes, a malformed scope_enter, no output node, too many nodes);
 * AIRC_E_MISUSE (bad handle); AIRC_E_OUT_OF_MEMORY. */
AIRC_HIDDEN airc_status airc_stream_plan_build(const airc_graph *g, airc_stream_plan *out);
/* Frees what build allocated; the struct is zeroed. NULL-safe, idempotent. */
AIRC_HIDDEN void airc_stream_plan_free(airc_stream_plan *plan);

/* Position of n in the plan, AIRC_STREAM_NONE when n is not in it. */
AIRC_HIDDEN uint32_t airc_stream_plan_position(const airc_stream_plan *plan, const airc_node *n);

/* Effective lifetime of the buffer `producer` writes and `consumers` read
 * (views already mapped to it by the caller), in the memory planner's terms:
 * first_use/last_use positions; stream = the first side stream touching it
 * (0 when only the main stream does); fork = one past the main-stream
 * position the producer's side stream last waited for before the producer
 * (the producer's own position when it runs on main); join = the earliest
 * main-stream wait covering the last side-stream touch (a direct event from
 * that stream). Only those five fields of *out are written (size, align,
 * unplanned stay as the caller set them), and only on success.
 * Returns AIRC_OK; AIRC_E_INVALID_ARGUMENT (a node not in the plan, NULL). */
AIRC_HIDDEN airc_status airc_stream_plan_lifetime(const airc_stream_plan *plan,
                                                  const airc_node *producer,
                                                  const airc_node *const *consumers,
                                                  size_t nconsumers, airc_mem_buffer *out);

/* Checks a plan against its graph independently of the builder: node list
 * matches the graph; every event is well formed (streams in range, recorded
 * after a launch of its record stream, waited before a launch of its wait
 * stream or the output, recorded before it is waited); and, following the
 * events transitively (vector clocks over the launch order), every data edge
 * between launches on different streams is ordered, every side-stream launch
 * follows the main stream's earlier launches, and every side stream is
 * joined before the output.
 * Returns AIRC_OK; AIRC_E_INVALID_GRAPH naming the unordered pair or the bad
 * event; AIRC_E_OUT_OF_MEMORY. */
AIRC_HIDDEN airc_status airc_stream_plan_check(const airc_graph *g, const airc_stream_plan *plan);

/* Static name of an event kind ("fork", "data", "user", "join"), "unknown". */
AIRC_HIDDEN const char *airc_stream_event_kind_name(int32_t kind);

#endif
