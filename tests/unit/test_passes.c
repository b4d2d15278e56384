/* Built-in passes. Expected graphs come from torch:
 *  - dce/cse conformance: torch.fx's eliminate_dead_code and CSEPass
 *    (../shared/conformance, copied to tests/data/passes);
 *  - functionalize: functorch.functionalize(f, remove='mutations') of
 *    torch 1.13 (tests/gen_functionalize_cases.py writes the cases);
 * and, for what torch cannot produce (custom in-place ops of both forms,
 * kept writes through views, no-op removal on meta), from the semantics,
 * derived by hand in the comments. */
#include "testutil.h"

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

static char *read_data(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *s = airc_test_read_file(path, NULL);
    if (!s)
        print_error("cannot read %s\n", path);
    assert_non_null(s);
    size_t n = strlen(s); /* a trailing newline does not matter */
    while (n && s[n - 1] == '\n')
        s[--n] = '\0';
    return s;
}

static char *print_trimmed(const airc_graph *g)
{
    char *s = airc_test_print(g, AIRC_PRINT_NO_TYPES);
    size_t n = strlen(s);
    while (n && s[n - 1] == '\n')
        s[--n] = '\0';
    return s;
}

/* ---- structural comparison: names of new nodes may differ -------------- */

typedef struct node_table {
    airc_node *items[256];
    size_t n;
} node_table;

static void table_of(const airc_graph *g, node_table *t)
{
    t->n = 0;
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n)) {
        assert_true(t->n < 256);
        t->items[t->n++] = n;
    }
}

static long index_in(const node_table *t, const airc_node *n)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->items[i] == n)
            return (long)i;
    return -1;
}

static int values_match(const airc_value *a, const airc_value *b, const node_table *ta,
                        const node_table *tb)
{
    airc_value_kind k = airc_value_get_kind(a);
    if (k != airc_value_get_kind(b))
        return 0;
    if (k == AIRC_VALUE_NODE) {
        airc_node *x, *y;
        airc_value_get_node(a, &x);
        airc_value_get_node(b, &y);
        return index_in(ta, x) == index_in(tb, y);
    }
    if (k == AIRC_VALUE_LIST || k == AIRC_VALUE_TUPLE) {
        if (airc_value_length(a) != airc_value_length(b))
            return 0;
        for (size_t i = 0; i < airc_value_length(a); i++)
            if (!values_match(airc_value_item(a, i), airc_value_item(b, i), ta, tb))
                return 0;
        return 1;
    }
    return airc_value_equal(a, b);
}

/* Same nodes in the same order: kinds, targets, args and kwargs (node refs
 * by position), user counts. */
static void assert_equivalent(const airc_graph *got, const airc_graph *want, const char *what)
{
    node_table ta, tb;
    table_of(got, &ta);
    table_of(want, &tb);
    const char *diff = NULL;
    size_t at = 0;
    if (ta.n != tb.n)
        diff = "node count";
    for (size_t i = 0; !diff && i < ta.n; i++) {
        airc_node *a = ta.items[i], *b = tb.items[i];
        at = i;
        if (airc_node_get_kind(a) != airc_node_get_kind(b))
            diff = "kind";
        else if (airc_node_get_kind(a) == AIRC_NODE_CALL_FUNCTION &&
                 strcmp(airc_node_target(a), airc_node_target(b)))
            diff = "target";
        else if (airc_node_num_args(a) != airc_node_num_args(b) ||
                 airc_node_num_kwargs(a) != airc_node_num_kwargs(b))
            diff = "arity";
        else if (airc_node_num_users(a) != airc_node_num_users(b))
            diff = "users";
        for (size_t k = 0; !diff && k < airc_node_num_args(a); k++)
            if (!values_match(airc_node_arg(a, k), airc_node_arg(b, k), &ta, &tb))
                diff = "args";
        for (size_t k = 0; !diff && k < airc_node_num_kwargs(a); k++) {
            const airc_value *v = airc_node_kwarg(b, airc_node_kwarg_name(a, k));
            if (!v || !values_match(airc_node_kwarg_value(a, k), v, &ta, &tb))
                diff = "kwargs";
        }
    }
    if (diff) {
        char *x = airc_test_print(got, AIRC_PRINT_NO_TYPES);
        char *y = airc_test_print(want, AIRC_PRINT_NO_TYPES);
        print_error("%s: graphs differ (%s at node %zu)\ngot:\n%s\nwant:\n%s\n", what, diff, at, x,
                    y);
        free(x);
        free(y);
        fail();
    }
}

