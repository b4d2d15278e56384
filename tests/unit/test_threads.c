/* Threads: what docs/api.md promises when threads share a context.
 *  1. different graphs parsed and compiled concurrently (each mode) on one
 *     context, each result checked against PyTorch's;
 *  2. different compiled objects run concurrently, on their own runtimes
 *     and on one shared CPU runtime;
 *  3. one compiled object called from several threads at once (calls are
 *     serialized; results cloned in reduce-overhead, as documented);
 *  4. a plugin loaded, ops registered and kernels / meta functions replaced
 *     while other threads compile and run, some of them with those ops.
 * The TSan tree of scripts/test.sh runs this file too. Worker threads do not
 * use cmocka's asserts (they longjmp to the main thread): they count
 * failures and keep the first message, and the main thread asserts. */
#include "testcase.h"
#include "testutil.h"

#include "airc/compile.h"
#include "airc/kernel.h"
#include "airc/plugin.h"
#include "airc/runtime.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GRAPHS AIRC_TEST_DATA "/graphs"
#define PLUGIN AIRC_BINARY_DIR "/lib/libairc_test_plugin.so"
#define NTHREADS 4

static const char *const case_names[] = {
    "seed001", "mlp",       "attention", "binary_inplace", "multistream", "int_pipeline",
    "views",   "conv_pool", "softmax",   "layer_norm",     "embedding"};
#define NCASES (sizeof case_names / sizeof *case_names)
static const char *const modes[] = {"eager", "reduce-overhead", "max-autotune"};
#define NMODES 3

typedef struct tcase {
    airc_test_case io;
    char *text;
} tcase;

static airc_context *g_ctx; /* shared by every thread of tests 1-3 */
static tcase g_cases[NCASES];

/* ---- a worker's record ---------------------------------------------------- */

typedef struct worker {
    int id;
    int failures;
    int checks;
    char first[600];
    void *arg; /* per test */
} worker;

static void failed(worker *w, const char *fmt, ...)
{
    if (!w->failures++) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->first, sizeof w->first, fmt, ap);
        va_end(ap);
    }
}

static void run_workers(worker *w, int n, void *(*fn)(void *))
{
    pthread_t th[NTHREADS + 2];
    assert_true(n <= NTHREADS + 2);
    for (int i = 0; i < n; i++) {
        w[i].id = i;
        assert_int_equal(pthread_create(&th[i], NULL, fn, &w[i]), 0);
    }
    for (int i = 0; i < n; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < n; i++) {
        if (w[i].failures)
            print_error("thread %d: %d failures, first: %s\n", i, w[i].failures, w[i].first);
        assert_int_equal(w[i].failures, 0);
        assert_true(w[i].checks > 0);
    }
}

/* ---- compiling and checking, without cmocka asserts ----------------------- */

static airc_status compile_text(const char *text, const char *mode, bool clone_outputs,
                                airc_runtime *rt, airc_pass_manager *pre, airc_compiled **out)
{
    airc_graph *g = NULL;
    airc_config *cfg = NULL;
    airc_status st = airc_graph_parse(g_ctx, text, strlen(text), NULL, &g);
    if (!st)
        st = airc_config_create(g_ctx, &cfg);
    if (!st)
        st = airc_config_set(cfg, "mode", mode);
    if (!st && clone_outputs)
        st = airc_config_set(cfg, "debug.aclgraph.enable_output_clone", "1");
    if (!st) {
        airc_compile_options o;
        airc_compile_options_init(&o);
        o.config = cfg;
        o.runtime = rt;
        o.pre_passes = pre;
        st = airc_compile(g, &o, out);
    }
    airc_config_destroy(cfg);
    airc_graph_destroy(g); /* the compiled object keeps its own clone */
    return st;
}

static airc_tensor *copy_of(const airc_tensor *t)
{
    airc_tensor *c = NULL;
    if (airc_tensor_create(g_ctx, airc_tensor_dtype(t), airc_tensor_ndim(t), airc_tensor_shape(t),
                           &c) == AIRC_OK)
        memcpy(airc_tensor_data(c), airc_tensor_data(t), airc_tensor_nbytes(t));
    return c;
}

/* Runs c on fresh copies of k's inputs (some graphs write to theirs) and
 * compares every result with PyTorch's. */
