/* The CUDA runtime (backends/cuda): without a device (or in a build
 * without AIRC_CUDA) airc_cuda_runtime_create fails with a clear message
 * and every other test here prints "SKIP: no CUDA device (...)" and
 * passes. With a device: the vtable itself (memory, copies, events, sticky
 * errors, native capture), and graphs run eagerly and in reduce-overhead
 * mode (native CUDA-graph capture) on the CUDA runtime, compared with the
 * CPU runtime: the seed multistream graph, elementwise ops over strided
 * and broadcast operands, mm/bmm through cuBLAS. The config option
 * `device` is checked with and without a device. */
#include "testutil.h"

#include "airc/compile.h"
#include "airc/runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED_FX AIRC_SOURCE_DIR "/examples/seed001/multistream.after.fx"
#define SEED_X AIRC_SOURCE_DIR "/examples/seed001/x.npy"
#define MAXOUT 8

/* A CUDA runtime on device 0, or NULL after printing the skip line. */
static airc_runtime *cuda_or_skip(airc_context *ctx)
{
    airc_runtime *rt = NULL;
    airc_status st = airc_cuda_runtime_create(ctx, 0, &rt);
    if (st == AIRC_E_UNSUPPORTED || st == AIRC_E_RUNTIME) {
        printf("SKIP: no CUDA device (%s)\n", airc_last_error());
        return NULL;
    }
    AIRC_ASSERT_OK(st);
    return rt;
}

static airc_tensor *random_tensor(airc_context *ctx, int32_t ndim, const int64_t *shape,
                                  unsigned seed)
{
    airc_tensor *t;
    AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_F32, ndim, shape, &t));
    float *p = airc_tensor_data(t);
    srand(seed);
    for (size_t i = 0; i < airc_tensor_numel(t); i++)
        p[i] = (float)rand() / (float)RAND_MAX * 4.0f - 2.0f;
    return t;
}

static void assert_close(const airc_tensor *got, const airc_tensor *want, const char *what)
{
    assert_int_equal(airc_tensor_ndim(got), airc_tensor_ndim(want));
    assert_int_equal(airc_tensor_numel(got), airc_tensor_numel(want));
    const float *g = airc_tensor_data(got), *w = airc_tensor_data(want);
    for (size_t i = 0; i < airc_tensor_numel(want); i++) {
        float tol = 1e-4f + 1e-4f * fabsf(w[i]);
        if (!(fabsf(g[i] - w[i]) <= tol) && !(isnan(g[i]) && isnan(w[i]))) {
            print_error("%s: element %zu is %g, want %g\n", what, i, (double)g[i], (double)w[i]);
            fail();
        }
    }
}

/* Runs text on the CPU runtime (eager: the reference) and on CUDA, eager
 * and reduce-overhead (replayed `replays` times: the first replay
 * captures a CUDA graph, later ones launch it), comparing every result. */
static void compare_on_cuda(airc_context *ctx, airc_runtime *cuda, const char *text,
                            airc_tensor **in, size_t nin, int replays)
{
    airc_graph *g = airc_test_parse(ctx, text);
    airc_tensor *want[MAXOUT], *got[MAXOUT];
    size_t nwant = 0, ngot = 0;
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, in, nin, want, MAXOUT, &nwant, NULL));

    AIRC_ASSERT_OK(airc_run_eager(g, cuda, in, nin, got, MAXOUT, &ngot, NULL));
    assert_int_equal(ngot, nwant);
    for (size_t i = 0; i < ngot; i++) {
        assert_close(got[i], want[i], "eager on cuda");
        airc_tensor_destroy(got[i]);
    }

    airc_compile_options o;
    airc_compile_options_init(&o);
    o.runtime = cuda;
    airc_compiled *c = NULL;
    AIRC_ASSERT_OK(airc_compile(g, &o, &c));
    for (int r = 0; r < replays; r++) {
        AIRC_ASSERT_OK(airc_compiled_run(c, in, nin, got, MAXOUT, &ngot));
        assert_int_equal(ngot, nwant);
        for (size_t i = 0; i < ngot; i++) {
            assert_close(got[i], want[i], "reduce-overhead on cuda");
            airc_tensor_destroy(got[i]);
        }
    }
    airc_compiled_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    AIRC_ASSERT_OK(airc_compiled_get_stats(c, &s));
    assert_int_equal(s.captures, 1);
    airc_compiled_destroy(c);
    for (size_t i = 0; i < nwant; i++)
        airc_tensor_destroy(want[i]);
    airc_graph_destroy(g);
}

/* ---- without a device ------------------------------------------------------------------ */

