/* CapabilityBasedPartitioner: propose (against torch 1.13's results and
 * hand-derived cases), fuse, inline, long chains, failure paths. */
#include "testutil.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const BASIC[] = {"aten.add.Tensor", "aten.mul.Tensor", "aten.relu.default",
                                    "aten.neg.default"};

typedef struct fixture {
    airc_context *ctx;
    airc_support *basic;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    AIRC_ASSERT_OK(airc_context_create(NULL, &f->ctx));
    AIRC_ASSERT_OK(airc_support_create_ops(f->ctx, BASIC, 4, &f->basic));
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    airc_support_destroy(f->basic);
    airc_context_destroy(f->ctx);
    free(f);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Partitions as sorted lines "name name ..." (names sorted), joined by '\n'. */
static char *canon(const airc_partitions *p)
{
    size_t n = airc_partitions_count(p);
    char **lines = calloc(n + 1, sizeof *lines);
    size_t total = 1;
    for (size_t i = 0; i < n; i++) {
        size_t m = airc_partition_size(p, i);
        const char **names = calloc(m + 1, sizeof *names);
        size_t len = 1;
        for (size_t j = 0; j < m; j++) {
            names[j] = airc_node_name(airc_partition_node(p, i, j));
            len += strlen(names[j]) + 1;
        }
        qsort(names, m, sizeof *names, cmp_str);
        lines[i] = calloc(len, 1);
        for (size_t j = 0; j < m; j++) {
            if (j)
                strcat(lines[i], " ");
            strcat(lines[i], names[j]);
        }
        total += len + 1;
        free(names);
    }
    qsort(lines, n, sizeof *lines, cmp_str);
    char *out = calloc(total, 1);
    for (size_t i = 0; i < n; i++) {
        strcat(out, lines[i]);
        strcat(out, "\n");
        free(lines[i]);
    }
    free(lines);
    return out;
}

static char *propose_canon(airc_graph *g, const airc_support *s, const airc_partition_options *o)
{
    airc_partitions *p;
    AIRC_ASSERT_OK(airc_graph_propose_partitions(g, s, o, &p));
    char *c = canon(p);
    airc_partitions_destroy(p);
    return c;
}

static airc_graph *parse_file(airc_context *ctx, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/partition/%s", AIRC_TEST_DATA, name);
    airc_graph *g;
    AIRC_ASSERT_OK(airc_graph_parse_file(ctx, path, &g));
    return g;
}

/* ---- torch 1.13 cases and the naive model -------------------------------------------------- */

static const char *const CASES[] = {"chain",     "notes",           "cycle",   "diamond",
                                    "two_outputs", "multi_out",     "multi_out_unsup",
                                    "random1",   "random2",         "random3",
                                    "random4",   "random5",         "random6",
                                    "random7",   "random8"};

/* Reads NAME.txt (see tests/gen_partition_cases.py): the support list, torch
 * 1.13's partitions per single-node mode, the naive model's per horizontal
 * and single-node mode, and whether torch 1.13 agrees with the model. */
static void check_torch_case(fixture *f, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/partition/%s.txt", AIRC_TEST_DATA, name);
    char *text = airc_test_read_file(path, NULL);
    assert_non_null(text);
    char fxname[128];
    snprintf(fxname, sizeof fxname, "%s.fx", name);
    airc_graph *g = parse_file(f->ctx, fxname);
    airc_support *sup = NULL;
    /* [0..1]: torch single; [2 + 2 * horizontal + single]: model */
    static char expect[6][32768];
    memset(expect, 0, sizeof expect);
    int slot = -1, same = -1;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        int h, single;
        if (!strncmp(line, "support ", 8)) {
            const char *ops[32];
            size_t n = 0;
            for (char *t = line + 8; *t && n < 32;) {
                ops[n++] = t;
                char *sp = strchr(t, ' ');
                if (!sp)
                    break;
                *sp = '\0';
                t = sp + 1;
            }
            AIRC_ASSERT_OK(airc_support_create_ops(f->ctx, ops, n, &sup));
        } else if (sscanf(line, "torch single %d", &single) == 1) {
            slot = single;
        } else if (sscanf(line, "model horizontal %d single %d", &h, &single) == 2) {
            slot = 2 + 2 * h + single;
        } else if (sscanf(line, "same %d", &same) == 1) {
            slot = -1;
        } else if (!strncmp(line, "partition ", 10)) {
            assert_true(slot >= 0 && slot < 6);
            strcat(expect[slot], line + 10);
            strcat(expect[slot], "\n");
        }
    }
    assert_non_null(sup);
    assert_true(same == 0 || same == 1);
    for (int k = same ? 0 : 2; k < 6; k++) {
        airc_partition_options o;
        airc_partition_options_init(&o);
        o.horizontal_fusion = k < 2 ? 0 : (k - 2) / 2; /* torch 1.13 has none */
        o.allows_single_node_partition = k % 2;
        char *got = propose_canon(g, sup, &o);
        if (strcmp(got, expect[k]))
            print_error("case %s, expectation %d\nexpected:\n%sgot:\n%s", name, k, expect[k],
                        got);
        assert_string_equal(got, expect[k]);
        free(got);
    }
    airc_support_destroy(sup);
    airc_graph_destroy(g);
    free(text);
}

