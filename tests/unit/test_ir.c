/* IR core: graphs, nodes, values, names, edits, lint, DCE, clone,
 * constants, submodules, meta, attributes; each with its error paths. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

typedef struct fixture {
    airc_context *ctx;
    airc_graph *g;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    AIRC_ASSERT_OK(airc_context_create(NULL, &f->ctx));
    AIRC_ASSERT_OK(airc_graph_create(f->ctx, &f->g));
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    airc_graph_destroy(f->g);
    airc_context_destroy(f->ctx);
    free(f);
    return 0;
}

static const airc_value *vnode(airc_graph *g, airc_node *n)
{
    const airc_value *v;
    AIRC_ASSERT_OK(airc_value_node(g, n, &v));
    return v;
}

static const airc_value *vint(airc_graph *g, int64_t i)
{
    const airc_value *v;
    AIRC_ASSERT_OK(airc_value_int(g, i, &v));
    return v;
}

static airc_node *call2(airc_graph *g, const char *op, airc_node *a, const airc_value *b)
{
    const airc_value *args[2] = {vnode(g, a), b};
    airc_node *n;
    AIRC_ASSERT_OK(airc_graph_call_function(g, op, args, b ? 2 : 1, &n));
    return n;
}

static airc_node *call1(airc_graph *g, const char *op, airc_node *a)
{
    return call2(g, op, a, NULL);
}

static airc_node *output(airc_graph *g, airc_node *const *outs, size_t n)
{
    const airc_value *items[8];
    for (size_t i = 0; i < n; i++)
        items[i] = vnode(g, outs[i]);
    const airc_value *t;
    AIRC_ASSERT_OK(airc_value_tuple(g, items, n, &t));
    airc_node *o;
    AIRC_ASSERT_OK(airc_graph_output(g, t, &o));
    return o;
}

/* The seed-001 graph built through the API, as make_fx names it. */
static void build_seed(airc_graph *g, airc_node **nodes)
{
    airc_node *x, *mm, *abs_, *add, *sub;
    AIRC_ASSERT_OK(airc_graph_placeholder(g, "arg0_1", &x));
    mm = call2(g, "aten.mm.default", x, vnode(g, x));
    abs_ = call1(g, "aten.abs.default", mm);
    add = call2(g, "aten.add.Tensor", abs_, vint(g, 1));
    sub = call2(g, "aten.sub.Tensor", x, vnode(g, mm));
    airc_node *outs[2] = {add, sub};
    airc_node *o = output(g, outs, 2);
    if (nodes) {
        nodes[0] = x, nodes[1] = mm, nodes[2] = abs_, nodes[3] = add, nodes[4] = sub;
        nodes[5] = o;
    }
}

static void test_build_and_names(void **state)
{
    fixture *f = *state;
    airc_node *n[6];
    build_seed(f->g, n);
    assert_string_equal(airc_node_name(n[0]), "arg0_1");
    assert_string_equal(airc_node_name(n[1]), "mm");
    assert_string_equal(airc_node_name(n[2]), "abs_1"); /* abs is a Python builtin */
    assert_string_equal(airc_node_name(n[3]), "add");
    assert_string_equal(airc_node_name(n[4]), "sub");
    assert_string_equal(airc_node_name(n[5]), "output");
    assert_int_equal(airc_graph_num_nodes(f->g), 6);
    assert_ptr_equal(airc_graph_output_node(f->g), n[5]);
    assert_ptr_equal(airc_graph_find_node(f->g, "mm"), n[1]);
    assert_null(airc_graph_find_node(f->g, "nope"));
    assert_string_equal(airc_node_target(n[1]), "aten.mm.default");
    assert_string_equal(airc_op_target_string(airc_node_op(n[1])), "torch.ops.aten.mm.default");
    /* users in torch.fx order; x used twice by mm counts once */
    assert_int_equal(airc_node_num_users(n[0]), 2);
    assert_ptr_equal(airc_node_user(n[0], 0), n[1]);
    assert_ptr_equal(airc_node_user(n[0], 1), n[4]);
    assert_int_equal(airc_node_num_inputs(n[1]), 1);
    assert_int_equal(airc_node_num_users(n[1]), 2);
    AIRC_ASSERT_OK(airc_graph_lint(f->g));
    /* iteration both ways */
    size_t count = 0;
    for (airc_node *it = airc_graph_first_node(f->g); it; it = airc_node_next(it))
        count++;
    assert_int_equal(count, 6);
    assert_ptr_equal(airc_node_prev(n[1]), n[0]);
    assert_null(airc_node_prev(n[0]));
    assert_null(airc_node_next(n[5]));
    /* repeated creation: add_1, add_2 ...; explicit names keep torch.fx rules */
    airc_graph_set_insert_point(f->g, AIRC_INSERT_BEFORE, n[5]);
    airc_node *a1 = call2(f->g, "aten.add.Tensor", n[3], vint(f->g, 2));
    airc_node *a2 = call2(f->g, "aten.add.Tensor", a1, vint(f->g, 2));
    assert_string_equal(airc_node_name(a1), "add_1");
    assert_string_equal(airc_node_name(a2), "add_2");
    airc_node *s1, *s2, *s3;
    const airc_value *args[1] = {vnode(f->g, n[0])};
    AIRC_ASSERT_OK(airc_graph_create_node(f->g, AIRC_NODE_CALL_FUNCTION, "aten.relu.default",
                                          args, 1, NULL, NULL, 0, "add_07", &s1));
    assert_string_equal(airc_node_name(s1), "add_7");
    AIRC_ASSERT_OK(airc_graph_create_node(f->g, AIRC_NODE_CALL_FUNCTION, "aten.relu.default",
                                          args, 1, NULL, NULL, 0, "for", &s2));
    assert_string_equal(airc_node_name(s2), "for_1");
    AIRC_ASSERT_OK(airc_graph_create_node(f->g, AIRC_NODE_CALL_FUNCTION, "aten.relu.default",
                                          args, 1, NULL, NULL, 0, "a-b.c", &s3));
    assert_string_equal(airc_node_name(s3), "a_b_c");
    airc_node *s4;
    AIRC_ASSERT_OK(airc_graph_create_node(f->g, AIRC_NODE_CALL_FUNCTION, "aten.relu.default",
                                          args, 1, NULL, NULL, 0, "1abc", &s4));
    assert_string_equal(airc_node_name(s4), "_1abc");
    airc_node *p;
    AIRC_ASSERT_OK(airc_graph_create_node(f->g, AIRC_NODE_PLACEHOLDER, "fooBar", NULL, 0, NULL,
                                          NULL, 0, NULL, &p));
    assert_string_equal(airc_node_name(p), "foo_bar");
    assert_string_equal(airc_node_target(p), "fooBar");
    /* names are never released: an erased name is not reused */
    airc_node *r = call1(f->g, "aten.relu.default", n[0]);
    assert_string_equal(airc_node_name(r), "relu");
    AIRC_ASSERT_OK(airc_graph_erase_node(f->g, r));
    r = call1(f->g, "aten.relu.default", n[0]);
    assert_string_equal(airc_node_name(r), "relu_1");
}