static void test_create_reports_why(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_runtime *rt = NULL;
    airc_status st = airc_cuda_runtime_create(ctx, 0, &rt);
    if (st == AIRC_OK) {
        assert_string_equal(airc_runtime_device_type(rt), "cuda");
        airc_runtime_destroy(rt);
    } else {
        /* built without CUDA, or no device/driver: a message saying which */
        assert_true(st == AIRC_E_UNSUPPORTED || st == AIRC_E_RUNTIME);
        assert_non_null(strstr(airc_last_error(), "airc_cuda_runtime_create"));
        assert_null(rt);
        printf("SKIP: no CUDA device (%s)\n", airc_last_error());
    }
    AIRC_EXPECT(airc_cuda_runtime_create(ctx, 0, NULL),
                st == AIRC_E_UNSUPPORTED ? AIRC_E_UNSUPPORTED : AIRC_E_INVALID_ARGUMENT, NULL);
    airc_context_destroy(ctx);
}

/* The config option `device` picks the runtime airc_compile makes when it
 * is given none: cuda compiles onto GPU 0 (and then runs the seed graph as
 * the CPU does) or says why it cannot; npu needs a runtime passed in; a
 * runtime passed in must be of the configured device. */
static void test_config_device(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    char *text = airc_test_read_file(SEED_FX, NULL);
    assert_non_null(text);
    airc_graph *g = airc_test_parse(ctx, text);
    airc_tensor *x, *want[MAXOUT], *got[MAXOUT];
    size_t nwant = 0, ngot = 0;
    AIRC_ASSERT_OK(airc_npy_read(ctx, SEED_X, &x));
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, &x, 1, want, MAXOUT, &nwant, NULL));
    airc_config *cfg;
    AIRC_ASSERT_OK(airc_config_create(ctx, &cfg));
    airc_compile_options o;
    airc_compile_options_init(&o);
    o.config = cfg;
    airc_compiled *c = NULL;

    AIRC_ASSERT_OK(airc_config_set(cfg, "device", "cuda"));
    airc_runtime *probe = NULL;
    airc_status have_gpu = airc_cuda_runtime_create(ctx, 0, &probe);
    airc_runtime_destroy(probe);
    airc_status st = airc_compile(g, &o, &c);
    if (have_gpu == AIRC_OK) {
        AIRC_ASSERT_OK(st);
        for (int r = 0; r < 2; r++) {
            AIRC_ASSERT_OK(airc_compiled_run(c, &x, 1, got, MAXOUT, &ngot));
            assert_int_equal(ngot, nwant);
            for (size_t i = 0; i < ngot; i++) {
                assert_close(got[i], want[i], "config device cuda");
                airc_tensor_destroy(got[i]);
            }
        }
        airc_compiled_destroy(c);
    } else {
        AIRC_EXPECT(st, have_gpu, "airc_compile: device 'cuda': airc_cuda_runtime_create");
        assert_null(c);
    }

    AIRC_ASSERT_OK(airc_config_set(cfg, "device", "npu"));
    AIRC_EXPECT(airc_compile(g, &o, &c), AIRC_E_UNSUPPORTED,
                "device 'npu' needs an NPU runtime in opts.runtime");
    AIRC_ASSERT_OK(airc_cpu_runtime_create(ctx, NULL, &o.runtime));
    AIRC_EXPECT(airc_compile(g, &o, &c), AIRC_E_INVALID_ARGUMENT,
                "the config's device is 'npu' but opts.runtime runs on 'cpu'");
    AIRC_ASSERT_OK(airc_config_set(cfg, "device", "cpu"));
    AIRC_ASSERT_OK(airc_compile(g, &o, &c));
    airc_compiled_destroy(c);

    airc_runtime_destroy(o.runtime);
    airc_config_destroy(cfg);
    for (size_t i = 0; i < nwant; i++)
        airc_tensor_destroy(want[i]);
    airc_tensor_destroy(x);
    airc_graph_destroy(g);
    free(text);
    airc_context_destroy(ctx);
}

/* ---- the vtable ------------------------------------------------------------------------ */

static airc_status failing_fn(void *arg, airc_stream_t stream)
{
    (void)arg;
    (void)stream;
    return airc_set_error(AIRC_E_RUNTIME, "failing_fn: on purpose");
}

