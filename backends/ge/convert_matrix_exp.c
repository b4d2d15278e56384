/* linalg_matrix_exp to Ascend IR, a composite without control flow:
 *
 *   A [..., n, n] Reshaped to [B, n, n] (f16 / bf16 computed in f32, cast
 *   back once);
 *   norm = ReduceMax(ReduceSum(Abs(A), rows)) [B, 1, 1];
 *   s = Maximum(Ceil(Log(norm / theta_18) / ln 2), 0), torch's count of
 *   squarings, a tensor;
 *   A * 2^-s (-2^-63 where s = 63: torch's int64 2^63 wraps negative);
 *   the degree-18 polynomial of torch (Bader, Blanes and Casas: 4
 *   BatchMatMuls) for every matrix, whatever its norm: torch's lower
 *   degrees for small norms agree with it to the dtype's rounding;
 *   then MAX_SQUARINGS squarings, each a BatchMatMul kept only where
 *   i < s (SelectV2).
 *
 * Past the limit: s >= 64 (a norm of 2^63 theta_18 or more, 2.8e19 in
 * f32, 1.0e19 in f64) is NaN, as torch's int64 2^s wraps to 0 there; a
 * NaN or infinite norm is NaN too (torch 1.13's result is uninitialized
 * memory there). So no matrix torch computes needs more than 63
 * squarings, and none is refused. n == 1 is Exp; an empty result a Fill.
 * f16 matrices (n >= 2) are refused: torch 1.13 fails on them unless every
 * one is zero (no f16 matmul in its CPU build). */
#include "backends/ge/ge_internal.h"
#include "ops/meta_util.h"

#include <math.h>
#include <string.h>

enum { MAX_SQUARINGS = 63 };

/* The lowering's state: ct the compute dtype, matrices [B, n, n], the
 * per-matrix values [B, 1, 1]. */
typedef struct mexp_ge {
    airc_ge_builder *b;
    airc_dtype ct;
    int64_t mat[3], one[3];
} mexp_ge;

static airc_status ew(const mexp_ge *g, const char *type, airc_ge_tensor x, airc_ge_tensor y,
                      airc_dtype dt, const int64_t *shape, airc_ge_tensor *out)
{
    airc_ge_tensor in[2] = {x, y};
    return airc_ge_ew_op(g->b, type, in, 2, dt, 3, shape, out);
}

static airc_status bmm(const mexp_ge *g, airc_ge_tensor x, airc_ge_tensor y, airc_ge_tensor *out)
{
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(g->b, "BatchMatMul", &op));
    AIRC_TRY(airc_ge_op_input(op, "x1", x));
    AIRC_TRY(airc_ge_op_input(op, "x2", y));
    AIRC_TRY(airc_ge_op_attr_bool(op, "adj_x1", 0));
    AIRC_TRY(airc_ge_op_attr_bool(op, "adj_x2", 0));
    return airc_ge_op_output(op, "y", g->ct, 3, g->mat, out);
}

static airc_status scalar(const mexp_ge *g, double v, airc_ge_tensor *out)
{
    return airc_ge_const_scalar(g->b, g->ct, v, out);
}

/* I [n, n] of the compute dtype, a Const */
static airc_status identity(const mexp_ge *g, airc_ge_tensor *out)
{
    int64_t n = g->mat[1];
    size_t es = airc_dtype_size(g->ct), bytes = (size_t)(n * n) * es;
    char *eye = airc_malloc(g->b->ctx, bytes);
    if (!eye)
        return airc_fail(AIRC_E_OUT_OF_MEMORY, "matrix_exp: an identity of %lld x %lld",
                         (long long)n, (long long)n);
    memset(eye, 0, bytes);
    for (int64_t i = 0; i < n; i++) {
        if (g->ct == AIRC_DTYPE_F64)
            ((double *)eye)[i * n + i] = 1;
        else
            ((float *)eye)[i * n + i] = 1;
    }
    const int64_t sq[2] = {n, n};
    airc_status st = airc_ge_const(g->b, g->ct, 2, sq, eye, out);
    airc_free(g->b->ctx, eye);
    return st;
}

