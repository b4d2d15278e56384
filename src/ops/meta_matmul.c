/* Meta functions of mm, bmm, addmm, baddbmm, addbmm, linear, matmul, mv, dot,
 * addmv and addr. Their results are contiguous. */
#include "ops/meta_util.h"

#include <inttypes.h>
#include <string.h>

static airc_status want_rank(const airc_meta_args *a, const char *name, const airc_tmeta *t,
                             int32_t rank)
{
    if (t->ndim == rank)
        return AIRC_OK;
    char s[AIRC_META_SHAPE_STR];
    return airc_fail(AIRC_E_SHAPE, "%s: %s must be a %d-d tensor, but has shape %s", a->op, name,
                     (int)rank, airc_meta_shape_str(t->shape, t->ndim, s));
}

static airc_status inner_mismatch(const airc_meta_args *a, const char *na, const airc_tmeta *x,
                                  const char *nb, const airc_tmeta *y, int64_t kx, int64_t ky)
{
    char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
    return airc_fail(AIRC_E_SHAPE,
                     "%s: %s has shape %s but %s has shape %s: inner dims %" PRId64 " and %" PRId64
                     " differ",
                     a->op, na, airc_meta_shape_str(x->shape, x->ndim, s1), nb,
                     airc_meta_shape_str(y->shape, y->ndim, s2), kx, ky);
}

airc_status airc_meta_check_expands_to(const airc_meta_args *a, const char *name,
                                       const airc_tmeta *bias, const airc_tmeta *out)
{
    int64_t shape[AIRC_MAX_DIMS];
    int32_t nd;
    AIRC_TRY(airc_meta_broadcast2(a, name, bias->shape, bias->ndim, "the result", out->shape,
                                  out->ndim, shape, &nd));
    bool same = nd == out->ndim;
    for (int32_t i = 0; same && i < nd; i++)
        same = shape[i] == out->shape[i];
    if (!same) {
        char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
        return airc_fail(AIRC_E_SHAPE, "%s: %s of shape %s does not expand to the result's %s",
                         a->op, name, airc_meta_shape_str(bias->shape, bias->ndim, s1),
                         airc_meta_shape_str(out->shape, out->ndim, s2));
    }
    return AIRC_OK;
}

static airc_status check_scales(const airc_meta_args *a, const airc_tmeta *out);

