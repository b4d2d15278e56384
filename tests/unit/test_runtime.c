/* The runtime interface and the embedded CPU runtime.
 *
 * Part 1 plugs in a mock runtime written only against the public headers
 * (airc/airc.h, airc/runtime.h): host memory, immediate execution, call
 * counters; it checks the wrapper's validation and that every member is
 * reachable. Part 2 exercises the CPU runtime through the same public
 * vtable: alignment, allocation failure, ordering within a stream, events
 * across streams, sticky errors, destroy with pending work, many streams,
 * and the thread budget. */
#include "testutil.h"

#include "airc/airc.h"
#include "airc/runtime.h"

#include <cblas.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ======================================================================== */
/* Part 1: a mock runtime (public headers only)                             */
/* ======================================================================== */

typedef struct mock_rt {
    int allocs, frees, copies, streams, stream_destroys, events, event_destroys;
    int records, waits, launches, syncs, threads_calls, destroys;
    airc_status sticky;
    int stream_token, event_token; /* handles are addresses of these */
} mock_rt;

static airc_status mock_alloc(void *ctx, size_t size, size_t alignment, void **out)
{
    mock_rt *m = ctx;
    m->allocs++;
    void *p = aligned_alloc(alignment < 64 ? 64 : alignment, ((size ? size : 1) + 63) / 64 * 64);
    if (!p)
        return airc_set_error(AIRC_E_OUT_OF_MEMORY, "mock: no memory");
    *out = p;
    return AIRC_OK;
}
static void mock_free(void *ctx, void *p)
{
    ((mock_rt *)ctx)->frees++;
    free(p);
}
static airc_status mock_copy(void *ctx, void *dst, const void *src, size_t n, int32_t kind,
                             airc_stream_t s)
{
    ((mock_rt *)ctx)->copies++;
    memcpy(dst, src, n);
    return AIRC_OK;
}
static airc_status mock_stream_create(void *ctx, airc_stream_t *out)
{
    mock_rt *m = ctx;
    m->streams++;
    *out = &m->stream_token;
    return AIRC_OK;
}
static void mock_stream_destroy(void *ctx, airc_stream_t s)
{
    ((mock_rt *)ctx)->stream_destroys++;
}
static airc_status mock_event_create(void *ctx, airc_event_t *out)
{
    mock_rt *m = ctx;
    m->events++;
    *out = &m->event_token;
    return AIRC_OK;
}
static void mock_event_destroy(void *ctx, airc_event_t e)
{
    ((mock_rt *)ctx)->event_destroys++;
}
static airc_status mock_event_record(void *ctx, airc_event_t e, airc_stream_t s)
{
    ((mock_rt *)ctx)->records++;
    return AIRC_OK;
}
static airc_status mock_wait(void *ctx, airc_stream_t s, airc_event_t e)
{
    ((mock_rt *)ctx)->waits++;
    return AIRC_OK;
}
static airc_status mock_launch(void *ctx, airc_stream_t s, airc_launch_fn fn, void *arg)
{
    mock_rt *m = ctx;
    m->launches++;
    airc_status st = fn(arg, s); /* immediate: the host is the device */
    if (st != AIRC_OK && m->sticky == AIRC_OK)
        m->sticky = st;
    return AIRC_OK;
}
static airc_status mock_sync(void *ctx, airc_stream_t s)
{
    mock_rt *m = ctx;
    m->syncs++;
    airc_status st = m->sticky;
    m->sticky = AIRC_OK;
    return st == AIRC_OK ? AIRC_OK : airc_set_error(st, "mock: sticky error");
}
static int32_t mock_threads(void *ctx, airc_stream_t s)
{
    ((mock_rt *)ctx)->threads_calls++;
    return 3;
}
static void mock_destroy(void *ctx)
{
    ((mock_rt *)ctx)->destroys++;
}

static airc_runtime_vtable mock_vtable(void)
{
    airc_runtime_vtable vt;
    memset(&vt, 0, sizeof vt);
    vt.struct_size = sizeof vt;
    vt.abi_version = AIRC_RUNTIME_ABI_VERSION;
    vt.device_type = "mockdev";
    vt.alloc = mock_alloc;
    vt.free = mock_free;
    vt.copy = mock_copy;
    vt.stream_create = mock_stream_create;
    vt.stream_destroy = mock_stream_destroy;
    vt.event_create = mock_event_create;
    vt.event_destroy = mock_event_destroy;
    vt.event_record = mock_event_record;
    vt.stream_wait_event = mock_wait;
    vt.launch = mock_launch;
    vt.synchronize = mock_sync;
    vt.stream_threads = mock_threads;
    vt.destroy = mock_destroy;
    return vt;
}

static airc_status add_one(void *arg, airc_stream_t s)
{
    ++*(int *)arg;
    return AIRC_OK;
}

static airc_status fail_launch(void *arg, airc_stream_t s)
{
    return airc_set_error(AIRC_E_RUNTIME, arg ? (const char *)arg : "");
}

