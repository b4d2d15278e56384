/* Neural-network ops to and from Ascend IR, with TorchAir's choices:
 * native_layer_norm -> LayerNormV3 (y, mean, rstd); convolution -> Conv2D,
 * transposed -> Conv2DTranspose whose input_size is a Const of the result's
 * shape (NCHW; 1-d through Unsqueeze/Squeeze of dim 2, as TorchAir), 3-d
 * -> Conv3D / Conv3DTranspose (NCDHW); max_pool2d_with_indices
 * -> MaxPoolWithArgmaxV1 (NHWC-style 4-item ksize/strides/pads/dilation);
 * avg_pool2d -> AvgPoolV2; adaptive_avg_pool2d -> AdaptiveAvgPool2d;
 * adaptive_max_pool2d -> AdaptiveMaxPool2d (int64 argmax);
 * gelu -> Gelu (tanh approximation: GeluV2 approximate="tanh"); silu ->
 * Swish(scale 1); hardsigmoid -> HardSigmoid(alpha 1/6, beta 0.5);
 * hardswish -> HardSwish; hardtanh / clamp -> ClipByValueV2, clamp with one bound
 * and clamp_min / clamp_max -> Maximum / Minimum; leaky_relu -> LeakyRelu;
 * div with rounding_mode -> FloorDiv, RealDiv + Trunc (floats) or
 * TruncateDiv (integers); log2 / log10 -> Log + Mul by 1/ln base (the Log raiser of
 * the elementwise family reads no `base`); linear / matmul -> MatMulV2 (2-d) or BatchMatMulV2
 * (broadcasting; transpose_x2 / adj_x2 for linear's weight, its bias as the op's input). */
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"
#include "ops/meta_util.h"
#include "ops/ops.h"

#include <math.h>
#include <string.h>

/* ---- argument helpers ---------------------------------------------------------- */

/* Unsqueeze(x, axes=[axis]) / Squeeze(x, axis=[axis]) with explicit
 * output shapes. */
static airc_status unsqueeze(airc_ge_builder *b, airc_ge_tensor x, int64_t axis,
                             airc_ge_tensor *out)
{
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    const int64_t *s;
    AIRC_TRY(airc_ge_tensor_meta(b, x, &dt, &nd, &s));
    int64_t shape[AIRC_MAX_DIMS];
    for (int32_t i = 0, k = 0; i <= nd; i++)
        shape[i] = i == axis ? 1 : s[k++];
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Unsqueeze", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_attr_ints(op, "axes", &axis, 1));
    return airc_ge_op_output(op, "y", dt, nd + 1, shape, out);
}

static airc_status squeeze_result(airc_ge_builder *b, airc_ge_tensor x, int64_t axis)
{
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Squeeze", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_attr_ints(op, "axis", &axis, 1));
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    return airc_ge_set_result(b, 0, y);
}

/* The node's result 0 shape with a 1 inserted at axis. */
static int32_t result_unsqueezed(const airc_node *n, int64_t axis, int64_t *shape)
{
    const airc_tmeta *o = &n->out[0];
    for (int32_t i = 0, k = 0; i <= o->ndim; i++)
        shape[i] = i == axis ? 1 : o->shape[k++];
    return o->ndim + 1;
}

/* ---- layer norm ----------------------------------------------------------------- */

/* 1 in a floating dtype's bytes (the others stay 0). */
static void write_one(void *p, airc_dtype dt)
{
    if (dt == AIRC_DTYPE_F32) {
        float f = 1;
        memcpy(p, &f, sizeof f);
    } else if (dt == AIRC_DTYPE_F64) {
        double d = 1;
        memcpy(p, &d, sizeof d);
    } else if (dt == AIRC_DTYPE_F16 || dt == AIRC_DTYPE_BF16) {
        uint16_t h = dt == AIRC_DTYPE_F16 ? 0x3C00 : 0x3F80;
        memcpy(p, &h, sizeof h);
    }
}

/* Argument `arg` as dt, or when absent a Const of ones (one) or zeros of
 * the given shape (TorchAir: Fill). */
static airc_status param_or_const(airc_ge_builder *b, size_t arg, airc_dtype dt, int32_t nd,
                                  const int64_t *shape, bool one, airc_ge_tensor *out)
{
    if (airc_ge_arg_present(b, arg))
        return airc_ge_operand(b, arg, dt, out);
    size_t count = 1, es = airc_dtype_size(dt);
    for (int32_t j = 0; j < nd; j++)
        count *= (size_t)shape[j];
    void *buf = airc_calloc(b->ctx, count + 1, es);
    if (!buf)
        return airc_fail_oom("a norm's default weight or bias");
    for (size_t j = 0; one && j < count; j++)
        write_one((char *)buf + j * es, dt);
    airc_status st = airc_ge_const(b, dt, nd, shape, buf, out);
    airc_free(b->ctx, buf);
    return st;
}

/* native_group_norm(input, weight?, bias?, N, C, HxW, group, eps) ->
 * GroupNorm(x, gamma, beta; num_groups, eps, is_training) as TorchAir:
 * absent parameters as Consts, the op's variance turned into rstd =
 * Rsqrt(variance + eps). Mean and variance are [N, group]. */
static airc_status conv_group_norm(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_ge_tensor x, gamma, beta;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    airc_dtype dt = n->out[0].dtype;
    int64_t cs[1] = {n->out[0].shape[1]};
    AIRC_TRY(param_or_const(b, 1, dt, 1, cs, true, &gamma));
    AIRC_TRY(param_or_const(b, 2, dt, 1, cs, false, &beta));
    double eps = airc_ge_number_arg(b, 7, 1e-5);
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "GroupNorm", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "gamma", gamma));
    AIRC_TRY(airc_ge_op_input(op, "beta", beta));
    AIRC_TRY(airc_ge_op_attr_int(op, "num_groups", airc_ge_int_arg(b, 6, 1)));
    AIRC_TRY(airc_ge_op_attr_float(op, "eps", eps));
    AIRC_TRY(airc_ge_op_attr_bool(op, "is_training", true));
    airc_ge_tensor y, mean, var, t[2], rstd;
    const airc_tmeta *ms = &n->out[1];
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    AIRC_TRY(airc_ge_op_output(op, "mean", dt, ms->ndim, ms->shape, &mean));
    AIRC_TRY(airc_ge_op_output(op, "variance", dt, ms->ndim, ms->shape, &var));
    t[0] = var;
    AIRC_TRY(airc_ge_const_scalar(b, dt, eps, &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Add", t, 2, dt, ms->ndim, ms->shape, &t[0]));
    AIRC_TRY(airc_ge_ew_op(b, "Rsqrt", t, 1, dt, ms->ndim, ms->shape, &rstd));
    AIRC_TRY(airc_ge_set_result(b, 0, y));
    AIRC_TRY(airc_ge_set_result(b, 1, mean));
    return airc_ge_set_result(b, 2, rstd);
}

/* native_layer_norm(input, normalized_shape, weight?, bias?, eps): an absent
 * weight/bias becomes a Const of ones/zeros (TorchAir: Fill). */
static airc_status conv_layer_norm(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_ge_tensor x, gb[2];
    AIRC_TRY(airc_ge_input(b, 0, &x));
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    const int64_t *xs;
    AIRC_TRY(airc_ge_tensor_meta(b, x, &dt, &nd, &xs));
    int64_t ns[AIRC_MAX_DIMS];
    size_t k = 0;
    AIRC_TRY(airc_ge_int_list_arg(b, 1, ns, AIRC_MAX_DIMS, &k));
    if (k > (size_t)nd)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "normalized_shape has %zu dims, input %d", k, nd);
    int64_t begin = nd - (int64_t)k;
    double eps = 1e-5;
    eps = airc_ge_number_arg(b, 4, eps);
    for (int i = 0; i < 2; i++)
        AIRC_TRY(param_or_const(b, (size_t)(2 + i), dt, (int32_t)k, ns, i == 0, &gb[i]));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "LayerNormV3", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "gamma", gb[0]));
    AIRC_TRY(airc_ge_op_input(op, "beta", gb[1]));
    AIRC_TRY(airc_ge_op_attr_int(op, "begin_norm_axis", begin));
    AIRC_TRY(airc_ge_op_attr_int(op, "begin_params_axis", begin));
    AIRC_TRY(airc_ge_op_attr_float(op, "epsilon", eps));
    static const char *const outs[] = {"y", "mean", "rstd"};
    for (size_t j = 0; j < 3 && j < n->nout; j++) {
        airc_ge_tensor t;
        AIRC_TRY(airc_ge_op_output_like_node(op, outs[j], j, &t));
        AIRC_TRY(airc_ge_set_result(b, j, t));
    }
    return AIRC_OK;
}

/* ---- batch norm ------------------------------------------------------------------ */

/* native_batch_norm in evaluation mode, the only one an inference graph
 * holds: y = x * scale + shift over dim 1 with scale = weight *
 * Rsqrt(running_var + eps) and shift = bias - running_mean * scale, both
 * Reshaped to [C, 1, ...], in the parameters' dtype (a bf16 input with
 * f32 parameters is Cast there and back); save_mean and save_invstd are
 * [0] Consts. */
