/* The torch.fx text format: golden round trips over graphs printed by
 * PyTorch, print -> parse -> print identity on graphs built through the API,
 * malformed inputs (every error located), truncation and mutation fuzzing,
 * and allocation failure. */
#include "testutil.h"

#include "ir/ir.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static airc_context *new_ctx(void)
{
    airc_context *ctx = NULL;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    return ctx;
}

static airc_status parse(airc_context *ctx, const char *text, airc_graph **g)
{
    return airc_graph_parse(ctx, text, strlen(text), "<test>", g);
}

/* print(g) -> parse -> print must give the same text; returns the text. */
static char *check_stable(airc_context *ctx, const airc_graph *g, uint32_t flags)
{
    char *p1 = airc_test_print(g, flags);
    airc_graph *g2 = NULL;
    airc_status st = airc_graph_parse(ctx, p1, strlen(p1), "<reprint>", &g2);
    if (st != AIRC_OK)
        print_error("re-parse failed: %s\n--- text ---\n%s\n", airc_last_error(), p1);
    assert_int_equal(st, AIRC_OK);
    char *p2 = airc_test_print(g2, flags);
    assert_string_equal(p1, p2);
    free(p2);
    airc_graph_destroy(g2);
    return p1;
}

/* ---- golden round trips ---------------------------------------------------- */

/* Parses every .fx under dir and prints it back: the text must equal the
 * file, whose one trailing newline torch's str(graph) does not have. */
static size_t golden_dir(const char *dir)
{
    airc_context *ctx = new_ctx();
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".fx"))
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t flen;
        char *want = airc_test_read_file(path, &flen);
        assert_non_null(want);
        assert_true(flen > 0 && want[flen - 1] == '\n');
        want[flen - 1] = '\0';
        airc_graph *g = NULL;
        airc_status st = airc_graph_parse_file(ctx, path, &g);
        if (st != AIRC_OK)
            print_error("%s: %s\n", path, airc_last_error());
        assert_int_equal(st, AIRC_OK);
        char *got = airc_test_print(g, AIRC_PRINT_DEFAULT);
        if (strcmp(got, want))
            print_error("%s does not round-trip:\n%s\n", path, got);
        assert_string_equal(got, want);
        /* the same text without its trailing newline parses the same */
        airc_graph *g2 = NULL;
        AIRC_ASSERT_OK(airc_graph_parse(ctx, want, flen - 1, path, &g2));
        assert_int_equal(airc_graph_num_nodes(g2), airc_graph_num_nodes(g));
        airc_graph_destroy(g2);
        free(got);
        free(want);
        airc_graph_destroy(g);
        n++;
    }
    closedir(d);
    airc_context_destroy(ctx);
    return n;
}

static void test_golden_conformance(void **state)
{
    (void)state;
    if (!airc_test_have_shared())
        skip();
    assert_true(golden_dir(AIRC_SHARED_DIR "/conformance") >= 10);
}

static void test_golden_own(void **state)
{
    (void)state;
    assert_true(golden_dir(AIRC_TEST_DATA "/graphs") >= 15);
}

/* The parsed structure of a known graph (seed 001), not only its text. */
static void test_parse_structure(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    const char *text =
        "graph():\n"
        "    %x_1 : [#users=2] = placeholder[target=x_1]\n"
        "    %mm : [#users=2] = call_function[target=torch.ops.aten.mm.default](args = (%x_1, "
        "%x_1), kwargs = {})\n"
        "    %abs_1 : [#users=1] = call_function[target=aten.abs.default](args = (%mm,), "
        "kwargs = {})\n"
        "    %add : [#users=7] = call_function[target=torch.ops.aten.add.Tensor](args = "
        "(%abs_1, 1), kwargs = {alpha: 2})\n"
        "    %sub : [#users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x_1, "
        "%mm), kwargs = {})\n"
        "    return (add, sub)";
    airc_graph *g = airc_test_parse(ctx, text);
    assert_int_equal(airc_graph_num_nodes(g), 6);
    airc_node *mm = airc_graph_find_node(g, "mm");
    assert_non_null(mm);
    assert_string_equal(airc_node_target(mm), "aten.mm.default");
    assert_int_equal(airc_node_num_users(mm), 2);
    airc_node *x = airc_graph_find_node(g, "x_1");
    assert_int_equal(airc_node_get_kind(x), AIRC_NODE_PLACEHOLDER);
    airc_node *abs1 = airc_graph_find_node(g, "abs_1");
    assert_string_equal(airc_node_target(abs1), "aten.abs.default"); /* bare spelling */
    airc_node *add = airc_graph_find_node(g, "add");
    assert_int_equal(airc_node_num_args(add), 2);
    int64_t i;
    AIRC_ASSERT_OK(airc_value_get_int(airc_node_arg(add, 1), &i));
    assert_int_equal(i, 1);
    AIRC_ASSERT_OK(airc_value_get_int(airc_node_kwarg(add, "alpha"), &i));
    assert_int_equal(i, 2);
    airc_node *out = airc_graph_output_node(g);
    assert_non_null(out);
    const airc_value *res = airc_node_arg(out, 0);
    assert_int_equal(airc_value_get_kind(res), AIRC_VALUE_TUPLE);
    assert_int_equal(airc_value_length(res), 2);
    airc_node *r0;
    AIRC_ASSERT_OK(airc_value_get_node(airc_value_item(res, 0), &r0));
    assert_ptr_equal(r0, add);
    /* [#users=7] in the text is not checked: the count is recomputed */
    char *p = airc_test_print(g, 0);
    assert_non_null(strstr(p, "%add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor]"
                              "(args = (%abs_1, 1), kwargs = {alpha: 2})"));
    assert_non_null(strstr(p, "call_function[target=torch.ops.aten.abs.default]"));
    /* torch prints no trailing newline */
    assert_int_not_equal(p[strlen(p) - 1], '\n');
    assert_int_equal(strncmp(p, "graph():\n    %x_1 : [#users=2]", 29), 0);
    free(p);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* Layout tolerance: graph(x, y):, CRLF, tabs, blank lines, comments,
 * newlines inside brackets, no final newline. */
static void test_layout_tolerance(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    const char *canonical = "graph():\n"
                            "    %x : [#users=1] = placeholder[target=x]\n"
                            "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu."
                            "default](args = (%x,), kwargs = {})\n"
                            "    return relu";
    const char *canonical_num = "graph():\n"
                                "    %x : [num_users=1] = placeholder[target=x]\n"
                                "    %relu : [num_users=1] = call_function[target=torch.ops.aten."
                                "relu.default](args = (%x,), kwargs = {})\n"
                                "    return relu";
    const char *variants[] = {
        "graph(x):\r\n    %x : [#users=1] = placeholder[target=x]\r\n\r\n"
        "\t%relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), "
        "kwargs = {})\r\n    return relu\r\n",
        "\n\n# a comment\ngraph(x, y):\n# another\n%x:[#users=1]=placeholder[ target=x ]\n"
        "%relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (\n"
        "        %x,\n    ),\n    kwargs = {})\n\nreturn relu\n\n\n",
        "graph():\n    %x : [num_users=1] = placeholder[target=x]\n    %relu : [num_users=1] = "
        "call_function[target=torch.ops.aten.relu.default](args = (%x), kwargs = {})\n"
        "    return %relu",
    };
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        airc_graph *g = airc_test_parse(ctx, variants[i]);
        char *p = airc_test_print(g, 0);
        if (i == 2) { /* the num_users style is printed back as read */
            assert_string_equal(p, canonical_num);
        } else {
            assert_string_equal(p, canonical);
        }
        free(p);
        airc_graph_destroy(g);
    }
    airc_context_destroy(ctx);
}

