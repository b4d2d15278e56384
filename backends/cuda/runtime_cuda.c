/* airc's CUDA runtime: creation, device memory and copies. Streams,
 * events, launches and native capture are in runtime_cuda_stream.c; the
 * kernels it registers in kernels_*.c. docs/runtime.md describes it.
 *
 * Every member first makes the runtime's device current on the calling
 * thread (cudaSetDevice is cheap when it already is), so one process may
 * hold runtimes on several devices and call them from any thread. */
#include "backends/cuda/cuda_internal.h"

#include <stdio.h>
#include <string.h>

airc_status airc_cuda_check(cudaError_t e, const char *call, const char *where)
{
    if (e == cudaSuccess)
        return AIRC_OK;
    cudaGetLastError(); /* a non-sticky error must not leak into the next check */
    return airc_fail(e == cudaErrorMemoryAllocation ? AIRC_E_OUT_OF_MEMORY : AIRC_E_RUNTIME,
                     "%s: %s failed: %s (%s)", where, call, cudaGetErrorString(e),
                     cudaGetErrorName(e));
}

airc_status airc_cuda_check_blas(cublasStatus_t e, const char *call, const char *where)
{
    if (e == CUBLAS_STATUS_SUCCESS)
        return AIRC_OK;
    return airc_fail(e == CUBLAS_STATUS_ALLOC_FAILED ? AIRC_E_OUT_OF_MEMORY : AIRC_E_RUNTIME,
                     "%s: %s failed: %s (%s)", where, call, cublasGetStatusString(e),
                     cublasGetStatusName(e));
}

static airc_status check_rt(airc_cuda_runtime *rt, const char *fn)
{
    if (!rt || rt->magic != AIRC_MAGIC_CUDA_RUNTIME)
        return airc_fail(AIRC_E_MISUSE, "cuda runtime %s: invalid runtime", fn);
    return airc_cuda_check(cudaSetDevice(rt->device), "cudaSetDevice", fn);
}

/* ---- memory ---------------------------------------------------------------------------- */

/* From the runtime's pool on its own stream, synchronized: the block is
 * usable on every stream when alloc returns (the interface has no stream
 * for allocations). Blocks freed earlier are reused in the pool without a
 * device round trip beyond that synchronization. */
static airc_status cuda_alloc(void *ctx, size_t size, size_t alignment, void **out)
{
    airc_cuda_runtime *rt = ctx;
    AIRC_TRY(check_rt(rt, "alloc"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "cuda runtime alloc: out is NULL");
    if (alignment & (alignment - 1))
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "cuda runtime alloc: alignment %zu is not a power of two", alignment);
    if (alignment > AIRC_CUDA_ALIGN)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "cuda runtime alloc: alignment %zu is more than the %d bytes CUDA "
                         "allocations have",
                         alignment, AIRC_CUDA_ALIGN);
    if (!size)
        size = 1; /* a unique pointer */
    void *p = NULL;
    if (rt->use_pool) {
        AIRC_TRY(airc_cuda_check(cudaMallocFromPoolAsync(&p, size, rt->pool, rt->own.s),
                                 "cudaMallocFromPoolAsync", "cuda runtime alloc"));
        airc_status st = airc_cuda_check(cudaStreamSynchronize(rt->own.s), "cudaStreamSynchronize",
                                         "cuda runtime alloc");
        if (st != AIRC_OK) {
            cudaFreeAsync(p, rt->own.s);
            return st;
        }
    } else {
        AIRC_TRY(airc_cuda_check(cudaMalloc(&p, size), "cudaMalloc", "cuda runtime alloc"));
    }
    *out = p;
    return AIRC_OK;
}

/* The caller has ordered the free after the work using ptr (the
 * interface's contract): returning it to the pool in the runtime's own
 * stream's order is enough. */
static void cuda_free(void *ctx, void *ptr)
{
    airc_cuda_runtime *rt = ctx;
    if (!ptr || check_rt(rt, "free") != AIRC_OK)
        return;
    if (rt->use_pool)
        airc_cuda_check(cudaFreeAsync(ptr, rt->own.s), "cudaFreeAsync", "cuda runtime free");
    else
        airc_cuda_check(cudaFree(ptr), "cudaFree", "cuda runtime free");
}

/* ---- copies ---------------------------------------------------------------------------- */

static airc_status cuda_copy(void *ctx, void *dst, const void *src, size_t n, int32_t kind,
                             airc_stream_t stream)
{
    static const char where[] = "cuda runtime copy";
    airc_cuda_runtime *rt = ctx;
    AIRC_TRY(check_rt(rt, "copy"));
    enum cudaMemcpyKind ck;
    switch (kind) {
    case AIRC_COPY_HOST_TO_DEVICE: ck = cudaMemcpyHostToDevice; break;
    case AIRC_COPY_DEVICE_TO_HOST: ck = cudaMemcpyDeviceToHost; break;
    case AIRC_COPY_DEVICE_TO_DEVICE: ck = cudaMemcpyDeviceToDevice; break;
    default:
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: unknown copy kind %d", where, (int)kind);
    }
    if (n && (!dst || !src))
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: NULL %s of %zu bytes", where,
                         dst ? "source" : "destination", n);
    if (!n)
        return AIRC_OK;
    airc_cuda_stream *s = stream;
    if (s && (s->magic != AIRC_MAGIC_CUDA_STREAM || s->rt != rt))
        return airc_fail(AIRC_E_MISUSE, "%s: %p is not a stream of this runtime", where, stream);
    /* NULL: on the runtime's own stream, done when copy returns (the legacy
     * default stream would not order against our non-blocking streams
     * anyway, and cudaMemcpy may return before a host-to-device DMA ends) */
    cudaStream_t cs = s ? s->s : rt->own.s;
    AIRC_TRY(airc_cuda_check(cudaMemcpyAsync(dst, src, n, ck, cs), "cudaMemcpyAsync", where));
    if (!s)
        AIRC_TRY(airc_cuda_check(cudaStreamSynchronize(cs), "cudaStreamSynchronize", where));
    return AIRC_OK;
}