static void test_torch_cases(void **state)
{
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++)
        check_torch_case(*state, CASES[i]);
}

/* ---- hand-derived cases ------------------------------------------------ */

#define PH(n) "    %" n " : [#users=1] = placeholder[target=" n "]\n"
#define CF(n, op, args)                                                                            \
    "    %" n " : [#users=1] = call_function[target=torch.ops.aten." op "](args = " args           \
    ", kwargs = {})\n"

/* x feeds two independent supported branches joined by an unsupported mm:
 * horizontal fusion (torch 2.0) merges them through x; torch 1.13 does not. */
static const char *BRANCHES = "graph():\n" PH("x")
    CF("a", "relu.default", "(%x,)") CF("b", "neg.default", "(%a,)")
    CF("c", "neg.default", "(%x,)") CF("d", "relu.default", "(%c,)")
    CF("e", "mm.default", "(%b, %d)") "    return e\n";

/* m (unsupported) feeds a (alone: its user is mm) and c -> d; merging {a}
 * with {c, d} would make a -> b(mm) -> d a cycle. */
static const char *BLOCKED = "graph():\n" PH("x")
    CF("m", "mm.default", "(%x, %x)") CF("a", "relu.default", "(%m,)")
    CF("b", "mm.default", "(%a, %a)") CF("c", "neg.default", "(%m,)")
    CF("d", "add.Tensor", "(%b, %c)") "    return d\n";

static void test_horizontal(void **state)
{
    fixture *f = *state;
    airc_graph *g = airc_test_parse(f->ctx, BRANCHES);
    char *c = propose_canon(g, f->basic, NULL);
    assert_string_equal(c, "a b c d\n");
    free(c);
    airc_partition_options o;
    airc_partition_options_init(&o);
    o.horizontal_fusion = 0;
    c = propose_canon(g, f->basic, &o);
    assert_string_equal(c, "a b\nc d\n");
    free(c);
    airc_graph_destroy(g);

    g = airc_test_parse(f->ctx, BLOCKED);
    airc_partition_options_init(&o);
    o.allows_single_node_partition = 1;
    c = propose_canon(g, f->basic, &o);
    assert_string_equal(c, "a\nc d\n");
    free(c);
    airc_graph_destroy(g);
}

static void test_cycle_case(void **state)
{
    fixture *f = *state;
    /* relu -> mm(unsupported) -> add(relu, mm) -> neg: relu must stay out */
    airc_graph *g = parse_file(f->ctx, "cycle.fx");
    airc_partition_options o;
    airc_partition_options_init(&o);
    o.allows_single_node_partition = 1;
    char *c = propose_canon(g, f->basic, &o);
    assert_string_equal(c, "add_tensor neg_default\nrelu_default\n");
    free(c);
    /* fusing {relu, add} by hand is refused and changes nothing */
    char *before = airc_test_print(g, 0);
    airc_partitions *p;
    AIRC_ASSERT_OK(airc_partitions_create(g, &p));
    airc_node *two[2] = {airc_graph_find_node(g, "relu_default"),
                         airc_graph_find_node(g, "add_tensor")};
    AIRC_ASSERT_OK(airc_partitions_add(p, two, 2));
    AIRC_EXPECT(airc_graph_fuse_partitions(g, p), AIRC_E_INVALID_ARGUMENT, "cycle");
    char *after = airc_test_print(g, 0);
    assert_string_equal(before, after);
    free(before);
    free(after);
    airc_partitions_destroy(p);
    airc_graph_destroy(g);
}

