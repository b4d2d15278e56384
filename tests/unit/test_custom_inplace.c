/* In-place custom ops end to end on the functionalization side: the
 * synthesized functional twin (src/ops/functional_twin.c: name, schema,
 * meta, kernel, once per op, under concurrency), functionalize turning the
 * in-place ops into twin calls (graph inputs written back), eager results
 * before and after, and reduce-overhead putting the twins back in place
 * where safe (backends/replay/reinplace.c, rule 3) and not where not. */
#include "testcase.h"
#include "testutil.h"

#include "backends/replay/reinplace.h"
#include "ops/ops.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the ops: kernels on strided f32 views, meta ---------------------------- */

static atomic_int g_scale_calls;

static size_t numel_of(const airc_tview *t)
{
    size_t n = 1;
    for (int32_t d = 0; d < t->ndim; d++)
        n *= (size_t)t->shape[d];
    return n;
}

/* Element i (C order) of a strided f32 view. */
static float *at(const airc_tview *t, size_t i)
{
    int64_t off = 0;
    for (int32_t d = t->ndim - 1; d >= 0; d--) {
        off += (int64_t)(i % (size_t)t->shape[d]) * t->strides[d];
        i /= (size_t)t->shape[d];
    }
    return (float *)t->data + off;
}

static airc_status f32_input(airc_kernel_ctx *k, size_t i, const airc_tview **out)
{
    *out = airc_kernel_input(k, i);
    if (!*out || (*out)->dtype != AIRC_DTYPE_F32)
        return airc_set_error(AIRC_E_UNSUPPORTED, "demo kernels: f32 tensors only");
    return AIRC_OK;
}

/* demo::scale_(Tensor(a!) x, float alpha) -> (): x *= alpha */
static airc_status scale_kernel(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *x;
    double alpha;
    AIRC_TRY(f32_input(k, 0, &x));
    AIRC_TRY(airc_value_get_float(airc_kernel_arg(k, 1), &alpha));
    for (size_t i = 0; i < numel_of(x); i++)
        *at(x, i) *= (float)alpha;
    atomic_fetch_add(&g_scale_calls, 1);
    return AIRC_OK;
}

/* demo::add_one_(Tensor(a!) x) -> Tensor(a!): x += 1 */
static airc_status add_one_kernel(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *x;
    AIRC_TRY(f32_input(k, 0, &x));
    for (size_t i = 0; i < numel_of(x); i++)
        *at(x, i) += 1.0f;
    return AIRC_OK;
}

/* demo::axpy_(Tensor(a!) y, Tensor(b!) z, Tensor x, float alpha) -> ():
 * y += alpha * x; z -= x */
static airc_status axpy_kernel(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *y, *z, *x;
    double alpha;
    AIRC_TRY(f32_input(k, 0, &y));
    AIRC_TRY(f32_input(k, 1, &z));
    AIRC_TRY(f32_input(k, 2, &x));
    AIRC_TRY(airc_value_get_float(airc_kernel_arg(k, 3), &alpha));
    if (numel_of(y) != numel_of(x) || numel_of(z) != numel_of(x))
        return airc_set_error(AIRC_E_UNSUPPORTED, "axpy_: shapes differ");
    for (size_t i = 0; i < numel_of(x); i++) {
        *at(y, i) += (float)alpha * *at(x, i);
        *at(z, i) -= *at(x, i);
    }
    return AIRC_OK;
}

static airc_status meta_nothing(airc_node *n, void *user_data)
{
    (void)user_data;
    return airc_node_set_meta_tuple(n, 0);
}

static airc_status meta_like_arg0(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_node *x;
    airc_dtype dt;
    int32_t ndim;
    const int64_t *shape, *strides;
    AIRC_TRY(airc_value_get_node(airc_node_arg(n, 0), &x));
    AIRC_TRY(airc_node_output_meta(x, 0, &dt, &ndim, &shape, &strides));
    return airc_node_set_meta(n, dt, ndim, shape, strides);
}

