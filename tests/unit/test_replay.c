/* reduce-overhead through the public compile API (airc/compile.h): capture
 * and replay over fresh inputs on every conformance case, recapture on a
 * shape change, the capture limit, static and mutated inputs, the
 * copy-free airc_compiled_run_views, output lifetimes and output clones,
 * the eager modes, the generic (per-launch vtable) driver over a wrapped
 * CPU runtime, errors (a failing kernel included), concurrent callers and
 * remove_cat_ops.
 * Results are checked against PyTorch's (the .out*.npy files) and against
 * airc_run_eager on the same inputs. */
#include "testcase.h"
#include "testutil.h"

#include "airc/compile.h"
#include "airc/runtime.h"

#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXIN AIRC_TEST_MAXIN
#define MAXOUT AIRC_TEST_MAXOUT

/* ---- tensors ------------------------------------------------------------ */

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* dst = src with every float scaled by a random factor in [0.75, 1.25]
 * (the sign, and with it the domain of log/sqrt/..., is kept); integer and
 * bool elements are copied unchanged (indices stay valid). */
static void perturb_into(airc_tensor *dst, const airc_tensor *src, uint64_t seed)
{
    size_t n = airc_tensor_numel(src);
    memcpy(airc_tensor_data(dst), airc_tensor_data(src), airc_tensor_nbytes(src));
    uint64_t s = seed;
    if (airc_tensor_dtype(src) == AIRC_DTYPE_F32) {
        float *d = airc_tensor_data(dst);
        for (size_t i = 0; i < n; i++)
            d[i] *= (float)(0.75 + 0.5 * (double)(splitmix(&s) >> 11) / 9007199254740992.0);
    } else if (airc_tensor_dtype(src) == AIRC_DTYPE_F64) {
        double *d = airc_tensor_data(dst);
        for (size_t i = 0; i < n; i++)
            d[i] *= 0.75 + 0.5 * (double)(splitmix(&s) >> 11) / 9007199254740992.0;
    }
}

static airc_tensor *make_f32(airc_context *ctx, int64_t r, int64_t c, double seed)
{
    int64_t shape[2] = {r, c};
    airc_tensor *t;
    AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_F32, 2, shape, &t));
    float *d = airc_tensor_data(t);
    for (int64_t i = 0; i < r * c; i++)
        d[i] = (float)(2.0 * sin(0.37 * (double)i + seed));
    return t;
}

static void fill_f32(airc_tensor *t, double seed)
{
    float *d = airc_tensor_data(t);
    for (size_t i = 0; i < airc_tensor_numel(t); i++)
        d[i] = (float)(2.0 * sin(0.37 * (double)i + seed));
}

static void view_of(const airc_tensor *t, airc_tview *v)
{
    memset(v, 0, sizeof *v);
    v->data = airc_tensor_data(t);
    v->dtype = airc_tensor_dtype(t);
    v->ndim = airc_tensor_ndim(t);
    int64_t stride = 1;
    for (int32_t d = v->ndim - 1; d >= 0; d--) {
        v->shape[d] = airc_tensor_shape(t)[d];
        v->strides[d] = stride;
        stride *= v->shape[d] > 1 ? v->shape[d] : 1;
    }
}

static airc_compiled_stats stats_of(const airc_compiled *c)
{
    airc_compiled_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    AIRC_ASSERT_OK(airc_compiled_get_stats(c, &s));
    return s;
}

static airc_compiled *compile_with(airc_graph *g, const airc_config *cfg, airc_runtime *rt,
                                   const size_t *statics, size_t nstatics)
{
    airc_compile_options o;
    airc_compile_options_init(&o);
    o.config = cfg;
    o.runtime = rt;
    o.static_inputs = statics;
    o.nstatic_inputs = nstatics;
    airc_compiled *c = NULL;
    AIRC_ASSERT_OK(airc_compile(g, &o, &c));
    return c;
}

static airc_config *config_with(airc_context *ctx, const char *key, const char *value)
{
    airc_config *cfg;
    AIRC_ASSERT_OK(airc_config_create(ctx, &cfg));
    if (key)
        AIRC_ASSERT_OK(airc_config_set(cfg, key, value));
    return cfg;
}

/* ---- small graphs --------------------------------------------------------- */

/* relu(x * y + x) */
static const char *const SIMPLE =
    "graph():\n"
    "    %x : [#users=2] = placeholder[target=x]\n"
    "    %y : [#users=1] = placeholder[target=y]\n"
    "    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, %y), "
    "kwargs = {})\n"
    "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul, %x), "
    "kwargs = {})\n"
    "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%add,), "
    "kwargs = {})\n"
    "    return (relu,)\n";

static bool simple_ok(const airc_tensor *out, const airc_tensor *x, const airc_tensor *y)
{
    if (airc_tensor_numel(out) != airc_tensor_numel(x) || airc_tensor_ndim(out) != 2 ||
        airc_tensor_shape(out)[0] != airc_tensor_shape(x)[0] ||
        airc_tensor_shape(out)[1] != airc_tensor_shape(x)[1]) {
        print_error("simple: wrong result shape\n");
        return false;
    }
    const float *o = airc_tensor_data(out), *a = airc_tensor_data(x), *b = airc_tensor_data(y);
    for (size_t i = 0; i < airc_tensor_numel(x); i++) {
        float v = a[i] * b[i] + a[i];
        v = v > 0 ? v : 0;
        if (fabsf(o[i] - v) > 1e-5f) {
            print_error("simple: element %zu is %g, want %g\n", i, o[i], v);
            return false;
        }
    }
    return true;
}

static void run_simple(airc_compiled *c, airc_tensor *x, airc_tensor *y)
{
    airc_tensor *in[2] = {x, y}, *out[2] = {NULL};
    size_t n = 0;
    AIRC_ASSERT_OK(airc_compiled_run(c, in, 2, out, 2, &n));
    assert_int_equal(n, 1);
    assert_true(simple_ok(out[0], x, y));
    airc_tensor_destroy(out[0]);
}

static const char *const MM = "graph():\n"
                              "    %x : [#users=1] = placeholder[target=x]\n"
                              "    %w : [#users=1] = placeholder[target=w]\n"
                              "    %mm : [#users=1] = call_function[target=torch.ops.aten.mm."
                              "default](args = (%x, %w), kwargs = {})\n"
                              "    return (mm,)\n";

static bool mm_ok(const airc_tensor *out, const airc_tensor *x, const airc_tensor *w)
{
    int64_t m = airc_tensor_shape(x)[0], k = airc_tensor_shape(x)[1], n = airc_tensor_shape(w)[1];
    if (airc_tensor_ndim(out) != 2 || airc_tensor_shape(out)[0] != m ||
        airc_tensor_shape(out)[1] != n) {
        print_error("mm: wrong result shape\n");
        return false;
    }
    const float *o = airc_tensor_data(out), *a = airc_tensor_data(x), *b = airc_tensor_data(w);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0;
            for (int64_t q = 0; q < k; q++)
                s += (double)a[i * k + q] * b[q * n + j];
            if (fabs(o[i * n + j] - s) > 1e-4 * (1 + fabs(s))) {
                print_error("mm: [%lld, %lld] is %g, want %g\n", (long long)i, (long long)j,
                            o[i * n + j], s);
                return false;
            }
        }
    return true;
}

/* ---- 1. conformance over fresh inputs --------------------------------------- */

#define CASE_FAIL(...)                                                                             \
    do {                                                                                           \
        print_error(__VA_ARGS__);                                                                  \
        ok = false;                                                                                \
        goto done;                                                                                 \
    } while (0)

/* Runs the compiled graph on `ins` (rewritten in place, so that the
 * addresses stay those of the capture) and compares with eager on a copy
 * of the same data. */
static bool run_vs_eager(airc_context *ctx, airc_graph *g, airc_compiled *c, airc_test_case *k,
                         airc_tensor **ins, const char *label)
{
    bool ok = true;
    airc_tensor *copy[MAXIN] = {NULL}, *out[MAXOUT] = {NULL}, *ref[MAXOUT] = {NULL};
    size_t nout = 0, nref = 0;
    for (size_t i = 0; i < k->nin; i++)
        copy[i] = airc_test_clone(ctx, ins[i]);
    airc_status st = airc_compiled_run(c, ins, k->nin, out, MAXOUT, &nout);
    if (st != AIRC_OK)
        CASE_FAIL("%s/%s (%s): compiled run: %s: %s\n", k->dir, k->name, label,
                  airc_status_name(st), airc_last_error());
    st = airc_run_eager(g, NULL, copy, k->nin, ref, MAXOUT, &nref, NULL);
    if (st != AIRC_OK)
        CASE_FAIL("%s/%s (%s): eager run: %s: %s\n", k->dir, k->name, label, airc_status_name(st),
                  airc_last_error());
    if (nout != nref)
        CASE_FAIL("%s/%s (%s): %zu results, eager gives %zu\n", k->dir, k->name, label, nout, nref);
    for (size_t i = 0; i < nout; i++) {
        char what[512];
        snprintf(what, sizeof what, "%s/%s (%s) result %zu vs eager", k->dir, k->name, label, i);
        if (!airc_test_same_values(out[i], ref[i], what))
            ok = false;
    }
done:
    airc_test_destroy_all(copy, k->nin);
    airc_test_destroy_all(out, nout);
    airc_test_destroy_all(ref, nref);
    return ok;
}

