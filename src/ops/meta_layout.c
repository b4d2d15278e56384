/* Memory layouts as PyTorch 1.13 computes them: TensorImpl's contiguity
 * flags, empty_like's stride preservation and TensorIterator's output
 * strides (fast set-up, then dimensions sorted by the inputs' strides). */
#include "ops/meta_util.h"

#include <string.h>

/* Stride products saturate: they overflow only for tensors with no
 * elements and absurd other sizes, whose strides are never used. */
static int64_t sat_mul(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

bool airc_meta_is_contiguous(const airc_tmeta *t)
{
    if (airc_tmeta_numel(t) == 0)
        return true;
    int64_t z = 1;
    for (int32_t d = t->ndim - 1; d >= 0; d--) {
        if (t->shape[d] != 1) {
            if (t->strides[d] != z)
                return false;
            z = sat_mul(z, t->shape[d]);
        }
    }
    return true;
}

bool airc_meta_is_non_overlapping_and_dense(const airc_tmeta *t)
{
    /* TensorImpl::refresh_contiguous: contiguous || channels-last
     * contiguous || compute_non_overlapping_and_dense() */
    if (airc_meta_is_contiguous(t) || airc_meta_is_channels_last_contiguous(t))
        return true;
    if (t->ndim == 1)
        return t->shape[0] < 2 || t->strides[0] == 1;
    int32_t perm[AIRC_MAX_DIMS];
    for (int32_t i = 0; i < t->ndim; i++)
        perm[i] = i;
    /* sort by stride, size-0/1 dims last (insertion sort: ranks are tiny) */
    for (int32_t i = 1; i < t->ndim; i++) {
        for (int32_t j = i; j > 0; j--) {
            int32_t a = perm[j], b = perm[j - 1];
            bool less = t->shape[a] >= 2 &&
                        (t->shape[b] < 2 || t->strides[a] < t->strides[b]);
            if (!less)
                break;
            perm[j] = b;
            perm[j - 1] = a;
        }
    }
    int64_t require = 1;
    for (int32_t i = 0; i < t->ndim; i++) {
        int64_t size = t->shape[perm[i]];
        if (size < 2)
            return true;
        if (t->strides[perm[i]] != require)
            return false;
        require = sat_mul(require, size);
    }
    return true;
}

bool airc_meta_is_channels_last_contiguous(const airc_tmeta *t)
{
    if (t->ndim != 4)
        return false;
    static const int32_t order[4] = {1, 3, 2, 0};
    int64_t expected = 1;
    for (int k = 0; k < 4; k++) {
        int32_t d = order[k];
        if (t->shape[d] != 1) {
            if (t->strides[d] != expected)
                return false;
            expected = sat_mul(expected, t->shape[d]);
        }
    }
    return true;
}

/* is_channels_last_strides_2d_s4 / _3d_s5: t's dims, in the order of
 * `order` (channels first, the batch last), have non-decreasing strides. */
static bool channels_last_strides(const airc_tmeta *t, const int32_t *order, int32_t nd)
{
    if (t->ndim != nd || t->strides[1] == 0)
        return false;
    int64_t min = 0;
    for (int k = 0; k < nd; k++) {
        int32_t d = order[k];
        if (t->shape[d] == 0 || t->strides[d] < min)
            return false;
        if (d == 0 && min == t->strides[1])
            return false;
        min = t->strides[d];
        if (t->shape[d] > 1)
            min = sat_mul(min, t->shape[d]);
    }
    return true;
}

bool airc_meta_is_channels_last_like(const airc_tmeta *t)
{
    static const int32_t order[4] = {1, 3, 2, 0};
    return channels_last_strides(t, order, 4);
}

bool airc_meta_is_channels_last_3d_like(const airc_tmeta *t)
{
    /* suggest_memory_format tries ChannelsLast (4-d only) first */
    static const int32_t order[5] = {1, 4, 3, 2, 0};
    return channels_last_strides(t, order, 5);
}

void airc_meta_channels_last_strides(airc_tmeta *t)
{
    t->strides[1] = 1;
    t->strides[3] = t->shape[1];
    t->strides[2] = sat_mul(t->strides[3], t->shape[3]);
    t->strides[0] = sat_mul(t->strides[2], t->shape[2]);
}

void airc_meta_channels_last_3d_strides(airc_tmeta *t)
{
    t->strides[1] = 1;
    t->strides[4] = t->shape[1];
    t->strides[3] = sat_mul(t->strides[4], t->shape[4]);
    t->strides[2] = sat_mul(t->strides[3], t->shape[3]);
    t->strides[0] = sat_mul(t->strides[2], t->shape[2]);
}

void airc_meta_dense_strides_like(const airc_tmeta *t, int64_t *strides)
{
    /* infer_dense_strides (TensorUtils.cpp) */
    int32_t nd = t->ndim;
    if (nd == 0)
        return;
    if (nd == 1) {
        strides[0] = 1;
        return;
    }
    int32_t perm[AIRC_MAX_DIMS];
    for (int32_t i = 0; i < nd; i++)
        perm[i] = nd - 1 - i;
    for (int32_t i = 1; i < nd; i++) {
        int32_t dim1 = i;
        for (int32_t dim0 = i - 1; dim0 >= 0; dim0--) {
            int64_t s0 = t->strides[perm[dim0]], s1 = t->strides[perm[dim1]];
            int cmp = 0;
            if (s0 == 0 || s1 == 0)
                cmp = 0;
            else if (s0 < s1)
                cmp = -1;
            else if (s0 > s1)
                cmp = 1;
            else if (t->shape[perm[dim0]] > t->shape[perm[dim1]])
                cmp = 1;
            if (cmp > 0) {
                int32_t tmp = perm[dim0];
                perm[dim0] = perm[dim1];
                perm[dim1] = tmp;
                dim1 = dim0;
            } else if (cmp < 0) {
                break;
            }
        }
    }
    int64_t cur = 1;
    for (int32_t i = 0; i < nd; i++) {
        int32_t idx = perm[i];
        strides[idx] = cur;
        if (t->shape[idx] > 1)
            cur = sat_mul(cur, t->shape[idx]);
    }
}

void airc_meta_like_strides(const airc_tmeta *t, airc_memory_format fmt, bool dense_for_non_dense,
                            int64_t *strides)
{
    airc_tmeta r = *t;
    if (fmt == AIRC_MEMORY_FORMAT_PRESERVE) {
        if (airc_meta_is_non_overlapping_and_dense(t)) {
            memcpy(strides, t->strides, (size_t)t->ndim * sizeof *strides);
            return;
        }
        if (dense_for_non_dense) {
            airc_meta_dense_strides_like(t, strides);
            return;
        }
        fmt = airc_meta_is_channels_last_like(t) ? AIRC_MEMORY_FORMAT_CHANNELS_LAST
                                                 : AIRC_MEMORY_FORMAT_CONTIGUOUS;
    }
    if (fmt == AIRC_MEMORY_FORMAT_CHANNELS_LAST && r.ndim == 4)
        airc_meta_channels_last_strides(&r);
    else
        airc_tmeta_contiguous(&r);
    memcpy(strides, r.strides, (size_t)t->ndim * sizeof *strides);
}

static bool same_shape(const airc_tmeta *a, const airc_tmeta *b)
{
    if (a->ndim != b->ndim)
        return false;
    for (int32_t i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i])
            return false;
    return true;
}

