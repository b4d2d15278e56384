/* The reinplace backend pass (backends/replay/reinplace.c): each rule of
 * reinplace.h once on a graph where it applies and once on a graph where
 * exactly that condition fails; the input-mutation rule on and off, after
 * the real functionalize pass; eager results before and after equal on
 * random inputs; all or nothing under allocation failure. */
#include "testutil.h"

#include "backends/replay/reinplace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Graph texts, one node a line (the parser recomputes #users). */
/* clang-format off */
#define PH(name) "    %" name " : [#users=1] = placeholder[target=" name "]\n"
#define CF(name, op, args) "    %" name " : [#users=1] = call_function[target=torch.ops.aten." op "](args = " args ", kwargs = {})\n"
#define SE(label) "    %se : [#users=0] = call_function[target=torch.ops.air.scope_enter.default](args = ([_user_stream_label], [" label "]), kwargs = {})\n"
#define SX "    %sx : [#users=0] = call_function[target=torch.ops.air.scope_exit.default](args = (), kwargs = {})\n"
#define GETITEM(name, of, i) "    %" name " : [#users=1] = call_function[target=operator.getitem](args = (%" of ", " i "), kwargs = {})\n"

#define MM_ADD_RELU "graph():\n" \
    PH("a") PH("b") PH("c") \
    CF("mm", "mm.default", "(%a, %b)") \
    CF("add", "add.Tensor", "(%mm, %c)") \
    CF("relu", "relu.default", "(%add,)") \
    "    return relu\n"
#define ADD_INPUTS "graph():\n" \
    PH("x") PH("y") \
    CF("add", "add.Tensor", "(%x, %y)") \
    CF("relu", "relu.default", "(%add,)") \
    "    return relu\n"
#define CHAIN "graph():\n" \
    PH("x") PH("w") PH("y") \
    CF("mm", "mm.default", "(%x, %w)") \
    CF("relu", "relu.default", "(%mm,)") \
    CF("tanh", "tanh.default", "(%relu,)") \
    CF("mul", "mul.Tensor", "(%tanh, 2)") \
    CF("add", "add.Tensor", "(%mul, %y)") \
    CF("sub", "sub.Tensor", "(%add, %mul)") \
    "    return sub\n"
#define LATER_USE "graph():\n" \
    PH("a") PH("b") PH("c") \
    CF("mm", "mm.default", "(%a, %b)") \
    CF("add", "add.Tensor", "(%mm, %c)") \
    CF("mul", "mul.Tensor", "(%mm, 2)") \
    "    return (add, mul)\n"
#define VIEW_USER "graph():\n" \
    PH("a") PH("b") PH("c") \
    CF("mm", "mm.default", "(%a, %b)") \
    CF("t", "t.default", "(%mm,)") \
    CF("sum_1", "sum.default", "(%t,)") \
    CF("add", "add.Tensor", "(%mm, %c)") \
    "    return (add, sum_1)\n"
#define VIEW_SELF "graph():\n" \
    PH("a") PH("b") \
    CF("mm", "mm.default", "(%a, %b)") \
    CF("t", "t.default", "(%mm,)") \
    CF("relu", "relu.default", "(%t,)") \
    "    return relu\n"
#define MM_ADD "graph():\n" \
    PH("a") PH("b") PH("c") \
    CF("mm", "mm.default", "(%a, %b)") \
    CF("add", "add.Tensor", "(%mm, %c)") \
    "    return add\n"
#define PROMOTE "graph():\n" \
    PH("i") \
    CF("abs_1", "abs.default", "(%i,)") \
    CF("mul", "mul.Tensor", "(%abs_1, 0.5)") \
    "    return mul\n"
#define OUTPUT_READS "graph():\n" \
    PH("a") PH("b") PH("c") \
    CF("mm", "mm.default", "(%a, %b)") \
    CF("add", "add.Tensor", "(%mm, %c)") \
    "    return (add, mm)\n"
