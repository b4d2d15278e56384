/* Norms to Ascend IR beside convert_nn.c's: _weight_norm_interface (weight
 * normalization, common in audio vocoders), and renorm, which TorchAir
 * does not convert, and batch_norm_update_stats (composite: ReduceMean, Sub,
 * Mul, ReduceMean). _weight_norm_interface is a composite in f32 (f64 for f64): Mul(v, v),
 * ReduceSum over every dim but `dim` (kept; a bf16 v's sums over dim 0 rounded to bf16, as torch's
 * kernel), Sqrt: the norm; g Reshaped to the norm's shape, RealDiv by the norm, Mul by v: w. Every
 * op emitted has its raiser in another family. */
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"

#include <math.h>

/* _weight_norm_interface(v, g, dim=0) -> (w, norm) */
static airc_status conv_weight_norm(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *vm = &n->inputs[0]->out[0], *wm = &n->out[0], *nm = &n->out[1];
    int64_t dim = airc_ge_int_arg(b, 2, 0);
    if (vm->ndim == 0 || (dim != 0 && dim != vm->ndim - 1))
        return airc_fail(AIRC_E_UNSUPPORTED, "_weight_norm_interface: dim must be 0 or the last");
    airc_dtype ct = airc_ge_compute_dtype(wm->dtype);
    airc_ge_tensor v, g, t[2], norm, y;
    AIRC_TRY(airc_ge_operand(b, 0, ct, &v));
    AIRC_TRY(airc_ge_operand(b, 1, ct, &g));
    int64_t axes[AIRC_MAX_DIMS], kept[AIRC_MAX_DIMS];
    size_t na = 0;
    for (int32_t d = 0; d < vm->ndim; d++) {
        kept[d] = d == dim ? vm->shape[d] : 1;
        if (d != dim)
            axes[na++] = d;
    }
    t[0] = t[1] = v;
    AIRC_TRY(airc_ge_ew_op(b, "Mul", t, 2, ct, vm->ndim, vm->shape, &t[0]));
    if (na)
        AIRC_TRY(airc_ge_reduce(b, "ReduceSum", t[0], axes, na, true, ct, vm->ndim, kept, &t[0]));
    if (wm->dtype == AIRC_DTYPE_BF16 && dim == 0) { /* torch's first-dim kernel: bf16 sums */
        AIRC_TRY(airc_ge_cast(b, t[0], AIRC_DTYPE_BF16, &t[0]));
        AIRC_TRY(airc_ge_cast(b, t[0], ct, &t[0]));
    }
    AIRC_TRY(airc_ge_ew_op(b, "Sqrt", t, 1, ct, vm->ndim, kept, &norm));
    AIRC_TRY(airc_ge_reshape(b, g, ct, vm->ndim, kept, &t[0]));
    t[1] = norm;
    AIRC_TRY(airc_ge_ew_op(b, "RealDiv", t, 2, ct, vm->ndim, kept, &t[1]));
    t[0] = v;
    AIRC_TRY(airc_ge_ew_op(b, "Mul", t, 2, ct, vm->ndim, vm->shape, &y));
    AIRC_TRY(airc_ge_cast(b, y, wm->dtype, &y));
    AIRC_TRY(airc_ge_set_result(b, 0, y));
    AIRC_TRY(airc_ge_reshape(b, norm, ct, nm->ndim, nm->shape, &norm));
    AIRC_TRY(airc_ge_cast(b, norm, nm->dtype, &norm));
    return airc_ge_set_result(b, 1, norm);
}

/* renorm(self, p, dim, maxnorm): a composite in the accumulation type
 * (f32, f64 for f64; p in float, as torch's): each slice's p-norm over every dim but dim,
 * kept (p = 0 ReduceSum of NotEqual 0, 1 ReduceSum of Abs, 2 Sqrt of ReduceSum of Mul, inf
 * ReduceMax of Abs, else Pow of ReduceSum of Pow by p, by 1 / p); the factor SelectV2(Greater(norm,
 * maxnorm), RealDiv(maxnorm, Add(norm, 1e-7)), 1) Cast to self's dtype, then Mul by self. The
 * quotient is in float where torch's scalar loop divides in double: one ulp of the factor apart. */
