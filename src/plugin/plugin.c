/* Plugins: shared libraries loaded into a context (include/airc/plugin.h).
 *
 * Each context keeps the libraries it loaded in a list (newest first) and
 * unloads them when it dies, after its registries: ops, meta functions and
 * passes a plugin registered point into the library's code, so it must stay
 * mapped for as long as any of them can run. */
#include "airc/plugin.h"
#include "core/core.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

struct airc_plugin {
    airc_plugin *next;
    void *handle;
    char *path;
};

/* One lock for every context's list: loads are rare, and a global lock
 * needs no change to context creation. Never held while plugin code runs
 * (an init may load further plugins). */
static pthread_mutex_t plugin_lock = PTHREAD_MUTEX_INITIALIZER;

_Static_assert(sizeof(void *) == sizeof(airc_plugin_init_fn),
               "dlsym's result must fit a function pointer (POSIX)");

/* dlsym returns an object pointer; POSIX guarantees it converts to a
 * function pointer, ISO C does not, hence the copy. */
static bool find_symbol(void *handle, const char *name, void *fn_out)
{
    dlerror();
    void *sym = dlsym(handle, name);
    if (!sym)
        return false;
    memcpy(fn_out, &sym, sizeof sym);
    return true;
}

static const airc_plugin *find_loaded(const airc_context *ctx, const void *handle)
{
    for (const airc_plugin *p = ctx->plugins; p; p = p->next)
        if (p->handle == handle)
            return p;
    return NULL;
}

/* Checks the entry points; on failure the caller closes the handle. */
static airc_status check_entry_points(void *handle, const char *path, airc_plugin_init_fn *init)
{
    airc_plugin_abi_version_fn version;
    if (!find_symbol(handle, "airc_plugin_abi_version", &version))
        return airc_fail(AIRC_E_NOT_FOUND,
                         "plugin '%s' is not an airc plugin: it does not export "
                         "airc_plugin_abi_version",
                         path);
    int32_t v = version();
    if (v != AIRC_PLUGIN_ABI_VERSION)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "plugin '%s' was built for airc plugin ABI version %d, but this airc "
                         "(%s) implements plugin ABI version %d",
                         path, (int)v, AIRC_VERSION_STRING, AIRC_PLUGIN_ABI_VERSION);
    if (!find_symbol(handle, "airc_plugin_init", init))
        return airc_fail(AIRC_E_NOT_FOUND,
                         "plugin '%s' is not an airc plugin: it does not export airc_plugin_init",
                         path);
    return AIRC_OK;
}

/* Adds the loaded library to ctx's list unless it is there already. */
static airc_status remember(airc_context *ctx, void *handle, const char *path)
{
    airc_plugin *p = airc_malloc(ctx, sizeof *p);
    char *copy = airc_strdup(ctx, path);
    if (!p || !copy) {
        airc_free(ctx, p);
        airc_free(ctx, copy);
        return airc_fail_oom("plugin list");
    }
    p->handle = handle;
    p->path = copy;
    pthread_mutex_lock(&plugin_lock);
    const airc_plugin *old = find_loaded(ctx, handle);
    if (!old) {
        p->next = ctx->plugins;
        ctx->plugins = p;
    }
    pthread_mutex_unlock(&plugin_lock);
    if (old) {
        /* old->path stays valid: entries live as long as the context */
        airc_status st = airc_fail(AIRC_E_EXISTS,
                                   "plugin '%s' is already loaded in this context (from '%s')",
                                   path, old->path);
        airc_free(ctx, copy);
        airc_free(ctx, p);
        return st;
    }
    return AIRC_OK;
}

airc_status airc_context_load_plugin(airc_context *ctx, const char *path)
{
    AIRC_TRY(airc_check_context(ctx, "airc_context_load_plugin"));
    if (!path || !*path)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_context_load_plugin: empty path");
    dlerror();
    /* RTLD_NOW: a missing symbol is reported here, not as a crash later */
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        return airc_fail(AIRC_E_IO, "cannot load plugin '%s': %s", path,
                         why ? why : "dlopen failed");
    }
    airc_plugin_init_fn init = NULL;
    airc_status st = check_entry_points(handle, path, &init);
    if (st == AIRC_OK)
        st = remember(ctx, handle, path);
    if (st != AIRC_OK) {
        dlclose(handle); /* for an already loaded one, drops only our reference */
        return st;
    }
    (void)airc_fail(AIRC_OK, "%s", ""); /* so that a failure without a message shows */
    st = init(ctx);
    if (st == AIRC_OK)
        return AIRC_OK;
    /* The library stays loaded: init may have registered part of its
     * callbacks before failing. */
    char why[1024];
    const char *msg = airc_last_error();
    snprintf(why, sizeof why, "%s", msg && *msg ? msg : airc_status_name(st));
    if (st < AIRC_E_INVALID_ARGUMENT || st > AIRC_E_INTERNAL)
        return airc_fail(AIRC_E_RUNTIME, "plugin '%s': airc_plugin_init returned %d: %s", path,
                         (int)st, why);
    return airc_fail(st, "plugin '%s': airc_plugin_init failed: %s", path, why);
}

size_t airc_context_num_plugins(airc_context *ctx)
{
    if (!ctx || ctx->magic != AIRC_MAGIC_CONTEXT)
        return 0;
    size_t n = 0;
    pthread_mutex_lock(&plugin_lock);
    for (const airc_plugin *p = ctx->plugins; p; p = p->next)
        n++;
    pthread_mutex_unlock(&plugin_lock);
    return n;
}

const char *airc_context_plugin_path(airc_context *ctx, size_t i)
{
    if (!ctx || ctx->magic != AIRC_MAGIC_CONTEXT)
        return NULL;
    const char *path = NULL;
    pthread_mutex_lock(&plugin_lock);
    size_t n = 0;
    for (const airc_plugin *p = ctx->plugins; p; p = p->next)
        n++;
    if (i < n) {
        const airc_plugin *p = ctx->plugins;
        for (size_t k = n - 1; k > i; k--) /* the list is newest first */
            p = p->next;
        path = p->path;
    }
    pthread_mutex_unlock(&plugin_lock);
    return path;
}

void airc_plugins_close(airc_context *ctx)
{
    airc_plugin *p = ctx->plugins;
    ctx->plugins = NULL;
    while (p) {
        airc_plugin *next = p->next;
        dlclose(p->handle);
        airc_free(ctx, p->path);
        airc_free(ctx, p);
        p = next;
    }
}
