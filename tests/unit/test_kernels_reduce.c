/* Built-in CPU kernels of the reduce family (backends/cpu/k_reduce*.c,
 * k_norm.c) against plain double-precision references written here, on
 * random data from a fixed seed: several dims, keepdim, negative dims,
 * non-contiguous inputs, size-0 and size-1 dims, ints and bools, ties and
 * NaN. Each case is a real one-op graph: parsed, meta propagated, arguments
 * bound with airc_schema_bind, so the kernels see what the executor gives
 * them. Every SIMD table this CPU runs is exercised. */
#include "testutil.h"

#include "backends/cpu/cpu_kernels.h"
#include "backends/cpu/k_reduce_internal.h"
#include "ir/ir.h"
#include "ops/kernel.h"
#include "ops/ops.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXA 32

/* ---- data ------------------------------------------------------------------ */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_u64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double uniform(double lo, double hi)
{
    return lo + (hi - lo) * (double)(next_u64() >> 11) * 0x1p-53;
}

static int64_t offset_of(const airc_tview *t, int64_t flat)
{
    int64_t off = 0;
    for (int32_t d = t->ndim - 1; d >= 0; d--) {
        int64_t n = t->shape[d];
        off += (flat % n) * t->strides[d];
        flat /= n;
    }
    return off;
}

static double tget(const airc_tview *t, int64_t flat)
{
    int64_t o = offset_of(t, flat);
    switch (t->dtype) {
    case AIRC_DTYPE_F32: return ((const float *)t->data)[o];
    case AIRC_DTYPE_F64: return ((const double *)t->data)[o];
    case AIRC_DTYPE_I64: return (double)((const int64_t *)t->data)[o];
    case AIRC_DTYPE_I32: return ((const int32_t *)t->data)[o];
    case AIRC_DTYPE_BOOL: return ((const uint8_t *)t->data)[o];
    default: fail_msg("tget: dtype %d", (int)t->dtype); return 0;
    }
}

static void tset(const airc_tview *t, int64_t flat, double v)
{
    int64_t o = offset_of(t, flat);
    switch (t->dtype) {
    case AIRC_DTYPE_F32: ((float *)t->data)[o] = (float)v; break;
    case AIRC_DTYPE_F64: ((double *)t->data)[o] = v; break;
    case AIRC_DTYPE_I64: ((int64_t *)t->data)[o] = (int64_t)v; break;
    case AIRC_DTYPE_I32: ((int32_t *)t->data)[o] = (int32_t)v; break;
    case AIRC_DTYPE_BOOL: ((uint8_t *)t->data)[o] = v != 0; break;
    default: fail_msg("tset: dtype %d", (int)t->dtype);
    }
}

static int64_t numel(const airc_tview *t)
{
    int64_t n = 1;
    for (int32_t d = 0; d < t->ndim; d++)
        n *= t->shape[d];
    return n;
}

/* ---- one-op graphs ------------------------------------------------------------ */

typedef struct tin {
    const char *name;
    airc_dtype dtype;
    int32_t ndim;
    int64_t shape[AIRC_MAX_DIMS];
    int64_t strides[AIRC_MAX_DIMS]; /* all zero: contiguous */
} tin;

typedef struct kcase {
    airc_context *ctx;
    airc_graph *g;
    airc_node *node;
    const airc_value *args[MAXA];
    const airc_tview *inp[MAXA];
    const airc_tview *lists[MAXA];
    uint32_t list_len[MAXA];
    airc_tview x[4]; /* inputs, in the order given */
    int nx;
    airc_tview out[4];
    airc_kernel_ctx k;
} kcase;

static airc_context *g_ctx;

/* Builds `%r = op(call)` over placeholders `ins` with random data
 * (uniform in [lo, hi], rounded for integer types). */
static void kc_build(kcase *c, const char *op, const char *call, const tin *ins, int nin,
                     double lo, double hi)
{
    memset(c, 0, sizeof *c);
    c->ctx = g_ctx;
    char text[2048];
    size_t o = (size_t)snprintf(text, sizeof text, "graph():\n");
    for (int i = 0; i < nin; i++)
        o += (size_t)snprintf(text + o, sizeof text - o,
                              "    %%%s : [#users=1] = placeholder[target=%s]\n", ins[i].name,
                              ins[i].name);
    snprintf(text + o, sizeof text - o,
             "    %%r : [#users=1] = call_function[target=torch.ops.%s](args = %s)\n"
             "    return r\n",
             op, call);
    c->g = airc_test_parse(c->ctx, text);
    for (int i = 0; i < nin; i++) {
        airc_node *p = airc_graph_find_node(c->g, ins[i].name);
        assert_non_null(p);
        bool contig = true;
        for (int32_t d = 0; d < ins[i].ndim; d++)
            contig = contig && ins[i].strides[d] == 0;
        AIRC_ASSERT_OK(airc_node_set_meta(p, ins[i].dtype, ins[i].ndim, ins[i].shape,
                                          contig ? NULL : ins[i].strides));
    }
    AIRC_ASSERT_OK(airc_graph_propagate_meta(c->g));
    c->node = airc_graph_find_node(c->g, "r");
    assert_non_null(c->node);
    const airc_op *opp = c->node->op;
    assert_non_null(opp);
    assert_true(opp->schema->nargs <= MAXA);
    airc_schema_bind(c->node, c->args);
    c->nx = nin;
    for (int i = 0; i < nin; i++) {
        airc_node *p = airc_graph_find_node(c->g, ins[i].name);
        airc_tview_from_meta(&c->x[i], &p->out[0]);
        size_t bytes = airc_tview_span_bytes(&c->x[i]);
        c->x[i].data = calloc(1, bytes + 64);
        assert_non_null(c->x[i].data);
        for (int64_t j = 0, n = numel(&c->x[i]); j < n; j++) {
            double v = uniform(lo, hi);
            if (!airc_kred_is_float(ins[i].dtype))
                v = floor(v + 0.5);
            tset(&c->x[i], j, v);
        }
        for (uint32_t a = 0; a < opp->schema->nargs; a++)
            if (c->args[a] && c->args[a]->kind == AIRC_VALUE_NODE && c->args[a]->u.node == p)
                c->inp[a] = &c->x[i];
    }
    c->k.node = c->node;
    c->k.op = opp;
    c->k.nargs = opp->schema->nargs;
    c->k.args = c->args;
    c->k.in = c->inp;
    c->k.in_list = c->lists;
    c->k.in_list_len = c->list_len;
    c->k.nout = c->node->nout;
    assert_true(c->k.nout <= 4);
    for (uint32_t i = 0; i < c->k.nout; i++) {
        airc_tview_from_meta(&c->out[i], &c->node->out[i]);
        size_t bytes = airc_tview_span_bytes(&c->out[i]);
        c->out[i].data = malloc(bytes + 64);
        assert_non_null(c->out[i].data);
        memset(c->out[i].data, 0xff, bytes + 64); /* NaN / -1: unwritten shows */
    }
    c->k.out = c->out;
    c->k.num_threads = 1;
    c->k.ctx = c->ctx;
}

static airc_status kc_run(kcase *c)
{
    airc_kernel_fn fn = airc_cpu_find_kernel(c->k.op->qualname);
    assert_non_null(fn);
    return fn(&c->k, NULL);
}

