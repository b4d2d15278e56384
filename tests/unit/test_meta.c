/* Meta functions and meta propagation, checked against PyTorch 1.13:
 * tests/data/meta_cases.txt (written by tests/gen_meta_cases.py with torch
 * as the oracle) holds small graphs with input layouts and the dtype, shape
 * and strides torch produced for every node, or the node where torch
 * raised. Plus the op table's invariants, the air ops, and propagation's
 * all-or-nothing contract (errors, OOM). */
#include "testcase.h"
#include "testutil.h"

#include "ir/ir.h"
#include "ops/meta_util.h"
#include "ops/ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- case file --------------------------------------------------------- */

static airc_dtype dtype_of(const char *s)
{
    airc_dtype d = AIRC_DTYPE_UNDEFINED;
    if (airc_dtype_from_name(s, &d) != AIRC_OK)
        fail_msg("bad dtype '%s' in meta_cases.txt", s);
    return d;
}

static bool dims_equal(const int64_t *a, const int64_t *b, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

static void fmt_dims(char *buf, size_t cap, const int64_t *d, int32_t n)
{
    size_t o = (size_t)snprintf(buf, cap, "[");
    for (int32_t i = 0; i < n && o < cap; i++)
        o += (size_t)snprintf(buf + o, cap - o, "%s%lld", i ? ", " : "", (long long)d[i]);
    if (o < cap)
        snprintf(buf + o, cap - o, "]");
}

typedef struct case_run {
    airc_context *ctx;
    const char *name;
    airc_graph *g;
    airc_status st;  /* propagation status */
    char msg[1024];  /* its message */
    int failures;
} case_run;

static void case_fail(case_run *r, const char *fmt, ...) AIRC_PRINTF(2, 3);
static void case_fail(case_run *r, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    print_error("case %s: %s\n", r->name, buf);
    r->failures++;
}

/* An "expect NODE ..." line. */
static void check_expect(case_run *r, char *line)
{
    char node[128], idx[32], a[64], b[512], c[512];
    int k = sscanf(line, "expect %127s %31s %63s %511s %511s", node, idx, a, b, c);
    if (r->st != AIRC_OK) {
        case_fail(r, "propagation failed: %s", r->msg);
        return;
    }
    airc_node *n = airc_graph_find_node(r->g, node);
    if (!n) {
        case_fail(r, "no node '%s'", node);
        return;
    }
    if (!strcmp(idx, "tuple")) {
        if (airc_node_meta_kind(n) != AIRC_META_TUPLE ||
            airc_node_num_outputs(n) != (size_t)atoi(a))
            case_fail(r, "%s: expected a tuple of %s, got kind %d with %zu outputs", node, a,
                      (int)airc_node_meta_kind(n), airc_node_num_outputs(n));
        return;
    }
    if (k != 5)
        fail_msg("bad line: %s", line);
    size_t i = 0;
    if (!strcmp(idx, "-")) {
        if (airc_node_meta_kind(n) != AIRC_META_TENSOR) {
            case_fail(r, "%s: expected a tensor, got meta kind %d", node,
                      (int)airc_node_meta_kind(n));
            return;
        }
    } else {
        i = (size_t)atoi(idx);
    }
    airc_dtype dt;
    int32_t nd;
    const int64_t *shape, *strides;
    if (airc_node_output_meta(n, i, &dt, &nd, &shape, &strides) != AIRC_OK) {
        case_fail(r, "%s: no output %zu", node, i);
        return;
    }
    int64_t es[AIRC_MAX_DIMS], est[AIRC_MAX_DIMS];
    int32_t en = airc_test_parse_dims(b, es), enst = airc_test_parse_dims(c, est);
    assert_int_equal(en, enst);
    if (dt != dtype_of(a) || nd != en || !dims_equal(shape, es, en) ||
        !dims_equal(strides, est, en)) {
        char g1[256], g2[256], e1[256], e2[256];
        fmt_dims(g1, sizeof g1, shape, nd);
        fmt_dims(g2, sizeof g2, strides, nd);
        fmt_dims(e1, sizeof e1, es, en);
        fmt_dims(e2, sizeof e2, est, en);
        case_fail(r, "%s[%s]: got %s%s%s, torch gives %s%s%s", node, idx, airc_dtype_name(dt), g1,
                  g2, a, e1, e2);
    }
}

static void check_error(case_run *r, const char *node)
{
    if (r->st != AIRC_E_SHAPE) {
        case_fail(r, "expected AIRC_E_SHAPE at '%s', got %s: %s", node, airc_status_name(r->st),
                  r->msg);
        return;
    }
    char want[160];
    snprintf(want, sizeof want, "node '%s'", node);
    if (!strstr(r->msg, want))
        case_fail(r, "message does not name %s: %s", want, r->msg);
    /* all or nothing: no computed node kept a meta */
    for (airc_node *n = airc_graph_first_node(r->g); n; n = airc_node_next(n))
        if (airc_node_get_kind(n) == AIRC_NODE_CALL_FUNCTION &&
            airc_node_meta_kind(n) != AIRC_META_NONE)
            case_fail(r, "node '%s' kept a meta after the failure", airc_node_name(n));
}

/* Runs one case: lines[0] is "case NAME"; returns the number of lines. */
static size_t run_case(airc_context *ctx, char **lines, size_t nlines, int *failures)
{
    case_run r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.name = lines[0] + 5;
    size_t i = 1;
    /* fx text */
    size_t fx_start = 0, fx_end = 0;
    for (size_t j = 1; j < nlines && strcmp(lines[j], "end"); j++) {
        if (!strcmp(lines[j], "fx"))
            fx_start = j + 1;
        if (!strcmp(lines[j], "endfx"))
            fx_end = j;
    }
    assert_true(fx_start && fx_end > fx_start);
    size_t len = 0;
    for (size_t j = fx_start; j < fx_end; j++)
        len += strlen(lines[j]) + 1;
    char *text = malloc(len + 1);
    text[0] = '\0';
    for (size_t j = fx_start; j < fx_end; j++) {
        strcat(text, lines[j]);
        strcat(text, "\n");
    }
    airc_status pst = airc_graph_parse(ctx, text, strlen(text), r.name, &r.g);
    free(text);
    if (pst != AIRC_OK) {
        print_error("case %s: parse: %s\n", r.name, airc_last_error());
        (*failures)++;
        while (i < nlines && strcmp(lines[i], "end"))
            i++;
        return i + 1;
    }
    for (; i < nlines && strncmp(lines[i], "fx", 2); i++) {
        char name[128], dt[16], sh[512], st[512];
        if (lines[i][0] == '#')
            continue;
        if (sscanf(lines[i], "in %127s %15s %511s %511s", name, dt, sh, st) != 4)
            fail_msg("bad line: %s", lines[i]);
        int64_t shape[AIRC_MAX_DIMS], strides[AIRC_MAX_DIMS];
        int32_t nd = airc_test_parse_dims(sh, shape);
        airc_test_parse_dims(st, strides);
        airc_node *n = airc_graph_find_node(r.g, name);
        assert_non_null(n);
        AIRC_ASSERT_OK(airc_node_set_meta(n, dtype_of(dt), nd, shape, strides));
    }
    r.st = airc_graph_propagate_meta(r.g);
    snprintf(r.msg, sizeof r.msg, "%s", r.st ? airc_last_error() : "");
    i = fx_end + 1;
    for (; i < nlines && strcmp(lines[i], "end"); i++) {
        if (!strncmp(lines[i], "expect ", 7))
            check_expect(&r, lines[i]);
        else if (!strncmp(lines[i], "error ", 6))
            check_error(&r, lines[i] + 6);
    }
    airc_graph_destroy(r.g);
    *failures += r.failures;
    return i + 1;
}

static void test_torch_cases(void **state)
{
    (void)state;
    size_t len;
    char *data = airc_test_read_file(AIRC_TEST_DATA "/meta_cases.txt", &len);
    assert_non_null(data);
    size_t cap = 1024, n = 0;
    char **lines = malloc(cap * sizeof *lines);
    for (char *p = data; *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        if (n == cap)
            lines = realloc(lines, (cap *= 2) * sizeof *lines);
        lines[n++] = p;
        if (!nl)
            break;
        p = nl + 1;
    }
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    int failures = 0, cases = 0, promotions = 0;
    for (size_t i = 0; i < n;) {
        if (!strncmp(lines[i], "case ", 5)) {
            i += run_case(ctx, lines + i, n - i, &failures);
            cases++;
        } else if (!strncmp(lines[i], "promote ", 8)) {
            char x[16], y[16], z[16];
            assert_int_equal(sscanf(lines[i], "promote %15s %15s %15s", x, y, z), 3);
            airc_dtype got = airc_promote_types(dtype_of(x), dtype_of(y));
            if (got != dtype_of(z)) {
                print_error("promote_types(%s, %s): got %s, torch gives %s\n", x, y,
                            airc_dtype_name(got), z);
                failures++;
            }
            promotions++;
            i++;
        } else {
            i++;
        }
    }
    airc_context_destroy(ctx);
    free(lines);
    free(data);
    print_message("%d torch cases, %d promotions, %d mismatches\n", cases, promotions, failures);
    assert_true(cases > 500);
    assert_int_equal(promotions, 100);
    assert_int_equal(failures, 0);
}

/* ---- the op table ------------------------------------------------------ */

static void test_builtin_table(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    for (size_t i = 0; i < airc_num_builtin_ops; i++) {
        const airc_builtin_op *b = &airc_builtin_ops[i];
        if (i)
            assert_true(strcmp(airc_builtin_ops[i - 1].qualname, b->qualname) < 0);
        airc_schema *s;
        AIRC_ASSERT_OK(airc_schema_parse(ctx, b->schema, &s));
        char want[256];
        const char *ovl = *airc_schema_overload(s) ? airc_schema_overload(s) : "default";
        if (!strcmp(airc_schema_namespace(s), "operator"))
            snprintf(want, sizeof want, "operator.%s", airc_schema_name(s));
        else
            snprintf(want, sizeof want, "%s.%s.%s", airc_schema_namespace(s), airc_schema_name(s),
                     ovl);
        assert_string_equal(b->qualname, want);
        assert_non_null(b->meta);
        /* flags: a written argument means a side effect; views write only
         * when in place (squeeze_...: self's shape), and alias self (but
         * unsafe_split's schema, which hides its views from autograd, and
         * lift's, whose kernel returns self) */
        if (airc_schema_is_mutable(s))
            assert_true(b->flags & AIRC_OP_SIDE_EFFECT);
        if (b->flags & AIRC_OP_VIEW) {
            const char *name = airc_schema_name(s);
            if (airc_schema_is_mutable(s))
                assert_true(name[strlen(name) - 1] == '_');
            if (strncmp(name, "unsafe_split", 12) && strcmp(name, "lift"))
                assert_non_null(airc_schema_return_alias(s, 0));
        }
        airc_schema_destroy(s);
    }
    /* what the conformance graphs and the CPU runtime need is there */
    static const char *const needed[] = {
        "operator.getitem", "air.scope_enter.default", "air.scope_exit.default",
        "air.record.default", "air.wait.default", "aten.add_.Tensor", "aten.relu_.default",
        "aten.copy_.default", "aten.native_layer_norm.default", "aten.convolution.default",
        "aten.max_pool2d_with_indices.default", "aten.var.correction", "aten.split.Tensor",
        "aten.arange.start_step", "aten.empty.memory_format", "aten.masked_fill.Tensor"};
    for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++) {
        const airc_op *op;
        AIRC_ASSERT_OK(airc_context_find_op(ctx, needed[i], &op));
        assert_true(airc_op_has_meta(op));
    }
    const airc_op *op;
    AIRC_ASSERT_OK(airc_context_find_op(ctx, "aten.view.default", &op));
    assert_true(airc_op_flags(op) & AIRC_OP_VIEW);
    AIRC_ASSERT_OK(airc_context_find_op(ctx, "air.record.default", &op));
    assert_true(airc_op_flags(op) & AIRC_OP_SIDE_EFFECT);
    AIRC_ASSERT_OK(airc_context_find_op(ctx, "aten.mul_.Tensor", &op));
    assert_true(airc_op_flags(op) & AIRC_OP_SIDE_EFFECT);
    AIRC_ASSERT_OK(airc_context_find_op(ctx, "aten.mm.default", &op));
    assert_int_equal(airc_op_flags(op), AIRC_OP_PURE);
    airc_context_destroy(ctx);
}

