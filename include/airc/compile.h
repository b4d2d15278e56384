/* airc — compiling a graph and running the result (part of the public API;
 * included by airc/airc.h).
 *
 *     airc_compile_options o;
 *     airc_compile_options_init(&o);
 *     o.config = cfg;                      // mode, debug.aclgraph.*, ...
 *     airc_compiled *c;
 *     airc_compile(g, &o, &c);
 *     airc_compiled_run(c, inputs, n, outs, cap, &nout);   // captures, then
 * replays
 *     ...
 *     airc_compiled_destroy(c);
 *
 * Modes (config `mode`): `reduce-overhead` (the default) captures a launch
 * table per input signature and replays it (docs/replay.md); `eager` runs
 * the compiled graph node by node (airc_run_eager); `max-autotune` lowers it
 * to Ascend IR (a GE ModelDef, airc_compiled_model) per input signature and
 * runs that model through the reference executor (docs/ascend-ir.md).
 * `debug.run_eagerly` runs any mode eagerly. */
#ifndef AIRC_COMPILE_H
#define AIRC_COMPILE_H

#include "airc/airc.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct airc_compiled airc_compiled;
typedef struct airc_runtime airc_runtime;
typedef struct airc_pass_manager airc_pass_manager;
typedef struct airc_example_inputs airc_example_inputs;
typedef struct airc_tview airc_tview; /* airc/kernel.h */

/** What airc_compile takes besides the graph. Fill with
 *  airc_compile_options_init, then set what you need. Everything is
 *  borrowed for the call only, except the runtime, which must outlive the
 *  compiled object. */
typedef struct airc_compile_options {
    size_t struct_size;
    const airc_config *config; /* NULL: defaults (mode reduce-overhead) */
    /* Meta of the graph inputs for the passes (TorchAir's example_inputs);
     * NULL: the placeholders' own meta, when they have it. */
    const airc_example_inputs *example_inputs;
    airc_pass_manager *pre_passes;  /* post_grad_custom_pre_pass, or NULL */
    airc_pass_manager *post_passes; /* post_grad_custom_post_pass, or NULL */
    /* The runtime to run on (its device type must be the config's `device`
     * when the config sets one). NULL: one owned by the compiled object for
     * the config's `device`: the embedded CPU runtime (`cpu`, the default,
     * default options) or the CUDA runtime on device 0 (`cuda`); `npu`
     * needs a runtime here. */
    airc_runtime *runtime;
    /* Static inputs (weights; TorchAir's parameters / static inputs):
     * indices of graph inputs never copied before a replay. Their addresses
     * are part of the graph key: a new address captures anew. */
    const size_t *static_inputs;
    size_t nstatic_inputs;
} airc_compile_options;

AIRC_API void airc_compile_options_init(airc_compile_options *opts);

/** Compiles g: a clone of g goes through the pass pipeline
 *  (airc_run_pipeline: pre-passes, built-in passes, post-passes,
 *  validation); g itself is never modified. Capture (reduce-overhead)
 *  happens at the first run with each input signature.
 *  Constants bound to g (airc_graph_set_constant) are shared with the
 *  compiled object, which holds a reference to g's context.
 *  @return AIRC_OK; AIRC_E_MISUSE (bad handle); AIRC_E_INVALID_ARGUMENT
 *          (opts, a static input index out of range); AIRC_E_PASS /
 *          AIRC_E_INVALID_GRAPH (see airc_run_pipeline); AIRC_E_SHAPE;
 *          AIRC_E_UNSUPPORTED (an op without an Ascend IR converter, in
 *          max-autotune with example inputs; device `cuda` without a
 *          usable GPU or a CUDA build, `npu` without opts.runtime);
 *          AIRC_E_INVALID_ARGUMENT also when opts.runtime is not of the
 *          config's device;
 *          AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_compile(const airc_graph *g, const airc_compile_options *opts,
                                  airc_compiled **out);
/** NULL is a no-op. Waits for nothing: no run may be in progress. */
AIRC_API void airc_compiled_destroy(airc_compiled *c);

