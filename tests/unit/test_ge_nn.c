/* The reduce and nn families of the Ascend IR lowering
 * (backends/ge/convert_reduce.c, convert_nn.c), and the Householder QR
 * ops (convert_householder.c): each op's graph compiled
 * in max-autotune (lowered to a GE ModelDef, run by the reference
 * executor) against airc_run_eager on the same random inputs, the GE op
 * types emitted for some, and malformed models (a required attribute
 * missing) refused with an error naming the op. */
#include "testutil.h"

#include "backends/ge/execute.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- inputs ------------------------------------------------------------------- */

typedef struct spec {
    airc_dtype dtype;
    int32_t ndim;
    int64_t shape[5];
    bool positive; /* floats in [0.5, 2.5) */
} spec;

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double uniform(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static airc_tensor *random_tensor(airc_context *ctx, const spec *s)
{
    airc_tensor *t;
    AIRC_ASSERT_OK(airc_tensor_create(ctx, s->dtype, s->ndim, s->shape, &t));
    size_t n = airc_tensor_numel(t);
    void *d = airc_tensor_data(t);
    for (size_t i = 0; i < n; i++) {
        double u = uniform();
        switch (s->dtype) {
        case AIRC_DTYPE_F32:
            ((float *)d)[i] = (float)(s->positive ? 0.5 + 2 * u : 4 * u - 2);
            break;
        case AIRC_DTYPE_F64: ((double *)d)[i] = s->positive ? 0.5 + 2 * u : 4 * u - 2; break;
        case AIRC_DTYPE_I64: ((int64_t *)d)[i] = (int64_t)(u * 11) - 5; break;
        case AIRC_DTYPE_I32: ((int32_t *)d)[i] = (int32_t)(u * 11) - 5; break;
        case AIRC_DTYPE_BOOL: ((uint8_t *)d)[i] = u < 0.5; break;
        default: fail_msg("dtype %d not handled by the test", (int)s->dtype);
        }
    }
    return t;
}

static double element(const airc_tensor *t, size_t i)
{
    const void *d = airc_tensor_data(t);
    switch (airc_tensor_dtype(t)) {
    case AIRC_DTYPE_F32: return ((const float *)d)[i];
    case AIRC_DTYPE_F64: return ((const double *)d)[i];
    case AIRC_DTYPE_I64: return (double)((const int64_t *)d)[i];
    case AIRC_DTYPE_I32: return ((const int32_t *)d)[i];
    case AIRC_DTYPE_BOOL:
    case AIRC_DTYPE_U8: return ((const uint8_t *)d)[i];
    default: fail_msg("dtype %d not handled by the test", (int)airc_tensor_dtype(t));
    }
    return 0;
}

/* got vs want: rtol 1e-4, atol 1e-4 * (1 + max|want|); exact for ints. */
static void expect_close(const char *what, size_t k, const airc_tensor *got,
                         const airc_tensor *want)
{
    if (airc_tensor_dtype(got) != airc_tensor_dtype(want) ||
        airc_tensor_ndim(got) != airc_tensor_ndim(want))
        fail_msg("%s: result %zu: dtype/rank %d/%d, expected %d/%d", what, k,
                 (int)airc_tensor_dtype(got), airc_tensor_ndim(got), (int)airc_tensor_dtype(want),
                 airc_tensor_ndim(want));
    for (int32_t d = 0; d < airc_tensor_ndim(got); d++)
        if (airc_tensor_shape(got)[d] != airc_tensor_shape(want)[d])
            fail_msg("%s: result %zu: dim %d is %lld, expected %lld", what, k, d,
                     (long long)airc_tensor_shape(got)[d], (long long)airc_tensor_shape(want)[d]);
    size_t n = airc_tensor_numel(want);
    airc_dtype dt = airc_tensor_dtype(want);
    bool exact = dt != AIRC_DTYPE_F32 && dt != AIRC_DTYPE_F64;
    double mx = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(element(want, i)))
            mx = fmax(mx, fabs(element(want, i)));
    double atol = 1e-4 * (1 + mx);
    for (size_t i = 0; i < n; i++) {
        double g = element(got, i), w = element(want, i);
        if (isnan(w) && isnan(g))
            continue;
        bool ok = exact ? g == w : (g == w || fabs(g - w) <= atol + 1e-4 * fabs(w));
        if (!ok)
            fail_msg("%s: result %zu differs at %zu: got %.9g, expected %.9g", what, k, i, g, w);
    }
}

/* ---- running a case ------------------------------------------------------------- */

/* Builds "graph():" with placeholders p0.. for the specs, then body (lines
 * of call_function nodes) and `ret`. */
static char *graph_text(size_t nin, const char *body, const char *ret)
{
    size_t cap = strlen(body) + strlen(ret) + 64 * (nin + 2);
    char *s = malloc(cap);
    assert_non_null(s);
    size_t len = (size_t)snprintf(s, cap, "graph():\n");
    for (size_t i = 0; i < nin; i++)
        len += (size_t)snprintf(s + len, cap - len,
                                "    %%p%zu : [#users=1] = placeholder[target=p%zu]\n", i, i);
    snprintf(s + len, cap - len, "%s    return (%s,)\n", body, ret);
    return s;
}

#define MAXOUT 20

/* The emitted model's op types, NUL-separated (caller frees). */
static void check_types(const airc_compiled *c, const char *what, const char *const *types)
{
    const uint8_t *bytes;
    size_t len;
    AIRC_ASSERT_OK(airc_compiled_model(c, &bytes, &len));
    Ge__Proto__ModelDef *m = ge__proto__model_def__unpack(NULL, len, bytes);
    assert_non_null(m);
    assert_int_equal(m->n_graph, 1);
    for (size_t t = 0; types && types[t]; t++) {
        bool found = false;
        for (size_t i = 0; i < m->graph[0]->n_op && !found; i++)
            found = !strcmp(m->graph[0]->op[i]->type, types[t]);
        if (!found)
            fail_msg("%s: no GE op of type %s in the model", what, types[t]);
    }
    ge__proto__model_def__free_unpacked(m, NULL);
}

/* Runs body eagerly and in max-autotune on the same inputs and compares;
 * types (NULL-terminated, may be NULL) must appear in the model. */
/* Compiles g in max-autotune (*c; the caller destroys it and *cfg) and
 * runs it on in: the status of whichever step failed first. The model is
 * lowered at the first run, when shapes are known. */
static airc_status run_max_autotune(airc_context *ctx, airc_graph *g, airc_tensor **in, size_t nin,
                                    airc_tensor **out, size_t *nout, airc_config **cfg,
                                    airc_compiled **c)
{
    AIRC_ASSERT_OK(airc_config_create(ctx, cfg));
    AIRC_ASSERT_OK(airc_config_set(*cfg, "mode", "max-autotune"));
    airc_compile_options o;
    airc_compile_options_init(&o);
    o.config = *cfg;
    *c = NULL;
    airc_status st = airc_compile(g, &o, c);
    return st == AIRC_OK ? airc_compiled_run(*c, in, nin, out, MAXOUT, nout) : st;
}

/* run_case with fixed values: input i's are values[i] (row-major floats)
 * where values is given and values[i] is not NULL, else random */
static void run_case_values(const char *what, const spec *specs, const double *const *values,
                            size_t nin, const char *body, const char *ret, const char *const *types)
{
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    char *text = graph_text(nin, body, ret);
    airc_graph *g = airc_test_parse(ctx, text);
    free(text);
    airc_tensor *in[12];
    assert_true(nin <= 12);
    for (size_t i = 0; i < nin; i++) {
        in[i] = random_tensor(ctx, &specs[i]);
        void *d = airc_tensor_data(in[i]);
        for (size_t j = 0; values && values[i] && j < airc_tensor_numel(in[i]); j++)
            if (specs[i].dtype == AIRC_DTYPE_F64)
                ((double *)d)[j] = values[i][j];
            else
                ((float *)d)[j] = (float)values[i][j];
    }
    airc_tensor *want[MAXOUT] = {NULL}, *got[MAXOUT] = {NULL};
    size_t nw, ng;
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, in, nin, want, MAXOUT, &nw, NULL));
    airc_config *cfg;
    airc_compiled *c;
    if (run_max_autotune(ctx, g, in, nin, got, &ng, &cfg, &c) != AIRC_OK)
        fail_msg("%s: max-autotune run: %s", what, airc_last_error());
    assert_int_equal(ng, nw);
    for (size_t k = 0; k < nw; k++)
        expect_close(what, k, got[k], want[k]);
    check_types(c, what, types);
    for (size_t k = 0; k < nw; k++) {
        airc_tensor_destroy(want[k]);
        airc_tensor_destroy(got[k]);
    }
    for (size_t i = 0; i < nin; i++)
        airc_tensor_destroy(in[i]);
    airc_compiled_destroy(c);
    airc_config_destroy(cfg);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

static void run_case(const char *what, const spec *specs, size_t nin, const char *body,
                     const char *ret, const char *const *types)
{
    run_case_values(what, specs, NULL, nin, body, ret, types);
}

#define CALL(name, target, args)                                                                   \
    "    %" name " : [#users=1] = call_function[target=torch.ops." target "]" args "\n"