static void kc_free(kcase *c)
{
    for (int i = 0; i < c->nx; i++)
        free(c->x[i].data);
    for (uint32_t i = 0; i < c->k.nout; i++)
        free(c->out[i].data);
    airc_graph_destroy(c->g);
}

/* ---- comparison ----------------------------------------------------------------- */

static void expect_close(const char *what, const airc_tview *o, const double *want, int64_t n,
                         bool exact)
{
    assert_int_equal(numel(o), n);
    double amax = 0;
    for (int64_t i = 0; i < n; i++)
        if (isfinite(want[i]) && fabs(want[i]) > amax)
            amax = fabs(want[i]);
    for (int64_t i = 0; i < n; i++) {
        double got = tget(o, i), w = want[i];
        bool ok;
        if (isnan(w))
            ok = isnan(got);
        else if (isinf(w))
            ok = got == w;
        else if (exact)
            ok = got == w;
        else
            ok = fabs(got - w) <= 1e-4 * fabs(w) + 1e-4 * (1 + amax);
        if (!ok)
            fail_msg("%s: element %lld: got %.9g, want %.9g", what, (long long)i, got, w);
    }
}

/* ---- references ------------------------------------------------------------------- */

enum { R_SUM, R_MEAN, R_PROD, R_MAX, R_MIN, R_ARGMAX, R_ARGMIN, R_VAR, R_ANY, R_ALL };

/* Reduces x over mask into val/idx (one per output, in the output's
 * row-major order). Input elements are visited in logical order, so an
 * output's elements arrive in the order of their reduced index. */
static int64_t ref_reduce(const airc_tview *x, const bool *mask, int op, double corr,
                          double *val, int64_t *idx, double *mean_out)
{
    int64_t nout = 1, nred = 1;
    for (int32_t d = 0; d < x->ndim; d++)
        *(mask[d] ? &nred : &nout) *= x->shape[d];
    double *acc = calloc((size_t)nout + 1, sizeof *acc);
    int64_t *cnt = calloc((size_t)nout + 1, sizeof *cnt);
    for (int64_t o = 0; o < nout; o++) {
        acc[o] = op == R_PROD || op == R_ALL ? 1 : 0;
        idx[o] = -1;
        val[o] = op == R_MAX ? -INFINITY : op == R_MIN ? INFINITY : 0;
    }
    for (int pass = 0; pass < (op == R_VAR ? 2 : 1); pass++) {
        for (int64_t o = 0; o < nout; o++)
            cnt[o] = 0;
        for (int64_t f = 0, n = numel(x); f < n; f++) {
            int64_t rem = f, o = 0, mul = 1;
            for (int32_t d = x->ndim - 1; d >= 0; d--) {
                int64_t i = rem % x->shape[d];
                rem /= x->shape[d];
                if (!mask[d]) {
                    o += i * mul;
                    mul *= x->shape[d];
                }
            }
            double v = tget(x, f);
            int64_t r = cnt[o]++;
            switch (op) {
            case R_SUM:
            case R_MEAN: acc[o] += v; break;
            case R_PROD: acc[o] *= v; break;
            case R_ANY: acc[o] = acc[o] || v != 0; break;
            case R_ALL: acc[o] = acc[o] && v != 0; break;
            case R_VAR:
                if (pass == 0)
                    acc[o] += v;
                else
                    val[o] += (v - mean_out[o]) * (v - mean_out[o]);
                break;
            case R_MAX:
            case R_MIN:
            case R_ARGMAX:
            case R_ARGMIN: {
                bool is_max = op == R_MAX || op == R_ARGMAX;
                bool better = is_max ? v > val[o] : v < val[o];
                if (idx[o] < 0 || (!isnan(val[o]) && (isnan(v) || better))) {
                    val[o] = v;
                    idx[o] = r;
                }
                break;
            }
            }
        }
        if (op == R_VAR && pass == 0)
            for (int64_t o = 0; o < nout; o++)
                mean_out[o] = acc[o] / (double)nred;
    }
    for (int64_t o = 0; o < nout; o++) {
        switch (op) {
        case R_SUM:
        case R_PROD:
        case R_ANY:
        case R_ALL: val[o] = acc[o]; break;
        case R_MEAN: val[o] = acc[o] / (double)nred; break;
        case R_VAR: {
            double den = (double)nred - corr;
            val[o] = val[o] / (den > 0 ? den : 0);
            break;
        }
        default: break;
        }
    }
    free(acc);
    free(cnt);
    return nout;
}

/* mask from dims (negative wrapped); nd 0 = all */
static void make_mask(const airc_tview *x, const int *dims, int nd, bool *mask)
{
    memset(mask, 0, AIRC_MAX_DIMS * sizeof *mask);
    for (int32_t d = 0; d < x->ndim; d++)
        mask[d] = nd == 0;
    for (int i = 0; i < nd; i++)
        if (x->ndim)
            mask[dims[i] < 0 ? dims[i] + x->ndim : dims[i]] = true;
}

/* Runs op(call) on input `in` and checks output `oi` against ref op `rop`
 * over dims. inject: 1 = some NaN, 2 = values from {0,1,2,3} (ties). */
static void check_reduce(const char *op, const char *call, const tin *in, const int *dims, int nd,
                         int rop, double corr, int inject)
{
    kcase c;
    kc_build(&c, op, call, in, 1, -3, 3);
    airc_tview *x = &c.x[0];
    int64_t n = numel(x);
    if (inject == 2)
        for (int64_t i = 0; i < n; i++)
            tset(x, i, (double)(next_u64() % 4));
    if (inject == 1)
        for (int64_t i = 0; i < n; i += 7)
            tset(x, i, NAN);
    bool mask[AIRC_MAX_DIMS];
    make_mask(x, dims, nd, mask);
    int64_t cap = n + 1;
    for (int64_t kept = 1, d = 0; d <= x->ndim; d++) { /* empty inputs have outputs */
        if (kept + 1 > cap)
            cap = kept + 1;
        if (d < x->ndim && !mask[d])
            kept *= x->shape[d];
    }
    double *val = calloc((size_t)cap, sizeof *val), *mean = calloc((size_t)cap, sizeof *mean);
    int64_t *idx = calloc((size_t)cap, sizeof *idx);
    int64_t nout = ref_reduce(x, mask, rop, corr, val, idx, mean);
    AIRC_ASSERT_OK(kc_run(&c));
    char what[256];
    snprintf(what, sizeof what, "%s%s", op, call);
    bool exact = !airc_kred_is_float(c.out[0].dtype);
    if (rop == R_ARGMAX || rop == R_ARGMIN) {
        double *w = calloc((size_t)cap, sizeof *w);
        for (int64_t i = 0; i < nout; i++)
            w[i] = (double)idx[i];
        if (c.k.nout == 2) { /* max.dim: values then indices */
            expect_close(what, &c.out[0], val, nout, exact);
            assert_int_equal(c.out[1].dtype, AIRC_DTYPE_I64);
            expect_close(what, &c.out[1], w, nout, true);
        } else {
            assert_int_equal(c.out[0].dtype, AIRC_DTYPE_I64);
            expect_close(what, &c.out[0], w, nout, true);
        }
        free(w);
    } else {
        expect_close(what, &c.out[0], val, nout, exact);
        if (c.k.nout == 2) /* var_mean */
            expect_close(what, &c.out[1], mean, nout, false);
    }
    free(val);
    free(mean);
    free(idx);
    kc_free(&c);
}

/* ---- inputs -------------------------------------------------------------------------- */

