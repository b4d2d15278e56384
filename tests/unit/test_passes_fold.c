/* The constant_folding pass. Expected graphs and values are derived from
 * the pass's semantics (passes.h) by hand, in the comments; folded values
 * are checked against double-precision references computed here, and every
 * folded graph must run (airc_run_eager) to what the unfolded one gives. */
#include "testutil.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static airc_context *g_ctx;

static int setup(void **state)
{
    (void)state;
    return airc_context_create(NULL, &g_ctx) == AIRC_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    airc_context_destroy(g_ctx);
    return 0;
}

#define P(line) "    " line "\n"
#define F32 "dtype: torch.float32, layout: torch.strided, device: cpu, pin_memory: False"

static char *print_graph(const airc_graph *g)
{
    return airc_test_print(g, AIRC_PRINT_NO_TYPES);
}

static size_t trimmed_len(const char *s)
{
    size_t n = strlen(s);
    while (n && s[n - 1] == '\n')
        n--;
    return n;
}

/* g prints as want (a trailing newline does not matter). */
static void assert_prints(const airc_graph *g, const char *want)
{
    char *got = print_graph(g);
    size_t n = trimmed_len(got);
    if (n != trimmed_len(want) || memcmp(got, want, n))
        print_error("got:\n%s\nwant:\n%s\n", got, want);
    assert_int_equal(n, trimmed_len(want));
    assert_memory_equal(got, want, n);
    free(got);
}

static void bind(airc_graph *g, const char *name, int32_t ndim, const int64_t *shape,
                 const float *data)
{
    AIRC_ASSERT_OK(airc_graph_set_constant(g, name, AIRC_DTYPE_F32, ndim, shape, NULL,
                                           (void *)data, NULL, NULL));
}

static airc_tensor *tensor_f32(airc_context *ctx, int32_t ndim, const int64_t *shape,
                               const float *data)
{
    airc_tensor *t;
    AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_F32, ndim, shape, &t));
    if (data)
        memcpy(airc_tensor_data(t), data, airc_tensor_nbytes(t));
    return t;
}

/* Runs g on one input and returns its only result. */
static airc_tensor *run1(const airc_graph *g, airc_tensor *in)
{
    airc_tensor *out[2];
    size_t n = 0;
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, &in, 1, out, 2, &n, NULL));
    assert_int_equal(n, 1);
    return out[0];
}

static void assert_close(const float *got, const double *want, size_t n, double rtol)
{
    for (size_t i = 0; i < n; i++) {
        double tol = rtol * fabs(want[i]) + 1e-6;
        if (fabs(got[i] - want[i]) > tol)
            print_error("element %zu: got %.9g, want %.9g\n", i, got[i], want[i]);
        assert_true(fabs(got[i] - want[i]) <= tol);
    }
}

static void assert_same_tensor(const airc_tensor *a, const airc_tensor *b)
{
    assert_int_equal(airc_tensor_dtype(a), airc_tensor_dtype(b));
    assert_int_equal(airc_tensor_ndim(a), airc_tensor_ndim(b));
    assert_int_equal(airc_tensor_nbytes(a), airc_tensor_nbytes(b));
    /* the same kernels on the same data in the same order: bitwise equal */
    assert_memory_equal(airc_tensor_data(a), airc_tensor_data(b), airc_tensor_nbytes(a));
}

/* The folded constant's data (asserting its meta). */
static const float *folded(const airc_graph *g, const char *name, int32_t ndim,
                           const int64_t *shape)
{
    airc_dtype dt;
    int32_t nd;
    const int64_t *sh, *st;
    void *data;
    AIRC_ASSERT_OK(airc_graph_get_constant(g, name, &dt, &nd, &sh, &st, &data));
    assert_int_equal(dt, AIRC_DTYPE_F32);
    assert_int_equal(nd, ndim);
    for (int32_t d = 0; d < ndim; d++)
        assert_int_equal(sh[d], shape[d]);
    return data;
}

/* ---- a chain of constant-only calls becomes one constant ------------------ */

static const char *const k_chain =
    "graph():\n"
    P("%x_1 : [#users=1] = placeholder[target=x_1]")
    P("%w : [#users=1] = get_attr[target=w]")
    P("%neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%w,), kwargs = {})")
    P("%mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%neg, 2), kwargs = {})")
    P("%exp : [#users=1] = call_function[target=torch.ops.aten.exp.default](args = (%mul,), kwargs = {})")
    P("%add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, %exp), kwargs = {})")
    "    return add\n";