static const airc_op *register_op(airc_context *ctx, const char *schema, airc_meta_fn meta,
                                  airc_kernel_fn kernel)
{
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = schema;
    def.meta = meta;
    const airc_op *op;
    AIRC_ASSERT_OK(airc_context_register_op(ctx, &def, &op));
    if (kernel)
        AIRC_ASSERT_OK(
            airc_context_set_op_kernel(ctx, airc_op_name(op), "cpu", kernel, NULL, NULL));
    return op;
}

static void register_demo_ops(airc_context *ctx)
{
    register_op(ctx, "demo::scale_(Tensor(a!) x, float alpha) -> ()", meta_nothing, scale_kernel);
    register_op(ctx, "demo::add_one_(Tensor(a!) x) -> Tensor(a!)", meta_like_arg0, add_one_kernel);
    register_op(ctx, "demo::axpy_(Tensor(a!) y, Tensor(b!) z, Tensor x, float alpha=1.) -> ()",
                meta_nothing, axpy_kernel);
}

static const airc_op *find_op(airc_context *ctx, const char *name)
{
    const airc_op *op;
    AIRC_ASSERT_OK(airc_context_find_op(ctx, name, &op));
    return op;
}

static const airc_op *twin_of(airc_context *ctx, const char *name)
{
    const airc_op *t = NULL;
    AIRC_ASSERT_OK(airc_op_functional_twin(ctx, find_op(ctx, name), &t));
    return t;
}

static void assert_schema(const airc_op *op, const char *want)
{
    char *text;
    assert_non_null(op);
    AIRC_ASSERT_OK(airc_schema_to_string(airc_op_schema(op), &text));
    assert_string_equal(text, want);
    airc_string_free(text);
}

/* ---- tensors and runs ------------------------------------------------------- */

static airc_tensor *make_f32(airc_context *ctx, int64_t r, int64_t c, float seed)
{
    airc_tensor *t;
    int64_t shape[2] = {r, c};
    AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_F32, 2, shape, &t));
    float *p = airc_tensor_data(t);
    for (int64_t i = 0; i < r * c; i++)
        p[i] = seed + 0.25f * (float)(i % 7) - 0.125f * (float)(i % 3);
    return t;
}

static void assert_same(const airc_tensor *a, const airc_tensor *b)
{
    assert_int_equal(airc_tensor_nbytes(a), airc_tensor_nbytes(b));
    const float *p = airc_tensor_data(a), *q = airc_tensor_data(b);
    for (size_t i = 0; i < airc_tensor_numel(a); i++)
        assert_true(fabsf(p[i] - q[i]) <= 1e-5f * (1.0f + fabsf(q[i])));
}

#define MAX_IO 4

/* Results and inputs (after the run) of one run of g on copies of in. */
typedef struct run_result {
    airc_tensor *out[MAX_IO];
    size_t nout;
    airc_tensor *in[MAX_IO];
    size_t nin;
} run_result;

static void run_free(run_result *r)
{
    for (size_t i = 0; i < r->nout; i++)
        airc_tensor_destroy(r->out[i]);
    for (size_t i = 0; i < r->nin; i++)
        airc_tensor_destroy(r->in[i]);
}

static run_result run_eager(airc_context *ctx, const airc_graph *g, airc_tensor *const *in,
                            size_t nin)
{
    run_result r = {.nin = nin};
    for (size_t i = 0; i < nin; i++)
        r.in[i] = airc_test_clone(ctx, in[i]);
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, r.in, nin, r.out, MAX_IO, &r.nout, NULL));
    return r;
}

static run_result run_compiled(airc_context *ctx, airc_compiled *c, airc_tensor *const *in,
                               size_t nin)
{
    run_result r = {.nin = nin};
    for (size_t i = 0; i < nin; i++)
        r.in[i] = airc_test_clone(ctx, in[i]);
    AIRC_ASSERT_OK(airc_compiled_run(c, r.in, nin, r.out, MAX_IO, &r.nout));
    return r;
}

static void assert_same_run(const run_result *a, const run_result *b)
{
    assert_int_equal(a->nout, b->nout);
    for (size_t i = 0; i < a->nout; i++)
        assert_same(a->out[i], b->out[i]);
    for (size_t i = 0; i < a->nin; i++) /* mutated inputs too */
        assert_same(a->in[i], b->in[i]);
}

