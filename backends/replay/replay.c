/* Replay: walking a capture's launch table.
 *
 * Two drivers:
 *  - the embedded CPU runtime ("the table is the capture"): the main
 *    stream's launches run on the calling thread, one direct call each; a
 *    side stream's launches run as one launch on the runtime's stream
 *    worker, which walks that stream's part of the table. Events are
 *    sequence words (the replay's number stored on record, awaited by
 *    spinning briefly, then sleeping on a futex), so a launch costs a call
 *    and nothing else;
 *  - any other runtime: every launch, record and wait goes through the
 *    runtime's vtable; with native capture (capture_begin/end/graph_replay)
 *    the first replay records the work into a native graph and later ones
 *    replay it with one call.
 * Either way a kernel failure is recorded with its node and the later
 * launches are skipped, while events are still recorded so that no stream
 * waits forever. */
#define _GNU_SOURCE
#include "backends/replay/capture.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#include <sched.h>

#define SPINS 2000

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* ---- failures ------------------------------------------------------------ */

static void record_failure(airc_capture *c, const airc_launch *l, airc_status st)
{
    int expected = 0;
    if (!atomic_compare_exchange_strong(&c->failed, &expected, 2))
        return; /* keep the first */
    const char *msg = airc_last_error_code() == st ? airc_last_error() : "";
    if (*msg)
        snprintf(c->fail_msg, sizeof c->fail_msg, "node '%s': %s", l->k.node->name, msg);
    else
        snprintf(c->fail_msg, sizeof c->fail_msg, "node '%s': the kernel of %s failed (%s)",
                 l->k.node->name, l->k.op->qualname, airc_status_name(st));
    c->fail_code = st;
    atomic_store_explicit(&c->failed, 1, memory_order_release);
}

static inline void run_kernel(airc_capture *c, airc_launch *l)
{
    if (atomic_load_explicit(&c->failed, memory_order_relaxed))
        return;
    airc_status st = l->fn(&l->k, l->user_data);
    if (st != AIRC_OK)
        record_failure(c, l, st);
}

/* ---- CPU driver: events ------------------------------------------------------------------ */