/* ---- dce / cse conformance --------------------------------------------- */

static void check_conformance(const char *dir, const char *name,
                              airc_status (*pass)(airc_graph *, int32_t *))
{
    char before_name[64], after_name[64];
    snprintf(before_name, sizeof before_name, "%s.before.fx", name);
    snprintf(after_name, sizeof after_name, "%s.after.fx", name);
    char *before = read_data(dir, before_name), *after = read_data(dir, after_name);
    airc_graph *g = airc_test_parse(g_ctx, before);
    int32_t changed = 0;
    AIRC_ASSERT_OK(pass(g, &changed));
    assert_int_equal(changed, 1);
    char *got = print_trimmed(g);
    if (strcmp(got, after))
        print_error("%s/%s: got\n%s\nwant\n%s\n", dir, name, got, after);
    assert_string_equal(got, after); /* exactly torch's text, names included */
    AIRC_ASSERT_OK(airc_graph_lint(g));
    /* a second run finds nothing to do */
    AIRC_ASSERT_OK(pass(g, &changed));
    assert_int_equal(changed, 0);
    free(got);
    free(before);
    free(after);
    airc_graph_destroy(g);
}

static void test_conformance_dce_cse(void **state)
{
    (void)state;
    check_conformance(AIRC_TEST_DATA "/passes", "dce", airc_pass_dce);
    check_conformance(AIRC_TEST_DATA "/passes", "cse", airc_pass_cse);
    if (airc_test_have_shared()) {
        check_conformance(AIRC_SHARED_DIR "/conformance", "dce", airc_pass_dce);
        check_conformance(AIRC_SHARED_DIR "/conformance", "cse", airc_pass_cse);
    }
}

static void test_cse_rules(void **state)
{
    (void)state;
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = "myns::rand_like(Tensor self) -> Tensor";
    AIRC_ASSERT_OK(airc_context_register_op(g_ctx, &def, NULL));
    const char *text =
        "graph():\n"
        "    %x_1 : [#users=8] = placeholder[target=x_1]\n"
        "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, 1), kwargs = {})\n"
        "    %add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, 1.0), kwargs = {})\n"
        "    %sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%x_1, [0]), kwargs = {keepdim: True, dtype: torch.float32})\n"
        "    %sum_2 : [#users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%x_1, [0]), kwargs = {dtype: torch.float32, keepdim: True})\n"
        "    %rand_like : [#users=1] = call_function[target=torch.ops.myns.rand_like.default](args = (%x_1,), kwargs = {})\n"
        "    %rand_like_1 : [#users=1] = call_function[target=torch.ops.myns.rand_like.default](args = (%x_1,), kwargs = {})\n"
        "    %mul_ : [#users=1] = call_function[target=torch.ops.aten.mul_.Tensor](args = (%x_1, 2), kwargs = {})\n"
        "    %mul__1 : [#users=1] = call_function[target=torch.ops.aten.mul_.Tensor](args = (%x_1, 2), kwargs = {})\n"
        "    return (add, add_1, sum_1, sum_2, rand_like, rand_like_1, mul_, mul__1)\n";
    airc_graph *g = airc_test_parse(g_ctx, text);
    int32_t changed = 0;
    AIRC_ASSERT_OK(airc_pass_cse(g, &changed));
    assert_int_equal(changed, 1);
    /* only the sums merge: keyword order does not matter; 1 is not 1.0;
     * random and in-place ops are never merged */
    assert_null(airc_graph_find_node(g, "sum_2"));
    assert_non_null(airc_graph_find_node(g, "add_1"));
    assert_non_null(airc_graph_find_node(g, "rand_like_1"));
    assert_non_null(airc_graph_find_node(g, "mul__1"));
    assert_int_equal(airc_node_num_users(airc_graph_find_node(g, "sum_1")), 1);
    const airc_value *out = airc_node_arg(airc_graph_output_node(g), 0);
    airc_node *third;
    AIRC_ASSERT_OK(airc_value_get_node(airc_value_item(out, 3), &third));
    assert_string_equal(airc_node_name(third), "sum_1");
    AIRC_ASSERT_OK(airc_graph_lint(g));
    airc_graph_destroy(g);
}

