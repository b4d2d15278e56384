/* Custom ops on the Ascend IR side: a functional op and an in-place op with
 * converters that emit custom GE types (MyOp; MyInplace, whose output is
 * named like the input it overwrites), declared to the reference executor
 * with airc_context_set_ge_op, compiled in max-autotune and compared with
 * eager; the model's ops and dumps; attributes mapped to arguments by name
 * (defaults, absent optional inputs, keyword arguments after a default);
 * a context's declaration overriding a built-in type; and the errors:
 * no meta function (every graph mode), no converter (max-autotune), a
 * custom type nobody declared, bad declarations, models whose custom ops
 * do not fit the declared op. */
#include "testutil.h"

#include "backends/ge/dump.h"
#include "backends/ge/ge_model.pb-c.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXOUT 4

/* ---- the ops ------------------------------------------------------------------ */

static double float_arg(const airc_value *v, double dflt)
{
    double d = dflt;
    int64_t i;
    if (v && airc_value_get_float(v, &d) != AIRC_OK && airc_value_get_int(v, &i) == AIRC_OK)
        d = (double)i;
    return d;
}

static size_t numel_of(const airc_tview *t)
{
    size_t n = 1;
    for (int32_t d = 0; d < t->ndim; d++)
        n *= (size_t)t->shape[d];
    return n;
}

/* The tests' tensors are contiguous f32. */
static bool contiguous_f32(const airc_tview *t)
{
    if (!t || t->dtype != AIRC_DTYPE_F32)
        return false;
    int64_t s = 1;
    for (int32_t d = t->ndim - 1; d >= 0; d--) {
        if (t->shape[d] != 1 && t->strides[d] != s)
            return false;
        s *= t->shape[d];
    }
    return true;
}

/* demo::my_op(Tensor x, float alpha) -> Tensor: x * alpha + 1 */
static airc_status my_op_kernel(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x = airc_kernel_input(k, 0);
    airc_tview *y = airc_kernel_output(k, 0);
    if (!contiguous_f32(x) || !contiguous_f32(y))
        return airc_set_error(AIRC_E_UNSUPPORTED, "my_op: contiguous f32 only");
    double a = float_arg(airc_kernel_arg(k, 1), 1.0);
    for (size_t i = 0; i < numel_of(x); i++)
        ((float *)y->data)[i] = (float)(((const float *)x->data)[i] * a + 1.0);
    return AIRC_OK;
}

/* demo::my_inplace(Tensor(a!) x, float alpha) -> (): x = relu(x) * alpha */
static airc_status my_inplace_kernel(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    airc_tview *x = (airc_tview *)airc_kernel_input(k, 0);
    if (!contiguous_f32(x))
        return airc_set_error(AIRC_E_UNSUPPORTED, "my_inplace: contiguous f32 only");
    double a = float_arg(airc_kernel_arg(k, 1), 1.0);
    float *p = x->data;
    for (size_t i = 0; i < numel_of(x); i++)
        p[i] = (float)((p[i] > 0 ? p[i] : 0) * a);
    return AIRC_OK;
}

/* demo::axpb(Tensor x, Tensor? b, int k=2, float s=1.0) -> Tensor: x*k*s + b */
static airc_status axpb_kernel(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x = airc_kernel_input(k, 0);
    const airc_tview *b = airc_kernel_input(k, 1);
    airc_tview *y = airc_kernel_output(k, 0);
    if (!contiguous_f32(x) || !contiguous_f32(y) || (b && !contiguous_f32(b)))
        return airc_set_error(AIRC_E_UNSUPPORTED, "axpb: contiguous f32 only");
    int64_t kk = 0;
    AIRC_ASSERT_OK(airc_value_get_int(airc_kernel_arg(k, 2), &kk));
    double s = float_arg(airc_kernel_arg(k, 3), 1.0);
    for (size_t i = 0; i < numel_of(x); i++)
        ((float *)y->data)[i] = (float)(((const float *)x->data)[i] * (double)kk * s +
                                        (b ? ((const float *)b->data)[i] : 0.0f));
    return AIRC_OK;
}

