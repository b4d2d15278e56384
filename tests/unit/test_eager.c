/* The eager executor (airc_run_eager), with kernels of the test's own
 * (registered per device type through the public API) so that the
 * executor's contract is checked independently of airc's built-in kernels:
 * values, views, in-place ops, tuple results and getitem, Tensor[] lists,
 * constants, nested graphs, air ops, liveness, errors, a device runtime
 * that is not host memory, and allocation failure everywhere. */
#include "testutil.h"

#include "airc/runtime.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- test kernels (f32, any strides, right-aligned broadcasting) ------- */

enum { K_ADD, K_MUL, K_RELU, K_CLONE, K_VIEW, K_PAIR, K_SUMLIST, K_FAIL, K_COUNT };

static int g_count_calls;

static size_t numel(const airc_tview *t)
{
    size_t n = 1;
    for (int32_t d = 0; d < t->ndim; d++)
        n *= (size_t)t->shape[d];
    return n;
}

static void unravel(size_t i, const airc_tview *t, int64_t *idx)
{
    for (int32_t d = t->ndim - 1; d >= 0; d--) {
        idx[d] = (int64_t)(i % (size_t)t->shape[d]);
        i /= (size_t)t->shape[d];
    }
}

/* Element of t at out's index idx (t broadcast to out's shape). */
static float *at(const airc_tview *t, const airc_tview *out, const int64_t *idx)
{
    int64_t off = 0;
    for (int32_t d = 0; d < t->ndim; d++) {
        int64_t od = idx[out->ndim - t->ndim + d];
        off += (t->shape[d] == 1 ? 0 : od) * t->strides[d];
    }
    return (float *)t->data + off;
}

static double arg_number(airc_kernel_ctx *k, size_t i, double dflt)
{
    double v;
    return airc_value_get_float(airc_kernel_arg(k, i), &v) == AIRC_OK ? v : dflt;
}

static airc_status test_kernel(airc_kernel_ctx *k, void *user_data)
{
    int kind = (int)(intptr_t)user_data;
    airc_tview *out = airc_kernel_output(k, 0);
    const airc_tview *a = airc_kernel_input(k, 0);
    int64_t idx[AIRC_MAX_DIMS];
    switch (kind) {
    case K_VIEW: /* aten.t: same storage, the strides come from meta */
        out->data = a->data;
        return AIRC_OK;
    case K_FAIL:
        return airc_set_error(AIRC_E_RUNTIME, "boom");
    case K_COUNT:
        g_count_calls++;
        kind = K_CLONE;
        break;
    default:
        break;
    }
    if (kind == K_SUMLIST) {
        size_t len = airc_kernel_input_list_length(k, 0);
        for (size_t i = 0; i < numel(out); i++) {
            unravel(i, out, idx);
            float s = 0;
            for (size_t j = 0; j < len; j++)
                s += *at(airc_kernel_input_list_item(k, 0, j), out, idx);
            *at(out, out, idx) = s;
        }
        return AIRC_OK;
    }
    if (kind == K_PAIR) {
        airc_tview *out1 = airc_kernel_output(k, 1);
        for (size_t i = 0; i < numel(out); i++) {
            unravel(i, out, idx);
            *at(out, out, idx) = *at(a, out, idx) + 1;
            *at(out1, out1, idx) = *at(a, out, idx) * 2;
        }
        return AIRC_OK;
    }
    const airc_tview *b = airc_kernel_input(k, 1);
    double scalar = b ? 0 : arg_number(k, 1, 0);
    double alpha = kind == K_ADD ? arg_number(k, 2, 1) : 1;
    for (size_t i = 0; i < numel(out); i++) {
        unravel(i, out, idx);
        float x = *at(a, out, idx);
        float y = b ? *at(b, out, idx) : (float)scalar;
        float r = kind == K_ADD ? x + (float)alpha * y
                  : kind == K_MUL ? x * y
                  : kind == K_RELU ? (x > 0 ? x : 0)
                                   : x;
        *at(out, out, idx) = r;
    }
    return AIRC_OK;
}

static void set_kernel(airc_context *ctx, const char *op, const char *dev, int kind)
{
    AIRC_ASSERT_OK(airc_context_set_op_kernel(ctx, op, dev, test_kernel,
                                              (void *)(intptr_t)kind, NULL));
}

/* ---- custom ops: meta functions --------------------------------------- */

static airc_status meta_like_arg0(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_dtype dt;
    int32_t nd;
    const int64_t *shape;
    airc_status st = airc_value_meta(airc_node_arg(n, 0), &dt, &nd, &shape, NULL);
    if (st != AIRC_OK)
        return st;
    return airc_node_set_meta(n, dt, nd, shape, NULL);
}

