/* Built-in CPU kernels: binary family (add .. where, masked_fill, clamp,
 * pow, remainder, fmod, floor_divide, atan2, bitwise and/or/xor,
 * heaviside, prelu, glu, logaddexp2, xlog1py, igamma / igammac, zeta,
 * nextafter, gcd / lcm) and
 * their in-place twins, which share the function (the executor
 * hands out[0] = self). Every op computes in the compute type of torch's
 * result type of its operands (f32 for f16/bf16/f32, f64, or int64 with
 * wrapping arithmetic) and the engine converts on the way in and out;
 * comparisons write bool. A number given for a Tensor argument is a
 * wrapped-number operand, as in torch. */
#include "backends/cpu/cpu_kernels.h"
#include "backends/cpu/ew.h"
#include "backends/cpu/k_bessel.h"
#include "backends/cpu/k_math.h"
#include "backends/cpu/k_special.h"
#include "backends/cpu/k_strided.h"
#include "ops/meta_util.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define FN_ARGS airc_ew *op, int64_t n, void *out, const void *const *in, const int *inc

/* Two-input map with a loop per broadcast pattern, so the common ones
 * (tensor-tensor, tensor-scalar) vectorize. pf/pi: the op's first
 * parameter (alpha) as a loop invariant. */
#define BIN(T, R, NAME, EXPR)                                                                      \
    static void NAME(FN_ARGS)                                                                      \
    {                                                                                              \
        const double pf = op->f[0];                                                                \
        const int64_t pi = op->i[0];                                                               \
        (void)pf;                                                                                  \
        (void)pi;                                                                                  \
        R *o = out;                                                                                \
        const T *pa = in[0], *pb = in[1];                                                          \
        if (inc[0] && inc[1]) {                                                                    \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const T a = pa[i], b = pb[i];                                                      \
                o[i] = (EXPR);                                                                     \
            }                                                                                      \
        } else if (inc[0]) {                                                                       \
            const T b = pb[0];                                                                     \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const T a = pa[i];                                                                 \
                o[i] = (EXPR);                                                                     \
            }                                                                                      \
        } else if (inc[1]) {                                                                       \
            const T a = pa[0];                                                                     \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const T b = pb[i];                                                                 \
                o[i] = (EXPR);                                                                     \
            }                                                                                      \
        } else {                                                                                   \
            const T a = pa[0], b = pb[0];                                                          \
            const R r = (EXPR);                                                                    \
            for (int64_t i = 0; i < n; i++)                                                        \
                o[i] = r;                                                                          \
        }                                                                                          \
    }

/* NaN-propagating maximum/minimum (torch.maximum, clamp_min/max) */
#define MAXP(a, b) ((a) != (a) ? (a) : (b) != (b) ? (b) : (a) < (b) ? (b) : (a))
#define MINP(a, b) ((a) != (a) ? (a) : (b) != (b) ? (b) : (b) < (a) ? (b) : (a))

/* ---- floating ---------------------------------------------------------- */

/* f16/bf16 (the dtype in op->i[1]): where torch's half kernels round an
 * intermediate to the half type on every path, so do these; f32: v */
static inline float round_half(int64_t dt, float v)
{
    return dt == AIRC_DTYPE_F16    ? airc_f16_to_f32(airc_f32_to_f16(v))
           : dt == AIRC_DTYPE_BF16 ? airc_bf16_to_f32(airc_f32_to_bf16(v))
                                   : v;
}

/* torch's div_floor_floating: Python's // on floats. Over c10::Half and
 * BFloat16 (its scalar kernel) fmod, the quotient and the -1 are float
 * (Half - float is float), but floor(div) and floordiv + 1 are stored in
 * the half type, so 10852.03 in f16 is 10848 (10852 rounds to even, and
 * 10849 back to 10848). */
static inline float floordiv_half(int64_t dt, float a, float b)
{
    if (b == 0)
        return a / b;
    float mod = fmodf(a, b);
    float div = (a - mod) / b;
    if (mod != 0 && (b < 0) != (mod < 0))
        div -= 1;
    if (div == 0)
        return copysignf(0.0f, a / b);
    float fl = round_half(dt, floorf(div));
    return div - fl > 0.5f ? round_half(dt, fl + 1.0f) : fl;
}

static inline float floordiv_f32(float a, float b)
{
    return floordiv_half(AIRC_DTYPE_F32, a, b);
}

static inline double floordiv_f64(double a, double b)
{
    if (b == 0)
        return a / b;
    double mod = fmod(a, b);
    double div = (a - mod) / b;
    if (mod != 0 && (b < 0) != (mod < 0))
        div -= 1;
    if (div == 0)
        return copysign(0.0, a / b);
    double fl = floor(div);
    return div - fl > 0.5 ? fl + 1.0 : fl;
}

