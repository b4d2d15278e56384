/* functionalize on writes through views and reads of views after writes.
 * The cases come from torch 1.13 (tests/gen_functionalize_cases.py,
 * VIEW_CASES): NAME.before.fx is the traced function, NAME.npz its inputs,
 * torch's eager results and the inputs after the call. airc's functional
 * graph must give the same values (results and writes to inputs) when run
 * eagerly; its order and names may differ from torch's own functional graph
 * (NAME.after.fx), which replays every view of the chain where airc reuses
 * the ones still up to date. */
#include "testcase.h"
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

#define MAXT 8

typedef struct arrays {
    airc_tensor *in[MAXT], *out[MAXT], *mut[MAXT];
    size_t nin, nout, nmut;
} arrays;

static airc_status take_array(void *ud, const char *name, airc_tensor *t)
{
    arrays *a = ud;
    airc_tensor **slot = NULL;
    size_t *n = NULL;
    if (!strncmp(name, "in", 2))
        slot = a->in, n = &a->nin;
    else if (!strncmp(name, "out", 3))
        slot = a->out, n = &a->nout;
    else if (!strncmp(name, "mut", 3))
        slot = a->mut, n = &a->nmut;
    size_t i = (size_t)atoi(name + (name[0] == 'i' ? 2 : 3));
    assert_non_null(slot);
    assert_true(i < MAXT);
    slot[i] = t;
    if (i + 1 > *n)
        *n = i + 1;
    return AIRC_OK;
}

static void free_arrays(arrays *a)
{
    for (size_t i = 0; i < MAXT; i++) {
        airc_tensor_destroy(a->in[i]);
        airc_tensor_destroy(a->out[i]);
        airc_tensor_destroy(a->mut[i]);
    }
}

static airc_tensor *copy_of(const airc_tensor *t)
{
    airc_tensor *c;
    AIRC_ASSERT_OK(airc_tensor_create(g_ctx, airc_tensor_dtype(t), airc_tensor_ndim(t),
                                      airc_tensor_shape(t), &c));
    memcpy(airc_tensor_data(c), airc_tensor_data(t), airc_tensor_nbytes(t));
    return c;
}

static void assert_close(const airc_tensor *got, const airc_tensor *want, const char *what,
                         size_t i)
{
    assert_int_equal(airc_tensor_dtype(got), AIRC_DTYPE_F32);
    assert_int_equal(airc_tensor_dtype(want), AIRC_DTYPE_F32);
    assert_int_equal(airc_tensor_ndim(got), airc_tensor_ndim(want));
    assert_int_equal(airc_tensor_numel(got), airc_tensor_numel(want));
    const float *a = airc_tensor_data(got), *b = airc_tensor_data(want);
    for (size_t k = 0; k < airc_tensor_numel(want); k++) {
        if (fabsf(a[k] - b[k]) > 1e-5f * (1 + fabsf(b[k])))
            print_error("%s, tensor %zu, element %zu: got %.7g, want %.7g\n", what, i, k, a[k],
                        b[k]);
        assert_true(fabsf(a[k] - b[k]) <= 1e-5f * (1 + fabsf(b[k])));
    }
}

/* Runs g on copies of the inputs: its results and the inputs afterwards
 * must be torch's. */
static void assert_runs_like_torch(const airc_graph *g, const arrays *a, const char *what)
{
    airc_tensor *in[MAXT], *out[MAXT];
    for (size_t i = 0; i < a->nin; i++)
        in[i] = copy_of(a->in[i]);
    size_t n = 0;
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, in, a->nin, out, MAXT, &n, NULL));
    assert_int_equal(n, a->nout);
    for (size_t i = 0; i < n; i++) {
        assert_close(out[i], a->out[i], what, i);
        airc_tensor_destroy(out[i]);
    }
    for (size_t i = 0; i < a->nin; i++) {
        assert_close(in[i], a->mut[i], what, i);
        airc_tensor_destroy(in[i]);
    }
}

