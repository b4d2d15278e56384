/* Built-in CPU kernels: unary family (abs .. gelu, silu, hardsigmoid,
 * hardswish, softplus, elu, mish, exp2, nan_to_num, isnan/isinf, the
 * trigonometric and hyperbolic functions, log10, erfc, frac, sgn,
 * threshold, angle, rad2deg, torch.special's functions of one argument
 * (k_special.c), dtype casts) and their in-place twins, which share the function: for an
 * in-place op the executor hands out[0] = self. Computes in f32
 * (f16/bf16/f32 results), f64 or int64 per the result dtype of the node's
 * meta; transcendental functions go through SLEEF (k_math.c), the newer
 * activations through libm. */
#include "backends/cpu/cpu_kernels.h"
#include "backends/cpu/ew.h"
#include "backends/cpu/k_bessel.h"
#include "backends/cpu/k_math.h"
#include "backends/cpu/k_special.h"
#include "backends/cpu/k_strided.h"

#include <float.h>
#include <math.h>
#include <string.h>

typedef enum unary_kind {
    U_ABS,
    U_NEG,
    U_EXP,
    U_EXPM1,
    U_LOG,
    U_LOG2,
    U_LOG1P,
    U_SQRT,
    U_RSQRT,
    U_RECIPROCAL,
    U_SIGMOID,
    U_TANH,
    U_RELU,
    U_GELU,
    U_SILU,
    U_HARDSIGMOID,
    U_HARDSWISH,
    U_SIN,
    U_COS,
    U_ERF,
    U_CEIL,
    U_FLOOR,
    U_ROUND,
    U_ROUND_DECIMALS,
    U_TRUNC,
    U_SIGN,
    U_HARDTANH,
    U_LEAKY_RELU,
    U_BITWISE_NOT,
    U_LOGICAL_NOT,
    U_SOFTPLUS,
    U_ELU,
    U_MISH,
    U_EXP2,
    U_NAN_TO_NUM,
    U_ISNAN,
    U_ISINF,
    U_ISPOSINF,
    U_ISNEGINF,
    U_TAN,
    U_ATAN,
    U_ASIN,
    U_ACOS,
    U_SINH,
    U_COSH,
    U_ASINH,
    U_ACOSH,
    U_ATANH,
    U_LOG10,
    U_ERFC,
    U_FRAC,
    U_THRESHOLD,
    U_HARDSHRINK,
    U_SOFTSHRINK,
    U_LOGIT,
    U_SIGNBIT,
    U_SINC,
    U_DEG2RAD,
    U_ERFINV,
    U_LGAMMA,
    U_DIGAMMA,
    U_CELU,
    U_ANGLE,
    U_RAD2DEG,
    U_ENTR,
    U_ERFCX,
    U_NDTRI,
    U_LOG_NDTR,
    U_I0,
    U_I0E,
    U_POLYGAMMA,
    U_RRELU, /* rrelu_with_noise in evaluation: leaky_relu((lower + upper) / 2) */
#define BESSEL_KIND(name) U_##name,
    AIRC_BESSEL_UNARY(BESSEL_KIND)
#undef BESSEL_KIND
} unary_kind;

#define CHUNK 256
#define FN_ARGS airc_ew *op, int64_t n, void *out, const void *const *in, const int *inc

/* ---- f32 -------------------------------------------------------------- */

/* torch's logit: log(x / (1 - x)), x first clamped into [eps, 1 - eps]
 * when eps is given and not negative (NaN passes) */
static inline float logit_f(float x, float eps, int64_t clamp)
{
    if (clamp)
        x = x < eps ? eps : x > 1.0f - eps ? 1.0f - eps : x;
    return logf(x / (1.0f - x));
}

static inline double logit_d(double x, double eps, int64_t clamp)
{
    if (clamp)
        x = x < eps ? eps : x > 1.0 - eps ? 1.0 - eps : x;
    return log(x / (1.0 - x));
}

#define MAP(T, NAME, EXPR)                                                                         \
    static void NAME(FN_ARGS)                                                                      \
    {                                                                                              \
        (void)op;                                                                                  \
        (void)inc;                                                                                 \
        T *o = out;                                                                                \
        const T *a = in[0];                                                                        \
        for (int64_t i = 0; i < n; i++) {                                                          \
            T x = a[i];                                                                            \
            o[i] = (EXPR);                                                                         \
        }                                                                                          \
    }

MAP(float, abs_f32, fabsf(x))
MAP(float, neg_f32, -x)
MAP(float, reciprocal_f32, 1.0f / x)
/* std::max(x, 0) as torch's clamp_min: NaN and -0 pass through */
MAP(float, relu_f32, x < 0 ? 0.0f : x)
/* torch's min(max(x + 3, 0), 6) / 6 (NaN propagates) */
MAP(float, hardsigmoid_f32, x != x ? x : fminf(fmaxf(x + 3.0f, 0.0f), 6.0f) / 6.0f)
MAP(float, hardswish_f32, x != x ? x : x * fminf(fmaxf(x + 3.0f, 0.0f), 6.0f) / 6.0f)
MAP(float, ceil_f32, ceilf(x))
MAP(float, floor_f32, floorf(x))
MAP(float, round_f32, nearbyintf(x))
/* round.decimals as torch 1.13's kernel in the dtype itself: 10^|decimals|
 * (f[0], rounded to it), x * 10^d rounded to an integer, / 10^d; a
 * negative decimals (i[0]) divides first and multiplies back. bf16 (i[1])
 * rounds each step to bf16, as its operators do (-434 to 2 decimals is
 * -436: -43400 is -43520 in bf16). */
static inline float bf16_if(const airc_ew *op, float v)
{
    return op->i[1] ? airc_bf16_to_f32(airc_f32_to_bf16(v)) : v;
}
MAP(float, round_decimals_f32,
    op->i[0] ? bf16_if(op, nearbyintf(bf16_if(op, x / (float)op->f[0])) * (float)op->f[0])
             : bf16_if(op, nearbyintf(bf16_if(op, x *(float)op->f[0])) / (float)op->f[0]))
MAP(float, trunc_f32, truncf(x))
MAP(float, sign_f32, (float)((0 < x) - (x < 0)))
MAP(float, hardtanh_f32, (float)op->f[1] < (x < (float)op->f[0] ? (float)op->f[0] : x)
                             ? (float)op->f[1]
                             : (x < (float)op->f[0] ? (float)op->f[0] : x))
