/* f32 convolutions through oneDNN (Debian's libdnnl), when airc is built
 * with it (AIRC_DNNL): its JIT kernels use the widest vectors the CPU has,
 * as PyTorch's own CPU convolution does, where OpenBLAS may be held to
 * AVX2. */
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

/* Whether airc was built with oneDNN (for tests). */
AIRC_HIDDEN bool airc_cpu_have_dnnl(void);

#endif
