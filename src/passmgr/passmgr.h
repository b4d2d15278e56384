/* Internal contracts of the pass manager (src/passmgr/) and the built-in
 * passes (passes/). */
#ifndef AIRC_PASSMGR_H
#define AIRC_PASSMGR_H

#include "ir/ir.h"

#define AIRC_MAGIC_INPUTS 0x41430010u
#define AIRC_MAGIC_PASS_MANAGER 0x41430011u

struct airc_example_inputs {
    uint32_t magic;
    airc_context *ctx;
    airc_tmeta *items;
    size_t n, cap;
};

/* 64-bit digest of everything a pass can change and a print or a later pass
 * can see: node order and identity, names, kinds, targets, args, kwargs,
 * meta, attributes, constants, submodules. Two calls give the same value
 * exactly when nothing changed (up to hash collisions). Never allocates. */
AIRC_HIDDEN uint64_t airc_graph_fingerprint(const airc_graph *g);

/* XXH3 of a node's call: op, args and kwargs (node refs by identity;
 * kwargs order-independent). Used by CSE. */
AIRC_HIDDEN uint64_t airc_call_hash(const airc_node *n);

/* A built-in pass in pipeline order. */
typedef airc_status (*airc_builtin_fn)(airc_graph *g, const airc_example_inputs *inputs,
                                       int32_t *changed);
typedef struct airc_builtin_pass {
    const char *name;
    const char *config_key;
    airc_builtin_fn fn;
} airc_builtin_pass;

AIRC_HIDDEN const airc_builtin_pass *airc_builtin_pass_find(const char *name);

/* Sets placeholders' meta from example inputs (count must match). Used by
 * the meta_propagation pass and by the pipeline to seed remove_noop_ops. */
AIRC_HIDDEN airc_status airc_seed_placeholder_meta(airc_graph *g, const airc_example_inputs *in);

/* Monotonic milliseconds. */
/* Runs a one-graph pass on g and then on each nested graph, recursively
 * (nested graphs are code too); *changed (optional) ORs the results. */
typedef airc_status (*airc_graph_pass_fn)(airc_graph *g, int32_t *changed);
AIRC_HIDDEN airc_status airc_pass_each_graph(airc_graph *g, airc_graph_pass_fn one,
                                             int32_t *changed);
AIRC_HIDDEN double airc_now_ms(void);
/* Logs "pass NAME changed the graph in X ms" and the graph text at debug. */
AIRC_HIDDEN void airc_log_pass_change(airc_graph *g, const char *name, double ms);

/* Clears this thread's last error, so that a callback returning a failure
 * without a message is noticed. */
AIRC_HIDDEN void airc_clear_error(void);

#endif