static const char *VIEWS = "graph():\n" PH("x")
    CF("a", "relu.default", "(%x,)") CF("v", "view.default", "(%a, [4])")
    CF("b", "mm.default", "(%v, %v)") "    return b\n";

static void test_non_compute_ops(void **state)
{
    fixture *f = *state;
    const char *ops[] = {"aten.relu.default", "aten.view.default", "aten.neg.default"};
    airc_support *s;
    AIRC_ASSERT_OK(airc_support_create_ops(f->ctx, ops, 3, &s));
    airc_graph *g = airc_test_parse(f->ctx, VIEWS);
    /* {a, v}: view is not compute by default, so one compute node: dropped */
    char *c = propose_canon(g, s, NULL);
    assert_string_equal(c, "");
    free(c);
    airc_partition_options o;
    airc_partition_options_init(&o);
    const char *allowed[] = {"torch.ops.aten.relu.default"};
    o.allowed_single_node_partition_ops = allowed;
    o.num_allowed_single_node_partition_ops = 1;
    c = propose_canon(g, s, &o);
    assert_string_equal(c, "a v\n");
    free(c);
    airc_graph_destroy(g);

    g = airc_test_parse(f->ctx, "graph():\n" PH("x") CF("a", "relu.default", "(%x,)")
                                    CF("b", "neg.default", "(%a,)") "    return b\n");
    c = propose_canon(g, s, NULL);
    assert_string_equal(c, "a b\n");
    free(c);
    airc_partition_options_init(&o);
    const char *nc[] = {"aten.neg"};
    o.non_compute_ops = nc;
    o.num_non_compute_ops = 1;
    c = propose_canon(g, s, &o);
    assert_string_equal(c, "");
    free(c);
    const char *bad[] = {"aten.no_such_op"};
    o.non_compute_ops = bad;
    airc_partitions *p = (airc_partitions *)0x1;
    AIRC_EXPECT(airc_graph_propose_partitions(g, s, &o, &p), AIRC_E_NOT_FOUND, "no_such_op");
    assert_ptr_equal(p, (airc_partitions *)0x1);
    o.struct_size = 3;
    AIRC_EXPECT(airc_graph_propose_partitions(g, s, &o, &p), AIRC_E_INVALID_ARGUMENT,
                "struct_size");
    airc_graph_destroy(g);
    airc_support_destroy(s);
}

/* ---- combinators ------------------------------------------------------- */

static int32_t not_relu(void *ud, const airc_node *n)
{
    (void)ud;
    return strcmp(airc_node_target(n), "aten.relu.default") != 0;
}

static int32_t everything(void *ud, const airc_node *n)
{
    (void)n;
    if (ud)
        (*(int *)ud)++;
    return 1;
}

static void count_free(void *ud)
{
    (*(int *)ud) += 1000;
}