static void test_many_names_linear(void **state)
{
    fixture *f = *state;
    airc_node *x;
    AIRC_ASSERT_OK(airc_graph_placeholder(f->g, "x", &x));
    airc_node *prev = x;
    for (int i = 0; i < 20000; i++)
        prev = call1(f->g, "aten.neg.default", prev);
    assert_string_equal(airc_node_name(prev), "neg_19999");
    assert_int_equal(airc_graph_num_nodes(f->g), 20001);
}

static void test_insert_points(void **state)
{
    fixture *f = *state;
    airc_node *n[6];
    build_seed(f->g, n);
    /* AFTER keeps creation order (unlike torch.fx's reversed chain) */
    AIRC_ASSERT_OK(airc_graph_set_insert_point(f->g, AIRC_INSERT_AFTER, n[1]));
    airc_node *e1 = call1(f->g, "aten.exp.default", n[1]);
    airc_node *e2 = call1(f->g, "aten.exp.default", e1);
    assert_ptr_equal(airc_node_next(n[1]), e1);
    assert_ptr_equal(airc_node_next(e1), e2);
    assert_ptr_equal(airc_node_next(e2), n[2]);
    /* BEFORE: in creation order just before the anchor */
    AIRC_ASSERT_OK(airc_graph_set_insert_point(f->g, AIRC_INSERT_BEFORE, n[4]));
    airc_node *b1 = call1(f->g, "aten.neg.default", n[0]);
    airc_node *b2 = call1(f->g, "aten.neg.default", b1);
    assert_ptr_equal(airc_node_next(b1), b2);
    assert_ptr_equal(airc_node_next(b2), n[4]);
    /* FRONT */
    AIRC_ASSERT_OK(airc_graph_set_insert_point(f->g, AIRC_INSERT_FRONT, NULL));
    airc_node *p;
    AIRC_ASSERT_OK(airc_graph_placeholder(f->g, "w", &p));
    assert_ptr_equal(airc_graph_first_node(f->g), p);
    /* an arg defined after the insertion point is refused; graph unchanged */
    AIRC_EXPECT(airc_graph_call_function(f->g, "aten.relu.default",
                                         (const airc_value *[]){vnode(f->g, n[1])}, 1, &p),
                AIRC_E_INVALID_GRAPH, "'mm' is defined after");
    int32_t where;
    airc_node *anchor;
    AIRC_ASSERT_OK(airc_graph_get_insert_point(f->g, &where, &anchor));
    assert_int_equal(where, AIRC_INSERT_FRONT);
    assert_int_equal(airc_graph_num_nodes(f->g), 11);
    AIRC_ASSERT_OK(airc_graph_lint(f->g));
    AIRC_EXPECT(airc_graph_set_insert_point(f->g, 99, NULL), AIRC_E_INVALID_ARGUMENT, "unknown");
    AIRC_EXPECT(airc_graph_set_insert_point(f->g, AIRC_INSERT_BEFORE, NULL), AIRC_E_MISUSE, NULL);
    /* erasing the anchor moves the insertion point instead of dangling */
    AIRC_ASSERT_OK(airc_graph_set_insert_point(f->g, AIRC_INSERT_BEFORE, e2));
    airc_node *dead = call1(f->g, "aten.neg.default", n[0]);
    AIRC_ASSERT_OK(airc_graph_set_insert_point(f->g, AIRC_INSERT_BEFORE, dead));
    AIRC_ASSERT_OK(airc_graph_erase_node(f->g, dead));
    airc_node *after = call1(f->g, "aten.neg.default", n[0]);
    assert_ptr_equal(airc_node_prev(after), e1);
    assert_ptr_equal(airc_node_next(after), e2);
    AIRC_ASSERT_OK(airc_graph_lint(f->g));
}

static void test_erase(void **state)
{
    fixture *f = *state;
    airc_node *n[6];
    build_seed(f->g, n);
    AIRC_EXPECT(airc_graph_erase_node(f->g, n[1]), AIRC_E_INVALID_GRAPH, "still has 2 user");
    AIRC_ASSERT_OK(airc_graph_lint(f->g));
    airc_node *dead = call1(f->g, "aten.neg.default", n[1]);
    /* created after output: lint complains, then erase fixes it */
    AIRC_EXPECT(airc_graph_lint(f->g), AIRC_E_INVALID_GRAPH, "output must be last");
    AIRC_ASSERT_OK(airc_graph_erase_node(f->g, dead));
    assert_int_equal(airc_node_num_users(n[1]), 2);
    assert_true(airc_node_is_erased(dead));
    assert_string_equal(airc_node_name(dead), "neg"); /* readable after erase */
    AIRC_EXPECT(airc_graph_erase_node(f->g, dead), AIRC_E_MISUSE, "already erased");
    AIRC_EXPECT(airc_node_set_args(dead, NULL, 0), AIRC_E_MISUSE, "erased");
    AIRC_EXPECT(airc_graph_erase_node(f->g, NULL), AIRC_E_MISUSE, NULL);
    assert_int_equal(airc_graph_num_nodes(f->g), 6);
    AIRC_ASSERT_OK(airc_graph_lint(f->g));
    /* a node of another graph */
    airc_graph *g2;
    AIRC_ASSERT_OK(airc_graph_create(f->ctx, &g2));
    airc_node *y;
    AIRC_ASSERT_OK(airc_graph_placeholder(g2, "y", &y));
    AIRC_EXPECT(airc_graph_erase_node(f->g, y), AIRC_E_MISUSE, "not in this graph");
    AIRC_EXPECT(airc_value_node(f->g, y, &(const airc_value *){0}), AIRC_E_INVALID_ARGUMENT,
                "another graph");
    airc_graph_destroy(g2);
}