static void test_mock_roundtrip(void **state)
{
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    mock_rt m;
    memset(&m, 0, sizeof m);
    airc_runtime_vtable vt = mock_vtable();
    char devname[16];
    strcpy(devname, "mockdev");
    vt.device_type = devname; /* the wrapper must copy it */
    airc_runtime *rt = NULL;
    AIRC_ASSERT_OK(airc_runtime_create(ctx, &vt, &m, &rt));
    memset(&vt, 0, sizeof vt); /* the wrapper keeps its own copy */
    strcpy(devname, "clobber");
    assert_string_equal(airc_runtime_device_type(rt), "mockdev");
    assert_ptr_equal(airc_runtime_ctx(rt), &m);
    const airc_runtime_vtable *v = airc_runtime_vtable_of(rt);
    assert_non_null(v);
    assert_ptr_equal(v->alloc, mock_alloc);
    assert_ptr_equal(v->synchronize, mock_sync);
    assert_null(v->capture_begin);
    assert_null(v->graph_replay);
    void *ctxp = airc_runtime_ctx(rt);

    /* Every member is reachable through the copy and lands in the mock. */
    void *buf = NULL;
    AIRC_ASSERT_OK(v->alloc(ctxp, 100, 64, &buf));
    assert_int_equal((uintptr_t)buf % 64, 0);
    float src[4] = {1, 2, 3, 4};
    AIRC_ASSERT_OK(v->copy(ctxp, buf, src, sizeof src, AIRC_COPY_HOST_TO_DEVICE, NULL));
    assert_memory_equal(buf, src, sizeof src);
    airc_stream_t s;
    airc_event_t e;
    AIRC_ASSERT_OK(v->stream_create(ctxp, &s));
    AIRC_ASSERT_OK(v->event_create(ctxp, &e));
    AIRC_ASSERT_OK(v->event_record(ctxp, e, s));
    AIRC_ASSERT_OK(v->stream_wait_event(ctxp, s, e));
    int counter = 0;
    AIRC_ASSERT_OK(v->launch(ctxp, s, add_one, &counter));
    AIRC_ASSERT_OK(v->launch(ctxp, s, add_one, &counter));
    assert_int_equal(counter, 2);
    AIRC_ASSERT_OK(v->launch(ctxp, s, fail_launch, "mock kernel failed"));
    AIRC_EXPECT(v->synchronize(ctxp, s), AIRC_E_RUNTIME, "mock: sticky");
    AIRC_ASSERT_OK(v->synchronize(ctxp, NULL));
    assert_int_equal(v->stream_threads(ctxp, s), 3);
    v->event_destroy(ctxp, e);
    v->stream_destroy(ctxp, s);
    v->free(ctxp, buf);
    assert_int_equal(m.allocs, 1);
    assert_int_equal(m.frees, 1);
    assert_int_equal(m.copies, 1);
    assert_int_equal(m.streams, 1);
    assert_int_equal(m.stream_destroys, 1);
    assert_int_equal(m.events, 1);
    assert_int_equal(m.event_destroys, 1);
    assert_int_equal(m.records, 1);
    assert_int_equal(m.waits, 1);
    assert_int_equal(m.launches, 3);
    assert_int_equal(m.syncs, 2);
    assert_int_equal(m.threads_calls, 1);
    assert_int_equal(m.destroys, 0);
    airc_runtime_destroy(rt);
    assert_int_equal(m.destroys, 1);
    airc_runtime_destroy(NULL);
    airc_context_destroy(ctx);
}

/* A runtime built against an older, smaller vtable: members past its
 * struct_size read as NULL whatever the memory there holds. */
static void test_mock_older_and_newer_size(void **state)
{
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    mock_rt m;
    memset(&m, 0, sizeof m);
    airc_runtime_vtable vt = mock_vtable();
    vt.struct_size = offsetof(airc_runtime_vtable, capture_begin);
    airc_runtime *rt = NULL;
    AIRC_ASSERT_OK(airc_runtime_create(ctx, &vt, &m, &rt));
    const airc_runtime_vtable *v = airc_runtime_vtable_of(rt);
    assert_non_null(v->launch);
    assert_null(v->stream_threads); /* set in vt, but beyond struct_size */
    assert_null(v->destroy);
    airc_runtime_destroy(rt);
    assert_int_equal(m.destroys, 0);

    /* A newer runtime of the same ABI with a bigger struct is accepted. */
    struct {
        airc_runtime_vtable vt;
        void *future[4];
    } big;
    memset(&big, 0xff, sizeof big);
    big.vt = mock_vtable();
    big.vt.struct_size = sizeof big;
    AIRC_ASSERT_OK(airc_runtime_create(ctx, &big.vt, &m, &rt));
    assert_ptr_equal(airc_runtime_vtable_of(rt)->destroy, mock_destroy);
    airc_runtime_destroy(rt);
    assert_int_equal(m.destroys, 1);
    airc_context_destroy(ctx);
}

static void test_mock_validation(void **state)
{
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    mock_rt m;
    memset(&m, 0, sizeof m);
    airc_runtime *sentinel = (airc_runtime *)&m;
    airc_runtime *rt = sentinel;

    static const struct {
        const char *name;
        size_t offset;
    } req[] = {
        {"alloc", offsetof(airc_runtime_vtable, alloc)},
        {"free", offsetof(airc_runtime_vtable, free)},
        {"copy", offsetof(airc_runtime_vtable, copy)},
        {"stream_create", offsetof(airc_runtime_vtable, stream_create)},
        {"stream_destroy", offsetof(airc_runtime_vtable, stream_destroy)},
        {"event_create", offsetof(airc_runtime_vtable, event_create)},
        {"event_destroy", offsetof(airc_runtime_vtable, event_destroy)},
        {"event_record", offsetof(airc_runtime_vtable, event_record)},
        {"stream_wait_event", offsetof(airc_runtime_vtable, stream_wait_event)},
        {"launch", offsetof(airc_runtime_vtable, launch)},
        {"synchronize", offsetof(airc_runtime_vtable, synchronize)},
    };
    for (size_t i = 0; i < sizeof req / sizeof req[0]; i++) {
        airc_runtime_vtable vt = mock_vtable();
        memset((char *)&vt + req[i].offset, 0, sizeof(void (*)(void)));
        AIRC_EXPECT(airc_runtime_create(ctx, &vt, &m, &rt), AIRC_E_INVALID_ARGUMENT,
                    req[i].name);
        assert_ptr_equal(rt, sentinel);
    }
    /* Optional members may be NULL. */
    airc_runtime_vtable vt = mock_vtable();
    vt.stream_threads = NULL;
    vt.destroy = NULL;
    AIRC_ASSERT_OK(airc_runtime_create(ctx, &vt, &m, &rt));
    airc_runtime_destroy(rt);
    rt = sentinel;

    vt = mock_vtable();
    vt.struct_size = offsetof(airc_runtime_vtable, synchronize); /* cuts a required member */
    AIRC_EXPECT(airc_runtime_create(ctx, &vt, &m, &rt), AIRC_E_INVALID_ARGUMENT, "struct_size");
    vt.struct_size = 0;
    AIRC_EXPECT(airc_runtime_create(ctx, &vt, &m, &rt), AIRC_E_INVALID_ARGUMENT, "struct_size");
    vt = mock_vtable();
    vt.abi_version = AIRC_RUNTIME_ABI_VERSION + 1;
    AIRC_EXPECT(airc_runtime_create(ctx, &vt, &m, &rt), AIRC_E_UNSUPPORTED, "newer");
    vt.abi_version = 0;
    AIRC_EXPECT(airc_runtime_create(ctx, &vt, &m, &rt), AIRC_E_INVALID_ARGUMENT, "ABI");
    vt = mock_vtable();
    vt.device_type = NULL;
    AIRC_EXPECT(airc_runtime_create(ctx, &vt, &m, &rt), AIRC_E_INVALID_ARGUMENT, "device_type");
    vt.device_type = "";
    AIRC_EXPECT(airc_runtime_create(ctx, &vt, &m, &rt), AIRC_E_INVALID_ARGUMENT, "device_type");
    vt = mock_vtable();
    AIRC_EXPECT(airc_runtime_create(ctx, NULL, &m, &rt), AIRC_E_INVALID_ARGUMENT, "vtable");
    AIRC_EXPECT(airc_runtime_create(ctx, &vt, &m, NULL), AIRC_E_INVALID_ARGUMENT, "out");
    AIRC_EXPECT(airc_runtime_create(NULL, &vt, &m, &rt), AIRC_E_MISUSE, NULL);
    assert_ptr_equal(rt, sentinel);
    assert_int_equal(m.destroys, 0); /* never called on failure */

    /* Bad handles: accessors give NULL and record MISUSE. */
    assert_null(airc_runtime_device_type(NULL));
    assert_int_equal(airc_last_error_code(), AIRC_E_MISUSE);
    uint32_t junk[16] = {0};
    assert_null(airc_runtime_vtable_of((airc_runtime *)junk));
    assert_int_equal(airc_last_error_code(), AIRC_E_MISUSE);
    assert_null(airc_runtime_ctx((airc_runtime *)junk));
    airc_runtime_destroy((airc_runtime *)junk); /* ignored */
    airc_context_destroy(ctx);
}

