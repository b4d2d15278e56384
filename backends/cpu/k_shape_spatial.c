/* Shape family: kernels that move elements within a tensor —
 * pixel_shuffle / pixel_unshuffle and channel_shuffle (one strided copy), roll (one copy per block
 * of the rolled dims) and the 1-d, 2-d and 3-d reflection / replication pads (index maps per
 * plane). Every dtype: elements are moved, never converted. */
#include "backends/cpu/k_shape_impl.h"

#include <stdlib.h>
#include <string.h>

static airc_status self_and_out(airc_kernel_ctx *k, const airc_tview **x, const airc_tview **o)
{
    if (!k->nargs || !k->in || !k->in[0] || k->nout < 1)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "self must be a tensor");
    *x = k->in[0];
    *o = &k->out[0];
    if ((*o)->dtype != (*x)->dtype)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "result and self differ in dtype");
    return AIRC_OK;
}

/* pixel_shuffle: self seen as [*, C, r, r, H, W] read in the order of the
 * result seen as [*, C, H, r, W, r]; pixel_unshuffle (un): self seen as
 * [*, C, H, r, W, r] read in the order of the result seen as [*, C, r, r,
 * H, W]. One strided copy. */
static airc_status pixel_shuffle(airc_kernel_ctx *k, bool un)
{
    const airc_tview *x, *o;
    AIRC_TRY(self_and_out(k, &x, &o));
    int64_t r = airc_cpu_arg_int(k, 1, 1);
    int32_t nb = x->ndim - 3;
    if (nb < 0 || nb + 5 > AIRC_MAX_DIMS || o->ndim != x->ndim || r <= 0)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "result and input shapes do not match");
    if (airc_cpu_numel(o) == 0)
        return AIRC_OK;
    airc_tview dst = *o, src = *x;
    dst.ndim = src.ndim = nb + 5;
    const int64_t *ss = x->strides + nb, *os = o->strides + nb;
    int64_t shape[5] = {o->shape[nb], x->shape[nb + 1], r, x->shape[nb + 2], r};
    int64_t dstr[5] = {os[0], os[1] * r, os[1], os[2] * r, os[2]};
    int64_t sstr[5] = {ss[0] * r * r, ss[1], ss[0] * r, ss[2], ss[0]};
    if (un) {
        int64_t ushape[5] = {x->shape[nb], r, r, o->shape[nb + 1], o->shape[nb + 2]};
        int64_t udstr[5] = {os[0] * r * r, os[0] * r, os[0], os[1], os[2]};
        int64_t usstr[5] = {ss[0], ss[1], ss[2], ss[1] * r, ss[2] * r};
        memcpy(shape, ushape, sizeof shape);
        memcpy(dstr, udstr, sizeof dstr);
        memcpy(sstr, usstr, sizeof sstr);
    }
    memcpy(dst.shape + nb, shape, sizeof shape);
    memcpy(src.shape + nb, shape, sizeof shape);
    memcpy(dst.strides + nb, dstr, sizeof dstr);
    memcpy(src.strides + nb, sstr, sizeof sstr);
    airc_cpu_copy(&dst, &src);
    return AIRC_OK;
}

airc_status airc_cpu_k_pixel_shuffle(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return pixel_shuffle(k, false);
}

airc_status airc_cpu_k_pixel_unshuffle(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return pixel_shuffle(k, true);
}

/* channel_shuffle(self, groups): result channel j = ci * groups + gi is
 * self's channel gi * (C / groups) + ci; one strided copy of self seen as
 * [N, C/g, g, ...] into the result seen the same way. */
airc_status airc_cpu_k_channel_shuffle(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x, *o;
    AIRC_TRY(self_and_out(k, &x, &o));
    int64_t g = airc_cpu_arg_int(k, 1, 1);
    if (x->ndim < 3 || x->ndim + 1 > AIRC_MAX_DIMS || o->ndim != x->ndim || g <= 0 ||
        x->shape[1] % g)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "result and input shapes do not match");
    if (airc_cpu_numel(o) == 0)
        return AIRC_OK;
    int64_t cg = x->shape[1] / g;
    airc_tview dst = *o, src = *x;
    dst.ndim = src.ndim = x->ndim + 1;
    for (int32_t d = x->ndim - 1; d >= 2; d--) { /* the dims after the channels, one later */
        dst.shape[d + 1] = src.shape[d + 1] = x->shape[d];
        dst.strides[d + 1] = o->strides[d];
        src.strides[d + 1] = x->strides[d];
    }
    dst.shape[1] = src.shape[1] = cg;
    dst.shape[2] = src.shape[2] = g;
    dst.strides[1] = o->strides[1] * g;
    dst.strides[2] = o->strides[1];
    src.strides[1] = x->strides[1];
    src.strides[2] = x->strides[1] * cg;
    airc_cpu_copy(&dst, &src);
    return AIRC_OK;
}

