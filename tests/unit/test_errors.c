/* docs/errors.md, tested: every example message the document lists is
 * provoked here through the public API, and its status and text are checked.
 *
 * The document is the table: each example is a line
 *
 *     [ID] message text
 *
 * (indented four spaces) under a "## AIRC_E_NAME" heading. This test reads
 * the document, runs the case named ID below, and checks that the status is
 * the heading's and that airc_last_error() contains the text. A document
 * example without a case, a case without a document example, and a status
 * code without a section all fail, so the two cannot drift apart.
 *
 * AIRC_ERRORS_PRINT=1 prints every case's status and message (to write the
 * document from). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "airc/compile.h"
#include "airc/exec.h"
#include "airc/kernel.h"
#include "airc/passes.h"
#include "airc/plugin.h"
#include "airc/runtime.h"
#include "ir/ir.h"

#define MSG_CAP 4096

/* What a case produced: the failing call's status and message, copied
 * before any cleanup call can replace them. */
typedef struct outcome {
    airc_status status;
    char message[MSG_CAP];
} outcome;

static airc_status record(outcome *o, airc_status st)
{
    o->status = st;
    snprintf(o->message, sizeof o->message, "%s", st == AIRC_OK ? "" : airc_last_error());
    return st;
}

static const char *const HEAD = "graph():\n"
                                "    %x_1 : [#users=1] = placeholder[target=x_1]\n";

/* Parses HEAD + body; NULL (and the failure recorded) when it fails. */
static airc_graph *parse_body(airc_context *ctx, const char *body, outcome *o)
{
    char text[2048];
    snprintf(text, sizeof text, "%s%s", HEAD, body);
    airc_graph *g = NULL;
    if (record(o, airc_graph_parse(ctx, text, strlen(text), "model.fx", &g)) != AIRC_OK)
        return NULL;
    return g;
}

static void parse_text(airc_context *ctx, const char *text, outcome *o)
{
    airc_graph *g = NULL;
    record(o, airc_graph_parse(ctx, text, strlen(text), "model.fx", &g));
    airc_graph_destroy(g);
}

/* ---- AIRC_E_INVALID_ARGUMENT ---------------------------------------------- */

static void case_allocator_struct_size(airc_context *ctx, outcome *o)
{
    (void)ctx;
    airc_allocator a;
    memset(&a, 0, sizeof a);
    airc_context *c = NULL;
    record(o, airc_context_create(&a, &c));
    airc_context_destroy(c);
}

static void case_tensor_negative_dim(airc_context *ctx, outcome *o)
{
    int64_t shape[2] = {2, -3};
    airc_tensor *t = NULL;
    record(o, airc_tensor_create(ctx, AIRC_DTYPE_F32, 2, shape, &t));
    airc_tensor_destroy(t);
}

/* The outcome of setting key = value on a fresh config. */
static void config_set_case(airc_context *ctx, outcome *o, const char *key, const char *value)
{
    airc_config *cfg = NULL;
    assert_int_equal(airc_config_create(ctx, &cfg), AIRC_OK);
    record(o, airc_config_set(cfg, key, value));
    airc_config_destroy(cfg);
}

static void case_config_bad_bool(airc_context *ctx, outcome *o)
{
    config_set_case(ctx, o, "passes.cse", "maybe");
}

static void case_config_bad_mode(airc_context *ctx, outcome *o)
{
    config_set_case(ctx, o, "mode", "fastest");
}

/* ---- AIRC_E_OUT_OF_MEMORY ------------------------------------------------- */

static void case_oom_context(airc_context *ctx, outcome *o)
{
    (void)ctx;
    airc_test_alloc state;
    airc_allocator a;
    airc_test_alloc_init(&state, &a);
    state.fail_at = 1;
    airc_context *c = NULL;
    record(o, airc_context_create(&a, &c));
    airc_context_destroy(c);
}

/* An allocator that refuses blocks over 1 GiB (a sanitizer's allocator
 * would abort on a request the size of the address space). */
static void *small_malloc(void *user_data, size_t size)
{
    (void)user_data;
    return size > ((size_t)1 << 30) ? NULL : malloc(size);
}