static airc_status meta_pair(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_dtype dt;
    int32_t nd;
    const int64_t *shape;
    airc_status st = airc_value_meta(airc_node_arg(n, 0), &dt, &nd, &shape, NULL);
    if (st == AIRC_OK)
        st = airc_node_set_meta_tuple(n, 2);
    for (size_t i = 0; st == AIRC_OK && i < 2; i++)
        st = airc_node_set_output_meta(n, i, dt, nd, shape, NULL);
    return st;
}

static airc_status meta_list0(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_dtype dt;
    int32_t nd;
    const int64_t *shape;
    airc_status st = airc_value_meta(airc_value_item(airc_node_arg(n, 0), 0), &dt, &nd, &shape,
                                     NULL);
    if (st != AIRC_OK)
        return st;
    return airc_node_set_meta(n, dt, nd, shape, NULL);
}

static void register_op(airc_context *ctx, const char *schema, airc_meta_fn meta)
{
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = schema;
    def.meta = meta;
    AIRC_ASSERT_OK(airc_context_register_op(ctx, &def, NULL));
}

/* Registers the test kernels for device `dev` and the custom ops. */
static void setup_ops(airc_context *ctx, const char *dev)
{
    set_kernel(ctx, "aten.add.Tensor", dev, K_ADD);
    set_kernel(ctx, "aten.add_.Tensor", dev, K_ADD);
    set_kernel(ctx, "aten.mul.Tensor", dev, K_MUL);
    set_kernel(ctx, "aten.relu.default", dev, K_RELU);
    set_kernel(ctx, "aten.relu_.default", dev, K_RELU);
    set_kernel(ctx, "aten.clone.default", dev, K_CLONE);
    set_kernel(ctx, "aten.t.default", dev, K_VIEW);
    register_op(ctx, "test::pair(Tensor x) -> (Tensor, Tensor)", meta_pair);
    register_op(ctx, "test::sumlist(Tensor[] xs) -> Tensor", meta_list0);
    register_op(ctx, "test::nokernel(Tensor x) -> Tensor", meta_like_arg0);
    register_op(ctx, "test::fail(Tensor x) -> Tensor", meta_like_arg0);
    register_op(ctx, "test::count(Tensor x) -> Tensor", meta_like_arg0);
    set_kernel(ctx, "test.pair.default", dev, K_PAIR);
    set_kernel(ctx, "test.sumlist.default", dev, K_SUMLIST);
    set_kernel(ctx, "test.fail.default", dev, K_FAIL);
    set_kernel(ctx, "test.count.default", dev, K_COUNT);
}

/* ---- helpers ------------------------------------------------------------ */

static airc_tensor *tensor2(airc_context *ctx, int64_t r, int64_t c, const float *v)
{
    int64_t shape[2] = {r, c};
    airc_tensor *t;
    AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_F32, 2, shape, &t));
    memcpy(airc_tensor_data(t), v, sizeof(float) * (size_t)(r * c));
    return t;
}

static void expect_values(const airc_tensor *t, int64_t r, int64_t c, const float *want)
{
    assert_int_equal(airc_tensor_dtype(t), AIRC_DTYPE_F32);
    assert_int_equal(airc_tensor_ndim(t), 2);
    assert_int_equal(airc_tensor_shape(t)[0], r);
    assert_int_equal(airc_tensor_shape(t)[1], c);
    const float *d = airc_tensor_data(t);
    for (int64_t i = 0; i < r * c; i++) {
        if (fabsf(d[i] - want[i]) > 1e-6f)
            print_error("element %lld: %g, want %g\n", (long long)i, d[i], want[i]);
        assert_true(fabsf(d[i] - want[i]) <= 1e-6f);
    }
}

static void destroy_all(airc_tensor **t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        airc_tensor_destroy(t[i]);
}

static const float X[6] = {1, -2, 3, -4, 5, -6};
static const float Y[6] = {0.5f, 0.25f, -3, 1, -1, 2};

/* add(alpha) -> relu -> t (a view) -> mul by a wrapped number; outputs a
 * computed tensor, a view and a placeholder. */
static const char *const BASIC =
    "graph():\n"
    "    %x : [#users=2] = placeholder[target=x]\n"
    "    %y : [#users=1] = placeholder[target=y]\n"
    "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x, %y), "
    "kwargs = {alpha: 2})\n"
    "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = "
    "(%add,), kwargs = {})\n"
    "    %t : [#users=2] = call_function[target=torch.ops.aten.t.default](args = (%relu,), "
    "kwargs = {})\n"
    "    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%t, 3), "
    "kwargs = {})\n"
    "    return (mul, t, x)\n";