#define CROSS_STREAM "graph():\n" \
    PH("a") PH("b") PH("c") \
    SE("stream_1") \
    CF("mm", "mm.default", "(%a, %b)") \
    SX \
    CF("add", "add.Tensor", "(%mm, %c)") \
    "    return add\n"
#define SAME_SIDE_STREAM "graph():\n" \
    PH("a") PH("b") PH("c") \
    SE("stream_1") \
    CF("mm", "mm.default", "(%a, %b)") \
    CF("add", "add.Tensor", "(%mm, %c)") \
    SX \
    "    return add\n"
#define READER_ON_SIDE_STREAM "graph():\n" \
    PH("a") PH("b") PH("c") \
    CF("mm", "mm.default", "(%a, %b)") \
    SE("stream_1") \
    CF("neg", "neg.default", "(%mm,)") \
    SX \
    CF("add", "add.Tensor", "(%mm, %c)") \
    "    return (add, neg)\n"
#define TUPLE_GETITEM "graph():\n" \
    PH("x") \
    CF("max_1", "max.dim", "(%x, 1, True)") \
    GETITEM("getitem", "max_1", "0") \
    CF("relu", "relu.default", "(%getitem,)") \
    CF("mm", "mm.default", "(%relu, %relu)") \
    "    return mm\n"
/* functionalize's output for tests/data/passes/functionalize/mutate_two_inputs */
#define MUTATE_TWO "graph():\n" \
    PH("x_1") PH("y_1") \
    CF("sub", "sub.Tensor", "(%y_1, %x_1)") \
    CF("neg", "neg.default", "(%x_1,)") \
    CF("add", "add.Tensor", "(%neg, %sub)") \
    CF("copy_", "copy_.default", "(%x_1, %neg)") \
    CF("copy__1", "copy_.default", "(%y_1, %sub)") \
    "    return add\n"
#define INPUT_READ_AFTER "graph():\n" \
    PH("x") \
    CF("add", "add.Tensor", "(%x, 1)") \
    CF("mul", "mul.Tensor", "(%x, 2)") \
    CF("copy_", "copy_.default", "(%x, %add)") \
    "    return (add, mul)\n"
#define INPUT_VIEWED "graph():\n" \
    PH("x") \
    CF("t", "t.default", "(%x,)") \
    CF("add", "add.Tensor", "(%x, 1)") \
    CF("copy_", "copy_.default", "(%x, %add)") \
    "    return (add, t)\n"
#define INPUT_OTHER_STREAM "graph():\n" \
    PH("x") \
    SE("stream_1") \
    CF("add", "add.Tensor", "(%x, 1)") \
    SX \
    CF("copy_", "copy_.default", "(%x, %add)") \
    "    return add\n"
#define INPUT_PROMOTED "graph():\n" \
    PH("x") PH("y") \
    CF("add", "add.Tensor", "(%x, %y)") \
    CF("copy_", "copy_.default", "(%x, %add)") \
    "    return add\n"
#define RESULT_READ_AFTER_COPY "graph():\n" \
    PH("x") \
    CF("add", "add.Tensor", "(%x, 1)") \
    CF("copy_", "copy_.default", "(%x, %add)") \
    CF("mul", "mul.Tensor", "(%add, 2)") \
    "    return mul\n"
/* tests/data/passes/functionalize/intermediate_and_input.before.fx */
#define INTERMEDIATE_AND_INPUT "graph():\n" \
    PH("x_1") PH("y_1") \
    CF("mm", "mm.default", "(%x_1, %y_1)") \
    CF("add_", "add_.Tensor", "(%mm, 1)") \
    CF("relu_", "relu_.default", "(%add_,)") \
    CF("mul_", "mul_.Tensor", "(%x_1, 2)") \
    CF("add", "add.Tensor", "(%relu_, %mul_)") \
    "    return add\n"
#define UNPAIRED "graph():\n" \
    PH("x") \
    SE("s") \
    CF("relu", "relu.default", "(%x,)") \
    "    return relu\n"
/* clang-format on */