static airc_status conv_batch_norm(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    if (airc_ge_bool_arg(b, 5, false))
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "native_batch_norm with training=True has no Ascend IR converter (an "
                         "inference graph runs in eval mode)");
    airc_ge_tensor x, w, bias, rm, rv;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    const airc_tmeta *xm = &n->out[0];
    airc_dtype pdt = n->out[1].dtype;
    int32_t nd = xm->ndim;
    int64_t cs[1] = {xm->shape[1]}, rshape[AIRC_MAX_DIMS], zero[1] = {0};
    AIRC_TRY(airc_ge_cast(b, x, pdt, &x));
    AIRC_TRY(airc_ge_operand(b, 3, pdt, &rm));
    AIRC_TRY(airc_ge_operand(b, 4, pdt, &rv));
    airc_ge_tensor t[2], scale, shift, sr, hr, y;
    AIRC_TRY(airc_ge_const_scalar(b, pdt, airc_ge_number_arg(b, 7, 1e-5), &t[1]));
    t[0] = rv;
    AIRC_TRY(airc_ge_ew_op(b, "Add", t, 2, pdt, 1, cs, &t[0]));
    AIRC_TRY(airc_ge_ew_op(b, "Rsqrt", t, 1, pdt, 1, cs, &scale));
    if (airc_ge_arg_present(b, 1)) {
        AIRC_TRY(airc_ge_operand(b, 1, pdt, &w));
        airc_ge_tensor ws[2] = {w, scale};
        AIRC_TRY(airc_ge_ew_op(b, "Mul", ws, 2, pdt, 1, cs, &scale));
    }
    airc_ge_tensor ms[2] = {rm, scale};
    AIRC_TRY(airc_ge_ew_op(b, "Mul", ms, 2, pdt, 1, cs, &t[0]));
    if (airc_ge_arg_present(b, 2)) {
        AIRC_TRY(airc_ge_operand(b, 2, pdt, &bias));
        airc_ge_tensor bs[2] = {bias, t[0]};
        AIRC_TRY(airc_ge_ew_op(b, "Sub", bs, 2, pdt, 1, cs, &shift));
    } else {
        AIRC_TRY(airc_ge_ew_op(b, "Neg", t, 1, pdt, 1, cs, &shift));
    }
    /* [C] -> [C, 1, ...]: it broadcasts against [N, C, ...] */
    rshape[0] = cs[0];
    for (int32_t d = 1; d < nd - 1; d++)
        rshape[d] = 1;
    AIRC_TRY(airc_ge_reshape(b, scale, pdt, nd - 1, rshape, &sr));
    AIRC_TRY(airc_ge_reshape(b, shift, pdt, nd - 1, rshape, &hr));
    airc_ge_tensor xs[2] = {x, sr};
    AIRC_TRY(airc_ge_ew_op(b, "Mul", xs, 2, pdt, nd, xm->shape, &y));
    airc_ge_tensor ys[2] = {y, hr};
    AIRC_TRY(airc_ge_ew_op(b, "Add", ys, 2, pdt, nd, xm->shape, &y));
    AIRC_TRY(airc_ge_cast(b, y, xm->dtype, &y));
    AIRC_TRY(airc_ge_set_result(b, 0, y));
    for (size_t j = 1; j < 3 && j < n->nout; j++) {
        airc_ge_tensor e;
        AIRC_TRY(airc_ge_const(b, pdt, 1, zero, NULL, &e));
        AIRC_TRY(airc_ge_set_result(b, j, e));
    }
    return AIRC_OK;
}

/* ---- convolution ---------------------------------------------------------------- */

/* convolution(input, weight, bias?, stride, padding, dilation, transposed,
 * output_padding, groups): 1-d and 2-d -> Conv2D / Conv2DTranspose (NCHW),
 * 3-d -> Conv3D / Conv3DTranspose (NCDHW), their attributes over every
 * dim of the input (pads: before and after each spatial dim). _convolution
 * and the slow_conv* forwards the same, their arguments where
 * airc_conv_layout_of says; an unbatched input Unsqueezed to a batch of
 * one and the result Reshaped to the node's; dtypes other than f32, f64
 * (and i64 transposed) Cast to f32 (bf16) or f64 and back. */
static airc_status conv_convolution(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_conv_layout l;
    if (!airc_conv_layout_of(n->op->qualname, &l))
        return airc_fail(AIRC_E_INTERNAL, "%s: not a convolution", n->op->qualname);
    airc_ge_tensor x, w, bias;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    AIRC_TRY(airc_ge_input(b, 1, &w));
    airc_dtype dt = airc_ge_node_dtype(b, 0);
    int32_t nd = 0, wnd = 0;
    AIRC_TRY(airc_ge_tensor_meta(b, x, NULL, &nd, NULL));
    AIRC_TRY(airc_ge_tensor_meta(b, w, NULL, &wnd, NULL));
    bool transposed =
        l.transposed >= 0 ? airc_ge_bool_arg(b, (size_t)l.transposed, false) : l.transposed == -2;
    bool unbatched = nd + 1 == wnd, reshape = n->out[0].ndim + 1 == wnd; /* the result's */
    if (unbatched) {
        AIRC_TRY(unsqueeze(b, x, 0, &x));
        nd++;
    }
    if (nd < 3 || nd > 5)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "convolution of a %d-d input: only 1-d, 2-d and 3-d (Conv2D, Conv3D and "
                         "their transposes) are supported",
                         nd);
    bool one_d = nd == 3;
    size_t sp = (size_t)nd - 2, gsp = one_d ? 2 : sp; /* spatial dims: torch's, GE's */
    int64_t one[3] = {1, 1, 1}, zero[3] = {0, 0, 0};
    int64_t st[3], pd[3], dl[3], op_[3]; /* one_d: the width's values at index 1 */
    const int8_t pos[4] = {l.stride, l.padding, l.dilation, l.output_padding};
    int64_t *vals[4] = {st + one_d, pd + one_d, dl + one_d, op_ + one_d};
    for (int i = 0; i < 4; i++) {
        const int64_t *dflt = i == 0 || i == 2 ? one : zero;
        if (pos[i] >= 0)
            AIRC_TRY(airc_ge_spatial_arg(b, (size_t)pos[i], sp, dflt, vals[i]));
        else
            memcpy(vals[i], dflt, sp * sizeof *dflt);
    }
    const int64_t *xs, *ws;
    AIRC_TRY(airc_ge_tensor_meta(b, x, NULL, NULL, &xs));
    AIRC_TRY(airc_ge_tensor_meta(b, w, NULL, NULL, &ws));
    int64_t groups = transposed || !ws[1] ? 1 : xs[1] / ws[1];
    if (l.groups >= 0)
        airc_value_get_int(airc_ge_arg(b, (size_t)l.groups), &groups);
    /* the type it computes in: GE's and the reference's convolutions */
    airc_dtype ct =
        dt == AIRC_DTYPE_F32 || dt == AIRC_DTYPE_F64 || (transposed && dt == AIRC_DTYPE_I64) ? dt
        : dt == AIRC_DTYPE_BF16 ? AIRC_DTYPE_F32
                                : AIRC_DTYPE_F64;
    AIRC_TRY(airc_ge_cast(b, x, ct, &x));
    AIRC_TRY(airc_ge_cast(b, w, ct, &w));
    if (one_d) { /* TorchAir: unsqueeze dim 2, a unit-height 2-d conv */
        st[0] = 1, pd[0] = 0, dl[0] = 1, op_[0] = 0;
        AIRC_TRY(unsqueeze(b, x, 2, &x));
        AIRC_TRY(unsqueeze(b, w, 2, &w));
    }
    int64_t shape[AIRC_MAX_DIMS]; /* the result's, batch and unit height included */
    int32_t ynd = n->out[0].ndim;
    memcpy(shape + reshape, n->out[0].shape, (size_t)ynd * sizeof *shape);
    if (reshape) {
        shape[0] = 1;
        ynd++;
    }
    if (one_d) {
        memmove(shape + 3, shape + 2, sizeof *shape);
        shape[2] = 1;
        ynd++;
    }
    if (airc_tmeta_numel(&n->out[0]) == 0) { /* the slow_conv* forwards allow it */
        airc_ge_tensor e;
        AIRC_TRY(airc_ge_fill(b, dt, n->out[0].ndim, n->out[0].shape, 0, &e));
        return airc_ge_set_result(b, 0, e);
    }
    bool has_bias = l.bias >= 0 && airc_ge_arg_present(b, (size_t)l.bias);
    if (has_bias) { /* torch copies it into the result's dtype first */
        AIRC_TRY(airc_ge_operand(b, (size_t)l.bias, dt, &bias));
        AIRC_TRY(airc_ge_cast(b, bias, ct, &bias));
    }
    airc_ge_op *op;
    const char *type = transposed ? (gsp == 3 ? "Conv3DTranspose" : "Conv2DTranspose")
                                  : (gsp == 3 ? "Conv3D" : "Conv2D");
    airc_ge_tensor size; /* TorchAir: a transpose's input_size is the result's shape */
    if (transposed)
        AIRC_TRY(airc_ge_const_ints(b, shape, ynd, &size));
    AIRC_TRY(airc_ge_op_create(b, type, &op));
    if (transposed)
        AIRC_TRY(airc_ge_op_input(op, "input_size", size));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "filter", w));
    if (has_bias)
        AIRC_TRY(airc_ge_op_input(op, "bias", bias));
    else
        AIRC_TRY(airc_ge_op_input_absent(op, "bias"));
    AIRC_TRY(airc_ge_op_input_absent(op, "offset_w"));
    int64_t strides[5] = {1, 1}, pads[6], dils[5] = {1, 1}, opads[5] = {0, 0};
    for (size_t i = 0; i < gsp; i++) {
        strides[2 + i] = st[i];
        dils[2 + i] = dl[i];
        opads[2 + i] = op_[i];
        pads[2 * i] = pads[2 * i + 1] = pd[i];
    }
    AIRC_TRY(airc_ge_op_attr_ints(op, "strides", strides, gsp + 2));
    AIRC_TRY(airc_ge_op_attr_ints(op, "pads", pads, 2 * gsp));
    AIRC_TRY(airc_ge_op_attr_ints(op, "dilations", dils, gsp + 2));
    AIRC_TRY(airc_ge_op_attr_int(op, "groups", groups));
    AIRC_TRY(airc_ge_op_attr_string(op, "data_format", gsp == 3 ? "NCDHW" : "NCHW"));
    if (transposed)
        AIRC_TRY(airc_ge_op_attr_ints(op, "output_padding", opads, gsp + 2));
    AIRC_TRY(airc_ge_op_attr_int(op, "offset_x", 0));
    airc_ge_tensor y;
    if (!one_d && !reshape && ct == dt) {
        AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
        return airc_ge_set_result(b, 0, y);
    }
    AIRC_TRY(airc_ge_op_output(op, "y", ct, ynd, shape, &y));
    if (one_d && !reshape && ct == dt)
        return squeeze_result(b, y, 2);
    AIRC_TRY(airc_ge_cast(b, y, dt, &y));
    AIRC_TRY(airc_ge_reshape(b, y, dt, n->out[0].ndim, n->out[0].shape, &y));
    return airc_ge_set_result(b, 0, y);
}