/* neg, mul and exp read only w: exp is what the rest reads, so it becomes
 * _folded_constant_0 (placed where exp was), and w, neg, mul die. */
static const char *const k_chain_folded =
    "graph():\n"
    P("%x_1 : [#users=1] = placeholder[target=x_1]")
    P("%_folded_constant_0 : [#users=1] = get_attr[target=_folded_constant_0]")
    P("%add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, %_folded_constant_0), kwargs = {})")
    "    return add\n";

static const float k_w[6] = {0.5f, -1.0f, 0.25f, 2.0f, -0.75f, 0.0f};
static const float k_x[6] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f};
static const int64_t k_23[2] = {2, 3};

static void test_fold_chain(void **state)
{
    (void)state;
    airc_graph *g = airc_test_parse(g_ctx, k_chain);
    bind(g, "w", 2, k_23, k_w);
    airc_tensor *x = tensor_f32(g_ctx, 2, k_23, k_x);
    airc_tensor *before = run1(g, x);

    int32_t changed = 0;
    AIRC_ASSERT_OK(airc_pass_constant_folding(g, &changed));
    assert_int_equal(changed, 1);
    assert_prints(g, k_chain_folded);
    AIRC_ASSERT_OK(airc_graph_lint(g));

    double want[6], want_out[6];
    for (int i = 0; i < 6; i++) {
        want[i] = exp(-2.0 * k_w[i]);
        want_out[i] = k_x[i] + want[i];
    }
    assert_close(folded(g, "_folded_constant_0", 2, k_23), want, 6, 1e-6);
    airc_tensor *after = run1(g, x);
    assert_same_tensor(before, after);
    assert_close(airc_tensor_data(after), want_out, 6, 1e-6);

    /* nothing is left to fold */
    changed = 1;
    AIRC_ASSERT_OK(airc_pass_constant_folding(g, &changed));
    assert_int_equal(changed, 0);
    assert_prints(g, k_chain_folded);

    airc_tensor_destroy(before);
    airc_tensor_destroy(after);
    airc_tensor_destroy(x);
    airc_graph_destroy(g);
}

/* ---- creation ops, views, reductions, tuples, a linear layer -------------- */

static const char *const k_mixed =
    "graph():\n"
    P("%x_1 : [#users=1] = placeholder[target=x_1]")
    P("%w : [#users=2] = get_attr[target=w]")
    P("%b : [#users=1] = get_attr[target=b]")
    P("%mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%w, 0.5), kwargs = {})")
    P("%t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%mul,), kwargs = {})")
    P("%addmm : [#users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%b, %x_1, %t), kwargs = {})")
    P("%max_1 : [#users=1] = call_function[target=torch.ops.aten.max.dim](args = (%w, 1), kwargs = {})")
    P("%getitem : [#users=1] = call_function[target=operator.getitem](args = (%max_1, 0), kwargs = {})")
    P("%arange : [#users=1] = call_function[target=torch.ops.aten.arange.default](args = (2,), kwargs = {" F32 "})")
    P("%ones : [#users=1] = call_function[target=torch.ops.aten.ones.default](args = ([2],), kwargs = {" F32 "})")
    P("%add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arange, %ones), kwargs = {alpha: 3})")
    P("%mul_1 : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%getitem, %add), kwargs = {})")
    P("%add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%addmm, %mul_1), kwargs = {})")
    "    return add_1\n";

/* mul(w, 0.5) is read by t, a view, which stays (a transposed copy of a
 * weight would double its memory): mul becomes _folded_constant_0. max.dim
 * gives a tuple: its element getitem is what add_1's side reads, but
 * mul_1 = getitem * (arange + 3*ones) is constant too, and it is mul_1 that
 * addmm's consumer reads: one constant, _folded_constant_1. w and b: w dies,
 * b (read by addmm with x_1) stays. */