static size_t count_target(const airc_graph *g, const char *target)
{
    size_t n = 0;
    for (airc_node *x = airc_graph_first_node(g); x; x = airc_node_next(x))
        n += airc_node_target(x) && !strcmp(airc_node_target(x), target);
    return n;
}

/* ---- graphs ------------------------------------------------------------------ */

/* clang-format off */
#define PH(name) "    %" name " : [#users=1] = placeholder[target=" name "]\n"
#define CF(name, target, args) "    %" name " : [#users=1] = call_function[target=torch.ops." target "](args = " args ", kwargs = {})\n"
#define GETITEM(name, of, i) "    %" name " : [#users=1] = call_function[target=operator.getitem](args = (%" of ", " i "), kwargs = {})\n"

/* scale_ and add_one_ on an intermediate, scale_ on graph input x, axpy_
 * writing two intermediates */
#define INPLACE_GRAPH "graph():\n" \
    PH("x") PH("y") \
    CF("mul", "aten.mul.Tensor", "(%x, %y)") \
    CF("scale_", "demo.scale_.default", "(%mul, 2.0)") \
    CF("add_one_", "demo.add_one_.default", "(%mul,)") \
    CF("scale__1", "demo.scale_.default", "(%x, 3.0)") \
    CF("add", "aten.add.Tensor", "(%add_one_, %x)") \
    CF("axpy_", "demo.axpy_.default", "(%add, %mul, %y, 0.5)") \
    CF("sub", "aten.sub.Tensor", "(%add, %mul)") \
    "    return (sub,)\n"

/* twins called directly where writing in place is unsafe: mul and x are
 * read after the twin that would write them */
#define UNSAFE_GRAPH "graph():\n" \
    PH("x") PH("y") \
    CF("mul", "aten.mul.Tensor", "(%x, %y)") \
    CF("s", "demo.scale_functional.default", "(%mul, 2.0)") \
    CF("add", "aten.add.Tensor", "(%s, %mul)") \
    CF("s2", "demo.scale_functional.default", "(%x, 3.0)") \
    CF("add_1", "aten.add.Tensor", "(%add, %x)") \
    CF("copy_", "aten.copy_.default", "(%x, %s2)") \
    "    return (add_1, s2)\n"

/* the twin kernels on a transposed (strided) view, inputs untouched */
#define TWIN_KERNELS "graph():\n" \
    PH("x") \
    CF("t", "aten.t.default", "(%x,)") \
    CF("s", "demo.scale_functional.default", "(%t, 2.0)") \
    CF("a", "demo.add_one_functional.default", "(%x,)") \
    CF("ax", "demo.axpy_functional.default", "(%a, %x, %x)") \
    GETITEM("g0", "ax", "0") \
    GETITEM("g1", "ax", "1") \
    "    return (s, a, g0, g1)\n"
/* clang-format on */

/* ---- the twin ------------------------------------------------------------------ */

