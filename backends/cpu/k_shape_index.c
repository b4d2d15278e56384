/* Shape family: indexing kernels (index_select, gather, embedding,
 * index.Tensor). Every index is checked before it is used: an index out of
 * range is an AIRC_E_RUNTIME error with torch's wording, never a stray
 * read. */
#include "backends/cpu/k_shape_impl.h"
#include "ops/meta_util.h"

#include <math.h>

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

/* The index tensors of index.Tensor / index_put (None items are zeroed
 * views), their broadcast block B and where it sits in the indexing
 * result: at nbefore when the indexed dims are adjacent, else in front. */
typedef struct adv_index {
    const airc_tview *idx;
    uint32_t n;
    int32_t nbefore, bnd, count;
    int64_t bshape[AIRC_MAX_DIMS];
    airc_tview ie[AIRC_MAX_DIMS]; /* defined indices expanded to B */
} adv_index;

static bool index_defined(const adv_index *a, int32_t d)
{
    return d < (int32_t)a->n && a->idx[d].dtype != AIRC_DTYPE_UNDEFINED;
}

static airc_status adv_index_init(airc_kernel_ctx *k, const airc_tview *x, adv_index *a)
{
    if (!k->in_list || !k->in_list[1] || k->in_list_len[1] > (uint32_t)x->ndim)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "indices must be at most %d tensors",
                             (int)x->ndim);
    memset(a, 0, sizeof *a);
    a->idx = k->in_list[1];
    a->n = k->in_list_len[1];
    int32_t first = -1, last = -1;
    bool adjacent = true;
    for (int32_t i = 0; i < (int32_t)a->n; i++) {
        const airc_tview *t = &a->idx[i];
        if (t->dtype == AIRC_DTYPE_UNDEFINED)
            continue;
        if (t->dtype != AIRC_DTYPE_I64)
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "index %d must be int64, got %s", (int)i,
                                 airc_dtype_name(t->dtype));
        adjacent = adjacent && (last < 0 || last == i - 1);
        first = first < 0 ? i : first;
        last = i;
        a->count++;
        /* B: the broadcast of the index shapes */
        int32_t nd = t->ndim > a->bnd ? t->ndim : a->bnd;
        int64_t b[AIRC_MAX_DIMS];
        for (int32_t d = 0; d < nd; d++) {
            int32_t j = d - (nd - t->ndim), q = d - (nd - a->bnd);
            int64_t s = j < 0 ? 1 : t->shape[j], c = q < 0 ? 1 : a->bshape[q];
            if (s != c && s != 1 && c != 1)
                return airc_cpu_fail(k, AIRC_E_RUNTIME, "the indices do not broadcast");
            b[d] = c == 1 ? s : c;
        }
        memcpy(a->bshape, b, sizeof *b * (size_t)nd);
        a->bnd = nd;
    }
    if (!a->count)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "no index tensor");
    a->nbefore = adjacent ? first : 0;
    for (int32_t i = 0; i < (int32_t)a->n; i++)
        if (index_defined(a, i) && !airc_cpu_expand(&a->idx[i], a->bshape, a->bnd, &a->ie[i]))
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "index %d does not broadcast", (int)i);
    return AIRC_OK;
}

/* x without its indexed dims: a view over the others, in order. */
static void unindexed_view(const adv_index *a, const airc_tview *x, airc_tview *v)
{
    *v = *x;
    v->ndim = 0;
    for (int32_t d = 0; d < x->ndim; d++) {
        if (index_defined(a, d))
            continue;
        v->shape[v->ndim] = x->shape[d];
        v->strides[v->ndim++] = x->strides[d];
    }
}

/* r (the indexing result's shape, or a view of it) without the block. */
static void unblocked_view(const adv_index *a, const airc_tview *r, airc_tview *v)
{
    *v = *r;
    v->ndim = 0;
    for (int32_t d = 0; d < r->ndim; d++) {
        if (d >= a->nbefore && d < a->nbefore + a->bnd)
            continue;
        v->shape[v->ndim] = r->shape[d];
        v->strides[v->ndim++] = r->strides[d];
    }
}

/* Calls fn(x sub-view, r sub-view) for each position of the block: x's
 * sub-view at the indexed position (bounds-checked), r's at the block
 * position. x_sub / r_sub hold the views' shapes and strides. */
typedef void (*adv_fn)(const airc_tview *xs, const airc_tview *rs, void *u);

