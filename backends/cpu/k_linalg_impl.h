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

/* t [N, C, W] seen as [N, C, 1, W]: a 1-d convolution, pool or
 * upsampling run as a 2-d one of unit height. */
static inline airc_tview airc_cpu_unit_height(const airc_tview *t)
{
    airc_tview r = *t;
    r.ndim = 4;
    r.shape[3] = t->shape[2];
    r.strides[3] = t->strides[2];
    r.shape[2] = 1;
    r.strides[2] = t->shape[2] * t->strides[2];
    return r;
}

/* The sliding-window columns ow in [0, OW), of stride sw, whose input
 * column ow*sw + off lies inside [0, W): [*lo, *hi) (im2col, col2im and
 * the convolutions built on them). */
static inline void airc_cpu_valid_cols(int64_t W, int64_t OW, int64_t sw, int64_t off, int64_t *lo,
                                       int64_t *hi)
{
    int64_t l = off >= 0 ? 0 : (-off + sw - 1) / sw;
    int64_t h = W - off - 1 < 0 ? 0 : (W - off - 1) / sw + 1;
    *hi = h > OW ? OW : h;
    *lo = l > *hi ? *hi : l;
}

#define AIRC_CPU_KERNEL(name) AIRC_HIDDEN airc_status airc_cpu_k_##name(airc_kernel_ctx *k, void *ud)

/* k_linalg_conv.c */
AIRC_CPU_KERNEL(convolution); /* convolution, _convolution, the slow_conv* forwards */
AIRC_CPU_KERNEL(conv_tbc);
AIRC_CPU_KERNEL(linear_combination); /* k_linear_combination.c */
/* k_linalg_pool.c */
AIRC_CPU_KERNEL(max_pool2d_with_indices);
AIRC_CPU_KERNEL(max_pool3d_with_indices);
AIRC_CPU_KERNEL(avg_pool2d);
AIRC_CPU_KERNEL(avg_pool3d);
AIRC_CPU_KERNEL(adaptive_avg_pool2d);
AIRC_CPU_KERNEL(adaptive_avg_pool3d);
AIRC_CPU_KERNEL(adaptive_max_pool2d);
AIRC_CPU_KERNEL(adaptive_max_pool3d);
AIRC_CPU_KERNEL(fractional_max_pool2d);
AIRC_CPU_KERNEL(fractional_max_pool3d);
/* k_linalg_unpool.c */
AIRC_CPU_KERNEL(max_unpool2d);
AIRC_CPU_KERNEL(max_unpool3d);
/* k_linalg_upsample.c */
AIRC_CPU_KERNEL(upsample_nearest);
AIRC_CPU_KERNEL(upsample_nearest_exact);
AIRC_CPU_KERNEL(upsample_linear);
AIRC_CPU_KERNEL(upsample_bicubic2d);
/* k_linalg_upsample_aa.c */
AIRC_CPU_KERNEL(upsample_aa);
AIRC_CPU_KERNEL(grid_sampler_2d);
AIRC_CPU_KERNEL(grid_sampler_3d);
AIRC_CPU_KERNEL(affine_grid_generator);
AIRC_CPU_KERNEL(im2col);
AIRC_CPU_KERNEL(col2im);
/* k_linalg_dist.c */
AIRC_CPU_KERNEL(cdist);
AIRC_CPU_KERNEL(pdist);
AIRC_CPU_KERNEL(trilinear); /* k_trilinear.c */
AIRC_CPU_KERNEL(euclidean_dist);
AIRC_CPU_KERNEL(linalg_cross);
/* k_attention.c */
AIRC_CPU_KERNEL(native_multi_head_attention);
AIRC_CPU_KERNEL(transformer_encoder_layer_fwd);
/* k_matrix_exp.c */
AIRC_CPU_KERNEL(linalg_matrix_exp);

#endif
