/* Vectorized math maps (k_math.h). */
#include "backends/cpu/k_math.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#define AIRC_VM_X86 1
#include <immintrin.h>
#include <sleef.h>
#endif

static atomic_int forced_isa;

void airc_vm_set_isa(int isa)
{
    atomic_store_explicit(&forced_isa, isa, memory_order_relaxed);
}

int airc_vm_isa(void)
{
    int isa = atomic_load_explicit(&forced_isa, memory_order_relaxed);
#ifdef AIRC_VM_X86
    bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    bool avx512 = avx2 && __builtin_cpu_supports("avx512f");
    if ((isa == AIRC_VM_ISA_AUTO || isa == AIRC_VM_ISA_AVX512) && avx512)
        return AIRC_VM_ISA_AVX512;
    if (isa == AIRC_VM_ISA_AUTO || isa == AIRC_VM_ISA_AVX2 || isa == AIRC_VM_ISA_AVX512)
        return avx2 ? AIRC_VM_ISA_AVX2 : AIRC_VM_ISA_SSE2;
    return isa;
#else
    (void)isa;
    return AIRC_VM_ISA_SCALAR;
#endif
}

/* ---- scalar (libm) ------------------------------------------------------ */

static float scalar_f32(airc_vm_op f, float x)
{
    switch (f) {
    case AIRC_VM_EXP:
        return expf(x);
    case AIRC_VM_EXPM1:
        return expm1f(x);
    case AIRC_VM_LOG:
        return logf(x);
    case AIRC_VM_LOG2:
        return log2f(x);
    case AIRC_VM_LOG1P:
        return log1pf(x);
    case AIRC_VM_SQRT:
        return sqrtf(x);
    case AIRC_VM_TANH:
        return tanhf(x);
    case AIRC_VM_SIN:
        return sinf(x);
    case AIRC_VM_COS:
        return cosf(x);
    case AIRC_VM_ERF:
        return erff(x);
    case AIRC_VM_GELU: return 0.5f * x * erfcf(x * -0.70710678118654752440f);
    default:
        return erfcf(x);
    }
}

static double scalar_f64(airc_vm_op f, double x)
{
    switch (f) {
    case AIRC_VM_EXP:
        return exp(x);
    case AIRC_VM_EXPM1:
        return expm1(x);
    case AIRC_VM_LOG:
        return log(x);
    case AIRC_VM_LOG2:
        return log2(x);
    case AIRC_VM_LOG1P:
        return log1p(x);
    case AIRC_VM_SQRT:
        return sqrt(x);
    case AIRC_VM_TANH:
        return tanh(x);
    case AIRC_VM_SIN:
        return sin(x);
    case AIRC_VM_COS:
        return cos(x);
    case AIRC_VM_ERF:
        return erf(x);
    case AIRC_VM_GELU: return 0.5 * x * erfc(x * -0.70710678118654752440);
    default:
        return erfc(x);
    }
}

void airc_vm_f64(airc_vm_op f, int64_t n, const double *x, double *y)
{
    for (int64_t i = 0; i < n; i++)
        y[i] = scalar_f64(f, x[i]);
}

#ifdef AIRC_VM_X86

/* ---- SSE2 ------------------------------------------------------------- */

/* SLEEF declares its vector functions with a const-qualified return type,
 * which clang refuses to convert implicitly: the casts below only drop
 * that qualifier. */
typedef __m128 (*sse2_fn)(__m128);

static sse2_fn sse2_pick(airc_vm_op f)
{
    switch (f) {
    case AIRC_VM_EXP:
        return (sse2_fn)Sleef_expf4_u10sse2;
    case AIRC_VM_EXPM1:
        return (sse2_fn)Sleef_expm1f4_u10sse2;
    case AIRC_VM_LOG:
        return (sse2_fn)Sleef_logf4_u10sse2;
    case AIRC_VM_LOG2:
        return (sse2_fn)Sleef_log2f4_u10sse2;
    case AIRC_VM_LOG1P:
        return (sse2_fn)Sleef_log1pf4_u10sse2;
    case AIRC_VM_SQRT:
        return (sse2_fn)Sleef_sqrtf4_u05sse2;
    case AIRC_VM_TANH:
        return (sse2_fn)Sleef_tanhf4_u10sse2;
    case AIRC_VM_SIN:
        return (sse2_fn)Sleef_sinf4_u10sse2;
    case AIRC_VM_COS:
        return (sse2_fn)Sleef_cosf4_u10sse2;
    case AIRC_VM_ERF:
        return (sse2_fn)Sleef_erff4_u10sse2;
    default:
        return (sse2_fn)Sleef_erfcf4_u15sse2;
    }
}

/* 0.5 x erfc(-x / sqrt 2) through SLEEF's erfc: no cancellation for
 * negative x, where 1 + erf loses every digit. */
