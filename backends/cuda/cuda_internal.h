/* Internal layout of airc's CUDA runtime, shared by runtime_cuda.c (the
 * vtable), runtime_cuda_stream.c (streams, launches, capture) and the C
 * side of the CUDA kernels (kernels_*.c). docs/runtime.md describes the
 * behaviour. C only: the device code sees cuda_ew.h alone. */
#ifndef AIRC_CUDA_INTERNAL_H
#define AIRC_CUDA_INTERNAL_H

#include "core/core.h"
#include "ops/kernel.h"

#include "airc/runtime.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#define AIRC_MAGIC_CUDA_RUNTIME 0x43554452u /* "CUDR" */
#define AIRC_MAGIC_CUDA_STREAM 0x43554453u
#define AIRC_CUDA_ERROR_CAP 1024
/* cuBLAS workspace per stream, set explicitly so that GEMMs captured into
 * a CUDA graph never allocate (NVIDIA's recommendation for Hopper). */
#define AIRC_CUDA_BLAS_WORKSPACE ((size_t)32 << 20)
/* cudaMalloc and pool allocations are aligned to this. */
#define AIRC_CUDA_ALIGN 256

typedef struct airc_cuda_runtime airc_cuda_runtime;

/* A stream. `s` comes first: airc_kernel_stream(k) on this runtime is a
 * pointer to it (documented in include/airc/kernel.h). */
typedef struct airc_cuda_stream {
    cudaStream_t s;
    uint32_t magic;
    airc_cuda_runtime *rt;
    struct airc_cuda_stream *next; /* rt->streams or rt->spare, under rt->lock */
    cublasHandle_t blas;           /* created with the stream; bound to s per call */
    void *blas_workspace;
    airc_status err; /* sticky: the first failing launch since the last synchronize */
    char err_msg[AIRC_CUDA_ERROR_CAP];
} airc_cuda_stream;

struct airc_cuda_runtime {
    uint32_t magic;
    airc_context *ctx; /* borrowed: the airc_runtime wrapper holds a reference */
    int32_t device;
    bool use_pool;             /* stream-ordered allocation from `pool` */
    cudaMemPool_t pool;        /* this runtime's own pool (release threshold: never) */
    airc_cuda_stream own;      /* allocation, NULL-stream copies and launches */
    pthread_mutex_t lock;      /* the lists below, the orphan error */
    airc_cuda_stream *streams; /* live */
    airc_cuda_stream *spare;   /* destroyed by the caller, kept for reuse */
    airc_status orphan_err;    /* sticky error of a stream destroyed unsynchronized */
    char orphan_msg[AIRC_CUDA_ERROR_CAP];
};

/* AIRC_OK for cudaSuccess; else AIRC_E_RUNTIME (AIRC_E_OUT_OF_MEMORY for
 * cudaErrorMemoryAllocation) with "<where>: <call> failed: <CUDA's error
 * string> (<error name>)". Clears CUDA's last (non-sticky) error. */
AIRC_HIDDEN airc_status airc_cuda_check(cudaError_t e, const char *call, const char *where);
/* The same for cuBLAS statuses. */
AIRC_HIDDEN airc_status airc_cuda_check_blas(cublasStatus_t e, const char *call, const char *where);

/* runtime_cuda_stream.c: the vtable members for streams, events, launch,
 * synchronize and capture. */
AIRC_HIDDEN airc_status airc_cuda_stream_init(airc_cuda_runtime *rt, airc_cuda_stream *s);
AIRC_HIDDEN void airc_cuda_stream_fini(airc_cuda_stream *s);
AIRC_HIDDEN airc_status airc_cuda_stream_create(void *ctx, airc_stream_t *out);
AIRC_HIDDEN void airc_cuda_stream_destroy(void *ctx, airc_stream_t stream);
AIRC_HIDDEN airc_status airc_cuda_event_create(void *ctx, airc_event_t *out);
AIRC_HIDDEN void airc_cuda_event_destroy(void *ctx, airc_event_t event);
AIRC_HIDDEN airc_status airc_cuda_event_record(void *ctx, airc_event_t event, airc_stream_t stream);
AIRC_HIDDEN airc_status airc_cuda_stream_wait_event(void *ctx, airc_stream_t stream,
                                                    airc_event_t event);
AIRC_HIDDEN airc_status airc_cuda_launch(void *ctx, airc_stream_t stream, airc_launch_fn fn,
                                         void *arg);
AIRC_HIDDEN airc_status airc_cuda_synchronize(void *ctx, airc_stream_t stream);
AIRC_HIDDEN airc_status airc_cuda_capture_begin(void *ctx, airc_stream_t stream);
AIRC_HIDDEN airc_status airc_cuda_capture_end(void *ctx, airc_stream_t stream,
                                              airc_native_graph_t *out);
AIRC_HIDDEN airc_status airc_cuda_graph_replay(void *ctx, airc_native_graph_t graph,
                                               airc_stream_t stream);
AIRC_HIDDEN void airc_cuda_graph_destroy(void *ctx, airc_native_graph_t graph);
/* Destroys every stream, live and spare: the runtime is dying. */
AIRC_HIDDEN void airc_cuda_streams_shutdown(airc_cuda_runtime *rt);

/* ---- kernels (kernels_*.c) ---------------------------------------------- */

/* The stream a CUDA kernel runs on: airc_kernel_stream(k) checked to be
 * one of this runtime's streams. AIRC_E_UNSUPPORTED otherwise (a "cuda"
 * kernel launched by some other runtime). */
AIRC_HIDDEN airc_status airc_cuda_kernel_stream(const airc_kernel_ctx *k, airc_cuda_stream **out);

/* Registers airc's CUDA kernels for device type "cuda" in ctx, leaving any
 * "cuda" kernel the context already has (a user's override) in place. */
AIRC_HIDDEN airc_status airc_cuda_register_kernels(airc_context *ctx);

typedef struct airc_cuda_kernel_entry {
    const char *qualname;
    airc_kernel_fn fn;
} airc_cuda_kernel_entry;
#define AIRC_CUDA_KERNEL_FAMILY(name)                                                              \
    AIRC_HIDDEN extern const airc_cuda_kernel_entry airc_cuda_kernels_##name[];                    \
    AIRC_HIDDEN extern const size_t airc_cuda_num_kernels_##name
AIRC_CUDA_KERNEL_FAMILY(ew);     /* kernels_ew.c: unary, binary, copies */
AIRC_CUDA_KERNEL_FAMILY(linalg); /* kernels_linalg.c: mm, bmm (cuBLAS) */

#endif