static const char *const k_mixed_folded =
    "graph():\n"
    P("%x_1 : [#users=1] = placeholder[target=x_1]")
    P("%b : [#users=1] = get_attr[target=b]")
    P("%_folded_constant_0 : [#users=1] = get_attr[target=_folded_constant_0]")
    P("%t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%_folded_constant_0,), kwargs = {})")
    P("%addmm : [#users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%b, %x_1, %t), kwargs = {})")
    P("%_folded_constant_1 : [#users=1] = get_attr[target=_folded_constant_1]")
    P("%add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%addmm, %_folded_constant_1), kwargs = {})")
    "    return add_1\n";

static void test_fold_mixed(void **state)
{
    (void)state;
    airc_graph *g = airc_test_parse(g_ctx, k_mixed);
    static const float b[2] = {0.125f, -0.5f};
    const int64_t two = 2;
    bind(g, "w", 2, k_23, k_w);
    bind(g, "b", 1, &two, b);
    airc_tensor *x = tensor_f32(g_ctx, 2, k_23, k_x);
    airc_tensor *before = run1(g, x);

    int32_t changed = 0;
    AIRC_ASSERT_OK(airc_pass_constant_folding(g, &changed));
    assert_int_equal(changed, 1);
    assert_prints(g, k_mixed_folded);
    AIRC_ASSERT_OK(airc_graph_lint(g));

    /* _folded_constant_0 = 0.5 w; _folded_constant_1[i] = max_j w[i][j] *
     * (i + 3) */
    double c0[6], c1[2], out[4];
    for (int i = 0; i < 6; i++)
        c0[i] = 0.5 * k_w[i];
    for (int i = 0; i < 2; i++) {
        double m = k_w[3 * i];
        for (int j = 1; j < 3; j++)
            m = fmax(m, k_w[3 * i + j]);
        c1[i] = m * (i + 3.0);
    }
    /* out = b + x @ (0.5 w)^T + c1, x and w 2x3 */
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            double acc = b[j] + c1[j];
            for (int k = 0; k < 3; k++)
                acc += k_x[3 * i + k] * c0[3 * j + k];
            out[2 * i + j] = acc;
        }
    assert_close(folded(g, "_folded_constant_0", 2, k_23), c0, 6, 1e-6);
    assert_close(folded(g, "_folded_constant_1", 1, &two), c1, 2, 1e-6);
    airc_tensor *after = run1(g, x);
    assert_same_tensor(before, after);
    assert_close(airc_tensor_data(after), out, 4, 1e-5);

    airc_tensor_destroy(before);
    airc_tensor_destroy(after);
    airc_tensor_destroy(x);
    airc_graph_destroy(g);
}

/* ---- the size cap ------------------------------------------------------------ */

static const char *const k_cap =
    "graph():\n"
    P("%x_1 : [#users=1] = placeholder[target=x_1]")
    P("%full : [#users=1] = call_function[target=torch.ops.aten.full.default](args = ([512, 512], 1.5), kwargs = {" F32 "})")
    P("%full_1 : [#users=1] = call_function[target=torch.ops.aten.full.default](args = ([512, 513], 2.0), kwargs = {" F32 "})")
    P("%sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.default](args = (%full_1,), kwargs = {})")
    P("%add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, %full), kwargs = {})")
    P("%add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add, %sum_1), kwargs = {})")
    "    return add_1\n";

/* full is 512*512*4 bytes = exactly 1 MiB: folded. full_1 is 1 MiB + 2 KiB:
 * kept, and so is sum_1, whose input is not folded (the cap bounds what the
 * evaluation holds, not only what the graph keeps). */
static const char *const k_cap_folded =
    "graph():\n"
    P("%x_1 : [#users=1] = placeholder[target=x_1]")
    P("%_folded_constant_0 : [#users=1] = get_attr[target=_folded_constant_0]")
    P("%full_1 : [#users=1] = call_function[target=torch.ops.aten.full.default](args = ([512, 513], 2.0), kwargs = {" F32 "})")
    P("%sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.default](args = (%full_1,), kwargs = {})")
    P("%add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, %_folded_constant_0), kwargs = {})")
    P("%add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add, %sum_1), kwargs = {})")
    "    return add_1\n";

