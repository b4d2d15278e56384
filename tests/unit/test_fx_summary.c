/* debug.fx_summary (compile/fx_summary.h): in max-autotune airc_compile
 * writes TorchAir's csv summary of the graph, summary_rank_0_pid_<pid>_ts_
 * <stamp>.csv under debug.fx_summary.path, once per compiled object: at
 * compile time when the signature is known (example inputs, or typed
 * placeholders), else at the first run. The csv is compared byte for byte
 * with tests/data/fx_summary/ (written with PyTorch 1.13 as the oracle by
 * tests/gen_fx_summary_cases.py) and with a csv derived by hand from
 * TorchAir's rules (custom ops, statuses, quoting). skip_compile (the
 * default) runs every call eagerly with the eager mode's results and lowers
 * nothing; skip_compile=0 lowers a model; other modes write nothing and
 * warn; an unwritable folder is an error naming it; allocation failures
 * give AIRC_E_OUT_OF_MEMORY and leak nothing. */
#include "testutil.h"

#include "airc/compile.h"
#include "airc/ge.h"
#include "airc/passes.h"
#include "compile/fx_summary.h"
#include "ir/ir.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CASES AIRC_TEST_DATA "/fx_summary"
/* utf-8-sig's byte order mark, then TorchAir's header row */
#define HEADER "\xEF\xBB\xBF目标函数,函数类型,支持状态,调用次数,输入统计,输出统计\r\n"
#define MAXOUT 8

/* ---- files ------------------------------------------------------------------------------ */

static void make_tmpdir(char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/airc-fxs.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(buf));
}

static void remove_tree(const char *path)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    assert_int_equal(system(cmd), 0);
}

/* Whether name is summary_rank_0_pid_<this pid>_ts_<20 digits>.csv. */
static bool summary_name(const char *name)
{
    char prefix[64];
    int n = snprintf(prefix, sizeof prefix, "summary_rank_0_pid_%ld_ts_", (long)getpid());
    if (strncmp(name, prefix, (size_t)n))
        return false;
    const char *ts = name + n;
    for (int i = 0; i < 20; i++)
        if (ts[i] < '0' || ts[i] > '9')
            return false;
    return !strcmp(ts + 20, ".csv");
}

/* The files in dir; the text of the one summary (malloc'd) in *csv when
 * there is exactly one file and it is named as a summary. */
static int read_summary(const char *dir, char **csv, size_t *len)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    *csv = NULL;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        n++;
        if (!summary_name(e->d_name))
            print_error("%s: unexpected file %s\n", dir, e->d_name);
        assert_true(summary_name(e->d_name));
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        free(*csv);
        *csv = airc_test_read_file(path, len);
        assert_non_null(*csv);
    }
    closedir(d);
    return n;
}

/* Asserts dir holds one summary whose bytes are want[0..want_len). */
static void expect_summary(const char *dir, const char *want, size_t want_len)
{
    char *got;
    size_t len = 0;
    assert_int_equal(read_summary(dir, &got, &len), 1);
    if (len != want_len || memcmp(got, want, len))
        print_error("summary in %s:\n--- got (%zu bytes)\n%s\n--- want (%zu bytes)\n%s\n", dir, len,
                    got, want_len, want);
    assert_int_equal(len, want_len);
    assert_memory_equal(got, want, len);
    free(got);
}

static void expect_no_files(const char *dir)
{
    char *got;
    size_t len;
    assert_int_equal(read_summary(dir, &got, &len), 0);
}

/* ---- compiling -------------------------------------------------------------------------- */

/* A context that logs errors only (skip_compile's warning is expected in
 * most tests; test_other_modes reads the warnings). */
static airc_context *new_context(const airc_allocator *hook)
{
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(hook, &ctx));
    AIRC_ASSERT_OK(airc_context_set_log_level(ctx, AIRC_LOG_ERROR));
    return ctx;
}

static airc_config *summary_config(airc_context *ctx, const char *mode, const char *dir, int skip)
{
    airc_config *cfg;
    AIRC_ASSERT_OK(airc_config_create(ctx, &cfg));
    AIRC_ASSERT_OK(airc_config_set(cfg, "mode", mode));
    AIRC_ASSERT_OK(airc_config_set(cfg, "debug.fx_summary.type", "csv"));
    if (dir)
        AIRC_ASSERT_OK(airc_config_set(cfg, "debug.fx_summary.path", dir));
    if (skip >= 0)
        AIRC_ASSERT_OK(airc_config_set_bool(cfg, "debug.fx_summary.skip_compile", skip));
    return cfg;
}

