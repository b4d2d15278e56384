/* CPU runtime streams and events: one worker thread per stream draining a
 * FIFO of launches, copies and event markers. Work on the NULL stream runs
 * right away on the caller's thread. */
#include "backends/cpu/cpu_runtime.h"

#include <stdio.h>
#include <string.h>

static airc_status check_rt(void *ctx, const char *fn, airc_cpu_runtime **out)
{
    airc_cpu_runtime *rt = ctx;
    if (!rt || rt->magic != AIRC_MAGIC_CPU_RUNTIME)
        return airc_fail(AIRC_E_MISUSE, "%s: invalid or destroyed cpu runtime", fn);
    *out = rt;
    return AIRC_OK;
}

airc_status airc_cpu_check_stream(airc_cpu_runtime *rt, airc_stream_t stream, const char *fn)
{
    airc_cpu_stream *s = stream;
    if (!s || s->magic != AIRC_MAGIC_CPU_STREAM)
        return airc_fail(AIRC_E_MISUSE, "%s: invalid or destroyed stream", fn);
    if (s->rt != rt)
        return airc_fail(AIRC_E_MISUSE, "%s: the stream belongs to another runtime", fn);
    return AIRC_OK;
}

static airc_status check_event(airc_cpu_runtime *rt, airc_event_t event, const char *fn)
{
    airc_cpu_event *e = event;
    if (!e || e->magic != AIRC_MAGIC_CPU_EVENT)
        return airc_fail(AIRC_E_MISUSE, "%s: invalid or destroyed event", fn);
    if (e->rt != rt)
        return airc_fail(AIRC_E_MISUSE, "%s: the event belongs to another runtime", fn);
    return AIRC_OK;
}

/* ---- events (worker side) ---------------------------------------------- */

static void event_complete(airc_cpu_event *e, uint64_t gen)
{
    pthread_mutex_lock(&e->lock);
    if (e->completed < gen)
        e->completed = gen;
    pthread_cond_broadcast(&e->done);
    pthread_mutex_unlock(&e->lock);
}

static void event_wait(airc_cpu_event *e, uint64_t gen)
{
    pthread_mutex_lock(&e->lock);
    while (e->completed < gen)
        pthread_cond_wait(&e->done, &e->lock);
    pthread_mutex_unlock(&e->lock);
}

/* A queued entry naming e is gone; event_destroy may be waiting for that. */
static void event_unref(airc_cpu_event *e)
{
    pthread_mutex_lock(&e->lock);
    e->refs--;
    pthread_cond_broadcast(&e->done);
    pthread_mutex_unlock(&e->lock);
}

/* ---- the worker -------------------------------------------------------- */

static airc_status run_launch(airc_cpu_stream *s, airc_launch_fn fn, void *arg)
{
    airc_cpu_prepare_blas(s->rt, s);
    /* Clear this thread's error so that a failing fn that forgot to set a
     * message does not report an older one. */
    airc_fail(AIRC_OK, "%s", "");
    return fn(arg, s);
}

static void record_error(airc_cpu_stream *s, airc_status st)
{
    /* Called with s->lock held, on the worker: the thread-local message is
     * copied now, because nobody can read it from another thread. */
    if (s->err != AIRC_OK)
        return;
    s->err = st;
    const char *msg = airc_last_error();
    if (msg && msg[0])
        snprintf(s->err_msg, sizeof s->err_msg, "%s", msg);
    else
        snprintf(s->err_msg, sizeof s->err_msg, "a launch on a cpu stream failed with %s",
                 airc_status_name(st));
}