static void test_twin_synthesized(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    register_demo_ops(ctx);
    size_t nops = airc_context_num_ops(ctx);
    const airc_op *scale = find_op(ctx, "demo.scale_.default");
    const airc_op *t = twin_of(ctx, "demo.scale_.default");
    assert_string_equal(airc_op_name(t), "demo.scale_functional.default");
    assert_schema(t, "demo::scale_functional(Tensor x, float alpha) -> Tensor");
    assert_ptr_equal(airc_op_inplace_origin(t), scale);
    assert_null(airc_op_inplace_origin(scale));
    assert_int_equal(airc_op_flags(t), 0); /* pure */
    assert_true(airc_op_has_meta(t));
    /* made once: a second request gets the same op, found by name too */
    assert_ptr_equal(twin_of(ctx, "demo.scale_.default"), t);
    assert_ptr_equal(find_op(ctx, "demo::scale_functional"), t);
    assert_int_equal(airc_context_num_ops(ctx), nops + 1);
    /* a twin has no twin */
    const airc_op *none = (const airc_op *)1;
    AIRC_ASSERT_OK(airc_op_functional_twin(ctx, t, &none));
    assert_null(none);

    /* form A; two written arguments (defaults kept, aliases dropped) */
    assert_schema(twin_of(ctx, "demo.add_one_.default"),
                  "demo::add_one_functional(Tensor x) -> Tensor");
    assert_schema(twin_of(ctx, "demo.axpy_.default"),
                  "demo::axpy_functional(Tensor y, Tensor z, Tensor x, float alpha=1.) -> "
                  "(Tensor, Tensor)");

    /* a registered twin wins (name_ -> name); built-ins keep theirs */
    register_op(ctx, "demo::bump_(Tensor(a!) x) -> ()", meta_nothing, NULL);
    const airc_op *bump = register_op(ctx, "demo::bump(Tensor x) -> Tensor", NULL, NULL);
    assert_ptr_equal(twin_of(ctx, "demo.bump_.default"), bump);
    assert_null(airc_op_inplace_origin(bump));
    assert_string_equal(airc_op_name(twin_of(ctx, "aten.add_.Tensor")), "aten.add.Tensor");
    assert_null(twin_of(ctx, "aten.add.Tensor")); /* writes nothing */
    /* neither form: a fresh result, a written list */
    register_op(ctx, "demo::odd_(Tensor(a!) x) -> Tensor", NULL, NULL);
    assert_null(twin_of(ctx, "demo.odd_.default"));
    register_op(ctx, "demo::many_(Tensor(a!)[] xs) -> ()", NULL, NULL);
    assert_null(twin_of(ctx, "demo.many_.default"));
    /* the synthesized name taken by an op that does not fit: no twin */
    register_op(ctx, "demo::clash_(Tensor(a!) x) -> ()", meta_nothing, NULL);
    register_op(ctx, "demo::clash_functional(int x) -> Tensor", NULL, NULL);
    assert_null(twin_of(ctx, "demo.clash_.default"));
    airc_context_destroy(ctx);
}

/* Making a twin under allocation failure: out-of-memory or the twin, and
 * after a failure a later request makes it; nothing leaks. */
static void test_twin_oom(void **state)
{
    (void)state;
    bool done = false;
    for (size_t k = 1; !done && k < 500; k++) {
        airc_test_alloc ta;
        airc_allocator al;
        airc_test_alloc_init(&ta, &al);
        airc_context *ctx;
        AIRC_ASSERT_OK(airc_context_create(&al, &ctx));
        register_demo_ops(ctx);
        const airc_op *op = find_op(ctx, "demo.axpy_.default"), *t = NULL;
        size_t nops = airc_context_num_ops(ctx);
        ta.fail_at = ta.count + k;
        airc_status st = airc_op_functional_twin(ctx, op, &t);
        ta.fail_at = 0;
        if (st == AIRC_OK) {
            done = true;
        } else {
            assert_int_equal(st, AIRC_E_OUT_OF_MEMORY);
            assert_int_equal(airc_context_num_ops(ctx), nops);
            AIRC_ASSERT_OK(airc_op_functional_twin(ctx, op, &t));
        }
        assert_non_null(t);
        assert_ptr_equal(airc_op_inplace_origin(t), op);
        airc_context_destroy(ctx);
        assert_int_equal(ta.live, 0);
    }
    assert_true(done);
}

/* The twins' kernels compute the new values into fresh outputs (strided
 * input included) and leave their inputs alone. */
static void test_twin_kernels(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    register_demo_ops(ctx);
    twin_of(ctx, "demo.scale_.default");
    twin_of(ctx, "demo.add_one_.default");
    twin_of(ctx, "demo.axpy_.default");
    airc_graph *g = airc_test_parse(ctx, TWIN_KERNELS);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    airc_tensor *x = make_f32(ctx, 3, 4, 0.5f);
    airc_tensor *x0 = airc_test_clone(ctx, x);
    atomic_store(&g_scale_calls, 0);
    run_result r = run_eager(ctx, g, &x, 1);
    assert_int_equal(atomic_load(&g_scale_calls), 1); /* the in-place kernel did the work */
    assert_int_equal(r.nout, 4);
    const float *px = airc_tensor_data(x0);
    const float *s = airc_tensor_data(r.out[0]), *a = airc_tensor_data(r.out[1]);
    const float *g0 = airc_tensor_data(r.out[2]), *g1 = airc_tensor_data(r.out[3]);
    assert_int_equal(airc_tensor_shape(r.out[0])[0], 4);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) {
            float v = px[i * 4 + j];
            assert_true(fabsf(s[j * 3 + i] - 2.0f * v) <= 1e-6f); /* 2 * x.t() */
            assert_true(fabsf(a[i * 4 + j] - (v + 1.0f)) <= 1e-6f);
            assert_true(fabsf(g0[i * 4 + j] - (v + 1.0f + v)) <= 1e-6f); /* a + 1 * x */
            assert_true(fabsf(g1[i * 4 + j]) <= 1e-6f);                  /* x - x */
        }
    assert_memory_equal(airc_tensor_data(r.in[0]), px, airc_tensor_nbytes(x0));
    run_free(&r);
    airc_tensor_destroy(x);
    airc_tensor_destroy(x0);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* ---- functionalize ---------------------------------------------------------- */

