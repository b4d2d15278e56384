/* Named user passes registered on a context (plugins register theirs here;
 * the CLI's --pre-pass NAME finds them). Per context, never global: two
 * engines in one process never see each other's passes.
 *
 * The table is created on first use (a compare-and-swap publishes it, so
 * only contexts that use named passes pay for it) and lives until the
 * context dies. Entries are never removed, so a found entry stays valid. */
#include "passmgr/passmgr.h"

#include <string.h>

typedef struct pass_entry {
    char *name;
    airc_pass_fn fn;
    void *user_data;
    airc_free_fn free_user_data;
} pass_entry;

struct airc_pass_registry {
    pthread_mutex_t lock;
    pass_entry *items;
    size_t n, cap;
};

static airc_pass_registry *get_registry(airc_context *ctx, bool create)
{
    airc_pass_registry *r = atomic_load(&ctx->passes);
    if (r || !create)
        return r;
    r = airc_calloc(ctx, 1, sizeof *r);
    if (!r)
        return NULL;
    if (pthread_mutex_init(&r->lock, NULL)) {
        airc_free(ctx, r);
        return NULL;
    }
    airc_pass_registry *expected = NULL;
    if (!atomic_compare_exchange_strong(&ctx->passes, &expected, r)) {
        pthread_mutex_destroy(&r->lock); /* another thread won */
        airc_free(ctx, r);
        return expected;
    }
    return r;
}

void airc_pass_registry_destroy(airc_context *ctx)
{
    airc_pass_registry *r = atomic_exchange(&ctx->passes, NULL);
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++) {
        if (r->items[i].free_user_data)
            r->items[i].free_user_data(r->items[i].user_data);
        airc_free(ctx, r->items[i].name);
    }
    airc_free(ctx, r->items);
    pthread_mutex_destroy(&r->lock);
    airc_free(ctx, r);
}

static pass_entry *find_locked(airc_pass_registry *r, const char *name)
{
    for (size_t i = 0; i < r->n; i++) /* few passes: linear is fine */
        if (!strcmp(r->items[i].name, name))
            return &r->items[i];
    return NULL;
}

airc_status airc_context_register_pass(airc_context *ctx, const char *name, airc_pass_fn fn,
                                       void *user_data, airc_free_fn free_user_data)
{
    AIRC_TRY(airc_check_context(ctx, "airc_context_register_pass"));
    if (!name || !*name)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_context_register_pass: empty name");
    if (!fn)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_context_register_pass: pass '%s' has no function", name);
    if (airc_builtin_pass_find(name))
        return airc_fail(AIRC_E_EXISTS,
                         "airc_context_register_pass: '%s' is the name of a built-in pass", name);
    airc_pass_registry *r = get_registry(ctx, true);
    if (!r)
        return airc_fail_oom("pass registry");
    char *copy = airc_strdup(ctx, name);
    if (!copy)
        return airc_fail_oom("pass name");
    airc_status st = AIRC_OK;
    pthread_mutex_lock(&r->lock);
    if (find_locked(r, name))
        st = airc_fail(AIRC_E_EXISTS, "airc_context_register_pass: pass '%s' is already registered",
                       name);
    else if (!airc_grow(ctx, (void **)&r->items, &r->cap, r->n + 1, sizeof *r->items))
        st = airc_fail_oom("pass registry");
    else
        r->items[r->n++] = (pass_entry){copy, fn, user_data, free_user_data};
    pthread_mutex_unlock(&r->lock);
    if (st != AIRC_OK)
        airc_free(ctx, copy);
    return st;
}

airc_status airc_context_find_pass(airc_context *ctx, const char *name, airc_pass_fn *fn,
                                   void **user_data)
{
    AIRC_TRY(airc_check_context(ctx, "airc_context_find_pass"));
    if (!name)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_context_find_pass: name is NULL");
    airc_pass_registry *r = get_registry(ctx, false);
    pass_entry e = {0};
    bool found = false;
    if (r) {
        pthread_mutex_lock(&r->lock);
        pass_entry *p = find_locked(r, name);
        if (p) {
            e = *p;
            found = true;
        }
        pthread_mutex_unlock(&r->lock);
    }
    if (!found)
        return airc_fail(AIRC_E_NOT_FOUND, "no pass named '%s' is registered", name);
    if (fn)
        *fn = e.fn;
    if (user_data)
        *user_data = e.user_data;
    return AIRC_OK;
}

size_t airc_context_num_passes(airc_context *ctx)
{
    if (!ctx || ctx->magic != AIRC_MAGIC_CONTEXT)
        return 0;
    airc_pass_registry *r = get_registry(ctx, false);
    if (!r)
        return 0;
    pthread_mutex_lock(&r->lock);
    size_t n = r->n;
    pthread_mutex_unlock(&r->lock);
    return n;
}

const char *airc_context_pass_name(airc_context *ctx, size_t i)
{
    if (!ctx || ctx->magic != AIRC_MAGIC_CONTEXT)
        return NULL;
    airc_pass_registry *r = get_registry(ctx, false);
    if (!r)
        return NULL;
    pthread_mutex_lock(&r->lock);
    /* names are never freed before the context dies */
    const char *name = i < r->n ? r->items[i].name : NULL;
    pthread_mutex_unlock(&r->lock);
    return name;
}