static tin T3(airc_dtype dt, int64_t a, int64_t b, int64_t c)
{
    tin t = {"x", dt, 3, {a, b, c}, {0}};
    return t;
}

static tin T2(airc_dtype dt, int64_t a, int64_t b)
{
    tin t = {"x", dt, 2, {a, b}, {0}};
    return t;
}

/* [a, b, c] with its last two dims transposed: strides (b*c, 1, b) */
static tin T3t(airc_dtype dt, int64_t a, int64_t b, int64_t c)
{
    tin t = {"x", dt, 3, {a, b, c}, {b * c, 1, b}};
    return t;
}

/* every other element along the last dim, and a padded row pitch */
static tin T2s(airc_dtype dt, int64_t a, int64_t b)
{
    tin t = {"x", dt, 2, {a, b}, {2 * b + 3, 2}};
    return t;
}

/* ---- tests ------------------------------------------------------------------------------ */

#define K0 ", kwargs = {}"

static void test_sum(void **state)
{
    (void)state;
    tin x = T3(AIRC_DTYPE_F32, 4, 5, 6), xt = T3t(AIRC_DTYPE_F32, 4, 5, 6);
    tin xs = T2s(AIRC_DTYPE_F32, 7, 45);
    int d1[] = {1}, dm1[] = {-1}, d02[] = {0, 2}, d0[] = {0}, dm2[] = {-2};
    check_reduce("aten.sum.dim_IntList", "(%x, [1])" K0, &x, d1, 1, R_SUM, 0, 0);
    check_reduce("aten.sum.dim_IntList", "(%x, [-1], True)" K0, &x, dm1, 1, R_SUM, 0, 0);
    check_reduce("aten.sum.dim_IntList", "(%x, [0, 2])" K0, &x, d02, 2, R_SUM, 0, 0);
    check_reduce("aten.sum.dim_IntList", "(%x, [0, -1], True)" K0, &x, d02, 2, R_SUM, 0, 0);
    check_reduce("aten.sum.dim_IntList", "(%x, None)" K0, &x, NULL, 0, R_SUM, 0, 0);
    check_reduce("aten.sum.dim_IntList", "(%x, [])" K0, &x, NULL, 0, R_SUM, 0, 0);
    check_reduce("aten.sum.default", "(%x,)" K0, &x, NULL, 0, R_SUM, 0, 0);
    /* non-contiguous: transposed, strided with a row pitch */
    check_reduce("aten.sum.dim_IntList", "(%x, [0])" K0, &xt, d0, 1, R_SUM, 0, 0);
    check_reduce("aten.sum.dim_IntList", "(%x, [1])" K0, &xt, d1, 1, R_SUM, 0, 0);
    check_reduce("aten.sum.dim_IntList", "(%x, [-1])" K0, &xt, dm1, 1, R_SUM, 0, 0);
    check_reduce("aten.sum.default", "(%x,)" K0, &xt, NULL, 0, R_SUM, 0, 0);
    check_reduce("aten.sum.dim_IntList", "(%x, [-1])" K0, &xs, dm1, 1, R_SUM, 0, 0);
    check_reduce("aten.sum.dim_IntList", "(%x, [0])" K0, &xs, d0, 1, R_SUM, 0, 0);
    /* long rows (SIMD body + tails) and the column path (reduced dim outer) */
    tin big = T2(AIRC_DTYPE_F32, 37, 1031);
    check_reduce("aten.sum.dim_IntList", "(%x, [1])" K0, &big, d1, 1, R_SUM, 0, 0);
    check_reduce("aten.sum.dim_IntList", "(%x, [0])" K0, &big, d0, 1, R_SUM, 0, 0);
    check_reduce("aten.sum.dim_IntList", "(%x, [-2], True)" K0, &big, dm2, 1, R_SUM, 0, 0);
    tin wide = T2(AIRC_DTYPE_F32, 3, 5000); /* more columns than one block */
    check_reduce("aten.sum.dim_IntList", "(%x, [0])" K0, &wide, d0, 1, R_SUM, 0, 0);
    check_reduce("aten.amax.default", "(%x, [0])" K0, &wide, d0, 1, R_MAX, 0, 1);
    check_reduce("aten.var_mean.correction", "(%x, [0]), kwargs = {correction: 1}", &wide, d0, 1,
                 R_VAR, 1, 0);
    tin big3 = T3(AIRC_DTYPE_F32, 6, 3, 700);
    check_reduce("aten.sum.dim_IntList", "(%x, [0, 1])" K0, &big3, (int[]){0, 1}, 2, R_SUM, 0,
                 0);
    check_reduce("aten.sum.dim_IntList", "(%x, [1])" K0, &big3, d1, 1, R_SUM, 0, 0);
    /* size-1 and size-0 dims: an empty sum is 0 */
    tin one = T3(AIRC_DTYPE_F32, 1, 5, 1), zero = T3(AIRC_DTYPE_F32, 3, 0, 4);
    check_reduce("aten.sum.dim_IntList", "(%x, [0, 2])" K0, &one, d02, 2, R_SUM, 0, 0);
    check_reduce("aten.sum.dim_IntList", "(%x, [1])" K0, &one, d1, 1, R_SUM, 0, 0);
    check_reduce("aten.sum.dim_IntList", "(%x, [1])" K0, &zero, d1, 1, R_SUM, 0, 0);
    check_reduce("aten.sum.dim_IntList", "(%x, [0])" K0, &zero, d0, 1, R_SUM, 0, 0);
    check_reduce("aten.sum.default", "(%x,)" K0, &zero, NULL, 0, R_SUM, 0, 0);
    /* 0-dim */
    tin s0 = {"x", AIRC_DTYPE_F32, 0, {0}, {0}};
    check_reduce("aten.sum.default", "(%x,)" K0, &s0, NULL, 0, R_SUM, 0, 0);
    check_reduce("aten.sum.dim_IntList", "(%x, [0])" K0, &s0, NULL, 0, R_SUM, 0, 0);
    /* ints and bools sum into int64 (exact); dtype= */
    tin xi = T3(AIRC_DTYPE_I32, 4, 5, 6), xb = T3(AIRC_DTYPE_BOOL, 4, 5, 6);
    tin xl = T3t(AIRC_DTYPE_I64, 4, 5, 6);
    check_reduce("aten.sum.dim_IntList", "(%x, [1])" K0, &xi, d1, 1, R_SUM, 0, 0);
    check_reduce("aten.sum.default", "(%x,)" K0, &xb, NULL, 0, R_SUM, 0, 0);
    check_reduce("aten.sum.dim_IntList", "(%x, [0, 2], True)" K0, &xb, d02, 2, R_SUM, 0, 0);
    check_reduce("aten.sum.dim_IntList", "(%x, [0])" K0, &xl, d0, 1, R_SUM, 0, 0);
    check_reduce("aten.sum.dim_IntList", "(%x, [1]), kwargs = {dtype: torch.float64}", &xi, d1,
                 1, R_SUM, 0, 0);
    check_reduce("aten.sum.default", "(%x,), kwargs = {dtype: torch.float64}", &x, NULL, 0,
                 R_SUM, 0, 0);
    tin xd = T3t(AIRC_DTYPE_F64, 3, 4, 50);
    check_reduce("aten.sum.dim_IntList", "(%x, [1])" K0, &xd, d1, 1, R_SUM, 0, 0);
}

