/* Shape family: indexing kernels (index_select, gather, embedding,
 * index.Tensor). Every index is checked before it is used: an index out of
 * range is an AIRC_E_RUNTIME error with torch's wording, never a stray
 * read. */
#include "backends/cpu/k_shape_impl.h"

#include <string.h>

static airc_status tensor_arg(airc_kernel_ctx *k, size_t i, const airc_tview **out)
{
    if (i < k->nargs && k->in && k->in[i]) {
        *out = k->in[i];
        return AIRC_OK;
    }
    *out = NULL; /* never read: keeps -Wmaybe-uninitialized quiet */
    return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "argument %zu must be a tensor", i);
}

static airc_status index_dtype(airc_kernel_ctx *k, const airc_tview *index)
{
    if (index->dtype == AIRC_DTYPE_I64 || index->dtype == AIRC_DTYPE_I32)
        return AIRC_OK;
    return airc_cpu_fail(k, AIRC_E_RUNTIME, "indices must be int64 or int32, got %s",
                         airc_dtype_name(index->dtype));
}

/* index_select(self, dim, index): out's slice j along dim = self's slice
 * index[j]. Negative indices are out of range, as in torch. */
airc_status airc_cpu_k_index_select(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *self, *index;
    AIRC_TRY(tensor_arg(k, 0, &self));
    AIRC_TRY(tensor_arg(k, 2, &index));
    AIRC_TRY(index_dtype(k, index));
    if (index->ndim > 1)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "index_select(): Index is supposed to be a vector");
    const airc_tview *out = &k->out[0];
    int32_t d = airc_cpu_wrap_dim(airc_cpu_arg_int(k, 1, 0), self->ndim);
    if (d < 0 || d >= (self->ndim ? self->ndim : 1))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "dim out of range");
    int64_t size = self->ndim ? self->shape[d] : 1;
    int64_t count = airc_cpu_numel(index);
    int64_t istride = index->ndim ? index->strides[0] : 0;
    size_t iesz = airc_dtype_size(index->dtype);
    if ((self->ndim ? out->shape[d] : 1) != count || out->ndim != self->ndim)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "the result does not fit %lld indices",
                             (long long)count);
    for (int64_t j = 0; j < count; j++) {
        int64_t i = airc_cpu_load_i64((char *)index->data + j * istride * (int64_t)iesz,
                                      index->dtype);
        if (i < 0 || i >= size)
            return airc_cpu_fail(k, AIRC_E_RUNTIME,
                                 "index out of range in self: index %lld is out of bounds for "
                                 "dimension %d with size %lld",
                                 (long long)i, (int)d, (long long)size);
        if (!self->ndim) {
            airc_cpu_copy(out, self);
            continue;
        }
        airc_tview src = *self, dst = *out;
        airc_cpu_select(&src, d, i);
        airc_cpu_select(&dst, d, j);
        airc_cpu_copy(&dst, &src);
    }
    return AIRC_OK;
}

/* gather(self, dim, index): out[p] = self[p with p[dim] = index[p]], p over
 * index's shape (which is out's). */
