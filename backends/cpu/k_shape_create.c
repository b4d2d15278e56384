/* Shape family: creation and fill kernels (zeros, ones, full, empty,
 * *_like, new_*, scalar_tensor, fill, zero_, arange, range). The result's dtype,
 * shape and layout come from meta; these only write values. empty and
 * empty_like give zeros: deterministic at no real cost. */
#include "backends/cpu/ew.h"
#include "backends/cpu/k_shape_impl.h"

#include <math.h>
#include <string.h>

static airc_status fill_const(airc_kernel_ctx *k, int64_t v)
{
    airc_cpu_scalar s = {false, v, (double)v};
    airc_cpu_fill(&k->out[0], &s);
    return AIRC_OK;
}

static airc_status fill_from_arg(airc_kernel_ctx *k, airc_tview *dst, size_t i)
{
    airc_cpu_scalar v;
    bool present;
    AIRC_TRY(airc_cpu_arg_scalar(k, i, &v, &present));
    if (!present)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "argument %zu (the fill value) is missing",
                             i);
    airc_cpu_fill(dst, &v);
    return AIRC_OK;
}

airc_status airc_cpu_k_zeros(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return fill_const(k, 0);
}

airc_status airc_cpu_k_ones(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return fill_const(k, 1);
}

/* full(size, fill_value), full_like(self, fill_value), fill(self, value) */
airc_status airc_cpu_k_fill_arg1(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return fill_from_arg(k, &k->out[0], 1);
}

/* new_full(self, size, fill_value) */
airc_status airc_cpu_k_new_full(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return fill_from_arg(k, &k->out[0], 2);
}

airc_status airc_cpu_k_scalar_tensor(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return fill_from_arg(k, &k->out[0], 0);
}

/* fill.Tensor(self, value): value.item() (a 0-dim tensor, the meta's
 * check) converted to self's dtype, checked as torch does */
airc_status airc_cpu_k_fill_tensor(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *v = k->nargs > 1 && k->in ? k->in[1] : NULL;
    if (!v || !v->data)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "value must be a tensor");
    AIRC_TRY(airc_ew_check_item(k, v, k->out[0].dtype));
    bool is_float = airc_cpu_dtype_is_float(v->dtype);
    airc_cpu_scalar s = {is_float, is_float ? 0 : airc_cpu_load_i64(v->data, v->dtype),
                         is_float ? airc_cpu_load_f64(v->data, v->dtype) : 0.0};
    if (!is_float)
        s.f = (double)s.i;
    airc_cpu_fill(&k->out[0], &s);
    return AIRC_OK;
}

airc_status airc_cpu_k_fill_(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return fill_from_arg(k, airc_cpu_inplace_target(k), 1);
}

airc_status airc_cpu_k_zero_(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    airc_cpu_scalar zero = {false, 0, 0.0};
    airc_cpu_fill(airc_cpu_inplace_target(k), &zero);
    return AIRC_OK;
}

/* ---- arange ------------------------------------------------------------ */

static airc_status number(airc_kernel_ctx *k, size_t i, double def, airc_cpu_scalar *out)
{
    bool present;
    AIRC_TRY(airc_cpu_arg_scalar(k, i, out, &present));
    if (!present) {
        out->is_float = true;
        out->f = def;
    }
    return AIRC_OK;
}

static int64_t as_int(const airc_cpu_scalar *s)
{
    if (!s->is_float)
        return s->i;
    return s->f >= -9.2e18 && s->f <= 9.2e18 ? (int64_t)s->f : 0;
}

/* out[i] = start + i * step, accumulated as torch does: in int64 (bounds
 * truncated) for integral results, in double for floating ones. The
 * length is meta's. */
