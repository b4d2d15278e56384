/* airc's CUDA runtime: streams, events, launches, synchronization and
 * native capture into CUDA graphs.
 *
 * A stream is a non-blocking cudaStream_t with its own cuBLAS handle and
 * workspace (two streams never share a workspace, so their GEMMs may run
 * concurrently, and a captured GEMM never allocates). Creating a handle is
 * slow, so destroyed streams are kept on a spare list and handed out again
 * (the eager executor creates a stream per run). Launches call the function
 * on the host right away; it enqueues device work, and a failure it reports
 * becomes the stream's sticky error, reported (with its message) by the
 * next synchronize. */
#include "backends/cuda/cuda_internal.h"

#include <stdio.h>
#include <string.h>

static airc_status check_rt(airc_cuda_runtime *rt, const char *fn)
{
    if (!rt || rt->magic != AIRC_MAGIC_CUDA_RUNTIME)
        return airc_fail(AIRC_E_MISUSE, "cuda runtime %s: invalid runtime", fn);
    return airc_cuda_check(cudaSetDevice(rt->device), "cudaSetDevice", fn);
}

/* A stream of rt, or NULL for the runtime's own stream when allow_null. */
static airc_status check_stream(airc_cuda_runtime *rt, airc_stream_t stream, bool allow_null,
                                const char *fn, airc_cuda_stream **out)
{
    airc_cuda_stream *s = stream;
    if (!s && allow_null) {
        *out = &rt->own;
        return AIRC_OK;
    }
    if (!s || s->magic != AIRC_MAGIC_CUDA_STREAM || s->rt != rt || s == &rt->own)
        return airc_fail(AIRC_E_MISUSE, "cuda runtime %s: %p is not a stream of this runtime", fn,
                         stream);
    *out = s;
    return AIRC_OK;
}

/* ---- streams ------------------------------------------------------------------------------ */

airc_status airc_cuda_stream_init(airc_cuda_runtime *rt, airc_cuda_stream *s)
{
    static const char where[] = "cuda runtime stream_create";
    memset(s, 0, sizeof *s);
    s->rt = rt;
    AIRC_TRY(airc_cuda_check(cudaStreamCreateWithFlags(&s->s, cudaStreamNonBlocking),
                             "cudaStreamCreateWithFlags", where));
    airc_status st = airc_cuda_check_blas(cublasCreate(&s->blas), "cublasCreate", where);
    if (st == AIRC_OK)
        st = airc_cuda_check(cudaMalloc(&s->blas_workspace, AIRC_CUDA_BLAS_WORKSPACE),
                             "cudaMalloc (cuBLAS workspace)", where);
    if (st == AIRC_OK)
        st = airc_cuda_check_blas(
            cublasSetWorkspace(s->blas, s->blas_workspace, AIRC_CUDA_BLAS_WORKSPACE),
            "cublasSetWorkspace", where);
    if (st == AIRC_OK)
        st = airc_cuda_check_blas(cublasSetStream(s->blas, s->s), "cublasSetStream", where);
    if (st != AIRC_OK) {
        airc_cuda_stream_fini(s);
        return st;
    }
    s->magic = AIRC_MAGIC_CUDA_STREAM;
    return AIRC_OK;
}

void airc_cuda_stream_fini(airc_cuda_stream *s)
{
    if (s->blas)
        cublasDestroy(s->blas);
    if (s->blas_workspace)
        cudaFree(s->blas_workspace);
    if (s->s)
        cudaStreamDestroy(s->s);
    cudaGetLastError();
    s->blas = NULL;
    s->blas_workspace = NULL;
    s->s = NULL;
    s->magic = AIRC_MAGIC_DEAD;
}