typedef struct fixture {
    airc_context *ctx;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    AIRC_ASSERT_OK(airc_context_create(NULL, &f->ctx));
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    airc_context_destroy(f->ctx);
    free(f);
    return 0;
}

/* A placeholder's meta: name, dtype, shape (ndim 0..2). */
typedef struct ph_meta {
    const char *name;
    airc_dtype dtype;
    int32_t ndim;
    int64_t shape[2];
} ph_meta;

/* Parses text (whose #users counts are recomputed by the parser), gives
 * every placeholder f32[4, 4] unless `metas` says otherwise, propagates
 * meta and lints: the state the pass expects. */
static airc_graph *prepare(airc_context *ctx, const char *text, const ph_meta *metas, size_t nm)
{
    airc_graph *g = airc_test_parse(ctx, text);
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n)) {
        if (airc_node_get_kind(n) != AIRC_NODE_PLACEHOLDER)
            continue;
        ph_meta m = {NULL, AIRC_DTYPE_F32, 2, {4, 4}};
        for (size_t j = 0; j < nm; j++)
            if (!strcmp(metas[j].name, airc_node_name(n)))
                m = metas[j];
        AIRC_ASSERT_OK(airc_node_set_meta(n, m.dtype, m.ndim, m.shape, NULL));
    }
    AIRC_ASSERT_OK(airc_graph_propagate_meta(g));
    AIRC_ASSERT_OK(airc_graph_lint(g));
    return g;
}

static const char *target_of(const airc_graph *g, const char *name)
{
    airc_node *n = airc_graph_find_node(g, name);
    assert_non_null(n);
    return airc_node_target(n);
}

static int32_t run_pass(airc_graph *g, bool inplaceable, bool input_mutated)
{
    airc_reinplace_options o = {inplaceable, input_mutated, NULL};
    int32_t changed = -1;
    AIRC_ASSERT_OK(airc_replay_reinplace(g, &o, &changed));
    AIRC_ASSERT_OK(airc_graph_lint(g));
    return changed;
}

/* The pass leaves g exactly as it was (printed text compared). */
static void expect_unchanged(airc_graph *g, bool inplaceable, bool input_mutated)
{
    char *before = airc_test_print(g, AIRC_PRINT_TYPES);
    assert_int_equal(run_pass(g, inplaceable, input_mutated), 0);
    char *after = airc_test_print(g, AIRC_PRINT_TYPES);
    assert_string_equal(before, after);
    free(before);
    free(after);
}

/* ---- eager equivalence ------------------------------------------------- */

static uint32_t g_rng = 12345;

static float rnd(void)
{
    g_rng = g_rng * 1664525u + 1013904223u;
    return (float)((g_rng >> 8) & 0xffff) / 32768.0f - 1.0f;
}

#define MAX_IO 8

/* Runs g and its reinplaced clone eagerly on the same random f32 inputs
 * (fresh copies for each run, since a graph may write its inputs) and
 * asserts bit-identical outputs and inputs afterwards. Returns the pass's
 * change count. */