airc_status airc_meta_mm(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    const char *name = airc_meta_name(&a);
    bool is_addbmm = !strcmp(name, "addbmm"); /* the batch's products summed */
    bool is_baddbmm = !strcmp(name, "baddbmm") || is_addbmm;
    bool activation = !strcmp(name, "_addmm_activation"); /* addmm, then relu_ or gelu_ */
    bool is_bmm = !strcmp(name, "bmm") || is_baddbmm,
         is_addmm = !strcmp(name, "addmm") || activation;
    const char *n1 = is_addmm ? "mat1" : is_baddbmm ? "batch1" : "self";
    const char *n2 = is_baddbmm ? "batch2" : "mat2";
    airc_tmeta x, y;
    AIRC_TRY(airc_meta_tensor(&a, n1, &x));
    AIRC_TRY(airc_meta_tensor(&a, n2, &y));
    int32_t rank = is_bmm ? 3 : 2;
    AIRC_TRY(want_rank(&a, n1, &x, rank));
    AIRC_TRY(want_rank(&a, n2, &y, rank));
    AIRC_TRY(airc_meta_same_dtype(&a, n1, &x, n2, &y));
    int32_t k = rank - 1;
    if (x.shape[k] != y.shape[k - 1])
        return inner_mismatch(&a, n1, &x, n2, &y, x.shape[k], y.shape[k - 1]);
    airc_tmeta out = x;
    if (is_bmm) {
        if (x.shape[0] != y.shape[0]) {
            char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
            return airc_fail(AIRC_E_SHAPE,
                             "%s: self has shape %s but mat2 has shape %s: batch sizes %" PRId64
                             " and %" PRId64 " differ",
                             a.op, airc_meta_shape_str(x.shape, 3, s1),
                             airc_meta_shape_str(y.shape, 3, s2), x.shape[0], y.shape[0]);
        }
        out.shape[2] = y.shape[2];
        if (is_addbmm) {
            out.shape[0] = out.shape[1];
            out.shape[1] = out.shape[2];
            out.ndim = 2;
        }
    } else {
        out.shape[1] = y.shape[1];
    }
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    airc_tmeta_contiguous(&out);
    if (is_addbmm && (y.dtype == AIRC_DTYPE_F16 || y.dtype == AIRC_DTYPE_BOOL))
        return airc_fail(AIRC_E_SHAPE, "%s: \"addmm_impl_cpu_\" not implemented for '%s'", a.op,
                         airc_dtype_torch_type_name(y.dtype));
    if (is_addmm || is_baddbmm) {
        airc_tmeta self;
        AIRC_TRY(airc_meta_tensor(&a, "self", &self));
        if (is_addmm || is_addbmm) /* baddbmm converts self to the batches' dtype */
            AIRC_TRY(airc_meta_same_dtype(&a, "self", &self, n2, &y));
        AIRC_TRY(airc_meta_check_expands_to(&a, "self", &self, &out));
        AIRC_TRY(check_scales(&a, &out));
    }
    bool gelu = false;
    if (activation)
        AIRC_TRY(airc_meta_bool(&a, "use_gelu", false, &gelu));
    if (gelu && !airc_dtype_is_floating(out.dtype))
        return airc_fail(AIRC_E_SHAPE, "%s: \"GeluKernelImpl\" not implemented for '%s'", a.op,
                         airc_dtype_torch_type_name(out.dtype));
    return airc_meta_set(n, &out);
}

/* torch 1.13's linear: with a bias, a 2-d input (or a contiguous 3-d one,
 * flattened to 2-d) is addmm(bias, input, weight.t()): the bias has the
 * input's dtype and expands to the 2-d product. Otherwise it is
 * matmul(input, weight.t()) (a 1-d weight is its own transpose), then
 * add_(bias): the bias expands to the result and its dtype needs only be
 * one the result can take. */
airc_status airc_meta_linear(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x, w;
    airc_operand bias;
    AIRC_TRY(airc_meta_tensor(&a, "input", &x));
    AIRC_TRY(airc_meta_tensor(&a, "weight", &w));
    AIRC_TRY(airc_meta_operand(&a, "bias", &bias));
    if (x.ndim < 1 || w.ndim < 1)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: both arguments to matmul need to be at least 1D, but they are %dD "
                         "and %dD",
                         a.op, (int)x.ndim, (int)w.ndim);
    if (w.ndim > 2)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: t() expects a tensor with <= 2 dimensions, but self is %dD", a.op,
                         (int)w.ndim);
    bool addmm = bias.present && (x.ndim == 2 || (x.ndim == 3 && airc_meta_is_contiguous(&x)));
    if (addmm && w.ndim == 1)
        return airc_fail(AIRC_E_SHAPE, "%s: mat2 must be a matrix, got 1-D tensor", a.op);
    AIRC_TRY(airc_meta_same_dtype(&a, "input", &x, "weight", &w));
    int64_t k = w.ndim == 2 ? w.shape[1] : w.shape[0];
    if (x.shape[x.ndim - 1] != k)
        return inner_mismatch(&a, "input", &x, "weight", &w, x.shape[x.ndim - 1], k);
    airc_tmeta out = x;
    if (w.ndim == 2)
        out.shape[x.ndim - 1] = w.shape[0];
    else
        out.ndim--;
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    airc_tmeta_contiguous(&out);
    if (addmm) {
        /* the bias of addmm's [rows, out] product */
        airc_tmeta prod = out;
        prod.ndim = 2;
        prod.shape[0] = x.shape[0];
        prod.shape[1] = w.shape[0];
        if (x.ndim == 3 && __builtin_mul_overflow(x.shape[0], x.shape[1], &prod.shape[0]))
            return airc_meta_overflow(&a);
        AIRC_TRY(airc_meta_same_dtype(&a, "input", &x, "bias", &bias.t));
        AIRC_TRY(airc_meta_check_expands_to(&a, "bias", &bias.t, &prod));
    } else if (bias.present) {
        AIRC_TRY(airc_meta_check_expands_to(&a, "bias", &bias.t, &out));
        airc_operand ops[2] = {{out, true, false, "the result"}, bias};
        airc_dtype rt = airc_result_type(ops, 2);
        if (!airc_can_cast(rt, out.dtype))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: result type %s can't be cast to the desired output type %s", a.op,
                             airc_dtype_torch_type_name(rt), airc_dtype_torch_type_name(out.dtype));
    }
    return airc_meta_set(n, &out);
}