static void *small_realloc(void *user_data, void *ptr, size_t size)
{
    (void)user_data;
    return size > ((size_t)1 << 30) ? NULL : realloc(ptr, size);
}

static void small_free(void *user_data, void *ptr)
{
    (void)user_data;
    free(ptr);
}

static void case_oom_tensor(airc_context *ctx, outcome *o)
{
    (void)ctx;
    airc_allocator a = {sizeof a, small_malloc, small_realloc, small_free, NULL};
    airc_context *c = NULL;
    assert_int_equal(airc_context_create(&a, &c), AIRC_OK);
    int64_t shape[3] = {1024, 1024, 1024}; /* 4 GiB of f32 */
    airc_tensor *t = NULL;
    record(o, airc_tensor_create(c, AIRC_DTYPE_F32, 3, shape, &t));
    airc_tensor_destroy(t);
    airc_context_destroy(c);
}

/* ---- AIRC_E_MISUSE -------------------------------------------------------- */

static void case_null_graph(airc_context *ctx, outcome *o)
{
    (void)ctx;
    record(o, airc_graph_lint(NULL));
}

static void case_erased_node(airc_context *ctx, outcome *o)
{
    airc_graph *g = parse_body(ctx,
                               "    %abs_1 : [#users=0] = call_function[target="
                               "torch.ops.aten.abs.default](args = (%x_1,), kwargs = {})\n"
                               "    return x_1\n",
                               o);
    assert_non_null(g);
    airc_node *n = airc_graph_find_node(g, "abs_1");
    assert_int_equal(airc_graph_erase_node(g, n), AIRC_OK);
    record(o, airc_node_set_target(n, "aten.neg.default"));
    airc_graph_destroy(g);
}

/* ---- AIRC_E_PARSE --------------------------------------------------------- */

static void case_parse_header(airc_context *ctx, outcome *o)
{
    parse_text(ctx, "graf():\n    return None\n", o);
}

static void case_parse_unterminated_string(airc_context *ctx, outcome *o)
{
    airc_graph_destroy(
        parse_body(ctx,
                   "    %gelu : [#users=1] = call_function[target=torch.ops.aten.gelu.default]"
                   "(args = (%x_1,), kwargs = {approximate: 'tanh})\n"
                   "    return gelu\n",
                   o));
}

static void case_parse_schema(airc_context *ctx, outcome *o)
{
    airc_schema *s = NULL;
    record(o, airc_schema_parse(ctx, "mylib::f(Tensor x -> Tensor", &s));
    airc_schema_destroy(s);
}

static void case_parse_npy(airc_context *ctx, outcome *o)
{
    static const char junk[] = "not a numpy file";
    airc_tensor *t = NULL;
    record(o, airc_npy_read_buffer(ctx, junk, sizeof junk - 1, "x.npy", &t));
    airc_tensor_destroy(t);
}

/* ---- AIRC_E_NOT_FOUND ----------------------------------------------------- */

static void case_unknown_op(airc_context *ctx, outcome *o)
{
    airc_graph_destroy(
        parse_body(ctx,
                   "    %f : [#users=1] = call_function[target="
                   "torch.ops.aten.frobnicate.default](args = (%x_1,), kwargs = {})\n"
                   "    return f\n",
                   o));
}

static void case_undefined_name(airc_context *ctx, outcome *o)
{
    airc_graph_destroy(parse_body(ctx,
                                  "    %abs_1 : [#users=1] = call_function[target="
                                  "torch.ops.aten.abs.default](args = (%y_1,), kwargs = {})\n"
                                  "    return abs_1\n",
                                  o));
}

static void case_missing_file(airc_context *ctx, outcome *o)
{
    airc_graph *g = NULL;
    record(o, airc_graph_parse_file(ctx, "/nonexistent/airc/model.fx", &g));
    airc_graph_destroy(g);
}

static void case_unknown_config_key(airc_context *ctx, outcome *o)
{
    config_set_case(ctx, o, "passes.frobnicate", "true");
}

static void case_unknown_pass(airc_context *ctx, outcome *o)
{
    airc_pass_manager *pm = NULL;
    assert_int_equal(airc_pass_manager_create(ctx, &pm), AIRC_OK);
    record(o, airc_pass_manager_add_named_pass(pm, "frobnicate"));
    airc_pass_manager_destroy(pm);
}