/* ---- functionalize ------------------------------------------------------ */

static void set_inputs_and_noop(airc_graph *g, int n)
{
    airc_example_inputs *in;
    AIRC_ASSERT_OK(airc_example_inputs_create(g_ctx, &in));
    int64_t shape[] = {3};
    for (int i = 0; i < n; i++)
        AIRC_ASSERT_OK(airc_example_inputs_add(in, AIRC_DTYPE_F32, 1, shape, NULL));
    AIRC_ASSERT_OK(airc_pass_meta_propagation(g, in, NULL));
    AIRC_ASSERT_OK(airc_pass_remove_noop_ops(g, NULL));
    airc_example_inputs_destroy(in);
}

static void test_functionalize_torch_cases(void **state)
{
    (void)state;
    static const char *const cases[] = {
        "intermediate_and_input", "return_mutated_input", "two_mutations_of_input",
        "read_before_and_after",  "alias_result_and_base", "chained_results",
        "fill_and_masked_fill",   "mutate_two_inputs",     "copy_into_intermediate",
    };
    const char *dir = AIRC_TEST_DATA "/passes/functionalize";
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[128];
        snprintf(name, sizeof name, "%s.before.fx", cases[i]);
        char *before = read_data(dir, name);
        snprintf(name, sizeof name, "%s.after.fx", cases[i]);
        char *after = read_data(dir, name);
        airc_graph *g = airc_test_parse(g_ctx, before);
        airc_graph *want = airc_test_parse(g_ctx, after);
        int32_t changed = 0;
        AIRC_ASSERT_OK(airc_pass_functionalize(g, &changed));
        assert_int_equal(changed, 1);
        AIRC_ASSERT_OK(airc_graph_lint(g));
        /* torch resolves copy_ of equal shapes to its source; airc emits
         * the functional copy, which remove_noop_ops then drops */
        if (!strcmp(cases[i], "copy_into_intermediate"))
            set_inputs_and_noop(g, 2);
        assert_equivalent(g, want, cases[i]);
        /* idempotent: the write-backs are recognised as such */
        char *once = airc_test_print(g, 0);
        AIRC_ASSERT_OK(airc_pass_functionalize(g, &changed));
        assert_int_equal(changed, 0);
        char *twice = airc_test_print(g, 0);
        assert_string_equal(once, twice);
        free(once);
        free(twice);
        free(before);
        free(after);
        airc_graph_destroy(g);
        airc_graph_destroy(want);
    }
}

/* The functional variant is found by name and checked by signature:
 * pow_.Scalar(Tensor self, Scalar exponent) is pow.Tensor_Scalar, not
 * pow.Scalar(Scalar self, Tensor exponent); zero_ is zeros_like. */
static void test_functionalize_twin_signatures(void **state)
{
    (void)state;
    const char *text =
        "graph():\n"
        "    %x_1 : [#users=1] = placeholder[target=x_1]\n"
        "    %clone : [#users=1] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})\n"
        "    %pow_ : [#users=1] = call_function[target=torch.ops.aten.pow_.Scalar](args = (%clone, 2), kwargs = {})\n"
        "    %zero_ : [#users=1] = call_function[target=torch.ops.aten.zero_.default](args = (%pow_,), kwargs = {})\n"
        "    return zero_\n";
    airc_graph *g = airc_test_parse(g_ctx, text);
    AIRC_ASSERT_OK(airc_pass_functionalize(g, NULL));
    AIRC_ASSERT_OK(airc_graph_lint(g));
    airc_node *pow = airc_graph_find_node(g, "pow_1");
    assert_non_null(pow);
    assert_string_equal(airc_node_target(pow), "aten.pow.Tensor_Scalar");
    /* zero_'s twin is zeros_like (a renamed twin whose extra arguments
     * are keyword-only with defaults), reading the functional pow */
    airc_node *zero = airc_graph_find_node(g, "zeros_like");
    assert_non_null(zero);
    assert_string_equal(airc_node_target(zero), "aten.zeros_like.default");
    assert_ptr_equal(airc_node_input(zero, 0), pow);
    assert_null(airc_graph_find_node(g, "zero_"));
    assert_null(airc_graph_find_node(g, "pow_"));
    airc_graph_destroy(g);
}