/* In-place ops left: those that are not the final write-back of an input. */
static size_t kept_mutations(const airc_graph *g)
{
    size_t kept = 0;
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n)) {
        if (airc_node_get_kind(n) != AIRC_NODE_CALL_FUNCTION)
            continue;
        const char *t = airc_node_target(n);
        const char *dot = strrchr(t, '.');
        bool inplace = dot && dot > t && dot[-1] == '_' && strncmp(t, "operator.", 9);
        if (inplace && !(strcmp(t, "aten.copy_.default") == 0 &&
                         airc_node_get_kind(airc_node_input(n, 0)) == AIRC_NODE_PLACEHOLDER))
            kept++;
    }
    return kept;
}

static void seed_meta(airc_graph *g, const arrays *a)
{
    airc_example_inputs *in;
    AIRC_ASSERT_OK(airc_example_inputs_create(g_ctx, &in));
    for (size_t i = 0; i < a->nin; i++)
        AIRC_ASSERT_OK(airc_example_inputs_add(in, airc_tensor_dtype(a->in[i]),
                                               airc_tensor_ndim(a->in[i]),
                                               airc_tensor_shape(a->in[i]), NULL));
    AIRC_ASSERT_OK(airc_pass_meta_propagation(g, in, NULL));
    airc_example_inputs_destroy(in);
}

static void test_torch_view_cases(void **state)
{
    (void)state;
    /* name, how many writes stay in place without meta (a view's inverse
     * that needs its source's shape: view, squeeze, squeeze.dim, an item of
     * split / unbind), and whether views are replayed after them then (a
     * kept write makes the root's other views stale) */
    static const struct {
        const char *name;
        size_t kept_without_meta;
        bool replays_without_meta;
    } cases[] = {
        {"slice_of_slice", 0, false},       {"select_of_transpose", 0, false},
        {"view_read_after", 0, false},      {"input_through_view", 0, false},
        {"input_view_then_read", 0, false}, {"write_base_read_view", 0, false},
        {"stale_chain", 0, false},          {"two_views", 0, false},
        {"permute_unsqueeze", 0, false},    {"squeeze_transpose", 1, false},
        {"flat_view_write", 1, false},      {"squeeze_all_write", 2, false},
        {"inplace_views", 0, false},        {"split_items_write", 5, true},
        {"dtype_view_write", 2, true},
    };
    const char *dir = AIRC_TEST_DATA "/passes/functionalize";
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[1024];
        arrays a = {0};
        snprintf(path, sizeof path, "%s/%s.npz", dir, cases[i].name);
        AIRC_ASSERT_OK(airc_npz_read(g_ctx, path, take_array, &a));
        snprintf(path, sizeof path, "%s/%s.before.fx", dir, cases[i].name);
        char *text = airc_test_read_file(path, NULL);
        assert_non_null(text);
        /* the traced graph itself, run eagerly (views alias their base) */
        airc_graph *before = airc_test_parse(g_ctx, text);
        assert_runs_like_torch(before, &a, cases[i].name);
        for (int with_meta = 0; with_meta < 2; with_meta++) {
            airc_graph *g = airc_test_parse(g_ctx, text);
            if (with_meta)
                seed_meta(g, &a);
            int32_t changed = 0;
            AIRC_ASSERT_OK(airc_pass_functionalize(g, &changed));
            /* without meta, the writes are kept */
            assert_int_equal(changed, with_meta || !cases[i].kept_without_meta ||
                                          cases[i].replays_without_meta);
            AIRC_ASSERT_OK(airc_graph_lint(g));
            size_t kept = kept_mutations(g);
            if (kept != (with_meta ? 0 : cases[i].kept_without_meta))
                print_error("%s (meta %d): %zu kept\n%s", cases[i].name, with_meta, kept,
                            airc_test_print(g, AIRC_PRINT_NO_TYPES));
            assert_int_equal(kept, with_meta ? 0 : cases[i].kept_without_meta);
            assert_runs_like_torch(g, &a, cases[i].name);
            /* idempotent */
            char *once = airc_test_print(g, 0);
            AIRC_ASSERT_OK(airc_pass_functionalize(g, &changed));
            assert_int_equal(changed, 0);
            char *twice = airc_test_print(g, 0);
            assert_string_equal(once, twice);
            free(once);
            free(twice);
            airc_graph_destroy(g);
        }
        airc_graph_destroy(before);
        free(text);
        free_arrays(&a);
    }
}