static void *worker_main(void *arg)
{
    airc_cpu_stream *s = arg;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (!s->head && !s->stop)
            pthread_cond_wait(&s->work, &s->lock);
        if (!s->head)
            break; /* stopping, and drained */
        airc_cpu_op *op = s->head;
        s->head = op->next;
        if (!s->head)
            s->tail = NULL;
        /* After a failure the stream's later launches and copies are
         * skipped until synchronize reports it (their inputs are suspect);
         * event markers still run so that other streams never wait forever. */
        bool failed = s->err != AIRC_OK;
        pthread_mutex_unlock(&s->lock);

        airc_status st = AIRC_OK;
        switch (op->kind) {
        case AIRC_CPU_OP_LAUNCH:
            if (!failed)
                st = run_launch(s, op->u.launch.fn, op->u.launch.arg);
            break;
        case AIRC_CPU_OP_COPY:
            if (!failed)
                memcpy(op->u.copy.dst, op->u.copy.src, op->u.copy.n);
            break;
        case AIRC_CPU_OP_RECORD:
            event_complete(op->u.event.ev, op->u.event.gen);
            event_unref(op->u.event.ev);
            break;
        case AIRC_CPU_OP_WAIT:
            event_wait(op->u.event.ev, op->u.event.gen);
            event_unref(op->u.event.ev);
            break;
        }

        pthread_mutex_lock(&s->lock);
        if (st != AIRC_OK)
            record_error(s, st);
        op->next = s->free_ops;
        s->free_ops = op;
        if (--s->pending == 0)
            atomic_fetch_sub(&s->rt->busy_streams, 1);
        pthread_cond_broadcast(&s->idle);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* ---- the queue (caller side) ------------------------------------------- */

/* Takes an entry for s: from its free list, else from the context's
 * allocator. Blocks while s holds AIRC_CPU_QUEUE_CAP entries. */
static airc_status op_acquire(airc_cpu_stream *s, airc_cpu_op **out)
{
    pthread_mutex_lock(&s->lock);
    while (s->pending >= AIRC_CPU_QUEUE_CAP)
        pthread_cond_wait(&s->idle, &s->lock);
    airc_cpu_op *op = s->free_ops;
    if (op)
        s->free_ops = op->next;
    pthread_mutex_unlock(&s->lock);
    if (!op) {
        op = airc_malloc(s->rt->ctx, sizeof *op);
        if (!op)
            return airc_fail_oom("cpu stream queue entry");
    }
    memset(op, 0, sizeof *op);
    *out = op;
    return AIRC_OK;
}

static void op_release(airc_cpu_stream *s, airc_cpu_op *op)
{
    pthread_mutex_lock(&s->lock);
    op->next = s->free_ops;
    s->free_ops = op;
    pthread_mutex_unlock(&s->lock);
}

static void op_submit(airc_cpu_stream *s, airc_cpu_op *op)
{
    op->next = NULL;
    pthread_mutex_lock(&s->lock);
    if (s->tail)
        s->tail->next = op;
    else
        s->head = op;
    s->tail = op;
    if (s->pending++ == 0)
        atomic_fetch_add(&s->rt->busy_streams, 1);
    pthread_cond_signal(&s->work);
    pthread_mutex_unlock(&s->lock);
}

airc_status airc_cpu_enqueue_copy(airc_cpu_stream *s, void *dst, const void *src, size_t n)
{
    airc_cpu_op *op = NULL;
    AIRC_TRY(op_acquire(s, &op));
    op->kind = AIRC_CPU_OP_COPY;
    op->u.copy.dst = dst;
    op->u.copy.src = src;
    op->u.copy.n = n;
    op_submit(s, op);
    return AIRC_OK;
}

/* ---- streams ----------------------------------------------------------- */

airc_status airc_cpu_stream_create(void *ctx, airc_stream_t *out)
{
    airc_cpu_runtime *rt = NULL;
    AIRC_TRY(check_rt(ctx, "cpu runtime stream_create", &rt));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "cpu runtime stream_create: out is NULL");
    airc_cpu_stream *s = airc_calloc(rt->ctx, 1, sizeof *s);
    if (!s)
        return airc_fail_oom("cpu stream");
    s->rt = rt;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->work, NULL);
    pthread_cond_init(&s->idle, NULL);
    s->magic = AIRC_MAGIC_CPU_STREAM;
    int rc = pthread_create(&s->thread, NULL, worker_main, s);
    if (rc != 0) {
        s->magic = AIRC_MAGIC_DEAD;
        pthread_cond_destroy(&s->idle);
        pthread_cond_destroy(&s->work);
        pthread_mutex_destroy(&s->lock);
        airc_free(rt->ctx, s);
        return airc_fail(AIRC_E_RUNTIME,
                         "cpu runtime stream_create: cannot start a worker thread (error %d)",
                         rc);
    }
    pthread_mutex_lock(&rt->lock);
    s->next = rt->streams;
    if (rt->streams)
        rt->streams->prev = s;
    rt->streams = s;
    rt->nstreams++;
    pthread_mutex_unlock(&rt->lock);
    *out = s;
    return AIRC_OK;
}

/* Waits (s->lock held) until every entry of s has run. */
static void drain_locked(airc_cpu_stream *s)
{
    while (s->pending > 0)
        pthread_cond_wait(&s->idle, &s->lock);
}

/* Drains, stops and joins s, then frees it. rt->lock is held by the caller;
 * s is already unlinked. */