MAP(float, leaky_f32, x > 0 ? x : x * (float)op->f[0])
/* softplus(beta f[0], threshold f[1]); elu(alpha f[0], scale f[1],
 * input_scale f[2]); nan_to_num(nan f[0], posinf f[1], neginf f[2]) */
MAP(float, softplus_f32,
    x *(float)op->f[0] > (float)op->f[1] ? x : log1pf(expf(x * (float)op->f[0])) / (float)op->f[0])
MAP(float, elu_f32,
    x <= 0 ? expm1f(x * (float)op->f[2]) * (float)(op->f[0] * op->f[1]) : x * (float)op->f[1])
MAP(float, mish_f32, x *tanhf(log1pf(expf(x))))
MAP(float, exp2_f32, exp2f(x))
MAP(float, nan_to_num_f32,
    x != x           ? (float)op->f[0]
    : x == INFINITY  ? (float)op->f[1]
    : x == -INFINITY ? (float)op->f[2]
                     : x)

/* trigonometric and hyperbolic functions, log10: libm (within an ulp of
 * torch's SLEEF) */
MAP(float, tan_f32, tanf(x))
MAP(float, atan_f32, atanf(x))
MAP(float, asin_f32, asinf(x))
MAP(float, acos_f32, acosf(x))
MAP(float, sinh_f32, sinhf(x))
MAP(float, cosh_f32, coshf(x))
MAP(float, asinh_f32, asinhf(x))
MAP(float, acosh_f32, acoshf(x))
MAP(float, atanh_f32, atanhf(x))
MAP(float, log10_f32, log10f(x))
/* torch's self - trunc(self): inf gives NaN */
MAP(float, frac_f32, x - truncf(x))
/* threshold(threshold f[0], value f[1]): NaN is above every threshold */
MAP(float, threshold_f32, x <= (float)op->f[0] ? (float)op->f[1] : x)

/* hardshrink / softshrink (lambd f[0]); logit (eps f[0], clamped when
 * i[0]); sinc (pi x in float, as torch); deg2rad (pi / 180 rounded to the
 * dtype, torch's wrapped number, in f[0]) */
MAP(float, hardshrink_f32, x >= -(float)op->f[0] && x <= (float)op->f[0] ? 0.0f : x)
MAP(float, softshrink_f32,
    x > (float)op->f[0]    ? x - (float)op->f[0]
    : x < -(float)op->f[0] ? x + (float)op->f[0]
                           : 0.0f)
MAP(float, logit_f32, logit_f(x, (float)op->f[0], op->i[0]))
MAP(float, sinc_f32,
    x == 0 ? 1.0f : sinf(3.14159265358979323846f * x) / (3.14159265358979323846f * x))
MAP(float, deg2rad_f32, x *(float)op->f[0])
MAP(float, erfinv_f32, (float)airc_erfinv(x))
MAP(float, lgamma_f32, airc_lgammaf(x))
MAP(float, digamma_f32, (float)airc_digamma(x))
/* angle of a real x: pi below 0, else 0, NaN kept; rad2deg as deg2rad;
 * torch.special's functions in double (k_special.c), polygamma's n in i[0] */
MAP(float, angle_f32, x != x ? x : x < 0 ? 3.14159265358979323846f : 0.0f)
MAP(float, rad2deg_f32, x *(float)op->f[0])
MAP(float, entr_f32, (float)airc_entr(x))
MAP(float, erfcx_f32, (float)airc_erfcx(x))
MAP(float, ndtri_f32, (float)airc_ndtri(x))
MAP(float, log_ndtr_f32, (float)airc_log_ndtr(x))
MAP(float, i0_f32, (float)airc_i0(x))
MAP(float, i0e_f32, (float)airc_i0e(x))
MAP(float, polygamma_f32, op->i[0] == 1 ? airc_trigammaf(x) : (float)airc_polygamma(op->i[0], x))

#define VM_F32(NAME, VM)                                                                           \
    static void NAME(FN_ARGS)                                                                      \
    {                                                                                              \
        (void)op;                                                                                  \
        (void)inc;                                                                                 \
        airc_vm_f32(VM, n, in[0], out);                                                            \
    }
VM_F32(exp_f32, AIRC_VM_EXP)
VM_F32(expm1_f32, AIRC_VM_EXPM1)
VM_F32(log_f32, AIRC_VM_LOG)
VM_F32(log2_f32, AIRC_VM_LOG2)
VM_F32(log1p_f32, AIRC_VM_LOG1P)
VM_F32(sqrt_f32, AIRC_VM_SQRT)
VM_F32(tanh_f32, AIRC_VM_TANH)
VM_F32(sin_f32, AIRC_VM_SIN)
VM_F32(cos_f32, AIRC_VM_COS)
VM_F32(erf_f32, AIRC_VM_ERF)
VM_F32(erfc_f32, AIRC_VM_ERFC)

static void rsqrt_f32(FN_ARGS)
{
    float *o = out;
    airc_vm_f32(AIRC_VM_SQRT, n, in[0], o);
    for (int64_t i = 0; i < n; i++)
        o[i] = 1.0f / o[i];
}

/* Composite functions run per chunk through a temporary, so that out may
 * alias the input. */
static void sigmoid_f32(FN_ARGS)
{
    float *o = out, t[CHUNK];
    const float *a = in[0];
    for (int64_t off = 0; off < n; off += CHUNK) {
        int64_t m = n - off < CHUNK ? n - off : CHUNK;
        for (int64_t i = 0; i < m; i++)
            t[i] = -a[off + i];
        airc_vm_f32(AIRC_VM_EXP, m, t, t);
        for (int64_t i = 0; i < m; i++)
            o[off + i] = 1.0f / (1.0f + t[i]);
    }
}

static void silu_f32(FN_ARGS)
{
    float *o = out, t[CHUNK];
    const float *a = in[0];
    for (int64_t off = 0; off < n; off += CHUNK) {
        int64_t m = n - off < CHUNK ? n - off : CHUNK;
        for (int64_t i = 0; i < m; i++)
            t[i] = -a[off + i];
        airc_vm_f32(AIRC_VM_EXP, m, t, t);
        for (int64_t i = 0; i < m; i++)
            o[off + i] = a[off + i] / (1.0f + t[i]);
    }
}

/* 0.5 x (1 + erf(x/√2)) as 0.5 x erfc(-x/√2): no cancellation for
 * negative x, where 1 + erf loses every digit (k_math.h) */
void airc_cpu_gelu_f32(int64_t n, const float *a, float *o)
{
    airc_vm_f32(AIRC_VM_GELU, n, a, o);
}

