/* The CPU kernels' worker pool (backends/cpu/parallel.c): every index of
 * the range is run exactly once whatever the budget, grain and size; small
 * ranges and a budget of one stay on the caller's thread; callers on
 * several threads at once (the pool busy) are all served; and the
 * elementwise engine, softmax and layer_norm give the same bits on two
 * threads as on one, with a kernel's error from any chunk reported. */
#include "testutil.h"

#include "airc/runtime.h"
#include "backends/cpu/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct cover {
    atomic_int *hits;
    atomic_int calls;
    pthread_t caller;
    atomic_int off_caller; /* chunks run on another thread */
    int64_t grain, n;
    atomic_int short_chunks; /* chunks below grain that are not the last */
} cover;

static void mark(void *arg, int64_t b, int64_t e)
{
    cover *c = arg;
    atomic_fetch_add(&c->calls, 1);
    if (!pthread_equal(pthread_self(), c->caller))
        atomic_fetch_add(&c->off_caller, 1);
    if (e - b < c->grain && e != c->n)
        atomic_fetch_add(&c->short_chunks, 1);
    for (int64_t i = b; i < e; i++)
        atomic_fetch_add(&c->hits[i], 1);
}

static void run_cover(int32_t threads, int64_t n, int64_t grain, cover *c)
{
    c->hits = calloc((size_t)(n > 0 ? n : 1), sizeof *c->hits);
    assert_non_null(c->hits);
    atomic_init(&c->calls, 0);
    atomic_init(&c->off_caller, 0);
    atomic_init(&c->short_chunks, 0);
    c->caller = pthread_self();
    c->grain = grain;
    c->n = n;
    airc_cpu_parallel_for(threads, n, grain, mark, c);
    for (int64_t i = 0; i < n; i++)
        assert_int_equal(atomic_load(&c->hits[i]), 1);
    assert_int_equal(atomic_load(&c->short_chunks), 0);
    free(c->hits);
}

static void test_cover(void **state)
{
    (void)state;
    static const int64_t sizes[] = {0, 1, 7, 100, 1000, 4096, 100003};
    static const int64_t grains[] = {0, 1, 3, 64, 1000, 1 << 20};
    static const int32_t budgets[] = {-1, 0, 1, 2, 3, 8, 64};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t g = 0; g < sizeof grains / sizeof *grains; g++)
            for (size_t t = 0; t < sizeof budgets / sizeof *budgets; t++) {
                cover c;
                run_cover(budgets[t], sizes[s], grains[g], &c);
                /* one thread, or less than two grains: one call, here */
                if (budgets[t] <= 1 || (grains[g] > 0 && sizes[s] < 2 * grains[g])) {
                    assert_int_equal(atomic_load(&c.calls), sizes[s] > 0);
                    assert_int_equal(atomic_load(&c.off_caller), 0);
                }
            }
}

/* Many small jobs in a row: workers wake, join, leave and sleep again. */
static void test_repeat(void **state)
{
    (void)state;
    for (int rep = 0; rep < 2000; rep++) {
        cover c;
        run_cover(2 + rep % 3, 64 + rep % 17, 8, &c);
    }
}

static void *caller_thread(void *arg)
{
    (void)arg;
    for (int rep = 0; rep < 300; rep++) {
        cover c;
        run_cover(4, 5000 + rep, 16, &c);
    }
    return NULL;
}

/* Callers on several threads: one holds the pool, the others run alone. */
static void test_concurrent_callers(void **state)
{
    (void)state;
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&t[i], NULL, caller_thread, NULL), 0);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
}

/* ---- kernels: two threads against one, bit for bit ----------------------- */

/* Runs `text` on x with the built-in kernel, num_threads threads; the
 * first result's floats into out (n of them). */