static void stream_free(airc_cpu_runtime *rt, airc_cpu_stream *s)
{
    pthread_mutex_lock(&s->lock);
    drain_locked(s);
    s->stop = true;
    pthread_cond_signal(&s->work);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->thread, NULL);
    if (s->err != AIRC_OK && rt->orphan_err == AIRC_OK) {
        rt->orphan_err = s->err;
        memcpy(rt->orphan_msg, s->err_msg, sizeof rt->orphan_msg);
    }
    airc_cpu_op *op = s->free_ops;
    while (op) {
        airc_cpu_op *next = op->next;
        airc_free(rt->ctx, op);
        op = next;
    }
    s->magic = AIRC_MAGIC_DEAD;
    pthread_cond_destroy(&s->idle);
    pthread_cond_destroy(&s->work);
    pthread_mutex_destroy(&s->lock);
    airc_free(rt->ctx, s);
}

static void stream_unlink(airc_cpu_runtime *rt, airc_cpu_stream *s)
{
    if (s->prev)
        s->prev->next = s->next;
    else
        rt->streams = s->next;
    if (s->next)
        s->next->prev = s->prev;
    rt->nstreams--;
}

void airc_cpu_stream_destroy(void *ctx, airc_stream_t stream)
{
    airc_cpu_runtime *rt = NULL;
    if (!stream || check_rt(ctx, "cpu runtime stream_destroy", &rt) != AIRC_OK)
        return;
    if (airc_cpu_check_stream(rt, stream, "cpu runtime stream_destroy") != AIRC_OK)
        return;
    pthread_mutex_lock(&rt->lock);
    stream_unlink(rt, stream);
    stream_free(rt, stream);
    pthread_mutex_unlock(&rt->lock);
}

/* ---- events ------------------------------------------------------------ */

airc_status airc_cpu_event_create(void *ctx, airc_event_t *out)
{
    airc_cpu_runtime *rt = NULL;
    AIRC_TRY(check_rt(ctx, "cpu runtime event_create", &rt));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "cpu runtime event_create: out is NULL");
    airc_cpu_event *e = airc_calloc(rt->ctx, 1, sizeof *e);
    if (!e)
        return airc_fail_oom("cpu event");
    e->rt = rt;
    pthread_mutex_init(&e->lock, NULL);
    pthread_cond_init(&e->done, NULL);
    e->magic = AIRC_MAGIC_CPU_EVENT;
    pthread_mutex_lock(&rt->lock);
    e->next = rt->events;
    if (rt->events)
        rt->events->prev = e;
    rt->events = e;
    pthread_mutex_unlock(&rt->lock);
    *out = e;
    return AIRC_OK;
}

/* Waits until no queued entry names e, then frees it (e unlinked). */
static void event_free(airc_cpu_runtime *rt, airc_cpu_event *e)
{
    pthread_mutex_lock(&e->lock);
    while (e->refs > 0)
        pthread_cond_wait(&e->done, &e->lock);
    pthread_mutex_unlock(&e->lock);
    e->magic = AIRC_MAGIC_DEAD;
    pthread_cond_destroy(&e->done);
    pthread_mutex_destroy(&e->lock);
    airc_free(rt->ctx, e);
}

void airc_cpu_event_destroy(void *ctx, airc_event_t event)
{
    airc_cpu_runtime *rt = NULL;
    if (!event || check_rt(ctx, "cpu runtime event_destroy", &rt) != AIRC_OK)
        return;
    if (check_event(rt, event, "cpu runtime event_destroy") != AIRC_OK)
        return;
    airc_cpu_event *e = event;
    pthread_mutex_lock(&rt->lock);
    if (e->prev)
        e->prev->next = e->next;
    else
        rt->events = e->next;
    if (e->next)
        e->next->prev = e->prev;
    pthread_mutex_unlock(&rt->lock);
    event_free(rt, e);
}

airc_status airc_cpu_event_record(void *ctx, airc_event_t event, airc_stream_t stream)
{
    airc_cpu_runtime *rt = NULL;
    AIRC_TRY(check_rt(ctx, "cpu runtime event_record", &rt));
    AIRC_TRY(check_event(rt, event, "cpu runtime event_record"));
    airc_cpu_event *e = event;
    if (!stream) {
        /* NULL-stream work has all run already: the record completes now. */
        pthread_mutex_lock(&e->lock);
        uint64_t gen = ++e->recorded;
        pthread_mutex_unlock(&e->lock);
        event_complete(e, gen);
        return AIRC_OK;
    }
    AIRC_TRY(airc_cpu_check_stream(rt, stream, "cpu runtime event_record"));
    airc_cpu_op *op = NULL;
    AIRC_TRY(op_acquire(stream, &op));
    pthread_mutex_lock(&e->lock);
    op->u.event.gen = ++e->recorded;
    e->refs++;
    pthread_mutex_unlock(&e->lock);
    op->kind = AIRC_CPU_OP_RECORD;
    op->u.event.ev = e;
    op_submit(stream, op);
    return AIRC_OK;
}

