/* Fault injection over the whole API path (issue 10): the allocator hook
 * fails the Nth allocation — only the Nth ("once") or the Nth and every one
 * after it ("sticky") — for N = 1, 2, ... until an attempt makes fewer than
 * N allocations, over
 *   parse      airc_graph_parse_file;
 *   pipeline   config + example inputs + pass managers + airc_run_pipeline
 *              on a graph parsed with a working allocator;
 *   eager, reduce-overhead, max-autotune
 *              config (+ example inputs) + airc_compile + airc_compiled_run
 *              (twice in reduce-overhead: capture, then replay).
 * Every attempt that saw a refused allocation must fail with
 * AIRC_E_OUT_OF_MEMORY (or succeed with the right results, where airc could
 * do without the memory); the caller's graph must print exactly as before;
 * and once the attempt's objects are destroyed the live allocations (a set
 * of live pointers kept by the hook) are back to what they were before it.
 *
 * CI covers the seed graph (every N, both variants) and one model (mlp.fx).
 * AIRC_OOM_GRAPHS=all runs every graph of tests/data/graphs (slow:
 * scripts/oom.sh); AIRC_OOM_GRAPHS=a,b runs those; AIRC_OOM_STRIDE=k tries
 * every kth N for the graphs other than the seed. */
#include "testutil.h"

#include "airc/compile.h"
#include "airc/exec.h"
#include "airc/passes.h"

#include <dirent.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SEED_FX AIRC_SOURCE_DIR "/examples/seed001/multistream.after.fx"
#define SEED_X AIRC_SOURCE_DIR "/examples/seed001/x.npy"
#define GRAPHS AIRC_TEST_DATA "/graphs"
#define MAXIN 32
#define MAXOUT 64
#define NRUNS_MAX 2

/* ---- the failing allocator: a count, a set of live pointers ------------- */

#define TOMB ((void *)1)

typedef struct oom_alloc {
    size_t count;       /* allocation attempts (malloc, realloc) */
    size_t fail_at;     /* 0 = never */
    bool sticky;        /* fail every attempt from fail_at on */
    size_t failures;    /* attempts refused */
    void **slots;       /* open addressing; NULL empty, TOMB deleted */
    size_t cap;         /* power of two */
    size_t used;        /* live + tombstones */
    size_t live;        /* live blocks */
    size_t bad_frees;   /* frees / reallocs of pointers not live */
    pthread_mutex_t mu; /* the CPU runtime's stream threads allocate too */
} oom_alloc;

static size_t ptr_hash(const void *p, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)p;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return (size_t)h & (cap - 1);
}

static void set_insert(oom_alloc *a, void *p);

static void set_grow(oom_alloc *a)
{
    void **old = a->slots;
    size_t oldcap = a->cap;
    a->cap = oldcap ? oldcap * 2 : 1024;
    if (a->live * 4 < oldcap)
        a->cap = oldcap; /* mostly tombstones: rehash in place */
    a->slots = calloc(a->cap, sizeof *a->slots);
    if (!a->slots)
        abort();
    a->used = a->live = 0;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i] && old[i] != TOMB)
            set_insert(a, old[i]);
    free(old);
}

static void set_insert(oom_alloc *a, void *p)
{
    if ((a->used + 1) * 2 > a->cap)
        set_grow(a);
    size_t i = ptr_hash(p, a->cap);
    while (a->slots[i] && a->slots[i] != TOMB)
        i = (i + 1) & (a->cap - 1);
    if (!a->slots[i])
        a->used++;
    a->slots[i] = p;
    a->live++;
}

/* Removes p; false when p is not live. */
static bool set_remove(oom_alloc *a, void *p)
{
    if (!a->cap)
        return false;
    size_t i = ptr_hash(p, a->cap);
    while (a->slots[i]) {
        if (a->slots[i] == p) {
            a->slots[i] = TOMB;
            a->live--;
            return true;
        }
        i = (i + 1) & (a->cap - 1);
    }
    return false;
}