airc_status airc_cuda_stream_create(void *ctx, airc_stream_t *out)
{
    airc_cuda_runtime *rt = ctx;
    AIRC_TRY(check_rt(rt, "stream_create"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "cuda runtime stream_create: out is NULL");
    pthread_mutex_lock(&rt->lock);
    airc_cuda_stream *s = rt->spare;
    if (s)
        rt->spare = s->next;
    pthread_mutex_unlock(&rt->lock);
    if (!s) {
        s = airc_calloc(rt->ctx, 1, sizeof *s);
        if (!s)
            return airc_fail_oom("cuda stream");
        airc_status st = airc_cuda_stream_init(rt, s);
        if (st != AIRC_OK) {
            airc_free(rt->ctx, s);
            return st;
        }
    }
    s->err = AIRC_OK;
    s->err_msg[0] = '\0';
    pthread_mutex_lock(&rt->lock);
    s->next = rt->streams;
    rt->streams = s;
    pthread_mutex_unlock(&rt->lock);
    *out = s;
    return AIRC_OK;
}

static void unlink_stream(airc_cuda_stream **list, airc_cuda_stream *s)
{
    for (airc_cuda_stream **p = list; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            return;
        }
}

/* Waits for the stream's work; an unreported sticky error is handed to
 * the next synchronize(NULL). The stream goes to the spare list. */
void airc_cuda_stream_destroy(void *ctx, airc_stream_t stream)
{
    airc_cuda_runtime *rt = ctx;
    airc_cuda_stream *s = NULL;
    if (!stream || check_rt(rt, "stream_destroy") != AIRC_OK ||
        check_stream(rt, stream, false, "stream_destroy", &s) != AIRC_OK)
        return;
    cudaError_t e = cudaStreamSynchronize(s->s);
    pthread_mutex_lock(&rt->lock);
    unlink_stream(&rt->streams, s);
    if (rt->orphan_err == AIRC_OK && (s->err != AIRC_OK || e != cudaSuccess)) {
        if (s->err != AIRC_OK) {
            rt->orphan_err = s->err;
            snprintf(rt->orphan_msg, sizeof rt->orphan_msg, "%s", s->err_msg);
        } else {
            rt->orphan_err = AIRC_E_RUNTIME;
            snprintf(rt->orphan_msg, sizeof rt->orphan_msg,
                     "cuda runtime stream_destroy: cudaStreamSynchronize failed: %s (%s)",
                     cudaGetErrorString(e), cudaGetErrorName(e));
        }
    }
    if (e != cudaSuccess) {
        /* a stream left in a failed state is not reused */
        pthread_mutex_unlock(&rt->lock);
        cudaGetLastError();
        airc_cuda_stream_fini(s);
        airc_free(rt->ctx, s);
        return;
    }
    s->next = rt->spare;
    rt->spare = s;
    pthread_mutex_unlock(&rt->lock);
}

void airc_cuda_streams_shutdown(airc_cuda_runtime *rt)
{
    airc_cuda_stream *lists[2] = {rt->streams, rt->spare};
    rt->streams = rt->spare = NULL;
    for (int i = 0; i < 2; i++) {
        for (airc_cuda_stream *s = lists[i]; s;) {
            airc_cuda_stream *next = s->next;
            cudaStreamSynchronize(s->s);
            airc_cuda_stream_fini(s);
            airc_free(rt->ctx, s);
            s = next;
        }
    }
}

/* ---- events ------------------------------------------------------------------------------- */

airc_status airc_cuda_event_create(void *ctx, airc_event_t *out)
{
    airc_cuda_runtime *rt = ctx;
    AIRC_TRY(check_rt(rt, "event_create"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "cuda runtime event_create: out is NULL");
    cudaEvent_t e;
    /* ordering only: no timestamps, which also makes record and wait cheaper */
    AIRC_TRY(airc_cuda_check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming),
                             "cudaEventCreateWithFlags", "cuda runtime event_create"));
    *out = (airc_event_t)e;
    return AIRC_OK;
}

void airc_cuda_event_destroy(void *ctx, airc_event_t event)
{
    airc_cuda_runtime *rt = ctx;
    if (!event || check_rt(rt, "event_destroy") != AIRC_OK)
        return;
    /* CUDA defers the release until the event's pending record completes */
    airc_cuda_check(cudaEventDestroy((cudaEvent_t)event), "cudaEventDestroy",
                    "cuda runtime event_destroy");
}

