/* Linalg family: max_unpool2d(self, indices, output_size) and
 * max_unpool3d(self, indices, output_size, stride, padding), torch's
 * kernels: each result plane (the last 2 or 3 dims) starts as zeros, and
 * every element of self's plane, in row-major order, is copied to the flat
 * position its index names in the result plane (a later duplicate index
 * wins). An index outside the plane fails, as torch's check does, unless
 * the result is empty. f32 and f64 (meta); any layout. */
#include "backends/cpu/k_linalg_impl.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static airc_status max_unpool(airc_kernel_ctx *k, int32_t sp)
{
    if (k->nargs < 3 || !k->in || !k->in[0] || !k->in[1])
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "self and indices must be tensors");
    const airc_tview *x = k->in[0], *ix = k->in[1], *o = &k->out[0];
    int32_t nd = x->ndim, lead = nd - sp;
    if (lead < 0 || ix->ndim != nd || o->ndim != nd || ix->dtype != AIRC_DTYPE_I64 ||
        o->dtype != x->dtype)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "self, indices and result do not match");
    int64_t in_plane = 1, out_plane = 1, planes = 1;
    for (int32_t d = 0; d < nd; d++) {
        if (ix->shape[d] != x->shape[d] || (d < lead && o->shape[d] != x->shape[d]))
            return airc_cpu_fail(k, AIRC_E_RUNTIME, "self, indices and result do not match");
        if (d < lead)
            planes *= x->shape[d];
        else {
            in_plane *= x->shape[d];
            out_plane *= o->shape[d];
        }
    }
    if (airc_cpu_numel(o) == 0) /* torch returns before its index check */
        return AIRC_OK;
    airc_cpu_scalar zero = {false, 0, 0};
    airc_cpu_fill(o, &zero);
    size_t esz = airc_dtype_size(x->dtype);
    int64_t idx[AIRC_MAX_DIMS] = {0};
    for (int64_t pl = 0; pl < planes; pl++) {
        int64_t xo = 0, io = 0, oo = 0;
        for (int32_t d = 0; d < lead; d++) {
            xo += idx[d] * x->strides[d];
            io += idx[d] * ix->strides[d];
            oo += idx[d] * o->strides[d];
        }
        for (int64_t e = 0; e < in_plane; e++) {
            int64_t at;
            memcpy(&at, (const char *)ix->data + (io + airc_cpu_flat_offset(ix, lead, e)) * 8,
                   sizeof at);
            if (at < 0 || at >= out_plane) {
                char dims[64];
                size_t len = 0;
                for (int32_t d = lead; d < nd && len < sizeof dims; d++) {
                    int r = snprintf(dims + len, sizeof dims - len, "%s%" PRId64,
                                     d > lead ? "x" : "", o->shape[d]);
                    len += r > 0 ? (size_t)r : 0;
                }
                return airc_cpu_fail(k, AIRC_E_RUNTIME,
                                     "Found an invalid max index: %" PRId64
                                     " (output volumes are of size %s",
                                     at, dims);
            }
            memcpy((char *)o->data + (size_t)(oo + airc_cpu_flat_offset(o, lead, at)) * esz,
                   (const char *)x->data + (size_t)(xo + airc_cpu_flat_offset(x, lead, e)) * esz,
                   esz);
        }
        for (int32_t d = lead - 1; d >= 0 && ++idx[d] == x->shape[d]; d--)
            idx[d] = 0;
    }
    return AIRC_OK;
}

airc_status airc_cpu_k_max_unpool2d(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return max_unpool(k, 2);
}

airc_status airc_cpu_k_max_unpool3d(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return max_unpool(k, 3);
}