static void run_check(worker *w, const tcase *k, airc_compiled *c, const char *label)
{
    const airc_test_case *io = &k->io;
    airc_tensor *in[AIRC_TEST_MAXIN] = {NULL}, *out[AIRC_TEST_MAXOUT] = {NULL};
    size_t nout = 0;
    for (size_t i = 0; i < io->nin; i++)
        in[i] = copy_of(io->in[i]);
    airc_status st = airc_compiled_run(c, in, io->nin, out, AIRC_TEST_MAXOUT, &nout);
    char what[300];
    snprintf(what, sizeof what, "thread %d: %s (%s)", w->id, io->name, label);
    if (st != AIRC_OK)
        failed(w, "%s: run: %s: %s", what, airc_status_name(st), airc_last_error());
    else if (nout != io->nwant)
        failed(w, "%s: %zu results, want %zu", what, nout, io->nwant);
    for (size_t i = 0; st == AIRC_OK && i < nout && i < io->nwant; i++)
        if (!airc_test_same_values(out[i], io->want[i], what))
            failed(w, "%s: result %zu differs from PyTorch's", what, i);
    w->checks++;
    airc_test_destroy_all(out, nout);
    airc_test_destroy_all(in, io->nin);
}

static void compile_run_check(worker *w, const tcase *k, const char *mode, airc_runtime *rt)
{
    airc_compiled *c = NULL;
    airc_status st = compile_text(k->text, mode, false, rt, NULL, &c);
    if (st != AIRC_OK) {
        failed(w, "thread %d: %s (%s): compile: %s: %s", w->id, k->io.name, mode,
               airc_status_name(st), airc_last_error());
        return;
    }
    for (int r = 0; r < 2; r++) /* reduce-overhead: capture, then replay */
        run_check(w, k, c, mode);
    airc_compiled_destroy(c);
}

/* ---- 1. different graphs compiled concurrently ---------------------------- */

/* Every (case, mode) pair, each thread starting elsewhere in the list, so
 * that different graphs and modes are compiled at the same time. */
static void *compile_all(void *arg)
{
    worker *w = arg;
    size_t n = NCASES * NMODES;
    for (size_t j = 0; j < n; j++) {
        size_t p = (j + (size_t)w->id * n / NTHREADS) % n;
        compile_run_check(w, &g_cases[p / NMODES], modes[p % NMODES], NULL);
    }
    return NULL;
}

static void test_compile_concurrently(void **state)
{
    (void)state;
    worker w[NTHREADS] = {0};
    run_workers(w, NTHREADS, compile_all);
}

/* ---- 2. different compiled objects run concurrently ----------------------- */

typedef struct fleet {
    airc_compiled *c[NCASES * NMODES];
    int rounds;
} fleet;

/* Thread i runs the objects i, i + NTHREADS, ... (its own). */
static void *run_own(void *arg)
{
    worker *w = arg;
    fleet *f = w->arg;
    for (int r = 0; r < f->rounds; r++)
        for (size_t p = (size_t)w->id; p < NCASES * NMODES; p += NTHREADS)
            run_check(w, &g_cases[p / NMODES], f->c[p], modes[p % NMODES]);
    return NULL;
}

static void run_fleet(airc_runtime *rt)
{
    fleet f = {.rounds = 3};
    for (size_t p = 0; p < NCASES * NMODES; p++)
        AIRC_ASSERT_OK(
            compile_text(g_cases[p / NMODES].text, modes[p % NMODES], false, rt, NULL, &f.c[p]));
    worker w[NTHREADS] = {0};
    for (int i = 0; i < NTHREADS; i++)
        w[i].arg = &f;
    run_workers(w, NTHREADS, run_own);
    for (size_t p = 0; p < NCASES * NMODES; p++)
        airc_compiled_destroy(f.c[p]);
}

static void test_run_concurrently(void **state)
{
    (void)state;
    run_fleet(NULL); /* each object its own embedded CPU runtime */
}

static void test_run_concurrently_shared_runtime(void **state)
{
    (void)state;
    airc_runtime *rt;
    AIRC_ASSERT_OK(airc_cpu_runtime_create(g_ctx, NULL, &rt));
    run_fleet(rt);
    airc_runtime_destroy(rt);
}

/* ---- 3. one compiled object, several threads ------------------------------ */