static void test_replace(void **state)
{
    fixture *f = *state;
    airc_node *n[6];
    build_seed(f->g, n);
    /* replace mm by relu(x) inserted before mm */
    AIRC_ASSERT_OK(airc_graph_set_insert_point(f->g, AIRC_INSERT_BEFORE, n[1]));
    airc_node *r = call1(f->g, "aten.relu.default", n[0]);
    size_t changed = 0;
    AIRC_ASSERT_OK(airc_node_replace_all_uses_with(n[1], r, NULL, NULL, &changed));
    assert_int_equal(changed, 2);
    assert_int_equal(airc_node_num_users(n[1]), 0);
    assert_int_equal(airc_node_num_users(r), 2);
    airc_node *in;
    AIRC_ASSERT_OK(airc_value_get_node(airc_node_arg(n[4], 1), &in));
    assert_ptr_equal(in, r);
    AIRC_ASSERT_OK(airc_graph_lint(f->g));
    /* a replacement defined after a user is refused; nothing changes */
    AIRC_EXPECT(airc_node_replace_all_uses_with(r, n[3], NULL, NULL, NULL), AIRC_E_INVALID_GRAPH,
                "not defined before user");
    assert_int_equal(airc_node_num_users(r), 2);
    AIRC_EXPECT(airc_node_replace_all_uses_with(r, r, NULL, NULL, NULL), AIRC_E_INVALID_ARGUMENT,
                "itself");
    /* replace_input_with */
    AIRC_ASSERT_OK(airc_node_replace_input_with(n[4], r, n[0]));
    assert_int_equal(airc_node_num_inputs(n[4]), 1);
    assert_int_equal(airc_node_num_users(r), 1);
    AIRC_EXPECT(airc_node_replace_input_with(n[4], n[2], n[0]), AIRC_E_NOT_FOUND,
                "is not an input");
    AIRC_EXPECT(airc_node_replace_input_with(n[2], r, n[3]), AIRC_E_INVALID_GRAPH,
                "defined after");
    /* retarget */
    AIRC_ASSERT_OK(airc_node_set_target(n[3], "aten.mul.Tensor"));
    assert_string_equal(airc_node_target(n[3]), "aten.mul.Tensor");
    AIRC_EXPECT(airc_node_set_target(n[3], "aten.nope.default"), AIRC_E_NOT_FOUND, "nope");
    AIRC_EXPECT(airc_node_set_target(n[0], "aten.relu.default"), AIRC_E_INVALID_ARGUMENT,
                "placeholder");
    AIRC_ASSERT_OK(airc_graph_lint(f->g));
}

static int32_t only_sub(void *ud, const airc_node *u)
{
    return !strcmp(airc_node_name(u), (const char *)ud);
}

static void test_replace_filter_and_args(void **state)
{
    fixture *f = *state;
    airc_node *n[6];
    build_seed(f->g, n);
    AIRC_ASSERT_OK(airc_graph_set_insert_point(f->g, AIRC_INSERT_BEFORE, n[4]));
    airc_node *r = call1(f->g, "aten.relu.default", n[1]);
    size_t changed = 0;
    AIRC_ASSERT_OK(airc_node_replace_all_uses_with(n[1], r, only_sub, "sub", &changed));
    assert_int_equal(changed, 1);
    assert_int_equal(airc_node_num_users(n[1]), 2); /* abs_1 and r */
    /* set_args moves the node to the end of each input's users (torch.fx) */
    AIRC_ASSERT_OK(airc_node_update_arg(n[3], 1, vint(f->g, 5)));
    int64_t v;
    AIRC_ASSERT_OK(airc_value_get_int(airc_node_arg(n[3], 1), &v));
    assert_int_equal(v, 5);
    AIRC_EXPECT(airc_node_update_arg(n[3], 7, vint(f->g, 5)), AIRC_E_INVALID_ARGUMENT,
                "no index 7");
    /* a self reference is refused */
    AIRC_EXPECT(airc_node_update_arg(n[3], 1, vnode(f->g, n[3])), AIRC_E_INVALID_GRAPH,
                "the node itself");
    /* kwargs */
    const airc_value *alpha;
    AIRC_ASSERT_OK(airc_value_int(f->g, 2, &alpha));
    AIRC_ASSERT_OK(airc_node_update_kwarg(n[3], "alpha", alpha));
    assert_ptr_equal(airc_node_kwarg(n[3], "alpha"), alpha);
    assert_int_equal(airc_node_num_kwargs(n[3]), 1);
    assert_string_equal(airc_node_kwarg_name(n[3], 0), "alpha");
    AIRC_ASSERT_OK(airc_node_update_kwarg(n[3], "alpha", NULL));
    assert_int_equal(airc_node_num_kwargs(n[3]), 0);
    const char *names[2] = {"a", "a"};
    const airc_value *vals[2] = {alpha, alpha};
    AIRC_EXPECT(airc_node_set_kwargs(n[3], names, vals, 2), AIRC_E_INVALID_ARGUMENT,
                "given twice");
    AIRC_ASSERT_OK(airc_graph_lint(f->g));
}