static void test_combinators(void **state)
{
    fixture *f = *state;
    airc_graph *g = airc_test_parse(f->ctx, BRANCHES);
    airc_node *a = airc_graph_find_node(g, "a"), *b = airc_graph_find_node(g, "b"),
              *e = airc_graph_find_node(g, "e"), *x = airc_graph_find_node(g, "x");
    int calls = 0;
    airc_support *nr, *all, *ch, *any, *none;
    AIRC_ASSERT_OK(airc_support_create(f->ctx, not_relu, NULL, NULL, &nr));
    AIRC_ASSERT_OK(airc_support_create(f->ctx, everything, &calls, count_free, &all));
    airc_support *parts[2] = {f->basic, nr};
    AIRC_ASSERT_OK(airc_support_chain(f->ctx, parts, 2, &ch));
    AIRC_ASSERT_OK(airc_support_any_chain(f->ctx, parts, 2, &any));
    AIRC_ASSERT_OK(airc_support_any_chain(f->ctx, NULL, 0, &none));
    assert_int_equal(airc_support_is_supported(ch, a), 0);  /* relu */
    assert_int_equal(airc_support_is_supported(ch, b), 1);  /* neg */
    assert_int_equal(airc_support_is_supported(ch, e), 0);  /* mm */
    assert_int_equal(airc_support_is_supported(any, e), 1); /* mm is not relu */
    assert_int_equal(airc_support_is_supported(any, a), 1);
    assert_int_equal(airc_support_is_supported(none, a), 0);
    assert_int_equal(airc_support_is_supported(all, x), 0); /* placeholders never */
    assert_int_equal(calls, 0);
    assert_int_equal(airc_support_is_supported(all, e), 1);
    assert_int_equal(calls, 1);
    /* a support that accepts everything: one partition of every call */
    airc_support *wrap;
    AIRC_ASSERT_OK(airc_support_chain(f->ctx, &all, 1, &wrap));
    airc_support_destroy(all); /* the chain keeps it alive */
    assert_int_equal(calls, 1);
    char *c = propose_canon(g, wrap, NULL);
    assert_string_equal(c, "a b c d e\n");
    free(c);
    size_t nf = 0;
    AIRC_ASSERT_OK(airc_graph_partition_and_fuse(g, wrap, NULL, &nf));
    assert_int_equal(nf, 1);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    assert_int_equal(airc_graph_num_nodes(g), 3); /* x, fused_0, output */
    airc_support_destroy(wrap);
    assert_int_equal(calls >= 1000, 1); /* freed exactly once, at the end */
    assert_int_equal(calls / 1000, 1);
    /* misuse */
    airc_support *out = (airc_support *)0x1;
    AIRC_EXPECT(airc_support_create(f->ctx, NULL, NULL, NULL, &out), AIRC_E_INVALID_ARGUMENT, NULL);
    AIRC_EXPECT(airc_support_create(NULL, not_relu, NULL, NULL, &out), AIRC_E_MISUSE, NULL);
    const char *unknown[] = {"aten.nope.default"};
    AIRC_EXPECT(airc_support_create_ops(f->ctx, unknown, 1, &out), AIRC_E_NOT_FOUND, "nope");
    airc_support *nullpart[1] = {NULL};
    AIRC_EXPECT(airc_support_chain(f->ctx, nullpart, 1, &out), AIRC_E_MISUSE, NULL);
    assert_ptr_equal(out, (airc_support *)0x1);
    assert_int_equal(airc_support_is_supported(NULL, a), 0);
    airc_support_destroy(NULL);
    airc_support_destroy(nr);
    airc_support_destroy(ch);
    airc_support_destroy(any);
    airc_support_destroy(none);
    airc_graph_destroy(g);
}

/* ---- fuse, print/parse, inline ---------------------------------------- */

/* Structural hash of a node's value: target and inputs, names ignored
 * except for placeholders (memoized by node id in `memo`). */
typedef struct hmemo {
    airc_node **keys;
    uint64_t *vals;
    size_t n, cap;
} hmemo;

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0x100000001b3ull;
}

static uint64_t hstr(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static uint64_t hnode(hmemo *m, airc_node *n);

static uint64_t hvalue(hmemo *m, const airc_value *v)
{
    airc_value_kind k = airc_value_get_kind(v);
    uint64_t h = (uint64_t)k;
    if (k == AIRC_VALUE_NODE) {
        airc_node *x;
        airc_value_get_node(v, &x);
        return mix(h, hnode(m, x));
    }
    if (k == AIRC_VALUE_INT) {
        int64_t i;
        airc_value_get_int(v, &i);
        return mix(h, (uint64_t)i);
    }
    for (size_t i = 0; i < airc_value_length(v); i++)
        h = mix(h, hvalue(m, airc_value_item(v, i)));
    return h;
}

/* graphs here are shallow enough (<= 100 levels) for recursion in a test */
static uint64_t hnode(hmemo *m, airc_node *n)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->keys[i] == n)
            return m->vals[i];
    uint64_t h = hstr(airc_node_target(n));
    if (airc_node_get_kind(n) == AIRC_NODE_PLACEHOLDER)
        h = mix(h, hstr(airc_node_name(n)));
    for (size_t i = 0; i < airc_node_num_args(n); i++)
        h = mix(h, hvalue(m, airc_node_arg(n, i)));
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 64;
        m->keys = realloc(m->keys, m->cap * sizeof *m->keys);
        m->vals = realloc(m->vals, m->cap * sizeof *m->vals);
    }
    m->keys[m->n] = n;
    m->vals[m->n++] = h;
    return h;
}