static void register_schema(const char *schema)
{
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = schema;
    AIRC_ASSERT_OK(airc_context_register_op(g_ctx, &def, NULL));
}

static void test_functionalize_custom_forms(void **state)
{
    (void)state;
    /* form B (TorchAir's custom in-place ops return nothing for the
     * mutated tensor), one and two written arguments; and one without a
     * twin (it returns a fresh tensor: neither form, so none is
     * synthesized either), which is kept */
    register_schema("myns::scatter_upd_(Tensor(a!) self, Tensor src) -> ()");
    register_schema("myns::scatter_upd(Tensor self, Tensor src) -> Tensor");
    register_schema("myns::two_upd_(Tensor(a!) a, Tensor(b!) b, Tensor src) -> ()");
    register_schema("myns::two_upd(Tensor a, Tensor b, Tensor src) -> (Tensor, Tensor)");
    register_schema("myns::lonely_(Tensor(a!) self) -> Tensor");
    const char *text =
        "graph():\n"
        "    %x_1 : [#users=3] = placeholder[target=x_1]\n"
        "    %y_1 : [#users=3] = placeholder[target=y_1]\n"
        "    %mm : [#users=3] = call_function[target=torch.ops.aten.mm.default](args = (%x_1, %y_1), kwargs = {})\n"
        "    %scatter_upd_ : [#users=0] = call_function[target=torch.ops.myns.scatter_upd_.default](args = (%mm, %y_1), kwargs = {})\n"
        "    %relu : [#users=2] = call_function[target=torch.ops.aten.relu.default](args = (%mm,), kwargs = {})\n"
        "    %two_upd_ : [#users=0] = call_function[target=torch.ops.myns.two_upd_.default](args = (%x_1, %relu, %y_1), kwargs = {})\n"
        "    %lonely_ : [#users=0] = call_function[target=torch.ops.myns.lonely_.default](args = (%mm,), kwargs = {})\n"
        "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, %relu), kwargs = {})\n"
        "    return add\n";
    /* By the semantics: mm is mutated by scatter_upd_, so relu reads the
     * new value; two_upd_ writes x_1 and relu: add reads both new values
     * (getitem 0 and 1); lonely_ (no twin) mutates the latest mm in place;
     * x_1 is written back before the output. */
    const char *want_text =
        "graph():\n"
        "    %x_1 : [#users=3] = placeholder[target=x_1]\n"
        "    %y_1 : [#users=3] = placeholder[target=y_1]\n"
        "    %mm : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x_1, %y_1), kwargs = {})\n"
        "    %scatter_upd : [#users=2] = call_function[target=torch.ops.myns.scatter_upd.default](args = (%mm, %y_1), kwargs = {})\n"
        "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%scatter_upd,), kwargs = {})\n"
        "    %two_upd : [#users=2] = call_function[target=torch.ops.myns.two_upd.default](args = (%x_1, %relu, %y_1), kwargs = {})\n"
        "    %getitem : [#users=2] = call_function[target=operator.getitem](args = (%two_upd, 0), kwargs = {})\n"
        "    %getitem_1 : [#users=1] = call_function[target=operator.getitem](args = (%two_upd, 1), kwargs = {})\n"
        "    %lonely_ : [#users=0] = call_function[target=torch.ops.myns.lonely_.default](args = (%scatter_upd,), kwargs = {})\n"
        "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem, %getitem_1), kwargs = {})\n"
        "    %copy_ : [#users=0] = call_function[target=torch.ops.aten.copy_.default](args = (%x_1, %getitem), kwargs = {})\n"
        "    return add\n";
    airc_graph *g = airc_test_parse(g_ctx, text);
    airc_graph *want = airc_test_parse(g_ctx, want_text);
    int32_t changed = 0;
    AIRC_ASSERT_OK(airc_pass_functionalize(g, &changed));
    assert_int_equal(changed, 1);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    assert_equivalent(g, want, "custom forms");
    /* dce keeps the kept in-place op (side effect) and the write-back */
    AIRC_ASSERT_OK(airc_pass_dce(g, NULL));
    assert_non_null(airc_graph_find_node(g, "lonely_"));
    assert_non_null(airc_graph_find_node(g, "copy_"));
    airc_graph_destroy(g);
    airc_graph_destroy(want);
}