/* ---- AIRC_E_EXISTS -------------------------------------------------------- */

static void case_op_registered_twice(airc_context *ctx, outcome *o)
{
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = "errdoc::twice(Tensor x) -> Tensor";
    assert_int_equal(airc_context_register_op(ctx, &def, NULL), AIRC_OK);
    record(o, airc_context_register_op(ctx, &def, NULL));
}

static void case_duplicate_node_name(airc_context *ctx, outcome *o)
{
    airc_graph_destroy(parse_body(ctx,
                                  "    %x_1 : [#users=0] = placeholder[target=x_2]\n"
                                  "    return x_1\n",
                                  o));
}

static void case_constant_twice(airc_context *ctx, outcome *o)
{
    airc_graph *g = NULL;
    assert_int_equal(airc_graph_create(ctx, &g), AIRC_OK);
    int64_t shape[1] = {2};
    float data[2] = {1, 2};
    assert_int_equal(
        airc_graph_set_constant(g, "w", AIRC_DTYPE_F32, 1, shape, NULL, data, NULL, NULL), AIRC_OK);
    record(o, airc_graph_set_constant(g, "w", AIRC_DTYPE_F32, 1, shape, NULL, data, NULL, NULL));
    airc_graph_destroy(g);
}

/* ---- AIRC_E_INVALID_GRAPH ------------------------------------------------- */

static void case_lint_arity(airc_context *ctx, outcome *o)
{
    airc_graph *g = parse_body(ctx,
                               "    %abs_1 : [#users=1] = call_function[target="
                               "torch.ops.aten.abs.default](args = (%x_1, %x_1), kwargs = {})\n"
                               "    return abs_1\n",
                               o);
    assert_non_null(g);
    record(o, airc_graph_lint(g));
    airc_graph_destroy(g);
}

static void case_erase_with_users(airc_context *ctx, outcome *o)
{
    airc_graph *g = parse_body(ctx,
                               "    %abs_1 : [#users=1] = call_function[target="
                               "torch.ops.aten.abs.default](args = (%x_1,), kwargs = {})\n"
                               "    return abs_1\n",
                               o);
    assert_non_null(g);
    record(o, airc_graph_erase_node(g, airc_graph_find_node(g, "x_1")));
    airc_graph_destroy(g);
}

static void case_move_before_input(airc_context *ctx, outcome *o)
{
    airc_graph *g = parse_body(ctx,
                               "    %abs_1 : [#users=1] = call_function[target="
                               "torch.ops.aten.abs.default](args = (%x_1,), kwargs = {})\n"
                               "    return abs_1\n",
                               o);
    assert_non_null(g);
    record(o,
           airc_node_move_before(airc_graph_find_node(g, "abs_1"), airc_graph_find_node(g, "x_1")));
    airc_graph_destroy(g);
}

/* ---- AIRC_E_SHAPE --------------------------------------------------------- */

/* Parses `text`, gives its placeholders `shape` (f32), propagates meta. */
static void propagate(airc_context *ctx, const char *text, int32_t ndim, const int64_t *shape,
                      outcome *o)
{
    airc_graph *g = NULL;
    assert_int_equal(airc_graph_parse(ctx, text, strlen(text), "model.fx", &g), AIRC_OK);
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n))
        if (airc_node_get_kind(n) == AIRC_NODE_PLACEHOLDER)
            assert_int_equal(airc_node_set_meta(n, AIRC_DTYPE_F32, ndim, shape, NULL), AIRC_OK);
    record(o, airc_graph_propagate_meta(g));
    airc_graph_destroy(g);
}

static void case_mm_shapes(airc_context *ctx, outcome *o)
{
    int64_t shape[2] = {2, 3};
    propagate(ctx,
              "graph():\n"
              "    %x_1 : [#users=2] = placeholder[target=x_1]\n"
              "    %mm : [#users=1] = call_function[target=torch.ops.aten.mm.default]"
              "(args = (%x_1, %x_1), kwargs = {})\n"
              "    return mm\n",
              2, shape, o);
}