static void gelu_f32(FN_ARGS)
{
    (void)op;
    (void)inc;
    airc_cpu_gelu_f32(n, in[0], out);
}

/* 0.5 x (1 + tanh(u)) = x / (1 + exp(-2u)), again without cancellation */
static void gelu_tanh_f32(FN_ARGS)
{
    const float beta = 0.79788456080286535588f; /* sqrt(2/pi) */
    const float kappa = 0.044715f;
    float *o = out, t[CHUNK];
    const float *a = in[0];
    for (int64_t off = 0; off < n; off += CHUNK) {
        int64_t m = n - off < CHUNK ? n - off : CHUNK;
        for (int64_t i = 0; i < m; i++) {
            float x = a[off + i];
            t[i] = -2.0f * beta * (x + kappa * x * x * x);
        }
        airc_vm_f32(AIRC_VM_EXP, m, t, t);
        for (int64_t i = 0; i < m; i++)
            o[off + i] = a[off + i] / (1.0f + t[i]);
    }
}

/* ---- f64 (libm) --------------------------------------------------------- */

MAP(double, abs_f64, fabs(x))
MAP(double, neg_f64, -x)
MAP(double, reciprocal_f64, 1.0 / x)
MAP(double, relu_f64, x < 0 ? 0.0 : x)
MAP(double, ceil_f64, ceil(x))
MAP(double, floor_f64, floor(x))
MAP(double, round_f64, nearbyint(x))
MAP(double, round_decimals_f64,
    op->i[0] ? nearbyint(x / op->f[0]) * op->f[0] : nearbyint(x * op->f[0]) / op->f[0])
MAP(double, trunc_f64, trunc(x))
MAP(double, sign_f64, (double)((0 < x) - (x < 0)))
MAP(double, hardtanh_f64,
    op->f[1] < (x < op->f[0] ? op->f[0] : x) ? op->f[1] : (x < op->f[0] ? op->f[0] : x))
MAP(double, leaky_f64, x > 0 ? x : x * op->f[0])
MAP(double, exp_f64, exp(x))
MAP(double, expm1_f64, expm1(x))
MAP(double, log_f64, log(x))
MAP(double, log2_f64, log2(x))
MAP(double, log1p_f64, log1p(x))
MAP(double, sqrt_f64, sqrt(x))
MAP(double, rsqrt_f64, 1.0 / sqrt(x))
MAP(double, tanh_f64, tanh(x))
MAP(double, sin_f64, sin(x))
MAP(double, cos_f64, cos(x))
MAP(double, erf_f64, erf(x))
MAP(double, sigmoid_f64, 1.0 / (1.0 + exp(-x)))
MAP(double, silu_f64, x / (1.0 + exp(-x)))
MAP(double, hardsigmoid_f64, x != x ? x : fmin(fmax(x + 3.0, 0.0), 6.0) / 6.0)
MAP(double, hardswish_f64, x != x ? x : x * fmin(fmax(x + 3.0, 0.0), 6.0) / 6.0)
MAP(double, softplus_f64, x * op->f[0] > op->f[1] ? x : log1p(exp(x * op->f[0])) / op->f[0])
MAP(double, elu_f64, x <= 0 ? expm1(x * op->f[2]) * op->f[0] * op->f[1] : x * op->f[1])
MAP(double, mish_f64, x *tanh(log1p(exp(x))))
MAP(double, exp2_f64, exp2(x))
MAP(double, nan_to_num_f64,
    x != x           ? op->f[0]
    : x == INFINITY  ? op->f[1]
    : x == -INFINITY ? op->f[2]
                     : x)