/* conv_tbc(self [T, B, I], weight [K, I, O], bias, pad) -> Transpose to
 * [B, I, T] and [O, I, K], Conv2D of unit height (pad on both sides of
 * the width), Transpose back to [T', B, O]; a negative pad has no Conv2D
 * form: refused. */
static airc_status conv_conv_tbc(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    int64_t pad = airc_ge_int_arg(b, 3, 0);
    if (pad < 0)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "conv_tbc with a negative pad has no Ascend IR form (Conv2D pads are not "
                         "negative)");
    airc_dtype dt = airc_ge_node_dtype(b, 0);
    airc_dtype ct = dt == AIRC_DTYPE_F32 || dt == AIRC_DTYPE_F64 ? dt
                    : dt == AIRC_DTYPE_BF16                      ? AIRC_DTYPE_F32
                                                                 : AIRC_DTYPE_F64;
    airc_ge_tensor x, w, bias, y;
    if (airc_tmeta_numel(&n->out[0]) == 0) {
        AIRC_TRY(airc_ge_fill(b, dt, 3, n->out[0].shape, 0, &y));
        return airc_ge_set_result(b, 0, y);
    }
    AIRC_TRY(airc_ge_operand(b, 0, ct, &x));
    AIRC_TRY(airc_ge_operand(b, 1, ct, &w));
    AIRC_TRY(airc_ge_operand(b, 2, dt, &bias)); /* copied into the result's dtype first */
    AIRC_TRY(airc_ge_cast(b, bias, ct, &bias));
    const int64_t *xs, *ws, *os = n->out[0].shape;
    AIRC_TRY(airc_ge_tensor_meta(b, x, NULL, NULL, &xs));
    AIRC_TRY(airc_ge_tensor_meta(b, w, NULL, NULL, &ws));
    static const int64_t px[3] = {1, 2, 0}, pw[3] = {2, 1, 0}, py[3] = {2, 0, 1};
    int64_t xt[4] = {xs[1], xs[2], 1, xs[0]}, wt[4] = {ws[2], ws[1], 1, ws[0]};
    int64_t yt[4] = {os[1], os[2], 1, os[0]};
    AIRC_TRY(airc_ge_transpose(b, x, ct, 3, xs, px, &x));
    AIRC_TRY(airc_ge_reshape(b, x, ct, 4, xt, &x));
    AIRC_TRY(airc_ge_transpose(b, w, ct, 3, ws, pw, &w));
    AIRC_TRY(airc_ge_reshape(b, w, ct, 4, wt, &w));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Conv2D", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "filter", w));
    AIRC_TRY(airc_ge_op_input(op, "bias", bias));
    AIRC_TRY(airc_ge_op_input_absent(op, "offset_w"));
    int64_t strides[4] = {1, 1, 1, 1}, pads[4] = {0, 0, pad, pad};
    AIRC_TRY(airc_ge_op_attr_ints(op, "strides", strides, 4));
    AIRC_TRY(airc_ge_op_attr_ints(op, "pads", pads, 4));
    AIRC_TRY(airc_ge_op_attr_ints(op, "dilations", strides, 4));
    AIRC_TRY(airc_ge_op_attr_int(op, "groups", 1));
    AIRC_TRY(airc_ge_op_attr_string(op, "data_format", "NCHW"));
    AIRC_TRY(airc_ge_op_attr_int(op, "offset_x", 0));
    AIRC_TRY(airc_ge_op_output(op, "y", ct, 4, yt, &y));
    int64_t y3[3] = {os[1], os[2], os[0]};
    AIRC_TRY(airc_ge_reshape(b, y, ct, 3, y3, &y));
    AIRC_TRY(airc_ge_transpose(b, y, ct, 3, y3, py, &y));
    AIRC_TRY(airc_ge_cast(b, y, dt, &y));
    return airc_ge_set_result(b, 0, y);
}

/* ---- upsampling ------------------------------------------------------------------ */

/* Whether torch samples dim d of an upsample node at in / out (what the
 * Resize ops do): output_size given, an exact case of torch's kernel (the
 * size kept, or doubled by nearest; nearest-exact has none), or 1 / factor
 * equal to in / out in float (torch's index arithmetic; nearest-exact of
 * f64 in double). */
static bool resize_scale_ok(airc_ge_builder *b, const airc_node *n, size_t sf_arg, int d,
                            bool nearest, bool exact)
{
    bool vec = strstr(n->op->qualname, ".vec") != NULL; /* .default: scales(_h, _w) */
    int64_t in = n->inputs[0]->out[0].shape[2 + d], out = n->out[0].shape[2 + d];
    double f = airc_meta_upsample_scale(airc_ge_arg(b, vec ? sf_arg : sf_arg + (size_t)d), vec, d);
    if (!exact && (out == in || (nearest && out == 2 * in)))
        return true;
    if (exact && n->out[0].dtype == AIRC_DTYPE_F64)
        return f <= 0 || 1.0 / f == (double)in / (double)out;
    return f <= 0 || (float)(1.0 / f) == (float)in / (float)out;
}

/* upsample_nearest2d -> ResizeNearestNeighborV2 and upsample_bilinear2d
 * -> ResizeBilinearV2 (.vec and .default) (align_corners, or
 * half_pixel_centers: torch's sampling at (dst + 0.5) * scale - 0.5), the
 * size a Const of the result's H and W; _upsample_nearest_exact2d ->
 * ResizeNearestNeighborV2 with half_pixel_centers (min(floor((dst + 0.5)
 * * scale), in - 1), torch's nearest-exact); upsample_nearest1d /
 * upsample_linear1d / _upsample_nearest_exact1d the same on the input
 * Unsqueezed to a unit H, the result Squeezed. Scale factors whose
 * 1 / factor is not in / out in float have no Resize form: refused, but
 * for nearest-exact, which UpsampleNearestExact3d samples there
 * (airc_ge_nearest_exact_nd). */
static airc_status conv_upsample(airc_ge_builder *b, const airc_node *n, void *ud)
{
    bool exact = ud && !strcmp(ud, "exact"), nearest = ud == NULL || exact;
    bool align = !nearest && airc_ge_bool_arg(b, 2, false);
    const airc_tmeta *om = &n->out[0];
    bool one = om->ndim == 3;
    for (int d = 0; d < (one ? 1 : 2) && !align; d++)
        if (!resize_scale_ok(b, n, nearest ? 2 : 3, d, nearest, exact)) {
            if (exact) /* UpsampleNearestExact3d samples at 1 / factor */
                return airc_ge_nearest_exact_nd(b, n);
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "%s: a scale factor whose reciprocal is not output / input size has "
                             "no Ascend IR form (Resize samples at input / output)",
                             n->op->qualname);
        }
    airc_ge_tensor x, size, y;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    int64_t shape[4];
    int32_t nd = one ? result_unsqueezed(n, 2, shape) : om->ndim;
    if (one)
        AIRC_TRY(unsqueeze(b, x, 2, &x));
    else
        memcpy(shape, om->shape, sizeof shape);
    AIRC_TRY(airc_ge_const_ints(b, shape + 2, 2, &size));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, nearest ? "ResizeNearestNeighborV2" : "ResizeBilinearV2", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "size", size));
    AIRC_TRY(airc_ge_op_attr_bool(op, "align_corners", align));
    AIRC_TRY(airc_ge_op_attr_bool(op, "half_pixel_centers", exact || (!nearest && !align)));
    AIRC_TRY(airc_ge_op_output(op, "y", om->dtype, nd, shape, &y));
    return one ? squeeze_result(b, y, 2) : airc_ge_set_result(b, 0, y);
}

/* upsample_bicubic2d (.vec, .default) -> UpsampleBicubic2d (CANN's op of
 * torch's semantics: output_size, align_corners, scales_h / scales_w, 0
 * when not given), raised back as upsample_bicubic2d.default */
static airc_status conv_upsample_bicubic(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    bool vec = strstr(n->op->qualname, ".vec") != NULL;
    double sc[2] = {0, 0};
    for (int d = 0; d < 2; d++) {
        const airc_value *v = airc_ge_arg(b, vec ? 3 : 3 + (size_t)d);
        if (vec && v && v->kind == AIRC_VALUE_LIST && v->len == 2)
            v = v->u.items[d];
        if (v && airc_value_get_float(v, &sc[d]) != AIRC_OK)
            sc[d] = 0;
    }
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    static const char *const names[] = {"x"};
    airc_ge_op *op;
    AIRC_TRY(airc_ge_simple(b, "UpsampleBicubic2d", names, &x, 1, &op));
    AIRC_TRY(airc_ge_op_attr_ints(op, "output_size", n->out[0].shape + 2, 2));
    AIRC_TRY(airc_ge_op_attr_bool(op, "align_corners", airc_ge_bool_arg(b, 2, false)));
    AIRC_TRY(airc_ge_op_attr_float(op, "scales_h", sc[0]));
    return airc_ge_op_attr_float(op, "scales_w", sc[1]);
}

