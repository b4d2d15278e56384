/* Pass manager: order, constraints, checks, steps, transactions, the
 * context's named passes, logging, the pipeline's switches, and allocation
 * failures over a whole run. Expected behaviour is torch.fx 1.13's
 * PassManager (torch-fx-semantics.md §2.2) minus its listed bugs. */
#include "testutil.h"

#include "ir/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRY(expr)                                                                                  \
    do {                                                                                           \
        airc_status try_st_ = (expr);                                                              \
        if (try_st_ != AIRC_OK)                                                                    \
            return try_st_;                                                                        \
    } while (0)

static const char *const k_graph =
    "graph():\n"
    "    %x_1 : [#users=1] = placeholder[target=x_1]\n"
    "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x_1,), kwargs = {})\n"
    "    return relu\n";

static airc_context *g_ctx;

static int setup(void **state)
{
    (void)state;
    if (airc_context_create(NULL, &g_ctx) != AIRC_OK)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    airc_context_destroy(g_ctx);
    return 0;
}

/* ---- passes used by the tests ------------------------------------------ */

typedef struct trace {
    char log[256]; /* names of the passes and checks as they ran */
    int calls;
} trace;

static void note(trace *t, const char *what)
{
    size_t n = strlen(t->log);
    snprintf(t->log + n, sizeof t->log - n, "%s%s", n ? "," : "", what);
}

typedef struct named {
    trace *t;
    const char *name;
} named;

static airc_status noop_pass(airc_graph *g, const airc_example_inputs *in, const airc_config *cfg,
                             void *ud)
{
    (void)g, (void)in, (void)cfg;
    named *n = ud;
    note(n->t, n->name);
    return AIRC_OK;
}

/* Appends neg(relu) before the output while its counter lasts: "changes the
 * graph" that many times, then reports nothing to do. */
typedef struct changer {
    int left;
    int calls;
} changer;

static airc_status add_neg(airc_graph *g)
{
    airc_node *out = airc_graph_output_node(g);
    airc_node *last = airc_node_prev(out);
    TRY(airc_graph_set_insert_point(g, AIRC_INSERT_BEFORE, out));
    const airc_value *a;
    TRY(airc_value_node(g, last, &a));
    airc_node *neg;
    TRY(airc_graph_call_function(g, "aten.neg.default", &a, 1, &neg));
    return airc_node_replace_input_with(out, last, neg);
}

static airc_status changing_pass(airc_graph *g, const airc_example_inputs *in,
                                 const airc_config *cfg, void *ud)
{
    (void)in, (void)cfg;
    changer *c = ud;
    c->calls++;
    if (c->left <= 0)
        return AIRC_OK;
    c->left--;
    return add_neg(g);
}

static airc_status failing_pass(airc_graph *g, const airc_example_inputs *in,
                                const airc_config *cfg, void *ud)
{
    (void)in, (void)cfg, (void)ud;
    TRY(add_neg(g)); /* edits first, then fails */
    TRY(add_neg(g));
    return airc_pass_fail(AIRC_E_PASS, "boom at node %s", "neg_1");
}

static airc_status silent_failing_pass(airc_graph *g, const airc_example_inputs *in,
                                       const airc_config *cfg, void *ud)
{
    (void)g, (void)in, (void)cfg, (void)ud;
    return AIRC_E_INVALID_ARGUMENT; /* no message */
}

/* Leaves an air.scope_enter without its scope_exit. */
static airc_status unpaired_scope_pass(airc_graph *g, const airc_example_inputs *in,
                                       const airc_config *cfg, void *ud)
{
    (void)in, (void)cfg, (void)ud;
    airc_node *relu = airc_graph_find_node(g, "relu");
    TRY(airc_graph_set_insert_point(g, AIRC_INSERT_BEFORE, relu));
    const airc_value *k, *v, *keys, *vals;
    TRY(airc_value_string(g, "_user_stream_label", &k));
    TRY(airc_value_string(g, "stream_1", &v));
    TRY(airc_value_list(g, &k, 1, &keys));
    TRY(airc_value_list(g, &v, 1, &vals));
    const airc_value *args[2] = {keys, vals};
    airc_node *n;
    return airc_graph_call_function(g, "air.scope_enter.default", args, 2, &n);
}

