/* Shape family: kernels that copy (clone, contiguous, reshape when it is
 * not a view, copy/copy_, tril/triu) and join or scatter (cat, stack,
 * constant_pad_nd, slice_scatter, select_scatter, as_strided_scatter). Each writes through the
 * output's strides as meta laid it out. */
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

static bool same_shape(const airc_tview *a, const airc_tview *b)
{
    if (a->ndim != b->ndim)
        return false;
    for (int32_t i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i])
            return false;
    return true;
}

/* dst = src broadcast to dst's shape, cast to dst's dtype. */
static airc_status broadcast_copy(airc_kernel_ctx *k, const airc_tview *dst, const airc_tview *src)
{
    airc_tview e;
    if (!airc_cpu_expand(src, dst->shape, dst->ndim, &e))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "a tensor of %d dims does not broadcast to %d dims",
                             (int)src->ndim, (int)dst->ndim);
    airc_cpu_copy(dst, &e);
    return AIRC_OK;
}

airc_status airc_cpu_k_clone(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x;
    AIRC_TRY(tensor_arg(k, 0, &x));
    if (!same_shape(x, &k->out[0]))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "result and input shapes differ");
    airc_cpu_copy(&k->out[0], x);
    return AIRC_OK;
}

/* narrow_copy(self, dim, start, length): the meta checked the bounds; a
 * negative start counts from the end */
airc_status airc_cpu_k_narrow_copy(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x;
    AIRC_TRY(tensor_arg(k, 0, &x));
    int64_t dim = airc_cpu_arg_int(k, 1, 0), start = airc_cpu_arg_int(k, 2, 0);
    if (x->ndim < 1 || dim < -x->ndim || dim >= x->ndim)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "dim %lld out of range", (long long)dim);
    int32_t d = (int32_t)(dim < 0 ? dim + x->ndim : dim);
    if (start < 0)
        start += x->shape[d];
    airc_tview v = *x;
    if (start < 0 || start > x->shape[d] || k->out[0].ndim != x->ndim ||
        k->out[0].shape[d] > x->shape[d] - start)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "start %lld out of range", (long long)start);
    airc_cpu_narrow(&v, d, start, k->out[0].shape[d]);
    airc_cpu_copy(&k->out[0], &v);
    return AIRC_OK;
}

airc_status airc_cpu_k_reshape_copy(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x;
    AIRC_TRY(tensor_arg(k, 0, &x));
    if (airc_cpu_numel(x) != airc_cpu_numel(&k->out[0]))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "result and input sizes differ");
    airc_cpu_copy_reshape(&k->out[0], x);
    return AIRC_OK;
}

/* copy(self, src, non_blocking): src cast to self's dtype and broadcast to
 * self's shape (the result's meta carries both). */
airc_status airc_cpu_k_copy(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    if (k->nargs > 1 && k->in && k->in[1])
        return broadcast_copy(k, &k->out[0], k->in[1]);
    airc_cpu_scalar v;
    bool present;
    AIRC_TRY(airc_cpu_arg_scalar(k, 1, &v, &present));
    airc_cpu_fill(&k->out[0], &v);
    return AIRC_OK;
}

airc_status airc_cpu_k_copy_(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *self;
    AIRC_TRY(tensor_arg(k, 0, &self));
    airc_tview *dst = airc_cpu_inplace_target(k);
    if (k->nargs > 1 && k->in[1])
        return broadcast_copy(k, dst, k->in[1]);
    airc_cpu_scalar v;
    bool present;
    AIRC_TRY(airc_cpu_arg_scalar(k, 1, &v, &present));
    airc_cpu_fill(dst, &v);
    return AIRC_OK;
}

/* ---- tril / triu ------------------------------------------------------- */

/* Zeroes what tril (lower) or triu keeps out of every matrix of t (its last
 * two dims): tril keeps col - row <= diagonal, triu col - row >= diagonal. */