#define F32(...)                                                                                   \
    {                                                                                              \
        AIRC_DTYPE_F32, sizeof((int64_t[]){__VA_ARGS__}) / 8, {__VA_ARGS__}, false                 \
    }
#define POS32(...)                                                                                 \
    {                                                                                              \
        AIRC_DTYPE_F32, sizeof((int64_t[]){__VA_ARGS__}) / 8, {__VA_ARGS__}, true                  \
    }
#define TYPED(dt, ...)                                                                             \
    {                                                                                              \
        dt, sizeof((int64_t[]){__VA_ARGS__}) / 8, {__VA_ARGS__}, false                             \
    }

/* ---- reduce family ------------------------------------------------------------------ */

static void test_reductions(void **state)
{
    (void)state;
    const spec x[] = {POS32(3, 4, 5)};
    static const char *const types[] = {"ReduceSum", "ReduceMean", "ReduceMax",
                                        "ReduceMin", "ReduceProd", NULL};
    run_case("reductions", x, 1,
             CALL("a", "aten.sum.default", "(args = (%p0,), kwargs = {})")
                 CALL("b", "aten.sum.dim_IntList", "(args = (%p0, [1, -1], True), kwargs = {})")
                     CALL("c", "aten.mean.default", "(args = (%p0,), kwargs = {})") CALL(
                         "d", "aten.mean.dim", "(args = (%p0, [0]), kwargs = {})")
                         CALL("e", "aten.amax.default", "(args = (%p0, [1]), kwargs = {})") CALL(
                             "f", "aten.amin.default", "(args = (%p0, [0, 1], True), kwargs = {})")
                             CALL("g", "aten.max.default", "(args = (%p0,), kwargs = {})")
                                 CALL("h", "aten.min.default", "(args = (%p0,), kwargs = {})")
                                     CALL("i", "aten.prod.default", "(args = (%p0,), kwargs = {})")
                                         CALL("j", "aten.prod.dim_int",
                                              "(args = (%p0, 1, True), kwargs = {})"),
             "a, b, c, d, e, f, g, h, i, j", types);
    const spec xi[] = {TYPED(AIRC_DTYPE_I32, 4, 6)};
    run_case("int sum", xi, 1,
             CALL("a", "aten.sum.dim_IntList", "(args = (%p0, [0]), kwargs = {})")
                 CALL("b", "aten.prod.dim_int", "(args = (%p0, 1), kwargs = {})")
                     CALL("c", "aten.cumsum.default", "(args = (%p0, -1), kwargs = {})"),
             "a, b, c", NULL);
}

static void test_logical(void **state)
{
    (void)state;
    const spec x[] = {TYPED(AIRC_DTYPE_BOOL, 2, 3, 2)};
    static const char *const types[] = {"ReduceAll", "ReduceAny", NULL};
    run_case("all/any", x, 1,
             CALL("a", "aten.all.default", "(args = (%p0,), kwargs = {})")
                 CALL("b", "aten.all.dim", "(args = (%p0, 1), kwargs = {})")
                     CALL("c", "aten.any.default", "(args = (%p0,), kwargs = {})")
                         CALL("d", "aten.any.dim", "(args = (%p0, -1, True), kwargs = {})"),
             "a, b, c, d", types);
}

static void test_arg_reductions(void **state)
{
    (void)state;
    const spec x[] = {F32(4, 7)};
    static const char *const types[] = {"ArgMaxWithValue", "ArgMinWithValue", "ArgMaxV2", "ArgMin",
                                        NULL};
    run_case(
        "max.dim/argmax", x, 1,
        CALL("m", "aten.max.dim", "(args = (%p0, 1), kwargs = {})")
            CALL("m0", "operator.getitem", "(args = (%m, 0), kwargs = {})")
                CALL("m1", "operator.getitem", "(args = (%m, 1), kwargs = {})")
                    CALL("n", "aten.min.dim", "(args = (%p0, 0, True), kwargs = {})") CALL(
                        "n0", "operator.getitem", "(args = (%n, 0), kwargs = {})")
                        CALL("n1", "operator.getitem", "(args = (%n, 1), kwargs = {})") CALL(
                            "a", "aten.argmax.default", "(args = (%p0,), kwargs = {})")
                            CALL("b", "aten.argmax.default", "(args = (%p0, 1), kwargs = {})") CALL(
                                "c", "aten.argmax.default", "(args = (%p0, 0, True), kwargs = {})")
                                CALL("d", "aten.argmin.default", "(args = (%p0, -1), kwargs = {})"),
        "m0, m1, n0, n1, a, b, c, d", types);
}

/* softplus, elu, nan_to_num with their parameters as float attributes;
 * mish, isnan, isinf one op each; exp2 a Pow of 2 */
static void test_more_activations(void **state)
{
    (void)state;
    const spec x[] = {F32(4, 6), TYPED(AIRC_DTYPE_I64, 4)};
    static const char *const types[] = {"SoftplusV2", "Elu", "NanToNum", "Mish",   "IsNan",
                                        "IsInf",      "Pow", "PRelu",    "SplitV", NULL};
    // clang-format off
    run_case("activations", x, 2,
             CALL("a", "aten.softplus.default", "(args = (%p0, 2, 1.5), kwargs = {})")
             CALL("b", "aten.elu.default", "(args = (%p0, 0.5, 2, 1.5), kwargs = {})")
             CALL("c", "aten.nan_to_num.default", "(args = (%p0, 1.0, None, -3.0), kwargs = {})")
             CALL("d", "aten.mish.default", "(args = (%p0,), kwargs = {})")
             CALL("e", "aten.exp2.default", "(args = (%p1,), kwargs = {})")
             CALL("f", "aten.isnan.default", "(args = (%p0,), kwargs = {})")
             CALL("g", "aten.isinf.default", "(args = (%p1,), kwargs = {})")
             CALL("h", "aten.nan_to_num.default", "(args = (%p1,), kwargs = {})")
             CALL("w", "aten.select.int", "(args = (%p0, 0, 1), kwargs = {})")
             CALL("i", "aten.prelu.default", "(args = (%p0, %w), kwargs = {})")
             CALL("j", "aten.glu.default", "(args = (%p0, 0), kwargs = {})"),
             "a, b, c, d, e, f, g, h, i, j", types);
    // clang-format on
}

/* topk -> TopKV2 and sort -> Sort, their int32 indices Cast to int64; a
 * 0-d input is its own values */
static void test_sort_topk(void **state)
{
    (void)state;
    const spec x[] = {F32(4, 7), {AIRC_DTYPE_F32, 0, {0}, false}};
    static const char *const types[] = {"TopKV2", "Sort", "Cast", "Identity", NULL};
    // clang-format off
    run_case("sort/topk", x, 2,
             CALL("t", "aten.topk.default", "(args = (%p0, 3), kwargs = {})")
             CALL("t0", "operator.getitem", "(args = (%t, 0), kwargs = {})")
             CALL("t1", "operator.getitem", "(args = (%t, 1), kwargs = {})")
             CALL("u", "aten.topk.default", "(args = (%p0, 2, 0, False), kwargs = {})")
             CALL("u1", "operator.getitem", "(args = (%u, 1), kwargs = {})")
             CALL("s", "aten.sort.default", "(args = (%p0,), kwargs = {})")
             CALL("s0", "operator.getitem", "(args = (%s, 0), kwargs = {})")
             CALL("s1", "operator.getitem", "(args = (%s, 1), kwargs = {})")
             CALL("r", "aten.sort.stable",
                  "(args = (%p0,), kwargs = {stable: True, dim: 0, descending: True})")
             CALL("r1", "operator.getitem", "(args = (%r, 1), kwargs = {})")
             CALL("z", "aten.topk.default", "(args = (%p1, 1), kwargs = {})")
             CALL("z0", "operator.getitem", "(args = (%z, 0), kwargs = {})")
             CALL("z1", "operator.getitem", "(args = (%z, 1), kwargs = {})"),
             "t0, t1, u1, s0, s1, r1, z0, z1", types);
    // clang-format on
}

static void test_var(void **state)
{
    (void)state;
    const spec x[] = {F32(3, 4, 5)};
    run_case("var", x, 1,
             CALL("a", "aten.var.default", "(args = (%p0,), kwargs = {})")
                 CALL("b", "aten.var.dim", "(args = (%p0, [1], False, True), kwargs = {})") CALL(
                     "c", "aten.var.correction", "(args = (%p0, [0, 2]), kwargs = {correction: 0})")
                     CALL("v", "aten.var_mean.correction",
                          "(args = (%p0, [1]), kwargs = {correction: 1})")
                         CALL("v0", "operator.getitem", "(args = (%v, 0), kwargs = {})")
                             CALL("v1", "operator.getitem", "(args = (%v, 1), kwargs = {})"),
             "a, b, c, v0, v1", NULL);
}

/* std -> var's ops and Sqrt; logsumexp -> max-shifted Exp/ReduceSum/Log;
 * norm -> LpNormV2 */