static void test_functionalize(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    register_demo_ops(ctx);
    airc_graph *g = airc_test_parse(ctx, INPLACE_GRAPH);
    airc_graph *f;
    AIRC_ASSERT_OK(airc_graph_clone(g, &f));
    int32_t changed = 0;
    AIRC_ASSERT_OK(airc_pass_functionalize(f, &changed));
    assert_int_equal(changed, 1);
    AIRC_ASSERT_OK(airc_graph_lint(f));
    assert_int_equal(count_target(f, "demo.scale_.default"), 0);
    assert_int_equal(count_target(f, "demo.add_one_.default"), 0);
    assert_int_equal(count_target(f, "demo.axpy_.default"), 0);
    assert_int_equal(count_target(f, "demo.scale_functional.default"), 2);
    assert_int_equal(count_target(f, "demo.add_one_functional.default"), 1);
    assert_int_equal(count_target(f, "demo.axpy_functional.default"), 1);
    assert_int_equal(count_target(f, "operator.getitem"), 2);
    /* x is written back once, with scale_functional_1's value */
    airc_node *copy = airc_graph_find_node(f, "copy_");
    assert_non_null(copy);
    assert_string_equal(airc_node_target(copy), "aten.copy_.default");
    airc_node *p, *v;
    AIRC_ASSERT_OK(airc_value_get_node(airc_node_arg(copy, 0), &p));
    AIRC_ASSERT_OK(airc_value_get_node(airc_node_arg(copy, 1), &v));
    assert_string_equal(airc_node_name(p), "x");
    assert_string_equal(airc_node_target(v), "demo.scale_functional.default");
    assert_ptr_equal(airc_op_inplace_origin(airc_node_op(v)), find_op(ctx, "demo.scale_.default"));
    /* the same results, and the same x afterwards */
    airc_tensor *in[2] = {make_f32(ctx, 3, 4, 0.5f), make_f32(ctx, 3, 4, -1.0f)};
    run_result a = run_eager(ctx, g, in, 2), b = run_eager(ctx, f, in, 2);
    assert_same_run(&a, &b);
    assert_false(!memcmp(airc_tensor_data(a.in[0]), airc_tensor_data(in[0]),
                         airc_tensor_nbytes(in[0]))); /* x was written: 3 * x */
    run_free(&a);
    run_free(&b);
    /* idempotent */
    AIRC_ASSERT_OK(airc_pass_functionalize(f, &changed));
    assert_int_equal(changed, 0);
    airc_tensor_destroy(in[0]);
    airc_tensor_destroy(in[1]);
    airc_graph_destroy(f);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* ---- reinplace -------------------------------------------------------------- */

/* g's placeholders get f32[3, 4], meta is propagated. */
static void set_meta(airc_graph *g)
{
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n))
        if (airc_node_get_kind(n) == AIRC_NODE_PLACEHOLDER)
            AIRC_ASSERT_OK(airc_node_set_meta(n, AIRC_DTYPE_F32, 2, (int64_t[]){3, 4}, NULL));
    AIRC_ASSERT_OK(airc_graph_propagate_meta(g));
}

