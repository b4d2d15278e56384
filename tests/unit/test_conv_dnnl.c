/* f32 GEMMs through oneDNN's sgemm (k_gemm_dnnl.c) against a double
 * reference: both transposes of each operand, tall and wide C (split by
 * rows or by columns), 1 and 3 threads, beta 0 over a C of NaNs (not read,
 * as BLAS) and beta 1.
 *
 * f32 convolutions through oneDNN (backends/cpu/k_conv_dnnl.c) against
 * airc's own f64 path on the same values: 1-, 2- and 3-d, batches split
 * over threads, groups and depthwise, strides, dilations, uneven padding,
 * no bias, and a channels-last input. Without oneDNN in the build the same
 * cases check airc's f32 path instead. */
#include "testutil.h"

#include "airc/runtime.h"
#include "backends/cpu/k_conv_dnnl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct conv_case {
    const char *name;
    int32_t sp;
    int64_t n, c, o, groups;
    int64_t size[3], kernel[3], stride[3], pad[3], dil[3];
    bool bias, channels_last;
} conv_case;

static const conv_case CASES[] = {
    {"2-d", 2, 1, 16, 32, 1, {9, 11}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, true, false},
    {"2-d batch, groups, stride, dilation",
     2,
     5,
     8,
     12,
     4,
     {13, 10},
     {3, 2},
     {2, 1},
     {1, 2},
     {2, 1},
     false,
     false},
    {"1-d", 1, 3, 6, 4, 1, {23}, {5}, {3}, {2}, {1}, true, false},
    {"3-d", 3, 2, 3, 5, 1, {4, 7, 6}, {2, 3, 3}, {1, 2, 1}, {1, 0, 1}, {1, 1, 2}, true, false},
    {"depthwise", 2, 3, 8, 16, 8, {12, 12}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, true, false},
    {"channels-last input", 2, 2, 5, 7, 1, {8, 9}, {3, 3}, {2, 2}, {1, 0}, {1, 1}, true, true},
};

static int list(char *buf, size_t cap, const int64_t *v, int32_t n)
{
    int len = snprintf(buf, cap, "[");
    for (int32_t i = 0; i < n; i++)
        len += snprintf(buf + len, cap - (size_t)len, "%s%lld", i ? ", " : "", (long long)v[i]);
    return len + snprintf(buf + len, cap - (size_t)len, "]");
}

/* x (as the placeholder holds it: channels last when the case says so)
 * permuted to [N, C, spatial...], then the convolution. */
static const char *graph_text(const conv_case *c)
{
    static char text[2048];
    char st[64], pd[64], dl[64], op[64], perm[64];
    int64_t zeros[3] = {0, 0, 0}, p[5] = {0, 1, 2, 3, 4};
    if (c->channels_last) {
        p[1] = c->sp + 1;
        for (int32_t d = 0; d < c->sp; d++)
            p[2 + d] = 1 + d;
    }
    list(st, sizeof st, c->stride, c->sp);
    list(pd, sizeof pd, c->pad, c->sp);
    list(dl, sizeof dl, c->dil, c->sp);
    list(op, sizeof op, zeros, c->sp);
    list(perm, sizeof perm, p, c->sp + 2);
    snprintf(text, sizeof text,
             "graph():\n"
             "    %%x : [#users=1] = placeholder[target=x]\n"
             "    %%w : [#users=1] = placeholder[target=w]\n"
             "    %%b : [#users=%d] = placeholder[target=b]\n"
             "    %%xp : [#users=1] = call_function[target=torch.ops.aten.permute.default]"
             "(args = (%%x, %s), kwargs = {})\n"
             "    %%y : [#users=1] = call_function[target=torch.ops.aten.convolution.default]"
             "(args = (%%xp, %%w, %s, %s, %s, %s, False, %s, %lld), kwargs = {})\n"
             "    return y\n",
             c->bias ? 1 : 0, perm, c->bias ? "%b" : "None", st, pd, dl, op, (long long)c->groups);
    return text;
}

static uint32_t g_seed = 7;

static double draw(void)
{
    g_seed = g_seed * 1664525u + 1013904223u;
    return (double)(g_seed >> 8) / (double)(1u << 24) * 2.0 - 1.0;
}

