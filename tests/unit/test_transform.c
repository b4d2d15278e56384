/* Transform toolkit: subgraph rewriter (golden cases printed by PyTorch
 * 1.13, tests/gen_pass_cases.py), SubgraphMatcher options, Transformer,
 * long chains, transactional failures and allocation failures. */
#include "testutil.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEG "call_function[target=torch.ops.aten.neg.default]"
#define HDR "graph():\n"

static airc_context *new_ctx(void)
{
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    return ctx;
}

static airc_graph *parse_path(airc_context *ctx, const char *path)
{
    airc_graph *g = NULL;
    AIRC_ASSERT_OK(airc_graph_parse_file(ctx, path, &g));
    return g;
}

/* Compares g's text with expected, whose one trailing newline (files end
 * with one) torch's str(graph) does not print. */
static void assert_text(const airc_graph *g, const char *expected_text)
{
    char *got = airc_test_print(g, AIRC_PRINT_DEFAULT);
    char expected[8192];
    size_t n = strlen(expected_text);
    assert_true(n < sizeof expected);
    memcpy(expected, expected_text, n + 1);
    if (n && expected[n - 1] == '\n')
        expected[n - 1] = '\0';
    if (strcmp(got, expected))
        print_error("expected:\n%s\ngot:\n%s\n", expected, got);
    assert_string_equal(got, expected);
    free(got);
}

/* One golden case: DIR/NAME.{before,pattern,replacement,after}.fx + .json */
static void run_case(const char *dir, const char *name)
{
    char path[512];
    airc_context *ctx = new_ctx();
    snprintf(path, sizeof path, "%s/%s.before.fx", dir, name);
    airc_graph *g = parse_path(ctx, path);
    snprintf(path, sizeof path, "%s/%s.pattern.fx", dir, name);
    airc_graph *p = parse_path(ctx, path);
    snprintf(path, sizeof path, "%s/%s.replacement.fx", dir, name);
    airc_graph *r = parse_path(ctx, path);
    snprintf(path, sizeof path, "%s/%s.after.fx", dir, name);
    char *after = airc_test_read_file(path, NULL);
    snprintf(path, sizeof path, "%s/%s.json", dir, name);
    char *json = airc_test_read_file(path, NULL);
    assert_non_null(after);
    assert_non_null(json);
    const char *mk = strstr(json, "\"matches\":");
    assert_non_null(mk);
    size_t expected_matches = strtoul(mk + strlen("\"matches\":"), NULL, 10);

    airc_replaced_patterns *rp = NULL;
    AIRC_ASSERT_OK(airc_replace_pattern(g, p, r, &rp));
    if (airc_replaced_patterns_size(rp) != expected_matches)
        print_error("case %s\n", name);
    assert_int_equal(airc_replaced_patterns_size(rp), expected_matches);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    assert_text(g, after);
    airc_replaced_patterns_destroy(rp);
    free(after);
    free(json);
    airc_graph_destroy(g);
    airc_graph_destroy(p);
    airc_graph_destroy(r);
    airc_context_destroy(ctx);
}

static void test_conformance_shared(void **state)
{
    (void)state;
    if (!airc_test_have_shared()) {
        print_message("skipped: ../shared/conformance is absent\n");
        skip();
    }
    run_case(AIRC_SHARED_DIR "/conformance", "rewrite");
}

static const char *const cases[] = {"rewrite",         "leaky",        "overlap_neg4",
                                    "overlap_neg5",    "repeat_distinct", "repeat_same",
                                    "literals",        "multi_output", "detach",
                                    "cycle",           "chain",        "two_anchors"};

static void test_golden_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        run_case(AIRC_TEST_DATA "/passes", cases[i]);
}

