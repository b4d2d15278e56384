/* Tensor meta of nodes (dtype/shape/strides of results) and free node
 * attributes. */
#include "ir/ir.h"

#include <string.h>

/* a * b, INT64_MAX when it does not fit: meta functions compute strides
 * and sizes of shapes airc_tmeta_set has not checked yet (it refuses the
 * ones past int64) */
static int64_t mul_sat(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

void airc_tmeta_contiguous(airc_tmeta *t)
{
    int64_t s = 1;
    for (int32_t i = t->ndim - 1; i >= 0; i--) {
        t->strides[i] = s;
        s = mul_sat(s, t->shape[i] > 1 ? t->shape[i] : 1);
    }
}

bool airc_tmeta_is_contiguous(const airc_tmeta *t)
{
    /* torch's is_contiguous: empty tensors are, and size-1 dims may have
     * any stride */
    for (int32_t i = 0; i < t->ndim; i++)
        if (t->shape[i] == 0)
            return true;
    int64_t s = 1;
    for (int32_t i = t->ndim - 1; i >= 0; i--) {
        if (t->shape[i] != 1 && t->strides[i] != s)
            return false;
        s = mul_sat(s, t->shape[i]);
    }
    return true;
}

int64_t airc_tmeta_numel(const airc_tmeta *t)
{
    int64_t n = 1;
    for (int32_t i = 0; i < t->ndim; i++)
        n = mul_sat(n, t->shape[i]);
    return n;
}

airc_status airc_tmeta_set(airc_tmeta *t, airc_dtype dtype, int32_t ndim, const int64_t *shape,
                           const int64_t *strides)
{
    if (!airc_dtype_name(dtype))
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "invalid dtype %d", (int)dtype);
    if (ndim < 0 || ndim > AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "rank %d not in [0, %d]", (int)ndim,
                         AIRC_MAX_DIMS);
    if (ndim && !shape)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "shape is NULL");
    /* the product of max(size, 1) bounds both numel and the contiguous
     * strides, so neither can overflow */
    int64_t span = 1;
    for (int32_t i = 0; i < ndim; i++) {
        if (shape[i] < 0)
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "negative size %lld in dim %d",
                             (long long)shape[i], (int)i);
        if (shape[i] > 1 && span > INT64_MAX / shape[i])
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "shape overflows int64");
        span *= shape[i] > 1 ? shape[i] : 1;
        if (strides && strides[i] < 0)
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "negative stride in dim %d", (int)i);
    }
    t->dtype = dtype;
    t->ndim = ndim;
    for (int32_t i = 0; i < ndim; i++)
        t->shape[i] = shape[i];
    if (strides)
        for (int32_t i = 0; i < ndim; i++)
            t->strides[i] = strides[i];
    else
        airc_tmeta_contiguous(t);
    return AIRC_OK;
}

int32_t airc_node_meta_kind(const airc_node *n)
{
    return n && n->magic == AIRC_MAGIC_NODE ? n->meta_kind : AIRC_META_NONE;
}

size_t airc_node_num_outputs(const airc_node *n)
{
    return n && n->magic == AIRC_MAGIC_NODE && n->meta_kind != AIRC_META_NONE ? n->nout : 0;
}

airc_status airc_node_output_meta(const airc_node *n, size_t i, airc_dtype *dtype, int32_t *ndim,
                                  const int64_t **shape, const int64_t **strides)
{
    if (!n || n->magic != AIRC_MAGIC_NODE)
        return airc_fail(AIRC_E_MISUSE, "airc_node_output_meta: not a node");
    if (n->meta_kind == AIRC_META_NONE || i >= n->nout)
        return airc_fail(AIRC_E_NOT_FOUND, "node '%s' has no meta for output %zu", n->name, i);
    const airc_tmeta *t = &n->out[i];
    if (dtype)
        *dtype = t->dtype;
    if (ndim)
        *ndim = t->ndim;
    if (shape)
        *shape = t->shape;
    if (strides)
        *strides = t->strides;
    return AIRC_OK;
}

static bool reserve_out(airc_node *n, size_t count)
{
    return airc_grow(n->graph->ctx, (void **)&n->out, &n->out_cap, count ? count : 1,
                     sizeof *n->out);
}

airc_status airc_node_set_meta(airc_node *n, airc_dtype dtype, int32_t ndim, const int64_t *shape,
                               const int64_t *strides)
{
    AIRC_TRY(airc_check_node(n, "airc_node_set_meta"));
    airc_tmeta t;
    airc_status st = airc_tmeta_set(&t, dtype, ndim, shape, strides);
    if (st != AIRC_OK)
        return airc_fail_prefix("airc_node_set_meta: node '%s'", n->name);
    if (!reserve_out(n, 1))
        return airc_fail_oom("node meta");
    n->out[0] = t;
    n->nout = 1;
    n->meta_kind = AIRC_META_TENSOR;
    return AIRC_OK;
}