static void test_fold_cap(void **state)
{
    (void)state;
    airc_graph *g = airc_test_parse(g_ctx, k_cap);
    const int64_t shape[2] = {512, 512};
    airc_tensor *x = tensor_f32(g_ctx, 2, shape, NULL);
    float *xd = airc_tensor_data(x);
    for (size_t i = 0; i < 512 * 512; i++)
        xd[i] = (float)(i % 7) - 3.0f;
    airc_tensor *before = run1(g, x);

    int32_t changed = 0;
    AIRC_ASSERT_OK(airc_pass_constant_folding(g, &changed));
    assert_int_equal(changed, 1);
    assert_prints(g, k_cap_folded);
    const float *c = folded(g, "_folded_constant_0", 2, shape);
    for (size_t i = 0; i < 512 * 512; i++)
        assert_true(c[i] == 1.5f);

    airc_tensor *after = run1(g, x);
    assert_same_tensor(before, after);
    /* x + 1.5 + 512*513*2 (exact in f32: integers below 2^24) */
    const float *o = airc_tensor_data(after);
    for (size_t i = 0; i < 512 * 512; i += 4099)
        assert_true(o[i] == xd[i] + 1.5f + 525312.0f);

    airc_tensor_destroy(before);
    airc_tensor_destroy(after);
    airc_tensor_destroy(x);
    airc_graph_destroy(g);
}

/* ---- what must not fold -------------------------------------------------------- */

static airc_status twice_kernel(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *in = airc_kernel_input(k, 0);
    airc_tview *out = airc_kernel_output(k, 0);
    int64_t n = 1;
    for (int32_t d = 0; d < in->ndim; d++)
        n *= in->shape[d];
    for (int64_t i = 0; i < n; i++) /* contiguous in this test */
        ((float *)out->data)[i] = 2.0f * ((const float *)in->data)[i];
    return AIRC_OK;
}

static airc_status twice_meta(airc_node *node, void *user_data)
{
    (void)user_data;
    airc_dtype dt;
    int32_t ndim;
    const int64_t *shape;
    airc_status st = airc_value_meta(airc_node_arg(node, 0), &dt, &ndim, &shape, NULL);
    if (st != AIRC_OK)
        return st;
    return airc_node_set_meta(node, dt, ndim, shape, NULL);
}

static const char *const k_impure =
    "graph():\n"
    P("%x_1 : [#users=2] = placeholder[target=x_1]")
    P("%w : [#users=2] = get_attr[target=w]")
    P("%v : [#users=1] = get_attr[target=v]")
    P("%u : [#users=1] = get_attr[target=u]")
    P("%empty : [#users=1] = call_function[target=torch.ops.aten.empty.memory_format](args = ([2, 3],), kwargs = {" F32 "})")
    P("%mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%empty, 0), kwargs = {})")
    P("%t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%w,), kwargs = {})")
    P("%abs_ : [#users=0] = call_function[target=torch.ops.aten.abs_.default](args = (%t,), kwargs = {})")
    P("%neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%w,), kwargs = {})")
    P("%twice : [#users=1] = call_function[target=torch.ops.kbtest.twice.default](args = (%v,), kwargs = {})")
    P("%to : [#users=1] = call_function[target=torch.ops.aten._to_copy.default](args = (%u,), kwargs = {device: npu})")
    P("%record : [#users=0] = call_function[target=torch.ops.air.record.default](args = (), kwargs = {})")
    P("%sin : [#users=1] = call_function[target=torch.ops.aten.sin.default](args = (%x_1,), kwargs = {})")
    P("%add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%neg, %twice), kwargs = {})")
    P("%add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add, %mul), kwargs = {})")
    P("%add_2 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_1, %sin), kwargs = {})")
    P("%add_3 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_2, %x_1), kwargs = {})")
    "    return (add_3, to)\n";

/* Nothing folds: empty is uninitialised (mul by 0 of NaN is NaN), w is
 * written by abs_ through the view t (so neg(w) must read it after the
 * write), kbtest.twice is a custom op (even with a CPU kernel), _to_copy
 * goes to another device, air.record is a stream op, sin reads an input. */