static airc_status adv_walk(airc_kernel_ctx *k, const adv_index *a, const airc_tview *x,
                            const airc_tview *r, adv_fn fn, void *u)
{
    airc_tview xs, rs;
    unindexed_view(a, x, &xs);
    unblocked_view(a, r, &rs);
    if (xs.ndim != rs.ndim || r->ndim != xs.ndim + a->bnd)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "the result's dims do not match self's");
    int64_t esz = (int64_t)airc_dtype_size(x->dtype), rsz = (int64_t)airc_dtype_size(r->dtype);
    int64_t nb = 1, b[AIRC_MAX_DIMS] = {0};
    for (int32_t d = 0; d < a->bnd; d++)
        nb *= a->bshape[d];
    for (int64_t p = 0; p < nb; p++) {
        int64_t xoff = 0, roff = 0;
        for (int32_t i = 0; i < (int32_t)a->n; i++) {
            if (!index_defined(a, i))
                continue;
            int64_t at = 0, size = x->shape[i];
            for (int32_t d = 0; d < a->bnd; d++)
                at += b[d] * a->ie[i].strides[d];
            int64_t v = ((const int64_t *)a->ie[i].data)[at];
            if (v < -size || v >= size)
                return airc_cpu_fail(k, AIRC_E_RUNTIME,
                                     "index %lld is out of bounds for dimension %d with size %lld",
                                     (long long)v, (int)i, (long long)size);
            xoff += (v < 0 ? v + size : v) * x->strides[i];
        }
        for (int32_t d = 0; d < a->bnd; d++)
            roff += b[d] * r->strides[a->nbefore + d];
        xs.data = (char *)x->data + xoff * esz;
        rs.data = (char *)r->data + roff * rsz;
        fn(&xs, &rs, u);
        for (int32_t d = a->bnd - 1; d >= 0 && ++b[d] == a->bshape[d]; d--)
            b[d] = 0;
    }
    return AIRC_OK;
}

static void gather_fn(const airc_tview *xs, const airc_tview *rs, void *u)
{
    (void)u;
    airc_cpu_copy(rs, xs);
}

/* index.Tensor(self, indices): the result's slice at each block position
 * is self's sub-tensor at the indexed position. */
airc_status airc_cpu_k_index(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x;
    AIRC_TRY(tensor_arg(k, 0, &x));
    const airc_tview *o = &k->out[0];
    if (airc_cpu_numel(o) == 0)
        return AIRC_OK;
    adv_index a;
    AIRC_TRY(adv_index_init(k, x, &a));
    return adv_walk(k, &a, x, o, gather_fn, NULL);
}

/* dst += alpha * src, elementwise over equal shapes (index_put's
 * accumulate, index_add): integers wrap in int64, floats add in double
 * and round to dst's dtype once per element, as torch's per-element +=
 * does. */
static void accumulate_scaled(const airc_tview *dst, const airc_tview *src, double alpha,
                              int64_t ialpha)
{
    int64_t n = airc_cpu_numel(dst), idx[AIRC_MAX_DIMS] = {0};
    size_t esz = airc_dtype_size(dst->dtype);
    bool fl = dst->dtype == AIRC_DTYPE_F32 || dst->dtype == AIRC_DTYPE_F64 ||
              dst->dtype == AIRC_DTYPE_F16 || dst->dtype == AIRC_DTYPE_BF16;
    for (int64_t e = 0; e < n; e++) {
        int64_t od = 0, os = 0;
        for (int32_t d = 0; d < dst->ndim; d++) {
            od += idx[d] * dst->strides[d];
            os += idx[d] * src->strides[d];
        }
        char *pd = (char *)dst->data + od * (int64_t)esz;
        const char *ps = (const char *)src->data + os * (int64_t)esz;
        if (fl) {
            double x, y;
            airc_cpu_convert(&x, AIRC_DTYPE_F64, pd, dst->dtype);
            airc_cpu_convert(&y, AIRC_DTYPE_F64, ps, src->dtype);
            x += alpha == 1 ? y : alpha * y;
            airc_cpu_convert(pd, dst->dtype, &x, AIRC_DTYPE_F64);
        } else {
            int64_t x, y;
            airc_cpu_convert(&x, AIRC_DTYPE_I64, pd, dst->dtype);
            airc_cpu_convert(&y, AIRC_DTYPE_I64, ps, src->dtype);
            x = (int64_t)((uint64_t)x + (uint64_t)ialpha * (uint64_t)y);
            airc_cpu_convert(pd, dst->dtype, &x, AIRC_DTYPE_I64);
        }
        airc_cpu_next_index(idx, dst->shape, dst->ndim);
    }
}