static void test_move(void **state)
{
    fixture *f = *state;
    airc_node *n[6];
    build_seed(f->g, n);
    /* sub may move before abs_1 (it needs x and mm only) */
    AIRC_ASSERT_OK(airc_node_move_before(n[4], n[2]));
    assert_ptr_equal(airc_node_next(n[1]), n[4]);
    AIRC_ASSERT_OK(airc_graph_lint(f->g));
    AIRC_EXPECT(airc_node_move_before(n[4], n[1]), AIRC_E_INVALID_GRAPH, "before its input 'mm'");
    AIRC_EXPECT(airc_node_move_after(n[1], n[2]), AIRC_E_INVALID_GRAPH, "after its user");
    AIRC_ASSERT_OK(airc_node_move_after(n[4], n[3]));
    assert_ptr_equal(airc_node_next(n[4]), n[5]);
    AIRC_ASSERT_OK(airc_graph_lint(f->g));
}

static void test_many_inserts_relabel(void **state)
{
    fixture *f = *state;
    airc_node *n[6];
    build_seed(f->g, n);
    /* 200 inserts at the same spot exhaust the label gap and force relabels */
    AIRC_ASSERT_OK(airc_graph_set_insert_point(f->g, AIRC_INSERT_BEFORE, n[2]));
    for (int i = 0; i < 200; i++)
        call1(f->g, "aten.neg.default", n[1]);
    AIRC_ASSERT_OK(airc_graph_set_insert_point(f->g, AIRC_INSERT_AFTER, n[1]));
    for (int i = 0; i < 200; i++)
        call1(f->g, "aten.neg.default", n[1]);
    AIRC_ASSERT_OK(airc_graph_lint(f->g));
    int32_t changed = 0;
    AIRC_ASSERT_OK(airc_graph_eliminate_dead_code(f->g, &changed));
    assert_true(changed);
    assert_int_equal(airc_graph_num_nodes(f->g), 6);
}

static void test_dce(void **state)
{
    fixture *f = *state;
    airc_node *n[6];
    build_seed(f->g, n);
    AIRC_ASSERT_OK(airc_graph_set_insert_point(f->g, AIRC_INSERT_BEFORE, n[5]));
    airc_node *d1 = call1(f->g, "aten.relu.default", n[1]);
    call2(f->g, "aten.mul.Tensor", d1, vint(f->g, 3));
    /* a side-effect op without users stays (torch 1.13 would delete it) */
    airc_node *rec;
    AIRC_ASSERT_OK(airc_graph_call_function(f->g, "air.record.default", NULL, 0, &rec));
    airc_node *unused;
    AIRC_ASSERT_OK(airc_graph_placeholder(f->g, "unused", &unused));
    int32_t changed = 0;
    AIRC_ASSERT_OK(airc_graph_eliminate_dead_code(f->g, &changed));
    assert_true(changed);
    assert_int_equal(airc_graph_num_nodes(f->g), 8);
    assert_false(airc_node_is_erased(rec));
    assert_false(airc_node_is_erased(unused));
    assert_true(airc_node_is_erased(d1));
    AIRC_ASSERT_OK(airc_graph_eliminate_dead_code(f->g, &changed));
    assert_false(changed);
}

static void test_lint_scopes(void **state)
{
    fixture *f = *state;
    airc_node *n[6];
    build_seed(f->g, n);
    airc_graph *g = f->g;
    const airc_value *k, *v, *keys, *vals;
    AIRC_ASSERT_OK(airc_value_string(g, "_user_stream_label", &k));
    AIRC_ASSERT_OK(airc_value_string(g, "stream_1", &v));
    AIRC_ASSERT_OK(airc_value_list(g, &k, 1, &keys));
    AIRC_ASSERT_OK(airc_value_list(g, &v, 1, &vals));
    AIRC_ASSERT_OK(airc_graph_set_insert_point(g, AIRC_INSERT_BEFORE, n[1]));
    airc_node *enter;
    const airc_value *args[2] = {keys, vals};
    AIRC_ASSERT_OK(airc_graph_call_function(g, "air.scope_enter.default", args, 2, &enter));
    assert_string_equal(airc_node_name(enter), "scope_enter");
    AIRC_EXPECT(airc_graph_lint(g), AIRC_E_INVALID_GRAPH, "no matching air.scope_exit");
    AIRC_ASSERT_OK(airc_graph_set_insert_point(g, AIRC_INSERT_AFTER, n[2]));
    airc_node *rec, *exit_;
    AIRC_ASSERT_OK(airc_graph_call_function(g, "air.record.default", NULL, 0, &rec));
    AIRC_ASSERT_OK(airc_graph_call_function(g, "air.scope_exit.default", NULL, 0, &exit_));
    AIRC_ASSERT_OK(airc_graph_lint(g));
    AIRC_ASSERT_OK(airc_graph_set_insert_point(g, AIRC_INSERT_BEFORE, n[4]));
    const airc_value *recs;
    const airc_value *rv = vnode(g, rec);
    AIRC_ASSERT_OK(airc_value_list(g, &rv, 1, &recs));
    airc_node *wait;
    AIRC_ASSERT_OK(airc_graph_call_function(g, "air.wait.default", &recs, 1, &wait));
    AIRC_ASSERT_OK(airc_graph_lint(g));
    /* an exit before any enter */
    AIRC_ASSERT_OK(airc_graph_set_insert_point(g, AIRC_INSERT_FRONT, NULL));
    airc_node *bad;
    AIRC_ASSERT_OK(airc_graph_call_function(g, "air.scope_exit.default", NULL, 0, &bad));
    AIRC_EXPECT(airc_graph_lint(g), AIRC_E_INVALID_GRAPH, "without a matching");
    AIRC_ASSERT_OK(airc_graph_erase_node(g, bad));
    AIRC_ASSERT_OK(airc_graph_lint(g));
}

