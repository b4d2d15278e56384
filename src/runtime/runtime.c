/* The airc_runtime wrapper: a validated copy of a runtime's vtable, its ctx,
 * and a reference on the airc context. Executors only ever call a runtime
 * through this copy, so a runtime built against an older (smaller) vtable
 * reads as one whose newer members are NULL. */
#include "core/core.h"

#include "airc/runtime.h"

#include <string.h>

#define AIRC_MAGIC_RUNTIME 0x41435254u /* "ACRT" */

struct airc_runtime {
    uint32_t magic;
    airc_context *ctx;
    airc_runtime_vtable vt; /* zero-filled past the runtime's struct_size */
    char *device_type;      /* owned copy: the runtime's string may be temporary */
    void *rctx;
};

/* Byte offset just past member m: a vtable must be at least this large to
 * carry m. */
#define AIRC_VT_END(m) (offsetof(airc_runtime_vtable, m) + sizeof(((airc_runtime_vtable *)0)->m))

static airc_status check_required(const airc_runtime_vtable *vt)
{
    /* Every required member sits before the optional ones, so one size check
     * covers them all. */
    static const struct {
        const char *name;
        size_t offset;
    } required[] = {
#define AIRC_REQ(m) {#m, offsetof(airc_runtime_vtable, m)}
        AIRC_REQ(alloc),          AIRC_REQ(free),          AIRC_REQ(copy),
        AIRC_REQ(stream_create),  AIRC_REQ(stream_destroy), AIRC_REQ(event_create),
        AIRC_REQ(event_destroy),  AIRC_REQ(event_record),  AIRC_REQ(stream_wait_event),
        AIRC_REQ(launch),         AIRC_REQ(synchronize),
#undef AIRC_REQ
    };
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        void (*fn)(void);
        memcpy(&fn, (const char *)vt + required[i].offset, sizeof fn);
        if (!fn)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "airc_runtime_create: required vtable member '%s' is NULL",
                             required[i].name);
    }
    return AIRC_OK;
}

airc_status airc_runtime_create(airc_context *ctx, const airc_runtime_vtable *vtable,
                                void *runtime_ctx, airc_runtime **out)
{
    AIRC_TRY(airc_check_context(ctx, "airc_runtime_create"));
    if (!vtable)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_runtime_create: vtable is NULL");
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_runtime_create: out is NULL");
    /* struct_size and abi_version are read before we know how big the
     * struct is; they are the fixed prefix every version shares. */
    if (vtable->struct_size < AIRC_VT_END(synchronize))
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_runtime_create: vtable struct_size %zu is smaller than the "
                         "required members (%zu bytes)",
                         vtable->struct_size, (size_t)AIRC_VT_END(synchronize));
    if (vtable->abi_version > AIRC_RUNTIME_ABI_VERSION)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "airc_runtime_create: runtime ABI version %d is newer than airc's (%d)",
                         (int)vtable->abi_version, AIRC_RUNTIME_ABI_VERSION);
    if (vtable->abi_version < 1)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_runtime_create: bad runtime ABI version %d",
                         (int)vtable->abi_version);
    if (!vtable->device_type || !vtable->device_type[0])
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_runtime_create: vtable device_type is NULL or empty");

    airc_runtime_vtable vt;
    memset(&vt, 0, sizeof vt);
    size_t n = vtable->struct_size < sizeof vt ? vtable->struct_size : sizeof vt;
    memcpy(&vt, vtable, n);
    AIRC_TRY(check_required(&vt));
    /* The copy is complete (zero-filled past the caller's size), so readers
     * of airc_runtime_vtable_of may test any member for NULL. */
    vt.struct_size = sizeof vt;

    airc_runtime *rt = airc_calloc(ctx, 1, sizeof *rt);
    if (!rt)
        return airc_fail_oom("runtime");
    rt->device_type = airc_strdup(ctx, vtable->device_type);
    if (!rt->device_type) {
        airc_free(ctx, rt);
        return airc_fail_oom("runtime device type");
    }
    vt.device_type = rt->device_type;
    rt->vt = vt;
    rt->rctx = runtime_ctx;
    rt->ctx = ctx;
    rt->magic = AIRC_MAGIC_RUNTIME;
    airc_context_retain(ctx);
    *out = rt;
    return AIRC_OK;
}

/* Accessors cannot return a status: a bad handle yields NULL and records
 * AIRC_E_MISUSE as the thread's last error. */
static bool runtime_ok(const airc_runtime *rt, const char *fn)
{
    if (rt && rt->magic == AIRC_MAGIC_RUNTIME)
        return true;
    airc_fail(AIRC_E_MISUSE, "%s: %s runtime handle", fn, rt ? "invalid or destroyed" : "NULL");
    return false;
}

void airc_runtime_destroy(airc_runtime *rt)
{
    if (!rt || !runtime_ok(rt, "airc_runtime_destroy"))
        return;
    rt->magic = AIRC_MAGIC_DEAD;
    if (rt->vt.destroy)
        rt->vt.destroy(rt->rctx);
    airc_context *ctx = rt->ctx;
    airc_free(ctx, rt->device_type);
    airc_free(ctx, rt);
    airc_context_release(ctx);
}

const char *airc_runtime_device_type(const airc_runtime *rt)
{
    return runtime_ok(rt, "airc_runtime_device_type") ? rt->device_type : NULL;
}

const airc_runtime_vtable *airc_runtime_vtable_of(const airc_runtime *rt)
{
    return runtime_ok(rt, "airc_runtime_vtable_of") ? &rt->vt : NULL;
}

void *airc_runtime_ctx(const airc_runtime *rt)
{
    return runtime_ok(rt, "airc_runtime_ctx") ? rt->rctx : NULL;
}