static void check_basic(airc_tensor **out, size_t n)
{
    assert_int_equal(n, 3);
    float relu[6], t[6], mul[6];
    for (int i = 0; i < 6; i++) {
        float v = X[i] + 2 * Y[i];
        relu[i] = v > 0 ? v : 0;
    }
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 2; c++) {
            t[r * 2 + c] = relu[c * 3 + r];
            mul[r * 2 + c] = 3 * t[r * 2 + c];
        }
    expect_values(out[0], 3, 2, mul);
    expect_values(out[1], 3, 2, t);
    expect_values(out[2], 2, 3, X);
}

/* ---- tests ---------------------------------------------------------------- */

static void test_basic_cpu(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    setup_ops(ctx, "cpu");
    airc_graph *g = airc_test_parse(ctx, BASIC);
    char *before = airc_test_print(g, AIRC_PRINT_TYPES);
    airc_tensor *in[2] = {tensor2(ctx, 2, 3, X), tensor2(ctx, 2, 3, Y)};
    airc_tensor *out[4] = {NULL};
    size_t n = 0;
    airc_run_stats stats = {sizeof stats, 0, 0};
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, in, 2, out, 4, &n, &stats));
    check_basic(out, n);
    assert_int_equal(stats.launches, 4);
    size_t nres;
    AIRC_ASSERT_OK(airc_graph_num_results(g, &nres));
    assert_int_equal(nres, 3);
    /* the caller's graph is untouched (no meta was added) */
    char *after = airc_test_print(g, AIRC_PRINT_TYPES);
    assert_string_equal(before, after);
    free(before);
    free(after);
    destroy_all(out, n);

    /* an explicit runtime, run twice */
    airc_runtime *rt;
    AIRC_ASSERT_OK(airc_cpu_runtime_create(ctx, NULL, &rt));
    for (int rep = 0; rep < 2; rep++) {
        AIRC_ASSERT_OK(airc_run_eager(g, rt, in, 2, out, 3, &n, NULL));
        check_basic(out, n);
        destroy_all(out, n);
    }
    airc_runtime_destroy(rt);
    destroy_all(in, 2);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* In-place ops: on a clone (the result aliases it) and on a placeholder
 * (the caller's tensor changes, as in PyTorch). */
static void test_inplace(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    setup_ops(ctx, "cpu");
    airc_graph *g = airc_test_parse(
        ctx, "graph():\n"
             "    %x : [#users=2] = placeholder[target=x]\n"
             "    %clone : [#users=2] = call_function[target=torch.ops.aten.clone.default](args = "
             "(%x,), kwargs = {})\n"
             "    %add_ : [#users=1] = call_function[target=torch.ops.aten.add_.Tensor](args = "
             "(%clone, 1), kwargs = {})\n"
             "    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = "
             "(%clone, %add_), kwargs = {})\n"
             "    %relu_ : [#users=0] = call_function[target=torch.ops.aten.relu_.default](args "
             "= (%x,), kwargs = {})\n"
             "    return (add_, clone, mul)\n");
    airc_tensor *in[1] = {tensor2(ctx, 2, 3, X)};
    airc_tensor *out[3];
    size_t n;
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, in, 1, out, 3, &n, NULL));
    assert_int_equal(n, 3);
    float plus1[6], sq[6], relu[6];
    for (int i = 0; i < 6; i++) {
        plus1[i] = X[i] + 1;
        sq[i] = plus1[i] * plus1[i];
        relu[i] = X[i] > 0 ? X[i] : 0;
    }
    expect_values(out[0], 2, 3, plus1);
    expect_values(out[1], 2, 3, plus1); /* clone was written by add_ */
    expect_values(out[2], 2, 3, sq);
    expect_values(in[0], 2, 3, relu); /* relu_ on the input */
    destroy_all(out, n);
    destroy_all(in, 1);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

static const char *const TUPLES =
    "graph():\n"
    "    %x : [#users=2] = placeholder[target=x]\n"
    "    %pair : [#users=2] = call_function[target=torch.ops.test.pair.default](args = (%x,), "
    "kwargs = {})\n"
    "    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%pair, 0), "
    "kwargs = {})\n"
    "    %getitem_1 : [#users=2] = call_function[target=operator.getitem](args = (%pair, -1), "
    "kwargs = {})\n"
    "    %sumlist : [#users=1] = call_function[target=torch.ops.test.sumlist.default](args = "
    "([%getitem, %getitem_1, %x],), kwargs = {})\n"
    "    return (sumlist, [getitem_1])\n";