static airc_status like_x_meta(airc_node *n, void *ud)
{
    (void)ud;
    airc_dtype dt;
    int32_t nd;
    const int64_t *shape;
    AIRC_TRY(airc_value_meta(airc_node_arg(n, 0), &dt, &nd, &shape, NULL));
    return airc_node_set_meta(n, dt, nd, shape, NULL);
}

static airc_status no_result_meta(airc_node *n, void *ud)
{
    (void)ud;
    return airc_node_set_meta_tuple(n, 0);
}

/* Emits `type` with input "x" (and "b" for Axpb), attribute alpha/s from
 * argument `attr_arg`, and one output named out_name. */
typedef struct emit_spec {
    const char *type;
    const char *out_name;
    const char *attr;
    size_t attr_arg;
    bool with_b;
} emit_spec;

static airc_status emit_converter(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    const emit_spec *e = ud;
    airc_ge_tensor x, y;
    airc_ge_op *op;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    AIRC_TRY(airc_ge_op_create(b, e->type, &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    if (e->with_b) {
        airc_ge_tensor bt;
        if (airc_ge_input(b, 1, &bt) == AIRC_OK)
            AIRC_TRY(airc_ge_op_input(op, "b", bt));
        else
            AIRC_TRY(airc_ge_op_input_absent(op, "b"));
    }
    AIRC_TRY(airc_ge_op_attr_float(op, e->attr, float_arg(airc_ge_arg(b, e->attr_arg), 1.0)));
    AIRC_TRY(airc_ge_op_output_like_node(op, e->out_name, 0, &y));
    return airc_ge_set_result(b, 0, y);
}

static const emit_spec MY_OP_EMIT = {"MyOp", "y", "alpha", 1, false};
static const emit_spec MY_INPLACE_EMIT = {"MyInplace", "x", "alpha", 1, false};
static const emit_spec AXPB_EMIT = {"Axpb", "y", "s", 3, true};

static void register_op(airc_context *ctx, const char *schema, airc_meta_fn meta,
                        airc_kernel_fn kernel, const emit_spec *conv)
{
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = schema;
    def.meta = meta;
    const airc_op *op;
    AIRC_ASSERT_OK(airc_context_register_op(ctx, &def, &op));
    if (kernel)
        AIRC_ASSERT_OK(
            airc_context_set_op_kernel(ctx, airc_op_name(op), "cpu", kernel, NULL, NULL));
    if (conv)
        AIRC_ASSERT_OK(airc_context_set_op_converter(ctx, airc_op_name(op), emit_converter,
                                                     (void *)conv, NULL));
}

static airc_context *make_context(void)
{
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    register_op(ctx, "demo::my_op(Tensor x, float alpha) -> Tensor", like_x_meta, my_op_kernel,
                &MY_OP_EMIT);
    register_op(ctx, "demo::my_inplace(Tensor(a!) x, float alpha) -> ()", no_result_meta,
                my_inplace_kernel, &MY_INPLACE_EMIT);
    register_op(ctx, "demo::axpb(Tensor x, Tensor? b, int k=2, float s=1.0) -> Tensor", like_x_meta,
                axpb_kernel, &AXPB_EMIT);
    return ctx;
}

/* ---- helpers -------------------------------------------------------------------- */

static airc_tensor *ramp(airc_context *ctx, int64_t rows, int64_t cols, float start)
{
    int64_t shape[2] = {rows, cols};
    airc_tensor *t;
    AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_F32, 2, shape, &t));
    float *p = airc_tensor_data(t);
    for (int64_t i = 0; i < rows * cols; i++)
        p[i] = start + 0.25f * (float)i;
    return t;
}

