/* A reduce-overhead capture: one input signature of a compiled graph turned
 * into a launch table over a planned arena (docs/replay.md).
 *
 * airc_capture_build clones the compiled graph, gives its placeholders the
 * signature's meta, propagates meta, runs the backend passes (event_closure
 * and record_insertion = the stream plan, dce, reinplace, memory_plan) and
 * resolves every launch's views against an arena base. View ops are
 * resolved at capture (their kernels only compute a pointer) and do not
 * appear in the table. airc_capture_replay (replay.c) walks the table. */
#ifndef AIRC_REPLAY_CAPTURE_H
#define AIRC_REPLAY_CAPTURE_H

#include "airc/runtime.h"
#include "backends/replay/launch.h"
#include "backends/replay/memory_plan.h"

#include <stdatomic.h>

/* How a graph input reaches the table. */
enum {
    AIRC_CAPTURE_INPUT_COPY = 0, /* copied into its captured buffer (arena) */
    AIRC_CAPTURE_INPUT_BOUND = 1 /* the caller's memory is captured (static,
                                    mutated, or clone_input off) */
};

typedef struct airc_capture_input {
    int32_t kind;
    airc_tview view; /* captured: data = its buffer (COPY) or the caller's address */
    size_t span;     /* bytes the view spans */
} airc_capture_input;

/* An input's part of the graph key. */
typedef struct airc_capture_sig {
    airc_dtype dtype;
    int32_t ndim;
    int64_t shape[AIRC_MAX_DIMS];
    int64_t strides[AIRC_MAX_DIMS];
    const void *addr; /* static / mutated inputs only; NULL otherwise */
    bool bound;       /* used at its address (BOUND), not copied (COPY) */
} airc_capture_sig;

/* What the compiled object tells the capture. */
typedef struct airc_capture_params {
    const airc_graph *graph;       /* the compiled graph (after the pass pipeline) */
    const airc_capture_sig *sigs;  /* one per placeholder */
    const void *const *input_data; /* the inputs of the capturing run (BOUND inputs) */
    const bool *bound;             /* per input: BOUND instead of COPY */
    /* per input (or NULL): the caller copies it back after each replay (a
     * mutated input on a device runtime), so a COPY buffer lives to the end */
    const bool *write_back;
    size_t ninputs;
    const char *device;
    bool reinplace_inplaceable;
    bool reinplace_input_mutated;
    bool dce;
    bool remove_cat; /* debug.aclgraph.remove_cat_ops (cat_fusion.h) */
    bool verify; /* check the stream and memory plans (tests, debug builds) */
    /* Called once the plan is known: the arena base for `bytes` (at least
     * 1) aligned to `align`, valid while the capture is used. */
    airc_status (*arena)(void *user, uint64_t bytes, uint64_t align, uint8_t **base);
    void *arena_user;
    /* The dummy data air.record results point at (never read). */
    void *dummy;
    /* Device runtimes: the device copy of a constant (get_attr) whose host
     * data is `data`, `span` bytes, valid while the capture is used. NULL
     * on a host runtime: constants are used in place. */
    airc_status (*constant)(void *user, const airc_node *n, const void *data, size_t span,
                            void **out);
    void *constant_user;
} airc_capture_params;

typedef struct airc_capture {
    airc_context *ctx;
    airc_graph *graph; /* the clone after the backend passes (owned) */
    airc_arena mem;    /* the table, views, lists: everything below */
    airc_launch_table table;
    size_t ninputs;
    airc_capture_input *inputs;
    airc_capture_sig *sigs;
    uint64_t key;
    size_t noutputs;
    const airc_tview **outputs; /* flattened results */
    /* views whose data lies in the arena: rebased when the arena moves */
    airc_tview **slots;
    size_t nslots;
    uint8_t *base; /* arena base the views are resolved against */
    airc_mem_plan plan;
    uint64_t arena_bytes;    /* = plan.arena_bytes */
    int32_t *stream_threads; /* per stream */
    /* replay state */
    _Atomic uint32_t *ev_seq; /* per event: the replay sequence that recorded it */
    _Atomic uint32_t *ev_sleepers;
    airc_event_t *rt_events;    /* runtime events (generic driver), nevents */
    airc_native_graph_t native; /* native capture (generic driver), when the runtime has one */
    bool native_done;
    uint32_t **stream_launches; /* per stream: indices of its launches, in order */
    uint32_t *stream_nlaunches;
    atomic_int failed;
    airc_status fail_code;
    char fail_msg[1024];
    airc_replay_trace trace;
    bool traced; /* trace holds a replay */
} airc_capture;

/* Builds a capture, its views resolved against the base p->arena gives.
 * On failure *out is NULL and nothing leaks. */
AIRC_HIDDEN airc_status airc_capture_build(airc_context *ctx, const airc_capture_params *p,
                                           airc_capture **out);
AIRC_HIDDEN void airc_capture_free(airc_capture *c);
/* Points every arena view at `base` instead of c->base. */
AIRC_HIDDEN void airc_capture_rebase(airc_capture *c, uint8_t *base);
/* The graph key of a signature (xxhash). */
AIRC_HIDDEN uint64_t airc_capture_key(const airc_capture_sig *sigs, size_t n);
/* True when c was captured for exactly these signatures. */
AIRC_HIDDEN bool airc_capture_matches(const airc_capture *c, uint64_t key,
                                      const airc_capture_sig *sigs, size_t n);

/* The replay drivers (replay.c). `rt_streams`: the runtime's streams for
 * streams 1.. of the table (and [0] for the generic driver's main stream).
 * Inputs are the run's views; copies are counted in *copies. */
typedef struct airc_replay_env {
    const airc_runtime_vtable *vt;
    void *rctx;
    bool cpu_inline;        /* the embedded CPU runtime: run the main stream on this
                               thread */
    airc_stream_t *streams; /* nstreams entries ([0] unused when cpu_inline) */
    uint32_t seq;           /* this replay's sequence number (never 0) */
    bool trace;
    int32_t copy_kind; /* AIRC_COPY_* of the input copies (generic driver) */
} airc_replay_env;
AIRC_HIDDEN airc_status airc_capture_replay(airc_capture *c, const airc_replay_env *env,
                                            const airc_tview *inputs, uint64_t *copies);
/* Prepares the runtime objects the generic driver needs (events). */
AIRC_HIDDEN airc_status airc_capture_prepare_runtime(airc_capture *c, const airc_replay_env *env);
/* Forgets the native graph (its addresses are stale once the arena moved):
 * the next replay captures it again. */
AIRC_HIDDEN void airc_capture_drop_native(airc_capture *c, const airc_runtime_vtable *vt,
                                          void *rctx);
AIRC_HIDDEN void airc_capture_release_runtime(airc_capture *c, const airc_runtime_vtable *vt,
                                              void *rctx);

#endif