static void test_conformance_ops_present(void **state)
{
    (void)state;
    if (!airc_test_have_shared())
        skip();
    char *data = airc_test_read_file(AIRC_SHARED_DIR "/conformance/ops.txt", NULL);
    assert_non_null(data);
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    int count = 0;
    for (char *line = strtok(data, "\n"); line; line = strtok(NULL, "\n")) {
        const char *name = strstr(line, "getitem") ? "operator.getitem" : line;
        const airc_op *op;
        AIRC_ASSERT_OK(airc_context_find_op(ctx, name, &op));
        assert_true(airc_op_has_meta(op));
        count++;
    }
    assert_true(count > 30);
    airc_context_destroy(ctx);
    free(data);
}

static void expect_meta(airc_graph *g, const char *name, size_t i, airc_dtype dt, int32_t nd,
                        const int64_t *shape, const int64_t *strides);

/* ---- conformance graphs ------------------------------------------------ */

/* Reads the next ["dtype", [d0, d1, ...]] of a conformance .json starting
 * at *p (before `end`); false when there is none. */
static bool next_tensor(const char **p, const char *end, airc_dtype *dt, int64_t *shape,
                        int32_t *nd)
{
    const char *q = strchr(*p, '"');
    if (!q || q >= end)
        return false;
    const char *e = strchr(q + 1, '"');
    char name[32], torch_name[48];
    snprintf(name, sizeof name, "%.*s", (int)(e - q - 1), q + 1);
    snprintf(torch_name, sizeof torch_name, "torch.%s", name);
    *dt = dtype_of(torch_name);
    const char *b = strchr(e, '[');
    *nd = 0;
    for (const char *c = b + 1; *c != ']';) {
        if (*c >= '0' && *c <= '9') {
            char *next;
            shape[(*nd)++] = strtoll(c, &next, 10);
            c = next;
        } else {
            c++;
        }
    }
    *p = strchr(b, ']') + 1;
    return true;
}