/* Erases the output node (allowed: it has no users), which lint refuses. */
static airc_status drop_output_pass(airc_graph *g, const airc_example_inputs *in,
                                    const airc_config *cfg, void *ud)
{
    (void)in, (void)cfg, (void)ud;
    return airc_graph_erase_node(g, airc_graph_output_node(g));
}

typedef struct check_state {
    int calls;
    int fail_from; /* fail on this call and later (1-based); 0 never */
} check_state;

static airc_status counting_check(const airc_graph *g, void *ud)
{
    (void)g;
    check_state *c = ud;
    c->calls++;
    if (c->fail_from && c->calls >= c->fail_from)
        return airc_pass_fail(AIRC_E_INVALID_GRAPH, "too many negs (%d)", c->calls);
    return AIRC_OK;
}

static int g_freed;
static void count_free(void *p)
{
    (void)p;
    g_freed++;
}

/* ---- ordering and constraints ------------------------------------------ */

static airc_pass_manager *abc_manager(trace *t, named *ns)
{
    airc_pass_manager *pm;
    AIRC_ASSERT_OK(airc_pass_manager_create(g_ctx, &pm));
    static const char *const names[] = {"a", "b", "c"};
    for (int i = 0; i < 3; i++) {
        ns[i] = (named){t, names[i]};
        AIRC_ASSERT_OK(airc_pass_manager_add_pass(pm, names[i], noop_pass, &ns[i], NULL));
    }
    return pm;
}

static void test_registration_order(void **state)
{
    (void)state;
    trace t = {0};
    named ns[3];
    airc_pass_manager *pm = abc_manager(&t, ns);
    airc_graph *g = airc_test_parse(g_ctx, k_graph);
    int32_t changed = -1;
    AIRC_ASSERT_OK(airc_pass_manager_run(pm, g, NULL, NULL, &changed));
    assert_string_equal(t.log, "a,b,c");
    assert_int_equal(changed, 0);
    AIRC_EXPECT(airc_pass_manager_add_pass(pm, "b", noop_pass, &ns[1], NULL), AIRC_E_EXISTS, "'b'");
    AIRC_EXPECT(airc_pass_manager_add_pass(pm, "z", NULL, NULL, NULL), AIRC_E_INVALID_ARGUMENT,
                NULL);
    airc_graph_destroy(g);
    airc_pass_manager_destroy(pm);
}

static void test_constraints(void **state)
{
    (void)state;
    trace t = {0};
    named ns[3];
    airc_pass_manager *pm = abc_manager(&t, ns);
    /* torch.fx observed: [a, b, c] with "c before a" gives [b, c, a] */
    AIRC_ASSERT_OK(airc_pass_manager_add_constraint(pm, "c", "a"));
    AIRC_ASSERT_OK(airc_pass_manager_solve(pm));
    assert_string_equal(airc_pass_manager_pass_name(pm, 0), "b");
    assert_string_equal(airc_pass_manager_pass_name(pm, 1), "c");
    assert_string_equal(airc_pass_manager_pass_name(pm, 2), "a");
    airc_graph *g = airc_test_parse(g_ctx, k_graph);
    AIRC_ASSERT_OK(airc_pass_manager_run(pm, g, NULL, NULL, NULL));
    assert_string_equal(t.log, "b,c,a");
    airc_graph_destroy(g);
    airc_pass_manager_destroy(pm);

    /* Kahn with a FIFO queue: [a, b, c, d], b before a, d before c:
     * initial candidates b, d (list order), then a (freed by b), c */
    trace t2 = {0};
    named n4[4] = {{&t2, "a"}, {&t2, "b"}, {&t2, "c"}, {&t2, "d"}};
    AIRC_ASSERT_OK(airc_pass_manager_create(g_ctx, &pm));
    for (int i = 0; i < 4; i++)
        AIRC_ASSERT_OK(airc_pass_manager_add_pass(pm, n4[i].name, noop_pass, &n4[i], NULL));
    AIRC_ASSERT_OK(airc_pass_manager_add_constraint(pm, "b", "a"));
    AIRC_ASSERT_OK(airc_pass_manager_add_constraint(pm, "d", "c"));
    AIRC_ASSERT_OK(airc_pass_manager_solve(pm));
    const char *want[] = {"b", "d", "a", "c"};
    for (int i = 0; i < 4; i++)
        assert_string_equal(airc_pass_manager_pass_name(pm, (size_t)i), want[i]);
    airc_pass_manager_destroy(pm);
}