MAP(double, tan_f64, tan(x))
MAP(double, atan_f64, atan(x))
MAP(double, asin_f64, asin(x))
MAP(double, acos_f64, acos(x))
MAP(double, sinh_f64, sinh(x))
MAP(double, cosh_f64, cosh(x))
MAP(double, asinh_f64, asinh(x))
MAP(double, acosh_f64, acosh(x))
MAP(double, atanh_f64, atanh(x))
MAP(double, log10_f64, log10(x))
MAP(double, erfc_f64, erfc(x))
MAP(double, frac_f64, x - trunc(x))
MAP(double, threshold_f64, x <= op->f[0] ? op->f[1] : x)
MAP(double, hardshrink_f64, x >= -op->f[0] && x <= op->f[0] ? 0.0 : x)
MAP(double, softshrink_f64, x > op->f[0] ? x - op->f[0] : x < -op->f[0] ? x + op->f[0] : 0.0)
MAP(double, logit_f64, logit_d(x, op->f[0], op->i[0]))
MAP(double, sinc_f64, x == 0 ? 1.0 : sin(3.14159265358979323846 * x) / (3.14159265358979323846 * x))
MAP(double, deg2rad_f64, x * op->f[0])
MAP(double, erfinv_f64, airc_erfinv(x))
MAP(double, lgamma_f64, airc_lgamma(x))
MAP(double, digamma_f64, airc_digamma(x))
MAP(double, angle_f64, x != x ? x : x < 0 ? 3.14159265358979323846 : 0.0)
MAP(double, rad2deg_f64, x * op->f[0])
MAP(double, entr_f64, airc_entr(x))
MAP(double, erfcx_f64, airc_erfcx(x))
MAP(double, ndtri_f64, airc_ndtri(x))
MAP(double, log_ndtr_f64, airc_log_ndtr(x))
MAP(double, i0_f64, airc_i0(x))
MAP(double, i0e_f64, airc_i0e(x))
MAP(double, polygamma_f64, airc_polygamma(op->i[0], x))
/* torch.special's Bessel functions, f32 in float (k_bessel.c) */
#define BESSEL_MAP(name)                                                                           \
    MAP(float, name##_k32, airc_##name##_f32(x)) MAP(double, name##_k64, airc_##name##_f64(x))
AIRC_BESSEL_UNARY(BESSEL_MAP)
#undef BESSEL_MAP
MAP(double, gelu_f64, 0.5 * x * erfc(x * -0.70710678118654752440))
MAP(double, gelu_tanh_f64,
    x / (1.0 + exp(-2.0 * 0.79788456080286535588 * (x + 0.044715 * x * x * x))))

/* ---- int64 (wrapping, as torch's integer types) and bool ---------------- */

MAP(int64_t, abs_i64, x < 0 ? (int64_t)(0 - (uint64_t)x) : x)
MAP(int64_t, neg_i64, (int64_t)(0 - (uint64_t)x))
MAP(int64_t, relu_i64, x < 0 ? 0 : x)
MAP(int64_t, copy_i64, x)
MAP(int64_t, sign_i64, (int64_t)((0 < x) - (x < 0)))
MAP(int64_t, hardtanh_i64,
    op->i[1] < (x < op->i[0] ? op->i[0] : x) ? op->i[1] : (x < op->i[0] ? op->i[0] : x))
MAP(int64_t, bitwise_not_i64, ~x)
MAP(int64_t, threshold_i64, x <= op->i[0] ? op->i[1] : x)
MAP(uint8_t, not_b8, (uint8_t)!x)
#undef MAP

/* isnan / isinf: any input read as double, a bool result */
static void isnan_b8(FN_ARGS)
{
    (void)op, (void)inc;
    for (int64_t i = 0; i < n; i++)
        ((uint8_t *)out)[i] = isnan(((const double *)in[0])[i]) != 0;
}

static void signbit_b8(FN_ARGS)
{
    (void)op, (void)inc;
    for (int64_t i = 0; i < n; i++)
        ((uint8_t *)out)[i] = signbit(((const double *)in[0])[i]) != 0;
}

static void isinf_b8(FN_ARGS)
{
    (void)op, (void)inc;
    for (int64_t i = 0; i < n; i++)
        ((uint8_t *)out)[i] = isinf(((const double *)in[0])[i]) != 0;
}

/* isposinf / isneginf: false for every integer and bool */
static void isposinf_b8(FN_ARGS)
{
    (void)op, (void)inc;
    for (int64_t i = 0; i < n; i++)
        ((uint8_t *)out)[i] = ((const double *)in[0])[i] == INFINITY;
}

static void isneginf_b8(FN_ARGS)
{
    (void)op, (void)inc;
    for (int64_t i = 0; i < n; i++)
        ((uint8_t *)out)[i] = ((const double *)in[0])[i] == -INFINITY;
}

/* hardtanh is torch's clamp with both bounds: a NaN bound fills the
 * result with NaN */
static void nan_fill_f32(FN_ARGS)
{
    (void)op, (void)in, (void)inc;
    for (int64_t i = 0; i < n; i++)
        ((float *)out)[i] = NAN;
}

static void nan_fill_f64(FN_ARGS)
{
    (void)op, (void)in, (void)inc;
    for (int64_t i = 0; i < n; i++)
        ((double *)out)[i] = NAN;
}

typedef struct unary_fns {
    airc_ew_fn f32, f64, i64;
} unary_fns;

static unary_fns fns_of(unary_kind kind, bool gelu_tanh)
{
    switch (kind) {
    case U_ABS:
        return (unary_fns){abs_f32, abs_f64, abs_i64};
    case U_NEG:
        return (unary_fns){neg_f32, neg_f64, neg_i64};
    case U_EXP:
        return (unary_fns){exp_f32, exp_f64, NULL};
    case U_EXPM1:
        return (unary_fns){expm1_f32, expm1_f64, NULL};
    case U_LOG:
        return (unary_fns){log_f32, log_f64, NULL};
    case U_LOG2:
        return (unary_fns){log2_f32, log2_f64, NULL};
    case U_LOG1P:
        return (unary_fns){log1p_f32, log1p_f64, NULL};
    case U_SQRT:
        return (unary_fns){sqrt_f32, sqrt_f64, NULL};
    case U_RSQRT:
        return (unary_fns){rsqrt_f32, rsqrt_f64, NULL};
    case U_RECIPROCAL:
        return (unary_fns){reciprocal_f32, reciprocal_f64, NULL};
    case U_SIGMOID:
        return (unary_fns){sigmoid_f32, sigmoid_f64, NULL};
    case U_TANH:
        return (unary_fns){tanh_f32, tanh_f64, NULL};
    case U_RELU:
        return (unary_fns){relu_f32, relu_f64, relu_i64};
    case U_GELU:
        return gelu_tanh ? (unary_fns){gelu_tanh_f32, gelu_tanh_f64, NULL}
                         : (unary_fns){gelu_f32, gelu_f64, NULL};
    case U_SILU:
        return (unary_fns){silu_f32, silu_f64, NULL};
    case U_HARDSIGMOID:
        return (unary_fns){hardsigmoid_f32, hardsigmoid_f64, NULL};
    case U_HARDSWISH:
        return (unary_fns){hardswish_f32, hardswish_f64, NULL};
    case U_SIN:
        return (unary_fns){sin_f32, sin_f64, NULL};
    case U_COS:
        return (unary_fns){cos_f32, cos_f64, NULL};
    case U_ERF:
        return (unary_fns){erf_f32, erf_f64, NULL};
    case U_CEIL:
        return (unary_fns){ceil_f32, ceil_f64, copy_i64};
    case U_FLOOR:
        return (unary_fns){floor_f32, floor_f64, copy_i64};
    case U_ROUND:
        return (unary_fns){round_f32, round_f64, copy_i64};
    case U_ROUND_DECIMALS: return (unary_fns){round_decimals_f32, round_decimals_f64, NULL};
    case U_TRUNC:
        return (unary_fns){trunc_f32, trunc_f64, copy_i64};
    case U_SIGN:
        return (unary_fns){sign_f32, sign_f64, sign_i64};
    case U_HARDTANH:
        return (unary_fns){hardtanh_f32, hardtanh_f64, hardtanh_i64};
    case U_LEAKY_RELU:
    case U_RRELU: return (unary_fns){leaky_f32, leaky_f64, NULL};
    case U_BITWISE_NOT:
        return (unary_fns){NULL, NULL, bitwise_not_i64};
    case U_SOFTPLUS: return (unary_fns){softplus_f32, softplus_f64, NULL};
    case U_ELU:
    case U_CELU: return (unary_fns){elu_f32, elu_f64, NULL};
    case U_MISH: return (unary_fns){mish_f32, mish_f64, NULL};
    case U_EXP2: return (unary_fns){exp2_f32, exp2_f64, NULL};
    case U_NAN_TO_NUM: return (unary_fns){nan_to_num_f32, nan_to_num_f64, copy_i64};
    case U_TAN: return (unary_fns){tan_f32, tan_f64, NULL};
    case U_ATAN: return (unary_fns){atan_f32, atan_f64, NULL};
    case U_ASIN: return (unary_fns){asin_f32, asin_f64, NULL};
    case U_ACOS: return (unary_fns){acos_f32, acos_f64, NULL};
    case U_SINH: return (unary_fns){sinh_f32, sinh_f64, NULL};
    case U_COSH: return (unary_fns){cosh_f32, cosh_f64, NULL};
    case U_ASINH: return (unary_fns){asinh_f32, asinh_f64, NULL};
    case U_ACOSH: return (unary_fns){acosh_f32, acosh_f64, NULL};
    case U_ATANH: return (unary_fns){atanh_f32, atanh_f64, NULL};
    case U_LOG10: return (unary_fns){log10_f32, log10_f64, NULL};
    case U_ERFC: return (unary_fns){erfc_f32, erfc_f64, NULL};
    case U_FRAC: return (unary_fns){frac_f32, frac_f64, NULL};
    case U_THRESHOLD: return (unary_fns){threshold_f32, threshold_f64, threshold_i64};
    case U_HARDSHRINK: return (unary_fns){hardshrink_f32, hardshrink_f64, NULL};
    case U_SOFTSHRINK: return (unary_fns){softshrink_f32, softshrink_f64, NULL};
    case U_LOGIT: return (unary_fns){logit_f32, logit_f64, NULL};
    case U_SINC: return (unary_fns){sinc_f32, sinc_f64, NULL};
    case U_DEG2RAD: return (unary_fns){deg2rad_f32, deg2rad_f64, NULL};
    case U_ERFINV: return (unary_fns){erfinv_f32, erfinv_f64, NULL};
    case U_LGAMMA: return (unary_fns){lgamma_f32, lgamma_f64, NULL};
    case U_DIGAMMA: return (unary_fns){digamma_f32, digamma_f64, NULL};
    case U_ANGLE: return (unary_fns){angle_f32, angle_f64, NULL};
    case U_RAD2DEG: return (unary_fns){rad2deg_f32, rad2deg_f64, NULL};
    case U_ENTR: return (unary_fns){entr_f32, entr_f64, NULL};
    case U_ERFCX: return (unary_fns){erfcx_f32, erfcx_f64, NULL};
    case U_NDTRI: return (unary_fns){ndtri_f32, ndtri_f64, NULL};
    case U_LOG_NDTR: return (unary_fns){log_ndtr_f32, log_ndtr_f64, NULL};
    case U_I0: return (unary_fns){i0_f32, i0_f64, NULL};
    case U_I0E: return (unary_fns){i0e_f32, i0e_f64, NULL};
    case U_POLYGAMMA: return (unary_fns){polygamma_f32, polygamma_f64, NULL};
#define BESSEL_CASE(name)                                                                          \
    case U_##name: return (unary_fns){name##_k32, name##_k64, NULL};
        AIRC_BESSEL_UNARY(BESSEL_CASE)
#undef BESSEL_CASE
    default:
        return (unary_fns){NULL, NULL, NULL};
    }
}

static airc_status unary(airc_kernel_ctx *k, unary_kind kind)
{
    /* polygamma(n, self) has its tensor second, polygamma_(self, n) first */
    uint32_t self_arg = kind == U_POLYGAMMA && k->nargs > 1 && k->in && !k->in[0] ? 1 : 0;
    const airc_tview *self = k->nargs > self_arg && k->in ? k->in[self_arg] : NULL;
    if (!self || k->nout < 1)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: self must be a tensor", airc_ew_name(k));
    const airc_tview *out = &k->out[0];
    airc_ew op;
    memset(&op, 0, sizeof op);
    op.threads = k->num_threads;
    op.nin = 1;
    op.contiguous = true;

    if (kind == U_LOGICAL_NOT || (kind == U_BITWISE_NOT && out->dtype == AIRC_DTYPE_BOOL)) {
        /* anything to bool is != 0, so not(bool(x)) is logical_not */
        op.fn = not_b8;
        op.in_type[0] = op.out_type = AIRC_DTYPE_BOOL;
        return airc_ew_run(&op, out, &self);
    }
    if (kind == U_ISNAN || kind == U_ISINF || kind == U_ISPOSINF || kind == U_ISNEGINF ||
        kind == U_SIGNBIT) {
        op.fn = kind == U_ISNAN      ? isnan_b8
                : kind == U_ISINF    ? isinf_b8
                : kind == U_ISPOSINF ? isposinf_b8
                : kind == U_ISNEGINF ? isneginf_b8
                                     : signbit_b8;
        op.in_type[0] = AIRC_DTYPE_F64;
        op.out_type = AIRC_DTYPE_BOOL;
        return airc_ew_run(&op, out, &self);
    }
    bool gelu_tanh = false;
    if (kind == U_GELU) {
        const char *approx = airc_ew_arg_string(k, 1);
        gelu_tanh = approx && !strcmp(approx, "tanh");
        if (approx && !gelu_tanh && strcmp(approx, "none"))
            return airc_fail(AIRC_E_UNSUPPORTED, "%s: approximate must be 'none' or 'tanh', not '%s'",
                             airc_ew_name(k), approx);
    }
    airc_dtype ct = airc_ew_compute_type(out->dtype);
    unary_fns f = fns_of(kind, gelu_tanh);
    op.fn = ct == AIRC_DTYPE_F32 ? f.f32 : ct == AIRC_DTYPE_F64 ? f.f64 : f.i64;
    if (!op.fn)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: no kernel for result dtype %s",
                         airc_ew_name(k), airc_dtype_name(out->dtype));
    op.in_type[0] = op.out_type = ct;
    if (kind == U_HARDTANH) {
        AIRC_TRY(airc_ew_arg_double(k, 1, -1.0, &op.f[0]));
        AIRC_TRY(airc_ew_arg_double(k, 2, 1.0, &op.f[1]));
        AIRC_TRY(airc_ew_arg_int(k, 1, -1, &op.i[0]));
        AIRC_TRY(airc_ew_arg_int(k, 2, 1, &op.i[1]));
        if (ct != AIRC_DTYPE_I64 && (isnan(op.f[0]) || isnan(op.f[1])))
            op.fn = ct == AIRC_DTYPE_F32 ? nan_fill_f32 : nan_fill_f64;
    } else if (kind == U_THRESHOLD) {
        /* torch compares in self's dtype: the scalars convert to it first
         * (an integer wraps, a half rounds) */
        for (uint32_t i = 0; i < 2; i++) {
            AIRC_TRY(airc_ew_arg_double(k, 1 + i, 0.0, &op.f[i]));
            AIRC_TRY(airc_ew_arg_int(k, 1 + i, 0, &op.i[i]));
            if (ct == AIRC_DTYPE_I64)
                op.i[i] = airc_cpu_round_i64(out->dtype, op.i[i]);
            else
                op.f[i] = airc_cpu_round_f64(out->dtype, op.f[i]);
        }
    } else if (kind == U_ROUND_DECIMALS) {
        int64_t d;
        AIRC_TRY(airc_ew_arg_int(k, 1, 0, &d));
        op.i[0] = d < 0;
        op.f[0] = airc_cpu_round_f64(out->dtype, pow(10.0, d < 0 ? -(double)d : (double)d));
        op.i[1] = out->dtype == AIRC_DTYPE_BF16;
    } else if (kind == U_HARDSHRINK || kind == U_SOFTSHRINK) {
        AIRC_TRY(airc_ew_arg_double(k, 1, 0.5, &op.f[0]));
    } else if (kind == U_LOGIT) {
        double eps;
        AIRC_TRY(airc_ew_arg_double(k, 1, -1.0, &eps));
        op.f[0] = eps;
        op.i[0] = eps >= 0;
    } else if (kind == U_DEG2RAD || kind == U_RAD2DEG) {
        /* torch multiplies by the constant as a wrapped number: rounded to
         * the result's dtype (180 / pi is 57.25 in bf16) */
        op.f[0] =
            airc_cpu_round_f64(out->dtype, kind == U_DEG2RAD ? 3.14159265358979323846 / 180.0
                                                             : 180.0 / 3.14159265358979323846);
    } else if (kind == U_POLYGAMMA) {
        AIRC_TRY(airc_ew_arg_int(k, self_arg ? 0 : 1, 0, &op.i[0]));
    } else if (kind == U_LEAKY_RELU) {
        AIRC_TRY(airc_ew_arg_double(k, 1, 0.01, &op.f[0]));
    } else if (kind == U_RRELU) { /* the meta refuses training=True */
        double lower, upper;
        AIRC_TRY(airc_ew_arg_double(k, 2, 0.125, &lower));
        AIRC_TRY(airc_ew_arg_double(k, 3, 1.0 / 3.0, &upper));
        op.f[0] = (lower + upper) / 2;
    } else if (kind == U_SOFTPLUS) {
        AIRC_TRY(airc_ew_arg_double(k, 1, 1.0, &op.f[0]));
        AIRC_TRY(airc_ew_arg_double(k, 2, 20.0, &op.f[1]));
    } else if (kind == U_CELU) { /* elu(alpha, 1, 1 / alpha), as torch */
        AIRC_TRY(airc_ew_arg_double(k, 1, 1.0, &op.f[0]));
        op.f[1] = 1.0;
        op.f[2] = 1.0 / op.f[0];
    } else if (kind == U_ELU) {
        for (uint32_t i = 0; i < 3; i++)
            AIRC_TRY(airc_ew_arg_double(k, 1 + i, 1.0, &op.f[i]));
    } else if (kind == U_NAN_TO_NUM) {
        /* posinf / neginf default to the result type's largest / lowest */
        double big = out->dtype == AIRC_DTYPE_F16    ? 65504.0
                     : out->dtype == AIRC_DTYPE_BF16 ? 3.38953138925153547590e38
                     : out->dtype == AIRC_DTYPE_F64  ? DBL_MAX
                                                     : FLT_MAX;
        AIRC_TRY(airc_ew_arg_double(k, 1, 0.0, &op.f[0]));
        AIRC_TRY(airc_ew_arg_double(k, 2, big, &op.f[1]));
        AIRC_TRY(airc_ew_arg_double(k, 3, -big, &op.f[2]));
    }
    return airc_ew_run(&op, out, &self);
}