static void test_conformance_graphs(void **state)
{
    (void)state;
    if (!airc_test_have_shared())
        skip();
    static const char *const names[] = {"attention", "broadcast_elementwise", "inplace", "mlp",
                                        "reductions", "seed_multistream"};
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char path[512];
        snprintf(path, sizeof path, AIRC_SHARED_DIR "/conformance/%s.fx", names[k]);
        char *text = airc_test_read_file(path, NULL);
        snprintf(path, sizeof path, AIRC_SHARED_DIR "/conformance/%s.json", names[k]);
        char *json = airc_test_read_file(path, NULL);
        assert_non_null(text);
        assert_non_null(json);
        airc_graph *g = airc_test_parse(ctx, text);
        const char *p = strstr(json, "\"inputs\""), *outs = strstr(json, "\"outputs\"");
        const char *end = strstr(json, "\"ops\"");
        assert_true(p && outs && end);
        airc_dtype dt;
        int64_t shape[AIRC_MAX_DIMS];
        int32_t nd;
        p += 8;
        for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n)) {
            if (airc_node_get_kind(n) != AIRC_NODE_PLACEHOLDER)
                continue;
            assert_true(next_tensor(&p, outs, &dt, shape, &nd));
            AIRC_ASSERT_OK(airc_node_set_meta(n, dt, nd, shape, NULL));
        }
        AIRC_ASSERT_OK(airc_graph_propagate_meta(g));
        const airc_value *res = airc_node_arg(airc_graph_output_node(g), 0);
        size_t nres = airc_value_get_kind(res) == AIRC_VALUE_NODE ? 1 : airc_value_length(res);
        p = outs + 9;
        for (size_t i = 0; i < nres; i++) {
            const airc_value *v = nres == 1 && airc_value_get_kind(res) == AIRC_VALUE_NODE
                                      ? res
                                      : airc_value_item(res, i);
            assert_true(next_tensor(&p, end, &dt, shape, &nd));
            airc_node *n;
            AIRC_ASSERT_OK(airc_value_get_node(v, &n));
            expect_meta(g, airc_node_name(n), 0, dt, nd, shape, NULL);
        }
        airc_graph_destroy(g);
        free(text);
        free(json);
    }
    airc_context_destroy(ctx);
}