static int32_t expect_same_eager(airc_context *ctx, const airc_graph *g)
{
    airc_graph *h;
    AIRC_ASSERT_OK(airc_graph_clone(g, &h));
    int32_t changed = run_pass(h, true, true);
    airc_tensor *in[2][MAX_IO];
    size_t nin = 0;
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n)) {
        if (airc_node_get_kind(n) != AIRC_NODE_PLACEHOLDER)
            continue;
        assert_true(nin < MAX_IO);
        airc_dtype dt;
        int32_t ndim;
        const int64_t *shape;
        AIRC_ASSERT_OK(airc_node_output_meta(n, 0, &dt, &ndim, &shape, NULL));
        assert_int_equal(dt, AIRC_DTYPE_F32);
        for (int k = 0; k < 2; k++)
            AIRC_ASSERT_OK(airc_tensor_create(ctx, dt, ndim, shape, &in[k][nin]));
        float *a = airc_tensor_data(in[0][nin]), *b = airc_tensor_data(in[1][nin]);
        for (size_t e = 0; e < airc_tensor_numel(in[0][nin]); e++)
            a[e] = b[e] = rnd();
        nin++;
    }
    airc_tensor *out[2][MAX_IO];
    size_t nout[2];
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, in[0], nin, out[0], MAX_IO, &nout[0], NULL));
    AIRC_ASSERT_OK(airc_run_eager(h, NULL, in[1], nin, out[1], MAX_IO, &nout[1], NULL));
    assert_int_equal(nout[0], nout[1]);
    for (size_t i = 0; i < nout[0]; i++) {
        assert_int_equal(airc_tensor_nbytes(out[0][i]), airc_tensor_nbytes(out[1][i]));
        assert_memory_equal(airc_tensor_data(out[0][i]), airc_tensor_data(out[1][i]),
                            airc_tensor_nbytes(out[0][i]));
        airc_tensor_destroy(out[0][i]);
        airc_tensor_destroy(out[1][i]);
    }
    for (size_t i = 0; i < nin; i++) { /* mutated inputs too */
        assert_memory_equal(airc_tensor_data(in[0][i]), airc_tensor_data(in[1][i]),
                            airc_tensor_nbytes(in[0][i]));
        airc_tensor_destroy(in[0][i]);
        airc_tensor_destroy(in[1][i]);
    }
    airc_graph_destroy(h);
    return changed;
}

/* ---- rule 1: inplaceable ops ------------------------------------------ */

/* add(mm(a, b), c) writes into mm's buffer, relu into add's (a chain). */
static void test_mm_add(void **state)
{
    fixture *f = *state;
    airc_graph *g = prepare(f->ctx, MM_ADD_RELU, NULL, 0);
    assert_int_equal(run_pass(g, true, true), 2);
    assert_string_equal(target_of(g, "mm"), "aten.mm.default");
    assert_string_equal(target_of(g, "add"), "aten.add_.Tensor");
    assert_string_equal(target_of(g, "relu"), "aten.relu_.default");
    airc_graph_destroy(g);
}

/* A placeholder is never written: add(x, y) stays; relu on add's result is
 * rewritten. */
static void test_graph_input(void **state)
{
    fixture *f = *state;
    airc_graph *g = prepare(f->ctx, ADD_INPUTS, NULL, 0);
    assert_int_equal(run_pass(g, true, true), 1);
    assert_string_equal(target_of(g, "add"), "aten.add.Tensor");
    assert_string_equal(target_of(g, "relu"), "aten.relu_.default");
    airc_graph_destroy(g);
}

/* A chain of elementwise ops: each writes into its predecessor, except
 * add, whose input mul is read again by sub (sub then writes into add). */
static void test_chain(void **state)
{
    fixture *f = *state;
    airc_graph *g = prepare(f->ctx, CHAIN, NULL, 0);
    assert_int_equal(run_pass(g, true, true), 4);
    assert_string_equal(target_of(g, "relu"), "aten.relu_.default");
    assert_string_equal(target_of(g, "tanh"), "aten.tanh_.default");
    assert_string_equal(target_of(g, "mul"), "aten.mul_.Tensor");
    assert_string_equal(target_of(g, "add"), "aten.add.Tensor");
    assert_string_equal(target_of(g, "sub"), "aten.sub_.Tensor");
    airc_graph_destroy(g);
}

/* X read after n: add(mm, c) stays, but mul(mm, 2), mm's last reader, is
 * rewritten (add comes before it). */
static void test_later_use(void **state)
{
    fixture *f = *state;
    airc_graph *g = prepare(f->ctx, LATER_USE, NULL, 0);
    assert_int_equal(run_pass(g, true, true), 1);
    assert_string_equal(target_of(g, "add"), "aten.add.Tensor");
    assert_string_equal(target_of(g, "mul"), "aten.mul_.Tensor");
    airc_graph_destroy(g);
}