static void test_constraint_cycle_and_unknown(void **state)
{
    (void)state;
    trace t = {0};
    named ns[3];
    airc_pass_manager *pm = abc_manager(&t, ns);
    AIRC_ASSERT_OK(airc_pass_manager_add_constraint(pm, "a", "b"));
    AIRC_ASSERT_OK(airc_pass_manager_add_constraint(pm, "b", "a"));
    AIRC_EXPECT(airc_pass_manager_solve(pm), AIRC_E_INVALID_ARGUMENT,
                "circular dependency among the passes ['a', 'b']");
    airc_graph *g = airc_test_parse(g_ctx, k_graph);
    AIRC_EXPECT(airc_pass_manager_run(pm, g, NULL, NULL, NULL), AIRC_E_INVALID_ARGUMENT,
                "circular");
    assert_string_equal(t.log, ""); /* nothing ran */
    airc_pass_manager_destroy(pm);

    pm = abc_manager(&t, ns);
    AIRC_ASSERT_OK(airc_pass_manager_add_constraint(pm, "a", "nope"));
    AIRC_EXPECT(airc_pass_manager_run(pm, g, NULL, NULL, NULL), AIRC_E_NOT_FOUND, "'nope'");
    airc_pass_manager_destroy(pm);
    airc_graph_destroy(g);
}

/* ---- checks and steps -------------------------------------------------- */

static void test_checks_count(void **state)
{
    (void)state;
    for (int after_each = 0; after_each <= 1; after_each++) {
        trace t = {0};
        named ns[3];
        airc_pass_manager *pm = abc_manager(&t, ns);
        check_state c = {0};
        AIRC_ASSERT_OK(airc_pass_manager_add_check(pm, counting_check, &c, NULL));
        AIRC_ASSERT_OK(airc_pass_manager_set_run_checks_after_each_pass(pm, after_each));
        airc_graph *g = airc_test_parse(g_ctx, k_graph);
        AIRC_ASSERT_OK(airc_pass_manager_run(pm, g, NULL, NULL, NULL));
        /* torch.fx: once before the passes, plus once per pass when asked */
        assert_int_equal(c.calls, after_each ? 4 : 1);
        airc_graph_destroy(g);
        airc_pass_manager_destroy(pm);
    }
}

static void test_steps_fixed_point(void **state)
{
    (void)state;
    /* torch.fx observed: steps=10 and a pass modifying twice -> 3 sweeps */
    airc_pass_manager *pm;
    AIRC_ASSERT_OK(airc_pass_manager_create(g_ctx, &pm));
    changer c = {2, 0};
    AIRC_ASSERT_OK(airc_pass_manager_add_pass(pm, "grow", changing_pass, &c, NULL));
    AIRC_ASSERT_OK(airc_pass_manager_set_steps(pm, 10));
    airc_graph *g = airc_test_parse(g_ctx, k_graph);
    int32_t changed = 0;
    AIRC_ASSERT_OK(airc_pass_manager_run(pm, g, NULL, NULL, &changed));
    assert_int_equal(c.calls, 3);
    assert_int_equal(changed, 1);
    assert_non_null(airc_graph_find_node(g, "neg_1"));
    airc_graph_destroy(g);

    /* default steps = 1: one sweep even though the pass changed */
    changer c1 = {5, 0};
    airc_pass_manager *pm1;
    AIRC_ASSERT_OK(airc_pass_manager_create(g_ctx, &pm1));
    AIRC_ASSERT_OK(airc_pass_manager_add_pass(pm1, "grow", changing_pass, &c1, NULL));
    g = airc_test_parse(g_ctx, k_graph);
    AIRC_ASSERT_OK(airc_pass_manager_run(pm1, g, NULL, NULL, NULL));
    assert_int_equal(c1.calls, 1);
    AIRC_EXPECT(airc_pass_manager_set_steps(pm1, 0), AIRC_E_INVALID_ARGUMENT, NULL);
    airc_graph_destroy(g);
    airc_pass_manager_destroy(pm);
    airc_pass_manager_destroy(pm1);
}

