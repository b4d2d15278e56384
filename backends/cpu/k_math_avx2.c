/* The AVX2 + FMA maps of k_math.c. This file alone is compiled with
 * -mavx2 -mfma (CMakeLists.txt), so sleef.h declares the 8-lane entry
 * points for it, with gcc and clang alike; k_math.c calls it only on CPUs
 * that have AVX2, so the library needs no -march. */
#include "backends/cpu/k_math.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#include <sleef.h>

/* The exact gelu, as k_math.h describes. */
static __m256 gelu8(__m256 x)
{
    static const float p[AIRC_VM_GELU_NP] = AIRC_VM_GELU_P;
    const __m256 one = _mm256_set1_ps(1.0f), half = _mm256_set1_ps(0.5f);
    const __m256 zero = _mm256_setzero_ps();
    __m256 xc = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-AIRC_VM_GELU_CLAMP)),
                              _mm256_set1_ps(AIRC_VM_GELU_CLAMP));
    __m256 a = _mm256_mul_ps(_mm256_max_ps(xc, _mm256_sub_ps(zero, xc)),
                             _mm256_set1_ps(0.70710678118654752f));
    __m256 t = _mm256_div_ps(one, _mm256_fmadd_ps(a, half, one));
    __m256 q = _mm256_set1_ps(p[0]);
    for (int k = 1; k < AIRC_VM_GELU_NP; k++)
        q = _mm256_fmadd_ps(q, t, _mm256_set1_ps(p[k]));
    __m256 x2 = _mm256_mul_ps(xc, xc);
    __m256 hi = _mm256_mul_ps(x2, half), lo = _mm256_mul_ps(_mm256_fmsub_ps(xc, xc, x2), half);
    __m256 e = _mm256_mul_ps(Sleef_expf8_u10avx2(_mm256_sub_ps(zero, hi)),
                             Sleef_expf8_u10avx2(_mm256_sub_ps(q, lo)));
    __m256 r = _mm256_mul_ps(t, e); /* erfc(|x| / sqrt 2) */
    __m256 pos = _mm256_cmp_ps(xc, zero, _CMP_GT_OQ);
    r = _mm256_blendv_ps(r, _mm256_sub_ps(_mm256_set1_ps(2.0f), r), pos);
    return _mm256_mul_ps(_mm256_mul_ps(x, half), r);
}

void airc_vm_map_avx2(airc_vm_op f, int64_t n, const float *x, float *y)
{
#define MAP8(FN)                                                                                   \
    {                                                                                              \
        int64_t i = 0;                                                                             \
        for (; i + 8 <= n; i += 8)                                                                 \
            _mm256_storeu_ps(y + i, FN(_mm256_loadu_ps(x + i)));                                   \
        if (i < n) {                                                                               \
            float t[8] = {0};                                                                      \
            memcpy(t, x + i, (size_t)(n - i) * sizeof(float));                                     \
            _mm256_storeu_ps(t, FN(_mm256_loadu_ps(t)));                                           \
            memcpy(y + i, t, (size_t)(n - i) * sizeof(float));                                     \
        }                                                                                          \
        return;                                                                                    \
    }
    switch (f) {
    case AIRC_VM_EXP:
        MAP8(Sleef_expf8_u10avx2)
    case AIRC_VM_EXPM1:
        MAP8(Sleef_expm1f8_u10avx2)
    case AIRC_VM_LOG:
        MAP8(Sleef_logf8_u10avx2)
    case AIRC_VM_LOG2:
        MAP8(Sleef_log2f8_u10avx2)
    case AIRC_VM_LOG1P:
        MAP8(Sleef_log1pf8_u10avx2)
    case AIRC_VM_SQRT:
        MAP8(Sleef_sqrtf8_u05avx2)
    case AIRC_VM_TANH:
        MAP8(Sleef_tanhf8_u10avx2)
    case AIRC_VM_SIN:
        MAP8(Sleef_sinf8_u10avx2)
    case AIRC_VM_COS:
        MAP8(Sleef_cosf8_u10avx2)
    case AIRC_VM_ERF:
        MAP8(Sleef_erff8_u10avx2)
    case AIRC_VM_GELU: MAP8(gelu8)
    default:
        MAP8(Sleef_erfcf8_u15avx2)
    }
#undef MAP8
}

void airc_vm_pow_avx2(int64_t n, const float *x, int xinc, const float *y, int yinc, float *z)
{
    int64_t i = 0;
    __m256 xs = _mm256_set1_ps(x[0]), ys = _mm256_set1_ps(y[0]);
    for (; i + 8 <= n; i += 8) {
        __m256 a = xinc ? _mm256_loadu_ps(x + i) : xs;
        __m256 b = yinc ? _mm256_loadu_ps(y + i) : ys;
        _mm256_storeu_ps(z + i, Sleef_powf8_u10avx2(a, b));
    }
    if (i < n) {
        float a[8] = {0}, b[8] = {0};
        for (int64_t j = i; j < n; j++) {
            a[j - i] = x[j * xinc];
            b[j - i] = y[j * yinc];
        }
        _mm256_storeu_ps(a, Sleef_powf8_u10avx2(_mm256_loadu_ps(a), _mm256_loadu_ps(b)));
        memcpy(z + i, a, (size_t)(n - i) * sizeof(float));
    }
}
#endif