/* TensorIterator's fast set-up (all operands the same shape): true when it
 * applies, with the output strides. */
static bool fast_setup(const airc_operand *ops, size_t n, airc_tmeta *out)
{
    const airc_tmeta *first = NULL;
    bool contiguous = true, channels_last = true, dense = true;
    for (size_t i = 0; i < n; i++) {
        if (!ops[i].present)
            continue;
        const airc_tmeta *t = &ops[i].t;
        if (first && !same_shape(first, t))
            return false;
        if (!first)
            first = t;
        contiguous = contiguous && airc_meta_is_contiguous(t);
        channels_last = channels_last && airc_meta_is_channels_last_contiguous(t);
        dense = dense && airc_meta_is_non_overlapping_and_dense(t);
    }
    if (!first || contiguous) {
        airc_tmeta_contiguous(out);
        return true;
    }
    if (channels_last) {
        airc_meta_channels_last_strides(out);
        return true;
    }
    if (!dense)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (ops[i].present &&
            memcmp(ops[i].t.strides, first->strides, (size_t)first->ndim * sizeof(int64_t)))
            return false;
    }
    memcpy(out->strides, first->strides, (size_t)first->ndim * sizeof(int64_t));
    return true;
}

void airc_meta_iter_strides(const airc_operand *ops, size_t n, const int64_t *shape, int32_t ndim,
                            int64_t *strides)
{
    airc_tmeta out;
    memset(&out, 0, sizeof out);
    out.ndim = ndim;
    memcpy(out.shape, shape, (size_t)ndim * sizeof *shape);
    if (fast_setup(ops, n, &out)) {
        memcpy(strides, out.strides, (size_t)ndim * sizeof *strides);
        return;
    }
    /* compute_strides: each operand's strides over the broadcast shape, 0
     * where it broadcasts */
    int64_t st[8][AIRC_MAX_DIMS];
    size_t nops = 0;
    for (size_t k = 0; k < n && nops < 8; k++) {
        if (!ops[k].present)
            continue;
        const airc_tmeta *t = &ops[k].t;
        int32_t off = ndim - t->ndim;
        for (int32_t i = 0; i < ndim; i++) {
            int32_t j = i - off;
            st[nops][i] = j < 0 || (t->shape[j] == 1 && shape[i] != 1) ? 0 : t->strides[j];
        }
        nops++;
    }
    /* reorder_dimensions: perm[0] is the fastest-moving dim */
    int32_t perm[AIRC_MAX_DIMS];
    for (int32_t i = 0; i < ndim; i++)
        perm[i] = ndim - 1 - i;
    for (int32_t i = 1; i < ndim; i++) {
        int32_t dim1 = i;
        for (int32_t dim0 = i - 1; dim0 >= 0; dim0--) {
            int32_t d0 = perm[dim0], d1 = perm[dim1];
            int cmp = 0;
            for (size_t k = 0; k < nops; k++) {
                int64_t s0 = st[k][d0], s1 = st[k][d1];
                if (s0 == 0 || s1 == 0)
                    continue;
                if (s0 < s1) {
                    cmp = -1;
                    break;
                }
                if (s0 > s1) {
                    cmp = 1;
                    break;
                }
                if (shape[d0] > shape[d1]) {
                    cmp = 1;
                    break;
                }
            }
            if (cmp > 0) {
                perm[dim0] = d1;
                perm[dim1] = d0;
                dim1 = dim0;
            } else if (cmp < 0) {
                break;
            }
        }
    }
    bool inverted = true;
    for (int32_t i = 0; i < ndim; i++)
        inverted = inverted && perm[i] == ndim - 1 - i;
    if (inverted) {
        airc_tmeta_contiguous(&out);
        memcpy(strides, out.strides, (size_t)ndim * sizeof *strides);
        return;
    }
    /* compatible_stride over the permuted shape, mapped back */
    int64_t next = 1;
    for (int32_t i = 0; i < ndim; i++) {
        strides[perm[i]] = next;
        next = sat_mul(next, shape[perm[i]]);
    }
}