/* ReplacedPatterns of the conformance case: anchor, nodes_map, replacements. */
static void test_replaced_patterns(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_graph *g = parse_path(ctx, AIRC_TEST_DATA "/passes/rewrite.before.fx");
    airc_graph *p = parse_path(ctx, AIRC_TEST_DATA "/passes/rewrite.pattern.fx");
    airc_graph *r = parse_path(ctx, AIRC_TEST_DATA "/passes/rewrite.replacement.fx");
    airc_node *mul_1 = airc_graph_find_node(g, "mul_1");
    airc_replaced_patterns *rp;
    AIRC_ASSERT_OK(airc_replace_pattern(g, p, r, &rp));
    assert_int_equal(airc_replaced_patterns_size(rp), 1);
    assert_ptr_equal(airc_replaced_patterns_anchor(rp, 0), mul_1);
    assert_true(airc_node_is_erased(mul_1));
    assert_string_equal(airc_node_name(mul_1), "mul_1");
    assert_int_equal(airc_replaced_patterns_num_replacements(rp, 0), 1);
    assert_string_equal(airc_node_name(airc_replaced_patterns_replacement(rp, 0, 0)), "sub_tensor");
    assert_null(airc_replaced_patterns_replacement(rp, 0, 1));
    const airc_match *m = airc_replaced_patterns_match(rp, 0);
    assert_int_equal(airc_match_num_entries(m), 4);
    const char *pn_names[] = {"x", "y", "add_tensor", "mul_tensor"};
    const char *gn_names[] = {"mul", "z_1", "add_1", "mul_1"};
    for (size_t i = 0; i < 4; i++) {
        const airc_node *pn;
        airc_node *gn;
        const airc_value *lit;
        AIRC_ASSERT_OK(airc_match_entry(m, i, &pn, &gn, &lit));
        assert_string_equal(airc_node_name(pn), pn_names[i]);
        assert_string_equal(airc_node_name(gn), gn_names[i]);
        assert_null(lit);
        assert_ptr_equal(airc_match_lookup(m, pn), gn);
    }
    AIRC_EXPECT(airc_match_entry(m, 4, NULL, NULL, NULL), AIRC_E_NOT_FOUND, "no entry 4");
    assert_int_equal(airc_match_num_placeholders(m), 2);
    assert_string_equal(airc_node_name(airc_match_placeholder(m, 1)), "z_1");
    assert_int_equal(airc_match_num_returning(m), 1);
    assert_ptr_equal(airc_match_returning(m, 0), mul_1);
    assert_null(airc_replaced_patterns_match(rp, 1));
    airc_replaced_patterns_destroy(rp);
    airc_replaced_patterns_destroy(NULL);
    airc_graph_destroy(g);
    airc_graph_destroy(p);
    airc_graph_destroy(r);
    airc_context_destroy(ctx);
}

/* ---- matcher options (torch 1.13 results from the semantics notes) ----- */

static airc_match_list *match_with(airc_context *ctx, const airc_graph *g, const char *pattern,
                                   int out, int ph, int overlap, int lits)
{
    airc_graph *p = airc_test_parse(ctx, pattern);
    airc_matcher_options o;
    airc_matcher_options_init(&o);
    o.match_output = out;
    o.match_placeholder = ph;
    o.remove_overlapping_matches = overlap;
    o.ignore_literals = lits;
    airc_matcher *m;
    AIRC_ASSERT_OK(airc_matcher_create(p, &o, &m));
    airc_match_list *l;
    AIRC_ASSERT_OK(airc_matcher_match(m, g, &l));
    airc_matcher_destroy(m);
    airc_graph_destroy(p); /* the list keeps no reference into p */
    return l;
}

/* Sorted names of a match's graph nodes, comma-separated. */
static char *match_names(const airc_match *m)
{
    const char *names[64];
    size_t n = 0;
    for (size_t i = 0; i < airc_match_num_entries(m); i++) {
        airc_node *gn;
        AIRC_ASSERT_OK(airc_match_entry(m, i, NULL, &gn, NULL));
        if (gn)
            names[n++] = airc_node_name(gn);
    }
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            const char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    static char buf[1024];
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        strcat(buf, i ? "," : "");
        strcat(buf, names[i]);
    }
    return buf;
}

static const char neg_neg[] = HDR
    "    %x : [#users=1] = placeholder[target=x]\n"
    "    %a : [#users=1] = " NEG "(args = (%x,), kwargs = {})\n"
    "    %b : [#users=1] = " NEG "(args = (%a,), kwargs = {})\n"
    "    return b\n";