static void test_vtable(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_runtime *rt = cuda_or_skip(ctx);
    if (!rt) {
        airc_context_destroy(ctx);
        return;
    }
    const airc_runtime_vtable *vt = airc_runtime_vtable_of(rt);
    void *rc = airc_runtime_ctx(rt);
    assert_non_null(vt->capture_begin);
    assert_null(vt->stream_threads);

    float host[256], back[256];
    for (int i = 0; i < 256; i++)
        host[i] = (float)i;
    void *a, *b;
    AIRC_ASSERT_OK(vt->alloc(rc, sizeof host, 64, &a));
    AIRC_ASSERT_OK(vt->alloc(rc, sizeof host, 0, &b));
    AIRC_EXPECT(vt->alloc(rc, 16, 3, &b), AIRC_E_INVALID_ARGUMENT, "power of two");
    airc_stream_t s1, s2;
    AIRC_ASSERT_OK(vt->stream_create(rc, &s1));
    AIRC_ASSERT_OK(vt->stream_create(rc, &s2));
    airc_event_t e;
    AIRC_ASSERT_OK(vt->event_create(rc, &e));
    /* host -> a on s1, a -> b on s2 after s1's event, b -> host */
    AIRC_ASSERT_OK(vt->copy(rc, a, host, sizeof host, AIRC_COPY_HOST_TO_DEVICE, s1));
    AIRC_ASSERT_OK(vt->event_record(rc, e, s1));
    AIRC_ASSERT_OK(vt->stream_wait_event(rc, s2, e));
    AIRC_ASSERT_OK(vt->copy(rc, b, a, sizeof host, AIRC_COPY_DEVICE_TO_DEVICE, s2));
    AIRC_ASSERT_OK(vt->synchronize(rc, s2));
    AIRC_ASSERT_OK(vt->copy(rc, back, b, sizeof back, AIRC_COPY_DEVICE_TO_HOST, NULL));
    assert_memory_equal(back, host, sizeof host);

    /* a failing launch is sticky until synchronize reports it */
    AIRC_ASSERT_OK(vt->launch(rc, s1, failing_fn, NULL));
    AIRC_EXPECT(vt->synchronize(rc, s1), AIRC_E_RUNTIME, "on purpose");
    AIRC_ASSERT_OK(vt->synchronize(rc, s1));
    AIRC_ASSERT_OK(vt->launch(rc, s2, failing_fn, NULL));
    AIRC_EXPECT(vt->synchronize(rc, NULL), AIRC_E_RUNTIME, "on purpose");
    AIRC_ASSERT_OK(vt->synchronize(rc, NULL));

    /* native capture of a copy, replayed */
    memset(back, 0, sizeof back);
    AIRC_ASSERT_OK(vt->copy(rc, b, back, sizeof back, AIRC_COPY_HOST_TO_DEVICE, NULL));
    airc_native_graph_t graph = NULL;
    AIRC_ASSERT_OK(vt->capture_begin(rc, s1));
    AIRC_ASSERT_OK(vt->copy(rc, b, a, sizeof host, AIRC_COPY_DEVICE_TO_DEVICE, s1));
    AIRC_ASSERT_OK(vt->capture_end(rc, s1, &graph));
    assert_non_null(graph);
    AIRC_ASSERT_OK(vt->graph_replay(rc, graph, s1));
    AIRC_ASSERT_OK(vt->synchronize(rc, s1));
    AIRC_ASSERT_OK(vt->copy(rc, back, b, sizeof back, AIRC_COPY_DEVICE_TO_HOST, NULL));
    assert_memory_equal(back, host, sizeof host);
    vt->graph_destroy(rc, graph);

    vt->event_destroy(rc, e);
    vt->stream_destroy(rc, s1);
    vt->stream_destroy(rc, s2);
    vt->free(rc, a);
    vt->free(rc, b);
    airc_runtime_destroy(rt);
    airc_context_destroy(ctx);
}

/* ---- graphs ----------------------------------------------------------------------------- */

static void test_seed_multistream(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_runtime *rt = cuda_or_skip(ctx);
    if (!rt) {
        airc_context_destroy(ctx);
        return;
    }
    size_t len;
    char *text = airc_test_read_file(SEED_FX, &len);
    assert_non_null(text);
    airc_tensor *x;
    AIRC_ASSERT_OK(airc_npy_read(ctx, SEED_X, &x));
    compare_on_cuda(ctx, rt, text, &x, 1, 3);
    airc_tensor_destroy(x);
    free(text);
    airc_runtime_destroy(rt);
    airc_context_destroy(ctx);
}

/* One call_function line of FX text. */
#define NODE(name, users, target, args)                                                            \
    "    %" name " : [#users=" users "] = call_function[target=torch.ops.aten." target             \
    "](args = " args ", kwargs = {})\n"

/* Every unary op; binary ops with alpha, numbers and broadcasting; strided
 * operands (a transposed view, a slice). x, y: (4, 2) and (2, 4); b: (2). */
