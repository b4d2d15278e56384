/* Meta function of index.Tensor (advanced indexing, self[i0, :, i2]):
 * torch 1.13's checks, result shape and TensorIterator layout. Boolean
 * (and uint8) masks are refused: the result's size would be the count of
 * true elements, known only when the graph runs. */
#include "ops/meta_util.h"

#include <inttypes.h>
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

/* The indices argument: item i's meta in idx[i] where defined[i]; the
 * first defined position and whether the defined ones are adjacent; mask
 * the position of a bool / uint8 index (allowed only when allow_mask, as
 * the one index), else -1. torch's checks and messages. */
typedef struct index_list {
    int32_t n, first, count, mask;
    bool defined[AIRC_MAX_DIMS], adjacent;
} index_list;

static airc_status read_indices(const airc_meta_args *a, const airc_tmeta *self, airc_tmeta *idx,
                                bool allow_mask, index_list *il)
{
    const airc_value *list = airc_meta_get(a, "indices");
    if (!list || (list->kind != AIRC_VALUE_LIST && list->kind != AIRC_VALUE_TUPLE))
        return airc_fail(AIRC_E_SHAPE, "%s: indices must be a list of tensors or None", a->op);
    if (list->len > (uint32_t)self->ndim)
        return airc_fail(AIRC_E_SHAPE, "%s: too many indices for tensor of dimension %d (got %u)",
                         a->op, (int)self->ndim, (unsigned)list->len);
    memset(il, 0, sizeof *il);
    il->n = (int32_t)list->len;
    il->first = il->mask = -1;
    il->adjacent = true;
    int32_t last = -1;
    for (int32_t i = 0; i < il->n; i++) {
        const airc_value *v = list->u.items[i];
        if (!v || v->kind == AIRC_VALUE_NONE)
            continue;
        AIRC_TRY(airc_meta_value_tensor(a, "indices", v, &idx[i]));
        airc_dtype dt = idx[i].dtype;
        if ((dt == AIRC_DTYPE_BOOL || dt == AIRC_DTYPE_U8) && !allow_mask)
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "%s: index %d is a %s mask: the result's size would depend on its "
                             "values (index with nonzero() or use where/masked_fill)",
                             a->op, (int)i, airc_dtype_torch_type_name(dt));
        if (dt == AIRC_DTYPE_BOOL || dt == AIRC_DTYPE_U8)
            il->mask = i;
        else if (dt != AIRC_DTYPE_I64)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: tensors used as indices must be long, byte or bool tensors",
                             a->op);
        il->defined[i] = true;
        il->adjacent = il->adjacent && (last < 0 || last == i - 1);
        il->first = il->first < 0 ? i : il->first;
        last = i;
        il->count++;
    }
    if (!il->count)
        return airc_fail(AIRC_E_SHAPE, "%s: no index tensor (torch: ntensor >= 3 assert)", a->op);
    if (il->mask >= 0 && il->count > 1)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: a bool mask index with other index tensors is not supported", a->op);
    return AIRC_OK;
}