static void test_sum_dtypes_out(void **state)
{
    (void)state;
    /* the meta picks int64 for a bool sum, and the kernel writes int64 */
    kcase c;
    tin xb = T2(AIRC_DTYPE_BOOL, 3, 9);
    kc_build(&c, "aten.sum.dim_IntList", "(%x, [1])" K0, &xb, 1, -3, 3);
    assert_int_equal(c.out[0].dtype, AIRC_DTYPE_I64);
    for (int64_t i = 0; i < 27; i++)
        tset(&c.x[0], i, i % 3 != 0);
    AIRC_ASSERT_OK(kc_run(&c));
    for (int64_t i = 0; i < 3; i++)
        assert_int_equal(((int64_t *)c.out[0].data)[i], 6);
    kc_free(&c);
    /* int64 sums wrap around, as torch's */
    tin xl = T2(AIRC_DTYPE_I64, 1, 2);
    kc_build(&c, "aten.sum.default", "(%x,)" K0, &xl, 1, 0, 0);
    ((int64_t *)c.x[0].data)[0] = INT64_MAX;
    ((int64_t *)c.x[0].data)[1] = 1;
    AIRC_ASSERT_OK(kc_run(&c));
    assert_true(((int64_t *)c.out[0].data)[0] == INT64_MIN);
    kc_free(&c);
}

static void test_mean_prod(void **state)
{
    (void)state;
    tin x = T3(AIRC_DTYPE_F32, 4, 5, 6), xt = T3t(AIRC_DTYPE_F32, 4, 5, 6);
    int d1[] = {1}, dm1[] = {-1}, d02[] = {0, 2}, d0[] = {0};
    check_reduce("aten.mean.dim", "(%x, [1])" K0, &x, d1, 1, R_MEAN, 0, 0);
    check_reduce("aten.mean.dim", "(%x, [-1], True)" K0, &x, dm1, 1, R_MEAN, 0, 0);
    check_reduce("aten.mean.dim", "(%x, [0, 2])" K0, &xt, d02, 2, R_MEAN, 0, 0);
    check_reduce("aten.mean.dim", "(%x, None)" K0, &xt, NULL, 0, R_MEAN, 0, 0);
    check_reduce("aten.mean.default", "(%x,)" K0, &x, NULL, 0, R_MEAN, 0, 0);
    tin big = T2(AIRC_DTYPE_F32, 129, 300);
    check_reduce("aten.mean.dim", "(%x, [0])" K0, &big, d0, 1, R_MEAN, 0, 0);
    check_reduce("aten.mean.dim", "(%x, [1], True)" K0, &big, d1, 1, R_MEAN, 0, 0);
    /* mean of nothing is NaN */
    tin zero = T3(AIRC_DTYPE_F32, 3, 0, 4);
    check_reduce("aten.mean.dim", "(%x, [1])" K0, &zero, d1, 1, R_MEAN, 0, 0);
    /* dtype= on an int input */
    tin xi = T3(AIRC_DTYPE_I32, 4, 5, 6);
    check_reduce("aten.mean.dim", "(%x, [2]), kwargs = {dtype: torch.float32}", &xi,
                 (int[]){2}, 1, R_MEAN, 0, 0);

    /* prod: values near 1 keep products in range */
    kcase c;
    tin xp = T3t(AIRC_DTYPE_F32, 3, 4, 5);
    check_reduce("aten.prod.dim_int", "(%x, 1)" K0, &xp, d1, 1, R_PROD, 0, 0);
    check_reduce("aten.prod.dim_int", "(%x, -1, True)" K0, &xp, dm1, 1, R_PROD, 0, 0);
    check_reduce("aten.prod.default", "(%x,)" K0, &x, NULL, 0, R_PROD, 0, 0);
    tin xi2 = T2(AIRC_DTYPE_I64, 3, 7);
    check_reduce("aten.prod.dim_int", "(%x, 1)" K0, &xi2, d1, 1, R_PROD, 0, 0);
    check_reduce("aten.prod.dim_int", "(%x, 1)" K0, &zero, d1, 1, R_PROD, 0, 0); /* -> 1 */
    tin xb = T2(AIRC_DTYPE_BOOL, 4, 3);
    kc_build(&c, "aten.prod.dim_int", "(%x, 0)" K0, &xb, 1, 0, 1);
    assert_int_equal(c.out[0].dtype, AIRC_DTYPE_I64);
    kc_free(&c);
    check_reduce("aten.prod.dim_int", "(%x, 0)" K0, &xb, d0, 1, R_PROD, 0, 0);
}

static void test_amax_amin(void **state)
{
    (void)state;
    tin x = T3(AIRC_DTYPE_F32, 4, 5, 6), xt = T3t(AIRC_DTYPE_F32, 4, 5, 6);
    int d1[] = {1}, dm1[] = {-1}, d02[] = {0, 2}, d0[] = {0};
    for (int inject = 0; inject < 2; inject++) {
        check_reduce("aten.amax.default", "(%x, [1])" K0, &x, d1, 1, R_MAX, 0, inject);
        check_reduce("aten.amax.default", "(%x, [-1], True)" K0, &xt, dm1, 1, R_MAX, 0, inject);
        check_reduce("aten.amax.default", "(%x, [0, 2])" K0, &xt, d02, 2, R_MAX, 0, inject);
        check_reduce("aten.amax.default", "(%x,)" K0, &x, NULL, 0, R_MAX, 0, inject);
        check_reduce("aten.amin.default", "(%x, [1])" K0, &x, d1, 1, R_MIN, 0, inject);
        check_reduce("aten.amin.default", "(%x, [0])" K0, &xt, d0, 1, R_MIN, 0, inject);
        check_reduce("aten.amin.default", "(%x, [])" K0, &xt, NULL, 0, R_MIN, 0, inject);
        check_reduce("aten.max.default", "(%x,)" K0, &xt, NULL, 0, R_MAX, 0, inject);
        check_reduce("aten.min.default", "(%x,)" K0, &x, NULL, 0, R_MIN, 0, inject);
        tin big = T2(AIRC_DTYPE_F32, 33, 517);
        check_reduce("aten.amax.default", "(%x, [1])" K0, &big, d1, 1, R_MAX, 0, inject);
        check_reduce("aten.amax.default", "(%x, [0])" K0, &big, d0, 1, R_MAX, 0, inject);
        check_reduce("aten.amin.default", "(%x, [0])" K0, &big, d0, 1, R_MIN, 0, inject);
        check_reduce("aten.amin.default", "(%x, [1])" K0, &big, d1, 1, R_MIN, 0, inject);
    }
    tin xi = T3(AIRC_DTYPE_I64, 4, 5, 6), xb = T2(AIRC_DTYPE_BOOL, 5, 3);
    check_reduce("aten.amax.default", "(%x, [1])" K0, &xi, d1, 1, R_MAX, 0, 0);
    check_reduce("aten.amin.default", "(%x, [0, 2])" K0, &xi, d02, 2, R_MIN, 0, 0);
    check_reduce("aten.amax.default", "(%x, [1])" K0, &xb, d1, 1, R_MAX, 0, 0);
    check_reduce("aten.max.default", "(%x,)" K0, &xb, NULL, 0, R_MAX, 0, 0);
    /* a whole row of -inf: the max is -inf, not NaN */
    kcase c;
    tin r = T2(AIRC_DTYPE_F32, 2, 9);
    kc_build(&c, "aten.amax.default", "(%x, [1])" K0, &r, 1, -3, 3);
    for (int64_t i = 0; i < 9; i++)
        tset(&c.x[0], i, -INFINITY);
    AIRC_ASSERT_OK(kc_run(&c));
    assert_true(tget(&c.out[0], 0) == -INFINITY);
    kc_free(&c);
    /* an empty reduction has no identity: the kernel refuses it even when
     * handed one (the meta rejects such graphs earlier) */
    kc_build(&c, "aten.amax.default", "(%x, [1])" K0, &r, 1, -3, 3);
    c.x[0].shape[1] = 0;
    AIRC_EXPECT(kc_run(&c), AIRC_E_RUNTIME, "non-zero size");
    kc_free(&c);
}