#define UNARY_KERNEL(name, KIND)                                                                   \
    static airc_status k_##name(airc_kernel_ctx *k, void *user_data)                               \
    {                                                                                              \
        (void)user_data;                                                                           \
        return unary(k, KIND);                                                                     \
    }
UNARY_KERNEL(abs, U_ABS)
UNARY_KERNEL(neg, U_NEG)
UNARY_KERNEL(exp, U_EXP)
UNARY_KERNEL(expm1, U_EXPM1)
UNARY_KERNEL(log, U_LOG)
UNARY_KERNEL(log2, U_LOG2)
UNARY_KERNEL(log1p, U_LOG1P)
UNARY_KERNEL(sqrt, U_SQRT)
UNARY_KERNEL(rsqrt, U_RSQRT)
UNARY_KERNEL(reciprocal, U_RECIPROCAL)
UNARY_KERNEL(sigmoid, U_SIGMOID)
UNARY_KERNEL(tanh, U_TANH)
UNARY_KERNEL(relu, U_RELU)
UNARY_KERNEL(gelu, U_GELU)
UNARY_KERNEL(silu, U_SILU)
UNARY_KERNEL(hardsigmoid, U_HARDSIGMOID)
UNARY_KERNEL(hardswish, U_HARDSWISH)
UNARY_KERNEL(sin, U_SIN)
UNARY_KERNEL(cos, U_COS)
UNARY_KERNEL(erf, U_ERF)
UNARY_KERNEL(ceil, U_CEIL)
UNARY_KERNEL(floor, U_FLOOR)
UNARY_KERNEL(round, U_ROUND)
UNARY_KERNEL(round_decimals, U_ROUND_DECIMALS)
UNARY_KERNEL(trunc, U_TRUNC)
UNARY_KERNEL(sign, U_SIGN)
UNARY_KERNEL(hardtanh, U_HARDTANH)
UNARY_KERNEL(leaky_relu, U_LEAKY_RELU)
UNARY_KERNEL(bitwise_not, U_BITWISE_NOT)
UNARY_KERNEL(logical_not, U_LOGICAL_NOT)
UNARY_KERNEL(softplus, U_SOFTPLUS)
UNARY_KERNEL(elu, U_ELU)
UNARY_KERNEL(mish, U_MISH)
UNARY_KERNEL(exp2, U_EXP2)
UNARY_KERNEL(nan_to_num, U_NAN_TO_NUM)
UNARY_KERNEL(isnan, U_ISNAN)
UNARY_KERNEL(isinf, U_ISINF)
UNARY_KERNEL(isposinf, U_ISPOSINF)
UNARY_KERNEL(isneginf, U_ISNEGINF)
UNARY_KERNEL(tan, U_TAN)
UNARY_KERNEL(atan, U_ATAN)
UNARY_KERNEL(asin, U_ASIN)
UNARY_KERNEL(acos, U_ACOS)
UNARY_KERNEL(sinh, U_SINH)
UNARY_KERNEL(cosh, U_COSH)
UNARY_KERNEL(asinh, U_ASINH)
UNARY_KERNEL(acosh, U_ACOSH)
UNARY_KERNEL(atanh, U_ATANH)
UNARY_KERNEL(log10, U_LOG10)
UNARY_KERNEL(erfc, U_ERFC)
UNARY_KERNEL(frac, U_FRAC)
UNARY_KERNEL(threshold, U_THRESHOLD)
UNARY_KERNEL(hardshrink, U_HARDSHRINK)
UNARY_KERNEL(softshrink, U_SOFTSHRINK)
UNARY_KERNEL(logit, U_LOGIT)
UNARY_KERNEL(signbit, U_SIGNBIT)
UNARY_KERNEL(sinc, U_SINC)
UNARY_KERNEL(deg2rad, U_DEG2RAD)
UNARY_KERNEL(erfinv, U_ERFINV)
UNARY_KERNEL(lgamma, U_LGAMMA)
UNARY_KERNEL(digamma, U_DIGAMMA)
UNARY_KERNEL(celu, U_CELU)
UNARY_KERNEL(angle, U_ANGLE)
UNARY_KERNEL(rad2deg, U_RAD2DEG)
UNARY_KERNEL(entr, U_ENTR)
UNARY_KERNEL(erfcx, U_ERFCX)
UNARY_KERNEL(ndtri, U_NDTRI)
UNARY_KERNEL(log_ndtr, U_LOG_NDTR)
UNARY_KERNEL(i0, U_I0)
UNARY_KERNEL(i0e, U_I0E)
UNARY_KERNEL(polygamma, U_POLYGAMMA)
UNARY_KERNEL(rrelu_with_noise, U_RRELU)
#define BESSEL_KERNEL(name) UNARY_KERNEL(name, U_##name)
AIRC_BESSEL_UNARY(BESSEL_KERNEL)
#undef BESSEL_KERNEL

