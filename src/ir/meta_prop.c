/* Meta propagation: every node's dtype/shape/strides computed in order from
 * the placeholders' meta, the constants and the ops' meta functions.
 *
 * All or nothing: before the walk, the meta arrays of the nodes to be
 * recomputed are moved aside (no copy, so restoring cannot fail); on
 * failure the new arrays are freed and the old ones put back, on success
 * the old ones are freed. */
#include "ir/ir.h"
#include "ops/ops.h"

#include <string.h>

typedef struct saved_meta {
    airc_node *node;
    int32_t kind;
    uint32_t nout;
    airc_tmeta *out;
    size_t cap;
} saved_meta;

static bool recomputed(const airc_node *n)
{
    return n->kind == AIRC_NODE_GET_ATTR || n->kind == AIRC_NODE_CALL_FUNCTION ||
           n->kind == AIRC_NODE_CALL_MODULE;
}

static airc_status get_attr_meta(airc_graph *g, airc_node *n, const saved_meta *old)
{
    airc_dtype dtype;
    int32_t ndim;
    const int64_t *shape, *strides;
    airc_status st = airc_graph_get_constant(g, n->target, &dtype, &ndim, &shape, &strides, NULL);
    if (st == AIRC_OK)
        return airc_node_set_meta(n, dtype, ndim, shape, strides);
    /* no data bound (yet): a meta the node already had (given by the
     * caller or read from typed text) stands */
    if (old->kind == AIRC_META_TENSOR && old->nout == 1)
        return airc_node_set_meta(n, old->out[0].dtype, old->out[0].ndim, old->out[0].shape,
                                  old->out[0].strides);
    return airc_fail(AIRC_E_SHAPE, "get_attr '%s' has no constant and no meta: bind its data",
                     n->target);
}

static airc_status node_meta(airc_graph *g, airc_node *n, const saved_meta *old)
{
    switch (n->kind) {
    case AIRC_NODE_PLACEHOLDER:
        if (n->meta_kind == AIRC_META_NONE)
            return airc_fail(AIRC_E_SHAPE, "placeholder '%s' has no meta: give an input",
                             n->target);
        return AIRC_OK;
    case AIRC_NODE_GET_ATTR:
        return get_attr_meta(g, n, old);
    case AIRC_NODE_CALL_FUNCTION: {
        const airc_op *op = n->op;
        airc_meta_fn meta;
        void *ud;
        if (!airc_op_get_meta(op, &meta, &ud))
            return airc_fail(AIRC_E_UNSUPPORTED, "no meta function for %s", op->qualname);
        AIRC_TRY(meta(n, ud));
        if (n->meta_kind == AIRC_META_NONE)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "the meta function of %s returned success but set no meta",
                             op->qualname);
        return AIRC_OK;
    }
    case AIRC_NODE_CALL_MODULE:
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "call_module '%s': meta propagation through nested graphs is not "
                         "supported (inline them first)",
                         n->target);
    default:
        return AIRC_OK;
    }
}

airc_status airc_graph_propagate_meta(airc_graph *g)
{
    AIRC_TRY(airc_check_graph(g, "airc_graph_propagate_meta"));
    airc_context *ctx = g->ctx;
    saved_meta *saved = airc_calloc(ctx, g->nnodes ? g->nnodes : 1, sizeof *saved);
    if (!saved)
        return airc_fail_oom("meta propagation snapshot");
    size_t ns = 0;
    AIRC_FOR_EACH_NODE(g, n) {
        if (!recomputed(n))
            continue;
        saved[ns++] = (saved_meta){n, n->meta_kind, n->nout, n->out, n->out_cap};
        n->meta_kind = AIRC_META_NONE;
        n->nout = 0;
        n->out = NULL;
        n->out_cap = 0;
    }
    static const saved_meta none = {NULL, AIRC_META_NONE, 0, NULL, 0};
    airc_status st = AIRC_OK;
    size_t k = 0;
    AIRC_FOR_EACH_NODE(g, n) {
        const saved_meta *old = k < ns && saved[k].node == n ? &saved[k++] : &none;
        st = node_meta(g, n, old);
        if (st != AIRC_OK) {
            airc_fail_prefix("node '%s'", n->name);
            break;
        }
    }
    for (size_t i = 0; i < ns; i++) {
        airc_node *n = saved[i].node;
        if (st == AIRC_OK) {
            airc_free(ctx, saved[i].out);
            continue;
        }
        airc_free(ctx, n->out);
        n->meta_kind = saved[i].kind;
        n->nout = saved[i].nout;
        n->out = saved[i].out;
        n->out_cap = saved[i].cap;
    }
    airc_free(ctx, saved);
    return st;
}