/* roll of the flattened tensor: self in row-major order, rotated by s. */
static airc_status roll_flat(airc_kernel_ctx *k, const airc_tview *x, const airc_tview *o,
                             int64_t shift)
{
    int64_t n = airc_cpu_numel(x), s = ((shift % n) + n) % n;
    size_t esz = airc_dtype_size(x->dtype);
    char *tmp = airc_malloc(k->ctx, (size_t)n * esz);
    if (!tmp)
        return airc_cpu_oom(k, "roll scratch");
    airc_tview t = *x;
    t.data = tmp;
    airc_cpu_set_contiguous(&t);
    airc_cpu_copy(&t, x);
    memcpy((char *)o->data + (size_t)s * esz, tmp, (size_t)(n - s) * esz);
    memcpy(o->data, tmp + (size_t)(n - s) * esz, (size_t)s * esz);
    airc_free(k->ctx, tmp);
    return AIRC_OK;
}

/* roll(self, shifts, dims): result[i] = self[i - shift] along each rolled
 * dim, as 2^k block copies (k rolled dims; a dim named twice rolls by the
 * sum of its shifts). */
airc_status airc_cpu_k_roll(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x, *o;
    AIRC_TRY(self_and_out(k, &x, &o));
    int64_t shifts[AIRC_MAX_DIMS], dims[AIRC_MAX_DIMS];
    int32_t ns, nd;
    AIRC_TRY(airc_cpu_arg_ints(k, 1, shifts, AIRC_MAX_DIMS, &ns));
    AIRC_TRY(airc_cpu_arg_ints(k, 2, dims, AIRC_MAX_DIMS, &nd));
    if (airc_cpu_numel(o) == 0)
        return AIRC_OK;
    if (nd == 0)
        return ns == 1 && airc_cpu_is_contiguous(o)
                   ? roll_flat(k, x, o, shifts[0])
                   : airc_cpu_fail(k, AIRC_E_RUNTIME, "a flattened roll needs one shift");
    if (ns != nd || o->ndim != x->ndim)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "shifts and dims do not align");
    int64_t by[AIRC_MAX_DIMS] = {0}; /* the shift of each dim, in [0, size) */
    for (int32_t i = 0; i < nd && x->ndim; i++) { /* a 0-dim tensor rolls into itself */
        int32_t d = airc_cpu_wrap_dim(dims[i], x->ndim);
        if (d < 0 || d >= x->ndim)
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "dim %lld out of range", (long long)dims[i]);
        int64_t size = x->shape[d];
        by[d] = ((by[d] + shifts[i] % size) % size + size) % size;
    }
    int32_t rolled[AIRC_MAX_DIMS], nr = 0;
    for (int32_t d = 0; d < x->ndim; d++)
        if (by[d])
            rolled[nr++] = d;
    for (uint32_t block = 0; block < (1u << nr); block++) {
        airc_tview dst = *o, src = *x;
        bool empty = false;
        for (int32_t i = 0; i < nr; i++) {
            int32_t d = rolled[i];
            int64_t size = x->shape[d], s = by[d];
            if (block & (1u << i)) { /* the head of the result: self's tail */
                airc_cpu_narrow(&dst, d, 0, s);
                airc_cpu_narrow(&src, d, size - s, s);
            } else {
                airc_cpu_narrow(&dst, d, s, size - s);
                airc_cpu_narrow(&src, d, 0, size - s);
                empty |= size == s;
            }
        }
        if (!empty)
            airc_cpu_copy(&dst, &src);
    }
    return AIRC_OK;
}

/* The source index of each of n result positions along a padded dim. A
 * huge crop (replication: -2^63 before, 2^63 - 1 after) saturates. */
static void pad_map(int64_t *map, int64_t n, int64_t size, int64_t before, bool reflect)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t j;
        if (__builtin_sub_overflow(i, before, &j))
            j = INT64_MAX;
        if (reflect)
            j = j < 0 ? -j : j >= size ? 2 * (size - 1) - j : j;
        else
            j = j < 0 ? 0 : j >= size ? size - 1 : j;
        map[i] = j;
    }
}

/* reflection_pad1d|2d|3d / replication_pad1d|2d|3d(self, [left, right(,
 * top, bottom(, front, back)]): each plane of the leading dims is copied
 * through one index map per padded dim. The result's padded dims must be
 * the input's plus the pads, its leading dims the input's, so that every
 * map stays inside self (reflection's, only when each pad is below its
 * dim: meta's check, repeated here). */