static uint64_t graph_hash(airc_graph *g)
{
    hmemo m = {0};
    uint64_t h = hnode(&m, airc_graph_output_node(g));
    free(m.keys);
    free(m.vals);
    return h;
}

static size_t count_kind(airc_graph *g, airc_node_kind kind)
{
    size_t c = 0;
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n))
        c += airc_node_get_kind(n) == kind;
    return c;
}

/* expect_parts: the number of partitions, or SIZE_MAX for "as proposed" */
static void fuse_roundtrip(fixture *f, const char *file, size_t expect_parts)
{
    airc_graph *orig = parse_file(f->ctx, file);
    airc_graph *g = parse_file(f->ctx, file);
    uint64_t h0 = graph_hash(g);
    size_t n0 = airc_graph_num_nodes(g);
    size_t nf = 0;
    AIRC_ASSERT_OK(airc_graph_partition_and_fuse(g, f->basic, NULL, &nf));
    if (expect_parts == SIZE_MAX)
        expect_parts = nf;
    assert_int_equal(nf, expect_parts);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    assert_int_equal(airc_graph_num_submodules(g), expect_parts);
    assert_int_equal(count_kind(g, AIRC_NODE_CALL_MODULE), expect_parts);
    for (size_t i = 0; i < expect_parts; i++) {
        char name[32];
        snprintf(name, sizeof name, "fused_%zu", i);
        airc_graph *sub = airc_graph_submodule(g, name);
        assert_non_null(sub);
        AIRC_ASSERT_OK(airc_graph_lint(sub));
        assert_non_null(airc_graph_find_node(g, name)); /* the call is named like it */
        /* placeholders are named after the input nodes: original nodes, or
         * the call/getitem of a partition fused before */
        for (airc_node *n = airc_graph_first_node(sub); n; n = airc_node_next(n))
            if (airc_node_get_kind(n) == AIRC_NODE_PLACEHOLDER)
                assert_true(airc_graph_find_node(orig, airc_node_name(n)) ||
                            airc_graph_find_node(g, airc_node_name(n)));
    }
    /* print -> parse -> print */
    char *t1 = airc_test_print(g, 0);
    airc_graph *g2 = airc_test_parse(f->ctx, t1);
    char *t2 = airc_test_print(g2, 0);
    assert_string_equal(t1, t2);
    AIRC_ASSERT_OK(airc_graph_lint(g2));
    free(t1);
    free(t2);
    /* inlining gives back the same computation */
    size_t ni = 0;
    AIRC_ASSERT_OK(airc_graph_inline_submodules(g2, &ni));
    assert_int_equal(ni, expect_parts);
    AIRC_ASSERT_OK(airc_graph_lint(g2));
    assert_int_equal(airc_graph_num_submodules(g2), 0);
    assert_int_equal(airc_graph_num_nodes(g2), n0);
    assert_true(graph_hash(g2) == h0);
    airc_graph_destroy(g2);
    airc_graph_destroy(g);
    airc_graph_destroy(orig);
}

static void test_fuse_and_inline(void **state)
{
    fixture *f = *state;
    fuse_roundtrip(f, "notes.fx", 2);
    fuse_roundtrip(f, "diamond.fx", 2);
    fuse_roundtrip(f, "random1.fx", SIZE_MAX);
    fuse_roundtrip(f, "random2.fx", SIZE_MAX);
    fuse_roundtrip(f, "random3.fx", SIZE_MAX);
    fuse_roundtrip(f, "random5.fx", SIZE_MAX);
    fuse_roundtrip(f, "random7.fx", SIZE_MAX);
}