static void case_broadcast(airc_context *ctx, outcome *o)
{
    int64_t shape[1] = {3};
    propagate(ctx,
              "graph():\n"
              "    %x_1 : [#users=1] = placeholder[target=x_1]\n"
              "    %view : [#users=1] = call_function[target=torch.ops.aten.view.default]"
              "(args = (%x_1, [2, 2]), kwargs = {})\n"
              "    return view\n",
              1, shape, o);
}

/* ---- AIRC_E_UNSUPPORTED --------------------------------------------------- */

static void case_npy_dtype(airc_context *ctx, outcome *o)
{
    /* a complex64 .npy (format 1.0) */
    char buf[256];
    const char *hdr = "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }";
    size_t hlen = strlen(hdr);
    size_t total = 10 + hlen + 1;
    size_t pad = (64 - total % 64) % 64;
    size_t n = 0;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    n = 8;
    buf[n++] = (char)((hlen + pad + 1) & 0xff);
    buf[n++] = (char)((hlen + pad + 1) >> 8);
    memcpy(buf + n, hdr, hlen);
    n += hlen;
    memset(buf + n, ' ', pad);
    n += pad;
    buf[n++] = '\n';
    memset(buf + n, 0, 8);
    n += 8;
    airc_tensor *t = NULL;
    record(o, airc_npy_read_buffer(ctx, buf, n, "c.npy", &t));
    airc_tensor_destroy(t);
}

static void case_compile_mode(airc_context *ctx, outcome *o)
{
    airc_graph *g = parse_body(ctx, "    return x_1\n", o);
    assert_non_null(g);
    airc_config *cfg = NULL;
    assert_int_equal(airc_config_create(ctx, &cfg), AIRC_OK);
    assert_int_equal(airc_config_set(cfg, "mode", "max-autotune"), AIRC_OK);
    assert_int_equal(airc_config_set(cfg, "debug.graph_dump.type", "pbtxt"), AIRC_OK);
    assert_int_equal(airc_config_set(cfg, "mode", "reduce-overhead"), AIRC_OK);
    airc_compile_options co;
    airc_compile_options_init(&co);
    co.config = cfg;
    airc_compiled *c = NULL;
    record(o, airc_compile(g, &co, &c));
    airc_compiled_destroy(c);
    airc_config_destroy(cfg);
    airc_graph_destroy(g);
}

/* Runs `body` (after HEAD) eagerly on the CPU runtime with x_1 = input. */
static void run_eager(airc_context *ctx, const char *body, airc_tensor *input, outcome *o)
{
    airc_graph *g = parse_body(ctx, body, o);
    assert_non_null(g);
    airc_runtime *rt = NULL;
    assert_int_equal(airc_cpu_runtime_create(ctx, NULL, &rt), AIRC_OK);
    airc_tensor *outs[4] = {NULL};
    size_t nout = 0;
    record(o, airc_run_eager(g, rt, &input, 1, outs, 4, &nout, NULL));
    for (size_t i = 0; i < nout; i++)
        airc_tensor_destroy(outs[i]);
    airc_runtime_destroy(rt);
    airc_graph_destroy(g);
}

static airc_status kernel_fails(airc_kernel_ctx *k, void *user_data)
{
    (void)k;
    (void)user_data;
    return airc_set_error(AIRC_E_RUNTIME, "errdoc::boom: the device is on fire");
}

/* The meta of a unary op: its result is like its argument. */
static airc_status same_meta(airc_node *node, void *user_data)
{
    (void)user_data;
    airc_dtype dtype;
    int32_t ndim;
    const int64_t *shape;
    airc_status st = airc_value_meta(airc_node_arg(node, 0), &dtype, &ndim, &shape, NULL);
    return st != AIRC_OK ? st : airc_node_set_meta(node, dtype, ndim, shape, NULL);
}

static void case_no_kernel(airc_context *ctx, outcome *o)
{
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = "errdoc::nokernel(Tensor x) -> Tensor";
    def.meta = same_meta;
    assert_int_equal(airc_context_register_op(ctx, &def, NULL), AIRC_OK);
    int64_t shape[1] = {2};
    airc_tensor *x = NULL;
    assert_int_equal(airc_tensor_create(ctx, AIRC_DTYPE_F32, 1, shape, &x), AIRC_OK);
    run_eager(ctx,
              "    %nokernel : [#users=1] = call_function[target=torch.ops.errdoc.nokernel.default]"
              "(args = (%x_1,), kwargs = {})\n"
              "    return nokernel\n",
              x, o);
    airc_tensor_destroy(x);
}