/* A place for a debugger's breakpoint: the first refused allocation of an
 * attempt (AIRC_OOM_ONLY_N=N AIRC_OOM_PHASES=... gdb -ex 'b oom_refused'). */
__attribute__((noinline)) static void oom_refused(size_t n)
{
    __asm__ volatile("" ::"r"(n));
}

static bool refuse(oom_alloc *a)
{
    a->count++;
    if (a->fail_at && (a->count == a->fail_at || (a->sticky && a->count > a->fail_at))) {
        if (a->count == a->fail_at)
            oom_refused(a->count);
        a->failures++;
        return true;
    }
    return false;
}

static void *locked_malloc(oom_alloc *a, size_t n)
{
    if (refuse(a))
        return NULL;
    void *p = malloc(n ? n : 1);
    if (p)
        set_insert(a, p);
    return p;
}

static void *h_malloc(void *ud, size_t n)
{
    oom_alloc *a = ud;
    pthread_mutex_lock(&a->mu);
    void *p = locked_malloc(a, n);
    pthread_mutex_unlock(&a->mu);
    return p;
}

static void *h_realloc(void *ud, void *p, size_t n)
{
    oom_alloc *a = ud;
    void *q = NULL;
    pthread_mutex_lock(&a->mu);
    if (!p) {
        q = locked_malloc(a, n);
    } else if (refuse(a)) {
        q = NULL; /* libc's contract: p stays valid, shrinking included */
    } else if (!set_remove(a, p)) {
        a->bad_frees++;
    } else {
        q = realloc(p, n ? n : 1);
        set_insert(a, q ? q : p);
    }
    pthread_mutex_unlock(&a->mu);
    return q;
}

static void h_free(void *ud, void *p)
{
    oom_alloc *a = ud;
    if (!p)
        return;
    pthread_mutex_lock(&a->mu);
    if (set_remove(a, p))
        free(p);
    else
        a->bad_frees++;
    pthread_mutex_unlock(&a->mu);
}

static void oom_init(oom_alloc *a)
{
    memset(a, 0, sizeof *a);
    pthread_mutex_init(&a->mu, NULL);
}

static airc_context *oom_context(oom_alloc *a)
{
    oom_init(a);
    airc_allocator al = {sizeof al, h_malloc, h_realloc, h_free, a};
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(&al, &ctx));
    return ctx;
}

static void oom_done(oom_alloc *a)
{
    free(a->slots);
    a->slots = NULL;
    a->cap = a->used = 0;
    pthread_mutex_destroy(&a->mu);
}

/* ---- the graphs ----------------------------------------------------------- */

typedef struct graph_case {
    char name[64];
    char fx[512];
    airc_tensor *in[MAXIN]; /* of g_lib */
    size_t nin;
} graph_case;

static airc_context *g_lib; /* libc: inputs and copies of results */

static void case_load(graph_case *gc, const char *name, const char *fx)
{
    memset(gc, 0, sizeof *gc);
    snprintf(gc->name, sizeof gc->name, "%s", name);
    snprintf(gc->fx, sizeof gc->fx, "%s", fx);
    if (!strcmp(fx, SEED_FX)) {
        AIRC_ASSERT_OK(airc_npy_read(g_lib, SEED_X, &gc->in[0]));
        gc->nin = 1;
        return;
    }
    for (; gc->nin < MAXIN; gc->nin++) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s.in%zu.npy", GRAPHS, name, gc->nin);
        FILE *f = fopen(path, "rb");
        if (!f)
            break;
        fclose(f);
        AIRC_ASSERT_OK(airc_npy_read(g_lib, path, &gc->in[gc->nin]));
    }
}

static void case_free(graph_case *gc)
{
    for (size_t i = 0; i < gc->nin; i++)
        airc_tensor_destroy(gc->in[i]);
    gc->nin = 0;
}

/* ---- one attempt of a phase ----------------------------------------------- */

/* max-autotune lowers at airc_compile with example inputs, else at the
 * first run ("max-autotune-run"). */