static void test_lint_schema(void **state)
{
    fixture *f = *state;
    airc_graph *g = f->g;
    airc_node *x;
    AIRC_ASSERT_OK(airc_graph_placeholder(g, "x", &x));
    /* mm needs two tensors */
    airc_node *mm = call1(g, "aten.mm.default", x);
    airc_node *outs[1] = {mm};
    output(g, outs, 1);
    AIRC_EXPECT(airc_graph_lint(g), AIRC_E_INVALID_GRAPH, "mm");
    /* numbers are accepted for Tensor arguments (make_fx prints add(x, 1)), strings not */
    const airc_value *str;
    AIRC_ASSERT_OK(airc_value_string(g, "oops", &str));
    AIRC_ASSERT_OK(airc_node_set_args(mm, (const airc_value *[]){vnode(g, x), str}, 2));
    AIRC_EXPECT(airc_graph_lint(g), AIRC_E_INVALID_GRAPH, "mat2");
    AIRC_ASSERT_OK(airc_node_set_args(mm, (const airc_value *[]){vnode(g, x), vnode(g, x)}, 2));
    AIRC_ASSERT_OK(airc_graph_lint(g));
    /* no output */
    airc_graph *empty;
    AIRC_ASSERT_OK(airc_graph_create(f->ctx, &empty));
    AIRC_EXPECT(airc_graph_lint(empty), AIRC_E_INVALID_GRAPH, "no output");
    airc_graph_destroy(empty);
}

/* lint notices use-def links that disagree (only reachable by corrupting
 * internals, which a buggy pass written against ir.h could do) */
static void test_lint_use_def(void **state)
{
    fixture *f = *state;
    airc_node *n[6];
    build_seed(f->g, n);
    n[1]->nusers--; /* mm forgets its last user (sub) */
    AIRC_EXPECT(airc_graph_lint(f->g), AIRC_E_INTERNAL, "users and inputs disagree");
    n[1]->nusers++;
    airc_node *saved = n[1]->users[1];
    n[1]->users[1] = n[3]; /* right count, wrong user */
    AIRC_EXPECT(airc_graph_lint(f->g), AIRC_E_INTERNAL, "disagree");
    n[1]->users[1] = saved;
    AIRC_ASSERT_OK(airc_graph_lint(f->g));
}

/* Erasing many nodes that share an input, in one call. */
static void test_erase_batch(void **state)
{
    fixture *f = *state;
    airc_node *n[6];
    build_seed(f->g, n);
    AIRC_ASSERT_OK(airc_graph_set_insert_point(f->g, AIRC_INSERT_BEFORE, n[5]));
    airc_node *dead[100];
    for (int i = 0; i < 100; i++)
        dead[i] = call1(f->g, "aten.neg.default", i % 2 ? dead[i - 1] : n[0]);
    assert_int_equal(airc_node_num_users(n[0]), 52);
    /* a user left behind: refused, nothing changes */
    AIRC_EXPECT(airc_graph_erase_nodes(f->g, dead, 99), AIRC_E_INVALID_GRAPH,
                "is not erased with it");
    AIRC_EXPECT(airc_graph_erase_nodes(f->g, (airc_node *[]){dead[1], dead[1]}, 2),
                AIRC_E_INVALID_ARGUMENT, "listed twice");
    assert_int_equal(airc_graph_num_nodes(f->g), 106);
    AIRC_ASSERT_OK(airc_graph_erase_nodes(f->g, dead, 100));
    assert_int_equal(airc_graph_num_nodes(f->g), 6);
    assert_int_equal(airc_node_num_users(n[0]), 2);
    assert_ptr_equal(airc_node_user(n[0], 0), n[1]);
    assert_ptr_equal(airc_node_user(n[0], 1), n[4]);
    AIRC_EXPECT(airc_graph_erase_nodes(f->g, dead, 1), AIRC_E_MISUSE, "already erased");
    AIRC_ASSERT_OK(airc_graph_lint(f->g));
}

static void test_values(void **state)
{
    fixture *f = *state;
    airc_graph *g = f->g;
    const airc_value *v, *items[3], *lst;
    AIRC_ASSERT_OK(airc_value_float(g, 1e-05, &items[0]));
    AIRC_ASSERT_OK(airc_value_bool(g, 7, &items[1]));
    AIRC_ASSERT_OK(airc_value_string(g, "tanh", &items[2]));
    AIRC_ASSERT_OK(airc_value_list(g, items, 3, &lst));
    assert_int_equal(airc_value_get_kind(lst), AIRC_VALUE_LIST);
    assert_int_equal(airc_value_length(lst), 3);
    assert_null(airc_value_item(lst, 3));
    double d;
    AIRC_ASSERT_OK(airc_value_get_float(airc_value_item(lst, 0), &d));
    assert_true(d == 1e-05);
    int32_t b;
    AIRC_ASSERT_OK(airc_value_get_bool(items[1], &b));
    assert_int_equal(b, 1);
    const char *s;
    AIRC_ASSERT_OK(airc_value_get_string(items[2], &s));
    assert_string_equal(s, "tanh");
    AIRC_EXPECT(airc_value_get_string(items[0], &s), AIRC_E_INVALID_ARGUMENT, "float, not str");
    AIRC_ASSERT_OK(airc_value_device(g, "cuda", 0, &v));
    const char *dt;
    int32_t idx;
    AIRC_ASSERT_OK(airc_value_get_device(v, &dt, &idx));
    assert_string_equal(dt, "cuda");
    assert_int_equal(idx, 0);
    AIRC_EXPECT(airc_value_device(g, "cu da", 0, &v), AIRC_E_INVALID_ARGUMENT, "bad device");
    AIRC_ASSERT_OK(airc_value_dtype(g, AIRC_DTYPE_BF16, &v));
    airc_dtype dtype;
    AIRC_ASSERT_OK(airc_value_get_dtype(v, &dtype));
    assert_int_equal(dtype, AIRC_DTYPE_BF16);
    AIRC_EXPECT(airc_value_dtype(g, 77, &v), AIRC_E_INVALID_ARGUMENT, "invalid dtype");
    AIRC_ASSERT_OK(airc_value_memory_format(g, AIRC_MEMORY_FORMAT_CHANNELS_LAST, &v));
    int32_t e;
    AIRC_ASSERT_OK(airc_value_get_enum(v, &e));
    assert_int_equal(e, AIRC_MEMORY_FORMAT_CHANNELS_LAST);
    /* equality is deep */
    const airc_value *lst2;
    AIRC_ASSERT_OK(airc_value_list(g, items, 3, &lst2));
    assert_true(airc_value_equal(lst, lst2));
    AIRC_ASSERT_OK(airc_value_tuple(g, items, 3, &lst2));
    assert_false(airc_value_equal(lst, lst2));
    /* nesting is bounded */
    const airc_value *deep = lst;
    airc_status st = AIRC_OK;
    for (int i = 0; i < AIRC_MAX_VALUE_DEPTH + 2 && st == AIRC_OK; i++)
        st = airc_value_list(g, &deep, 1, &deep);
    AIRC_EXPECT(st, AIRC_E_INVALID_ARGUMENT, "nest deeper");
    /* values of another graph are refused */
    airc_graph *g2;
    AIRC_ASSERT_OK(airc_graph_create(f->ctx, &g2));
    AIRC_EXPECT(airc_value_list(g2, items, 3, &v), AIRC_E_INVALID_ARGUMENT, "another graph");
    airc_graph_destroy(g2);
    /* NULL handles */
    AIRC_EXPECT(airc_value_int(NULL, 1, &v), AIRC_E_MISUSE, NULL);
    assert_int_equal(airc_value_get_kind(NULL), AIRC_VALUE_NONE);
}