/* A view of X exists (even one read before n): X's storage is shared. */
static void test_view_user(void **state)
{
    fixture *f = *state;
    airc_graph *g = prepare(f->ctx, VIEW_USER, NULL, 0);
    expect_unchanged(g, true, true);
    airc_graph_destroy(g);
}

/* X is itself a view: never written through. */
static void test_view_self(void **state)
{
    fixture *f = *state;
    airc_graph *g = prepare(f->ctx, VIEW_SELF, NULL, 0);
    expect_unchanged(g, true, true);
    airc_graph_destroy(g);
}

/* n's result is bigger than X (X broadcast): add(mm[4,1], c[4,4]). */
static void test_broadcast(void **state)
{
    fixture *f = *state;
    const ph_meta m[] = {{"a", AIRC_DTYPE_F32, 2, {4, 2}}, {"b", AIRC_DTYPE_F32, 2, {2, 1}}};
    airc_graph *g = prepare(f->ctx, MM_ADD, m, 2);
    expect_unchanged(g, true, true);
    airc_graph_destroy(g);
}

/* Type promotion: abs(i32) * 0.5 is f32. */
static void test_promotion(void **state)
{
    fixture *f = *state;
    const ph_meta m[] = {{"i", AIRC_DTYPE_I32, 2, {4, 4}}};
    airc_graph *g = prepare(f->ctx, PROMOTE, m, 1);
    expect_unchanged(g, true, true);
    airc_graph_destroy(g);
}

/* The output reads X. */
static void test_output_reads(void **state)
{
    fixture *f = *state;
    airc_graph *g = prepare(f->ctx, OUTPUT_READS, NULL, 0);
    expect_unchanged(g, true, true);
    airc_graph_destroy(g);
}

/* mm on stream_1 and add on the main stream: not reinplaced; both inside
 * the scope: reinplaced; a reader of X on another stream (before n): not
 * reinplaced. */
static void test_streams(void **state)
{
    fixture *f = *state;
    airc_graph *g = prepare(f->ctx, CROSS_STREAM, NULL, 0);
    expect_unchanged(g, true, true);
    airc_graph_destroy(g);

    g = prepare(f->ctx, SAME_SIDE_STREAM, NULL, 0);
    assert_int_equal(run_pass(g, true, true), 1);
    assert_string_equal(target_of(g, "add"), "aten.add_.Tensor");
    airc_graph_destroy(g);

    g = prepare(f->ctx, READER_ON_SIDE_STREAM, NULL, 0);
    expect_unchanged(g, true, true);
    airc_graph_destroy(g);
}

/* A getitem of a tuple op's result is a fresh buffer; an op without a twin
 * (mm, though its meta matches) and rule 1 switched off change nothing. */
static void test_getitem_and_options(void **state)
{
    fixture *f = *state;
    const ph_meta m[] = {{"x", AIRC_DTYPE_F32, 2, {1, 4}}}; /* getitem is [1, 1] */
    airc_graph *g = prepare(f->ctx, TUPLE_GETITEM, m, 1);
    expect_unchanged(g, false, true);
    assert_int_equal(run_pass(g, true, true), 1);
    assert_string_equal(target_of(g, "relu"), "aten.relu_.default");
    assert_string_equal(target_of(g, "mm"), "aten.mm.default");
    airc_graph_destroy(g);
}

/* The tuple's tensor is read elsewhere: returned whole by the output, or
 * taken again by another getitem of the same index. Then the getitem is no
 * intermediate to write into (fuzz_api: neg_ wrote the indices max.dim
 * returned). */
