/* Bump arena: a graph's nodes, names and values live here and die with it. */
#include "core/core.h"

#include <string.h>

struct airc_arena_chunk {
    airc_arena_chunk *next;
    size_t cap;
    size_t used;
    max_align_t data[];
};

#define AIRC_ARENA_ALIGN 16u
#define AIRC_ARENA_MIN_CHUNK 4096u

void airc_arena_init(airc_arena *a, airc_context *ctx)
{
    a->ctx = ctx;
    a->head = NULL;
    a->bytes = 0;
}

void airc_arena_free(airc_arena *a)
{
    airc_arena_chunk *c = a->head;
    while (c) {
        airc_arena_chunk *next = c->next;
        airc_free(a->ctx, c);
        c = next;
    }
    a->head = NULL;
    a->bytes = 0;
}

/* A chunk's first allocation starts on a cache line, so that a run of
 * equal blocks whose size is a multiple of it (the nodes in their own
 * arena) never straddles more lines than it must. */
#define AIRC_ARENA_LINE 64u

void *airc_arena_alloc(airc_arena *a, size_t size)
{
    airc_arena_chunk *c = a->head;
    size_t off = c ? (c->used + AIRC_ARENA_ALIGN - 1) & ~(size_t)(AIRC_ARENA_ALIGN - 1) : 0;
    if (!c || size > c->cap || off > c->cap - size) {
        if (size > SIZE_MAX / 2 - sizeof(airc_arena_chunk) - AIRC_ARENA_LINE)
            return NULL;
        /* chunks grow with the arena so that big graphs need few chunks */
        size_t cap = a->bytes / 2 > AIRC_ARENA_MIN_CHUNK ? a->bytes / 2 : AIRC_ARENA_MIN_CHUNK;
        if (cap > (1u << 24))
            cap = 1u << 24;
        if (cap < size)
            cap = size;
        /* data is 16-aligned: at most 48 bytes of padding reach a line */
        airc_arena_chunk *nc =
            airc_malloc(a->ctx, sizeof *nc + cap + AIRC_ARENA_LINE - AIRC_ARENA_ALIGN);
        if (!nc)
            return NULL;
        size_t pad = (AIRC_ARENA_LINE - ((uintptr_t)nc->data & (AIRC_ARENA_LINE - 1))) &
                     (AIRC_ARENA_LINE - 1);
        nc->cap = pad + cap;
        nc->used = pad;
        airc_prefault((char *)nc->data + pad, cap); /* the arena writes all of it */
        if (c && size > AIRC_ARENA_MIN_CHUNK && c->cap - c->used > AIRC_ARENA_MIN_CHUNK) {
            /* a big one-off: keep the current chunk in front for small allocations */
            nc->next = c->next;
            c->next = nc;
            nc->used = pad + size;
            a->bytes += cap;
            return (char *)nc->data + pad;
        }
        nc->next = c;
        a->head = nc;
        a->bytes += cap;
        c = nc;
        off = pad;
    }
    c->used = off + size;
    return (char *)c->data + off;
}

void *airc_arena_calloc(airc_arena *a, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    void *p = airc_arena_alloc(a, n * size);
    if (p)
        memset(p, 0, n * size);
    return p;
}

char *airc_arena_strndup(airc_arena *a, const char *s, size_t len)
{
    if (len == SIZE_MAX)
        return NULL;
    char *p = airc_arena_alloc(a, len + 1);
    if (p) {
        if (len)
            memcpy(p, s, len);
        p[len] = '\0';
    }
    return p;
}

char *airc_arena_strdup(airc_arena *a, const char *s)
{
    return airc_arena_strndup(a, s, strlen(s));
}

void *airc_arena_memdup(airc_arena *a, const void *p, size_t size)
{
    void *q = airc_arena_alloc(a, size);
    if (q && size)
        memcpy(q, p, size);
    return q;
}