static void test_meta_and_attrs(void **state)
{
    fixture *f = *state;
    airc_node *n[6];
    build_seed(f->g, n);
    int64_t shape[2] = {3, 3};
    AIRC_ASSERT_OK(airc_node_set_meta(n[0], AIRC_DTYPE_F32, 2, shape, NULL));
    airc_dtype dt;
    int32_t nd;
    const int64_t *sh, *st;
    AIRC_ASSERT_OK(airc_node_output_meta(n[0], 0, &dt, &nd, &sh, &st));
    assert_int_equal(dt, AIRC_DTYPE_F32);
    assert_int_equal(nd, 2);
    assert_int_equal(st[0], 3);
    assert_int_equal(st[1], 1);
    AIRC_EXPECT(airc_node_output_meta(n[0], 1, &dt, NULL, NULL, NULL), AIRC_E_NOT_FOUND, NULL);
    int64_t bad[2] = {3, -1};
    AIRC_EXPECT(airc_node_set_meta(n[0], AIRC_DTYPE_F32, 2, bad, NULL), AIRC_E_INVALID_ARGUMENT,
                "negative size");
    AIRC_EXPECT(airc_node_set_meta(n[0], AIRC_DTYPE_F32, AIRC_MAX_DIMS + 1, shape, NULL),
                AIRC_E_INVALID_ARGUMENT, "rank");
    AIRC_ASSERT_OK(airc_node_set_meta_tuple(n[1], 2));
    AIRC_ASSERT_OK(airc_node_set_output_meta(n[1], 1, AIRC_DTYPE_I64, 0, NULL, NULL));
    assert_int_equal(airc_node_meta_kind(n[1]), AIRC_META_TUPLE);
    assert_int_equal(airc_node_num_outputs(n[1]), 2);
    AIRC_EXPECT(airc_node_set_output_meta(n[1], 2, AIRC_DTYPE_I64, 0, NULL, NULL),
                AIRC_E_INVALID_ARGUMENT, NULL);
    AIRC_ASSERT_OK(airc_node_clear_meta(n[1]));
    assert_int_equal(airc_node_num_outputs(n[1]), 0);
    const airc_value *label;
    AIRC_ASSERT_OK(airc_value_string(f->g, "stream_1", &label));
    AIRC_ASSERT_OK(airc_node_set_attr(n[1], "_user_stream_label", label));
    assert_ptr_equal(airc_node_get_attr(n[1], "_user_stream_label"), label);
    assert_int_equal(airc_node_num_attrs(n[1]), 1);
    assert_string_equal(airc_node_attr_key(n[1], 0), "_user_stream_label");
    AIRC_ASSERT_OK(airc_node_set_attr(n[1], "_user_stream_label", NULL));
    assert_null(airc_node_get_attr(n[1], "_user_stream_label"));
}

static void free_counter(void *ud)
{
    (*(int *)ud)++;
}

