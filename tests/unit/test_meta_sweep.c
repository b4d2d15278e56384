/* A sweep over every registered op: its meta function on arguments drawn
 * from its schema, sizes and integers often at the edges of int64 (2^31,
 * 2^62, INT64_MAX, INT64_MIN...), and, where the tensors are small, its
 * eager kernel. Deterministic (a fixed seed per op), so a failure replays.
 * What must hold: every call returns a status; a failure names the node;
 * a success gives non-negative sizes, and the kernel's results have the
 * shape and dtype the meta function promised; for every fourth draw,
 * reduce-overhead (capture and replay) and max-autotune (the GE model)
 * give the eager results, or refuse with a message, and refuse what eager
 * refuses. In the sanitizer tree
 * (-fno-sanitize-recover) an overflow in size arithmetic aborts the test:
 * this is the class of bug fuzz_api kept finding one corner at a time.
 * AIRC_SWEEP_TRIALS=N draws N calls per op instead of 300 (long runs by
 * hand). */
#include "testcase.h"
#include "testutil.h"

#include "airc/compile.h"
#include "airc/exec.h"
#include "airc/passes.h"
#include "airc/runtime.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TRIALS = 300, MAX_ARGS = 16, MAX_INPUTS = 24, MAX_LIST = 4, SMALL_NUMEL = 256 };

typedef struct rng {
    uint64_t s;
} rng;