/* sum_j c[j] p[j] (p[0] = I [n, n], broadcast); zero terms left out
 * (the scaled matrix is finite: they add exact zeros) */
static airc_status combination(const mexp_ge *g, const airc_ge_tensor *p, const double *c,
                               airc_ge_tensor *out)
{
    airc_ge_tensor acc = {0}, t, k;
    bool any = false;
    for (int j = 0; j < 5; j++) {
        if (c[j] == 0)
            continue;
        AIRC_TRY(scalar(g, c[j], &k));
        airc_ge_tensor in[2] = {p[j], k};
        const int64_t *shape = j ? g->mat : g->mat + 1; /* I: [n, n] */
        AIRC_TRY(airc_ge_ew_op(g->b, "Mul", in, 2, g->ct, j ? 3 : 2, shape, &t));
        if (any)
            AIRC_TRY(ew(g, "Add", acc, t, g->ct, g->mat, &t));
        acc = t;
        any = true;
    }
    *out = acc;
    return AIRC_OK;
}

/* torch's compute_T18 of the scaled a */
static airc_status degree18(const mexp_ge *g, airc_ge_tensor a, airc_ge_tensor *out)
{
    airc_ge_tensor p[5], bs[5], t;
    AIRC_TRY(identity(g, &p[0]));
    p[1] = a;
    AIRC_TRY(bmm(g, a, a, &p[2]));
    AIRC_TRY(bmm(g, a, p[2], &p[3]));
    AIRC_TRY(bmm(g, p[3], p[3], &p[4]));
    for (int i = 0; i < 5; i++)
        AIRC_TRY(combination(g, p, airc_matrix_exp_b18[i], &bs[i]));
    AIRC_TRY(bmm(g, bs[0], bs[4], &t)); /* A9 */
    AIRC_TRY(ew(g, "Add", bs[3], t, g->ct, g->mat, &bs[3]));
    AIRC_TRY(ew(g, "Add", bs[2], bs[3], g->ct, g->mat, &bs[2]));
    AIRC_TRY(bmm(g, bs[2], bs[3], &t));
    return ew(g, "Add", bs[1], t, g->ct, g->mat, out);
}

/* s = max(0, ceil(log2(norm / theta))) [B, 1, 1] of a [B, n, n] */
static airc_status squarings(const mexp_ge *g, airc_ge_tensor a, airc_ge_tensor *s)
{
    const double theta =
        (g->ct == AIRC_DTYPE_F64 ? airc_matrix_exp_theta_f64 : airc_matrix_exp_theta_f32)[5];
    const int64_t col[3] = {g->mat[0], 1, g->mat[2]}, rows = 1, cols = 2;
    airc_ge_tensor t, k;
    AIRC_TRY(airc_ge_ew_op(g->b, "Abs", &a, 1, g->ct, 3, g->mat, &t));
    AIRC_TRY(airc_ge_reduce(g->b, "ReduceSum", t, &rows, 1, true, g->ct, 3, col, &t));
    AIRC_TRY(airc_ge_reduce(g->b, "ReduceMax", t, &cols, 1, true, g->ct, 3, g->one, &t));
    AIRC_TRY(scalar(g, theta, &k));
    AIRC_TRY(ew(g, "RealDiv", t, k, g->ct, g->one, &t));
    AIRC_TRY(airc_ge_ew_op(g->b, "Log", &t, 1, g->ct, 3, g->one, &t));
    AIRC_TRY(scalar(g, 1 / log(2.0), &k));
    AIRC_TRY(ew(g, "Mul", t, k, g->ct, g->one, &t));
    AIRC_TRY(airc_ge_ew_op(g->b, "Ceil", &t, 1, g->ct, 3, g->one, &t));
    AIRC_TRY(scalar(g, 0, &k));
    return ew(g, "Maximum", t, k, g->ct, g->one, s);
}