void airc_cpu_arange(airc_tview *out, const airc_cpu_scalar *start, const airc_cpu_scalar *step,
                     bool float_acc)
{
    size_t esz = airc_dtype_size(out->dtype);
    int64_t n = out->shape[0], st = out->strides[0] * (int64_t)esz;
    char *p = out->data;
    if (airc_cpu_dtype_is_float(out->dtype)) {
        double s = start->is_float ? start->f : (double)start->i;
        double d = step->is_float ? step->f : (double)step->i;
        if (float_acc) /* range of bf16: float start, step and index */
            for (int64_t i = 0; i < n; i++)
                airc_cpu_store_f64(p + i * st, out->dtype,
                                   (double)((float)s + (float)i * (float)d));
        else
            for (int64_t i = 0; i < n; i++)
                airc_cpu_store_f64(p + i * st, out->dtype, s + (double)i * d);
    } else {
        int64_t s = as_int(start), d = as_int(step);
        for (int64_t i = 0; i < n; i++)
            airc_cpu_store_i64(p + i * st, out->dtype,
                               (int64_t)((uint64_t)s + (uint64_t)i * (uint64_t)d));
    }
}

static airc_status arange(airc_kernel_ctx *k, const airc_cpu_scalar *start,
                          const airc_cpu_scalar *step, bool float_acc)
{
    if (k->out[0].ndim != 1)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "the result must be 1-d");
    airc_cpu_arange(&k->out[0], start, step, float_acc);
    return AIRC_OK;
}

/* arange(end) */
airc_status airc_cpu_k_arange(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    airc_cpu_scalar start = {false, 0, 0.0}, step = {false, 1, 1.0};
    return arange(k, &start, &step, false);
}

/* arange.start(start, end) */
airc_status airc_cpu_k_arange_start(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    airc_cpu_scalar start, step = {false, 1, 1.0};
    AIRC_TRY(number(k, 0, 0.0, &start));
    return arange(k, &start, &step, false);
}

/* arange.start_step(start, end, step=1) */
airc_status airc_cpu_k_arange_start_step(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    airc_cpu_scalar start, step;
    AIRC_TRY(number(k, 0, 0.0, &start));
    AIRC_TRY(number(k, 2, 1.0, &step));
    return arange(k, &start, &step, false);
}

/* range(start, end) and range.step(start, end, step=1): end included (the
 * length is meta's), accumulated as arange but bf16 in float (torch's
 * accumulate type there) */
airc_status airc_cpu_k_range(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    airc_cpu_scalar start, step = {false, 1, 1.0};
    AIRC_TRY(number(k, 0, 0.0, &start));
    if (k->op && !strcmp(k->op->qualname, "aten.range.step"))
        AIRC_TRY(number(k, 2, 1.0, &step));
    return arange(k, &start, &step, k->out[0].dtype == AIRC_DTYPE_BF16);
}

/* native_dropout(input, p, train?) -> (output, mask): meta lets through
 * evaluation and training with p 0 (input * 1 * 1: a copy, the mask all
 * true) or 1 (input * 0 * 0: zeros of input's signs, NaN for inf and
 * NaN, the mask all false); an empty input writes nothing. */
airc_status airc_cpu_k_native_dropout(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    if (!k->in || !k->in[0] || k->nout < 2)
        return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "input must be a tensor");
    const airc_tview *x = k->in[0], *y = &k->out[0];
    bool keep = !airc_cpu_arg_bool(k, 2, true) || airc_cpu_arg_double(k, 1, 0) != 1.0;
    if (airc_cpu_numel(x) == 0)
        return AIRC_OK;
    airc_cpu_copy(y, x);
    airc_cpu_scalar m = {false, keep, keep};
    airc_cpu_fill(&k->out[1], &m);
    if (keep)
        return AIRC_OK;
    int64_t idx[AIRC_MAX_DIMS] = {0};
    do {
        char *p = airc_cpu_at(y, idx);
        airc_cpu_store_f64(p, y->dtype, airc_cpu_load_f64(p, y->dtype) * 0.0 * 0.0);
    } while (airc_cpu_next_index(idx, y->shape, y->ndim));
    return AIRC_OK;
}