static void test_matcher_options(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_graph *g = parse_path(ctx, AIRC_TEST_DATA "/passes/overlap_neg4.before.fx");
    airc_match_list *l = match_with(ctx, g, neg_neg, 0, 0, 1, 0);
    assert_int_equal(airc_match_list_size(l), 2);
    assert_string_equal(match_names(airc_match_list_get(l, 0)), "neg,neg_1,x_1");
    assert_string_equal(match_names(airc_match_list_get(l, 1)), "neg_1,neg_2,neg_3");
    assert_null(airc_match_list_get(l, 2));
    airc_match_list_destroy(l);

    l = match_with(ctx, g, neg_neg, 0, 0, 0, 0); /* overlaps kept */
    assert_int_equal(airc_match_list_size(l), 3);
    assert_string_equal(match_names(airc_match_list_get(l, 1)), "neg,neg_1,neg_2");
    airc_match_list_destroy(l);

    l = match_with(ctx, g, neg_neg, 1, 0, 1, 0); /* match_output: only the tail */
    assert_int_equal(airc_match_list_size(l), 1);
    assert_string_equal(match_names(airc_match_list_get(l, 0)), "neg_1,neg_2,neg_3,output");
    assert_string_equal(airc_node_name(airc_match_anchor(airc_match_list_get(l, 0), 0)), "output");
    airc_match_list_destroy(l);

    l = match_with(ctx, g, neg_neg, 0, 1, 1, 0); /* match_placeholder */
    assert_int_equal(airc_match_list_size(l), 1);
    assert_string_equal(match_names(airc_match_list_get(l, 0)), "neg,neg_1,x_1");
    airc_match_list_destroy(l);

    /* an anchor op absent from the graph: no match (torch 1.13: KeyError) */
    l = match_with(ctx, g, HDR "    %x : [#users=1] = placeholder[target=x]\n"
                             "    %r : [#users=1] = call_function[target=torch.ops.aten.relu."
                             "default](args = (%x,), kwargs = {})\n    return r\n",
                   0, 0, 1, 0);
    assert_int_equal(airc_match_list_size(l), 0);
    airc_match_list_destroy(l);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

static const char mul2[] = HDR
    "    %x : [#users=1] = placeholder[target=x]\n"
    "    %m : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, 2), "
    "kwargs = {})\n    return m\n";

static void test_matcher_literals(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_graph *g = parse_path(ctx, AIRC_TEST_DATA "/passes/literals.before.fx");
    /* 2 matches 2 (int) only; 3 and 2.0 do not */
    airc_match_list *l = match_with(ctx, g, mul2, 0, 0, 1, 0);
    assert_int_equal(airc_match_list_size(l), 2);
    assert_string_equal(airc_node_name(airc_match_anchor(airc_match_list_get(l, 1), 0)), "mul_3");
    airc_match_list_destroy(l);
    /* ignore_literals: every mul by a literal */
    l = match_with(ctx, g, mul2, 0, 0, 1, 1);
    assert_int_equal(airc_match_list_size(l), 4);
    airc_match_list_destroy(l);
    /* a placeholder binds a literal: mul(x, y) binds y to 2, 3, 2.0, 2 */
    l = match_with(ctx, g, HDR "    %x : [#users=1] = placeholder[target=x]\n"
                             "    %y : [#users=1] = placeholder[target=y]\n"
                             "    %m : [#users=1] = call_function[target=torch.ops.aten.mul."
                             "Tensor](args = (%x, %y), kwargs = {})\n    return m\n",
                   0, 0, 1, 0);
    assert_int_equal(airc_match_list_size(l), 4);
    const airc_match *m = airc_match_list_get(l, 1);
    int64_t v;
    assert_null(airc_match_placeholder(m, 1));
    AIRC_ASSERT_OK(airc_value_get_int(airc_match_placeholder_literal(m, 1), &v));
    assert_int_equal(v, 3);
    airc_match_list_destroy(l);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* ---- failure paths ----------------------------------------------------- */

static void test_bad_inputs(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_graph *g = parse_path(ctx, AIRC_TEST_DATA "/passes/overlap_neg4.before.fx");
    airc_graph *p = airc_test_parse(ctx, neg_neg);
    airc_graph *r = parse_path(ctx, AIRC_TEST_DATA "/passes/overlap_neg4.replacement.fx");
    airc_matcher *m;
    airc_match_list *l;
    AIRC_EXPECT(airc_matcher_create(NULL, NULL, &m), AIRC_E_MISUSE, NULL);
    AIRC_EXPECT(airc_matcher_create(p, NULL, NULL), AIRC_E_INVALID_ARGUMENT, "out");
    AIRC_EXPECT(airc_matcher_match(NULL, g, &l), AIRC_E_MISUSE, "matcher");
    AIRC_EXPECT(airc_replace_pattern(NULL, p, r, NULL), AIRC_E_MISUSE, NULL);
    AIRC_EXPECT(airc_replace_pattern(g, NULL, r, NULL), AIRC_E_MISUSE, NULL);
    AIRC_EXPECT(airc_replace_pattern(g, p, NULL, NULL), AIRC_E_MISUSE, NULL);
    AIRC_EXPECT(airc_replace_pattern(g, g, r, NULL), AIRC_E_INVALID_ARGUMENT, "own pattern");
    airc_matcher_options o;
    airc_matcher_options_init(&o);
    o.struct_size = 4;
    AIRC_EXPECT(airc_matcher_create(p, &o, &m), AIRC_E_INVALID_ARGUMENT, "struct_size");

    airc_graph *empty;
    AIRC_ASSERT_OK(airc_graph_create(ctx, &empty));
    AIRC_EXPECT(airc_matcher_create(empty, NULL, &m), AIRC_E_INVALID_ARGUMENT, "empty");
    AIRC_EXPECT(airc_replace_pattern(g, p, empty, NULL), AIRC_E_INVALID_ARGUMENT, "output");
    airc_node *x;
    AIRC_ASSERT_OK(airc_graph_placeholder(empty, "x", &x));
    airc_node *n;
    const airc_value *vx;
    AIRC_ASSERT_OK(airc_value_node(empty, x, &vx));
    AIRC_ASSERT_OK(airc_graph_call_function(empty, "aten.neg.default", &vx, 1, &n));
    AIRC_EXPECT(airc_replace_pattern(g, empty, r, NULL), AIRC_E_INVALID_ARGUMENT,
                "no output node");
    airc_graph_destroy(empty);

    airc_graph *dead = airc_test_parse(ctx, HDR "    %x : [#users=2] = placeholder[target=x]\n"
                                                "    %a : [#users=0] = " NEG
                                                "(args = (%x,), kwargs = {})\n    return x\n");
    AIRC_EXPECT(airc_matcher_create(dead, NULL, &m), AIRC_E_INVALID_ARGUMENT, "dead code");
    airc_graph_destroy(dead);

    airc_graph *two = airc_test_parse(ctx, HDR "    %x : [#users=1] = placeholder[target=x]\n"
                                               "    %y : [#users=1] = placeholder[target=y]\n"
                                               "    %s : [#users=1] = call_function[target="
                                               "torch.ops.aten.sub.Tensor](args = (%x, %y), "
                                               "kwargs = {})\n    return s\n");
    AIRC_EXPECT(airc_replace_pattern(g, p, two, NULL), AIRC_E_INVALID_ARGUMENT, "placeholders");
    airc_graph_destroy(two);

    airc_context *other = new_ctx();
    airc_graph *po = airc_test_parse(other, neg_neg);
    AIRC_EXPECT(airc_replace_pattern(g, po, r, NULL), AIRC_E_INVALID_ARGUMENT, "context");
    airc_graph_destroy(po);
    airc_context_destroy(other);
    assert_int_equal(airc_match_list_size(NULL), 0);
    assert_null(airc_match_anchor(NULL, 0));
    airc_matcher_destroy(NULL);
    airc_match_list_destroy(NULL);
    char *before = airc_test_read_file(AIRC_TEST_DATA "/passes/overlap_neg4.before.fx", NULL);
    assert_text(g, before);
    free(before);
    airc_graph_destroy(g);
    airc_graph_destroy(p);
    airc_graph_destroy(r);
    airc_context_destroy(ctx);
}

typedef struct filter_state {
    int calls;
    const char *keep; /* anchor name to keep */
    int abort_on;     /* call number that fails (0: never) */
} filter_state;

static int32_t filter_fn(void *ud, const airc_match *m, const airc_graph *g,
                         const airc_graph *pattern)
{
    filter_state *s = ud;
    assert_non_null(g);
    assert_non_null(pattern);
    if (++s->calls == s->abort_on)
        return airc_pass_fail(AIRC_E_INVALID_ARGUMENT, "filter says no"), -1;
    return !strcmp(airc_node_name(airc_match_anchor(m, 0)), s->keep);
}

static void test_filters(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    char *before = airc_test_read_file(AIRC_TEST_DATA "/passes/overlap_neg4.before.fx", NULL);
    airc_graph *g = airc_test_parse(ctx, before);
    airc_graph *p = airc_test_parse(ctx, neg_neg);
    airc_graph *r = parse_path(ctx, AIRC_TEST_DATA "/passes/overlap_neg4.replacement.fx");
    filter_state s = {0, "neg_3", 0};
    airc_match_filter f = {filter_fn, &s};
    airc_replaced_patterns *rp = NULL;
    /* aborting filter: AIRC_E_PASS, graph unchanged, out untouched */
    s.abort_on = 2;
    AIRC_EXPECT(airc_replace_pattern_with_filters(g, p, r, &f, 1, 0, &rp), AIRC_E_PASS,
                "filter says no");
    assert_null(rp);
    assert_text(g, before);
    /* rejecting filter: only [neg_2, neg_3] replaced */
    s.calls = 0;
    s.abort_on = 0;
    AIRC_ASSERT_OK(airc_replace_pattern_with_filters(g, p, r, &f, 1, 0, &rp));
    assert_int_equal(s.calls, 2);
    assert_int_equal(airc_replaced_patterns_size(rp), 1);
    assert_text(g, HDR "    %x_1 : [#users=1] = placeholder[target=x_1]\n"
                       "    %neg : [#users=1] = " NEG "(args = (%x_1,), kwargs = {})\n"
                       "    %neg_1 : [#users=1] = " NEG "(args = (%neg,), kwargs = {})\n"
                       "    %relu_default : [#users=1] = call_function[target=torch.ops.aten."
                       "relu.default](args = (%neg_1,), kwargs = {})\n"
                       "    return relu_default\n");
    airc_replaced_patterns_destroy(rp);
    AIRC_EXPECT(airc_replace_pattern_with_filters(g, p, r, NULL, 1, 0, NULL),
                AIRC_E_INVALID_ARGUMENT, "filters");
    free(before);
    airc_graph_destroy(g);
    airc_graph_destroy(p);
    airc_graph_destroy(r);
    airc_context_destroy(ctx);
}

/* The second match fails after the first was applied: everything undone. */
static void test_rollback_after_partial_rewrite(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    static const char before[] = HDR
        "    %a_1 : [#users=2] = placeholder[target=a_1]\n"
        "    %b_1 : [#users=3] = placeholder[target=b_1]\n"
        "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%a_1, "
        "%b_1), kwargs = {})\n"
        "    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add, "
        "%b_1), kwargs = {})\n"
        "    %neg : [#users=1] = " NEG "(args = (%b_1,), kwargs = {})\n"
        "    %add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = "
        "(%a_1, 2), kwargs = {})\n"
        "    return (mul, neg, add_1)\n";
    airc_graph *g = airc_test_parse(ctx, before);
    airc_graph *p = airc_test_parse(
        ctx, HDR "    %x : [#users=1] = placeholder[target=x]\n"
                 "    %y : [#users=1] = placeholder[target=y]\n"
                 "    %s : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = "
                 "(%x, %y), kwargs = {})\n    return s\n");
    airc_graph *r = airc_test_parse(ctx, HDR "    %x : [#users=0] = placeholder[target=x]\n"
                                             "    %y : [#users=1] = placeholder[target=y]\n"
                                             "    return y\n");
    airc_node *add = airc_graph_find_node(g, "add");
    airc_node *b_1 = airc_graph_find_node(g, "b_1");
    AIRC_EXPECT(airc_replace_pattern(g, p, r, NULL), AIRC_E_UNSUPPORTED, "literal");
    assert_text(g, before);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    assert_false(airc_node_is_erased(add));
    assert_int_equal(airc_node_num_users(add), 1);
    airc_node *mul = airc_node_user(add, 0);
    assert_string_equal(airc_node_name(mul), "mul");
    /* mul was relinked (add -> b_1), moving it to the end of b_1's users;
     * the undo put it back in place */
    const char *users[] = {"add", "mul", "neg"};
    assert_int_equal(airc_node_num_users(b_1), 3);
    for (size_t i = 0; i < 3; i++)
        assert_string_equal(airc_node_name(airc_node_user(b_1, i)), users[i]);
    assert_int_equal(airc_node_num_inputs(mul), 2);
    assert_ptr_equal(airc_node_input(mul, 0), add);
    assert_ptr_equal(airc_node_input(mul, 1), b_1);
    /* the graph is still fully editable */
    AIRC_ASSERT_OK(airc_node_replace_all_uses_with(add, b_1, NULL, NULL, NULL));
    AIRC_ASSERT_OK(airc_graph_erase_node(g, add));
    AIRC_ASSERT_OK(airc_graph_lint(g));
    airc_graph_destroy(g);
    airc_graph_destroy(p);
    airc_graph_destroy(r);
    airc_context_destroy(ctx);
}

/* Every allocation of a rewrite fails in turn: out of memory, the graph as
 * it was, nothing leaked; then it succeeds with torch's result. */
static void test_rewrite_oom(void **state)
{
    (void)state;
    char *before = airc_test_read_file(AIRC_TEST_DATA "/passes/chain.before.fx", NULL);
    char *after = airc_test_read_file(AIRC_TEST_DATA "/passes/chain.after.fx", NULL);
    char *pat = airc_test_read_file(AIRC_TEST_DATA "/passes/chain.pattern.fx", NULL);
    char *rep = airc_test_read_file(AIRC_TEST_DATA "/passes/chain.replacement.fx", NULL);
    size_t failures = 0;
    for (size_t k = 1;; k++) {
        airc_test_alloc st;
        airc_allocator a;
        airc_test_alloc_init(&st, &a);
        airc_context *ctx;
        AIRC_ASSERT_OK(airc_context_create(&a, &ctx));
        airc_graph *g = airc_test_parse(ctx, before);
        airc_graph *p = airc_test_parse(ctx, pat);
        airc_graph *r = airc_test_parse(ctx, rep);
        airc_replaced_patterns *rp = NULL;
        st.fail_at = st.count + k;
        airc_status s = airc_replace_pattern(g, p, r, &rp);
        st.fail_at = 0;
        bool done = s == AIRC_OK;
        if (!done) {
            AIRC_EXPECT(s, AIRC_E_OUT_OF_MEMORY, NULL);
            assert_null(rp);
            assert_text(g, before);
            AIRC_ASSERT_OK(airc_graph_lint(g));
            failures++;
        } else {
            assert_int_equal(airc_replaced_patterns_size(rp), 4);
            assert_text(g, after);
        }
        airc_replaced_patterns_destroy(rp);
        airc_graph_destroy(g);
        airc_graph_destroy(p);
        airc_graph_destroy(r);
        airc_context_destroy(ctx);
        assert_int_equal(st.live, 0);
        if (done)
            break;
    }
    assert_true(failures > 10);
    free(before);
    free(after);
    free(pat);
    free(rep);
}

/* ---- long chains ------------------------------------------------------- */

static char *neg_chain_text(size_t n)
{
    size_t cap = 128 + n * 128;
    char *s = malloc(cap);
    size_t o = (size_t)snprintf(s, cap, HDR "    %%x_1 : [#users=1] = placeholder[target=x_1]\n");
    char prev[32] = "x_1", cur[32];
    for (size_t i = 0; i < n; i++) {
        if (i)
            snprintf(cur, sizeof cur, "neg_%zu", i);
        else
            snprintf(cur, sizeof cur, "neg");
        o += (size_t)snprintf(s + o, cap - o,
                              "    %%%s : [#users=1] = " NEG "(args = (%%%s,), kwargs = {})\n",
                              cur, prev);
        memcpy(prev, cur, sizeof cur);
    }
    snprintf(s + o, cap - o, "    return %s\n", prev);
    return s;
}

static void test_long_chain(void **state)
{
    (void)state;
    enum { N = 20000 };
    airc_context *ctx = new_ctx();
    char *text = neg_chain_text(N);
    airc_graph *g = airc_test_parse(ctx, text);
    free(text);
    /* a pattern spanning the whole chain is matched without recursion
     * (anchored on the output: one candidate) */
    airc_graph *whole;
    AIRC_ASSERT_OK(airc_graph_clone(g, &whole));
    airc_matcher_options o;
    airc_matcher_options_init(&o);
    o.match_output = 1;
    airc_matcher *m;
    airc_match_list *l;
    AIRC_ASSERT_OK(airc_matcher_create(whole, &o, &m));
    AIRC_ASSERT_OK(airc_matcher_match(m, g, &l));
    assert_int_equal(airc_match_list_size(l), 1);
    airc_match_list_destroy(l);
    airc_matcher_destroy(m);
    airc_graph_destroy(whole);
    /* identity transform of the chain */
    airc_transformer *t;
    AIRC_ASSERT_OK(airc_transformer_create(ctx, NULL, NULL, NULL, &t));
    airc_graph *copy;
    AIRC_ASSERT_OK(airc_transformer_run(t, g, &copy));
    assert_int_equal(airc_graph_num_nodes(copy), N + 2);
    airc_graph_destroy(copy);
    airc_transformer_destroy(t);
    /* rewrite: N/2 matches, a chain of relus */
    airc_graph *p = airc_test_parse(ctx, neg_neg);
    airc_graph *r = parse_path(ctx, AIRC_TEST_DATA "/passes/overlap_neg4.replacement.fx");
    airc_replaced_patterns *rp;
    AIRC_ASSERT_OK(airc_replace_pattern(g, p, r, &rp));
    assert_int_equal(airc_replaced_patterns_size(rp), N / 2);
    assert_int_equal(airc_graph_num_nodes(g), N / 2 + 2);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    airc_node *last = airc_node_input(airc_graph_output_node(g), 0);
    assert_string_equal(airc_node_name(last), "relu_default_9999");
    assert_string_equal(airc_node_target(last), "aten.relu.default");
    airc_replaced_patterns_destroy(rp);
    airc_graph_destroy(p);
    airc_graph_destroy(r);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* ---- Transformer ------------------------------------------------------- */

#define ADD "call_function[target=torch.ops.aten.add.Tensor]"
#define TLINE_X "    %x_1 : [#users=1] = placeholder[target=x_1]\n"
#define TLINE_Y "    %y_1 : [#users=1] = placeholder[target=y_1]\n"
static const char tsrc[] = HDR TLINE_X TLINE_Y
    "    %add : f32[3] [#users=1] = " ADD "(args = (%x_1, %y_1), kwargs = {alpha: 2})\n"
    "    %detach : [#users=1] = call_function[target=torch.ops.aten.detach.default](args = "
    "(%add,), kwargs = {})\n"
    "    %sin : [#users=1] = call_function[target=torch.ops.aten.sin.default](args = "
    "(%detach,), kwargs = {})\n"
    "    return sin\n";

typedef struct tstate {
    int mode;
    int freed;
    airc_node *foreign;
} tstate;

enum { T_SUB, T_EXPAND, T_DROP, T_FAIL, T_DROP_USED, T_FOREIGN };

static airc_status tfn(void *ud, airc_emitter *em, const airc_node *old, airc_node **out)
{
    tstate *s = ud;
    const char *name = airc_node_name(old);
    if (!strcmp(name, "add")) {
        switch (s->mode) {
        case T_SUB:
            return airc_emitter_copy(em, old, "aten.sub.Tensor", out);
        case T_EXPAND: {
            airc_node *c, *relu;
            const airc_value *v;
            airc_status st = airc_emitter_copy(em, old, NULL, &c);
            if (st == AIRC_OK)
                st = airc_value_node(airc_emitter_graph(em), c, &v);
            if (st == AIRC_OK)
                st = airc_graph_call_function(airc_emitter_graph(em), "aten.relu.default", &v, 1,
                                              &relu);
            if (st == AIRC_OK)
                *out = relu;
            return st;
        }
        case T_DROP_USED:
            *out = NULL;
            return AIRC_OK;
        case T_FOREIGN:
            *out = s->foreign;
            return AIRC_OK;
        default:
            break;
        }
    }
    if (!strcmp(name, "detach") && s->mode == T_DROP) {
        *out = airc_node_input(old, 0); /* a source node: translated */
        return AIRC_OK;
    }
    if (!strcmp(name, "sin") && s->mode == T_FAIL)
        return airc_pass_fail(AIRC_E_PASS, "no sin allowed");
    return airc_emitter_copy(em, old, NULL, out);
}

static void tfree(void *ud)
{
    ((tstate *)ud)->freed++;
}

static airc_status transform(airc_graph *g, tstate *s, airc_graph **out)
{
    airc_transformer *t;
    AIRC_ASSERT_OK(airc_transformer_create(airc_graph_context(g), tfn, s, tfree, &t));
    airc_status st = airc_transformer_run(t, g, out);
    airc_transformer_destroy(t);
    return st;
}

static void test_transformer(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_graph *g = airc_test_parse(ctx, tsrc);
    airc_graph *out = NULL;
    /* identity: same text (types included) */
    airc_transformer *t;
    AIRC_ASSERT_OK(airc_transformer_create(ctx, NULL, NULL, NULL, &t));
    AIRC_ASSERT_OK(airc_transformer_run(t, g, &out));
    assert_text(out, tsrc);
    airc_graph_destroy(out);
    AIRC_EXPECT(airc_transformer_run(t, NULL, &out), AIRC_E_MISUSE, NULL);
    AIRC_EXPECT(airc_transformer_run(NULL, g, &out), AIRC_E_MISUSE, "transformer");
    airc_transformer_destroy(t);
    airc_transformer_destroy(NULL);

    tstate s = {0};
    s.mode = T_SUB; /* one-to-one: new target, name from it, no meta */
    AIRC_ASSERT_OK(transform(g, &s, &out));
    assert_int_equal(s.freed, 1);
    AIRC_ASSERT_OK(airc_graph_lint(out));
    assert_text(out, HDR TLINE_X TLINE_Y
                "    %sub : [#users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = "
                "(%x_1, %y_1), kwargs = {alpha: 2})\n"
                "    %detach : [#users=1] = call_function[target=torch.ops.aten.detach.default]"
                "(args = (%sub,), kwargs = {})\n"
                "    %sin : [#users=1] = call_function[target=torch.ops.aten.sin.default](args = "
                "(%detach,), kwargs = {})\n    return sin\n");
    airc_graph_destroy(out);

    s.mode = T_EXPAND; /* one-to-many: relu after add */
    AIRC_ASSERT_OK(transform(g, &s, &out));
    assert_text(out, HDR TLINE_X TLINE_Y
                "    %add : f32[3] [#users=1] = " ADD "(args = (%x_1, %y_1), kwargs = {alpha: 2})\n"
                "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args "
                "= (%add,), kwargs = {})\n"
                "    %detach : [#users=1] = call_function[target=torch.ops.aten.detach.default]"
                "(args = (%relu,), kwargs = {})\n"
                "    %sin : [#users=1] = call_function[target=torch.ops.aten.sin.default](args = "
                "(%detach,), kwargs = {})\n    return sin\n");
    airc_graph_destroy(out);

    s.mode = T_DROP; /* drop detach */
    AIRC_ASSERT_OK(transform(g, &s, &out));
    assert_text(out, HDR TLINE_X TLINE_Y
                "    %add : f32[3] [#users=1] = " ADD "(args = (%x_1, %y_1), kwargs = {alpha: 2})\n"
                "    %sin : [#users=1] = call_function[target=torch.ops.aten.sin.default](args = "
                "(%add,), kwargs = {})\n    return sin\n");
    AIRC_ASSERT_OK(airc_graph_lint(out));
    airc_graph_destroy(out);

    out = NULL;
    s.mode = T_FAIL;
    AIRC_EXPECT(transform(g, &s, &out), AIRC_E_PASS, "no sin allowed");
    assert_non_null(strstr(airc_last_error(), "'sin'"));
    assert_null(out);
    s.mode = T_DROP_USED;
    AIRC_EXPECT(transform(g, &s, &out), AIRC_E_INVALID_GRAPH, "'add' has no image");
    s.mode = T_FOREIGN;
    airc_graph *other = airc_test_parse(ctx, neg_neg);
    s.foreign = airc_graph_find_node(other, "a");
    AIRC_EXPECT(transform(g, &s, &out), AIRC_E_INVALID_ARGUMENT, "another graph");
    assert_null(out);
    assert_int_equal(s.freed, 6);
    assert_text(g, tsrc); /* the source never changes */
    airc_graph_destroy(other);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

static void test_transformer_oom(void **state)
{
    (void)state;
    size_t failures = 0;
    for (size_t k = 1;; k++) {
        airc_test_alloc st;
        airc_allocator a;
        airc_test_alloc_init(&st, &a);
        airc_context *ctx;
        AIRC_ASSERT_OK(airc_context_create(&a, &ctx));
        airc_graph *g = airc_test_parse(ctx, tsrc);
        tstate s = {.mode = T_EXPAND};
        airc_transformer *t;
        AIRC_ASSERT_OK(airc_transformer_create(ctx, tfn, &s, tfree, &t));
        airc_graph *out = NULL;
        st.fail_at = st.count + k;
        airc_status rc = airc_transformer_run(t, g, &out);
        st.fail_at = 0;
        if (rc != AIRC_OK) {
            AIRC_EXPECT(rc, AIRC_E_OUT_OF_MEMORY, NULL);
            assert_null(out);
            failures++;
        }
        airc_graph_destroy(out);
        airc_transformer_destroy(t);
        assert_int_equal(s.freed, 1);
        airc_graph_destroy(g);
        airc_context_destroy(ctx);
        assert_int_equal(st.live, 0);
        if (rc == AIRC_OK)
            break;
    }
    assert_true(failures > 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conformance_shared),
        cmocka_unit_test(test_golden_cases),
        cmocka_unit_test(test_replaced_patterns),
        cmocka_unit_test(test_matcher_options),
        cmocka_unit_test(test_matcher_literals),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_filters),
        cmocka_unit_test(test_rollback_after_partial_rewrite),
        cmocka_unit_test(test_rewrite_oom),
        cmocka_unit_test(test_long_chain),
        cmocka_unit_test(test_transformer),
        cmocka_unit_test(test_transformer_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