static void test_fuse_multi_output(void **state)
{
    fixture *f = *state;
    /* two_outputs: {relu, neg} used by two mms -> two getitems */
    airc_graph *g = parse_file(f->ctx, "two_outputs.fx");
    uint64_t h0 = graph_hash(g);
    AIRC_ASSERT_OK(airc_graph_partition_and_fuse(g, f->basic, NULL, NULL));
    AIRC_ASSERT_OK(airc_graph_lint(g));
    airc_node *call = airc_graph_find_node(g, "fused_0");
    assert_non_null(call);
    assert_int_equal(airc_node_get_kind(call), AIRC_NODE_CALL_MODULE);
    assert_int_equal(airc_node_num_args(call), 1);
    assert_int_equal(airc_node_num_users(call), 2);
    airc_node *g0 = airc_graph_find_node(g, "getitem"), *g1 = airc_graph_find_node(g, "getitem_1");
    assert_non_null(g0);
    assert_non_null(g1);
    assert_string_equal(airc_node_target(g0), "operator.getitem");
    airc_graph *sub = airc_graph_submodule(g, "fused_0");
    const airc_value *res = airc_node_arg(airc_graph_output_node(sub), 0);
    assert_int_equal(airc_value_get_kind(res), AIRC_VALUE_TUPLE);
    assert_int_equal(airc_value_length(res), 2);
    assert_string_equal(airc_node_name(airc_graph_first_node(sub)), "x");
    size_t ni;
    AIRC_ASSERT_OK(airc_graph_inline_submodules(g, &ni));
    assert_int_equal(ni, 1);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    assert_true(graph_hash(g) == h0);
    airc_graph_destroy(g);
}

/* A partition whose external input comes after its first node and whose
 * output is used before its last node: fuse must reorder the graph. */
static const char *INTERLEAVED = "graph():\n" PH("x") PH("y")
    CF("a", "relu.default", "(%x,)") CF("b", "mm.default", "(%a, %a)")
    CF("m", "mm.default", "(%y, %y)") CF("c", "neg.default", "(%m,)")
    CF("d", "add.Tensor", "(%a, %c)") CF("e", "add.Tensor", "(%b, %d)") "    return e\n";

static void test_fuse_reorders(void **state)
{
    fixture *f = *state;
    airc_graph *g = airc_test_parse(f->ctx, INTERLEAVED);
    uint64_t h0 = graph_hash(g);
    airc_partitions *p;
    AIRC_ASSERT_OK(airc_partitions_create(g, &p));
    airc_node *nodes[3] = {airc_graph_find_node(g, "d"), airc_graph_find_node(g, "a"),
                           airc_graph_find_node(g, "c")};
    AIRC_ASSERT_OK(airc_partitions_add(p, nodes, 3));
    assert_string_equal(airc_node_name(airc_partition_node(p, 0, 0)), "a"); /* graph order */
    AIRC_ASSERT_OK(airc_graph_fuse_partitions(g, p));
    airc_partitions_destroy(p);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    /* x, y, m, fused_0, getitem, getitem_1, b, e, output */
    const char *order[] = {"x", "y", "m", "fused_0", "getitem", "getitem_1", "b", "e", "output"};
    airc_node *n = airc_graph_first_node(g);
    for (size_t i = 0; i < 9; i++, n = airc_node_next(n)) {
        assert_non_null(n);
        assert_string_equal(airc_node_name(n), order[i]);
    }
    airc_graph *sub = airc_graph_submodule(g, "fused_0");
    char *t = airc_test_print(sub, 0);
    assert_non_null(strstr(t, "placeholder[target=x]"));
    assert_true(strstr(t, "placeholder[target=x]") < strstr(t, "placeholder[target=m]"));
    assert_non_null(strstr(t, "return (a, d)"));
    free(t);
    AIRC_ASSERT_OK(airc_graph_inline_submodules(g, NULL));
    AIRC_ASSERT_OK(airc_graph_lint(g));
    assert_true(graph_hash(g) == h0);
    airc_graph_destroy(g);
}