airc_status airc_meta_matmul(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x, y;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    AIRC_TRY(airc_meta_tensor(&a, "other", &y));
    if (x.ndim == 0 || y.ndim == 0)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: both arguments to matmul need to be at least 1D, but they are %dD "
                         "and %dD",
                         a.op, (int)x.ndim, (int)y.ndim);
    AIRC_TRY(airc_meta_same_dtype(&a, "self", &x, "other", &y));
    /* contraction dims: x's last, y's second to last (or only) */
    int64_t kx = x.shape[x.ndim - 1], ky = y.shape[y.ndim >= 2 ? y.ndim - 2 : 0];
    if (kx != ky)
        return inner_mismatch(&a, "self", &x, "other", &y, kx, ky);
    airc_tmeta out;
    memset(&out, 0, sizeof out);
    out.dtype = x.dtype;
    int32_t bx = x.ndim > 2 ? x.ndim - 2 : 0, by = y.ndim > 2 ? y.ndim - 2 : 0;
    AIRC_TRY(airc_meta_broadcast2(&a, "self's batch dims", x.shape, bx, "other's batch dims",
                                  y.shape, by, out.shape, &out.ndim));
    if (out.ndim + 2 > AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: too many dims", a.op);
    if (x.ndim >= 2)
        out.shape[out.ndim++] = x.shape[x.ndim - 2];
    if (y.ndim >= 2)
        out.shape[out.ndim++] = y.shape[y.ndim - 1];
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

/* mv(self, vec) -> [n]; dot(self, tensor), vdot(self, other) -> 0-d. */
airc_status airc_meta_mv(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    /* vdot(self, other) of real tensors is dot (airc has no complex dtype
     * to conjugate) */
    bool is_vdot = !strcmp(airc_meta_name(&a), "vdot");
    bool is_dot = !strcmp(airc_meta_name(&a), "dot") || is_vdot;
    const char *n2 = is_vdot ? "other" : is_dot ? "tensor" : "vec";
    airc_tmeta x, y;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    AIRC_TRY(airc_meta_tensor(&a, n2, &y));
    AIRC_TRY(want_rank(&a, "self", &x, is_dot ? 1 : 2));
    AIRC_TRY(want_rank(&a, n2, &y, 1));
    AIRC_TRY(airc_meta_same_dtype(&a, "self", &x, n2, &y));
    if (x.shape[x.ndim - 1] != y.shape[0])
        return inner_mismatch(&a, "self", &x, n2, &y, x.shape[x.ndim - 1], y.shape[0]);
    airc_tmeta out = x;
    out.ndim = x.ndim - 1;
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

/* beta and alpha of a product converted to its math type (f32 for the
 * half types) with the overflow check, unless the result is empty */
static airc_status check_scales(const airc_meta_args *a, const airc_tmeta *out)
{
    airc_dtype math =
        out->dtype == AIRC_DTYPE_F16 || out->dtype == AIRC_DTYPE_BF16 ? AIRC_DTYPE_F32 : out->dtype;
    if (airc_tmeta_numel(out) == 0)
        return AIRC_OK;
    AIRC_TRY(airc_meta_check_scalar(a, "beta", math));
    return airc_meta_check_scalar(a, "alpha", math);
}

/* addmv(self, mat, vec, *, beta=1, alpha=1): self (at most 1-d, converted
 * to mat's dtype) expands to [n]; torch 1.13 has no f16 or bool kernel. */
airc_status airc_meta_addmv(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self, mat, vec;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(airc_meta_tensor(&a, "mat", &mat));
    AIRC_TRY(airc_meta_tensor(&a, "vec", &vec));
    if (mat.ndim != 2 || vec.ndim != 1 || self.ndim > 1)
        return airc_fail(AIRC_E_SHAPE, "%s: vector + matrix @ vector expected, got %d, %d, %d",
                         a.op, (int)self.ndim, (int)mat.ndim, (int)vec.ndim);
    AIRC_TRY(airc_meta_same_dtype(&a, "mat", &mat, "vec", &vec));
    if (mat.shape[1] != vec.shape[0])
        return inner_mismatch(&a, "mat", &mat, "vec", &vec, mat.shape[1], vec.shape[0]);
    if (mat.dtype == AIRC_DTYPE_F16 || mat.dtype == AIRC_DTYPE_BOOL)
        return airc_fail(AIRC_E_SHAPE, "%s: \"addmv_impl_cpu\" not implemented for '%s'", a.op,
                         airc_dtype_torch_type_name(mat.dtype));
    airc_tmeta out = mat;
    out.ndim = 1;
    airc_tmeta_contiguous(&out);
    AIRC_TRY(airc_meta_check_expands_to(&a, "self", &self, &out));
    AIRC_TRY(check_scales(&a, &out));
    return airc_meta_set(n, &out);
}

/* addr(self, vec1, vec2, *, beta=1, alpha=1) = beta self + alpha vec1 (x)
 * vec2: the three promote as tensors (self is expanded first, so a 0-d
 * one weighs fully); no float beta or alpha for integer and bool results.
 * (torch.addr refuses a bool beta for other results, but torch.ops, which
 * a graph calls, passes it on as the number.) */
airc_status airc_meta_addr(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self, v1, v2;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(airc_meta_tensor(&a, "vec1", &v1));
    AIRC_TRY(airc_meta_tensor(&a, "vec2", &v2));
    if (v1.ndim != 1 || v2.ndim != 1)
        return airc_fail(AIRC_E_SHAPE, "%s: addr: Expected 1-D argument vec%d, but got %d-D", a.op,
                         v1.ndim != 1 ? 1 : 2, (int)(v1.ndim != 1 ? v1.ndim : v2.ndim));
    airc_tmeta out = v1;
    out.dtype = airc_promote_types(airc_promote_types(self.dtype, v1.dtype), v2.dtype);
    out.ndim = 2;
    out.shape[1] = v2.shape[0];
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, 2));
    airc_tmeta_contiguous(&out);
    AIRC_TRY(airc_meta_check_expands_to(&a, "self", &self, &out));
    static const char *const scales[] = {"beta", "alpha"};
    for (int i = 0; i < 2; i++) {
        const airc_value *v = airc_meta_get(&a, scales[i]);
        if (v && v->kind == AIRC_VALUE_FLOAT && !airc_dtype_is_floating(out.dtype))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: For integral input tensors, argument %s must not be a floating "
                             "point number.",
                             a.op, scales[i]);
    }
    /* torch's kernel converts them to the result's dtype, checked */
    AIRC_TRY(airc_meta_check_scalar(&a, "beta", out.dtype));
    AIRC_TRY(airc_meta_check_scalar(&a, "alpha", out.dtype));
    return airc_meta_set(n, &out);
}

