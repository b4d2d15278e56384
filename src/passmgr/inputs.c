/* Example inputs: the meta (dtype/shape/strides) of each graph input, as
 * TorchAir hands example_inputs to custom passes. Meta only: passes never
 * need the data. */
#include "passmgr/passmgr.h"

#include <string.h>

static airc_status check_inputs(const airc_example_inputs *in, const char *fn)
{
    if (!in)
        return airc_fail(AIRC_E_MISUSE, "%s: inputs is NULL", fn);
    if (in->magic != AIRC_MAGIC_INPUTS)
        return airc_fail(AIRC_E_MISUSE, "%s: not a live airc_example_inputs", fn);
    return AIRC_OK;
}

airc_status airc_example_inputs_create(airc_context *ctx, airc_example_inputs **out)
{
    AIRC_TRY(airc_check_context(ctx, "airc_example_inputs_create"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_example_inputs_create: out is NULL");
    airc_example_inputs *in = airc_calloc(ctx, 1, sizeof *in);
    if (!in)
        return airc_fail_oom("example inputs");
    in->magic = AIRC_MAGIC_INPUTS;
    in->ctx = ctx;
    airc_context_retain(ctx);
    *out = in;
    return AIRC_OK;
}

void airc_example_inputs_destroy(airc_example_inputs *in)
{
    if (!in || in->magic != AIRC_MAGIC_INPUTS)
        return;
    airc_context *ctx = in->ctx;
    in->magic = AIRC_MAGIC_DEAD;
    airc_free(ctx, in->items);
    airc_free(ctx, in);
    airc_context_release(ctx);
}

airc_status airc_example_inputs_add(airc_example_inputs *in, airc_dtype dtype, int32_t ndim,
                                    const int64_t *shape, const int64_t *strides)
{
    AIRC_TRY(check_inputs(in, "airc_example_inputs_add"));
    if (ndim > 0 && !shape)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_example_inputs_add: shape is NULL");
    airc_tmeta t;
    memset(&t, 0, sizeof t);
    airc_status st = airc_tmeta_set(&t, dtype, ndim, shape, strides);
    if (st != AIRC_OK)
        return airc_fail_prefix("airc_example_inputs_add: input %zu", in->n);
    if (!airc_grow(in->ctx, (void **)&in->items, &in->cap, in->n + 1, sizeof *in->items))
        return airc_fail_oom("example inputs");
    in->items[in->n++] = t;
    return AIRC_OK;
}

airc_status airc_example_inputs_add_tensor(airc_example_inputs *in, const airc_tensor *t)
{
    AIRC_TRY(check_inputs(in, "airc_example_inputs_add_tensor"));
    if (!t)
        return airc_fail(AIRC_E_MISUSE, "airc_example_inputs_add_tensor: tensor is NULL");
    return airc_example_inputs_add(in, airc_tensor_dtype(t), airc_tensor_ndim(t),
                                   airc_tensor_shape(t), NULL);
}

size_t airc_example_inputs_count(const airc_example_inputs *in)
{
    return in && in->magic == AIRC_MAGIC_INPUTS ? in->n : 0;
}

airc_status airc_example_inputs_get(const airc_example_inputs *in, size_t i, airc_dtype *dtype,
                                    int32_t *ndim, const int64_t **shape,
                                    const int64_t **strides)
{
    AIRC_TRY(check_inputs(in, "airc_example_inputs_get"));
    if (i >= in->n)
        return airc_fail(AIRC_E_NOT_FOUND, "airc_example_inputs_get: input %zu of %zu", i, in->n);
    const airc_tmeta *t = &in->items[i];
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

airc_status airc_seed_placeholder_meta(airc_graph *g, const airc_example_inputs *in)
{
    size_t np = 0;
    AIRC_FOR_EACH_NODE(g, n)
        np += n->kind == AIRC_NODE_PLACEHOLDER;
    if (np != in->n)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "the graph has %zu placeholder%s but %zu example input%s were given", np,
                         np == 1 ? "" : "s", in->n, in->n == 1 ? "" : "s");
    size_t i = 0;
    AIRC_FOR_EACH_NODE(g, n) {
        if (n->kind != AIRC_NODE_PLACEHOLDER)
            continue;
        const airc_tmeta *t = &in->items[i++];
        airc_status st = airc_node_set_meta(n, t->dtype, t->ndim, t->shape, t->strides);
        if (st != AIRC_OK)
            return airc_fail_prefix("placeholder '%s'", n->name);
    }
    return AIRC_OK;
}