/* a * 2^-s, torch's int64 2^63 (negative) where s = 63 */
static airc_status scale_down(const mexp_ge *g, airc_ge_tensor a, airc_ge_tensor s,
                              airc_ge_tensor *out)
{
    airc_ge_tensor two, ns, f, c, k, wrap;
    AIRC_TRY(scalar(g, 2, &two));
    AIRC_TRY(scalar(g, -1, &k));
    AIRC_TRY(ew(g, "Mul", s, k, g->ct, g->one, &ns));
    AIRC_TRY(ew(g, "Pow", two, ns, g->ct, g->one, &f));
    AIRC_TRY(scalar(g, 63, &k));
    AIRC_TRY(ew(g, "Equal", s, k, AIRC_DTYPE_BOOL, g->one, &c));
    AIRC_TRY(scalar(g, -ldexp(1, -63), &wrap));
    AIRC_TRY(airc_ge_select(g->b, c, wrap, f, g->ct, 3, g->one, &f));
    return ew(g, "Mul", a, f, g->ct, g->mat, out);
}

static airc_status conv_matrix_exp(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    int32_t nd = om->ndim;
    int64_t m = om->shape[nd - 1], batch = 1;
    if (!airc_tmeta_numel(om)) {
        airc_ge_tensor z;
        AIRC_TRY(airc_ge_fill(b, om->dtype, nd, om->shape, 0, &z));
        return airc_ge_set_result(b, 0, z);
    }
    if (om->dtype == AIRC_DTYPE_F16 && m > 1)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "node '%s': matrix_exp of float16 matrices has no Ascend IR lowering: "
                         "torch 1.13 has no float16 matmul on the CPU and fails unless every "
                         "matrix is zero",
                         n->name);
    mexp_ge g = {.b = b, .ct = airc_ge_compute_dtype(om->dtype)};
    airc_ge_tensor a, r, s, k, c, sq;
    AIRC_TRY(airc_ge_operand(b, 0, g.ct, &a));
    if (m == 1) {
        AIRC_TRY(airc_ge_ew_op(b, "Exp", &a, 1, g.ct, nd, om->shape, &r));
        AIRC_TRY(airc_ge_cast(b, r, om->dtype, &r));
        return airc_ge_set_result(b, 0, r);
    }
    for (int32_t i = 0; i < nd - 2; i++)
        batch *= om->shape[i];
    const int64_t mat[3] = {batch, m, m}, one[3] = {batch, 1, 1};
    memcpy(g.mat, mat, sizeof mat);
    memcpy(g.one, one, sizeof one);
    AIRC_TRY(airc_ge_reshape(b, a, g.ct, 3, g.mat, &a));
    AIRC_TRY(squarings(&g, a, &s));
    AIRC_TRY(scale_down(&g, a, s, &a));
    AIRC_TRY(degree18(&g, a, &r));
    for (int i = 0; i < MAX_SQUARINGS; i++) {
        AIRC_TRY(scalar(&g, i, &k));
        AIRC_TRY(ew(&g, "Greater", s, k, AIRC_DTYPE_BOOL, g.one, &c));
        AIRC_TRY(bmm(&g, r, r, &sq));
        AIRC_TRY(airc_ge_select(b, c, sq, r, g.ct, 3, g.mat, &r));
    }
    /* NaN past the limit, and for a NaN or infinite norm (s NaN or inf) */
    airc_ge_tensor nan;
    AIRC_TRY(scalar(&g, MAX_SQUARINGS + 1, &k));
    AIRC_TRY(ew(&g, "Less", s, k, AIRC_DTYPE_BOOL, g.one, &c));
    AIRC_TRY(scalar(&g, NAN, &nan));
    AIRC_TRY(airc_ge_select(b, c, r, nan, g.ct, 3, g.mat, &r));
    AIRC_TRY(airc_ge_reshape(b, r, g.ct, nd, om->shape, &r));
    AIRC_TRY(airc_ge_cast(b, r, om->dtype, &r));
    return airc_ge_set_result(b, 0, r);
}

static const ge_conv_entry conv[] = {
    {"aten.linalg_matrix_exp.default", conv_matrix_exp, NULL},
};

const ge_family airc_ge_family_matrix_exp = {conv, sizeof conv / sizeof *conv, NULL, 0};