static airc_status compile_mode(const airc_graph *g, const char *mode, airc_tensor *const *ex,
                                size_t nex, airc_compiled **out)
{
    airc_context *ctx = airc_graph_context(g);
    airc_config *cfg;
    AIRC_ASSERT_OK(airc_config_create(ctx, &cfg));
    AIRC_ASSERT_OK(airc_config_set(cfg, "mode", mode));
    airc_example_inputs *in = NULL;
    if (ex) {
        AIRC_ASSERT_OK(airc_example_inputs_create(ctx, &in));
        for (size_t i = 0; i < nex; i++)
            AIRC_ASSERT_OK(airc_example_inputs_add_tensor(in, ex[i]));
    }
    airc_compile_options o;
    airc_compile_options_init(&o);
    o.config = cfg;
    o.example_inputs = in;
    airc_status st = airc_compile(g, &o, out);
    airc_example_inputs_destroy(in);
    airc_config_destroy(cfg);
    return st;
}

static void expect_close(const airc_tensor *got, const float *want, size_t n)
{
    assert_int_equal(airc_tensor_dtype(got), AIRC_DTYPE_F32);
    assert_int_equal(airc_tensor_numel(got), n);
    const float *p = airc_tensor_data(got);
    for (size_t i = 0; i < n; i++)
        if (fabsf(p[i] - want[i]) > 1e-5f * (1.0f + fabsf(want[i]))) {
            print_error("element %zu: got %g, want %g\n", i, (double)p[i], (double)want[i]);
            fail();
        }
}

static void destroy_all(airc_tensor **t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        airc_tensor_destroy(t[i]);
}

static const Ge__Proto__OpDef *find_type(const Ge__Proto__ModelDef *m, const char *type)
{
    const Ge__Proto__GraphDef *g = m->graph[0];
    for (size_t i = 0; i < g->n_op; i++)
        if (!strcmp(g->op[i]->type, type))
            return g->op[i];
    return NULL;
}

static char *dump_text(airc_context *ctx, const Ge__Proto__GraphDef *g, bool pbtxt)
{
    airc_strbuf sb;
    airc_sb_init(&sb, ctx);
    AIRC_ASSERT_OK(pbtxt ? airc_ge_dump_pbtxt(g, &sb) : airc_ge_dump_txt(g, &sb));
    char *s = strdup(airc_sb_cstr(&sb));
    airc_sb_free(&sb);
    assert_non_null(s);
    return s;
}

/* Compiles g in max-autotune with inputs, runs it, compares with want and
 * with airc_model_read + airc_run_eager of the model's bytes; returns the
 * unpacked model (free with ge__proto__model_def__free_unpacked). */
static Ge__Proto__ModelDef *check_max_autotune(const airc_graph *g, airc_tensor *const *in,
                                               size_t nin, const float *want, size_t n)
{
    airc_context *ctx = airc_graph_context(g);
    airc_compiled *c;
    AIRC_ASSERT_OK(compile_mode(g, "max-autotune", in, nin, &c));
    airc_tensor *outs[MAXOUT];
    size_t nout;
    AIRC_ASSERT_OK(airc_compiled_run(c, in, nin, outs, MAXOUT, &nout));
    assert_int_equal(nout, 1);
    expect_close(outs[0], want, n);
    destroy_all(outs, nout);
    const uint8_t *bytes;
    size_t len;
    AIRC_ASSERT_OK(airc_compiled_model(c, &bytes, &len));
    Ge__Proto__ModelDef *m = ge__proto__model_def__unpack(NULL, len, bytes);
    assert_non_null(m);
    airc_graph *back;
    AIRC_ASSERT_OK(airc_model_read(ctx, bytes, len, &back));
    AIRC_ASSERT_OK(airc_run_eager(back, NULL, in, nin, outs, MAXOUT, &nout, NULL));
    assert_int_equal(nout, 1);
    expect_close(outs[0], want, n);
    destroy_all(outs, nout);
    airc_graph_destroy(back);
    airc_compiled_destroy(c);
    return m;
}