/* Hand-made: a kept write (view's inverse unknown: no meta) through a view
 * of a value that an earlier functionalized write produced. The kept op
 * must write into the base's latest value, so its argument is replayed on
 * it (slice of slice_scatter, then view), and the base read afterwards sees
 * both writes. Checked by value against the graph run as written. */
static void test_kept_write_after_functional_one(void **state)
{
    (void)state;
    const char *text =
        "graph():\n"
        "    %x_1 : [#users=1] = placeholder[target=x_1]\n"
        "    %clone : [#users=3] = call_function[target=torch.ops.aten.clone.default](args = "
        "(%x_1,), kwargs = {})\n"
        "    %slice_1 : [#users=2] = call_function[target=torch.ops.aten.slice.Tensor](args = "
        "(%clone, 0, 0, 2), kwargs = {})\n"
        "    %mul_ : [#users=0] = call_function[target=torch.ops.aten.mul_.Tensor](args = "
        "(%slice_1, 2), kwargs = {})\n"
        "    %view : [#users=1] = call_function[target=torch.ops.aten.view.default](args = "
        "(%slice_1, [-1]), kwargs = {})\n"
        "    %add_ : [#users=0] = call_function[target=torch.ops.aten.add_.Tensor](args = (%view, "
        "1), kwargs = {})\n"
        "    %neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = "
        "(%clone,), kwargs = {})\n"
        "    %select : [#users=1] = call_function[target=torch.ops.aten.select.int](args = "
        "(%clone, 1, 0), kwargs = {})\n"
        "    return (neg, select)\n";
    airc_graph *before = airc_test_parse(g_ctx, text);
    airc_graph *g = airc_test_parse(g_ctx, text);
    int32_t changed = 0;
    AIRC_ASSERT_OK(airc_pass_functionalize(g, &changed));
    assert_int_equal(changed, 1);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    assert_null(airc_graph_find_node(g, "mul_"));
    airc_node *add_ = airc_graph_find_node(g, "add_");
    assert_non_null(add_);
    airc_node *view = airc_node_input(add_, 0);
    assert_string_equal(airc_node_target(view), "aten.view.default");
    assert_ptr_not_equal(view, airc_graph_find_node(g, "view"));
    airc_node *slice = airc_node_input(view, 0);
    assert_string_equal(airc_node_target(slice), "aten.slice.Tensor");
    assert_string_equal(airc_node_target(airc_node_input(slice, 0)), "aten.slice_scatter.default");
    /* by value: x = 0..11 as 3x4 */
    int64_t shape[] = {3, 4};
    airc_tensor *in[2];
    airc_tensor *outs[2][2];
    for (int k = 0; k < 2; k++) {
        AIRC_ASSERT_OK(airc_tensor_create(g_ctx, AIRC_DTYPE_F32, 2, shape, &in[k]));
        float *d = airc_tensor_data(in[k]);
        for (int j = 0; j < 12; j++)
            d[j] = (float)j;
        size_t n = 0;
        AIRC_ASSERT_OK(airc_run_eager(k ? g : before, NULL, &in[k], 1, outs[k], 2, &n, NULL));
        assert_int_equal(n, 2);
    }
    for (int o = 0; o < 2; o++) {
        assert_close(outs[1][o], outs[0][o], "kept after functional", (size_t)o);
        airc_tensor_destroy(outs[0][o]);
        airc_tensor_destroy(outs[1][o]);
    }
    airc_tensor_destroy(in[0]);
    airc_tensor_destroy(in[1]);
    airc_graph_destroy(before);
    airc_graph_destroy(g);
}