static void test_max_min_dim(void **state)
{
    (void)state;
    tin x = T3(AIRC_DTYPE_F32, 4, 5, 6), xt = T3t(AIRC_DTYPE_F32, 4, 5, 6);
    int d1[] = {1}, dm1[] = {-1}, d0[] = {0};
    for (int inject = 0; inject < 3; inject++) {
        check_reduce("aten.max.dim", "(%x, 1)" K0, &x, d1, 1, R_ARGMAX, 0, inject);
        check_reduce("aten.max.dim", "(%x, -1, True)" K0, &xt, dm1, 1, R_ARGMAX, 0, inject);
        check_reduce("aten.max.dim", "(%x, 0)" K0, &xt, d0, 1, R_ARGMAX, 0, inject);
        check_reduce("aten.min.dim", "(%x, 1)" K0, &xt, d1, 1, R_ARGMIN, 0, inject);
        check_reduce("aten.min.dim", "(%x, -1)" K0, &x, dm1, 1, R_ARGMIN, 0, inject);
        check_reduce("aten.argmax.default", "(%x, 1)" K0, &x, d1, 1, R_ARGMAX, 0, inject);
        check_reduce("aten.argmax.default", "(%x, -1, True)" K0, &xt, dm1, 1, R_ARGMAX, 0,
                     inject);
        check_reduce("aten.argmin.default", "(%x, 0)" K0, &xt, d0, 1, R_ARGMIN, 0, inject);
        /* dim None: over all elements, in logical (row-major) order even for a
         * transposed input */
        check_reduce("aten.argmax.default", "(%x,)" K0, &xt, NULL, 0, R_ARGMAX, 0, inject);
        check_reduce("aten.argmin.default", "(%x, None, True)" K0, &xt, NULL, 0, R_ARGMIN, 0,
                     inject);
        check_reduce("aten.argmax.default", "(%x,)" K0, &x, NULL, 0, R_ARGMAX, 0, inject);
    }
    tin xi = T3(AIRC_DTYPE_I32, 4, 5, 6);
    check_reduce("aten.max.dim", "(%x, 2)" K0, &xi, (int[]){2}, 1, R_ARGMAX, 0, 2);
    check_reduce("aten.argmin.default", "(%x, 1)" K0, &xi, d1, 1, R_ARGMIN, 0, 2);
    tin one = T3(AIRC_DTYPE_F32, 3, 1, 2);
    check_reduce("aten.max.dim", "(%x, 1)" K0, &one, d1, 1, R_ARGMAX, 0, 0);

    /* ties and NaN by hand: torch picks the first occurrence, and the first
     * NaN */
    kcase c;
    tin r = T2(AIRC_DTYPE_F32, 1, 6);
    kc_build(&c, "aten.max.dim", "(%x, 1)" K0, &r, 1, 0, 0);
    float v1[] = {1, 3, 2, 3, 0, 3};
    memcpy(c.x[0].data, v1, sizeof v1);
    AIRC_ASSERT_OK(kc_run(&c));
    assert_true(tget(&c.out[0], 0) == 3);
    assert_int_equal(((int64_t *)c.out[1].data)[0], 1);
    float v2[] = {1, NAN, 9, NAN, 0, 3};
    memcpy(c.x[0].data, v2, sizeof v2);
    AIRC_ASSERT_OK(kc_run(&c));
    assert_true(isnan(tget(&c.out[0], 0)));
    assert_int_equal(((int64_t *)c.out[1].data)[0], 1);
    kc_free(&c);
}

/* mode's index among equal values is torch's std::sort's (libstdc++'s
 * introsort): the last for up to 16 items, the sort's choice beyond.
 * Lines and answers from torch 1.13. */
static void test_mode(void **state)
{
    (void)state;
    static const float ties19[] = {5, 1, 1, 5, 2, 2, 7, 7, 7, 0, 0, 0, 9, 9, 9, 1, 1, 5, 5};
    static const float line70[] = {0, 0, 3, 2, 0, 0, 1, 2, 0, 3, 1, 0, 0, 3, 1, 1, 2, 1,
                                   1, 1, 1, 1, 3, 2, 3, 0, 0, 3, 3, 0, 3, 0, 0, 0, 2, 2,
                                   3, 3, 0, 3, 1, 1, 2, 0, 1, 1, 0, 1, 0, 2, 2, 0, 0, 2,
                                   0, 0, 0, 3, 2, 2, 0, 0, 3, 1, 1, 1, 0, 0, 3, 1};
    static const float short5[] = {3, 1, 3, 1, 2};
    const struct {
        const float *v;
        int n;
        float value;
        int64_t index;
    } lines[] = {{ties19, 19, 1, 2}, {line70, 70, 0, 61}, {short5, 5, 1, 3}};
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        kcase c;
        tin r = T2(AIRC_DTYPE_F32, 1, lines[i].n);
        kc_build(&c, "aten.mode.default", "(%x, 1)" K0, &r, 1, 0, 0);
        memcpy(c.x[0].data, lines[i].v, sizeof *lines[i].v * (size_t)lines[i].n);
        AIRC_ASSERT_OK(kc_run(&c));
        assert_true(tget(&c.out[0], 0) == lines[i].value);
        assert_int_equal(((int64_t *)c.out[1].data)[0], lines[i].index);
        kc_free(&c);
    }
}