enum { PH_PARSE, PH_PIPELINE, PH_EAGER, PH_REDUCE, PH_AUTOTUNE, PH_AUTOTUNE_RUN, PH_COUNT };
static const char *const phase_names[PH_COUNT] = {
    "parse", "pipeline", "eager", "reduce-overhead", "max-autotune", "max-autotune-run"};

/* What a successful attempt produced, to compare with a clean attempt. */
typedef struct outcome {
    char *text;                           /* malloc'd: parse, pipeline */
    airc_tensor *out[MAXOUT * NRUNS_MAX]; /* of g_lib: compile phases */
    size_t nout;
} outcome;

static void outcome_clear(outcome *o)
{
    free(o->text);
    for (size_t i = 0; i < o->nout; i++)
        airc_tensor_destroy(o->out[i]);
    memset(o, 0, sizeof *o);
}

static bool tensors_equal(const airc_tensor *a, const airc_tensor *b)
{
    return airc_tensor_dtype(a) == airc_tensor_dtype(b) &&
           airc_tensor_ndim(a) == airc_tensor_ndim(b) &&
           !memcmp(airc_tensor_shape(a), airc_tensor_shape(b),
                   (size_t)airc_tensor_ndim(a) * sizeof(int64_t)) &&
           airc_tensor_nbytes(a) == airc_tensor_nbytes(b) &&
           !memcmp(airc_tensor_data(a), airc_tensor_data(b), airc_tensor_nbytes(a));
}

static bool outcome_equal(const outcome *a, const outcome *b)
{
    if ((a->text == NULL) != (b->text == NULL) || (a->text && strcmp(a->text, b->text)))
        return false;
    if (a->nout != b->nout)
        return false;
    for (size_t i = 0; i < a->nout; i++)
        if (!tensors_equal(a->out[i], b->out[i]))
            return false;
    return true;
}

/* Copies t into g_lib (libc memory, outside the counted hook). */
static airc_status keep_copy(outcome *o, const airc_tensor *t)
{
    if (o->nout >= MAXOUT * NRUNS_MAX)
        return AIRC_E_INTERNAL;
    airc_tensor *c;
    airc_status st = airc_tensor_create(g_lib, airc_tensor_dtype(t), airc_tensor_ndim(t),
                                        airc_tensor_shape(t), &c);
    if (st)
        return st;
    if (airc_tensor_nbytes(t))
        memcpy(airc_tensor_data(c), airc_tensor_data(t), airc_tensor_nbytes(t));
    o->out[o->nout++] = c;
    return AIRC_OK;
}

static airc_status post_dce(airc_graph *g, const airc_example_inputs *in, const airc_config *cfg,
                            void *ud)
{
    (void)in;
    (void)cfg;
    (void)ud;
    int32_t changed = 0;
    return airc_pass_dce(g, &changed);
}

static airc_status make_inputs(airc_context *ctx, const graph_case *gc, airc_example_inputs **out)
{
    airc_example_inputs *ex = NULL;
    airc_status st = airc_example_inputs_create(ctx, &ex);
    for (size_t i = 0; !st && i < gc->nin; i++)
        st = airc_example_inputs_add_tensor(ex, gc->in[i]);
    if (st) {
        airc_example_inputs_destroy(ex);
        return st;
    }
    *out = ex;
    return AIRC_OK;
}

/* pipeline: config, example inputs, a pre manager with two built-in passes
 * by name, a post manager with a user pass, then the pipeline on g. */