typedef struct log_capture {
    char text[16384];
    int warnings;
} log_capture;

static void capture_log(void *ud, int32_t level, const char *msg)
{
    log_capture *c = ud;
    if (level == AIRC_LOG_WARN)
        c->warnings++;
    size_t n = strlen(c->text);
    snprintf(c->text + n, sizeof c->text - n, "%s\n", msg);
}

static void test_suppress_check_failures(void **state)
{
    (void)state;
    log_capture cap = {{0}, 0};
    AIRC_ASSERT_OK(airc_context_set_log(g_ctx, capture_log, &cap, NULL));
    for (int suppress = 0; suppress <= 1; suppress++) {
        airc_pass_manager *pm;
        AIRC_ASSERT_OK(airc_pass_manager_create(g_ctx, &pm));
        changer c = {1, 0};
        check_state chk = {0, 2}; /* passes before the passes, fails after */
        AIRC_ASSERT_OK(airc_pass_manager_add_pass(pm, "grow", changing_pass, &c, NULL));
        AIRC_ASSERT_OK(airc_pass_manager_add_check(pm, counting_check, &chk, NULL));
        AIRC_ASSERT_OK(airc_pass_manager_set_run_checks_after_each_pass(pm, 1));
        AIRC_ASSERT_OK(airc_pass_manager_set_suppress_check_failures(pm, suppress));
        airc_graph *g = airc_test_parse(g_ctx, k_graph);
        char *before = airc_test_print(g, 0);
        airc_status st = airc_pass_manager_run(pm, g, NULL, NULL, NULL);
        char *after = airc_test_print(g, 0);
        if (suppress) {
            AIRC_ASSERT_OK(st);
            assert_int_equal(cap.warnings, 1);
            assert_non_null(strstr(cap.text, "after pass 'grow' (suppressed): too many negs"));
            assert_string_not_equal(before, after); /* the pass's edit stands */
        } else {
            AIRC_EXPECT(st, AIRC_E_PASS, "check failed after pass 'grow': too many negs (2)");
            assert_string_equal(before, after); /* undone */
        }
        free(before);
        free(after);
        airc_graph_destroy(g);
        airc_pass_manager_destroy(pm);
    }
    AIRC_ASSERT_OK(airc_context_set_log(g_ctx, NULL, NULL, NULL));
}

/* ---- transactions ------------------------------------------------------ */

static void expect_restored(airc_pass_fn fn, const char *name, airc_status code,
                            const char *message)
{
    airc_pass_manager *pm;
    AIRC_ASSERT_OK(airc_pass_manager_create(g_ctx, &pm));
    changer ok = {1, 0};
    AIRC_ASSERT_OK(airc_pass_manager_add_pass(pm, "first", changing_pass, &ok, NULL));
    AIRC_ASSERT_OK(airc_pass_manager_add_pass(pm, name, fn, NULL, NULL));
    airc_graph *g = airc_test_parse(g_ctx, k_graph);
    airc_node *relu = airc_graph_find_node(g, "relu");
    AIRC_ASSERT_OK(airc_graph_set_insert_point(g, AIRC_INSERT_BEFORE, relu));
    /* the expected text is the graph after "first" (neg appended) */
    airc_graph *ref = airc_test_parse(g_ctx, k_graph);
    AIRC_ASSERT_OK(add_neg(ref));
    char *want = airc_test_print(ref, AIRC_PRINT_TYPES);
    AIRC_EXPECT(airc_pass_manager_run(pm, g, NULL, NULL, NULL), code, message);
    char *got = airc_test_print(g, AIRC_PRINT_TYPES);
    assert_string_equal(got, want);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    /* the handle works on; the insertion point is the one the graph had
     * before the failing pass ("first" left it before the output) */
    int32_t where;
    airc_node *anchor;
    AIRC_ASSERT_OK(airc_graph_get_insert_point(g, &where, &anchor));
    assert_int_equal(where, AIRC_INSERT_BEFORE);
    assert_string_equal(airc_node_name(anchor), "output");
    assert_ptr_equal(airc_node_graph(anchor), g);
    const airc_value *a;
    AIRC_ASSERT_OK(airc_value_node(g, airc_graph_find_node(g, "x_1"), &a));
    airc_node *n;
    AIRC_ASSERT_OK(airc_graph_call_function(g, "aten.abs.default", &a, 1, &n));
    assert_ptr_equal(airc_node_next(n), airc_graph_output_node(g));
    free(want);
    free(got);
    airc_graph_destroy(ref);
    airc_graph_destroy(g);
    airc_pass_manager_destroy(pm);
}

