/* airc — running graphs: eager execution on a runtime, and the .npz
 * archives a model's constants come in (part of the public API; included by
 * airc/airc.h).
 *
 *     airc_tensor *outs[4];
 *     size_t nout;
 *     airc_run_eager(g, NULL, inputs, ninputs, outs, 4, &nout, NULL);
 *     ...
 *     for (size_t i = 0; i < nout; i++)
 *         airc_tensor_destroy(outs[i]);
 */
#ifndef AIRC_EXEC_PUBLIC_H
#define AIRC_EXEC_PUBLIC_H

#include "airc/airc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A runtime (airc/runtime.h; airc_cpu_runtime_create gives the embedded
 * CPU one). Declared here too so that this header stands alone. */
typedef struct airc_runtime airc_runtime;

/** Counters of one airc_run_eager call. Set struct_size before the call;
 *  airc fills the members it covers. */
typedef struct airc_run_stats {
    size_t struct_size;
    uint64_t launches;   /* kernels launched on the runtime */
    uint64_t peak_bytes; /* most bytes the run held allocated at once */
} airc_run_stats;

/** Number of tensors a graph's output produces: its output node's value
 *  flattened (a node, or nested tuples/lists of nodes; a node with a tuple
 *  result counts each of its tensors). Needs the graph's meta only for
 *  tuple-producing outputs; 0 when the graph has no output node.
 *  @return AIRC_OK; AIRC_E_MISUSE; AIRC_E_UNSUPPORTED (an output that is not
 *          a tensor, e.g. None or a number). */
AIRC_API airc_status airc_graph_num_results(const airc_graph *g, size_t *out);

/** Runs a graph node by node (eager mode, the reference for the compiled
 *  modes). g is not modified: a clone is made, nested graphs are inlined,
 *  the placeholders take the dtype and shape of `inputs` (the i-th input
 *  binds the i-th placeholder) and meta is propagated; then each node's
 *  kernel runs (the op's registered kernel for the runtime's device type,
 *  else airc's built-in CPU kernel on a "cpu" runtime) on one stream, in
 *  graph order. That order satisfies every event ordering a multi-stream
 *  graph asks for, so air.scope_enter/scope_exit/wait are no-ops here and
 *  air.record gives a 0-dim placeholder tensor. Each intermediate buffer is
 *  freed once no later node uses it (views keep their base alive).
 *
 *  Memory: on a "cpu" runtime the inputs' and constants' data are used in
 *  place, so an in-place op on a placeholder (aten.add_ on an input)
 *  changes the caller's tensor, as in PyTorch; on other runtimes they are
 *  copied to the device first and such writes are not copied back.
 *
 *  @param g        the graph (borrowed; constants bound with
 *                  airc_graph_set_constant for every get_attr target).
 *  @param rt       the runtime, or NULL for an embedded CPU runtime created
 *                  for the call (default options).
 *  @param inputs   one contiguous host tensor per placeholder (borrowed).
 *  @param outputs  receives the results as new contiguous host tensors (the
 *                  caller destroys them), airc_graph_num_results(g) of them.
 *  @param outputs_cap capacity of outputs.
 *  @param noutputs receives the number of results.
 *  @param stats    optional counters (struct_size set by the caller).
 *  @return AIRC_OK; AIRC_E_MISUSE (NULL handles); AIRC_E_INVALID_ARGUMENT
 *          (input count or dtype, outputs_cap too small: the message gives
 *          the count); AIRC_E_SHAPE (meta propagation); AIRC_E_NOT_FOUND (a
 *          get_attr without a constant); AIRC_E_UNSUPPORTED ("no cpu kernel
 *          for aten.foo.default (node 'foo_1')"); a kernel's status with
 *          "node 'x': " in front of its message; AIRC_E_RUNTIME;
 *          AIRC_E_OUT_OF_MEMORY. On failure nothing is returned and nothing
 *          leaks. Thread-safety: g is only read (concurrent runs of one
 *          graph are fine); a runtime may be shared if it is thread-safe. */
AIRC_API airc_status airc_run_eager(const airc_graph *g, airc_runtime *rt,
                                    airc_tensor *const *inputs, size_t ninputs,
                                    airc_tensor **outputs, size_t outputs_cap, size_t *noutputs,
                                    airc_run_stats *stats);

/** Called once per array of an .npz archive, in archive order. `name` is
 *  the member's name without ".npy" (borrowed for the call); `tensor` is
 *  owned by the callback (destroy it or keep it). A non-OK return stops the
 *  reading and is returned by airc_npz_read. */
typedef airc_status (*airc_npz_fn)(void *user_data, const char *name, airc_tensor *tensor);

/** Reads a numpy .npz archive (np.savez / np.savez_compressed: a zip of .npy
 *  members, stored or deflated, each CRC-checked), calling fn for each
 *  array. Archives past the zip64 limits (over 65535 arrays or 4 GiB) are
 *  refused; the whole file is read into memory.
 *  @return AIRC_OK; AIRC_E_NOT_FOUND / AIRC_E_IO (the file); AIRC_E_PARSE
 *          (a malformed archive or member: the message names the file and
 *          the member); AIRC_E_UNSUPPORTED (encryption, a compression other
 *          than deflate, zip64 archives); AIRC_E_OUT_OF_MEMORY; fn's status
 *          (arrays before the failing one were already handed over). */
AIRC_API airc_status airc_npz_read(airc_context *ctx, const char *path, airc_npz_fn fn,
                                   void *user_data);
/** The same over an archive in memory; `source` names it in messages. */
AIRC_API airc_status airc_npz_read_buffer(airc_context *ctx, const void *data, size_t len,
                                          const char *source, airc_npz_fn fn, void *user_data);

#ifdef __cplusplus
}
#endif
#endif