static airc_status attempt_pipeline(airc_context *ctx, const graph_case *gc, airc_graph *g)
{
    airc_config *cfg = NULL;
    airc_example_inputs *ex = NULL;
    airc_pass_manager *pre = NULL, *post = NULL;
    airc_status st = airc_config_create(ctx, &cfg);
    if (!st)
        st = make_inputs(ctx, gc, &ex);
    if (!st)
        st = airc_pass_manager_create(ctx, &pre);
    if (!st)
        st = airc_pass_manager_add_named_pass(pre, "cse");
    if (!st)
        st = airc_pass_manager_add_named_pass(pre, "dce");
    if (!st)
        st = airc_pass_manager_create(ctx, &post);
    if (!st)
        st = airc_pass_manager_add_pass(post, "user_dce", post_dce, NULL, NULL);
    if (!st)
        st = airc_run_pipeline(g, ex, cfg, pre, post);
    airc_pass_manager_destroy(post);
    airc_pass_manager_destroy(pre);
    airc_example_inputs_destroy(ex);
    airc_config_destroy(cfg);
    return st;
}

static airc_status attempt_compile(airc_context *ctx, const graph_case *gc, const airc_graph *g,
                                   int phase, outcome *o)
{
    static const char *const modes[PH_COUNT] = {
        NULL, NULL, "eager", "reduce-overhead", "max-autotune", "max-autotune"};
    airc_config *cfg = NULL;
    airc_example_inputs *ex = NULL;
    airc_compiled *c = NULL;
    airc_status st = airc_config_create(ctx, &cfg);
    if (!st)
        st = airc_config_set(cfg, "mode", modes[phase]);
    if (!st && phase == PH_AUTOTUNE) /* lowered at compile */
        st = make_inputs(ctx, gc, &ex);
    if (!st) {
        airc_compile_options opts;
        airc_compile_options_init(&opts);
        opts.config = cfg;
        opts.example_inputs = ex;
        st = airc_compile(g, &opts, &c);
    }
    /* capture or lower, then replay or reuse; on copies of the inputs,
     * which graphs with input mutations write to */
    outcome in = {0};
    for (size_t i = 0; i < gc->nin; i++)
        AIRC_ASSERT_OK(keep_copy(&in, gc->in[i]));
    int runs = phase == PH_REDUCE || phase == PH_AUTOTUNE_RUN ? 2 : 1;
    for (int r = 0; !st && r < runs; r++) {
        airc_tensor *res[MAXOUT];
        size_t n = 0;
        st = airc_compiled_run(c, in.out, in.nout, res, MAXOUT, &n);
        if (st)
            break;
        for (size_t i = 0; i < n; i++) {
            if (!st)
                st = keep_copy(o, res[i]);
            airc_tensor_destroy(res[i]);
        }
    }
    outcome_clear(&in);
    airc_compiled_destroy(c);
    airc_example_inputs_destroy(ex);
    airc_config_destroy(cfg);
    return st;
}

/* ---- the loop --------------------------------------------------------------- */

typedef struct loop_stats {
    size_t attempts;  /* N tried */
    size_t allocs;    /* allocations of a clean attempt */
    size_t oom;       /* failed with AIRC_E_OUT_OF_MEMORY */
    size_t tolerated; /* succeeded (right results) despite a refusal */
    size_t bugs;      /* wrong status, leak, changed graph, wrong results */
} loop_stats;

/* One phase, one variant: the hook fails once or from N on (sticky); the
 * context is warm (one for the whole loop, caches filled by a clean attempt;
 * live blocks must come back to what they were after each attempt) or fresh
 * (one per attempt, so the lazily filled op registry sees failures too;
 * nothing may be left once it is destroyed). */
typedef struct loop {
    const graph_case *gc;
    int phase;
    bool sticky, fresh;
    oom_alloc a;
    airc_context *ctx;
    airc_graph *shared;  /* compile phases: the caller's graph */
    char *const *states; /* pipeline: what g may print after a failure */
    size_t nstates;
    size_t armed; /* allocations the last attempt made while armed */
    loop_stats ls;
} loop;

static size_t g_bug_lines;

static void bug(loop *l, size_t n, const char *what, airc_status st)
{
    l->ls.bugs++;
    if (g_bug_lines++ < 40)
        print_error("BUG %s/%s/%s/%s N=%zu: %s (%s: %s)\n", l->gc->name, phase_names[l->phase],
                    l->sticky ? "sticky" : "once", l->fresh ? "fresh" : "warm", n, what,
                    airc_status_name(st), airc_last_error());
}