static void test_transactional_restore(void **state)
{
    (void)state;
    expect_restored(failing_pass, "bad", AIRC_E_PASS, "pass 'bad' failed: boom at node neg_1");
    expect_restored(silent_failing_pass, "silent", AIRC_E_PASS,
                    "pass 'silent' failed: (the pass returned a failure without a message)");
    expect_restored(unpaired_scope_pass, "scoper", AIRC_E_PASS,
                    "pass 'scoper' left an invalid graph:");
    expect_restored(drop_output_pass, "dropper", AIRC_E_PASS,
                    "pass 'dropper' left an invalid graph:");
}

/* The swap that restores a graph fixes the back-pointers of nested graphs,
 * nodes and values: the restored graph is fully usable. */
static void test_restore_with_submodule(void **state)
{
    (void)state;
    airc_graph *g = airc_test_parse(g_ctx, k_graph);
    airc_graph *sub = airc_test_parse(g_ctx, k_graph);
    AIRC_ASSERT_OK(airc_graph_add_submodule(g, "sub", sub));
    char *before = airc_test_print(g, 0);
    assert_non_null(strstr(before, "# submodule sub"));
    airc_pass_manager *pm;
    AIRC_ASSERT_OK(airc_pass_manager_create(g_ctx, &pm));
    AIRC_ASSERT_OK(airc_pass_manager_add_pass(pm, "bad", failing_pass, NULL, NULL));
    AIRC_EXPECT(airc_pass_manager_run(pm, g, NULL, NULL, NULL), AIRC_E_PASS, "boom");
    char *after = airc_test_print(g, 0);
    assert_string_equal(before, after);
    airc_graph *s2 = airc_graph_submodule(g, "sub");
    assert_non_null(s2);
    assert_ptr_equal(s2->parent, g);
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n))
        assert_ptr_equal(airc_node_graph(n), g);
    /* values of the restored content belong to g: edits accept them */
    airc_node *relu = airc_graph_find_node(g, "relu");
    AIRC_ASSERT_OK(airc_node_set_args(relu, (const airc_value *const *)relu->args, relu->nargs));
    AIRC_ASSERT_OK(airc_graph_lint(g));
    free(before);
    free(after);
    airc_pass_manager_destroy(pm);
    airc_graph_destroy(g);
}

static void test_invalid_input_graph_not_blamed(void **state)
{
    (void)state;
    airc_graph *g;
    AIRC_ASSERT_OK(airc_graph_create(g_ctx, &g)); /* no output node */
    airc_node *x;
    AIRC_ASSERT_OK(airc_graph_placeholder(g, "x", &x));
    airc_pass_manager *pm;
    AIRC_ASSERT_OK(airc_pass_manager_create(g_ctx, &pm));
    changer c = {1, 0};
    AIRC_ASSERT_OK(airc_pass_manager_add_pass(pm, "grow", changing_pass, &c, NULL));
    AIRC_EXPECT(airc_pass_manager_run(pm, g, NULL, NULL, NULL), AIRC_E_INVALID_GRAPH,
                "invalid before any pass");
    assert_int_equal(c.calls, 0);
    airc_pass_manager_destroy(pm);
    airc_graph_destroy(g);
}

/* ---- named passes on the context --------------------------------------- */

