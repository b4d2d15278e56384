/* ModelDef <-> bytes with libprotobuf-c, through the context's allocator.
 * Unpacking refuses (never crashes on) truncated or malformed input:
 * protobuf-c validates lengths, wire types and UTF-8 of strings; what it
 * cannot say is where, so the message gives the size read. */
#include "backends/ge/ge_internal.h"

#include <stdbool.h>
#include <string.h>

/* protobuf-c reports a failed allocation like malformed input (NULL), so
 * the allocator remembers it: AIRC_E_OUT_OF_MEMORY, not AIRC_E_PARSE. */
typedef struct pc_state {
    airc_context *ctx;
    bool oom;
} pc_state;

static void *pc_alloc(void *ud, size_t size)
{
    pc_state *s = ud;
    void *p = airc_malloc(s->ctx, size ? size : 1);
    s->oom |= !p;
    return p;
}

static void pc_free(void *ud, void *p)
{
    airc_free(((pc_state *)ud)->ctx, p);
}

static ProtobufCAllocator allocator(pc_state *s)
{
    return (ProtobufCAllocator){pc_alloc, pc_free, s};
}

airc_status airc_ge_pack(airc_context *ctx, const Ge__Proto__ModelDef *m, uint8_t **out,
                         size_t *len)
{
    size_t n = ge__proto__model_def__get_packed_size(m);
    uint8_t *buf = airc_malloc(ctx, n ? n : 1);
    if (!buf)
        return airc_fail(AIRC_E_OUT_OF_MEMORY, "out of memory: %zu bytes for the ModelDef", n);
    size_t w = ge__proto__model_def__pack(m, buf);
    if (w != n) {
        airc_free(ctx, buf);
        return airc_fail(AIRC_E_INTERNAL, "ModelDef packing wrote %zu of %zu bytes", w, n);
    }
    *out = buf;
    *len = n;
    return AIRC_OK;
}

airc_status airc_ge_unpack(airc_context *ctx, const uint8_t *data, size_t len,
                           Ge__Proto__ModelDef **out)
{
    if (!data && len)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "ModelDef: NULL data");
    pc_state s = {ctx, false};
    ProtobufCAllocator a = allocator(&s);
    Ge__Proto__ModelDef *m =
        ge__proto__model_def__unpack(&a, len, data ? data : (const uint8_t *)"");
    if (!m && s.oom)
        return airc_fail(AIRC_E_OUT_OF_MEMORY,
                         "out of memory: reading a ModelDef of %zu bytes", len);
    if (!m)
        return airc_fail(AIRC_E_PARSE,
                         "ModelDef: %zu bytes are not a valid ge.proto.ModelDef (truncated, "
                         "malformed or out of memory)",
                         len);
    *out = m;
    return AIRC_OK;
}

void airc_ge_unpacked_free(airc_context *ctx, Ge__Proto__ModelDef *m)
{
    if (!m)
        return;
    pc_state s = {ctx, false};
    ProtobufCAllocator a = allocator(&s);
    ge__proto__model_def__free_unpacked(m, &a);
}
