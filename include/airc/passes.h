/* airc — passes API (part of the public API; included by airc/airc.h).
 *
 * User passes, the pass manager (torch.fx's PassManager), the built-in graph
 * passes and the compile pipeline's pass stages:
 *
 *     user pre-passes -> built-in passes -> user post-passes -> validation
 *
 * A user pass has TorchAir's contract, in C: it receives the graph, the
 * example inputs' meta, the config and its user_data, edits the graph in
 * place and returns a status (AIRC_OK, or a code with a message recorded
 * with airc_pass_fail). Passes run transactionally: when a pass fails, or
 * leaves a graph that does not lint (scope pairing included), the caller's
 * graph is restored to exactly what it was before that pass and the run
 * fails with AIRC_E_PASS naming the pass.
 *
 *     airc_pass_manager *pre;
 *     airc_pass_manager_create(ctx, &pre);
 *     airc_pass_manager_add_pass(pre, "multistream", my_pass, my_state, free);
 *     airc_run_pipeline(graph, inputs, config, pre, NULL);
 *     airc_pass_manager_destroy(pre);
 */
#ifndef AIRC_PASSES_H
#define AIRC_PASSES_H

#include "airc/airc.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#  define AIRC_FORMAT_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#  define AIRC_FORMAT_PRINTF(a, b)
#endif

/* ------------------------------------------------------------------------ */
/* Example inputs: the dtype/shape/strides of each graph input              */
/* ------------------------------------------------------------------------ */

typedef struct airc_example_inputs airc_example_inputs;

/** Creates an empty list of example inputs (meta only, no data). It holds a
 *  reference to ctx. @return AIRC_OK, AIRC_E_MISUSE, AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_example_inputs_create(airc_context *ctx, airc_example_inputs **out);
/** NULL is a no-op. */
AIRC_API void airc_example_inputs_destroy(airc_example_inputs *inputs);
/** Appends the meta of the next graph input (placeholders in order).
 *  @param shape   ndim sizes (>= 0), copied; may be NULL when ndim is 0.
 *  @param strides NULL for contiguous; otherwise ndim strides, copied.
 *  @return AIRC_OK; AIRC_E_INVALID_ARGUMENT (bad dtype, ndim, size);
 *          AIRC_E_MISUSE; AIRC_E_OUT_OF_MEMORY (list unchanged). */
AIRC_API airc_status airc_example_inputs_add(airc_example_inputs *inputs, airc_dtype dtype,
                                             int32_t ndim, const int64_t *shape,
                                             const int64_t *strides);
/** Appends the meta of a host tensor (contiguous). */
AIRC_API airc_status airc_example_inputs_add_tensor(airc_example_inputs *inputs,
                                                    const airc_tensor *tensor);
/** Number of inputs (0 for NULL). */
AIRC_API size_t airc_example_inputs_count(const airc_example_inputs *inputs);
/** Meta of input i; any out pointer may be NULL; shape/strides are borrowed
 *  from the list. @return AIRC_OK, AIRC_E_NOT_FOUND (i out of range),
 *  AIRC_E_MISUSE. */
AIRC_API airc_status airc_example_inputs_get(const airc_example_inputs *inputs, size_t i,
                                             airc_dtype *dtype, int32_t *ndim,
                                             const int64_t **shape, const int64_t **strides);

/* ------------------------------------------------------------------------ */
/* User passes and checks                                                   */
/* ------------------------------------------------------------------------ */

/** A graph pass (TorchAir's custom pass contract).
 *  @param graph     the graph to edit in place (borrowed for the call).
 *  @param inputs    example inputs' meta; may be NULL when none were given.
 *  @param config    the compile config; may be NULL.
 *  @param user_data what was registered with the pass.
 *  @return AIRC_OK, or a status with a message set by airc_pass_fail (or
 *          by the airc call that failed inside the pass). */
typedef airc_status (*airc_pass_fn)(airc_graph *graph, const airc_example_inputs *inputs,
                                    const airc_config *config, void *user_data);

/** A check run before the passes and (optionally) after each pass. It must
 *  not change the graph. @return AIRC_OK or a status with a message. */
