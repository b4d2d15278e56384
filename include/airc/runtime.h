/*
 * airc runtime interface — for people who plug a device runtime (NPU, GPU)
 * into airc. Applications do not need this header.
 *
 * A runtime is a struct of function pointers plus a `void *ctx` it passes
 * back to every call. The struct starts with its size and the ABI version it
 * was built against, and only ever grows at the end, so airc can accept
 * runtimes built against older headers.
 *
 * Status: the CPU-runtime issue fills this in (streams, events, launches,
 * native capture). Until then this header fixes the shape of the contract
 * only; no airc function takes a runtime yet.
 */
#ifndef AIRC_RUNTIME_H
#define AIRC_RUNTIME_H

#include "airc/airc.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AIRC_RUNTIME_ABI_VERSION 0

typedef struct airc_runtime_vtable {
    size_t struct_size;   /* sizeof(airc_runtime_vtable) as the runtime saw it */
    int32_t abi_version;  /* AIRC_RUNTIME_ABI_VERSION the runtime was built with */
    const char *device_type; /* "cpu", "cuda", "npu": selects kernels by device type */
    /* Memory. */
    airc_status (*alloc)(void *ctx, size_t size, size_t alignment, void **out);
    void (*free)(void *ctx, void *ptr);
} airc_runtime_vtable;

#ifdef __cplusplus
}
#endif
#endif /* AIRC_RUNTIME_H */