/* ---- hand-written graphs ----------------------------------------------- */

static void set_meta(airc_graph *g, const char *name, airc_dtype dt, int32_t nd,
                     const int64_t *shape)
{
    airc_node *n = airc_graph_find_node(g, name);
    assert_non_null(n);
    AIRC_ASSERT_OK(airc_node_set_meta(n, dt, nd, shape, NULL));
}

static void expect_meta(airc_graph *g, const char *name, size_t i, airc_dtype dt, int32_t nd,
                        const int64_t *shape, const int64_t *strides)
{
    airc_node *n = airc_graph_find_node(g, name);
    assert_non_null(n);
    airc_dtype d;
    int32_t k;
    const int64_t *s, *st;
    AIRC_ASSERT_OK(airc_node_output_meta(n, i, &d, &k, &s, &st));
    assert_int_equal(d, dt);
    assert_int_equal(k, nd);
    for (int32_t j = 0; j < nd; j++) {
        assert_int_equal(s[j], shape[j]);
        if (strides)
            assert_int_equal(st[j], strides[j]);
    }
}

static const char air_graph[] =
    "graph():\n"
    "    %x : [#users=2] = placeholder[target=x]\n"
    "    %record : [#users=1] = call_function[target=torch.ops.air.record.default](args = (), "
    "kwargs = {})\n"
    "    %scope_enter : [#users=0] = "
    "call_function[target=torch.ops.air.scope_enter.default](args = "
    "([_user_stream_label], [s1]), kwargs = {})\n"
    "    %wait : [#users=0] = call_function[target=torch.ops.air.wait.default](args = "
    "([%record],), kwargs = {})\n"
    "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), "
    "kwargs = {})\n"
    "    %scope_exit : [#users=0] = call_function[target=torch.ops.air.scope_exit.default](args "
    "= (), kwargs = {})\n"
    "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%relu, %x), "
    "kwargs = {})\n"
    "    return add\n";

