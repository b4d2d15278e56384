/* Internal interface of host tensors (src/io/tensor.c) for the .npy reader
 * and the layers above (constants, runtimes, the CLI). */
#ifndef AIRC_IO_H
#define AIRC_IO_H

#include "core/core.h"

/* Data is aligned to this many bytes (cache line; AVX-512 loads). */
#define AIRC_TENSOR_ALIGN 64

struct airc_tensor {
    uint32_t magic; /* AIRC_MAGIC_TENSOR while alive */
    airc_context *ctx; /* one reference held */
    airc_dtype dtype;
    int32_t ndim;
    int64_t shape[AIRC_MAX_DIMS];
    size_t numel;
    size_t nbytes;
    void *raw;  /* what the allocator returned; freed */
    void *data; /* raw rounded up to AIRC_TENSOR_ALIGN; never NULL, even if nbytes is 0 */
};

/* Validates a tensor handle (AIRC_E_MISUSE naming `fn`). */
AIRC_HIDDEN airc_status airc_check_tensor(const airc_tensor *t, const char *fn);

/* Checks dtype/ndim/shape and computes numel and nbytes with overflow
 * checks. Errors are AIRC_E_INVALID_ARGUMENT prefixed with `what`. */
AIRC_HIDDEN airc_status airc_tensor_check_shape(const char *what, airc_dtype dtype, int32_t ndim,
                                                const int64_t *shape, size_t *numel,
                                                size_t *nbytes);

/* airc_tensor_create, but with the data left uninitialised when `zero` is
 * false (readers that overwrite every byte skip the memset). */
AIRC_HIDDEN airc_status airc_tensor_new(airc_context *ctx, airc_dtype dtype, int32_t ndim,
                                        const int64_t *shape, bool zero, airc_tensor **out);

#endif