/** Runs the compiled graph on host tensors (one per placeholder, any
 *  contiguous tensors of the captured dtypes; shapes may change: a new
 *  shape captures anew). Results are returned as new tensor handles the
 *  caller destroys. In reduce-overhead, a contiguous result's data lives
 *  in the compiled object's arena and stays valid until the next run of c
 *  (or until c dies) unless `debug.aclgraph.enable_output_clone` is on, in
 *  which case (and for non-contiguous results) the data is copied.
 *  On a device runtime (not "cpu") every input is copied to the device
 *  before the run, static ones too, and the inputs the graph writes are
 *  copied back into the caller's tensors after it (docs/replay.md).
 *  Calls on one compiled object are serialized: a second thread calling
 *  while a run is in progress waits for it.
 *  @return AIRC_OK; AIRC_E_MISUSE; AIRC_E_INVALID_ARGUMENT (count, dtype,
 *          outputs_cap too small: the message says which); AIRC_E_SHAPE;
 *          a kernel's status with "node 'x': " in front of its message;
 *          AIRC_E_RUNTIME; AIRC_E_OUT_OF_MEMORY. On failure no result is
 *          returned and the next run captures or replays afresh. */
AIRC_API airc_status airc_compiled_run(airc_compiled *c, airc_tensor *const *inputs, size_t ninputs,
                                       airc_tensor **outputs, size_t outputs_cap, size_t *noutputs);

/** The allocation-free form: inputs and results as strided views of the
 *  runtime's memory (host memory on the CPU runtime). A result view points
 *  into the arena (valid until the next run), into an input, or into a
 *  constant; with `enable_output_clone` into per-result buffers of c that
 *  the next run overwrites too. An input whose data is the captured
 *  buffer (airc_compiled_input_buffer) is not copied. */
AIRC_API airc_status airc_compiled_run_views(airc_compiled *c, const airc_tview *inputs,
                                             size_t ninputs, airc_tview *outputs,
                                             size_t outputs_cap, size_t *noutputs);

/** The buffer input i is copied into before a replay of the plan the last
 *  run used (NULL when that input is not copied: static, mutated, or no
 *  plan yet). Writing the next input there and passing that address
 *  skips the copy. */
AIRC_API void *airc_compiled_input_buffer(const airc_compiled *c, size_t i);

/** max-autotune: the serialized GE ModelDef (Ascend IR) of the last input
 *  signature lowered — at airc_compile when example inputs were given,
 *  else at the first run — borrowed until the next signature is lowered
 *  or c dies.
 *  @return AIRC_OK; AIRC_E_NOT_FOUND (nothing lowered yet, or another
 *          mode); AIRC_E_MISUSE; AIRC_E_INVALID_ARGUMENT. */
AIRC_API airc_status airc_compiled_model(const airc_compiled *c, const uint8_t **data,
                                         size_t *len);

/** The graph after the pass pipeline (borrowed, owned by c). */
AIRC_API const airc_graph *airc_compiled_graph(const airc_compiled *c);

/** Counters and sizes. Set struct_size; airc fills what it covers. */
typedef struct airc_compiled_stats {
    size_t struct_size;
    uint64_t runs;         /* calls of airc_compiled_run / _run_views that succeeded */
    uint64_t captures;     /* plans captured (new graph keys or recaptures) */
    uint64_t replays;      /* runs served by a captured plan */
    uint64_t fallbacks;    /* runs done eagerly past the capture limit or by
                              run_eagerly */
    uint64_t input_copies; /* input copies made before replays */
    /* of the plan the last run used (0 before any capture): */
    uint64_t launches;          /* kernel launches per replay */
    uint64_t events;            /* cross-stream events per replay */
    uint32_t streams;           /* streams, main included */
    uint64_t arena_bytes;       /* the arena the plan's buffers live in */
    uint64_t plan_arena_bytes;  /* what the plan itself needs */
    uint64_t lower_bound_bytes; /* liveness lower bound of the plan */
    uint64_t naive_bytes;       /* every intermediate its own buffer */
} airc_compiled_stats;
AIRC_API airc_status airc_compiled_get_stats(const airc_compiled *c, airc_compiled_stats *stats);

/** Records the launches' start and end times of subsequent replays (off by
 *  default: it costs two clock reads per launch). */
AIRC_API airc_status airc_compiled_set_trace(airc_compiled *c, int32_t on);
/** Writes the last traced replay as a Chrome trace (JSON; Perfetto,
 *  chrome://tracing): one track per stream, one complete event per launch
 *  named by its node with args {target, stream}, event record/wait as
 *  instant events. AIRC_E_NOT_FOUND when no replay was traced. */
AIRC_API airc_status airc_compiled_write_trace(const airc_compiled *c, const char *path);

#ifdef __cplusplus
}
#endif
#endif
