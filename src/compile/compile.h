/* Internal layout of a compiled graph (compile.c: creation, config,
 * queries; run.c: capture selection, replay, eager fallback, results). */
#ifndef AIRC_COMPILE_INTERNAL_H
#define AIRC_COMPILE_INTERNAL_H

#include "airc/compile.h"
#include "airc/runtime.h"
#include "backends/replay/capture.h"
#include "core/core.h"

#include <pthread.h>

#define AIRC_MAGIC_COMPILED 0x41430010u

enum { AIRC_COMPILED_EAGER = 0, AIRC_COMPILED_REDUCE_OVERHEAD = 1, AIRC_COMPILED_MAX_AUTOTUNE = 2 };

/* A constant's device copy (device runtimes). */
typedef struct airc_device_constant {
    const void *host;
    void *dev;
    size_t span;
} airc_device_constant;

struct airc_compiled {
    uint32_t magic;
    airc_context *ctx; /* one reference held */
    airc_graph *graph; /* after the pass pipeline */
    size_t nresults;
    int32_t mode;
    /* config */
    bool run_eagerly, clone_input, output_clone, share_arena;
    bool reinplace_inplaceable, reinplace_input_mutated, dce, remove_cat;
    int64_t capture_limit;
    bool dump;       /* reduce-overhead: the txt dump of each capture */
    const char *dump_type; /* max-autotune: "txt", "pbtxt", "pb" or NULL */
    char *dump_dir;
    /* debug.data_dump (run eagerly, saving every node's data): the folder
     * (NULL: off), the node-name filter, this object's dump name, runs */
    char *data_dump_path, *data_dump_filter;
    char data_dump_name[64];
    uint64_t data_dump_step;
    bool data_dump_inputs, data_dump_outputs;
    /* debug.fx_summary (max-autotune): the csv's folder (NULL: off);
     * skip_compile (no converter check, no lowering: every run is eager);
     * whether the csv is still to be written (by the first run, when
     * airc_compile did not know the inputs' signature) */
    char *fx_summary_dir;
    bool fx_summary_skip, fx_summary_pending;
    airc_config *config; /* a clone: graph options of the lowering */
    /* runtime */
    airc_runtime *rt, *own_rt;
    const airc_runtime_vtable *vt;
    void *rctx;
    const char *device;
    bool host;              /* device memory is host memory */
    bool cpu_inline;        /* the embedded CPU runtime: the fast driver */
    airc_stream_t *streams; /* [0] main (generic driver only), then side streams */
    uint32_t nstreams;
    /* inputs */
    size_t ninputs;
    bool *is_static, *is_mutated;
    airc_capture_sig *sigs; /* scratch of one run */
    bool *bound;
    const void **datas;
    airc_tview *views;
    const void **first_addr; /* clone_input off: the address captured first */
    /* captures */
    airc_capture **caps;
    uint8_t **cap_arena; /* per capture: its own arena when not shared */
    size_t ncaps, caps_cap;
    bool limit_reached;
    airc_capture *last;   /* the plan the last run used */
    airc_capture *traced; /* the plan of the last traced replay */
    uint8_t *arena;       /* the shared arena */
    uint64_t arena_bytes;
    void *dummy;
    /* device runtimes: device copies of the graph's constants, by their
     * host data (made at the first capture that needs them) */
    airc_device_constant *dev_consts;
    size_t ndev_consts, dev_consts_cap;
    uint32_t seq;
    /* results of the last run kept by c (output clones, eager fallback of
     * airc_compiled_run_views) */
    void **held;
    size_t nheld, held_cap;
    airc_tensor **held_tensors;
    size_t nheld_tensors;
    /* max-autotune: the model of the last signature lowered */
    uint8_t *model_bytes;
    size_t model_len;
    airc_graph *model_graph; /* raised back by the reference executor */
    airc_capture_sig *model_sigs;
    bool model_valid;
    uint64_t models;
    /* counters */
    uint64_t runs, captures, replays, fallbacks, input_copies;
    bool trace;
    pthread_mutex_t lock; /* one run at a time */
};

AIRC_HIDDEN airc_status airc_check_compiled(const airc_compiled *c, const char *fn);
/* max-autotune (autotune.c): lower c->sigs' signature to a ModelDef, read
 * it back into c->model_graph; whether the model is c->sigs'; free it. */
AIRC_HIDDEN airc_status airc_compiled_lower(airc_compiled *c);
/* debug.fx_summary (autotune.c): the csv of c->graph typed with c->sigs'
 * signature, into c->fx_summary_dir; clears c->fx_summary_pending. */
AIRC_HIDDEN airc_status airc_compiled_write_fx_summary(airc_compiled *c);
AIRC_HIDDEN bool airc_compiled_model_matches(const airc_compiled *c);
AIRC_HIDDEN void airc_compiled_free_model(airc_compiled *c);
AIRC_HIDDEN void airc_compiled_free_outputs(airc_compiled *c);
/* Frees every captured plan and the arena (their runtime objects too). */
AIRC_HIDDEN void airc_compiled_release_captures(airc_compiled *c);

#endif