static const char *const EW =
    "graph():\n"
    "    %x : [#users=3] = placeholder[target=x]\n"
    "    %y : [#users=2] = placeholder[target=y]\n"
    "    %b : [#users=1] = placeholder[target=b]\n" NODE("relu", "1", "relu.default", "(%x,)") NODE(
        "abs_1", "1", "abs.default", "(%relu,)") NODE("neg", "1", "neg.default", "(%abs_1,)")
        NODE("exp", "1", "exp.default", "(%neg,)") NODE("tanh", "1", "tanh.default", "(%x,)") NODE(
            "sigmoid", "1", "sigmoid.default", "(%tanh,)") NODE("t", "1", "t.default", "(%y,)")
            NODE("add", "1", "add.Tensor",
                 "(%exp, %t)") "    %add_1 : [#users=1] = "
                               "call_function[target=torch.ops.aten.add.Tensor](args = (%add, "
                               "%sigmoid), kwargs = {alpha: 2.5})\n" NODE("sub", "1", "sub.Tensor",
                                                                          "(%add_1, 1.5)")
                                   NODE("mul", "1", "mul.Tensor", "(%sub, %b)")
                                       NODE("div", "1", "div.Tensor", "(%mul, %x)")
                                           NODE("slice_1", "1", "slice.Tensor", "(%y, 1, 1, 3)")
                                               NODE("mul_1", "1", "mul.Scalar", "(%slice_1, 3)")
                                                   NODE("div_1", "1", "div.Scalar",
                                                        "(%mul_1, 4)") "    return (div, div_1)\n";

/* mm with a transposed operand, bmm, and a reshape of a permuted view
 * (a strided copy). a: (3, 5), w: (4, 5), p: (2, 3, 5), q: (2, 5, 4). */
static const char *const LINALG =
    "graph():\n"
    "    %a : [#users=1] = placeholder[target=a]\n"
    "    %w : [#users=1] = placeholder[target=w]\n"
    "    %p : [#users=2] = placeholder[target=p]\n"
    "    %q : [#users=1] = placeholder[target=q]\n" NODE("t", "1", "t.default", "(%w,)")
        NODE("mm", "1", "mm.default", "(%a, %t)") NODE("bmm", "1", "bmm.default", "(%p, %q)")
            NODE("permute", "1", "permute.default", "(%p, [2, 0, 1])")
                NODE("reshape", "1", "reshape.default", "(%permute, [5, 6])")
                    NODE("relu", "1", "relu.default", "(%bmm,)") "    return (mm, relu, reshape)\n";

/* mm of a slice with step 2: neither contiguous nor transposed. */
static const char *const STRIDED_MM =
    "graph():\n"
    "    %a : [#users=1] = placeholder[target=a]\n" NODE("slice_1", "1", "slice.Tensor",
                                                         "(%a, 1, 0, 9223372036854775807, 2)")
        NODE("mm", "1", "mm.default", "(%slice_1, %slice_1)") "    return (mm,)\n";

/* The graphs above are valid and run on the CPU runtime (checked on
 * every machine, so that a GPU session only meets CUDA problems). */
