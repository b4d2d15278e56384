/* Meta function of the window factories (hann_window, hamming_window,
 * bartlett_window, blackman_window, kaiser_window) and of torch.fft's
 * frequency factories (fft_fftfreq, fft_rfftfreq): a contiguous 1-d
 * result, default dtype f32, torch 1.13's checks in its order. */
#include "ops/meta_util.h"

#include <inttypes.h>
#include <string.h>

/* fft_fftfreq(n, d) has n elements; fft_rfftfreq n / 2 + 1 (C's
 * truncating division: rfftfreq(-3) is empty, rfftfreq(-1) one). */
static airc_status freq_meta(const airc_meta_args *a, const char *name, airc_tmeta *out)
{
    if (!airc_dtype_is_floating(out->dtype))
        return airc_fail(AIRC_E_SHAPE, "%s: %s requires a floating point or complex dtype", a->op,
                         name + 4);
    int64_t n;
    AIRC_TRY(airc_meta_int(a, "n", 0, &n));
    out->shape[0] = strcmp(name, "fft_rfftfreq") ? n : n / 2 + 1;
    if (out->shape[0] < 0)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Trying to create tensor with negative dimension %" PRId64
                         ": [%" PRId64 "]",
                         a->op, out->shape[0], out->shape[0]);
    return AIRC_OK;
}

airc_status airc_meta_window(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    const char *name = airc_meta_name(&a);
    airc_tmeta out;
    memset(&out, 0, sizeof out);
    bool has_dtype;
    AIRC_TRY(airc_meta_opt_dtype(&a, "dtype", &out.dtype, &has_dtype));
    if (!has_dtype)
        out.dtype = AIRC_DTYPE_F32;
    out.ndim = 1;
    if (!strncmp(name, "fft_", 4)) {
        AIRC_TRY(freq_meta(&a, name, &out));
    } else {
        /* torch's window_function_checks: the dtype, then the length */
        if (!airc_dtype_is_floating(out.dtype))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: %s expects floating point dtypes, got: TensorOptions(dtype=%s, "
                             "device=cpu (default), layout=Strided (default), requires_grad=false "
                             "(default), pinned_memory=false (default), memory_format=(nullopt))",
                             a.op, name, airc_dtype_type_meta_name(out.dtype));
        AIRC_TRY(airc_meta_int(&a, "window_length", 0, &out.shape[0]));
        if (out.shape[0] < 0)
            return airc_fail(
                AIRC_E_SHAPE,
                "%s: %s requires non-negative window_length, got window_length=%" PRId64, a.op,
                name, out.shape[0]);
        /* past one element torch computes: cos (hann, hamming, blackman)
         * and kaiser's kernel have no f16 CPU kernel */
        if (out.shape[0] > 1 && out.dtype == AIRC_DTYPE_F16 && strcmp(name, "bartlett_window"))
            return airc_fail(AIRC_E_SHAPE, "%s: \"%s\" not implemented for 'Half'", a.op,
                             strcmp(name, "kaiser_window") ? "cos_vml_cpu" : "kaiser_window_cpu");
    }
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, 1));
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}