airc_status airc_node_set_meta_tuple(airc_node *n, size_t count)
{
    AIRC_TRY(airc_check_node(n, "airc_node_set_meta_tuple"));
    if (count > 4096)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_node_set_meta_tuple: %zu outputs", count);
    if (!reserve_out(n, count))
        return airc_fail_oom("node meta");
    for (size_t i = 0; i < count; i++)
        memset(&n->out[i], 0, sizeof n->out[i]);
    n->nout = (uint32_t)count;
    n->meta_kind = AIRC_META_TUPLE;
    return AIRC_OK;
}

airc_status airc_node_set_output_meta(airc_node *n, size_t i, airc_dtype dtype, int32_t ndim,
                                      const int64_t *shape, const int64_t *strides)
{
    AIRC_TRY(airc_check_node(n, "airc_node_set_output_meta"));
    if (n->meta_kind != AIRC_META_TUPLE || i >= n->nout)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_node_set_output_meta: node '%s' has no tuple output %zu", n->name,
                         i);
    if (airc_tmeta_set(&n->out[i], dtype, ndim, shape, strides) != AIRC_OK)
        return airc_fail_prefix("airc_node_set_output_meta: node '%s'", n->name);
    return AIRC_OK;
}

airc_status airc_node_clear_meta(airc_node *n)
{
    AIRC_TRY(airc_check_node(n, "airc_node_clear_meta"));
    n->meta_kind = AIRC_META_NONE;
    n->nout = 0;
    return AIRC_OK;
}

airc_status airc_value_meta(const airc_value *v, airc_dtype *dtype, int32_t *ndim,
                            const int64_t **shape, const int64_t **strides)
{
    if (!v || v->kind != AIRC_VALUE_NODE)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_value_meta: value is not a node");
    return airc_node_output_meta(v->u.node, 0, dtype, ndim, shape, strides);
}

/* ---- attributes -------------------------------------------------------- */

airc_status airc_node_set_attr(airc_node *n, const char *key, const airc_value *v)
{
    AIRC_TRY(airc_check_node(n, "airc_node_set_attr"));
    if (!key || !*key)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_node_set_attr: empty key");
    if (v && v->owner != n->graph)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_node_set_attr: value belongs to another graph");
    for (size_t i = 0; i < n->nattrs; i++) {
        if (strcmp(n->attr_keys[i], key))
            continue;
        if (v) {
            n->attr_values[i] = v;
        } else {
            memmove(&n->attr_keys[i], &n->attr_keys[i + 1],
                    (n->nattrs - i - 1) * sizeof *n->attr_keys);
            memmove(&n->attr_values[i], &n->attr_values[i + 1],
                    (n->nattrs - i - 1) * sizeof *n->attr_values);
            n->nattrs--;
        }
        return AIRC_OK;
    }
    if (!v)
        return AIRC_OK;
    airc_context *ctx = n->graph->ctx;
    if (n->nattrs >= UINT32_MAX / 2)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_node_set_attr: too many attributes");
    size_t cap = n->attrs_cap;
    const char *copy = airc_arena_strdup(&n->graph->arena, key);
    if (!copy || !airc_grow(ctx, (void **)&n->attr_keys, &cap, n->nattrs + 1, sizeof *n->attr_keys))
        return airc_fail_oom("node attribute");
    cap = n->attrs_cap;
    if (!airc_grow(ctx, (void **)&n->attr_values, &cap, n->nattrs + 1, sizeof *n->attr_values))
        return airc_fail_oom("node attribute");
    n->attrs_cap = (uint32_t)cap; /* doubling from < 2^31 entries */
    n->attr_keys[n->nattrs] = copy;
    n->attr_values[n->nattrs] = v;
    n->nattrs++;
    return AIRC_OK;
}

const airc_value *airc_node_get_attr(const airc_node *n, const char *key)
{
    if (!n || n->magic != AIRC_MAGIC_NODE || !key)
        return NULL;
    for (size_t i = 0; i < n->nattrs; i++)
        if (!strcmp(n->attr_keys[i], key))
            return n->attr_values[i];
    return NULL;
}

size_t airc_node_num_attrs(const airc_node *n)
{
    return n && n->magic == AIRC_MAGIC_NODE ? n->nattrs : 0;
}

const char *airc_node_attr_key(const airc_node *n, size_t i)
{
    return n && n->magic == AIRC_MAGIC_NODE && i < n->nattrs ? n->attr_keys[i] : NULL;
}