airc_status airc_cpu_stream_wait_event(void *ctx, airc_stream_t stream, airc_event_t event)
{
    airc_cpu_runtime *rt = NULL;
    AIRC_TRY(check_rt(ctx, "cpu runtime stream_wait_event", &rt));
    AIRC_TRY(check_event(rt, event, "cpu runtime stream_wait_event"));
    airc_cpu_event *e = event;
    if (!stream) {
        /* The NULL stream is the caller's thread: the caller waits. */
        pthread_mutex_lock(&e->lock);
        uint64_t gen = e->recorded;
        pthread_mutex_unlock(&e->lock);
        event_wait(e, gen);
        return AIRC_OK;
    }
    AIRC_TRY(airc_cpu_check_stream(rt, stream, "cpu runtime stream_wait_event"));
    airc_cpu_op *op = NULL;
    AIRC_TRY(op_acquire(stream, &op));
    pthread_mutex_lock(&e->lock);
    /* The wait is for the record issued last before it (CUDA's rule); an
     * event never recorded, or already complete, makes it a no-op. */
    uint64_t gen = e->recorded;
    bool needed = gen > e->completed;
    if (needed)
        e->refs++;
    pthread_mutex_unlock(&e->lock);
    if (!needed) {
        op_release(stream, op);
        return AIRC_OK;
    }
    op->kind = AIRC_CPU_OP_WAIT;
    op->u.event.ev = e;
    op->u.event.gen = gen;
    op_submit(stream, op);
    return AIRC_OK;
}

/* ---- launch and synchronize -------------------------------------------- */

airc_status airc_cpu_launch(void *ctx, airc_stream_t stream, airc_launch_fn fn, void *arg)
{
    airc_cpu_runtime *rt = NULL;
    AIRC_TRY(check_rt(ctx, "cpu runtime launch", &rt));
    if (!fn)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "cpu runtime launch: fn is NULL");
    if (!stream) {
        /* Synchronous on the caller's thread; its status is returned here
         * and is not sticky (the eager executor's path). */
        airc_cpu_prepare_blas(rt, NULL);
        return fn(arg, NULL);
    }
    AIRC_TRY(airc_cpu_check_stream(rt, stream, "cpu runtime launch"));
    airc_cpu_op *op = NULL;
    AIRC_TRY(op_acquire(stream, &op));
    op->kind = AIRC_CPU_OP_LAUNCH;
    op->u.launch.fn = fn;
    op->u.launch.arg = arg;
    op_submit(stream, op);
    return AIRC_OK;
}

/* Drains s and takes its sticky error into *code/msg unless one is already
 * there. */
static void sync_stream(airc_cpu_stream *s, airc_status *code, char *msg)
{
    pthread_mutex_lock(&s->lock);
    drain_locked(s);
    if (s->err != AIRC_OK && *code == AIRC_OK) {
        *code = s->err;
        memcpy(msg, s->err_msg, AIRC_CPU_ERROR_CAP);
    }
    s->err = AIRC_OK;
    s->err_msg[0] = '\0';
    pthread_mutex_unlock(&s->lock);
}

airc_status airc_cpu_synchronize(void *ctx, airc_stream_t stream)
{
    airc_cpu_runtime *rt = NULL;
    AIRC_TRY(check_rt(ctx, "cpu runtime synchronize", &rt));
    airc_status code = AIRC_OK;
    char msg[AIRC_CPU_ERROR_CAP];
    msg[0] = '\0';
    if (stream) {
        AIRC_TRY(airc_cpu_check_stream(rt, stream, "cpu runtime synchronize"));
        sync_stream(stream, &code, msg);
    } else {
        /* Holding rt->lock keeps streams from being destroyed under us;
         * workers never take it. */
        pthread_mutex_lock(&rt->lock);
        for (airc_cpu_stream *s = rt->streams; s; s = s->next)
            sync_stream(s, &code, msg);
        if (rt->orphan_err != AIRC_OK && code == AIRC_OK) {
            code = rt->orphan_err;
            memcpy(msg, rt->orphan_msg, sizeof msg);
        }
        rt->orphan_err = AIRC_OK;
        pthread_mutex_unlock(&rt->lock);
    }
    if (code != AIRC_OK)
        return airc_fail(code, "%s", msg);
    return AIRC_OK;
}

void airc_cpu_streams_shutdown(airc_cpu_runtime *rt)
{
    pthread_mutex_lock(&rt->lock);
    while (rt->streams) {
        airc_cpu_stream *s = rt->streams;
        stream_unlink(rt, s);
        stream_free(rt, s);
    }
    while (rt->events) {
        airc_cpu_event *e = rt->events;
        rt->events = e->next;
        event_free(rt, e);
    }
    pthread_mutex_unlock(&rt->lock);
}