/* _cdist_forward(x1 [..., P, M], x2 [..., R, M], p, compute_mode): the
 * batch dims broadcast, floating operands of one dtype, p >= 0; a
 * contiguous [..., P, R] */
airc_status airc_meta_cdist(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x1, x2;
    AIRC_TRY(airc_meta_tensor(&a, "x1", &x1));
    AIRC_TRY(airc_meta_tensor(&a, "x2", &x2));
    double p;
    AIRC_TRY(airc_meta_double(&a, "p", 2.0, &p));
    if (x1.ndim < 2 || x2.ndim < 2)
        return airc_fail(AIRC_E_SHAPE, "%s: cdist only supports at least 2D tensors, X%d got: %dD",
                         a.op, x1.ndim < 2 ? 1 : 2, (int)(x1.ndim < 2 ? x1.ndim : x2.ndim));
    if (x1.shape[x1.ndim - 1] != x2.shape[x2.ndim - 1])
        return airc_fail(AIRC_E_SHAPE,
                         "%s: X1 and X2 must have the same number of columns. X1: %" PRId64
                         " X2: %" PRId64,
                         a.op, x1.shape[x1.ndim - 1], x2.shape[x2.ndim - 1]);
    if (!airc_dtype_is_floating(x1.dtype) || !airc_dtype_is_floating(x2.dtype))
        return airc_fail(
            AIRC_E_SHAPE, "%s: cdist only supports floating-point dtypes, X%d got: %s", a.op,
            airc_dtype_is_floating(x1.dtype) ? 2 : 1,
            airc_dtype_torch_type_name(airc_dtype_is_floating(x1.dtype) ? x2.dtype : x1.dtype));
    /* torch returns early (empty, or zeros for no columns) before it
     * compares the dtypes: the result takes x1's */
    if (x1.shape[x1.ndim - 2] && x2.shape[x2.ndim - 2] && x1.shape[x1.ndim - 1])
        AIRC_TRY(airc_meta_same_dtype(&a, "x1", &x1, "x2", &x2));
    if (!(p >= 0))
        return airc_fail(AIRC_E_SHAPE, "%s: cdist only supports non-negative p values", a.op);
    int64_t mode;
    AIRC_TRY(airc_meta_int(&a, "compute_mode", 0, &mode));
    if (mode < 0 || mode > 2)
        return airc_fail(AIRC_E_SHAPE, "%s: possible modes: 0, 1, 2, but was: %" PRId64, a.op,
                         mode);
    airc_tmeta out = x1;
    AIRC_TRY(airc_meta_broadcast2(&a, "x1", x1.shape, x1.ndim - 2, "x2", x2.shape, x2.ndim - 2,
                                  out.shape, &out.ndim));
    out.shape[out.ndim++] = x1.shape[x1.ndim - 2];
    out.shape[out.ndim++] = x2.shape[x2.ndim - 2];
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

/* linalg_cross(self, other, dim): operands of one rank and dtype, their
 * broadcast contiguous, 3 along dim */
airc_status airc_meta_cross(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x, y;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    AIRC_TRY(airc_meta_tensor(&a, "other", &y));
    if (x.ndim != y.ndim)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: linalg.cross: inputs must have the same number of dimensions.", a.op);
    int64_t dim;
    int32_t d;
    AIRC_TRY(airc_meta_int(&a, "dim", -1, &dim));
    AIRC_TRY(airc_meta_wrap_dim(&a, dim, x.ndim, false, &d));
    if (x.shape[d] != 3 || y.shape[d] != 3)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: linalg.cross: inputs dimension %" PRId64
                         " must have length 3. Got %" PRId64 " and %" PRId64,
                         a.op, dim, x.shape[d], y.shape[d]);
    AIRC_TRY(airc_meta_same_dtype(&a, "self", &x, "other", &y));
    airc_tmeta out = x;
    AIRC_TRY(airc_meta_broadcast2(&a, "self", x.shape, x.ndim, "other", y.shape, y.ndim, out.shape,
                                  &out.ndim));
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

/* _pdist_forward(self, p=2): the distances of every pair i < j of the rows
 * of a contiguous 2-d f32 / f64 self, [n (n - 1) / 2]. As torch, a
 * contiguous self of fewer than 2 rows gives an empty result whatever its
 * rank or dtype.
 * torch's kernel reads a self of more dims as [size(0), size(1)] of its
 * storage: airc refuses it. p is not checked (F.pdist refuses p < 0, the
 * op computes it). */
airc_status airc_meta_pdist(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x;
    double p;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    AIRC_TRY(airc_meta_double(&a, "p", 2.0, &p));
    if (x.ndim == 0)
        return airc_fail(AIRC_E_SHAPE, "%s: Dimension specified as 0 but tensor has no dimensions",
                         a.op);
    if (!airc_meta_is_contiguous(&x))
        return airc_fail(AIRC_E_SHAPE, "%s: _pdist_forward requires contiguous input", a.op);
    int64_t rows = x.shape[0], pairs = 0; /* rows (rows - 1) / 2, the even factor halved */
    if (rows >= 2) {
        if (x.ndim != 2)
            return airc_fail(AIRC_E_SHAPE, "%s: pdist only supports 2D tensors, got: %dD", a.op,
                             (int)x.ndim);
        if (x.dtype != AIRC_DTYPE_F32 && x.dtype != AIRC_DTYPE_F64)
            return airc_fail(AIRC_E_SHAPE, "%s: \"pdist\" not implemented for '%s'", a.op,
                             airc_dtype_torch_type_name(x.dtype));
        if (__builtin_mul_overflow(rows % 2 ? rows : rows / 2, rows % 2 ? (rows - 1) / 2 : rows - 1,
                                   &pairs))
            return airc_meta_overflow(&a);
    }
    airc_tmeta out = x;
    out.ndim = 1;
    out.shape[0] = pairs;
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, 1));
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