/* log_sigmoid_forward(self) -> (min(x, 0) - log1p(z), z = exp(-|x|)), in
 * the compute type (float for f32 and the half types) */
static airc_status k_log_sigmoid_forward(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *x = k->nargs && k->in ? k->in[0] : NULL;
    if (!x || k->nout != 2 || !airc_cpu_dtype_is_float(x->dtype))
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: expects a floating self and two results",
                         airc_ew_name(k));
    bool f32 = airc_ew_compute_type(x->dtype) == AIRC_DTYPE_F32;
    int64_t idx[AIRC_MAX_DIMS] = {0}, n = airc_cpu_numel(x);
    size_t xe = airc_dtype_size(x->dtype);
    for (int64_t e = 0; e < n; e++) {
        int64_t xo = 0, oo[2] = {0, 0};
        for (int32_t d = 0; d < x->ndim; d++) {
            xo += idx[d] * x->strides[d];
            oo[0] += idx[d] * k->out[0].strides[d];
            oo[1] += idx[d] * k->out[1].strides[d];
        }
        double v = airc_cpu_load_f64((const char *)x->data + xo * (int64_t)xe, x->dtype), z, r;
        if (f32) {
            float zf = expf(-fabsf((float)v));
            z = zf;
            r = (float)(fminf((float)v, 0.0f) - log1pf(zf));
            if (v != v)
                r = v;
        } else {
            z = exp(-fabs(v));
            r = v != v ? v : fmin(v, 0.0) - log1p(z);
        }
        airc_cpu_store_f64((char *)k->out[0].data + oo[0] * (int64_t)xe, x->dtype, r);
        airc_cpu_store_f64((char *)k->out[1].data + oo[1] * (int64_t)xe, x->dtype, z);
        airc_cpu_next_index(idx, x->shape, x->ndim);
    }
    return AIRC_OK;
}