static void zero_triangle(const airc_tview *t, int64_t diagonal, bool lower)
{
    int32_t nd = t->ndim;
    int64_t rows = t->shape[nd - 2], cols = t->shape[nd - 1];
    if (airc_cpu_numel(t) == 0)
        return;
    /* diagonals past the matrix act as its edges (and cannot overflow) */
    diagonal = diagonal > cols ? cols : (diagonal < -rows - 1 ? -rows - 1 : diagonal);
    airc_cpu_scalar zero = {false, 0, 0.0};
    int64_t idx[AIRC_MAX_DIMS] = {0};
    for (;;) {
        for (int64_t r = 0; r < rows; r++) {
            int64_t lo, hi; /* the zeroed columns [lo, hi) of row r */
            if (lower) {
                lo = r + diagonal + 1;
                hi = cols;
            } else {
                lo = 0;
                hi = r + diagonal;
            }
            lo = lo < 0 ? 0 : (lo > cols ? cols : lo);
            hi = hi < 0 ? 0 : (hi > cols ? cols : hi);
            if (lo >= hi)
                continue;
            idx[nd - 2] = r;
            idx[nd - 1] = lo;
            airc_tview row = {.data = airc_cpu_at(t, idx), .dtype = t->dtype, .ndim = 1};
            row.shape[0] = hi - lo;
            row.strides[0] = t->strides[nd - 1];
            airc_cpu_fill(&row, &zero);
        }
        idx[nd - 1] = idx[nd - 2] = 0;
        int32_t d = nd - 3;
        for (; d >= 0; d--) {
            if (++idx[d] < t->shape[d])
                break;
            idx[d] = 0;
        }
        if (d < 0)
            return;
    }
}

static airc_status tri(airc_kernel_ctx *k, bool lower, bool inplace)
{
    const airc_tview *x;
    AIRC_TRY(tensor_arg(k, 0, &x));
    if (x->ndim < 2)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "input tensor must have at least 2 dimensions");
    airc_tview *dst = inplace ? airc_cpu_inplace_target(k) : &k->out[0];
    if (!inplace) {
        if (!same_shape(x, dst))
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "result and input shapes differ");
        airc_cpu_copy(dst, x);
    }
    zero_triangle(dst, airc_cpu_arg_int(k, 1, 0), lower);
    return AIRC_OK;
}

airc_status airc_cpu_k_tril(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return tri(k, true, false);
}

airc_status airc_cpu_k_triu(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return tri(k, false, false);
}

airc_status airc_cpu_k_tril_(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return tri(k, true, true);
}

airc_status airc_cpu_k_triu_(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return tri(k, false, true);
}

/* ---- cat / stack ------------------------------------------------------- */

static airc_status tensor_list(airc_kernel_ctx *k, const airc_tview **items, uint32_t *n)
{
    if (!k->in_list || !k->in_list[0] || !k->in_list_len || !k->in_list_len[0])
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "expected a non-empty list of tensors");
    *items = k->in_list[0];
    *n = k->in_list_len[0];
    return AIRC_OK;
}

/* cat(tensors, dim): each input lands in its slice of the result along dim
 * (converted to the promoted dtype); legacy empty [0] inputs are skipped
 * as torch does. */
airc_status airc_cpu_k_cat(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *ts = NULL;
    uint32_t n = 0;
    AIRC_TRY(tensor_list(k, &ts, &n));
    const airc_tview *out = &k->out[0];
    /* nothing to copy: torch does not wrap dim when every input is a
     * skipped legacy [0] (meta checked the rest) */
    if (airc_cpu_numel(out) == 0)
        return AIRC_OK;
    int32_t d = airc_cpu_wrap_dim(airc_cpu_arg_int(k, 1, 0), out->ndim);
    if (d < 0 || d >= out->ndim)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "dim out of range for a %d-d result",
                             (int)out->ndim);
    int64_t at = 0;
    for (uint32_t i = 0; i < n; i++) {
        const airc_tview *t = &ts[i];
        if (t->ndim == 1 && t->shape[0] == 0)
            continue;
        if (t->ndim != out->ndim || at + t->shape[d] > out->shape[d])
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "input %u does not fit the result",
                                 (unsigned)i);
        airc_tview dst = *out;
        airc_cpu_narrow(&dst, d, at, t->shape[d]);
        if (!same_shape(&dst, t))
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "input %u does not fit the result",
                                 (unsigned)i);
        airc_cpu_copy(&dst, t);
        at += t->shape[d];
    }
    return AIRC_OK;
}

airc_status airc_cpu_k_stack(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *ts = NULL;
    uint32_t n = 0;
    AIRC_TRY(tensor_list(k, &ts, &n));
    const airc_tview *out = &k->out[0];
    int32_t d = airc_cpu_wrap_dim(airc_cpu_arg_int(k, 1, 0), out->ndim);
    if (d < 0 || d >= out->ndim || out->shape[d] != (int64_t)n)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "the result does not fit %u inputs", (unsigned)n);
    for (uint32_t i = 0; i < n; i++) {
        airc_tview dst = *out;
        airc_cpu_select(&dst, d, i);
        if (!same_shape(&dst, &ts[i]))
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "input %u does not fit the result",
                                 (unsigned)i);
        airc_cpu_copy(&dst, &ts[i]);
    }
    return AIRC_OK;
}

