/* Internal layout of the embedded CPU runtime, shared by runtime_cpu.c
 * (creation, memory, copies, thread budget) and cpu_stream.c (streams,
 * events, the workers). docs/runtime.md describes the behaviour. */
#ifndef AIRC_CPU_RUNTIME_H
#define AIRC_CPU_RUNTIME_H

#include "core/core.h"

#include "airc/runtime.h"

#define AIRC_MAGIC_CPU_RUNTIME 0x43505552u /* "CPUR" */
#define AIRC_MAGIC_CPU_STREAM 0x43505553u
#define AIRC_MAGIC_CPU_EVENT 0x43505545u
#define AIRC_MAGIC_CPU_BLOCK 0x43505542u

/* Minimum alignment of CPU allocations: a cache line, and enough for any
 * AVX-512 load. */
#define AIRC_CPU_ALIGN 64
/* Queue entries a stream holds before launch blocks until its worker
 * catches up: bounds the memory of a runaway producer. */
#define AIRC_CPU_QUEUE_CAP 65536
#define AIRC_CPU_ERROR_CAP 1024

typedef struct airc_cpu_runtime airc_cpu_runtime;
typedef struct airc_cpu_stream airc_cpu_stream;
typedef struct airc_cpu_event airc_cpu_event;

enum { AIRC_CPU_OP_LAUNCH, AIRC_CPU_OP_COPY, AIRC_CPU_OP_RECORD, AIRC_CPU_OP_WAIT };

/* One entry of a stream's FIFO. Entries are recycled through the stream's
 * free list, so the worker never calls the allocator (the context's hook
 * need not be callable from airc's threads) and a stream's memory is bounded
 * by its deepest queue. */
typedef struct airc_cpu_op {
    struct airc_cpu_op *next;
    int32_t kind;
    union {
        struct {
            airc_launch_fn fn;
            void *arg;
        } launch;
        struct {
            void *dst;
            const void *src;
            size_t n;
        } copy;
        struct {
            airc_cpu_event *ev;
            uint64_t gen;
        } event;
    } u;
} airc_cpu_op;

struct airc_cpu_stream {
    uint32_t magic;
    airc_cpu_runtime *rt;
    airc_cpu_stream *prev, *next; /* rt->streams, guarded by rt->lock */
    pthread_t thread;
    pthread_mutex_t lock; /* everything below */
    pthread_cond_t work;  /* worker: an entry arrived, or stop */
    pthread_cond_t idle;  /* an entry finished (pending dropped) */
    airc_cpu_op *head, *tail;
    airc_cpu_op *free_ops;
    size_t pending; /* queued + running; the stream "has work" while > 0 */
    bool stop;
    airc_status err; /* sticky: first failure since the last synchronize */
    char err_msg[AIRC_CPU_ERROR_CAP];
};

/* An event counts its records (generations). A record entry completes its
 * generation when the worker reaches it; a wait entry blocks its worker until
 * the generation that was current when the wait was issued has completed. */
struct airc_cpu_event {
    uint32_t magic;
    airc_cpu_runtime *rt;
    airc_cpu_event *prev, *next; /* rt->events, guarded by rt->lock */
    pthread_mutex_t lock;
    pthread_cond_t done;
    uint64_t recorded;  /* generations issued */
    uint64_t completed; /* highest generation completed */
    size_t refs;        /* queued entries naming this event */
};

/* Header in front of every allocation (just below the aligned pointer). */
typedef struct airc_cpu_block {
    struct airc_cpu_block *prev, *next;
    void *raw; /* what the context's allocator returned */
    size_t size;
    uint32_t magic;
} airc_cpu_block;

struct airc_cpu_runtime {
    uint32_t magic;
    airc_context *ctx; /* borrowed: the airc_runtime wrapper holds a reference */
    int32_t total_threads;
    atomic_int busy_streams; /* streams with pending > 0 */
    /* Lock order: rt->lock, then a stream's lock, then an event's lock.
     * Workers never take rt->lock (synchronize(NULL) holds it while waiting
     * for them). */
    pthread_mutex_t lock; /* streams, events, orphan error */
    airc_cpu_stream *streams;
    airc_cpu_event *events;
    size_t nstreams;
    airc_status orphan_err; /* sticky error of a stream destroyed unsynchronized */
    char orphan_msg[AIRC_CPU_ERROR_CAP];
    pthread_mutex_t block_lock; /* live allocations; separate so kernels may allocate */
    airc_cpu_block *blocks;
};

/* Threads a kernel running on `s` (NULL: the caller's thread) may use. */
AIRC_HIDDEN int32_t airc_cpu_stream_threads(void *ctx, airc_stream_t s);
/* Sets OpenBLAS's (process-global) thread count for a kernel about to run
 * on `s`: the stream's share when it is the only busy stream, else 1. */
AIRC_HIDDEN void airc_cpu_prepare_blas(airc_cpu_runtime *rt, airc_cpu_stream *s);
/* Validates a stream handle of rt; MISUSE naming fn otherwise. */
AIRC_HIDDEN airc_status airc_cpu_check_stream(airc_cpu_runtime *rt, airc_stream_t s,
                                              const char *fn);

/* cpu_stream.c: the vtable members for streams, events, launch, sync. */
AIRC_HIDDEN airc_status airc_cpu_stream_create(void *ctx, airc_stream_t *out);
AIRC_HIDDEN void airc_cpu_stream_destroy(void *ctx, airc_stream_t stream);
AIRC_HIDDEN airc_status airc_cpu_event_create(void *ctx, airc_event_t *out);
AIRC_HIDDEN void airc_cpu_event_destroy(void *ctx, airc_event_t event);
AIRC_HIDDEN airc_status airc_cpu_event_record(void *ctx, airc_event_t event, airc_stream_t stream);
AIRC_HIDDEN airc_status airc_cpu_stream_wait_event(void *ctx, airc_stream_t stream,
                                                   airc_event_t event);
AIRC_HIDDEN airc_status airc_cpu_launch(void *ctx, airc_stream_t stream, airc_launch_fn fn,
                                        void *arg);
AIRC_HIDDEN airc_status airc_cpu_synchronize(void *ctx, airc_stream_t stream);
/* Enqueues a memcpy on s (already validated). */
AIRC_HIDDEN airc_status airc_cpu_enqueue_copy(airc_cpu_stream *s, void *dst, const void *src,
                                              size_t n);
/* Destroys every stream (draining each) and event: the runtime is dying. */
AIRC_HIDDEN void airc_cpu_streams_shutdown(airc_cpu_runtime *rt);

#endif
