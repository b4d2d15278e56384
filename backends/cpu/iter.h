/* A strided N-d iterator for elementwise CPU kernels: one output and up to
 * three inputs, inputs broadcast to the output's shape (right-aligned,
 * stride 0 on broadcast dims). Dims are reordered by the output's strides
 * (innermost = smallest output stride, as TensorIterator does, so permuted
 * layouts still get long unit-stride runs), size-1 dims dropped, and dims
 * that are contiguous across every operand coalesced. The loop callback gets
 * one innermost run at a time with per-operand element strides, so it can
 * take a fast path when every stride is 1 or 0. */
#ifndef AIRC_CPU_ITER_H
#define AIRC_CPU_ITER_H

#include "ops/kernel.h"

#define AIRC_ITER_MAX_OPERANDS 4

typedef struct airc_iter {
    int32_t nops;  /* output (operand 0) + inputs */
    int32_t ndim;  /* after coalescing; dim 0 is the innermost */
    int64_t numel; /* elements of the output; 0 means nothing to do */
    int64_t shape[AIRC_MAX_DIMS];
    int64_t strides[AIRC_ITER_MAX_OPERANDS][AIRC_MAX_DIMS]; /* elements */
    char *data[AIRC_ITER_MAX_OPERANDS];
    airc_dtype dtype[AIRC_ITER_MAX_OPERANDS];
    size_t elsize[AIRC_ITER_MAX_OPERANDS];
} airc_iter;

/* One innermost run: n elements; ptrs[i] the first element of operand i
 * (0 = output), strides[i] its stride in elements. */
typedef void (*airc_iter_loop_fn)(void *user, int64_t n, char *const *ptrs,
                                  const int64_t *strides);

/* Sets the iterator up over out and nin inputs (nin <= 3; an input may be
 * 0-d). AIRC_E_SHAPE when an input does not broadcast to out's shape,
 * AIRC_E_INVALID_ARGUMENT for a bad dtype or NULL data with elements. */
AIRC_HIDDEN airc_status airc_iter_init(airc_iter *it, const airc_tview *out,
                                       const airc_tview *const *in, int32_t nin);

/* True when every input is 0-d or has out's shape, and out and those inputs
 * are C-contiguous: one flat run (the common case, which airc_iter_init
 * sets up without the general sort and coalescing). */
AIRC_HIDDEN bool airc_iter_flat(const airc_tview *out, const airc_tview *const *in, int32_t nin);

/* Calls loop once per innermost run, in order (single-threaded). */
AIRC_HIDDEN void airc_iter_run(const airc_iter *it, airc_iter_loop_fn loop, void *user);

#endif