/* ---- padding and scatters ---------------------------------------------- */

/* constant_pad_nd(self, pad, value=0): pad pairs (before, after) from the
 * last dim backwards; negative pads crop. */
airc_status airc_cpu_k_constant_pad_nd(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x;
    AIRC_TRY(tensor_arg(k, 0, &x));
    int64_t pad[2 * AIRC_MAX_DIMS];
    int32_t np;
    AIRC_TRY(airc_cpu_arg_ints(k, 1, pad, 2 * AIRC_MAX_DIMS, &np));
    airc_cpu_scalar v;
    bool present;
    AIRC_TRY(airc_cpu_arg_scalar(k, 2, &v, &present));
    const airc_tview *out = &k->out[0];
    if (np % 2 || np > 2 * x->ndim || out->ndim != x->ndim)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "pad does not match the input's dims");
    airc_tview src = *x, dst = *out;
    bool grows = false;
    for (int32_t d = 0; d < x->ndim; d++) {
        int32_t p = x->ndim - 1 - d; /* pair index of dim d */
        int64_t lo = p < np / 2 ? pad[2 * p] : 0;
        /* a crop past the whole dim (down to INT64_MIN, whose negation
         * overflows) crops all of it */
        int64_t s0 = lo >= 0 ? 0 : lo <= -x->shape[d] ? x->shape[d] : -lo, d0 = lo > 0 ? lo : 0;
        int64_t len = x->shape[d] - s0;
        if (out->shape[d] - d0 < len)
            len = out->shape[d] - d0;
        if (len < 0)
            len = 0;
        grows = grows || len < out->shape[d];
        airc_cpu_narrow(&src, d, s0, len);
        airc_cpu_narrow(&dst, d, d0, len);
    }
    if (grows)
        airc_cpu_fill(out, &v);
    airc_cpu_copy(&dst, &src);
    return AIRC_OK;
}

/* slice_scatter(self, src, dim=0, start=None, end=None, step=1): a copy of
 * self with src written into the slice. */
airc_status airc_cpu_k_slice_scatter(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *self, *src;
    AIRC_TRY(tensor_arg(k, 0, &self));
    AIRC_TRY(tensor_arg(k, 1, &src));
    const airc_tview *out = &k->out[0];
    int32_t d = airc_cpu_wrap_dim(airc_cpu_arg_int(k, 2, 0), out->ndim);
    if (d < 0 || d >= out->ndim || src->ndim != out->ndim)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "src does not match the slice");
    int64_t size = out->shape[d], s = airc_cpu_arg_int(k, 3, 0), step = airc_cpu_arg_int(k, 5, 1);
    if (s < 0)
        s += size;
    s = s < 0 ? 0 : (s > size ? size : s);
    /* the last written index s + (n - 1) * step < size, without overflow */
    int64_t n = src->shape[d];
    if (step <= 0 || (n && (s >= size || n - 1 > (size - 1 - s) / step)))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "src does not match the slice");
    airc_cpu_copy(out, self);
    airc_tview dst = *out;
    airc_cpu_narrow(&dst, d, s, n);
    if (n > 1) /* then step < size: the stride stays inside the tensor */
        dst.strides[d] *= step;
    if (!same_shape(&dst, src))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "src does not match the slice");
    airc_cpu_copy(&dst, src);
    return AIRC_OK;
}

/* as_strided_scatter(self, src, size, stride, storage_offset): out is
 * self.clone() (meta's layout); src written into the view of out's storage
 * (which starts at out's first element: its strides are not negative) */
airc_status airc_cpu_k_as_strided_scatter(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *self, *src;
    AIRC_TRY(tensor_arg(k, 0, &self));
    AIRC_TRY(tensor_arg(k, 1, &src));
    const airc_tview *out = &k->out[0];
    airc_tview dst = *out;
    int32_t ns;
    AIRC_TRY(airc_cpu_arg_ints(k, 2, dst.shape, AIRC_MAX_DIMS, &dst.ndim));
    AIRC_TRY(airc_cpu_arg_ints(k, 3, dst.strides, AIRC_MAX_DIMS, &ns));
    int64_t offset = airc_cpu_arg_int(k, 4, 0), end = offset + 1, span = 1;
    for (int32_t d = 0; d < out->ndim; d++)
        span += (out->shape[d] - 1) * out->strides[d];
    for (int32_t d = 0; d < dst.ndim; d++)
        end += dst.shape[d] ? (dst.shape[d] - 1) * dst.strides[d] : 0;
    if (ns != dst.ndim || !same_shape(&dst, src) || offset < 0 ||
        (airc_cpu_numel(&dst) && end > span))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "src does not match the view");
    airc_cpu_copy(out, self);
    if (!airc_cpu_numel(&dst))
        return AIRC_OK;
    dst.data = (char *)out->data + offset * (int64_t)airc_dtype_size(out->dtype);
    airc_cpu_copy(&dst, src);
    return AIRC_OK;
}

