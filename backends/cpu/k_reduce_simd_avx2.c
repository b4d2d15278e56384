/* Reduce-family SIMD loops for AVX2 + FMA (8 f32 lanes). The whole file is
 * compiled for that target; k_reduce_rows.c calls it only on CPUs that have
 * it, so the library itself needs no -mavx2. */
#if defined(__x86_64__) || defined(__i386__)

#include "backends/cpu/k_reduce_internal.h"

#include <sleef.h>

#define KS_VW 8
#define KS_EXPF(v) ((ks_vf)Sleef_expf8_u10avx2((__m256)(v)))
#define KS_ISA "avx2"
#define KS_TABLE airc_kred_simd_avx2
#include "backends/cpu/k_reduce_simd.h"
#else
#include "backends/cpu/k_reduce_internal.h"
/* Never selected off x86: the same loops as the baseline. */
const airc_kred_simd airc_kred_simd_avx2 = {0};
#endif