/* A tensor of shape, values from vals (f32 or f64). */
static airc_tensor *tensor(airc_context *ctx, airc_dtype dt, int32_t nd, const int64_t *shape,
                           const double *vals)
{
    airc_tensor *t;
    AIRC_ASSERT_OK(airc_tensor_create(ctx, dt, nd, shape, &t));
    size_t n = airc_tensor_numel(t);
    for (size_t i = 0; i < n; i++) {
        if (dt == AIRC_DTYPE_F32)
            ((float *)airc_tensor_data(t))[i] = (float)vals[i];
        else
            ((double *)airc_tensor_data(t))[i] = vals[i];
    }
    return t;
}

/* The case's result in dtype dt on a runtime of `threads` threads, as
 * doubles into out (returns the element count). */
static size_t run_case(airc_context *ctx, const conv_case *c, airc_dtype dt, int32_t threads,
                       const double *xv, const double *wv, const double *bv, double **out)
{
    int64_t xs[5], ws[5], bs[1] = {c->o};
    int32_t nd = c->sp + 2;
    xs[0] = c->n;
    for (int32_t d = 0; d < c->sp; d++)
        xs[(c->channels_last ? 1 : 2) + d] = c->size[d];
    xs[c->channels_last ? nd - 1 : 1] = c->c;
    ws[0] = c->o;
    ws[1] = c->c / c->groups;
    for (int32_t d = 0; d < c->sp; d++)
        ws[2 + d] = c->kernel[d];
    airc_tensor *in[3] = {tensor(ctx, dt, nd, xs, xv), tensor(ctx, dt, nd, ws, wv),
                          tensor(ctx, dt, 1, bs, bv)};
    airc_graph *g = airc_test_parse(ctx, graph_text(c));
    airc_cpu_runtime_options o;
    airc_cpu_runtime_options_init(&o);
    o.num_threads = threads;
    airc_runtime *rt;
    AIRC_ASSERT_OK(airc_cpu_runtime_create(ctx, &o, &rt));
    airc_tensor *res = NULL;
    size_t nres = 0;
    AIRC_ASSERT_OK(airc_run_eager(g, rt, in, 3, &res, 1, &nres, NULL));
    size_t n = airc_tensor_numel(res);
    *out = malloc(n * sizeof **out);
    assert_non_null(*out);
    for (size_t i = 0; i < n; i++)
        (*out)[i] = dt == AIRC_DTYPE_F32 ? ((float *)airc_tensor_data(res))[i]
                                         : ((double *)airc_tensor_data(res))[i];
    airc_tensor_destroy(res);
    airc_runtime_destroy(rt);
    airc_graph_destroy(g);
    for (int i = 0; i < 3; i++)
        airc_tensor_destroy(in[i]);
    return n;
}

static void test_against_f64(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    for (size_t ci = 0; ci < sizeof CASES / sizeof CASES[0]; ci++) {
        const conv_case *c = &CASES[ci];
        size_t nx = (size_t)(c->n * c->c), nw = (size_t)(c->o * (c->c / c->groups));
        for (int32_t d = 0; d < c->sp; d++) {
            nx *= (size_t)c->size[d];
            nw *= (size_t)c->kernel[d];
        }
        double *xv = malloc(nx * sizeof *xv), *wv = malloc(nw * sizeof *wv),
               *bv = malloc((size_t)c->o * sizeof *bv);
        assert_true(xv && wv && bv);
        /* values exact in f32, so both runs see the same numbers */
        for (size_t i = 0; i < nx; i++)
            xv[i] = (float)draw();
        for (size_t i = 0; i < nw; i++)
            wv[i] = (float)draw();
        for (int64_t i = 0; i < c->o; i++)
            bv[i] = (float)draw();
        double *ref, *got;
        size_t n = run_case(ctx, c, AIRC_DTYPE_F64, 1, xv, wv, bv, &ref);
        for (int32_t threads = 1; threads <= 4; threads *= 4) {
            assert_int_equal(run_case(ctx, c, AIRC_DTYPE_F32, threads, xv, wv, bv, &got), n);
            for (size_t i = 0; i < n; i++)
                if (fabs(got[i] - ref[i]) > 1e-4 * (1 + fabs(ref[i])))
                    fail_msg("%s, %d threads: element %zu is %.9g, want %.9g", c->name,
                             (int)threads, i, got[i], ref[i]);
            free(got);
        }
        free(ref);
        free(xv);
        free(wv);
        free(bv);
    }
    airc_context_destroy(ctx);
}

/* With oneDNN in the build, the f32 kernel goes through it (the cases
 * above then test it, not airc's own path). */
