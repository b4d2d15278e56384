/* The context: allocator hook, logging, op registry; reference counted so
 * that destroying it while graphs live is safe (it dies with the last one). */
#include "core/core.h"
#include "ops/ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void *libc_malloc(void *ud, size_t n)
{
    (void)ud;
    return malloc(n);
}

static void *libc_realloc(void *ud, void *p, size_t n)
{
    (void)ud;
    return realloc(p, n);
}

static void libc_free(void *ud, void *p)
{
    (void)ud;
    free(p);
}

static int32_t level_from_env(void)
{
    const char *s = getenv("AIRC_LOG");
    if (!s)
        return AIRC_LOG_WARN;
    if (!strcasecmp(s, "error"))
        return AIRC_LOG_ERROR;
    if (!strcasecmp(s, "info"))
        return AIRC_LOG_INFO;
    if (!strcasecmp(s, "debug"))
        return AIRC_LOG_DEBUG;
    return AIRC_LOG_WARN;
}

airc_status airc_check_context(const airc_context *ctx, const char *fn)
{
    if (!ctx)
        return airc_fail(AIRC_E_MISUSE, "%s: context is NULL", fn);
    if (ctx->magic != AIRC_MAGIC_CONTEXT)
        return airc_fail(AIRC_E_MISUSE, "%s: not a live airc_context", fn);
    return AIRC_OK;
}

airc_status airc_context_create(const airc_allocator *allocator, airc_context **out)
{
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_context_create: out is NULL");
    airc_allocator a = {sizeof a, libc_malloc, libc_realloc, libc_free, NULL};
    if (allocator) {
        if (allocator->struct_size < sizeof(airc_allocator))
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "airc_context_create: allocator struct_size %zu < %zu",
                             allocator->struct_size, sizeof(airc_allocator));
        if (!allocator->malloc_fn || !allocator->realloc_fn || !allocator->free_fn)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "airc_context_create: allocator needs malloc_fn, realloc_fn and free_fn");
        a = *allocator;
        a.struct_size = sizeof a;
    }
    airc_context *ctx = a.malloc_fn(a.user_data, sizeof *ctx);
    if (!ctx)
        return airc_fail_oom("context");
    memset(ctx, 0, sizeof *ctx);
    ctx->alloc = a;
    atomic_init(&ctx->refs, 1);
    atomic_init(&ctx->log_level, level_from_env());
    if (pthread_mutex_init(&ctx->log_lock, NULL)) {
        a.free_fn(a.user_data, ctx);
        return airc_fail(AIRC_E_INTERNAL, "airc_context_create: pthread_mutex_init failed");
    }
    ctx->magic = AIRC_MAGIC_CONTEXT;
    airc_status st = airc_registry_create(ctx);
    if (st != AIRC_OK) {
        pthread_mutex_destroy(&ctx->log_lock);
        ctx->magic = AIRC_MAGIC_DEAD;
        a.free_fn(a.user_data, ctx);
        return st;
    }
    *out = ctx;
    return AIRC_OK;
}

void airc_context_retain(airc_context *ctx)
{
    atomic_fetch_add(&ctx->refs, 1);
}

void airc_context_release(airc_context *ctx)
{
    if (atomic_fetch_sub(&ctx->refs, 1) != 1)
        return;
    airc_pass_registry_destroy(ctx);
    airc_ge_type_table_destroy(ctx);
    airc_registry_destroy(ctx);
    if (ctx->log_free)
        ctx->log_free(ctx->log_user_data);
    airc_plugins_close(ctx); /* after every callback that may live in a plugin */
    pthread_mutex_destroy(&ctx->log_lock);
    ctx->magic = AIRC_MAGIC_DEAD;
    airc_allocator a = ctx->alloc;
    a.free_fn(a.user_data, ctx);
}

void airc_context_destroy(airc_context *ctx)
{
    if (!ctx || ctx->magic != AIRC_MAGIC_CONTEXT)
        return;
    airc_context_release(ctx);
}

airc_status airc_context_set_log(airc_context *ctx, airc_log_fn fn, void *user_data,
                                 airc_free_fn free_user_data)
{
    AIRC_TRY(airc_check_context(ctx, "airc_context_set_log"));
    pthread_mutex_lock(&ctx->log_lock);
    airc_free_fn old_free = ctx->log_free;
    void *old_ud = ctx->log_user_data;
    ctx->log_fn = fn;
    ctx->log_user_data = fn ? user_data : NULL;
    ctx->log_free = fn ? free_user_data : NULL;
    pthread_mutex_unlock(&ctx->log_lock);
    if (old_free)
        old_free(old_ud);
    if (!fn && free_user_data)
        free_user_data(user_data);
    return AIRC_OK;
}

airc_status airc_context_set_log_level(airc_context *ctx, int32_t level)
{
    AIRC_TRY(airc_check_context(ctx, "airc_context_set_log_level"));
    if (level < AIRC_LOG_ERROR || level > AIRC_LOG_DEBUG)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_context_set_log_level: level %d not in [0, 3]", (int)level);
    atomic_store(&ctx->log_level, level);
    return AIRC_OK;
}

int32_t airc_context_log_level(const airc_context *ctx)
{
    if (!ctx || ctx->magic != AIRC_MAGIC_CONTEXT)
        return AIRC_LOG_WARN;
    return atomic_load(&((airc_context *)ctx)->log_level);
}

bool airc_log_enabled(const airc_context *ctx, int32_t level)
{
    return level <= atomic_load(&((airc_context *)ctx)->log_level);
}

void airc_log(airc_context *ctx, int32_t level, const char *fmt, ...)
{
    if (!airc_log_enabled(ctx, level))
        return;
    static const char *const names[] = {"error", "warn", "info", "debug"};
    airc_strbuf sb;
    airc_sb_init(&sb, ctx);
    va_list ap;
    va_start(ap, fmt);
    char small[512];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n >= sizeof small) {
        /* long messages (a whole graph) go through the buffer */
        if (airc_grow(ctx, (void **)&sb.data, &sb.cap, (size_t)n + 1, 1)) {
            va_start(ap, fmt);
            vsnprintf(sb.data, (size_t)n + 1, fmt, ap);
            va_end(ap);
            sb.len = (size_t)n;
        }
    }
    const char *msg = sb.len ? sb.data : small;
    pthread_mutex_lock(&ctx->log_lock);
    if (ctx->log_fn)
        ctx->log_fn(ctx->log_user_data, level, msg);
    else
        fprintf(stderr, "airc %s: %s\n", names[level < 0 ? 0 : level > 3 ? 3 : level], msg);
    pthread_mutex_unlock(&ctx->log_lock);
    airc_sb_free(&sb);
}