/* The meta of g's placeholders as example inputs. */
static airc_example_inputs *examples_of(airc_context *ctx, const airc_graph *g)
{
    airc_example_inputs *in;
    AIRC_ASSERT_OK(airc_example_inputs_create(ctx, &in));
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n)) {
        if (airc_node_get_kind(n) != AIRC_NODE_PLACEHOLDER)
            continue;
        airc_dtype dt;
        int32_t nd;
        const int64_t *shape;
        AIRC_ASSERT_OK(airc_node_output_meta(n, 0, &dt, &nd, &shape, NULL));
        AIRC_ASSERT_OK(airc_example_inputs_add(in, dt, nd, shape, NULL));
    }
    return in;
}

static airc_status compile_with(const airc_graph *g, airc_config *cfg,
                                const airc_example_inputs *in, airc_compiled **c)
{
    airc_compile_options o;
    airc_compile_options_init(&o);
    o.config = cfg;
    o.example_inputs = in;
    return airc_compile(g, &o, c);
}

static airc_graph *parse_case(airc_context *ctx, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.fx", CASES, name);
    airc_graph *g;
    AIRC_ASSERT_OK(airc_graph_parse_file(ctx, path, &g));
    return g;
}

static char *case_csv(const char *name, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.csv", CASES, name);
    char *csv = airc_test_read_file(path, len);
    assert_non_null(csv);
    return csv;
}

/* g without its type slots: nothing tells airc_compile the signature. */
static airc_graph *untyped(airc_context *ctx, const airc_graph *g)
{
    char *text;
    AIRC_ASSERT_OK(airc_graph_print(g, AIRC_PRINT_NO_TYPES, &text));
    airc_graph *u = airc_test_parse(ctx, text);
    airc_string_free(text);
    return u;
}

/* ---- the oracle's cases ----------------------------------------------------------------- */

/* Each case's csv, from its example inputs and from its typed
 * placeholders, with skip_compile on and off (off: a model is lowered). */
static void test_oracle_cases(void **state)
{
    (void)state;
    static const char *const names[] = {"mlp", "multi"};
    airc_context *ctx = new_context(NULL);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t want_len;
        char *want = case_csv(names[i], &want_len);
        /* the bytes TorchAir's csv.writer gives: BOM, header, CRLF rows */
        assert_true(want_len > strlen(HEADER));
        assert_memory_equal(want, HEADER, strlen(HEADER));
        airc_graph *g = parse_case(ctx, names[i]);
        for (int variant = 0; variant < 3; variant++) {
            char dir[256];
            make_tmpdir(dir, sizeof dir);
            bool with_examples = variant != 1;
            int skip = variant == 2 ? 0 : -1;
            airc_config *cfg = summary_config(ctx, "max-autotune", dir, skip);
            airc_example_inputs *in = with_examples ? examples_of(ctx, g) : NULL;
            airc_compiled *c;
            AIRC_ASSERT_OK(compile_with(g, cfg, in, &c));
            expect_summary(dir, want, want_len);
            const uint8_t *model;
            size_t model_len;
            if (skip == 0)
                AIRC_ASSERT_OK(airc_compiled_model(c, &model, &model_len));
            else
                AIRC_EXPECT(airc_compiled_model(c, &model, &model_len), AIRC_E_NOT_FOUND,
                            "no model yet");
            airc_compiled_destroy(c);
            airc_example_inputs_destroy(in);
            airc_config_destroy(cfg);
            remove_tree(dir);
        }
        airc_graph_destroy(g);
        free(want);
    }
    airc_context_destroy(ctx);
}

/* ---- runs ------------------------------------------------------------------------------- */

static const int64_t MLP_SHAPES[5][2] = {{4, 8}, {8, 16}, {16, 0}, {16, 16}, {16, 2}};

static void mlp_inputs(airc_context *ctx, airc_tensor **x, float scale)
{
    for (int i = 0; i < 5; i++) {
        int32_t nd = MLP_SHAPES[i][1] ? 2 : 1;
        AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_F32, nd, MLP_SHAPES[i], &x[i]));
        float *d = airc_tensor_data(x[i]);
        for (size_t k = 0; k < airc_tensor_numel(x[i]); k++)
            d[k] = scale * (float)((int)((k * 7 + (size_t)i * 3) % 11) - 5) / 8.0f;
    }
}