/* ---- creation --------------------------------------------------------------------------- */

static void cuda_runtime_free(airc_cuda_runtime *rt)
{
    cudaSetDevice(rt->device);
    airc_cuda_streams_shutdown(rt);
    if (rt->own.magic == AIRC_MAGIC_CUDA_STREAM) {
        cudaStreamSynchronize(rt->own.s);
        airc_cuda_stream_fini(&rt->own);
    }
    /* memory the caller never freed dies with the pool */
    if (rt->use_pool)
        cudaMemPoolDestroy(rt->pool);
    cudaGetLastError();
    pthread_mutex_destroy(&rt->lock);
    rt->magic = AIRC_MAGIC_DEAD;
    airc_free(rt->ctx, rt);
}

static void cuda_destroy(void *ctx)
{
    airc_cuda_runtime *rt = ctx;
    if (rt && rt->magic == AIRC_MAGIC_CUDA_RUNTIME)
        cuda_runtime_free(rt);
}

static const airc_runtime_vtable cuda_vtable = {
    .struct_size = sizeof(airc_runtime_vtable),
    .abi_version = AIRC_RUNTIME_ABI_VERSION,
    .device_type = "cuda",
    .alloc = cuda_alloc,
    .free = cuda_free,
    .copy = cuda_copy,
    .stream_create = airc_cuda_stream_create,
    .stream_destroy = airc_cuda_stream_destroy,
    .event_create = airc_cuda_event_create,
    .event_destroy = airc_cuda_event_destroy,
    .event_record = airc_cuda_event_record,
    .stream_wait_event = airc_cuda_stream_wait_event,
    .launch = airc_cuda_launch,
    .synchronize = airc_cuda_synchronize,
    .capture_begin = airc_cuda_capture_begin,
    .capture_end = airc_cuda_capture_end,
    .graph_replay = airc_cuda_graph_replay,
    .graph_destroy = airc_cuda_graph_destroy,
    .stream_threads = NULL, /* kernels get their parallelism from the device */
    .destroy = cuda_destroy,
};

/* A pool of our own, so that trimming or limits set on the device's
 * default pool by others (PyTorch) do not apply, and memory stays in the
 * pool between synchronizations (release threshold: never). */
static airc_status make_pool(airc_cuda_runtime *rt)
{
    static const char where[] = "airc_cuda_runtime_create";
    int supported = 0;
    AIRC_TRY(airc_cuda_check(
        cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, rt->device),
        "cudaDeviceGetAttribute(cudaDevAttrMemoryPoolsSupported)", where));
    if (!supported)
        return AIRC_OK; /* cudaMalloc / cudaFree */
    struct cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = rt->device;
    AIRC_TRY(airc_cuda_check(cudaMemPoolCreate(&rt->pool, &props), "cudaMemPoolCreate", where));
    uint64_t keep = UINT64_MAX;
    airc_status st =
        airc_cuda_check(cudaMemPoolSetAttribute(rt->pool, cudaMemPoolAttrReleaseThreshold, &keep),
                        "cudaMemPoolSetAttribute(cudaMemPoolAttrReleaseThreshold)", where);
    if (st != AIRC_OK) {
        cudaMemPoolDestroy(rt->pool);
        return st;
    }
    rt->use_pool = true;
    return AIRC_OK;
}

airc_status airc_cuda_runtime_create(airc_context *ctx, int32_t device, airc_runtime **out)
{
    static const char fn[] = "airc_cuda_runtime_create";
    AIRC_TRY(airc_check_context(ctx, fn));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: out is NULL", fn);
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return airc_fail(AIRC_E_RUNTIME, "%s: no usable CUDA device: %s (%s)", fn,
                         cudaGetErrorString(e), cudaGetErrorName(e));
    }
    if (device < 0 || device >= count)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: device %d out of range (%d CUDA device%s)",
                         fn, (int)device, count, count == 1 ? "" : "s");
    AIRC_TRY(airc_cuda_check(cudaSetDevice(device), "cudaSetDevice", fn));

    airc_cuda_runtime *rt = airc_calloc(ctx, 1, sizeof *rt);
    if (!rt)
        return airc_fail_oom("cuda runtime");
    rt->ctx = ctx;
    rt->device = device;
    pthread_mutex_init(&rt->lock, NULL);
    rt->magic = AIRC_MAGIC_CUDA_RUNTIME;
    airc_status st = make_pool(rt);
    if (st == AIRC_OK)
        st = airc_cuda_stream_init(rt, &rt->own);
    if (st == AIRC_OK)
        st = airc_cuda_register_kernels(ctx);
    if (st == AIRC_OK)
        st = airc_runtime_create(ctx, &cuda_vtable, rt, out);
    if (st != AIRC_OK) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", airc_last_error());
        cuda_runtime_free(rt);
        return airc_fail(st, "%s: %s", fn, msg);
    }
    return AIRC_OK;
}