static void test_std_lse_norm(void **state)
{
    (void)state;
    const spec x[] = {F32(3, 4, 5)};
    static const char *const types[] = {"Sqrt", "IsInf", "SelectV2", "Log", "LpNormV2", NULL};
    // clang-format off
    run_case("std/logsumexp/norm", x, 1,
             CALL("a", "aten.std.correction", "(args = (%p0, [1]), kwargs = {correction: 1})")
             CALL("b", "aten.logsumexp.default", "(args = (%p0, [0, 2]), kwargs = {})")
             CALL("c", "aten.logsumexp.default", "(args = (%p0, [-1], True), kwargs = {})")
             CALL("d", "aten.norm.ScalarOpt_dim", "(args = (%p0, 2, [-1], True), kwargs = {})")
             CALL("e", "aten.norm.ScalarOpt_dim", "(args = (%p0, 1, [0, 1]), kwargs = {})")
             CALL("f", "aten.norm.ScalarOpt_dim", "(args = (%p0, None, []), kwargs = {})"),
             "a, b, c, d, e, f", types);
    // clang-format on
}

static void test_softmax_cumsum(void **state)
{
    (void)state;
    const spec x[] = {F32(3, 6)};
    static const char *const types[] = {"SoftmaxV2", "LogSoftmaxV2", "Cumsum", "Cumprod", NULL};
    // clang-format off
    run_case("softmax", x, 1,
             CALL("a", "aten._softmax.default", "(args = (%p0, -1, False), kwargs = {})")
             CALL("b", "aten.softmax.int", "(args = (%p0, 0), kwargs = {})")
             CALL("c", "aten._log_softmax.default", "(args = (%p0, 1, False), kwargs = {})")
             CALL("d", "aten.log_softmax.int", "(args = (%p0, 0), kwargs = {})")
             CALL("e", "aten.cumsum.default", "(args = (%p0, 1), kwargs = {})")
             CALL("f", "aten.cumprod.default", "(args = (%p0, -1), kwargs = {})"),
             "a, b, c, d, e, f", types);
    // clang-format on
}

/* ---- nn family ------------------------------------------------------------------------ */

static void test_layer_norm(void **state)
{
    (void)state;
    const spec x[] = {F32(2, 3, 8), F32(8), F32(8)};
    static const char *const types[] = {"LayerNormV3", NULL};
    run_case("layer_norm", x, 3,
             CALL("l", "aten.native_layer_norm.default",
                  "(args = (%p0, [8], %p1, %p2, 1e-05), kwargs = {})")
                 CALL("l0", "operator.getitem", "(args = (%l, 0), kwargs = {})")
                     CALL("l1", "operator.getitem", "(args = (%l, 1), kwargs = {})")
                         CALL("l2", "operator.getitem", "(args = (%l, 2), kwargs = {})")
                             CALL("m", "aten.native_layer_norm.default",
                                  "(args = (%p0, [3, 8], None, None, 1e-06), kwargs = {})")
                                 CALL("m0", "operator.getitem", "(args = (%m, 0), kwargs = {})"),
             "l0, l1, l2, m0", types);
}

static void test_conv_pool(void **state)
{
    (void)state;
    const spec x[] = {F32(2, 3, 9, 9), F32(4, 3, 3, 3), F32(4), F32(2, 3, 10), F32(5, 3, 3)};
    static const char *const types[] = {"Conv2D", "MaxPoolWithArgmaxV1", "AvgPoolV2",
                                        "AdaptiveAvgPool2d", NULL};
    run_case(
        "conv/pool", x, 5,
        CALL("c", "aten.convolution.default",
             "(args = (%p0, %p1, %p2, [2, 2], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})")
            CALL("d", "aten.convolution.default",
                 "(args = (%p3, %p4, None, [1], [1], [2], False, [0], 1), kwargs = {})")
                CALL("m", "aten.max_pool2d_with_indices.default",
                     "(args = (%p0, [3, 3], [2, 2], [1, 1]), kwargs = {})")
                    CALL("m0", "operator.getitem", "(args = (%m, 0), kwargs = {})")
                        CALL("m1", "operator.getitem", "(args = (%m, 1), kwargs = {})") CALL(
                            "a", "aten.avg_pool2d.default",
                            "(args = (%p0, [3, 3], [2, 2], [1, 1], False, False), kwargs = {})")
                            CALL("b", "aten.adaptive_avg_pool2d.default",
                                 "(args = (%p0, [2, 3]), kwargs = {})")
                                CALL("e", "aten._adaptive_avg_pool2d.default",
                                     "(args = (%p0, [1, 1]), kwargs = {})"),
        "c, d, m0, m1, a, b, e", types);
}

/* upsample_bicubic2d -> UpsampleBicubic2d: by size, by factor (1.5: sampled
 * at 1 / factor), align_corners, .default with scales */
static void test_upsample_bicubic(void **state)
{
    (void)state;
    const spec x[] = {F32(2, 3, 4, 5)};
    static const char *const types[] = {"UpsampleBicubic2d", NULL};
    // clang-format off
    run_case("bicubic", x, 1,
             CALL("a", "aten.upsample_bicubic2d.vec", "(args = (%p0, [7, 9], False, None), kwargs = {})")
             CALL("b", "aten.upsample_bicubic2d.vec", "(args = (%p0, None, False, [1.5, 2.0]), kwargs = {})")
             CALL("c", "aten.upsample_bicubic2d.vec", "(args = (%p0, None, True, [2.5, 1.3]), kwargs = {})")
             CALL("d", "aten.upsample_bicubic2d.default", "(args = (%p0, [8, 10], False, 2.0, 2.0), kwargs = {})")
             CALL("e", "aten.upsample_bicubic2d.default", "(args = (%p0, [3, 2], True), kwargs = {})"),
             "a, b, c, d, e", types);
    // clang-format on
}

/* adaptive_max_pool2d -> AdaptiveMaxPool2d with an int64 argmax: uneven
 * windows, a 3-d input */
static void test_adaptive_max(void **state)
{
    (void)state;
    const spec x[] = {F32(2, 3, 9, 7), F32(3, 5, 4)};
    static const char *const types[] = {"AdaptiveMaxPool2d", NULL};
    // clang-format off
    run_case("adaptive_max", x, 2,
             CALL("m", "aten.adaptive_max_pool2d.default", "(args = (%p0, [4, 3]), kwargs = {})")
             CALL("m0", "operator.getitem", "(args = (%m, 0), kwargs = {})")
             CALL("m1", "operator.getitem", "(args = (%m, 1), kwargs = {})")
             CALL("n", "aten.adaptive_max_pool2d.default", "(args = (%p1, [2, 2]), kwargs = {})")
             CALL("n0", "operator.getitem", "(args = (%n, 0), kwargs = {})")
             CALL("n1", "operator.getitem", "(args = (%n, 1), kwargs = {})"),
             "m0, m1, n0, n1", types);
    // clang-format on
}

/* Transposed convolution -> Conv2DTranspose with input_size the result's
 * shape: 2-d with groups, stride, padding, dilation, output_padding and a
 * bias; 1-d through Unsqueeze/Squeeze. */
static void test_conv_transpose(void **state)
{
    (void)state;
    const spec x[] = {F32(2, 4, 5, 4), F32(4, 3, 3, 2), F32(6), F32(1, 2, 5), F32(2, 3, 3)};
    static const char *const types[] = {"Conv2DTranspose", "Unsqueeze", "Squeeze", NULL};
    run_case("conv_transpose", x, 5,
             CALL("c", "aten.convolution.default",
                  "(args = (%p0, %p1, %p2, [2, 3], [1, 0], [2, 1], True, [1, 2], 2), kwargs = {})")
                 CALL("d", "aten.convolution.default",
                      "(args = (%p3, %p4, None, [2], [1], [1], True, [1], 1), kwargs = {})"),
             "c, d", types);
}

/* 3-d convolution -> Conv3D, its transpose -> Conv3DTranspose (NCDHW,
 * six pads), each raised back and run against eager. */
static void test_conv3d(void **state)
{
    (void)state;
    const spec x[] = {F32(2, 4, 5, 6, 5), F32(6, 2, 2, 3, 2), F32(6), F32(1, 2, 2, 3, 2),
                      F32(2, 3, 2, 3, 2)};
    static const char *const types[] = {"Conv3D", "Conv3DTranspose", NULL};
    run_case("conv3d", x, 5,
             CALL("c", "aten.convolution.default",
                  "(args = (%p0, %p1, %p2, [2, 1, 3], [1, 0, 1], [1, 2, 1], False, [0, 0, 0], 2), "
                  "kwargs = {})")
                 CALL("d", "aten.convolution.default",
                      "(args = (%p3, %p4, None, [2, 1, 2], [0, 1, 0], [1], True, [1, 0, 0], 1), "
                      "kwargs = {})"),
             "c, d", types);
}

/* 3-d pools -> MaxPool3DWithArgmax, AvgPool3D, AdaptiveAvgPool3d and
 * AdaptiveMaxPool3d on NCDHW (a 4-d input Reshaped to 5-d and back). */