/* Views, as torch's functionalization treats them (more cases, checked by
 * value, in test_functionalize_views.c). */
static void check_functionalized(const char *text, const char *want_text, const char *what)
{
    airc_graph *g = airc_test_parse(g_ctx, text);
    airc_graph *want = airc_test_parse(g_ctx, want_text);
    int32_t changed = 0;
    AIRC_ASSERT_OK(airc_pass_functionalize(g, &changed));
    assert_int_equal(changed, 1);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    assert_equivalent(g, want, what);
    airc_graph_destroy(g);
    airc_graph_destroy(want);
}

static void test_functionalize_views(void **state)
{
    (void)state;
    /* a view taken before the mutation and read after it is replayed on
     * the new value */
    const char *before_view =
        "graph():\n"
        "    %x_1 : [#users=2] = placeholder[target=x_1]\n"
        "    %view : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%x_1, [4]), kwargs = {})\n"
        "    %add_ : [#users=0] = call_function[target=torch.ops.aten.add_.Tensor](args = (%x_1, 1), kwargs = {})\n"
        "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view, 1), kwargs = {})\n"
        "    return add\n";
    check_functionalized(
        before_view,
        "graph():\n"
        "    %x_1 : [#users=3] = placeholder[target=x_1]\n"
        "    %view : [#users=0] = call_function[target=torch.ops.aten.view.default](args = (%x_1, [4]), kwargs = {})\n"
        "    %add_1 : [#users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, 1), kwargs = {})\n"
        "    %view_1 : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%add_1, [4]), kwargs = {})\n"
        "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_1, 1), kwargs = {})\n"
        "    %copy_ : [#users=0] = call_function[target=torch.ops.aten.copy_.default](args = (%x_1, %add_1), kwargs = {})\n"
        "    return add\n",
        "view before mutation");
    /* a write through a view is scattered back into its base (torch:
     * slice_scatter), which later reads and the write-back see */
    const char *through_view =
        "graph():\n"
        "    %x_1 : [#users=2] = placeholder[target=x_1]\n"
        "    %slice_1 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%x_1, 0, 0, 2), kwargs = {})\n"
        "    %mul_ : [#users=0] = call_function[target=torch.ops.aten.mul_.Tensor](args = (%slice_1, 2), kwargs = {})\n"
        "    %neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%x_1,), kwargs = {})\n"
        "    return neg\n";
    check_functionalized(
        through_view,
        "graph():\n"
        "    %x_1 : [#users=3] = placeholder[target=x_1]\n"
        "    %slice_1 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%x_1, 0, 0, 2), kwargs = {})\n"
        "    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%slice_1, 2), kwargs = {})\n"
        "    %slice_scatter : [#users=2] = call_function[target=torch.ops.aten.slice_scatter.default](args = (%x_1, %mul, 0, 0, 2), kwargs = {})\n"
        "    %neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%slice_scatter,), kwargs = {})\n"
        "    %copy_ : [#users=0] = call_function[target=torch.ops.aten.copy_.default](args = (%x_1, %slice_scatter), kwargs = {})\n"
        "    return neg\n",
        "write through a view");
    /* a view whose inverse needs meta that is missing (view's source
     * shape), or a split's item: kept, the graph unchanged */
    const char *kept[] = {
        "graph():\n"
        "    %x_1 : [#users=2] = placeholder[target=x_1]\n"
        "    %view : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%x_1, [-1]), kwargs = {})\n"
        "    %mul_ : [#users=0] = call_function[target=torch.ops.aten.mul_.Tensor](args = (%view, 2), kwargs = {})\n"
        "    %neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%x_1,), kwargs = {})\n"
        "    return neg\n",
        "graph():\n"
        "    %x_1 : [#users=2] = placeholder[target=x_1]\n"
        "    %split : [#users=1] = call_function[target=torch.ops.aten.split.Tensor](args = (%x_1, 2), kwargs = {})\n"
        "    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%split, 0), kwargs = {})\n"
        "    %mul_ : [#users=0] = call_function[target=torch.ops.aten.mul_.Tensor](args = (%getitem, 2), kwargs = {})\n"
        "    %neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%x_1,), kwargs = {})\n"
        "    return neg\n",
    };
    for (int i = 0; i < 2; i++) {
        airc_graph *g = airc_test_parse(g_ctx, kept[i]);
        char *a = airc_test_print(g, 0);
        int32_t changed = 1;
        AIRC_ASSERT_OK(airc_pass_functionalize(g, &changed));
        assert_int_equal(changed, 0);
        char *b = airc_test_print(g, 0);
        assert_string_equal(a, b);
        free(a);
        free(b);
        airc_graph_destroy(g);
    }
    /* a view of the new value, taken after the mutation, is fine */
    const char *after_view =
        "graph():\n"
        "    %x_1 : [#users=1] = placeholder[target=x_1]\n"
        "    %add_ : [#users=1] = call_function[target=torch.ops.aten.add_.Tensor](args = (%x_1, 1), kwargs = {})\n"
        "    %view : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%add_, [4]), kwargs = {})\n"
        "    return view\n";
    const char *want_text =
        "graph():\n"
        "    %x_1 : [#users=2] = placeholder[target=x_1]\n"
        "    %add : [#users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, 1), kwargs = {})\n"
        "    %view : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%add, [4]), kwargs = {})\n"
        "    %copy_ : [#users=0] = call_function[target=torch.ops.aten.copy_.default](args = (%x_1, %add), kwargs = {})\n"
        "    return view\n";
    airc_graph *g = airc_test_parse(g_ctx, after_view);
    airc_graph *want = airc_test_parse(g_ctx, want_text);
    AIRC_ASSERT_OK(airc_pass_functionalize(g, NULL));
    assert_equivalent(g, want, "view after mutation");
    airc_graph_destroy(g);
    airc_graph_destroy(want);
}

