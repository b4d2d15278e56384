/*
 * airc runtime interface — how a device runtime (the embedded CPU runtime,
 * a real NPU or GPU runtime) plugs into airc. Applications only create and
 * destroy runtimes; runtime authors implement airc_runtime_vtable.
 *
 * A runtime is a struct of function pointers plus a `void *ctx` passed back
 * to every call. The struct starts with its size and the ABI version it was
 * built for and only ever grows at the end: airc reads a member only when
 * struct_size covers it. Optional members may be NULL.
 *
 * Execution model (CUDA's and aclrt's): work is launched on streams and
 * runs in launch order within a stream; an event recorded on a stream
 * completes when the work launched before it has; a stream told to wait for
 * an event runs nothing launched after the wait until the event completes.
 * Errors of asynchronous work are sticky and reported by synchronize.
 */
#ifndef AIRC_RUNTIME_H
#define AIRC_RUNTIME_H

#include "airc/airc.h"
#include "airc/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AIRC_RUNTIME_ABI_VERSION 1

typedef void *airc_stream_t; /* runtime-defined handles */
typedef void *airc_event_t;
typedef void *airc_native_graph_t;

/** Work launched on a stream: the runtime arranges for fn(arg, stream) to
 *  run in stream order. A CPU runtime calls it on the stream's worker; a
 *  device runtime calls it on the host right away and fn enqueues device
 *  work on `stream`. A non-OK status becomes the runtime's sticky error. */
typedef airc_status (*airc_launch_fn)(void *arg, airc_stream_t stream);

enum {
    AIRC_COPY_HOST_TO_DEVICE = 0,
    AIRC_COPY_DEVICE_TO_HOST = 1,
    AIRC_COPY_DEVICE_TO_DEVICE = 2
};

typedef struct airc_runtime_vtable {
    size_t struct_size;      /* sizeof(airc_runtime_vtable) as the runtime saw it */
    int32_t abi_version;     /* AIRC_RUNTIME_ABI_VERSION it was built for */
    const char *device_type; /* "cpu", "cuda", "npu": selects kernels */

    /* Memory. Allocations are aligned to at least `alignment` (a power of
     * two, >= 64 for the CPU runtime). */
    airc_status (*alloc)(void *ctx, size_t size, size_t alignment, void **out);
    void (*free)(void *ctx, void *ptr);
    /* Copies n bytes; with a stream, in stream order (NULL = synchronous). */
    airc_status (*copy)(void *ctx, void *dst, const void *src, size_t n, int32_t kind,
                        airc_stream_t stream);

    /* Streams and events. */
    airc_status (*stream_create)(void *ctx, airc_stream_t *out);
    void (*stream_destroy)(void *ctx, airc_stream_t stream);
    airc_status (*event_create)(void *ctx, airc_event_t *out);
    void (*event_destroy)(void *ctx, airc_event_t event);
    airc_status (*event_record)(void *ctx, airc_event_t event, airc_stream_t stream);
    airc_status (*stream_wait_event)(void *ctx, airc_stream_t stream, airc_event_t event);
    airc_status (*launch)(void *ctx, airc_stream_t stream, airc_launch_fn fn, void *arg);
    /* Waits for a stream (NULL: every stream) and returns the sticky error
     * of its work, clearing it. */
    airc_status (*synchronize)(void *ctx, airc_stream_t stream);

    /* Optional native capture (aclmdlRICapture*, CUDA graphs): work launched
     * on `stream` between begin and end is recorded, not run, and replayed
     * as a whole. NULL when the runtime has none. */
    airc_status (*capture_begin)(void *ctx, airc_stream_t stream);
    airc_status (*capture_end)(void *ctx, airc_stream_t stream, airc_native_graph_t *out);
    airc_status (*graph_replay)(void *ctx, airc_native_graph_t graph, airc_stream_t stream);
    void (*graph_destroy)(void *ctx, airc_native_graph_t graph);

    /* Threads kernels on `stream` may use (optional; 1 when NULL). */
    int32_t (*stream_threads)(void *ctx, airc_stream_t stream);
    /* Releases ctx when the airc_runtime dies (optional). */
    void (*destroy)(void *ctx);
} airc_runtime_vtable;

typedef struct airc_runtime airc_runtime;

/** Wraps a runtime implementation. vtable is copied (up to its
 *  struct_size); ctx is borrowed until the airc_runtime dies, when
 *  vtable->destroy(ctx) is called if set. On failure destroy is not called.
 *  @return AIRC_OK; AIRC_E_INVALID_ARGUMENT (missing required members: alloc,
 *          free, copy, stream_create, stream_destroy, event_create,
 *          event_destroy, event_record, stream_wait_event, launch,
 *          synchronize); AIRC_E_UNSUPPORTED (abi_version newer than airc's);
 *          AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_runtime_create(airc_context *ctx, const airc_runtime_vtable *vtable,
                                         void *runtime_ctx, airc_runtime **out);
AIRC_API void airc_runtime_destroy(airc_runtime *rt);
AIRC_API const char *airc_runtime_device_type(const airc_runtime *rt);
/** The vtable and ctx (for airc's executors and for tests). */
AIRC_API const airc_runtime_vtable *airc_runtime_vtable_of(const airc_runtime *rt);
AIRC_API void *airc_runtime_ctx(const airc_runtime *rt);

/** Options of the embedded CPU runtime. Fill with airc_cpu_runtime_options_init. */
typedef struct airc_cpu_runtime_options {
    size_t struct_size;
    /* Total threads for kernels over all streams (0: the machine's CPUs).
     * With one busy stream it gets them all (BLAS included); with several,
     * the budget is split between them (at least one each). */
    int32_t num_threads;
} airc_cpu_runtime_options;
AIRC_API void airc_cpu_runtime_options_init(airc_cpu_runtime_options *opts);
/** The embedded CPU runtime: one worker thread per stream with a launch
 *  queue, events, 64-byte aligned host memory from the context's
 *  allocator. opts may be NULL. */
AIRC_API airc_status airc_cpu_runtime_create(airc_context *ctx,
                                             const airc_cpu_runtime_options *opts,
                                             airc_runtime **out);

/** The CUDA runtime on device `device` (a CUDA device ordinal): stream-
 *  ordered memory from a pool of its own, non-blocking streams, events,
 *  launches that enqueue device work on the host at once, and native
 *  capture into CUDA graphs. Its device_type is "cuda"; on its first
 *  creation in ctx it registers airc's CUDA kernels there (see
 *  docs/runtime.md for the op set). Always declared; it works only when
 *  airc was built with AIRC_CUDA.
 *  @return AIRC_OK; AIRC_E_UNSUPPORTED (airc was built without CUDA);
 *          AIRC_E_RUNTIME (no usable CUDA device or driver: the message
 *          carries the CUDA error string); AIRC_E_INVALID_ARGUMENT;
 *          AIRC_E_OUT_OF_MEMORY. */
AIRC_API airc_status airc_cuda_runtime_create(airc_context *ctx, int32_t device,
                                              airc_runtime **out);

#ifdef __cplusplus
}
#endif
#endif /* AIRC_RUNTIME_H */