/* select_scatter(self, src, dim, index) */
airc_status airc_cpu_k_select_scatter(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *self, *src;
    AIRC_TRY(tensor_arg(k, 0, &self));
    AIRC_TRY(tensor_arg(k, 1, &src));
    const airc_tview *out = &k->out[0];
    int32_t d = airc_cpu_wrap_dim(airc_cpu_arg_int(k, 2, 0), out->ndim);
    if (d < 0 || d >= out->ndim)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "dim out of range");
    int64_t size = out->shape[d], i = airc_cpu_arg_int(k, 3, 0);
    if (i < -size || i >= size)
        return airc_cpu_fail(k, AIRC_E_RUNTIME,
                             "index %lld is out of bounds for dimension %d with size %lld",
                             (long long)i, (int)d, (long long)size);
    if (i < 0)
        i += size;
    airc_cpu_copy(out, self);
    airc_tview dst = *out;
    airc_cpu_select(&dst, d, i);
    if (!same_shape(&dst, src))
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "src does not match the selected slice");
    airc_cpu_copy(&dst, src);
    return AIRC_OK;
}

/* repeat(self, repeats): the result seen as [r0, p0, r1, p1, ...] (p the
 * padded self's sizes), filled from self broadcast along every r. */
airc_status airc_cpu_k_repeat(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x;
    AIRC_TRY(tensor_arg(k, 0, &x));
    const airc_tview *o = &k->out[0];
    int32_t n = o->ndim, pad = n - x->ndim;
    if (pad < 0 || 2 * n > AIRC_MAX_DIMS)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "result and input dims do not match");
    airc_tview dst = *o, src = *x;
    dst.ndim = src.ndim = 2 * n;
    for (int32_t i = 0; i < n; i++) {
        int64_t p = i < pad ? 1 : x->shape[i - pad], xs = i < pad ? 0 : x->strides[i - pad];
        int64_t r = p ? o->shape[i] / p : 0;
        if (p && o->shape[i] % p)
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "result dim %d is no multiple of %lld", (int)i,
                                 (long long)p);
        dst.shape[2 * i] = src.shape[2 * i] = r;
        dst.shape[2 * i + 1] = src.shape[2 * i + 1] = p;
        dst.strides[2 * i] = p * o->strides[i];
        dst.strides[2 * i + 1] = o->strides[i];
        src.strides[2 * i] = 0;
        src.strides[2 * i + 1] = xs;
    }
    if (airc_cpu_numel(o) > 0)
        airc_cpu_copy(&dst, &src);
    return AIRC_OK;
}

/* flip(self, dims): a copy from self read backwards along each flipped dim
 * (its last element first, its stride negated). */
airc_status airc_cpu_k_flip(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x;
    AIRC_TRY(tensor_arg(k, 0, &x));
    int64_t dims[4 * AIRC_MAX_DIMS];
    int32_t nd;
    AIRC_TRY(airc_cpu_arg_ints(k, 1, dims, 4 * AIRC_MAX_DIMS, &nd));
    const airc_tview *o = &k->out[0];
    if (airc_cpu_numel(o) == 0)
        return AIRC_OK;
    airc_tview src = *x;
    bool flipped[AIRC_MAX_DIMS] = {false};
    for (int32_t i = 0; i < nd && x->ndim > 0; i++) {
        int64_t d = dims[i] < 0 ? dims[i] + x->ndim : dims[i];
        if (d < 0 || d >= x->ndim || flipped[d])
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "bad flip dim %lld", (long long)dims[i]);
        flipped[d] = true;
        src.data = (char *)src.data + (x->shape[d] - 1) * x->strides[d] *
                                          (int64_t)airc_dtype_size(x->dtype);
        src.strides[d] = -x->strides[d];
    }
    airc_cpu_copy(o, &src);
    return AIRC_OK;
}