/* ---- pooling ---------------------------------------------------------------------- */

/* kernel_size, stride (empty: kernel_size), padding of a 2-d pool. */
static airc_status pool_geometry(airc_ge_builder *b, int64_t *k, int64_t *s, int64_t *p)
{
    AIRC_TRY(airc_ge_spatial_arg(b, 1, 2, NULL, k));
    AIRC_TRY(airc_ge_spatial_arg(b, 2, 2, k, s));
    int64_t zero[2] = {0, 0};
    return airc_ge_spatial_arg(b, 3, 2, zero, p);
}

/* max_pool2d_with_indices(self, kernel_size, stride=[], padding=0,
 * dilation=1, ceil_mode=False) -> (values, int64 indices). */
static airc_status conv_max_pool(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    int64_t k[2], s[2], p[2], d[2], one[2] = {1, 1};
    AIRC_TRY(pool_geometry(b, k, s, p));
    AIRC_TRY(airc_ge_spatial_arg(b, 4, 2, one, d));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "MaxPoolWithArgmaxV1", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    int64_t ksize[4] = {1, k[0], k[1], 1}, strides[4] = {1, s[0], s[1], 1};
    int64_t pads[4] = {1, p[0], p[1], 1}, dil[4] = {1, d[0], d[1], 1};
    AIRC_TRY(airc_ge_op_attr_ints(op, "ksize", ksize, 4));
    AIRC_TRY(airc_ge_op_attr_ints(op, "strides", strides, 4));
    AIRC_TRY(airc_ge_op_attr_ints(op, "pads", pads, 4));
    AIRC_TRY(airc_ge_op_attr_dtype(op, "dtype", AIRC_DTYPE_I64));
    AIRC_TRY(airc_ge_op_attr_ints(op, "dilation", dil, 4));
    AIRC_TRY(airc_ge_op_attr_bool(op, "ceil_mode", airc_ge_bool_arg(b, 5, false)));
    airc_ge_tensor y, idx;
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    AIRC_TRY(airc_ge_op_output_like_node(op, "argmax", 1, &idx));
    AIRC_TRY(airc_ge_set_result(b, 0, y));
    return airc_ge_set_result(b, 1, idx);
}

/* avg_pool2d(self, kernel_size, stride=[], padding=0, ceil_mode=False,
 * count_include_pad=True, divisor_override=None); a 3-d input goes
 * through Unsqueeze/Squeeze of dim 0, as TorchAir. */
static airc_status conv_avg_pool(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    AIRC_TRY(airc_ge_tensor_meta(b, x, &dt, &nd, NULL));
    if (nd != 3 && nd != 4)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "avg_pool2d expects a 3-d or 4-d input");
    int64_t k[2], s[2], p[2];
    AIRC_TRY(pool_geometry(b, k, s, p));
    int64_t divisor = 0;
    if (airc_ge_arg_present(b, 6))
        airc_value_get_int(airc_ge_arg(b, 6), &divisor);
    if (nd == 3)
        AIRC_TRY(unsqueeze(b, x, 0, &x));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "AvgPoolV2", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    int64_t ksize[4] = {1, 1, k[0], k[1]}, strides[4] = {1, 1, s[0], s[1]};
    int64_t pads[4] = {p[0], p[0], p[1], p[1]};
    AIRC_TRY(airc_ge_op_attr_ints(op, "ksize", ksize, 4));
    AIRC_TRY(airc_ge_op_attr_ints(op, "strides", strides, 4));
    AIRC_TRY(airc_ge_op_attr_string(op, "padding_mode", "CALCULATED"));
    AIRC_TRY(airc_ge_op_attr_ints(op, "pads", pads, 4));
    AIRC_TRY(airc_ge_op_attr_string(op, "data_format", "NCHW"));
    AIRC_TRY(airc_ge_op_attr_bool(op, "global_pooling", 0));
    AIRC_TRY(airc_ge_op_attr_bool(op, "ceil_mode", airc_ge_bool_arg(b, 4, false)));
    AIRC_TRY(airc_ge_op_attr_bool(op, "exclusive", !airc_ge_bool_arg(b, 5, true)));
    AIRC_TRY(airc_ge_op_attr_int(op, "divisor_override", divisor));
    airc_ge_tensor y;
    if (nd == 4) {
        AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
        return airc_ge_set_result(b, 0, y);
    }
    int64_t shape[AIRC_MAX_DIMS];
    int32_t ynd = result_unsqueezed(n, 0, shape);
    AIRC_TRY(airc_ge_op_output(op, "y", dt, ynd, shape, &y));
    return squeeze_result(b, y, 0);
}

/* adaptive_avg_pool2d -> AdaptiveAvgPool2d; adaptive_max_pool2d (ud
 * non-NULL) -> AdaptiveMaxPool2d, its int64 argmax the indices */
static airc_status conv_adaptive_pool(airc_ge_builder *b, const airc_node *n, void *ud)
{
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    int64_t size[2];
    AIRC_TRY(airc_ge_spatial_arg(b, 1, 2, NULL, size));
    airc_ge_op *op;
    airc_ge_tensor y, idx;
    const airc_tmeta *om = &n->out[0];
    if (!ud && om->ndim == 2) {
        /* torch's adaptive_avg_pool2d of a 2-d input to 1x1 is a mean of
         * it (mean.dim): pooled as one plane [1, H, W] */
        airc_dtype dt = AIRC_DTYPE_UNDEFINED;
        const int64_t *xs;
        int32_t xnd = 0;
        AIRC_TRY(airc_ge_tensor_meta(b, x, &dt, &xnd, &xs));
        int64_t s3[3] = {1, xnd == 2 ? xs[0] : 1, xnd == 2 ? xs[1] : 1},
                o3[3] = {1, om->shape[0], om->shape[1]};
        AIRC_TRY(airc_ge_reshape(b, x, dt, 3, s3, &x));
        AIRC_TRY(airc_ge_op_create(b, "AdaptiveAvgPool2d", &op));
        AIRC_TRY(airc_ge_op_input(op, "x", x));
        AIRC_TRY(airc_ge_op_attr_ints(op, "output_size", size, 2));
        AIRC_TRY(airc_ge_op_output(op, "y", om->dtype, 3, o3, &y));
        AIRC_TRY(airc_ge_reshape(b, y, om->dtype, 2, om->shape, &y));
        return airc_ge_set_result(b, 0, y);
    }
    AIRC_TRY(airc_ge_op_create(b, ud ? "AdaptiveMaxPool2d" : "AdaptiveAvgPool2d", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_attr_ints(op, "output_size", size, 2));
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    AIRC_TRY(airc_ge_set_result(b, 0, y));
    if (!ud)
        return AIRC_OK;
    AIRC_TRY(airc_ge_op_attr_dtype(op, "dtype", AIRC_DTYPE_I64));
    AIRC_TRY(airc_ge_op_output_like_node(op, "argmax", 1, &idx));
    return airc_ge_set_result(b, 1, idx);
}

/* ---- activations ------------------------------------------------------------------- */

static airc_status conv_gelu(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_operand(b, 0, airc_ge_node_dtype(b, 0), &x));
    const char *approx = "none";
    const airc_value *v = airc_ge_arg(b, 1);
    if (v)
        airc_value_get_string(v, &approx);
    bool tanh_ = !strcmp(approx, "tanh");
    airc_ge_op *op;
    static const char *const names[] = {"x"};
    AIRC_TRY(airc_ge_simple(b, tanh_ ? "GeluV2" : "Gelu", names, &x, 1, &op));
    return tanh_ ? airc_ge_op_attr_string(op, "approximate", "tanh") : AIRC_OK;
}

static airc_status conv_silu(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_operand(b, 0, airc_ge_node_dtype(b, 0), &x));
    airc_ge_op *op;
    static const char *const names[] = {"x"};
    AIRC_TRY(airc_ge_simple(b, "Swish", names, &x, 1, &op));
    return airc_ge_op_attr_float(op, "scale", 1.0);
}

/* hardsigmoid -> HardSigmoid(alpha 1/6, beta 0.5): min(max(alpha * x +
 * beta, 0), 1); hardswish -> HardSwish. */
static airc_status conv_hard(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    const char *type = ud;
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_operand(b, 0, airc_ge_node_dtype(b, 0), &x));
    airc_ge_op *op;
    static const char *const names[] = {"x"};
    AIRC_TRY(airc_ge_simple(b, type, names, &x, 1, &op));
    if (strcmp(type, "HardSigmoid"))
        return AIRC_OK;
    AIRC_TRY(airc_ge_op_attr_float(op, "alpha", 1.0 / 6.0));
    return airc_ge_op_attr_float(op, "beta", 0.5);
}

/* leaky_relu(self, negative_slope); rrelu_with_noise (ud non-NULL) in
 * evaluation, as torch: leaky_relu with slope (lower + upper) / 2 (its
 * meta refuses training=True) */
static airc_status conv_leaky_relu(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_operand(b, 0, airc_ge_node_dtype(b, 0), &x));
    double slope = ud ? (airc_ge_number_arg(b, 2, 0.125) + airc_ge_number_arg(b, 3, 1.0 / 3.0)) / 2
                      : airc_ge_number_arg(b, 1, 0.01);
    airc_ge_op *op;
    static const char *const names[] = {"x"};
    AIRC_TRY(airc_ge_simple(b, "LeakyRelu", names, &x, 1, &op));
    return airc_ge_op_attr_float(op, "negative_slope", slope);
}