static void test_mock_create_oom(void **state)
{
    for (size_t fail = 1;; fail++) {
        airc_test_alloc ta;
        airc_allocator a;
        airc_test_alloc_init(&ta, &a);
        airc_context *ctx;
        AIRC_ASSERT_OK(airc_context_create(&a, &ctx));
        mock_rt m;
        memset(&m, 0, sizeof m);
        airc_runtime_vtable vt = mock_vtable();
        airc_runtime *rt = NULL;
        ta.fail_at = ta.count + fail;
        airc_status st = airc_runtime_create(ctx, &vt, &m, &rt);
        ta.fail_at = 0;
        if (st == AIRC_OK) {
            airc_runtime_destroy(rt);
            assert_int_equal(m.destroys, 1);
        } else {
            AIRC_EXPECT(st, AIRC_E_OUT_OF_MEMORY, NULL);
            assert_null(rt);
            assert_int_equal(m.destroys, 0);
        }
        airc_context_destroy(ctx);
        assert_int_equal(ta.live, 0);
        if (st == AIRC_OK) {
            assert_true(fail > 1); /* the loop did inject failures */
            break;
        }
    }
}

/* ======================================================================== */
/* Part 2: the CPU runtime                                                  */
/* ======================================================================== */

typedef struct cpu_fixture {
    airc_test_alloc ta;
    airc_allocator a;
    airc_context *ctx;
    airc_runtime *rt;
    const airc_runtime_vtable *v;
    void *c;
} cpu_fixture;

static void cpu_open(cpu_fixture *f, int32_t num_threads)
{
    airc_test_alloc_init(&f->ta, &f->a);
    AIRC_ASSERT_OK(airc_context_create(&f->a, &f->ctx));
    airc_cpu_runtime_options o;
    airc_cpu_runtime_options_init(&o);
    o.num_threads = num_threads;
    AIRC_ASSERT_OK(airc_cpu_runtime_create(f->ctx, &o, &f->rt));
    f->v = airc_runtime_vtable_of(f->rt);
    f->c = airc_runtime_ctx(f->rt);
}