static void run_mlp(airc_compiled *c, airc_tensor **x, airc_tensor **out)
{
    size_t n = 0;
    AIRC_ASSERT_OK(airc_compiled_run(c, x, 5, out, MAXOUT, &n));
    assert_int_equal(n, 2);
}

static void expect_close(const airc_tensor *got, const airc_tensor *want)
{
    assert_int_equal(airc_tensor_numel(got), airc_tensor_numel(want));
    const float *g = airc_tensor_data(got), *w = airc_tensor_data(want);
    for (size_t i = 0; i < airc_tensor_numel(want); i++)
        assert_float_equal(g[i], w[i], 1e-4 * (1 + (w[i] < 0 ? -w[i] : w[i])));
}

/* The mlp case's results in mode eager: the reference. */
static void eager_reference(airc_context *ctx, const airc_graph *g, airc_tensor **x,
                            airc_tensor **want)
{
    airc_config *cfg;
    AIRC_ASSERT_OK(airc_config_create(ctx, &cfg));
    AIRC_ASSERT_OK(airc_config_set(cfg, "mode", "eager"));
    airc_compiled *c;
    AIRC_ASSERT_OK(compile_with(g, cfg, NULL, &c));
    airc_tensor *out[MAXOUT];
    run_mlp(c, x, out);
    for (int i = 0; i < 2; i++) {
        const int64_t *shape = airc_tensor_shape(out[i]);
        AIRC_ASSERT_OK(
            airc_tensor_create(ctx, AIRC_DTYPE_F32, airc_tensor_ndim(out[i]), shape, &want[i]));
        memcpy(airc_tensor_data(want[i]), airc_tensor_data(out[i]),
               sizeof(float) * airc_tensor_numel(out[i]));
        airc_tensor_destroy(out[i]);
    }
    airc_compiled_destroy(c);
    airc_config_destroy(cfg);
}

/* Untyped placeholders and no example inputs: nothing at compile time; the
 * first run writes the csv of its signature, later runs (another signature
 * too) write nothing more. skip_compile runs eagerly, no model is lowered;
 * skip_compile=0 lowers one per signature; the results are eager's. */
static void test_first_run(void **state)
{
    (void)state;
    airc_context *ctx = new_context(NULL);
    airc_graph *typed = parse_case(ctx, "mlp");
    airc_graph *g = untyped(ctx, typed);
    size_t want_len;
    char *want = case_csv("mlp", &want_len);
    airc_tensor *x[5], *ref[2];
    mlp_inputs(ctx, x, 1.0f);
    eager_reference(ctx, g, x, ref);
    for (int skip = 1; skip >= 0; skip--) {
        char dir[256];
        make_tmpdir(dir, sizeof dir);
        airc_config *cfg = summary_config(ctx, "max-autotune", dir, skip);
        airc_compiled *c;
        AIRC_ASSERT_OK(compile_with(g, cfg, NULL, &c));
        expect_no_files(dir);
        for (int r = 0; r < 2; r++) {
            airc_tensor *out[MAXOUT];
            run_mlp(c, x, out);
            expect_close(out[0], ref[0]);
            expect_close(out[1], ref[1]);
            airc_tensor_destroy(out[0]);
            airc_tensor_destroy(out[1]);
            expect_summary(dir, want, want_len);
        }
        /* another signature: x of 2 rows */
        airc_tensor *x2[5], *out[MAXOUT];
        const int64_t small[2] = {2, 8};
        AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_F32, 2, small, &x2[0]));
        memset(airc_tensor_data(x2[0]), 0, sizeof(float) * 16);
        for (int i = 1; i < 5; i++)
            x2[i] = x[i];
        size_t n = 0;
        AIRC_ASSERT_OK(airc_compiled_run(c, x2, 5, out, MAXOUT, &n));
        assert_int_equal(n, 2);
        airc_tensor_destroy(out[0]);
        airc_tensor_destroy(out[1]);
        airc_tensor_destroy(x2[0]);
        expect_summary(dir, want, want_len);

        const uint8_t *model;
        size_t model_len;
        airc_compiled_stats st = {.struct_size = sizeof st};
        AIRC_ASSERT_OK(airc_compiled_get_stats(c, &st));
        assert_int_equal(st.runs, 3);
        if (skip) {
            assert_int_equal(st.fallbacks, 3); /* every run eager */
            AIRC_EXPECT(airc_compiled_model(c, &model, &model_len), AIRC_E_NOT_FOUND, NULL);
        } else {
            assert_int_equal(st.fallbacks, 0);
            AIRC_ASSERT_OK(airc_compiled_model(c, &model, &model_len));
            assert_true(model_len > 0);
        }
        airc_compiled_destroy(c);
        airc_config_destroy(cfg);
        remove_tree(dir);
    }
    for (int i = 0; i < 5; i++)
        airc_tensor_destroy(x[i]);
    airc_tensor_destroy(ref[0]);
    airc_tensor_destroy(ref[1]);
    free(want);
    airc_graph_destroy(g);
    airc_graph_destroy(typed);
    airc_context_destroy(ctx);
}