static airc_status pad_planes(airc_kernel_ctx *k, bool reflect)
{
    const airc_tview *x, *o;
    AIRC_TRY(self_and_out(k, &x, &o));
    int64_t pad[6] = {0, 0, 0, 0, 0, 0};
    int32_t np;
    AIRC_TRY(airc_cpu_arg_ints(k, 1, pad, 6, &np));
    int32_t sp = np / 2; /* padded dims */
    if (np % 2 || sp < 1 || x->ndim < sp + 1 || x->ndim > sp + 2 || o->ndim != x->ndim)
        return airc_cpu_fail(k, AIRC_E_RUNTIME,
                             "expected 2, 4 or 6 paddings for an input of 1 or 2 more dims");
    int32_t lead = x->ndim - sp;
    for (int32_t d = 0; d < lead; d++)
        if (o->shape[d] != x->shape[d])
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "result and self differ in dim %d", (int)d);
    int64_t n[3] = {1, 1, 1}, size[3] = {1, 1, 1}, before[3] = {0, 0, 0}, xs[3] = {0, 0, 0},
            os[3] = {0, 0, 0};         /* per padded dim, outermost (depth) first */
    for (int32_t i = 0; i < sp; i++) { /* pad pair i: dim ndim - 1 - i */
        int32_t d = x->ndim - 1 - i, j = 2 - i;
        int64_t want;
        if (__builtin_add_overflow(x->shape[d], pad[2 * i], &want) ||
            __builtin_add_overflow(want, pad[2 * i + 1], &want) || want != o->shape[d] ||
            (reflect && (pad[2 * i] >= x->shape[d] || pad[2 * i + 1] >= x->shape[d])))
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "padding does not give the result's dim %d",
                                 (int)d);
        n[j] = o->shape[d];
        size[j] = x->shape[d];
        before[j] = pad[2 * i];
        xs[j] = x->strides[d];
        os[j] = o->strides[d];
    }
    if (airc_cpu_numel(o) == 0)
        return AIRC_OK;
    for (int j = 0; j < 3; j++)
        if (size[j] < 1)
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "an empty padded dim of self");
    int64_t *map = airc_malloc(k->ctx, (size_t)(n[0] + n[1] + n[2]) * sizeof *map);
    if (!map)
        return airc_cpu_oom(k, "padding index maps");
    int64_t *md = map, *mh = map + n[0], *mw = mh + n[1];
    pad_map(md, n[0], size[0], before[0], reflect);
    pad_map(mh, n[1], size[1], before[1], reflect);
    pad_map(mw, n[2], size[2], before[2], reflect);
    size_t esz = airc_dtype_size(x->dtype);
    int64_t planes = 1;
    for (int32_t d = 0; d < lead; d++)
        planes *= o->shape[d];
    int64_t idx[2] = {0, 0}; /* the plane's position in the leading dims */
    for (int64_t p = 0; p < planes; p++) {
        const char *xp = x->data;
        char *op = o->data;
        for (int32_t d = 0; d < lead; d++) {
            xp += idx[d] * x->strides[d] * (int64_t)esz;
            op += idx[d] * o->strides[d] * (int64_t)esz;
        }
        for (int64_t a = 0; a < n[0]; a++)
            for (int64_t i = 0; i < n[1]; i++)
                for (int64_t j = 0; j < n[2]; j++)
                    memcpy(op + (a * os[0] + i * os[1] + j * os[2]) * (int64_t)esz,
                           xp + (md[a] * xs[0] + mh[i] * xs[1] + mw[j] * xs[2]) * (int64_t)esz,
                           esz);
        airc_cpu_next_index(idx, o->shape, lead);
    }
    airc_free(k->ctx, map);
    return AIRC_OK;
}

airc_status airc_cpu_k_reflection_pad(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return pad_planes(k, true);
}

airc_status airc_cpu_k_replication_pad(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return pad_planes(k, false);
}

/* rot90(self, k, dims): each result element read from self where torch's
 * flips and transpose put it (k mod 4: 1 flips dim1 then swaps, 2 flips
 * both, 3 flips dim0 then swaps, 0 copies). */
airc_status airc_cpu_k_rot90(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x = k->nargs && k->in ? k->in[0] : NULL;
    const airc_tview *o = &k->out[0];
    int64_t dims[2] = {0, 1};
    int32_t nd = 0;
    if (!x || x->ndim < 2 || o->ndim != x->ndim || o->dtype != x->dtype)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "self and the result do not match");
    AIRC_TRY(airc_cpu_arg_ints(k, 2, dims, 2, &nd));
    if (nd == 0)
        dims[0] = 0, dims[1] = 1;
    int32_t d0 = airc_cpu_wrap_dim(dims[0], x->ndim), d1 = airc_cpu_wrap_dim(dims[1], x->ndim);
    if (d0 < 0 || d1 < 0 || d0 >= x->ndim || d1 >= x->ndim || d0 == d1)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "rotation dims out of range");
    int64_t r = ((airc_cpu_arg_int(k, 1, 1) % 4) + 4) % 4;
    if (airc_cpu_numel(o) == 0)
        return AIRC_OK;
    size_t esz = airc_dtype_size(o->dtype);
    int64_t oi[AIRC_MAX_DIMS] = {0}, si[AIRC_MAX_DIMS];
    do {
        memcpy(si, oi, sizeof si);
        if (r == 1 || r == 3) {
            si[d0] = oi[d1];
            si[d1] = oi[d0];
        }
        if (r == 1 || r == 2)
            si[d1] = x->shape[d1] - 1 - si[d1];
        if (r == 2 || r == 3)
            si[d0] = x->shape[d0] - 1 - si[d0];
        memcpy(airc_cpu_at(o, oi), airc_cpu_at(x, si), esz);
    } while (airc_cpu_next_index(oi, o->shape, o->ndim));
    return AIRC_OK;
}
