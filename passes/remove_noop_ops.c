/* remove_noop_ops: Inductor's remove_noop_ops (TorchAir's
 * optimize_noop_ops). A node whose op returns its source unchanged is
 * replaced by the source, when
 *  - both have a known tensor meta and the meta agree (dtype, shape,
 *    strides: Inductor's same_meta);
 *  - the op's own condition holds (slice over the full range with step 1,
 *    repeat by ones, zero padding, pow by 1, cat of one tensor, rounding an
 *    integer tensor; views, reshapes, expand, alias, detach and copy need
 *    nothing more than equal meta);
 *  - removing it does not make a graph output alias an input or another
 *    output (Inductor's storage rule: a node's storage is that of the node
 *    its views lead back to).
 * clone is kept, unlike Inductor: in a graph that still mutates (functionalize
 * off, custom in-place ops or writes to inputs kept) a clone is what
 * protects its source; so is every op above whose result is a fresh tensor
 * in torch (copy, repeat, constant_pad_nd, pow, cat, rounding): its source
 * may be written later. */
#include "passmgr/passmgr.h"
#include "ops/ops.h"

#include <string.h>

typedef enum noop_kind {
    NOOP_ALWAYS,  /* equal meta suffices */
    NOOP_SLICE,   /* slice(self, dim, start, end, step) */
    NOOP_REPEAT,  /* repeat(self, repeats): all ones */
    NOOP_PAD,     /* constant_pad_nd(self, pad, value): all zeros */
    NOOP_POW_ONE, /* pow(self, exponent): exponent is the int 1 */
    NOOP_CAT_ONE, /* cat(tensors, dim): one tensor */
    NOOP_INT_ROUND /* ceil/floor/round/trunc of an integer tensor */
} noop_kind;

typedef struct noop_op {
    const char *qualname;
    noop_kind kind;
    int src_arg; /* schema position of the source */
    bool fresh;  /* returns a new tensor in torch (not a view of the source) */
} noop_op;

static const noop_op noop_ops[] = {
    {"aten.view.default", NOOP_ALWAYS, 0, false},
    {"aten.reshape.default", NOOP_ALWAYS, 0, false},
    {"aten._unsafe_view.default", NOOP_ALWAYS, 0, false},
    {"aten._reshape_alias.default", NOOP_ALWAYS, 0, false},
    {"aten.expand.default", NOOP_ALWAYS, 0, false},
    {"aten.alias.default", NOOP_ALWAYS, 0, false},
    {"aten.detach.default", NOOP_ALWAYS, 0, false},
    {"aten.copy.default", NOOP_ALWAYS, 1, true},
    {"aten.slice.Tensor", NOOP_SLICE, 0, false},
    {"aten.repeat.default", NOOP_REPEAT, 0, true},
    {"aten.constant_pad_nd.default", NOOP_PAD, 0, true},
    {"aten.pow.Tensor_Scalar", NOOP_POW_ONE, 0, true},
    {"aten.cat.default", NOOP_CAT_ONE, 0, true},
    {"aten.ceil.default", NOOP_INT_ROUND, 0, true},
    {"aten.floor.default", NOOP_INT_ROUND, 0, true},
    {"aten.round.default", NOOP_INT_ROUND, 0, true},
    {"aten.trunc.default", NOOP_INT_ROUND, 0, true},
};

static const noop_op *find_noop(const airc_op *op)
{
    for (size_t i = 0; i < sizeof noop_ops / sizeof noop_ops[0]; i++)
        if (!strcmp(op->qualname, noop_ops[i].qualname))
            return &noop_ops[i];
    return NULL;
}

static const airc_tmeta *tensor_meta(const airc_node *n)
{
    return n->meta_kind == AIRC_META_TENSOR && n->nout == 1 ? &n->out[0] : NULL;
}

static bool same_meta(const airc_tmeta *a, const airc_tmeta *b)
{
    if (a->dtype != b->dtype || a->ndim != b->ndim)
        return false;
    for (int32_t i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i] || a->strides[i] != b->strides[i])
            return false;
    return true;
}

static bool int_is(const airc_value *v, int64_t want, bool none_ok)
{
    if (!v || v->kind == AIRC_VALUE_NONE)
        return none_ok;
    return v->kind == AIRC_VALUE_INT && v->u.i == want;
}

static bool all_ints(const airc_value *v, int64_t want)
{
    if (!v)
        return false;
    if (v->kind == AIRC_VALUE_INT)
        return v->u.i == want;
    if (v->kind != AIRC_VALUE_LIST && v->kind != AIRC_VALUE_TUPLE)
        return false;
    for (uint32_t i = 0; i < v->len; i++)
        if (!int_is(v->u.items[i], want, false))
            return false;
    return true;
}

static bool is_integer(airc_dtype d)
{
    return d == AIRC_DTYPE_I64 || d == AIRC_DTYPE_I32 || d == AIRC_DTYPE_I16 ||
           d == AIRC_DTYPE_I8 || d == AIRC_DTYPE_U8 || d == AIRC_DTYPE_BOOL;
}