static void cpu_close(cpu_fixture *f)
{
    airc_runtime_destroy(f->rt);
    airc_context_destroy(f->ctx);
    assert_int_equal(f->ta.live, 0);
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* A gate a launch blocks on until the test opens it (bounded: a broken
 * runtime fails the test rather than hanging it). */
typedef struct gate {
    pthread_mutex_t m;
    pthread_cond_t c;
    bool open;
    atomic_int entered;
} gate;

static void gate_init(gate *g)
{
    pthread_mutex_init(&g->m, NULL);
    pthread_cond_init(&g->c, NULL);
    g->open = false;
    atomic_init(&g->entered, 0);
}
static void gate_open(gate *g)
{
    pthread_mutex_lock(&g->m);
    g->open = true;
    pthread_cond_broadcast(&g->c);
    pthread_mutex_unlock(&g->m);
}
static void gate_fini(gate *g)
{
    pthread_cond_destroy(&g->c);
    pthread_mutex_destroy(&g->m);
}
static airc_status gate_launch(void *arg, airc_stream_t s)
{
    gate *g = arg;
    atomic_fetch_add(&g->entered, 1);
    pthread_mutex_lock(&g->m);
    while (!g->open)
        pthread_cond_wait(&g->c, &g->m);
    pthread_mutex_unlock(&g->m);
    return AIRC_OK;
}
/* Polls cond for up to 5 s. */
static bool eventually(atomic_int *v, int want)
{
    for (int i = 0; i < 5000; i++) {
        if (atomic_load(v) == want)
            return true;
        sleep_ms(1);
    }
    return false;
}

static void test_cpu_device_and_options(void **state)
{
    cpu_fixture f;
    cpu_open(&f, 0);
    assert_string_equal(airc_runtime_device_type(f.rt), "cpu");
    assert_null(f.v->capture_begin); /* the launch table is the capture */
    assert_null(f.v->capture_end);
    assert_null(f.v->graph_replay);
    assert_non_null(f.v->stream_threads);
    cpu_close(&f);

    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_runtime *rt = NULL;
    AIRC_ASSERT_OK(airc_cpu_runtime_create(ctx, NULL, &rt));
    airc_runtime_destroy(rt);
    airc_cpu_runtime_options o;
    airc_cpu_runtime_options_init(&o);
    assert_int_equal(o.struct_size, sizeof o);
    assert_int_equal(o.num_threads, 0);
    rt = NULL;
    o.num_threads = -1;
    AIRC_EXPECT(airc_cpu_runtime_create(ctx, &o, &rt), AIRC_E_INVALID_ARGUMENT, "num_threads");
    o.num_threads = 1;
    o.struct_size = 4;
    AIRC_EXPECT(airc_cpu_runtime_create(ctx, &o, &rt), AIRC_E_INVALID_ARGUMENT, "struct_size");
    AIRC_EXPECT(airc_cpu_runtime_create(ctx, NULL, NULL), AIRC_E_INVALID_ARGUMENT, "out");
    AIRC_EXPECT(airc_cpu_runtime_create(NULL, NULL, &rt), AIRC_E_MISUSE, NULL);
    assert_null(rt);
    airc_context_destroy(ctx);
}

static void test_cpu_alloc(void **state)
{
    cpu_fixture f;
    cpu_open(&f, 2);
    static const size_t sizes[] = {0, 1, 3, 63, 64, 65, 1000, 1 << 20};
    static const size_t aligns[] = {0, 1, 8, 64, 128, 4096};
    void *ptrs[sizeof sizes / sizeof sizes[0] * (sizeof aligns / sizeof aligns[0])];
    size_t k = 0;
    long live0 = f.ta.live;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (size_t j = 0; j < sizeof aligns / sizeof aligns[0]; j++) {
            void *p = NULL;
            AIRC_ASSERT_OK(f.v->alloc(f.c, sizes[i], aligns[j], &p));
            assert_non_null(p);
            size_t want = aligns[j] > 64 ? aligns[j] : 64;
            assert_int_equal((uintptr_t)p % want, 0);
            memset(p, 0xab, sizes[i]); /* the whole block is ours (ASan checks) */
            for (size_t q = 0; q < k; q++)
                assert_ptr_not_equal(ptrs[q], p);
            ptrs[k++] = p;
        }
    /* Every block comes from the context's allocator. */
    assert_int_equal(f.ta.live - live0, (long)k);
    for (size_t q = 0; q < k; q += 2)
        f.v->free(f.c, ptrs[q]);
    f.v->free(f.c, NULL);
    assert_int_equal(f.ta.live - live0, (long)(k / 2));
    /* The rest are left for destroy to free (checked by cpu_close). */

    void *p = (void *)&f;
    AIRC_EXPECT(f.v->alloc(f.c, 16, 48, &p), AIRC_E_INVALID_ARGUMENT, "power of two");
    AIRC_EXPECT(f.v->alloc(f.c, SIZE_MAX - 8, 64, &p), AIRC_E_OUT_OF_MEMORY, NULL);
    f.ta.fail_at = f.ta.count + 1;
    AIRC_EXPECT(f.v->alloc(f.c, 256, 64, &p), AIRC_E_OUT_OF_MEMORY, "256");
    f.ta.fail_at = 0;
    assert_ptr_equal(p, (void *)&f); /* untouched on failure */
    cpu_close(&f);
}

/* Every allocating entry point of the CPU runtime fails cleanly. */
static void test_cpu_oom(void **state)
{
    int done = 0;
    for (size_t fail = 1; !done; fail++) {
        airc_test_alloc ta;
        airc_allocator a;
        airc_test_alloc_init(&ta, &a);
        airc_context *ctx;
        AIRC_ASSERT_OK(airc_context_create(&a, &ctx));
        ta.fail_at = ta.count + fail;
        airc_runtime *rt = NULL;
        airc_status st = airc_cpu_runtime_create(ctx, NULL, &rt);
        airc_stream_t s = NULL;
        airc_event_t e = NULL;
        int counter = 0;
        if (st == AIRC_OK) {
            const airc_runtime_vtable *v = airc_runtime_vtable_of(rt);
            void *c = airc_runtime_ctx(rt);
            st = v->stream_create(c, &s);
            if (st == AIRC_OK)
                st = v->event_create(c, &e);
            if (st == AIRC_OK)
                st = v->launch(c, s, add_one, &counter);
            if (st == AIRC_OK)
                st = v->event_record(c, e, s);
            if (st == AIRC_OK)
                st = v->synchronize(c, NULL);
            if (st == AIRC_OK)
                assert_int_equal(counter, 1);
            if (st == AIRC_OK) /* a recycled queue entry: no allocation */
                st = v->launch(c, s, add_one, &counter);
            if (st == AIRC_OK)
                done = 1;
        } else {
            assert_null(rt);
        }
        ta.fail_at = 0;
        if (!done) {
            AIRC_EXPECT(st, AIRC_E_OUT_OF_MEMORY, "out of memory");
            assert_int_equal(ta.failures, 1);
        }
        airc_runtime_destroy(rt); /* drains, frees streams/events */
        if (done)
            assert_int_equal(counter, 2);
        airc_context_destroy(ctx);
        assert_int_equal(ta.live, 0);
        assert_true(fail < 100);
    }
}

/* Launch order within a stream: each launch appends its index. */
typedef struct order_log {
    int *slots;
    int len;
} order_log;
typedef struct order_arg {
    order_log *log;
    int index;
} order_arg;
static airc_status append_index(void *arg, airc_stream_t s)
{
    order_arg *a = arg;
    a->log->slots[a->log->len++] = a->index;
    return AIRC_OK;
}

static void test_cpu_stream_order(void **state)
{
    cpu_fixture f;
    cpu_open(&f, 2);
    enum { N = 2000, S = 2 };
    airc_stream_t s[S];
    order_log log[S];
    order_arg *args = calloc(S * N, sizeof *args);
    for (int k = 0; k < S; k++) {
        AIRC_ASSERT_OK(f.v->stream_create(f.c, &s[k]));
        log[k].slots = calloc(N, sizeof(int));
        log[k].len = 0;
    }
    /* The first launch on stream 0 is slow, so that its queue fills up
     * behind it. */
    gate g;
    gate_init(&g);
    AIRC_ASSERT_OK(f.v->launch(f.c, s[0], gate_launch, &g));
    for (int i = 0; i < N; i++)
        for (int k = 0; k < S; k++) {
            order_arg *a = &args[k * N + i];
            a->log = &log[k];
            a->index = i;
            AIRC_ASSERT_OK(f.v->launch(f.c, s[k], append_index, a));
        }
    assert_int_equal(log[0].len, 0); /* still behind the gate */
    gate_open(&g);
    AIRC_ASSERT_OK(f.v->synchronize(f.c, s[0]));
    AIRC_ASSERT_OK(f.v->synchronize(f.c, NULL));
    for (int k = 0; k < S; k++) {
        assert_int_equal(log[k].len, N);
        for (int i = 0; i < N; i++)
            assert_int_equal(log[k].slots[i], i);
        free(log[k].slots);
        f.v->stream_destroy(f.c, s[k]);
    }
    free(args);
    gate_fini(&g);
    cpu_close(&f);
}

/* A producer far ahead of its stream: launch blocks at the queue's cap
 * (AIRC_CPU_QUEUE_CAP, 65536 entries) instead of growing without bound. */
typedef struct opener_arg {
    gate *g;
    atomic_int launched; /* launches the producer has completed */
    int stall_at;
    int opened_at;
} opener_arg;

/* Opens the gate once the producer has queued `stall_at` launches and then
 * 50 ms more have passed (a correct runtime holds it there; a broken one
 * lets it run on), or once it has finished. */
static void *open_when_stalled(void *arg)
{
    opener_arg *o = arg;
    while (atomic_load(&o->launched) < o->stall_at)
        sleep_ms(1);
    sleep_ms(50);
    o->opened_at = atomic_load(&o->launched);
    gate_open(o->g);
    return NULL;
}

static void test_cpu_queue_bound(void **state)
{
    cpu_fixture f;
    cpu_open(&f, 2);
    enum { N = 70000, CAP = 65536 };
    airc_stream_t s;
    AIRC_ASSERT_OK(f.v->stream_create(f.c, &s));
    order_log log = {calloc(N, sizeof(int)), 0};
    order_arg *args = calloc(N, sizeof *args);
    gate g;
    gate_init(&g);
    long live0 = f.ta.live;
    AIRC_ASSERT_OK(f.v->launch(f.c, s, gate_launch, &g));
    opener_arg o = {.g = &g, .stall_at = CAP - 1, .opened_at = -1};
    atomic_init(&o.launched, 0);
    pthread_t opener;
    assert_int_equal(pthread_create(&opener, NULL, open_when_stalled, &o), 0);
    for (int i = 0; i < N; i++) {
        args[i] = (order_arg){&log, i};
        AIRC_ASSERT_OK(f.v->launch(f.c, s, append_index, &args[i]));
        atomic_fetch_add(&o.launched, 1);
    }
    pthread_join(opener, NULL);
    /* The producer stalled with the gate entry + CAP-1 launches queued. */
    assert_int_equal(o.opened_at, CAP - 1);
    AIRC_ASSERT_OK(f.v->synchronize(f.c, s));
    assert_int_equal(log.len, N);
    for (int i = 0; i < N; i++)
        assert_int_equal(log.slots[i], i);
    long entries = f.ta.live - live0;
    assert_true(entries >= CAP && entries <= CAP + 2);
    free(log.slots);
    free(args);
    cpu_close(&f);
    gate_fini(&g);
}

/* ---- events ------------------------------------------------------------ */

typedef struct xfer {
    int value;    /* written on A */
    int observed; /* read on B */
    int delay_ms;
    int write;
} xfer;
static airc_status slow_write(void *arg, airc_stream_t s)
{
    xfer *x = arg;
    sleep_ms(x->delay_ms);
    x->value = x->write;
    return AIRC_OK;
}
static airc_status read_value(void *arg, airc_stream_t s)
{
    xfer *x = arg;
    x->observed = x->value;
    return AIRC_OK;
}

static void test_cpu_cross_stream_event(void **state)
{
    cpu_fixture f;
    cpu_open(&f, 2);
    airc_stream_t a, b;
    airc_event_t e;
    AIRC_ASSERT_OK(f.v->stream_create(f.c, &a));
    AIRC_ASSERT_OK(f.v->stream_create(f.c, &b));
    AIRC_ASSERT_OK(f.v->event_create(f.c, &e));

    /* B waits for A's slow write: it must see the written value. */
    xfer x = {.value = 0, .observed = -1, .delay_ms = 10, .write = 42};
    AIRC_ASSERT_OK(f.v->launch(f.c, a, slow_write, &x));
    AIRC_ASSERT_OK(f.v->event_record(f.c, e, a));
    AIRC_ASSERT_OK(f.v->stream_wait_event(f.c, b, e));
    AIRC_ASSERT_OK(f.v->launch(f.c, b, read_value, &x));
    AIRC_ASSERT_OK(f.v->synchronize(f.c, b));
    assert_int_equal(x.observed, 42);

    /* Re-recorded: the second wait is for the second record. */
    x.write = 43;
    AIRC_ASSERT_OK(f.v->launch(f.c, a, slow_write, &x));
    AIRC_ASSERT_OK(f.v->event_record(f.c, e, a));
    AIRC_ASSERT_OK(f.v->stream_wait_event(f.c, b, e));
    AIRC_ASSERT_OK(f.v->launch(f.c, b, read_value, &x));
    AIRC_ASSERT_OK(f.v->synchronize(f.c, b));
    assert_int_equal(x.observed, 43);

    /* A wait is for the record issued before it, not a later one: B's
     * work proceeds while A sits at a gate before its next record. */
    gate g;
    gate_init(&g);
    AIRC_ASSERT_OK(f.v->stream_wait_event(f.c, b, e)); /* generation 2: done */
    AIRC_ASSERT_OK(f.v->launch(f.c, a, gate_launch, &g));
    AIRC_ASSERT_OK(f.v->event_record(f.c, e, a)); /* generation 3: behind the gate */
    int one = 0;
    AIRC_ASSERT_OK(f.v->launch(f.c, b, add_one, &one));
    AIRC_ASSERT_OK(f.v->synchronize(f.c, b)); /* must not wait for A */
    assert_int_equal(one, 1);
    assert_true(eventually(&g.entered, 1)); /* A really is held */
    /* ...and a wait issued now blocks B until A passes the gate. */
    AIRC_ASSERT_OK(f.v->stream_wait_event(f.c, b, e));
    AIRC_ASSERT_OK(f.v->launch(f.c, b, add_one, &one));
    sleep_ms(10);
    assert_int_equal(one, 1); /* B is held by the event */
    gate_open(&g);
    AIRC_ASSERT_OK(f.v->synchronize(f.c, NULL));
    assert_int_equal(one, 2);

    /* Waiting for an event never recorded is a no-op; so is recording and
     * waiting on the NULL stream (the caller's thread). */
    airc_event_t fresh;
    AIRC_ASSERT_OK(f.v->event_create(f.c, &fresh));
    AIRC_ASSERT_OK(f.v->stream_wait_event(f.c, b, fresh));
    AIRC_ASSERT_OK(f.v->launch(f.c, b, add_one, &one));
    AIRC_ASSERT_OK(f.v->synchronize(f.c, b));
    assert_int_equal(one, 3);
    x.write = 44;
    x.delay_ms = 10;
    AIRC_ASSERT_OK(f.v->launch(f.c, a, slow_write, &x));
    AIRC_ASSERT_OK(f.v->event_record(f.c, fresh, a));
    AIRC_ASSERT_OK(f.v->stream_wait_event(f.c, NULL, fresh)); /* the caller blocks */
    assert_int_equal(x.value, 44);
    AIRC_ASSERT_OK(f.v->event_record(f.c, fresh, NULL));

    /* Misuse: a stream handle given as an event, destroyed handles. */
    AIRC_EXPECT(f.v->event_record(f.c, a, b), AIRC_E_MISUSE, "event");
    AIRC_EXPECT(f.v->stream_wait_event(f.c, e, e), AIRC_E_MISUSE, "stream");
    AIRC_EXPECT(f.v->launch(f.c, e, add_one, &one), AIRC_E_MISUSE, "stream");
    AIRC_EXPECT(f.v->launch(f.c, a, NULL, &one), AIRC_E_INVALID_ARGUMENT, "fn");

    f.v->event_destroy(f.c, fresh);
    f.v->event_destroy(f.c, e);
    f.v->stream_destroy(f.c, a);
    f.v->stream_destroy(f.c, b);
    gate_fini(&g);
    cpu_close(&f);
}

/* An event destroyed while a stream still waits for it: destroy waits. */
static void test_cpu_event_destroy_pending(void **state)
{
    cpu_fixture f;
    cpu_open(&f, 2);
    airc_stream_t a, b;
    airc_event_t e;
    AIRC_ASSERT_OK(f.v->stream_create(f.c, &a));
    AIRC_ASSERT_OK(f.v->stream_create(f.c, &b));
    AIRC_ASSERT_OK(f.v->event_create(f.c, &e));
    xfer x = {.value = 0, .observed = -1, .delay_ms = 10, .write = 7};
    AIRC_ASSERT_OK(f.v->launch(f.c, a, slow_write, &x));
    AIRC_ASSERT_OK(f.v->event_record(f.c, e, a));
    AIRC_ASSERT_OK(f.v->stream_wait_event(f.c, b, e));
    AIRC_ASSERT_OK(f.v->launch(f.c, b, read_value, &x));
    f.v->event_destroy(f.c, e);
    AIRC_ASSERT_OK(f.v->synchronize(f.c, NULL));
    assert_int_equal(x.observed, 7);
    cpu_close(&f);
}

/* ---- copies ------------------------------------------------------------ */

typedef struct fill_arg {
    float *p;
    size_t n;
    float v;
} fill_arg;
static airc_status slow_fill(void *arg, airc_stream_t s)
{
    fill_arg *a = arg;
    sleep_ms(10);
    for (size_t i = 0; i < a->n; i++)
        a->p[i] = a->v;
    return AIRC_OK;
}

static void test_cpu_copy(void **state)
{
    cpu_fixture f;
    cpu_open(&f, 2);
    enum { N = 1024 };
    float *src, *dst;
    AIRC_ASSERT_OK(f.v->alloc(f.c, N * sizeof(float), 64, (void **)&src));
    AIRC_ASSERT_OK(f.v->alloc(f.c, N * sizeof(float), 64, (void **)&dst));
    for (int i = 0; i < N; i++)
        src[i] = (float)i;
    AIRC_ASSERT_OK(f.v->copy(f.c, dst, src, N * sizeof(float), AIRC_COPY_DEVICE_TO_DEVICE, NULL));
    for (int i = 0; i < N; i++)
        assert_true(dst[i] == (float)i);
    /* On a stream the copy comes after the slow fill launched before it. */
    airc_stream_t s;
    AIRC_ASSERT_OK(f.v->stream_create(f.c, &s));
    fill_arg fa = {src, N, 5.0f};
    AIRC_ASSERT_OK(f.v->launch(f.c, s, slow_fill, &fa));
    AIRC_ASSERT_OK(f.v->copy(f.c, dst, src, N * sizeof(float), AIRC_COPY_HOST_TO_DEVICE, s));
    AIRC_ASSERT_OK(f.v->synchronize(f.c, s));
    for (int i = 0; i < N; i++)
        assert_true(dst[i] == 5.0f);
    AIRC_ASSERT_OK(f.v->copy(f.c, dst, src, 0, AIRC_COPY_DEVICE_TO_HOST, s));
    AIRC_EXPECT(f.v->copy(f.c, dst, src, 4, 7, NULL), AIRC_E_INVALID_ARGUMENT, "kind");
    AIRC_EXPECT(f.v->copy(f.c, NULL, src, 4, AIRC_COPY_DEVICE_TO_HOST, NULL),
                AIRC_E_INVALID_ARGUMENT, "destination");
    f.v->free(f.c, src);
    f.v->free(f.c, dst);
    cpu_close(&f);
}

/* ---- errors ------------------------------------------------------------ */

static void test_cpu_sticky_error(void **state)
{
    cpu_fixture f;
    cpu_open(&f, 2);
    airc_stream_t a, b;
    airc_event_t e;
    AIRC_ASSERT_OK(f.v->stream_create(f.c, &a));
    AIRC_ASSERT_OK(f.v->stream_create(f.c, &b));
    AIRC_ASSERT_OK(f.v->event_create(f.c, &e));
    int n = 0;
    AIRC_ASSERT_OK(f.v->launch(f.c, a, add_one, &n));
    AIRC_ASSERT_OK(f.v->launch(f.c, a, fail_launch, "kernel 'foo' failed: bad shape"));
    AIRC_ASSERT_OK(f.v->launch(f.c, a, add_one, &n)); /* skipped: after the failure */
    AIRC_ASSERT_OK(f.v->launch(f.c, a, fail_launch, "second failure"));
    AIRC_ASSERT_OK(f.v->event_record(f.c, e, a)); /* still completes */
    AIRC_ASSERT_OK(f.v->stream_wait_event(f.c, b, e));
    int nb = 0;
    AIRC_ASSERT_OK(f.v->launch(f.c, b, add_one, &nb));
    AIRC_ASSERT_OK(f.v->synchronize(f.c, b)); /* b itself is fine */
    assert_int_equal(nb, 1);
    /* The first failure's message crosses from the worker to the caller. */
    AIRC_EXPECT(f.v->synchronize(f.c, a), AIRC_E_RUNTIME, "kernel 'foo' failed: bad shape");
    assert_int_equal(n, 1);
    AIRC_ASSERT_OK(f.v->synchronize(f.c, a)); /* cleared */
    AIRC_ASSERT_OK(f.v->launch(f.c, a, add_one, &n)); /* runs again */
    AIRC_ASSERT_OK(f.v->synchronize(f.c, a));
    assert_int_equal(n, 2);

    /* A failure without a message still says what happened. */
    AIRC_ASSERT_OK(f.v->launch(f.c, a, fail_launch, NULL));
    AIRC_EXPECT(f.v->synchronize(f.c, NULL), AIRC_E_RUNTIME, "AIRC_E_RUNTIME");
    AIRC_ASSERT_OK(f.v->synchronize(f.c, NULL));

    /* The error of a stream destroyed unsynchronized goes to the next
     * synchronize(NULL). */
    AIRC_ASSERT_OK(f.v->launch(f.c, b, fail_launch, "lost stream error"));
    f.v->stream_destroy(f.c, b);
    AIRC_EXPECT(f.v->synchronize(f.c, NULL), AIRC_E_RUNTIME, "lost stream error");
    AIRC_ASSERT_OK(f.v->synchronize(f.c, NULL));

    /* The NULL stream: synchronous on the caller's thread, status returned
     * by launch, nothing sticky. */
    AIRC_EXPECT(f.v->launch(f.c, NULL, fail_launch, "eager failure"), AIRC_E_RUNTIME,
                "eager failure");
    AIRC_ASSERT_OK(f.v->synchronize(f.c, NULL));
    AIRC_ASSERT_OK(f.v->launch(f.c, NULL, add_one, &n));
    assert_int_equal(n, 3); /* already ran */

    f.v->event_destroy(f.c, e);
    cpu_close(&f);
}

/* ---- lifetime ---------------------------------------------------------- */

static airc_status count_slow(void *arg, airc_stream_t s)
{
    atomic_int *c = arg;
    if (atomic_fetch_add(c, 1) == 0)
        sleep_ms(10);
    return AIRC_OK;
}

static void test_cpu_destroy_pending(void **state)
{
    cpu_fixture f;
    cpu_open(&f, 2);
    atomic_int counter;
    atomic_init(&counter, 0);
    enum { S = 3, N = 50 };
    airc_stream_t s[S];
    airc_event_t e;
    AIRC_ASSERT_OK(f.v->event_create(f.c, &e));
    for (int k = 0; k < S; k++)
        AIRC_ASSERT_OK(f.v->stream_create(f.c, &s[k]));
    for (int k = 0; k < S; k++) {
        if (k > 0)
            AIRC_ASSERT_OK(f.v->stream_wait_event(f.c, s[k], e));
        for (int i = 0; i < N; i++)
            AIRC_ASSERT_OK(f.v->launch(f.c, s[k], count_slow, &counter));
        AIRC_ASSERT_OK(f.v->event_record(f.c, e, s[k]));
    }
    void *leftover;
    AIRC_ASSERT_OK(f.v->alloc(f.c, 100, 64, &leftover));
    /* Nothing synchronized or destroyed: the runtime drains, joins and frees
     * it all (cpu_close checks no block is left). */
    airc_runtime_destroy(f.rt);
    assert_int_equal(atomic_load(&counter), S * N);
    f.rt = NULL;
    cpu_close(&f);
}

/* ---- many streams ------------------------------------------------------ */

typedef struct chain_arg {
    atomic_int *done; /* per stream: launches finished */
    int stream;
    int n;
    int ok; /* last launch: every earlier stream had finished */
} chain_arg;
static airc_status chain_step(void *arg, airc_stream_t s)
{
    chain_arg *a = arg;
    atomic_fetch_add(&a->done[a->stream], 1);
    return AIRC_OK;
}
static airc_status chain_check(void *arg, airc_stream_t s)
{
    chain_arg *a = arg;
    a->ok = 1;
    for (int k = 0; k < a->stream; k++)
        if (atomic_load(&a->done[k]) != a->n)
            a->ok = 0;
    return AIRC_OK;
}

static void test_cpu_many_streams(void **state)
{
    cpu_fixture f;
    cpu_open(&f, 2); /* 8 streams on a budget of 2 threads */
    enum { S = 8, N = 200 };
    airc_stream_t s[S];
    airc_event_t e[S];
    atomic_int done[S];
    chain_arg chk[S];
    order_log log[S];
    order_arg *args = calloc(S * N, sizeof *args);
    for (int k = 0; k < S; k++) {
        AIRC_ASSERT_OK(f.v->stream_create(f.c, &s[k]));
        AIRC_ASSERT_OK(f.v->event_create(f.c, &e[k]));
        atomic_init(&done[k], 0);
        log[k].slots = calloc(N, sizeof(int));
        log[k].len = 0;
    }
    /* Stream k waits for stream k-1's event, recorded after all of k-1's
     * work, then checks that every earlier stream has finished. */
    for (int k = 0; k < S; k++) {
        if (k > 0)
            AIRC_ASSERT_OK(f.v->stream_wait_event(f.c, s[k], e[k - 1]));
        chk[k] = (chain_arg){done, k, N, -1};
        AIRC_ASSERT_OK(f.v->launch(f.c, s[k], chain_check, &chk[k]));
        for (int i = 0; i < N; i++) {
            order_arg *a = &args[k * N + i];
            a->log = &log[k];
            a->index = i;
            AIRC_ASSERT_OK(f.v->launch(f.c, s[k], append_index, a));
            AIRC_ASSERT_OK(f.v->launch(f.c, s[k], chain_step, &chk[k]));
        }
        AIRC_ASSERT_OK(f.v->event_record(f.c, e[k], s[k]));
    }
    AIRC_ASSERT_OK(f.v->synchronize(f.c, NULL));
    for (int k = 0; k < S; k++) {
        assert_int_equal(chk[k].ok, 1);
        assert_int_equal(atomic_load(&done[k]), N);
        assert_int_equal(log[k].len, N);
        for (int i = 0; i < N; i++)
            assert_int_equal(log[k].slots[i], i);
        free(log[k].slots);
    }
    free(args);
    /* Left for destroy: the streams and events. */
    cpu_close(&f);
}

/* ---- thread budget ----------------------------------------------------- */

typedef struct probe {
    const airc_runtime_vtable *v;
    void *c;
    int32_t threads;
    int blas;
} probe;
static airc_status probe_threads(void *arg, airc_stream_t s)
{
    probe *p = arg;
    p->threads = p->v->stream_threads(p->c, s);
    p->blas = openblas_get_num_threads();
    return AIRC_OK;
}

static void test_cpu_stream_threads(void **state)
{
    cpu_fixture f;
    cpu_open(&f, 8);
    const airc_runtime_vtable *v = f.v;
    airc_stream_t s[3];
    for (int k = 0; k < 3; k++)
        AIRC_ASSERT_OK(v->stream_create(f.c, &s[k]));
    /* Nothing busy: anyone gets the whole budget. */
    assert_int_equal(v->stream_threads(f.c, NULL), 8);
    assert_int_equal(v->stream_threads(f.c, s[0]), 8);
    gate g0, g1;
    gate_init(&g0);
    gate_init(&g1);
    AIRC_ASSERT_OK(v->launch(f.c, s[0], gate_launch, &g0));
    assert_true(eventually(&g0.entered, 1));
    assert_int_equal(v->stream_threads(f.c, s[0]), 8);  /* the one busy stream */
    assert_int_equal(v->stream_threads(f.c, s[1]), 4);  /* would be the second */
    assert_int_equal(v->stream_threads(f.c, NULL), 4);  /* the caller too */
    probe p = {v, f.c, 0, 0};
    AIRC_ASSERT_OK(v->launch(f.c, NULL, probe_threads, &p)); /* beside a busy stream */
    assert_int_equal(p.threads, 4);
    assert_int_equal(p.blas, 1);
    AIRC_ASSERT_OK(v->launch(f.c, s[1], gate_launch, &g1));
    assert_true(eventually(&g1.entered, 1));
    assert_int_equal(v->stream_threads(f.c, s[0]), 4);
    assert_int_equal(v->stream_threads(f.c, s[1]), 4);
    assert_int_equal(v->stream_threads(f.c, s[2]), 2); /* 8 / 3 */
    /* A kernel on a third busy stream sees its share, and BLAS is held to
     * one thread while several streams run. */
    p = (probe){v, f.c, 0, 0};
    AIRC_ASSERT_OK(v->launch(f.c, s[2], probe_threads, &p));
    AIRC_ASSERT_OK(v->synchronize(f.c, s[2]));
    assert_int_equal(p.threads, 2);
    assert_int_equal(p.blas, 1);
    gate_open(&g0);
    gate_open(&g1);
    AIRC_ASSERT_OK(v->synchronize(f.c, NULL));
    /* Alone again: the stream gets everything, BLAS included (OpenBLAS may
     * cap its count at the machine's CPUs). */
    p = (probe){v, f.c, 0, 0};
    AIRC_ASSERT_OK(v->launch(f.c, s[1], probe_threads, &p));
    AIRC_ASSERT_OK(v->synchronize(f.c, s[1]));
    assert_int_equal(p.threads, 8);
    assert_int_equal(p.blas, 8);
    /* The caller's thread on the NULL stream. */
    p = (probe){v, f.c, 0, 0};
    AIRC_ASSERT_OK(v->launch(f.c, NULL, probe_threads, &p));
    assert_int_equal(p.threads, 8);
    assert_int_equal(p.blas, 8);
    gate_fini(&g0);
    gate_fini(&g1);
    cpu_close(&f);

    /* A budget smaller than the number of busy streams still gives 1. */
    cpu_open(&f, 1);
    gate_init(&g0);
    airc_stream_t t;
    AIRC_ASSERT_OK(f.v->stream_create(f.c, &t));
    AIRC_ASSERT_OK(f.v->launch(f.c, t, gate_launch, &g0));
    assert_int_equal(f.v->stream_threads(f.c, NULL), 1);
    gate_open(&g0);
    cpu_close(&f); /* drains t before the gate dies */
    gate_fini(&g0);
}

/* The NULL stream runs on the caller's thread, before launch returns. */
typedef struct whoami {
    pthread_t self;
    int ran;
} whoami;
static airc_status note_thread(void *arg, airc_stream_t s)
{
    whoami *w = arg;
    w->self = pthread_self();
    w->ran = 1;
    return AIRC_OK;
}

static void test_cpu_null_stream(void **state)
{
    cpu_fixture f;
    cpu_open(&f, 2);
    whoami w = {0};
    AIRC_ASSERT_OK(f.v->launch(f.c, NULL, note_thread, &w));
    assert_int_equal(w.ran, 1);
    assert_true(pthread_equal(w.self, pthread_self()));
    airc_stream_t s;
    AIRC_ASSERT_OK(f.v->stream_create(f.c, &s));
    w.ran = 0;
    AIRC_ASSERT_OK(f.v->launch(f.c, s, note_thread, &w));
    AIRC_ASSERT_OK(f.v->synchronize(f.c, s));
    assert_int_equal(w.ran, 1);
    assert_false(pthread_equal(w.self, pthread_self())); /* the stream's worker */
    cpu_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mock_roundtrip),
        cmocka_unit_test(test_mock_older_and_newer_size),
        cmocka_unit_test(test_mock_validation),
        cmocka_unit_test(test_mock_create_oom),
        cmocka_unit_test(test_cpu_device_and_options),
        cmocka_unit_test(test_cpu_alloc),
        cmocka_unit_test(test_cpu_oom),
        cmocka_unit_test(test_cpu_stream_order),
        cmocka_unit_test(test_cpu_queue_bound),
        cmocka_unit_test(test_cpu_cross_stream_event),
        cmocka_unit_test(test_cpu_event_destroy_pending),
        cmocka_unit_test(test_cpu_copy),
        cmocka_unit_test(test_cpu_sticky_error),
        cmocka_unit_test(test_cpu_destroy_pending),
        cmocka_unit_test(test_cpu_many_streams),
        cmocka_unit_test(test_cpu_stream_threads),
        cmocka_unit_test(test_cpu_null_stream),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
