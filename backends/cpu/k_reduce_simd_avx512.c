/* Reduce-family SIMD loops for AVX-512 (F, DQ, BW, VL; 16 f32 lanes).
 * Compiled for that target only; selected at run time. */
#if defined(__x86_64__) || defined(__i386__)

#include "backends/cpu/k_reduce_internal.h"

#include <sleef.h>

#define KS_VW 16
#define KS_EXPF(v) ((ks_vf)Sleef_expf16_u10avx512f((__m512)(v)))
#define KS_ISA "avx512"
#define KS_TABLE airc_kred_simd_avx512
#include "backends/cpu/k_reduce_simd.h"
#else
#include "backends/cpu/k_reduce_internal.h"
const airc_kred_simd airc_kred_simd_avx512 = {0};
#endif
