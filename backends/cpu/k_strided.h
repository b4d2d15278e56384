/* Helpers of the linalg and shape kernel families: reading bound arguments,
 * element conversion between dtypes, and strided copies and fills over
 * airc_tview (strides in elements, any layout, stride 0 for broadcast).
 * None of them allocates except where it says so. */
#ifndef AIRC_CPU_K_STRIDED_H
#define AIRC_CPU_K_STRIDED_H

#include "backends/cpu/cpu_kernels.h"

#include <stdbool.h>

/* A Scalar argument as torch keeps it: integers and bools in int64 (exact),
 * floats in double. */
typedef struct airc_cpu_scalar {
    bool is_float;
    int64_t i;
    double f;
} airc_cpu_scalar;

/* Records code with "<op qualname>: <message>"; returns code. */
AIRC_HIDDEN airc_status airc_cpu_fail(const airc_kernel_ctx *k, airc_status code, const char *fmt,
                                      ...) AIRC_PRINTF(3, 4);
/* AIRC_E_OUT_OF_MEMORY naming the op and what was being allocated. */
AIRC_HIDDEN airc_status airc_cpu_oom(const airc_kernel_ctx *k, const char *what);

/* ---- arguments (schema position i; absent or None reads as `def`) ------ */

AIRC_HIDDEN bool airc_cpu_arg_present(const airc_kernel_ctx *k, size_t i);
AIRC_HIDDEN int64_t airc_cpu_arg_int(const airc_kernel_ctx *k, size_t i, int64_t def);
AIRC_HIDDEN double airc_cpu_arg_double(const airc_kernel_ctx *k, size_t i, double def);
AIRC_HIDDEN bool airc_cpu_arg_bool(const airc_kernel_ctx *k, size_t i, bool def);
/* An int list (a single int counts as a list of one). At most cap items;
 * *n = 0 when absent. AIRC_E_INVALID_ARGUMENT for anything else. */
AIRC_HIDDEN airc_status airc_cpu_arg_ints(const airc_kernel_ctx *k, size_t i, int64_t *out,
                                          int32_t cap, int32_t *n);
/* A Scalar: a number, or the one element of the tensor bound there.
 * *present false (out = 0) when absent or None. */
AIRC_HIDDEN airc_status airc_cpu_arg_scalar(const airc_kernel_ctx *k, size_t i, airc_cpu_scalar *out,
                                            bool *present);
/* Python's rule for a negative dim; ndim 0 counts as 1. */
AIRC_HIDDEN int32_t airc_cpu_wrap_dim(int64_t dim, int32_t ndim);

/* ---- elements ---------------------------------------------------------- */

AIRC_HIDDEN double airc_cpu_load_f64(const void *p, airc_dtype d);
AIRC_HIDDEN int64_t airc_cpu_load_i64(const void *p, airc_dtype d);
AIRC_HIDDEN void airc_cpu_store_f64(void *p, airc_dtype d, double v);
AIRC_HIDDEN void airc_cpu_store_i64(void *p, airc_dtype d, int64_t v);
AIRC_HIDDEN void airc_cpu_store_scalar(void *p, airc_dtype d, const airc_cpu_scalar *v);
/* v as an element of dtype d holds it: a float rounded (f16, bf16, f32),
 * an integer wrapped (i8 .. i32, u8; bool: != 0). */
AIRC_HIDDEN double airc_cpu_round_f64(airc_dtype d, double v);
AIRC_HIDDEN int64_t airc_cpu_round_i64(airc_dtype d, int64_t v);
/* One element from src (dtype sd) to dst (dtype dd), with torch's casts
 * (float to integer truncates; to bool is != 0). */
AIRC_HIDDEN void airc_cpu_convert(void *dst, airc_dtype dd, const void *src, airc_dtype sd);
AIRC_HIDDEN bool airc_cpu_dtype_is_float(airc_dtype d);

/* ---- views ------------------------------------------------------------- */

AIRC_HIDDEN int64_t airc_cpu_numel(const airc_tview *t);
/* torch's is_contiguous (size-1 dims may have any stride). */
AIRC_HIDDEN bool airc_cpu_is_contiguous(const airc_tview *t);
AIRC_HIDDEN void airc_cpu_set_contiguous(airc_tview *t);
/* Element (byte) address of t at a multi-index. */
AIRC_HIDDEN char *airc_cpu_at(const airc_tview *t, const int64_t *index);
/* The element offset in t of flat (row-major) position p over its dims
 * from..ndim-1 (from 0: the whole tensor); those dims must not be empty. */
AIRC_HIDDEN int64_t airc_cpu_flat_offset(const airc_tview *t, int32_t from, int64_t p);
/* Steps the multi-index idx[0..nd) to the next one in row-major order
 * over shape; false (idx all zero again) after the last. */
AIRC_HIDDEN bool airc_cpu_next_index(int64_t *idx, const int64_t *shape, int32_t nd);
/* t restricted to [start, start+len) along dim d (data moved, strides kept). */
AIRC_HIDDEN void airc_cpu_narrow(airc_tview *t, int32_t d, int64_t start, int64_t len);
/* t at index i of dim d, the dim removed. */
AIRC_HIDDEN void airc_cpu_select(airc_tview *t, int32_t d, int64_t i);
/* src broadcast to shape (trailing alignment, stride 0 on broadcast dims);
 * false when it does not broadcast. */
AIRC_HIDDEN bool airc_cpu_expand(const airc_tview *src, const int64_t *shape, int32_t ndim,
                                 airc_tview *out);

/* ---- bulk -------------------------------------------------------------- */

/* dst[idx] = src[idx] for every index of dst's shape (src has the same
 * shape; expand it first to broadcast), converting dtype. dst must not
 * partially overlap src. */
AIRC_HIDDEN void airc_cpu_copy(const airc_tview *dst, const airc_tview *src);
/* dst = src read in row-major order (same element count, any shapes), as
 * reshape does; converts dtype. */
AIRC_HIDDEN void airc_cpu_copy_reshape(const airc_tview *dst, const airc_tview *src);
/* Every element of dst = v (converted to dst's dtype). */
AIRC_HIDDEN void airc_cpu_fill(const airc_tview *dst, const airc_cpu_scalar *v);
/* A contiguous copy of src in memory from the context allocator (*out is
 * the data, freed with airc_free(k->ctx, .)); *dst receives the view. */
AIRC_HIDDEN airc_status airc_cpu_contiguous_copy(const airc_kernel_ctx *k, const airc_tview *src,
                                                 airc_tview *dst, void **out);

#endif