static void test_pool3d(void **state)
{
    (void)state;
    const spec x[] = {F32(2, 3, 5, 6, 7), F32(3, 5, 6, 7)};
    static const char *const types[] = {"MaxPool3DWithArgmax", "AvgPool3D", "AdaptiveAvgPool3d",
                                        "AdaptiveMaxPool3d",   "Reshape",   NULL};
    // clang-format off
    run_case("pool3d", x, 2,
             CALL("m", "aten.max_pool3d_with_indices.default",
                  "(args = (%p0, [2, 3, 2], [1, 2, 2], [1, 1, 0], [2, 1, 1], True), kwargs = {})")
             CALL("m0", "operator.getitem", "(args = (%m, 0), kwargs = {})")
             CALL("m1", "operator.getitem", "(args = (%m, 1), kwargs = {})")
             CALL("a", "aten.avg_pool3d.default",
                  "(args = (%p1, [2, 2, 2], [], [1], False, False, 3), kwargs = {})")
             CALL("v", "aten._adaptive_avg_pool3d.default", "(args = (%p0, [2, 3, 4]), kwargs = {})")
             CALL("x", "aten.adaptive_max_pool3d.default", "(args = (%p1, [3, 2, 5]), kwargs = {})")
             CALL("x0", "operator.getitem", "(args = (%x, 0), kwargs = {})")
             CALL("x1", "operator.getitem", "(args = (%x, 1), kwargs = {})"),
             "m0, m1, a, v, x0, x1", types);
    // clang-format on
}

/* fractional_max_pool2d / 3d -> FractionalMaxPoolWithFixedKsize /
 * FractionalMaxPool3DWithFixedKsize (batched and not; samples in [0, 1)
 * from abs) */
static void test_fractional_pool(void **state)
{
    (void)state;
    const spec x[] = {F32(2, 3, 7, 8), F32(3, 7, 8), F32(2, 3, 2), F32(2, 3, 6, 7, 5),
                      F32(2, 3, 3)};
    static const char *const types[] = {"FractionalMaxPoolWithFixedKsize",
                                        "FractionalMaxPool3DWithFixedKsize", NULL};
    // clang-format off
    run_case("fractional_pool", x, 5,
             CALL("s", "aten.abs.default", "(args = (%p2,), kwargs = {})")
             CALL("t", "aten.abs.default", "(args = (%p4,), kwargs = {})")
             CALL("u", "aten.slice.Tensor", "(args = (%s, 0, 0, 1), kwargs = {})")
             CALL("f", "aten.fractional_max_pool2d.default", "(args = (%p0, [2, 3], [4, 5], %s), kwargs = {})")
             CALL("f0", "operator.getitem", "(args = (%f, 0), kwargs = {})")
             CALL("f1", "operator.getitem", "(args = (%f, 1), kwargs = {})")
             CALL("g", "aten.fractional_max_pool2d.default", "(args = (%p1, [3, 1], [5, 8], %u), kwargs = {})")
             CALL("g0", "operator.getitem", "(args = (%g, 0), kwargs = {})")
             CALL("g1", "operator.getitem", "(args = (%g, 1), kwargs = {})")
             CALL("h", "aten.fractional_max_pool3d.default", "(args = (%p3, [2, 3, 2], [3, 4, 3], %t), kwargs = {})")
             CALL("h0", "operator.getitem", "(args = (%h, 0), kwargs = {})")
             CALL("h1", "operator.getitem", "(args = (%h, 1), kwargs = {})"),
             "f0, f1, g0, g1, h0, h1", types);
    // clang-format on
}

/* max_unpool2d / 3d -> Fill + ScatterElements over the flattened planes */
static void test_max_unpool(void **state)
{
    (void)state;
    const spec x[] = {F32(2, 3, 5)};
    static const char *const types[] = {"Fill", "ScatterElements", "Reshape", NULL};
    // clang-format off
    run_case("max_unpool", x, 1,
             CALL("m", "aten.max_pool2d_with_indices.default", "(args = (%p0, [2, 2]), kwargs = {})")
             CALL("v", "operator.getitem", "(args = (%m, 0), kwargs = {})")
             CALL("i", "operator.getitem", "(args = (%m, 1), kwargs = {})")
             CALL("u", "aten.max_unpool2d.default", "(args = (%v, %i, [3, 5]), kwargs = {})"),
             "u", types);
    // clang-format on
}

/* _weight_norm_interface -> Mul, ReduceSum, Sqrt, RealDiv, Mul over dim 0
 * and the last dim */
static void test_weight_norm(void **state)
{
    (void)state;
    const spec x[] = {F32(6, 4, 3), F32(6, 1, 1), F32(5, 3), F32(1, 3)};
    static const char *const types[] = {"ReduceSum", "Sqrt", "RealDiv", "Mul", NULL};
    // clang-format off
    run_case("weight_norm", x, 4,
             CALL("a", "aten._weight_norm_interface.default", "(args = (%p0, %p1, 0), kwargs = {})")
             CALL("a0", "operator.getitem", "(args = (%a, 0), kwargs = {})")
             CALL("a1", "operator.getitem", "(args = (%a, 1), kwargs = {})")
             CALL("b", "aten._weight_norm_interface.default", "(args = (%p2, %p3, 1), kwargs = {})")
             CALL("b0", "operator.getitem", "(args = (%b, 0), kwargs = {})")
             CALL("b1", "operator.getitem", "(args = (%b, 1), kwargs = {})"),
             "a0, a1, b0, b1", types);
    // clang-format on
}

/* Batch norm in eval mode -> Add, Rsqrt, Mul, Sub (Neg without a bias),
 * Reshape to [C, 1, ...] and Mul + Add on the input. */
static void test_batch_norm(void **state)
{
    (void)state;
    const spec x[] = {F32(2, 3, 4, 5), F32(3), F32(3), F32(3), POS32(3), F32(4, 3)};
    static const char *const types[] = {"Rsqrt", "Reshape", "Neg", NULL};
    run_case("batch_norm", x, 6,
             CALL("a", "aten.native_batch_norm.default",
                  "(args = (%p0, %p1, %p2, %p3, %p4, False, 0.1, 0.001), kwargs = {})")
                 CALL("a0", "operator.getitem", "(args = (%a, 0), kwargs = {})")
                     CALL("a1", "operator.getitem", "(args = (%a, 1), kwargs = {})")
                         CALL("c", "aten.native_batch_norm.default",
                              "(args = (%p5, None, None, %p3, %p4, False, 0.1, 1e-05), kwargs = {})")
                             CALL("c0", "operator.getitem", "(args = (%c, 0), kwargs = {})"),
             "a0, a1, c0", types);
}

/* native_group_norm -> GroupNorm (absent weight and bias as Consts), its
 * variance turned into rstd; the raiser turns it back. */
static void test_group_norm(void **state)
{
    (void)state;
    const spec x[] = {F32(2, 6, 3, 4), F32(6), F32(6), F32(3, 4, 5)};
    static const char *const types[] = {"GroupNorm", "Rsqrt", NULL};
    run_case("group_norm", x, 4,
             CALL("a", "aten.native_group_norm.default",
                  "(args = (%p0, %p1, %p2, 2, 6, 12, 3, 1e-05), kwargs = {})")
                 CALL("a0", "operator.getitem", "(args = (%a, 0), kwargs = {})")
                     CALL("a1", "operator.getitem", "(args = (%a, 1), kwargs = {})")
                         CALL("a2", "operator.getitem", "(args = (%a, 2), kwargs = {})")
                             CALL("c", "aten.native_group_norm.default",
                                  "(args = (%p3, None, None, 3, 4, 5, 2, 0.001), kwargs = {})")
                                 CALL("c0", "operator.getitem", "(args = (%c, 0), kwargs = {})"),
             "a0, a1, a2, c0", types);
}

/* body (one input x, result ret) in max-autotune: refused with
 * AIRC_E_UNSUPPORTED and a message holding msg. */
