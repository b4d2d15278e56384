/* Meta function of histc(self, bins=100, min=0, max=0): a [bins] result of
 * self's dtype (torch's CPU kernel: f32, f64, bf16), contiguous. torch's
 * checks that read only arguments: bins above 0, min not above max, and a
 * given range (min != max) finite. With min == max the range is the
 * data's, checked by the kernel. */
#include "ops/meta_util.h"

#include <inttypes.h>
#include <math.h>

airc_status airc_meta_histc(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x;
    int64_t bins;
    double lo, hi;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    AIRC_TRY(airc_meta_int(&a, "bins", 100, &bins));
    AIRC_TRY(airc_meta_double(&a, "min", 0, &lo));
    AIRC_TRY(airc_meta_double(&a, "max", 0, &hi));
    if (x.dtype != AIRC_DTYPE_F32 && x.dtype != AIRC_DTYPE_F64 && x.dtype != AIRC_DTYPE_BF16)
        return airc_fail(AIRC_E_SHAPE, "%s: \"histogram_cpu\" not implemented for '%s'", a.op,
                         airc_dtype_torch_type_name(x.dtype));
    if (bins <= 0)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: torch.histogram(): bins must be > 0, but got %" PRId64
                         " for dimension 0",
                         a.op, bins);
    if (lo > hi)
        return airc_fail(AIRC_E_SHAPE, "%s: torch.histc: max must be larger than min", a.op);
    if (lo != hi && !(isfinite(lo) && isfinite(hi)))
        return airc_fail(AIRC_E_SHAPE, "%s: torch.histc: range of [%g, %g] is not finite", a.op, lo,
                         hi);
    airc_tmeta out = x;
    out.ndim = 1;
    out.shape[0] = bins;
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, 1));
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}