/* ---- long chains ------------------------------------------------------- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* x -> relu -> neg -> add(., x) -> ... with an mm every `mm_every` nodes */
static airc_graph *chain(airc_context *ctx, size_t n, size_t mm_every)
{
    airc_graph *g;
    AIRC_ASSERT_OK(airc_graph_create(ctx, &g));
    airc_node *x, *prev;
    AIRC_ASSERT_OK(airc_graph_placeholder(g, "x", &x));
    prev = x;
    const airc_value *vx;
    AIRC_ASSERT_OK(airc_value_node(g, x, &vx));
    for (size_t i = 0; i < n; i++) {
        const airc_value *args[2];
        AIRC_ASSERT_OK(airc_value_node(g, prev, &args[0]));
        args[1] = vx;
        const char *op = mm_every && i % mm_every == mm_every - 1 ? "aten.mm.default"
                         : i % 3 == 0                            ? "aten.relu.default"
                         : i % 3 == 1                            ? "aten.neg.default"
                                                                 : "aten.add.Tensor";
        size_t na = strstr(op, "relu") || strstr(op, "neg") ? 1 : 2;
        AIRC_ASSERT_OK(airc_graph_call_function(g, op, args, na, &prev));
    }
    const airc_value *r;
    AIRC_ASSERT_OK(airc_value_node(g, prev, &r));
    airc_node *on;
    AIRC_ASSERT_OK(airc_graph_output(g, r, &on));
    return g;
}

static void test_long_chain(void **state)
{
    fixture *f = *state;
    const size_t n = 100000;
    airc_graph *g = chain(f->ctx, n, 0);
    double t0 = now();
    airc_partitions *p;
    AIRC_ASSERT_OK(airc_graph_propose_partitions(g, f->basic, NULL, &p));
    double t1 = now();
    assert_int_equal(airc_partitions_count(p), 1);
    assert_int_equal(airc_partition_size(p, 0), n);
    AIRC_ASSERT_OK(airc_graph_fuse_partitions(g, p));
    double t2 = now();
    airc_partitions_destroy(p);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    assert_int_equal(airc_graph_num_nodes(g), 3);
    AIRC_ASSERT_OK(airc_graph_inline_submodules(g, NULL));
    double t3 = now();
    AIRC_ASSERT_OK(airc_graph_lint(g));
    assert_int_equal(airc_graph_num_nodes(g), n + 2);
    print_message("100k chain: propose %.3fs fuse %.3fs inline %.3fs\n", t1 - t0, t2 - t1, t3 - t2);
    assert_true(t3 - t0 < 60.0); /* sanity bound only: quadratic would take far longer */
    airc_graph_destroy(g);

    /* many partitions: an mm every 50 nodes -> 2000 partitions */
    g = chain(f->ctx, n, 50);
    t0 = now();
    size_t nf;
    AIRC_ASSERT_OK(airc_graph_partition_and_fuse(g, f->basic, NULL, &nf));
    t1 = now();
    assert_int_equal(nf, n / 50);
    AIRC_ASSERT_OK(airc_graph_lint(g));
    AIRC_ASSERT_OK(airc_graph_inline_submodules(g, NULL));
    AIRC_ASSERT_OK(airc_graph_lint(g));
    assert_int_equal(airc_graph_num_nodes(g), n + 2);
    print_message("100k chain, %zu partitions: partition+fuse %.3fs\n", nf, t1 - t0);
    assert_true(now() - t0 < 60.0);
    airc_graph_destroy(g);
}

/* ---- failure paths ----------------------------------------------------- */

