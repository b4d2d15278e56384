/* f32 convolutions and GEMMs through oneDNN (Debian's libdnnl), when airc
 * is built with it (AIRC_DNNL): its JIT kernels use the widest vectors the
 * CPU has, as PyTorch's own CPU convolution does, where OpenBLAS may be
 * held to AVX2. */
#ifndef AIRC_CPU_K_CONV_DNNL_H
#define AIRC_CPU_K_CONV_DNNL_H

#include "ops/kernel.h"

/* One forward convolution of sp spatial dims (1 to 3) on the 5-d views
 * k_linalg_conv.c makes (unit dims in front of the spatial ones): x
 * [N, C, D, H, W], w [O, C / groups, KD, KH, KW], bias [O] or NULL, o [N,
 * O, OD, OH, OW], any strides; stride, pad and dil per 3-d axis. True when
 * it ran; false when oneDNN is absent or declined (an unsupported shape,
 * its own allocation failing): the caller computes it itself. */
AIRC_HIDDEN bool airc_cpu_conv_dnnl(const airc_kernel_ctx *k, int32_t sp, const airc_tview *x,
                                    const airc_tview *w, const airc_tview *bias,
                                    const airc_tview *o, const int64_t *stride, const int64_t *pad,
                                    const int64_t *dil, int64_t groups);

/* oneDNN is usable, and its next calls on this thread run on one OpenMP
 * thread (an OpenMP team's threads spin at their barriers; beside
 * OpenBLAS's and airc's own pool they made a busy machine 30x slower). */
AIRC_HIDDEN bool airc_cpu_dnnl_one_thread(void);

/* C = alpha op(A) op(B) + beta C, row-major f32 (BLAS's rules: beta 0
 * does not read C), through oneDNN's sgemm on airc's pool: C's rows (or
 * columns, for a wide short C) split between up to `threads` threads.
 * False when oneDNN is absent (the caller uses OpenBLAS). */
AIRC_HIDDEN bool airc_cpu_sgemm_dnnl(int32_t threads, bool at, bool bt, int64_t m, int64_t n,
                                     int64_t k, float alpha, const float *a, int64_t lda,
                                     const float *b, int64_t ldb, float beta, float *c,
                                     int64_t ldc);

/* Whether airc was built with oneDNN (for tests). */
AIRC_HIDDEN bool airc_cpu_have_dnnl(void);

#endif