/* Packs m, reads it back with airc_model_read, expects code + needle. */
static void expect_read(airc_context *ctx, const Ge__Proto__ModelDef *m, airc_status code,
                        const char *needle)
{
    size_t len = ge__proto__model_def__get_packed_size(m);
    uint8_t *buf = malloc(len + 1);
    assert_non_null(buf);
    assert_int_equal(ge__proto__model_def__pack(m, buf), len);
    airc_graph *g = NULL;
    AIRC_EXPECT(airc_model_read(ctx, buf, len, &g), code, needle);
    assert_null(g);
    free(buf);
}

/* ---- functional op ---------------------------------------------------------------- */

static const char MY_OP_FX[] =
    "graph():\n"
    "    %x : [#users=1] = placeholder[target=x]\n"
    "    %my_op : [#users=1] = call_function[target=torch.ops.demo.my_op.default](args = (%x, "
    "2.0), kwargs = {})\n"
    "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%my_op, "
    "1), kwargs = {})\n"
    "    return (add,)\n";

static void test_functional_op(void **state)
{
    (void)state;
    airc_context *ctx = make_context();
    AIRC_ASSERT_OK(airc_context_set_ge_op(ctx, "MyOp", "demo.my_op.default"));
    airc_graph *g = airc_test_parse(ctx, MY_OP_FX);
    airc_tensor *x = ramp(ctx, 3, 5, -2.0f);
    float want[15];
    for (size_t i = 0; i < 15; i++)
        want[i] = ((float *)airc_tensor_data(x))[i] * 2.0f + 1.0f + 1.0f;
    /* eager agrees with the plain C reference */
    airc_tensor *outs[MAXOUT];
    size_t nout;
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, &x, 1, outs, MAXOUT, &nout, NULL));
    expect_close(outs[0], want, 15);
    destroy_all(outs, nout);

    Ge__Proto__ModelDef *m = check_max_autotune(g, &x, 1, want, 15);
    const Ge__Proto__OpDef *op = find_type(m, "MyOp");
    assert_non_null(op);
    assert_string_equal(op->name, "my_op");
    assert_int_equal(op->n_input, 1);
    assert_int_equal(op->n_output_desc, 1);
    assert_string_equal(op->input_desc[0]->name, "x");
    assert_string_equal(op->output_desc[0]->name, "y");
    bool found = false;
    for (size_t i = 0; i < op->n_attr; i++)
        if (!strcmp(op->attr[i]->key, "alpha")) {
            assert_int_equal(op->attr[i]->value->value_case, GE__PROTO__ATTR_DEF__VALUE_F);
            assert_true(op->attr[i]->value->f == 2.0f);
            found = true;
        }
    assert_true(found);
    ge__proto__model_def__free_unpacked(m, NULL);

    /* reduce-overhead and eager modes give the same */
    static const char *const modes[] = {"reduce-overhead", "eager"};
    for (int i = 0; i < 2; i++) {
        airc_compiled *c;
        AIRC_ASSERT_OK(compile_mode(g, modes[i], NULL, 0, &c));
        AIRC_ASSERT_OK(airc_compiled_run(c, &x, 1, outs, MAXOUT, &nout));
        expect_close(outs[0], want, 15);
        destroy_all(outs, nout);
        airc_compiled_destroy(c);
    }
    airc_tensor_destroy(x);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* ---- in-place op ------------------------------------------------------------------ */

static const char MY_INPLACE_FX[] =
    "graph():\n"
    "    %x : [#users=1] = placeholder[target=x]\n"
    "    %add : [#users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%x, 1), "
    "kwargs = {})\n"
    "    %my_inplace : [#users=0] = call_function[target=torch.ops.demo.my_inplace.default]("
    "args = (%add, 0.5), kwargs = {})\n"
    "    return (add,)\n";