/* ---- AIRC_E_IO ------------------------------------------------------------ */

static void case_npy_write(airc_context *ctx, outcome *o)
{
    int64_t shape[1] = {2};
    airc_tensor *t = NULL;
    assert_int_equal(airc_tensor_create(ctx, AIRC_DTYPE_F32, 1, shape, &t), AIRC_OK);
    record(o, airc_npy_write(t, "/nonexistent/airc/out.npy"));
    airc_tensor_destroy(t);
}

static void case_read_directory(airc_context *ctx, outcome *o)
{
    airc_graph *g = NULL;
    record(o, airc_graph_parse_file(ctx, "/", &g));
    airc_graph_destroy(g);
}

static void case_plugin_missing(airc_context *ctx, outcome *o)
{
    record(o, airc_context_load_plugin(ctx, "/nonexistent/airc/libplugin.so"));
}

/* ---- AIRC_E_PASS ---------------------------------------------------------- */

static airc_status pass_fails(airc_graph *g, const airc_example_inputs *in, const airc_config *cfg,
                              void *user_data)
{
    (void)g;
    (void)in;
    (void)cfg;
    (void)user_data;
    return airc_pass_fail(AIRC_E_INVALID_ARGUMENT, "no stream label on the first node");
}

static airc_status pass_breaks_graph(airc_graph *g, const airc_example_inputs *in,
                                     const airc_config *cfg, void *user_data)
{
    (void)in;
    (void)cfg;
    (void)user_data;
    /* a second output node: the graph no longer lints */
    const airc_value *v = NULL;
    airc_node *out = NULL;
    airc_status st = airc_value_node(g, airc_graph_find_node(g, "x_1"), &v);
    return st != AIRC_OK ? st : airc_graph_output(g, v, &out);
}

static void run_pass(airc_context *ctx, airc_pass_fn fn, const char *name, outcome *o)
{
    airc_graph *g = parse_body(ctx, "    return x_1\n", o);
    assert_non_null(g);
    airc_pass_manager *pm = NULL;
    assert_int_equal(airc_pass_manager_create(ctx, &pm), AIRC_OK);
    assert_int_equal(airc_pass_manager_add_pass(pm, name, fn, NULL, NULL), AIRC_OK);
    record(o, airc_pass_manager_run(pm, g, NULL, NULL, NULL));
    airc_pass_manager_destroy(pm);
    airc_graph_destroy(g);
}

static void case_pass_failed(airc_context *ctx, outcome *o)
{
    run_pass(ctx, pass_fails, "multistream", o);
}

static void case_pass_invalid_graph(airc_context *ctx, outcome *o)
{
    run_pass(ctx, pass_breaks_graph, "my_fusion", o);
}

/* ---- AIRC_E_RUNTIME ------------------------------------------------------- */

static void case_index_out_of_range(airc_context *ctx, outcome *o)
{
    int64_t shape[1] = {3};
    airc_tensor *idx = NULL;
    assert_int_equal(airc_tensor_create(ctx, AIRC_DTYPE_I64, 1, shape, &idx), AIRC_OK);
    int64_t *d = airc_tensor_data(idx);
    d[0] = 0;
    d[1] = 7;
    d[2] = 1;
    run_eager(ctx,
              "    %ones : [#users=1] = call_function[target=torch.ops.aten.ones.default]"
              "(args = ([4, 2],), kwargs = {})\n"
              "    %emb : [#users=1] = call_function[target=torch.ops.aten.embedding.default]"
              "(args = (%ones, %x_1), kwargs = {})\n"
              "    return emb\n",
              idx, o);
    airc_tensor_destroy(idx);
}