static void test_var(void **state)
{
    (void)state;
    tin x = T3(AIRC_DTYPE_F32, 4, 5, 6), xt = T3t(AIRC_DTYPE_F32, 4, 5, 6);
    int d1[] = {1}, dm1[] = {-1}, d02[] = {0, 2}, d0[] = {0};
    check_reduce("aten.var.default", "(%x,)" K0, &x, NULL, 0, R_VAR, 1, 0);
    check_reduce("aten.var.default", "(%x, False)" K0, &xt, NULL, 0, R_VAR, 0, 0);
    check_reduce("aten.var.dim", "(%x, [1])" K0, &x, d1, 1, R_VAR, 1, 0);
    check_reduce("aten.var.dim", "(%x, [-1], False, True)" K0, &xt, dm1, 1, R_VAR, 0, 0);
    check_reduce("aten.var.dim", "(%x, None)" K0, &xt, NULL, 0, R_VAR, 1, 0);
    check_reduce("aten.var.correction", "(%x, [0, 2]), kwargs = {correction: 0, keepdim: True}",
                 &x, d02, 2, R_VAR, 0, 0);
    check_reduce("aten.var.correction", "(%x, [0]), kwargs = {correction: 2}", &xt, d0, 1, R_VAR,
                 2, 0);
    check_reduce("aten.var.correction", "(%x, [1]), kwargs = {correction: None}", &xt, d1, 1,
                 R_VAR, 1, 0);
    check_reduce("aten.var.correction", "(%x, None), kwargs = {correction: 1}", &x, NULL, 0,
                 R_VAR, 1, 0);
    /* correction >= count: inf (or NaN for 0/0), as torch */
    tin small = T2(AIRC_DTYPE_F32, 3, 2), one = T2(AIRC_DTYPE_F32, 3, 1);
    check_reduce("aten.var.correction", "(%x, [1]), kwargs = {correction: 3}", &small, d1, 1,
                 R_VAR, 3, 0);
    check_reduce("aten.var.dim", "(%x, [1])" K0, &one, d1, 1, R_VAR, 1, 0);
    /* large offsets: two passes keep the variance */
    kcase c;
    tin big = T2(AIRC_DTYPE_F32, 257, 300);
    kc_build(&c, "aten.var.dim", "(%x, [0])" K0, &big, 1, 1000, 1001);
    bool mask[AIRC_MAX_DIMS];
    make_mask(&c.x[0], d0, 1, mask);
    double val[300], mean[300];
    int64_t idx[300];
    ref_reduce(&c.x[0], mask, R_VAR, 1, val, idx, mean);
    AIRC_ASSERT_OK(kc_run(&c));
    expect_close("var col", &c.out[0], val, 300, false);
    kc_free(&c);
    check_reduce("aten.var.dim", "(%x, [1])" K0, &big, d1, 1, R_VAR, 1, 0);
    check_reduce("aten.var_mean.correction", "(%x, [1]), kwargs = {correction: 0}", &big, d1, 1,
                 R_VAR, 0, 0);
    check_reduce("aten.var_mean.correction", "(%x, [0]), kwargs = {correction: None}", &big, d0,
                 1, R_VAR, 1, 0);
    check_reduce("aten.var_mean.correction",
                 "(%x, None), kwargs = {correction: None, keepdim: True}", &xt, NULL, 0, R_VAR, 1,
                 0);
}

static void test_any_all(void **state)
{
    (void)state;
    tin xb = T3(AIRC_DTYPE_BOOL, 4, 5, 6), xf = T3t(AIRC_DTYPE_F32, 4, 5, 6);
    tin xi = T2(AIRC_DTYPE_I64, 6, 3);
    int d1[] = {1}, dm1[] = {-1};
    check_reduce("aten.any.dim", "(%x, 1)" K0, &xb, d1, 1, R_ANY, 0, 0);
    check_reduce("aten.all.dim", "(%x, -1, True)" K0, &xb, dm1, 1, R_ALL, 0, 0);
    check_reduce("aten.any.default", "(%x,)" K0, &xb, NULL, 0, R_ANY, 0, 0);
    check_reduce("aten.all.default", "(%x,)" K0, &xb, NULL, 0, R_ALL, 0, 0);
    check_reduce("aten.all.dim", "(%x, 1)" K0, &xi, d1, 1, R_ALL, 0, 0);
    check_reduce("aten.any.dim", "(%x, 1)" K0, &xi, d1, 1, R_ANY, 0, 2);
    check_reduce("aten.all.dim", "(%x, 1)" K0, &xi, d1, 1, R_ALL, 0, 2);
    check_reduce("aten.all.dim", "(%x, 2)" K0, &xf, (int[]){2}, 1, R_ALL, 0, 1);
}

/* ---- cumsum ------------------------------------------------------------------------------- */

static void check_cumsum(const char *call, const tin *in, int dim)
{
    kcase c;
    kc_build(&c, "aten.cumsum.default", call, in, 1, -3, 3);
    const airc_tview *x = &c.x[0];
    int64_t n = numel(x);
    double *want = calloc((size_t)n + 1, sizeof *want);
    int32_t d = x->ndim ? (dim < 0 ? dim + x->ndim : dim) : 0;
    int64_t inner = 1;
    for (int32_t j = d + 1; j < x->ndim; j++)
        inner *= x->shape[j];
    int64_t len = x->ndim ? x->shape[d] : 1;
    for (int64_t f = 0; f < n; f++) {
        int64_t pos = (f / inner) % len;
        want[f] = tget(x, f) + (pos > 0 ? want[f - inner] : 0);
    }
    AIRC_ASSERT_OK(kc_run(&c));
    expect_close(call, &c.out[0], want, n, !airc_kred_is_float(c.out[0].dtype));
    free(want);
    kc_free(&c);
}

static void test_cumsum(void **state)
{
    (void)state;
    tin x = T3(AIRC_DTYPE_F32, 4, 5, 6), xt = T3t(AIRC_DTYPE_F32, 4, 5, 6);
    check_cumsum("(%x, 1)" K0, &x, 1);
    check_cumsum("(%x, -1)" K0, &x, -1);
    check_cumsum("(%x, 0)" K0, &xt, 0);
    check_cumsum("(%x, 2)" K0, &xt, 2);
    tin xi = T3(AIRC_DTYPE_I32, 4, 5, 6), xb = T2(AIRC_DTYPE_BOOL, 3, 8);
    check_cumsum("(%x, 1)" K0, &xi, 1);
    check_cumsum("(%x, -1)" K0, &xb, -1);
    check_cumsum("(%x, 1), kwargs = {dtype: torch.float64}", &xi, 1);
    tin zero = T3(AIRC_DTYPE_F32, 3, 0, 2), s0 = {"x", AIRC_DTYPE_F32, 0, {0}, {0}};
    check_cumsum("(%x, 1)" K0, &zero, 1);
    check_cumsum("(%x, 0)" K0, &s0, 0);
}

/* ---- softmax ------------------------------------------------------------------------------- */

static void check_softmax(const char *op, const char *call, const tin *in, int dim, bool take_log,
                          double lo, double hi, bool inject_inf)
{
    kcase c;
    kc_build(&c, op, call, in, 1, lo, hi);
    const airc_tview *x = &c.x[0];
    int64_t n = numel(x);
    if (inject_inf)
        for (int64_t f = 0; f < n; f += 5)
            tset(x, f, -INFINITY);
    double *want = calloc((size_t)n + 1, sizeof *want);
    int32_t d = x->ndim ? (dim < 0 ? dim + x->ndim : dim) : 0;
    int64_t inner = 1;
    for (int32_t j = d + 1; j < x->ndim; j++)
        inner *= x->shape[j];
    int64_t len = x->ndim ? x->shape[d] : 1;
    for (int64_t f = 0; f < n; f++) {
        if ((f / inner) % len)
            continue; /* each line from its first element */
        double m = -INFINITY, s = 0;
        for (int64_t j = 0; j < len; j++)
            m = fmax(m, tget(x, f + j * inner));
        for (int64_t j = 0; j < len; j++)
            s += exp(tget(x, f + j * inner) - m);
        for (int64_t j = 0; j < len; j++) {
            double v = tget(x, f + j * inner) - m;
            want[f + j * inner] = take_log ? v - log(s) : exp(v) / s;
        }
    }
    AIRC_ASSERT_OK(kc_run(&c));
    /* log_softmax of -inf is -inf: compare those exactly */
    expect_close(call, &c.out[0], want, n, false);
    free(want);
    kc_free(&c);
}

