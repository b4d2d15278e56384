/* Constants: tensor data bound to get_attr targets, shared between a graph
 * and its clones by reference count. */
#include "ir/ir.h"

#include <string.h>

void airc_constant_release(airc_constant *c)
{
    if (!c || atomic_fetch_sub(&c->refs, 1) != 1)
        return;
    airc_context *ctx = c->ctx;
    if (c->owned)
        airc_free(ctx, c->data);
    else if (c->free_data)
        c->free_data(c->user_data);
    airc_free(ctx, c->name);
    airc_free(ctx, c);
    airc_context_release(ctx);
}

static airc_constant *find(const airc_graph *g, const char *name)
{
    for (size_t i = 0; i < g->nconsts; i++)
        if (!strcmp(g->consts[i]->name, name))
            return g->consts[i];
    return NULL;
}

airc_status airc_graph_set_constant(airc_graph *g, const char *name, airc_dtype dtype,
                                    int32_t ndim, const int64_t *shape, const int64_t *strides,
                                    void *data, airc_free_fn free_data, void *user_data)
{
    static const char fn[] = "airc_graph_set_constant";
    AIRC_TRY(airc_check_graph(g, fn));
    if (!name || !*name)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: empty name", fn);
    if (find(g, name))
        return airc_fail(AIRC_E_EXISTS, "%s: constant '%s' already exists", fn, name);
    airc_tmeta t;
    if (airc_tmeta_set(&t, dtype, ndim, shape, strides) != AIRC_OK)
        return airc_fail_prefix("%s: constant '%s'", fn, name);
    /* bytes spanned by the strides */
    size_t span = 1;
    for (int32_t i = 0; i < ndim; i++) {
        if (t.shape[i] == 0) {
            span = 0;
            break;
        }
        if ((uint64_t)(t.shape[i] - 1) > (SIZE_MAX / 2) / (t.strides[i] ? (uint64_t)t.strides[i] : 1))
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: constant '%s' is too large", fn, name);
        span += (size_t)(t.shape[i] - 1) * (size_t)t.strides[i];
    }
    size_t esize = airc_dtype_size(dtype);
    if (span > SIZE_MAX / esize)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: constant '%s' is too large", fn, name);
    size_t nbytes = span * esize;
    if (nbytes && !data)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: constant '%s' has no data", fn, name);
    airc_context *ctx = g->ctx;
    airc_constant *c = airc_calloc(ctx, 1, sizeof *c);
    char *name_copy = airc_strdup(ctx, name);
    void *copy = !free_data ? airc_malloc(ctx, nbytes) : NULL;
    if (!c || !name_copy || (!free_data && !copy) ||
        !airc_grow(ctx, (void **)&g->consts, &g->consts_cap, g->nconsts + 1, sizeof *g->consts)) {
        airc_free(ctx, c);
        airc_free(ctx, name_copy);
        airc_free(ctx, copy);
        return airc_fail_oom("constant");
    }
    if (copy && nbytes)
        memcpy(copy, data, nbytes);
    atomic_init(&c->refs, 1);
    c->ctx = ctx;
    c->name = name_copy;
    c->meta = t;
    c->data = copy ? copy : data;
    c->owned = copy != NULL;
    c->free_data = free_data;
    c->user_data = user_data;
    airc_context_retain(ctx);
    g->consts[g->nconsts++] = c;
    return AIRC_OK;
}

airc_status airc_graph_get_constant(const airc_graph *g, const char *name, airc_dtype *dtype,
                                    int32_t *ndim, const int64_t **shape, const int64_t **strides,
                                    void **data)
{
    AIRC_TRY(airc_check_graph(g, "airc_graph_get_constant"));
    if (!name)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_graph_get_constant: name is NULL");
    const airc_constant *c = find(g, name);
    if (!c)
        return airc_fail(AIRC_E_NOT_FOUND, "no constant named '%s'", name);
    if (dtype)
        *dtype = c->meta.dtype;
    if (ndim)
        *ndim = c->meta.ndim;
    if (shape)
        *shape = c->meta.shape;
    if (strides)
        *strides = c->meta.strides;
    if (data)
        *data = c->data;
    return AIRC_OK;
}

size_t airc_graph_num_constants(const airc_graph *g)
{
    return g && g->magic == AIRC_MAGIC_GRAPH ? g->nconsts : 0;
}

const char *airc_graph_constant_name(const airc_graph *g, size_t i)
{
    return g && g->magic == AIRC_MAGIC_GRAPH && i < g->nconsts ? g->consts[i]->name : NULL;
}