static void test_getitem_tuple_read(void **state)
{
    fixture *f = *state;
    static const char *const texts[] = {
        "graph():\n" PH(
            "x") "    %max_1 : [#users=2] = call_function[target=torch.ops.aten.max."
                 "dim](args = (%x, -1), kwargs = {})\n" GETITEM("getitem_1", "max_1", "1")
                     CF("neg", "neg.default", "(%getitem_1,)") "    return (neg, max_1)\n",
        "graph():\n" PH(
            "x") "    %max_1 : [#users=2] = call_function[target=torch.ops.aten.max."
                 "dim](args = (%x, -1), kwargs = {})\n" GETITEM("getitem_1", "max_1", "1")
                     GETITEM("getitem_2", "max_1", "1")
                         CF("neg", "neg.default", "(%getitem_1,)") "    return (neg, getitem_2)\n",
    };
    for (size_t i = 0; i < 2; i++) {
        airc_graph *g = prepare(f->ctx, texts[i], NULL, 0);
        expect_unchanged(g, true, true);
        airc_graph_destroy(g);
    }
}

/* ---- rule 2: input mutations ------------------------------------------- */

/* Both writes happen in place and the copies go (rule 2 off: nothing).
 * add stays out of place: its self neg is read by a copy_ after it (rule 1
 * sees the graph before the copies are erased). */
static void test_input_mutation(void **state)
{
    fixture *f = *state;
    airc_graph *g = prepare(f->ctx, MUTATE_TWO, NULL, 0);
    expect_unchanged(g, true, false);
    assert_int_equal(run_pass(g, true, true), 2);
    assert_string_equal(target_of(g, "sub"), "aten.sub_.Tensor");
    assert_string_equal(target_of(g, "neg"), "aten.neg_.default");
    assert_string_equal(target_of(g, "add"), "aten.add.Tensor");
    assert_null(airc_graph_find_node(g, "copy_"));
    assert_null(airc_graph_find_node(g, "copy__1"));
    airc_graph_destroy(g);
}

/* Negative cases of rule 2: the input read after r (by mul); a view of the
 * input; r on another stream than the copy_; r's dtype not the input's
 * (f64 for an f32 input: the copy_ would cast back); r read after the copy_
 * (then rule 1 writes into r instead, and the copy_ stays). */
static void test_input_mutation_negative(void **state)
{
    fixture *f = *state;
    static const char *const texts[] = {INPUT_READ_AFTER, INPUT_VIEWED, INPUT_OTHER_STREAM,
                                        INPUT_PROMOTED};
    const ph_meta m[] = {{"y", AIRC_DTYPE_F64, 2, {4, 4}}};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        print_message("case %zu\n", i);
        airc_graph *g = prepare(f->ctx, texts[i], m, 1);
        expect_unchanged(g, true, true);
        airc_graph_destroy(g);
    }
    airc_graph *g = prepare(f->ctx, RESULT_READ_AFTER_COPY, NULL, 0);
    assert_int_equal(run_pass(g, true, true), 1);
    assert_string_equal(target_of(g, "add"), "aten.add.Tensor");
    assert_string_equal(target_of(g, "mul"), "aten.mul_.Tensor");
    assert_non_null(airc_graph_find_node(g, "copy_"));
    airc_graph_destroy(g);
}

/* The real functionalize output of intermediate_and_input: every op it
 * made out of place goes back in place, the input's write-back included,
 * with the same eager results. */
static void test_after_functionalize(void **state)
{
    fixture *f = *state;
    airc_graph *g = airc_test_parse(f->ctx, INTERMEDIATE_AND_INPUT);
    int32_t fc = 0;
    AIRC_ASSERT_OK(airc_pass_functionalize(g, &fc));
    assert_true(fc > 0);
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n))
        if (airc_node_get_kind(n) == AIRC_NODE_PLACEHOLDER)
            AIRC_ASSERT_OK(airc_node_set_meta(n, AIRC_DTYPE_F32, 2, (int64_t[]){4, 4}, NULL));
    AIRC_ASSERT_OK(airc_graph_propagate_meta(g));
    assert_string_equal(target_of(g, "copy_"), "aten.copy_.default");
    assert_int_equal(expect_same_eager(f->ctx, g), 4);
    assert_int_equal(run_pass(g, true, true), 4);
    assert_string_equal(target_of(g, "add"), "aten.add_.Tensor");
    assert_string_equal(target_of(g, "relu"), "aten.relu_.default");
    assert_string_equal(target_of(g, "mul"), "aten.mul_.Tensor");
    assert_string_equal(target_of(g, "add_1"), "aten.add_.Tensor");
    assert_null(airc_graph_find_node(g, "copy_"));
    airc_graph_destroy(g);
}