static void test_misuse(void **state)
{
    fixture *f = *state;
    airc_graph *g = airc_test_parse(f->ctx, BRANCHES), *h = airc_test_parse(f->ctx, BRANCHES);
    airc_partitions *p = (airc_partitions *)0x1;
    AIRC_EXPECT(airc_graph_propose_partitions(NULL, f->basic, NULL, &p), AIRC_E_MISUSE, NULL);
    AIRC_EXPECT(airc_graph_propose_partitions(g, NULL, NULL, &p), AIRC_E_MISUSE, "support");
    AIRC_EXPECT(airc_graph_propose_partitions(g, f->basic, NULL, NULL), AIRC_E_INVALID_ARGUMENT,
                NULL);
    assert_ptr_equal(p, (airc_partitions *)0x1);
    AIRC_EXPECT(airc_graph_fuse_partitions(g, NULL), AIRC_E_MISUSE, NULL);
    AIRC_EXPECT(airc_graph_inline_submodules(NULL, NULL), AIRC_E_MISUSE, NULL);
    AIRC_ASSERT_OK(airc_graph_propose_partitions(h, f->basic, NULL, &p));
    AIRC_EXPECT(airc_graph_fuse_partitions(g, p), AIRC_E_MISUSE, "another graph");
    airc_partitions_destroy(p);
    AIRC_ASSERT_OK(airc_partitions_create(g, &p));
    airc_node *x = airc_graph_find_node(g, "x"), *a = airc_graph_find_node(g, "a");
    airc_node *hb = airc_graph_find_node(h, "b");
    AIRC_EXPECT(airc_partitions_add(p, &x, 1), AIRC_E_INVALID_ARGUMENT, "call_function");
    AIRC_EXPECT(airc_partitions_add(p, &hb, 1), AIRC_E_INVALID_ARGUMENT, "graph");
    AIRC_EXPECT(airc_partitions_add(p, NULL, 0), AIRC_E_INVALID_ARGUMENT, NULL);
    airc_node *dup[2] = {a, a};
    AIRC_EXPECT(airc_partitions_add(p, dup, 2), AIRC_E_INVALID_ARGUMENT, "already");
    AIRC_ASSERT_OK(airc_partitions_add(p, &a, 1));
    AIRC_EXPECT(airc_partitions_add(p, &a, 1), AIRC_E_INVALID_ARGUMENT, "already");
    assert_int_equal(airc_partitions_count(p), 1);
    assert_null(airc_partition_node(p, 0, 1));
    assert_null(airc_partition_node(p, 1, 0));
    assert_int_equal(airc_partition_size(NULL, 0), 0);
    /* a stale partition: its node was erased */
    airc_node *e = airc_graph_find_node(g, "e");
    airc_partitions *q;
    AIRC_ASSERT_OK(airc_partitions_create(g, &q));
    AIRC_ASSERT_OK(airc_partitions_add(q, &e, 1));
    const airc_value *vb;
    AIRC_ASSERT_OK(airc_value_node(g, airc_graph_find_node(g, "b"), &vb));
    AIRC_ASSERT_OK(airc_node_set_args(airc_graph_output_node(g), &vb, 1));
    AIRC_ASSERT_OK(airc_graph_erase_node(g, e));
    AIRC_EXPECT(airc_graph_fuse_partitions(g, q), AIRC_E_MISUSE, "erased");
    airc_partitions_destroy(q);
    airc_partitions_destroy(p);
    airc_partitions_destroy(NULL);
    /* inline: a call_module with a wrong arity */
    airc_graph_destroy(h);
    airc_graph_destroy(g);
}

static void test_failing_allocator(void **state)
{
    (void)state;
    int done = 0;
    for (size_t fail_at = 1; !done && fail_at < 5000; fail_at++) {
        airc_test_alloc ta = {0};
        airc_allocator al;
        airc_test_alloc_init(&ta, &al);
        airc_context *ctx;
        if (airc_context_create(&al, &ctx) != AIRC_OK)
            continue;
        airc_graph *g = NULL;
        airc_support *s = NULL;
        airc_status st = airc_graph_parse(ctx, BRANCHES, strlen(BRANCHES), NULL, &g);
        if (st == AIRC_OK)
            st = airc_support_create_ops(ctx, BASIC, 4, &s);
        if (st == AIRC_OK) {
            ta.fail_at = ta.count + fail_at;
            size_t nf = 0;
            st = airc_graph_partition_and_fuse(g, s, NULL, &nf);
            if (st == AIRC_OK)
                st = airc_graph_inline_submodules(g, NULL);
            ta.fail_at = 0;
            if (st == AIRC_OK)
                done = 1;
            else
                assert_int_equal(st, AIRC_E_OUT_OF_MEMORY);
            /* whatever happened, the graph is still a valid graph */
            AIRC_ASSERT_OK(airc_graph_lint(g));
        }
        airc_support_destroy(s);
        airc_graph_destroy(g);
        airc_context_destroy(ctx);
        assert_int_equal(ta.live, 0);
    }
    assert_true(done);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_torch_cases, setup, teardown),
        cmocka_unit_test_setup_teardown(test_horizontal, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cycle_case, setup, teardown),
        cmocka_unit_test_setup_teardown(test_non_compute_ops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_combinators, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fuse_and_inline, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fuse_multi_output, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fuse_reorders, setup, teardown),
        cmocka_unit_test_setup_teardown(test_long_chain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_misuse, setup, teardown),
        cmocka_unit_test(test_failing_allocator),
    };
    return cmocka_run_group_tests_name("partition", tests, NULL, NULL);
}