static void run_softmax_cases(void)
{
    static const char *const ops[2][2] = {{"aten._softmax.default", "aten.softmax.int"},
                                          {"aten._log_softmax.default", "aten.log_softmax.int"}};
    tin x = T3(AIRC_DTYPE_F32, 4, 5, 6), xt = T3t(AIRC_DTYPE_F32, 4, 5, 6);
    tin x4 = {"x", AIRC_DTYPE_F32, 4, {2, 7, 5, 9}, {0}};
    tin wide = T2(AIRC_DTYPE_F32, 5, 1000), xs = T2s(AIRC_DTYPE_F32, 5, 37);
    for (int lg = 0; lg < 2; lg++) {
        const char *op = ops[lg][0];
        check_softmax(op, "(%x, -1, False)" K0, &x, -1, lg, -3, 3, false);
        check_softmax(op, "(%x, -1, False)" K0, &wide, -1, lg, -3, 3, false);
        check_softmax(op, "(%x, 1, False)" K0, &wide, 1, lg, -30, 30, false);
        check_softmax(op, "(%x, 0, False)" K0, &wide, 0, lg, -3, 3, false);
        check_softmax(op, "(%x, 1, False)" K0, &x4, 1, lg, -3, 3, false);  /* columns */
        check_softmax(op, "(%x, 0, False)" K0, &x4, 0, lg, -3, 3, false);
        check_softmax(op, "(%x, -2, False)" K0, &x4, -2, lg, -3, 3, false);
        check_softmax(op, "(%x, 1, False)" K0, &xt, 1, lg, -3, 3, false); /* strided */
        check_softmax(op, "(%x, 2, False)" K0, &xt, 2, lg, -3, 3, false);
        check_softmax(op, "(%x, 1, False)" K0, &xs, 1, lg, -3, 3, false);
        check_softmax(op, "(%x, 1, False)" K0, &x, 1, lg, 1000, 1010, false); /* max shift */
        check_softmax(op, "(%x, -1, False)" K0, &x, -1, lg, -3, 3, true);
        check_softmax(op, "(%x, 1, False)" K0, &x4, 1, lg, -3, 3, true);
        op = ops[lg][1];
        check_softmax(op, "(%x, -1)" K0, &x, -1, lg, -3, 3, false);
        check_softmax(op, "(%x, 0), kwargs = {dtype: torch.float64}", &xt, 0, lg, -3, 3, false);
        tin xd = T3(AIRC_DTYPE_F64, 3, 4, 5);
        check_softmax(op, "(%x, 1)" K0, &xd, 1, lg, -3, 3, false);
        tin one = T3(AIRC_DTYPE_F32, 3, 1, 4), zero = T3(AIRC_DTYPE_F32, 3, 0, 4);
        check_softmax(op, "(%x, 1)" K0, &one, 1, lg, -3, 3, false);
        check_softmax(op, "(%x, 1)" K0, &zero, 1, lg, -3, 3, false);
        check_softmax(op, "(%x, 2)" K0, &zero, 2, lg, -3, 3, false);
    }
}

static void test_softmax(void **state)
{
    (void)state;
    run_softmax_cases();
}

/* ---- layer norm ---------------------------------------------------------------------------- */

static void check_layer_norm(const tin *ins, int nin, const char *call, int nnorm, double eps)
{
    kcase c;
    kc_build(&c, "aten.native_layer_norm.default", call, ins, nin, -2, 2);
    const airc_tview *x = &c.x[0];
    const airc_tview *w = NULL, *b = NULL;
    for (int i = 1; i < nin; i++)
        *(ins[i].name[0] == 'w' ? &w : &b) = &c.x[i];
    int64_t n = 1, rows = 1;
    for (int32_t d = 0; d < x->ndim; d++)
        *(d < x->ndim - nnorm ? &rows : &n) *= x->shape[d];
    double *want = calloc((size_t)(rows * n) + 1, sizeof *want);
    double *mean = calloc((size_t)rows + 1, sizeof *mean);
    double *rstd = calloc((size_t)rows + 1, sizeof *rstd);
    for (int64_t r = 0; r < rows; r++) {
        double s = 0, ss = 0;
        for (int64_t j = 0; j < n; j++)
            s += tget(x, r * n + j);
        mean[r] = n ? s / (double)n : 0;
        for (int64_t j = 0; j < n; j++)
            ss += pow(tget(x, r * n + j) - mean[r], 2);
        rstd[r] = n ? 1 / sqrt(ss / (double)n + eps) : NAN;
        for (int64_t j = 0; j < n; j++)
            want[r * n + j] = (tget(x, r * n + j) - mean[r]) * rstd[r] * (w ? tget(w, j) : 1) +
                              (b ? tget(b, j) : 0);
    }
    AIRC_ASSERT_OK(kc_run(&c));
    assert_int_equal(c.k.nout, 3);
    expect_close(call, &c.out[0], want, rows * n, false);
    expect_close("mean", &c.out[1], mean, rows, false);
    expect_close("rstd", &c.out[2], rstd, rows, false);
    free(want);
    free(mean);
    free(rstd);
    kc_free(&c);
}

static void run_layer_norm_cases(void)
{
    tin x[3] = {T3(AIRC_DTYPE_F32, 4, 7, 33), {"w", AIRC_DTYPE_F32, 1, {33}, {0}},
                {"b", AIRC_DTYPE_F32, 1, {33}, {0}}};
    check_layer_norm(x, 3, "(%x, [33], %w, %b, 1e-05)" K0, 1, 1e-5);
    check_layer_norm(x, 1, "(%x, [33], None, None, 1e-05)" K0, 1, 1e-5);
    check_layer_norm(x, 2, "(%x, [33], %w, None, 0.001)" K0, 1, 1e-3);
    tin xb[2] = {x[0], x[2]};
    check_layer_norm(xb, 2, "(%x, [33], None, %b, 1e-05)" K0, 1, 1e-5);
    tin x2[3] = {x[0], {"w", AIRC_DTYPE_F32, 2, {7, 33}, {0}},
                 {"b", AIRC_DTYPE_F32, 2, {7, 33}, {0}}};
    check_layer_norm(x2, 3, "(%x, [7, 33], %w, %b, 1e-05)" K0, 2, 1e-5);
    check_layer_norm(x2, 1, "(%x, [4, 7, 33], None, None, 1e-05)" K0, 3, 1e-5);
    /* non-contiguous input and weight */
    tin xt[3] = {T3t(AIRC_DTYPE_F32, 4, 7, 33), {"w", AIRC_DTYPE_F32, 1, {33}, {2}},
                 {"b", AIRC_DTYPE_F32, 1, {33}, {0}}};
    check_layer_norm(xt, 3, "(%x, [33], %w, %b, 1e-05)" K0, 1, 1e-5);
    tin xt2[1] = {T3t(AIRC_DTYPE_F32, 4, 7, 33)};
    check_layer_norm(xt2, 1, "(%x, [7, 33], None, None, 1e-05)" K0, 2, 1e-5);
    /* wide rows (SIMD bodies), a single element, f64 */
    tin wide[3] = {T2(AIRC_DTYPE_F32, 3, 1024), {"w", AIRC_DTYPE_F32, 1, {1024}, {0}},
                   {"b", AIRC_DTYPE_F32, 1, {1024}, {0}}};
    check_layer_norm(wide, 3, "(%x, [1024], %w, %b, 1e-05)" K0, 1, 1e-5);
    tin one[1] = {T2(AIRC_DTYPE_F32, 5, 1)};
    check_layer_norm(one, 1, "(%x, [1], None, None, 1e-05)" K0, 1, 1e-5);
    tin xd[3] = {T3(AIRC_DTYPE_F64, 2, 3, 10), {"w", AIRC_DTYPE_F64, 1, {10}, {0}},
                 {"b", AIRC_DTYPE_F64, 1, {10}, {0}}};
    check_layer_norm(xd, 3, "(%x, [10], %w, %b, 1e-05)" K0, 1, 1e-5);
    /* empty rows: torch gives mean 0, rstd NaN */
    tin e[1] = {T2(AIRC_DTYPE_F32, 2, 0)};
    check_layer_norm(e, 1, "(%x, [0], None, None, 1e-05)" K0, 1, 1e-5);
    tin e2[1] = {T2(AIRC_DTYPE_F32, 0, 4)};
    check_layer_norm(e2, 1, "(%x, [4], None, None, 1e-05)" K0, 1, 1e-5);
}