static void accumulate_fn(const airc_tview *dst, const airc_tview *src, void *u)
{
    (void)u;
    accumulate_scaled(dst, src, 1, 1);
}

static void put_fn(const airc_tview *xs, const airc_tview *rs, void *u)
{
    if (*(const bool *)u)
        accumulate_fn(xs, rs, NULL);
    else
        airc_cpu_copy(xs, rs);
}

/* index_put with one bool / uint8 mask at position p: values[k] (values
 * broadcast over the count) into self at the k-th true position. One
 * value without accumulate is torch's masked_fill path: any shape and
 * dtype (converted), a uint8 mask of 0s and 1s only. */
static airc_status put_mask(airc_kernel_ctx *k, const airc_tview *o, const airc_tview *mask,
                            int32_t p, const airc_tview *vals, bool acc)
{
    /* torch's masked_fill path: one value (of any shape and dtype) */
    bool fill = !acc && airc_cpu_numel(vals) == 1;
    int64_t count = 0, n = airc_cpu_numel(mask), mi[AIRC_MAX_DIMS] = {0};
    const uint8_t *mp = mask->data;
    for (int64_t e = 0; e < n; e++) {
        int64_t off = 0;
        for (int32_t d = 0; d < mask->ndim; d++)
            off += mi[d] * mask->strides[d];
        if (mp[off] > 1 && fill)                    /* torch's masked_fill path checks; its other */
            return airc_cpu_fail(k, AIRC_E_RUNTIME, /* paths take nonzero() */
                                 "Mask tensor can take 0 and 1 values only");
        count += mp[off] != 0;
        for (int32_t d = mask->ndim - 1; d >= 0 && ++mi[d] == mask->shape[d]; d--)
            mi[d] = 0;
    }
    int64_t rshape[AIRC_MAX_DIMS];
    int32_t rn = 0;
    for (int32_t d = 0; d < p; d++)
        rshape[rn++] = o->shape[d];
    int32_t cd = rn;
    rshape[rn++] = count;
    for (int32_t d = p + mask->ndim; d < o->ndim; d++)
        rshape[rn++] = o->shape[d];
    airc_tview v, vv = *vals;
    if (fill)
        vv.ndim = 0;
    if (!airc_cpu_expand(&vv, rshape, rn, &v))
        return airc_cpu_fail(k, AIRC_E_RUNTIME,
                             "shape mismatch: values cannot be broadcast to the %lld masked "
                             "positions",
                             (long long)count);
    /* sub-views: the result without the mask's dims, values without count */
    airc_tview os = *o, vs = v;
    os.ndim = vs.ndim = 0;
    for (int32_t d = 0; d < o->ndim; d++)
        if (d < p || d >= p + mask->ndim) {
            os.shape[os.ndim] = o->shape[d];
            os.strides[os.ndim++] = o->strides[d];
        }
    for (int32_t d = 0; d < rn; d++)
        if (d != cd) {
            vs.shape[vs.ndim] = v.shape[d];
            vs.strides[vs.ndim++] = v.strides[d];
        }
    int64_t esz = (int64_t)airc_dtype_size(o->dtype), kk = 0;
    memset(mi, 0, sizeof mi);
    for (int64_t e = 0; e < n; e++) {
        int64_t moff = 0, ooff = 0;
        for (int32_t d = 0; d < mask->ndim; d++) {
            moff += mi[d] * mask->strides[d];
            ooff += mi[d] * o->strides[p + d];
        }
        if (mp[moff]) {
            airc_tview dst = os, src = vs;
            dst.data = (char *)o->data + ooff * esz;
            src.data = (char *)v.data + kk++ * v.strides[cd] * esz;
            put_fn(&dst, &src, &acc);
        }
        for (int32_t d = mask->ndim - 1; d >= 0 && ++mi[d] == mask->shape[d]; d--)
            mi[d] = 0;
    }
    return AIRC_OK;
}

/* index_put(self, indices, values, accumulate) / index_put_: the result
 * starts as self (the same memory for index_put_); values broadcast to
 * the indexing result are written (or added) at the indexed positions, in
 * row-major order of the block: of two writes to one place the later
 * wins, as on torch's CPU. */
