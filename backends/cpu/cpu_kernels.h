/* Built-in CPU kernels, one sorted table per family file (each family owns
 * its table; a test checks they are sorted and that every built-in op the
 * CPU-runtime issue lists has a kernel). */
#ifndef AIRC_CPU_KERNELS_H
#define AIRC_CPU_KERNELS_H

#include "ops/kernel.h"

typedef struct airc_cpu_kernel_entry {
    const char *qualname; /* "aten.add.Tensor" */
    airc_kernel_fn fn;
} airc_cpu_kernel_entry;

#define AIRC_CPU_KERNEL_FAMILY(name)                                                               \
    AIRC_HIDDEN extern const airc_cpu_kernel_entry airc_cpu_kernels_##name[];                       \
    AIRC_HIDDEN extern const size_t airc_cpu_num_kernels_##name

AIRC_CPU_KERNEL_FAMILY(unary);  /* k_unary.c: abs .. gelu, silu, casts */
AIRC_CPU_KERNEL_FAMILY(binary); /* k_binary.c: add .. where, masked_fill, clamp, pow */
AIRC_CPU_KERNEL_FAMILY(ternary); /* k_ternary.c: addcmul, addcdiv, lerp */
AIRC_CPU_KERNEL_FAMILY(loss);    /* k_loss.c: mse .. binary cross entropy, nll_loss */
AIRC_CPU_KERNEL_FAMILY(reduce); /* k_reduce.c: sum .. cumsum, softmax, layer_norm */
AIRC_CPU_KERNEL_FAMILY(linalg); /* k_linalg.c: mm, addmm, bmm, conv, pooling */
AIRC_CPU_KERNEL_FAMILY(shape);  /* k_shape.c: views, copies, cat, index, creation */

/* The built-in CPU kernel of an op, NULL when there is none. */
AIRC_HIDDEN airc_kernel_fn airc_cpu_find_kernel(const char *qualname);

/* torch's affine_grid base coordinates along a dim of n steps (shared with
 * the Ascend IR lowering): linspace(-1, 1, n), times (n - 1) / n without
 * align_corners, 0 when n <= 1; in dt's opmath type, rounded to dt. */
AIRC_HIDDEN void airc_cpu_affine_base(airc_dtype dt, int64_t n, bool align, double *out);

#endif