/* ---- remove_noop_ops, view_to_reshape, meta_propagation ---------------- */

static airc_example_inputs *inputs_2x3(int n)
{
    airc_example_inputs *in;
    AIRC_ASSERT_OK(airc_example_inputs_create(g_ctx, &in));
    int64_t shape[] = {2, 3};
    for (int i = 0; i < n; i++)
        AIRC_ASSERT_OK(airc_example_inputs_add(in, AIRC_DTYPE_F32, 2, shape, NULL));
    return in;
}

static void test_remove_noop_ops(void **state)
{
    (void)state;
    const char *text =
        "graph():\n"
        "    %x_1 : [#users=3] = placeholder[target=x_1]\n"
        "    %view : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%x_1, [2, 3]), kwargs = {})\n"
        "    %slice_1 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%view, 0, 0, 9223372036854775807), kwargs = {})\n"
        "    %expand : [#users=1] = call_function[target=torch.ops.aten.expand.default](args = (%slice_1, [2, 3]), kwargs = {})\n"
        "    %clone : [#users=1] = call_function[target=torch.ops.aten.clone.default](args = (%expand,), kwargs = {})\n"
        "    %view_1 : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%clone, [3, 2]), kwargs = {})\n"
        "    %alias : [#users=1] = call_function[target=torch.ops.aten.alias.default](args = (%view_1,), kwargs = {})\n"
        "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%alias,), kwargs = {})\n"
        "    %slice_2 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%x_1, 1, 0, 2), kwargs = {})\n"
        "    %neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%slice_2,), kwargs = {})\n"
        "    %detach : [#users=1] = call_function[target=torch.ops.aten.detach.default](args = (%x_1,), kwargs = {})\n"
        "    return (relu, neg, detach)\n";
    /* view/slice/expand to the same shape and alias go; clone stays;
     * the partial slice stays; detach stays because it is an output whose
     * source is an input (it would make the output alias the input) */
    const char *want_text =
        "graph():\n"
        "    %x_1 : [#users=3] = placeholder[target=x_1]\n"
        "    %clone : [#users=1] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})\n"
        "    %view_1 : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%clone, [3, 2]), kwargs = {})\n"
        "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%view_1,), kwargs = {})\n"
        "    %slice_2 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%x_1, 1, 0, 2), kwargs = {})\n"
        "    %neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%slice_2,), kwargs = {})\n"
        "    %detach : [#users=1] = call_function[target=torch.ops.aten.detach.default](args = (%x_1,), kwargs = {})\n"
        "    return (relu, neg, detach)\n";
    airc_graph *g = airc_test_parse(g_ctx, text);
    /* without meta nothing is known to be a no-op */
    int32_t changed = 1;
    AIRC_ASSERT_OK(airc_pass_remove_noop_ops(g, &changed));
    assert_int_equal(changed, 0);
    airc_example_inputs *in = inputs_2x3(1);
    AIRC_ASSERT_OK(airc_pass_meta_propagation(g, in, &changed));
    assert_int_equal(changed, 1);
    AIRC_ASSERT_OK(airc_pass_remove_noop_ops(g, &changed));
    assert_int_equal(changed, 1);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    airc_graph *want = airc_test_parse(g_ctx, want_text);
    assert_equivalent(g, want, "remove_noop_ops");
    airc_graph_destroy(want);
    airc_graph_destroy(g);

    /* an output whose source is a view of an input stays (t of x_1), and in
     * a graph that still writes (copy_ into x_1) copy, a zero pad and a
     * repeat by ones are fresh tensors: replaced by their source they would
     * read the write (the pad: found by fuzz_api) */
    const char *mut =
        "graph():\n"
        "    %x_1 : [#users=3] = placeholder[target=x_1]\n"
        "    %t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%x_1,), kwargs = {})\n"
        "    %view : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%t, [3, 2]), kwargs = {})\n"
        "    %clone : [#users=1] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})\n"
        "    %t_1 : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%x_1,), kwargs = {})\n"
        "    %t_2 : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%t_1,), kwargs = {})\n"
        "    %copy : [#users=1] = call_function[target=torch.ops.aten.copy.default](args = (%clone, %t_2), kwargs = {})\n"
        "    %neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%x_1,), kwargs = {})\n"
        "    %pad : [#users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%x_1, [], -1), kwargs = {})\n"
        "    %sq : [#users=1] = call_function[target=torch.ops.aten.squeeze.dim](args = (%pad, -2), kwargs = {})\n"
        "    %rep : [#users=1] = call_function[target=torch.ops.aten.repeat.default](args = (%x_1, [1, 1]), kwargs = {})\n"
        "    %copy_ : [#users=0] = call_function[target=torch.ops.aten.copy_.default](args = (%x_1, %neg), kwargs = {})\n"
        "    return (view, copy, sq, rep)\n";
    g = airc_test_parse(g_ctx, mut);
    AIRC_ASSERT_OK(airc_pass_meta_propagation(g, in, &changed));
    char *before = airc_test_print(g, AIRC_PRINT_NO_TYPES);
    AIRC_ASSERT_OK(airc_pass_remove_noop_ops(g, &changed));
    assert_int_equal(changed, 0);
    char *after = airc_test_print(g, AIRC_PRINT_NO_TYPES);
    assert_string_equal(before, after);
    free(before);
    free(after);
    airc_graph_destroy(g);
    airc_example_inputs_destroy(in);
}

