/* Allocation through the context's hook; caller-owned strings. */
#define _DEFAULT_SOURCE /* madvise */
#include "core/core.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

void *airc_malloc(airc_context *ctx, size_t size)
{
    return ctx->alloc.malloc_fn(ctx->alloc.user_data, size ? size : 1);
}

void *airc_calloc(airc_context *ctx, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    size_t bytes = n * size;
    void *p = airc_malloc(ctx, bytes);
    if (p && bytes) {
        airc_prefault(p, bytes);
        memset(p, 0, bytes);
    }
    return p;
}

void airc_prefault(void *p, size_t size)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    /* One call maps the whole block: taking a page fault per 4 KiB page
     * costs several times the zeroing of the page itself (a third of the
     * time of building a million-node graph went to faults). Linux >= 5.14;
     * elsewhere, or on failure, the pages fault in one by one as before. */
    enum { PAGE = 4096 };
    if (size < AIRC_PREFAULT_MIN)
        return;
    uintptr_t lo = ((uintptr_t)p + PAGE - 1) & ~(uintptr_t)(PAGE - 1);
    uintptr_t hi = ((uintptr_t)p + size) & ~(uintptr_t)(PAGE - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)size;
#endif
}

void *airc_realloc(airc_context *ctx, void *p, size_t size)
{
    return ctx->alloc.realloc_fn(ctx->alloc.user_data, p, size ? size : 1);
}

void airc_free(airc_context *ctx, void *p)
{
    if (p)
        ctx->alloc.free_fn(ctx->alloc.user_data, p);
}

char *airc_strdup(airc_context *ctx, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = airc_malloc(ctx, n);
    if (p)
        memcpy(p, s, n);
    return p;
}

bool airc_grow(airc_context *ctx, void **data, size_t *cap, size_t need, size_t elem_size)
{
    if (need <= *cap)
        return true;
    size_t ncap = *cap ? *cap : 4;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return false;
        ncap *= 2;
    }
    if (ncap > SIZE_MAX / elem_size)
        return false;
    void *p = airc_realloc(ctx, *data, ncap * elem_size);
    if (!p)
        return false;
    *data = p;
    *cap = ncap;
    return true;
}

/* A caller string carries the allocator it came from, so that
 * airc_string_free works without (and after) the context. */
typedef struct airc_string_header {
    airc_allocator alloc;
    max_align_t pad_;
} airc_string_header;

char *airc_string_new(airc_context *ctx, const char *s, size_t len)
{
    if (len > SIZE_MAX - sizeof(airc_string_header) - 1)
        return NULL;
    airc_string_header *h = airc_malloc(ctx, sizeof *h + len + 1);
    if (!h)
        return NULL;
    h->alloc = ctx->alloc;
    char *out = (char *)(h + 1);
    if (len)
        memcpy(out, s, len);
    out[len] = '\0';
    return out;
}

size_t airc_string_header_size(void)
{
    return sizeof(airc_string_header);
}

char *airc_string_adopt(airc_context *ctx, char *block, size_t len)
{
    airc_string_header h = {.alloc = ctx->alloc};
    memmove(block + sizeof h, block, len);
    block[sizeof h + len] = '\0';
    memcpy(block, &h, sizeof h);
    return block + sizeof h;
}

void airc_string_free(char *s)
{
    if (!s)
        return;
    airc_string_header *h = (airc_string_header *)s - 1;
    h->alloc.free_fn(h->alloc.user_data, h);
}