static void test_dnnl_taken(void **state)
{
    (void)state;
    if (!airc_cpu_have_dnnl())
        return;
    float x[1 * 2 * 5] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
                    w[3 * 2 * 2] = {1, 0, 0, 1, 1, 1, 1, 1, -1, 0, 0, 2}, o[1 * 3 * 4];
    airc_tview xv = {.data = x, .dtype = AIRC_DTYPE_F32, .ndim = 5},
               wv = {.data = w, .dtype = AIRC_DTYPE_F32, .ndim = 5},
               ov = {.data = o, .dtype = AIRC_DTYPE_F32, .ndim = 5};
    int64_t xs[5] = {1, 2, 1, 1, 5}, wsh[5] = {3, 2, 1, 1, 2}, os[5] = {1, 3, 1, 1, 4};
    memcpy(xv.shape, xs, sizeof xs);
    memcpy(wv.shape, wsh, sizeof wsh);
    memcpy(ov.shape, os, sizeof os);
    int64_t xst[5] = {10, 5, 5, 5, 1}, wst[5] = {4, 2, 2, 2, 1}, ost[5] = {12, 4, 4, 4, 1};
    memcpy(xv.strides, xst, sizeof xst);
    memcpy(wv.strides, wst, sizeof wst);
    memcpy(ov.strides, ost, sizeof ost);
    int64_t one[3] = {1, 1, 1}, zero[3] = {0, 0, 0};
    airc_kernel_ctx k;
    memset(&k, 0, sizeof k);
    k.num_threads = 1;
    AIRC_ASSERT_OK(airc_context_create(NULL, &k.ctx));
    assert_true(airc_cpu_conv_dnnl(&k, 1, &xv, &wv, NULL, &ov, one, zero, one, 1));
    airc_context_destroy(k.ctx);
    /* o[c][t] = sum over channels i and taps j of w[c][i][j] x[i][t + j] */
    for (int c = 0; c < 3; c++)
        for (int t = 0; t < 4; t++) {
            float want = 0;
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++)
                    want += w[c * 4 + i * 2 + j] * x[i * 5 + t + j];
            assert_true(o[c * 4 + t] == want);
        }
}

static void test_sgemm(void **state)
{
    (void)state;
    if (!airc_cpu_have_dnnl())
        return;
    /* the first two big enough to be split (by rows, by columns) on 3 threads */
    static const int64_t dims[][3] = {{600, 300, 64}, {40, 3000, 64}, {1, 7, 5}, {64, 64, 1}};
    for (size_t di = 0; di < sizeof dims / sizeof dims[0]; di++) {
        int64_t m = dims[di][0], n = dims[di][1], kk = dims[di][2];
        float *a = malloc(sizeof(float) * (size_t)(m * kk)),
              *b = malloc(sizeof(float) * (size_t)(kk * n)),
              *c = malloc(sizeof(float) * (size_t)(m * n));
        assert_true(a && b && c);
        for (int64_t i = 0; i < m * kk; i++)
            a[i] = (float)draw();
        for (int64_t i = 0; i < kk * n; i++)
            b[i] = (float)draw();
        for (int mode = 0; mode < 16; mode++) {
            bool at = mode & 1, bt = mode & 2, acc = mode & 4;
            int32_t threads = mode & 8 ? 3 : 1;
            for (int64_t i = 0; i < m * n; i++)
                c[i] = acc ? 1.0f : NAN;
            /* op(A) [m, k] read from a as stored: [m, k] or [k, m] */
            assert_true(airc_cpu_sgemm_dnnl(threads, at, bt, m, n, kk, 0.5f, a, at ? m : kk, b,
                                            bt ? kk : n, acc ? 1.0f : 0.0f, c, n));
            for (int64_t i = 0; i < m; i++)
                for (int64_t j = 0; j < n; j++) {
                    double want = acc ? 1.0 : 0.0;
                    for (int64_t p = 0; p < kk; p++)
                        want += 0.5 * (double)(at ? a[p * m + i] : a[i * kk + p]) *
                                (double)(bt ? b[j * kk + p] : b[p * n + j]);
                    if (!(fabs(c[i * n + j] - want) <= 1e-5 * (1 + fabs(want))))
                        fail_msg("%lldx%lldx%lld mode %d: C[%lld][%lld] = %g, want %g",
                                 (long long)m, (long long)n, (long long)kk, mode, (long long)i,
                                 (long long)j, c[i * n + j], want);
                }
        }
        free(a);
        free(b);
        free(c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sgemm),
        cmocka_unit_test(test_against_f64),
        cmocka_unit_test(test_dnnl_taken),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