typedef airc_status (*airc_check_fn)(const airc_graph *graph, void *user_data);

/** Records `code` and a printf-style message as this thread's last error
 *  and returns code: how a user pass or check says what went wrong. */
AIRC_API airc_status airc_pass_fail(airc_status code, const char *fmt, ...)
    AIRC_FORMAT_PRINTF(2, 3);

/** Registers a pass on the context under a name (plugins do this), so that
 *  pass managers and the CLI (`--pre-pass NAME`) can find it.
 *  @param name not empty and not the name of a built-in pass (copied).
 *  @param free_user_data called once with user_data when the context dies;
 *         not called when registration fails.
 *  @return AIRC_OK; AIRC_E_EXISTS (name taken); AIRC_E_INVALID_ARGUMENT;
 *          AIRC_E_MISUSE; AIRC_E_OUT_OF_MEMORY. Thread-safe. */
AIRC_API airc_status airc_context_register_pass(airc_context *ctx, const char *name,
                                                airc_pass_fn fn, void *user_data,
                                                airc_free_fn free_user_data);
/** Finds a pass registered on ctx. Either out pointer may be NULL.
 *  @return AIRC_OK or AIRC_E_NOT_FOUND. Thread-safe. */
AIRC_API airc_status airc_context_find_pass(airc_context *ctx, const char *name,
                                            airc_pass_fn *fn, void **user_data);
/** Registered passes, in registration order (not the built-in ones). */
AIRC_API size_t airc_context_num_passes(airc_context *ctx);
AIRC_API const char *airc_context_pass_name(airc_context *ctx, size_t i);

/* ------------------------------------------------------------------------ */
/* Pass manager (torch.fx.passes.infra.PassManager)                         */
/* ------------------------------------------------------------------------ */

typedef struct airc_pass_manager airc_pass_manager;

/** Creates an empty pass manager: steps 1, no checks after each pass,
 *  check failures not suppressed. It holds a reference to ctx. A manager is
 *  used by one thread at a time. */
AIRC_API airc_status airc_pass_manager_create(airc_context *ctx, airc_pass_manager **out);
/** Frees the manager and calls the free functions of its passes' and
 *  checks' user_data. NULL is a no-op. */
AIRC_API void airc_pass_manager_destroy(airc_pass_manager *pm);

/** Appends a pass. Passes run in this order unless constraints reorder them.
 *  @param name unique within the manager (copied); used in errors and logs.
 *  @return AIRC_OK; AIRC_E_EXISTS (name already in the manager);
 *          AIRC_E_INVALID_ARGUMENT; AIRC_E_MISUSE; AIRC_E_OUT_OF_MEMORY.
 *          On failure free_user_data is not called. */
AIRC_API airc_status airc_pass_manager_add_pass(airc_pass_manager *pm, const char *name,
                                                airc_pass_fn fn, void *user_data,
                                                airc_free_fn free_user_data);
/** Appends a pass by name: one registered on the context, or a built-in
 *  pass ("dce", "cse", ...; see airc_builtin_pass_name).
 *  @return AIRC_OK; AIRC_E_NOT_FOUND; AIRC_E_EXISTS; AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_pass_manager_add_named_pass(airc_pass_manager *pm, const char *name);
/** torch.fx's this_before_that_pass_constraint: pass `this_name` must run
 *  before `that_name`. Passes are then ordered by a stable topological sort
 *  (Kahn's algorithm, FIFO, as torch.fx). Names are checked when the order
 *  is solved (airc_pass_manager_solve or run): an unknown name is
 *  AIRC_E_NOT_FOUND, a cycle AIRC_E_INVALID_ARGUMENT naming the passes. */
AIRC_API airc_status airc_pass_manager_add_constraint(airc_pass_manager *pm,
                                                      const char *this_name,
                                                      const char *that_name);
/** Adds a check (torch.fx add_checks; several may be added, run in order).
 *  Checks run once before the first pass and, with
 *  run_checks_after_each_pass, after every pass. */