static airc_status conv_renorm(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    int32_t nd = om->ndim;
    int64_t dim = airc_ge_int_arg(b, 2, 0), axes[AIRC_MAX_DIMS], kshape[AIRC_MAX_DIMS];
    dim += dim < 0 ? nd : 0;
    if (dim < 0 || dim >= nd)
        return airc_fail(AIRC_E_INVALID_GRAPH, "renorm: dim out of range");
    size_t na = 0;
    for (int32_t i = 0; i < nd; i++) {
        kshape[i] = i == dim ? om->shape[i] : 1;
        if (i != dim)
            axes[na++] = i;
    }
    double p = airc_ge_number_arg(b, 1, 2), maxnorm = airc_ge_number_arg(b, 3, 0);
    airc_dtype ct = om->dtype == AIRC_DTYPE_F64 ? AIRC_DTYPE_F64 : AIRC_DTYPE_F32;
    p = (float)p; /* torch's norm kernel keeps its order in float: 1e308 is inf, 1e-308 0 */
    airc_ge_tensor x, self, a, t[2], norm, f;
    AIRC_TRY(airc_ge_input(b, 0, &self));
    AIRC_TRY(airc_ge_cast(b, self, ct, &x));
    AIRC_TRY(airc_ge_ew_op(b, "Abs", &x, 1, ct, nd, om->shape, &a));
    if (p == 0) { /* the count of nonzeros */
        AIRC_TRY(airc_ge_const_scalar(b, ct, 0, &t[1]));
        t[0] = x;
        AIRC_TRY(airc_ge_ew_op(b, "NotEqual", t, 2, AIRC_DTYPE_BOOL, nd, om->shape, &a));
        AIRC_TRY(airc_ge_cast(b, a, ct, &a));
    } else if (p == 2) {
        t[0] = t[1] = x;
        AIRC_TRY(airc_ge_ew_op(b, "Mul", t, 2, ct, nd, om->shape, &a));
    } else if (p != 1 && !isinf(p)) {
        t[0] = a;
        AIRC_TRY(airc_ge_const_scalar(b, ct, p, &t[1]));
        AIRC_TRY(airc_ge_ew_op(b, "Pow", t, 2, ct, nd, om->shape, &a));
    }
    AIRC_TRY(airc_ge_reduce(b, isinf(p) ? "ReduceMax" : "ReduceSum", a, axes, na, true, ct, nd,
                            kshape, &norm));
    if (p == 2) {
        AIRC_TRY(airc_ge_ew_op(b, "Sqrt", &norm, 1, ct, nd, kshape, &norm));
    } else if (p != 0 && p != 1 && !isinf(p)) {
        t[0] = norm;
        AIRC_TRY(airc_ge_const_scalar(b, ct, 1.0 / p, &t[1]));
        AIRC_TRY(airc_ge_ew_op(b, "Pow", t, 2, ct, nd, kshape, &norm));
    }
    airc_ge_tensor big, mx, one;
    AIRC_TRY(airc_ge_const_scalar(b, ct, maxnorm, &mx));
    t[0] = norm;
    t[1] = mx;
    AIRC_TRY(airc_ge_ew_op(b, "Greater", t, 2, AIRC_DTYPE_BOOL, nd, kshape, &big));
    AIRC_TRY(airc_ge_const_scalar(b, ct, 1e-7, &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Add", t, 2, ct, nd, kshape, &t[1]));
    t[0] = mx;
    AIRC_TRY(airc_ge_ew_op(b, "RealDiv", t, 2, ct, nd, kshape, &f));
    AIRC_TRY(airc_ge_const_scalar(b, ct, 1, &one));
    AIRC_TRY(airc_ge_select(b, big, f, one, ct, nd, kshape, &f));
    AIRC_TRY(airc_ge_cast(b, f, om->dtype, &t[1]));
    t[0] = self;
    AIRC_TRY(airc_ge_ew_op(b, "Mul", t, 2, om->dtype, nd, om->shape, &t[0]));
    return airc_ge_set_result(b, 0, t[0]);
}

/* batch_norm_update_stats(input, running_mean?, running_var?, momentum) ->
 * (mean, biased var) per channel: ReduceMean over every dim but 1 (kept),
 * Sub, Mul by itself, ReduceMean again, in f32 (f64 for f64), Reshaped to
 * [C] and Cast to the results' dtype; the running statistics unread. */
static airc_status conv_bn_update_stats(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *xm = &n->inputs[0]->out[0], *om = &n->out[0];
    airc_dtype ct = airc_ge_compute_dtype(om->dtype);
    airc_ge_tensor x, t[2], mean, var;
    AIRC_TRY(airc_ge_operand(b, 0, ct, &x));
    int64_t axes[AIRC_MAX_DIMS], kept[AIRC_MAX_DIMS];
    size_t na = 0;
    for (int32_t d = 0; d < xm->ndim; d++) {
        kept[d] = d == 1 ? xm->shape[d] : 1;
        if (d != 1)
            axes[na++] = d;
    }
    AIRC_TRY(airc_ge_reduce(b, "ReduceMean", x, axes, na, true, ct, xm->ndim, kept, &mean));
    t[0] = x;
    t[1] = mean;
    AIRC_TRY(airc_ge_ew_op(b, "Sub", t, 2, ct, xm->ndim, xm->shape, &t[0]));
    t[1] = t[0];
    AIRC_TRY(airc_ge_ew_op(b, "Mul", t, 2, ct, xm->ndim, xm->shape, &t[0]));
    AIRC_TRY(airc_ge_reduce(b, "ReduceMean", t[0], axes, na, false, ct, 1, om->shape, &var));
    AIRC_TRY(airc_ge_reshape(b, mean, ct, 1, om->shape, &mean));
    AIRC_TRY(airc_ge_cast(b, mean, om->dtype, &mean));
    AIRC_TRY(airc_ge_cast(b, var, om->dtype, &var));
    AIRC_TRY(airc_ge_set_result(b, 0, mean));
    return airc_ge_set_result(b, 1, var);
}

static const ge_conv_entry conv[] = {
    {"aten.batch_norm_update_stats.default", conv_bn_update_stats, NULL},
    {"aten._weight_norm_interface.default", conv_weight_norm, NULL},
    {"aten.renorm.default", conv_renorm, NULL},
};

const ge_family airc_ge_family_norm = {conv, sizeof conv / sizeof *conv, NULL, 0};