airc_status airc_cpu_k_gather(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *self0, *index0;
    AIRC_TRY(tensor_arg(k, 0, &self0));
    AIRC_TRY(tensor_arg(k, 2, &index0));
    int64_t n = airc_cpu_numel(index0);
    if (n == 0) /* torch checks an empty index for nothing */
        return AIRC_OK;
    if (index0->dtype != AIRC_DTYPE_I64)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "gather(): Expected dtype int64 for index");
    /* torch counts a 0-dim self, index or result as 1-dim of size 1 */
    airc_tview sv = *self0, iv = *index0, ov = k->out[0];
    airc_tview *views[3] = {&sv, &iv, &ov};
    for (int i = 0; i < 3; i++)
        if (views[i]->ndim == 0) {
            views[i]->ndim = 1;
            views[i]->shape[0] = views[i]->strides[0] = 1;
        }
    const airc_tview *self = &sv, *index = &iv, *out = &ov;
    int32_t nd = index->ndim;
    int32_t d = airc_cpu_wrap_dim(airc_cpu_arg_int(k, 1, 0), self->ndim);
    if (d < 0 || d >= nd || nd != self->ndim || out->ndim != nd || out->dtype != self->dtype)
        return airc_cpu_fail(k, AIRC_E_RUNTIME,
                             "Index tensor must have the same number of dimensions as input "
                             "tensor");
    int64_t size = self->shape[d];
    for (int32_t i = 0; i < nd; i++)
        if (i != d && index->shape[i] > self->shape[i])
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "index is larger than self at dim %d",
                                 (int)i);
    size_t esz = airc_dtype_size(self->dtype);
    int64_t idx[AIRC_MAX_DIMS] = {0};
    for (int64_t e = 0; e < n; e++) {
        int64_t ioff = 0, ooff = 0, soff = 0;
        for (int32_t i = 0; i < nd; i++) {
            ioff += idx[i] * index->strides[i];
            ooff += idx[i] * out->strides[i];
            if (i != d)
                soff += idx[i] * self->strides[i];
        }
        int64_t v;
        memcpy(&v, (char *)index->data + ioff * 8, 8);
        if (v < 0 || v >= size)
            return airc_cpu_fail(k, AIRC_E_RUNTIME,
                                 "index %lld is out of bounds for dimension %d with size %lld",
                                 (long long)v, (int)d, (long long)size);
        soff += v * self->strides[d];
        memcpy((char *)out->data + ooff * (int64_t)esz, (char *)self->data + soff * (int64_t)esz,
               esz);
        for (int32_t i = nd - 1; i >= 0; i--) {
            if (++idx[i] < index->shape[i])
                break;
            idx[i] = 0;
        }
    }
    return AIRC_OK;
}

/* embedding(weight, indices, padding_idx, ...): out[p, :] = weight[indices[p], :]
 * (padding_idx only matters for the gradient). */
airc_status airc_cpu_k_embedding(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *w, *index;
    AIRC_TRY(tensor_arg(k, 0, &w));
    AIRC_TRY(tensor_arg(k, 1, &index));
    AIRC_TRY(index_dtype(k, index));
    const airc_tview *out = &k->out[0];
    int32_t nd = index->ndim;
    if (w->ndim != 2 || out->ndim != nd + 1 || out->shape[nd] != w->shape[1])
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "'weight' must be 2-D and match the result");
    int64_t n = airc_cpu_numel(index), rows = w->shape[0];
    size_t iesz = airc_dtype_size(index->dtype);
    int64_t idx[AIRC_MAX_DIMS] = {0};
    for (int64_t e = 0; e < n; e++) {
        int64_t ioff = 0;
        airc_tview dst = *out;
        for (int32_t i = 0; i < nd; i++)
            ioff += idx[i] * index->strides[i];
        for (int32_t i = 0; i < nd; i++)
            airc_cpu_select(&dst, 0, idx[i]);
        int64_t v = airc_cpu_load_i64((char *)index->data + ioff * (int64_t)iesz, index->dtype);
        if (v < 0 || v >= rows)
            return airc_cpu_fail(k, AIRC_E_RUNTIME,
                                 "index out of range in self: index %lld is out of bounds for "
                                 "dimension 0 with size %lld",
                                 (long long)v, (long long)rows);
        airc_tview src = *w;
        airc_cpu_select(&src, 0, v);
        airc_cpu_copy(&dst, &src);
        for (int32_t i = nd - 1; i >= 0; i--) {
            if (++idx[i] < index->shape[i])
                break;
            idx[i] = 0;
        }
    }
    return AIRC_OK;
}

/* The index tensors of index.Tensor (None items are zeroed views) and
 * where their broadcast block sits in the result. */
typedef struct adv_index {
    const airc_tview *idx;
    uint32_t n;
    int32_t nbefore, bnd;         /* result dims [nbefore, nbefore + bnd) are the block */
    airc_tview ie[AIRC_MAX_DIMS]; /* defined indices expanded to the block */
} adv_index;

