/* remove_cat_ops (debug.aclgraph.remove_cat_ops, on by default as in
 * TorchAir): a dim-0 aten.cat.default whose inputs are all results that
 * only the cat reads is not launched; its inputs' producers write straight
 * into their slices of the cat's output buffer instead (TorchAir rewrites
 * them to their .out variants over slices of a preallocated output; in airc
 * every kernel writes where its output view points, so the capture only
 * places the views).
 *
 * A cat qualifies when, after the backend passes:
 *  - its dim is 0 (after wrapping a negative dim) and its output is
 *    contiguous;
 *  - every input is a distinct node that appears once in the list and has
 *    the cat as its only user (not a graph output, not read by another
 *    op), with one contiguous tensor result of the cat's dtype and rank;
 *  - that result is a fresh buffer: the input's kernel allocates it (not a
 *    view, not a getitem or an air op, not a cat that is itself removed),
 *    or the input writes in place (reinplace's relu_(mul)) into a result
 *    that qualifies the same way and is read by nothing else; the node
 *    that allocates it is placed in the slice;
 *  - every node involved runs on the cat's stream.
 * Anything else keeps its cat launch. */
#ifndef AIRC_CAT_FUSION_H
#define AIRC_CAT_FUSION_H

#include "backends/replay/stream_plan.h"
#include "ir/ir.h"

typedef struct airc_cat_fusion {
    /* by node id (g->next_id entries): */
    const airc_node **into; /* the removed cat whose output the node's result is part of */
    uint64_t *offset;       /* ... at this byte offset */
    bool *removed;          /* a cat that is not launched */
    size_t nremoved;
} airc_cat_fusion;

/* Finds the cats of g to remove (plan: g's stream plan). *out is zeroed
 * first; free it with airc_cat_fusion_free. AIRC_E_OUT_OF_MEMORY. */
AIRC_HIDDEN airc_status airc_cat_fusion_find(airc_graph *g, const airc_stream_plan *plan,
                                             airc_cat_fusion *out);
AIRC_HIDDEN void airc_cat_fusion_free(airc_context *ctx, airc_cat_fusion *f);

#endif