static void gelu_sse2(int64_t n, const float *x, float *y)
{
    float t[256];
    for (int64_t off = 0; off < n; off += 256) {
        int64_t m = n - off < 256 ? n - off : 256;
        for (int64_t i = 0; i < m; i++)
            t[i] = x[off + i] * -0.70710678118654752440f;
        for (int64_t i = 0; i < m; i += 4) {
            __m128 v = _mm_loadu_ps(t + i); /* t has room: m <= 256, i + 4 <= 256 */
            _mm_storeu_ps(t + i, Sleef_erfcf4_u15sse2(v));
        }
        for (int64_t i = 0; i < m; i++)
            y[off + i] = 0.5f * x[off + i] * t[i];
    }
}

static void map_sse2(airc_vm_op f, int64_t n, const float *x, float *y)
{
    if (f == AIRC_VM_GELU) {
        gelu_sse2(n, x, y);
        return;
    }
    sse2_fn fn = sse2_pick(f);
    int64_t i = 0;
    for (; i + 4 <= n; i += 4)
        _mm_storeu_ps(y + i, fn(_mm_loadu_ps(x + i)));
    if (i < n) {
        float t[4] = {0};
        memcpy(t, x + i, (size_t)(n - i) * sizeof(float));
        _mm_storeu_ps(t, fn(_mm_loadu_ps(t)));
        memcpy(y + i, t, (size_t)(n - i) * sizeof(float));
    }
}

static void pow_sse2(int64_t n, const float *x, int xinc, const float *y, int yinc, float *z)
{
    int64_t i = 0;
    __m128 xs = _mm_set1_ps(x[0]), ys = _mm_set1_ps(y[0]);
    for (; i + 4 <= n; i += 4) {
        __m128 a = xinc ? _mm_loadu_ps(x + i) : xs;
        __m128 b = yinc ? _mm_loadu_ps(y + i) : ys;
        _mm_storeu_ps(z + i, Sleef_powf4_u10sse2(a, b));
    }
    if (i < n) {
        float a[4] = {0}, b[4] = {0};
        for (int64_t j = i; j < n; j++) {
            a[j - i] = x[j * xinc];
            b[j - i] = y[j * yinc];
        }
        _mm_storeu_ps(a, Sleef_powf4_u10sse2(_mm_loadu_ps(a), _mm_loadu_ps(b)));
        memcpy(z + i, a, (size_t)(n - i) * sizeof(float));
    }
}

#endif /* AIRC_VM_X86 */

#ifdef AIRC_VM_X86
static void map_isa(int isa, airc_vm_op f, int64_t n, const float *x, float *y)
{
    if (isa == AIRC_VM_ISA_AVX512)
        airc_vm_map_avx512(f, n, x, y);
    else if (isa == AIRC_VM_ISA_AVX2)
        airc_vm_map_avx2(f, n, x, y);
    else
        map_sse2(f, n, x, y);
}

/* SLEEF's log1pf is specified for x <= 1e38 only (it returns inf above);
 * there log1p(x) and log(x) agree to far below an ulp. */
static void log1p_isa(int isa, int64_t n, const float *x, float *y)
{
    float t[256];
    for (int64_t off = 0; off < n; off += 256) {
        int64_t m = n - off < 256 ? n - off : 256;
        memcpy(t, x + off, (size_t)m * sizeof(float));
        map_isa(isa, AIRC_VM_LOG1P, m, t, y + off);
        for (int64_t i = 0; i < m; i++)
            if (t[i] > 1e38f)
                y[off + i] = logf(t[i]);
    }
}
#endif

void airc_vm_f32(airc_vm_op f, int64_t n, const float *x, float *y)
{
    if (n <= 0)
        return;
#ifdef AIRC_VM_X86
    int isa = airc_vm_isa();
    if (f == AIRC_VM_LOG1P && isa != AIRC_VM_ISA_SCALAR) {
        log1p_isa(isa, n, x, y);
        return;
    }
    if (isa != AIRC_VM_ISA_SCALAR) {
        map_isa(isa, f, n, x, y);
        return;
    }
#endif
    for (int64_t i = 0; i < n; i++)
        y[i] = scalar_f32(f, x[i]);
}

void airc_vm_pow_f32(int64_t n, const float *x, int xinc, const float *y, int yinc, float *z)
{
    if (n <= 0)
        return;
#ifdef AIRC_VM_X86
    int isa = airc_vm_isa();
    if (isa == AIRC_VM_ISA_AVX512) {
        airc_vm_pow_avx512(n, x, xinc, y, yinc, z);
        return;
    }
    if (isa == AIRC_VM_ISA_AVX2) {
        airc_vm_pow_avx2(n, x, xinc, y, yinc, z);
        return;
    }
    if (isa == AIRC_VM_ISA_SSE2) {
        pow_sse2(n, x, xinc, y, yinc, z);
        return;
    }
#endif
    for (int64_t i = 0; i < n; i++)
        z[i] = powf(x[i * xinc], y[i * yinc]);
}