static void test_context_passes(void **state)
{
    (void)state;
    g_freed = 0;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    assert_int_equal(airc_context_num_passes(ctx), 0);
    changer c = {1, 0};
    AIRC_ASSERT_OK(airc_context_register_pass(ctx, "grow", changing_pass, &c, count_free));
    AIRC_EXPECT(airc_context_register_pass(ctx, "grow", changing_pass, &c, count_free),
                AIRC_E_EXISTS, "already registered");
    AIRC_EXPECT(airc_context_register_pass(ctx, "dce", changing_pass, &c, count_free),
                AIRC_E_EXISTS, "built-in");
    assert_int_equal(airc_context_num_passes(ctx), 1);
    assert_string_equal(airc_context_pass_name(ctx, 0), "grow");
    airc_pass_fn fn;
    void *ud;
    AIRC_ASSERT_OK(airc_context_find_pass(ctx, "grow", &fn, &ud));
    assert_ptr_equal(fn, changing_pass);
    assert_ptr_equal(ud, &c);
    AIRC_EXPECT(airc_context_find_pass(ctx, "nope", &fn, &ud), AIRC_E_NOT_FOUND, "'nope'");
    /* another context does not see it */
    AIRC_EXPECT(airc_context_find_pass(g_ctx, "grow", &fn, &ud), AIRC_E_NOT_FOUND, NULL);

    airc_pass_manager *pm;
    AIRC_ASSERT_OK(airc_pass_manager_create(ctx, &pm));
    AIRC_ASSERT_OK(airc_pass_manager_add_named_pass(pm, "grow"));
    AIRC_ASSERT_OK(airc_pass_manager_add_named_pass(pm, "dce")); /* built-in */
    AIRC_EXPECT(airc_pass_manager_add_named_pass(pm, "nope"), AIRC_E_NOT_FOUND, "'nope'");
    airc_graph *g = airc_test_parse(ctx, k_graph);
    AIRC_ASSERT_OK(airc_pass_manager_run(pm, g, NULL, NULL, NULL));
    assert_int_equal(c.calls, 1);
    assert_non_null(airc_graph_find_node(g, "neg"));
    airc_graph_destroy(g);
    airc_pass_manager_destroy(pm);
    assert_int_equal(g_freed, 0); /* the context owns the user_data */
    airc_context_destroy(ctx);
    assert_int_equal(g_freed, 1);
}

static void test_manager_frees_user_data(void **state)
{
    (void)state;
    g_freed = 0;
    airc_pass_manager *pm;
    AIRC_ASSERT_OK(airc_pass_manager_create(g_ctx, &pm));
    AIRC_ASSERT_OK(airc_pass_manager_add_pass(pm, "p", noop_pass, NULL, count_free));
    AIRC_ASSERT_OK(airc_pass_manager_add_check(pm, counting_check, NULL, count_free));
    AIRC_EXPECT(airc_pass_manager_add_pass(pm, "p", noop_pass, NULL, count_free), AIRC_E_EXISTS,
                NULL);
    assert_int_equal(g_freed, 0); /* not on a failed registration */
    airc_pass_manager_destroy(pm);
    assert_int_equal(g_freed, 2);
    airc_pass_manager_destroy(NULL);
}

/* ---- logging ----------------------------------------------------------- */

static void test_debug_log(void **state)
{
    (void)state;
    log_capture cap = {{0}, 0};
    AIRC_ASSERT_OK(airc_context_set_log(g_ctx, capture_log, &cap, NULL));
    AIRC_ASSERT_OK(airc_context_set_log_level(g_ctx, AIRC_LOG_DEBUG));
    airc_pass_manager *pm;
    AIRC_ASSERT_OK(airc_pass_manager_create(g_ctx, &pm));
    changer c = {1, 0};
    trace t = {0};
    named quiet = {&t, "quiet"};
    AIRC_ASSERT_OK(airc_pass_manager_add_pass(pm, "grow", changing_pass, &c, NULL));
    AIRC_ASSERT_OK(airc_pass_manager_add_pass(pm, "quiet", noop_pass, &quiet, NULL));
    airc_graph *g = airc_test_parse(g_ctx, k_graph);
    AIRC_ASSERT_OK(airc_pass_manager_run(pm, g, NULL, NULL, NULL));
    assert_non_null(strstr(cap.text, "pass grow changed the graph in "));
    assert_non_null(strstr(cap.text, " ms\ngraph():\n"));
    assert_non_null(strstr(cap.text, "torch.ops.aten.neg.default"));
    assert_null(strstr(cap.text, "pass quiet changed")); /* did not change it */
    airc_graph_destroy(g);
    airc_pass_manager_destroy(pm);
    AIRC_ASSERT_OK(airc_context_set_log_level(g_ctx, AIRC_LOG_WARN));
    AIRC_ASSERT_OK(airc_context_set_log(g_ctx, NULL, NULL, NULL));
}

