/* Meta functions of two training-time ops make_fx records: native_dropout
 * (deterministic only: evaluation, or p of 0 or 1) and
 * batch_norm_update_stats (the batch's mean and biased variance per
 * channel), with torch 1.13's checks in its order. */
#include "ops/meta_util.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/* native_dropout(input, p, train?) -> (output, mask). train None counts
 * as training, as torch's CPU kernel. An empty input gives (input, an
 * empty_like(input)); evaluation (input's clone, an all-true bool mask);
 * training draws the mask from torch's generator, which airc does not
 * reproduce: only p 0 (all kept, scale 1) and 1 (none kept, scale 0) are
 * deterministic. Both results are laid out like the input. */
airc_status airc_meta_native_dropout(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x;
    AIRC_TRY(airc_meta_tensor(&a, "input", &x));
    double p;
    bool train;
    AIRC_TRY(airc_meta_double(&a, "p", 0, &p));
    AIRC_TRY(airc_meta_bool(&a, "train", true, &train));
    airc_tmeta outs[2] = {x, x};
    airc_meta_like_strides(&x, AIRC_MEMORY_FORMAT_PRESERVE, true, outs[0].strides);
    outs[1].dtype = AIRC_DTYPE_BOOL;
    memcpy(outs[1].strides, outs[0].strides, sizeof outs[1].strides);
    if (airc_tmeta_numel(&x) == 0) {
        outs[1].dtype = x.dtype;
        return airc_meta_set_tuple(n, outs, 2);
    }
    if (train) {
        /* the mask's bernoulli_(1 - p), then input * mask * scale */
        double keep = 1.0 - p;
        if (!(keep >= 0 && keep <= 1))
            return airc_fail(AIRC_E_SHAPE, "%s: bernoulli_ expects p to be in [0, 1], but got p=%g",
                             a.op, keep);
        if (!airc_dtype_is_floating(x.dtype))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: result type Float can't be cast to the desired output type %s",
                             a.op, airc_dtype_torch_type_name(x.dtype));
        if (keep != 0 && keep != 1)
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "%s: training with 0 < p < 1 draws its mask from torch's random "
                             "generator, which airc does not reproduce (evaluation, or p of 0 or "
                             "1, is deterministic)",
                             a.op);
    }
    return airc_meta_set_tuple(n, outs, 2);
}

/* batch_norm_update_stats(input, running_mean?, running_var?, momentum)
 * -> (mean, biased var) over every dim but 1, [C] each: in the input's
 * dtype, or f32 for a bf16 input with f32 running statistics. torch 1.13
 * also updates the running statistics in place, which its schema does
 * not declare: airc leaves them as they are (its graphs are functional),
 * and refuses running statistics that are not [C] (torch writes past
 * them) and an empty input (torch divides by zero: SIGFPE). */
airc_status airc_meta_batch_norm_update_stats(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x, r[2];
    bool has[2];
    static const char *const names[2] = {"running_mean", "running_var"};
    AIRC_TRY(airc_meta_tensor(&a, "input", &x));
    for (int i = 0; i < 2; i++)
        AIRC_TRY(airc_meta_opt_tensor(&a, names[i], &r[i], &has[i]));
    if (x.dtype != AIRC_DTYPE_F32 && x.dtype != AIRC_DTYPE_F64 && x.dtype != AIRC_DTYPE_BF16)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: \"batch_norm_update_stats_cpu\" not implemented for '%s'", a.op,
                         airc_dtype_torch_type_name(x.dtype));
    /* mixed: the first running statistic's dtype is not the input's */
    int first = has[0] ? 0 : has[1] ? 1 : -1;
    bool mixed = first >= 0 && r[first].dtype != x.dtype;
    if (mixed && x.dtype != AIRC_DTYPE_BF16)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: mixed dtype (CPU): expect input to have scalar type of BFloat16",
                         a.op);
    for (int i = 0; mixed && i < 2; i++)
        if (has[i] && r[i].dtype != AIRC_DTYPE_F32)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: mixed dtype (CPU): expect parameter to have scalar type of Float",
                             a.op);
    for (int i = 0; !mixed && i < 2; i++) /* its kernel reads them as the input's type */
        if (has[i] && r[i].dtype != x.dtype)
            return airc_fail(AIRC_E_SHAPE, "%s: expected scalar type %s but found %s", a.op,
                             airc_dtype_torch_type_name(x.dtype),
                             airc_dtype_torch_type_name(r[i].dtype));
    if (x.ndim == 0)
        return airc_fail(AIRC_E_SHAPE, "%s: Dimension specified as 1 but tensor has no dimensions",
                         a.op);
    if (x.ndim == 1)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Dimension out of range (expected to be in range of [-1, 0], but got "
                         "1)",
                         a.op);
    if (airc_tmeta_numel(&x) == 0)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: an empty input, which torch 1.13 divides by (SIGFPE)", a.op);
    for (int i = 0; i < 2; i++)
        if (has[i] && (r[i].ndim != 1 || r[i].shape[0] != x.shape[1]))
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "%s: %s of other than [%" PRId64 "] elements, which torch 1.13 "
                             "writes past",
                             a.op, names[i], x.shape[1]);
    airc_tmeta out;
    memset(&out, 0, sizeof out);
    out.dtype = mixed ? AIRC_DTYPE_F32 : x.dtype;
    out.ndim = 1;
    out.shape[0] = x.shape[1];
    airc_tmeta_contiguous(&out);
    airc_tmeta outs[2] = {out, out};
    return airc_meta_set_tuple(n, outs, 2);
}