static void test_inplace_op(void **state)
{
    (void)state;
    airc_context *ctx = make_context();
    AIRC_ASSERT_OK(airc_context_set_ge_op(ctx, "MyInplace", "demo.my_inplace.default"));
    airc_graph *g = airc_test_parse(ctx, MY_INPLACE_FX);
    airc_tensor *x = ramp(ctx, 4, 3, -1.5f);
    float want[12];
    for (size_t i = 0; i < 12; i++) {
        float v = ((float *)airc_tensor_data(x))[i] + 1.0f;
        want[i] = (v > 0 ? v : 0) * 0.5f;
    }
    airc_tensor *outs[MAXOUT];
    size_t nout;
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, &x, 1, outs, MAXOUT, &nout, NULL));
    expect_close(outs[0], want, 12);
    destroy_all(outs, nout);

    Ge__Proto__ModelDef *m = check_max_autotune(g, &x, 1, want, 12);
    /* the in-place IR: its output is named like the input it overwrites */
    const Ge__Proto__OpDef *op = find_type(m, "MyInplace");
    assert_non_null(op);
    assert_int_equal(op->n_input, 1);
    assert_int_equal(op->n_input_desc, 1);
    assert_int_equal(op->n_output_desc, 1);
    assert_string_equal(op->input_desc[0]->name, "x");
    assert_string_equal(op->output_desc[0]->name, "x");
    char *txt = dump_text(ctx, m->graph[0], false);
    assert_non_null(strstr(txt, "type: \"MyInplace\""));
    assert_non_null(strstr(txt, "input_desc {\n    name: \"x\""));
    assert_non_null(strstr(txt, "output_desc {\n    name: \"x\""));
    free(txt);
    char *pbtxt = dump_text(ctx, m->graph[0], true);
    assert_non_null(strstr(pbtxt, "op: \"MyInplace\""));
    assert_non_null(strstr(pbtxt, "[i]x"));
    assert_non_null(strstr(pbtxt, "[o]x"));
    free(pbtxt);
    ge__proto__model_def__free_unpacked(m, NULL);

    static const char *const modes[] = {"reduce-overhead", "eager"};
    for (int i = 0; i < 2; i++) {
        airc_compiled *c;
        AIRC_ASSERT_OK(compile_mode(g, modes[i], NULL, 0, &c));
        AIRC_ASSERT_OK(airc_compiled_run(c, &x, 1, outs, MAXOUT, &nout));
        expect_close(outs[0], want, 12);
        destroy_all(outs, nout);
        airc_compiled_destroy(c);
    }
    /* no converter for the in-place op: the error names it, not its twin */
    airc_context *bare;
    AIRC_ASSERT_OK(airc_context_create(NULL, &bare));
    register_op(bare, "demo::my_inplace(Tensor(a!) x, float alpha) -> ()", no_result_meta,
                my_inplace_kernel, NULL);
    airc_graph *g2 = airc_test_parse(bare, MY_INPLACE_FX);
    airc_compiled *c = NULL;
    AIRC_EXPECT(compile_mode(g2, "max-autotune", NULL, 0, &c), AIRC_E_UNSUPPORTED,
                "no Ascend IR converter for demo.my_inplace.default (node '");
    assert_null(c);
    assert_non_null(strstr(airc_last_error(), "(needed by max-autotune)"));
    airc_graph_destroy(g2);
    airc_context_destroy(bare);

    airc_tensor_destroy(x);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* ---- attributes to arguments -------------------------------------------------------- */