static void test_constants_submodules_clone(void **state)
{
    fixture *f = *state;
    airc_graph *g = f->g;
    float w[6] = {1, 2, 3, 4, 5, 6};
    int64_t shape[2] = {2, 3};
    AIRC_ASSERT_OK(airc_graph_set_constant(g, "weight", AIRC_DTYPE_F32, 2, shape, NULL, w, NULL,
                                           NULL));
    w[0] = 100; /* copied */
    static float borrowed[2] = {7, 8};
    int freed = 0;
    int64_t s1[1] = {2};
    AIRC_ASSERT_OK(airc_graph_set_constant(g, "bias", AIRC_DTYPE_F32, 1, s1, NULL, borrowed,
                                           free_counter, &freed));
    AIRC_EXPECT(airc_graph_set_constant(g, "bias", AIRC_DTYPE_F32, 1, s1, NULL, borrowed, NULL,
                                        NULL),
                AIRC_E_EXISTS, "bias");
    void *data;
    AIRC_ASSERT_OK(airc_graph_get_constant(g, "weight", NULL, NULL, NULL, NULL, &data));
    assert_true(((float *)data)[0] == 1.0f);
    AIRC_EXPECT(airc_graph_get_constant(g, "nope", NULL, NULL, NULL, NULL, &data),
                AIRC_E_NOT_FOUND, "nope");
    assert_int_equal(airc_graph_num_constants(g), 2);

    airc_node *x, *wt;
    AIRC_ASSERT_OK(airc_graph_placeholder(g, "x", &x));
    AIRC_ASSERT_OK(airc_graph_get_attr(g, "weight", &wt));
    /* a submodule and a call_module node */
    airc_graph *sub;
    AIRC_ASSERT_OK(airc_graph_create(f->ctx, &sub));
    airc_node *sx;
    AIRC_ASSERT_OK(airc_graph_placeholder(sub, "a", &sx));
    airc_node *souts[1] = {call1(sub, "aten.relu.default", sx)};
    output(sub, souts, 1);
    AIRC_ASSERT_OK(airc_graph_add_submodule(g, "submod_0", sub));
    AIRC_EXPECT(airc_graph_add_submodule(g, "submod_1", sub), AIRC_E_INVALID_ARGUMENT, "parent");
    airc_node *cm;
    const airc_value *a1 = vnode(g, x);
    AIRC_ASSERT_OK(airc_graph_create_node(g, AIRC_NODE_CALL_MODULE, "submod_0", &a1, 1, NULL, NULL,
                                          0, NULL, &cm));
    AIRC_EXPECT(airc_graph_create_node(g, AIRC_NODE_CALL_MODULE, "submod_9", &a1, 1, NULL, NULL,
                                       0, NULL, &cm),
                AIRC_E_NOT_FOUND, "submod_9");
    airc_node *mm = call2(g, "aten.mm.default", cm, vnode(g, wt));
    airc_node *outs[1] = {mm};
    output(g, outs, 1);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    int64_t xs[2] = {4, 2};
    AIRC_ASSERT_OK(airc_node_set_meta(x, AIRC_DTYPE_F32, 2, xs, NULL));

    airc_graph *c;
    AIRC_ASSERT_OK(airc_graph_clone(g, &c));
    AIRC_ASSERT_OK(airc_graph_lint(c));
    assert_int_equal(airc_graph_num_nodes(c), airc_graph_num_nodes(g));
    airc_node *cx = airc_graph_find_node(c, "x");
    assert_non_null(cx);
    assert_ptr_not_equal(cx, x);
    assert_int_equal(airc_node_num_outputs(cx), 1);
    assert_non_null(airc_graph_submodule(c, "submod_0"));
    assert_ptr_not_equal(airc_graph_submodule(c, "submod_0"), sub);
    /* edits of the clone leave the original alone */
    airc_node *cmm = airc_graph_find_node(c, "mm");
    AIRC_ASSERT_OK(airc_node_set_target(cmm, "aten.bmm.default"));
    assert_string_equal(airc_node_target(mm), "aten.mm.default");
    /* constants are shared: freed once the last graph is gone */
    airc_graph_destroy(g);
    f->g = NULL;
    assert_int_equal(freed, 0);
    AIRC_ASSERT_OK(airc_graph_get_constant(c, "bias", NULL, NULL, NULL, NULL, &data));
    assert_ptr_equal(data, borrowed);
    airc_graph_destroy(c);
    assert_int_equal(freed, 1);
}

static void test_misuse(void **state)
{
    (void)state;
    airc_graph *g = NULL;
    AIRC_EXPECT(airc_graph_create(NULL, &g), AIRC_E_MISUSE, "context is NULL");
    AIRC_EXPECT(airc_graph_lint(NULL), AIRC_E_MISUSE, NULL);
    airc_graph_destroy(NULL);
    airc_context_destroy(NULL);
    assert_int_equal(airc_graph_num_nodes(NULL), 0);
    assert_null(airc_graph_first_node(NULL));
    assert_null(airc_node_name(NULL));
    assert_string_equal(airc_status_name(AIRC_E_PARSE), "AIRC_E_PARSE");
    assert_string_equal(airc_status_name(999), "AIRC_E_UNKNOWN");
    assert_string_equal(airc_version(), AIRC_VERSION_STRING);
    assert_int_equal(airc_abi_version(), AIRC_ABI_VERSION);
    /* a context destroyed while a graph lives stays alive for the graph */
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    AIRC_ASSERT_OK(airc_graph_create(ctx, &g));
    airc_context_destroy(ctx);
    airc_node *x;
    AIRC_ASSERT_OK(airc_graph_placeholder(g, "x", &x));
    airc_graph_destroy(g);
    /* bad allocator */
    airc_allocator a = {0};
    AIRC_EXPECT(airc_context_create(&a, &ctx), AIRC_E_INVALID_ARGUMENT, "struct_size");
}

/* Every allocation failure while building, editing and cloning returns
 * AIRC_E_OUT_OF_MEMORY, leaves the graph linting, and leaks nothing. */
static void test_failing_allocator(void **state)
{
    (void)state;
    for (size_t fail_at = 1;; fail_at++) {
        airc_test_alloc ta;
        airc_allocator a;
        airc_test_alloc_init(&ta, &a);
        ta.fail_at = fail_at;
        airc_context *ctx = NULL;
        airc_status st = airc_context_create(&a, &ctx);
        if (st != AIRC_OK) {
            assert_int_equal(st, AIRC_E_OUT_OF_MEMORY);
            assert_int_equal(ta.live, 0);
            continue;
        }
        airc_graph *g = NULL, *c = NULL;
        st = airc_graph_create(ctx, &g);
        size_t steps = 0;
        airc_node *x = NULL, *mm = NULL, *r = NULL;
        const airc_value *vx = NULL, *args[2];
        if (st == AIRC_OK && (st = airc_graph_placeholder(g, "x", &x)) == AIRC_OK)
            steps++;
        if (st == AIRC_OK && (st = airc_value_node(g, x, &vx)) == AIRC_OK) {
            args[0] = args[1] = vx;
            if ((st = airc_graph_call_function(g, "aten.mm.default", args, 2, &mm)) == AIRC_OK)
                steps++;
        }
        if (st == AIRC_OK && (st = airc_graph_call_function(g, "aten.relu.default", &vx, 1, &r)) ==
                                 AIRC_OK)
            steps++;
        if (st == AIRC_OK) {
            size_t before = airc_graph_num_nodes(g);
            st = airc_node_replace_all_uses_with(x, mm, NULL, NULL, NULL);
            if (st == AIRC_E_INVALID_GRAPH) /* mm uses x: refused, nothing changed */
                st = AIRC_OK;
            assert_int_equal(airc_graph_num_nodes(g), before);
        }
        if (st == AIRC_OK)
            st = airc_node_replace_input_with(r, x, mm) == AIRC_E_INVALID_GRAPH ? AIRC_OK : st;
        if (st == AIRC_OK) {
            /* a rename that fails leaves the name; one that works is found */
            st = airc_node_rename(r, "x", NULL);
            assert_string_equal(airc_node_name(r), st == AIRC_OK ? "x_1" : "relu");
            assert_ptr_equal(airc_graph_find_node(g, airc_node_name(r)), r);
        }
        if (st == AIRC_OK)
            st = airc_graph_clone(g, &c);
        if (st != AIRC_OK) {
            assert_int_equal(st, AIRC_E_OUT_OF_MEMORY);
            assert_int_equal(airc_last_error_code(), AIRC_E_OUT_OF_MEMORY);
            /* the graph built so far still holds exactly the completed steps */
            if (g)
                assert_int_equal(airc_graph_num_nodes(g), steps);
        }
        airc_graph_destroy(c);
        airc_graph_destroy(g);
        airc_context_destroy(ctx);
        assert_int_equal(ta.live, 0);
        if (ta.failures == 0)
            break; /* ran to completion without hitting fail_at */
    }
}