/* ---- clamp ----------------------------------------------------------------------------- */

typedef struct clamp_desc {
    int min_arg, max_arg; /* -1: none */
    double dmin, dmax;    /* hardtanh's defaults (NAN: none) */
} clamp_desc;

static const clamp_desc c_clamp = {1, 2, NAN, NAN};
static const clamp_desc c_min = {1, -1, NAN, NAN};
static const clamp_desc c_max = {-1, 1, NAN, NAN};
static const clamp_desc c_hardtanh = {1, 2, -1, 1};

/* Bound argument arg as a tensor of dt (a default when absent); false when
 * there is none. */
static airc_status bound(airc_ge_builder *b, int arg, double dflt, airc_dtype dt, bool *has,
                         airc_ge_tensor *out)
{
    *has = false;
    if (arg < 0)
        return AIRC_OK;
    if (airc_ge_arg_present(b, (size_t)arg)) {
        *has = true;
        return airc_ge_operand(b, (size_t)arg, dt, out);
    }
    if (isnan(dflt))
        return AIRC_OK;
    *has = true;
    return airc_ge_const_scalar(b, dt, dflt, out);
}

static airc_status conv_clamp(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const clamp_desc *d = ud;
    airc_dtype dt = airc_ge_node_dtype(b, 0);
    airc_ge_tensor in[3];
    bool hmin, hmax;
    AIRC_TRY(airc_ge_operand(b, 0, dt, &in[0]));
    AIRC_TRY(bound(b, d->min_arg, d->dmin, dt, &hmin, &in[1]));
    AIRC_TRY(bound(b, d->max_arg, d->dmax, dt, &hmax, &in[2]));
    static const char *const clip[] = {"x", "clip_value_min", "clip_value_max"};
    static const char *const xy[] = {"x1", "x2"};
    if (hmin && hmax)
        return airc_ge_simple(b, "ClipByValueV2", clip, in, 3, NULL);
    if (hmin)
        return airc_ge_simple(b, "Maximum", xy, in, 2, NULL);
    if (hmax) {
        airc_ge_tensor mx[2] = {in[0], in[2]};
        return airc_ge_simple(b, "Minimum", xy, mx, 2, NULL);
    }
    return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: at least one of min and max must be given",
                     n->op->qualname);
}

/* ---- div with rounding, log2 ---------------------------------------------------------- */

/* div.Tensor_mode / div.Scalar_mode(self, other, *, rounding_mode). */
static airc_status conv_div_mode(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_dtype dt = airc_ge_node_dtype(b, 0);
    airc_ge_tensor in[2];
    AIRC_TRY(airc_ge_operand(b, 0, dt, &in[0]));
    AIRC_TRY(airc_ge_operand(b, 1, dt, &in[1]));
    const char *mode = NULL;
    const airc_value *v = airc_ge_arg(b, 2);
    if (v && v->kind == AIRC_VALUE_STRING)
        airc_value_get_string(v, &mode);
    static const char *const xy[] = {"x1", "x2"};
    if (mode && !strcmp(mode, "floor"))
        return airc_ge_simple(b, "FloorDiv", xy, in, 2, NULL);
    if (!mode)
        return airc_ge_simple(b, "RealDiv", xy, in, 2, NULL);
    if (strcmp(mode, "trunc"))
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "rounding_mode '%s' is not floor or trunc", mode);
    if (!airc_dtype_is_floating(dt))
        return airc_ge_simple(b, "TruncateDiv", xy, in, 2, NULL);
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "RealDiv", &op));
    AIRC_TRY(airc_ge_op_input(op, "x1", in[0]));
    AIRC_TRY(airc_ge_op_input(op, "x2", in[1]));
    airc_ge_tensor q;
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &q));
    static const char *const x[] = {"x"};
    return airc_ge_simple(b, "Trunc", x, &q, 1, NULL);
}

/* log2 / log10 -> Log times 1 / ln(base) (ud: that factor) */
static const double inv_ln2 = 1.44269504088896340736, inv_ln10 = 0.43429448190325182765;

static airc_status conv_log_base(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    airc_dtype dt = airc_ge_node_dtype(b, 0);
    airc_ge_tensor x, l, c;
    AIRC_TRY(airc_ge_operand(b, 0, dt, &x));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Log", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &l));
    AIRC_TRY(airc_ge_const_scalar(b, dt, *(const double *)ud, &c));
    airc_ge_tensor in[2] = {l, c};
    static const char *const xy[] = {"x1", "x2"};
    return airc_ge_simple(b, "Mul", xy, in, 2, NULL);
}

/* ---- linear, matmul ------------------------------------------------------------------------ */

/* x1 @ x2 (x2 transposed for linear), bias optional: MatMulV2 when both
 * are 2-d, else BatchMatMulV2. */
static airc_status matmul(airc_ge_builder *b, bool linear)
{
    airc_dtype dt = airc_ge_node_dtype(b, 0);
    airc_ge_tensor x1, x2, bias;
    AIRC_TRY(airc_ge_operand(b, 0, dt, &x1));
    AIRC_TRY(airc_ge_operand(b, 1, dt, &x2));
    int32_t n1, n2;
    AIRC_TRY(airc_ge_tensor_meta(b, x1, NULL, &n1, NULL));
    AIRC_TRY(airc_ge_tensor_meta(b, x2, NULL, &n2, NULL));
    bool v2 = n1 == 2 && n2 == 2;
    bool has_bias = linear && airc_ge_arg_present(b, 2);
    if (has_bias)
        AIRC_TRY(airc_ge_operand(b, 2, dt, &bias));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, v2 ? "MatMulV2" : "BatchMatMulV2", &op));
    AIRC_TRY(airc_ge_op_input(op, "x1", x1));
    AIRC_TRY(airc_ge_op_input(op, "x2", x2));
    if (has_bias)
        AIRC_TRY(airc_ge_op_input(op, "bias", bias));
    else
        AIRC_TRY(airc_ge_op_input_absent(op, "bias"));
    AIRC_TRY(airc_ge_op_input_absent(op, "offset_w"));
    AIRC_TRY(airc_ge_op_attr_bool(op, v2 ? "transpose_x1" : "adj_x1", 0));
    /* a 1-d weight is its own transpose (torch 1.13's linear) */
    AIRC_TRY(airc_ge_op_attr_bool(op, v2 ? "transpose_x2" : "adj_x2", linear && n2 == 2));
    AIRC_TRY(airc_ge_op_attr_int(op, "offset_x", 0));
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    return airc_ge_set_result(b, 0, y);
}

static airc_status conv_linear(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    return matmul(b, true);
}

static airc_status conv_matmul(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    return matmul(b, false);
}

/* ---- raisers -----------------------------------------------------------------------------------
 */

/* A list attribute of exactly k ints (required unless dflt). */
static airc_status attr_ints(const ge_raise *r, const char *key, size_t k, const int64_t *dflt,
                             int64_t *out)
{
    const Ge__Proto__AttrDef *a = airc_ge_find_attr(r->op, key);
    if (!a && dflt) {
        memcpy(out, dflt, sizeof *out * k);
        return AIRC_OK;
    }
    if (!a || a->value_case != GE__PROTO__ATTR_DEF__VALUE_LIST || !a->list)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): attribute '%s' (int list) is missing",
                         r->op->name, r->op->type, key);
    if (a->list->n_i != k)
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "op '%s' (%s): attribute '%s' has %zu items, not %zu", r->op->name,
                         r->op->type, key, a->list->n_i, k);
    memcpy(out, a->list->i, sizeof *out * k);
    return AIRC_OK;
}

/* A string attribute, or dflt. */
static const char *attr_s(const ge_raise *r, const char *key, const char *dflt, char *buf,
                          size_t cap)
{
    const Ge__Proto__AttrDef *a = airc_ge_find_attr(r->op, key);
    if (!a || a->value_case != GE__PROTO__ATTR_DEF__VALUE_S)
        return dflt;
    size_t n = a->s.len < cap - 1 ? a->s.len : cap - 1;
    memcpy(buf, a->s.data, n);
    buf[n] = 0;
    return buf;
}

/* Inputs 0..need-1 present, at most max inputs. */
static airc_status inputs_between(const ge_raise *r, size_t need, size_t max)
{
    if (r->nin < need || r->nin > max)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): %zu data inputs, expected %zu to %zu",
                         r->op->name, r->op->type, r->nin, need, max);
    for (size_t i = 0; i < need; i++)
        if (!r->in[i])
            return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): input %zu is absent", r->op->name,
                             r->op->type, i);
    return AIRC_OK;
}