static void loop_open(loop *l)
{
    l->ctx = oom_context(&l->a);
    if (l->phase >= PH_EAGER)
        AIRC_ASSERT_OK(airc_graph_parse_file(l->ctx, l->gc->fx, &l->shared));
}

static void loop_close(loop *l, size_t n)
{
    airc_graph_destroy(l->shared);
    l->shared = NULL;
    airc_context_destroy(l->ctx);
    l->ctx = NULL;
    if (l->a.live) {
        char what[96];
        snprintf(what, sizeof what, "%zu blocks left after airc_context_destroy", l->a.live);
        bug(l, n, what, AIRC_OK);
    }
    if (l->a.bad_frees)
        bug(l, n, "frees or reallocs of pointers that were not live", AIRC_OK);
    oom_done(&l->a);
}

/* One attempt with the hook failing at N (0 = never), in l->ctx. */
static airc_status attempt(loop *l, size_t n, outcome *o, bool *refused)
{
    const graph_case *gc = l->gc;
    airc_context *ctx = l->ctx;
    airc_graph *g = l->shared;
    char *before = NULL;
    if (l->phase == PH_PIPELINE)
        AIRC_ASSERT_OK(airc_graph_parse_file(ctx, gc->fx, &g));
    if (g)
        before = airc_test_print(g, AIRC_PRINT_TYPES);

    size_t failures0 = l->a.failures, count0 = l->a.count;
    l->a.fail_at = n ? l->a.count + n : 0;
    l->a.sticky = l->sticky;
    airc_status st;
    airc_graph *parsed = (airc_graph *)&parsed; /* out-parameter sentinel */
    switch (l->phase) {
    case PH_PARSE: st = airc_graph_parse_file(ctx, gc->fx, &parsed); break;
    case PH_PIPELINE: st = attempt_pipeline(ctx, gc, g); break;
    default: st = attempt_compile(ctx, gc, g, l->phase, o); break;
    }
    airc_status code = airc_last_error_code();
    l->armed = l->a.count - count0;
    l->a.fail_at = 0;
    *refused = l->a.failures > failures0;

    if (st && code != st)
        bug(l, n, "airc_last_error_code differs from the status", st);
    if (l->phase == PH_PARSE) {
        if (st == AIRC_OK) {
            o->text = airc_test_print(parsed, AIRC_PRINT_TYPES);
            airc_graph_destroy(parsed);
        } else if (parsed != (airc_graph *)&parsed) {
            bug(l, n, "out-parameter written on failure", st);
        }
    } else if (g) {
        char *after = airc_test_print(g, AIRC_PRINT_TYPES);
        bool known = !strcmp(before, after);
        /* airc_run_pipeline restores g to what it was before the failing
         * pass or stage: one of the pipeline's intermediate states */
        for (size_t i = 0; !known && st != AIRC_OK && i < l->nstates; i++)
            known = !strcmp(l->states[i], after);
        if (l->phase == PH_PIPELINE && st == AIRC_OK) {
            o->text = after;
            after = NULL;
        } else if (!known) {
            bug(l, n, "the caller's graph changed", st);
            if (g_bug_lines < 40)
                print_error("before:\n%s\nafter:\n%s\n", before, after);
        } else if (airc_graph_lint(g) != AIRC_OK) {
            bug(l, n, "the caller's graph no longer lints", st);
        }
        free(after);
        if (g != l->shared)
            airc_graph_destroy(g);
    }
    free(before);
    return st;
}