airc_status airc_cpu_k_index_put(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x, *vals;
    AIRC_TRY(tensor_arg(k, 0, &x));
    AIRC_TRY(tensor_arg(k, 2, &vals));
    const airc_tview *o = &k->out[0];
    bool acc = airc_cpu_arg_bool(k, 3, false);
    if (o->ndim != x->ndim)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "the result and self differ in rank");
    airc_cpu_copy(o, x); /* no-op when o is self */
    if (!k->in_list || !k->in_list[1])
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "indices must be a list of tensors");
    for (uint32_t i = 0; i < k->in_list_len[1]; i++) { /* even when empty: values must fit */
        airc_dtype dt = k->in_list[1][i].dtype;
        if (dt == AIRC_DTYPE_BOOL || dt == AIRC_DTYPE_U8)
            return put_mask(k, o, &k->in_list[1][i], (int32_t)i, vals, acc);
    }
    if (airc_cpu_numel(o) == 0)
        return AIRC_OK;
    if (vals->dtype != o->dtype)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "values and the result differ in dtype");
    adv_index a;
    AIRC_TRY(adv_index_init(k, o, &a));
    /* the indexing result's shape: before, B, after (or B, rest) */
    airc_tview r = *o;
    r.ndim = 0;
    for (int32_t d = 0; d < a.nbefore; d++)
        r.shape[r.ndim++] = o->shape[d];
    for (int32_t d = 0; d < a.bnd; d++)
        r.shape[r.ndim++] = a.bshape[d];
    for (int32_t d = a.nbefore; d < o->ndim; d++)
        if (!index_defined(&a, d))
            r.shape[r.ndim++] = o->shape[d];
    airc_tview v;
    if (r.ndim > AIRC_MAX_DIMS || !airc_cpu_expand(vals, r.shape, r.ndim, &v))
        return airc_cpu_fail(k, AIRC_E_RUNTIME,
                             "shape mismatch: values cannot be broadcast to the indexing result");
    return adv_walk(k, &a, o, &v, put_fn, &acc);
}

/* How scatter combines: a plain write (scatter), += (scatter_add,
 * reduce='add'), *= (reduce='multiply'). */
typedef enum scatter_mode { SCATTER_WRITE, SCATTER_ADD, SCATTER_MULTIPLY } scatter_mode;

/* scatter / scatter_add (.src, .value, in place), scatter.reduce and
 * .value_reduce: the result starts as self; for each position p of index,
 * result[p with dim replaced by index[p]] = src[p] (or the value), or +=,
 * or *= (in the dtype, as torch's scalar_t product). Positions in
 * row-major order: of two writes to one place the later wins. */
static airc_status scatter(airc_kernel_ctx *k, scatter_mode mode)
{
    const airc_tview *x, *idx;
    AIRC_TRY(tensor_arg(k, 0, &x));
    AIRC_TRY(tensor_arg(k, 2, &idx));
    const airc_tview *o = &k->out[0], *src = k->nargs > 3 && k->in ? k->in[3] : NULL;
    if (o->ndim != x->ndim)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "the result and self differ in rank");
    airc_cpu_copy(o, x); /* no-op when o is self */
    int64_t n = airc_cpu_numel(idx);
    if (n == 0)
        return AIRC_OK;
    if (idx->dtype != AIRC_DTYPE_I64)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "index must be int64, got %s",
                             airc_dtype_name(idx->dtype));
    int32_t dim = airc_cpu_wrap_dim(airc_cpu_arg_int(k, 1, 0), o->ndim);
    int32_t nd = o->ndim ? o->ndim : 1;
    if (dim < 0 || dim >= nd || (idx->ndim ? idx->ndim : 1) != nd)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "index and self differ in rank");
    size_t esz = airc_dtype_size(o->dtype);
    unsigned char value[8] = {0};
    if (!src) { /* the Scalar value, converted to the result's dtype */
        airc_cpu_scalar v;
        bool present;
        AIRC_TRY(airc_cpu_arg_scalar(k, 3, &v, &present));
        if (v.is_float)
            airc_cpu_convert(value, o->dtype, &v.f, AIRC_DTYPE_F64);
        else
            airc_cpu_convert(value, o->dtype, &v.i, AIRC_DTYPE_I64);
    } else if (src->dtype != o->dtype) {
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "src and self differ in dtype");
    }
    int64_t p[AIRC_MAX_DIMS] = {0}, size = o->ndim ? o->shape[dim] : 1;
    airc_tview d0 = *o, s0 = *o;
    d0.ndim = s0.ndim = 0;
    for (int64_t e = 0; e < n; e++) {
        int64_t ioff = 0, ooff = 0, soff = 0;
        for (int32_t q = 0; q < idx->ndim; q++)
            ioff += p[q] * idx->strides[q];
        int64_t v = ((const int64_t *)idx->data)[ioff];
        if (v < 0 || v >= size)
            return airc_cpu_fail(k, AIRC_E_RUNTIME,
                                 "index %lld is out of bounds for dimension %d with size %lld",
                                 (long long)v, (int)dim, (long long)size);
        for (int32_t q = 0; q < o->ndim; q++) {
            ooff += (q == dim ? v : p[q]) * o->strides[q];
            soff += src && q < src->ndim ? p[q] * src->strides[q] : 0;
        }
        d0.data = (char *)o->data + ooff * (int64_t)esz;
        s0.data = src ? (char *)src->data + soff * (int64_t)esz : (void *)value;
        if (mode == SCATTER_ADD)
            accumulate_fn(&d0, &s0, NULL);
        else if (mode == SCATTER_WRITE)
            memcpy(d0.data, s0.data, esz);
        else if (airc_cpu_dtype_is_float(o->dtype)) /* an exact product, rounded once */
            airc_cpu_store_f64(d0.data, o->dtype,
                               airc_cpu_load_f64(d0.data, o->dtype) *
                                   airc_cpu_load_f64(s0.data, o->dtype));
        else
            airc_cpu_store_i64(d0.data, o->dtype,
                               airc_cpu_combine_i(AIRC_RK_PROD,
                                                  airc_cpu_load_i64(d0.data, o->dtype),
                                                  airc_cpu_load_i64(s0.data, o->dtype)));
        for (int32_t q = idx->ndim - 1; q >= 0 && ++p[q] == idx->shape[q]; q--)
            p[q] = 0;
    }
    return AIRC_OK;
}