static void test_attributes_and_defaults(void **state)
{
    (void)state;
    airc_context *ctx = make_context();
    AIRC_ASSERT_OK(airc_context_set_ge_op(ctx, "Axpb", "demo::axpb"));
    /* k is not an attribute (default 2 is used), s is (after the gap: a
     * keyword), b is present in one graph and absent in the other */
    static const char with_b[] =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %b : [#users=1] = placeholder[target=b]\n"
        "    %axpb : [#users=1] = call_function[target=torch.ops.demo.axpb.default](args = (%x, "
        "%b), kwargs = {s: 1.5})\n"
        "    return (axpb,)\n";
    static const char without_b[] =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %axpb : [#users=1] = call_function[target=torch.ops.demo.axpb.default](args = (%x, "
        "None), kwargs = {s: 0.5})\n"
        "    return (axpb,)\n";
    airc_tensor *in[2] = {ramp(ctx, 2, 4, -1.0f), ramp(ctx, 2, 4, 3.0f)};
    float want[8];
    for (int pass = 0; pass < 2; pass++) {
        double s = pass ? 0.5 : 1.5;
        for (size_t i = 0; i < 8; i++)
            want[i] = (float)(((float *)airc_tensor_data(in[0]))[i] * 2 * s +
                              (pass ? 0.0f : ((float *)airc_tensor_data(in[1]))[i]));
        airc_graph *g = airc_test_parse(ctx, pass ? without_b : with_b);
        Ge__Proto__ModelDef *m = check_max_autotune(g, in, pass ? 1 : 2, want, 8);
        const Ge__Proto__OpDef *op = find_type(m, "Axpb");
        assert_non_null(op);
        assert_int_equal(op->n_input, 2);
        assert_string_equal(op->input[1], pass ? "" : "b:0");

        /* a required attribute missing, an attribute of the wrong kind,
         * too many inputs, an output too many */
        Ge__Proto__OpDef *w = (Ge__Proto__OpDef *)op;
        Ge__Proto__AttrDef *a = NULL;
        for (size_t i = 0; i < w->n_attr; i++)
            if (!strcmp(w->attr[i]->key, "s"))
                a = w->attr[i]->value;
        assert_non_null(a);
        a->value_case = GE__PROTO__ATTR_DEF__VALUE_B;
        expect_read(ctx, m, AIRC_E_INVALID_GRAPH,
                    "op 'axpb' (Axpb, declared as demo.axpb.default): attribute 's' is a bool, "
                    "which does not fit argument type float");
        a->value_case = GE__PROTO__ATTR_DEF__VALUE_F;
        size_t nout = w->n_output_desc;
        w->n_output_desc = 2;
        Ge__Proto__TensorDescriptor *descs[2] = {w->output_desc[0], w->output_desc[0]};
        Ge__Proto__TensorDescriptor **old = w->output_desc;
        w->output_desc = descs;
        expect_read(ctx, m, AIRC_E_INVALID_GRAPH, "2 outputs, but demo.axpb.default returns 1");
        w->output_desc = old;
        w->n_output_desc = nout;
        char *ins[3] = {w->input[0], w->input[1], w->input[0]};
        char **old_in = w->input;
        w->input = ins;
        w->n_input = 3;
        expect_read(ctx, m, AIRC_E_INVALID_GRAPH,
                    "3 data inputs, but demo.axpb.default takes 2 tensors");
        ins[0] = (char *)"";
        w->n_input = 2;
        expect_read(ctx, m, AIRC_E_INVALID_GRAPH, "input 0 (argument 'x') is absent");
        w->input = old_in;
        ge__proto__model_def__free_unpacked(m, NULL);
        airc_graph_destroy(g);
    }
    destroy_all(in, 2);

    /* a required attribute with no default: my_op's alpha */
    AIRC_ASSERT_OK(airc_context_set_ge_op(ctx, "MyOp", "demo.my_op.default"));
    airc_graph *g = airc_test_parse(ctx, MY_OP_FX);
    airc_tensor *x = ramp(ctx, 2, 2, 0.0f);
    airc_compiled *c;
    AIRC_ASSERT_OK(compile_mode(g, "max-autotune", &x, 1, &c));
    const uint8_t *bytes;
    size_t len;
    AIRC_ASSERT_OK(airc_compiled_model(c, &bytes, &len));
    Ge__Proto__ModelDef *m = ge__proto__model_def__unpack(NULL, len, bytes);
    assert_non_null(m);
    Ge__Proto__OpDef *op = (Ge__Proto__OpDef *)find_type(m, "MyOp");
    size_t nattr = op->n_attr;
    op->n_attr = 0;
    expect_read(ctx, m, AIRC_E_INVALID_GRAPH,
                "op 'my_op' (MyOp, declared as demo.my_op.default): attribute 'alpha' (float) is "
                "missing");
    op->n_attr = nattr;
    ge__proto__model_def__free_unpacked(m, NULL);
    airc_compiled_destroy(c);
    airc_tensor_destroy(x);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* A context's declaration wins over the built-in type of that name. */
static void test_override_builtin_type(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    static const char text[] = "graph():\n"
                               "    %x : [#users=1] = placeholder[target=x]\n"
                               "    %abs : [#users=1] = call_function[target=torch.ops.aten.abs."
                               "default](args = (%x,), kwargs = {})\n"
                               "    return (abs,)\n";
    airc_graph *g = airc_test_parse(ctx, text);
    airc_tensor *x = ramp(ctx, 2, 3, -1.0f);
    airc_compiled *c;
    AIRC_ASSERT_OK(compile_mode(g, "max-autotune", &x, 1, &c));
    const uint8_t *bytes;
    size_t len;
    AIRC_ASSERT_OK(airc_compiled_model(c, &bytes, &len));
    AIRC_ASSERT_OK(airc_context_set_ge_op(ctx, "Abs", "aten.neg.default"));
    airc_graph *back;
    AIRC_ASSERT_OK(airc_model_read(ctx, bytes, len, &back));
    airc_tensor *outs[MAXOUT];
    size_t nout;
    AIRC_ASSERT_OK(airc_run_eager(back, NULL, &x, 1, outs, MAXOUT, &nout, NULL));
    float want[6];
    for (size_t i = 0; i < 6; i++)
        want[i] = -((float *)airc_tensor_data(x))[i];
    expect_close(outs[0], want, 6);
    destroy_all(outs, nout);
    airc_graph_destroy(back);
    airc_compiled_destroy(c);
    airc_tensor_destroy(x);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* ---- errors ------------------------------------------------------------------------- */

static void test_no_meta(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    register_op(ctx, "demo::my_op(Tensor x, float alpha) -> Tensor", NULL, my_op_kernel,
                &MY_OP_EMIT);
    airc_graph *g = airc_test_parse(ctx, MY_OP_FX);
    airc_tensor *x = ramp(ctx, 2, 2, 0.0f);
    static const char *const modes[] = {"reduce-overhead", "max-autotune"};
    for (int i = 0; i < 2; i++)
        for (int with_inputs = 0; with_inputs < 2; with_inputs++) {
            airc_compiled *c = NULL;
            AIRC_EXPECT(compile_mode(g, modes[i], with_inputs ? &x : NULL, 1, &c),
                        AIRC_E_UNSUPPORTED,
                        "no meta function for demo.my_op.default (node 'my_op')");
            assert_null(c);
        }
    /* eager needs none */
    airc_compiled *c;
    AIRC_ASSERT_OK(compile_mode(g, "eager", NULL, 0, &c));
    airc_compiled_destroy(c);
    airc_tensor_destroy(x);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

static void test_no_converter(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    register_op(ctx, "demo::my_op(Tensor x, float alpha) -> Tensor", like_x_meta, my_op_kernel,
                NULL);
    airc_graph *g = airc_test_parse(ctx, MY_OP_FX);
    airc_tensor *x = ramp(ctx, 2, 2, 0.0f);
    for (int with_inputs = 0; with_inputs < 2; with_inputs++) {
        airc_compiled *c = NULL;
        AIRC_EXPECT(compile_mode(g, "max-autotune", with_inputs ? &x : NULL, 1, &c),
                    AIRC_E_UNSUPPORTED,
                    "no Ascend IR converter for demo.my_op.default (node 'my_op') (needed by "
                    "max-autotune)");
        assert_null(c);
    }
    /* the other modes need none */
    airc_compiled *c;
    AIRC_ASSERT_OK(compile_mode(g, "reduce-overhead", &x, 1, &c));
    airc_compiled_destroy(c);
    airc_tensor_destroy(x);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* A converter emits MyOp, but nobody told the executor what MyOp is. */
static void test_undeclared_type(void **state)
{
    (void)state;
    airc_context *ctx = make_context();
    airc_graph *g = airc_test_parse(ctx, MY_OP_FX);
    airc_tensor *x = ramp(ctx, 2, 2, 0.0f);
    airc_compiled *c = NULL;
    AIRC_EXPECT(compile_mode(g, "max-autotune", &x, 1, &c), AIRC_E_INVALID_GRAPH,
                "op 'my_op' (MyOp): unknown op type 'MyOp'");
    assert_null(c);
    assert_non_null(strstr(airc_last_error(), "airc_context_set_ge_op"));
    /* without example inputs: the first run */
    AIRC_ASSERT_OK(compile_mode(g, "max-autotune", NULL, 0, &c));
    airc_tensor *outs[MAXOUT];
    size_t nout;
    AIRC_EXPECT(airc_compiled_run(c, &x, 1, outs, MAXOUT, &nout), AIRC_E_INVALID_GRAPH,
                "unknown op type 'MyOp'");
    airc_compiled_destroy(c);
    airc_tensor_destroy(x);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

static void test_set_ge_op_errors(void **state)
{
    (void)state;
    airc_context *ctx = make_context();
    AIRC_EXPECT(airc_context_set_ge_op(NULL, "MyOp", "demo.my_op.default"), AIRC_E_MISUSE,
                "airc_context_set_ge_op");
    AIRC_EXPECT(airc_context_set_ge_op(ctx, NULL, "demo.my_op.default"), AIRC_E_INVALID_ARGUMENT,
                "GE type");
    AIRC_EXPECT(airc_context_set_ge_op(ctx, "", "demo.my_op.default"), AIRC_E_INVALID_ARGUMENT,
                "GE type");
    AIRC_EXPECT(airc_context_set_ge_op(ctx, "MyOp", NULL), AIRC_E_INVALID_ARGUMENT, "op name");
    AIRC_EXPECT(airc_context_set_ge_op(ctx, "MyOp", "demo.nope.default"), AIRC_E_NOT_FOUND,
                "airc_context_set_ge_op: GE type 'MyOp': unknown op 'demo.nope.default'");
    AIRC_EXPECT(airc_context_set_ge_op(ctx, "Const", "demo.my_op.default"), AIRC_E_INVALID_ARGUMENT,
                "'Const' is a structural GE type");
    /* ops the executor cannot call from a GE op */
    register_op(ctx, "demo::lists(Tensor[] xs) -> Tensor", like_x_meta, NULL, NULL);
    AIRC_EXPECT(airc_context_set_ge_op(ctx, "Lists", "demo.lists.default"), AIRC_E_UNSUPPORTED,
                "argument 'xs' is a Tensor list");
    register_op(ctx, "demo::count(Tensor x) -> int", NULL, NULL, NULL);
    AIRC_EXPECT(airc_context_set_ge_op(ctx, "Count", "demo.count.default"), AIRC_E_UNSUPPORTED,
                "result 0 is a int, not a Tensor");
    register_op(ctx, "demo::nothing(Tensor x) -> ()", NULL, NULL, NULL);
    AIRC_EXPECT(airc_context_set_ge_op(ctx, "Nothing", "demo.nothing.default"), AIRC_E_UNSUPPORTED,
                "returns no fixed list of tensors");
    /* declaring again replaces; other spellings are accepted */
    AIRC_ASSERT_OK(airc_context_set_ge_op(ctx, "MyOp", "demo::axpb"));
    AIRC_ASSERT_OK(airc_context_set_ge_op(ctx, "MyOp", "torch.ops.demo.my_op.default"));
    airc_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_functional_op),
        cmocka_unit_test(test_inplace_op),
        cmocka_unit_test(test_attributes_and_defaults),
        cmocka_unit_test(test_override_builtin_type),
        cmocka_unit_test(test_no_meta),
        cmocka_unit_test(test_no_converter),
        cmocka_unit_test(test_undeclared_type),
        cmocka_unit_test(test_set_ge_op_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