static bool slice_is_full(const airc_value *const *a, const airc_tmeta *src)
{
    int64_t dim = 0;
    if (a[1] && a[1]->kind == AIRC_VALUE_INT)
        dim = a[1]->u.i;
    if (dim < 0)
        dim += src->ndim;
    if (dim < 0 || dim >= src->ndim)
        return false;
    if (!int_is(a[2], 0, true) || !int_is(a[4], 1, true))
        return false;
    const airc_value *end = a[3];
    return !end || end->kind == AIRC_VALUE_NONE ||
           (end->kind == AIRC_VALUE_INT && end->u.i >= src->shape[dim]);
}

/* The source node of a no-op, or NULL when n is not one. */
static airc_node *noop_source(const airc_node *n, const airc_value **bound)
{
    const noop_op *k = find_noop(n->op);
    if (!k)
        return NULL;
    const airc_schema *s = n->op->schema;
    if (s->nargs > 8)
        return NULL;
    airc_schema_bind(n, bound);
    const airc_value *sv = (uint32_t)k->src_arg < s->nargs ? bound[k->src_arg] : NULL;
    if (k->kind == NOOP_CAT_ONE) {
        if (!sv || (sv->kind != AIRC_VALUE_LIST && sv->kind != AIRC_VALUE_TUPLE) || sv->len != 1)
            return NULL;
        sv = sv->u.items[0];
    }
    if (!sv || sv->kind != AIRC_VALUE_NODE)
        return NULL;
    airc_node *src = sv->u.node;
    const airc_tmeta *mn = tensor_meta(n), *ms = tensor_meta(src);
    if (!mn || !ms || !same_meta(mn, ms))
        return NULL;
    switch (k->kind) {
    case NOOP_ALWAYS:
    case NOOP_CAT_ONE:
        return src;
    case NOOP_SLICE:
        return s->nargs >= 5 && slice_is_full(bound, ms) ? src : NULL;
    case NOOP_REPEAT:
    case NOOP_PAD:
        return s->nargs >= 2 && all_ints(bound[1], k->kind == NOOP_REPEAT ? 1 : 0) ? src : NULL;
    case NOOP_POW_ONE:
        return s->nargs >= 2 && int_is(bound[1], 1, false) ? src : NULL;
    case NOOP_INT_ROUND:
        return is_integer(ms->dtype) ? src : NULL;
    }
    return NULL;
}

/* The node whose storage x shares: x's view sources followed back. */
static const airc_node *storage_of(const airc_node *x)
{
    for (int depth = 0;
         depth < 4096 && x->kind == AIRC_NODE_CALL_FUNCTION && x->ninputs &&
         ((x->op->flags & AIRC_OP_VIEW) || !strcmp(x->op->qualname, AIRC_OP_GETITEM));
         depth++)
        x = x->inputs[0];
    return x;
}

/* Whether some graph output other than `self` shares storage s. */
static bool output_storage(const airc_node *out, const airc_node *self, const airc_node *s)
{
    if (!out)
        return false;
    for (size_t i = 0; i < out->ninputs; i++)
        if (out->inputs[i] != self && storage_of(out->inputs[i]) == s)
            return true;
    return false;
}

static bool is_output_value(const airc_node *out, const airc_node *x)
{
    if (!out)
        return false;
    for (size_t i = 0; i < out->ninputs; i++)
        if (out->inputs[i] == x)
            return true;
    return false;
}

static bool graph_mutates(const airc_graph *g)
{
    for (const airc_node *n = g->root.next; n != &g->root; n = n->next)
        if (n->kind == AIRC_NODE_CALL_FUNCTION && airc_schema_is_mutable(n->op->schema))
            return true;
    return false;
}

airc_status airc_pass_remove_noop_ops(airc_graph *g, int32_t *changed)
{
    AIRC_TRY(airc_check_graph(g, "airc_pass_remove_noop_ops"));
    const airc_node *out = airc_graph_output_node(g);
    bool mutates = graph_mutates(g);
    int32_t any = 0;
    const airc_value *bound[8];
    for (airc_node *n = g->root.next, *next; n != &g->root; n = next) {
        next = n->next;
        const noop_op *no = n->kind == AIRC_NODE_CALL_FUNCTION ? find_noop(n->op) : NULL;
        if (!no || (mutates && no->fresh))
            continue;
        airc_node *src = noop_source(n, bound);
        if (!src)
            continue;
        const airc_node *st_src = storage_of(src);
        if (is_output_value(out, n) &&
            (st_src->kind == AIRC_NODE_PLACEHOLDER || output_storage(out, n, st_src)))
            continue; /* would make an output alias an input or an output */
        airc_status st = AIRC_OK;
        if (n->nusers)
            st = airc_node_replace_all_uses_with(n, src, NULL, NULL, NULL);
        if (st == AIRC_OK)
            st = airc_graph_erase_node(g, n);
        if (st != AIRC_OK)
            return airc_fail_prefix("remove_noop_ops: node '%s'", n->name);
        any = 1;
    }
    if (changed)
        *changed = any;
    return AIRC_OK;
}