static void *run_shared(void *arg)
{
    worker *w = arg;
    airc_compiled **c = w->arg;
    for (int r = 0; r < 4; r++)
        for (size_t k = 0; k < NCASES; k++)
            for (int m = 0; m < NMODES; m++)
                run_check(w, &g_cases[k], c[k * NMODES + (size_t)m], modes[m]);
    return NULL;
}

static void test_one_compiled_many_threads(void **state)
{
    (void)state;
    airc_compiled *c[NCASES * NMODES];
    /* reduce-overhead results in the arena live until the next run, which
     * may be another thread's: clone them, as docs/replay.md says */
    for (size_t p = 0; p < NCASES * NMODES; p++)
        AIRC_ASSERT_OK(
            compile_text(g_cases[p / NMODES].text, modes[p % NMODES], true, NULL, NULL, &c[p]));
    worker w[NTHREADS] = {0};
    for (int i = 0; i < NTHREADS; i++)
        w[i].arg = c;
    run_workers(w, NTHREADS, run_shared);
    for (size_t p = 0; p < NCASES * NMODES; p++) {
        airc_compiled_stats s = {.struct_size = sizeof s};
        AIRC_ASSERT_OK(airc_compiled_get_stats(c[p], &s));
        assert_int_equal(s.runs, 4 * NTHREADS);
        if (!strcmp(modes[p % NMODES], "reduce-overhead")) {
            assert_int_equal(s.captures, 1); /* one signature: captured once */
            assert_int_equal(s.replays, 4 * NTHREADS);
        }
        airc_compiled_destroy(c[p]);
    }
}

/* ---- 4. registering while others compile ---------------------------------- */

/* thr::scale(Tensor x) -> Tensor: x times the float its kernel's user_data
 * points to. The registering thread keeps replacing the kernel and the meta
 * function with new user_data holding the same factor, so every result is
 * 3x; a replaced user_data freed too early is a use after free (ASan,
 * TSan), one never freed a leak. */
#define FACTOR 3.0f

static atomic_int g_allocated, g_freed;

static float *new_factor(void)
{
    float *f = malloc(sizeof *f);
    if (f) {
        *f = FACTOR;
        atomic_fetch_add(&g_allocated, 1);
    }
    return f;
}

static void free_factor(void *p)
{
    if (p)
        atomic_fetch_add(&g_freed, 1);
    free(p);
}

static airc_status scale_meta(airc_node *n, void *user_data)
{
    if (*(const float *)user_data != FACTOR)
        return airc_set_error(AIRC_E_INTERNAL, "scale_meta: bad user_data");
    airc_dtype dt;
    int32_t nd;
    const int64_t *shape;
    airc_status st = airc_value_meta(airc_node_arg(n, 0), &dt, &nd, &shape, NULL);
    return st ? st : airc_node_set_meta(n, dt, nd, shape, NULL);
}

static airc_status scale_kernel(airc_kernel_ctx *k, void *user_data)
{
    const airc_tview *x = airc_kernel_input(k, 0);
    airc_tview *o = airc_kernel_output(k, 0);
    size_t n = 1;
    for (int32_t d = 0; d < x->ndim; d++)
        n *= (size_t)x->shape[d];
    float f = *(const float *)user_data; /* contiguous: the test's inputs */
    for (size_t i = 0; i < n; i++)
        ((float *)o->data)[i] = ((const float *)x->data)[i] * f;
    return AIRC_OK;
}

static const char *const SCALE_GRAPH =
    "graph():\n"
    "    %x : [#users=1] = placeholder[target=x]\n"
    "    %scale : [#users=1] = call_function[target=torch.ops.thr.scale.default](args = (%x,), "
    "kwargs = {})\n"
    "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%scale,), "
    "kwargs = {})\n"
    "    return (relu,)\n";

/* test_plugin::twice (the plugin's op), lowered by its named pass. */
static const char *const TWICE_GRAPH =
    "graph():\n"
    "    %x : [#users=1] = placeholder[target=x]\n"
    "    %twice : [#users=1] = call_function[target=torch.ops.test_plugin.twice.default](args = "
    "(%x,), kwargs = {})\n"
    "    return (twice,)\n";

