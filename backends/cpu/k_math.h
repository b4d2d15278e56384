/* Vectorized single-function math maps over contiguous arrays, for the
 * elementwise kernels: SLEEF's 1-ULP (u10; erfc u15, sqrt u05) functions,
 * AVX-512F or AVX2+FMA when the CPU has it (chosen at run time, no -march
 * needed),
 * SSE2 otherwise (baseline on x86-64), libm elsewhere. f64 goes through
 * libm. */
#ifndef AIRC_CPU_K_MATH_H
#define AIRC_CPU_K_MATH_H

#include "core/core.h"

typedef enum airc_vm_op {
    AIRC_VM_EXP,
    AIRC_VM_EXPM1,
    AIRC_VM_LOG,
    AIRC_VM_LOG2,
    AIRC_VM_LOG1P,
    AIRC_VM_SQRT,
    AIRC_VM_TANH,
    AIRC_VM_SIN,
    AIRC_VM_COS,
    AIRC_VM_ERF,
    AIRC_VM_ERFC,
    AIRC_VM_GELU, /* 0.5 x erfc(-x / sqrt 2): the exact gelu */
    AIRC_VM_COUNT
} airc_vm_op;

/* The AVX2 and AVX-512 gelu: erfc(z) = t exp(-z^2 + P(t)) with
 * t = 1 / (1 + z / 2) for z >= 0, and 2 - erfc(-z) below. P is airc's own
 * fit (degree 9, weighted least squares against mpmath's erfc on
 * z in [0, 10.1], where float's erfc underflows), 4.7e-8 from exact; z^2
 * = x^2 / 2 is split into hi + lo with an fma so that its rounding does
 * not reach the exponent, and x is clamped to +-20 (erfc saturated) before
 * squaring. Measured in float: within 5 ulp of erfc, against SLEEF's
 * erfc's 1.5 ulp at 3.5x the time (SLEEF's is taken of the rounded
 * -x / sqrt 2, which costs up to 2e-6 relative at x = -5). Highest degree
 * first. */
#define AIRC_VM_GELU_P                                                                             \
    {                                                                                              \
        1.421570480e-01f, -6.661165953e-01f, 1.123150706e+00f, -6.531041265e-01f,                  \
            -1.145222336e-01f, 1.859503239e-02f, 2.903893217e-02f, 3.877282143e-01f,               \
            9.985157847e-01f, -1.265442729e+00f                                                    \
    }
#define AIRC_VM_GELU_NP 10
#define AIRC_VM_GELU_CLAMP 20.0f

/* y[i] = f(x[i]) for i < n; y may be x. */
AIRC_HIDDEN void airc_vm_f32(airc_vm_op f, int64_t n, const float *x, float *y);
AIRC_HIDDEN void airc_vm_f64(airc_vm_op f, int64_t n, const double *x, double *y);
/* y[i] = gelu(x[i]) (exact, erf form) in f32: airc_vm_f32(AIRC_VM_GELU);
 * y may be x. */
AIRC_HIDDEN void airc_cpu_gelu_f32(int64_t n, const float *x, float *y);
/* z[i] = pow(x[i * xinc], y[i * yinc]), incs 0 or 1; z may alias x or y. */
AIRC_HIDDEN void airc_vm_pow_f32(int64_t n, const float *x, int xinc, const float *y, int yinc,
                                 float *z);

/* The AVX2 + FMA variants (k_math_avx2.c), for CPUs that have them. */
AIRC_HIDDEN void airc_vm_map_avx2(airc_vm_op f, int64_t n, const float *x, float *y);
AIRC_HIDDEN void airc_vm_pow_avx2(int64_t n, const float *x, int xinc, const float *y, int yinc,
                                  float *z);
/* The AVX-512F variants (k_math_avx512.c), likewise. */
AIRC_HIDDEN void airc_vm_map_avx512(airc_vm_op f, int64_t n, const float *x, float *y);
AIRC_HIDDEN void airc_vm_pow_avx512(int64_t n, const float *x, int xinc, const float *y, int yinc,
                                    float *z);

/* Instruction set of the f32 maps: AIRC_VM_ISA_AUTO (the best the CPU has),
 * or one forced by tests (a forced one the CPU lacks falls back). */
enum {
    AIRC_VM_ISA_AUTO = 0,
    AIRC_VM_ISA_SCALAR = 1,
    AIRC_VM_ISA_SSE2 = 2,
    AIRC_VM_ISA_AVX2 = 3,
    AIRC_VM_ISA_AVX512 = 4
};
AIRC_HIDDEN void airc_vm_set_isa(int isa);
/* The instruction set the maps use now. */
AIRC_HIDDEN int airc_vm_isa(void);

#endif