/* airc_compiled_run_views writes the pending csv too. */
static void test_first_run_views(void **state)
{
    (void)state;
    airc_context *ctx = new_context(NULL);
    airc_graph *typed = parse_case(ctx, "mlp");
    airc_graph *g = untyped(ctx, typed);
    airc_tensor *x[5], *ref[2];
    mlp_inputs(ctx, x, 1.0f);
    eager_reference(ctx, g, x, ref);
    char dir[256];
    make_tmpdir(dir, sizeof dir);
    airc_config *cfg = summary_config(ctx, "max-autotune", dir, 1);
    airc_compiled *c;
    AIRC_ASSERT_OK(compile_with(g, cfg, NULL, &c));
    expect_no_files(dir);
    airc_tview in[5], out[MAXOUT];
    for (int i = 0; i < 5; i++) {
        memset(&in[i], 0, sizeof in[i]);
        in[i].data = airc_tensor_data(x[i]);
        in[i].dtype = AIRC_DTYPE_F32;
        in[i].ndim = airc_tensor_ndim(x[i]);
        int64_t stride = 1;
        for (int32_t d = in[i].ndim - 1; d >= 0; d--) {
            in[i].shape[d] = airc_tensor_shape(x[i])[d];
            in[i].strides[d] = stride;
            stride *= in[i].shape[d];
        }
    }
    size_t n = 0;
    AIRC_ASSERT_OK(airc_compiled_run_views(c, in, 5, out, MAXOUT, &n));
    assert_int_equal(n, 2);
    for (int r = 0; r < 2; r++) {
        const float *got = out[r].data, *want = airc_tensor_data(ref[r]);
        for (size_t i = 0; i < airc_tensor_numel(ref[r]); i++)
            assert_float_equal(got[i], want[i], 1e-4 * (1 + (want[i] < 0 ? -want[i] : want[i])));
    }
    size_t want_len;
    char *want = case_csv("mlp", &want_len);
    expect_summary(dir, want, want_len);
    free(want);
    airc_compiled_destroy(c);
    airc_config_destroy(cfg);
    remove_tree(dir);
    for (int i = 0; i < 5; i++)
        airc_tensor_destroy(x[i]);
    airc_tensor_destroy(ref[0]);
    airc_tensor_destroy(ref[1]);
    airc_graph_destroy(g);
    airc_graph_destroy(typed);
    airc_context_destroy(ctx);
}

/* The default path is the current folder. */
static void test_default_path(void **state)
{
    (void)state;
    char dir[256], cwd[1024];
    make_tmpdir(dir, sizeof dir);
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    airc_context *ctx = new_context(NULL);
    airc_graph *g = parse_case(ctx, "multi");
    airc_config *cfg = summary_config(ctx, "max-autotune", NULL, -1);
    airc_compiled *c;
    AIRC_ASSERT_OK(compile_with(g, cfg, NULL, &c));
    airc_compiled_destroy(c);
    airc_config_destroy(cfg);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
    assert_int_equal(chdir(cwd), 0);
    size_t want_len;
    char *want = case_csv("multi", &want_len);
    expect_summary(dir, want, want_len);
    free(want);
    remove_tree(dir);
}

/* ---- custom ops: statuses, types, quoting ----------------------------------------------- */