AIRC_API airc_status airc_pass_manager_add_check(airc_pass_manager *pm, airc_check_fn fn,
                                                 void *user_data, airc_free_fn free_user_data);
/** Maximum sweeps over the passes (>= 1, default 1). A sweep in which no
 *  pass changed the graph ends the run early (fixed point), as torch.fx. */
AIRC_API airc_status airc_pass_manager_set_steps(airc_pass_manager *pm, int32_t steps);
AIRC_API airc_status airc_pass_manager_set_run_checks_after_each_pass(airc_pass_manager *pm,
                                                                      int32_t on);
/** When on, a failing check is logged as a warning and the run goes on
 *  (torch 1.13 stores this flag but never reads it). */
AIRC_API airc_status airc_pass_manager_set_suppress_check_failures(airc_pass_manager *pm,
                                                                   int32_t on);
/** Orders the passes by the constraints (done by run when needed). */
AIRC_API airc_status airc_pass_manager_solve(airc_pass_manager *pm);
/** Passes in their current order (solved order after solve/run). */
AIRC_API size_t airc_pass_manager_num_passes(const airc_pass_manager *pm);
AIRC_API const char *airc_pass_manager_pass_name(const airc_pass_manager *pm, size_t i);

/** Runs the passes on g: checks, then up to `steps` sweeps.
 *  Each pass runs on a graph that was cloned just before it; when the pass
 *  fails, leaves a graph that does not lint, or (checks after each pass, not
 *  suppressed) fails a check, g is restored to exactly its state before
 *  that pass (node handles obtained before the pass stay valid only on
 *  success). A pass "changed" the graph when its content differs after it
 *  (names, targets, args, kwargs, order, meta, attributes).
 *  With log level debug, each pass that changed the graph is logged with
 *  its time and the graph's text.
 *  @param changed optional: 1 when some pass changed the graph.
 *  @return AIRC_OK;
 *          AIRC_E_PASS "pass 'NAME' failed: <its message>",
 *          "pass 'NAME' left an invalid graph: <lint message>",
 *          "check failed after pass 'NAME': <message>";
 *          AIRC_E_OUT_OF_MEMORY (also when a pass itself ran out of memory;
 *          the message names the pass); AIRC_E_INVALID_GRAPH when g did not
 *          lint before any pass ran; constraint errors (see above). */
AIRC_API airc_status airc_pass_manager_run(airc_pass_manager *pm, airc_graph *g,
                                           const airc_example_inputs *inputs,
                                           const airc_config *config, int32_t *changed);

/* ------------------------------------------------------------------------ */
/* Built-in passes                                                          */
/* ------------------------------------------------------------------------ */

/* Each is also a plain function for users who compose their own pipeline.
 * `changed` is optional (receives 1 when the graph changed). On failure
 * (out of memory, or an error naming a node) the graph is valid — every
 * edit is atomic — but may be partly transformed; run them through a pass
 * manager or the pipeline for all-or-nothing behaviour. */

/** In-place ops (schemas that write an argument, `Tensor(a!)`) become their
 *  out-of-place twins (same name without the trailing `_`, same overload:
 *  add_.Tensor -> add.Tensor, copy_ -> copy). Both forms are handled: ops
 *  returning the mutated alias (aten's `-> Tensor(a!)`) and ops returning
 *  nothing for it (TorchAir's custom in-place ops, `-> ()`, whose twin
 *  returns the new values). Later uses of the mutated value read the
 *  functional result; mutations of graph inputs are written back before the
 *  output with aten.copy_.default(input, new_value). Kept as they are (with
 *  an info log): ops with no twin, mutated lists, and mutations of views or
 *  of tensors that have views (their aliasing needs view replay). */
AIRC_API airc_status airc_pass_functionalize(airc_graph *g, int32_t *changed);
/** Removes ops that return their input unchanged (Inductor's
 *  remove_noop_ops): view/reshape/_unsafe_view/_reshape_alias/expand to the
 *  same shape, slice over the full range with step 1, alias, detach,
 *  copy(self, src) of equal meta, repeat by ones, zero padding, pow(x, 1),
 *  cat of one tensor. Only where both meta are known and equal (dtype,
 *  shape, strides); never makes an output alias an input or another output.
 *  clone is kept (not a no-op for aliasing). */