/* ---- pipeline ---------------------------------------------------------- */

static const char *const k_dead =
    "graph():\n"
    "    %x_1 : [#users=2] = placeholder[target=x_1]\n"
    "    %neg : [#users=0] = call_function[target=torch.ops.aten.neg.default](args = (%x_1,), kwargs = {})\n"
    "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x_1,), kwargs = {})\n"
    "    return relu\n";

static void test_pipeline_switches(void **state)
{
    (void)state;
    airc_config *cfg;
    AIRC_ASSERT_OK(airc_config_create(g_ctx, &cfg));
    for (size_t i = 0; i < airc_num_builtin_passes(); i++) {
        const char *key = airc_builtin_pass_config_key(airc_builtin_pass_name(i));
        assert_non_null(key);
        int32_t v = 0;
        AIRC_ASSERT_OK(airc_config_get_bool(cfg, key, &v)); /* the key exists */
        assert_int_equal(v, 1);
    }
    assert_string_equal(airc_builtin_pass_config_key("remove_noop_ops"),
                        "experimental_config.remove_noop_ops");
    assert_null(airc_builtin_pass_config_key("nope"));

    airc_graph *g = airc_test_parse(g_ctx, k_dead);
    AIRC_ASSERT_OK(airc_config_set_bool(cfg, "passes.dce", 0));
    assert_int_equal(airc_builtin_pass_enabled(cfg, "dce"), 0);
    AIRC_ASSERT_OK(airc_run_pipeline(g, NULL, cfg, NULL, NULL));
    assert_non_null(airc_graph_find_node(g, "neg"));
    AIRC_ASSERT_OK(airc_config_set(cfg, "passes.dce", NULL));
    AIRC_ASSERT_OK(airc_run_pipeline(g, NULL, cfg, NULL, NULL));
    assert_null(airc_graph_find_node(g, "neg"));
    airc_graph_destroy(g);

    /* pre-passes run before the built-ins: the dead neg a pre-pass adds is
     * removed by dce; a post-pass's is not */
    for (int post = 0; post <= 1; post++) {
        airc_pass_manager *pm;
        AIRC_ASSERT_OK(airc_pass_manager_create(g_ctx, &pm));
        trace t = {0};
        named n = {&t, "mark"};
        AIRC_ASSERT_OK(airc_pass_manager_add_pass(pm, "mark", noop_pass, &n, NULL));
        g = airc_test_parse(g_ctx, k_dead);
        AIRC_ASSERT_OK(airc_run_pipeline(g, NULL, NULL, post ? NULL : pm, post ? pm : NULL));
        assert_string_equal(t.log, "mark");
        assert_null(airc_graph_find_node(g, "neg"));
        airc_graph_destroy(g);
        airc_pass_manager_destroy(pm);
    }
    airc_config_destroy(cfg);
}

static void test_pipeline_blames_pass(void **state)
{
    (void)state;
    airc_pass_manager *post;
    AIRC_ASSERT_OK(airc_pass_manager_create(g_ctx, &post));
    AIRC_ASSERT_OK(airc_pass_manager_add_pass(post, "scoper", unpaired_scope_pass, NULL, NULL));
    airc_graph *g = airc_test_parse(g_ctx, k_dead);
    AIRC_EXPECT(airc_run_pipeline(g, NULL, NULL, NULL, post), AIRC_E_PASS,
                "pass 'scoper' left an invalid graph");
    /* the built-in stage's work stays; the failing pass's is undone */
    assert_null(airc_graph_find_node(g, "neg"));
    assert_null(airc_graph_find_node(g, "scope_enter"));
    AIRC_ASSERT_OK(airc_graph_lint(g));
    airc_graph_destroy(g);
    airc_pass_manager_destroy(post);
}

/* ---- allocation failures over a whole run ------------------------------ */