/* A view whose source comes by keyword (detach(self=x), as a graph built
 * through the API may have it) aliases x like any view: a later write to
 * x through another view shows in it (found by fuzz_api comparing
 * max-autotune with eager). The pass moves the source to args[0]. */
static void test_view_source_by_keyword(void **state)
{
    (void)state;
    const char *text = "graph():\n"
                       "    %x_1 : [#users=2] = placeholder[target=x_1]\n"
                       "    %t : [#users=2] = call_function[target=torch.ops.aten.t.default](args "
                       "= (%x_1,), kwargs = {})\n"
                       "    %detach : [#users=1] = call_function[target=torch.ops.aten.detach."
                       "default](args = (), kwargs = {self: %x_1})\n"
                       "    %le_ : [#users=0] = call_function[target=torch.ops.aten.le_.Tensor]"
                       "(args = (%t, %t), kwargs = {})\n"
                       "    return (detach,)\n";
    airc_graph *g = airc_test_parse(g_ctx, text);
    int32_t changed = 0;
    AIRC_ASSERT_OK(airc_pass_functionalize(g, &changed));
    assert_int_equal(changed, 1);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    airc_node *res = airc_node_input(airc_graph_output_node(g), 0);
    assert_string_equal(airc_node_target(res), "aten.detach.default");
    assert_int_equal(airc_node_num_kwargs(res), 0);
    assert_int_equal(airc_node_num_args(res), 1);
    /* x = [[0.5, -1], [2, 3]]: le_(t, t) writes 1s into x, which detach sees */
    int64_t shape[] = {2, 2};
    airc_tensor *in, *got[1];
    AIRC_ASSERT_OK(airc_tensor_create(g_ctx, AIRC_DTYPE_F32, 2, shape, &in));
    float *d = airc_tensor_data(in);
    d[0] = 0.5f, d[1] = -1, d[2] = 2, d[3] = 3;
    size_t n = 0;
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, &in, 1, got, 1, &n, NULL));
    assert_int_equal(n, 1);
    const float *v = airc_tensor_data(got[0]);
    for (int i = 0; i < 4; i++)
        assert_true(v[i] == 1.0f);
    airc_tensor_destroy(got[0]);
    airc_tensor_destroy(in);
    airc_graph_destroy(g);
}

/* getitem(t, j) of a multi-output op is the same tensor each time it is
 * taken: a write to one shows in a later getitem(t, j), and in t itself
 * when the graph returns t (then returned as the tuple of its items). In
 * torch: v, i = x.max(-1); i.fill_(7); (x.max result)[1] is 7s too. */
/* The second getitem spells item 1 as `index` (1, True, -1: the same
 * tensor in Python). */
