/* Meta functions of the fake-quantization ops a QAT model's make_fx graph
 * holds (torch.fake_quantize_per_tensor_affine / _per_channel_affine and
 * FakeQuantize's calls of them, the learnable forms of
 * _LearnableFakeQuantize):
 *   fake_quantize_per_tensor_affine_cachemask(self, scale, zero_point, ...)
 *   _fake_quantize_per_tensor_affine_cachemask_tensor_qparams(self, scale,
 *       zero_point, fake_quant_enabled, ...)
 *   fake_quantize_per_channel_affine_cachemask(self, scale, zero_point,
 *       axis, ...)
 *     -> (output, mask): empty_like(self) (layout preserved), and a bool
 *        mask of the same layout;
 *   _fake_quantize_learnable_per_tensor_affine /
 *   _fake_quantize_learnable_per_channel_affine -> output only.
 * torch 1.13's checks that read only arguments, in its order; the ones
 * that read data (a zero point within [quant_min, quant_max], .item()'s
 * conversions) are the kernel's (backends/cpu/k_quant.c). Its kernels
 * take f32, f64 and f16 (not bf16). */
#include "ops/meta_util.h"

#include "ir/ir.h"

#include <inttypes.h>
#include <string.h>

static airc_status no_kernel(const airc_meta_args *a, const char *kernel, airc_dtype dt)
{
    if (dt == AIRC_DTYPE_F32 || dt == AIRC_DTYPE_F64 || dt == AIRC_DTYPE_F16)
        return AIRC_OK;
    return airc_fail(AIRC_E_SHAPE, "%s: \"%s\" not implemented for '%s'", a->op, kernel,
                     airc_dtype_torch_type_name(dt));
}

static airc_status min_not_above_max(const airc_meta_args *a, int64_t qmin, int64_t qmax)
{
    if (qmin <= qmax)
        return AIRC_OK;
    return airc_fail(AIRC_E_SHAPE,
                     "%s: `quant_min` should be less than or         equal to `quant_max`.", a->op);
}

/* t.item() needs one element */
static airc_status one_item(const airc_meta_args *a, const airc_tmeta *t)
{
    int64_t n = airc_tmeta_numel(t);
    if (n == 1)
        return AIRC_OK;
    return airc_fail(AIRC_E_SHAPE,
                     "%s: a Tensor with %" PRId64 " elements cannot be converted to Scalar", a->op,
                     n);
}

/* t[0].item() (the learnable per-tensor op's qparams) */
static airc_status first_item(const airc_meta_args *a, const airc_tmeta *t)
{
    if (t->ndim == 0)
        return airc_fail(AIRC_E_SHAPE, "%s: select() cannot be applied to a 0-dim tensor.", a->op);
    if (t->shape[0] == 0)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: select(): index 0 out of range for tensor of size [0] at dimension 0",
                         a->op);
    int64_t n = airc_tmeta_numel(t) / t->shape[0];
    if (n == 1)
        return AIRC_OK;
    return airc_fail(AIRC_E_SHAPE,
                     "%s: a Tensor with %" PRId64 " elements cannot be converted to Scalar", a->op,
                     n);
}

/* fake_quantize_per_channel_affine_cachemask's checks, zp_dtype the zero
 * points' dtype as its kernel sees them (int32 for the learnable op). */
