/* airc — plugins: shared libraries that extend a context.
 *
 * A plugin is a shared library (e.g. built with CMake's add_library(... MODULE))
 * that exports two functions:
 *
 *     #include <airc/plugin.h>
 *
 *     int32_t airc_plugin_abi_version(void) { return AIRC_PLUGIN_ABI_VERSION; }
 *
 *     airc_status airc_plugin_init(airc_context *ctx)
 *     {
 *         airc_op_def def;
 *         airc_op_def_init(&def);
 *         def.schema = "myns::fused(Tensor x) -> Tensor";
 *         AIRC_TRY_PLUGIN(airc_context_register_op(ctx, &def, NULL));
 *         return airc_context_register_pass(ctx, "myns.lower", my_pass, NULL, NULL);
 *     }
 *
 * airc_context_load_plugin (and `airc --plugin LIB.so`) loads the library,
 * checks airc_plugin_abi_version() against the AIRC_PLUGIN_ABI_VERSION airc
 * was built with, then calls airc_plugin_init once for that context. What
 * init registers (ops, meta functions, named passes) lives as long as the
 * context; the library stays loaded until the context dies, and is unloaded
 * only after everything it registered has been released.
 *
 * Linking: a plugin may leave airc's symbols undefined (the host process
 * provides them: the airc tool, or an application linked with libairc.so)
 * or link libairc.so itself. It must not link the static library (that
 * would be a second copy of airc with its own state).
 */
#ifndef AIRC_PLUGIN_H
#define AIRC_PLUGIN_H

#include "airc/airc.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Version of the plugin contract (these two entry points and their
 *  meaning). Bumped when it changes incompatibly. */
#define AIRC_PLUGIN_ABI_VERSION 1

/** Type of a plugin's `airc_plugin_abi_version` (required). */
typedef int32_t (*airc_plugin_abi_version_fn)(void);
/** Type of a plugin's `airc_plugin_init` (required): registers what the
 *  plugin provides into ctx. @return AIRC_OK, or a status with a message
 *  (airc_pass_fail, or the status of the airc call that failed). */
typedef airc_status (*airc_plugin_init_fn)(airc_context *ctx);

/* Declared here (with default visibility) so that a plugin built with
 * -fvisibility=hidden still exports them and gets their types checked. */
#if defined(_WIN32)
#  define AIRC_PLUGIN_EXPORT __declspec(dllexport)
#else
#  define AIRC_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif
AIRC_PLUGIN_EXPORT int32_t airc_plugin_abi_version(void);
AIRC_PLUGIN_EXPORT airc_status airc_plugin_init(airc_context *ctx);

/** Convenience for plugin code: returns the status of expr when it fails. */
#define AIRC_TRY_PLUGIN(expr)                                                                      \
    do {                                                                                           \
        airc_status airc_try_plugin_st_ = (expr);                                                  \
        if (airc_try_plugin_st_ != AIRC_OK)                                                        \
            return airc_try_plugin_st_;                                                            \
    } while (0)

/** Loads the plugin at `path` into ctx: dlopen (RTLD_NOW | RTLD_LOCAL; a
 *  path without '/' is searched the way dlopen searches), check
 *  airc_plugin_abi_version() == AIRC_PLUGIN_ABI_VERSION, call
 *  airc_plugin_init(ctx). The library stays loaded until ctx dies.
 *  Thread-safe (plugin init may itself load plugins).
 *  @return AIRC_OK;
 *          AIRC_E_IO: dlopen failed (the message carries dlerror()'s text);
 *          AIRC_E_NOT_FOUND: the library lacks airc_plugin_abi_version or
 *            airc_plugin_init (not an airc plugin);
 *          AIRC_E_UNSUPPORTED: ABI version mismatch (both versions named);
 *          AIRC_E_EXISTS: this library (same file, whatever the path) is
 *            already loaded into ctx;
 *          init's own status, its message prefixed with the path, when
 *            airc_plugin_init fails; the library then stays loaded until
 *            ctx dies, since init may have registered part of what it
 *            provides (loading it again is AIRC_E_EXISTS);
 *          AIRC_E_INVALID_ARGUMENT (empty path); AIRC_E_MISUSE;
 *          AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_context_load_plugin(airc_context *ctx, const char *path);

/** Plugins loaded into ctx (successfully or not), in load order, and the
 *  path each was loaded from (borrowed; lives as long as ctx). */
AIRC_API size_t airc_context_num_plugins(airc_context *ctx);
AIRC_API const char *airc_context_plugin_path(airc_context *ctx, size_t i);

#ifdef __cplusplus
}
#endif
#endif