double airc_cpu_combine_f(airc_reduce_kind kind, double a, double b)
{
    switch (kind) {
    case AIRC_RK_PROD: return a * b;
    case AIRC_RK_AMAX: return a != a || b != b ? NAN : a < b ? b : a;
    case AIRC_RK_AMIN: return a != a || b != b ? NAN : b < a ? b : a;
    default: return a + b;
    }
}

int64_t airc_cpu_combine_i(airc_reduce_kind kind, int64_t a, int64_t b)
{
    switch (kind) {
    case AIRC_RK_PROD: return (int64_t)((uint64_t)a * (uint64_t)b);
    case AIRC_RK_AMAX: return a < b ? b : a;
    case AIRC_RK_AMIN: return b < a ? b : a;
    default: return (int64_t)((uint64_t)a + (uint64_t)b);
    }
}

/* airc_cpu_combine_f in float: the same results (a float product or sum
 * rounds once either way), without the trip through double, and amax /
 * amin as selects rather than branches, which random data mispredicts
 * half the time (a NaN operand gives a + b, a NaN). */
static inline float combine_f32(airc_reduce_kind kind, float a, float b)
{
    float m;
    switch (kind) {
    case AIRC_RK_PROD: return a * b;
    case AIRC_RK_AMAX: m = a < b ? b : a; break;
    case AIRC_RK_AMIN: m = b < a ? b : a; break;
    default: return a + b;
    }
    return isunordered(a, b) ? a + b : m;
}

/* scatter_reduce.two / scatter_reduce_.two(self, dim, index, src, reduce,
 * include_self): the result starts as self; each src element combines
 * into the place index names (sum, prod, mean, amax, amin), in index
 * order, each step rounded to the dtype as torch's kernel; without
 * include_self a place's first write starts from src; mean divides by the
 * count (plus one for self), floor division for integers. */