static void test_air_ops(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g = airc_test_parse(ctx, air_graph);
    int64_t shape[] = {2, 3};
    set_meta(g, "x", AIRC_DTYPE_F16, 2, shape);
    AIRC_ASSERT_OK(airc_graph_propagate_meta(g));
    /* record: a 0-dim f32 placeholder for the event */
    expect_meta(g, "record", 0, AIRC_DTYPE_F32, 0, NULL, NULL);
    assert_int_equal(airc_node_meta_kind(airc_graph_find_node(g, "record")), AIRC_META_TENSOR);
    static const char *const empty[] = {"scope_enter", "wait", "scope_exit"};
    for (int i = 0; i < 3; i++) {
        airc_node *n = airc_graph_find_node(g, empty[i]);
        assert_int_equal(airc_node_meta_kind(n), AIRC_META_TUPLE);
        assert_int_equal(airc_node_num_outputs(n), 0);
    }
    int64_t strides[] = {3, 1};
    expect_meta(g, "add", 0, AIRC_DTYPE_F16, 2, shape, strides);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

static const char chain_graph[] =
    "graph():\n"
    "    %x : [#users=1] = placeholder[target=x]\n"
    "    %w : [#users=1] = get_attr[target=w]\n"
    "    %mm : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), "
    "kwargs = {})\n"
    "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%mm,), "
    "kwargs = {})\n"
    "    %sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = "
    "(%relu, [1]), kwargs = {})\n"
    "    return sum_1\n";

static void test_propagation_contract(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g = airc_test_parse(ctx, chain_graph);

    /* placeholder without meta */
    AIRC_EXPECT(airc_graph_propagate_meta(g), AIRC_E_SHAPE,
                "node 'x': placeholder 'x' has no meta: give an input");
    int64_t xs[] = {2, 3};
    set_meta(g, "x", AIRC_DTYPE_F32, 2, xs);
    /* get_attr without constant or meta */
    AIRC_EXPECT(airc_graph_propagate_meta(g), AIRC_E_SHAPE, "node 'w'");
    /* with a constant: its meta */
    float wdata[12] = {0};
    int64_t ws[] = {3, 4};
    AIRC_ASSERT_OK(airc_graph_set_constant(g, "w", AIRC_DTYPE_F32, 2, ws, NULL, wdata, NULL,
                                           NULL));
    AIRC_ASSERT_OK(airc_graph_propagate_meta(g));
    int64_t mm_shape[] = {2, 4}, mm_strides[] = {4, 1}, sum_shape[] = {2};
    expect_meta(g, "w", 0, AIRC_DTYPE_F32, 2, ws, NULL);
    expect_meta(g, "mm", 0, AIRC_DTYPE_F32, 2, mm_shape, mm_strides);
    expect_meta(g, "sum_1", 0, AIRC_DTYPE_F32, 1, sum_shape, NULL);

    /* a failure leaves every meta exactly as it was */
    char *before = airc_test_print(g, AIRC_PRINT_TYPES);
    int64_t bad[] = {2, 5};
    set_meta(g, "x", AIRC_DTYPE_F32, 2, bad);
    AIRC_EXPECT(airc_graph_propagate_meta(g), AIRC_E_SHAPE,
                "node 'mm': aten.mm.default: self has shape [2, 5] but mat2 has shape [3, 4]: "
                "inner dims 5 and 3 differ");
    set_meta(g, "x", AIRC_DTYPE_F32, 2, xs);
    char *after = airc_test_print(g, AIRC_PRINT_TYPES);
    assert_string_equal(before, after);
    free(before);
    free(after);

    /* a dtype error is a shape error too */
    set_meta(g, "x", AIRC_DTYPE_F64, 2, xs);
    AIRC_EXPECT(airc_graph_propagate_meta(g), AIRC_E_SHAPE, "node 'mm'");
    expect_meta(g, "mm", 0, AIRC_DTYPE_F32, 2, mm_shape, mm_strides);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

static airc_status failing_meta(airc_node *n, void *user_data)
{
    (void)user_data;
    /* sets a meta, then fails: propagation must undo it */
    int64_t shape[] = {7};
    AIRC_TRY(airc_node_set_meta(n, AIRC_DTYPE_I8, 1, shape, NULL));
    return airc_fail(AIRC_E_SHAPE, "custom meta refuses");
}

static airc_status lazy_meta(airc_node *n, void *user_data)
{
    (void)n;
    (void)user_data;
    return AIRC_OK; /* forgets to set the meta */
}

static void test_custom_ops(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = "demo::nometa(Tensor x) -> Tensor";
    AIRC_ASSERT_OK(airc_context_register_op(ctx, &def, NULL));
    def.schema = "demo::bad(Tensor x) -> Tensor";
    def.meta = failing_meta;
    AIRC_ASSERT_OK(airc_context_register_op(ctx, &def, NULL));
    def.schema = "demo::lazy(Tensor x) -> Tensor";
    def.meta = lazy_meta;
    AIRC_ASSERT_OK(airc_context_register_op(ctx, &def, NULL));

    static const char *const ops[] = {"nometa", "bad", "lazy"};
    static const airc_status codes[] = {AIRC_E_UNSUPPORTED, AIRC_E_SHAPE,
                                        AIRC_E_INVALID_ARGUMENT};
    static const char *const needles[] = {"node 'y': no meta function for demo.nometa.default",
                                          "node 'y': custom meta refuses", "node 'y'"};
    for (int i = 0; i < 3; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "graph():\n"
                 "    %%x : [#users=1] = placeholder[target=x]\n"
                 "    %%neg : [#users=1] = call_function[target=torch.ops.aten.neg.default]"
                 "(args = (%%x,), kwargs = {})\n"
                 "    %%y : [#users=1] = call_function[target=torch.ops.demo.%s.default]"
                 "(args = (%%neg,), kwargs = {})\n"
                 "    return y\n",
                 ops[i]);
        airc_graph *g = airc_test_parse(ctx, text);
        int64_t s[] = {4};
        set_meta(g, "x", AIRC_DTYPE_F32, 1, s);
        AIRC_EXPECT(airc_graph_propagate_meta(g), codes[i], needles[i]);
        assert_int_equal(airc_node_meta_kind(airc_graph_find_node(g, "y")), AIRC_META_NONE);
        assert_int_equal(airc_node_meta_kind(airc_graph_find_node(g, "neg")), AIRC_META_NONE);
        airc_graph_destroy(g);
    }
    airc_context_destroy(ctx);
}

static void test_getitem_errors(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    static const char *const texts[] = {
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %max_1 : [#users=1] = call_function[target=torch.ops.aten.max.dim](args = (%x, 0), "
        "kwargs = {})\n"
        "    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%max_1, 2), "
        "kwargs = {})\n"
        "    return getitem\n",
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %max_1 : [#users=1] = call_function[target=torch.ops.aten.max.dim](args = (%x, 0), "
        "kwargs = {})\n"
        "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = "
        "(%max_1,), kwargs = {})\n"
        "    return relu\n"};
    static const char *const needles[] = {"node 'getitem': operator.getitem: index 2 out of range",
                                          "node 'relu': aten.relu.default: self ('max_1') is a "
                                          "tuple of 2 tensors"};
    for (int i = 0; i < 2; i++) {
        airc_graph *g = airc_test_parse(ctx, texts[i]);
        int64_t s[] = {3, 4};
        set_meta(g, "x", AIRC_DTYPE_F32, 2, s);
        AIRC_EXPECT(airc_graph_propagate_meta(g), AIRC_E_SHAPE, needles[i]);
        airc_graph_destroy(g);
    }
    /* negative index reads from the end, as Python does */
    airc_graph *g = airc_test_parse(ctx,
                                    "graph():\n"
                                    "    %x : [#users=1] = placeholder[target=x]\n"
                                    "    %max_1 : [#users=1] = "
                                    "call_function[target=torch.ops.aten.max.dim](args = (%x, 0), "
                                    "kwargs = {})\n"
                                    "    %getitem : [#users=1] = "
                                    "call_function[target=operator.getitem](args = (%max_1, -1), "
                                    "kwargs = {})\n"
                                    "    return getitem\n");
    int64_t s[] = {3, 4}, o[] = {4};
    set_meta(g, "x", AIRC_DTYPE_F32, 2, s);
    AIRC_ASSERT_OK(airc_graph_propagate_meta(g));
    expect_meta(g, "getitem", 0, AIRC_DTYPE_I64, 1, o, NULL);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* Sizes near int64's limits: never undefined behaviour (the sanitizer
 * build runs this), a shape error when the result cannot exist, the exact
 * answer when it can. */
static void test_extreme_sizes(void **state)
{
    (void)state;
    static const struct {
        const char *call; /* the node's target and args; inputs x (and y) */
        int64_t x[4], y[4];
        int32_t xn, yn;
        bool ok;
        int64_t out0; /* expected size of dim 0 when ok */
    } cases[] = {
        // clang-format off
        {"torch.ops.aten.full.default](args = ([1099511627776, 1099511627776], 1.0)", {0}, {0}, 0,
         0, false, 0},
        {"torch.ops.aten.add.Tensor](args = (%x, %y)", {1099511627776, 1}, {1, 1099511627776}, 2,
         2, false, 0},
        {"torch.ops.aten.mm.default](args = (%x, %y)", {1099511627776, 1}, {1, 1099511627776}, 2,
         2, false, 0},
        {"torch.ops.aten.expand.default](args = (%x, [9223372036854775807, 1])", {1, 1}, {0}, 2, 0,
         true, INT64_MAX},
        {"torch.ops.aten.expand.default](args = (%x, [4611686018427387904, 4])", {1, 4}, {0}, 2, 0,
         false, 0},
        {"torch.ops.aten.slice.Tensor](args = (%x, 1, 1, 9223372036854775807, "
         "9223372036854775807)",
         {3, 5}, {0}, 2, 0, true, 3},
        {"torch.ops.aten.split.Tensor](args = (%x, 9223372036854775807)", {5, 2}, {0}, 2, 0, true,
         5},
        {"torch.ops.aten.constant_pad_nd.default](args = (%x, [9223372036854775807, 1])", {2, 3},
         {0}, 2, 0, false, 0},
        {"torch.ops.aten.constant_pad_nd.default](args = (%x, [-9223372036854775807, -5])", {2, 3},
         {0}, 2, 0, false, 0},
        {"torch.ops.aten.arange.start_step](args = (-9223372036854775807, 9223372036854775807, 1)",
         {0}, {0}, 0, 0, false, 0},
        {"torch.ops.aten.cat.default](args = ([%x, %y],)", {4611686018427387904, 1},
         {4611686018427387904, 1}, 2, 2, false, 0},
        {"torch.ops.aten.max_pool2d_with_indices.default](args = (%x, "
         "[9223372036854775807, 9223372036854775807], [1, 1], [0, 0], [9223372036854775807, 1])",
         {1, 1, 4, 4}, {0}, 4, 0, false, 0},
        {"torch.ops.aten.avg_pool2d.default](args = (%x, [2, 2], [9223372036854775807, "
         "9223372036854775807], [1, 1], False)",
         {2, 1, 3, 4}, {0}, 4, 0, true, 2},
        {"torch.ops.aten.avg_pool2d.default](args = (%x, [2, 2], [9223372036854775807, "
         "9223372036854775807], [1, 1], True)",
         {2, 1, 3, 4}, {0}, 4, 0, false, 0},
        {"torch.ops.aten.view.default](args = (%x, [-1, 4611686018427387904, 4])", {2, 2}, {0}, 2,
         0, false, 0},
        /* found by the ASan meta sweep: a huge stride under a kernel larger
         * than the padded plane (floor of a negative quotient overflowed);
         * an empty plane divides by any factor, whose square overflows */
        {"torch.ops.aten.im2col.default](args = (%x, [5, 5], [1, 1], [0, 0], "
         "[9223372036854775807, 1])", {1, 1, 3, 3}, {0}, 4, 0, false, 0},
        {"torch.ops.aten.im2col.default](args = (%x, [2, 2], [4611686018427387904, 1], [0, 0], "
         "[9223372036854775807, 1])", {1, 1, 3, 3}, {0}, 4, 0, false, 0},
        {"torch.ops.aten.im2col.default](args = (%x, [1, 1], [1, 1], [0, 0], "
         "[9223372036854775807, 9223372036854775807])", {2, 1, 3, 3}, {0}, 4, 0, true, 2},
        {"torch.ops.aten.pixel_unshuffle.default](args = (%x, 9223372036854775806)",
         {2, 1, 0, 0}, {0}, 4, 0, false, 0},
        // clang-format on
    };
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        int o = snprintf(text, sizeof text, "graph():\n");
        if (cases[i].xn)
            o += snprintf(text + o, sizeof text - (size_t)o,
                          "    %%x : [#users=1] = placeholder[target=x]\n");
        if (cases[i].yn)
            o += snprintf(text + o, sizeof text - (size_t)o,
                          "    %%y : [#users=1] = placeholder[target=y]\n");
        snprintf(text + o, sizeof text - (size_t)o,
                 "    %%out : [#users=1] = call_function[target=%s, kwargs = {})\n"
                 "    return out\n",
                 cases[i].call);
        airc_graph *g = airc_test_parse(ctx, text);
        if (cases[i].xn)
            set_meta(g, "x", AIRC_DTYPE_F32, cases[i].xn, cases[i].x);
        if (cases[i].yn)
            set_meta(g, "y", AIRC_DTYPE_F32, cases[i].yn, cases[i].y);
        airc_status st = airc_graph_propagate_meta(g);
        if (cases[i].ok) {
            if (st != AIRC_OK)
                print_error("case %zu: %s\n", i, airc_last_error());
            assert_int_equal(st, AIRC_OK);
            const int64_t *shape;
            AIRC_ASSERT_OK(airc_node_output_meta(airc_graph_find_node(g, "out"), 0, NULL, NULL,
                                                 &shape, NULL));
            assert_int_equal(shape[0], cases[i].out0);
        } else {
            if (st != AIRC_E_SHAPE)
                print_error("case %zu: %s: %s\n", i, airc_status_name(st), airc_last_error());
            AIRC_EXPECT(st, AIRC_E_SHAPE, "node 'out'");
        }
        airc_graph_destroy(g);
    }
    airc_context_destroy(ctx);
}

/* Found by the UBSan meta sweep: a size-1 dim may carry any stride (an
 * as_strided view), and diagonal's and unfold's stride arithmetic on it
 * overflowed; it saturates now (the length is 1: no element is read
 * through it; torch wraps it to a negative stride). */
static void test_huge_stride_views(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g = airc_test_parse(
        ctx, "graph():\n"
             "    %x : [#users=1] = placeholder[target=x]\n"
             "    %v : [#users=2] = call_function[target=torch.ops.aten.as_strided.default]("
             "args = (%x, [1, 3], [9223372036854775807, 1]), kwargs = {})\n"
             "    %d : [#users=1] = call_function[target=torch.ops.aten.diagonal.default]("
             "args = (%v, 0, 0, 1), kwargs = {})\n"
             "    %u : [#users=1] = call_function[target=torch.ops.aten.unfold.default]("
             "args = (%v, 0, 1, 4611686018427387904), kwargs = {})\n"
             "    return (d, u)\n");
    static const int64_t xs[1] = {3};
    set_meta(g, "x", AIRC_DTYPE_F32, 1, xs);
    AIRC_ASSERT_OK(airc_graph_propagate_meta(g));
    static const int64_t d_shape[1] = {1}, d_strides[1] = {INT64_MAX};
    expect_meta(g, "d", 0, AIRC_DTYPE_F32, 1, d_shape, d_strides);
    static const int64_t u_shape[3] = {1, 3, 1}, u_strides[3] = {INT64_MAX, 1, INT64_MAX};
    expect_meta(g, "u", 0, AIRC_DTYPE_F32, 3, u_shape, u_strides);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* Where torch 1.13 gives garbage, airc raises torch 2's error: a
 * masked_fill mask of another dtype than bool/uint8 (1.13 reads its bytes
 * as bools). */
static void test_torch2_errors(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g = airc_test_parse(
        ctx, "graph():\n"
             "    %x : b8[2] [#users=1] = placeholder[target=x]\n"
             "    %m : f32[] [#users=1] = placeholder[target=m]\n"
             "    %out : [#users=1] = call_function[target=torch.ops.aten.masked_fill.Scalar]"
             "(args = (%x, %m, 1e-05), kwargs = {})\n"
             "    return out\n");
    AIRC_EXPECT(airc_graph_propagate_meta(g), AIRC_E_SHAPE,
                "masked_fill_ only supports boolean masks, but got mask with dtype");
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* Where airc refuses what torch computes, on purpose: index.Tensor by a
 * bool or uint8 mask, whose result's size only the mask's values give. */
static void test_data_dependent_shapes(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    static const char *const masks[] = {"b8[3]", "u8[3]"};
    for (int i = 0; i < 2; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "graph():\n"
                 "    %%x : f32[3, 4] [#users=1] = placeholder[target=x]\n"
                 "    %%m : %s [#users=1] = placeholder[target=m]\n"
                 "    %%out : [#users=1] = call_function[target=torch.ops.aten.index.Tensor]"
                 "(args = (%%x, [%%m]), kwargs = {})\n"
                 "    return out\n",
                 masks[i]);
        airc_graph *g = airc_test_parse(ctx, text);
        AIRC_EXPECT(airc_graph_propagate_meta(g), AIRC_E_UNSUPPORTED,
                    "the result's size would depend on its values");
        airc_graph_destroy(g);
    }
    airc_context_destroy(ctx);
}

static void test_misuse(void **state)
{
    (void)state;
    AIRC_EXPECT(airc_graph_propagate_meta(NULL), AIRC_E_MISUSE, "airc_graph_propagate_meta");
}

static void test_call_module(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g, *sub;
    AIRC_ASSERT_OK(airc_graph_create(ctx, &g));
    AIRC_ASSERT_OK(airc_graph_create(ctx, &sub));
    AIRC_ASSERT_OK(airc_graph_add_submodule(g, "fused_0", sub));
    airc_node *x, *m;
    AIRC_ASSERT_OK(airc_graph_placeholder(g, "x", &x));
    int64_t s[] = {2};
    AIRC_ASSERT_OK(airc_node_set_meta(x, AIRC_DTYPE_F32, 1, s, NULL));
    const airc_value *xv;
    AIRC_ASSERT_OK(airc_value_node(g, x, &xv));
    AIRC_ASSERT_OK(airc_graph_create_node(g, AIRC_NODE_CALL_MODULE, "fused_0", &xv, 1, NULL, NULL,
                                          0, NULL, &m));
    AIRC_EXPECT(airc_graph_propagate_meta(g), AIRC_E_UNSUPPORTED, "call_module 'fused_0'");
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* Fails each allocation inside propagation in turn until it succeeds:
 * every failure must be AIRC_E_OUT_OF_MEMORY, leave the printed graph
 * (with its meta) as it was, and leak nothing. */
static void oom_loop(airc_test_alloc *counter, airc_graph *g)
{
    char *before = airc_test_print(g, AIRC_PRINT_TYPES);
    size_t base = counter->count;
    bool succeeded = false;
    for (size_t k = 1; k < 2000 && !succeeded; k++) {
        long live = counter->live;
        counter->fail_at = counter->count + k;
        airc_status st = airc_graph_propagate_meta(g);
        counter->fail_at = 0;
        if (st == AIRC_OK) {
            succeeded = true;
            break;
        }
        assert_int_equal(st, AIRC_E_OUT_OF_MEMORY);
        assert_int_equal(counter->live, live);
        char *now = airc_test_print(g, AIRC_PRINT_TYPES);
        assert_string_equal(before, now);
        free(now);
    }
    assert_true(succeeded);
    assert_true(counter->count > base);
    free(before);
}

static const char cat_graph[] =
    "graph():\n"
    "    %x : [#users=2] = placeholder[target=x]\n"
    "    %split : [#users=2] = call_function[target=torch.ops.aten.split.Tensor](args = (%x, 2, "
    "1), kwargs = {})\n"
    "    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%split, 0), "
    "kwargs = {})\n"
    "    %getitem_1 : [#users=1] = call_function[target=operator.getitem](args = (%split, 1), "
    "kwargs = {})\n"
    "    %cat : [#users=1] = call_function[target=torch.ops.aten.cat.default](args = "
    "([%getitem_1, %getitem, %x], 1), kwargs = {})\n"
    "    return cat\n";

static void test_oom(void **state)
{
    (void)state;
    airc_test_alloc counter;
    airc_allocator hook;
    airc_test_alloc_init(&counter, &hook);
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(&hook, &ctx));

    airc_graph *g = airc_test_parse(ctx, cat_graph);
    int64_t x[] = {3, 4}, cat_shape[] = {3, 8}, cat_strides[] = {8, 1};
    set_meta(g, "x", AIRC_DTYPE_F32, 2, x);
    oom_loop(&counter, g); /* from no meta */
    expect_meta(g, "cat", 0, AIRC_DTYPE_F32, 2, cat_shape, cat_strides);
    oom_loop(&counter, g); /* over existing meta */
    airc_graph_destroy(g);

    if (airc_test_have_shared()) {
        char *text = airc_test_read_file(AIRC_SHARED_DIR "/conformance/attention.fx", NULL);
        assert_non_null(text);
        g = airc_test_parse(ctx, text);
        int64_t a[] = {2, 5, 8}, w[] = {8, 8}, v[] = {8};
        static const char *const mats[] = {"wq_1", "wk_1", "wv_1", "wo_1"};
        set_meta(g, "x_1", AIRC_DTYPE_F32, 3, a);
        for (int i = 0; i < 4; i++)
            set_meta(g, mats[i], AIRC_DTYPE_F32, 2, w);
        set_meta(g, "g_1", AIRC_DTYPE_F32, 1, v);
        set_meta(g, "b_1", AIRC_DTYPE_F32, 1, v);
        oom_loop(&counter, g);
        int64_t out_strides[] = {40, 8, 1};
        expect_meta(g, "add", 0, AIRC_DTYPE_F32, 3, a, out_strides);
        oom_loop(&counter, g);
        free(text);
        airc_graph_destroy(g);
    }
    airc_context_destroy(ctx);
    assert_int_equal(counter.live, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_table),
        cmocka_unit_test(test_conformance_ops_present),
        cmocka_unit_test(test_torch_cases),
        cmocka_unit_test(test_conformance_graphs),
        cmocka_unit_test(test_air_ops),
        cmocka_unit_test(test_propagation_contract),
        cmocka_unit_test(test_custom_ops),
        cmocka_unit_test(test_getitem_errors),
        cmocka_unit_test(test_extreme_sizes),
        cmocka_unit_test(test_huge_stride_views),
        cmocka_unit_test(test_torch2_errors),
        cmocka_unit_test(test_data_dependent_shapes),
        cmocka_unit_test(test_misuse),
        cmocka_unit_test(test_call_module),
        cmocka_unit_test(test_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