airc_status airc_cuda_event_record(void *ctx, airc_event_t event, airc_stream_t stream)
{
    static const char where[] = "cuda runtime event_record";
    airc_cuda_runtime *rt = ctx;
    airc_cuda_stream *s = NULL;
    AIRC_TRY(check_rt(rt, "event_record"));
    AIRC_TRY(check_stream(rt, stream, true, "event_record", &s));
    if (!event)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: event is NULL", where);
    return airc_cuda_check(cudaEventRecord((cudaEvent_t)event, s->s), "cudaEventRecord", where);
}

/* NULL stream: the caller waits (as on the CPU runtime). */
airc_status airc_cuda_stream_wait_event(void *ctx, airc_stream_t stream, airc_event_t event)
{
    static const char where[] = "cuda runtime stream_wait_event";
    airc_cuda_runtime *rt = ctx;
    AIRC_TRY(check_rt(rt, "stream_wait_event"));
    if (!event)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: event is NULL", where);
    if (!stream)
        return airc_cuda_check(cudaEventSynchronize((cudaEvent_t)event), "cudaEventSynchronize",
                               where);
    airc_cuda_stream *s = NULL;
    AIRC_TRY(check_stream(rt, stream, false, "stream_wait_event", &s));
    return airc_cuda_check(cudaStreamWaitEvent(s->s, (cudaEvent_t)event, 0), "cudaStreamWaitEvent",
                           where);
}

/* ---- launches and synchronization ------------------------------------------------------- */

static void set_sticky(airc_cuda_stream *s, airc_status st)
{
    if (s->err != AIRC_OK)
        return; /* the first failure wins */
    const char *msg = airc_last_error_code() == st ? airc_last_error() : "";
    if (*msg)
        snprintf(s->err_msg, sizeof s->err_msg, "%s", msg);
    else
        snprintf(s->err_msg, sizeof s->err_msg, "a launched function failed (%s)",
                 airc_status_name(st));
    s->err = st;
}

/* fn runs now, on this thread, and enqueues its device work on the stream
 * (fn must not block). After a failure the stream's later launches are
 * skipped until synchronize reports it: their inputs are suspect. NULL:
 * on the runtime's own stream, finished when launch returns, its status
 * returned (nothing sticky), as the CPU runtime's caller-thread launch. */
airc_status airc_cuda_launch(void *ctx, airc_stream_t stream, airc_launch_fn fn, void *arg)
{
    airc_cuda_runtime *rt = ctx;
    airc_cuda_stream *s = NULL;
    AIRC_TRY(check_rt(rt, "launch"));
    if (!fn)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "cuda runtime launch: fn is NULL");
    AIRC_TRY(check_stream(rt, stream, true, "launch", &s));
    if (s == &rt->own) {
        airc_status st = fn(arg, s);
        if (st != AIRC_OK)
            return st;
        return airc_cuda_check(cudaStreamSynchronize(s->s), "cudaStreamSynchronize",
                               "cuda runtime launch (NULL stream)");
    }
    if (s->err != AIRC_OK)
        return AIRC_OK;
    airc_status st = fn(arg, s);
    if (st != AIRC_OK)
        set_sticky(s, st);
    return AIRC_OK;
}

/* The device's error for the stream's work, else its sticky error (both
 * cleared). */
static airc_status sync_one(airc_cuda_stream *s, const char *where)
{
    airc_status st = airc_cuda_check(cudaStreamSynchronize(s->s), "cudaStreamSynchronize", where);
    if (s->err != AIRC_OK) {
        if (st == AIRC_OK)
            st = airc_fail(s->err, "%s", s->err_msg);
        s->err = AIRC_OK;
        s->err_msg[0] = '\0';
    }
    return st;
}