/* An attempt in the loop's context (warm) or in a context of its own. */
static airc_status attempt_in_context(loop *l, size_t n, outcome *o, bool *refused)
{
    if (l->fresh)
        loop_open(l);
    size_t live0 = l->a.live;
    airc_status st = attempt(l, n, o, refused);
    if (l->fresh) {
        loop_close(l, n);
    } else if (n && l->a.live != live0) {
        char what[96];
        snprintf(what, sizeof what, "%ld blocks leaked", (long)l->a.live - (long)live0);
        bug(l, n, what, st);
    }
    return st;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs N = 1, 1 + stride, ... until an attempt no longer reaches N.
 * Returns false when a clean attempt fails (the graph cannot go through
 * this phase at all). */
static bool run_loop(loop *l, size_t stride)
{
    memset(&l->ls, 0, sizeof l->ls);
    if (!l->fresh)
        loop_open(l);
    outcome ref = {0};
    bool refused;
    airc_status st = attempt_in_context(l, 0, &ref, &refused);
    l->ls.allocs = l->armed;
    if (st != AIRC_OK) {
        printf("  %-16s %-15s skipped: a clean attempt fails: %s: %s\n", l->gc->name,
               phase_names[l->phase], airc_status_name(st), airc_last_error());
        outcome_clear(&ref);
        if (!l->fresh)
            loop_close(l, 0);
        return false;
    }
    if (!l->fresh) {
        /* the first attempt filled the context's caches: a second one
         * must leave exactly what it found */
        outcome again = {0};
        size_t live0 = l->a.live;
        st = attempt_in_context(l, 0, &again, &refused);
        l->ls.allocs = l->armed;
        if (st != AIRC_OK || !outcome_equal(&again, &ref))
            bug(l, 0, "a second clean attempt differs from the first", st);
        if (l->a.live != live0)
            bug(l, 0, "a clean attempt leaks", st);
        outcome_clear(&again);
    }

    const char *only = getenv("AIRC_OOM_ONLY_N"); /* debugging: one N */
    for (size_t n = only ? strtoull(only, NULL, 10) : 1;; n += stride) {
        outcome o = {0};
        st = attempt_in_context(l, n, &o, &refused);
        size_t made = l->armed;
        l->ls.attempts++;
        if (st == AIRC_OK) {
            if (!outcome_equal(&o, &ref))
                bug(l, n, "succeeded with a different result", st);
            else if (refused && ++l->ls.tolerated && getenv("AIRC_OOM_VERBOSE"))
                printf("  tolerated: %s/%s/%s/%s N=%zu\n", l->gc->name, phase_names[l->phase],
                       l->sticky ? "sticky" : "once", l->fresh ? "fresh" : "warm", n);
        } else if (!refused) {
            bug(l, n, "failed without a refused allocation", st);
        } else if (st == AIRC_E_OUT_OF_MEMORY) {
            l->ls.oom++;
        } else {
            bug(l, n, "a refused allocation gave another status", st);
        }
        outcome_clear(&o);
        /* the stream threads make the count vary a little: go on past
         * what the clean attempt made too */
        if (only || (!refused && (st == AIRC_OK || made < n) && n > l->ls.allocs))
            break; /* N is past the attempt's allocations */
        if (l->ls.attempts > 1000000)
            fail_msg("%s/%s: no end", l->gc->name, phase_names[l->phase]);
    }
    outcome_clear(&ref);
    if (!l->fresh)
        loop_close(l, 0);
    return true;
}

/* What airc_run_pipeline may leave in g after a failure (attempt_pipeline's
 * stages, computed with libc): the original graph, after each pre-pass,
 * after the built-in stage. */
static size_t pipeline_states(const graph_case *gc, char **states)
{
    size_t n = 0;
    for (int k = 0; k < 4; k++) {
        airc_graph *g;
        airc_config *cfg;
        airc_example_inputs *ex;
        airc_pass_manager *pre;
        AIRC_ASSERT_OK(airc_graph_parse_file(g_lib, gc->fx, &g));
        AIRC_ASSERT_OK(airc_config_create(g_lib, &cfg));
        AIRC_ASSERT_OK(make_inputs(g_lib, gc, &ex));
        AIRC_ASSERT_OK(airc_pass_manager_create(g_lib, &pre));
        if (k >= 1)
            AIRC_ASSERT_OK(airc_pass_manager_add_named_pass(pre, "cse"));
        if (k >= 2)
            AIRC_ASSERT_OK(airc_pass_manager_add_named_pass(pre, "dce"));
        airc_status st = AIRC_OK;
        if (k == 1 || k == 2)
            st = airc_pass_manager_run(pre, g, ex, cfg, NULL);
        else if (k == 3)
            st = airc_run_pipeline(g, ex, cfg, pre, NULL);
        if (st == AIRC_OK)
            states[n++] = airc_test_print(g, AIRC_PRINT_TYPES);
        airc_pass_manager_destroy(pre);
        airc_example_inputs_destroy(ex);
        airc_config_destroy(cfg);
        airc_graph_destroy(g);
    }
    return n;
}

/* Every phase and variant of one graph (or only `phases`, a comma list of
 * phase names, and variant 0 = once+warm when once_warm); returns the bugs
 * found. */
static size_t run_graph_in(const char *name, const char *fx, size_t stride, const char *phases,
                           bool once_warm)
{
    graph_case gc;
    case_load(&gc, name, fx);
    char *states[4] = {NULL};
    size_t nstates = pipeline_states(&gc, states);
    size_t bugs = 0, attempts = 0;
    double t_graph = now_s();
    for (int phase = 0; phase < PH_COUNT; phase++) {
        if (phases && !strstr(phases, phase_names[phase]))
            continue;
        for (int v = 0; v < (once_warm ? 1 : 4); v++) {
            loop l = {.gc = &gc, .phase = phase, .sticky = v & 1, .fresh = v >> 1};
            l.states = states;
            l.nstates = nstates;
            double t0 = now_s();
            if (!run_loop(&l, stride))
                break;
            printf("  %-16s %-15s %-6s %-5s %5zu allocs, N=1..%zu step %zu: %zu OOM, %zu "
                   "tolerated, %zu bugs (%.2f s)\n",
                   gc.name, phase_names[phase], l.sticky ? "sticky" : "once",
                   l.fresh ? "fresh" : "warm", l.ls.allocs, 1 + (l.ls.attempts - 1) * stride,
                   stride, l.ls.oom, l.ls.tolerated, l.ls.bugs, now_s() - t0);
            fflush(stdout);
            bugs += l.ls.bugs;
            attempts += l.ls.attempts;
        }
    }
    printf("  %-16s %zu attempts, %zu bugs, %.2f s\n", gc.name, attempts, bugs, now_s() - t_graph);
    for (size_t i = 0; i < nstates; i++)
        free(states[i]);
    case_free(&gc);
    return bugs;
}

static size_t run_graph(const char *name, const char *fx, size_t stride)
{
    return run_graph_in(name, fx, stride, getenv("AIRC_OOM_PHASES"), false);
}

static size_t env_stride(void)
{
    const char *s = getenv("AIRC_OOM_STRIDE");
    long v = s ? strtol(s, NULL, 10) : 1;
    return v > 0 ? (size_t)v : 1;
}

/* ---- tests ---------------------------------------------------------------- */

/* airc_context_create itself, a fresh hook each time. */
/* AIRC_OOM_GRAPHS names graphs other than "all": only those run. */
static bool selected(const char *name)
{
    const char *sel = getenv("AIRC_OOM_GRAPHS");
    return !sel || !*sel || !strcmp(sel, "all") || (name && strstr(sel, name));
}

static void test_context_create(void **state)
{
    (void)state;
    if (!selected(NULL))
        skip();
    size_t oom = 0;
    for (int sticky = 0; sticky < 2; sticky++) {
        for (size_t n = 1;; n++) {
            oom_alloc a;
            oom_init(&a);
            a.fail_at = n;
            a.sticky = sticky;
            airc_allocator al = {sizeof al, h_malloc, h_realloc, h_free, &a};
            airc_context *ctx = (airc_context *)&ctx;
            airc_status st = airc_context_create(&al, &ctx);
            bool refused = a.failures > 0;
            if (st == AIRC_OK)
                airc_context_destroy(ctx);
            else if (ctx != (airc_context *)&ctx)
                fail_msg("N=%zu: out-parameter written on failure", n);
            if (a.live || a.bad_frees)
                fail_msg("N=%zu: %zu blocks leaked, %zu bad frees", n, a.live, a.bad_frees);
            oom_done(&a);
            if (st == AIRC_OK && !refused) {
                printf("  context_create %s: N=1..%zu, %zu OOM\n", sticky ? "sticky" : "once", n,
                       oom);
                break;
            }
            if (st != AIRC_OK && st != AIRC_E_OUT_OF_MEMORY)
                fail_msg("N=%zu: %s: %s", n, airc_status_name(st), airc_last_error());
            oom += st == AIRC_E_OUT_OF_MEMORY;
            assert_true(n < 100000);
        }
    }
}

static void test_seed(void **state)
{
    (void)state;
    if (!selected("seed001"))
        skip();
    assert_int_equal(run_graph("seed001", SEED_FX, 1), 0);
}

/* One model in CI (mlp.fx); AIRC_OOM_GRAPHS=all or a,b,c for others. */
static void test_models(void **state)
{
    (void)state;
    const char *sel = getenv("AIRC_OOM_GRAPHS");
    size_t stride = env_stride();
    size_t bugs = 0, graphs = 0;
    char fx[600];
    if (!sel || !*sel)
        sel = "mlp";
    if (!strcmp(sel, "all")) {
        DIR *d = opendir(GRAPHS);
        assert_non_null(d);
        char names[128][64];
        size_t nn = 0;
        struct dirent *e;
        while ((e = readdir(d)) && nn < 128) {
            size_t len = strlen(e->d_name);
            if (len > 3 && len < 64 && !strcmp(e->d_name + len - 3, ".fx")) {
                memcpy(names[nn], e->d_name, len - 3);
                names[nn++][len - 3] = '\0';
            }
        }
        closedir(d);
        qsort(names, nn, sizeof names[0], (int (*)(const void *, const void *))strcmp);
        for (size_t i = 0; i < nn; i++) {
            if (snprintf(fx, sizeof fx, "%s/%s.fx", GRAPHS, names[i]) >= (int)sizeof fx)
                continue; /* a path this long is not one of the test graphs */
            bugs += run_graph(names[i], fx, stride);
            graphs++;
        }
    } else {
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", sel);
        for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
            if (!strcmp(tok, "seed001"))
                continue; /* test_seed */
            snprintf(fx, sizeof fx, "%s/%s.fx", GRAPHS, tok);
            bugs += run_graph(tok, fx, stride);
            graphs++;
        }
    }
    printf("  %zu graphs, %zu bugs\n", graphs, bugs);
    assert_int_equal(bugs, 0);
}