static void test_view_to_reshape(void **state)
{
    (void)state;
    const char *text =
        "graph():\n"
        "    %x_1 : [#users=1] = placeholder[target=x_1]\n"
        "    %view : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%x_1, [6]), kwargs = {})\n"
        "    %view_1 : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%view, [3, 2]), kwargs = {})\n"
        "    %t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%view_1,), kwargs = {})\n"
        "    return t\n";
    airc_graph *g = airc_test_parse(g_ctx, text);
    int32_t changed = 0;
    AIRC_ASSERT_OK(airc_pass_view_to_reshape(g, &changed));
    assert_int_equal(changed, 1);
    assert_string_equal(airc_node_target(airc_graph_find_node(g, "view")), "aten.reshape.default");
    assert_string_equal(airc_node_target(airc_graph_find_node(g, "view_1")),
                        "aten.reshape.default");
    assert_string_equal(airc_node_target(airc_graph_find_node(g, "t")), "aten.t.default");
    AIRC_ASSERT_OK(airc_graph_lint(g));
    AIRC_ASSERT_OK(airc_pass_view_to_reshape(g, &changed));
    assert_int_equal(changed, 0);
    airc_graph_destroy(g);
}

static void test_meta_propagation(void **state)
{
    (void)state;
    const char *text =
        "graph():\n"
        "    %x_1 : [#users=1] = placeholder[target=x_1]\n"
        "    %y_1 : [#users=1] = placeholder[target=y_1]\n"
        "    %mm : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x_1, %y_1), kwargs = {})\n"
        "    return mm\n";
    airc_graph *g = airc_test_parse(g_ctx, text);
    airc_node *x = airc_graph_find_node(g, "x_1");
    /* no inputs and no placeholder meta: nothing to propagate from */
    int32_t changed = 1;
    AIRC_ASSERT_OK(airc_pass_meta_propagation(g, NULL, &changed));
    assert_int_equal(changed, 0);
    airc_example_inputs *one = inputs_2x3(1);
    AIRC_EXPECT(airc_pass_meta_propagation(g, one, NULL), AIRC_E_INVALID_ARGUMENT,
                "2 placeholders but 1 example input");
    /* [2,3] @ [2,3] is a shape error: all or nothing */
    airc_example_inputs *two = inputs_2x3(2);
    AIRC_EXPECT(airc_pass_meta_propagation(g, two, NULL), AIRC_E_SHAPE, "mm");
    assert_int_equal(airc_node_meta_kind(x), AIRC_META_NONE);
    airc_example_inputs *in;
    AIRC_ASSERT_OK(airc_example_inputs_create(g_ctx, &in));
    int64_t s1[] = {2, 3}, s2[] = {3, 4};
    AIRC_ASSERT_OK(airc_example_inputs_add(in, AIRC_DTYPE_F32, 2, s1, NULL));
    AIRC_ASSERT_OK(airc_example_inputs_add(in, AIRC_DTYPE_F32, 2, s2, NULL));
    assert_int_equal(airc_example_inputs_count(in), 2);
    AIRC_EXPECT(airc_example_inputs_get(in, 2, NULL, NULL, NULL, NULL), AIRC_E_NOT_FOUND, NULL);
    AIRC_ASSERT_OK(airc_pass_meta_propagation(g, in, &changed));
    assert_int_equal(changed, 1);
    int32_t ndim;
    const int64_t *shape;
    AIRC_ASSERT_OK(airc_node_output_meta(airc_graph_find_node(g, "mm"), 0, NULL, &ndim, &shape,
                                         NULL));
    assert_int_equal(ndim, 2);
    assert_int_equal(shape[0], 2);
    assert_int_equal(shape[1], 4);
    AIRC_ASSERT_OK(airc_pass_meta_propagation(g, in, &changed));
    assert_int_equal(changed, 0);
    airc_example_inputs_destroy(one);
    airc_example_inputs_destroy(two);
    airc_example_inputs_destroy(in);
    airc_graph_destroy(g);
}