/* No index into a dim of size 0 (torch checks before it runs). */
static airc_status check_empty_dims(const airc_meta_args *a, const airc_tmeta *self,
                                    const airc_tmeta *idx, const bool *defined, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        if (defined[i] && self->shape[i] == 0 && airc_tmeta_numel(&idx[i]) > 0)
            return airc_fail(AIRC_E_SHAPE, "%s: index is out of bounds for dimension with size 0",
                             a->op);
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
    airc_tmeta idx[AIRC_MAX_DIMS];
    index_list il;
    AIRC_TRY(read_indices(&a, &self, idx, false, &il));
    int32_t ni = il.n, first = il.first;
    bool *defined = il.defined, adjacent = il.adjacent;
    int64_t bshape[AIRC_MAX_DIMS];
    int32_t bnd;
    AIRC_TRY(broadcast_indices(&a, idx, defined, ni, bshape, &bnd));
    AIRC_TRY(check_empty_dims(&a, &self, idx, defined, ni));

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

/* index_put(self, indices, values, accumulate=False) and index_put_:
 * self's shape, dtype and layout; values of self's dtype, broadcastable to
 * the indexing result. A bool / uint8 mask (the one index) writes a count
 * of elements known only when the graph runs: values' size there is
 * checked then. */
airc_status airc_meta_index_put(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self, v, idx[AIRC_MAX_DIMS];
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(airc_meta_tensor(&a, "values", &v));
    index_list il;
    AIRC_TRY(read_indices(&a, &self, idx, true, &il));
    bool acc;
    AIRC_TRY(airc_meta_bool(&a, "accumulate", false, &acc));
    /* torch's masked_fill path: one mask, one value of any shape and dtype */
    bool fill = il.mask >= 0 && !acc && airc_tmeta_numel(&v) == 1;
    if (fill)
        v.ndim = 0;
    if (v.dtype != self.dtype && !fill)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Index put requires the source and destination dtypes match, got %s "
                         "for the destination and %s for the source.",
                         a.op, airc_dtype_torch_type_name(self.dtype),
                         airc_dtype_torch_type_name(v.dtype));
    int64_t r[2 * AIRC_MAX_DIMS];
    int32_t rn = 0, count_dim = -1;
    if (il.mask >= 0) {
        const airc_tmeta *m = &idx[il.mask];
        int32_t p = il.mask;
        if (m->ndim == 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: a 0-dim mask index (torch 1.13: ntensor >= 3 assert)", a.op);
        if (p + m->ndim > self.ndim)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: too many indices for tensor of dimension %d (got %d)", a.op,
                             (int)self.ndim, (int)(p + m->ndim));
        for (int32_t d = 0; d < m->ndim; d++)
            if (m->shape[d] != self.shape[p + d])
                return airc_fail(AIRC_E_SHAPE,
                                 "%s: The shape of the mask [%" PRId64 "] at index %d does not "
                                 "match the shape of the indexed tensor [%" PRId64 "] at index %d",
                                 a.op, m->shape[d], (int)d, self.shape[p + d], (int)(p + d));
        for (int32_t d = 0; d < p; d++)
            r[rn++] = self.shape[d];
        count_dim = rn;
        r[rn++] = -1;
        for (int32_t d = p + m->ndim; d < self.ndim; d++)
            r[rn++] = self.shape[d];
    } else {
        int64_t bshape[AIRC_MAX_DIMS];
        int32_t bnd, before = il.adjacent ? il.first : 0;
        AIRC_TRY(broadcast_indices(&a, idx, il.defined, il.n, bshape, &bnd));
        AIRC_TRY(check_empty_dims(&a, &self, idx, il.defined, il.n));
        for (int32_t d = 0; d < before; d++)
            r[rn++] = self.shape[d];
        for (int32_t d = 0; d < bnd; d++)
            r[rn++] = bshape[d];
        for (int32_t d = before; d < self.ndim; d++)
            if (d >= il.n || !il.defined[d])
                r[rn++] = self.shape[d];
    }
    bool fits = v.ndim <= rn;
    for (int32_t j = 1; fits && j <= v.ndim; j++) {
        int64_t want = r[rn - j], have = v.shape[v.ndim - j];
        fits = have == 1 || have == want || rn - j == count_dim;
    }
    if (!fits) {
        char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
        return airc_fail(AIRC_E_SHAPE,
                         "%s: shape mismatch: value tensor of shape %s cannot be broadcast to "
                         "indexing result of shape %s",
                         a.op, airc_meta_shape_str(v.shape, v.ndim, s1),
                         airc_meta_shape_str(r, rn, s2));
    }
    airc_tmeta out = self;
    if (!airc_meta_is_inplace(&a))
        airc_meta_like_strides(&self, AIRC_MEMORY_FORMAT_PRESERVE, true, out.strides);
    return airc_meta_set(n, &out);
}