static void check_tuples(airc_tensor **out, size_t n)
{
    assert_int_equal(n, 2);
    float s[6], twice[6];
    for (int i = 0; i < 6; i++) {
        s[i] = 4 * X[i] + 1;
        twice[i] = 2 * X[i];
    }
    expect_values(out[0], 2, 3, s);
    expect_values(out[1], 2, 3, twice);
}

/* A tuple-producing custom op, getitem (negative index too), a Tensor[]
 * argument, a nested output list. */
static void test_tuples_and_lists(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    setup_ops(ctx, "cpu");
    airc_graph *g = airc_test_parse(ctx, TUPLES);
    airc_tensor *in[1] = {tensor2(ctx, 2, 3, X)};
    airc_tensor *out[2];
    size_t n;
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, in, 1, out, 2, &n, NULL));
    check_tuples(out, n);
    destroy_all(out, n);
    destroy_all(in, 1);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* get_attr constants, a nested graph (inlined), the air ops. */
static void test_constants_submodules_air(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    setup_ops(ctx, "cpu");
    airc_graph *g = airc_test_parse(
        ctx, "graph():\n"
             "    %x : [#users=1] = placeholder[target=x]\n"
             "    %w : [#users=1] = get_attr[target=w]\n"
             "    %scope_enter : [#users=0] = call_function[target=torch.ops.air.scope_enter."
             "default](args = ([_user_stream_label], [s1]), kwargs = {})\n"
             "    %fused_0 : [#users=1] = call_module[target=fused_0](args = (%x, %w), kwargs = "
             "{})\n"
             "    %record : [#users=1] = call_function[target=torch.ops.air.record.default](args "
             "= (), kwargs = {})\n"
             "    %scope_exit : [#users=0] = call_function[target=torch.ops.air.scope_exit."
             "default](args = (), kwargs = {})\n"
             "    %wait : [#users=0] = call_function[target=torch.ops.air.wait.default](args = "
             "([%record],), kwargs = {})\n"
             "    return fused_0\n"
             "\n"
             "# submodule fused_0\n"
             "graph():\n"
             "    %a : [#users=1] = placeholder[target=a]\n"
             "    %b : [#users=1] = placeholder[target=b]\n"
             "    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = "
             "(%a, %b), kwargs = {})\n"
             "    return mul\n");
    int64_t wshape[1] = {3};
    float w[3] = {2, 3, 4};
    AIRC_ASSERT_OK(
        airc_graph_set_constant(g, "w", AIRC_DTYPE_F32, 1, wshape, NULL, w, NULL, NULL));
    airc_tensor *in[1] = {tensor2(ctx, 2, 3, X)};
    airc_tensor *out[1];
    size_t n;
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, in, 1, out, 1, &n, NULL));
    assert_int_equal(n, 1);
    float want[6];
    for (int i = 0; i < 6; i++)
        want[i] = X[i] * w[i % 3];
    expect_values(out[0], 2, 3, want);
    destroy_all(out, n);
    /* the caller's graph still has its submodule */
    assert_int_equal(airc_graph_num_submodules(g), 1);
    destroy_all(in, 1);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