static void case_kernel_failed(airc_context *ctx, outcome *o)
{
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = "errdoc::boom(Tensor x) -> Tensor";
    def.meta = same_meta;
    assert_int_equal(airc_context_register_op(ctx, &def, NULL), AIRC_OK);
    assert_int_equal(
        airc_context_set_op_kernel(ctx, "errdoc.boom.default", "cpu", kernel_fails, NULL, NULL),
        AIRC_OK);
    int64_t shape[1] = {2};
    airc_tensor *x = NULL;
    assert_int_equal(airc_tensor_create(ctx, AIRC_DTYPE_F32, 1, shape, &x), AIRC_OK);
    run_eager(ctx,
              "    %boom : [#users=1] = call_function[target=torch.ops.errdoc.boom.default]"
              "(args = (%x_1,), kwargs = {})\n"
              "    return boom\n",
              x, o);
    airc_tensor_destroy(x);
}

/* ---- AIRC_E_INTERNAL ------------------------------------------------------ */

/* No public call reaches an internal error on a sound graph: this case
 * breaks an invariant behind the API's back (the live-node count) and
 * asks lint, which checks the invariants, to find it. */
static void case_corrupt_graph(airc_context *ctx, outcome *o)
{
    airc_graph *g = parse_body(ctx, "    return x_1\n", o);
    assert_non_null(g);
    g->nnodes++;
    record(o, airc_graph_lint(g));
    g->nnodes--;
    airc_graph_destroy(g);
}

/* ---- the table ------------------------------------------------------------ */

typedef struct error_case {
    const char *id;
    void (*run)(airc_context *ctx, outcome *o);
} error_case;

static const error_case CASES[] = {
    {"allocator-struct-size", case_allocator_struct_size},
    {"tensor-negative-dim", case_tensor_negative_dim},
    {"config-bad-bool", case_config_bad_bool},
    {"config-bad-mode", case_config_bad_mode},
    {"oom-context", case_oom_context},
    {"oom-tensor", case_oom_tensor},
    {"null-graph", case_null_graph},
    {"erased-node", case_erased_node},
    {"parse-header", case_parse_header},
    {"parse-unterminated-string", case_parse_unterminated_string},
    {"parse-schema", case_parse_schema},
    {"parse-npy", case_parse_npy},
    {"unknown-op", case_unknown_op},
    {"undefined-name", case_undefined_name},
    {"missing-file", case_missing_file},
    {"unknown-config-key", case_unknown_config_key},
    {"unknown-pass", case_unknown_pass},
    {"op-registered-twice", case_op_registered_twice},
    {"duplicate-node-name", case_duplicate_node_name},
    {"constant-twice", case_constant_twice},
    {"lint-arity", case_lint_arity},
    {"erase-with-users", case_erase_with_users},
    {"move-before-input", case_move_before_input},
    {"mm-shapes", case_mm_shapes},
    {"view-shape", case_broadcast},
    {"npy-dtype", case_npy_dtype},
    {"compile-dump-mode", case_compile_mode},
    {"no-kernel", case_no_kernel},
    {"npy-write", case_npy_write},
    {"read-directory", case_read_directory},
    {"plugin-missing", case_plugin_missing},
    {"pass-failed", case_pass_failed},
    {"pass-invalid-graph", case_pass_invalid_graph},
    {"index-out-of-range", case_index_out_of_range},
    {"kernel-failed", case_kernel_failed},
    {"corrupt-graph", case_corrupt_graph},
};
#define NCASES (sizeof CASES / sizeof CASES[0])

static const error_case *find_case(const char *id)
{
    for (size_t i = 0; i < NCASES; i++)
        if (!strcmp(CASES[i].id, id))
            return &CASES[i];
    return NULL;
}

static void run_case(const error_case *c, outcome *o)
{
    airc_context *ctx = NULL;
    assert_int_equal(airc_context_create(NULL, &ctx), AIRC_OK);
    airc_context_set_log_level(ctx, AIRC_LOG_ERROR);
    memset(o, 0, sizeof *o);
    c->run(ctx, o);
    airc_context_destroy(ctx);
}

/* ---- docs/errors.md ------------------------------------------------------- */

typedef struct doc_example {
    char id[64];
    airc_status status; /* of the section it is in */
    char text[MSG_CAP];
    int line;
} doc_example;

/* The status named by a "## AIRC_E_NAME ..." heading; -1 when the heading
 * names none. */