static airc_status raise_layer_norm(ge_raise *r)
{
    AIRC_TRY(inputs_between(r, 1, 3));
    int64_t begin = 0, bp = 0;
    double eps = 0;
    AIRC_TRY(airc_ge_attr_i(r, "begin_norm_axis", true, 0, &begin));
    AIRC_TRY(airc_ge_attr_i(r, "begin_params_axis", false, begin, &bp));
    AIRC_TRY(airc_ge_attr_f(r, "epsilon", true, 0, &eps));
    const Ge__Proto__TensorDescriptor *d = r->op->n_input_desc ? r->op->input_desc[0] : NULL;
    int64_t rank = d && d->shape ? (int64_t)d->shape->n_dim : -1;
    if (rank < 0)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): input x has no shape", r->op->name,
                         r->op->type);
    if (begin < 0)
        begin += rank;
    if (begin < 0 || begin > rank || bp != begin)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "op '%s' (%s): begin_norm_axis %lld / begin_params_axis %lld for rank "
                         "%lld are not supported",
                         r->op->name, r->op->type, (long long)begin, (long long)bp,
                         (long long)rank);
    const airc_value *args[5] = {
        airc_ge_vnode(r, r->in[0]),
        airc_ge_vints(r, d->shape ? d->shape->dim + begin : NULL, (size_t)(rank - begin)),
        r->nin > 1 && r->in[1] ? airc_ge_vnode(r, r->in[1]) : airc_ge_vnone(r),
        r->nin > 2 && r->in[2] ? airc_ge_vnode(r, r->in[2]) : airc_ge_vnone(r),
        airc_ge_vfloat(r, eps),
    };
    airc_node *t;
    AIRC_TRY(airc_ge_raise_call(r, "aten.native_layer_norm.default", args, 5, NULL, NULL, 0, &t));
    return airc_ge_raise_getitems(r, t, 3);
}

/* Input i's shape from the op's input_desc, or NULL. */
static const Ge__Proto__ShapeDef *desc_shape(const ge_raise *r, size_t i)
{
    const Ge__Proto__TensorDescriptor *d = i < r->op->n_input_desc ? r->op->input_desc[i] : NULL;
    return d ? d->shape : NULL;
}

/* The geometry of a Conv2D / Conv3D or its transpose (NCHW / NCDHW, pads
 * the same before and after each spatial dim) as convolution's stride,
 * padding, dilation and output_padding, its spatial dim count in *sp. */
typedef struct conv_attrs {
    int32_t sp;
    int64_t st[3], pd[3], dl[3], op[3], groups;
} conv_attrs;

static airc_status raise_conv_attrs(ge_raise *r, bool transposed, conv_attrs *c)
{
    size_t sp = strstr(r->op->type, "3D") ? 3 : 2, rank = sp + 2;
    int64_t st[5], pd[6], dl[5], op[5], ones[5] = {1, 1, 1, 1, 1}, zeros[5] = {0};
    AIRC_TRY(attr_ints(r, "strides", rank, NULL, st));
    AIRC_TRY(attr_ints(r, "pads", 2 * sp, NULL, pd));
    AIRC_TRY(attr_ints(r, "dilations", rank, ones, dl));
    if (transposed)
        AIRC_TRY(attr_ints(r, "output_padding", rank, zeros, op));
    else
        memcpy(op, zeros, sizeof op);
    AIRC_TRY(airc_ge_attr_i(r, "groups", false, 1, &c->groups));
    char buf[16];
    const char *fmt = attr_s(r, "data_format", sp == 3 ? "NDHWC" : "NHWC", buf, sizeof buf);
    if (strcmp(fmt, sp == 3 ? "NCDHW" : "NCHW"))
        return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (%s): data_format '%s' is not supported",
                         r->op->name, r->op->type, fmt);
    c->sp = (int32_t)sp;
    for (size_t i = 0; i < sp; i++) {
        if (pd[2 * i] != pd[2 * i + 1])
            return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (%s): asymmetric pads are not supported",
                             r->op->name, r->op->type);
        c->st[i] = st[2 + i];
        c->pd[i] = pd[2 * i];
        c->dl[i] = dl[2 + i];
        c->op[i] = op[2 + i];
    }
    return AIRC_OK;
}

/* convolution(x, filter, bias or None, geometry, transposed, groups) */
static airc_status raise_convolution(ge_raise *r, size_t xi, bool transposed, const conv_attrs *c)
{
    size_t bi = xi + 2;
    const airc_value *args[9] = {
        airc_ge_vnode(r, r->in[xi]),
        airc_ge_vnode(r, r->in[xi + 1]),
        r->nin > bi && r->in[bi] ? airc_ge_vnode(r, r->in[bi]) : airc_ge_vnone(r),
        airc_ge_vints(r, c->st, (size_t)c->sp),
        airc_ge_vints(r, c->pd, (size_t)c->sp),
        airc_ge_vints(r, c->dl, (size_t)c->sp),
        airc_ge_vbool(r, transposed),
        airc_ge_vints(r, c->op, (size_t)c->sp),
        airc_ge_vint(r, c->groups),
    };
    return airc_ge_raise_call(r, "aten.convolution.default", args, 9, NULL, NULL, 0, &r->out[0]);
}

/* Conv2D / Conv3D(x, filter, bias?, offset_w?) */
static airc_status raise_conv(ge_raise *r)
{
    AIRC_TRY(inputs_between(r, 2, 4));
    if (r->nin > 3 && r->in[3])
        return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (%s): offset_w is not supported", r->op->name,
                         r->op->type);
    conv_attrs c;
    AIRC_TRY(raise_conv_attrs(r, false, &c));
    return raise_convolution(r, 0, false, &c);
}

/* Conv2DTranspose / Conv3DTranspose(input_size, x, filter, bias?,
 * offset_w?): the result's shape is input_size, which must agree with
 * what strides, pads, dilations and output_padding give. */
static airc_status raise_conv_transpose(ge_raise *r)
{
    AIRC_TRY(inputs_between(r, 3, 5));
    if (r->nin > 4 && r->in[4])
        return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (%s): offset_w is not supported", r->op->name,
                         r->op->type);
    conv_attrs c;
    AIRC_TRY(raise_conv_attrs(r, true, &c));
    size_t rank = (size_t)c.sp + 2, nsize = 0;
    int64_t size[5];
    AIRC_TRY(airc_ge_const_input_ints(r, 0, size, rank, &nsize));
    if (nsize != rank)
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "op '%s' (%s): input_size has %zu values, expected %zu", r->op->name,
                         r->op->type, nsize, rank);
    /* input_size against the attributes, where the input descs give shapes */
    const Ge__Proto__ShapeDef *xs = desc_shape(r, 1), *ws = desc_shape(r, 2);
    if (xs && ws && xs->n_dim == rank && ws->n_dim == rank) {
        int64_t want[5] = {xs->dim[0]}, t;
        bool overflow = __builtin_mul_overflow(ws->dim[1], c.groups, &want[1]);
        for (int32_t i = 0; i < c.sp; i++) /* (in - 1) * s - 2 * p + d * (k - 1) + 1 + op */
            overflow = overflow || __builtin_sub_overflow(xs->dim[2 + i], 1, &want[2 + i]) ||
                       __builtin_mul_overflow(want[2 + i], c.st[i], &want[2 + i]) ||
                       __builtin_mul_overflow(c.pd[i], 2, &t) ||
                       __builtin_sub_overflow(want[2 + i], t, &want[2 + i]) ||
                       __builtin_sub_overflow(ws->dim[2 + i], 1, &t) ||
                       __builtin_mul_overflow(c.dl[i], t, &t) ||
                       __builtin_add_overflow(want[2 + i], t, &want[2 + i]) ||
                       __builtin_add_overflow(want[2 + i], 1, &want[2 + i]) ||
                       __builtin_add_overflow(want[2 + i], c.op[i], &want[2 + i]);
        if (overflow)
            return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): its output size overflows int64",
                             r->op->name, r->op->type);
        if (memcmp(want, size, rank * sizeof *want)) {
            char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
            return airc_fail(AIRC_E_INVALID_GRAPH,
                             "op '%s' (%s): input_size %s is not the shape %s that strides, pads, "
                             "dilations and output_padding give",
                             r->op->name, r->op->type, airc_meta_shape_str(size, (int32_t)rank, s1),
                             airc_meta_shape_str(want, (int32_t)rank, s2));
        }
    }
    return raise_convolution(r, 1, true, &c);
}

/* ResizeNearestNeighborV2(x, size) without align_corners (and
 * half_pixel_centers: nearest-exact), ResizeBilinearV2 with exactly one of
 * them: torch's upsample of output_size `size`. */
static airc_status raise_resize(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 2));
    bool nearest = !strcmp(r->op->type, "ResizeNearestNeighborV2"), align = false, half = false;
    AIRC_TRY(airc_ge_attr_b(r, "align_corners", false, false, &align));
    AIRC_TRY(airc_ge_attr_b(r, "half_pixel_centers", false, false, &half));
    if (nearest ? align : align == half)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "op '%s' (%s): align_corners %d with half_pixel_centers %d is no torch "
                         "upsample",
                         r->op->name, r->op->type, (int)align, (int)half);
    int64_t size[2];
    size_t ns = 0;
    AIRC_TRY(airc_ge_const_input_ints(r, 1, size, 2, &ns));
    if (ns != 2)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): size has %zu values, expected 2",
                         r->op->name, r->op->type, ns);
    const airc_value *args[4] = {airc_ge_vnode(r, r->in[0]), airc_ge_vints(r, size, 2),
                                 nearest ? airc_ge_vnone(r) : airc_ge_vbool(r, align),
                                 airc_ge_vnone(r)};
    return airc_ge_raise_call(r,
                              !nearest ? "aten.upsample_bilinear2d.vec"
                              : half   ? "aten._upsample_nearest_exact2d.vec"
                                       : "aten.upsample_nearest2d.vec",
                              args, nearest ? 3 : 4, NULL, NULL, 0, &r->out[0]);
}

/* GroupNorm(x, gamma, beta) -> native_group_norm, N, C and HxW from x's
 * input desc; its variance output is 1 / rstd^2 - eps. */