typedef struct reg_state {
    atomic_int registered; /* thr::scale has a meta and a kernel */
    atomic_int done;       /* the registering thread has finished */
    atomic_int rounds;     /* of use_new_ops */
    airc_tensor *x;        /* 4x5 f32, some negative */
} reg_state;

/* Registers `schema` with scale_meta (and the scale kernel when given). */
static airc_status register_scale_op(const char *schema, const char *name, bool kernel)
{
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = schema;
    def.meta = scale_meta;
    def.meta_user_data = new_factor();
    def.meta_free = free_factor;
    airc_status st = airc_context_register_op(g_ctx, &def, NULL);
    if (st) {
        free_factor(def.meta_user_data); /* still ours */
        return st;
    }
    float *f = kernel ? new_factor() : NULL;
    st = kernel ? airc_context_set_op_kernel(g_ctx, name, "cpu", scale_kernel, f, free_factor)
                : AIRC_OK;
    if (st)
        free_factor(f);
    return st;
}

/* Replaces thr::scale's kernel and meta while others use them. */
static airc_status replace_scale_callbacks(void)
{
    float *k = new_factor();
    airc_status st =
        airc_context_set_op_kernel(g_ctx, "thr.scale.default", "cpu", scale_kernel, k, free_factor);
    if (st) {
        free_factor(k);
        return st;
    }
    float *m = new_factor();
    st = airc_context_set_op_meta(g_ctx, "thr.scale.default", scale_meta, m, free_factor);
    if (st)
        free_factor(m);
    return st;
}

static void *register_things(void *arg)
{
    worker *w = arg;
    reg_state *s = w->arg;
    airc_status st = register_scale_op("thr::scale(Tensor x) -> Tensor", "thr.scale.default", true);
    atomic_store(&s->registered, 1);
    if (!st && (st = airc_context_load_plugin(g_ctx, PLUGIN)) != AIRC_OK)
        failed(w, "loading %s: %s", PLUGIN, airc_last_error());
    /* 60 new ops, and replacements until the users have had 20 rounds */
    for (int i = 0; !st && (i < 60 || atomic_load(&s->rounds) < 20) && i < 20000; i++) {
        if (i < 60) {
            char schema[64];
            snprintf(schema, sizeof schema, "thr::op%d(Tensor x) -> Tensor", i);
            st = register_scale_op(schema, NULL, false);
        } else {
            nanosleep(&(struct timespec){0, 100000}, NULL);
        }
        if (!st)
            st = replace_scale_callbacks();
    }
    if (st)
        failed(w, "registering: %s", airc_last_error());
    w->checks++;
    atomic_store(&s->done, 1);
    return NULL;
}

/* A graph compiled between the op's registration and its kernel's may
 * fail to run ("no kernel"): `complete` says whether both were there. */
static void check_scaled(worker *w, const reg_state *s, airc_compiled *c, float factor,
                         bool complete, const char *label)
{
    airc_tensor *in[1] = {s->x}, *out[1] = {NULL};
    size_t n = 0;
    airc_status st = airc_compiled_run(c, in, 1, out, 1, &n);
    if (st != AIRC_OK) {
        if (complete)
            failed(w, "%s: run: %s", label, airc_last_error());
        return;
    }
    const float *x = airc_tensor_data(s->x), *y = airc_tensor_data(out[0]);
    for (size_t i = 0; i < airc_tensor_numel(s->x); i++) {
        float want = x[i] * factor;
        if (factor == FACTOR && want < 0)
            want = 0; /* relu */
        if (y[i] != want) {
            failed(w, "%s: element %zu is %g, want %g", label, i, (double)y[i], (double)want);
            break;
        }
    }
    w->checks++;
    airc_tensor_destroy(out[0]);
}

/* Compiles and runs the graphs of the ops being registered: they do not
 * parse before registration (AIRC_E_NOT_FOUND), and run right after. */
