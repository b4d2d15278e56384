/* Meta functions of operator.getitem and TorchAir's multi-stream ops. */
#include "ops/meta_util.h"

#include <inttypes.h>
#include <string.h>

airc_status airc_meta_getitem(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    const airc_value *self = airc_meta_get(&a, "self");
    int64_t idx;
    AIRC_TRY(airc_meta_int(&a, "idx", 0, &idx));
    if (!self || self->kind != AIRC_VALUE_NODE)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: only a node's tuple result can be indexed (argument 0 is not a "
                         "node)",
                         a.op);
    const airc_node *x = self->u.node;
    if (x->meta_kind == AIRC_META_NONE)
        return airc_fail(AIRC_E_SHAPE, "%s: '%s' has no meta", a.op, x->name);
    if (x->meta_kind != AIRC_META_TUPLE)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: '%s' is a tensor, not a tuple: indexing a tensor is not supported "
                         "(use aten.select.int)",
                         a.op, x->name);
    int64_t count = x->nout;
    if (idx < -count || idx >= count)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: index %" PRId64 " out of range for the %" PRId64
                         " results of '%s'",
                         a.op, idx, count, x->name);
    if (idx < 0)
        idx += count;
    /* copy first: x may be n itself only in a broken graph, but the meta
     * array may move when n's is set */
    airc_tmeta t = x->out[idx];
    return airc_meta_set(n, &t);
}

/* scope_enter / scope_exit / wait return nothing: a tuple of 0 tensors.
 * record returns an event handle that airc models as a 0-dim f32 tensor
 * placeholder (TorchAir's schema says Tensor; no data is ever read). */
airc_status airc_meta_air(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    const char *name = airc_meta_name(&a);
    if (!strcmp(name, "record")) {
        airc_tmeta t;
        memset(&t, 0, sizeof t);
        t.dtype = AIRC_DTYPE_F32;
        return airc_meta_set(n, &t);
    }
    if (!strcmp(name, "wait")) {
        const airc_value *x = airc_meta_get(&a, "x");
        for (size_t i = 0; x && i < x->len; i++) {
            airc_tmeta t;
            AIRC_TRY(airc_meta_value_tensor(&a, "x", x->u.items[i], &t));
        }
    }
    return airc_node_set_meta_tuple(n, 0);
}