static void check_written_tuple_item(const char *index)
{
    static const char head[] =
        "graph():\n"
        "    %x_1 : [#users=1] = placeholder[target=x_1]\n"
        "    %max_1 : [#users=3] = call_function[target=torch.ops.aten.max.dim](args = (%x_1, "
        "-1), kwargs = {})\n"
        "    %getitem_1 : [#users=1] = call_function[target=operator.getitem](args = (%max_1, 1), "
        "kwargs = {})\n"
        "    %fill_ : [#users=0] = call_function[target=torch.ops.aten.fill_.Scalar](args = "
        "(%getitem_1, 7), kwargs = {})\n"
        "    %getitem_2 : [#users=1] = call_function[target=operator.getitem](args = (%max_1, ";
    static const char tail[] = "), kwargs = {})\n"
                               "    return (getitem_2, max_1)\n";
    char text[1024];
    snprintf(text, sizeof text, "%s%s%s", head, index, tail);
    airc_graph *before = airc_test_parse(g_ctx, text), *g = airc_test_parse(g_ctx, text);
    int32_t changed = 0;
    AIRC_ASSERT_OK(airc_pass_functionalize(g, &changed));
    assert_int_equal(changed, 1);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    assert_int_equal(kept_mutations(g), 0);
    /* x = [[1, 5, 2], [7, 1, 0]]: max values [5, 7]; every index result 7 */
    int64_t shape[] = {2, 3};
    const float xs[] = {1, 5, 2, 7, 1, 0};
    for (int k = 0; k < 2; k++) {
        airc_tensor *in, *out[3];
        AIRC_ASSERT_OK(airc_tensor_create(g_ctx, AIRC_DTYPE_F32, 2, shape, &in));
        memcpy(airc_tensor_data(in), xs, sizeof xs);
        size_t n = 0;
        AIRC_ASSERT_OK(airc_run_eager(k ? g : before, NULL, &in, 1, out, 3, &n, NULL));
        assert_int_equal(n, 3);
        const int64_t *i0 = airc_tensor_data(out[0]), *i2 = airc_tensor_data(out[2]);
        const float *v = airc_tensor_data(out[1]);
        assert_true(i0[0] == 7 && i0[1] == 7 && i2[0] == 7 && i2[1] == 7);
        assert_true(v[0] == 5 && v[1] == 7);
        airc_test_destroy_all(out, n);
        airc_tensor_destroy(in);
    }
    airc_graph_destroy(before);
    airc_graph_destroy(g);
}

static void test_written_tuple_item(void **state)
{
    (void)state;
    check_written_tuple_item("1");
    check_written_tuple_item("True");
    check_written_tuple_item("-1");
}

/* An in-place view (squeeze_...) whose self is read after it, or is a
 * graph input, is refused by the pass and by eager (meta), naming the
 * reader; the pass leaves the graph as it was. */
static void check_inplace_view_refused(const char *text, const char *want)
{
    airc_graph *g = airc_test_parse(g_ctx, text);
    char *before = airc_test_print(g, 0);
    int32_t changed = 0;
    assert_int_equal(airc_pass_functionalize(g, &changed), AIRC_E_UNSUPPORTED);
    assert_non_null(strstr(airc_last_error(), want));
    char *after = airc_test_print(g, 0);
    assert_string_equal(before, after);
    int64_t shape[] = {1, 3};
    airc_tensor *in, *out[2];
    AIRC_ASSERT_OK(airc_tensor_create(g_ctx, AIRC_DTYPE_F32, 2, shape, &in));
    memset(airc_tensor_data(in), 0, 3 * sizeof(float));
    size_t n = 0;
    assert_int_equal(airc_run_eager(g, NULL, &in, 1, out, 2, &n, NULL), AIRC_E_UNSUPPORTED);
    assert_non_null(strstr(airc_last_error(), want));
    airc_tensor_destroy(in);
    free(before);
    free(after);
    airc_graph_destroy(g);
}

static void test_inplace_view_refused(void **state)
{
    (void)state;
    check_inplace_view_refused(
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %a : [#users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%x, 1), "
        "kwargs = {})\n"
        "    %s : [#users=1] = call_function[target=torch.ops.aten.squeeze_.dim](args = (%a, 0), "
        "kwargs = {})\n"
        "    %m : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%a, 2), "
        "kwargs = {})\n"
        "    return (s, m)\n",
        "'m' reads 'a' after 's' changed its shape in place");
    check_inplace_view_refused(
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %s : [#users=1] = call_function[target=torch.ops.aten.t_.default](args = (%x,), "
        "kwargs = {})\n"
        "    return (s,)\n",
        "changes the shape of graph input 'x' in place");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_torch_view_cases, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kept_write_after_functional_one, setup, teardown),
        cmocka_unit_test_setup_teardown(test_view_source_by_keyword, setup, teardown),
        cmocka_unit_test_setup_teardown(test_written_tuple_item, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inplace_view_refused, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