static void test_errors(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    setup_ops(ctx, "cpu");
    airc_tensor *in[2] = {tensor2(ctx, 2, 3, X), tensor2(ctx, 2, 3, Y)};
    airc_tensor *out[4] = {NULL};
    size_t n = 77;

    airc_graph *g = airc_test_parse(ctx, BASIC);
    AIRC_EXPECT(airc_run_eager(NULL, NULL, in, 2, out, 4, &n, NULL), AIRC_E_MISUSE, NULL);
    AIRC_EXPECT(airc_run_eager(g, NULL, in, 1, out, 4, &n, NULL), AIRC_E_INVALID_ARGUMENT,
                "2 placeholders but 1 input");
    AIRC_EXPECT(airc_run_eager(g, NULL, in, 2, out, 2, &n, NULL), AIRC_E_INVALID_ARGUMENT,
                "3 results");
    AIRC_EXPECT(airc_run_eager(g, NULL, in, 2, NULL, 4, &n, NULL), AIRC_E_INVALID_ARGUMENT, NULL);
    assert_int_equal(n, 77);
    assert_null(out[0]);
    airc_graph_destroy(g);

    /* shapes that do not broadcast: meta propagation refuses */
    int64_t s3[1] = {4};
    airc_tensor *bad;
    AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_F32, 1, s3, &bad));
    airc_tensor *in_bad[2] = {in[0], bad};
    g = airc_test_parse(ctx, BASIC);
    AIRC_EXPECT(airc_run_eager(g, NULL, in_bad, 2, out, 4, &n, NULL), AIRC_E_SHAPE, "add");
    airc_graph_destroy(g);
    airc_tensor_destroy(bad);

    /* no kernel */
    g = airc_test_parse(ctx, "graph():\n"
                             "    %x : [#users=1] = placeholder[target=x]\n"
                             "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu."
                             "default](args = (%x,), kwargs = {})\n"
                             "    %nokernel : [#users=1] = call_function[target=torch.ops.test."
                             "nokernel.default](args = (%relu,), kwargs = {})\n"
                             "    return nokernel\n");
    AIRC_EXPECT(airc_run_eager(g, NULL, in, 1, out, 4, &n, NULL), AIRC_E_UNSUPPORTED,
                "no cpu kernel for test.nokernel.default (node 'nokernel')");
    airc_graph_destroy(g);

    /* a failing kernel: its status and message, with the node; later nodes
     * do not run */
    g_count_calls = 0;
    g = airc_test_parse(ctx, "graph():\n"
                             "    %x : [#users=1] = placeholder[target=x]\n"
                             "    %fail : [#users=1] = call_function[target=torch.ops.test.fail."
                             "default](args = (%x,), kwargs = {})\n"
                             "    %count : [#users=1] = call_function[target=torch.ops.test.count."
                             "default](args = (%fail,), kwargs = {})\n"
                             "    return count\n");
    AIRC_EXPECT(airc_run_eager(g, NULL, in, 1, out, 4, &n, NULL), AIRC_E_RUNTIME,
                "node 'fail': boom");
    assert_string_equal(airc_last_error(), "node 'fail': boom");
    assert_int_equal(g_count_calls, 0);
    airc_graph_destroy(g);

    /* a get_attr without data */
    g = airc_test_parse(ctx, "graph():\n"
                             "    %w : [#users=1] = get_attr[target=w]\n"
                             "    return w\n");
    AIRC_EXPECT(airc_run_eager(g, NULL, NULL, 0, out, 4, &n, NULL), AIRC_E_SHAPE, "'w'");
    airc_graph_destroy(g);

    /* None as a result */
    g = airc_test_parse(ctx, "graph():\n"
                             "    %x : [#users=1] = placeholder[target=x]\n"
                             "    return (x, None)\n");
    AIRC_EXPECT(airc_run_eager(g, NULL, in, 1, out, 4, &n, NULL), AIRC_E_UNSUPPORTED, "None");
    airc_graph_destroy(g);

    assert_int_equal(n, 77);
    destroy_all(in, 2);
    airc_context_destroy(ctx);
}

/* Intermediate buffers die after their last use: a chain of 8 ops on 4 MiB
 * tensors never holds more than two of them (plus the 1 MiB the executor
 * may keep queued before it synchronizes). */
static void test_liveness(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    setup_ops(ctx, "cpu");
    char text[4096];
    int len = snprintf(text, sizeof text, "graph():\n"
                                          "    %%x : [#users=1] = placeholder[target=x]\n");
    const char *prev = "x";
    char names[8][16];
    for (int i = 0; i < 8; i++) {
        snprintf(names[i], sizeof names[i], "r%d", i);
        len += snprintf(text + len, sizeof text - (size_t)len,
                        "    %%%s : [#users=1] = call_function[target=torch.ops.aten.relu.default]"
                        "(args = (%%%s,), kwargs = {})\n",
                        names[i], prev);
        prev = names[i];
    }
    snprintf(text + len, sizeof text - (size_t)len, "    return r7\n");
    airc_graph *g = airc_test_parse(ctx, text);
    int64_t shape[2] = {1024, 1024};
    airc_tensor *in;
    AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_F32, 2, shape, &in));
    ((float *)airc_tensor_data(in))[5] = -1;
    ((float *)airc_tensor_data(in))[6] = 2;
    airc_tensor *out;
    size_t n;
    airc_run_stats stats = {sizeof stats, 0, 0};
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, &in, 1, &out, 1, &n, &stats));
    assert_int_equal(stats.launches, 8);
    size_t mib4 = (size_t)4 << 20;
    assert_true(stats.peak_bytes >= 2 * mib4);
    assert_true(stats.peak_bytes <= 2 * mib4 + ((size_t)1 << 20));
    assert_true(((float *)airc_tensor_data(out))[5] == 0);
    assert_true(((float *)airc_tensor_data(out))[6] == 2);
    airc_tensor_destroy(out);

    /* stats with an older, smaller struct: only what it covers is written */
    struct {
        airc_run_stats s;
        uint64_t guard;
    } old = {{offsetof(airc_run_stats, peak_bytes), 0, 12345}, 0};
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, &in, 1, &out, 1, &n, &old.s));
    assert_int_equal(old.s.launches, 8);
    assert_int_equal(old.s.peak_bytes, 12345);
    airc_tensor_destroy(out);
    airc_tensor_destroy(in);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* ---- a device runtime whose memory is not the host's ---------------------- */

