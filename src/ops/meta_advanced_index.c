/* Meta function of index.Tensor (advanced indexing, self[i0, :, i2]):
 * torch 1.13's checks, result shape and TensorIterator layout. Boolean
 * (and uint8) masks are refused: the result's size would be the count of
 * true elements, known only when the graph runs. */
#include "ops/meta_util.h"

#include <string.h>

/* The broadcast shape of the index tensors, with torch's message. */
static airc_status broadcast_indices(const airc_meta_args *a, const airc_tmeta *idx,
                                     const bool *defined, int32_t n, int64_t *shape, int32_t *nd)
{
    *nd = 0;
    for (int32_t i = 0; i < n; i++) {
        if (!defined[i])
            continue;
        const airc_tmeta *t = &idx[i];
        int32_t out = t->ndim > *nd ? t->ndim : *nd;
        int64_t next[AIRC_MAX_DIMS];
        for (int32_t d = 0; d < out; d++) {
            int32_t j = d - (out - t->ndim), k = d - (out - *nd);
            int64_t s = j < 0 ? 1 : t->shape[j], c = k < 0 ? 1 : shape[k];
            if (s != c && s != 1 && c != 1) {
                /* the first four shapes (each at most AIRC_MAX_DIMS numbers) */
                char buf[AIRC_META_SHAPE_STR], all[4 * AIRC_META_SHAPE_STR + 8] = "";
                for (int32_t q = 0, m = 0; q < n && m < 4; q++) {
                    if (!defined[q])
                        continue;
                    if (m++)
                        strcat(all, ", ");
                    strcat(all, airc_meta_shape_str(idx[q].shape, idx[q].ndim, buf));
                }
                return airc_fail(AIRC_E_SHAPE,
                                 "%s: shape mismatch: indexing tensors could not be broadcast "
                                 "together with shapes %s",
                                 a->op, all);
            }
            next[d] = c == 1 ? s : c;
        }
        memcpy(shape, next, sizeof *next * (size_t)out);
        *nd = out;
    }
    return AIRC_OK;
}

/* index.Tensor(self, indices): indexed dims replaced by the broadcast
 * shape B of the indices, in place when the indexed dims are adjacent, in
 * front otherwise. Strides are TensorIterator's over self restrided (0 on
 * B's dims) and the indices viewed as [1..., B, 1...]. */
airc_status airc_meta_index(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    const airc_value *list = airc_meta_get(&a, "indices");
    if (!list || (list->kind != AIRC_VALUE_LIST && list->kind != AIRC_VALUE_TUPLE))
        return airc_fail(AIRC_E_SHAPE, "%s: indices must be a list of tensors or None", a.op);
    if (list->len > (uint32_t)self.ndim)
        return airc_fail(AIRC_E_SHAPE, "%s: too many indices for tensor of dimension %d (got %u)",
                         a.op, (int)self.ndim, (unsigned)list->len);
    int32_t ni = (int32_t)list->len, first = -1, last = -1, count = 0;
    airc_tmeta idx[AIRC_MAX_DIMS];
    bool defined[AIRC_MAX_DIMS] = {false}, adjacent = true;
    for (int32_t i = 0; i < ni; i++) {
        const airc_value *v = list->u.items[i];
        if (!v || v->kind == AIRC_VALUE_NONE)
            continue;
        AIRC_TRY(airc_meta_value_tensor(&a, "indices", v, &idx[i]));
        airc_dtype dt = idx[i].dtype;
        if (dt == AIRC_DTYPE_BOOL || dt == AIRC_DTYPE_U8)
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "%s: index %d is a %s mask: the result's size would depend on its "
                             "values (index with nonzero() or use where/masked_fill)",
                             a.op, (int)i, airc_dtype_torch_type_name(dt));
        if (dt != AIRC_DTYPE_I64)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: tensors used as indices must be long, byte or bool tensors",
                             a.op);
        defined[i] = true;
        adjacent = adjacent && (last < 0 || last == i - 1);
        first = first < 0 ? i : first;
        last = i;
        count++;
    }
    if (!count)
        return airc_fail(AIRC_E_SHAPE, "%s: no index tensor (torch: ntensor >= 3 assert)", a.op);
    int64_t bshape[AIRC_MAX_DIMS];
    int32_t bnd;
    AIRC_TRY(broadcast_indices(&a, idx, defined, ni, bshape, &bnd));
    for (int32_t i = 0; i < ni; i++)
        if (defined[i] && self.shape[i] == 0 && airc_tmeta_numel(&idx[i]) > 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: index is out of bounds for dimension with size 0", a.op);

    /* self's dims in result order: before, the indexed block, after */
    int32_t order[AIRC_MAX_DIMS], no = 0, nbefore = adjacent ? first : 0;
    for (int32_t d = 0; d < nbefore; d++)
        order[no++] = d;
    for (int32_t d = nbefore; d < self.ndim; d++)
        if (d >= ni || !defined[d])
            order[no++] = d;
    int32_t nafter = no - nbefore, rnd = nbefore + bnd + nafter;
    if (rnd > AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: a result of %d dims (at most %d)", a.op,
                         (int)rnd, AIRC_MAX_DIMS);
    airc_operand ops[AIRC_MAX_DIMS];
    memset(ops, 0, sizeof ops);
    airc_tmeta *src = &ops[0].t, out = self;
    ops[0].present = true;
    src->ndim = out.ndim = rnd;
    for (int32_t r = 0, j = 0; r < rnd; r++) {
        bool in_b = r >= nbefore && r < nbefore + bnd;
        int32_t d = in_b ? -1 : order[j++];
        out.shape[r] = in_b ? bshape[r - nbefore] : self.shape[d];
        src->shape[r] = out.shape[r];
        src->strides[r] = in_b ? 0 : self.strides[d];
    }
    size_t nops = 1;
    for (int32_t i = 0; i < ni && nops < AIRC_MAX_DIMS; i++) {
        if (!defined[i])
            continue;
        airc_tmeta e, *v = &ops[nops].t;
        airc_meta_expand_to(&idx[i], bshape, bnd, &e);
        ops[nops].present = true;
        *v = e;
        v->ndim = rnd;
        int64_t vshape[AIRC_MAX_DIMS];
        for (int32_t r = 0; r < rnd; r++)
            vshape[r] = r >= nbefore && r < nbefore + bnd ? bshape[r - nbefore] : 1;
        memcpy(v->shape, vshape, sizeof vshape);
        if (!airc_meta_view_strides(&e, vshape, rnd, v->strides))
            airc_tmeta_contiguous(v); /* not reached: adding 1s always views */
        nops++;
    }
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    airc_meta_iter_strides(ops, nops, out.shape, out.ndim, out.strides);
    return airc_meta_set(n, &out);
}