airc_status airc_cpu_k_scatter_reduce(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x, *idx, *src;
    AIRC_TRY(tensor_arg(k, 0, &x));
    AIRC_TRY(tensor_arg(k, 2, &idx));
    AIRC_TRY(tensor_arg(k, 3, &src));
    const airc_tview *o = &k->out[0];
    static const char *const names[] = {"sum", "prod", "mean", "amax", "amin"};
    const airc_value *rv = k->nargs > 4 ? k->args[4] : NULL;
    const char *r = rv && airc_value_get_kind(rv) == AIRC_VALUE_STRING ? rv->u.s : "";
    int kind = -1;
    for (int i = 0; i < 5; i++)
        if (!strcmp(r, names[i]))
            kind = i;
    bool self_too = airc_cpu_arg_bool(k, 5, true);
    int32_t nd = o->ndim ? o->ndim : 1;
    int32_t dim = airc_cpu_wrap_dim(airc_cpu_arg_int(k, 1, 0), o->ndim);
    if (kind < 0 || o->ndim != x->ndim || src->dtype != o->dtype || dim < 0 || dim >= nd)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "self, src, dim and reduce do not match");
    airc_cpu_copy(o, x); /* no-op when o is self */
    int64_t n = airc_cpu_numel(idx), cells = airc_cpu_numel(o), size = o->ndim ? o->shape[dim] : 1;
    if (n == 0) /* an empty index is not checked, as torch */
        return AIRC_OK;
    if (idx->dtype != AIRC_DTYPE_I64 || (idx->ndim ? idx->ndim : 1) != nd)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "index does not match self");
    if (cells == 0) { /* nothing to write, but torch checks the indices */
        int64_t at[AIRC_MAX_DIMS] = {0};
        do {
            int64_t v = *(const int64_t *)airc_cpu_at(idx, at);
            if (v < 0 || v >= size)
                return airc_cpu_fail(k, AIRC_E_RUNTIME,
                                     "index %lld is out of bounds for dimension %d with size %lld",
                                     (long long)v, (int)dim, (long long)size);
        } while (airc_cpu_next_index(at, idx->shape, idx->ndim));
        return AIRC_OK;
    }
    /* counts: for mean, and for a place's first write without self */
    bool counting = !self_too || kind == AIRC_RK_MEAN;
    int64_t *count = counting ? airc_calloc(k->ctx, (size_t)cells, sizeof *count) : NULL;
    if (counting && !count)
        return airc_cpu_oom(k, "scatter_reduce counts");
    int64_t rm[AIRC_MAX_DIMS], p[AIRC_MAX_DIMS] = {0};
    int64_t m = 1; /* row-major multipliers: a place's count (cells fit int64) */
    for (int32_t q = o->ndim - 1; q >= 0; m *= o->shape[q], q--)
        rm[q] = m;
    bool fl = airc_cpu_dtype_is_float(o->dtype);
    size_t esz = airc_dtype_size(o->dtype);
    airc_status st = AIRC_OK;
    /* offsets of index position p in idx and src, and in the result and
     * its count array without dim's term, kept up as p steps */
    int64_t ib = 0, ob = 0, lb = 0, sb = 0;
    for (int64_t e = 0; e < n && st == AIRC_OK; e++) {
        int64_t v = ((const int64_t *)idx->data)[ib];
        if (v < 0 || v >= size) {
            st = airc_cpu_fail(k, AIRC_E_RUNTIME,
                               "index %lld is out of bounds for dimension %d with size %lld",
                               (long long)v, (int)dim, (long long)size);
            break;
        }
        int64_t ooff = ob + (o->ndim ? v * o->strides[dim] : 0);
        int64_t lin = lb + (o->ndim ? v * rm[dim] : 0);
        char *pd = (char *)o->data + ooff * (int64_t)esz;
        const char *ps = (const char *)src->data + sb * (int64_t)esz;
        bool first = !self_too && count[lin]++ == 0;
        if (self_too && counting)
            count[lin]++;
        if (o->dtype == AIRC_DTYPE_F32) /* the common case, without the dtype switch */
            *(float *)pd =
                first ? *(const float *)ps
                      : combine_f32((airc_reduce_kind)kind, *(float *)pd, *(const float *)ps);
        else if (fl)
            airc_cpu_store_f64(pd, o->dtype,
                               first ? airc_cpu_load_f64(ps, o->dtype)
                                     : airc_cpu_combine_f((airc_reduce_kind)kind,
                                                          airc_cpu_load_f64(pd, o->dtype),
                                                          airc_cpu_load_f64(ps, o->dtype)));
        else
            airc_cpu_store_i64(pd, o->dtype,
                               first ? airc_cpu_load_i64(ps, o->dtype)
                                     : airc_cpu_combine_i((airc_reduce_kind)kind,
                                                          airc_cpu_load_i64(pd, o->dtype),
                                                          airc_cpu_load_i64(ps, o->dtype)));
        for (int32_t q = idx->ndim - 1; q >= 0; q--) {
            bool kept = q < o->ndim && q != dim;
            int64_t os = kept ? o->strides[q] : 0, ls = kept ? rm[q] : 0,
                    ss = q < o->ndim ? src->strides[q] : 0;
            if (++p[q] < idx->shape[q]) {
                ib += idx->strides[q], ob += os, lb += ls, sb += ss;
                break;
            }
            int64_t back = idx->shape[q] - 1;
            ib -= back * idx->strides[q], ob -= back * os, lb -= back * ls, sb -= back * ss;
            p[q] = 0;
        }
    }
    if (st == AIRC_OK && kind == AIRC_RK_MEAN) { /* each place written: divided by its count */
        int64_t at[AIRC_MAX_DIMS] = {0};
        for (int64_t lin = 0; lin < cells; lin++) {
            int64_t c = count[lin] + (self_too ? 1 : 0), off = 0;
            for (int32_t q = 0; q < o->ndim; q++)
                off += at[q] * o->strides[q];
            char *pd = (char *)o->data + off * (int64_t)esz;
            if (count[lin] && fl) {
                airc_cpu_store_f64(pd, o->dtype, airc_cpu_load_f64(pd, o->dtype) / (double)c);
            } else if (count[lin]) {
                int64_t a = airc_cpu_load_i64(pd, o->dtype), qt = a / c;
                airc_cpu_store_i64(pd, o->dtype, (a % c != 0 && (a < 0) != (c < 0)) ? qt - 1 : qt);
            }
            for (int32_t q = o->ndim - 1; q >= 0 && ++at[q] == o->shape[q]; q--)
                at[q] = 0;
        }
    }
    airc_free(k->ctx, count);
    return st;
}

