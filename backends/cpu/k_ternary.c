/* Built-in CPU kernels: pointwise ops of three tensors (addcmul, addcdiv,
 * lerp) and their in-place twins, which share the function (the executor
 * hands out[0] = self). Each is computed as torch 1.13's x86 kernels
 * compute it, roundings included: in f32 for f32 and bf16 (one rounding to
 * bf16 at the end), in f64 for f64, and addcmul in wrapping int64 for the
 * integer types. torch's build contracts a * b + c into one fused
 * multiply-add (FMA), so these do too, with C's fma. */
#include "backends/cpu/cpu_kernels.h"
#include "backends/cpu/ew.h"

#include <math.h>
#include <string.h>

#define FN_ARGS airc_ew *op, int64_t n, void *out, const void *const *in, const int *inc

/* out = F(a, b, c) with op->f[0] (value or weight) as w */
#define MAP3(T, NAME, EXPR)                                                                        \
    static void NAME(FN_ARGS)                                                                      \
    {                                                                                              \
        const T w = (T)op->f[0];                                                                   \
        (void)w;                                                                                   \
        T *o = out;                                                                                \
        const T *pa = in[0], *pb = in[1], *pc = in[2];                                             \
        const int ia = inc[0], ib = inc[1], ic = inc[2];                                           \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const T a = pa[i * ia], b = pb[i * ib], c = pc[i * ic];                                \
            (void)c;                                                                               \
            o[i] = (EXPR);                                                                         \
        }                                                                                          \
    }

/* addcmul: self + value * t1 * t2 is fma(value * t1, t2, self) */
MAP3(float, addcmul_f32, fmaf(w *b, c, a))
MAP3(double, addcmul_f64, fma(w *b, c, a))
/* integers wrap (value converted to the dtype first, by the caller) */
#define U64(x) ((uint64_t)(x))
MAP3(int64_t, addcmul_i64, (int64_t)(U64(a) + U64(op->i[0]) * U64(b) * U64(c)))
/* addcdiv: self + value * t1 / t2 */
MAP3(float, addcdiv_f32, a + w * b / c)
MAP3(double, addcdiv_f64, a + w * b / c)

/* lerp(self, end, weight): weight < 0.5 ? self + weight * (end - self)
 * : end - (end - self) * (1 - weight), each an FMA. The test is on weight
 * itself, not |weight| (torch's vectorized kernel; its scalar formula
 * tests |weight|, but no x86 path of 1.13 reaches it). */
static inline float lerp_f(float a, float b, float w)
{
    float d = b - a;
    return w < 0.5f ? fmaf(w, d, a) : fmaf(-d, 1.0f - w, b);
}

static inline double lerp_d(double a, double b, double w)
{
    double d = b - a;
    return w < 0.5 ? fma(w, d, a) : fma(-d, 1.0 - w, b);
}
/* a Scalar weight: two operands */
#define LERP2(T, NAME, F)                                                                          \
    static void NAME(FN_ARGS)                                                                      \
    {                                                                                              \
        const T w = (T)op->f[0];                                                                   \
        T *o = out;                                                                                \
        const T *pa = in[0], *pb = in[1];                                                          \
        const int ia = inc[0], ib = inc[1];                                                        \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i] = F(pa[i * ia], pb[i * ib], w);                                                   \
    }
LERP2(float, lerp_f32, lerp_f)
LERP2(double, lerp_f64, lerp_d)
MAP3(float, lerp_t_f32, lerp_f(a, b, c))
MAP3(double, lerp_t_f64, lerp_d(a, b, c))

typedef enum ternary_kind { T_ADDCMUL, T_ADDCDIV, T_LERP } ternary_kind;

static airc_status ternary(airc_kernel_ctx *k, ternary_kind kind)
{
    if (k->nout < 1 || !k->out || k->nargs < 3)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: three operands and an output",
                         airc_ew_name(k));
    static const uint32_t operands[] = {0, 1, 2};
    bool tensor_weight = kind == T_LERP && k->in && k->in[2];
    /* a Scalar weight is a parameter, not an operand */
    airc_dtype rt = kind == T_LERP ? k->out[0].dtype : airc_ew_result_type(k, operands, 3);
    airc_dtype ct = airc_ew_compute_type(rt);
    airc_ew op;
    memset(&op, 0, sizeof op);
    op.threads = k->num_threads;
    op.common = rt;
    op.nin = kind == T_LERP && !tensor_weight ? 2 : 3;
    op.in_type[0] = op.in_type[1] = op.in_type[2] = op.out_type = ct;
    /* value (addcmul, addcdiv: argument 3) or a Scalar weight (lerp: 2) */
    uint32_t param = kind == T_LERP ? 2 : 3;
    if (!tensor_weight) {
        AIRC_TRY(airc_ew_arg_double(k, param, 1.0, &op.f[0]));
        AIRC_TRY(airc_ew_arg_int(k, param, 1, &op.i[0]));
        op.i[0] = airc_ew_wrap_int(rt, op.i[0]);
        if (ct == AIRC_DTYPE_F32) /* value.to<float>() */
            op.f[0] = (float)op.f[0];
    }
    bool f64 = ct == AIRC_DTYPE_F64;
    if (ct == AIRC_DTYPE_I64 && kind != T_ADDCMUL)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: no kernel for integers", airc_ew_name(k));
    switch (kind) {
    case T_ADDCMUL:
        op.fn = ct == AIRC_DTYPE_I64 ? addcmul_i64 : f64 ? addcmul_f64 : addcmul_f32;
        break;
    case T_ADDCDIV: op.fn = f64 ? addcdiv_f64 : addcdiv_f32; break;
    case T_LERP:
        op.fn = tensor_weight ? (f64 ? lerp_t_f64 : lerp_t_f32) : (f64 ? lerp_f64 : lerp_f32);
        break;
    }
    airc_ew_scalar s[3];
    airc_tview tmp[3];
    const airc_tview *in[3];
    for (uint32_t i = 0; i < (uint32_t)op.nin; i++) {
        bool present;
        AIRC_TRY(airc_ew_operand(k, i, ct, rt, &s[i], &tmp[i], &in[i], &present));
        if (!present)
            return airc_fail(AIRC_E_UNSUPPORTED, "%s: argument %u is None", airc_ew_name(k),
                             (unsigned)i);
    }
    airc_status st = airc_ew_run(&op, &k->out[0], in);
    return st == AIRC_OK ? st : airc_fail_prefix("%s", airc_ew_name(k));
}

static airc_status k_addcmul(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    return ternary(k, T_ADDCMUL);
}

static airc_status k_addcdiv(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    return ternary(k, T_ADDCDIV);
}

static airc_status k_lerp(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    return ternary(k, T_LERP);
}

/* Sorted by qualname (strcmp); a unit test checks it. */
const airc_cpu_kernel_entry airc_cpu_kernels_ternary[] = {
    {"aten.addcdiv.default", k_addcdiv}, {"aten.addcdiv_.default", k_addcdiv},
    {"aten.addcmul.default", k_addcmul}, {"aten.addcmul_.default", k_addcmul},
    {"aten.lerp.Scalar", k_lerp},        {"aten.lerp.Tensor", k_lerp},
    {"aten.lerp_.Scalar", k_lerp},       {"aten.lerp_.Tensor", k_lerp},
};
const size_t airc_cpu_num_kernels_ternary =
    sizeof airc_cpu_kernels_ternary / sizeof airc_cpu_kernels_ternary[0];