static airc_status run_threads(airc_context *ctx, const char *text, airc_tensor *x, int32_t threads,
                               float *out, size_t n)
{
    airc_graph *g = airc_test_parse(ctx, text);
    airc_cpu_runtime_options o;
    airc_cpu_runtime_options_init(&o);
    o.num_threads = threads;
    airc_runtime *rt;
    AIRC_ASSERT_OK(airc_cpu_runtime_create(ctx, &o, &rt));
    airc_tensor *res[3] = {NULL};
    size_t nres = 0;
    airc_status st = airc_run_eager(g, rt, &x, 1, res, 3, &nres, NULL);
    if (st == AIRC_OK) {
        assert_true(airc_tensor_numel(res[0]) == n);
        memcpy(out, airc_tensor_data(res[0]), n * sizeof *out);
    }
    for (size_t i = 0; i < nres; i++)
        airc_tensor_destroy(res[i]);
    airc_runtime_destroy(rt);
    airc_graph_destroy(g);
    return st;
}

#define ONE_OP(call)                                                                               \
    "graph():\n"                                                                                   \
    "    %x : [#users=1] = placeholder[target=x]\n"                                                \
    "    %y : [#users=1] = call_function[target=torch.ops.aten." call ", kwargs = {})\n"           \
    "    return y\n"

static void test_kernels_same_bits(void **state)
{
    (void)state;
    enum { ROWS = 512, COLS = 768, N = ROWS * COLS };
    int64_t shape[2] = {ROWS, COLS};
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_tensor *x;
    AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_F32, 2, shape, &x));
    float *xd = airc_tensor_data(x);
    uint32_t s = 12345;
    for (int i = 0; i < N; i++) {
        s = s * 1664525u + 1013904223u;
        xd[i] = (float)((int32_t)(s >> 8) - (1 << 23)) / (float)(1 << 21);
    }
    static const char *const graphs[] = {
        ONE_OP("gelu.default](args = (%x,)"),
        ONE_OP("tanh.default](args = (%x,)"),
        ONE_OP("add.Tensor](args = (%x, %x)"),
        ONE_OP("mul.Scalar](args = (%x, 0.5)"),
        ONE_OP("_softmax.default](args = (%x, -1, False)"),
        ONE_OP("_log_softmax.default](args = (%x, 1, False)"),
        ONE_OP("addcmul.default](args = (%x, %x, %x)"),
        ONE_OP("native_layer_norm.default](args = (%x, [768], None, None, 1e-05)"),
        ONE_OP("sort.default](args = (%x,)"),
        ONE_OP("sort.default](args = (%x, -1, True)"),
        "graph():\n"
        "    %x : [#users=2] = placeholder[target=x]\n"
        "    %img : [#users=1] = call_function[target=torch.ops.aten.view.default]"
        "(args = (%x, [1, 2, 384, 512]), kwargs = {})\n"
        "    %grid : [#users=1] = call_function[target=torch.ops.aten.view.default]"
        "(args = (%x, [1, 384, 512, 2]), kwargs = {})\n"
        "    %y : [#users=1] = call_function[target=torch.ops.aten.grid_sampler_2d.default]"
        "(args = (%img, %grid, 0, 0, False), kwargs = {})\n"
        "    return y\n",
    };
    float *one = malloc(N * sizeof *one), *two = malloc(N * sizeof *two);
    assert_non_null(one);
    assert_non_null(two);
    for (size_t i = 0; i < sizeof graphs / sizeof *graphs; i++) {
        /* two threads first: a result buffer that reuses the memory of the
         * one before holds another op's values, not this op's */
        AIRC_ASSERT_OK(run_threads(ctx, graphs[i], x, 2, two, N));
        AIRC_ASSERT_OK(run_threads(ctx, graphs[i], x, 1, one, N));
        assert_memory_equal(one, two, N * sizeof *one);
    }
    /* an input outside [0, 1] found by whichever chunk meets it */
    for (int i = 0; i < N; i++)
        xd[i] = i == N - 5 ? 2.0f : 0.5f;
    for (int32_t threads = 1; threads <= 2; threads++) {
        airc_status st =
            run_threads(ctx, ONE_OP("binary_cross_entropy.default](args = (%x, %x, None, 0)"), x,
                        threads, one, N);
        assert_int_equal(st, AIRC_E_RUNTIME);
        assert_non_null(
            strstr(airc_last_error(), "all elements of input should be between 0 and 1"));
    }
    free(one);
    free(two);
    airc_tensor_destroy(x);
    airc_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cover),
        cmocka_unit_test(test_repeat),
        cmocka_unit_test(test_concurrent_callers),
        cmocka_unit_test(test_kernels_same_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