airc_status airc_cpu_k_scatter(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return scatter(k, SCATTER_WRITE);
}

airc_status airc_cpu_k_scatter_add(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return scatter(k, SCATTER_ADD);
}

/* scatter.reduce / .value_reduce(self, dim, index, src or value, *, reduce) */
airc_status airc_cpu_k_scatter_add_multiply(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_value *rv = k->nargs > 4 ? k->args[4] : NULL;
    const char *r = rv && airc_value_get_kind(rv) == AIRC_VALUE_STRING ? rv->u.s : "";
    if (strcmp(r, "add") && strcmp(r, "multiply"))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "reduce argument must be either add or multiply.");
    return scatter(k, !strcmp(r, "add") ? SCATTER_ADD : SCATTER_MULTIPLY);
}

/* index_copy / index_copy_(self, dim, index, source): the result starts
 * as self; its slice index[j] along dim becomes source's slice j (a
 * 0-dim source or self: the whole tensor). Later writes win. index_add /
 * index_add_ (`add`; an int32 index too, and alpha): the slice gains
 * alpha * source's, in order. */
static airc_status index_copy_add(airc_kernel_ctx *k, bool add)
{
    const airc_tview *x, *idx, *src;
    AIRC_TRY(tensor_arg(k, 0, &x));
    AIRC_TRY(tensor_arg(k, 2, &idx));
    AIRC_TRY(tensor_arg(k, 3, &src));
    const airc_tview *o = &k->out[0];
    if (o->ndim != x->ndim || src->dtype != o->dtype ||
        (idx->dtype != AIRC_DTYPE_I64 && (!add || idx->dtype != AIRC_DTYPE_I32)) ||
        idx->ndim > 1 || (o->ndim && src->ndim && src->ndim != o->ndim))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "self, index and source do not match");
    /* alpha in the dtype: an integer self truncates a float alpha, a bool
     * one takes its truth */
    double alpha = airc_cpu_arg_double(k, 4, 1.0);
    int64_t ialpha = o->dtype == AIRC_DTYPE_BOOL ? alpha != 0 : airc_cpu_arg_int(k, 4, 1);
    airc_cpu_copy(o, x); /* no-op when o is self */
    int32_t dim = o->ndim ? airc_cpu_wrap_dim(airc_cpu_arg_int(k, 1, 0), o->ndim) : 0;
    if (dim < 0 || (o->ndim && dim >= o->ndim))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "dim out of range");
    int64_t n = airc_cpu_numel(idx), size = o->ndim ? o->shape[dim] : 1;
    /* index_copy skips an empty self, as torch; index_add checks the
     * indices whatever the self */
    for (int64_t j = 0; j < n && (add || airc_cpu_numel(o)); j++) {
        int64_t v = airc_cpu_load_i64((const char *)idx->data +
                                          (idx->ndim ? j * idx->strides[0] : 0) *
                                              (int64_t)airc_dtype_size(idx->dtype),
                                      idx->dtype);
        if (v < 0 || v >= size)
            return add ? airc_cpu_fail(k, AIRC_E_RUNTIME, "index out of range in self")
                       : airc_cpu_fail(k, AIRC_E_RUNTIME,
                                       "index_copy_(): index %lld is out of bounds for "
                                       "dimension %d with size %lld",
                                       (long long)v, (int)dim, (long long)size);
        airc_tview dst = *o, s = *src;
        if (o->ndim)
            airc_cpu_narrow(&dst, dim, v, 1);
        if (src->ndim)
            airc_cpu_narrow(&s, dim, j, 1);
        if (airc_cpu_numel(&dst) != airc_cpu_numel(&s))
            continue;
        if (!add) {
            airc_cpu_copy_reshape(&dst, &s);
            continue;
        }
        if (s.ndim != dst.ndim) { /* a 0-dim side: one element either way */
            s.ndim = dst.ndim;
            for (int32_t q = 0; q < dst.ndim; q++) {
                s.shape[q] = dst.shape[q];
                s.strides[q] = 0;
            }
        }
        accumulate_scaled(&dst, &s, alpha, ialpha);
    }
    return AIRC_OK;
}