airc_status airc_cuda_synchronize(void *ctx, airc_stream_t stream)
{
    static const char where[] = "cuda runtime synchronize";
    airc_cuda_runtime *rt = ctx;
    AIRC_TRY(check_rt(rt, "synchronize"));
    if (stream) {
        airc_cuda_stream *s = NULL;
        AIRC_TRY(check_stream(rt, stream, false, "synchronize", &s));
        return sync_one(s, where);
    }
    /* every stream of this runtime (not cudaDeviceSynchronize: other users
     * of the device, PyTorch included, are not ours to wait for) */
    airc_status first = AIRC_OK;
    char msg[AIRC_CUDA_ERROR_CAP] = "";
    pthread_mutex_lock(&rt->lock);
    for (airc_cuda_stream *s = rt->streams; s; s = s->next) {
        airc_status st = sync_one(s, where);
        if (st != AIRC_OK && first == AIRC_OK) {
            first = st;
            snprintf(msg, sizeof msg, "%s", airc_last_error());
        }
    }
    airc_status st = sync_one(&rt->own, where);
    if (st != AIRC_OK && first == AIRC_OK) {
        first = st;
        snprintf(msg, sizeof msg, "%s", airc_last_error());
    }
    if (rt->orphan_err != AIRC_OK) {
        if (first == AIRC_OK) {
            first = rt->orphan_err;
            snprintf(msg, sizeof msg, "%s", rt->orphan_msg);
        }
        rt->orphan_err = AIRC_OK;
        rt->orphan_msg[0] = '\0';
    }
    pthread_mutex_unlock(&rt->lock);
    return first == AIRC_OK ? AIRC_OK : airc_fail(first, "%s", msg);
}

/* ---- native capture ---------------------------------------------------------------------- */

/* Thread-local mode: only this thread's unsafe calls (cudaMalloc, a
 * synchronous copy) would break the capture; other threads, and other
 * runtimes' allocations, go on. Side streams join through events recorded
 * on the capturing stream, as in PyTorch's multi-stream capture. */
airc_status airc_cuda_capture_begin(void *ctx, airc_stream_t stream)
{
    airc_cuda_runtime *rt = ctx;
    airc_cuda_stream *s = NULL;
    AIRC_TRY(check_rt(rt, "capture_begin"));
    AIRC_TRY(check_stream(rt, stream, false, "capture_begin", &s));
    return airc_cuda_check(cudaStreamBeginCapture(s->s, cudaStreamCaptureModeThreadLocal),
                           "cudaStreamBeginCapture", "cuda runtime capture_begin");
}

airc_status airc_cuda_capture_end(void *ctx, airc_stream_t stream, airc_native_graph_t *out)
{
    static const char where[] = "cuda runtime capture_end";
    airc_cuda_runtime *rt = ctx;
    airc_cuda_stream *s = NULL;
    AIRC_TRY(check_rt(rt, "capture_end"));
    AIRC_TRY(check_stream(rt, stream, false, "capture_end", &s));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: out is NULL", where);
    cudaGraph_t graph = NULL;
    AIRC_TRY(airc_cuda_check(cudaStreamEndCapture(s->s, &graph), "cudaStreamEndCapture", where));
    cudaGraphExec_t exec = NULL;
    airc_status st =
        airc_cuda_check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate", where);
    cudaGraphDestroy(graph); /* the executable graph is independent of it */
    if (st != AIRC_OK)
        return st;
    *out = (airc_native_graph_t)exec;
    return AIRC_OK;
}

airc_status airc_cuda_graph_replay(void *ctx, airc_native_graph_t graph, airc_stream_t stream)
{
    static const char where[] = "cuda runtime graph_replay";
    airc_cuda_runtime *rt = ctx;
    airc_cuda_stream *s = NULL;
    AIRC_TRY(check_rt(rt, "graph_replay"));
    AIRC_TRY(check_stream(rt, stream, true, "graph_replay", &s));
    if (!graph)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: graph is NULL", where);
    AIRC_TRY(
        airc_cuda_check(cudaGraphLaunch((cudaGraphExec_t)graph, s->s), "cudaGraphLaunch", where));
    if (s == &rt->own)
        return airc_cuda_check(cudaStreamSynchronize(s->s), "cudaStreamSynchronize", where);
    return AIRC_OK;
}

void airc_cuda_graph_destroy(void *ctx, airc_native_graph_t graph)
{
    airc_cuda_runtime *rt = ctx;
    if (!graph || check_rt(rt, "graph_destroy") != AIRC_OK)
        return;
    airc_cuda_check(cudaGraphExecDestroy((cudaGraphExec_t)graph), "cudaGraphExecDestroy",
                    "cuda runtime graph_destroy");
}
