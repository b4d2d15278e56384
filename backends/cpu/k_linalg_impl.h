/* The linalg family's shared GEMM and its kernels, defined across
 * k_linalg*.c and listed in k_linalg.c's table. */
#ifndef AIRC_CPU_K_LINALG_IMPL_H
#define AIRC_CPU_K_LINALG_IMPL_H

#include "backends/cpu/k_strided.h"

/* A matrix inside a strided tensor: element (i, j) at p + (i*rs + j*cs)
 * elements. */
typedef struct airc_cpu_mat {
    char *p;
    int64_t rows, cols;
    int64_t rs, cs;
} airc_cpu_mat;

/* C = alpha * A @ B + beta * C (beta 0: C's old contents are ignored, NaN
 * included). f32/f64 go to OpenBLAS (a transposed operand is passed as
 * such, with its leading dimension; an operand BLAS cannot address is
 * copied to a contiguous temporary); integer dtypes accumulate in int64,
 * f16/bf16 in double. C must not overlap A or B. */
AIRC_HIDDEN airc_status airc_cpu_gemm(const airc_kernel_ctx *k, airc_dtype dtype, double alpha,
                                      airc_cpu_mat a, airc_cpu_mat b, double beta, airc_cpu_mat c);

#define AIRC_CPU_KERNEL(name) AIRC_HIDDEN airc_status airc_cpu_k_##name(airc_kernel_ctx *k, void *ud)

/* k_linalg_conv.c */
AIRC_CPU_KERNEL(convolution);
/* k_linalg_pool.c */
AIRC_CPU_KERNEL(max_pool2d_with_indices);
AIRC_CPU_KERNEL(avg_pool2d);
AIRC_CPU_KERNEL(adaptive_avg_pool2d);
AIRC_CPU_KERNEL(adaptive_max_pool2d);
/* k_linalg_upsample.c */
AIRC_CPU_KERNEL(upsample_nearest);
AIRC_CPU_KERNEL(upsample_linear);
AIRC_CPU_KERNEL(upsample_bicubic2d);
AIRC_CPU_KERNEL(grid_sampler_2d);
AIRC_CPU_KERNEL(affine_grid_generator);
AIRC_CPU_KERNEL(im2col);
AIRC_CPU_KERNEL(col2im);

#endif