/* splitmix64 */
static uint64_t next(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static uint32_t below(rng *r, uint32_t n)
{
    return (uint32_t)(next(r) % n);
}

static const int64_t edge_ints[] = {
    INT64_MAX,         INT64_MIN,        INT64_MAX - 1,       INT64_MIN + 1,
    INT64_MAX / 2 + 1, (int64_t)1 << 62, -((int64_t)1 << 62), (int64_t)1 << 32,
    (int64_t)1 << 31,  INT32_MAX,        INT32_MIN,           -((int64_t)1 << 31) - 1};
enum { NEDGE = sizeof edge_ints / sizeof edge_ints[0] };

/* A size: mostly small, sometimes huge (never negative: meta refuses those
 * at the door). */
static int64_t gen_size(rng *r)
{
    if (below(r, 10) < 7)
        return below(r, 5);
    int64_t v = edge_ints[below(r, NEDGE)];
    return v < 0 ? -(v + 1) : v;
}

static int64_t gen_int(rng *r)
{
    return below(r, 10) < 6 ? (int64_t)below(r, 9) - 4 : edge_ints[below(r, NEDGE)];
}

typedef struct sweep {
    airc_context *ctx;
    airc_runtime *rt;
    airc_graph *g;
    rng r;
    airc_node *inputs[MAX_INPUTS];
    size_t ninputs;
    airc_node *call;
    uint64_t trial;
    size_t calls, metas_ok, kernels_run, compared;
} sweep;

/* A placeholder with a random tensor meta, or NULL (too many inputs). */
static airc_node *gen_tensor(sweep *s)
{
    static const airc_dtype dtypes[] = {AIRC_DTYPE_I64, AIRC_DTYPE_BOOL, AIRC_DTYPE_F16,
                                        AIRC_DTYPE_I32, AIRC_DTYPE_F64,  AIRC_DTYPE_U8};
    if (s->ninputs == MAX_INPUTS)
        return NULL;
    char name[32];
    snprintf(name, sizeof name, "in_%zu", s->ninputs);
    airc_node *p = NULL;
    AIRC_ASSERT_OK(airc_graph_placeholder(s->g, name, &p));
    airc_dtype dt = below(&s->r, 4) ? AIRC_DTYPE_F32 : dtypes[below(&s->r, 6)];
    int32_t ndim = (int32_t)below(&s->r, 5);
    int64_t shape[4], strides[4];
    for (int32_t d = 0; d < ndim; d++) {
        shape[d] = gen_size(&s->r);
        strides[d] = below(&s->r, 3) ? (int64_t)below(&s->r, 4) : gen_size(&s->r);
    }
    /* strides: contiguous mostly, else arbitrary (overlapping, huge); a
     * shape whose numel overflows int64 is refused: then its first huge
     * size becomes 2, until it fits */
    while (airc_node_set_meta(p, dt, ndim, shape, below(&s->r, 5) ? NULL : strides) != AIRC_OK) {
        int32_t d = 0;
        while (d < ndim && shape[d] <= 4 && strides[d] <= 4)
            d++;
        assert_true(d < ndim);
        shape[d] = strides[d] = 2;
    }
    s->inputs[s->ninputs++] = p;
    return p;
}

static const airc_value *gen_scalar(sweep *s, airc_type_kind kind)
{
    static const double floats[] = {0.0,   1.0,      -1.0,      0.5,    1e-5, 3.0,
                                    1e308, INFINITY, -INFINITY, 9.3e18, -0.0};
    static const char *const strs[] = {"none", "tanh", "mean", "sum", "floor", "trunc", ""};
    const airc_value *v = NULL;
    airc_graph *g = s->g;
    rng *r = &s->r;
    switch (kind) {
    case AIRC_TYPE_TENSOR: {
        airc_node *n = gen_tensor(s);
        if (n)
            AIRC_ASSERT_OK(airc_value_node(g, n, &v));
        else
            AIRC_ASSERT_OK(airc_value_none(g, &v));
        break;
    }
    case AIRC_TYPE_INT:
    case AIRC_TYPE_SYMINT: AIRC_ASSERT_OK(airc_value_int(g, gen_int(r), &v)); break;
    case AIRC_TYPE_FLOAT:
        AIRC_ASSERT_OK(airc_value_float(g, below(r, 12) < 11 ? floats[below(r, 11)] : NAN, &v));
        break;
    case AIRC_TYPE_BOOL: AIRC_ASSERT_OK(airc_value_bool(g, (int32_t)below(r, 2), &v)); break;
    case AIRC_TYPE_SCALAR:
        if (below(r, 2))
            AIRC_ASSERT_OK(airc_value_int(g, gen_int(r), &v));
        else
            AIRC_ASSERT_OK(airc_value_float(g, floats[below(r, 11)], &v));
        break;
    case AIRC_TYPE_SCALAR_TYPE:
        AIRC_ASSERT_OK(airc_value_dtype(g, (airc_dtype)(1 + below(r, 10)), &v));
        break;
    case AIRC_TYPE_DEVICE: AIRC_ASSERT_OK(airc_value_device(g, "cpu", -1, &v)); break;
    case AIRC_TYPE_LAYOUT: AIRC_ASSERT_OK(airc_value_layout(g, AIRC_LAYOUT_STRIDED, &v)); break;
    case AIRC_TYPE_MEMORY_FORMAT:
        AIRC_ASSERT_OK(airc_value_memory_format(g, (airc_memory_format)below(r, 4), &v));
        break;
    case AIRC_TYPE_STR: AIRC_ASSERT_OK(airc_value_string(g, strs[below(r, 7)], &v)); break;
    default: AIRC_ASSERT_OK(airc_value_none(g, &v)); break;
    }
    return v;
}

/* A value for argument i of schema sc. */
static const airc_value *gen_arg(sweep *s, const airc_schema *sc, size_t i)
{
    const airc_value *v = NULL;
    if (airc_schema_arg_is_optional(sc, i) && below(&s->r, 5) == 0) {
        AIRC_ASSERT_OK(airc_value_none(s->g, &v));
        return v;
    }
    airc_type_kind kind = airc_schema_arg_type(sc, i);
    if (!airc_schema_arg_is_list(sc, i))
        return gen_scalar(s, kind);
    const airc_value *items[MAX_LIST];
    int32_t fixed = airc_schema_arg_list_size(sc, i);
    size_t n = fixed > 0 && fixed <= MAX_LIST && below(&s->r, 8) ? (size_t)fixed
                                                                 : below(&s->r, MAX_LIST + 1);
    for (size_t k = 0; k < n; k++)
        items[k] = gen_scalar(s, kind);
    AIRC_ASSERT_OK(airc_value_list(s->g, items, n, &v));
    return v;
}

static int64_t numel_capped(int32_t ndim, const int64_t *shape, int64_t cap)
{
    int64_t n = 1;
    for (int32_t d = 0; d < ndim; d++) {
        if (shape[d] > cap)
            return cap + 1;
        n *= shape[d];
        if (n > cap)
            return cap + 1;
    }
    return n;
}

/* The elements a tensor's strides span (from its first), capped as
 * numel_capped: a few elements may span gigabytes */
static int64_t span_capped(int32_t ndim, const int64_t *shape, const int64_t *strides, int64_t cap)
{
    int64_t end = 1;
    for (int32_t d = 0; d < ndim; d++) {
        if (shape[d] == 0)
            return 0;
        if (strides[d] > cap || shape[d] > cap)
            return cap + 1;
        end += (shape[d] - 1) * (strides[d] < 0 ? -strides[d] : strides[d]);
        if (end > cap)
            return cap + 1;
    }
    return end;
}

/* Small non-zero values of each input's meta; false when an input is too
 * large to make. */
static bool make_inputs(sweep *s, airc_tensor **ins)
{
    for (size_t i = 0; i < s->ninputs; i++) {
        airc_dtype dt;
        int32_t ndim;
        const int64_t *shape, *strides;
        AIRC_ASSERT_OK(airc_node_output_meta(s->inputs[i], 0, &dt, &ndim, &shape, &strides));
        if (numel_capped(ndim, shape, SMALL_NUMEL) > SMALL_NUMEL) {
            for (size_t k = 0; k < i; k++)
                airc_tensor_destroy(ins[k]);
            return false;
        }
        AIRC_ASSERT_OK(airc_tensor_create(s->ctx, dt, ndim, shape, &ins[i]));
        uint8_t *data = airc_tensor_data(ins[i]);
        size_t n = airc_tensor_numel(ins[i]);
        for (size_t e = 0; e < n; e++) {
            int32_t k = (int32_t)((e * 5 + i) % 4);
            switch (dt) {
            case AIRC_DTYPE_F32: ((float *)data)[e] = 0.5f * (float)k - 0.25f; break;
            case AIRC_DTYPE_F64: ((double *)data)[e] = 0.5 * k - 0.25; break;
            case AIRC_DTYPE_I64: ((int64_t *)data)[e] = k; break;
            case AIRC_DTYPE_I32: ((int32_t *)data)[e] = k; break;
            case AIRC_DTYPE_BOOL: data[e] = (uint8_t)(k & 1); break;
            case AIRC_DTYPE_U8: data[e] = (uint8_t)k; break;
            default: break; /* f16 zeros */
            }
        }
    }
    return true;
}

enum { MAX_OUTS = 8 };

/* Runs the one-op graph in `mode`, `runs` times, each on fresh inputs
 * (an in-place op writes them); keeps contiguous copies of the last run's
 * results in outs (reduce-overhead's live in the arena until the next
 * run). A graph that is too large to run gives AIRC_E_UNSUPPORTED with no
 * message; any other failure must say what. */
static airc_status run_mode(sweep *s, const char *mode, int runs, airc_tensor **outs, size_t *nout)
{
    *nout = 0;
    airc_tensor *ins[MAX_INPUTS];
    if (!make_inputs(s, ins))
        return AIRC_E_UNSUPPORTED;
    airc_config *cfg = NULL;
    airc_example_inputs *ex = NULL;
    AIRC_ASSERT_OK(airc_config_create(s->ctx, &cfg));
    AIRC_ASSERT_OK(airc_config_set(cfg, "mode", mode));
    AIRC_ASSERT_OK(airc_example_inputs_create(s->ctx, &ex));
    airc_status st = AIRC_OK;
    airc_compiled *c = NULL;
    for (int r = 0; st == AIRC_OK && r < runs; r++) {
        if (r > 0)
            assert_true(make_inputs(s, ins));
        if (!c) {
            for (size_t i = 0; i < s->ninputs; i++)
                AIRC_ASSERT_OK(airc_example_inputs_add_tensor(ex, ins[i]));
            airc_compile_options co;
            airc_compile_options_init(&co);
            co.config = cfg;
            co.runtime = s->rt;
            co.example_inputs = ex;
            st = airc_compile(s->g, &co, &c);
        }
        airc_tensor *got[MAX_OUTS];
        size_t n = 0;
        if (st == AIRC_OK)
            st = airc_compiled_run(c, ins, s->ninputs, got, MAX_OUTS, &n);
        airc_test_destroy_all(outs, *nout);
        for (size_t i = 0; i < n; i++) {
            outs[i] = airc_test_clone(s->ctx, got[i]);
            airc_tensor_destroy(got[i]);
        }
        *nout = n;
        airc_test_destroy_all(ins, s->ninputs);
    }
    if (st != AIRC_OK && !airc_last_error()[0])
        fail_msg("%s: %s in %s without a message", airc_node_target(s->call), airc_status_name(st),
                 mode);
    airc_compiled_destroy(c);
    airc_example_inputs_destroy(ex);
    airc_config_destroy(cfg);
    return st;
}

/* Lowerings that compute a factorization by another algorithm than
 * LAPACK's (geqrf's unrolled Householder steps, lstsq's SVD): equal for a
 * well-conditioned matrix, which the value sweep draws, but the sweep's
 * repeating inputs make rank-deficient matrices, whose factors are
 * rounding noise in both. max-autotune's values are not compared there. */
static bool ill_posed_composite(const char *target)
{
    return !strcmp(target, "aten.geqrf.default") || !strcmp(target, "aten.linalg_lstsq.default");
}

/* Every fourth draw whose eager run worked: the graph modes must give the
 * same results (they may refuse the op, with a message). */
static void compare_modes(sweep *s, airc_tensor *const *want, size_t nwant)
{
    static const char *const modes[] = {"reduce-overhead", "max-autotune"};
    for (size_t m = 0; m < 2; m++) {
        airc_tensor *got[MAX_OUTS];
        size_t n = 0;
        if (run_mode(s, modes[m], m == 0 ? 2 : 1, got, &n) != AIRC_OK)
            continue;
        if (m == 1 && (airc_test_linalg_info_failed(airc_node_target(s->call), want, nwant) ||
                       ill_posed_composite(airc_node_target(s->call)))) {
            airc_test_destroy_all(got, n);
            continue;
        }
        s->compared++;
        char what[160];
        snprintf(what, sizeof what, "%s in %s", airc_node_target(s->call), modes[m]);
        bool same = n == nwant;
        for (size_t i = 0; same && i < n; i++)
            same = airc_test_same_values(got[i], want[i], what);
        if (!same) {
            char *text = airc_test_print(s->g, AIRC_PRINT_TYPES);
            fail_msg("%s: %zu results unlike eager's %zu, in:\n%s", what, n, nwant, text);
        }
        airc_test_destroy_all(got, n);
    }
}

/* Errors that depend on the data, or on memory, where a graph mode may
 * compute instead: the GE lowering casts a uint8 mask to bool (as TorchAir
 * does), so only eager sees its other values; an index out of range
 * (index_fill, take) is a check the device graph does not make; GE holds
 * a strided result densely, so empty_strided with huge strides fits there
 * when eager's span does not. */
static const char *const data_dependent[] = {
    "`zero_point` must be between", "Mask tensor can take 0 and 1 values only",
    "is out of bounds for dimension", "out of range: tried to access index",
    "out of range for tensor of size", "Number of elements of source < number of ones in mask",
    "Found an invalid max index", "is not finite", "target out of range",
    "'target' is out of range", "has to start from position 0",
    "can not be greater than input's length", "offsets must not decrease",
    "index out of range in self",
    /* the linear algebra's infos (max-autotune's device ops report none) */
    "cannot be converted to Scalar", "is not positive-definite", "input matrix is singular",
    "failed to converge", "is zero and using it on lu_solve",
    "Did you properly pass the result of lu_factor",
    "the pivots are not those of linalg.ldl_factor", "a result shape that depends on the values",
    "Unknown error code", "has illegal value", "lengths contains negative value",
    "Expected all rows of lengths along axis to sum", "out of memory",
    /* _assert_async's value (max-autotune lowers it to nothing) */
    "Expected Tensor with single nonzero value"};

/* Eager refused the draw: the graph modes must refuse it too. */
static void expect_refusals(sweep *s)
{
    char why[512];
    snprintf(why, sizeof why, "%s", airc_last_error());
    for (size_t i = 0; i < sizeof data_dependent / sizeof data_dependent[0]; i++)
        if (strstr(why, data_dependent[i]))
            return;
    static const char *const modes[] = {"reduce-overhead", "max-autotune"};
    for (size_t m = 0; m < 2; m++) {
        airc_tensor *got[MAX_OUTS];
        size_t n = 0;
        if (run_mode(s, modes[m], 1, got, &n) == AIRC_OK) {
            char *text = airc_test_print(s->g, AIRC_PRINT_TYPES);
            fail_msg("%s runs in %s where eager refused it (%s), in:\n%s",
                     airc_node_target(s->call), modes[m], why, text);
        }
        s->compared++;
    }
}

/* Runs the one-op graph eagerly; a kernel may refuse (a status with a
 * message) but its results must match the meta, and the other modes'. */
static void run_eager(sweep *s, bool differential)
{
    airc_node *call = s->call;
    size_t nout_meta = airc_node_num_outputs(call);
    for (size_t i = 0; i < nout_meta; i++) {
        int32_t ndim;
        const int64_t *shape, *strides;
        AIRC_ASSERT_OK(airc_node_output_meta(call, i, NULL, &ndim, &shape, &strides));
        if (numel_capped(ndim, shape, 1 << 16) > 1 << 16 ||
            (strides && span_capped(ndim, shape, strides, 1 << 20) > 1 << 20))
            return;
    }
    airc_tensor *outs[MAX_OUTS];
    size_t nout = 0;
    airc_status st = run_mode(s, "eager", 1, outs, &nout);
    if (st != AIRC_OK) {
        if (differential && (st != AIRC_E_UNSUPPORTED || airc_last_error()[0]))
            expect_refusals(s);
        return;
    }
    s->kernels_run++;
    if (airc_node_meta_kind(call) == AIRC_META_TENSOR) {
        assert_int_equal(nout, 1);
        airc_dtype dt;
        int32_t ndim;
        const int64_t *shape;
        AIRC_ASSERT_OK(airc_node_output_meta(call, 0, &dt, &ndim, &shape, NULL));
        if (airc_tensor_ndim(outs[0]) != ndim || airc_tensor_dtype(outs[0]) != dt ||
            memcmp(airc_tensor_shape(outs[0]), shape, (size_t)ndim * sizeof *shape))
            fail_msg("%s: the kernel's result differs from the meta", airc_node_target(call));
    }
    if (differential)
        compare_modes(s, outs, nout);
    airc_test_destroy_all(outs, nout);
}

static void one_call(sweep *s, const airc_op *op)
{
    const airc_schema *sc = airc_op_schema(op);
    AIRC_ASSERT_OK(airc_graph_create(s->ctx, &s->g));
    s->ninputs = 0;
    const airc_value *args[MAX_ARGS], *kw_values[MAX_ARGS];
    const char *kw_names[MAX_ARGS];
    size_t nargs = 0, nkw = 0, total = airc_schema_num_args(sc);
    for (size_t i = 0; i < total && i < MAX_ARGS; i++) {
        bool has_default = airc_schema_arg_default(sc, i) || airc_schema_arg_is_optional(sc, i);
        if (airc_schema_arg_is_kwarg_only(sc, i)) {
            if (has_default && below(&s->r, 2))
                continue;
            kw_names[nkw] = airc_schema_arg_name(sc, i);
            kw_values[nkw++] = gen_arg(s, sc, i);
        } else if (nargs == i) {
            /* trailing defaulted arguments are left out now and then */
            if (has_default && below(&s->r, 4) == 0)
                continue;
            args[nargs++] = gen_arg(s, sc, i);
        }
    }
    airc_node *call = NULL;
    airc_status st = airc_graph_create_node(s->g, AIRC_NODE_CALL_FUNCTION, airc_op_name(op), args,
                                            nargs, kw_names, kw_values, nkw, "call", &call);
    if (st == AIRC_OK) {
        const airc_value *res = NULL;
        airc_node *out = NULL;
        AIRC_ASSERT_OK(airc_value_node(s->g, call, &res));
        AIRC_ASSERT_OK(airc_graph_output(s->g, res, &out));
        s->calls++;
        st = airc_graph_propagate_meta(s->g);
        if (st == AIRC_OK) {
            s->metas_ok++;
            for (size_t i = 0; i < airc_node_num_outputs(call); i++) {
                int32_t ndim;
                const int64_t *shape;
                AIRC_ASSERT_OK(airc_node_output_meta(call, i, NULL, &ndim, &shape, NULL));
                assert_true(ndim >= 0 && ndim <= AIRC_MAX_DIMS);
                for (int32_t d = 0; d < ndim; d++)
                    if (shape[d] < 0)
                        fail_msg("%s: meta gave size %lld", airc_op_name(op), (long long)shape[d]);
            }
            s->call = call;
            run_eager(s, s->trial % 4 == 0);
        } else {
            const char *msg = airc_last_error();
            if (!strstr(msg, "call"))
                fail_msg("%s: %s without naming the node: '%s'", airc_op_name(op),
                         airc_status_name(st), msg);
            assert_true(st == AIRC_E_SHAPE || st == AIRC_E_UNSUPPORTED ||
                        st == AIRC_E_INVALID_ARGUMENT || st == AIRC_E_INVALID_GRAPH);
        }
    } else {
        assert_true(airc_last_error()[0] != '\0');
    }
    airc_graph_destroy(s->g);
    s->g = NULL;
}

static void test_every_op(void **state)
{
    (void)state;
    sweep s = {0};
    AIRC_ASSERT_OK(airc_context_create(NULL, &s.ctx));
    airc_cpu_runtime_options ro;
    airc_cpu_runtime_options_init(&ro);
    ro.num_threads = 1;
    AIRC_ASSERT_OK(airc_cpu_runtime_create(s.ctx, &ro, &s.rt));
    const char *env = getenv("AIRC_SWEEP_TRIALS");
    uint64_t trials = env && atoi(env) > 0 ? (uint64_t)atoi(env) : TRIALS;
    size_t nops = airc_context_num_ops(s.ctx), swept = 0;
    for (size_t i = 0; i < nops; i++) {
        const airc_op *op = NULL;
        AIRC_ASSERT_OK(airc_context_find_op(s.ctx, airc_context_op_name(s.ctx, i), &op));
        if (!airc_op_schema(op) || !airc_op_has_meta(op))
            continue;
        swept++;
        for (uint64_t t = 0; t < trials; t++) {
            s.r.s = (uint64_t)i * 1000003u + t;
            s.trial = t;
            one_call(&s, op);
        }
    }
    print_message("%zu ops, %zu calls, %zu metas ok, %zu kernels run, %zu graph-mode runs "
                  "compared with eager\n",
                  swept, s.calls, s.metas_ok, s.kernels_run, s.compared);
    /* the sweep reaches the code it is for */
    assert_true(swept > 100);
    assert_true(s.metas_ok > s.calls / 20);
    assert_true(s.kernels_run > swept);
    assert_true(s.compared > swept);
    airc_runtime_destroy(s.rt);
    airc_context_destroy(s.ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_op),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