/* _to_copy and to.*: a fresh copy converted to the result dtype, written
 * through the result's strides (its layout comes from the meta: the
 * memory_format and preserve rules live there). clone, contiguous and
 * lift_fresh_copy are the shape family's (k_shape.c). */
static airc_status k_copy(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *self = k->nargs && k->in ? k->in[0] : NULL;
    if (!self || k->nout < 1)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: self must be a tensor", airc_ew_name(k));
    return airc_cpu_copy_cast(&k->out[0], self);
}

/* Sorted by qualname (strcmp); a unit test checks it. */
const airc_cpu_kernel_entry airc_cpu_kernels_unary[] = {
    {"aten._fake_quantize_learnable_per_channel_affine.default",
     airc_cpu_k_fake_quantize_learnable_per_channel},
    {"aten._fake_quantize_learnable_per_tensor_affine.default",
     airc_cpu_k_fake_quantize_learnable_per_tensor},
    {"aten._fake_quantize_per_tensor_affine_cachemask_tensor_qparams.default",
     airc_cpu_k_fake_quantize_tensor_qparams},
    {"aten._neg_view.default", k_neg},
    {"aten._to_copy.default", k_copy},
    {"aten.abs.default", k_abs},
    {"aten.abs_.default", k_abs},
    {"aten.acos.default", k_acos},
    {"aten.acos_.default", k_acos},
    {"aten.acosh.default", k_acosh},
    {"aten.acosh_.default", k_acosh},
    {"aten.angle.default", k_angle},
    {"aten.asin.default", k_asin},
    {"aten.asin_.default", k_asin},
    {"aten.asinh.default", k_asinh},
    {"aten.asinh_.default", k_asinh},
    {"aten.atan.default", k_atan},
    {"aten.atan_.default", k_atan},
    {"aten.atanh.default", k_atanh},
    {"aten.atanh_.default", k_atanh},
    {"aten.bitwise_not.default", k_bitwise_not},
    {"aten.bitwise_not_.default", k_bitwise_not},
    {"aten.ceil.default", k_ceil},
    {"aten.ceil_.default", k_ceil},
    {"aten.celu.default", k_celu},
    {"aten.celu_.default", k_celu},
    {"aten.cos.default", k_cos},
    {"aten.cos_.default", k_cos},
    {"aten.cosh.default", k_cosh},
    {"aten.cosh_.default", k_cosh},
    {"aten.deg2rad.default", k_deg2rad},
    {"aten.deg2rad_.default", k_deg2rad},
    {"aten.digamma.default", k_digamma},
    {"aten.digamma_.default", k_digamma},
    {"aten.elu.default", k_elu},
    {"aten.elu_.default", k_elu},
    {"aten.erf.default", k_erf},
    {"aten.erf_.default", k_erf},
    {"aten.erfc.default", k_erfc},
    {"aten.erfc_.default", k_erfc},
    {"aten.erfinv.default", k_erfinv},
    {"aten.erfinv_.default", k_erfinv},
    {"aten.exp.default", k_exp},
    {"aten.exp2.default", k_exp2},
    {"aten.exp2_.default", k_exp2},
    {"aten.exp_.default", k_exp},
    {"aten.expm1.default", k_expm1},
    {"aten.expm1_.default", k_expm1},
    {"aten.fake_quantize_per_channel_affine_cachemask.default",
     airc_cpu_k_fake_quantize_per_channel},
    {"aten.fake_quantize_per_tensor_affine_cachemask.default", airc_cpu_k_fake_quantize_per_tensor},
    {"aten.floor.default", k_floor},
    {"aten.floor_.default", k_floor},
    {"aten.frac.default", k_frac},
    {"aten.frac_.default", k_frac},
    {"aten.frexp.Tensor", airc_cpu_k_frexp},
    {"aten.gelu.default", k_gelu},
    {"aten.gelu_.default", k_gelu},
    {"aten.hardshrink.default", k_hardshrink},
    {"aten.hardsigmoid.default", k_hardsigmoid},
    {"aten.hardsigmoid_.default", k_hardsigmoid},
    {"aten.hardswish.default", k_hardswish},
    {"aten.hardswish_.default", k_hardswish},
    {"aten.hardtanh.default", k_hardtanh},
    {"aten.hardtanh_.default", k_hardtanh},
    {"aten.i0.default", k_i0},
    {"aten.i0_.default", k_i0},
    {"aten.isinf.default", k_isinf},
    {"aten.isnan.default", k_isnan},
    {"aten.isneginf.default", k_isneginf},
    {"aten.isposinf.default", k_isposinf},
    {"aten.leaky_relu.default", k_leaky_relu},
    {"aten.leaky_relu_.default", k_leaky_relu},
    {"aten.lgamma.default", k_lgamma},
    {"aten.lgamma_.default", k_lgamma},
    {"aten.log.default", k_log},
    {"aten.log10.default", k_log10},
    {"aten.log10_.default", k_log10},
    {"aten.log1p.default", k_log1p},
    {"aten.log1p_.default", k_log1p},
    {"aten.log2.default", k_log2},
    {"aten.log2_.default", k_log2},
    {"aten.log_.default", k_log},
    {"aten.log_sigmoid_forward.default", k_log_sigmoid_forward},
    {"aten.logical_not.default", k_logical_not},
    {"aten.logical_not_.default", k_logical_not},
    {"aten.logit.default", k_logit},
    {"aten.logit_.default", k_logit},
    {"aten.mish.default", k_mish},
    {"aten.mish_.default", k_mish},
    {"aten.mvlgamma.default", airc_cpu_k_mvlgamma},
    {"aten.nan_to_num.default", k_nan_to_num},
    {"aten.nan_to_num_.default", k_nan_to_num},
    {"aten.neg.default", k_neg},
    {"aten.neg_.default", k_neg},
    {"aten.polygamma.default", k_polygamma},
    {"aten.polygamma_.default", k_polygamma},
    {"aten.rad2deg.default", k_rad2deg},
    {"aten.rad2deg_.default", k_rad2deg},
    {"aten.reciprocal.default", k_reciprocal},
    {"aten.reciprocal_.default", k_reciprocal},
    {"aten.relu.default", k_relu},
    {"aten.relu_.default", k_relu},
    {"aten.round.decimals", k_round_decimals},
    {"aten.round.default", k_round},
    {"aten.round_.default", k_round},
    {"aten.rrelu_with_noise.default", k_rrelu_with_noise},
    {"aten.rsqrt.default", k_rsqrt},
    {"aten.rsqrt_.default", k_rsqrt},
    {"aten.sgn.default", k_sign},
    {"aten.sgn_.default", k_sign},
    {"aten.sigmoid.default", k_sigmoid},
    {"aten.sigmoid_.default", k_sigmoid},
    {"aten.sign.default", k_sign},
    {"aten.sign_.default", k_sign},
    {"aten.signbit.default", k_signbit},
    {"aten.silu.default", k_silu},
    {"aten.silu_.default", k_silu},
    {"aten.sin.default", k_sin},
    {"aten.sin_.default", k_sin},
    {"aten.sinc.default", k_sinc},
    {"aten.sinc_.default", k_sinc},
    {"aten.sinh.default", k_sinh},
    {"aten.sinh_.default", k_sinh},
    {"aten.softplus.default", k_softplus},
    {"aten.softshrink.default", k_softshrink},
    {"aten.special_airy_ai.default", k_airy_ai},
    {"aten.special_bessel_j0.default", k_bessel_j0},
    {"aten.special_bessel_j1.default", k_bessel_j1},
    {"aten.special_bessel_y0.default", k_bessel_y0},
    {"aten.special_bessel_y1.default", k_bessel_y1},
    {"aten.special_entr.default", k_entr},
    {"aten.special_erfcx.default", k_erfcx},
    {"aten.special_i0e.default", k_i0e},
    {"aten.special_i1.default", k_i1},
    {"aten.special_i1e.default", k_i1e},
    {"aten.special_log_ndtr.default", k_log_ndtr},
    {"aten.special_modified_bessel_i0.default", k_modified_bessel_i0},
    {"aten.special_modified_bessel_i1.default", k_modified_bessel_i1},
    {"aten.special_modified_bessel_k0.default", k_modified_bessel_k0},
    {"aten.special_modified_bessel_k1.default", k_modified_bessel_k1},
    {"aten.special_ndtri.default", k_ndtri},
    {"aten.special_scaled_modified_bessel_k0.default", k_scaled_modified_bessel_k0},
    {"aten.special_scaled_modified_bessel_k1.default", k_scaled_modified_bessel_k1},
    {"aten.special_spherical_bessel_j0.default", k_spherical_bessel_j0},
    {"aten.sqrt.default", k_sqrt},
    {"aten.sqrt_.default", k_sqrt},
    {"aten.tan.default", k_tan},
    {"aten.tan_.default", k_tan},
    {"aten.tanh.default", k_tanh},
    {"aten.tanh_.default", k_tanh},
    {"aten.threshold.default", k_threshold},
    {"aten.threshold_.default", k_threshold},
    {"aten.to.device", k_copy},
    {"aten.to.dtype", k_copy},
    {"aten.to.dtype_layout", k_copy},
    {"aten.trunc.default", k_trunc},
    {"aten.trunc_.default", k_trunc},
};
const size_t airc_cpu_num_kernels_unary =
    sizeof airc_cpu_kernels_unary / sizeof airc_cpu_kernels_unary[0];