static void expect_refused(const spec *x, const char *body, const char *ret, const char *msg)
{
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    char *text = graph_text(1, body, ret);
    airc_graph *g = airc_test_parse(ctx, text);
    free(text);
    airc_tensor *in = random_tensor(ctx, x);
    airc_config *cfg;
    airc_compiled *c;
    airc_tensor *out[MAXOUT] = {NULL};
    size_t nout = 0;
    AIRC_EXPECT(run_max_autotune(ctx, g, &in, 1, out, &nout, &cfg, &c), AIRC_E_UNSUPPORTED, msg);
    airc_compiled_destroy(c);
    airc_tensor_destroy(in);
    airc_config_destroy(cfg);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* upsample_nearest2d -> ResizeNearestNeighborV2, upsample_bilinear2d ->
 * ResizeBilinearV2 (align_corners or half_pixel_centers); a scale factor
 * whose reciprocal is not out / in is refused. */
static void test_upsample(void **state)
{
    (void)state;
    const spec x[] = {F32(2, 3, 4, 5)};
    static const char *const types[] = {"ResizeNearestNeighborV2", "ResizeBilinearV2", NULL};
    run_case("upsample", x, 1,
             CALL("a", "aten.upsample_nearest2d.vec", "(args = (%p0, None, [2.0, 2.0]), kwargs = {})")
                 CALL("b", "aten.upsample_nearest2d.vec", "(args = (%p0, [7, 3], None), kwargs = {})")
                     CALL("c", "aten.upsample_bilinear2d.vec",
                          "(args = (%p0, [7, 9], False, None), kwargs = {})")
                         CALL("d", "aten.upsample_bilinear2d.vec",
                              "(args = (%p0, None, True, [1.5, 2.5]), kwargs = {})")
                             CALL("e", "aten.upsample_nearest2d.default",
                                  "(args = (%p0, [8, 10], 2.0, 2.0), kwargs = {})")
                                 CALL("f", "aten.upsample_bilinear2d.default",
                                      "(args = (%p0, [6, 5], False), kwargs = {})"),
             "a, b, c, d, e, f", types);
    expect_refused(
        x,
        CALL("a", "aten.upsample_nearest2d.vec", "(args = (%p0, None, [1.3, 2.0]), kwargs = {})"),
        "a", "reciprocal");
}

/* upsample_nearest1d / upsample_linear1d: Unsqueeze to a unit H, Resize,
 * Squeeze; by size and by factor, align_corners, .default with scales */
static void test_upsample1d(void **state)
{
    (void)state;
    const spec x[] = {F32(2, 3, 5)};
    static const char *const types[] = {"Unsqueeze", "ResizeNearestNeighborV2", "ResizeBilinearV2",
                                        "Squeeze", NULL};
    // clang-format off
    run_case("upsample1d", x, 1,
             CALL("a", "aten.upsample_nearest1d.vec", "(args = (%p0, None, [2.0]), kwargs = {})")
             CALL("b", "aten.upsample_nearest1d.vec", "(args = (%p0, [7], None), kwargs = {})")
             CALL("c", "aten.upsample_linear1d.vec", "(args = (%p0, [9], False, None), kwargs = {})")
             CALL("d", "aten.upsample_linear1d.vec", "(args = (%p0, None, True, [2.5]), kwargs = {})")
             CALL("e", "aten.upsample_nearest1d.default", "(args = (%p0, [10], 2.0), kwargs = {})")
             CALL("f", "aten.upsample_linear1d.default", "(args = (%p0, [6], False), kwargs = {})"),
             "a, b, c, d, e, f", types);
    // clang-format on
}

/* upsample_nearest3d -> UpsampleNearest3d, upsample_trilinear3d ->
 * UpsampleTrilinear3d: by size, by factor (2.5 of a 3 long dim: sampled at
 * 1 / factor, so written as scales), align_corners, .default with scales; a
 * factor no 32-bit float scale reproduces is refused. */
static void test_upsample3d(void **state)
{
    (void)state;
    const spec x[] = {F32(2, 3, 3, 4, 5)};
    static const char *const types[] = {"UpsampleNearest3d", "UpsampleTrilinear3d", NULL};
    // clang-format off
    run_case("upsample3d", x, 1,
             CALL("a", "aten.upsample_nearest3d.vec", "(args = (%p0, None, [2.0, 1.5, 0.5]), kwargs = {})")
             CALL("b", "aten.upsample_nearest3d.vec", "(args = (%p0, None, [2.5, 1.3, 2.0]), kwargs = {})")
             CALL("c", "aten.upsample_trilinear3d.vec", "(args = (%p0, [4, 7, 3], False, None), kwargs = {})")
             CALL("d", "aten.upsample_trilinear3d.vec", "(args = (%p0, None, False, [2.5, 1.5, 0.6]), kwargs = {})")
             CALL("e", "aten.upsample_trilinear3d.vec", "(args = (%p0, None, True, [2.5, 1.3, 2.0]), kwargs = {})")
             CALL("f", "aten.upsample_nearest3d.default", "(args = (%p0, [6, 8, 10], 2.0, 2.0, 2.0), kwargs = {})")
             CALL("g", "aten.upsample_trilinear3d.default", "(args = (%p0, [2, 5, 9], False), kwargs = {})"),
             "a, b, c, d, e, f, g", types);
    // clang-format on
    /* D 3 -> 4 sampled at 1 / 1.2 (not 3 / 4), whose scale would make 3 */
    expect_refused(x,
                   CALL("a", "aten.upsample_trilinear3d.default",
                        "(args = (%p0, [4, 4, 5], False, 1.2), kwargs = {})"),
                   "a", "no Ascend IR form");
}

/* nearest-exact: 2-d -> ResizeNearestNeighborV2 with half_pixel_centers,
 * 1-d through a unit H, 3-d -> UpsampleNearestExact3d (a factor whose
 * 1 / factor is not in / out written as its source scale), and so the 1-d
 * and 2-d factors Resize cannot sample at (6 * 1.3 = 7, 1 / 1.3 is not
 * 6 / 7), Reshaped to 5-d; antialias -> UpsampleBilinear2dAA /
 * UpsampleBicubic2dAA, down- and upsampling, by size and by factor,
 * align_corners, .default with scales. Such a factor of an f64 result
 * (torch samples it in double) is refused. */
static void test_upsample_modes(void **state)
{
    (void)state;
    const spec x[] = {F32(2, 3, 6, 5)}, s[] = {F32(2, 3, 5)}, v[] = {F32(1, 2, 3, 4, 5)};
    static const char *const types[] = {"ResizeNearestNeighborV2", "UpsampleBilinear2dAA",
                                        "UpsampleBicubic2dAA", NULL};
    // clang-format off
    run_case("upsample_modes", x, 1,
             CALL("a", "aten._upsample_nearest_exact2d.vec", "(args = (%p0, [7, 3], None), kwargs = {})")
             CALL("b", "aten._upsample_nearest_exact2d.vec", "(args = (%p0, None, [2.0, 0.6]), kwargs = {})")
             CALL("c", "aten._upsample_nearest_exact2d.default", "(args = (%p0, [9, 4], None, 0.8), kwargs = {})")
             CALL("d", "aten._upsample_bilinear2d_aa.vec", "(args = (%p0, [2, 3], False, None), kwargs = {})")
             CALL("e", "aten._upsample_bilinear2d_aa.vec", "(args = (%p0, None, True, [1.5, 2.0]), kwargs = {})")
             CALL("f", "aten._upsample_bicubic2d_aa.vec", "(args = (%p0, None, False, [0.5, 0.3]), kwargs = {})")
             CALL("g", "aten._upsample_bicubic2d_aa.default", "(args = (%p0, [4, 9], True, None, None), kwargs = {})")
             CALL("h", "aten._upsample_bicubic2d_aa.default", "(args = (%p0, [3, 3], False, 0.45, 0.6), kwargs = {})"),
             "a, b, c, d, e, f, g, h", types);
    static const char *const types1[] = {"Unsqueeze", "ResizeNearestNeighborV2", "Squeeze", NULL};
    run_case("upsample_exact1d", s, 1,
             CALL("a", "aten._upsample_nearest_exact1d.vec", "(args = (%p0, None, [2.0]), kwargs = {})")
             CALL("b", "aten._upsample_nearest_exact1d.default", "(args = (%p0, [3], None), kwargs = {})"),
             "a, b", types1);
    static const char *const types3[] = {"UpsampleNearestExact3d", NULL};
    run_case("upsample_exact3d", v, 1,
             CALL("a", "aten._upsample_nearest_exact3d.vec", "(args = (%p0, None, [2.5, 1.3, 2.0]), kwargs = {})")
             CALL("b", "aten._upsample_nearest_exact3d.default", "(args = (%p0, [2, 7, 3], None, None, None), kwargs = {})"),
             "a, b", types3);
    static const char *const types_nd[] = {"Reshape", "UpsampleNearestExact3d", NULL};
    run_case("upsample_exact_nd", x, 1,
             CALL("a", "aten._upsample_nearest_exact2d.vec", "(args = (%p0, None, [1.3, 2.0]), kwargs = {})")
             CALL("b", "aten._upsample_nearest_exact2d.default", "(args = (%p0, [3, 7], 0.55, 1.5), kwargs = {})"),
             "a, b", types_nd);
    run_case("upsample_exact_1d_nd", s, 1,
             CALL("a", "aten._upsample_nearest_exact1d.vec", "(args = (%p0, None, [1.3]), kwargs = {})"),
             "a", types_nd);
    // clang-format on
    const spec xd[] = {TYPED(AIRC_DTYPE_F64, 2, 3, 6, 5)};
    expect_refused(xd,
                   CALL("a", "aten._upsample_nearest_exact2d.vec",
                        "(args = (%p0, None, [1.3, 2.0]), kwargs = {})"),
                   "a", "no Ascend IR form");
    const spec vd[] = {TYPED(AIRC_DTYPE_F64, 1, 2, 3, 4, 5)};
    expect_refused(vd,
                   CALL("a", "aten._upsample_nearest_exact3d.vec",
                        "(args = (%p0, None, [2.5, 1.0, 1.0]), kwargs = {})"),
                   "a", "no Ascend IR form");
}

static void test_activations(void **state)
{
    (void)state;
    const spec x[] = {F32(4, 5), F32(4, 5), F32(4, 5)};
    static const char *const types[] = {"Gelu",    "GeluV2",      "Swish",     "LeakyRelu",
                                        "ClipByValueV2", "Maximum", "Minimum", "HardSigmoid",
                                        "HardSwish",     NULL};
    run_case(
        "activations", x, 3,
        CALL("a", "aten.gelu.default", "(args = (%p0,), kwargs = {})") CALL(
            "b", "aten.gelu.default", "(args = (%p0,), kwargs = {approximate: tanh})")
            CALL("c", "aten.silu.default", "(args = (%p0,), kwargs = {})") CALL(
                "d", "aten.hardtanh.default", "(args = (%p0, -0.5, 0.75), kwargs = {})")
                CALL("e", "aten.leaky_relu.default", "(args = (%p0, 0.2), kwargs = {})") CALL(
                    "f", "aten.clamp.default", "(args = (%p0, -1, 1.5), kwargs = {})")
                    CALL("g", "aten.clamp.default", "(args = (%p0, None, 0.5), kwargs = {})") CALL(
                        "h", "aten.clamp.Tensor", "(args = (%p0, %p1, %p2), kwargs = {})")
                        CALL("i", "aten.clamp_min.default", "(args = (%p0, 0.25), kwargs = {})")
                            CALL("j", "aten.clamp_min.Tensor", "(args = (%p0, %p1), kwargs = {})")
                                CALL("k", "aten.clamp_max.default",
                                     "(args = (%p0, 0.25), kwargs = {})")
                                    CALL("l", "aten.clamp_max.Tensor",
                                         "(args = (%p0, %p2), kwargs = {})")
        /* x * 3 reaches hardsigmoid's and hardswish's flat parts (|x| > 3) */
        CALL("m", "aten.mul.Tensor", "(args = (%p0, 3), kwargs = {})")
            CALL("n", "aten.hardsigmoid.default", "(args = (%m,), kwargs = {})")
                CALL("o", "aten.hardswish.default", "(args = (%m,), kwargs = {})"),
        "a, b, c, d, e, f, g, h, i, j, k, l, n, o", types);
}

static void test_div_log_xor(void **state)
{
    (void)state;
    const spec x[] = {F32(3, 4), POS32(3, 4), TYPED(AIRC_DTYPE_I64, 3, 4),
                      TYPED(AIRC_DTYPE_BOOL, 3, 4), TYPED(AIRC_DTYPE_BOOL, 3, 4)};
    static const char *const types[] = {"FloorDiv", "TruncateDiv", "Trunc",
                                        "NotEqual", "Log",         NULL};
    run_case(
        "div/log2/xor", x, 5,
        CALL("a", "aten.div.Tensor_mode", "(args = (%p0, %p1), kwargs = {rounding_mode: floor})")
            CALL("b", "aten.div.Tensor_mode",
                 "(args = (%p0, %p1), kwargs = {rounding_mode: trunc})")
                CALL("c", "aten.div.Scalar_mode",
                     "(args = (%p2, 3), kwargs = {rounding_mode: trunc})")
                    CALL("d", "aten.div.Scalar_mode",
                         "(args = (%p2, 3), kwargs = {rounding_mode: floor})")
                        CALL("e", "aten.div.Tensor_mode",
                             "(args = (%p0, %p1), kwargs = {rounding_mode: None})")
                            CALL("f", "aten.log2.default", "(args = (%p1,), kwargs = {})")
                                CALL("g", "aten.logical_xor.default",
                                     "(args = (%p3, %p4), kwargs = {})"),
        "a, b, c, d, e, f, g", types);
}

/* baddbmm -> BatchMatMul, scaled, plus the scaled self (broadcast); beta 0
 * leaves self out */
static void test_baddbmm(void **state)
{
    (void)state;
    const spec x[] = {F32(2, 3, 5), F32(2, 3, 4), F32(2, 4, 5), F32(5)};
    static const char *const types[] = {"BatchMatMul", "Mul", "Add", NULL};
    // clang-format off
    run_case("baddbmm", x, 4,
             CALL("a", "aten.baddbmm.default", "(args = (%p0, %p1, %p2), kwargs = {})")
             CALL("b", "aten.baddbmm.default",
                  "(args = (%p3, %p1, %p2), kwargs = {beta: 0.5, alpha: -2})")
             CALL("c", "aten.baddbmm.default", "(args = (%p0, %p1, %p2), kwargs = {beta: 0})"),
             "a, b, c", types);
    // clang-format on
}

/* mv and dot -> MatMul of the vectors as matrices, reshaped back; an
 * integer mv too */
static void test_mv_dot(void **state)
{
    (void)state;
    const spec x[] = {F32(3, 4), F32(4), F32(4), TYPED(AIRC_DTYPE_I64, 2, 4),
                      TYPED(AIRC_DTYPE_I64, 4)};
    static const char *const types[] = {"MatMul", "Reshape", NULL};
    // clang-format off
    run_case("mv_dot", x, 5,
             CALL("a", "aten.mv.default", "(args = (%p0, %p1), kwargs = {})")
             CALL("b", "aten.dot.default", "(args = (%p1, %p2), kwargs = {})")
             CALL("c", "aten.mv.default", "(args = (%p3, %p4), kwargs = {})")
             CALL("d", "aten.dot.default", "(args = (%p2,), kwargs = {tensor: %p1})"),
             "a, b, c, d", types);
    // clang-format on
}

/* the trigonometric and hyperbolic ops, erfc, log10 (Log and a Mul),
 * sgn (Sign), frac (Trunc and Sub), threshold (LessEqual and MaskedFill,
 * on floats and integers), log_sigmoid_forward's two results; NaN where
 * out of the domain, as eager */
static void test_trig_frac_threshold(void **state)
{
    (void)state;
    const spec x[] = {F32(3, 4), POS32(3, 4), TYPED(AIRC_DTYPE_I64, 3, 4)};
    static const char *const types[] = {"Tan",  "Atan",  "Asin",  "Acos",       "Sinh",
                                        "Cosh", "Asinh", "Acosh", "Atanh",      "Erfc",
                                        "Log",  "Sign",  "Trunc", "MaskedFill", NULL};
    // clang-format off
    run_case("trig", x, 3,
             CALL("a", "aten.tan.default", "(args = (%p0,), kwargs = {})")
             CALL("b", "aten.atan.default", "(args = (%p0,), kwargs = {})")
             CALL("c", "aten.asin.default", "(args = (%p0,), kwargs = {})")
             CALL("d", "aten.acos.default", "(args = (%p0,), kwargs = {})")
             CALL("e", "aten.sinh.default", "(args = (%p0,), kwargs = {})")
             CALL("f", "aten.cosh.default", "(args = (%p0,), kwargs = {})")
             CALL("g", "aten.asinh.default", "(args = (%p0,), kwargs = {})")
             CALL("h", "aten.acosh.default", "(args = (%p1,), kwargs = {})")
             CALL("i", "aten.atanh.default", "(args = (%p0,), kwargs = {})")
             CALL("j", "aten.erfc.default", "(args = (%p0,), kwargs = {})")
             CALL("k", "aten.log10.default", "(args = (%p1,), kwargs = {})")
             CALL("l", "aten.sgn.default", "(args = (%p0,), kwargs = {})")
             CALL("m", "aten.frac.default", "(args = (%p0,), kwargs = {})")
             CALL("n", "aten.threshold.default", "(args = (%p0, 0.25, -7.5), kwargs = {})")
             CALL("o", "aten.threshold.default", "(args = (%p2, 1, 9), kwargs = {})")
             CALL("p", "aten.tan.default", "(args = (%p2,), kwargs = {})")
             CALL("q", "aten.log_sigmoid_forward.default", "(args = (%p0,), kwargs = {})")
             CALL("q0", "operator.getitem", "(args = (%q, 0), kwargs = {})")
             CALL("q1", "operator.getitem", "(args = (%q, 1), kwargs = {})"),
             "a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q0, q1", types);
    // clang-format on
}

/* fmax / fmin / logaddexp / xlogy: NaN-aware composites of SelectV2 (the
 * random inputs hold no NaN; the value sweep and meta sweep cover those in
 * eager) on broadcast operands, integers too */
static void test_nan_aware(void **state)
{
    (void)state;
    const spec x[] = {F32(3, 4), F32(4), POS32(3, 4), TYPED(AIRC_DTYPE_I64, 3, 4),
                      TYPED(AIRC_DTYPE_I64, 4)};
    static const char *const types[] = {"SelectV2", "IsNan", "IsInf", "Log1p", NULL};
    // clang-format off
    run_case("nan_aware", x, 5,
             CALL("a", "aten.fmax.default", "(args = (%p0, %p1), kwargs = {})")
             CALL("b", "aten.fmin.default", "(args = (%p1, %p0), kwargs = {})")
             CALL("c", "aten.logaddexp.default", "(args = (%p0, %p1), kwargs = {})")
             CALL("d", "aten.xlogy.Tensor", "(args = (%p0, %p2), kwargs = {})")
             CALL("e", "aten.xlogy.Scalar_Other", "(args = (%p1, 2.5), kwargs = {})")
             CALL("f", "aten.fmax.default", "(args = (%p3, %p4), kwargs = {})")
             CALL("g", "aten.xlogy.Tensor", "(args = (%p3, %p2), kwargs = {})"),
             "a, b, c, d, e, f, g", types);
    // clang-format on
}

/* addcmul / addcdiv -> Addcmul / Addcdiv (value a Const; integers wrap),
 * lerp with a Scalar or a Tensor weight -> Lerp, on broadcast operands */
static void test_addc_lerp(void **state)
{
    (void)state;
    const spec x[] = {F32(3, 4), F32(4), POS32(3, 1), TYPED(AIRC_DTYPE_I64, 3, 4),
                      TYPED(AIRC_DTYPE_I64, 4)};
    static const char *const types[] = {"Addcmul", "Addcdiv", "Lerp", NULL};
    // clang-format off
    run_case("addc/lerp", x, 5,
             CALL("a", "aten.addcmul.default", "(args = (%p0, %p1, %p2), kwargs = {value: 0.5})")
             CALL("b", "aten.addcdiv.default", "(args = (%p1, %p0, %p2), kwargs = {})")
             CALL("c", "aten.addcmul.default", "(args = (%p3, %p4, %p3), kwargs = {value: -3})")
             CALL("d", "aten.lerp.Scalar", "(args = (%p0, %p1, 0.75), kwargs = {})")
             CALL("e", "aten.lerp.Tensor", "(args = (%p1, %p0, %p2), kwargs = {})"),
             "a, b, c, d, e", types);
    // clang-format on
}

/* hardshrink / softshrink -> HardShrink / SoftShrink, celu -> Elu, the
 * special functions -> Erfinv / Lgamma / Digamma, and the composites of
 * logit (with and without eps), sinc, deg2rad, signbit (floats and
 * integers) and heaviside */
static void test_shrink_special(void **state)
{
    (void)state;
    const spec x[] = {F32(3, 4), POS32(3, 4), TYPED(AIRC_DTYPE_I64, 3, 4), F32(4)};
    static const char *const types[] = {"HardShrink", "SoftShrink", "Elu",     "Erfinv",
                                        "Lgamma",     "Digamma",    "RealDiv", "SelectV2",
                                        NULL};
    // clang-format off
    run_case("shrink/special", x, 4,
             CALL("a", "aten.hardshrink.default", "(args = (%p0, 0.3), kwargs = {})")
             CALL("b", "aten.softshrink.default", "(args = (%p0,), kwargs = {})")
             CALL("c", "aten.celu.default", "(args = (%p0, 0.5), kwargs = {})")
             CALL("h", "aten.tanh.default", "(args = (%p0,), kwargs = {})")
             CALL("d", "aten.erfinv.default", "(args = (%h,), kwargs = {})")
             CALL("e", "aten.lgamma.default", "(args = (%p1,), kwargs = {})")
             CALL("f", "aten.digamma.default", "(args = (%p1,), kwargs = {})")
             CALL("s", "aten.sigmoid.default", "(args = (%p0,), kwargs = {})")
             CALL("g", "aten.logit.default", "(args = (%s,), kwargs = {})")
             CALL("i", "aten.logit.default", "(args = (%p0, 0.25), kwargs = {})")
             CALL("j", "aten.sinc.default", "(args = (%p0,), kwargs = {})")
             CALL("k", "aten.deg2rad.default", "(args = (%p2,), kwargs = {})")
             CALL("l", "aten.signbit.default", "(args = (%p0,), kwargs = {})")
             CALL("m", "aten.signbit.default", "(args = (%p2,), kwargs = {})")
             CALL("r", "aten.round.default", "(args = (%p0,), kwargs = {})")
             CALL("n", "aten.heaviside.default", "(args = (%r, %p3), kwargs = {})"),
             "a, b, c, d, e, f, g, i, j, k, l, m, n", types);
    // clang-format on
}

/* remainder -> FloorMod, fmod -> Mod, floor_divide -> FloorDiv, atan2
 * (integers in float), bitwise ops on integers and bools */
static void test_mod_bitwise(void **state)
{
    (void)state;
    const spec x[] = {F32(3, 4), POS32(3, 4), TYPED(AIRC_DTYPE_I64, 3, 4),
                      TYPED(AIRC_DTYPE_BOOL, 3, 4), TYPED(AIRC_DTYPE_BOOL, 3, 4)};
    static const char *const types[] = {"FloorMod",   "Mod",       "FloorDiv",   "Atan2",
                                        "BitwiseAnd", "BitwiseOr", "BitwiseXor", NULL};
    // clang-format off
    run_case("mod/bitwise", x, 5,
             CALL("a", "aten.remainder.Tensor", "(args = (%p0, %p1), kwargs = {})")
             CALL("b", "aten.remainder.Scalar", "(args = (%p2, -3), kwargs = {})")
             CALL("c", "aten.fmod.Tensor", "(args = (%p0, %p1), kwargs = {})")
             CALL("d", "aten.fmod.Scalar", "(args = (%p2, 3), kwargs = {})")
             CALL("e", "aten.floor_divide.default", "(args = (%p0, %p1), kwargs = {})")
             CALL("f", "aten.atan2.default", "(args = (%p2, %p2), kwargs = {})")
             CALL("g", "aten.bitwise_and.Tensor", "(args = (%p3, %p4), kwargs = {})")
             CALL("h", "aten.bitwise_or.Scalar", "(args = (%p2, 6), kwargs = {})")
             CALL("i", "aten.bitwise_xor.Tensor", "(args = (%p2, %p2), kwargs = {})"),
             "a, b, c, d, e, f, g, h, i", types);
    // clang-format on
}

static void test_linear_matmul(void **state)
{
    (void)state;
    const spec x[] = {F32(2, 3, 6), F32(5, 6),       F32(5), F32(4, 6), F32(6, 5),
                      F32(2, 6, 5), F32(6), F32(1, 2, 2, 6), F32(2, 1)};
    static const char *const types[] = {"MatMulV2", "BatchMatMulV2", NULL};
    /* f and g: a 1-d weight (torch 1.13's matmul(input, weight), then add_) */
    run_case("linear/matmul", x, 9,
             CALL("a", "aten.linear.default", "(args = (%p0, %p1, %p2), kwargs = {})")
                 CALL("b", "aten.linear.default", "(args = (%p3, %p1), kwargs = {})")
                     CALL("c", "aten.matmul.default", "(args = (%p3, %p4), kwargs = {})")
                         CALL("d", "aten.matmul.default", "(args = (%p0, %p4), kwargs = {})")
                             CALL("e", "aten.matmul.default", "(args = (%p0, %p5), kwargs = {})")
                                 CALL("f", "aten.linear.default", "(args = (%p0, %p6), kwargs = {})")
                                     CALL("g", "aten.linear.default",
                                          "(args = (%p7, %p6, %p8), kwargs = {})"),
             "a, b, c, d, e, f, g", types);
}

/* ---- Householder QR (convert_householder.c) ------------------------------------------------ */

/* A zero first column (||x|| == 0: tau 0, the column kept) and a -0 on the
 * diagonal (LAPACK's sign(-0) is -: beta positive) */
static const double zero_column[] = {0, 1, 2, 0, 3, 1, 0, 1, 1, 0, 2, 2};
static const double negative_zero[] = {-0.0, 1, 2, 1, 3, 1, 0, 1, 1};

/* geqrf of input p<i>: a<i>, t<i> */
#define GEQRF(i)                                                                                   \
    CALL("g" #i, "aten.geqrf.default", "(args = (%p" #i ",), kwargs = {})")                        \
    CALL("a" #i, "operator.getitem", "(args = (%g" #i ", 0), kwargs = {})")                        \
    CALL("t" #i, "operator.getitem", "(args = (%g" #i ", 1), kwargs = {})")

/* geqrf of tall, wide and square batches, a zero column, -0 and an empty
 * matrix (f64 and f32); more reflectors than are unrolled refused */
static void test_geqrf(void **state)
{
    (void)state;
    const spec x[] = {TYPED(AIRC_DTYPE_F64, 2, 5, 3), TYPED(AIRC_DTYPE_F32, 2, 3, 5),
                      TYPED(AIRC_DTYPE_F64, 4, 3), TYPED(AIRC_DTYPE_F32, 3, 3),
                      TYPED(AIRC_DTYPE_F64, 2, 0, 3)};
    const double *const values[] = {NULL, NULL, zero_column, negative_zero, NULL};
    static const char *const types[] = {"GatherV2", "SelectV2",    "ReduceSum",
                                        "Sqrt",     "BatchMatMul", NULL};
    run_case_values("geqrf", x, values, 5, GEQRF(0) GEQRF(1) GEQRF(2) GEQRF(3) GEQRF(4),
                    "a0, t0, a1, t1, a2, t2, a3, t3, a4, t4", types);
    const spec big = F32(66, 65); /* 65 reflectors: past the unrolled 64 */
    expect_refused(&big, GEQRF(0), "a0", "has no Ascend IR lowering here: its 65 Householder");
}

/* linalg_householder_product of geqrf's reflectors (a zero column's among
 * them), of fewer reflectors than columns, of none, and an empty Q */
static void test_householder_product(void **state)
{
    (void)state;
    const spec x[] = {TYPED(AIRC_DTYPE_F64, 2, 5, 3), TYPED(AIRC_DTYPE_F64, 4, 3),
                      TYPED(AIRC_DTYPE_F64, 2, 2), TYPED(AIRC_DTYPE_F64, 2, 0),
                      TYPED(AIRC_DTYPE_F64, 2, 3, 0)};
    const double *const values[] = {NULL, zero_column, NULL, NULL, NULL};
    static const char *const types[] = {"BatchMatMul", "GatherV2", NULL};
    // clang-format off
    run_case_values("householder_product", x, values, 5,
             GEQRF(0) GEQRF(1)
             CALL("q", "aten.linalg_householder_product.default", "(args = (%a0, %t0), kwargs = {})")
             CALL("r", "aten.linalg_householder_product.default", "(args = (%a1, %t1), kwargs = {})")
             CALL("f", "aten.linalg_householder_product.default", "(args = (%p0, %p2), kwargs = {})")
             CALL("i", "aten.linalg_householder_product.default", "(args = (%p0, %p3), kwargs = {})")
             CALL("e", "aten.linalg_householder_product.default", "(args = (%p4, %p3), kwargs = {})"),
             "q, r, f, i, e", types);
    // clang-format on
}

/* ormqr of geqrf's reflectors: Q C, Q^T C, C Q, C Q^T, and an empty C */
static void test_ormqr(void **state)
{
    (void)state;
    const spec x[] = {TYPED(AIRC_DTYPE_F64, 2, 5, 3), TYPED(AIRC_DTYPE_F64, 2, 5, 4),
                      TYPED(AIRC_DTYPE_F64, 2, 4, 5), TYPED(AIRC_DTYPE_F64, 2, 5, 0)};
    static const char *const types[] = {"BatchMatMul", "GatherV2", NULL};
    // clang-format off
    run_case("ormqr", x, 4,
             GEQRF(0)
             CALL("qc", "aten.ormqr.default", "(args = (%a0, %t0, %p1), kwargs = {})")
             CALL("qtc", "aten.ormqr.default", "(args = (%a0, %t0, %p1, True, True), kwargs = {})")
             CALL("cq", "aten.ormqr.default", "(args = (%a0, %t0, %p2, False), kwargs = {})")
             CALL("cqt", "aten.ormqr.default", "(args = (%a0, %t0, %p2, False, True), kwargs = {})")
             CALL("e", "aten.ormqr.default", "(args = (%a0, %t0, %p3), kwargs = {})"),
             "qc, qtc, cq, cqt, e", types);
    // clang-format on
}

/* ---- malformed models --------------------------------------------------------------------- */

/* Compiles body, then feeds its model with attribute `key` of the first op
 * of `type` renamed to the reference executor: AIRC_E_INVALID_GRAPH naming
 * the op. */
static void expect_missing_attr(const spec *specs, size_t nin, const char *body, const char *ret,
                                const char *type, const char *key)
{
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    char *text = graph_text(nin, body, ret);
    airc_graph *g = airc_test_parse(ctx, text);
    free(text);
    airc_tensor *in[8], *out[MAXOUT] = {NULL};
    for (size_t i = 0; i < nin; i++)
        in[i] = random_tensor(ctx, &specs[i]);
    airc_config *cfg;
    AIRC_ASSERT_OK(airc_config_create(ctx, &cfg));
    AIRC_ASSERT_OK(airc_config_set(cfg, "mode", "max-autotune"));
    airc_compile_options o;
    airc_compile_options_init(&o);
    o.config = cfg;
    airc_compiled *c;
    AIRC_ASSERT_OK(airc_compile(g, &o, &c));
    size_t nout;
    AIRC_ASSERT_OK(airc_compiled_run(c, in, nin, out, MAXOUT, &nout));
    const uint8_t *bytes;
    size_t len;
    AIRC_ASSERT_OK(airc_compiled_model(c, &bytes, &len));
    Ge__Proto__ModelDef *m = ge__proto__model_def__unpack(NULL, len, bytes);
    assert_non_null(m);
    bool edited = false;
    Ge__Proto__GraphDef *gd = m->graph[0];
    for (size_t i = 0; i < gd->n_op && !edited; i++) {
        if (strcmp(gd->op[i]->type, type))
            continue;
        for (size_t a = 0; a < gd->op[i]->n_attr; a++)
            if (!strcmp(gd->op[i]->attr[a]->key, key)) {
                gd->op[i]->attr[a]->key[0] = '#'; /* no longer the attribute */
                edited = true;
            }
    }
    assert_true(edited);
    airc_graph *raised = NULL;
    airc_status st = airc_ge_raise_model(ctx, m, &raised, NULL);
    AIRC_EXPECT(st, AIRC_E_INVALID_GRAPH, type);
    assert_non_null(strstr(airc_last_error(), key + 1));
    assert_null(raised);
    ge__proto__model_def__free_unpacked(m, NULL);
    for (size_t k = 0; k < nout; k++)
        airc_tensor_destroy(out[k]);
    for (size_t i = 0; i < nin; i++)
        airc_tensor_destroy(in[i]);
    airc_compiled_destroy(c);
    airc_config_destroy(cfg);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

static void test_malformed(void **state)
{
    (void)state;
    const spec x[] = {F32(2, 8)};
    expect_missing_attr(x, 1,
                        CALL("m", "aten.max.dim", "(args = (%p0, 1), kwargs = {})")
                            CALL("m0", "operator.getitem", "(args = (%m, 0), kwargs = {})"),
                        "m0", "ArgMaxWithValue", "dimension");
    expect_missing_attr(x, 1,
                        CALL("s", "aten._softmax.default", "(args = (%p0, 1, False), kwargs = {})"),
                        "s", "SoftmaxV2", "axes");
    expect_missing_attr(x, 1,
                        CALL("l", "aten.native_layer_norm.default",
                             "(args = (%p0, [8], None, None, 1e-05), kwargs = {})")
                            CALL("l0", "operator.getitem", "(args = (%l, 0), kwargs = {})"),
                        "l0", "LayerNormV3", "epsilon");
    const spec img[] = {F32(1, 2, 6, 6)};
    expect_missing_attr(
        img, 1,
        CALL("m", "aten.max_pool2d_with_indices.default", "(args = (%p0, [2, 2]), kwargs = {})")
            CALL("m0", "operator.getitem", "(args = (%m, 0), kwargs = {})"),
        "m0", "MaxPoolWithArgmaxV1", "ksize");
    expect_missing_attr(img, 1,
                        CALL("u", "aten._upsample_bicubic2d_aa.vec",
                             "(args = (%p0, [3, 4], False, None), kwargs = {})"),
                        "u", "UpsampleBicubic2dAA", "output_size");
    const spec vol[] = {F32(1, 2, 3, 4, 5)};
    expect_missing_attr(vol, 1,
                        CALL("u", "aten._upsample_nearest_exact3d.vec",
                             "(args = (%p0, [2, 5, 3], None), kwargs = {})"),
                        "u", "UpsampleNearestExact3d", "output_size");
    /* a required attribute; output_padding's default disagrees with input_size */
    const spec ct[] = {F32(1, 2, 3, 3), F32(2, 2, 2, 2)};
    const char *conv_t = CALL("c", "aten.convolution.default",
                              "(args = (%p0, %p1, None, [2, 2], [0, 0], [1, 1], True, [1, 1], 1), "
                              "kwargs = {})");
    expect_missing_attr(ct, 2, conv_t, "c", "Conv2DTranspose", "strides");
    expect_missing_attr(ct, 2, conv_t, "c", "Conv2DTranspose", "output_padding");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reductions),
        cmocka_unit_test(test_logical),
        cmocka_unit_test(test_arg_reductions),
        cmocka_unit_test(test_var),
        cmocka_unit_test(test_softmax_cumsum),
        cmocka_unit_test(test_layer_norm),
        cmocka_unit_test(test_conv_pool),
        cmocka_unit_test(test_conv_transpose),
        cmocka_unit_test(test_conv3d),
        cmocka_unit_test(test_pool3d),
        cmocka_unit_test(test_fractional_pool),
        cmocka_unit_test(test_max_unpool),
        cmocka_unit_test(test_weight_norm),
        cmocka_unit_test(test_batch_norm),
        cmocka_unit_test(test_group_norm),
        cmocka_unit_test(test_upsample),
        cmocka_unit_test(test_upsample1d),
        cmocka_unit_test(test_upsample3d),
        cmocka_unit_test(test_upsample_modes),
        cmocka_unit_test(test_adaptive_max),
        cmocka_unit_test(test_upsample_bicubic),
        cmocka_unit_test(test_sort_topk),
        cmocka_unit_test(test_more_activations),
        cmocka_unit_test(test_activations),
        cmocka_unit_test(test_div_log_xor),
        cmocka_unit_test(test_linear_matmul),
        cmocka_unit_test(test_mod_bitwise),
        cmocka_unit_test(test_baddbmm),
        cmocka_unit_test(test_mv_dot),
        cmocka_unit_test(test_nan_aware),
        cmocka_unit_test(test_addc_lerp),
        cmocka_unit_test(test_shrink_special),
        cmocka_unit_test(test_trig_frac_threshold),
        cmocka_unit_test(test_std_lse_norm),
        cmocka_unit_test(test_geqrf),
        cmocka_unit_test(test_householder_product),
        cmocka_unit_test(test_ormqr),
        cmocka_unit_test(test_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