/* ---- values ---------------------------------------------------------------- */

static void test_value_literals(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    const char *text =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %a : [#users=0] = call_function[target=torch.ops.aten.full.default](args = ("
        "9223372036854775807, -9223372036854775808, 1e-05, -inf, nan, 2.0, -0.5, -0.0, 1e+16, "
        "True, False, None, torch.float16, torch.long, cpu, cuda:1, device(type='npu', index=3),"
        " device(type='cpu'), torch.channels_last, torch.strided, tanh, 'cpu', \"it's\", "
        "'a\\tb\\x00\\u00e9\\\\', (), (1,), [[1, [2.5]], []], _user_stream_label, a.b.c, inf, "
        "device, 'torch.x', '', 'True', meta, (%x)), kwargs = {memory_format: "
        "torch.preserve_format, 'odd key': 1})\n"
        "    return None";
    airc_graph *g = airc_test_parse(ctx, text);
    airc_node *a = airc_graph_find_node(g, "a");
    int64_t i;
    double f;
    int32_t b;
    const char *s;
    AIRC_ASSERT_OK(airc_value_get_int(airc_node_arg(a, 0), &i));
    assert_true(i == INT64_MAX);
    AIRC_ASSERT_OK(airc_value_get_int(airc_node_arg(a, 1), &i));
    assert_true(i == INT64_MIN);
    AIRC_ASSERT_OK(airc_value_get_float(airc_node_arg(a, 2), &f));
    assert_true(f == 1e-05);
    AIRC_ASSERT_OK(airc_value_get_float(airc_node_arg(a, 3), &f));
    assert_true(isinf(f) && f < 0);
    AIRC_ASSERT_OK(airc_value_get_float(airc_node_arg(a, 4), &f));
    assert_true(isnan(f));
    AIRC_ASSERT_OK(airc_value_get_float(airc_node_arg(a, 7), &f));
    assert_true(f == 0 && signbit(f));
    assert_int_equal(airc_value_get_kind(airc_node_arg(a, 5)), AIRC_VALUE_FLOAT);
    AIRC_ASSERT_OK(airc_value_get_bool(airc_node_arg(a, 9), &b));
    assert_int_equal(b, 1);
    assert_int_equal(airc_value_get_kind(airc_node_arg(a, 11)), AIRC_VALUE_NONE);
    airc_dtype d;
    AIRC_ASSERT_OK(airc_value_get_dtype(airc_node_arg(a, 12), &d));
    assert_int_equal(d, AIRC_DTYPE_F16);
    AIRC_ASSERT_OK(airc_value_get_dtype(airc_node_arg(a, 13), &d));
    assert_int_equal(d, AIRC_DTYPE_I64);
    int32_t idx;
    AIRC_ASSERT_OK(airc_value_get_device(airc_node_arg(a, 14), &s, &idx));
    assert_string_equal(s, "cpu");
    assert_int_equal(idx, -1);
    AIRC_ASSERT_OK(airc_value_get_device(airc_node_arg(a, 15), &s, &idx));
    assert_string_equal(s, "cuda");
    assert_int_equal(idx, 1);
    AIRC_ASSERT_OK(airc_value_get_device(airc_node_arg(a, 16), &s, &idx));
    assert_string_equal(s, "npu");
    assert_int_equal(idx, 3);
    AIRC_ASSERT_OK(airc_value_get_enum(airc_node_arg(a, 18), &idx));
    assert_int_equal(idx, AIRC_MEMORY_FORMAT_CHANNELS_LAST);
    assert_int_equal(airc_value_get_kind(airc_node_arg(a, 19)), AIRC_VALUE_LAYOUT);
    AIRC_ASSERT_OK(airc_value_get_string(airc_node_arg(a, 20), &s));
    assert_string_equal(s, "tanh");
    AIRC_ASSERT_OK(airc_value_get_string(airc_node_arg(a, 21), &s)); /* quoted: a string */
    assert_string_equal(s, "cpu");
    AIRC_ASSERT_OK(airc_value_get_string(airc_node_arg(a, 22), &s));
    assert_string_equal(s, "it's");
    const airc_value *esc = airc_node_arg(a, 23);
    assert_int_equal(esc->len, 7); /* a \t b \0 0xc3 0xa9 \ */
    assert_memory_equal(esc->u.s, "a\tb\0\xc3\xa9\\", 7);
    assert_int_equal(airc_value_length(airc_node_arg(a, 24)), 0);
    assert_int_equal(airc_value_get_kind(airc_node_arg(a, 25)), AIRC_VALUE_TUPLE);
    assert_int_equal(airc_value_length(airc_node_arg(a, 25)), 1);
    const airc_value *nested = airc_node_arg(a, 26);
    assert_int_equal(airc_value_get_kind(nested), AIRC_VALUE_LIST);
    assert_int_equal(airc_value_get_kind(airc_value_item(airc_value_item(nested, 0), 1)),
                     AIRC_VALUE_LIST);
    AIRC_ASSERT_OK(airc_value_get_string(airc_node_arg(a, 28), &s));
    assert_string_equal(s, "a.b.c");
    assert_int_equal(airc_value_get_kind(airc_node_arg(a, 29)), AIRC_VALUE_FLOAT);
    AIRC_ASSERT_OK(airc_value_get_string(airc_node_arg(a, 30), &s));
    assert_string_equal(s, "device");
    assert_int_equal(airc_value_get_kind(airc_node_arg(a, 34)), AIRC_VALUE_DEVICE);
    assert_int_equal(airc_value_get_kind(airc_node_arg(a, 35)), AIRC_VALUE_NODE); /* (x) is x */
    assert_int_equal(airc_value_get_kind(airc_node_kwarg(a, "odd key")), AIRC_VALUE_INT);

    /* printed as torch would where torch's spelling reads back; quoted or
     * in repr form otherwise */
    char *p = check_stable(ctx, g, 0);
    const char *want_args =
        "(args = (9223372036854775807, -9223372036854775808, 1e-05, -inf, nan, 2.0, -0.5, "
        "-0.0, 1e+16, True, False, None, torch.float16, torch.int64, cpu, cuda:1, npu:3, cpu, "
        "torch.channels_last, torch.strided, tanh, 'cpu', \"it's\", 'a\\tb\\x00\xc3\xa9\\\\', "
        "(), (1,), [[1, [2.5]], []], _user_stream_label, a.b.c, inf, 'device', 'torch.x', '', "
        "'True', meta, %x), kwargs = {memory_format: torch.preserve_format, 'odd key': 1})";
    if (!strstr(p, want_args))
        print_error("got:\n%s\n", p);
    assert_non_null(strstr(p, want_args));
    assert_non_null(strstr(p, "\n    return None"));
    free(p);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* Graphs built through the API print, parse and print back identically. */
static void test_api_roundtrip(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_graph *g;
    AIRC_ASSERT_OK(airc_graph_create(ctx, &g));
    airc_node *x, *y;
    AIRC_ASSERT_OK(airc_graph_placeholder(g, "x", &x));
    AIRC_ASSERT_OK(airc_graph_placeholder(g, "y", &y));
    const airc_value *vx, *vy;
    AIRC_ASSERT_OK(airc_value_node(g, x, &vx));
    AIRC_ASSERT_OK(airc_value_node(g, y, &vy));

    const char *strings[] = {
        "plain",     "with space", "it's",          "say \"hi\"",  "both ' and \"",
        "new\nline", "tab\there",  "back\\slash",   "cpu",         "cuda",
        "None",      "True",       "nan",           "inf",         "-inf",
        "1",         "1.5",        "torch.float32", "device",      "",
        "x.y",       "%x",         "\x01\x7f",      "caf\xc3\xa9", "a:b"};
    size_t ns = sizeof strings / sizeof strings[0];
    const airc_value *items[32];
    for (size_t i = 0; i < ns; i++)
        AIRC_ASSERT_OK(airc_value_string(g, strings[i], &items[i]));
    const airc_value *slist;
    AIRC_ASSERT_OK(airc_value_list(g, items, ns, &slist));

    double floats[] = {0.1, 1e-05,    1e+16,     1e16 + 2,    -0.0,
                       0.0, 2.0,      1.0 / 3,   5e-324,      1.7976931348623157e308,
                       NAN, INFINITY, -INFINITY, 123456789.0, 1e22};
    size_t nf = sizeof floats / sizeof floats[0];
    for (size_t i = 0; i < nf; i++)
        AIRC_ASSERT_OK(airc_value_float(g, floats[i], &items[i]));
    const airc_value *flist;
    AIRC_ASSERT_OK(airc_value_tuple(g, items, nf, &flist));

    const airc_value *one, *t1, *empty_t, *empty_l, *inner, *nest, *dev0, *dev1, *dev2, *dt, *mf,
        *lay, *bl, *nn, *imin;
    AIRC_ASSERT_OK(airc_value_int(g, -7, &one));
    AIRC_ASSERT_OK(airc_value_tuple(g, &one, 1, &t1));
    AIRC_ASSERT_OK(airc_value_tuple(g, NULL, 0, &empty_t));
    AIRC_ASSERT_OK(airc_value_list(g, NULL, 0, &empty_l));
    const airc_value *pair[2] = {t1, empty_l};
    AIRC_ASSERT_OK(airc_value_list(g, pair, 2, &inner));
    const airc_value *pair2[2] = {inner, vx};
    AIRC_ASSERT_OK(airc_value_tuple(g, pair2, 2, &nest));
    AIRC_ASSERT_OK(airc_value_device(g, "cuda", 0, &dev0));
    AIRC_ASSERT_OK(airc_value_device(g, "privateuseone", 2, &dev1));
    AIRC_ASSERT_OK(airc_value_device(g, "meta", -1, &dev2));
    AIRC_ASSERT_OK(airc_value_dtype(g, AIRC_DTYPE_BF16, &dt));
    AIRC_ASSERT_OK(airc_value_memory_format(g, AIRC_MEMORY_FORMAT_CHANNELS_LAST_3D, &mf));
    AIRC_ASSERT_OK(airc_value_layout(g, AIRC_LAYOUT_SPARSE_COO, &lay));
    AIRC_ASSERT_OK(airc_value_bool(g, 0, &bl));
    AIRC_ASSERT_OK(airc_value_none(g, &nn));
    AIRC_ASSERT_OK(airc_value_int(g, INT64_MIN, &imin));

    const airc_value *args[] = {vx,   slist, flist, t1,  empty_t, nest, dev0, dev1,
                                dev2, dt,    mf,    lay, bl,      nn,   imin};
    airc_node *n;
    AIRC_ASSERT_OK(airc_graph_create_node(g, AIRC_NODE_CALL_FUNCTION, "aten.clone.default", args,
                                          sizeof args / sizeof args[0], NULL, NULL, 0, NULL, &n));
    /* kwargs: unquoted and quoted names */
    const char *kn[] = {"approximate", "weird-name"};
    const airc_value *kv[2];
    AIRC_ASSERT_OK(airc_value_string(g, "tanh", &kv[0]));
    kv[1] = dev0;
    airc_node *gelu;
    AIRC_ASSERT_OK(airc_graph_create_node(g, AIRC_NODE_CALL_FUNCTION, "torch.ops.aten.gelu.default",
                                          &vy, 1, kn, kv, 2, NULL, &gelu));
    /* a placeholder default and a get_attr */
    airc_node *z, *c;
    AIRC_ASSERT_OK(
        airc_graph_create_node(g, AIRC_NODE_PLACEHOLDER, "z", &flist, 1, NULL, NULL, 0, NULL, &z));
    AIRC_ASSERT_OK(airc_graph_get_attr(g, "layer.weight", &c));
    const airc_value *vn, *vg, *vc, *outs[4];
    AIRC_ASSERT_OK(airc_value_node(g, n, &vn));
    AIRC_ASSERT_OK(airc_value_node(g, gelu, &vg));
    AIRC_ASSERT_OK(airc_value_node(g, c, &vc));
    outs[0] = vn;
    outs[1] = vg;
    AIRC_ASSERT_OK(airc_value_list(g, &vc, 1, &outs[2]));
    AIRC_ASSERT_OK(airc_value_string(g, "s", &outs[3]));
    const airc_value *res;
    AIRC_ASSERT_OK(airc_value_tuple(g, outs, 4, &res));
    AIRC_ASSERT_OK(airc_graph_output(g, res, &n));

    char *p = check_stable(ctx, g, 0);
    /* spot checks against torch's spellings */
    assert_non_null(strstr(p, "kwargs = {approximate: tanh, 'weird-name': cuda:0}"));
    assert_non_null(strstr(p, "[plain, 'with space', \"it's\", 'say \"hi\"', 'both \\' and \"', "
                              "'new\\nline', 'tab\\there', 'back\\\\slash', 'cpu', 'cuda', "
                              "'None', 'True', 'nan', 'inf', '-inf', '1', '1.5', "
                              "'torch.float32', 'device', '', x.y, '%x', '\\x01\\x7f', "
                              "'caf\xc3\xa9', 'a:b']"));
    assert_non_null(strstr(p, "(0.1, 1e-05, 1e+16, 1.0000000000000002e+16, -0.0, 0.0, 2.0, "
                              "0.3333333333333333, 5e-324, 1.7976931348623157e+308, nan, inf, "
                              "-inf, 123456789.0, 1e+22)"));
    assert_non_null(strstr(p, "(-7,), (), ([(-7,), []], %x), cuda:0, "
                              "device(type='privateuseone', index=2), meta, torch.bfloat16, "
                              "torch.channels_last_3d, torch.sparse_coo, False, None, "
                              "-9223372036854775808)"));
    assert_non_null(strstr(p, "%z : [#users=0] = placeholder[target=z](default=(0.1, "));
    char want[256];
    snprintf(want, sizeof want, "%%%s : [#users=1] = get_attr[target=layer.weight]\n",
             airc_node_name(c));
    assert_non_null(strstr(p, want));
    snprintf(want, sizeof want, "\n    return (clone, gelu, [%s], 's')", airc_node_name(c));
    assert_non_null(strstr(p, want));
    free(p);
    airc_graph_destroy(g);

    /* a node whose name reads as a literal keeps its '%' in `return` */
    const char *lit = "graph():\n"
                      "    %nan : [#users=1] = placeholder[target=nan]\n"
                      "    %inf_1 : [#users=1] = placeholder[target=inf_1]\n"
                      "    return (%nan, nan, inf_1, -inf)";
    g = airc_test_parse(ctx, lit);
    const airc_value *o = airc_node_arg(airc_graph_output_node(g), 0);
    assert_int_equal(airc_value_get_kind(airc_value_item(o, 0)), AIRC_VALUE_NODE);
    assert_int_equal(airc_value_get_kind(airc_value_item(o, 1)), AIRC_VALUE_FLOAT);
    assert_int_equal(airc_value_get_kind(airc_value_item(o, 2)), AIRC_VALUE_NODE);
    p = check_stable(ctx, g, 0);
    assert_string_equal(p, lit);
    free(p);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* ---- the type slot ---------------------------------------------------------- */

static void test_types(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    const char *text =
        "graph():\n"
        "    %x : f32[3, 3] [#users=3] = placeholder[target=x]\n"
        "    %i : i64[] [#users=0] = placeholder[target=i]\n"
        "    %t : f32[3, 3]{1, 3} [#users=1] = call_function[target=torch.ops.aten.t.default]"
        "(args = (%x,), kwargs = {})\n"
        "    %ln : (f32[2, 3], f32[2, 1], bf16[0]) [#users=1] = call_function[target=torch.ops."
        "aten.native_layer_norm.default](args = (%x, [3], None, None, 1e-05), kwargs = {})\n"
        "    %one : (b8[1, 2, 3, 4],) [#users=0] = call_function[target=operator.getitem](args "
        "= (%ln, 0), kwargs = {})\n"
        "    %e : () [#users=0] = call_function[target=torch.ops.aten.relu.default](args = "
        "(%t,), kwargs = {})\n"
        "    %plain : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = "
        "(%x,), kwargs = {})\n"
        "    return plain";
    airc_graph *g = airc_test_parse(ctx, text);
    airc_dtype dt;
    int32_t nd;
    const int64_t *shape, *strides;
    airc_node *t = airc_graph_find_node(g, "t");
    assert_true(t->type_annotated);
    assert_int_equal(airc_node_meta_kind(t), AIRC_META_TENSOR);
    AIRC_ASSERT_OK(airc_node_output_meta(t, 0, &dt, &nd, &shape, &strides));
    assert_int_equal(dt, AIRC_DTYPE_F32);
    assert_int_equal(nd, 2);
    assert_int_equal(strides[0], 1);
    assert_int_equal(strides[1], 3);
    airc_node *x = airc_graph_find_node(g, "x");
    AIRC_ASSERT_OK(airc_node_output_meta(x, 0, &dt, &nd, &shape, &strides));
    assert_int_equal(strides[0], 3); /* contiguous by default */
    airc_node *i = airc_graph_find_node(g, "i");
    AIRC_ASSERT_OK(airc_node_output_meta(i, 0, &dt, &nd, &shape, &strides));
    assert_int_equal(dt, AIRC_DTYPE_I64);
    assert_int_equal(nd, 0);
    airc_node *ln = airc_graph_find_node(g, "ln");
    assert_int_equal(airc_node_meta_kind(ln), AIRC_META_TUPLE);
    assert_int_equal(airc_node_num_outputs(ln), 3);
    AIRC_ASSERT_OK(airc_node_output_meta(ln, 2, &dt, &nd, &shape, &strides));
    assert_int_equal(dt, AIRC_DTYPE_BF16);
    assert_int_equal(shape[0], 0);
    airc_node *one = airc_graph_find_node(g, "one");
    assert_int_equal(airc_node_meta_kind(one), AIRC_META_TUPLE);
    assert_int_equal(airc_node_num_outputs(one), 1);
    airc_node *e = airc_graph_find_node(g, "e");
    assert_int_equal(airc_node_meta_kind(e), AIRC_META_TUPLE);
    assert_int_equal(airc_node_num_outputs(e), 0);
    assert_false(airc_graph_find_node(g, "plain")->type_annotated);

    /* a file that carries types prints them back; with users recomputed */
    char *p = check_stable(ctx, g, 0);
    assert_non_null(strstr(p, "%x : f32[3, 3] [#users=3] = placeholder[target=x]\n"));
    assert_non_null(strstr(p, "%t : f32[3, 3]{1, 3} [#users=1] = call_function"));
    assert_non_null(strstr(p, "%ln : (f32[2, 3], f32[2, 1], bf16[0]) [#users=1] = "));
    assert_non_null(strstr(p, "%one : (b8[1, 2, 3, 4],) [#users=0]"));
    assert_non_null(strstr(p, "%e : () [#users=0]"));
    assert_non_null(strstr(p, "%plain : [#users=1]"));
    free(p);
    p = airc_test_print(g, AIRC_PRINT_NO_TYPES);
    assert_null(strstr(p, "f32"));
    assert_non_null(strstr(p, "%x : [#users=3] = placeholder[target=x]\n"));
    free(p);
    airc_graph_destroy(g);

    /* AIRC_PRINT_TYPES shows meta set through the API; it reads back typed */
    airc_graph *g2;
    AIRC_ASSERT_OK(airc_graph_create(ctx, &g2));
    airc_node *a, *r;
    AIRC_ASSERT_OK(airc_graph_placeholder(g2, "a", &a));
    int64_t sh[2] = {2, 5}, st2[2] = {1, 2};
    AIRC_ASSERT_OK(airc_node_set_meta(a, AIRC_DTYPE_F16, 2, sh, st2));
    const airc_value *va;
    AIRC_ASSERT_OK(airc_value_node(g2, a, &va));
    AIRC_ASSERT_OK(airc_graph_call_function(g2, "aten.relu.default", &va, 1, &r));
    AIRC_ASSERT_OK(airc_node_set_meta(r, AIRC_DTYPE_F16, 2, sh, NULL));
    const airc_value *vr;
    AIRC_ASSERT_OK(airc_value_node(g2, r, &vr));
    AIRC_ASSERT_OK(airc_graph_output(g2, vr, &r));
    p = airc_test_print(g2, 0);
    assert_null(strstr(p, "f16")); /* not annotated: no type slot by default */
    free(p);
    p = check_stable(ctx, g2, AIRC_PRINT_TYPES);
    assert_string_equal(p, "graph():\n"
                           "    %a : f16[2, 5]{1, 2} [#users=1] = placeholder[target=a]\n"
                           "    %relu : f16[2, 5] [#users=1] = call_function[target=torch.ops."
                           "aten.relu.default](args = (%a,), kwargs = {})\n"
                           "    return relu");
    airc_graph *g3 = airc_test_parse(ctx, p);
    char *p3 = airc_test_print(g3, 0); /* typed text stays typed */
    assert_string_equal(p, p3);
    free(p3);
    free(p);
    airc_graph_destroy(g3);
    airc_graph_destroy(g2);
    airc_context_destroy(ctx);
}

/* ---- nested graphs ---------------------------------------------------------- */

static void test_submodules(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    const char *text = "graph():\n"
                       "    %x : [#users=1] = placeholder[target=x]\n"
                       "    %fused_0 : [#users=1] = call_module[target=fused_0](args = (%x,), "
                       "kwargs = {})\n"
                       "    %fused_1 : [#users=1] = call_module[target=fused_1](args = "
                       "(%fused_0,), kwargs = {})\n"
                       "    return fused_1\n"
                       "\n"
                       "# submodule fused_0\n"
                       "graph():\n"
                       "    %a : [#users=1] = placeholder[target=a]\n"
                       "    %inner : [#users=1] = call_module[target=inner](args = (%a,), "
                       "kwargs = {})\n"
                       "    return inner\n"
                       "\n"
                       "# submodule fused_0.inner\n"
                       "graph():\n"
                       "    %b : [num_users=1] = placeholder[target=b]\n"
                       "    %relu : [num_users=1] = call_function[target=torch.ops.aten.relu."
                       "default](args = (%b,), kwargs = {})\n"
                       "    return relu\n"
                       "\n"
                       "# submodule fused_1\n"
                       "graph():\n"
                       "    %c : [#users=1] = placeholder[target=c]\n"
                       "    return (c,)";
    airc_graph *g = airc_test_parse(ctx, text);
    assert_int_equal(airc_graph_num_submodules(g), 2);
    airc_graph *f0 = airc_graph_submodule(g, "fused_0");
    assert_non_null(f0);
    assert_int_equal(airc_graph_num_submodules(f0), 1);
    airc_graph *inner = airc_graph_submodule(f0, "inner");
    assert_non_null(inner);
    assert_non_null(airc_graph_find_node(inner, "relu"));
    assert_null(airc_graph_find_node(g, "relu")); /* names are per graph */
    char *p = check_stable(ctx, g, 0);
    assert_string_equal(p, text);
    free(p);
    airc_graph_destroy(g);

    /* the same graph built through the API prints the same text */
    airc_graph *m, *s0, *s1, *s2;
    AIRC_ASSERT_OK(airc_graph_create(ctx, &m));
    AIRC_ASSERT_OK(airc_graph_create(ctx, &s0));
    AIRC_ASSERT_OK(airc_graph_create(ctx, &s1));
    AIRC_ASSERT_OK(airc_graph_create(ctx, &s2));
    airc_node *n, *n2;
    const airc_value *v;
    AIRC_ASSERT_OK(airc_graph_placeholder(s2, "b", &n));
    AIRC_ASSERT_OK(airc_value_node(s2, n, &v));
    AIRC_ASSERT_OK(airc_graph_call_function(s2, "aten.relu.default", &v, 1, &n));
    AIRC_ASSERT_OK(airc_value_node(s2, n, &v));
    AIRC_ASSERT_OK(airc_graph_output(s2, v, &n));
    s2->num_users_style = true;
    AIRC_ASSERT_OK(airc_graph_add_submodule(s0, "inner", s2));
    AIRC_ASSERT_OK(airc_graph_placeholder(s0, "a", &n));
    AIRC_ASSERT_OK(airc_value_node(s0, n, &v));
    AIRC_ASSERT_OK(
        airc_graph_create_node(s0, AIRC_NODE_CALL_MODULE, "inner", &v, 1, NULL, NULL, 0, NULL, &n));
    AIRC_ASSERT_OK(airc_value_node(s0, n, &v));
    AIRC_ASSERT_OK(airc_graph_output(s0, v, &n));
    AIRC_ASSERT_OK(airc_graph_placeholder(s1, "c", &n));
    AIRC_ASSERT_OK(airc_value_node(s1, n, &v));
    AIRC_ASSERT_OK(airc_value_tuple(s1, &v, 1, &v));
    AIRC_ASSERT_OK(airc_graph_output(s1, v, &n));
    AIRC_ASSERT_OK(airc_graph_add_submodule(m, "fused_0", s0));
    AIRC_ASSERT_OK(airc_graph_add_submodule(m, "fused_1", s1));
    AIRC_ASSERT_OK(airc_graph_placeholder(m, "x", &n));
    AIRC_ASSERT_OK(airc_value_node(m, n, &v));
    AIRC_ASSERT_OK(airc_graph_create_node(m, AIRC_NODE_CALL_MODULE, "fused_0", &v, 1, NULL, NULL, 0,
                                          NULL, &n2));
    AIRC_ASSERT_OK(airc_value_node(m, n2, &v));
    AIRC_ASSERT_OK(airc_graph_create_node(m, AIRC_NODE_CALL_MODULE, "fused_1", &v, 1, NULL, NULL, 0,
                                          NULL, &n2));
    AIRC_ASSERT_OK(airc_value_node(m, n2, &v));
    AIRC_ASSERT_OK(airc_graph_output(m, v, &n));
    p = check_stable(ctx, m, 0);
    assert_string_equal(p, text);
    free(p);
    airc_graph_destroy(m);
    airc_context_destroy(ctx);
}

/* ---- malformed input -------------------------------------------------------- */

typedef struct bad_case {
    const char *text;
    airc_status code;
    const char *needle; /* must appear in the message */
} bad_case;

#define HDR "graph():\n    %x : [#users=1] = placeholder[target=x]\n"
#define CALL(tail) "    %y : [#users=1] = call_function[target=torch.ops.aten." tail "\n"

static const bad_case bad_cases[] = {
    {"", AIRC_E_PARSE, "<test>:1:1: expected 'graph():', got end of input"},
    {"\n\n  \n", AIRC_E_PARSE, "<test>:4:1: expected 'graph():'"},
    {"graf():\n", AIRC_E_PARSE, "<test>:1:1: expected 'graph():', got 'graf'"},
    {"graph()", AIRC_E_PARSE, "<test>:1:8: expected ':', got end of input"},
    {"graph(): x\n", AIRC_E_PARSE, "<test>:1:10: expected end of line, got 'x'"},
    {HDR "    %x : [#users=1] = placeholder[target=x]\n", AIRC_E_PARSE,
     "<test>:3:5: duplicate node name '%x'"},
    {HDR "    return y\n", AIRC_E_PARSE, "<test>:3:12: undefined node '%y'"},
    {"graph():\n    %a : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = "
     "(%b,), kwargs = {})\n    %b : [#users=1] = placeholder[target=b]\n",
     AIRC_E_PARSE, "<test>:2:81: undefined node '%b'"},
    {HDR "    %y : [#users=1] = call_function[target=torch.ops.foo.bar.default](args = (%x,), "
         "kwargs = {})\n",
     AIRC_E_NOT_FOUND, "<test>:3:44: unknown op 'torch.ops.foo.bar.default'"},
    {HDR "    %y : [#users=1] = call_method[target=relu](args = (%x,), kwargs = {})\n",
     AIRC_E_UNSUPPORTED, "<test>:3:23: call_method"},
    {HDR CALL("add.Tensor](args = (%x, 9223372036854775808), kwargs = {})"), AIRC_E_PARSE,
     "<test>:3:83: integer 9223372036854775808 does not fit in int64"},
    {HDR CALL("add.Tensor](args = (%x, -9223372036854775809), kwargs = {})"), AIRC_E_PARSE,
     "does not fit in int64"},
    {HDR CALL("add.Tensor](args = (%x, 99999999999999999999999999999999), kwargs = {})"),
     AIRC_E_PARSE, "does not fit in int64"},
    {HDR CALL("add.Tensor](args = (%x, 1.5.5), kwargs = {})"), AIRC_E_PARSE, "<test>:3:",
     /* 1.5 then .5: a malformed number */},
    {HDR CALL("add.Tensor](args = (%x, 12abc), kwargs = {})"), AIRC_E_PARSE,
     "malformed number '12abc'"},
    {HDR CALL("gelu.default](args = (%x,), kwargs = {approximate: 'tanh})"), AIRC_E_PARSE,
     "unterminated string"},
    {HDR CALL("gelu.default](args = (%x,), kwargs = {approximate: 'ta\\x4'})"), AIRC_E_PARSE,
     "truncated \\x escape"},
    {HDR CALL("gelu.default](args = (%x,), kwargs = {approximate: '\\ud800'})"), AIRC_E_PARSE,
     "invalid code point"},
    {HDR CALL("relu.default](args = (%x,))"), AIRC_E_PARSE, "expected ',', got ')'"},
    {HDR CALL("relu.default](args = (%x,), kwargs = {a: 1, a: 2})"), AIRC_E_PARSE,
     "duplicate keyword 'a'"},
    {HDR CALL("relu.default](args = (%x,), kwargs = {1: 2})"), AIRC_E_PARSE,
     "expected a keyword name, got '1'"},
    {HDR CALL("relu.default](args = (%x,), kwargs = {}) trailing"), AIRC_E_PARSE,
     "expected end of line, got 'trailing'"},
    {HDR CALL("relu.default](args = (%x, torch.qint8), kwargs = {})"), AIRC_E_PARSE,
     "unknown torch constant 'torch.qint8'"},
    {HDR CALL("relu.default](args = (%x, cuda:99999999999), kwargs = {})"), AIRC_E_PARSE,
     "out of range"},
    {HDR CALL("relu.default](args = (%x, device(type=1)), kwargs = {})"), AIRC_E_PARSE,
     "expected a quoted device type"},
    {HDR CALL("relu.default](args = (%x, [1, 2), kwargs = {})"), AIRC_E_PARSE,
     "expected ',' or ']', got ')'"},
    {HDR CALL("relu.default](args = (%x, $), kwargs = {})"), AIRC_E_PARSE,
     "unexpected character '$'"},
    {HDR CALL("relu.default](args = (%x, %), kwargs = {})"), AIRC_E_PARSE,
     "expected a node name after '%'"},
    {HDR "    %y : [#users=1] = call_function[target=torch.ops.aten.relu.default\n", AIRC_E_PARSE,
     "<test>:3:71: expected ']', got end of line"},
    {HDR "    %y : [#users=1] = call_function[target=](args = (), kwargs = {})\n", AIRC_E_PARSE,
     "expected a target"},
    {HDR "    %y : [#users=x] = placeholder[target=y]\n", AIRC_E_PARSE,
     "<test>:3:18: expected a user count, got 'x'"},
    {HDR "    %y : [users=1] = placeholder[target=y]\n", AIRC_E_PARSE,
     "expected '#users=' or 'num_users='"},
    {HDR "    %y : [#users=1] = output[target=y]\n", AIRC_E_PARSE,
     "expected placeholder, get_attr, call_function or call_module, got 'output'"},
    {HDR "    %y [#users=1] = placeholder[target=y]\n", AIRC_E_PARSE,
     "<test>:3:8: expected ':', got '['"},
    {HDR "    y : [#users=1] = placeholder[target=y]\n", AIRC_E_PARSE,
     "<test>:3:5: expected '%name : ...' or 'return', got 'y'"},
    {HDR "    %y : f33[2] [#users=1] = placeholder[target=y]\n", AIRC_E_PARSE,
     "<test>:3:10: expected a dtype (f32, i64, b8...), got 'f33'"},
    {HDR "    %y : torch.Tensor [#users=1] = placeholder[target=y]\n", AIRC_E_PARSE,
     "expected a dtype"},
    {HDR "    %y : f32[-1] [#users=1] = placeholder[target=y]\n", AIRC_E_PARSE,
     "expected a size, got '-1'"},
    {HDR "    %y : f32[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] [#users=1] = "
         "placeholder[target=y]\n",
     AIRC_E_PARSE, "more than 16 dimensions"},
    {HDR "    %y : f32[2, 3]{1} [#users=1] = placeholder[target=y]\n", AIRC_E_PARSE,
     "1 strides for a 2-dimensional tensor"},
    {HDR "    %y : (f32[2] f32[3]) [#users=1] = placeholder[target=y]\n", AIRC_E_PARSE,
     "expected ',' or ')'"},
    {HDR "    %y : [#users=1] = placeholder[target=y](default=)\n", AIRC_E_PARSE,
     "expected a value, got ')'"},
    {HDR "    %y : [#users=1] = call_module[target=nope](args = (%x,), kwargs = {})\n",
     AIRC_E_NOT_FOUND, "<test>:3:5: "},
    {HDR "    return x\n    %output : [#users=0] = placeholder[target=o]\n", AIRC_E_PARSE,
     "<test>:4:5: "},
    {HDR CALL("relu.default](args = (%x,), kwargs = {'': 1})"), AIRC_E_PARSE, "<test>:3:5: "},
    {HDR "    return\n", AIRC_E_PARSE, "<test>:3:11: expected a value, got end of line"},
    {HDR "    return x\n# submodule\ngraph():\n", AIRC_E_PARSE,
     "<test>:4:12: expected a submodule name"},
    {HDR "    return x\n# submodule a..b\ngraph():\n", AIRC_E_PARSE,
     "<test>:4:13: expected a submodule name"},
    {HDR "    return x\n# submodule a b\ngraph():\n", AIRC_E_PARSE,
     "<test>:4:15: expected a submodule name"},
    {HDR "    return x\n# submodule a\ngraph():\n# submodule a\ngraph():\n", AIRC_E_PARSE,
     "<test>:6:13: duplicate submodule 'a'"},
    {HDR "    return x\n# submodule a\n    %z : [#users=0] = placeholder[target=z]\n", AIRC_E_PARSE,
     "<test>:5:5: expected 'graph():', got '%z'"},
    {HDR "    return x\n# submodule a\ngraph():\n    return x\n", AIRC_E_PARSE,
     "<test>:6:12: undefined node '%x'"},
};

static void test_malformed(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        airc_graph *g = (airc_graph *)0x1;
        airc_status st = parse(ctx, bad_cases[i].text, &g);
        if (st != bad_cases[i].code || !strstr(airc_last_error(), bad_cases[i].needle))
            print_error("case %zu:\n%s\n-> %s: %s\n", i, bad_cases[i].text, airc_status_name(st),
                        airc_last_error());
        AIRC_EXPECT(st, bad_cases[i].code, bad_cases[i].needle);
        assert_ptr_equal(g, (airc_graph *)0x1); /* out untouched */
    }
    airc_context_destroy(ctx);
}

static void test_bad_bytes_and_sizes(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_graph *g = NULL;
    /* NUL bytes: the text is a byte range, not a C string */
    const char nul[] = "graph():\n    %x\0 : [#users=1] = placeholder[target=x]\n";
    AIRC_EXPECT(airc_graph_parse(ctx, nul, sizeof nul - 1, "nul.fx", &g), AIRC_E_PARSE,
                "nul.fx:2:7: unexpected byte 0x00");
    const char nul2[] = "graph():\n    %x : [#users=1] = placeholder[target=x\0]\n";
    AIRC_EXPECT(airc_graph_parse(ctx, nul2, sizeof nul2 - 1, "nul.fx", &g), AIRC_E_PARSE,
                "nul.fx:2:43: unexpected byte 0x00");
    const char nul3[] = HDR "    return 'a\0'\n";
    AIRC_EXPECT(airc_graph_parse(ctx, nul3, sizeof nul3 - 1, NULL, &g), AIRC_E_PARSE,
                "<text>:3:14: NUL byte in string");
    /* the length is honoured: text past len is not read */
    const char *full = HDR "    return x\n";
    AIRC_ASSERT_OK(airc_graph_parse(ctx, full, strlen(HDR), "<t>", &g));
    assert_null(airc_graph_output_node(g));
    airc_graph_destroy(g);

    /* binary garbage */
    unsigned char junk[4096];
    uint32_t s = 12345;
    for (size_t i = 0; i < sizeof junk; i++) {
        s = s * 1103515245u + 12345u;
        junk[i] = (unsigned char)(s >> 16);
    }
    airc_status st = airc_graph_parse(ctx, (const char *)junk, sizeof junk, "junk", &g);
    assert_int_not_equal(st, AIRC_OK);
    assert_non_null(strstr(airc_last_error(), "junk:"));

    /* deep nesting: bounded, located */
    size_t depth = 100000;
    char *deep = malloc(strlen(HDR) + 2 * depth + 64);
    char *o = deep + sprintf(deep, "%s    return ", HDR);
    for (size_t i = 0; i < depth; i++)
        *o++ = i % 2 ? '(' : '[';
    strcpy(o, "x\n");
    AIRC_EXPECT(parse(ctx, deep, &g), AIRC_E_PARSE, "<test>:3:268: values nested deeper than 256");
    free(deep);
    /* 200 levels are fine and print back */
    char *ok = malloc(strlen(HDR) + 1000);
    o = ok + sprintf(ok, "%s    return ", HDR);
    for (int i = 0; i < 200; i++)
        *o++ = '[';
    *o++ = 'x';
    for (int i = 0; i < 200; i++)
        *o++ = ']';
    *o = '\0';
    g = airc_test_parse(ctx, ok);
    char *p = check_stable(ctx, g, 0);
    assert_non_null(strstr(p, "[[[[x]]]]"));
    free(p);
    free(ok);
    airc_graph_destroy(g);

    /* a 1 MB name: kept whole, messages cut it short */
    size_t nlen = 1 << 20;
    char *big = malloc(2 * nlen + 256);
    o = big + sprintf(big, "graph():\n    %%");
    memset(o, 'n', nlen);
    o += nlen;
    o += sprintf(o, " : [#users=1] = placeholder[target=");
    memset(o, 't', nlen);
    o += nlen;
    sprintf(o, "]\n    return x\n");
    AIRC_EXPECT(parse(ctx, big, &g), AIRC_E_PARSE, "<test>:3:12: undefined node '%x'");
    o = strstr(big, "return x");
    o[7] = 'n'; /* refer to the long name: still undefined (too short) */
    AIRC_EXPECT(parse(ctx, big, &g), AIRC_E_PARSE, "undefined node '%n'");
    char *ret = strstr(big, "    return");
    ret[0] = '\0';
    g = airc_test_parse(ctx, big);
    airc_node *first = airc_graph_first_node(g);
    assert_int_equal(strlen(airc_node_name(first)), nlen);
    assert_int_equal(strlen(airc_node_target(first)), nlen);
    p = airc_test_print(g, 0);
    assert_int_equal(strlen(p), strlen(big) - 1); /* minus the final newline */
    free(p);
    airc_graph_destroy(g);
    /* an undefined long reference: the message is bounded */
    char *ref = malloc(nlen + 256);
    o = ref + sprintf(ref, "%s    return ", HDR);
    memset(o, 'r', nlen);
    strcpy(o + nlen, "\n");
    AIRC_EXPECT(parse(ctx, ref, &g), AIRC_E_PARSE, "...'");
    assert_true(strlen(airc_last_error()) < 300);
    free(ref);
    free(big);

    /* many keywords: a duplicate far apart is still found */
    char *kw = malloc(100000);
    o = kw + sprintf(kw,
                     "%s    %%y : [#users=0] = call_function[target=torch.ops.aten.relu."
                     "default](args = (%%x,), kwargs = {",
                     HDR);
    for (int k = 0; k < 2000; k++)
        o += sprintf(o, "k%d: %d, ", k, k);
    strcpy(o, "k3: 0})\n");
    AIRC_EXPECT(parse(ctx, kw, &g), AIRC_E_PARSE, "duplicate keyword 'k3'");
    strcpy(o, "last: 0})\n");
    g = airc_test_parse(ctx, kw);
    assert_int_equal(airc_node_num_kwargs(airc_graph_find_node(g, "y")), 2001);
    airc_graph_destroy(g);
    free(kw);

    /* a huge number of digits */
    char *digits = malloc(nlen + 256);
    o = digits + sprintf(digits, "%s    return ", HDR);
    memset(o, '7', nlen);
    strcpy(o + nlen, "\n");
    AIRC_EXPECT(parse(ctx, digits, &g), AIRC_E_PARSE, "does not fit in int64");
    strcpy(o + nlen, ".5\n");
    AIRC_EXPECT(parse(ctx, digits, &g), AIRC_E_PARSE, "float literal too long");
    free(digits);
    airc_context_destroy(ctx);
}

/* A graph that uses most of the format: types, kwargs, nested graphs. */
static const char *seed_text =
    "graph():\n"
    "    %x_1 : f32[3, 3] [#users=2] = placeholder[target=x_1]\n"
    "    %mm : [#users=2] = call_function[target=torch.ops.aten.mm.default](args = (%x_1, "
    "%x_1), kwargs = {})\n"
    "    %abs_1 : (f32[3, 3], i64[]) [#users=1] = call_function[target=torch.ops.aten.abs."
    "default](args = (%mm,), kwargs = {})\n"
    "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%abs_1, "
    "1), kwargs = {alpha: 2, s: 'a b', d: cuda:0})\n"
    "    %sub : [#users=1] = call_module[target=sub](args = ([%x_1, (%mm, 1.5)],), kwargs = "
    "{})\n"
    "    return (add, sub)\n"
    "# submodule sub\n"
    "graph():\n"
    "    %a : [#users=1] = placeholder[target=a]\n"
    "    %i : [#users=1] = call_module[target=inner](args = (%a,), kwargs = {d: device(type="
    "'cuda', index=1)})\n"
    "    return i\n"
    "# submodule sub.inner\n"
    "graph():\n"
    "    %b : [num_users=1] = placeholder[target=b]\n"
    "    return [b]\n";

/* Every prefix of a real file parses or fails cleanly; a prefix that parses
 * prints and reads back the same. */
static void test_truncation(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    char path[1024];
    if (airc_test_have_shared())
        snprintf(path, sizeof path, "%s", AIRC_SHARED_DIR "/conformance/attention.fx");
    else
        snprintf(path, sizeof path, "%s", AIRC_TEST_DATA "/graphs/attention.fx");
    size_t len;
    char *text = airc_test_read_file(path, &len);
    assert_non_null(text);
    size_t ok = 0;
    for (size_t cut = 0; cut <= len; cut++) {
        char *prefix = malloc(cut + 1); /* exact size: ASan sees any overread */
        memcpy(prefix, text, cut);
        airc_graph *g = NULL;
        airc_status st = airc_graph_parse(ctx, prefix, cut, "cut", &g);
        if (st == AIRC_OK) {
            ok++;
            free(check_stable(ctx, g, 0));
            airc_graph_destroy(g);
        } else {
            assert_true(st == AIRC_E_PARSE || st == AIRC_E_NOT_FOUND);
            assert_true(!strncmp(airc_last_error(), "cut:", 4));
        }
        free(prefix);
    }
    assert_true(ok > 20); /* each complete line is a valid graph */
    free(text);
    airc_context_destroy(ctx);
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Random byte mutations (fixed seed): never a crash; errors are located;
 * whatever parses is stable under print -> parse -> print. */
static void test_mutations(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    const char *files[] = {AIRC_TEST_DATA "/graphs/seed001.fx",
                           AIRC_TEST_DATA "/graphs/creation.fx",
                           AIRC_TEST_DATA "/graphs/literals.fx"};
    static const char alphabet[] = "%[](){}:=,.#'\"\\\n -0123456789eE_xabtorchinfa\0\xff";
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    size_t parsed = 0, total = 0;
    size_t nfiles = sizeof files / sizeof files[0];
    for (size_t fi = 0; fi <= nfiles; fi++) {
        size_t len;
        char *text = fi < nfiles ? airc_test_read_file(files[fi], &len) : strdup(seed_text);
        assert_non_null(text);
        if (fi == nfiles)
            len = strlen(text);
        for (int iter = 0; iter < 1500; iter++) {
            size_t cap = len + 64;
            char *m = malloc(cap);
            memcpy(m, text, len);
            size_t mlen = len;
            int nmut = 1 + (int)(rng_next(&seed) % 4);
            for (int k = 0; k < nmut && mlen > 1; k++) {
                size_t at = rng_next(&seed) % mlen;
                char c = alphabet[rng_next(&seed) % (sizeof alphabet - 1)];
                switch (rng_next(&seed) % 4) {
                case 0: /* replace */
                    m[at] = c;
                    break;
                case 1: /* delete */
                    memmove(m + at, m + at + 1, mlen - at - 1);
                    mlen--;
                    break;
                case 2: /* insert */
                    if (mlen + 1 < cap) {
                        memmove(m + at + 1, m + at, mlen - at);
                        m[at] = c;
                        mlen++;
                    }
                    break;
                default: /* random byte */
                    m[at] = (char)(rng_next(&seed) & 0xff);
                    break;
                }
            }
            char *exact = malloc(mlen ? mlen : 1);
            memcpy(exact, m, mlen);
            free(m);
            airc_graph *g = NULL;
            airc_status st = airc_graph_parse(ctx, exact, mlen, "fuzz", &g);
            total++;
            if (st == AIRC_OK) {
                parsed++;
                free(check_stable(ctx, g, 0));
                airc_graph_destroy(g);
            } else {
                if (strncmp(airc_last_error(), "fuzz:", 5))
                    print_error("unlocated error: %s\n", airc_last_error());
                assert_true(!strncmp(airc_last_error(), "fuzz:", 5));
                assert_true(st == AIRC_E_PARSE || st == AIRC_E_NOT_FOUND ||
                            st == AIRC_E_UNSUPPORTED);
            }
            free(exact);
        }
        free(text);
    }
    assert_true(parsed > 0 && parsed < total);
    airc_context_destroy(ctx);
}

/* ---- allocation failure ----------------------------------------------------- */

static void test_alloc_failures(void **state)
{
    (void)state;
    airc_test_alloc ta;
    airc_allocator al;
    airc_test_alloc_init(&ta, &al);
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(&al, &ctx));
    /* warm the registry: built-in ops are materialised on first lookup */
    airc_graph *g = NULL;
    airc_status st = parse(ctx, seed_text, &g);
    if (st != AIRC_OK)
        print_error("%s\n", airc_last_error());
    assert_int_equal(st, AIRC_OK);
    char *want = airc_test_print(g, 0);
    airc_graph_destroy(g);
    long base = ta.live;
    size_t fails = 0;
    for (size_t k = 1;; k++) {
        ta.fail_at = ta.count + k;
        g = NULL;
        st = parse(ctx, seed_text, &g);
        ta.fail_at = 0;
        if (st == AIRC_OK) {
            char *got = airc_test_print(g, 0);
            assert_string_equal(got, want);
            free(got);
            airc_graph_destroy(g);
            break;
        }
        fails++;
        if (st != AIRC_E_OUT_OF_MEMORY)
            print_error("k=%zu: %s: %s\n", k, airc_status_name(st), airc_last_error());
        assert_int_equal(st, AIRC_E_OUT_OF_MEMORY);
        assert_null(g);
        assert_int_equal(ta.live, base);
    }
    assert_true(fails > 10);
    /* printing: every failure is OUT_OF_MEMORY, leaves nothing behind */
    g = airc_test_parse(ctx, seed_text);
    base = ta.live;
    for (size_t k = 1;; k++) {
        ta.fail_at = ta.count + k;
        char *s = NULL;
        st = airc_graph_print(g, 0, &s);
        ta.fail_at = 0;
        if (st == AIRC_OK) {
            assert_string_equal(s, want);
            airc_string_free(s);
            break;
        }
        assert_int_equal(st, AIRC_E_OUT_OF_MEMORY);
        assert_null(s);
        assert_int_equal(ta.live, base);
    }
    airc_graph_destroy(g);
    free(want);
    airc_context_destroy(ctx);
    assert_int_equal(ta.live, 0);
}

/* ---- API misuse and files --------------------------------------------------- */

static void test_api_errors(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_graph *g = NULL;
    AIRC_EXPECT(airc_graph_parse(NULL, "graph():", 8, NULL, &g), AIRC_E_MISUSE, NULL);
    AIRC_EXPECT(airc_graph_parse(ctx, "graph():", 8, NULL, NULL), AIRC_E_INVALID_ARGUMENT, NULL);
    AIRC_EXPECT(airc_graph_parse(ctx, NULL, 3, NULL, &g), AIRC_E_INVALID_ARGUMENT, NULL);
    AIRC_EXPECT(airc_graph_parse(ctx, NULL, 0, "empty", &g), AIRC_E_PARSE,
                "empty:1:1: expected 'graph():'");
    char *s = NULL;
    AIRC_EXPECT(airc_graph_print(NULL, 0, &s), AIRC_E_MISUSE, NULL);
    g = airc_test_parse(ctx, "graph():");
    AIRC_EXPECT(airc_graph_print(g, 0, NULL), AIRC_E_INVALID_ARGUMENT, NULL);
    AIRC_ASSERT_OK(airc_graph_print(g, 0, &s));
    assert_string_equal(s, "graph():"); /* an empty graph */
    airc_string_free(s);
    airc_graph_destroy(g);

    AIRC_EXPECT(airc_graph_parse_file(ctx, "/nonexistent/x.fx", &g), AIRC_E_NOT_FOUND,
                "/nonexistent/x.fx");
    AIRC_EXPECT(airc_graph_parse_file(ctx, NULL, &g), AIRC_E_INVALID_ARGUMENT, NULL);
    char path[] = "/tmp/airc_test_text_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("graph():\n    return zz\n", f);
    fclose(f);
    char needle[128];
    snprintf(needle, sizeof needle, "%s:2:12: undefined node '%%zz'", path);
    AIRC_EXPECT(airc_graph_parse_file(ctx, path, &g), AIRC_E_PARSE, needle);
    remove(path);
    airc_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_conformance),
        cmocka_unit_test(test_golden_own),
        cmocka_unit_test(test_parse_structure),
        cmocka_unit_test(test_layout_tolerance),
        cmocka_unit_test(test_value_literals),
        cmocka_unit_test(test_api_roundtrip),
        cmocka_unit_test(test_types),
        cmocka_unit_test(test_submodules),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_bad_bytes_and_sizes),
        cmocka_unit_test(test_truncation),
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_alloc_failures),
        cmocka_unit_test(test_api_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