static void ev_record(airc_capture *c, uint32_t e, uint32_t seq)
{
    atomic_store(&c->ev_seq[e], seq);
    if (atomic_load(&c->ev_sleepers[e])) {
#ifdef __linux__
        syscall(SYS_futex, (uint32_t *)&c->ev_seq[e], FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
#endif
    }
}

static void ev_wait(airc_capture *c, uint32_t e, uint32_t seq)
{
    for (int i = 0; i < SPINS; i++) {
        if (atomic_load_explicit(&c->ev_seq[e], memory_order_acquire) == seq)
            return;
        cpu_relax();
    }
    for (;;) {
        uint32_t seen = atomic_load(&c->ev_seq[e]);
        if (seen == seq)
            return;
        atomic_fetch_add(&c->ev_sleepers[e], 1);
#ifdef __linux__
        if (atomic_load(&c->ev_seq[e]) == seen)
            syscall(SYS_futex, (uint32_t *)&c->ev_seq[e], FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
#else
        sched_yield();
#endif
        atomic_fetch_sub(&c->ev_sleepers[e], 1);
    }
}

/* ---- CPU driver: one stream's walk ------------------------------------------------------- */

typedef struct walk {
    airc_capture *c;
    uint32_t stream;
    uint32_t seq;
    bool trace;
} walk;

static void walk_stream(const walk *w)
{
    airc_capture *c = w->c;
    airc_launch_table *t = &c->table;
    uint32_t seq = w->seq, s = w->stream;
    airc_replay_trace *tr = w->trace ? &c->trace : NULL;
    for (uint32_t i = 0; i < t->nstart_records; i++)
        if (t->start_record_stream[i] == s) {
            if (tr)
                tr->record_ns[t->start_records[i]] = now_ns();
            ev_record(c, t->start_records[i], seq);
        }
    const uint32_t *idx = c->stream_launches[s];
    uint32_t n = c->stream_nlaunches[s];
    for (uint32_t i = 0; i < n; i++) {
        airc_launch *l = &t->launches[idx[i]];
        for (uint32_t j = 0; j < l->nwait; j++) {
            ev_wait(c, t->waits[l->wait_first + j], seq);
            if (tr)
                tr->wait_ns[t->waits[l->wait_first + j]] = now_ns();
        }
        if (tr) {
            tr->start_ns[idx[i]] = now_ns();
            run_kernel(c, l);
            tr->end_ns[idx[i]] = now_ns();
        } else {
            run_kernel(c, l);
        }
        for (uint32_t j = 0; j < l->nrecord; j++) {
            if (tr)
                tr->record_ns[t->records[l->record_first + j]] = now_ns();
            ev_record(c, t->records[l->record_first + j], seq);
        }
    }
}

/* The single-stream hot loop: no events, no branches but the failure flag. */
static void walk_main_only(airc_capture *c)
{
    airc_launch *l = c->table.launches, *end = l + c->table.nlaunches;
    for (; l < end; l++) {
        airc_status st = l->fn(&l->k, l->user_data);
        if (st != AIRC_OK) {
            record_failure(c, l, st);
            return;
        }
    }
}

static airc_status side_runner(void *arg, airc_stream_t stream)
{
    (void)stream;
    walk w = *(const walk *)arg;
    walk_stream(&w);
    return AIRC_OK;
}

/* Waits for the runtime's streams after a failed step (input copies and
 * issued work may still read the caller's inputs), keeping st's message. */
static airc_status settle(const airc_replay_env *env, airc_status st)
{
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", airc_last_error());
    env->vt->synchronize(env->rctx, NULL);
    return airc_fail(st, "%s", msg);
}

static airc_status copy_inputs(airc_capture *c, const airc_replay_env *env,
                               const airc_tview *inputs, uint64_t *copies, bool host)
{
    for (size_t i = 0; i < c->ninputs; i++) {
        airc_capture_input *in = &c->inputs[i];
        void *dst = in->view.data;
        if (inputs[i].data == dst || !in->span)
            continue;
        /* a BOUND input reaching here has clone_input off: a different
         * address is copied into the captured one (TorchAir's rule) */
        if (host) {
            memcpy(dst, inputs[i].data, in->span);
        } else {
            airc_set_error(AIRC_OK, "");
            airc_status st = env->vt->copy(env->rctx, dst, inputs[i].data, in->span, env->copy_kind,
                                           env->streams[0]);
            if (st != AIRC_OK)
                return settle(env, airc_fail_prefix("input %zu: copy into its captured buffer", i));
        }
        (*copies)++;
    }
    return AIRC_OK;
}

static airc_status trace_alloc(airc_capture *c)
{
    airc_replay_trace *tr = &c->trace;
    if (tr->start_ns)
        return AIRC_OK;
    size_t n = c->table.nlaunches + 1, e = c->table.nevents + 1;
    tr->start_ns = airc_calloc(c->ctx, n, sizeof *tr->start_ns);
    tr->end_ns = airc_calloc(c->ctx, n, sizeof *tr->end_ns);
    tr->record_ns = airc_calloc(c->ctx, e, sizeof *tr->record_ns);
    tr->wait_ns = airc_calloc(c->ctx, e, sizeof *tr->wait_ns);
    if (!tr->start_ns || !tr->end_ns || !tr->record_ns || !tr->wait_ns)
        return airc_fail_oom("replay trace");
    tr->nlaunches = c->table.nlaunches;
    tr->nevents = c->table.nevents;
    return AIRC_OK;
}

static airc_status replay_cpu(airc_capture *c, const airc_replay_env *env)
{
    airc_launch_table *t = &c->table;
    if (t->nstreams == 1 && !env->trace) {
        walk_main_only(c);
        return AIRC_OK;
    }
    walk *side = NULL;
    walk local[8];
    if (t->nstreams > 8) {
        side = airc_calloc(c->ctx, t->nstreams, sizeof *side);
        if (!side)
            return airc_fail_oom("replay streams");
    } else {
        side = local;
    }
    airc_status st = AIRC_OK;
    uint32_t launched = 1;
    for (uint32_t s = 1; s < t->nstreams; s++) {
        side[s] = (walk){c, s, env->seq, env->trace};
        airc_set_error(AIRC_OK, "");
        st = env->vt->launch(env->rctx, env->streams[s], side_runner, &side[s]);
        if (st != AIRC_OK) {
            st = airc_fail_prefix("replay: launching stream '%s'", t->stream_labels[s]);
            break;
        }
        launched++;
    }
    if (st == AIRC_OK) {
        walk m = {c, 0, env->seq, env->trace};
        walk_stream(&m);
        for (uint32_t i = 0; i < t->nout_waits; i++) {
            ev_wait(c, t->out_waits[i], env->seq);
            if (env->trace)
                c->trace.wait_ns[t->out_waits[i]] = now_ns();
        }
    }
    /* the side walkers read `side` until they return: wait for them */
    for (uint32_t s = 1; s < launched; s++)
        env->vt->synchronize(env->rctx, env->streams[s]);
    if (side != local)
        airc_free(c->ctx, side);
    return st;
}

/* ---- generic driver ---------------------------------------------------------------------- */

static airc_status generic_launch(void *arg, airc_stream_t stream)
{
    airc_launch *l = arg;
    l->k.stream = stream; /* a device kernel enqueues its work there */
    run_kernel(l->owner, l);
    return AIRC_OK;
}

static airc_status rt_check(airc_status st, const char *what)
{
    if (st == AIRC_OK)
        return AIRC_OK;
    if (airc_last_error_code() == st && *airc_last_error())
        return airc_fail_prefix("replay: runtime %s", what);
    return airc_fail(st, "replay: runtime %s failed (%s)", what, airc_status_name(st));
}

airc_status airc_capture_prepare_runtime(airc_capture *c, const airc_replay_env *env)
{
    if (env->cpu_inline || c->rt_events || !c->table.nevents)
        return AIRC_OK;
    c->rt_events = airc_calloc(c->ctx, c->table.nevents, sizeof *c->rt_events);
    if (!c->rt_events)
        return airc_fail_oom("replay events");
    for (uint32_t e = 0; e < c->table.nevents; e++) {
        airc_set_error(AIRC_OK, "");
        airc_status st = env->vt->event_create(env->rctx, &c->rt_events[e]);
        if (st != AIRC_OK) {
            airc_capture_release_runtime(c, env->vt, env->rctx);
            return rt_check(st, "event_create");
        }
    }
    return AIRC_OK;
}

void airc_capture_drop_native(airc_capture *c, const airc_runtime_vtable *vt, void *rctx)
{
    if (c->native && vt->graph_destroy)
        vt->graph_destroy(rctx, c->native);
    c->native = NULL;
    c->native_done = false;
}

void airc_capture_release_runtime(airc_capture *c, const airc_runtime_vtable *vt, void *rctx)
{
    airc_capture_drop_native(c, vt, rctx);
    if (!c->rt_events)
        return;
    for (uint32_t e = 0; e < c->table.nevents; e++)
        if (c->rt_events[e])
            vt->event_destroy(rctx, c->rt_events[e]);
    airc_free(c->ctx, c->rt_events);
    c->rt_events = NULL;
}

static airc_status issue_all(airc_capture *c, const airc_replay_env *env)
{
    const airc_runtime_vtable *vt = env->vt;
    airc_launch_table *t = &c->table;
    for (uint32_t i = 0; i < t->nstart_records; i++) {
        airc_stream_t s = env->streams[t->start_record_stream[i]];
        AIRC_TRY(rt_check(vt->event_record(env->rctx, c->rt_events[t->start_records[i]], s),
                          "event_record"));
    }
    for (size_t i = 0; i < t->nlaunches; i++) {
        airc_launch *l = &t->launches[i];
        airc_stream_t s = env->streams[l->stream];
        for (uint32_t j = 0; j < l->nwait; j++)
            AIRC_TRY(rt_check(
                vt->stream_wait_event(env->rctx, s, c->rt_events[t->waits[l->wait_first + j]]),
                "stream_wait_event"));
        airc_set_error(AIRC_OK, "");
        AIRC_TRY(rt_check(vt->launch(env->rctx, s, generic_launch, l), "launch"));
        for (uint32_t j = 0; j < l->nrecord; j++)
            AIRC_TRY(rt_check(
                vt->event_record(env->rctx, c->rt_events[t->records[l->record_first + j]], s),
                "event_record"));
    }
    for (uint32_t i = 0; i < t->nout_waits; i++)
        AIRC_TRY(rt_check(
            vt->stream_wait_event(env->rctx, env->streams[0], c->rt_events[t->out_waits[i]]),
            "stream_wait_event"));
    return AIRC_OK;
}

static airc_status replay_generic(airc_capture *c, const airc_replay_env *env)
{
    const airc_runtime_vtable *vt = env->vt;
    airc_status st = AIRC_OK;
    if (vt->capture_begin && vt->capture_end && vt->graph_replay) {
        if (!c->native_done) {
            airc_set_error(AIRC_OK, "");
            st = rt_check(vt->capture_begin(env->rctx, env->streams[0]), "capture_begin");
            if (st == AIRC_OK) {
                st = issue_all(c, env);
                airc_native_graph_t g = NULL;
                airc_status end = vt->capture_end(env->rctx, env->streams[0], &g);
                if (st == AIRC_OK)
                    st = rt_check(end, "capture_end");
                /* a kernel that failed while captured enqueued nothing: a
                 * graph kept now would replay without it, silently */
                if (st == AIRC_OK && atomic_load(&c->failed)) {
                    if (g && vt->graph_destroy)
                        vt->graph_destroy(env->rctx, g);
                    return settle(env, airc_fail(c->fail_code, "%s", c->fail_msg));
                }
                if (st == AIRC_OK) {
                    c->native = g;
                    c->native_done = true;
                } else if (g && vt->graph_destroy) {
                    vt->graph_destroy(env->rctx, g); /* a failed capture keeps nothing */
                }
            }
        }
        if (st == AIRC_OK) {
            airc_set_error(AIRC_OK, "");
            st = rt_check(vt->graph_replay(env->rctx, c->native, env->streams[0]),
                          "graph_replay");
        }
    } else {
        st = issue_all(c, env);
    }
    if (st != AIRC_OK)
        return settle(env, st);
    airc_set_error(AIRC_OK, "");
    airc_status sync = vt->synchronize(env->rctx, NULL);
    if (sync != AIRC_OK && !atomic_load(&c->failed))
        return rt_check(sync, "synchronize");
    return AIRC_OK;
}

/* ---- entry ------------------------------------------------------------------------------- */

airc_status airc_capture_replay(airc_capture *c, const airc_replay_env *env,
                                const airc_tview *inputs, uint64_t *copies)
{
    atomic_store(&c->failed, 0);
    c->fail_msg[0] = '\0';
    if (env->trace)
        AIRC_TRY(trace_alloc(c));
    uint64_t t0 = env->trace ? now_ns() : 0;
    AIRC_TRY(copy_inputs(c, env, inputs, copies, env->cpu_inline));
    airc_status st = env->cpu_inline ? replay_cpu(c, env) : replay_generic(c, env);
    if (env->trace) {
        c->trace.t0_ns = t0;
        c->traced = true;
    }
    if (st != AIRC_OK)
        return st;
    if (atomic_load_explicit(&c->failed, memory_order_acquire))
        return airc_fail(c->fail_code, "%s", c->fail_msg);
    return AIRC_OK;
}