static airc_status per_channel_checks(const airc_meta_args *a, const airc_tmeta *x,
                                      const airc_tmeta *s, const airc_tmeta *z, airc_dtype zp_dtype,
                                      int64_t axis, int64_t qmin, int64_t qmax)
{
    if (zp_dtype != AIRC_DTYPE_I32 && zp_dtype != AIRC_DTYPE_F32 && zp_dtype != AIRC_DTYPE_F16)
        return airc_fail(AIRC_E_SHAPE, "%s: Zero-point must be Int32, Float or Half, found %s",
                         a->op, airc_dtype_torch_type_name(zp_dtype));
    if (s->ndim != 1)
        return airc_fail(AIRC_E_SHAPE, "%s: scale should be a 1-D tensor", a->op);
    if (z->ndim != 1)
        return airc_fail(AIRC_E_SHAPE, "%s: zero point should be a 1-D tensor", a->op);
    if (s->shape[0] != z->shape[0])
        return airc_fail(AIRC_E_SHAPE, "%s: scale and zero-point need to have the same dimensions",
                         a->op);
    if (x->ndim == 0)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Dimension specified as %" PRId64 " but tensor has no dimensions",
                         a->op, axis);
    int32_t d;
    AIRC_TRY(airc_meta_wrap_dim(a, axis, x->ndim, false, &d));
    if (s->shape[0] != x->shape[d])
        return airc_fail(AIRC_E_SHAPE,
                         "%s: dimensions of scale and zero-point are not consistent with input "
                         "tensor",
                         a->op);
    AIRC_TRY(min_not_above_max(a, qmin, qmax));
    /* torch's aminmax of int zero points (their range check) refuses none */
    if (zp_dtype == AIRC_DTYPE_I32 && z->shape[0] == 0)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: min(): Expected reduction dim to be specified for input.numel() == "
                         "0. Specify the reduction dim with the 'dim' argument.",
                         a->op);
    if (axis < 0)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: `axis` must be between 0 and number of dimensions of input", a->op);
    AIRC_TRY(no_kernel(a, "fake_quantize_channel_cachemask_cpu_type_handling", x->dtype));
    if (s->dtype != AIRC_DTYPE_F32) /* torch 1.13 fails an internal assert */
        return airc_fail(AIRC_E_SHAPE,
                         "%s: !needs_dynamic_casting<func_t>::check(iter) INTERNAL ASSERT FAILED: "
                         "the kernel reads scale as Float, found %s",
                         a->op, airc_dtype_torch_type_name(s->dtype));
    return AIRC_OK;
}

airc_status airc_meta_fake_quantize(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    const char *name = airc_meta_name(&a);
    bool learnable = strstr(name, "learnable") != NULL;
    bool channel = strstr(name, "per_channel") != NULL;
    bool tensor_qparams = strstr(name, "tensor_qparams") != NULL;
    airc_tmeta x, s, z, e;
    int64_t qmin, qmax, axis = 0, zp = 0;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    AIRC_TRY(airc_meta_int(&a, "quant_min", 0, &qmin));
    AIRC_TRY(airc_meta_int(&a, "quant_max", 0, &qmax));
    if (channel || learnable || tensor_qparams) {
        AIRC_TRY(airc_meta_tensor(&a, "scale", &s));
        AIRC_TRY(airc_meta_tensor(&a, "zero_point", &z));
    } else {
        AIRC_TRY(airc_meta_int(&a, "zero_point", 0, &zp));
    }
    if (channel) {
        AIRC_TRY(airc_meta_int(&a, "axis", 0, &axis));
        airc_dtype zd = z.dtype;
        if (learnable) { /* zero_point.round().clamp_(..).to(int32) first */
            if (zd == AIRC_DTYPE_BOOL)
                return airc_fail(AIRC_E_SHAPE, "%s: \"round_vml_cpu\" not implemented for 'Bool'",
                                 a.op);
            zd = AIRC_DTYPE_I32;
        }
        AIRC_TRY(per_channel_checks(&a, &x, &s, &z, zd, axis, qmin, qmax));
    } else if (learnable) {
        AIRC_TRY(first_item(&a, &s));
        AIRC_TRY(first_item(&a, &z));
        AIRC_TRY(min_not_above_max(&a, qmin, qmax));
        AIRC_TRY(no_kernel(&a, "fake_quantize_tensor_cachemask_kernel_type_handling", x.dtype));
    } else {
        AIRC_TRY(min_not_above_max(&a, qmin, qmax));
        if (tensor_qparams) { /* .item() of each (C++'s order: the last argument first) */
            AIRC_TRY(airc_meta_tensor(&a, "fake_quant_enabled", &e));
            AIRC_TRY(one_item(&a, &z));
            AIRC_TRY(one_item(&a, &s));
            AIRC_TRY(one_item(&a, &e));
        } else if (zp < qmin || zp > qmax) {
            return airc_fail(AIRC_E_SHAPE,
                             "%s: `zero_point` must be between `quant_min` and `quant_max`.", a.op);
        }
        AIRC_TRY(no_kernel(&a, "fake_quantize_tensor_cachemask_kernel_type_handling", x.dtype));
    }
    airc_tmeta outs[2] = {x, x};
    airc_meta_like_strides(&x, AIRC_MEMORY_FORMAT_PRESERVE, true, outs[0].strides);
    memcpy(outs[1].strides, outs[0].strides, sizeof outs[1].strides);
    outs[1].dtype = AIRC_DTYPE_BOOL;
    return learnable ? airc_meta_set(n, &outs[0]) : airc_meta_set_tuple(n, outs, 2);
}
