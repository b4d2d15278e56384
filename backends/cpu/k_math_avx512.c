/* The AVX-512 maps of k_math.c: the AVX2 file's maps at 16 lanes, SLEEF's
 * avx512f entry points (the same 1-ulp functions). This file alone is
 * compiled with -mavx512f (CMakeLists.txt); k_math.c calls it only on
 * CPUs that have AVX-512F. */
#include "backends/cpu/k_math.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#include <sleef.h>

/* The exact gelu, as k_math.h describes. */
static __m512 gelu16(__m512 x)
{
    static const float p[AIRC_VM_GELU_NP] = AIRC_VM_GELU_P;
    const __m512 one = _mm512_set1_ps(1.0f), half = _mm512_set1_ps(0.5f);
    __m512 xc = _mm512_min_ps(_mm512_max_ps(x, _mm512_set1_ps(-AIRC_VM_GELU_CLAMP)),
                              _mm512_set1_ps(AIRC_VM_GELU_CLAMP));
    __m512 a = _mm512_mul_ps(_mm512_abs_ps(xc), _mm512_set1_ps(0.70710678118654752f));
    __m512 t = _mm512_div_ps(one, _mm512_fmadd_ps(a, half, one));
    __m512 q = _mm512_set1_ps(p[0]);
    for (int k = 1; k < AIRC_VM_GELU_NP; k++)
        q = _mm512_fmadd_ps(q, t, _mm512_set1_ps(p[k]));
    __m512 x2 = _mm512_mul_ps(xc, xc);
    __m512 hi = _mm512_mul_ps(x2, half), lo = _mm512_mul_ps(_mm512_fmsub_ps(xc, xc, x2), half);
    __m512 e = _mm512_mul_ps(Sleef_expf16_u10avx512f(_mm512_sub_ps(_mm512_setzero_ps(), hi)),
                             Sleef_expf16_u10avx512f(_mm512_sub_ps(q, lo)));
    __m512 r = _mm512_mul_ps(t, e); /* erfc(|x| / sqrt 2) */
    __mmask16 pos = _mm512_cmp_ps_mask(xc, _mm512_setzero_ps(), _CMP_GT_OQ);
    r = _mm512_mask_sub_ps(r, pos, _mm512_set1_ps(2.0f), r);
    return _mm512_mul_ps(_mm512_mul_ps(x, half), r);
}

void airc_vm_map_avx512(airc_vm_op f, int64_t n, const float *x, float *y)
{
#define MAP16(FN)                                                                                  \
    {                                                                                              \
        int64_t i = 0;                                                                             \
        for (; i + 16 <= n; i += 16)                                                               \
            _mm512_storeu_ps(y + i, FN(_mm512_loadu_ps(x + i)));                                   \
        if (i < n) {                                                                               \
            float t[16] = {0};                                                                     \
            memcpy(t, x + i, (size_t)(n - i) * sizeof(float));                                     \
            _mm512_storeu_ps(t, FN(_mm512_loadu_ps(t)));                                           \
            memcpy(y + i, t, (size_t)(n - i) * sizeof(float));                                     \
        }                                                                                          \
        return;                                                                                    \
    }
    switch (f) {
    case AIRC_VM_EXP: MAP16(Sleef_expf16_u10avx512f)
    case AIRC_VM_EXPM1: MAP16(Sleef_expm1f16_u10avx512f)
    case AIRC_VM_LOG: MAP16(Sleef_logf16_u10avx512f)
    case AIRC_VM_LOG2: MAP16(Sleef_log2f16_u10avx512f)
    case AIRC_VM_LOG1P: MAP16(Sleef_log1pf16_u10avx512f)
    case AIRC_VM_SQRT: MAP16(Sleef_sqrtf16_u05avx512f)
    case AIRC_VM_TANH: MAP16(Sleef_tanhf16_u10avx512f)
    case AIRC_VM_SIN: MAP16(Sleef_sinf16_u10avx512f)
    case AIRC_VM_COS: MAP16(Sleef_cosf16_u10avx512f)
    case AIRC_VM_ERF: MAP16(Sleef_erff16_u10avx512f)
    case AIRC_VM_GELU: MAP16(gelu16)
    default: MAP16(Sleef_erfcf16_u15avx512f)
    }
#undef MAP16
}

void airc_vm_pow_avx512(int64_t n, const float *x, int xinc, const float *y, int yinc, float *z)
{
    int64_t i = 0;
    __m512 xs = _mm512_set1_ps(x[0]), ys = _mm512_set1_ps(y[0]);
    for (; i + 16 <= n; i += 16) {
        __m512 a = xinc ? _mm512_loadu_ps(x + i) : xs;
        __m512 b = yinc ? _mm512_loadu_ps(y + i) : ys;
        _mm512_storeu_ps(z + i, Sleef_powf16_u10avx512f(a, b));
    }
    if (i < n) {
        float a[16] = {0}, b[16] = {0};
        for (int64_t j = i; j < n; j++) {
            a[j - i] = x[j * xinc];
            b[j - i] = y[j * yinc];
        }
        _mm512_storeu_ps(a, Sleef_powf16_u10avx512f(_mm512_loadu_ps(a), _mm512_loadu_ps(b)));
        memcpy(z + i, a, (size_t)(n - i) * sizeof(float));
    }
}
#endif
