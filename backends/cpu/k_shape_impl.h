/* The shape family's kernels, defined across k_shape*.c and listed in
 * k_shape.c's table. */
#ifndef AIRC_CPU_K_SHAPE_IMPL_H
#define AIRC_CPU_K_SHAPE_IMPL_H

#include "backends/cpu/k_strided.h"

#define AIRC_CPU_KERNEL(name) AIRC_HIDDEN airc_status airc_cpu_k_##name(airc_kernel_ctx *k, void *ud)

/* k_shape_copy.c */
AIRC_CPU_KERNEL(clone); /* clone, contiguous, lift_fresh_copy, _conj_physical */
AIRC_CPU_KERNEL(narrow_copy);
AIRC_CPU_KERNEL(reshape_copy);   /* reshape, _unsafe_view */
AIRC_CPU_KERNEL(copy);           /* copy.default */
AIRC_CPU_KERNEL(copy_);          /* copy_.default */
AIRC_CPU_KERNEL(tril);
AIRC_CPU_KERNEL(triu);
AIRC_CPU_KERNEL(tril_);
AIRC_CPU_KERNEL(triu_);
AIRC_CPU_KERNEL(cat);
AIRC_CPU_KERNEL(stack);
AIRC_CPU_KERNEL(constant_pad_nd);
AIRC_CPU_KERNEL(slice_scatter);
AIRC_CPU_KERNEL(select_scatter);
AIRC_CPU_KERNEL(repeat);
AIRC_CPU_KERNEL(flip);

/* k_shape_spatial.c */
AIRC_CPU_KERNEL(pixel_shuffle);
AIRC_CPU_KERNEL(roll);
AIRC_CPU_KERNEL(rot90);
AIRC_CPU_KERNEL(reflection_pad);
AIRC_CPU_KERNEL(pixel_unshuffle);
AIRC_CPU_KERNEL(replication_pad);
AIRC_CPU_KERNEL(channel_shuffle);

/* k_shape_index.c */
AIRC_CPU_KERNEL(index_select);
AIRC_CPU_KERNEL(index);
AIRC_CPU_KERNEL(index_put);
AIRC_CPU_KERNEL(scatter);
AIRC_CPU_KERNEL(scatter_add);
AIRC_CPU_KERNEL(scatter_add_multiply); /* scatter.reduce, scatter.value_reduce */
AIRC_CPU_KERNEL(scatter_reduce);
AIRC_CPU_KERNEL(index_copy);
AIRC_CPU_KERNEL(index_add);
AIRC_CPU_KERNEL(index_fill);
AIRC_CPU_KERNEL(masked_scatter);
AIRC_CPU_KERNEL(take);
AIRC_CPU_KERNEL(bucketize);
AIRC_CPU_KERNEL(searchsorted);
AIRC_CPU_KERNEL(gather);
AIRC_CPU_KERNEL(embedding);
AIRC_CPU_KERNEL(embedding_bag);
AIRC_CPU_KERNEL(embedding_renorm);
AIRC_CPU_KERNEL(isin);               /* k_shape_search.c */
AIRC_CPU_KERNEL(index_reduce);       /* k_index_reduce.c */
AIRC_CPU_KERNEL(put);
AIRC_CPU_KERNEL(block_diag);         /* k_shape_diag.c */
AIRC_CPU_KERNEL(as_strided_scatter); /* k_shape_copy.c */
AIRC_CPU_KERNEL(diagonal_scatter);
    /* k_shape_diag.c */ /* _embedding_bag, _embedding_bag_forward_only */

/* The reductions of scatter_reduce and index_reduce (k_shape_index.c):
 * a combined with b, floats in double (NaN wins amax / amin, as torch),
 * integers wrapping in int64 (mean adds). */
typedef enum airc_reduce_kind {
    AIRC_RK_SUM,
    AIRC_RK_PROD,
    AIRC_RK_MEAN,
    AIRC_RK_AMAX,
    AIRC_RK_AMIN
} airc_reduce_kind;
AIRC_HIDDEN double airc_cpu_combine_f(airc_reduce_kind kind, double a, double b);
AIRC_HIDDEN int64_t airc_cpu_combine_i(airc_reduce_kind kind, int64_t a, int64_t b);

/* k_shape_create.c */
AIRC_CPU_KERNEL(zeros);          /* zeros, empty.memory_format, zeros_like, empty_like, new_zeros, new_empty */
AIRC_CPU_KERNEL(ones);           /* ones, ones_like, new_ones */
AIRC_CPU_KERNEL(fill_arg1);      /* full, full_like, fill.Scalar */
AIRC_CPU_KERNEL(fill_tensor);    /* fill.Tensor */
AIRC_CPU_KERNEL(new_full);
AIRC_CPU_KERNEL(scalar_tensor);
AIRC_CPU_KERNEL(fill_);
AIRC_CPU_KERNEL(zero_);
AIRC_CPU_KERNEL(arange);
AIRC_CPU_KERNEL(arange_start);
AIRC_CPU_KERNEL(arange_start_step);
AIRC_CPU_KERNEL(range); /* range, range.step */
AIRC_CPU_KERNEL(native_dropout);
/* out[i] = start + i * step into the 1-d out (its length is meta's), as
 * torch accumulates: int64 of the truncated numbers for integer dtypes,
 * else double, or float where float_acc (range of bf16); shared with the
 * GE lowering of range. */
AIRC_HIDDEN void airc_cpu_arange(airc_tview *out, const airc_cpu_scalar *start,
                                 const airc_cpu_scalar *step, bool float_acc);

/* k_window.c */
AIRC_CPU_KERNEL(window); /* the *_window factories, fft_fftfreq, fft_rfftfreq */
/* The values of window factory or fftfreq `qualname` with its bound
 * arguments into the 1-d out, of its dtype and length (shared with the
 * GE lowering, which emits them as a Const). */
AIRC_HIDDEN void airc_cpu_window(airc_tview *out, const char *qualname,
                                 const airc_value *const *args, size_t nargs);

/* k_shape_diag.c */
AIRC_CPU_KERNEL(diag_embed);
AIRC_CPU_KERNEL(diag);
AIRC_CPU_KERNEL(tri_indices);
/* tril_indices (upper: triu_indices) of a matrix of col columns into the
 * [2, N] out (the GE lowering's Const too). */
AIRC_HIDDEN void airc_cpu_tri_indices(airc_tview *out, int64_t col, int64_t offset, bool upper);
AIRC_CPU_KERNEL(trace);
AIRC_CPU_KERNEL(eye); /* eye, eye.m */
AIRC_CPU_KERNEL(linspace);
AIRC_CPU_KERNEL(logspace);
/* linspace (log false) / logspace into the 1-d out, of its dtype, as
 * torch 1.13's CPU kernels compute them (shared with the GE lowering,
 * which emits the values as a Const). */
AIRC_HIDDEN void airc_cpu_space(airc_tview *out, const airc_cpu_scalar *start,
                                const airc_cpu_scalar *end, double base, bool log);
/* Where the offset-th diagonal of dims d1, d2 of t (of len elements)
 * starts, in elements from t's data (0 for an empty one, as torch). */
AIRC_HIDDEN int64_t airc_cpu_diagonal_offset(const airc_tview *t, int64_t offset, int32_t d1,
                                             int32_t d2, int64_t len);

/* The tensor an in-place op writes: out[0] as the executor set it (the
 * written input's view), or that input itself when out[0] has no data. */
AIRC_HIDDEN airc_tview *airc_cpu_inplace_target(airc_kernel_ctx *k);

#endif