static airc_status raise_group_norm(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 3));
    int64_t groups;
    double eps = 0;
    AIRC_TRY(airc_ge_attr_i(r, "num_groups", true, 1, &groups));
    AIRC_TRY(airc_ge_attr_f(r, "eps", false, 1e-5, &eps));
    const Ge__Proto__ShapeDef *xs = desc_shape(r, 0);
    if (!xs || xs->n_dim < 2)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "op '%s' (GroupNorm): x needs an input desc of 2 or more dims",
                         r->op->name);
    int64_t hw = 1;
    for (size_t d = 2; d < xs->n_dim; d++)
        if (xs->dim[d] < 0 || __builtin_mul_overflow(hw, xs->dim[d], &hw))
            return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (GroupNorm): bad x shape", r->op->name);
    const airc_value *args[8] = {
        airc_ge_vnode(r, r->in[0]),  airc_ge_vnode(r, r->in[1]),  airc_ge_vnode(r, r->in[2]),
        airc_ge_vint(r, xs->dim[0]), airc_ge_vint(r, xs->dim[1]), airc_ge_vint(r, hw),
        airc_ge_vint(r, groups),     airc_ge_vfloat(r, eps),
    };
    airc_node *t, *rstd;
    AIRC_TRY(airc_ge_raise_call(r, "aten.native_group_norm.default", args, 8, NULL, NULL, 0, &t));
    AIRC_TRY(airc_ge_raise_getitems(r, t, 3));
    rstd = r->out[2];
    const airc_value *a1[1] = {airc_ge_vnode(r, rstd)};
    airc_node *inv, *sq;
    AIRC_TRY(airc_ge_raise_call(r, "aten.reciprocal.default", a1, 1, NULL, NULL, 0, &inv));
    const airc_value *a2[2] = {airc_ge_vnode(r, inv), airc_ge_vnode(r, inv)};
    AIRC_TRY(airc_ge_raise_call(r, "aten.mul.Tensor", a2, 2, NULL, NULL, 0, &sq));
    const airc_value *a3[2] = {airc_ge_vnode(r, sq), airc_ge_vfloat(r, eps)};
    return airc_ge_raise_call(r, "aten.sub.Tensor", a3, 2, NULL, NULL, 0, &r->out[2]);
}

static airc_status raise_max_pool(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    int64_t k[4], s[4], p[4], d[4], ones[4] = {1, 1, 1, 1}, dt;
    AIRC_TRY(attr_ints(r, "ksize", 4, NULL, k));
    AIRC_TRY(attr_ints(r, "strides", 4, NULL, s));
    AIRC_TRY(attr_ints(r, "pads", 4, NULL, p));
    AIRC_TRY(attr_ints(r, "dilation", 4, ones, d));
    bool ceil = false;
    AIRC_TRY(airc_ge_attr_b(r, "ceil_mode", false, false, &ceil));
    AIRC_TRY(airc_ge_attr_i(r, "dtype", false, airc_ge_attr_dtype(AIRC_DTYPE_I32), &dt));
    airc_dtype idt = airc_ge_from_attr_dtype(dt);
    if (idt != AIRC_DTYPE_I32 && idt != AIRC_DTYPE_I64)
        return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (%s): dtype %lld is not int32/int64",
                         r->op->name, r->op->type, (long long)dt);
    const airc_value *args[6] = {
        airc_ge_vnode(r, r->in[0]), airc_ge_vints(r, k + 1, 2), airc_ge_vints(r, s + 1, 2),
        airc_ge_vints(r, p + 1, 2), airc_ge_vints(r, d + 1, 2), airc_ge_vbool(r, ceil),
    };
    airc_node *t;
    AIRC_TRY(
        airc_ge_raise_call(r, "aten.max_pool2d_with_indices.default", args, 6, NULL, NULL, 0, &t));
    AIRC_TRY(airc_ge_raise_getitems(r, t, 2));
    if (idt == AIRC_DTYPE_I64)
        return AIRC_OK;
    const airc_value *a2[1] = {airc_ge_vnode(r, r->out[1])};
    const airc_value *kw[1] = {NULL};
    airc_value_dtype(r->g, idt, &kw[0]);
    static const char *const names[] = {"dtype"};
    return airc_ge_raise_call(r, "aten._to_copy.default", a2, 1, names, kw, 1, &r->out[1]);
}

static airc_status raise_avg_pool(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    int64_t k[4], s[4], p[4], zero[4] = {0, 0, 0, 0}, divisor;
    AIRC_TRY(attr_ints(r, "ksize", 4, NULL, k));
    AIRC_TRY(attr_ints(r, "strides", 4, NULL, s));
    AIRC_TRY(attr_ints(r, "pads", 4, zero, p));
    bool ceil, excl, global;
    AIRC_TRY(airc_ge_attr_b(r, "ceil_mode", false, false, &ceil));
    AIRC_TRY(airc_ge_attr_b(r, "exclusive", false, true, &excl));
    AIRC_TRY(airc_ge_attr_b(r, "global_pooling", false, false, &global));
    AIRC_TRY(airc_ge_attr_i(r, "divisor_override", false, 0, &divisor));
    char b1[16], b2[16];
    const char *fmt = attr_s(r, "data_format", "NCHW", b1, sizeof b1);
    const char *mode = attr_s(r, "padding_mode", "CALCULATED", b2, sizeof b2);
    if (strcmp(fmt, "NCHW") || strcmp(mode, "CALCULATED") || global || p[0] != p[1] || p[2] != p[3])
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "op '%s' (AvgPoolV2): only NCHW, CALCULATED padding, symmetric pads and "
                         "no global pooling are supported",
                         r->op->name);
    int64_t p2[2] = {p[0], p[2]};
    const airc_value *args[7] = {
        airc_ge_vnode(r, r->in[0]),
        airc_ge_vints(r, k + 2, 2),
        airc_ge_vints(r, s + 2, 2),
        airc_ge_vints(r, p2, 2),
        airc_ge_vbool(r, ceil),
        airc_ge_vbool(r, !excl),
        divisor ? airc_ge_vint(r, divisor) : airc_ge_vnone(r),
    };
    return airc_ge_raise_call(r, "aten.avg_pool2d.default", args, 7, NULL, NULL, 0, &r->out[0]);
}

static airc_status raise_upsample_bicubic(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    int64_t size[2];
    bool align = false;
    double sh = 0, sw = 0;
    AIRC_TRY(attr_ints(r, "output_size", 2, NULL, size));
    AIRC_TRY(airc_ge_attr_b(r, "align_corners", false, false, &align));
    AIRC_TRY(airc_ge_attr_f(r, "scales_h", false, 0, &sh));
    AIRC_TRY(airc_ge_attr_f(r, "scales_w", false, 0, &sw));
    const airc_value *args[5] = {airc_ge_vnode(r, r->in[0]), airc_ge_vints(r, size, 2),
                                 airc_ge_vbool(r, align), airc_ge_vfloat(r, sh),
                                 airc_ge_vfloat(r, sw)};
    return airc_ge_raise_call(r, "aten.upsample_bicubic2d.default", args, 5, NULL, NULL, 0,
                              &r->out[0]);
}

static airc_status raise_adaptive_pool(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    int64_t size[2];
    AIRC_TRY(attr_ints(r, "output_size", 2, NULL, size));
    const airc_value *args[2] = {airc_ge_vnode(r, r->in[0]), airc_ge_vints(r, size, 2)};
    if (!r->data)
        return airc_ge_raise_call(r, "aten._adaptive_avg_pool2d.default", args, 2, NULL, NULL, 0,
                                  &r->out[0]);
    int64_t dt;
    AIRC_TRY(airc_ge_attr_i(r, "dtype", false, airc_ge_attr_dtype(AIRC_DTYPE_I64), &dt));
    if (airc_ge_from_attr_dtype(dt) != AIRC_DTYPE_I64)
        return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (%s): dtype %lld is not int64", r->op->name,
                         r->op->type, (long long)dt);
    airc_node *t;
    AIRC_TRY(airc_ge_raise_call(r, "aten.adaptive_max_pool2d.default", args, 2, NULL, NULL, 0, &t));
    return airc_ge_raise_getitems(r, t, 2);
}

static airc_status raise_gelu(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    char buf[16];
    const char *approx = r->data ? attr_s(r, "approximate", "none", buf, sizeof buf) : "none";
    if (strcmp(approx, "none") && strcmp(approx, "tanh"))
        return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (%s): approximate '%s' is not supported",
                         r->op->name, r->op->type, approx);
    const airc_value *args[1] = {airc_ge_vnode(r, r->in[0])};
    const airc_value *kw[1] = {NULL};
    airc_value_string(r->g, approx, &kw[0]);
    static const char *const names[] = {"approximate"};
    return airc_ge_raise_call(r, "aten.gelu.default", args, 1, names, kw, 1, &r->out[0]);
}

/* Swish(x, scale) = x * sigmoid(scale * x): silu when scale is 1. */
static airc_status raise_swish(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    double scale = 0;
    AIRC_TRY(airc_ge_attr_f(r, "scale", false, 1.0, &scale));
    const airc_value *args[2] = {airc_ge_vnode(r, r->in[0]), airc_ge_vfloat(r, scale)};
    if (scale == 1.0)
        return airc_ge_raise_call(r, "aten.silu.default", args, 1, NULL, NULL, 0, &r->out[0]);
    airc_node *t;
    AIRC_TRY(airc_ge_raise_call(r, "aten.mul.Tensor", args, 2, NULL, NULL, 0, &t));
    const airc_value *a1[1] = {airc_ge_vnode(r, t)};
    AIRC_TRY(airc_ge_raise_call(r, "aten.sigmoid.default", a1, 1, NULL, NULL, 0, &t));
    const airc_value *a2[2] = {args[0], airc_ge_vnode(r, t)};
    return airc_ge_raise_call(r, "aten.mul.Tensor", a2, 2, NULL, NULL, 0, &r->out[0]);
}

/* HardSigmoid is torch's hardsigmoid only with alpha 1/6 and beta 0.5 (as
 * f32 attributes hold them); HardSwish has no attributes. */