static airc_status adv_index_init(airc_kernel_ctx *k, const airc_tview *x, const airc_tview *o,
                                  adv_index *a)
{
    if (!k->in_list || !k->in_list[1] || k->in_list_len[1] > (uint32_t)x->ndim)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "indices must be at most %d tensors",
                             (int)x->ndim);
    a->idx = k->in_list[1];
    a->n = k->in_list_len[1];
    int32_t first = -1, last = -1, count = 0;
    bool adjacent = true;
    for (int32_t i = 0; i < (int32_t)a->n; i++) {
        if (a->idx[i].dtype == AIRC_DTYPE_UNDEFINED)
            continue;
        if (a->idx[i].dtype != AIRC_DTYPE_I64)
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "index %d must be int64, got %s", (int)i,
                                 airc_dtype_name(a->idx[i].dtype));
        adjacent = adjacent && (last < 0 || last == i - 1);
        first = first < 0 ? i : first;
        last = i;
        count++;
    }
    a->nbefore = adjacent ? first : 0;
    a->bnd = o->ndim - (x->ndim - count);
    if (!count || a->bnd < 0 || a->nbefore + a->bnd > o->ndim)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "the result's dims do not match the indices");
    for (int32_t i = 0; i < (int32_t)a->n; i++)
        if (a->idx[i].dtype != AIRC_DTYPE_UNDEFINED &&
            !airc_cpu_expand(&a->idx[i], o->shape + a->nbefore, a->bnd, &a->ie[i]))
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "index %d does not broadcast", (int)i);
    return AIRC_OK;
}

/* index.Tensor(self, indices): for each position b of the indices' block,
 * self at the indexed positions (a view over its other dims) is copied to
 * the result's slice at b. */
airc_status airc_cpu_k_index(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x;
    AIRC_TRY(tensor_arg(k, 0, &x));
    const airc_tview *o = &k->out[0];
    if (airc_cpu_numel(o) == 0)
        return AIRC_OK;
    adv_index a;
    AIRC_TRY(adv_index_init(k, x, o, &a));
    /* the sub-tensor views: the result without the block, self without the
     * indexed dims (its dims before the block first, then the rest) */
    airc_tview dst = *o, src = *x;
    dst.ndim = src.ndim = 0;
    for (int32_t r = 0; r < o->ndim; r++) {
        if (r >= a.nbefore && r < a.nbefore + a.bnd)
            continue;
        dst.shape[dst.ndim] = o->shape[r];
        dst.strides[dst.ndim++] = o->strides[r];
    }
    for (int32_t d = 0; d < x->ndim; d++) {
        if (d >= a.nbefore && d < (int32_t)a.n && a.idx[d].dtype != AIRC_DTYPE_UNDEFINED)
            continue;
        src.shape[src.ndim] = x->shape[d];
        src.strides[src.ndim++] = x->strides[d];
    }
    if (dst.ndim != src.ndim)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "the result's dims do not match self's");
    int64_t esz = (int64_t)airc_dtype_size(x->dtype), nb = 1, b[AIRC_MAX_DIMS] = {0};
    for (int32_t d = 0; d < a.bnd; d++)
        nb *= o->shape[a.nbefore + d];
    for (int64_t p = 0; p < nb; p++) {
        int64_t soff = 0, doff = 0;
        for (int32_t i = 0; i < (int32_t)a.n; i++) {
            if (a.idx[i].dtype == AIRC_DTYPE_UNDEFINED)
                continue;
            int64_t at = 0, size = x->shape[i];
            for (int32_t d = 0; d < a.bnd; d++)
                at += b[d] * a.ie[i].strides[d];
            int64_t v = ((const int64_t *)a.ie[i].data)[at];
            if (v < -size || v >= size)
                return airc_cpu_fail(k, AIRC_E_RUNTIME,
                                     "index %lld is out of bounds for dimension %d with size %lld",
                                     (long long)v, (int)i, (long long)size);
            soff += (v < 0 ? v + size : v) * x->strides[i];
        }
        for (int32_t d = 0; d < a.bnd; d++)
            doff += b[d] * o->strides[a.nbefore + d];
        dst.data = (char *)o->data + doff * esz;
        src.data = (char *)x->data + soff * esz;
        airc_cpu_copy(&dst, &src);
        for (int32_t d = a.bnd - 1; d >= 0 && ++b[d] == o->shape[a.nbefore + d]; d--)
            b[d] = 0;
    }
    return AIRC_OK;
}