static bool run_case(airc_context *ctx, airc_test_case *k)
{
    bool ok = true;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.fx", k->dir, k->name);
    airc_graph *g = NULL;
    airc_compiled *c = NULL;
    airc_tensor *ins[MAXIN] = {NULL}, *out[MAXOUT] = {NULL};
    size_t nout = 0;
    if (!airc_test_case_load(ctx, k))
        CASE_FAIL("%s: cannot load the case\n", path);
    if (airc_graph_parse_file(ctx, path, &g) != AIRC_OK)
        CASE_FAIL("%s: %s\n", path, airc_last_error());
    airc_compile_options o;
    airc_compile_options_init(&o);
    airc_status st = airc_compile(g, &o, &c);
    if (st != AIRC_OK)
        CASE_FAIL("%s: compile: %s: %s\n", path, airc_status_name(st), airc_last_error());
    for (size_t i = 0; i < k->nin; i++)
        ins[i] = airc_test_clone(ctx, k->in[i]);

    /* run 1: perturbed inputs (capture), checked against eager */
    for (size_t i = 0; i < k->nin; i++)
        perturb_into(ins[i], k->in[i], 1000 + i);
    if (!run_vs_eager(ctx, g, c, k, ins, "run 1, perturbed"))
        ok = false;

    /* run 2: the real inputs, checked against PyTorch */
    for (size_t i = 0; i < k->nin; i++)
        memcpy(airc_tensor_data(ins[i]), airc_tensor_data(k->in[i]), airc_tensor_nbytes(k->in[i]));
    st = airc_compiled_run(c, ins, k->nin, out, MAXOUT, &nout);
    if (st != AIRC_OK)
        CASE_FAIL("%s: run 2: %s: %s\n", path, airc_status_name(st), airc_last_error());
    if (nout != k->nwant)
        CASE_FAIL("%s: run 2 gives %zu results, PyTorch %zu\n", path, nout, k->nwant);
    for (size_t i = 0; i < nout; i++) {
        char what[1100];
        snprintf(what, sizeof what, "%s run 2 result %zu vs PyTorch", path, i);
        if (!airc_test_same_values(out[i], k->want[i], what))
            ok = false;
    }
    airc_test_destroy_all(out, nout);
    nout = 0;

    /* run 3: other perturbed inputs, checked against eager */
    for (size_t i = 0; i < k->nin; i++)
        perturb_into(ins[i], k->in[i], 2000 + i);
    if (!run_vs_eager(ctx, g, c, k, ins, "run 3, perturbed"))
        ok = false;

    airc_compiled_stats s = stats_of(c);
    if (s.captures != 1 || s.replays != 3 || s.fallbacks != 0 || s.runs != 3)
        CASE_FAIL("%s: captures %llu replays %llu fallbacks %llu runs %llu (want 1, 3, 0, 3)\n",
                  path, (unsigned long long)s.captures, (unsigned long long)s.replays,
                  (unsigned long long)s.fallbacks, (unsigned long long)s.runs);
done:
    airc_test_destroy_all(out, nout);
    airc_test_destroy_all(ins, k->nin);
    airc_compiled_destroy(c);
    airc_graph_destroy(g);
    airc_test_case_free(k);
    return ok;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every case of dir; returns the number that failed, counts cases. */
static size_t run_dir(airc_context *ctx, const char *dir, size_t *ncases)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    char *names[512];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 512) {
        size_t len = strlen(e->d_name);
        if (len > 3 && !strcmp(e->d_name + len - 3, ".fx"))
            names[n++] = strndup(e->d_name, len - 3);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    size_t failed = 0;
    for (size_t i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.out0.npy", dir, names[i]);
        FILE *f = fopen(path, "rb");
        if (f) {
            fclose(f);
            airc_test_case k;
            memset(&k, 0, sizeof k);
            k.dir = dir;
            snprintf(k.name, sizeof k.name, "%s", names[i]);
            (*ncases)++;
            if (!run_case(ctx, &k))
                failed++;
        }
        free(names[i]);
    }
    return failed;
}

static void test_conformance_fresh_inputs(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    size_t ncases = 0, failed = run_dir(ctx, AIRC_TEST_DATA "/graphs", &ncases);
    const char *shared = getenv("AIRC_SHARED");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/conformance", shared && *shared ? shared : AIRC_SHARED_DIR);
    failed += run_dir(ctx, dir, &ncases);
    print_message("conformance in reduce-overhead: %zu of %zu cases pass\n", ncases - failed,
                  ncases);
    assert_true(ncases >= 30);
    assert_int_equal(failed, 0);
    airc_context_destroy(ctx);
}

/* ---- 2. shape change ------------------------------------------------------ */

