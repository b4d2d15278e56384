/* Which cats the capture removes (cat_fusion.h). */
#include "backends/replay/cat_fusion.h"

#include "ops/ops.h"

#include <string.h>

static bool is_op(const airc_node *n, const char *qualname)
{
    return n->kind == AIRC_NODE_CALL_FUNCTION && n->op && !strcmp(n->op->qualname, qualname);
}

static bool single_tensor(const airc_node *n)
{
    return n->meta_kind == AIRC_META_TENSOR && n->nout == 1;
}

/* n's kernel writes one fresh tensor: no view, no in-place write, no
 * getitem or air op, no tuple. */
static bool allocates_result(const airc_node *n)
{
    if (n->kind != AIRC_NODE_CALL_FUNCTION || !n->op || !n->op->schema || !single_tensor(n))
        return false;
    const airc_schema *s = n->op->schema;
    if ((n->op->flags & AIRC_OP_VIEW) || s->nrets != 1 ||
        s->rets[0].type.kind != AIRC_TYPE_TENSOR || s->rets[0].type.is_list ||
        s->rets[0].type.alias)
        return false;
    return strncmp(n->op->qualname, "air.", 4) && strcmp(n->op->qualname, AIRC_OP_GETITEM);
}

/* The node whose fresh buffer x's result is: x itself, or, through
 * in-place writes that reinplace made (relu_(mul)), the op that allocated
 * it, each link read only by the next and on cat's stream; NULL otherwise. */
static const airc_node *buffer_root(const airc_stream_plan *plan, const airc_node *x,
                                    const airc_node *cat);

static bool same_stream(const airc_stream_plan *plan, const airc_node *a, const airc_node *b)
{
    uint32_t pa = a->id < plan->nids ? plan->pos_of_id[a->id] : AIRC_STREAM_NONE;
    uint32_t pb = b->id < plan->nids ? plan->pos_of_id[b->id] : AIRC_STREAM_NONE;
    return pa != AIRC_STREAM_NONE && pb != AIRC_STREAM_NONE &&
           plan->nodes[pa].stream == plan->nodes[pb].stream;
}

static const airc_node *buffer_root(const airc_stream_plan *plan, const airc_node *x,
                                    const airc_node *cat)
{
    for (int depth = 0; depth < 64 && same_stream(plan, x, cat); depth++) {
        if (allocates_result(x))
            return x;
        const airc_schema *s = x->op && x->kind == AIRC_NODE_CALL_FUNCTION ? x->op->schema : NULL;
        if (!s || !single_tensor(x) || s->nrets != 1 || !s->rets[0].type.is_write ||
            !s->rets[0].type.alias || s->nargs > 32)
            return NULL;
        const airc_value *args[32] = {NULL};
        airc_schema_bind(x, args);
        const airc_node *y = NULL;
        for (uint32_t a = 0; a < s->nargs; a++)
            if (s->args[a].type.alias && !strcmp(s->args[a].type.alias, s->rets[0].type.alias) &&
                args[a] && args[a]->kind == AIRC_VALUE_NODE)
                y = args[a]->u.node;
        if (!y || y->nusers != 1 || y->users[0] != x)
            return NULL;
        x = y;
    }
    return NULL;
}

/* The cat's dim, wrapped; -1 when it is not a plain int. */
static int64_t cat_dim(const airc_node *cat, const airc_value **args)
{
    int64_t dim = 0;
    if (args[1] && airc_value_get_int(args[1], &dim) != AIRC_OK)
        return -1;
    int64_t nd = cat->out[0].ndim;
    if (dim < 0)
        dim += nd;
    return dim >= 0 && dim < nd ? dim : -1;
}

/* Whether cat qualifies (cat_fusion.h); its inputs are args[0]'s items. */
static bool qualifies(const airc_cat_fusion *f, const airc_stream_plan *plan, const airc_node *cat,
                      const airc_value **args)
{
    const airc_value *list = args[0];
    if (!single_tensor(cat) || !airc_tmeta_is_contiguous(&cat->out[0]) || cat_dim(cat, args) != 0 ||
        !list || (list->kind != AIRC_VALUE_LIST && list->kind != AIRC_VALUE_TUPLE) || !list->len)
        return false;
    const airc_tmeta *out = &cat->out[0];
    for (uint32_t i = 0; i < list->len; i++) {
        const airc_value *item = list->u.items[i];
        if (item->kind != AIRC_VALUE_NODE)
            return false;
        const airc_node *x = item->u.node;
        const airc_node *root = x->nusers == 1 && x->users[0] == cat && single_tensor(x)
                                    ? buffer_root(plan, x, cat)
                                    : NULL;
        if (!root || f->removed[root->id] || !single_tensor(root))
            return false;
        const airc_tmeta *m = &x->out[0];
        if (m->dtype != out->dtype || m->ndim != out->ndim || !airc_tmeta_is_contiguous(m))
            return false;
        for (uint32_t j = 0; j < i; j++)
            if (list->u.items[j]->kind == AIRC_VALUE_NODE && list->u.items[j]->u.node == x)
                return false; /* cat([a, a]) */
    }
    return true;
}

static void fuse(airc_cat_fusion *f, const airc_stream_plan *plan, const airc_node *cat,
                 const airc_value *list)
{
    uint64_t offset = 0;
    for (uint32_t i = 0; i < list->len; i++) {
        const airc_node *x = list->u.items[i]->u.node;
        const airc_node *root = buffer_root(plan, x, cat);
        f->into[root->id] = cat;
        f->offset[root->id] = offset;
        uint64_t bytes = airc_dtype_size(x->out[0].dtype);
        for (int32_t d = 0; d < x->out[0].ndim; d++)
            bytes *= (uint64_t)x->out[0].shape[d];
        offset += bytes;
    }
    f->removed[cat->id] = true;
    f->nremoved++;
}

airc_status airc_cat_fusion_find(airc_graph *g, const airc_stream_plan *plan, airc_cat_fusion *out)
{
    airc_context *ctx = g->ctx;
    memset(out, 0, sizeof *out);
    size_t n = g->next_id ? g->next_id : 1;
    out->into = airc_calloc(ctx, n, sizeof *out->into);
    out->offset = airc_calloc(ctx, n, sizeof *out->offset);
    out->removed = airc_calloc(ctx, n, sizeof *out->removed);
    if (!out->into || !out->offset || !out->removed) {
        airc_cat_fusion_free(ctx, out);
        return airc_fail_oom("remove_cat_ops");
    }
    AIRC_FOR_EACH_NODE(g, c)
    {
        if (!is_op(c, "aten.cat.default"))
            continue;
        const airc_value *args[2] = {NULL, NULL};
        airc_schema_bind(c, args); /* cat(Tensor[] tensors, int dim=0) */
        if (qualifies(out, plan, c, args))
            fuse(out, plan, c, args[0]);
    }
    return AIRC_OK;
}

void airc_cat_fusion_free(airc_context *ctx, airc_cat_fusion *f)
{
    airc_free(ctx, f->into);
    airc_free(ctx, f->offset);
    airc_free(ctx, f->removed);
    memset(f, 0, sizeof *f);
}