static void test_fold_impure(void **state)
{
    (void)state;
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = "kbtest::twice(Tensor self) -> Tensor";
    def.meta = twice_meta;
    AIRC_ASSERT_OK(airc_context_register_op(g_ctx, &def, NULL));
    AIRC_ASSERT_OK(
        airc_context_set_op_kernel(g_ctx, "kbtest.twice.default", "cpu", twice_kernel, NULL, NULL));
    airc_graph *g = airc_test_parse(g_ctx, k_impure);
    bind(g, "w", 2, k_23, k_w);
    bind(g, "v", 2, k_23, k_w);
    bind(g, "u", 2, k_23, k_w);
    char *want = print_graph(g);
    int32_t changed = 1;
    AIRC_ASSERT_OK(airc_pass_constant_folding(g, &changed));
    assert_int_equal(changed, 0);
    assert_prints(g, want);
    assert_int_equal(airc_graph_num_constants(g), 3);
    free(want);
    airc_graph_destroy(g);

    /* without the in-place write, neg(w) and everything downstream of
     * constants alone folds; twice stays (custom op) */
    const char *text =
        "graph():\n"
        P("%x_1 : [#users=1] = placeholder[target=x_1]")
        P("%w : [#users=1] = get_attr[target=w]")
        P("%v : [#users=1] = get_attr[target=v]")
        P("%neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%w,), kwargs = {})")
        P("%twice : [#users=1] = call_function[target=torch.ops.kbtest.twice.default](args = (%v,), kwargs = {})")
        P("%add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%neg, %twice), kwargs = {})")
        P("%add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add, %x_1), kwargs = {})")
        "    return add_1\n";
    g = airc_test_parse(g_ctx, text);
    bind(g, "w", 2, k_23, k_w);
    bind(g, "v", 2, k_23, k_w);
    airc_tensor *x = tensor_f32(g_ctx, 2, k_23, k_x);
    airc_tensor *before = run1(g, x);
    AIRC_ASSERT_OK(airc_pass_constant_folding(g, &changed));
    assert_int_equal(changed, 1);
    assert_prints(g,
                  "graph():\n"
                  P("%x_1 : [#users=1] = placeholder[target=x_1]")
                  P("%v : [#users=1] = get_attr[target=v]")
                  P("%_folded_constant_0 : [#users=1] = get_attr[target=_folded_constant_0]")
                  P("%twice : [#users=1] = call_function[target=torch.ops.kbtest.twice.default](args = (%v,), kwargs = {})")
                  P("%add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%_folded_constant_0, %twice), kwargs = {})")
                  P("%add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add, %x_1), kwargs = {})")
                  "    return add_1\n");
    airc_tensor *after = run1(g, x);
    assert_same_tensor(before, after);
    double out[6];
    for (int i = 0; i < 6; i++)
        out[i] = -k_w[i] + 2.0 * k_w[i] + k_x[i];
    assert_close(airc_tensor_data(after), out, 6, 1e-6);
    airc_tensor_destroy(before);
    airc_tensor_destroy(after);
    airc_tensor_destroy(x);
    airc_graph_destroy(g);

    /* a creation op (or a computation on constants) that an in-place op
     * writes later, here through the view t, is no constant either: folded,
     * every run would write the one folded buffer */
    const char *written =
        "graph():\n"
        P("%x_1 : [#users=1] = placeholder[target=x_1]")
        P("%full : [#users=1] = call_function[target=torch.ops.aten.full.default](args = ([3, 2], 1.5), kwargs = {dtype: torch.float32})")
        P("%w : [#users=1] = get_attr[target=w]")
        P("%neg : [#users=2] = call_function[target=torch.ops.aten.neg.default](args = (%w,), kwargs = {})")
        P("%t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%full,), kwargs = {})")
        P("%tanh_ : [#users=1] = call_function[target=torch.ops.aten.tanh_.default](args = (%t,), kwargs = {})")
        P("%add_ : [#users=0] = call_function[target=torch.ops.aten.add_.Tensor](args = (%neg, %x_1), kwargs = {})")
        P("%add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%tanh_, %neg), kwargs = {})")
        "    return add\n";
    g = airc_test_parse(g_ctx, written);
    bind(g, "w", 2, k_23, k_w);
    want = print_graph(g);
    AIRC_ASSERT_OK(airc_pass_constant_folding(g, &changed));
    assert_int_equal(changed, 0);
    assert_prints(g, want);
    free(want);
    airc_graph_destroy(g);

    /* a get_attr without bound data is not a constant */
    g = airc_test_parse(g_ctx, "graph():\n"
                               P("%u : [#users=1] = get_attr[target=u]")
                               P("%neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%u,), kwargs = {})")
                               "    return neg\n");
    AIRC_ASSERT_OK(airc_pass_constant_folding(g, &changed));
    assert_int_equal(changed, 0);
    airc_graph_destroy(g);
}