static void test_failing_allocator(void **state)
{
    (void)state;
    airc_test_alloc st;
    airc_allocator hook;
    airc_test_alloc_init(&st, &hook);
    const char *const text =
        "graph():\n"
        "    %x_1 : [#users=3] = placeholder[target=x_1]\n"
        "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x_1,), kwargs = {})\n"
        "    %relu_1 : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x_1,), kwargs = {})\n"
        "    %add_ : [#users=1] = call_function[target=torch.ops.aten.add_.Tensor](args = (%x_1, %relu), kwargs = {})\n"
        "    %view : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%add_, [4]), kwargs = {})\n"
        "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view, %relu_1), kwargs = {})\n"
        "    return add\n";
    int successes = 0;
    size_t failures = 0;
    for (size_t k = 1; k < 5000 && !successes; k++) {
        airc_context *ctx;
        AIRC_ASSERT_OK(airc_context_create(&hook, &ctx));
        airc_graph *g = airc_test_parse(ctx, text);
        airc_example_inputs *in;
        AIRC_ASSERT_OK(airc_example_inputs_create(ctx, &in));
        int64_t shape[] = {4};
        AIRC_ASSERT_OK(airc_example_inputs_add(in, AIRC_DTYPE_F32, 1, shape, NULL));
        airc_pass_manager *pre;
        AIRC_ASSERT_OK(airc_pass_manager_create(ctx, &pre));
        changer c = {1, 0};
        AIRC_ASSERT_OK(airc_pass_manager_add_pass(pre, "grow", changing_pass, &c, NULL));
        char *before = airc_test_print(g, AIRC_PRINT_TYPES);
        st.fail_at = st.count + k;
        airc_status rc = airc_run_pipeline(g, in, NULL, pre, NULL);
        st.fail_at = 0;
        char *after = airc_test_print(g, AIRC_PRINT_TYPES);
        if (rc == AIRC_OK) {
            successes++;
            assert_non_null(strstr(after, "torch.ops.aten.add.Tensor](args = (%x_1, %relu)"));
            assert_non_null(strstr(after, "torch.ops.aten.copy_.default"));
        } else {
            failures++;
            if (rc != AIRC_E_OUT_OF_MEMORY)
                print_error("k=%zu: %s: %s\n", k, airc_status_name(rc), airc_last_error());
            assert_int_equal(rc, AIRC_E_OUT_OF_MEMORY);
            AIRC_ASSERT_OK(airc_graph_lint(g));
            /* whole stages are undone: the graph is the input, or the
             * input after the (successful) pre-pass; meta may differ */
            airc_graph *ref = airc_test_parse(ctx, text);
            char *input = airc_test_print(ref, AIRC_PRINT_NO_TYPES);
            AIRC_ASSERT_OK(add_neg(ref));
            char *after_pre = airc_test_print(ref, AIRC_PRINT_NO_TYPES);
            char *got = airc_test_print(g, AIRC_PRINT_NO_TYPES);
            if (strcmp(got, input) && strcmp(got, after_pre)) {
                print_error("k=%zu: graph left as\n%s", k, got);
                fail();
            }
            free(input);
            free(after_pre);
            free(got);
            airc_graph_destroy(ref);
        }
        free(before);
        free(after);
        airc_pass_manager_destroy(pre);
        airc_example_inputs_destroy(in);
        airc_graph_destroy(g);
        airc_context_destroy(ctx);
        assert_int_equal(st.live, 0);
    }
    assert_int_equal(successes, 1);
    assert_true(failures > 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_registration_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_constraints, setup, teardown),
        cmocka_unit_test_setup_teardown(test_constraint_cycle_and_unknown, setup, teardown),
        cmocka_unit_test_setup_teardown(test_checks_count, setup, teardown),
        cmocka_unit_test_setup_teardown(test_steps_fixed_point, setup, teardown),
        cmocka_unit_test_setup_teardown(test_suppress_check_failures, setup, teardown),
        cmocka_unit_test_setup_teardown(test_transactional_restore, setup, teardown),
        cmocka_unit_test_setup_teardown(test_restore_with_submodule, setup, teardown),
        cmocka_unit_test_setup_teardown(test_invalid_input_graph_not_blamed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_context_passes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_manager_frees_user_data, setup, teardown),
        cmocka_unit_test_setup_teardown(test_debug_log, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pipeline_switches, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pipeline_blames_pass, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failing_allocator, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