static airc_status like_x_meta(airc_node *n, void *ud)
{
    (void)ud;
    airc_dtype dt;
    int32_t nd;
    const int64_t *shape;
    AIRC_TRY(airc_value_meta(airc_node_arg(n, 0), &dt, &nd, &shape, NULL));
    return airc_node_set_meta(n, dt, nd, shape, NULL);
}

/* demo::prim_scale -> GE Muls(x, value=k) */
static airc_status prim_scale_converter(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_ge_tensor x, y;
    airc_ge_op *op;
    int64_t k = 1;
    const airc_value *kv = airc_node_kwarg(n, "k");
    if (kv)
        AIRC_TRY(airc_value_get_int(kv, &k));
    AIRC_TRY(airc_ge_input(b, 0, &x));
    AIRC_TRY(airc_ge_op_create(b, "Muls", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_attr_float(op, "value", (double)k));
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    return airc_ge_set_result(b, 0, y);
}

static void register_op(airc_context *ctx, const char *schema, airc_ge_converter_fn conv)
{
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = schema;
    def.meta = like_x_meta;
    const airc_op *op;
    AIRC_ASSERT_OK(airc_context_register_op(ctx, &def, &op));
    if (conv)
        AIRC_ASSERT_OK(airc_context_set_op_converter(ctx, airc_op_name(op), conv, NULL, NULL));
}

static const char CUSTOM_GRAPH[] =
    "graph():\n"
    "    %x : f32[2, 3] [#users=2] = placeholder[target=x]\n"
    "    %my_op : [#users=1] = call_function[target=torch.ops.demo.my_op.default](args = (%x, "
    "0.5), kwargs = {})\n"
    "    %prim_scale : [#users=1] = call_function[target=torch.ops.demo.prim_scale.default](args "
    "= (%my_op,), kwargs = {k: 3})\n"
    "    %my_op_1 : [#users=1] = call_function[target=torch.ops.demo.my_op.default](args = "
    "(%prim_scale, 2.0), kwargs = {})\n"
    "    %tag : [#users=1] = call_function[target=torch.ops.demo.tag.default](args = (%x, 'say "
    "\"hi\"'), kwargs = {})\n"
    "    %sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.default](args = (%tag,), "
    "kwargs = {})\n"
    "    %my_op_2 : [#users=1] = call_function[target=torch.ops.demo.my_op.default](args = "
    "(%my_op_1, 0.5), kwargs = {})\n"
    "    return (my_op_2, sum_1)\n";

/* By TorchAir's rules: rows in order of first call; my_op has no converter
 * (未注册) and two signatures, the one called twice first; prim_scale has
 * one and "prim" in its name (prims); tag's string argument is Python's
 * repr 'say "hi"', whose quotes the csv doubles; a field is quoted only
 * when it holds a comma, quote or newline (sum's 0-d result is not). */
static const char CUSTOM_CSV[] =
    HEADER "demo.my_op.default,aten,未注册,3,\"2次：(float32(2, 3), 0.5)\n"
           "1次：(float32(2, 3), 2.0)\",\"3次：float32(2, 3)\"\r\n"
           "demo.prim_scale.default,prims,已支持,1,\"1次：(float32(2, 3),), {'k': 3}\","
           "\"1次：float32(2, 3)\"\r\n"
           "demo.tag.default,aten,未注册,1,\"1次：(float32(2, 3), 'say \"\"hi\"\"')\","
           "\"1次：float32(2, 3)\"\r\n"
           "aten.sum.default,aten,已支持,1,\"1次：(float32(2, 3),)\",1次：float32()\r\n";

static airc_context *custom_context(void)
{
    airc_context *ctx = new_context(NULL);
    register_op(ctx, "demo::my_op(Tensor x, float alpha) -> Tensor", NULL);
    register_op(ctx, "demo::prim_scale(Tensor x, *, int k=1) -> Tensor", prim_scale_converter);
    register_op(ctx, "demo::tag(Tensor x, str label) -> Tensor", NULL);
    return ctx;
}

/* skip_compile: ops without a converter compile (the summary is there to
 * find them). skip_compile=0: the csv is written, then the compile fails
 * on the first op without a converter. */
static void test_custom_ops(void **state)
{
    (void)state;
    airc_context *ctx = custom_context();
    airc_graph *g = airc_test_parse(ctx, CUSTOM_GRAPH);
    for (int skip = 1; skip >= 0; skip--) {
        char dir[256];
        make_tmpdir(dir, sizeof dir);
        airc_config *cfg = summary_config(ctx, "max-autotune", dir, skip);
        airc_compiled *c = NULL;
        if (skip)
            AIRC_ASSERT_OK(compile_with(g, cfg, NULL, &c));
        else
            AIRC_EXPECT(compile_with(g, cfg, NULL, &c), AIRC_E_UNSUPPORTED,
                        "no Ascend IR converter for demo.my_op.default (node 'my_op')");
        expect_summary(dir, CUSTOM_CSV, sizeof CUSTOM_CSV - 1);
        airc_compiled_destroy(c);
        airc_config_destroy(cfg);
        remove_tree(dir);
    }
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* ---- other modes ------------------------------------------------------------------------ */

typedef struct log_record {
    char text[4096];
} log_record;

static void keep_log(void *user_data, int32_t level, const char *message)
{
    log_record *r = user_data;
    if (level == AIRC_LOG_WARN && strlen(r->text) + strlen(message) + 2 < sizeof r->text) {
        strcat(r->text, message);
        strcat(r->text, "\n");
    }
}

/* reduce-overhead and eager write nothing, say so, and run; max-autotune
 * with skip_compile says the graph is not compiled. */
static void test_other_modes(void **state)
{
    (void)state;
    static const char *const modes[] = {"reduce-overhead", "eager", "max-autotune"};
    airc_context *ctx = new_context(NULL);
    log_record log = {{0}};
    AIRC_ASSERT_OK(airc_context_set_log(ctx, keep_log, &log, NULL));
    AIRC_ASSERT_OK(airc_context_set_log_level(ctx, AIRC_LOG_WARN));
    airc_graph *g = parse_case(ctx, "mlp");
    airc_tensor *x[5], *ref[2];
    mlp_inputs(ctx, x, 0.5f);
    eager_reference(ctx, g, x, ref);
    for (int m = 0; m < 3; m++) {
        char dir[256];
        make_tmpdir(dir, sizeof dir);
        log.text[0] = '\0';
        airc_config *cfg = summary_config(ctx, modes[m], dir, -1);
        airc_example_inputs *in = examples_of(ctx, g);
        airc_compiled *c;
        AIRC_ASSERT_OK(compile_with(g, cfg, in, &c));
        airc_tensor *out[MAXOUT];
        run_mlp(c, x, out);
        expect_close(out[0], ref[0]);
        expect_close(out[1], ref[1]);
        airc_tensor_destroy(out[0]);
        airc_tensor_destroy(out[1]);
        if (m < 2) {
            char want[160];
            snprintf(want, sizeof want, "the fx_summary csv files will not be generated in %s mode",
                     modes[m]);
            if (!strstr(log.text, want))
                print_error("log:\n%s", log.text);
            assert_non_null(strstr(log.text, want));
            expect_no_files(dir);
        } else {
            assert_non_null(strstr(log.text, "skip_compile is on, so the graph is not compiled"));
            char *csv;
            size_t len;
            assert_int_equal(read_summary(dir, &csv, &len), 1);
            free(csv);
        }
        airc_compiled_destroy(c);
        airc_example_inputs_destroy(in);
        airc_config_destroy(cfg);
        remove_tree(dir);
    }
    for (int i = 0; i < 5; i++)
        airc_tensor_destroy(x[i]);
    airc_tensor_destroy(ref[0]);
    airc_tensor_destroy(ref[1]);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* ---- errors ----------------------------------------------------------------------------- */

/* A folder that cannot be made (a file is in the way): airc_compile fails
 * when it writes the csv; without a known signature the first run fails,
 * and the next run tries again. The message names the folder. */
static void test_bad_path(void **state)
{
    (void)state;
    char dir[256], blocked[320], path[400];
    make_tmpdir(dir, sizeof dir);
    snprintf(blocked, sizeof blocked, "%s/file", dir);
    FILE *f = fopen(blocked, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(path, sizeof path, "%s/sub", blocked);
    airc_context *ctx = new_context(NULL);
    airc_graph *typed = parse_case(ctx, "mlp");
    airc_graph *g = untyped(ctx, typed);
    airc_config *cfg = summary_config(ctx, "max-autotune", path, -1);
    char want[512];
    snprintf(want, sizeof want, "debug.fx_summary: cannot create folder '%s'", path);

    airc_compiled *c = (airc_compiled *)0x1;
    AIRC_EXPECT(compile_with(typed, cfg, NULL, &c), AIRC_E_IO, want);
    assert_null(c);

    AIRC_ASSERT_OK(compile_with(g, cfg, NULL, &c));
    airc_tensor *x[5], *out[MAXOUT];
    mlp_inputs(ctx, x, 1.0f);
    size_t n = 0;
    AIRC_EXPECT(airc_compiled_run(c, x, 5, out, MAXOUT, &n), AIRC_E_IO, want);
    AIRC_EXPECT(airc_compiled_run(c, x, 5, out, MAXOUT, &n), AIRC_E_IO, want);
    /* once the folder can be made, the next run writes the csv */
    assert_int_equal(unlink(blocked), 0);
    run_mlp(c, x, out);
    airc_tensor_destroy(out[0]);
    airc_tensor_destroy(out[1]);
    size_t want_len;
    char *csv = case_csv("mlp", &want_len);
    expect_summary(path, csv, want_len);
    free(csv);
    airc_compiled_destroy(c);

    /* a path too long for a file name */
    char *longdir = malloc(5000);
    assert_non_null(longdir);
    memset(longdir, 'd', 4999);
    longdir[4999] = '\0';
    AIRC_ASSERT_OK(airc_config_set(cfg, "debug.fx_summary.path", longdir));
    AIRC_EXPECT(compile_with(typed, cfg, NULL, &c), AIRC_E_INVALID_ARGUMENT,
                "debug.fx_summary: the path of the summary in 'ddd");
    free(longdir);

    for (int i = 0; i < 5; i++)
        airc_tensor_destroy(x[i]);
    airc_config_destroy(cfg);
    airc_graph_destroy(g);
    airc_graph_destroy(typed);
    airc_context_destroy(ctx);
    remove_tree(dir);
}

/* Every allocation of the csv's making fails in turn: AIRC_E_OUT_OF_MEMORY,
 * nothing leaks, and once all succeed the text is the oracle's. Then the
 * same over a whole airc_compile with the summary (skip_compile, so
 * nothing is lowered). */
static void test_failing_allocator(void **state)
{
    (void)state;
    airc_test_alloc st = {0};
    airc_allocator hook;
    airc_test_alloc_init(&st, &hook);
    airc_context *ctx = new_context(&hook);
    airc_graph *g = parse_case(ctx, "multi");
    AIRC_ASSERT_OK(airc_graph_propagate_meta(g));
    size_t want_len;
    char *want = case_csv("multi", &want_len);
    long base = st.live;
    size_t failures = 0;
    for (size_t k = 1;; k++) {
        airc_strbuf sb;
        airc_sb_init(&sb, ctx);
        st.fail_at = st.count + k;
        airc_status s = airc_fx_summary_csv(g, &sb);
        st.fail_at = 0;
        if (s == AIRC_OK) {
            assert_int_equal(sb.len, want_len);
            assert_memory_equal(sb.data, want, want_len);
        }
        airc_sb_free(&sb);
        assert_int_equal(st.live, base);
        if (s == AIRC_OK)
            break;
        assert_int_equal(s, AIRC_E_OUT_OF_MEMORY);
        failures++;
    }
    assert_true(failures >= 5);

    char dir[256];
    make_tmpdir(dir, sizeof dir);
    airc_config *cfg = summary_config(ctx, "max-autotune", dir, -1);
    base = st.live;
    failures = 0;
    for (size_t k = 1;; k++) {
        airc_compiled *c = NULL;
        st.fail_at = st.count + k;
        airc_status s = compile_with(g, cfg, NULL, &c);
        st.fail_at = 0;
        airc_compiled_destroy(c);
        assert_int_equal(st.live, base);
        if (s == AIRC_OK)
            break;
        assert_int_equal(s, AIRC_E_OUT_OF_MEMORY);
        expect_no_files(dir);
        failures++;
    }
    assert_true(failures >= 5);
    expect_summary(dir, want, want_len);
    remove_tree(dir);
    airc_config_destroy(cfg);
    free(want);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
    assert_int_equal(st.live, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_cases),    cmocka_unit_test(test_first_run),
        cmocka_unit_test(test_first_run_views), cmocka_unit_test(test_default_path),
        cmocka_unit_test(test_custom_ops),      cmocka_unit_test(test_other_modes),
        cmocka_unit_test(test_bad_path),        cmocka_unit_test(test_failing_allocator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