static void test_reinplace_pass(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    register_demo_ops(ctx);
    airc_graph *g = airc_test_parse(ctx, INPLACE_GRAPH);
    AIRC_ASSERT_OK(airc_pass_functionalize(g, NULL));
    set_meta(g);
    airc_graph *h;
    AIRC_ASSERT_OK(airc_graph_clone(g, &h));
    int32_t changed = 0;
    AIRC_ASSERT_OK(airc_replay_reinplace(h, NULL, &changed));
    AIRC_ASSERT_OK(airc_graph_lint(h));
    /* all four twins back in place (x: its write-back goes), and sub
     * writes into axpy's first result (rule 1) */
    assert_int_equal(changed, 5);
    assert_int_equal(count_target(h, "demo.scale_.default"), 2);
    assert_int_equal(count_target(h, "demo.add_one_.default"), 1);
    assert_int_equal(count_target(h, "demo.axpy_.default"), 1);
    assert_int_equal(count_target(h, "demo.scale_functional.default"), 0);
    assert_int_equal(count_target(h, "operator.getitem"), 0);
    assert_int_equal(count_target(h, "aten.copy_.default"), 0);
    assert_int_equal(count_target(h, "aten.sub_.Tensor"), 1);
    for (airc_node *n = airc_graph_first_node(h); n; n = airc_node_next(n))
        if (!strcmp(airc_node_target(n), "demo.scale_.default")) {
            assert_int_equal(airc_node_num_users(n), 0); /* form B: its result is () */
            assert_int_equal(airc_node_meta_kind(n), AIRC_META_TUPLE);
            assert_int_equal(airc_node_num_outputs(n), 0);
        }
    airc_tensor *in[2] = {make_f32(ctx, 3, 4, 0.5f), make_f32(ctx, 3, 4, -1.0f)};
    run_result a = run_eager(ctx, g, in, 2), b = run_eager(ctx, h, in, 2);
    assert_same_run(&a, &b);
    run_free(&a);
    run_free(&b);
    airc_graph_destroy(h);

    /* unsafe: nothing of the twins changes (rule 1 still applies to the
     * adds, which write into fresh results) */
    twin_of(ctx, "demo.scale_.default");
    airc_graph *u = airc_test_parse(ctx, UNSAFE_GRAPH);
    set_meta(u);
    AIRC_ASSERT_OK(airc_graph_clone(u, &h));
    AIRC_ASSERT_OK(airc_replay_reinplace(h, NULL, &changed));
    AIRC_ASSERT_OK(airc_graph_lint(h));
    assert_int_equal(count_target(h, "demo.scale_functional.default"), 2);
    assert_int_equal(count_target(h, "demo.scale_.default"), 0);
    assert_int_equal(count_target(h, "aten.copy_.default"), 1);
    a = run_eager(ctx, u, in, 2);
    b = run_eager(ctx, h, in, 2);
    assert_same_run(&a, &b);
    run_free(&a);
    run_free(&b);
    /* with the later read of x gone, rule 2's equivalent applies */
    airc_node *add1 = airc_graph_find_node(u, "add_1");
    AIRC_ASSERT_OK(airc_node_replace_input_with(add1, airc_graph_find_node(u, "x"),
                                                airc_graph_find_node(u, "y")));
    airc_graph_destroy(h);
    AIRC_ASSERT_OK(airc_graph_clone(u, &h));
    AIRC_ASSERT_OK(airc_replay_reinplace(h, NULL, &changed));
    assert_int_equal(count_target(h, "demo.scale_functional.default"), 1);
    assert_int_equal(count_target(h, "demo.scale_.default"), 1);
    assert_int_equal(count_target(h, "aten.copy_.default"), 0);
    a = run_eager(ctx, u, in, 2);
    b = run_eager(ctx, h, in, 2);
    assert_same_run(&a, &b);
    run_free(&a);
    run_free(&b);
    airc_graph_destroy(h);
    airc_graph_destroy(u);
    airc_tensor_destroy(in[0]);
    airc_tensor_destroy(in[1]);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* Rule 3 is all or nothing under allocation failure: the graph prints as
 * before, and everything is freed with the context. */
static void test_reinplace_oom(void **state)
{
    (void)state;
    bool done = false;
    for (size_t k = 1; !done && k < 2000; k++) {
        airc_test_alloc ta;
        airc_allocator al;
        airc_test_alloc_init(&ta, &al);
        airc_context *ctx;
        AIRC_ASSERT_OK(airc_context_create(&al, &ctx));
        register_demo_ops(ctx);
        airc_graph *g = airc_test_parse(ctx, INPLACE_GRAPH);
        AIRC_ASSERT_OK(airc_pass_functionalize(g, NULL));
        set_meta(g);
        /* the ops rules 1-2 look up load into the context once: not a leak */
        AIRC_ASSERT_OK(airc_replay_reinplace(g, &(airc_reinplace_options){false, false, NULL}, NULL));
        const airc_op *op;
        AIRC_ASSERT_OK(airc_context_find_op(ctx, "aten.sub_.Tensor", &op));
        AIRC_ASSERT_OK(airc_context_find_op(ctx, "aten.mul_.Tensor", &op));
        AIRC_ASSERT_OK(airc_context_find_op(ctx, "aten.add_.Tensor", &op));
        char *before = airc_test_print(g, AIRC_PRINT_TYPES);
        ta.fail_at = ta.count + k;
        int32_t changed = -1;
        airc_status st = airc_replay_reinplace(g, NULL, &changed);
        ta.fail_at = 0;
        if (st == AIRC_OK) {
            assert_int_equal(changed, 5);
            done = true;
        } else {
            assert_int_equal(st, AIRC_E_OUT_OF_MEMORY);
            assert_int_equal(changed, -1);
            AIRC_ASSERT_OK(airc_graph_lint(g));
            char *after = airc_test_print(g, AIRC_PRINT_TYPES);
            assert_string_equal(before, after);
            free(after);
        }
        free(before);
        airc_graph_destroy(g);
        airc_context_destroy(ctx);
        assert_int_equal(ta.live, 0);
    }
    assert_true(done);
}

/* ---- compile in reduce-overhead ------------------------------------------------ */

/* dump_dir: where debug.graph_dump.type=txt writes the captured graph
 * (after reinplace), or NULL. */
static airc_compiled *compile_with(const airc_graph *g, bool reinplace, const char *dump_dir)
{
    airc_config *cfg;
    AIRC_ASSERT_OK(airc_config_create(airc_graph_context(g), &cfg));
    AIRC_ASSERT_OK(airc_config_set(cfg, "mode", "reduce-overhead"));
    if (dump_dir) {
        AIRC_ASSERT_OK(airc_config_set(cfg, "debug.graph_dump.type", "txt"));
        AIRC_ASSERT_OK(airc_config_set(cfg, "debug.graph_dump.path", dump_dir));
    }
    if (!reinplace) {
        AIRC_ASSERT_OK(
            airc_config_set(cfg, "debug.aclgraph.disable_reinplace_inplaceable_ops_pass", "1"));
        AIRC_ASSERT_OK(
            airc_config_set(cfg, "debug.aclgraph.disable_reinplace_input_mutated_ops_pass", "1"));
    }
    airc_compile_options o;
    airc_compile_options_init(&o);
    o.config = cfg;
    airc_compiled *c;
    AIRC_ASSERT_OK(airc_compile(g, &o, &c));
    airc_config_destroy(cfg);
    return c;
}

static uint64_t naive_bytes(const airc_compiled *c)
{
    airc_compiled_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    AIRC_ASSERT_OK(airc_compiled_get_stats(c, &s));
    return s.naive_bytes;
}

/* The captured graph's text, as dumped by the first capture. */
static char *read_dump(const char *dir)
{
    char path[512];
    char *text = NULL;
    for (int i = 0; i < 8; i++) { /* a new address of mutated x captures anew */
        snprintf(path, sizeof path, "%s/airc_reduce_overhead_capture_%d.txt", dir, i);
        char *t = airc_test_read_file(path, NULL);
        if (t && !text)
            text = t;
        else
            free(t);
        remove(path);
    }
    if (!text)
        fail_msg("no capture dump in %s", dir);
    return text;
}

/* Compiled with reinplace on and off: both give eager's results (mutated
 * input included), on capture and on replay; with it on, the captured
 * graph calls `in_place` (the in-place op) and not `twin`, or the reverse
 * when `fewer_buffers` is false (unsafe). */
static void check_compiled(airc_context *ctx, const char *text, bool fewer_buffers,
                           const char *in_place, const char *twin)
{
    char dir[] = "/tmp/airc_custom_inplace_XXXXXX";
    assert_non_null(mkdtemp(dir));
    airc_graph *g = airc_test_parse(ctx, text);
    airc_compiled *on = compile_with(g, true, dir), *off = compile_with(g, false, NULL);
    airc_tensor *in[2] = {make_f32(ctx, 3, 4, 0.5f), make_f32(ctx, 3, 4, -1.0f)};
    run_result e = run_eager(ctx, g, in, 2);
    for (int rep = 0; rep < 2; rep++) { /* capture, then replay */
        run_result a = run_compiled(ctx, on, in, 2), b = run_compiled(ctx, off, in, 2);
        assert_same_run(&a, &e);
        assert_same_run(&b, &e);
        run_free(&a);
        run_free(&b);
    }
    char *dump = read_dump(dir);
    if (fewer_buffers) {
        assert_true(naive_bytes(on) < naive_bytes(off));
        assert_non_null(strstr(dump, in_place));
        assert_null(strstr(dump, twin));
    } else {
        assert_true(naive_bytes(on) <= naive_bytes(off));
        assert_null(strstr(dump, in_place));
        assert_non_null(strstr(dump, twin));
    }
    free(dump);
    rmdir(dir);
    run_free(&e);
    airc_tensor_destroy(in[0]);
    airc_tensor_destroy(in[1]);
    airc_compiled_destroy(on);
    airc_compiled_destroy(off);
    airc_graph_destroy(g);
}

static void test_reduce_overhead(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    register_demo_ops(ctx);
    check_compiled(ctx, INPLACE_GRAPH, true, "demo.scale_.default",
                   "demo.scale_functional.default");
    twin_of(ctx, "demo.scale_.default");
    check_compiled(ctx, UNSAFE_GRAPH, false, "demo.scale_.default",
                   "demo.scale_functional.default");
    airc_context_destroy(ctx);
}

/* ---- concurrency ---------------------------------------------------------------- */

typedef struct race {
    airc_context *ctx;
    const airc_op *op;
    pthread_barrier_t *barrier;
    const airc_op *twin;
    airc_status st;
} race;

static void *ask_twin(void *arg)
{
    race *r = arg;
    pthread_barrier_wait(r->barrier);
    r->st = airc_op_functional_twin(r->ctx, r->op, &r->twin);
    return NULL;
}

static void test_concurrent_requests(void **state)
{
    (void)state;
    for (int iter = 0; iter < 50; iter++) {
        airc_context *ctx;
        AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
        register_demo_ops(ctx);
        size_t nops = airc_context_num_ops(ctx);
        pthread_barrier_t b;
        assert_int_equal(pthread_barrier_init(&b, NULL, 2), 0);
        race r[2];
        pthread_t th[2];
        for (int i = 0; i < 2; i++) {
            r[i] = (race){ctx, find_op(ctx, "demo.axpy_.default"), &b, NULL, AIRC_E_INTERNAL};
            assert_int_equal(pthread_create(&th[i], NULL, ask_twin, &r[i]), 0);
        }
        for (int i = 0; i < 2; i++)
            pthread_join(th[i], NULL);
        pthread_barrier_destroy(&b);
        AIRC_ASSERT_OK(r[0].st);
        AIRC_ASSERT_OK(r[1].st);
        assert_non_null(r[0].twin);
        assert_ptr_equal(r[0].twin, r[1].twin);
        assert_int_equal(airc_context_num_ops(ctx), nops + 1);
        assert_non_null(r[0].twin->kernels); /* published whole */
        airc_context_destroy(ctx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_twin_synthesized), cmocka_unit_test(test_twin_oom),
        cmocka_unit_test(test_twin_kernels),     cmocka_unit_test(test_functionalize),
        cmocka_unit_test(test_reinplace_pass),   cmocka_unit_test(test_reinplace_oom),
        cmocka_unit_test(test_reduce_overhead),  cmocka_unit_test(test_concurrent_requests),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