static airc_status heading_status(const char *line)
{
    for (airc_status s = 1; s < 64; s++) {
        const char *name = airc_status_name(s);
        if (!strcmp(name, "AIRC_E_UNKNOWN"))
            return -1;
        size_t n = strlen(name);
        if (!strncmp(line + 3, name, n) && (line[3 + n] == ' ' || line[3 + n] == '\0'))
            return s;
    }
    return -1;
}

/* Reads every "    [ID] text" line of docs/errors.md. */
static size_t read_doc(doc_example *out, size_t cap)
{
    size_t len = 0;
    char *doc = airc_test_read_file(AIRC_SOURCE_DIR "/docs/errors.md", &len);
    assert_non_null(doc);
    size_t n = 0;
    airc_status section = -1;
    int lineno = 0;
    for (char *line = doc, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        if (!strncmp(line, "## ", 3))
            section = heading_status(line);
        if (strncmp(line, "    [", 5))
            continue;
        char *close = strstr(line, "] ");
        if (!close) {
            print_error("docs/errors.md:%d: an example is '    [ID] text'\n", lineno);
            fail();
        }
        if (section < 0) {
            print_error("docs/errors.md:%d: example outside an AIRC_E_* section\n", lineno);
            fail();
        }
        assert_true(n < cap);
        doc_example *e = &out[n++];
        snprintf(e->id, sizeof e->id, "%.*s", (int)(close - line - 5), line + 5);
        snprintf(e->text, sizeof e->text, "%s", close + 2);
        e->status = section;
        e->line = lineno;
    }
    free(doc);
    return n;
}

static void test_doc_examples(void **state)
{
    (void)state;
    static doc_example ex[256];
    size_t n = read_doc(ex, 256);
    int bad = 0;
    bool seen_status[64] = {false};
    bool seen_case[NCASES];
    memset(seen_case, 0, sizeof seen_case);
    for (size_t i = 0; i < n; i++) {
        const error_case *c = find_case(ex[i].id);
        if (!c) {
            print_error("docs/errors.md:%d: no test case '%s' in test_errors.c\n", ex[i].line,
                        ex[i].id);
            bad++;
            continue;
        }
        seen_case[c - CASES] = true;
        seen_status[ex[i].status] = true;
        outcome o;
        run_case(c, &o);
        if (o.status != ex[i].status) {
            print_error("docs/errors.md:%d: [%s] returned %s, the section is %s (%s)\n", ex[i].line,
                        ex[i].id, airc_status_name(o.status), airc_status_name(ex[i].status),
                        o.message);
            bad++;
        } else if (!strstr(o.message, ex[i].text)) {
            print_error("docs/errors.md:%d: [%s] message\n  '%s'\ndoes not contain\n  '%s'\n",
                        ex[i].line, ex[i].id, o.message, ex[i].text);
            bad++;
        }
    }
    for (size_t i = 0; i < NCASES; i++)
        if (!seen_case[i]) {
            print_error("test case '%s' has no example in docs/errors.md\n", CASES[i].id);
            bad++;
        }
    for (airc_status s = AIRC_E_INVALID_ARGUMENT; s <= AIRC_E_INTERNAL; s++)
        if (!seen_status[s]) {
            print_error("docs/errors.md: no example for %s\n", airc_status_name(s));
            bad++;
        }
    assert_int_equal(bad, 0);
}

/* Every code of the enum has a name (the headings are looked up by it). */
static void test_status_names(void **state)
{
    (void)state;
    for (airc_status s = AIRC_E_INVALID_ARGUMENT; s <= AIRC_E_INTERNAL; s++)
        assert_string_not_equal(airc_status_name(s), "AIRC_E_UNKNOWN");
    assert_string_equal(airc_status_name(AIRC_E_INTERNAL + 1), "AIRC_E_UNKNOWN");
}

int main(void)
{
    if (getenv("AIRC_ERRORS_PRINT")) {
        for (size_t i = 0; i < NCASES; i++) {
            outcome o;
            run_case(&CASES[i], &o);
            printf("[%s] %s\n    %s\n", CASES[i].id, airc_status_name(o.status), o.message);
        }
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_names),
        cmocka_unit_test(test_doc_examples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