/* ---- eager results ------------------------------------------------------ */

static void test_eager_same(void **state)
{
    fixture *f = *state;
    static const char *const texts[] = {MM_ADD_RELU, CHAIN, LATER_USE, MUTATE_TWO};
    const int32_t want[] = {2, 4, 1, 2};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        airc_graph *g = prepare(f->ctx, texts[i], NULL, 0);
        assert_int_equal(expect_same_eager(f->ctx, g), want[i]);
        airc_graph_destroy(g);
    }
}

/* ---- errors and allocation failure -------------------------------------- */

static void test_errors(void **state)
{
    fixture *f = *state;
    AIRC_EXPECT(airc_replay_reinplace(NULL, NULL, NULL), AIRC_E_MISUSE, "airc_replay_reinplace");
    airc_graph *g = airc_test_parse(f->ctx, UNPAIRED); /* lint would refuse it too */
    int32_t changed = 7;
    AIRC_EXPECT(airc_replay_reinplace(g, NULL, &changed), AIRC_E_INVALID_GRAPH, "scope_enter");
    assert_int_equal(changed, 7);
    airc_graph_destroy(g);
}

static void test_oom(void **state)
{
    (void)state;
    bool done = false;
    for (size_t k = 1; !done && k < 400; k++) {
        airc_test_alloc ta;
        airc_allocator al;
        airc_test_alloc_init(&ta, &al);
        airc_context *ctx;
        AIRC_ASSERT_OK(airc_context_create(&al, &ctx));
        airc_graph *g = prepare(ctx, MUTATE_TWO, NULL, 0);
        /* the twins load into the context once, on first use: not a leak */
        const airc_op *op;
        AIRC_ASSERT_OK(airc_context_find_op(ctx, "aten.sub_.Tensor", &op));
        AIRC_ASSERT_OK(airc_context_find_op(ctx, "aten.neg_.default", &op));
        char *before = airc_test_print(g, AIRC_PRINT_TYPES);
        long live = ta.live;
        ta.fail_at = ta.count + k;
        int32_t changed = -1;
        airc_status st = airc_replay_reinplace(g, NULL, &changed);
        ta.fail_at = 0;
        if (st == AIRC_OK) {
            assert_int_equal(changed, 2);
            done = true;
        } else {
            assert_int_equal(st, AIRC_E_OUT_OF_MEMORY);
            assert_int_equal(changed, -1);
            assert_int_equal(ta.live, live);
            char *after = airc_test_print(g, AIRC_PRINT_TYPES);
            assert_string_equal(before, after);
            free(after);
        }
        free(before);
        airc_graph_destroy(g);
        airc_context_destroy(ctx);
    }
    assert_true(done);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_mm_add, setup, teardown),
        cmocka_unit_test_setup_teardown(test_graph_input, setup, teardown),
        cmocka_unit_test_setup_teardown(test_chain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_later_use, setup, teardown),
        cmocka_unit_test_setup_teardown(test_view_user, setup, teardown),
        cmocka_unit_test_setup_teardown(test_view_self, setup, teardown),
        cmocka_unit_test_setup_teardown(test_broadcast, setup, teardown),
        cmocka_unit_test_setup_teardown(test_promotion, setup, teardown),
        cmocka_unit_test_setup_teardown(test_output_reads, setup, teardown),
        cmocka_unit_test_setup_teardown(test_streams, setup, teardown),
        cmocka_unit_test_setup_teardown(test_getitem_and_options, setup, teardown),
        cmocka_unit_test_setup_teardown(test_getitem_tuple_read, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_mutation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_mutation_negative, setup, teardown),
        cmocka_unit_test_setup_teardown(test_after_functionalize, setup, teardown),
        cmocka_unit_test_setup_teardown(test_eager_same, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_oom, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