static void test_layer_norm(void **state)
{
    (void)state;
    run_layer_norm_cases();
}

/* ---- every SIMD table ------------------------------------------------------------------------- */

static void test_isas(void **state)
{
    (void)state;
    const airc_kred_simd *tabs[3] = {&airc_kred_simd_sse2, NULL, NULL};
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        tabs[1] = &airc_kred_simd_avx2;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"))
        tabs[2] = &airc_kred_simd_avx512;
#endif
    for (int i = 0; i < 3; i++) {
        if (!tabs[i])
            continue;
        print_message("isa %s\n", tabs[i]->isa);
        airc_kred_simd_force(tabs[i]);
        run_softmax_cases();
        run_layer_norm_cases();
        tin big = T2(AIRC_DTYPE_F32, 37, 1031);
        int d0[] = {0}, d1[] = {1};
        for (int inject = 0; inject < 2; inject++) {
            check_reduce("aten.sum.dim_IntList", "(%x, [1])" K0, &big, d1, 1, R_SUM, 0, inject);
            check_reduce("aten.sum.dim_IntList", "(%x, [0])" K0, &big, d0, 1, R_SUM, 0, inject);
            check_reduce("aten.amax.default", "(%x, [1])" K0, &big, d1, 1, R_MAX, 0, inject);
            check_reduce("aten.amin.default", "(%x, [0])" K0, &big, d0, 1, R_MIN, 0, inject);
            check_reduce("aten.var.dim", "(%x, [1])" K0, &big, d1, 1, R_VAR, 1, inject);
            check_reduce("aten.var.dim", "(%x, [0])" K0, &big, d0, 1, R_VAR, 1, inject);
        }
        /* direct: tails of every length against double sums */
        float v[100];
        for (int j = 0; j < 100; j++)
            v[j] = (float)uniform(-1, 1);
        for (int n = 1; n < 100; n++) {
            double s = 0, m = -INFINITY;
            for (int j = 0; j < n; j++) {
                s += v[j];
                m = fmax(m, v[j]);
            }
            assert_true(fabs(tabs[i]->sum(v, n) - s) < 1e-9);
            assert_true(tabs[i]->max(v, n) == (float)m);
        }
    }
    airc_kred_simd_force(NULL);
}

/* ---- the table ---------------------------------------------------------------------------------- */

static void test_table(void **state)
{
    (void)state;
    static const char *const mine[] = {"aten._aminmax.default",
                                       "aten._aminmax.dim",
                                       "aten._histogramdd_bin_edges.default",
                                       "aten._histogramdd_from_bin_cts.default",
                                       "aten._histogramdd_from_bin_tensors.default",
                                       "aten._log_softmax.default",
                                       "aten._masked_softmax.default",
                                       "aten._softmax.default",
                                       "aten._weight_norm_interface.default",
                                       "aten.all.default",
                                       "aten.all.dim",
                                       "aten.amax.default",
                                       "aten.amin.default",
                                       "aten.aminmax.default",
                                       "aten.any.default",
                                       "aten.any.dim",
                                       "aten.argmax.default",
                                       "aten.argmin.default",
                                       "aten.argsort.stable",
                                       "aten.batch_norm_update_stats.default",
                                       "aten.count_nonzero.default",
                                       "aten.count_nonzero.dim_IntList",
                                       "aten.cummax.default",
                                       "aten.cummin.default",
                                       "aten.cumprod.default",
                                       "aten.cumsum.default",
                                       "aten.dist.default",
                                       "aten.histc.default",
                                       "aten.histogram.bin_ct",
                                       "aten.histogram.bins_tensor",
                                       "aten.kthvalue.default",
                                       "aten.linalg_vector_norm.default",
                                       "aten.log_softmax.int",
                                       "aten.logcumsumexp.default",
                                       "aten.logsumexp.default",
                                       "aten.max.default",
                                       "aten.max.dim",
                                       "aten.mean.default",
                                       "aten.mean.dim",
                                       "aten.median.default",
                                       "aten.median.dim",
                                       "aten.min.default",
                                       "aten.min.dim",
                                       "aten.mode.default",
                                       "aten.nanmedian.default",
                                       "aten.nanmedian.dim",
                                       "aten.nansum.default",
                                       "aten.native_batch_norm.default",
                                       "aten.native_group_norm.default",
                                       "aten.native_layer_norm.default",
                                       "aten.norm.Scalar",
                                       "aten.norm.ScalarOpt_dim",
                                       "aten.norm.ScalarOpt_dim_dtype",
                                       "aten.norm.ScalarOpt_dtype",
                                       "aten.prod.default",
                                       "aten.prod.dim_int",
                                       "aten.renorm.default",
                                       "aten.segment_reduce.default",
                                       "aten.softmax.int",
                                       "aten.sort.default",
                                       "aten.sort.stable",
                                       "aten.std.correction",
                                       "aten.std_mean.correction",
                                       "aten.sum.default",
                                       "aten.sum.dim_IntList",
                                       "aten.topk.default",
                                       "aten.var.correction",
                                       "aten.var.default",
                                       "aten.var.dim",
                                       "aten.var_mean.correction"};
    size_t n = sizeof mine / sizeof mine[0];
    assert_int_equal(airc_cpu_num_kernels_reduce, n);
    for (size_t i = 0; i < airc_cpu_num_kernels_reduce; i++) {
        if (i)
            assert_true(strcmp(airc_cpu_kernels_reduce[i - 1].qualname,
                               airc_cpu_kernels_reduce[i].qualname) < 0);
        assert_non_null(airc_cpu_kernels_reduce[i].fn);
        const airc_op *op;
        AIRC_ASSERT_OK(airc_context_find_op(g_ctx, airc_cpu_kernels_reduce[i].qualname, &op));
    }
    for (size_t i = 0; i < n; i++)
        if (!airc_cpu_find_kernel(mine[i]))
            fail_msg("no CPU kernel for %s", mine[i]);
}

static int setup(void **state)
{
    (void)state;
    return airc_context_create(NULL, &g_ctx) == AIRC_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    airc_context_destroy(g_ctx);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),          cmocka_unit_test(test_sum),
        cmocka_unit_test(test_sum_dtypes_out), cmocka_unit_test(test_mean_prod),
        cmocka_unit_test(test_amax_amin),      cmocka_unit_test(test_max_min_dim),
        cmocka_unit_test(test_mode),           cmocka_unit_test(test_var),
        cmocka_unit_test(test_any_all),        cmocka_unit_test(test_cumsum),
        cmocka_unit_test(test_softmax),        cmocka_unit_test(test_layer_norm),
        cmocka_unit_test(test_isas),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