airc_status airc_cpu_k_index_copy(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return index_copy_add(k, false);
}

airc_status airc_cpu_k_index_add(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return index_copy_add(k, true);
}

/* index_fill / index_fill_(self, dim, index, value): the result starts as
 * self; each indexed slice along dim (negative indices count from the
 * end) is filled with value converted to self's dtype (a 0-dim tensor's
 * item with torch's overflow check; a number was checked by the meta). */
airc_status airc_cpu_k_index_fill(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x, *idx;
    AIRC_TRY(tensor_arg(k, 0, &x));
    AIRC_TRY(tensor_arg(k, 2, &idx));
    const airc_tview *o = &k->out[0];
    if (o->ndim != x->ndim || idx->dtype != AIRC_DTYPE_I64 || idx->ndim > 1)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "self and index do not match");
    airc_cpu_scalar v;
    bool present;
    AIRC_TRY(airc_cpu_arg_scalar(k, 3, &v, &present));
    const char *type = airc_meta_number_overflows(v.is_float, v.f, v.i, o->dtype);
    if (type)
        return airc_cpu_fail(k, AIRC_E_RUNTIME,
                             "value cannot be converted to type %s without overflow", type);
    airc_cpu_copy(o, x); /* no-op when o is self */
    int32_t dim = o->ndim ? airc_cpu_wrap_dim(airc_cpu_arg_int(k, 1, 0), o->ndim) : 0;
    if (dim < 0 || (o->ndim && dim >= o->ndim))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "dim out of range");
    int64_t n = airc_cpu_numel(idx), size = o->ndim ? o->shape[dim] : 1;
    if (airc_cpu_numel(o) == 0 && size > 0) /* torch checks no index of an empty self */
        return AIRC_OK;
    for (int64_t j = 0; j < n; j++) {
        int64_t i = ((const int64_t *)idx->data)[idx->ndim ? j * idx->strides[0] : 0];
        if (i < -size || i >= size)
            return airc_cpu_fail(k, AIRC_E_RUNTIME,
                                 "index %lld is out of bounds for dimension %d with size %lld",
                                 (long long)i, (int)dim, (long long)size);
        airc_tview dst = *o;
        if (o->ndim)
            airc_cpu_narrow(&dst, dim, i < 0 ? i + size : i, 1);
        airc_cpu_fill(&dst, &v);
    }
    return AIRC_OK;
}

/* masked_scatter(self, mask, source): self and mask broadcast to the
 * result; where the mask is set, the next element of source in its
 * row-major order. Fewer source elements than set mask elements is
 * torch's error. */
airc_status airc_cpu_k_masked_scatter(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x, *mask, *src;
    AIRC_TRY(tensor_arg(k, 0, &x));
    AIRC_TRY(tensor_arg(k, 1, &mask));
    AIRC_TRY(tensor_arg(k, 2, &src));
    const airc_tview *o = &k->out[0];
    airc_tview xe, me;
    if (src->dtype != o->dtype || !airc_cpu_expand(x, o->shape, o->ndim, &xe) ||
        !airc_cpu_expand(mask, o->shape, o->ndim, &me))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "self, mask and source do not match");
    airc_cpu_copy(o, &xe);
    if (airc_cpu_numel(o) == 0)
        return AIRC_OK;
    int64_t oi[AIRC_MAX_DIMS] = {0}, si[AIRC_MAX_DIMS] = {0}, left = airc_cpu_numel(src);
    size_t esz = airc_dtype_size(o->dtype);
    do {
        uint8_t set = *(const uint8_t *)airc_cpu_at(&me, oi);
        if (set > 1) /* a uint8 mask holds 0 and 1 only */
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "Mask tensor can take 0 and 1 values only");
        if (!set)
            continue;
        if (left-- <= 0)
            return airc_cpu_fail(k, AIRC_E_RUNTIME,
                                 "Number of elements of source < number of ones in mask");
        memcpy(airc_cpu_at(o, oi), airc_cpu_at(src, si), esz);
        airc_cpu_next_index(si, src->shape, src->ndim);
    } while (airc_cpu_next_index(oi, o->shape, o->ndim));
    return AIRC_OK;
}
