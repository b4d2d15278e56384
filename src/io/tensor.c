/* Host tensors: contiguous, 64-byte aligned, allocated through the context's
 * hook. The hook only promises max_align_t alignment, so the data block is
 * over-allocated by AIRC_TENSOR_ALIGN - 1 bytes and rounded up; the raw
 * pointer is kept for the free. */
#include "io/io.h"

#include <string.h>

airc_status airc_check_tensor(const airc_tensor *t, const char *fn)
{
    if (!t)
        return airc_fail(AIRC_E_MISUSE, "%s: tensor is NULL", fn);
    if (t->magic != AIRC_MAGIC_TENSOR)
        return airc_fail(AIRC_E_MISUSE, "%s: not a live airc_tensor", fn);
    return AIRC_OK;
}

airc_status airc_tensor_check_shape(const char *what, airc_dtype dtype, int32_t ndim,
                                    const int64_t *shape, size_t *numel, size_t *nbytes)
{
    size_t elem = airc_dtype_size(dtype);
    if (!elem)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: invalid dtype %d", what, (int)dtype);
    if (ndim < 0 || ndim > AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: ndim %d not in [0, %d]", what, (int)ndim,
                         AIRC_MAX_DIMS);
    if (ndim > 0 && !shape)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: shape is NULL with ndim %d", what,
                         (int)ndim);
    bool empty = false;
    for (int32_t i = 0; i < ndim; i++) {
        if (shape[i] < 0)
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: dim %d is negative (%lld)", what,
                             (int)i, (long long)shape[i]);
        empty |= shape[i] == 0;
    }
    /* numpy allows (0, 2**62): a zero dim makes any other size harmless. */
    size_t n = empty ? 0 : 1;
    for (int32_t i = 0; i < ndim && !empty; i++) {
        if ((uint64_t)shape[i] > SIZE_MAX / n)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "%s: shape too large (element count overflows)", what);
        n *= (size_t)shape[i];
    }
    if (n > (SIZE_MAX - AIRC_TENSOR_ALIGN) / elem)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: shape too large (%zu elements of %zu bytes)",
                         what, n, elem);
    *numel = n;
    *nbytes = n * elem;
    return AIRC_OK;
}

/* A zeroed tensor header with its metadata filled in (no data, ctx not
 * retained yet); NULL when out of memory. */
static airc_tensor *header(airc_context *ctx, airc_dtype dtype, int32_t ndim, const int64_t *shape,
                           size_t numel, size_t nbytes)
{
    airc_tensor *t = airc_malloc(ctx, sizeof *t);
    if (!t)
        return NULL;
    memset(t, 0, sizeof *t);
    t->magic = AIRC_MAGIC_TENSOR;
    t->ctx = ctx;
    t->dtype = dtype;
    t->ndim = ndim;
    if (ndim)
        memcpy(t->shape, shape, (size_t)ndim * sizeof *shape);
    t->numel = numel;
    t->nbytes = nbytes;
    return t;
}

airc_status airc_tensor_new(airc_context *ctx, airc_dtype dtype, int32_t ndim,
                            const int64_t *shape, bool zero, airc_tensor **out)
{
    size_t numel, nbytes;
    AIRC_TRY(airc_tensor_check_shape("airc_tensor_create", dtype, ndim, shape, &numel, &nbytes));
    airc_tensor *t = header(ctx, dtype, ndim, shape, numel, nbytes);
    if (!t)
        return airc_fail_oom("tensor");
    t->raw = airc_malloc(ctx, nbytes + AIRC_TENSOR_ALIGN - 1);
    if (!t->raw) {
        airc_free(ctx, t);
        return airc_fail(AIRC_E_OUT_OF_MEMORY, "out of memory: allocating %zu bytes of tensor data",
                         nbytes);
    }
    uintptr_t p = (uintptr_t)t->raw;
    t->data = (void *)((p + AIRC_TENSOR_ALIGN - 1) & ~(uintptr_t)(AIRC_TENSOR_ALIGN - 1));
    if (zero && nbytes)
        memset(t->data, 0, nbytes);
    airc_context_retain(ctx);
    *out = t;
    return AIRC_OK;
}

airc_status airc_tensor_create(airc_context *ctx, airc_dtype dtype, int32_t ndim,
                               const int64_t *shape, airc_tensor **out)
{
    AIRC_TRY(airc_check_context(ctx, "airc_tensor_create"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_tensor_create: out is NULL");
    return airc_tensor_new(ctx, dtype, ndim, shape, true, out);
}

airc_status airc_tensor_wrap(airc_context *ctx, airc_dtype dtype, int32_t ndim,
                             const int64_t *shape, void *data, airc_tensor **out)
{
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_tensor_wrap: out is NULL");
    *out = NULL;
    AIRC_TRY(airc_check_context(ctx, "airc_tensor_wrap"));
    size_t numel, nbytes;
    AIRC_TRY(airc_tensor_check_shape("airc_tensor_wrap", dtype, ndim, shape, &numel, &nbytes));
    if (!data && nbytes)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_tensor_wrap: data is NULL");
    airc_tensor *t = header(ctx, dtype, ndim, shape, numel, nbytes);
    if (!t)
        return airc_fail_oom("tensor");
    static max_align_t empty;
    t->data = data ? data : (void *)&empty;
    airc_context_retain(ctx);
    *out = t;
    return AIRC_OK;
}

int32_t airc_tensor_owns_data(const airc_tensor *t)
{
    return t && t->magic == AIRC_MAGIC_TENSOR && t->raw != NULL;
}

void airc_tensor_destroy(airc_tensor *t)
{
    if (!t || t->magic != AIRC_MAGIC_TENSOR)
        return;
    airc_context *ctx = t->ctx;
    t->magic = AIRC_MAGIC_DEAD;
    airc_free(ctx, t->raw);
    airc_free(ctx, t);
    airc_context_release(ctx); /* last: the release may free the allocator's owner */
}

static bool live(const airc_tensor *t)
{
    return t && t->magic == AIRC_MAGIC_TENSOR;
}

airc_dtype airc_tensor_dtype(const airc_tensor *t)
{
    return live(t) ? t->dtype : AIRC_DTYPE_UNDEFINED;
}

int32_t airc_tensor_ndim(const airc_tensor *t)
{
    return live(t) ? t->ndim : 0;
}

const int64_t *airc_tensor_shape(const airc_tensor *t)
{
    return live(t) ? t->shape : NULL;
}

size_t airc_tensor_numel(const airc_tensor *t)
{
    return live(t) ? t->numel : 0;
}

size_t airc_tensor_nbytes(const airc_tensor *t)
{
    return live(t) ? t->nbytes : 0;
}

void *airc_tensor_data(const airc_tensor *t)
{
    return live(t) ? t->data : NULL;
}