/* The bugs this loop found in graphs outside CI's two, kept as cases:
 * - compare_all, pipeline: functionalize took a meta function's out of
 *   memory for "meta unknown" and built another graph, successfully
 *   (passes/functionalize.c try_meta);
 * - attention, max-autotune: raising the GE model back to FX took a list
 *   value that could not be allocated for "no argument" and built
 *   aten.reshape(x), then failed lint with AIRC_E_INVALID_GRAPH
 *   (backends/ge/convert_shape.c call1). */
static void test_regressions(void **state)
{
    (void)state;
    if (!selected("compare_all") && !selected("attention"))
        skip();
    size_t bugs = 0;
    if (selected("compare_all"))
        bugs += run_graph_in("compare_all", GRAPHS "/compare_all.fx", 1, "pipeline", true);
    if (selected("attention"))
        bugs += run_graph_in("attention", GRAPHS "/attention.fx", 1, "max-autotune", true);
    assert_int_equal(bugs, 0);
}

static int setup(void **state)
{
    (void)state;
    AIRC_ASSERT_OK(airc_context_create(NULL, &g_lib));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    airc_context_destroy(g_lib);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_context_create),
        cmocka_unit_test(test_seed),
        cmocka_unit_test(test_models),
        cmocka_unit_test(test_regressions),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