static airc_status raise_hard(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    bool sig = !strcmp(r->op->type, "HardSigmoid");
    if (sig) {
        double alpha = 0, beta = 0;
        AIRC_TRY(airc_ge_attr_f(r, "alpha", false, 1.0 / 6.0, &alpha));
        AIRC_TRY(airc_ge_attr_f(r, "beta", false, 0.5, &beta));
        if ((float)alpha != (float)(1.0 / 6.0) || beta != 0.5)
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "op '%s' (HardSigmoid): alpha %g and beta %g are not torch's "
                             "hardsigmoid (1/6, 0.5)",
                             r->op->name, alpha, beta);
    }
    const airc_value *args[1] = {airc_ge_vnode(r, r->in[0])};
    return airc_ge_raise_call(r, sig ? "aten.hardsigmoid.default" : "aten.hardswish.default", args,
                              1, NULL, NULL, 0, &r->out[0]);
}

static airc_status raise_leaky_relu(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    double slope = 0;
    AIRC_TRY(airc_ge_attr_f(r, "negative_slope", false, 0.0, &slope));
    const airc_value *args[2] = {airc_ge_vnode(r, r->in[0]), airc_ge_vfloat(r, slope)};
    return airc_ge_raise_call(r, "aten.leaky_relu.default", args, 2, NULL, NULL, 0, &r->out[0]);
}

static airc_status raise_clip(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 3));
    const airc_value *args[3] = {airc_ge_vnode(r, r->in[0]), airc_ge_vnode(r, r->in[1]),
                                 airc_ge_vnode(r, r->in[2])};
    return airc_ge_raise_call(r, "aten.clamp.Tensor", args, 3, NULL, NULL, 0, &r->out[0]);
}

/* FloorDiv / TruncateDiv -> div.Tensor_mode with that rounding. */
static airc_status raise_div_mode(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 2));
    const airc_value *args[2] = {airc_ge_vnode(r, r->in[0]), airc_ge_vnode(r, r->in[1])};
    const airc_value *kw[1] = {NULL};
    airc_value_string(r->g, r->data, &kw[0]);
    static const char *const names[] = {"rounding_mode"};
    return airc_ge_raise_call(r, "aten.div.Tensor_mode", args, 2, names, kw, 1, &r->out[0]);
}

/* BatchMatMulV2 -> matmul (broadcasting), adj_x1/adj_x2 as transposes of
 * the last two dims, plus the bias. */
static airc_status raise_batch_matmul_v2(ge_raise *r)
{
    AIRC_TRY(inputs_between(r, 2, 4));
    if (r->nin > 3 && r->in[3])
        return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (BatchMatMulV2): offset_w is not supported",
                         r->op->name);
    bool adj[2];
    AIRC_TRY(airc_ge_attr_b(r, "adj_x1", false, false, &adj[0]));
    AIRC_TRY(airc_ge_attr_b(r, "adj_x2", false, false, &adj[1]));
    airc_node *x[2] = {r->in[0], r->in[1]};
    for (int i = 0; i < 2; i++) {
        if (!adj[i])
            continue;
        const airc_value *args[3] = {airc_ge_vnode(r, x[i]), airc_ge_vint(r, -2),
                                     airc_ge_vint(r, -1)};
        AIRC_TRY(airc_ge_raise_call(r, "aten.transpose.int", args, 3, NULL, NULL, 0, &x[i]));
    }
    const airc_value *args[2] = {airc_ge_vnode(r, x[0]), airc_ge_vnode(r, x[1])};
    airc_node *y;
    AIRC_TRY(airc_ge_raise_call(r, "aten.matmul.default", args, 2, NULL, NULL, 0, &y));
    if (r->nin > 2 && r->in[2]) {
        const airc_value *a2[2] = {airc_ge_vnode(r, y), airc_ge_vnode(r, r->in[2])};
        AIRC_TRY(airc_ge_raise_call(r, "aten.add.Tensor", a2, 2, NULL, NULL, 0, &y));
    }
    r->out[0] = y;
    return AIRC_OK;
}

/* ---- the family
 * ------------------------------------------------------------------------------------ */

static const ge_conv_entry conv[] = {
    {"aten.native_batch_norm.default", conv_batch_norm, NULL},
    {"aten.native_group_norm.default", conv_group_norm, NULL},
    {"aten.upsample_bilinear2d.vec", conv_upsample, "bilinear"},
    {"aten.upsample_nearest2d.vec", conv_upsample, NULL},
    {"aten.upsample_bilinear2d.default", conv_upsample, "bilinear"},
    {"aten.upsample_nearest2d.default", conv_upsample, NULL},
    {"aten.upsample_bicubic2d.vec", conv_upsample_bicubic, NULL},
    {"aten.upsample_bicubic2d.default", conv_upsample_bicubic, NULL},
    {"aten.upsample_linear1d.vec", conv_upsample, "bilinear"},
    {"aten.upsample_nearest1d.vec", conv_upsample, NULL},
    {"aten.upsample_linear1d.default", conv_upsample, "bilinear"},
    {"aten.upsample_nearest1d.default", conv_upsample, NULL},
    {"aten._upsample_nearest_exact1d.vec", conv_upsample, "exact"},
    {"aten._upsample_nearest_exact1d.default", conv_upsample, "exact"},
    {"aten._upsample_nearest_exact2d.vec", conv_upsample, "exact"},
    {"aten._upsample_nearest_exact2d.default", conv_upsample, "exact"},
    {"aten.native_layer_norm.default", conv_layer_norm, NULL},
    {"aten.convolution.default", conv_convolution, NULL},
    {"aten._convolution.default", conv_convolution, NULL},
    {"aten._slow_conv2d_forward.default", conv_convolution, NULL},
    {"aten.slow_conv3d_forward.default", conv_convolution, NULL},
    {"aten.slow_conv_dilated2d.default", conv_convolution, NULL},
    {"aten.slow_conv_dilated3d.default", conv_convolution, NULL},
    {"aten.slow_conv_transpose2d.default", conv_convolution, NULL},
    {"aten.slow_conv_transpose3d.default", conv_convolution, NULL},
    {"aten.conv_tbc.default", conv_conv_tbc, NULL},
    {"aten.max_pool2d_with_indices.default", conv_max_pool, NULL},
    {"aten.avg_pool2d.default", conv_avg_pool, NULL},
    {"aten.adaptive_avg_pool2d.default", conv_adaptive_pool, NULL},
    {"aten._adaptive_avg_pool2d.default", conv_adaptive_pool, NULL},
    {"aten.adaptive_max_pool2d.default", conv_adaptive_pool, "max"},
    {"aten.gelu.default", conv_gelu, NULL},
    {"aten.silu.default", conv_silu, NULL},
    {"aten.hardsigmoid.default", conv_hard, "HardSigmoid"},
    {"aten.hardswish.default", conv_hard, "HardSwish"},
    {"aten.hardtanh.default", conv_clamp, &c_hardtanh},
    {"aten.leaky_relu.default", conv_leaky_relu, NULL},
    {"aten.rrelu_with_noise.default", conv_leaky_relu, "rrelu"},
    {"aten.clamp.default", conv_clamp, &c_clamp},
    {"aten.clamp.Tensor", conv_clamp, &c_clamp},
    {"aten.clamp_min.default", conv_clamp, &c_min},
    {"aten.clamp_min.Tensor", conv_clamp, &c_min},
    {"aten.clamp_max.default", conv_clamp, &c_max},
    {"aten.clamp_max.Tensor", conv_clamp, &c_max},
    {"aten.div.Scalar_mode", conv_div_mode, NULL},
    {"aten.div.Tensor_mode", conv_div_mode, NULL},
    {"aten.log2.default", conv_log_base, (void *)&inv_ln2},
    {"aten.log10.default", conv_log_base, (void *)&inv_ln10},
    {"aten.linear.default", conv_linear, NULL},
    {"aten.matmul.default", conv_matmul, NULL},
};

static const ge_raise_entry raise[] = {
    {"LayerNormV3", raise_layer_norm, NULL},
    {"Conv2D", raise_conv, NULL},
    {"Conv2DTranspose", raise_conv_transpose, NULL},
    {"Conv3D", raise_conv, NULL},
    {"Conv3DTranspose", raise_conv_transpose, NULL},
    {"ResizeNearestNeighborV2", raise_resize, NULL},
    {"GroupNorm", raise_group_norm, NULL},
    {"ResizeBilinearV2", raise_resize, NULL},
    {"MaxPoolWithArgmaxV1", raise_max_pool, NULL},
    {"AvgPoolV2", raise_avg_pool, NULL},
    {"AdaptiveAvgPool2d", raise_adaptive_pool, NULL},
    {"AdaptiveMaxPool2d", raise_adaptive_pool, "max"},
    {"UpsampleBicubic2d", raise_upsample_bicubic, NULL},
    {"Gelu", raise_gelu, NULL},
    {"GeluV2", raise_gelu, "v2"},
    {"Swish", raise_swish, NULL},
    {"HardSigmoid", raise_hard, NULL},
    {"HardSwish", raise_hard, NULL},
    {"LeakyRelu", raise_leaky_relu, NULL},
    {"ClipByValue", raise_clip, NULL},
    {"ClipByValueV2", raise_clip, NULL},
    {"FloorDiv", raise_div_mode, "floor"},
    {"TruncateDiv", raise_div_mode, "trunc"},
    {"BatchMatMulV2", raise_batch_matmul_v2, NULL},
};

const ge_family airc_ge_family_nn = {conv, sizeof conv / sizeof *conv, raise,
                                     sizeof raise / sizeof *raise};