/* "Device" memory: host blocks behind a tag, so the executor must copy in
 * and out (it cannot hand the kernels host pointers). Synchronous launch;
 * every allocation goes through the context's hook, so allocation failure
 * injection reaches it too. */
typedef struct mock_rt {
    airc_allocator alloc;
    long live;     /* device blocks */
    int h2d, d2h;  /* copies */
    int launches;
    airc_status sticky;
} mock_rt;

static airc_status mock_alloc(void *ctx, size_t size, size_t alignment, void **out)
{
    mock_rt *m = ctx;
    (void)alignment; /* the hook's alignment is enough for f32 */
    void *p = m->alloc.malloc_fn ? m->alloc.malloc_fn(m->alloc.user_data, size) : malloc(size);
    if (!p)
        return airc_set_error(AIRC_E_OUT_OF_MEMORY, "mock: out of device memory");
    m->live++;
    *out = p;
    return AIRC_OK;
}

static void mock_free(void *ctx, void *ptr)
{
    mock_rt *m = ctx;
    if (!ptr)
        return;
    m->live--;
    if (m->alloc.free_fn)
        m->alloc.free_fn(m->alloc.user_data, ptr);
    else
        free(ptr);
}

static airc_status mock_copy(void *ctx, void *dst, const void *src, size_t n, int32_t kind,
                             airc_stream_t stream)
{
    mock_rt *m = ctx;
    (void)stream;
    m->h2d += kind == AIRC_COPY_HOST_TO_DEVICE;
    m->d2h += kind == AIRC_COPY_DEVICE_TO_HOST;
    memcpy(dst, src, n);
    return AIRC_OK;
}

static airc_status mock_stream_create(void *ctx, airc_stream_t *out)
{
    *out = ctx;
    return AIRC_OK;
}

static void mock_stream_destroy(void *ctx, airc_stream_t s)
{
    (void)ctx;
    (void)s;
}

static airc_status mock_event_create(void *ctx, airc_event_t *out)
{
    *out = ctx;
    return AIRC_OK;
}

static void mock_event_destroy(void *ctx, airc_event_t e)
{
    (void)ctx;
    (void)e;
}

static airc_status mock_event_record(void *ctx, airc_event_t e, airc_stream_t s)
{
    (void)ctx;
    (void)e;
    (void)s;
    return AIRC_OK;
}

static airc_status mock_launch(void *ctx, airc_stream_t s, airc_launch_fn fn, void *arg)
{
    mock_rt *m = ctx;
    m->launches++;
    airc_status st = fn(arg, s);
    if (st != AIRC_OK && m->sticky == AIRC_OK)
        m->sticky = st;
    return AIRC_OK;
}

static airc_status mock_sync(void *ctx, airc_stream_t s)
{
    mock_rt *m = ctx;
    (void)s;
    airc_status st = m->sticky;
    m->sticky = AIRC_OK;
    return st;
}

static airc_runtime *mock_runtime(airc_context *ctx, mock_rt *m)
{
    airc_runtime_vtable vt;
    memset(&vt, 0, sizeof vt);
    vt.struct_size = sizeof vt;
    vt.abi_version = AIRC_RUNTIME_ABI_VERSION;
    vt.device_type = "mock";
    vt.alloc = mock_alloc;
    vt.free = mock_free;
    vt.copy = mock_copy;
    vt.stream_create = mock_stream_create;
    vt.stream_destroy = mock_stream_destroy;
    vt.event_create = mock_event_create;
    vt.event_destroy = mock_event_destroy;
    vt.event_record = mock_event_record;
    vt.stream_wait_event = mock_event_record;
    vt.launch = mock_launch;
    vt.synchronize = mock_sync;
    airc_runtime *rt;
    AIRC_ASSERT_OK(airc_runtime_create(ctx, &vt, m, &rt));
    return rt;
}