static void *use_new_ops(void *arg)
{
    worker *w = arg;
    reg_state *s = w->arg;
    bool twice_done = false;
    for (int round = 0; !atomic_load(&s->done) || round < 3 || !twice_done; round++) {
        for (int m = 0; m < 2; m++) { /* eager, reduce-overhead */
            airc_compiled *c = NULL;
            bool reg = atomic_load(&s->registered);
            airc_status st = compile_text(SCALE_GRAPH, modes[m], false, NULL, NULL, &c);
            if (st == AIRC_OK) {
                check_scaled(w, s, c, FACTOR, reg, "thr::scale");
                check_scaled(w, s, c, FACTOR, reg, "thr::scale replayed");
            } else if (reg || st != AIRC_E_NOT_FOUND) {
                failed(w, "thr::scale (%s): %s: %s", modes[m], airc_status_name(st),
                       airc_last_error());
            }
            airc_compiled_destroy(c);
        }
        airc_pass_manager *pm = NULL;
        airc_compiled *c = NULL;
        airc_status st = airc_pass_manager_create(g_ctx, &pm);
        if (!st)
            st = airc_pass_manager_add_named_pass(pm, "test_plugin.lower_twice");
        if (!st)
            st = compile_text(TWICE_GRAPH, "reduce-overhead", false, NULL, pm, &c);
        if (!st) {
            check_scaled(w, s, c, 2.0f, true, "test_plugin::twice");
            twice_done = true;
        } else if (st != AIRC_E_NOT_FOUND) { /* the plugin's op or pass not yet there */
            failed(w, "test_plugin::twice: %s: %s", airc_status_name(st), airc_last_error());
        }
        airc_compiled_destroy(c);
        airc_pass_manager_destroy(pm);
        atomic_fetch_add(&s->rounds, 1);
        if (round > 100000) {
            failed(w, "the plugin's op and pass never appeared");
            break;
        }
    }
    return NULL;
}

/* Built-in graphs, compiled and run meanwhile. */
static void *use_builtins(void *arg)
{
    worker *w = arg;
    reg_state *s = w->arg;
    for (size_t j = 0; !atomic_load(&s->done) || j < NCASES; j++)
        compile_run_check(w, &g_cases[j % NCASES], modes[j % NMODES], NULL);
    return NULL;
}

static void *register_or_use(void *arg)
{
    worker *w = arg;
    return w->id == 0 ? register_things(arg) : w->id == 1 ? use_new_ops(arg) : use_builtins(arg);
}

static void test_register_while_compiling(void **state)
{
    (void)state;
    /* its own context, to count the frees when it dies */
    airc_context *shared = g_ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &g_ctx));
    reg_state s = {0};
    int64_t shape[2] = {4, 5};
    AIRC_ASSERT_OK(airc_tensor_create(g_ctx, AIRC_DTYPE_F32, 2, shape, &s.x));
    float *x = airc_tensor_data(s.x);
    for (int i = 0; i < 20; i++)
        x[i] = (float)(i - 7) * 0.5f;
    atomic_store(&g_allocated, 0);
    atomic_store(&g_freed, 0);
    worker w[NTHREADS] = {0};
    for (int i = 0; i < NTHREADS; i++)
        w[i].arg = &s;
    /* the builtin cases were read into the other context: tensors may be
     * used with any context */
    run_workers(w, NTHREADS, register_or_use);
    airc_tensor_destroy(s.x);
    airc_context_destroy(g_ctx);
    g_ctx = shared;
    assert_true(atomic_load(&g_allocated) > 100);
    assert_int_equal(atomic_load(&g_freed), atomic_load(&g_allocated));
}

/* ---- set-up ---------------------------------------------------------------- */

static int setup(void **state)
{
    (void)state;
    if (airc_context_create(NULL, &g_ctx) != AIRC_OK)
        return -1;
    for (size_t i = 0; i < NCASES; i++) {
        tcase *k = &g_cases[i];
        k->io.dir = GRAPHS;
        snprintf(k->io.name, sizeof k->io.name, "%s", case_names[i]);
        char path[600];
        snprintf(path, sizeof path, "%s/%s.fx", GRAPHS, case_names[i]);
        k->text = airc_test_read_file(path, NULL);
        if (!k->text || !airc_test_case_load(g_ctx, &k->io) || !k->io.nwant) {
            print_error("%s: cannot load the case\n", path);
            return -1;
        }
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCASES; i++) {
        airc_test_case_free(&g_cases[i].io);
        free(g_cases[i].text);
    }
    airc_context_destroy(g_ctx);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compile_concurrently),
        cmocka_unit_test(test_run_concurrently),
        cmocka_unit_test(test_run_concurrently_shared_runtime),
        cmocka_unit_test(test_one_compiled_many_threads),
        cmocka_unit_test(test_register_while_compiling),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
