/* Reduce-family SIMD loops for baseline x86-64 (SSE2), the fallback every
 * x86-64 CPU runs; 4 f32 lanes. Elsewhere the same loops with libm's exp
 * per lane. */
#include "backends/cpu/k_reduce_internal.h"

#define KS_VW 4
#if defined(__x86_64__) || defined(__i386__)
#include <sleef.h>
#define KS_EXPF(v) ((ks_vf)Sleef_expf4_u10sse2((__m128)(v)))
#endif
#define KS_ISA "sse2"
#define KS_TABLE airc_kred_simd_sse2
#include "backends/cpu/k_reduce_simd.h"