/* The whole built-in stage on a traced graph with an input mutation. */
static void test_pipeline_builtins(void **state)
{
    (void)state;
    char *before = read_data(AIRC_TEST_DATA "/passes/functionalize", "intermediate_and_input.before.fx");
    airc_graph *g = airc_test_parse(g_ctx, before);
    airc_example_inputs *in;
    AIRC_ASSERT_OK(airc_example_inputs_create(g_ctx, &in));
    int64_t s[] = {3, 3};
    AIRC_ASSERT_OK(airc_example_inputs_add(in, AIRC_DTYPE_F32, 2, s, NULL));
    AIRC_ASSERT_OK(airc_example_inputs_add(in, AIRC_DTYPE_F32, 2, s, NULL));
    AIRC_ASSERT_OK(airc_run_pipeline(g, in, NULL, NULL, NULL));
    char *after = read_data(AIRC_TEST_DATA "/passes/functionalize", "intermediate_and_input.after.fx");
    airc_graph *want = airc_test_parse(g_ctx, after);
    assert_equivalent(g, want, "pipeline");
    assert_int_equal(airc_node_meta_kind(airc_graph_find_node(g, "mm")), AIRC_META_TENSOR);
    airc_graph_destroy(want);
    airc_graph_destroy(g);
    airc_example_inputs_destroy(in);
    free(before);
    free(after);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_conformance_dce_cse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cse_rules, setup, teardown),
        cmocka_unit_test_setup_teardown(test_functionalize_torch_cases, setup, teardown),
        cmocka_unit_test_setup_teardown(test_functionalize_twin_signatures, setup, teardown),
        cmocka_unit_test_setup_teardown(test_functionalize_custom_forms, setup, teardown),
        cmocka_unit_test_setup_teardown(test_functionalize_views, setup, teardown),
        cmocka_unit_test_setup_teardown(test_remove_noop_ops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_view_to_reshape, setup, teardown),
        cmocka_unit_test_setup_teardown(test_meta_propagation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pipeline_builtins, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