static void test_device_runtime(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    setup_ops(ctx, "mock");
    mock_rt m;
    memset(&m, 0, sizeof m);
    airc_runtime *rt = mock_runtime(ctx, &m);
    airc_graph *g = airc_test_parse(ctx, BASIC);
    airc_tensor *in[2] = {tensor2(ctx, 2, 3, X), tensor2(ctx, 2, 3, Y)};
    airc_tensor *out[3];
    size_t n;
    AIRC_ASSERT_OK(airc_run_eager(g, rt, in, 2, out, 3, &n, NULL));
    check_basic(out, n);
    destroy_all(out, n);
    assert_int_equal(m.h2d, 2);
    assert_int_equal(m.d2h, 3);
    assert_int_equal(m.launches, 4);
    assert_int_equal(m.live, 0);
    /* the device type selects kernels: none for "mock" here */
    airc_graph_destroy(g);
    g = airc_test_parse(ctx, "graph():\n"
                             "    %x : [#users=1] = placeholder[target=x]\n"
                             "    %neg : [#users=1] = call_function[target=torch.ops.aten.neg."
                             "default](args = (%x,), kwargs = {})\n"
                             "    return neg\n");
    AIRC_EXPECT(airc_run_eager(g, rt, in, 1, out, 3, &n, NULL), AIRC_E_UNSUPPORTED,
                "no mock kernel for aten.neg.default (node 'neg')");
    assert_int_equal(m.live, 0);
    airc_graph_destroy(g);
    airc_runtime_destroy(rt);
    destroy_all(in, 2);
    airc_context_destroy(ctx);
}

/* Every allocation of a run fails in turn: AIRC_E_OUT_OF_MEMORY, nothing
 * leaks (host or device), until the run succeeds with the right values. */
static void oom_loop(const char *text, size_t ninputs, void (*check)(airc_tensor **, size_t),
                     bool cpu)
{
    airc_test_alloc st;
    airc_allocator hook;
    airc_test_alloc_init(&st, &hook);
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(&hook, &ctx));
    setup_ops(ctx, cpu ? "cpu" : "mock");
    mock_rt m;
    memset(&m, 0, sizeof m);
    m.alloc = hook;
    airc_runtime *rt;
    if (cpu)
        AIRC_ASSERT_OK(airc_cpu_runtime_create(ctx, NULL, &rt));
    else
        rt = mock_runtime(ctx, &m);
    airc_graph *g = airc_test_parse(ctx, text);
    airc_tensor *in[2] = {tensor2(ctx, 2, 3, X), tensor2(ctx, 2, 3, Y)};
    /* built-in ops are loaded into the context on first use: warm up */
    airc_tensor *out[4];
    size_t n;
    AIRC_ASSERT_OK(airc_run_eager(g, rt, in, ninputs, out, 4, &n, NULL));
    destroy_all(out, n);
    long base = st.live;
    bool done = false;
    size_t fail = 1;
    for (; !done && fail < 10000; fail++) {
        st.count = 0;
        st.fail_at = fail;
        airc_status s = airc_run_eager(g, rt, in, ninputs, out, 4, &n, NULL);
        st.fail_at = 0;
        if (s == AIRC_OK) {
            check(out, n);
            destroy_all(out, n);
            done = true;
        } else {
            if (s != AIRC_E_OUT_OF_MEMORY)
                print_error("fail_at %zu: %s: %s\n", fail, airc_status_name(s),
                            airc_last_error());
            assert_int_equal(s, AIRC_E_OUT_OF_MEMORY);
        }
        assert_int_equal(st.live, base);
        assert_int_equal(m.live, 0);
    }
    assert_true(done);
    assert_true(fail > 20); /* the run allocates: failures were injected */
    airc_graph_destroy(g);
    destroy_all(in, 2);
    airc_runtime_destroy(rt);
    airc_context_destroy(ctx);
    assert_int_equal(st.live, 0);
}

/* Allocations of at least `big` bytes through the context's allocator. */
typedef struct big_count {
    size_t big;
    int n;
} big_count;

static void *count_malloc(void *ud, size_t size)
{
    big_count *c = ud;
    c->n += size >= c->big;
    return malloc(size);
}

static void *count_realloc(void *ud, void *p, size_t size)
{
    (void)ud;
    return realloc(p, size);
}

static void count_free(void *ud, void *p)
{
    (void)ud;
    free(p);
}

/* On a host runtime a contiguous graph output is computed into its result
 * tensor, which is handed over: one large allocation per result, not a
 * runtime buffer and a copy. Results that share memory (the same node
 * twice, a view of an output, an input returned) are still separate
 * tensors with their own data. */