static void test_shape_change_recaptures(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g = airc_test_parse(ctx, SIMPLE);
    airc_compiled *c = compile_with(g, NULL, NULL, NULL, 0);
    airc_tensor *x = make_f32(ctx, 3, 5, 0.1), *y = make_f32(ctx, 3, 5, 1.3);
    run_simple(c, x, y);
    fill_f32(x, 2.0);
    run_simple(c, x, y);
    assert_int_equal(stats_of(c).captures, 1);
    assert_int_equal(stats_of(c).replays, 2);

    /* a new shape captures a new plan */
    airc_tensor *x2 = make_f32(ctx, 7, 4, 0.5), *y2 = make_f32(ctx, 7, 4, -0.7);
    run_simple(c, x2, y2);
    assert_int_equal(stats_of(c).captures, 2);
    run_simple(c, x2, y2);
    assert_int_equal(stats_of(c).captures, 2);

    /* back to the first shape: the first plan replays (new data, other
     * tensors of the same shape) */
    airc_tensor *x3 = make_f32(ctx, 3, 5, 4.0), *y3 = make_f32(ctx, 3, 5, 5.0);
    run_simple(c, x3, y3);
    run_simple(c, x, y);
    airc_compiled_stats s = stats_of(c);
    assert_int_equal(s.captures, 2);
    assert_int_equal(s.replays, 6);
    assert_int_equal(s.fallbacks, 0);
    assert_int_equal(s.runs, 6);
    airc_tensor_destroy(x);
    airc_tensor_destroy(y);
    airc_tensor_destroy(x2);
    airc_tensor_destroy(y2);
    airc_tensor_destroy(x3);
    airc_tensor_destroy(y3);
    airc_compiled_destroy(c);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* ---- 3. capture limit -------------------------------------------------------- */

static void test_capture_limit(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g = airc_test_parse(ctx, SIMPLE);
    airc_config *cfg = config_with(ctx, "debug.aclgraph.static_capture_size_limit", "2");
    airc_compiled *c = compile_with(g, cfg, NULL, NULL, 0);
    airc_tensor *x[3], *y[3];
    for (int i = 0; i < 3; i++) {
        x[i] = make_f32(ctx, 2 + i, 3 + i, 0.3 * i);
        y[i] = make_f32(ctx, 2 + i, 3 + i, 1.0 + i);
        run_simple(c, x[i], y[i]);
    }
    airc_compiled_stats s = stats_of(c);
    assert_int_equal(s.captures, 2);
    assert_int_equal(s.replays, 2);
    assert_int_equal(s.fallbacks, 1);
    assert_int_equal(s.runs, 3);
    /* as in TorchAir, past the limit the plans are released and every call
     * runs eagerly, captured shapes included */
    fill_f32(x[0], 9.0);
    run_simple(c, x[0], y[0]);
    fill_f32(x[2], 7.0);
    run_simple(c, x[2], y[2]);
    s = stats_of(c);
    assert_int_equal(s.captures, 2);
    assert_int_equal(s.replays, 2);
    assert_int_equal(s.fallbacks, 3);
    assert_int_equal(s.arena_bytes, 0);
    assert_null(airc_compiled_input_buffer(c, 0));
    for (int i = 0; i < 3; i++) {
        airc_tensor_destroy(x[i]);
        airc_tensor_destroy(y[i]);
    }
    airc_compiled_destroy(c);
    airc_config_destroy(cfg);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* ---- 4. static inputs -------------------------------------------------------- */

static void run_mm(airc_compiled *c, airc_tensor *x, airc_tensor *w)
{
    airc_tensor *in[2] = {x, w}, *out[1] = {NULL};
    size_t n = 0;
    AIRC_ASSERT_OK(airc_compiled_run(c, in, 2, out, 1, &n));
    assert_int_equal(n, 1);
    assert_true(mm_ok(out[0], x, w));
    airc_tensor_destroy(out[0]);
}

static void test_static_inputs(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g = airc_test_parse(ctx, MM);
    size_t statics[1] = {1};
    airc_compiled *c = compile_with(g, NULL, NULL, statics, 1);
    airc_tensor *x = make_f32(ctx, 4, 6, 0.2), *w = make_f32(ctx, 6, 5, 1.1);
    run_mm(c, x, w);
    assert_int_equal(stats_of(c).input_copies, 1); /* x only */
    assert_null(airc_compiled_input_buffer(c, 1)); /* w is not copied */
    assert_non_null(airc_compiled_input_buffer(c, 0));
    fill_f32(x, 3.0);
    run_mm(c, x, w);
    /* w is read where it is: new contents at the same address count */
    fill_f32(w, -2.0);
    run_mm(c, x, w);
    airc_compiled_stats s = stats_of(c);
    assert_int_equal(s.captures, 1);
    assert_int_equal(s.replays, 3);
    assert_int_equal(s.input_copies, 3);

    /* another w address: a new graph key, a new capture */
    airc_tensor *w2 = make_f32(ctx, 6, 5, 0.4);
    run_mm(c, x, w2);
    s = stats_of(c);
    assert_int_equal(s.captures, 2);
    assert_int_equal(s.input_copies, 4);
    /* and the first w still replays its own plan */
    run_mm(c, x, w);
    s = stats_of(c);
    assert_int_equal(s.captures, 2);
    assert_int_equal(s.replays, 5);
    assert_int_equal(s.input_copies, 5);

    /* an out-of-range static index is refused */
    size_t bad[1] = {2};
    airc_compile_options o;
    airc_compile_options_init(&o);
    o.static_inputs = bad;
    o.nstatic_inputs = 1;
    airc_compiled *c2 = (airc_compiled *)&o;
    AIRC_EXPECT(airc_compile(g, &o, &c2), AIRC_E_INVALID_ARGUMENT, "static input 2");
    assert_null(c2);

    airc_tensor_destroy(x);
    airc_tensor_destroy(w);
    airc_tensor_destroy(w2);
    airc_compiled_destroy(c);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* ---- 5. mutated inputs ------------------------------------------------------- */

/* x += y in place (x is a graph input); returns 2 * x */
static const char *const ADD_INPLACE =
    "graph():\n"
    "    %x : [#users=1] = placeholder[target=x]\n"
    "    %y : [#users=1] = placeholder[target=y]\n"
    "    %add_ : [#users=1] = call_function[target=torch.ops.aten.add_.Tensor](args = (%x, %y), "
    "kwargs = {})\n"
    "    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_, 2), "
    "kwargs = {})\n"
    "    return (mul,)\n";

/* KV-cache style: cache <- cache + v through copy_; returns 3 * (cache + v) */
static const char *const COPY_BACK =
    "graph():\n"
    "    %cache : [#users=2] = placeholder[target=cache]\n"
    "    %v : [#users=1] = placeholder[target=v]\n"
    "    %add : [#users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%cache, %v), "
    "kwargs = {})\n"
    "    %copy_ : [#users=0] = call_function[target=torch.ops.aten.copy_.default](args = "
    "(%cache, %add), kwargs = {})\n"
    "    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add, 3), "
    "kwargs = {})\n"
    "    return (mul,)\n";

/* One compiled run on (x, y) next to an eager run on copies: the result
 * and the mutated x must agree. */
static void run_mutating(airc_context *ctx, airc_graph *g, airc_compiled *c, airc_tensor *x,
                         airc_tensor *y)
{
    airc_tensor *xe = airc_test_clone(ctx, x), *ye = airc_test_clone(ctx, y);
    airc_tensor *in[2] = {x, y}, *ine[2] = {xe, ye}, *out[1] = {NULL}, *ref[1] = {NULL};
    size_t n = 0, nref = 0;
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, ine, 2, ref, 1, &nref, NULL));
    AIRC_ASSERT_OK(airc_compiled_run(c, in, 2, out, 1, &n));
    assert_int_equal(n, 1);
    assert_int_equal(nref, 1);
    assert_true(airc_test_same_values(out[0], ref[0], "mutating graph: result"));
    assert_true(airc_test_same_values(x, xe, "mutating graph: the mutated input"));
    airc_tensor_destroy(out[0]);
    airc_tensor_destroy(ref[0]);
    airc_tensor_destroy(xe);
    airc_tensor_destroy(ye);
}

static void check_mutated_input(const char *text)
{
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g = airc_test_parse(ctx, text);
    airc_compiled *c = compile_with(g, NULL, NULL, NULL, 0);
    airc_tensor *x = make_f32(ctx, 3, 4, 0.0), *y = make_f32(ctx, 3, 4, 1.0);
    airc_tensor *x0 = airc_test_clone(ctx, x);
    run_mutating(ctx, g, c, x, y);
    /* the caller's x holds x + y, as in PyTorch */
    const float *px = airc_tensor_data(x), *p0 = airc_tensor_data(x0), *py = airc_tensor_data(y);
    for (int i = 0; i < 12; i++)
        assert_true(fabsf(px[i] - (p0[i] + py[i])) <= 1e-6f);
    assert_null(airc_compiled_input_buffer(c, 0)); /* mutated: never copied */
    /* same address: a replay that keeps accumulating into x */
    run_mutating(ctx, g, c, x, y);
    for (int i = 0; i < 12; i++)
        assert_true(fabsf(px[i] - (p0[i] + 2 * py[i])) <= 1e-5f);
    airc_compiled_stats s = stats_of(c);
    assert_int_equal(s.captures, 1);
    assert_int_equal(s.replays, 2);
    /* a new x address captures anew */
    airc_tensor *x2 = make_f32(ctx, 3, 4, 5.0);
    run_mutating(ctx, g, c, x2, y);
    s = stats_of(c);
    assert_int_equal(s.captures, 2);
    /* and the first x replays its plan (still mutated in place) */
    run_mutating(ctx, g, c, x, y);
    s = stats_of(c);
    assert_int_equal(s.captures, 2);
    assert_int_equal(s.replays, 4);
    airc_tensor_destroy(x);
    airc_tensor_destroy(x0);
    airc_tensor_destroy(x2);
    airc_tensor_destroy(y);
    airc_compiled_destroy(c);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

static void test_mutated_input_add_(void **state)
{
    (void)state;
    check_mutated_input(ADD_INPLACE);
}

static void test_mutated_input_copy_(void **state)
{
    (void)state;
    check_mutated_input(COPY_BACK);
}

/* ---- 6. run_views with the captured address ------------------------------------ */

static void test_run_views_captured_buffer(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g = airc_test_parse(ctx, SIMPLE);
    airc_compiled *c = compile_with(g, NULL, NULL, NULL, 0);
    assert_null(airc_compiled_input_buffer(c, 0)); /* no plan yet */
    airc_tensor *x = make_f32(ctx, 4, 4, 0.5), *y = make_f32(ctx, 4, 4, 2.5);
    airc_tview in[2], out[2];
    view_of(x, &in[0]);
    view_of(y, &in[1]);
    size_t n = 0;
    AIRC_ASSERT_OK(airc_compiled_run_views(c, in, 2, out, 2, &n));
    assert_int_equal(n, 1);
    airc_tensor *r;
    AIRC_ASSERT_OK(airc_tensor_wrap(ctx, out[0].dtype, out[0].ndim, out[0].shape, out[0].data, &r));
    assert_true(simple_ok(r, x, y));
    airc_tensor_destroy(r);
    assert_int_equal(stats_of(c).input_copies, 2);

    /* write the next inputs into the captured buffers and pass them */
    float *b0 = airc_compiled_input_buffer(c, 0), *b1 = airc_compiled_input_buffer(c, 1);
    assert_non_null(b0);
    assert_non_null(b1);
    assert_true(b0 != b1);
    fill_f32(x, 3.3);
    fill_f32(y, -1.2);
    memcpy(b0, airc_tensor_data(x), airc_tensor_nbytes(x));
    memcpy(b1, airc_tensor_data(y), airc_tensor_nbytes(y));
    in[0].data = b0;
    in[1].data = b1;
    AIRC_ASSERT_OK(airc_compiled_run_views(c, in, 2, out, 2, &n));
    assert_int_equal(n, 1);
    AIRC_ASSERT_OK(airc_tensor_wrap(ctx, out[0].dtype, out[0].ndim, out[0].shape, out[0].data, &r));
    assert_true(simple_ok(r, x, y));
    airc_tensor_destroy(r);
    airc_compiled_stats s = stats_of(c);
    assert_int_equal(s.input_copies, 2); /* no copy this time */
    assert_int_equal(s.captures, 1);
    assert_int_equal(s.replays, 2);

    /* one from the buffer, one from elsewhere: one copy */
    fill_f32(x, 0.9);
    memcpy(b0, airc_tensor_data(x), airc_tensor_nbytes(x));
    in[1].data = airc_tensor_data(y);
    AIRC_ASSERT_OK(airc_compiled_run_views(c, in, 2, out, 2, &n));
    AIRC_ASSERT_OK(airc_tensor_wrap(ctx, out[0].dtype, out[0].ndim, out[0].shape, out[0].data, &r));
    assert_true(simple_ok(r, x, y));
    airc_tensor_destroy(r);
    assert_int_equal(stats_of(c).input_copies, 3);

    /* airc_compiled_run with a tensor wrapping the buffer skips it too */
    airc_tensor *xb;
    AIRC_ASSERT_OK(airc_tensor_wrap(ctx, AIRC_DTYPE_F32, 2, airc_tensor_shape(x), b0, &xb));
    fill_f32(x, -4.4);
    memcpy(b0, airc_tensor_data(x), airc_tensor_nbytes(x));
    airc_tensor *ins[2] = {xb, y}, *outs[1] = {NULL};
    AIRC_ASSERT_OK(airc_compiled_run(c, ins, 2, outs, 1, &n));
    assert_true(simple_ok(outs[0], x, y));
    airc_tensor_destroy(outs[0]);
    assert_int_equal(stats_of(c).input_copies, 4);
    airc_tensor_destroy(xb);

    airc_tensor_destroy(x);
    airc_tensor_destroy(y);
    airc_compiled_destroy(c);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* ---- 7. output lifetime and output clones --------------------------------------- */

static void check_outputs(bool clone)
{
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g = airc_test_parse(ctx, SIMPLE);
    airc_config *cfg =
        config_with(ctx, clone ? "debug.aclgraph.enable_output_clone" : NULL, clone ? "1" : NULL);
    airc_compiled *c = compile_with(g, cfg, NULL, NULL, 0);
    airc_tensor *x1 = make_f32(ctx, 3, 3, 0.1), *y1 = make_f32(ctx, 3, 3, 0.7);
    airc_tensor *x2 = make_f32(ctx, 3, 3, 2.1), *y2 = make_f32(ctx, 3, 3, -0.4);
    airc_tensor *in1[2] = {x1, y1}, *in2[2] = {x2, y2}, *r1[1] = {NULL}, *r2[1] = {NULL};
    size_t n;
    AIRC_ASSERT_OK(airc_compiled_run(c, in1, 2, r1, 1, &n));
    assert_true(simple_ok(r1[0], x1, y1));
    AIRC_ASSERT_OK(airc_compiled_run(c, in2, 2, r2, 1, &n));
    assert_true(simple_ok(r2[0], x2, y2));
    if (clone) {
        /* the first result is its own copy */
        assert_true(simple_ok(r1[0], x1, y1));
        assert_true(airc_tensor_data(r1[0]) != airc_tensor_data(r2[0]));
    } else {
        /* documented: the first result lives in the arena, which the
         * second run overwrote */
        assert_true(airc_tensor_data(r1[0]) == airc_tensor_data(r2[0]));
        assert_true(simple_ok(r1[0], x2, y2));
    }
    /* results outlive the compiled object as handles (their data too when
     * cloned) */
    airc_compiled_destroy(c);
    if (clone) {
        assert_true(simple_ok(r1[0], x1, y1));
        assert_true(simple_ok(r2[0], x2, y2));
    }
    airc_tensor_destroy(r1[0]);
    airc_tensor_destroy(r2[0]);
    airc_tensor_destroy(x1);
    airc_tensor_destroy(y1);
    airc_tensor_destroy(x2);
    airc_tensor_destroy(y2);
    airc_config_destroy(cfg);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

static void test_outputs_in_arena(void **state)
{
    (void)state;
    check_outputs(false);
}

static void test_outputs_cloned(void **state)
{
    (void)state;
    check_outputs(true);
}

/* ---- 8. eager modes, max-autotune ------------------------------------------------ */

static void test_eager_modes(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g = airc_test_parse(ctx, SIMPLE);
    airc_config *eager = config_with(ctx, "mode", "eager");
    airc_config *run_eagerly = config_with(ctx, "debug.run_eagerly", "1");
    airc_config *ro = config_with(ctx, NULL, NULL);
    airc_compiled *ce = compile_with(g, eager, NULL, NULL, 0);
    airc_compiled *cr = compile_with(g, run_eagerly, NULL, NULL, 0);
    airc_compiled *co = compile_with(g, ro, NULL, NULL, 0);
    airc_tensor *x = make_f32(ctx, 5, 3, 0.9), *y = make_f32(ctx, 5, 3, -0.3);
    for (int rep = 0; rep < 2; rep++) {
        fill_f32(x, 0.9 + rep);
        airc_tensor *in[2] = {x, y}, *a[1] = {NULL}, *b[1] = {NULL}, *d[1] = {NULL};
        size_t n;
        AIRC_ASSERT_OK(airc_compiled_run(ce, in, 2, a, 1, &n));
        assert_int_equal(n, 1);
        AIRC_ASSERT_OK(airc_compiled_run(cr, in, 2, b, 1, &n));
        assert_int_equal(n, 1);
        AIRC_ASSERT_OK(airc_compiled_run(co, in, 2, d, 1, &n));
        assert_int_equal(n, 1);
        assert_true(simple_ok(a[0], x, y));
        assert_true(airc_test_same_values(b[0], a[0], "run_eagerly vs mode eager"));
        assert_true(airc_test_same_values(d[0], a[0], "reduce-overhead vs mode eager"));
        airc_tensor_destroy(a[0]);
        airc_tensor_destroy(b[0]);
        airc_tensor_destroy(d[0]);
    }
    airc_compiled_stats s = stats_of(ce);
    assert_int_equal(s.runs, 2);
    assert_int_equal(s.captures, 0);
    assert_int_equal(s.replays, 0);
    s = stats_of(cr);
    assert_int_equal(s.runs, 2);
    assert_int_equal(s.captures, 0);
    assert_int_equal(s.fallbacks, 2);
    assert_null(airc_compiled_input_buffer(cr, 0));
    s = stats_of(co);
    assert_int_equal(s.captures, 1);
    assert_int_equal(s.replays, 2);

    /* max-autotune: lowered at the first run, same results, a model */
    airc_config *ma = config_with(ctx, "mode", "max-autotune");
    airc_compiled *cm = compile_with(g, ma, NULL, NULL, 0);
    const uint8_t *bytes = NULL;
    size_t len = 0;
    assert_int_equal(airc_compiled_model(cm, &bytes, &len), AIRC_E_NOT_FOUND);
    {
        airc_tensor *in[2] = {x, y}, *a[1] = {NULL};
        size_t n;
        AIRC_ASSERT_OK(airc_compiled_run(cm, in, 2, a, 1, &n));
        assert_int_equal(n, 1);
        assert_true(simple_ok(a[0], x, y));
        airc_tensor_destroy(a[0]);
    }
    AIRC_ASSERT_OK(airc_compiled_model(cm, &bytes, &len));
    assert_true(len > 0 && bytes);
    airc_compiled_destroy(cm);

    airc_tensor_destroy(x);
    airc_tensor_destroy(y);
    airc_compiled_destroy(ce);
    airc_compiled_destroy(cr);
    airc_compiled_destroy(co);
    airc_config_destroy(eager);
    airc_config_destroy(run_eagerly);
    airc_config_destroy(ro);
    airc_config_destroy(ma);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* ---- 9. the generic driver over a wrapped CPU runtime ------------------------------ */

static const airc_runtime_vtable *g_cpu_vt;
static atomic_long g_wrapped_launches;

static airc_status wrapped_launch(void *ctx, airc_stream_t s, airc_launch_fn fn, void *arg)
{
    atomic_fetch_add(&g_wrapped_launches, 1);
    return g_cpu_vt->launch(ctx, s, fn, arg);
}

/* A runtime over the CPU runtime's ctx. With wrap_launch its launch is not
 * the CPU runtime's own, so a compiled object cannot take the inline CPU
 * driver and goes through the vtable for every launch. */
static airc_runtime *wrap_cpu(airc_context *ctx, airc_runtime *cpu, bool wrap_launch)
{
    g_cpu_vt = airc_runtime_vtable_of(cpu);
    airc_runtime_vtable vt = *g_cpu_vt;
    vt.destroy = NULL; /* the CPU runtime owns its ctx */
    if (wrap_launch)
        vt.launch = wrapped_launch;
    airc_runtime *rt;
    AIRC_ASSERT_OK(airc_runtime_create(ctx, &vt, airc_runtime_ctx(cpu), &rt));
    assert_string_equal(airc_runtime_device_type(rt), "cpu");
    return rt;
}

/* Three runs of text on rt (fresh data each time, same addresses), each
 * equal to eager on the same data; with `want`, the second run uses `in`
 * unchanged and matches it. */
static void compare_on_runtime(airc_context *ctx, airc_runtime *rt, const char *path,
                               airc_tensor **in, size_t nin, airc_tensor **want, size_t nwant)
{
    airc_graph *g;
    AIRC_ASSERT_OK(airc_graph_parse_file(ctx, path, &g));
    airc_compiled *c = compile_with(g, NULL, rt, NULL, 0);
    airc_tensor *ins[MAXIN];
    for (size_t i = 0; i < nin; i++)
        ins[i] = airc_test_clone(ctx, in[i]);
    for (int rep = 0; rep < 3; rep++) {
        for (size_t i = 0; i < nin; i++)
            perturb_into(ins[i], in[i], rep == 1 ? 0 : 77 * (uint64_t)rep + i + 1);
        if (rep == 1)
            for (size_t i = 0; i < nin; i++)
                memcpy(airc_tensor_data(ins[i]), airc_tensor_data(in[i]),
                       airc_tensor_nbytes(in[i]));
        airc_tensor *copy[MAXIN], *out[MAXOUT] = {NULL}, *ref[MAXOUT] = {NULL};
        for (size_t i = 0; i < nin; i++)
            copy[i] = airc_test_clone(ctx, ins[i]);
        size_t n = 0, nref = 0;
        AIRC_ASSERT_OK(airc_compiled_run(c, ins, nin, out, MAXOUT, &n));
        AIRC_ASSERT_OK(airc_run_eager(g, NULL, copy, nin, ref, MAXOUT, &nref, NULL));
        assert_int_equal(n, nref);
        for (size_t i = 0; i < n; i++) {
            char what[1200];
            snprintf(what, sizeof what, "%s run %d result %zu vs eager", path, rep, i);
            assert_true(airc_test_same_values(out[i], ref[i], what));
            if (rep == 1 && want) {
                assert_int_equal(n, nwant);
                snprintf(what, sizeof what, "%s result %zu vs PyTorch", path, i);
                assert_true(airc_test_same_values(out[i], want[i], what));
            }
        }
        airc_test_destroy_all(out, n);
        airc_test_destroy_all(ref, nref);
        airc_test_destroy_all(copy, nin);
    }
    airc_compiled_stats s = stats_of(c);
    assert_int_equal(s.captures, 1);
    assert_int_equal(s.replays, 3);
    airc_test_destroy_all(ins, nin);
    airc_compiled_destroy(c);
    airc_graph_destroy(g);
}

static void test_generic_driver(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_runtime *cpu;
    AIRC_ASSERT_OK(airc_cpu_runtime_create(ctx, NULL, &cpu));
    for (int wrap = 0; wrap < 2; wrap++) {
        airc_runtime *rt = wrap_cpu(ctx, cpu, wrap != 0);
        atomic_store(&g_wrapped_launches, 0);
        /* the seed's multistream graph: two streams, events */
        airc_tensor *x;
        AIRC_ASSERT_OK(airc_npy_read(ctx, AIRC_SOURCE_DIR "/examples/seed001/x.npy", &x));
        compare_on_runtime(ctx, rt, AIRC_SOURCE_DIR "/examples/seed001/multistream.after.fx", &x, 1,
                           NULL, 0);
        airc_tensor_destroy(x);
        /* a conformance case, against PyTorch too */
        airc_test_case k;
        memset(&k, 0, sizeof k);
        k.dir = AIRC_TEST_DATA "/graphs";
        snprintf(k.name, sizeof k.name, "attention");
        assert_true(airc_test_case_load(ctx, &k));
        compare_on_runtime(ctx, rt, AIRC_TEST_DATA "/graphs/attention.fx", k.in, k.nin, k.want,
                           k.nwant);
        airc_test_case_free(&k);
        if (wrap)
            assert_true(atomic_load(&g_wrapped_launches) > 0); /* every launch went through it */
        airc_runtime_destroy(rt);
    }
    airc_runtime_destroy(cpu);
    airc_context_destroy(ctx);
}

/* ---- 10. errors ---------------------------------------------------------------------- */

static atomic_int g_fail;

static airc_status meta_like_arg0(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_dtype dt;
    int32_t nd;
    const int64_t *shape;
    airc_status st = airc_value_meta(airc_node_arg(n, 0), &dt, &nd, &shape, NULL);
    if (st != AIRC_OK)
        return st;
    return airc_node_set_meta(n, dt, nd, shape, NULL);
}

static airc_status meta_pair(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_dtype dt;
    int32_t nd;
    const int64_t *shape;
    airc_status st = airc_value_meta(airc_node_arg(n, 0), &dt, &nd, &shape, NULL);
    if (st == AIRC_OK)
        st = airc_node_set_meta_tuple(n, 2);
    for (size_t i = 0; st == AIRC_OK && i < 2; i++)
        st = airc_node_set_output_meta(n, i, dt, nd, shape, NULL);
    return st;
}

static size_t numel_of(const airc_tview *t)
{
    size_t n = 1;
    for (int32_t d = 0; d < t->ndim; d++)
        n *= (size_t)t->shape[d];
    return n;
}

/* test::fail: a copy, or AIRC_E_RUNTIME "boom" while g_fail is set
 * (contiguous f32 only: the tests give it nothing else) */
static airc_status fail_kernel(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    if (atomic_load(&g_fail))
        return airc_set_error(AIRC_E_RUNTIME, "boom");
    const airc_tview *a = airc_kernel_input(k, 0);
    airc_tview *o = airc_kernel_output(k, 0);
    memcpy(o->data, a->data, numel_of(a) * sizeof(float));
    return AIRC_OK;
}

/* test::pair: (x + 1, 2 x) */
static airc_status pair_kernel(airc_kernel_ctx *k, void *user_data)
{
    (void)user_data;
    const airc_tview *a = airc_kernel_input(k, 0);
    float *o0 = airc_kernel_output(k, 0)->data, *o1 = airc_kernel_output(k, 1)->data;
    const float *x = a->data;
    for (size_t i = 0; i < numel_of(a); i++) {
        o0[i] = x[i] + 1;
        o1[i] = 2 * x[i];
    }
    return AIRC_OK;
}

static void register_test_ops(airc_context *ctx)
{
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = "test::fail(Tensor x) -> Tensor";
    def.meta = meta_like_arg0;
    AIRC_ASSERT_OK(airc_context_register_op(ctx, &def, NULL));
    airc_op_def_init(&def);
    def.schema = "test::pair(Tensor x) -> (Tensor, Tensor)";
    def.meta = meta_pair;
    AIRC_ASSERT_OK(airc_context_register_op(ctx, &def, NULL));
    AIRC_ASSERT_OK(
        airc_context_set_op_kernel(ctx, "test.fail.default", "cpu", fail_kernel, NULL, NULL));
    AIRC_ASSERT_OK(
        airc_context_set_op_kernel(ctx, "test.pair.default", "cpu", pair_kernel, NULL, NULL));
}

static const char *const FAILING =
    "graph():\n"
    "    %x : [#users=1] = placeholder[target=x]\n"
    "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), "
    "kwargs = {})\n"
    "    %fail : [#users=1] = call_function[target=torch.ops.test.fail.default](args = (%relu,), "
    "kwargs = {})\n"
    "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%fail, 1), "
    "kwargs = {})\n"
    "    return (add,)\n";

/* the failing node on a side stream */
static const char *const FAILING_SIDE =
    "graph():\n"
    "    %x : [#users=2] = placeholder[target=x]\n"
    "    %scope_enter : [#users=0] = call_function[target=torch.ops.air.scope_enter.default](args "
    "= ([_user_stream_label], [stream_1]), kwargs = {})\n"
    "    %fail : [#users=1] = call_function[target=torch.ops.test.fail.default](args = (%x,), "
    "kwargs = {})\n"
    "    %scope_exit : [#users=0] = call_function[target=torch.ops.air.scope_exit.default](args = "
    "(), kwargs = {})\n"
    "    %neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%x,), "
    "kwargs = {})\n"
    "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%fail, "
    "%neg), kwargs = {})\n"
    "    return (add,)\n";

/* relu(x) + 1 (FAILING) or x + -x = 0 (FAILING_SIDE) */
static void check_failing_result(const airc_tensor *out, const airc_tensor *x, bool side)
{
    const float *o = airc_tensor_data(out), *a = airc_tensor_data(x);
    for (size_t i = 0; i < airc_tensor_numel(x); i++) {
        float want = side ? 0.0f : (a[i] > 0 ? a[i] : 0) + 1;
        if (fabsf(o[i] - want) > 1e-6f)
            print_error("element %zu: %g, want %g\n", i, o[i], want);
        assert_true(fabsf(o[i] - want) <= 1e-6f);
    }
}

static void check_failing_kernel(airc_context *ctx, const char *text, bool side, airc_runtime *rt)
{
    airc_graph *g = airc_test_parse(ctx, text);
    airc_compiled *c = compile_with(g, NULL, rt, NULL, 0);
    airc_tensor *x = make_f32(ctx, 4, 8, 0.3), *in[1] = {x}, *out[2] = {NULL, NULL};
    size_t n = 99;
    /* failing at the first (capturing) run */
    atomic_store(&g_fail, 1);
    AIRC_EXPECT(airc_compiled_run(c, in, 1, out, 1, &n), AIRC_E_RUNTIME, "node 'fail'");
    assert_non_null(strstr(airc_last_error(), "boom"));
    assert_null(out[0]);
    atomic_store(&g_fail, 0);
    AIRC_ASSERT_OK(airc_compiled_run(c, in, 1, out, 1, &n));
    assert_int_equal(n, 1);
    check_failing_result(out[0], x, side);
    airc_tensor_destroy(out[0]);
    out[0] = NULL;
    /* failing at a replay, then working again */
    for (int rep = 0; rep < 2; rep++) {
        atomic_store(&g_fail, 1);
        AIRC_EXPECT(airc_compiled_run(c, in, 1, out, 1, &n), AIRC_E_RUNTIME, "node 'fail': boom");
        assert_null(out[0]);
        atomic_store(&g_fail, 0);
        fill_f32(x, 1.0 + rep);
        AIRC_ASSERT_OK(airc_compiled_run(c, in, 1, out, 1, &n));
        check_failing_result(out[0], x, side);
        airc_tensor_destroy(out[0]);
        out[0] = NULL;
    }
    airc_compiled_stats s = stats_of(c);
    assert_int_equal(s.captures, 1);
    assert_int_equal(s.runs, 3);
    airc_tensor_destroy(x);
    airc_compiled_destroy(c);
    airc_graph_destroy(g);
}

static void test_errors(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    register_test_ops(ctx);
    airc_graph *g = airc_test_parse(ctx, SIMPLE);
    airc_compile_options o;
    airc_compile_options_init(&o);
    airc_compiled *c = NULL;

    /* handles */
    AIRC_EXPECT(airc_compile(NULL, &o, &c), AIRC_E_MISUSE, NULL);
    assert_null(c);
    AIRC_EXPECT(airc_compile(g, &o, NULL), AIRC_E_INVALID_ARGUMENT, NULL);
    airc_compile_options bad = o;
    bad.struct_size = 0;
    AIRC_EXPECT(airc_compile(g, &bad, &c), AIRC_E_INVALID_ARGUMENT, "struct_size");
    bad = o;
    bad.nstatic_inputs = 1;
    AIRC_EXPECT(airc_compile(g, &bad, &c), AIRC_E_INVALID_ARGUMENT, "static_inputs");
    airc_tensor *x = make_f32(ctx, 2, 3, 0.0), *y = make_f32(ctx, 2, 3, 1.0);
    airc_tensor *in[2] = {x, y}, *out[4] = {NULL};
    size_t n = 0;
    airc_tview views[2], vout[4];
    view_of(x, &views[0]);
    view_of(y, &views[1]);
    AIRC_EXPECT(airc_compiled_run(NULL, in, 2, out, 4, &n), AIRC_E_MISUSE, "airc_compiled_run");
    AIRC_EXPECT(airc_compiled_run_views(NULL, views, 2, vout, 4, &n), AIRC_E_MISUSE,
                "airc_compiled_run_views");
    airc_compiled_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    AIRC_EXPECT(airc_compiled_get_stats(NULL, &s), AIRC_E_MISUSE, NULL);
    AIRC_EXPECT(airc_compiled_set_trace(NULL, 1), AIRC_E_MISUSE, NULL);
    AIRC_EXPECT(airc_compiled_write_trace(NULL, "/dev/null"), AIRC_E_MISUSE, NULL);
    assert_null(airc_compiled_input_buffer(NULL, 0));
    assert_null(airc_compiled_graph(NULL));
    airc_compiled_destroy(NULL);

    AIRC_ASSERT_OK(airc_compile(g, &o, &c));
    assert_non_null(airc_compiled_graph(c));
    AIRC_EXPECT(airc_compiled_get_stats(c, NULL), AIRC_E_INVALID_ARGUMENT, NULL);
    AIRC_EXPECT(airc_compiled_write_trace(c, "/dev/null"), AIRC_E_NOT_FOUND, NULL);
    AIRC_EXPECT(airc_compiled_write_trace(c, NULL), AIRC_E_INVALID_ARGUMENT, NULL);
    /* wrong input count, NULL arguments, outputs_cap too small */
    AIRC_EXPECT(airc_compiled_run(c, in, 1, out, 4, &n), AIRC_E_INVALID_ARGUMENT,
                "2 inputs but 1 was given");
    AIRC_EXPECT(airc_compiled_run(c, in, 3, out, 4, &n), AIRC_E_INVALID_ARGUMENT,
                "2 inputs but 3 were given");
    AIRC_EXPECT(airc_compiled_run_views(c, views, 1, vout, 4, &n), AIRC_E_INVALID_ARGUMENT,
                "2 inputs but 1 was given");
    AIRC_EXPECT(airc_compiled_run(c, NULL, 2, out, 4, &n), AIRC_E_INVALID_ARGUMENT, NULL);
    AIRC_EXPECT(airc_compiled_run(c, in, 2, out, 4, NULL), AIRC_E_INVALID_ARGUMENT, NULL);
    AIRC_EXPECT(airc_compiled_run(c, in, 2, out, 0, &n), AIRC_E_INVALID_ARGUMENT, "outputs_cap");
    AIRC_EXPECT(airc_compiled_run_views(c, views, 2, vout, 0, &n), AIRC_E_INVALID_ARGUMENT,
                "outputs_cap");
    airc_tensor *with_null[2] = {x, NULL};
    AIRC_EXPECT(airc_compiled_run(c, with_null, 2, out, 4, &n), AIRC_E_MISUSE, NULL);
    assert_null(out[0]);
    s = stats_of(c);
    assert_int_equal(s.runs, 0);
    assert_int_equal(s.captures, 0);
    /* and the object still works */
    run_simple(c, x, y);
    AIRC_EXPECT(airc_compiled_run(c, in, 1, out, 4, &n), AIRC_E_INVALID_ARGUMENT, "inputs");
    run_simple(c, x, y);
    s = stats_of(c);
    assert_int_equal(s.runs, 2);
    assert_int_equal(s.replays, 2);
    airc_compiled_destroy(c);
    airc_graph_destroy(g);

    /* a failing kernel: the node is named, the next run works */
    check_failing_kernel(ctx, FAILING, false, NULL);
    check_failing_kernel(ctx, FAILING_SIDE, true, NULL);
    /* the same through the generic driver */
    airc_runtime *cpu;
    AIRC_ASSERT_OK(airc_cpu_runtime_create(ctx, NULL, &cpu));
    airc_runtime *rt = wrap_cpu(ctx, cpu, true);
    check_failing_kernel(ctx, FAILING, false, rt);
    check_failing_kernel(ctx, FAILING_SIDE, true, rt);
    airc_runtime_destroy(rt);
    airc_runtime_destroy(cpu);

    airc_tensor_destroy(x);
    airc_tensor_destroy(y);
    airc_context_destroy(ctx);
}

/* A tuple-valued result counts its tensors: outputs_cap 1 is too small for
 * (x + 1, 2 x), and nothing is written past it, in each entry point and
 * mode. */
static const char *const PAIR = "graph():\n"
                                "    %x : [#users=1] = placeholder[target=x]\n"
                                "    %pair : [#users=1] = call_function[target=torch.ops.test.pair."
                                "default](args = (%x,), kwargs = {})\n"
                                "    return pair\n";

static void check_pair(const airc_tensor *x, const float *p0, const float *p1)
{
    const float *px = airc_tensor_data(x);
    for (size_t i = 0; i < airc_tensor_numel(x); i++) {
        assert_true(fabsf(p0[i] - (px[i] + 1)) <= 1e-6f);
        assert_true(fabsf(p1[i] - 2 * px[i]) <= 1e-6f);
    }
}

static void check_tuple_cap(const char *mode, bool views)
{
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    register_test_ops(ctx);
    airc_graph *g = airc_test_parse(ctx, PAIR);
    airc_config *cfg = config_with(ctx, "mode", mode);
    airc_compiled *c = compile_with(g, cfg, NULL, NULL, 0);
    airc_tensor *x = make_f32(ctx, 2, 3, 0.0), *in[1] = {x};
    size_t n = 0;
    airc_status st;
    bool overwritten;
    if (views) {
        airc_tview vin[1], vout[3];
        view_of(x, &vin[0]);
        memset(vout, 0x5a, sizeof vout);
        airc_tview guard = vout[1];
        st = airc_compiled_run_views(c, vin, 1, vout, 1, &n);
        overwritten = memcmp(&vout[1], &guard, sizeof guard) != 0;
        if (st == AIRC_OK || overwritten)
            print_error("%s, run_views: outputs_cap 1 gave %s, n = %zu, out[1] %s\n", mode,
                        airc_status_name(st), n, overwritten ? "overwritten" : "untouched");
        assert_false(overwritten);
        AIRC_EXPECT(st, AIRC_E_INVALID_ARGUMENT, "outputs_cap");
        AIRC_ASSERT_OK(airc_compiled_run_views(c, vin, 1, vout, 3, &n));
        assert_int_equal(n, 2);
        check_pair(x, vout[0].data, vout[1].data);
    } else {
        airc_tensor *sentinel = make_f32(ctx, 1, 1, 0.0);
        airc_tensor *pout[3] = {NULL, sentinel, sentinel};
        st = airc_compiled_run(c, in, 1, pout, 1, &n);
        overwritten = pout[1] != sentinel;
        if (st == AIRC_OK || overwritten)
            print_error("%s, run: outputs_cap 1 gave %s, n = %zu, out[1] %s\n", mode,
                        airc_status_name(st), n, overwritten ? "overwritten" : "untouched");
        if (overwritten && pout[1])
            airc_tensor_destroy(pout[1]);
        if (st == AIRC_OK)
            airc_tensor_destroy(pout[0]);
        airc_tensor_destroy(sentinel);
        assert_false(overwritten);
        AIRC_EXPECT(st, AIRC_E_INVALID_ARGUMENT, "outputs_cap");
        pout[0] = pout[1] = NULL;
        AIRC_ASSERT_OK(airc_compiled_run(c, in, 1, pout, 3, &n));
        assert_int_equal(n, 2);
        check_pair(x, airc_tensor_data(pout[0]), airc_tensor_data(pout[1]));
        airc_test_destroy_all(pout, n);
    }
    airc_tensor_destroy(x);
    airc_compiled_destroy(c);
    airc_config_destroy(cfg);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

static void test_tuple_cap_eager(void **state)
{
    (void)state;
    check_tuple_cap("eager", false);
}

static void test_tuple_cap_run(void **state)
{
    (void)state;
    check_tuple_cap("reduce-overhead", false);
}

static void test_tuple_cap_run_views(void **state)
{
    (void)state;
    check_tuple_cap("reduce-overhead", true);
}

/* run_views when running eagerly (debug.run_eagerly, or past the capture
 * limit) of a graph with a tuple-valued result, with room for both. */
static void test_tuple_run_views_eagerly(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    register_test_ops(ctx);
    airc_graph *g = airc_test_parse(ctx, PAIR);
    airc_config *cfg = config_with(ctx, "debug.run_eagerly", "1");
    airc_compiled *c = compile_with(g, cfg, NULL, NULL, 0);
    airc_tensor *x = make_f32(ctx, 2, 3, 0.5);
    airc_tview vin[1], vout[3];
    view_of(x, &vin[0]);
    size_t n = 0;
    AIRC_ASSERT_OK(airc_compiled_run_views(c, vin, 1, vout, 3, &n));
    assert_int_equal(n, 2);
    check_pair(x, vout[0].data, vout[1].data);
    airc_tensor_destroy(x);
    airc_compiled_destroy(c);
    airc_config_destroy(cfg);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* Graphs that launch nothing: an input returned as it is, a view of it. */
static void test_no_launches(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g = airc_test_parse(
        ctx, "graph():\n"
             "    %x : [#users=2] = placeholder[target=x]\n"
             "    %t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%x,), "
             "kwargs = {})\n"
             "    return (t, x)\n");
    airc_compiled *c = compile_with(g, NULL, NULL, NULL, 0);
    airc_tensor *x = make_f32(ctx, 2, 3, 0.25), *in[1] = {x}, *out[2] = {NULL}, *ref[2] = {NULL};
    for (int rep = 0; rep < 2; rep++) {
        fill_f32(x, rep);
        size_t n = 0, nref = 0;
        AIRC_ASSERT_OK(airc_compiled_run(c, in, 1, out, 2, &n));
        AIRC_ASSERT_OK(airc_run_eager(g, NULL, in, 1, ref, 2, &nref, NULL));
        assert_int_equal(n, 2);
        assert_int_equal(nref, 2);
        assert_true(airc_test_same_values(out[0], ref[0], "no launches: t"));
        assert_true(airc_test_same_values(out[1], ref[1], "no launches: x"));
        airc_test_destroy_all(out, n);
        airc_test_destroy_all(ref, nref);
    }
    assert_int_equal(stats_of(c).launches, 0);
    airc_tensor_destroy(x);
    airc_compiled_destroy(c);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* A placeholder after a call (torch.fx allows it; graphs built through
 * the API or Python have it): its input is copied in before the first
 * launch, so its buffer must not share memory with what that call reads
 * (found by fuzz_api: the stack read b's values). */
static void test_placeholder_after_call(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g = airc_test_parse(
        ctx, "graph():\n"
             "    %w : f32[2, 3] [#users=1] = placeholder[target=w]\n"
             "    %stack : [#users=1] = call_function[target=torch.ops.aten.stack.default](args = "
             "([%w, %w], 0), kwargs = {})\n"
             "    %b : f32[2, 3] [#users=1] = placeholder[target=b]\n"
             "    %neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = "
             "(%b,), kwargs = {})\n"
             "    return (stack, neg)\n");
    airc_compiled *c = compile_with(g, NULL, NULL, NULL, 0);
    airc_tensor *w = make_f32(ctx, 2, 3, 0.25), *b = make_f32(ctx, 2, 3, 7.5), *in[2] = {w, b};
    airc_tensor *out[2] = {NULL}, *ref[2] = {NULL};
    for (int rep = 0; rep < 2; rep++) {
        size_t n = 0, nref = 0;
        AIRC_ASSERT_OK(airc_compiled_run(c, in, 2, out, 2, &n));
        AIRC_ASSERT_OK(airc_run_eager(g, NULL, in, 2, ref, 2, &nref, NULL));
        assert_int_equal(n, 2);
        assert_true(airc_test_same_values(out[0], ref[0], "placeholder after a call: stack"));
        assert_true(airc_test_same_values(out[1], ref[1], "placeholder after a call: neg"));
        airc_test_destroy_all(out, n);
        airc_test_destroy_all(ref, nref);
    }
    airc_tensor_destroy(w);
    airc_tensor_destroy(b);
    airc_compiled_destroy(c);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* ---- 11. concurrent callers ------------------------------------------------------------ */

#define THREAD_RUNS 200

typedef struct caller {
    airc_compiled *c;
    airc_tensor *x, *y;
    int failures;
    airc_status first_error;
} caller;

static void *caller_main(void *arg)
{
    caller *t = arg;
    for (int i = 0; i < THREAD_RUNS; i++) {
        airc_tensor *in[2] = {t->x, t->y}, *out[1] = {NULL};
        size_t n = 0;
        airc_status st = airc_compiled_run(t->c, in, 2, out, 1, &n);
        if (st != AIRC_OK) {
            if (!t->failures)
                t->first_error = st;
            t->failures++;
            continue;
        }
        if (n != 1 || !simple_ok(out[0], t->x, t->y))
            t->failures++;
        airc_tensor_destroy(out[0]);
    }
    return NULL;
}

static void test_two_threads(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g = airc_test_parse(ctx, SIMPLE);
    /* results are cloned: an arena result is only valid until the next run,
     * which here is the other thread's */
    airc_config *cfg = config_with(ctx, "debug.aclgraph.enable_output_clone", "1");
    airc_compiled *c = compile_with(g, cfg, NULL, NULL, 0);
    caller t[2] = {{c, make_f32(ctx, 16, 16, 0.1), make_f32(ctx, 16, 16, 1.9), 0, AIRC_OK},
                   {c, make_f32(ctx, 16, 16, 3.7), make_f32(ctx, 16, 16, -2.2), 0, AIRC_OK}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&th[i], NULL, caller_main, &t[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < 2; i++) {
        if (t[i].failures)
            print_error("thread %d: %d failures (first: %s)\n", i, t[i].failures,
                        airc_status_name(t[i].first_error));
        assert_int_equal(t[i].failures, 0);
    }
    airc_compiled_stats s = stats_of(c);
    assert_int_equal(s.runs, 2 * THREAD_RUNS);
    assert_int_equal(s.captures, 1);
    assert_int_equal(s.replays, 2 * THREAD_RUNS);
    for (int i = 0; i < 2; i++) {
        airc_tensor_destroy(t[i].x);
        airc_tensor_destroy(t[i].y);
    }
    airc_compiled_destroy(c);
    airc_config_destroy(cfg);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* ---- 12. native capture ---------------------------------------------------------- */

/* A runtime with native capture (as aclgraph or CUDA graphs) over the CPU
 * runtime: between capture_begin and capture_end, launch, event_record and
 * stream_wait_event are recorded, not run; capture_end hands the list out as
 * the native graph, graph_replay issues it again to the CPU runtime in
 * order, graph_destroy frees it. Everything else is the CPU runtime's. Every
 * call is counted; what a real runtime would refuse (a copy or synchronize
 * while capturing, a nested capture, a replay on another stream) is counted
 * as misuse. Only the calling thread calls it: no lock. */

enum { NATIVE_LAUNCH, NATIVE_RECORD, NATIVE_WAIT };

typedef struct native_call {
    int kind;
    airc_stream_t stream;
    airc_launch_fn fn;
    void *arg;
    airc_event_t event;
} native_call;

typedef struct native_graph {
    native_call *calls;
    size_t n, cap;
    airc_stream_t origin; /* the stream the capture began on */
} native_graph;

static struct {
    const airc_runtime_vtable *cpu;
    native_graph *capturing; /* between capture_begin and capture_end */
    int fail_begin;          /* capture_begin fails this many more times */
    long begins, ends, replays, destroys, live;
    long recorded[3];     /* calls recorded while capturing, by kind */
    long direct_launches; /* launches outside capture and graph_replay */
    long misuse;
} g_nat;

static airc_status nat_append(int kind, airc_stream_t s, airc_launch_fn fn, void *arg,
                              airc_event_t e)
{
    native_graph *g = g_nat.capturing;
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 16;
        native_call *p = realloc(g->calls, cap * sizeof *p);
        if (!p)
            return airc_set_error(AIRC_E_OUT_OF_MEMORY, "fake native capture: out of memory");
        g->calls = p;
        g->cap = cap;
    }
    g->calls[g->n++] = (native_call){kind, s, fn, arg, e};
    g_nat.recorded[kind]++;
    return AIRC_OK;
}

static airc_status nat_launch(void *ctx, airc_stream_t s, airc_launch_fn fn, void *arg)
{
    if (g_nat.capturing)
        return nat_append(NATIVE_LAUNCH, s, fn, arg, NULL);
    g_nat.direct_launches++;
    return g_nat.cpu->launch(ctx, s, fn, arg);
}

static airc_status nat_event_record(void *ctx, airc_event_t e, airc_stream_t s)
{
    if (g_nat.capturing)
        return nat_append(NATIVE_RECORD, s, NULL, NULL, e);
    return g_nat.cpu->event_record(ctx, e, s);
}

static airc_status nat_stream_wait_event(void *ctx, airc_stream_t s, airc_event_t e)
{
    if (g_nat.capturing)
        return nat_append(NATIVE_WAIT, s, NULL, NULL, e);
    return g_nat.cpu->stream_wait_event(ctx, s, e);
}

static airc_status nat_copy(void *ctx, void *dst, const void *src, size_t n, int32_t kind,
                            airc_stream_t s)
{
    if (g_nat.capturing)
        g_nat.misuse++;
    return g_nat.cpu->copy(ctx, dst, src, n, kind, s);
}

static airc_status nat_synchronize(void *ctx, airc_stream_t s)
{
    if (g_nat.capturing)
        g_nat.misuse++;
    return g_nat.cpu->synchronize(ctx, s);
}

static airc_status nat_capture_begin(void *ctx, airc_stream_t s)
{
    (void)ctx;
    g_nat.begins++;
    if (g_nat.fail_begin > 0) {
        g_nat.fail_begin--;
        return airc_set_error(AIRC_E_RUNTIME, "fake: capture refused");
    }
    if (g_nat.capturing) {
        g_nat.misuse++;
        return airc_set_error(AIRC_E_RUNTIME, "fake: a capture is in progress");
    }
    native_graph *g = calloc(1, sizeof *g);
    if (!g)
        return airc_set_error(AIRC_E_OUT_OF_MEMORY, "fake native capture: out of memory");
    g->origin = s;
    g_nat.capturing = g;
    return AIRC_OK;
}

static airc_status nat_capture_end(void *ctx, airc_stream_t s, airc_native_graph_t *out)
{
    (void)ctx;
    g_nat.ends++;
    native_graph *g = g_nat.capturing;
    if (!g || g->origin != s) {
        g_nat.misuse++;
        return airc_set_error(AIRC_E_RUNTIME, "fake: no capture began on this stream");
    }
    g_nat.capturing = NULL;
    g_nat.live++;
    *out = g;
    return AIRC_OK;
}

static airc_status nat_graph_replay(void *ctx, airc_native_graph_t graph, airc_stream_t s)
{
    g_nat.replays++;
    const native_graph *g = graph;
    if (!g || g->origin != s || g_nat.capturing) {
        g_nat.misuse++;
        return airc_set_error(AIRC_E_RUNTIME, "fake: bad graph_replay");
    }
    for (size_t i = 0; i < g->n; i++) {
        const native_call *k = &g->calls[i];
        airc_status st = k->kind == NATIVE_LAUNCH ? g_nat.cpu->launch(ctx, k->stream, k->fn, k->arg)
                         : k->kind == NATIVE_RECORD
                             ? g_nat.cpu->event_record(ctx, k->event, k->stream)
                             : g_nat.cpu->stream_wait_event(ctx, k->stream, k->event);
        if (st != AIRC_OK)
            return st;
    }
    return AIRC_OK;
}

static void nat_graph_destroy(void *ctx, airc_native_graph_t graph)
{
    (void)ctx;
    native_graph *g = graph;
    g_nat.destroys++;
    if (!g) {
        g_nat.misuse++;
        return;
    }
    g_nat.live--;
    free(g->calls);
    free(g);
}

static airc_runtime *native_runtime(airc_context *ctx, airc_runtime *cpu)
{
    memset(&g_nat, 0, sizeof g_nat);
    g_nat.cpu = airc_runtime_vtable_of(cpu);
    airc_runtime_vtable vt = *g_nat.cpu;
    vt.destroy = NULL; /* the CPU runtime owns its ctx */
    vt.launch = nat_launch;
    vt.event_record = nat_event_record;
    vt.stream_wait_event = nat_stream_wait_event;
    vt.copy = nat_copy;
    vt.synchronize = nat_synchronize;
    vt.capture_begin = nat_capture_begin;
    vt.capture_end = nat_capture_end;
    vt.graph_replay = nat_graph_replay;
    vt.graph_destroy = nat_graph_destroy;
    airc_runtime *rt;
    AIRC_ASSERT_OK(airc_runtime_create(ctx, &vt, airc_runtime_ctx(cpu), &rt));
    return rt;
}

static void assert_native_counts(long begins, long replays, long live)
{
    if (g_nat.begins != begins || g_nat.ends != begins || g_nat.replays != replays ||
        g_nat.live != live)
        print_error("native capture: begins %ld ends %ld replays %ld live %ld, want %ld %ld %ld "
                    "%ld\n",
                    g_nat.begins, g_nat.ends, g_nat.replays, g_nat.live, begins, begins, replays,
                    live);
    assert_int_equal(g_nat.begins, begins);
    assert_int_equal(g_nat.ends, begins);
    assert_int_equal(g_nat.replays, replays);
    assert_int_equal(g_nat.live, live);
    assert_int_equal(g_nat.direct_launches, 0);
    assert_int_equal(g_nat.misuse, 0);
    assert_null(g_nat.capturing);
}

/* One run of c on ins next to eager on copies; with want, against it too. */
static void native_run_once(airc_context *ctx, airc_graph *g, airc_compiled *c, airc_tensor **ins,
                            size_t nin, airc_tensor **want, size_t nwant, const char *label)
{
    airc_tensor *copy[MAXIN], *out[MAXOUT] = {NULL}, *ref[MAXOUT] = {NULL};
    for (size_t i = 0; i < nin; i++)
        copy[i] = airc_test_clone(ctx, ins[i]);
    size_t n = 0, nref = 0;
    airc_status st = airc_compiled_run(c, ins, nin, out, MAXOUT, &n);
    if (st != AIRC_OK)
        print_error("%s: %s: %s\n", label, airc_status_name(st), airc_last_error());
    AIRC_ASSERT_OK(st);
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, copy, nin, ref, MAXOUT, &nref, NULL));
    assert_int_equal(n, nref);
    for (size_t i = 0; i < n; i++) {
        char what[1200];
        snprintf(what, sizeof what, "%s result %zu vs eager", label, i);
        assert_true(airc_test_same_values(out[i], ref[i], what));
        if (want) {
            assert_int_equal(n, nwant);
            snprintf(what, sizeof what, "%s result %zu vs PyTorch", label, i);
            assert_true(airc_test_same_values(out[i], want[i], what));
        }
    }
    airc_test_destroy_all(out, n);
    airc_test_destroy_all(ref, nref);
    airc_test_destroy_all(copy, nin);
}

/* The graph at path on the native runtime: four runs with fresh data (the
 * second with `in` itself, checked against `want`) capture once and replay
 * the native graph at every run; input 0 of the smaller shape (rows2,
 * cols2) is a new plan, captured anew; back at the first shape, the first
 * plan's native graph replays. Destroying the compiled object destroys both
 * graphs. */
static void check_native(airc_context *ctx, airc_runtime *rt, const char *path, airc_tensor **in,
                         size_t nin, airc_tensor **want, size_t nwant, uint32_t nstreams,
                         int64_t rows2, int64_t cols2)
{
    airc_graph *g;
    AIRC_ASSERT_OK(airc_graph_parse_file(ctx, path, &g));
    airc_compiled *c = compile_with(g, NULL, rt, NULL, 0);
    assert_native_counts(0, 0, 0);
    airc_tensor *ins[MAXIN];
    for (size_t i = 0; i < nin; i++)
        ins[i] = airc_test_clone(ctx, in[i]);
    for (int rep = 0; rep < 4; rep++) {
        for (size_t i = 0; i < nin; i++)
            perturb_into(ins[i], in[i], 91 * (uint64_t)rep + i + 1);
        if (rep == 1)
            for (size_t i = 0; i < nin; i++)
                memcpy(airc_tensor_data(ins[i]), airc_tensor_data(in[i]),
                       airc_tensor_nbytes(in[i]));
        char label[1100];
        snprintf(label, sizeof label, "%s native run %d", path, rep);
        native_run_once(ctx, g, c, ins, nin, rep == 1 ? want : NULL, nwant, label);
        assert_native_counts(1, rep + 1, 1);
    }
    airc_compiled_stats s = stats_of(c);
    assert_int_equal(s.captures, 1);
    assert_int_equal(s.replays, 4);
    assert_int_equal(s.runs, 4);
    assert_int_equal(s.streams, nstreams);
    /* the native graph holds the whole plan: every launch, every event
     * recorded and waited for once */
    assert_int_equal(g_nat.recorded[NATIVE_LAUNCH], s.launches);
    assert_int_equal(g_nat.recorded[NATIVE_RECORD], s.events);
    assert_int_equal(g_nat.recorded[NATIVE_WAIT], s.events);

    /* a new shape: a new plan, a new native graph. It is smaller, so the
     * shared arena stays where the first native graph was captured. */
    void *first_buffer = airc_compiled_input_buffer(c, 0);
    airc_tensor *first = ins[0];
    ins[0] = make_f32(ctx, rows2, cols2, 0.6);
    for (int rep = 0; rep < 2; rep++) {
        fill_f32(ins[0], 0.6 + rep);
        char label[1100];
        snprintf(label, sizeof label, "%s native run at the new shape %d", path, rep);
        native_run_once(ctx, g, c, ins, nin, NULL, 0, label);
        assert_native_counts(2, 5 + rep, 2);
    }
    /* the first shape again: its own native graph replays */
    airc_tensor_destroy(ins[0]);
    ins[0] = first;
    perturb_into(ins[0], in[0], 4242);
    native_run_once(ctx, g, c, ins, nin, NULL, 0, "native run, first shape again");
    assert_native_counts(2, 7, 2);
    assert_ptr_equal(airc_compiled_input_buffer(c, 0), first_buffer);
    s = stats_of(c);
    assert_int_equal(s.captures, 2);
    assert_int_equal(s.replays, 7);
    assert_int_equal(s.fallbacks, 0);

    airc_test_destroy_all(ins, nin);
    assert_int_equal(g_nat.destroys, 0);
    airc_compiled_destroy(c);
    assert_int_equal(g_nat.destroys, 2);
    assert_int_equal(g_nat.live, 0);
    airc_graph_destroy(g);
}

/* capture_begin failing once: the run fails naming the call, nothing is
 * captured natively, and the next run captures and works. */
static void check_native_begin_fails(airc_context *ctx, airc_runtime *rt, airc_tensor **in,
                                     size_t nin)
{
    airc_graph *g;
    AIRC_ASSERT_OK(airc_graph_parse_file(ctx, AIRC_TEST_DATA "/graphs/mlp.fx", &g));
    airc_compiled *c = compile_with(g, NULL, rt, NULL, 0);
    g_nat.fail_begin = 1;
    airc_tensor *out[MAXOUT] = {NULL};
    size_t n = 99;
    AIRC_EXPECT(airc_compiled_run(c, in, nin, out, MAXOUT, &n), AIRC_E_RUNTIME, "capture_begin");
    assert_non_null(strstr(airc_last_error(), "fake: capture refused"));
    assert_null(out[0]);
    assert_int_equal(g_nat.begins, 1);
    assert_int_equal(g_nat.ends, 0);
    assert_int_equal(g_nat.replays, 0);
    assert_int_equal(g_nat.live, 0);
    assert_int_equal(stats_of(c).runs, 0);
    /* fixed: the next run captures, then replays */
    airc_tensor *ins[MAXIN];
    for (size_t i = 0; i < nin; i++)
        ins[i] = airc_test_clone(ctx, in[i]);
    for (int rep = 0; rep < 2; rep++) {
        for (size_t i = 0; i < nin; i++)
            perturb_into(ins[i], in[i], 313 * (uint64_t)rep + i + 7);
        native_run_once(ctx, g, c, ins, nin, NULL, 0, "native run after a failed capture_begin");
        assert_int_equal(g_nat.begins, 2);
        assert_int_equal(g_nat.ends, 1);
        assert_int_equal(g_nat.replays, rep + 1);
        assert_int_equal(g_nat.live, 1);
    }
    airc_compiled_stats s = stats_of(c);
    assert_int_equal(s.captures, 1);
    assert_int_equal(s.runs, 2);
    airc_test_destroy_all(ins, nin);
    airc_compiled_destroy(c);
    assert_int_equal(g_nat.destroys, 1);
    assert_int_equal(g_nat.live, 0);
    assert_int_equal(g_nat.misuse, 0);
    airc_graph_destroy(g);
}

static void test_native_capture(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_runtime *cpu;
    AIRC_ASSERT_OK(airc_cpu_runtime_create(ctx, NULL, &cpu));

    /* the seed's multistream graph: two streams, four events */
    airc_runtime *rt = native_runtime(ctx, cpu);
    airc_tensor *x;
    AIRC_ASSERT_OK(airc_npy_read(ctx, AIRC_SOURCE_DIR "/examples/seed001/x.npy", &x));
    check_native(ctx, rt, AIRC_SOURCE_DIR "/examples/seed001/multistream.after.fx", &x, 1, NULL, 0,
                 2, 2, 2);
    assert_int_equal(g_nat.recorded[NATIVE_RECORD], 2 * 4); /* both plans: 4 events each */
    airc_tensor_destroy(x);
    airc_runtime_destroy(rt);

    /* a single-stream conformance case, against PyTorch too */
    airc_test_case k;
    memset(&k, 0, sizeof k);
    k.dir = AIRC_TEST_DATA "/graphs";
    snprintf(k.name, sizeof k.name, "mlp");
    assert_true(airc_test_case_load(ctx, &k));
    rt = native_runtime(ctx, cpu);
    check_native(ctx, rt, AIRC_TEST_DATA "/graphs/mlp.fx", k.in, k.nin, k.want, k.nwant, 1, 2,
                 airc_tensor_shape(k.in[0])[1]);
    assert_int_equal(g_nat.recorded[NATIVE_RECORD], 0);
    airc_runtime_destroy(rt);

    /* capture_begin failing once */
    rt = native_runtime(ctx, cpu);
    check_native_begin_fails(ctx, rt, k.in, k.nin);
    airc_runtime_destroy(rt);

    airc_test_case_free(&k);
    airc_runtime_destroy(cpu);
    airc_context_destroy(ctx);
}

/* ---- config switches ------------------------------------------------------------ */

/* reinplace on: add(mul, x) runs in place in mul's buffer, one buffer less */
static void test_reinplace_switch(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g = airc_test_parse(ctx, SIMPLE);
    airc_config *on = config_with(ctx, NULL, NULL);
    airc_config *off =
        config_with(ctx, "debug.aclgraph.disable_reinplace_inplaceable_ops_pass", "1");
    airc_compiled *con = compile_with(g, on, NULL, NULL, 0);
    airc_compiled *coff = compile_with(g, off, NULL, NULL, 0);
    airc_tensor *x = make_f32(ctx, 5, 3, 0.4), *y = make_f32(ctx, 5, 3, -0.7);
    run_simple(con, x, y);
    run_simple(coff, x, y);
    airc_compiled_stats son = stats_of(con), soff = stats_of(coff);
    assert_true(son.naive_bytes < soff.naive_bytes);
    assert_int_equal(son.launches, soff.launches);
    airc_tensor_destroy(x);
    airc_tensor_destroy(y);
    airc_compiled_destroy(con);
    airc_compiled_destroy(coff);
    airc_config_destroy(on);
    airc_config_destroy(off);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* One arena for all captures (sized for the largest), or one per capture. */
static void test_mempool_reuse_switch(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g = airc_test_parse(ctx, SIMPLE);
    for (int own = 0; own < 2; own++) {
        airc_config *cfg = config_with(
            ctx, own ? "debug.aclgraph.disable_mempool_reuse_in_same_fx" : NULL, own ? "1" : NULL);
        airc_compiled *c = compile_with(g, cfg, NULL, NULL, 0);
        airc_tensor *xa = make_f32(ctx, 2, 3, 0.1), *ya = make_f32(ctx, 2, 3, 0.2);
        airc_tensor *xb = make_f32(ctx, 16, 32, 0.3), *yb = make_f32(ctx, 16, 32, 0.4);
        run_simple(c, xa, ya);
        run_simple(c, xb, yb);
        airc_compiled_stats big = stats_of(c);
        fill_f32(xa, 0.9);
        run_simple(c, xa, ya); /* the small plan again, after the arena grew */
        airc_compiled_stats s = stats_of(c);
        assert_int_equal(s.captures, 2);
        assert_true(s.plan_arena_bytes < big.plan_arena_bytes);
        if (own)
            assert_int_equal(s.arena_bytes, s.plan_arena_bytes);
        else
            assert_true(s.arena_bytes >= big.plan_arena_bytes);
        airc_tensor_destroy(xa);
        airc_tensor_destroy(ya);
        airc_tensor_destroy(xb);
        airc_tensor_destroy(yb);
        airc_compiled_destroy(c);
        airc_config_destroy(cfg);
    }
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* clone_input off (TorchAir's rule): the first run's input addresses are
 * captured; a later input at another address is copied into them. */
static void test_clone_input_off(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g = airc_test_parse(ctx, SIMPLE);
    airc_config *cfg = config_with(ctx, "debug.aclgraph.clone_input", "0");
    airc_compiled *c = compile_with(g, cfg, NULL, NULL, 0);
    airc_tensor *x1 = make_f32(ctx, 4, 4, 0.5), *y1 = make_f32(ctx, 4, 4, 0.6);
    airc_tensor *x2 = make_f32(ctx, 4, 4, -0.5), *y2 = make_f32(ctx, 4, 4, 1.5);
    run_simple(c, x1, y1);
    assert_int_equal(stats_of(c).input_copies, 0);
    assert_null(airc_compiled_input_buffer(c, 0)); /* the caller's memory, not a buffer */
    run_simple(c, x1, y1);
    assert_int_equal(stats_of(c).input_copies, 0);
    run_simple(c, x2, y2);
    assert_int_equal(stats_of(c).input_copies, 2);
    assert_true(airc_test_same_values(x1, x2, "the first input now holds the second"));
    airc_compiled_stats s = stats_of(c);
    assert_int_equal(s.captures, 1);
    assert_int_equal(s.replays, 3);
    airc_tensor_destroy(x1);
    airc_tensor_destroy(y1);
    airc_tensor_destroy(x2);
    airc_tensor_destroy(y2);
    airc_compiled_destroy(c);
    airc_config_destroy(cfg);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

/* ---- 13. remove_cat_ops ------------------------------------------------------------ */

/* Runs case k compiled with remove_cat_ops = on over its inputs twice
 * (capture, replay): PyTorch's results; returns the launches per replay. */
static uint64_t run_cat_case(airc_context *ctx, airc_graph *g, airc_test_case *k, const char *on)
{
    airc_config *cfg = config_with(ctx, "debug.aclgraph.remove_cat_ops", on);
    airc_compiled *c = compile_with(g, cfg, NULL, NULL, 0);
    for (int r = 0; r < 2; r++) {
        airc_tensor *out[MAXOUT];
        size_t n = 0;
        AIRC_ASSERT_OK(airc_compiled_run(c, k->in, k->nin, out, MAXOUT, &n));
        assert_int_equal(n, k->nwant);
        for (size_t i = 0; i < n; i++) {
            assert_true(airc_test_same_values(out[i], k->want[i], "remove_cat_ops"));
            airc_tensor_destroy(out[i]);
        }
    }
    uint64_t launches = stats_of(c).launches;
    airc_compiled_destroy(c);
    airc_config_destroy(cfg);
    return launches;
}

/* cat_fusion.fx has three dim-0 cats of fresh results (one through
 * reinplace's relu_(mul), one with dim -2, one nested in a cat that must
 * stay) and five that must stay (an input read twice, an input read
 * elsewhere, dim 1 twice, an inner removed cat): three launches fewer,
 * the same results. A cat whose input runs on another stream stays. */
static void test_remove_cat_ops(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_test_case k = {.dir = AIRC_TEST_DATA "/graphs", .name = "cat_fusion"};
    assert_true(airc_test_case_load(ctx, &k));
    char *text = airc_test_read_file(AIRC_TEST_DATA "/graphs/cat_fusion.fx", NULL);
    airc_graph *g = airc_test_parse(ctx, text);
    uint64_t on = run_cat_case(ctx, g, &k, "1"), off = run_cat_case(ctx, g, &k, "0");
    assert_int_equal(on + 3, off);
    airc_graph_destroy(g);
    free(text);
    airc_test_case_free(&k);

    g = airc_test_parse(
        ctx, "graph():\n"
             "    %x : [#users=2] = placeholder[target=x]\n"
             "    %scope_enter : [#users=0] = call_function[target=torch.ops.air.scope_enter."
             "default](args = ([_user_stream_label], [stream_1]), kwargs = {})\n"
             "    %exp : [#users=1] = call_function[target=torch.ops.aten.exp.default](args = "
             "(%x,), kwargs = {})\n"
             "    %scope_exit : [#users=0] = call_function[target=torch.ops.air.scope_exit."
             "default](args = (), kwargs = {})\n"
             "    %neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = "
             "(%x,), kwargs = {})\n"
             "    %cat : [#users=1] = call_function[target=torch.ops.aten.cat.default](args = "
             "([%exp, %neg],), kwargs = {})\n"
             "    return (cat,)\n");
    airc_config *cfg = config_with(ctx, NULL, NULL);
    airc_compiled *c = compile_with(g, cfg, NULL, NULL, 0);
    airc_tensor *x = make_f32(ctx, 3, 4, 0.25), *out[1];
    size_t n = 0;
    AIRC_ASSERT_OK(airc_compiled_run(c, &x, 1, out, 1, &n));
    const float *xd = airc_tensor_data(x), *o = airc_tensor_data(out[0]);
    for (int i = 0; i < 12; i++) {
        assert_float_equal(o[i], expf(xd[i]), 1e-5 * (1 + expf(xd[i])));
        assert_float_equal(o[12 + i], -xd[i], 0);
    }
    assert_int_equal(stats_of(c).launches, 3); /* exp, neg, cat */
    airc_tensor_destroy(out[0]);
    airc_tensor_destroy(x);
    airc_compiled_destroy(c);
    airc_config_destroy(cfg);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conformance_fresh_inputs),
        cmocka_unit_test(test_shape_change_recaptures),
        cmocka_unit_test(test_capture_limit),
        cmocka_unit_test(test_static_inputs),
        cmocka_unit_test(test_mutated_input_add_),
        cmocka_unit_test(test_mutated_input_copy_),
        cmocka_unit_test(test_run_views_captured_buffer),
        cmocka_unit_test(test_outputs_in_arena),
        cmocka_unit_test(test_outputs_cloned),
        cmocka_unit_test(test_eager_modes),
        cmocka_unit_test(test_generic_driver),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_tuple_cap_eager),
        cmocka_unit_test(test_tuple_cap_run),
        cmocka_unit_test(test_tuple_cap_run_views),
        cmocka_unit_test(test_tuple_run_views_eagerly),
        cmocka_unit_test(test_no_launches),
        cmocka_unit_test(test_placeholder_after_call),
        cmocka_unit_test(test_two_threads),
        cmocka_unit_test(test_native_capture),
        cmocka_unit_test(test_reinplace_switch),
        cmocka_unit_test(test_mempool_reuse_switch),
        cmocka_unit_test(test_clone_input_off),
        cmocka_unit_test(test_remove_cat_ops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