#define FLOAT_OPS(T, S, FLOOR_DIV, TRUNC)                                                          \
    BIN(T, T, add1_##S, a + b)                                                                     \
    BIN(T, T, add_##S, a + (T)pf * b)                                                              \
    BIN(T, T, sub1_##S, a - b)                                                                     \
    BIN(T, T, sub_##S, a - (T)pf * b)                                                              \
    BIN(T, T, mul_##S, a * b)                                                                      \
    BIN(T, T, div_##S, a / b)                                                                      \
    BIN(T, T, div_trunc_##S, TRUNC(a / b))                                                         \
    BIN(T, T, div_floor_##S, FLOOR_DIV(a, b))                                                      \
    BIN(T, T, max_##S, MAXP(a, b))                                                                 \
    BIN(T, T, min_##S, MINP(a, b))                                                                 \
    BIN(T, uint8_t, eq_##S, a == b)                                                                \
    BIN(T, uint8_t, ne_##S, a != b)                                                                \
    BIN(T, uint8_t, lt_##S, a < b)                                                                 \
    BIN(T, uint8_t, le_##S, a <= b)                                                                \
    BIN(T, uint8_t, gt_##S, a > b)                                                                 \
    BIN(T, uint8_t, ge_##S, a >= b)

FLOAT_OPS(float, f32, floordiv_f32, truncf)
FLOAT_OPS(double, f64, floordiv_f64, trunc)

/* the quotient is a half value before it is truncated (29.97 is 30.0 in
 * bf16); f16's a + alpha * b rounds alpha * b first (bf16's vectorized
 * path does not, its scalar one does: airc follows the vectorized one) */
BIN(float, float, div_trunc_half, truncf(round_half(op->i[1], a / b)))
BIN(float, float, div_floor_half, floordiv_half(op->i[1], a, b))
BIN(float, float, add_half, a + round_half(op->i[1], (float)pf * b))
BIN(float, float, sub_half, a - round_half(op->i[1], (float)pf * b))
BIN(double, double, pow_f64, pow(a, b))

static void pow_f32(FN_ARGS)
{
    (void)op;
    airc_vm_pow_f32(n, in[0], inc[0], in[1], inc[1], out);
}

/* pow with the exponent a number torch special-cases (one input, self) */
#define POW_SPECIAL(T, S, SQRT)                                                                    \
    static void pow_sq_##S(FN_ARGS)                                                                \
    {                                                                                              \
        (void)op, (void)inc;                                                                       \
        T *o = out;                                                                                \
        const T *a = in[0];                                                                        \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i] = a[i] * a[i];                                                                    \
    }                                                                                              \
    static void pow_cube_##S(FN_ARGS)                                                              \
    {                                                                                              \
        (void)op, (void)inc;                                                                       \
        T *o = out;                                                                                \
        const T *a = in[0];                                                                        \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i] = a[i] * a[i] * a[i];                                                             \
    }                                                                                              \
    static void pow_inv_##S(FN_ARGS)                                                               \
    {                                                                                              \
        (void)op, (void)inc;                                                                       \
        T *o = out;                                                                                \
        const T *a = in[0];                                                                        \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i] = (T)1 / a[i];                                                                    \
    }                                                                                              \
    static void pow_inv_sq_##S(FN_ARGS)                                                            \
    {                                                                                              \
        (void)op, (void)inc;                                                                       \
        T *o = out;                                                                                \
        const T *a = in[0];                                                                        \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i] = (T)1 / (a[i] * a[i]);                                                           \
    }                                                                                              \
    static void pow_sqrt_##S(FN_ARGS)                                                              \
    {                                                                                              \
        (void)op, (void)inc;                                                                       \
        SQRT(n, in[0], out);                                                                       \
    }                                                                                              \
    static void pow_rsqrt_##S(FN_ARGS)                                                             \
    {                                                                                              \
        (void)op, (void)inc;                                                                       \
        T *o = out;                                                                                \
        SQRT(n, in[0], o);                                                                         \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i] = (T)1 / o[i];                                                                    \
    }

static void sqrt_f32_map(int64_t n, const float *x, float *y)
{
    airc_vm_f32(AIRC_VM_SQRT, n, x, y);
}

static void sqrt_f64_map(int64_t n, const double *x, double *y)
{
    for (int64_t i = 0; i < n; i++)
        y[i] = sqrt(x[i]);
}
POW_SPECIAL(float, f32, sqrt_f32_map)
POW_SPECIAL(double, f64, sqrt_f64_map)

/* torch's remainder: fmod, moved into the divisor's sign */
static inline double remainder_d(double a, double b)
{
    double m = fmod(a, b);
    return m != 0 && ((b < 0) != (m < 0)) ? m + b : m;
}
static inline float remainder_f(float a, float b)
{
    float m = fmodf(a, b);
    return m != 0 && ((b < 0) != (m < 0)) ? m + b : m;
}
BIN(float, float, remainder_f32, remainder_f(a, b))
BIN(double, double, remainder_f64, remainder_d(a, b))
BIN(float, float, fmod_f32, fmodf(a, b))
BIN(double, double, fmod_f64, fmod(a, b))
BIN(float, float, atan2_f32, atan2f(a, b))
BIN(double, double, atan2_f64, atan2(a, b))
/* copysign moves the sign bit (a NaN's too); hypot has no undue overflow */
BIN(float, float, copysign_f32, copysignf(a, b))
BIN(double, double, copysign_f64, copysign(a, b))
BIN(float, float, hypot_f32, hypotf(a, b))
BIN(double, double, hypot_f64, hypot(a, b))
/* fmax / fmin ignore a NaN operand (C's fmax) */
BIN(float, float, fmax_f32, fmaxf(a, b))
BIN(double, double, fmax_f64, fmax(a, b))
BIN(float, float, fmin_f32, fminf(a, b))
BIN(double, double, fmin_f64, fmin(a, b))
/* torch's logaddexp: max + log1p(exp(-|a - b|)), but a when both are the
 * same infinity; xlogy: NaN for a NaN y, 0 for x 0, else x log(y) */
BIN(float, float, logaddexp_f32,
    isinf(a) && a == b ? a : (a < b ? b : a) + log1pf(expf(-fabsf(a - b))))
BIN(double, double, logaddexp_f64,
    isinf(a) && a == b ? a : (a < b ? b : a) + log1p(exp(-fabs(a - b))))
/* heaviside: values where self is 0, else self > 0 (NaN: 0) */
BIN(float, float, heaviside_f32, a == 0 ? b : (float)(a > 0))
BIN(double, double, heaviside_f64, a == 0 ? b : (double)(a > 0))
BIN(int64_t, int64_t, heaviside_i64, a == 0 ? b : (int64_t)(a > 0))
BIN(float, float, xlogy_f32, b != b ? b : a == 0 ? 0.0f : a * logf(b))
BIN(double, double, xlogy_f64, b != b ? b : a == 0 ? 0.0 : a * log(b))

/* logaddexp2: max + log1p(exp2(-|a - b|)) / log(2), a when both are the
 * same infinity (torch's); xlog1py as xlogy with log1p; igamma / igammac
 * and the Hurwitz zeta in double (k_special.c) */
BIN(float, float, logaddexp2_f32,
    isinf(a) && a == b ? a
                       : (a < b ? b : a) + log1pf(exp2f(-fabsf(a - b))) * 1.44269504088896340736f)
BIN(double, double, logaddexp2_f64,
    isinf(a) && a == b ? a : (a < b ? b : a) + log1p(exp2(-fabs(a - b))) * 1.44269504088896340736)
BIN(float, float, xlog1py_f32, b != b ? b : a == 0 ? 0.0f : a * log1pf(b))
BIN(double, double, xlog1py_f64, b != b ? b : a == 0 ? 0.0 : a * log1p(b))
BIN(float, float, igamma_f32, (float)airc_igamma(a, b))
BIN(double, double, igamma_f64, airc_igamma(a, b))
BIN(float, float, igammac_f32, (float)airc_igammac(a, b))
BIN(double, double, igammac_f64, airc_igammac(a, b))
BIN(float, float, zeta_f32, (float)airc_zeta(a, b))
BIN(double, double, zeta_f64, airc_zeta(a, b))
/* torch.special's orthogonal polynomials of (x, n), f32 in float
 * (k_bessel.c) */
#define POLY_BIN(name)                                                                             \
    BIN(float, float, name##_k32, airc_##name##_f32(a, b, &op->status))                            \
    BIN(double, double, name##_k64, airc_##name##_f64(a, b, &op->status))
AIRC_BESSEL_POLY(POLY_BIN)
#undef POLY_BIN

/* nextafter of bf16 (i[1]) steps in bf16's own bit pattern (musl's rule,
 * as c10's BFloat16 nextafter): the f32 step would round back */
static inline float nextafter_half(int64_t dt, float a, float b)
{
    if (dt != AIRC_DTYPE_BF16)
        return nextafterf(a, b);
    if (a != a || b != b)
        return a + b;
    uint16_t ua = airc_f32_to_bf16(a), ub = airc_f32_to_bf16(b), sign = 0x8000;
    if (ua == ub)
        return a;
    uint16_t abs_a = ua & ~sign & 0xffff, abs_b = ub & ~sign & 0xffff;
    if (abs_a == 0)
        return abs_b == 0 ? b : airc_bf16_to_f32((uint16_t)((ub & sign) | 1));
    ua = (abs_a > abs_b || ((ua ^ ub) & sign)) ? (uint16_t)(ua - 1) : (uint16_t)(ua + 1);
    return airc_bf16_to_f32(ua);
}
BIN(float, float, nextafter_f32, nextafter_half(op->i[1], a, b))
BIN(double, double, nextafter_f64, nextafter(a, b))

/* gcd / lcm as torch's on the dtype dt (i[1]): |a| and |b| wrap in it
 * first (|-128| is -128 in int8, so gcd(-128, 6) is -2), then Euclid's
 * remainders; lcm = |a / g * b| with wrapping, 0 when g is. A wrapped
 * |INT_MIN| can make g -1 (gcd(INT64_MIN, INT64_MAX)), where torch's
 * INT64_MIN / -1 traps (SIGFPE); here x % -1 is 0 and x / -1 wraps. */
static inline int64_t abs_wrap(int64_t dt, int64_t v)
{
    return airc_cpu_round_i64((airc_dtype)dt, v < 0 ? (int64_t)(0 - (uint64_t)v) : v);
}

static inline int64_t gcd_i(int64_t dt, int64_t a, int64_t b)
{
    a = abs_wrap(dt, a);
    b = abs_wrap(dt, b);
    while (a != 0) {
        int64_t c = a;
        a = a == -1 ? 0 : b % a;
        b = c;
    }
    return b;
}

static inline int64_t lcm_i(int64_t dt, int64_t a, int64_t b)
{
    int64_t g = gcd_i(dt, a, b);
    if (g == 0)
        return 0;
    uint64_t q = g == -1 ? 0 - (uint64_t)a : (uint64_t)(a / g);
    int64_t m = (int64_t)(q * (uint64_t)b);
    if (dt == AIRC_DTYPE_I32) /* int32 multiplies in int32; int8 / int16 / uint8 in int */
        m = airc_cpu_round_i64(AIRC_DTYPE_I32, m);
    return m < 0 ? (int64_t)(0 - (uint64_t)m) : m;
}
BIN(int64_t, int64_t, gcd_i64, gcd_i(op->i[1], a, b))
BIN(int64_t, int64_t, lcm_i64, lcm_i(op->i[1], a, b))

/* ---- int64: wrapping arithmetic, as torch's integer types --------------- */

#define U64(x) ((uint64_t)(x))
BIN(int64_t, int64_t, add1_i64, (int64_t)(U64(a) + U64(b)))
BIN(int64_t, int64_t, add_i64, (int64_t)(U64(a) + U64(pi) * U64(b)))
BIN(int64_t, int64_t, sub1_i64, (int64_t)(U64(a) - U64(b)))
BIN(int64_t, int64_t, sub_i64, (int64_t)(U64(a) - U64(pi) * U64(b)))
BIN(int64_t, int64_t, mul_i64, (int64_t)(U64(a) * U64(b)))
BIN(int64_t, int64_t, max_i64, a < b ? b : a)
BIN(int64_t, int64_t, min_i64, b < a ? b : a)
BIN(int64_t, uint8_t, eq_i64, a == b)
BIN(int64_t, uint8_t, ne_i64, a != b)
BIN(int64_t, uint8_t, lt_i64, a < b)
BIN(int64_t, uint8_t, le_i64, a <= b)
BIN(int64_t, uint8_t, gt_i64, a > b)
BIN(int64_t, uint8_t, ge_i64, a >= b)
BIN(uint8_t, uint8_t, and_b8, (uint8_t)(a && b))
BIN(uint8_t, uint8_t, or_b8, (uint8_t)(a || b))
BIN(uint8_t, uint8_t, xor_b8, (uint8_t)(!a != !b))
BIN(int64_t, int64_t, band_i64, a &b)
BIN(int64_t, int64_t, bor_i64, a | b)
BIN(int64_t, int64_t, bxor_i64, a ^ b)

/* torch 1.13's shifts on the dtype dt (i[1]): C's << and >> of the value
 * promoted to int (to int64 for int64) as x86 computes them, the count
 * taken mod 32 (mod 64), the result wrapped to dt; so int8 1 << 65 is 2
 * and x >> -1 is x >> 31. A number operand is dt's first (-300 >> 1 in
 * int8 is -44 >> 1). */
static inline int64_t shift_count(int64_t dt, int64_t b)
{
    return b & (dt == AIRC_DTYPE_I64 ? 63 : 31);
}
BIN(int64_t, int64_t, lshift_i64,
    airc_cpu_round_i64((airc_dtype)op->i[1], (int64_t)(U64(a) << shift_count(op->i[1], b))))
BIN(int64_t, int64_t, rshift_i64,
    airc_cpu_round_i64((airc_dtype)op->i[1],
                       airc_cpu_round_i64((airc_dtype)op->i[1], a) >> shift_count(op->i[1], b)))

/* torch's powi: negative exponents give 0 but for bases 1 and -1 */
static inline int64_t powi(int64_t a, int64_t b)
{
    if (b < 0) {
        if (a == 1)
            return 1;
        if (a == -1)
            return (b & 1) ? -1 : 1;
        return 0;
    }
    uint64_t r = 1, x = U64(a);
    while (b) {
        if (b & 1)
            r *= x;
        b >>= 1;
        x *= x;
    }
    return (int64_t)r;
}
BIN(int64_t, int64_t, pow_i64, powi(a, b))

/* Integer division cannot trap: a zero divisor is torch's
 * "ZeroDivisionError" (checked before anything is written), INT64_MIN / -1
 * wraps to INT64_MIN instead of raising SIGFPE. */
static inline int64_t div_trunc_i(int64_t a, int64_t b)
{
    return b == -1 ? (int64_t)(0 - U64(a)) : a / b;
}

static inline int64_t div_floor_i(int64_t a, int64_t b)
{
    if (b == -1)
        return (int64_t)(0 - U64(a));
    int64_t q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0)))
        q--;
    return q;
}

static bool has_zero(airc_ew *op, int64_t n, const int64_t *b, int ib)
{
    for (int64_t i = 0; i < (ib ? n : 1); i++)
        if (!b[i]) {
            op->status = AIRC_E_RUNTIME;
            op->message = "ZeroDivisionError";
            return true;
        }
    return false;
}

#define INT_DIV(NAME, F)                                                                           \
    static void NAME(FN_ARGS)                                                                      \
    {                                                                                              \
        int64_t *o = out;                                                                          \
        const int64_t *a = in[0], *b = in[1];                                                      \
        if (has_zero(op, n, b, inc[1]))                                                            \
            return;                                                                                \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i] = F(a[i * inc[0]], b[i * inc[1]]);                                                \
    }
/* remainder takes the divisor's sign, fmod the dividend's; x % -1 is 0
 * (INT64_MIN % -1 would trap) */
static inline int64_t remainder_i(int64_t a, int64_t b)
{
    if (b == -1)
        return 0;
    int64_t r = a % b;
    return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
}

static inline int64_t fmod_i(int64_t a, int64_t b)
{
    return b == -1 ? 0 : a % b;
}
INT_DIV(div_trunc_i64, div_trunc_i)
INT_DIV(div_floor_i64, div_floor_i)
INT_DIV(remainder_i64, remainder_i)
INT_DIV(fmod_i64, fmod_i)

/* _add_relu: torch 1.13's add_clamp to [0, the largest value of self's
 * dtype] (f[1], i[2]; INT32_MAX for an int32 self next to a float), so
 * +inf is FLT_MAX; NaN stays NaN (its vectorized loop's: its scalar
 * tail's std::max gives 0, see gen_value_sweep.py's add_relu_nan); an
 * integer sum wraps in the dtype (i[1]) before it is clamped */
#define CLAMP_POS(v, MAX) ((v) != (v) ? (v) : (v) < 0 ? 0 : (v) > (MAX) ? (MAX) : (v))
BIN(float, float, add_relu_f32, CLAMP_POS(a + (float)pf * b, (float)op->f[1]))
BIN(double, double, add_relu_f64, CLAMP_POS(a + pf * b, op->f[1]))
static inline int64_t relu_wrap(const airc_ew *op, int64_t v)
{
    v = airc_cpu_round_i64((airc_dtype)op->i[1], v);
    return CLAMP_POS(v, op->i[2]);
}
BIN(int64_t, int64_t, add_relu_i64, relu_wrap(op, (int64_t)(U64(a) + U64(pi) * U64(b))))
#undef CLAMP_POS

/* ---- three inputs: where, clamp ----------------------------------------- */

#define WHERE(T, S)                                                                                \
    static void where_##S(FN_ARGS)                                                                 \
    {                                                                                              \
        (void)op;                                                                                  \
        T *o = out;                                                                                \
        const uint8_t *c = in[0];                                                                  \
        const T *a = in[1], *b = in[2];                                                            \
        const int ic = inc[0], ia = inc[1], ib = inc[2];                                           \
        if (ic && ia && ib) {                                                                      \
            for (int64_t i = 0; i < n; i++)                                                        \
                o[i] = c[i] ? a[i] : b[i];                                                         \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++)                                                        \
                o[i] = c[i * ic] ? a[i * ia] : b[i * ib];                                          \
        }                                                                                          \
    }
WHERE(float, f32)
WHERE(double, f64)
WHERE(int64_t, i64)

#define CLAMP_T(T, S, MAXF, MINF)                                                                  \
    static void clamp_t_##S(FN_ARGS)                                                               \
    {                                                                                              \
        (void)op;                                                                                  \
        T *o = out;                                                                                \
        const T *x = in[0], *lo = in[1], *hi = in[2];                                              \
        const int ix = inc[0], il = inc[1], ih = inc[2];                                           \
        for (int64_t i = 0; i < n; i++) {                                                          \
            T m = MAXF(x[i * ix], lo[i * il]);                                                     \
            o[i] = MINF(m, hi[i * ih]);                                                            \
        }                                                                                          \
    }
CLAMP_T(float, f32, MAXP, MINP)
CLAMP_T(double, f64, MAXP, MINP)
#define MAXI(a, b) ((a) < (b) ? (b) : (a))
#define MINI(a, b) ((b) < (a) ? (b) : (a))
CLAMP_T(int64_t, i64, MAXI, MINI)

/* clamp with Scalar bounds: std::min(std::max(x, lo), hi) as torch, so a
 * NaN bound is ignored and NaN x stays NaN; absent bounds are ±inf or the
 * int64 limits. Bounds are parameters: one input. */
#define CLAMP_S(T, S, LO, HI)                                                                      \
    static void clamp_s_##S(FN_ARGS)                                                               \
    {                                                                                              \
        (void)inc;                                                                                 \
        const T lo = (T)(LO), hi = (T)(HI);                                                        \
        T *o = out;                                                                                \
        const T *x = in[0];                                                                        \
        for (int64_t i = 0; i < n; i++) {                                                          \
            T m = x[i] < lo ? lo : x[i];                                                           \
            o[i] = hi < m ? hi : m;                                                                \
        }                                                                                          \
    }
CLAMP_S(float, f32, op->f[0], op->f[1])
CLAMP_S(double, f64, op->f[0], op->f[1])
CLAMP_S(int64_t, i64, op->i[0], op->i[1])

/* torch's clamp with both Scalar bounds and one of them NaN fills the
 * result with NaN (clamp_out checks before the kernel) */
#define NAN_FILL(T, S)                                                                             \
    static void nan_fill_##S(FN_ARGS)                                                              \
    {                                                                                              \
        (void)op, (void)in, (void)inc;                                                             \
        T *o = out;                                                                                \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i] = (T)NAN;                                                                         \
    }
NAN_FILL(float, f32)
NAN_FILL(double, f64)

/* ---- kernels ------------------------------------------------------------ */

typedef struct fn3 {
    airc_ew_fn f32, f64, i64;
} fn3;

static airc_ew_fn pick(fn3 f, airc_dtype ct)
{
    return ct == AIRC_DTYPE_F32 ? f.f32 : ct == AIRC_DTYPE_F64 ? f.f64 : f.i64;
}

static airc_status no_kernel(const airc_kernel_ctx *k, airc_dtype ct)
{
    return airc_fail(AIRC_E_UNSUPPORTED, "%s: no kernel for compute dtype %s", airc_ew_name(k),
                     airc_dtype_name(ct));
}

static airc_status check_out(const airc_kernel_ctx *k)
{
    if (k->nout < 1 || !k->out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: no output", airc_ew_name(k));
    return AIRC_OK;
}

/* Runs a two-operand op over arguments a0 and a1 (tensors or numbers). */
static airc_status run2(airc_kernel_ctx *k, airc_ew *op, uint32_t a0, uint32_t a1)
{
    airc_ew_scalar s[2];
    airc_tview tmp[2];
    const airc_tview *in[2];
    bool present[2];
    AIRC_TRY(
        airc_ew_operand(k, a0, op->in_type[0], op->common, &s[0], &tmp[0], &in[0], &present[0]));
    AIRC_TRY(
        airc_ew_operand(k, a1, op->in_type[1], op->common, &s[1], &tmp[1], &in[1], &present[1]));
    if (!present[0] || !present[1])
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: an operand is None", airc_ew_name(k));
    op->nin = 2;
    airc_status st = airc_ew_run(op, &k->out[0], in);
    if (st != AIRC_OK)
        return airc_fail_prefix("%s", airc_ew_name(k));
    return AIRC_OK;
}

typedef enum arith_kind {
    A_ADD,
    A_SUB,
    A_RSUB,
    A_MUL,
    A_DIV,
    A_MAX,
    A_MIN,
    A_FLOOR_DIVIDE,
    A_REMAINDER,
    A_FMOD,
    A_ATAN2,
    A_COPYSIGN,
    A_HYPOT,
    A_FMAX,
    A_FMIN,
    A_LOGADDEXP,
    A_XLOGY,
    A_XLOG1PY,
    A_ZETA,
    A_LOGADDEXP2,
    A_IGAMMA,
    A_IGAMMAC,
    A_NEXTAFTER,
    A_GCD,
    A_LCM,
    A_HEAVISIDE,
    A_BITWISE_AND,
    A_BITWISE_OR,
    A_BITWISE_XOR,
    A_LSHIFT,
    A_RSHIFT,
    A_ADD_RELU,
#define POLY_KIND(name) A_##name,
    AIRC_BESSEL_POLY(POLY_KIND)
#undef POLY_KIND
} arith_kind;

/* the kernels of a polynomial's kind (false for any other kind) */
static bool poly_fns(arith_kind kind, fn3 *f)
{
    switch (kind) {
#define POLY_CASE(name)                                                                            \
    case A_##name: *f = (fn3){name##_k32, name##_k64, NULL}; return true;
        AIRC_BESSEL_POLY(POLY_CASE)
#undef POLY_CASE
    default: return false;
    }
}

static airc_status arith(airc_kernel_ctx *k, arith_kind kind)
{
    AIRC_TRY(check_out(k));
    static const uint32_t operands[] = {0, 1};
    airc_dtype rt = airc_ew_result_type(k, operands, 2);
    airc_dtype ct = airc_ew_compute_type(rt);
    airc_ew op;
    memset(&op, 0, sizeof op);
    op.threads = k->num_threads;
    op.common = rt;
    fn3 f = {NULL, NULL, NULL}, poly = {NULL, NULL, NULL};
    if (kind == A_ADD || kind == A_SUB || kind == A_RSUB) {
        AIRC_TRY(airc_ew_arg_double(k, 2, 1.0, &op.f[0]));
        AIRC_TRY(airc_ew_arg_int(k, 2, 1, &op.i[0]));
        /* torch converts alpha to the common dtype (alpha.to<scalar_t>()):
         * 70000 is 70144 in bf16 */
        if (rt == AIRC_DTYPE_F16 || rt == AIRC_DTYPE_BF16) {
            uint16_t h;
            airc_cpu_cast(rt, &h, 1, AIRC_DTYPE_F64, &op.f[0], 1, 1);
            airc_cpu_cast(AIRC_DTYPE_F64, &op.f[0], 1, rt, &h, 1, 1);
        } else if (rt == AIRC_DTYPE_BOOL) { /* bool(alpha): add(a, b, alpha=-1) is a or b */
            op.i[0] = op.i[0] != 0 || op.f[0] != 0;
            op.f[0] = (double)op.i[0];
        }
        bool one = ct == AIRC_DTYPE_I64 ? op.i[0] == 1 : op.f[0] == 1.0;
        if (kind == A_ADD)
            f = one ? (fn3){add1_f32, add1_f64, add1_i64} : (fn3){add_f32, add_f64, add_i64};
        else
            f = one ? (fn3){sub1_f32, sub1_f64, sub1_i64} : (fn3){sub_f32, sub_f64, sub_i64};
        if (!one && rt == AIRC_DTYPE_F16)
            f.f32 = kind == A_ADD ? add_half : sub_half;
    } else if (kind == A_MUL) {
        f = (fn3){mul_f32, mul_f64, mul_i64};
    } else if (kind == A_MAX) {
        f = (fn3){max_f32, max_f64, max_i64};
    } else if (kind == A_MIN) {
        f = (fn3){min_f32, min_f64, min_i64};
    } else if (kind == A_REMAINDER) {
        f = (fn3){remainder_f32, remainder_f64, remainder_i64};
    } else if (kind == A_FMOD) {
        f = (fn3){fmod_f32, fmod_f64, fmod_i64};
    } else if (kind == A_ATAN2 || kind == A_XLOGY || kind == A_COPYSIGN || kind == A_HYPOT ||
               kind == A_XLOG1PY || kind == A_ZETA || poly_fns(kind, &poly)) {
        if (ct == AIRC_DTYPE_I64) { /* integers in float, as true division */
            ct = AIRC_DTYPE_F32;
            op.common = AIRC_DTYPE_UNDEFINED;
        }
        f = kind == A_ATAN2      ? (fn3){atan2_f32, atan2_f64, NULL}
            : kind == A_XLOGY    ? (fn3){xlogy_f32, xlogy_f64, NULL}
            : kind == A_COPYSIGN ? (fn3){copysign_f32, copysign_f64, NULL}
            : kind == A_XLOG1PY  ? (fn3){xlog1py_f32, xlog1py_f64, NULL}
            : kind == A_ZETA     ? (fn3){zeta_f32, zeta_f64, NULL}
            : poly.f32           ? poly
                                 : (fn3){hypot_f32, hypot_f64, NULL};
        if (poly.f32)
            op.message = "the degree's recurrence would run past 2^20 steps per element (as "
                         "torch's loop does): refused";
    } else if (kind == A_FMAX) {
        f = (fn3){fmax_f32, fmax_f64, max_i64};
    } else if (kind == A_FMIN) {
        f = (fn3){fmin_f32, fmin_f64, min_i64};
    } else if (kind == A_HEAVISIDE) {
        f = (fn3){heaviside_f32, heaviside_f64, heaviside_i64};
    } else if (kind == A_LOGADDEXP) {
        f = (fn3){logaddexp_f32, logaddexp_f64, NULL};
    } else if (kind == A_LOGADDEXP2) {
        f = (fn3){logaddexp2_f32, logaddexp2_f64, NULL};
    } else if (kind == A_IGAMMA || kind == A_IGAMMAC) {
        f = kind == A_IGAMMA ? (fn3){igamma_f32, igamma_f64, NULL}
                             : (fn3){igammac_f32, igammac_f64, NULL};
    } else if (kind == A_NEXTAFTER) {
        f = (fn3){nextafter_f32, nextafter_f64, NULL};
    } else if (kind == A_GCD || kind == A_LCM) {
        f = (fn3){NULL, NULL, kind == A_GCD ? gcd_i64 : lcm_i64};
    } else if (kind == A_BITWISE_AND || kind == A_BITWISE_OR || kind == A_BITWISE_XOR) {
        f = (fn3){NULL, NULL,
                  kind == A_BITWISE_AND  ? band_i64
                  : kind == A_BITWISE_OR ? bor_i64
                                         : bxor_i64};
    } else if (kind == A_ADD_RELU) {
        /* alpha converts to the result's dtype (a float alpha truncated for integers) */
        AIRC_TRY(airc_ew_arg_double(k, 2, 1.0, &op.f[0]));
        AIRC_TRY(airc_ew_arg_int(k, 2, 1, &op.i[0]));
        f = (fn3){add_relu_f32, add_relu_f64, add_relu_i64};
        airc_dtype self = k->nargs && k->in && k->in[0] ? k->in[0]->dtype : rt;
        op.i[2] = self == AIRC_DTYPE_I8    ? INT8_MAX
                  : self == AIRC_DTYPE_I16 ? INT16_MAX
                  : self == AIRC_DTYPE_I32 ? INT32_MAX
                                           : INT64_MAX;
        op.f[1] = self == AIRC_DTYPE_F64   ? DBL_MAX
                  : self == AIRC_DTYPE_F32 ? FLT_MAX
                                           : (double)op.i[2];
    } else if (kind == A_LSHIFT || kind == A_RSHIFT) {
        f = (fn3){NULL, NULL, kind == A_LSHIFT ? lshift_i64 : rshift_i64};
    } else if (kind == A_FLOOR_DIVIDE) {
        f = (fn3){div_floor_f32, div_floor_f64, div_floor_i64};
        if (rt == AIRC_DTYPE_F16 || rt == AIRC_DTYPE_BF16)
            f.f32 = div_floor_half;
    } else {
        const char *mode = k->nargs > 2 ? airc_ew_arg_string(k, 2) : NULL;
        if (!mode) {
            if (ct == AIRC_DTYPE_I64) {
                ct = AIRC_DTYPE_F32; /* true division of integers, in float */
                op.common = AIRC_DTYPE_UNDEFINED;
            }
            f = (fn3){div_f32, div_f64, NULL};
        } else if (!strcmp(mode, "trunc")) {
            f = (fn3){div_trunc_f32, div_trunc_f64, div_trunc_i64};
            if (rt == AIRC_DTYPE_F16 || rt == AIRC_DTYPE_BF16)
                f.f32 = div_trunc_half;
        } else if (!strcmp(mode, "floor")) {
            f = (fn3){div_floor_f32, div_floor_f64, div_floor_i64};
            if (rt == AIRC_DTYPE_F16 || rt == AIRC_DTYPE_BF16)
                f.f32 = div_floor_half;
        } else {
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "%s: rounding_mode must be None, 'trunc' or 'floor', not '%s'",
                             airc_ew_name(k), mode);
        }
    }
    op.fn = pick(f, ct);
    if (!op.fn)
        return no_kernel(k, ct);
    op.i[1] = rt; /* the half variants' dtype */
    op.in_type[0] = op.in_type[1] = op.out_type = ct;
    /* rsub(self, other) = other - alpha * self */
    return kind == A_RSUB ? run2(k, &op, 1, 0) : run2(k, &op, 0, 1);
}

static bool number_arg(const airc_kernel_ctx *k, uint32_t i, double *v)
{
    if (i >= k->nargs || (k->in && k->in[i]))
        return false;
    const airc_value *a = k->args[i];
    if (!a || (airc_value_get_kind(a) != AIRC_VALUE_FLOAT &&
               airc_value_get_kind(a) != AIRC_VALUE_INT))
        return false;
    return airc_value_get_float(a, v) == AIRC_OK;
}

static airc_status k_pow(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    AIRC_TRY(check_out(k));
    static const uint32_t operands[] = {0, 1};
    airc_dtype rt = airc_ew_result_type(k, operands, 2), ct = airc_ew_compute_type(rt);
    airc_ew op;
    memset(&op, 0, sizeof op);
    op.threads = k->num_threads;
    op.common = rt; /* a number exponent converts to it: 2.1 is 2.09375 in bf16 */
    op.in_type[0] = op.in_type[1] = op.out_type = ct;
    double e;
    bool scalar_exp = number_arg(k, 1, &e) && k->in && k->in[0];
    if (scalar_exp && ct == AIRC_DTYPE_I64 && e < 0)
        return airc_fail(AIRC_E_RUNTIME,
                         "%s: Integers to negative integer powers are not allowed.",
                         airc_ew_name(k));
    /* torch's f16 kernel is std::pow for every exponent (pow(-inf, 0.5)
     * is inf there, sqrt's nan for the other float types) */
    if (scalar_exp && ct != AIRC_DTYPE_I64 && rt != AIRC_DTYPE_F16) {
        bool f32 = ct == AIRC_DTYPE_F32;
        if (e == 2.0)
            op.fn = f32 ? pow_sq_f32 : pow_sq_f64;
        else if (e == 3.0)
            op.fn = f32 ? pow_cube_f32 : pow_cube_f64;
        else if (e == 0.5)
            op.fn = f32 ? pow_sqrt_f32 : pow_sqrt_f64;
        else if (e == -0.5)
            op.fn = f32 ? pow_rsqrt_f32 : pow_rsqrt_f64;
        else if (e == -1.0)
            op.fn = f32 ? pow_inv_f32 : pow_inv_f64;
        else if (e == -2.0)
            op.fn = f32 ? pow_inv_sq_f32 : pow_inv_sq_f64;
        if (op.fn) {
            op.nin = 1;
            op.contiguous = true;
            const airc_tview *self = k->in[0];
            airc_status st = airc_ew_run(&op, &k->out[0], &self);
            return st == AIRC_OK ? st : airc_fail_prefix("%s", airc_ew_name(k));
        }
    }
    op.fn = pick((fn3){pow_f32, pow_f64, pow_i64}, ct);
    return run2(k, &op, 0, 1);
}

typedef enum cmp_kind { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE } cmp_kind;

static airc_status compare(airc_kernel_ctx *k, cmp_kind kind)
{
    AIRC_TRY(check_out(k));
    static const uint32_t operands[] = {0, 1};
    airc_dtype rt = airc_ew_result_type(k, operands, 2), ct = airc_ew_compute_type(rt);
    static const fn3 fns[] = {
        {eq_f32, eq_f64, eq_i64}, {ne_f32, ne_f64, ne_i64}, {lt_f32, lt_f64, lt_i64},
        {le_f32, le_f64, le_i64}, {gt_f32, gt_f64, gt_i64}, {ge_f32, ge_f64, ge_i64},
    };
    airc_ew op;
    memset(&op, 0, sizeof op);
    op.threads = k->num_threads;
    op.fn = pick(fns[kind], ct);
    op.common = rt;
    op.in_type[0] = op.in_type[1] = ct;
    op.out_type = AIRC_DTYPE_BOOL;
    return run2(k, &op, 0, 1);
}

static airc_status logical(airc_kernel_ctx *k, airc_ew_fn fn)
{
    AIRC_TRY(check_out(k));
    static const uint32_t operands[] = {0, 1};
    airc_ew op;
    memset(&op, 0, sizeof op);
    op.threads = k->num_threads;
    /* torch's comparison_op iterator: operands take their common dtype
     * before they are read as bool */
    op.common = airc_ew_result_type(k, operands, 2);
    op.fn = fn;
    op.in_type[0] = op.in_type[1] = op.out_type = AIRC_DTYPE_BOOL;
    return run2(k, &op, 0, 1);
}

/* out = cond ? a : b over arguments c, a, b (a and b tensors or numbers). */
static airc_status select3(airc_kernel_ctx *k, uint32_t c, uint32_t a, uint32_t b)
{
    AIRC_TRY(check_out(k));
    airc_dtype ct = airc_ew_compute_type(k->out[0].dtype);
    airc_ew op;
    memset(&op, 0, sizeof op);
    op.threads = k->num_threads;
    op.fn = pick((fn3){where_f32, where_f64, where_i64}, ct);
    op.common = k->out[0].dtype;
    op.no_common[0] = true; /* the condition */
    op.nin = 3;
    op.in_type[0] = AIRC_DTYPE_BOOL;
    op.in_type[1] = op.in_type[2] = op.out_type = ct;
    const uint32_t idx[3] = {c, a, b};
    airc_ew_scalar s[3];
    airc_tview tmp[3];
    const airc_tview *in[3];
    for (int i = 0; i < 3; i++) {
        bool present;
        AIRC_TRY(airc_ew_operand(k, idx[i], op.in_type[i], k->out[0].dtype, &s[i], &tmp[i], &in[i],
                                 &present));
        if (!present)
            return airc_fail(AIRC_E_UNSUPPORTED, "%s: argument %u is None", airc_ew_name(k),
                             (unsigned)idx[i]);
    }
    airc_status st = airc_ew_run(&op, &k->out[0], in);
    return st == AIRC_OK ? st : airc_fail_prefix("%s", airc_ew_name(k));
}

static airc_status k_where(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    return select3(k, 0, 1, 2);
}

static void mask_check_loop(void *user, int64_t n, char *const *p, const int64_t *s)
{
    bool *bad = user;
    for (int64_t i = 0; i < n && !*bad; i++)
        *bad = (uint8_t)p[0][i * s[0]] > 1;
}

/* masked_fill(self, mask, value) = where(mask, value, self); torch takes
 * a u8 mask (deprecated) but checks that it holds only 0 and 1 */
static airc_status k_masked_fill(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *mask = k->nargs > 1 && k->in ? k->in[1] : NULL;
    /* (per element it fills: an empty result checks nothing) */
    if (mask && mask->dtype == AIRC_DTYPE_U8 && airc_cpu_numel(&k->out[0]) > 0) {
        airc_iter it;
        bool bad = false;
        AIRC_TRY(airc_iter_init(&it, mask, NULL, 0));
        airc_iter_run(&it, mask_check_loop, &bad);
        if (bad)
            return airc_fail(AIRC_E_RUNTIME, "%s: Mask tensor can take 0 and 1 values only",
                             airc_ew_name(k));
    }
    /* masked_fill.Tensor: torch fills with value.item() converted to self's
     * dtype with the overflow check (Scalar values are checked in meta) */
    const airc_tview *value = k->nargs > 2 && k->in ? k->in[2] : NULL;
    if (value)
        AIRC_TRY(airc_ew_check_item(k, value, k->out[0].dtype));
    return select3(k, 1, 2, 0);
}

static bool arg_present(const airc_kernel_ctx *k, uint32_t i)
{
    if (i >= k->nargs)
        return false;
    if (k->in && k->in[i])
        return true;
    return k->args[i] && airc_value_get_kind(k->args[i]) != AIRC_VALUE_NONE;
}

/* clamp / clamp_ (Scalar? min, Scalar? max): bounds as parameters */
static airc_status k_clamp(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    AIRC_TRY(check_out(k));
    const airc_tview *self = k->nargs && k->in ? k->in[0] : NULL;
    if (!self)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: self must be a tensor", airc_ew_name(k));
    bool has_lo = arg_present(k, 1), has_hi = arg_present(k, 2);
    if (!has_lo && !has_hi)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: torch.clamp: At least one of 'min' or 'max' must not be None",
                         airc_ew_name(k));
    static const uint32_t operands[] = {0, 1, 2};
    airc_dtype rt = airc_ew_result_type(k, operands, 3), ct = airc_ew_compute_type(rt);
    airc_ew op;
    memset(&op, 0, sizeof op);
    op.threads = k->num_threads;
    AIRC_TRY(airc_ew_arg_double(k, 1, -INFINITY, &op.f[0]));
    AIRC_TRY(airc_ew_arg_double(k, 2, INFINITY, &op.f[1]));
    AIRC_TRY(airc_ew_arg_int(k, 1, INT64_MIN, &op.i[0]));
    AIRC_TRY(airc_ew_arg_int(k, 2, INT64_MAX, &op.i[1]));
    /* integer bounds convert to the result type first (-2 is 254 for u8) */
    if (has_lo)
        op.i[0] = airc_ew_wrap_int(rt, op.i[0]);
    if (has_hi)
        op.i[1] = airc_ew_wrap_int(rt, op.i[1]);
    op.fn = pick((fn3){clamp_s_f32, clamp_s_f64, clamp_s_i64}, ct);
    if (has_lo && has_hi && ct != AIRC_DTYPE_I64 && (isnan(op.f[0]) || isnan(op.f[1])))
        op.fn = pick((fn3){nan_fill_f32, nan_fill_f64, NULL}, ct);
    op.nin = 1;
    op.contiguous = true;
    op.in_type[0] = op.out_type = ct;
    airc_status st = airc_ew_run(&op, &k->out[0], &self);
    return st == AIRC_OK ? st : airc_fail_prefix("%s", airc_ew_name(k));
}

/* clamp.Tensor / clamp_.Tensor (Tensor? min, Tensor? max): NaN bounds
 * propagate, as torch's tensor overloads do */
static airc_status k_clamp_tensor(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    AIRC_TRY(check_out(k));
    bool has_lo = arg_present(k, 1), has_hi = arg_present(k, 2);
    static const uint32_t operands[] = {0, 1, 2};
    airc_dtype rt = airc_ew_result_type(k, operands, 3), ct = airc_ew_compute_type(rt);
    airc_ew op;
    memset(&op, 0, sizeof op);
    op.threads = k->num_threads;
    op.common = rt;
    op.in_type[0] = op.in_type[1] = op.in_type[2] = op.out_type = ct;
    if (has_lo && has_hi) {
        op.fn = pick((fn3){clamp_t_f32, clamp_t_f64, clamp_t_i64}, ct);
        op.nin = 3;
        airc_ew_scalar s[3];
        airc_tview tmp[3];
        const airc_tview *in[3];
        for (uint32_t i = 0; i < 3; i++) {
            bool present;
            AIRC_TRY(airc_ew_operand(k, i, ct, rt, &s[i], &tmp[i], &in[i], &present));
        }
        airc_status st = airc_ew_run(&op, &k->out[0], in);
        return st == AIRC_OK ? st : airc_fail_prefix("%s", airc_ew_name(k));
    }
    if (has_lo) {
        op.fn = pick((fn3){max_f32, max_f64, max_i64}, ct);
        return run2(k, &op, 0, 1);
    }
    if (has_hi) {
        op.fn = pick((fn3){min_f32, min_f64, min_i64}, ct);
        return run2(k, &op, 0, 2);
    }
    return airc_fail(AIRC_E_UNSUPPORTED,
                     "%s: torch.clamp: At least one of 'min' or 'max' must not be None",
                     airc_ew_name(k));
}

/* ---- gated activations: prelu, glu ------------------------------------- */

BIN(float, float, prelu_f32, a > 0 ? a : b * a)
BIN(double, double, prelu_f64, a > 0 ? a : b * a)
BIN(float, float, glu_f32, a / (1.0f + expf(-b)))
BIN(double, double, glu_f64, a / (1.0 + exp(-b)))

/* out = fn(x, y) over two views of out's shape, in f32 (or f64). */
static airc_status gated(airc_kernel_ctx *k, const airc_tview *x, const airc_tview *y, fn3 f)
{
    airc_ew op;
    memset(&op, 0, sizeof op);
    op.threads = k->num_threads;
    airc_dtype ct = airc_ew_compute_type(k->out[0].dtype);
    op.fn = pick(f, ct);
    if (!op.fn)
        return no_kernel(k, ct);
    op.nin = 2;
    op.in_type[0] = op.in_type[1] = op.out_type = ct;
    const airc_tview *in[2] = {x, y};
    airc_status st = airc_ew_run(&op, &k->out[0], in);
    return st == AIRC_OK ? st : airc_fail_prefix("%s", airc_ew_name(k));
}

/* prelu(self, weight): x > 0 ? x : w * x, weight along dim 1 (or one). */
static airc_status k_prelu(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    AIRC_TRY(check_out(k));
    const airc_tview *x = k->in ? k->in[0] : NULL, *w = k->in ? k->in[1] : NULL;
    if (!x || !w || w->ndim > 1)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: self and a 1-d weight", airc_ew_name(k));
    airc_tview wv = *w; /* [C] seen as [1, C, 1, ...], or one value */
    wv.ndim = x->ndim;
    for (int32_t d = 0; d < x->ndim; d++) {
        bool ch = d == 1 && airc_cpu_numel(w) > 1;
        wv.shape[d] = ch ? w->shape[0] : 1;
        wv.strides[d] = ch ? w->strides[0] : 0;
    }
    if (airc_cpu_numel(w) > 1 && (x->ndim < 2 || x->shape[1] != w->shape[0]))
        return airc_fail(AIRC_E_RUNTIME, "%s: weight does not match the channels", airc_ew_name(k));
    if (w->dtype == x->dtype)
        return gated(k, x, &wv, (fn3){prelu_f32, prelu_f64, NULL});
    /* another weight dtype (a bf16 self's): converted to self's first */
    airc_tview wc = *w;
    wc.dtype = x->dtype;
    airc_cpu_set_contiguous(&wc);
    if (!(wc.data = airc_malloc(k->ctx, (size_t)airc_cpu_numel(w) * airc_dtype_size(x->dtype))))
        return airc_fail_oom("prelu weight");
    airc_cpu_copy(&wc, w);
    wv.data = wc.data;
    wv.dtype = wc.dtype;
    for (int32_t d = 0; d < x->ndim; d++)
        wv.strides[d] = wv.strides[d] ? 1 : 0;
    airc_status st = gated(k, x, &wv, (fn3){prelu_f32, prelu_f64, NULL});
    airc_free(k->ctx, wc.data);
    return st;
}

/* glu(self, dim): the first half along dim times sigmoid(the second). */
static airc_status k_glu(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    AIRC_TRY(check_out(k));
    const airc_tview *x = k->in ? k->in[0] : NULL;
    int64_t dim;
    AIRC_TRY(airc_ew_arg_int(k, 1, -1, &dim));
    int32_t d = x ? airc_cpu_wrap_dim(dim, x->ndim) : -1;
    if (!x || d < 0 || d >= x->ndim || x->shape[d] % 2)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: self must halve along dim", airc_ew_name(k));
    airc_tview a = *x, b = *x;
    airc_cpu_narrow(&a, d, 0, x->shape[d] / 2);
    airc_cpu_narrow(&b, d, x->shape[d] / 2, x->shape[d] / 2);
    return gated(k, &a, &b, (fn3){glu_f32, glu_f64, NULL});
}

#define KERNEL(name, CALL)                                                                         \
    static airc_status k_##name(airc_kernel_ctx *k, void *user_data)                               \
    {                                                                                              \
        (void)user_data;                                                                           \
        return CALL;                                                                               \
    }
KERNEL(add, arith(k, A_ADD))
KERNEL(sub, arith(k, A_SUB))
KERNEL(rsub, arith(k, A_RSUB))
KERNEL(mul, arith(k, A_MUL))
KERNEL(div, arith(k, A_DIV))
KERNEL(maximum, arith(k, A_MAX))
KERNEL(minimum, arith(k, A_MIN))
/* clamp_min(x, m) is maximum(x, m) with m a tensor or a number (both NaN-
 * propagating in torch); clamp_max likewise minimum */
KERNEL(clamp_min, arith(k, A_MAX))
KERNEL(clamp_max, arith(k, A_MIN))
KERNEL(eq, compare(k, C_EQ))
KERNEL(ne, compare(k, C_NE))
KERNEL(lt, compare(k, C_LT))
KERNEL(le, compare(k, C_LE))
KERNEL(gt, compare(k, C_GT))
KERNEL(ge, compare(k, C_GE))
KERNEL(logical_and, logical(k, and_b8))
KERNEL(logical_or, logical(k, or_b8))
KERNEL(logical_xor, logical(k, xor_b8))
KERNEL(floor_divide, arith(k, A_FLOOR_DIVIDE))
KERNEL(remainder, arith(k, A_REMAINDER))
KERNEL(fmod, arith(k, A_FMOD))
KERNEL(atan2, arith(k, A_ATAN2))
KERNEL(copysign, arith(k, A_COPYSIGN))
KERNEL(hypot, arith(k, A_HYPOT))
KERNEL(fmax, arith(k, A_FMAX))
KERNEL(fmin, arith(k, A_FMIN))
KERNEL(logaddexp, arith(k, A_LOGADDEXP))
KERNEL(xlogy, arith(k, A_XLOGY))
KERNEL(xlog1py, arith(k, A_XLOG1PY))
KERNEL(zeta, arith(k, A_ZETA))
#define POLY_KERNEL(name) KERNEL(name, arith(k, A_##name))
AIRC_BESSEL_POLY(POLY_KERNEL)
#undef POLY_KERNEL
KERNEL(logaddexp2, arith(k, A_LOGADDEXP2))
KERNEL(igamma, arith(k, A_IGAMMA))
KERNEL(igammac, arith(k, A_IGAMMAC))
KERNEL(nextafter, arith(k, A_NEXTAFTER))
KERNEL(gcd, arith(k, A_GCD))
KERNEL(lcm, arith(k, A_LCM))
KERNEL(heaviside, arith(k, A_HEAVISIDE))
KERNEL(bitwise_and, arith(k, A_BITWISE_AND))
KERNEL(bitwise_or, arith(k, A_BITWISE_OR))
KERNEL(bitwise_xor, arith(k, A_BITWISE_XOR))
KERNEL(lshift, arith(k, A_LSHIFT))
KERNEL(add_relu, arith(k, A_ADD_RELU))
KERNEL(rshift, arith(k, A_RSHIFT))

/* Sorted by qualname (strcmp); a unit test checks it. */
const airc_cpu_kernel_entry airc_cpu_kernels_binary[] = {
    {"aten.__lshift__.Scalar", k_lshift},
    {"aten.__lshift__.Tensor", k_lshift},
    {"aten.__rshift__.Scalar", k_rshift},
    {"aten.__rshift__.Tensor", k_rshift},
    {"aten._add_relu.Scalar", k_add_relu},
    {"aten._add_relu.Tensor", k_add_relu},
    {"aten.add.Scalar", k_add},
    {"aten.add.Tensor", k_add},
    {"aten.add_.Scalar", k_add},
    {"aten.add_.Tensor", k_add},
    {"aten.atan2.default", k_atan2},
    {"aten.atan2_.default", k_atan2},
    {"aten.bitwise_and.Scalar", k_bitwise_and},
    {"aten.bitwise_and.Scalar_Tensor", k_bitwise_and},
    {"aten.bitwise_and.Tensor", k_bitwise_and},
    {"aten.bitwise_and_.Scalar", k_bitwise_and},
    {"aten.bitwise_and_.Tensor", k_bitwise_and},
    {"aten.bitwise_left_shift.Scalar_Tensor", k_lshift},
    {"aten.bitwise_left_shift.Tensor", k_lshift},
    {"aten.bitwise_left_shift.Tensor_Scalar", k_lshift},
    {"aten.bitwise_or.Scalar", k_bitwise_or},
    {"aten.bitwise_or.Scalar_Tensor", k_bitwise_or},
    {"aten.bitwise_or.Tensor", k_bitwise_or},
    {"aten.bitwise_or_.Scalar", k_bitwise_or},
    {"aten.bitwise_or_.Tensor", k_bitwise_or},
    {"aten.bitwise_right_shift.Scalar_Tensor", k_rshift},
    {"aten.bitwise_right_shift.Tensor", k_rshift},
    {"aten.bitwise_right_shift.Tensor_Scalar", k_rshift},
    {"aten.bitwise_xor.Scalar", k_bitwise_xor},
    {"aten.bitwise_xor.Scalar_Tensor", k_bitwise_xor},
    {"aten.bitwise_xor.Tensor", k_bitwise_xor},
    {"aten.bitwise_xor_.Scalar", k_bitwise_xor},
    {"aten.bitwise_xor_.Tensor", k_bitwise_xor},
    {"aten.clamp.Tensor", k_clamp_tensor},
    {"aten.clamp.default", k_clamp},
    {"aten.clamp_.Tensor", k_clamp_tensor},
    {"aten.clamp_.default", k_clamp},
    {"aten.clamp_max.Tensor", k_clamp_max},
    {"aten.clamp_max.default", k_clamp_max},
    {"aten.clamp_max_.Tensor", k_clamp_max},
    {"aten.clamp_max_.default", k_clamp_max},
    {"aten.clamp_min.Tensor", k_clamp_min},
    {"aten.clamp_min.default", k_clamp_min},
    {"aten.clamp_min_.Tensor", k_clamp_min},
    {"aten.clamp_min_.default", k_clamp_min},
    {"aten.copysign.Scalar", k_copysign},
    {"aten.copysign.Tensor", k_copysign},
    {"aten.copysign_.Scalar", k_copysign},
    {"aten.copysign_.Tensor", k_copysign},
    {"aten.div.Scalar", k_div},
    {"aten.div.Scalar_mode", k_div},
    {"aten.div.Tensor", k_div},
    {"aten.div.Tensor_mode", k_div},
    {"aten.div_.Scalar", k_div},
    {"aten.div_.Scalar_mode", k_div},
    {"aten.div_.Tensor", k_div},
    {"aten.div_.Tensor_mode", k_div},
    {"aten.eq.Scalar", k_eq},
    {"aten.eq.Tensor", k_eq},
    {"aten.eq_.Scalar", k_eq},
    {"aten.eq_.Tensor", k_eq},
    {"aten.floor_divide.Scalar", k_floor_divide},
    {"aten.floor_divide.default", k_floor_divide},
    {"aten.floor_divide_.Scalar", k_floor_divide},
    {"aten.floor_divide_.Tensor", k_floor_divide},
    {"aten.fmax.default", k_fmax},
    {"aten.fmin.default", k_fmin},
    {"aten.fmod.Scalar", k_fmod},
    {"aten.fmod.Tensor", k_fmod},
    {"aten.fmod_.Scalar", k_fmod},
    {"aten.fmod_.Tensor", k_fmod},
    {"aten.gcd.default", k_gcd},
    {"aten.gcd_.default", k_gcd},
    {"aten.ge.Scalar", k_ge},
    {"aten.ge.Tensor", k_ge},
    {"aten.ge_.Scalar", k_ge},
    {"aten.ge_.Tensor", k_ge},
    {"aten.glu.default", k_glu},
    {"aten.gt.Scalar", k_gt},
    {"aten.gt.Tensor", k_gt},
    {"aten.gt_.Scalar", k_gt},
    {"aten.gt_.Tensor", k_gt},
    {"aten.heaviside.default", k_heaviside},
    {"aten.heaviside_.default", k_heaviside},
    {"aten.hypot.default", k_hypot},
    {"aten.hypot_.default", k_hypot},
    {"aten.igamma.default", k_igamma},
    {"aten.igamma_.default", k_igamma},
    {"aten.igammac.default", k_igammac},
    {"aten.igammac_.default", k_igammac},
    {"aten.lcm.default", k_lcm},
    {"aten.lcm_.default", k_lcm},
    {"aten.le.Scalar", k_le},
    {"aten.le.Tensor", k_le},
    {"aten.le_.Scalar", k_le},
    {"aten.le_.Tensor", k_le},
    {"aten.logaddexp.default", k_logaddexp},
    {"aten.logaddexp2.default", k_logaddexp2},
    {"aten.logical_and.default", k_logical_and},
    {"aten.logical_and_.default", k_logical_and},
    {"aten.logical_or.default", k_logical_or},
    {"aten.logical_or_.default", k_logical_or},
    {"aten.logical_xor.default", k_logical_xor},
    {"aten.logical_xor_.default", k_logical_xor},
    {"aten.lt.Scalar", k_lt},
    {"aten.lt.Tensor", k_lt},
    {"aten.lt_.Scalar", k_lt},
    {"aten.lt_.Tensor", k_lt},
    {"aten.masked_fill.Scalar", k_masked_fill},
    {"aten.masked_fill.Tensor", k_masked_fill},
    {"aten.masked_fill_.Scalar", k_masked_fill},
    {"aten.masked_fill_.Tensor", k_masked_fill},
    {"aten.maximum.default", k_maximum},
    {"aten.minimum.default", k_minimum},
    {"aten.mul.Scalar", k_mul},
    {"aten.mul.Tensor", k_mul},
    {"aten.mul_.Scalar", k_mul},
    {"aten.mul_.Tensor", k_mul},
    {"aten.ne.Scalar", k_ne},
    {"aten.ne.Tensor", k_ne},
    {"aten.ne_.Scalar", k_ne},
    {"aten.ne_.Tensor", k_ne},
    {"aten.nextafter.default", k_nextafter},
    {"aten.nextafter_.default", k_nextafter},
    {"aten.pow.Scalar", k_pow},
    {"aten.pow.Tensor_Scalar", k_pow},
    {"aten.pow.Tensor_Tensor", k_pow},
    {"aten.pow_.Scalar", k_pow},
    {"aten.pow_.Tensor", k_pow},
    {"aten.prelu.default", k_prelu},
    {"aten.remainder.Scalar", k_remainder},
    {"aten.remainder.Scalar_Tensor", k_remainder},
    {"aten.remainder.Tensor", k_remainder},
    {"aten.remainder_.Scalar", k_remainder},
    {"aten.remainder_.Tensor", k_remainder},
    {"aten.rsub.Scalar", k_rsub},
    {"aten.rsub.Tensor", k_rsub},
    {"aten.special_chebyshev_polynomial_t.default", k_chebyshev_t},
    {"aten.special_chebyshev_polynomial_t.n_scalar", k_chebyshev_t},
    {"aten.special_chebyshev_polynomial_t.x_scalar", k_chebyshev_t},
    {"aten.special_chebyshev_polynomial_u.default", k_chebyshev_u},
    {"aten.special_chebyshev_polynomial_u.n_scalar", k_chebyshev_u},
    {"aten.special_chebyshev_polynomial_u.x_scalar", k_chebyshev_u},
    {"aten.special_chebyshev_polynomial_v.default", k_chebyshev_v},
    {"aten.special_chebyshev_polynomial_v.n_scalar", k_chebyshev_v},
    {"aten.special_chebyshev_polynomial_v.x_scalar", k_chebyshev_v},
    {"aten.special_chebyshev_polynomial_w.default", k_chebyshev_w},
    {"aten.special_chebyshev_polynomial_w.n_scalar", k_chebyshev_w},
    {"aten.special_chebyshev_polynomial_w.x_scalar", k_chebyshev_w},
    {"aten.special_hermite_polynomial_h.default", k_hermite_h},
    {"aten.special_hermite_polynomial_h.n_scalar", k_hermite_h},
    {"aten.special_hermite_polynomial_h.x_scalar", k_hermite_h},
    {"aten.special_hermite_polynomial_he.default", k_hermite_he},
    {"aten.special_hermite_polynomial_he.n_scalar", k_hermite_he},
    {"aten.special_hermite_polynomial_he.x_scalar", k_hermite_he},
    {"aten.special_laguerre_polynomial_l.default", k_laguerre_l},
    {"aten.special_laguerre_polynomial_l.n_scalar", k_laguerre_l},
    {"aten.special_laguerre_polynomial_l.x_scalar", k_laguerre_l},
    {"aten.special_legendre_polynomial_p.default", k_legendre_p},
    {"aten.special_legendre_polynomial_p.n_scalar", k_legendre_p},
    {"aten.special_legendre_polynomial_p.x_scalar", k_legendre_p},
    {"aten.special_shifted_chebyshev_polynomial_t.default", k_shifted_chebyshev_t},
    {"aten.special_shifted_chebyshev_polynomial_t.n_scalar", k_shifted_chebyshev_t},
    {"aten.special_shifted_chebyshev_polynomial_t.x_scalar", k_shifted_chebyshev_t},
    {"aten.special_shifted_chebyshev_polynomial_u.default", k_shifted_chebyshev_u},
    {"aten.special_shifted_chebyshev_polynomial_u.n_scalar", k_shifted_chebyshev_u},
    {"aten.special_shifted_chebyshev_polynomial_u.x_scalar", k_shifted_chebyshev_u},
    {"aten.special_shifted_chebyshev_polynomial_v.default", k_shifted_chebyshev_v},
    {"aten.special_shifted_chebyshev_polynomial_v.n_scalar", k_shifted_chebyshev_v},
    {"aten.special_shifted_chebyshev_polynomial_v.x_scalar", k_shifted_chebyshev_v},
    {"aten.special_shifted_chebyshev_polynomial_w.default", k_shifted_chebyshev_w},
    {"aten.special_shifted_chebyshev_polynomial_w.n_scalar", k_shifted_chebyshev_w},
    {"aten.special_shifted_chebyshev_polynomial_w.x_scalar", k_shifted_chebyshev_w},
    {"aten.special_xlog1py.default", k_xlog1py},
    {"aten.special_xlog1py.other_scalar", k_xlog1py},
    {"aten.special_xlog1py.self_scalar", k_xlog1py},
    {"aten.special_zeta.default", k_zeta},
    {"aten.special_zeta.other_scalar", k_zeta},
    {"aten.special_zeta.self_scalar", k_zeta},
    {"aten.sub.Scalar", k_sub},
    {"aten.sub.Tensor", k_sub},
    {"aten.sub_.Scalar", k_sub},
    {"aten.sub_.Tensor", k_sub},
    {"aten.where.Scalar", k_where},
    {"aten.where.ScalarOther", k_where},
    {"aten.where.ScalarSelf", k_where},
    {"aten.where.self", k_where},
    {"aten.xlogy.Scalar_Other", k_xlogy},
    {"aten.xlogy.Scalar_Self", k_xlogy},
    {"aten.xlogy.Tensor", k_xlogy},
    {"aten.xlogy_.Scalar_Other", k_xlogy},
    {"aten.xlogy_.Tensor", k_xlogy},
};
const size_t airc_cpu_num_kernels_binary =
    sizeof airc_cpu_kernels_binary / sizeof airc_cpu_kernels_binary[0];