static void test_results_handed_over(void **state)
{
    (void)state;
    big_count count = {(size_t)1 << 20, 0};
    airc_allocator a = {sizeof a, count_malloc, count_realloc, count_free, &count};
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(&a, &ctx));
    setup_ops(ctx, "cpu");
    airc_graph *g = airc_test_parse(
        ctx, "graph():\n"
             "    %x : [#users=2] = placeholder[target=x]\n"
             "    %relu : [#users=3] = call_function[target=torch.ops.aten.relu.default]"
             "(args = (%x,), kwargs = {})\n"
             "    %t : [#users=1] = call_function[target=torch.ops.aten.t.default]"
             "(args = (%relu,), kwargs = {})\n"
             "    return (relu, relu, t, x)\n");
    int64_t shape[2] = {512, 1024};
    airc_tensor *in;
    AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_F32, 2, shape, &in));
    float *x = airc_tensor_data(in);
    x[1] = -3;
    x[1024] = 5;
    airc_runtime *rt;
    AIRC_ASSERT_OK(airc_cpu_runtime_create(ctx, NULL, &rt));

    /* one result: the one large allocation is the result tensor */
    airc_graph *one = airc_test_parse(
        ctx, "graph():\n"
             "    %x : [#users=1] = placeholder[target=x]\n"
             "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default]"
             "(args = (%x,), kwargs = {})\n"
             "    return relu\n");
    airc_tensor *out[4] = {NULL};
    size_t n = 0;
    count.n = 0;
    AIRC_ASSERT_OK(airc_run_eager(one, rt, &in, 1, out, 1, &n, NULL));
    assert_int_equal(n, 1);
    assert_int_equal(count.n, 1);
    assert_true(airc_tensor_owns_data(out[0]));
    assert_true(((float *)airc_tensor_data(out[0]))[1] == 0);
    assert_true(((float *)airc_tensor_data(out[0]))[1024] == 5);
    airc_tensor_destroy(out[0]);

    AIRC_ASSERT_OK(airc_run_eager(g, rt, &in, 1, out, 4, &n, NULL));
    assert_int_equal(n, 4);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            assert_ptr_not_equal(airc_tensor_data(out[i]), airc_tensor_data(out[j]));
    assert_ptr_not_equal(airc_tensor_data(out[3]), x);
    float *r0 = airc_tensor_data(out[0]), *r1 = airc_tensor_data(out[1]);
    float *rt_ = airc_tensor_data(out[2]), *rx = airc_tensor_data(out[3]);
    assert_int_equal(airc_tensor_shape(out[2])[0], 1024);
    assert_true(r0[1] == 0 && r1[1] == 0 && rx[1] == -3);
    assert_true(rt_[1 * 512 + 0] == 0 && rt_[0 * 512 + 1] == 5); /* t: [j][i] = relu[i][j] */
    r0[1024] = 7;                                                /* the results are independent */
    assert_true(r1[1024] == 5 && rt_[1] == 5 && x[1024] == 5);
    destroy_all(out, n);

    /* a contiguous view of an output that starts at its first byte, in
     * another shape, collected before it: a copy in its own shape */
    airc_graph *row = airc_test_parse(
        ctx, "graph():\n"
             "    %x : [#users=1] = placeholder[target=x]\n"
             "    %relu : [#users=2] = call_function[target=torch.ops.aten.relu.default]"
             "(args = (%x,), kwargs = {})\n"
             "    %t : [#users=1] = call_function[target=torch.ops.aten.t.default]"
             "(args = (%relu,), kwargs = {})\n"
             "    return (t, relu)\n");
    int64_t row_shape[2] = {1, 1024};
    airc_tensor *rin;
    AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_F32, 2, row_shape, &rin));
    ((float *)airc_tensor_data(rin))[3] = 4;
    AIRC_ASSERT_OK(airc_run_eager(row, rt, &rin, 1, out, 2, &n, NULL));
    assert_int_equal(n, 2);
    assert_int_equal(airc_tensor_shape(out[0])[0], 1024);
    assert_int_equal(airc_tensor_shape(out[0])[1], 1);
    assert_int_equal(airc_tensor_shape(out[1])[0], 1);
    assert_int_equal(airc_tensor_shape(out[1])[1], 1024);
    assert_ptr_not_equal(airc_tensor_data(out[0]), airc_tensor_data(out[1]));
    assert_true(((float *)airc_tensor_data(out[0]))[3] == 4);
    destroy_all(out, n);
    airc_tensor_destroy(rin);
    airc_graph_destroy(row);

    airc_runtime_destroy(rt);
    airc_tensor_destroy(in);
    airc_graph_destroy(one);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

static void test_oom_basic(void **state)
{
    (void)state;
    oom_loop(BASIC, 2, check_basic, false);
    oom_loop(BASIC, 2, check_basic, true);
}

static void test_oom_tuples(void **state)
{
    (void)state;
    oom_loop(TUPLES, 1, check_tuples, false);
    oom_loop(TUPLES, 1, check_tuples, true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic_cpu),
        cmocka_unit_test(test_inplace),
        cmocka_unit_test(test_tuples_and_lists),
        cmocka_unit_test(test_constants_submodules_air),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_liveness),
        cmocka_unit_test(test_results_handed_over),
        cmocka_unit_test(test_device_runtime),
        cmocka_unit_test(test_oom_basic),
        cmocka_unit_test(test_oom_tuples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