/* Lint: air.record's result is an event handle that only air.wait takes. */
static void test_lint_record_readers(void **state)
{
    fixture *f = *state;
    static const char *const head =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %record : [#users=1] = call_function[target=torch.ops.air.record.default](args = (), "
        "kwargs = {})\n";
    char text[1024];
    snprintf(text, sizeof text,
             "%s    %%wait : [#users=0] = call_function[target=torch.ops.air.wait.default](args = "
             "([%%record],), kwargs = {})\n    return (x,)\n",
             head);
    airc_graph *g = airc_test_parse(f->ctx, text);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    airc_graph_destroy(g);
    snprintf(text, sizeof text,
             "%s    %%add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = "
             "(%%x, %%record), kwargs = {})\n    return (add,)\n",
             head);
    g = airc_test_parse(f->ctx, text);
    AIRC_EXPECT(airc_graph_lint(g), AIRC_E_INVALID_GRAPH,
                "node 'add' reads the result of air.record 'record', which only air.wait may take");
    airc_graph_destroy(g);
}

/* airc_node_rename: torch.fx's Node._rename (torch 2), names as
 * torch.fx's namespace makes them (checked with torch 1.13's
 * _graph_namespace.create_name: x -> x_1, "my node!" -> my_node_,
 * relu -> relu_1, x_1 -> x_2). */
static void test_rename(void **state)
{
    fixture *f = *state;
    airc_graph *g = f->g;
    airc_node *x, *y;
    AIRC_ASSERT_OK(airc_graph_placeholder(g, "x", &x));
    y = call1(g, "aten.relu.default", x);
    output(g, &y, 1);
    assert_string_equal(airc_node_name(y), "relu");
    const char *name = NULL;
    AIRC_ASSERT_OK(airc_node_rename(y, "x", &name)); /* taken */
    assert_string_equal(name, "x_1");
    assert_string_equal(airc_node_name(y), "x_1");
    assert_ptr_equal(airc_graph_find_node(g, "x_1"), y);
    assert_null(airc_graph_find_node(g, "relu")); /* reserved, by nobody */
    AIRC_ASSERT_OK(airc_node_rename(y, "my node!", &name));
    assert_string_equal(name, "my_node_");
    AIRC_ASSERT_OK(airc_node_rename(y, "my_node_", &name)); /* its own name */
    assert_string_equal(name, "my_node_");
    AIRC_ASSERT_OK(airc_node_rename(y, "x_1", NULL)); /* its old name stays taken */
    assert_string_equal(airc_node_name(y), "x_2");
    airc_node *z = call1(g, "aten.relu.default", x); /* relu is never reused */
    assert_string_equal(airc_node_name(z), "relu_1");
    AIRC_ASSERT_OK(airc_graph_erase_node(g, z));
    /* users print the new name, and the text parses back the same */
    char *text = airc_test_print(g, AIRC_PRINT_DEFAULT);
    assert_non_null(strstr(text, "%x_2 : [#users=1] = call_function[target=torch.ops.aten.relu."
                                 "default](args = (%x,), kwargs = {})"));
    assert_non_null(strstr(text, "return (x_2,)"));
    airc_graph *again = airc_test_parse(f->ctx, text);
    char *text2 = airc_test_print(again, AIRC_PRINT_DEFAULT);
    assert_string_equal(text, text2);
    free(text);
    free(text2);
    airc_graph_destroy(again);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    /* errors */
    AIRC_EXPECT(airc_node_rename(y, "", NULL), AIRC_E_INVALID_ARGUMENT, "x_2");
    AIRC_EXPECT(airc_node_rename(y, NULL, NULL), AIRC_E_INVALID_ARGUMENT, NULL);
    AIRC_EXPECT(airc_node_rename(NULL, "a", NULL), AIRC_E_MISUSE, NULL);
    assert_string_equal(airc_node_name(y), "x_2");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_build_and_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_many_names_linear, setup, teardown),
        cmocka_unit_test_setup_teardown(test_insert_points, setup, teardown),
        cmocka_unit_test_setup_teardown(test_erase, setup, teardown),
        cmocka_unit_test_setup_teardown(test_replace, setup, teardown),
        cmocka_unit_test_setup_teardown(test_replace_filter_and_args, setup, teardown),
        cmocka_unit_test_setup_teardown(test_move, setup, teardown),
        cmocka_unit_test_setup_teardown(test_many_inserts_relabel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dce, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lint_scopes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lint_schema, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lint_use_def, setup, teardown),
        cmocka_unit_test_setup_teardown(test_erase_batch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_meta_and_attrs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_constants_submodules_clone, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rename, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lint_record_readers, setup, teardown),
        cmocka_unit_test(test_misuse),
        cmocka_unit_test(test_failing_allocator),
    };
    return cmocka_run_group_tests_name("ir", tests, NULL, NULL);
}