/* ---- names stay unique; the pipeline runs the pass by its switch ------------ */

static void test_fold_names_and_pipeline(void **state)
{
    (void)state;
    assert_string_equal(airc_builtin_pass_name(5), "constant_folding");
    assert_string_equal(airc_builtin_pass_name(6), "meta_propagation");
    assert_string_equal(airc_builtin_pass_config_key("constant_folding"),
                        "passes.constant_folding");

    airc_graph *g = airc_test_parse(g_ctx, k_chain);
    bind(g, "w", 2, k_23, k_w);
    /* a constant already named _folded_constant_3: the new one is _4 */
    bind(g, "_folded_constant_3", 2, k_23, k_x);
    airc_config *cfg;
    AIRC_ASSERT_OK(airc_config_create(g_ctx, &cfg));
    AIRC_ASSERT_OK(airc_config_set(cfg, "passes.constant_folding", "false"));
    char *want = print_graph(g);
    AIRC_ASSERT_OK(airc_run_pipeline(g, NULL, cfg, NULL, NULL));
    assert_prints(g, want);
    free(want);
    AIRC_ASSERT_OK(airc_config_set(cfg, "passes.constant_folding", NULL)); /* default: on */
    AIRC_ASSERT_OK(airc_run_pipeline(g, NULL, cfg, NULL, NULL));
    assert_non_null(airc_graph_find_node(g, "_folded_constant_4"));
    assert_null(airc_graph_find_node(g, "exp"));
    AIRC_ASSERT_OK(airc_graph_get_constant(g, "_folded_constant_4", NULL, NULL, NULL, NULL, NULL));
    airc_config_destroy(cfg);
    airc_graph_destroy(g);
}

/* ---- all or nothing under allocation failure --------------------------------- */

static void test_fold_oom(void **state)
{
    (void)state;
    airc_test_alloc st;
    airc_allocator hook;
    airc_test_alloc_init(&st, &hook);
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(&hook, &ctx));
    airc_tensor *x = tensor_f32(ctx, 2, k_23, k_x);
    static const float b[2] = {0.125f, -0.5f};
    const int64_t two = 2;
    /* warm up (built-in ops are loaded into the context on first use) */
    airc_graph *g = airc_test_parse(ctx, k_mixed);
    bind(g, "w", 2, k_23, k_w);
    bind(g, "b", 1, &two, b);
    airc_tensor *want = run1(g, x);
    AIRC_ASSERT_OK(airc_pass_constant_folding(g, NULL));
    airc_graph_destroy(g);

    bool done = false;
    size_t fail = 1;
    for (; !done && fail < 20000; fail++) {
        g = airc_test_parse(ctx, k_mixed);
        bind(g, "w", 2, k_23, k_w);
        bind(g, "b", 1, &two, b);
        char *before = print_graph(g);
        long live = st.live;
        st.count = 0;
        st.fail_at = fail;
        airc_status s = airc_pass_constant_folding(g, NULL);
        st.fail_at = 0;
        if (s == AIRC_OK) {
            assert_prints(g, k_mixed_folded);
            done = true;
        } else {
            if (s != AIRC_E_OUT_OF_MEMORY)
                print_error("fail_at %zu: %s: %s\n", fail, airc_status_name(s),
                            airc_last_error());
            assert_int_equal(s, AIRC_E_OUT_OF_MEMORY);
            assert_prints(g, before);
            assert_int_equal(airc_graph_num_constants(g), 2);
            assert_int_equal(st.live, live); /* nothing leaked */
        }
        AIRC_ASSERT_OK(airc_graph_lint(g));
        airc_tensor *got = run1(g, x);
        assert_same_tensor(want, got);
        airc_tensor_destroy(got);
        free(before);
        airc_graph_destroy(g);
    }
    assert_true(done);
    assert_true(fail > 30); /* failures were injected all along the pass */
    airc_tensor_destroy(want);
    airc_tensor_destroy(x);
    airc_context_destroy(ctx);
    assert_int_equal(st.live, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fold_chain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fold_mixed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fold_cap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fold_impure, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fold_names_and_pipeline, setup, teardown),
        cmocka_unit_test(test_fold_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