static void test_graphs_run_on_cpu(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    int64_t sx[] = {4, 2}, sy[] = {2, 4}, sb[] = {2};
    int64_t sa[] = {3, 5}, sw[] = {4, 5}, sp[] = {2, 3, 5}, sq[] = {2, 5, 4}, ss[] = {4, 8};
    airc_tensor *ew[3] = {random_tensor(ctx, 2, sx, 1), random_tensor(ctx, 2, sy, 2),
                          random_tensor(ctx, 1, sb, 3)};
    airc_tensor *la[4] = {random_tensor(ctx, 2, sa, 4), random_tensor(ctx, 2, sw, 5),
                          random_tensor(ctx, 3, sp, 6), random_tensor(ctx, 3, sq, 7)};
    airc_tensor *st = random_tensor(ctx, 2, ss, 8);
    struct {
        const char *text;
        airc_tensor **in;
        size_t nin, nout;
    } cases[] = {{EW, ew, 3, 2}, {LINALG, la, 4, 3}, {STRIDED_MM, &st, 1, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        airc_graph *g = airc_test_parse(ctx, cases[i].text);
        airc_tensor *out[MAXOUT];
        size_t nout = 0;
        AIRC_ASSERT_OK(
            airc_run_eager(g, NULL, cases[i].in, cases[i].nin, out, MAXOUT, &nout, NULL));
        assert_int_equal(nout, cases[i].nout);
        for (size_t j = 0; j < nout; j++)
            airc_tensor_destroy(out[j]);
        airc_graph_destroy(g);
    }
    for (int i = 0; i < 3; i++)
        airc_tensor_destroy(ew[i]);
    for (int i = 0; i < 4; i++)
        airc_tensor_destroy(la[i]);
    airc_tensor_destroy(st);
    airc_context_destroy(ctx);
}

static void test_elementwise(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_runtime *rt = cuda_or_skip(ctx);
    if (!rt) {
        airc_context_destroy(ctx);
        return;
    }
    int64_t sx[] = {4, 2}, sy[] = {2, 4}, sb[] = {2};
    airc_tensor *in[3] = {random_tensor(ctx, 2, sx, 1), random_tensor(ctx, 2, sy, 2),
                          random_tensor(ctx, 1, sb, 3)};
    compare_on_cuda(ctx, rt, EW, in, 3, 3);
    for (int i = 0; i < 3; i++)
        airc_tensor_destroy(in[i]);
    airc_runtime_destroy(rt);
    airc_context_destroy(ctx);
}

static void test_linalg(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_runtime *rt = cuda_or_skip(ctx);
    if (!rt) {
        airc_context_destroy(ctx);
        return;
    }
    int64_t sa[] = {3, 5}, sw[] = {4, 5}, sp[] = {2, 3, 5}, sq[] = {2, 5, 4};
    airc_tensor *in[4] = {random_tensor(ctx, 2, sa, 4), random_tensor(ctx, 2, sw, 5),
                          random_tensor(ctx, 3, sp, 6), random_tensor(ctx, 3, sq, 7)};
    compare_on_cuda(ctx, rt, LINALG, in, 4, 3);
    for (int i = 0; i < 4; i++)
        airc_tensor_destroy(in[i]);

    /* an operand cuBLAS cannot take is refused with a message, not computed wrongly */
    int64_t ss[] = {4, 8};
    airc_tensor *a = random_tensor(ctx, 2, ss, 8), *out[MAXOUT];
    size_t nout = 0;
    airc_graph *g = airc_test_parse(ctx, STRIDED_MM);
    AIRC_EXPECT(airc_run_eager(g, rt, &a, 1, out, MAXOUT, &nout, NULL), AIRC_E_UNSUPPORTED,
                "cuBLAS needs a contiguous or transposed-contiguous matrix");
    airc_graph_destroy(g);
    airc_tensor_destroy(a);
    airc_runtime_destroy(rt);
    airc_context_destroy(ctx);
}

/* Two runtimes in one context register the kernels once; a kernel the
 * application registered for "cuda" first is kept. */
static airc_status my_neg(airc_kernel_ctx *k, void *ud)
{
    (void)k;
    (void)ud;
    return airc_set_error(AIRC_E_UNSUPPORTED, "my_neg: the application's cuda kernel ran");
}

static void test_registration_keeps_overrides(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    AIRC_ASSERT_OK(airc_context_set_op_kernel(ctx, "aten.neg.default", "cuda", my_neg, NULL, NULL));
    airc_runtime *rt = cuda_or_skip(ctx);
    if (!rt) {
        airc_context_destroy(ctx);
        return;
    }
    airc_runtime *rt2 = NULL;
    AIRC_ASSERT_OK(airc_cuda_runtime_create(ctx, 0, &rt2));
    int64_t s[] = {4, 2};
    airc_tensor *x = random_tensor(ctx, 2, s, 9);
    compare_on_cuda(ctx, rt2,
                    "graph():\n    %x : [#users=1] = placeholder[target=x]\n" NODE(
                        "relu", "1", "relu.default", "(%x,)") "    return (relu,)\n",
                    &x, 1, 2);
    airc_tensor *out[MAXOUT];
    size_t nout = 0;
    airc_graph *g =
        airc_test_parse(ctx, "graph():\n    %x : [#users=1] = placeholder[target=x]\n" NODE(
                                 "neg", "1", "neg.default", "(%x,)") "    return (neg,)\n");
    AIRC_EXPECT(airc_run_eager(g, rt, &x, 1, out, MAXOUT, &nout, NULL), AIRC_E_UNSUPPORTED,
                "the application's cuda kernel ran");
    airc_graph_destroy(g);
    airc_tensor_destroy(x);
    airc_runtime_destroy(rt2);
    airc_runtime_destroy(rt);
    airc_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_reports_why),
        cmocka_unit_test(test_config_device),
        cmocka_unit_test(test_vtable),
        cmocka_unit_test(test_graphs_run_on_cpu),
        cmocka_unit_test(test_seed_multistream),
        cmocka_unit_test(test_elementwise),
        cmocka_unit_test(test_linalg),
        cmocka_unit_test(test_registration_keeps_overrides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