/* _compute_linear_combination(input, coefficients) -> out[i] = sum over j
 * of coefficients[i, j] * input[j]: [m, input's other dims], contiguous,
 * of promote(input, coefficients). torch's kernel reads both as the
 * result's dtype without converting them and reads past them where the
 * sizes disagree: airc requires one dtype, a 2-d coefficients of
 * input.size(0) columns and an input of at least one dim. */
airc_status airc_meta_linear_combination(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x, c;
    AIRC_TRY(airc_meta_tensor(&a, "input", &x));
    AIRC_TRY(airc_meta_tensor(&a, "coefficients", &c));
    if (c.ndim == 0)
        return airc_fail(AIRC_E_SHAPE, "%s: Dimension specified as 0 but tensor has no dimensions",
                         a.op);
    if (c.ndim == 1)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Dimension out of range (expected to be in range of [-1, 0], but got "
                         "1)",
                         a.op);
    if (x.ndim == 0 || c.ndim != 2 || c.shape[1] != x.shape[0] || c.dtype != x.dtype)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: needs coefficients [m, input.size(0)] of input's dtype (torch 1.13 "
                         "reads past them, or reads them as the result's dtype unconverted)",
                         a.op);
    if (x.shape[0] == 0) {
        /* torch views input restrided to [1, 1, rest] in its empty storage */
        char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
        int64_t sz[AIRC_MAX_DIMS + 1] = {1, 1}, st[AIRC_MAX_DIMS + 1] = {0, 0}, span = 1;
        for (int32_t d = 1; d < x.ndim; d++) {
            sz[d + 1] = x.shape[d];
            st[d + 1] = x.strides[d];
            span += (x.shape[d] - 1) * x.strides[d];
        }
        return airc_fail(
            AIRC_E_SHAPE,
            "%s: setStorage: sizes %s, strides %s, storage offset 0, and itemsize %zu "
            "requiring a storage size of %" PRId64 " are out of bounds for storage of size 0",
            a.op, airc_meta_shape_str(sz, x.ndim + 1, s1), airc_meta_shape_str(st, x.ndim + 1, s2),
            airc_dtype_size(x.dtype), span * (int64_t)airc_dtype_size(x.dtype));
    }
    airc_tmeta out = x;
    out.shape[0] = c.shape[0];
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}