AIRC_API airc_status airc_pass_remove_noop_ops(airc_graph *g, int32_t *changed);
/** aten.view.default -> aten.reshape.default (TorchAir's view_to_reshape). */
AIRC_API airc_status airc_pass_view_to_reshape(airc_graph *g, int32_t *changed);
/** Dead code elimination (airc_graph_eliminate_dead_code): side-effect ops
 *  (air.*, ops that write an argument) are kept. */
AIRC_API airc_status airc_pass_dce(airc_graph *g, int32_t *changed);
/** Common subexpression elimination (torch.fx CSEPass): a pure call_function
 *  whose op, args and kwargs (node references by identity) equal an earlier
 *  node's is replaced by it. Side-effect ops, air.* ops and random ops
 *  (dropout, rand, bernoulli, ...) are never merged. */
AIRC_API airc_status airc_pass_cse(airc_graph *g, int32_t *changed);
/** Constant folding (Inductor's constant_fold): a pure aten call whose
 *  tensor inputs are all constants (get_attr with bound data, or calls
 *  folded themselves), creation ops without inputs included (ones, zeros,
 *  full, arange; not empty or random ops, nor calls with a non-CPU device
 *  argument), is evaluated with airc's CPU kernels (eager execution) and
 *  replaced by a get_attr of a new contiguous constant `_folded_constant_N`.
 *  Each result is capped at 1 MiB: larger ones, and what depends on them,
 *  stay computed. Views of constants (t, permute, expand, ...) are kept as
 *  views. Custom ops are never folded. Constants no longer read stay bound.
 *  All or nothing: on failure the graph is as it was. */
AIRC_API airc_status airc_pass_constant_folding(airc_graph *g, int32_t *changed);
/** Sets the placeholders' meta from inputs (when not NULL: exactly one per
 *  placeholder, in order) and propagates meta through the graph
 *  (airc_graph_propagate_meta). All or nothing. Without inputs and with a
 *  placeholder lacking meta, it does nothing (nothing to propagate from). */
AIRC_API airc_status airc_pass_meta_propagation(airc_graph *g, const airc_example_inputs *inputs,
                                                int32_t *changed);

/** Built-in passes in pipeline order: functionalize, remove_noop_ops,
 *  view_to_reshape, dce, cse, constant_folding, meta_propagation. */
AIRC_API size_t airc_num_builtin_passes(void);
AIRC_API const char *airc_builtin_pass_name(size_t i);
/** Config key that switches a built-in pass ("passes.dce",
 *  "experimental_config.remove_noop_ops"); NULL for an unknown name. */
AIRC_API const char *airc_builtin_pass_config_key(const char *name);
/** 1 when the built-in pass is on in config (NULL config: all on). */
AIRC_API int32_t airc_builtin_pass_enabled(const airc_config *config, const char *name);

/* ------------------------------------------------------------------------ */
/* Pipeline                                                                 */
/* ------------------------------------------------------------------------ */

/** Runs the compile pipeline's pass stages on g (DESIGN.md):
 *  1. pre's passes (TorchAir's post_grad_custom_pre_pass), if pre != NULL;
 *  2. the built-in passes switched on in config, in pipeline order;
 *  3. post's passes (post_grad_custom_post_pass), if post != NULL;
 *  4. validation: airc_graph_lint (scope pairing included).
 *  User passes are transactional (see airc_pass_manager_run); the built-in
 *  stage is all-or-nothing as a whole. On failure g is as it was before the
 *  failing pass or stage.
 *  @return AIRC_OK; AIRC_E_PASS naming the pass; AIRC_E_INVALID_GRAPH
 *          ("validation: ..."); AIRC_E_OUT_OF_MEMORY; AIRC_E_MISUSE. */
AIRC_API airc_status airc_run_pipeline(airc_graph *g, const airc_example_inputs *inputs,
                                       const airc_config *config, airc_pass_manager *pre,
                                       airc_pass_manager *post);

#ifdef __cplusplus
}
#endif
#endif
