/* linalg_matrix_exp on matrices whose exponential is known in closed
 * form, in eager, reduce-overhead and max-autotune (the GE composite run
 * by the reference executor): a zero matrix gives I exactly, a diagonal
 * one the exp of its diagonal, a nilpotent one its finite series, a
 * rotation generator cos / sin (from a tiny angle to one of many
 * squarings), 1x1 the exp of the element; a batch mixes all of them, so
 * that each matrix's own degree and squarings are used. A NaN gives NaN
 * (torch 1.13: uninitialized memory), as does a norm past torch's int64
 * scaling (2^64 and more). f16: torch 1.13 has no f16 matmul, and
 * computes only zero matrices; max-autotune refuses f16. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const graph = "graph():\n"
                                 "    %a : [#users=1] = placeholder[target=a]\n"
                                 "    %e : [#users=1] = "
                                 "call_function[target=torch.ops.aten.linalg_matrix_exp.default]"
                                 "(args = (%a,), kwargs = {})\n"
                                 "    return e\n";

static const char *const modes[] = {"eager", "reduce-overhead", "max-autotune"};

/* Compiles the graph in mode and runs it on x; *out receives the result
 * (NULL on failure). */
static airc_status run(airc_context *ctx, const char *mode, airc_tensor *x, airc_tensor **out)
{
    size_t n;
    *out = NULL;
    return airc_test_compile_run(ctx, graph, mode, &x, 1, out, 1, &n);
}

static airc_tensor *tensor(airc_context *ctx, airc_dtype dt, int32_t nd, const int64_t *shape,
                           const double *v)
{
    airc_tensor *t;
    AIRC_ASSERT_OK(airc_tensor_create(ctx, dt, nd, shape, &t));
    size_t n = airc_tensor_numel(t);
    for (size_t i = 0; i < n; i++) {
        if (dt == AIRC_DTYPE_F64)
            ((double *)airc_tensor_data(t))[i] = v[i];
        else if (dt == AIRC_DTYPE_F32)
            ((float *)airc_tensor_data(t))[i] = (float)v[i];
        else /* f16: the zeros of these tests only */
            ((uint16_t *)airc_tensor_data(t))[i] = 0;
    }
    return t;
}

static double at(const airc_tensor *t, size_t i)
{
    if (airc_tensor_dtype(t) == AIRC_DTYPE_F64)
        return ((const double *)airc_tensor_data(t))[i];
    if (airc_tensor_dtype(t) == AIRC_DTYPE_F32)
        return ((const float *)airc_tensor_data(t))[i];
    uint16_t h = ((const uint16_t *)airc_tensor_data(t))[i]; /* 0 or 1.0 */
    return h == 0x3c00 ? 1.0 : h == 0 ? 0.0 : NAN;
}

/* Runs every mode on x and checks the result against want[] (relative to
 * its largest entry; NaN where want is NaN). */
static void expect(airc_context *ctx, airc_tensor *x, const double *want, double tol)
{
    size_t n = airc_tensor_numel(x);
    double big = 1;
    for (size_t i = 0; i < n; i++)
        if (isfinite(want[i]) && fabs(want[i]) > big)
            big = fabs(want[i]);
    for (size_t m = 0; m < 3; m++) {
        airc_tensor *r;
        airc_status st = run(ctx, modes[m], x, &r);
        if (st != AIRC_OK)
            fail_msg("%s: %s", modes[m], airc_last_error());
        assert_int_equal(airc_tensor_numel(r), n);
        for (size_t i = 0; i < n; i++) {
            double got = at(r, i);
            if (isnan(want[i]) ? !isnan(got) : !(fabs(got - want[i]) <= tol * big))
                fail_msg("%s: element %zu is %.17g, want %.17g", modes[m], i, got, want[i]);
        }
        airc_tensor_destroy(r);
    }
}

static void test_zero_is_identity(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    const int64_t s[3] = {2, 4, 4};
    double z[32] = {0}, want[32] = {0};
    for (int b = 0; b < 2; b++)
        for (int i = 0; i < 4; i++)
            want[b * 16 + i * 5] = 1;
    for (int dt = 0; dt < 2; dt++) {
        airc_tensor *x = tensor(ctx, dt ? AIRC_DTYPE_F64 : AIRC_DTYPE_F32, 3, s, z);
        expect(ctx, x, want, 0); /* exactly */
        airc_tensor_destroy(x);
    }
    airc_context_destroy(ctx);
}

/* A batch: diagonal matrices of norms from 1e-20 to 30 (the degrees' and
 * the squarings' ranges), a nilpotent matrix and rotation generators */
static void test_closed_forms(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    enum { B = 9 };
    const int64_t s[3] = {B, 3, 3};
    double x[B * 9] = {0}, want[B * 9] = {0};
    const double diag[5][3] = {{1e-20, -3e-20, 0},
                               {1e-9, -2e-9, 5e-10},
                               {1e-3, 0.02, -0.01},
                               {0.4, -0.9, 0.25},
                               {-30, 3.5, 12}};
    for (int b = 0; b < 5; b++)
        for (int i = 0; i < 3; i++) {
            x[b * 9 + i * 4] = diag[b][i];
            want[b * 9 + i * 4] = exp(diag[b][i]);
        }
    /* nilpotent N (strictly upper): I + N + N^2 / 2 */
    double *n = x + 5 * 9, *e = want + 5 * 9;
    n[1] = 2;
    n[2] = -5;
    n[5] = 7;
    e[0] = e[4] = e[8] = 1;
    e[1] = 2;
    e[5] = 7;
    e[2] = -5 + 2 * 7 / 2.0;
    /* rotations about z by angles from 1e-7 to 40 (40: 6 squarings) */
    const double angle[3] = {1e-7, 0.75, 40};
    for (int r = 0; r < 3; r++) {
        double *g = x + (6 + r) * 9, *w = want + (6 + r) * 9, t = angle[r];
        g[1] = -t;
        g[3] = t;
        w[0] = w[4] = cos(t);
        w[1] = -sin(t);
        w[3] = sin(t);
        w[8] = 1;
    }
    airc_tensor *t64 = tensor(ctx, AIRC_DTYPE_F64, 3, s, x);
    expect(ctx, t64, want, 1e-12);
    airc_tensor_destroy(t64);
    airc_tensor *t32 = tensor(ctx, AIRC_DTYPE_F32, 3, s, x);
    expect(ctx, t32, want, 2e-5);
    airc_tensor_destroy(t32);
    airc_context_destroy(ctx);
}

static void test_one_by_one(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    const int64_t s[3] = {4, 1, 1};
    const double x[4] = {0, -1.5, 2, 80};
    double want[4];
    for (int i = 0; i < 4; i++)
        want[i] = exp(x[i]);
    airc_tensor *t = tensor(ctx, AIRC_DTYPE_F64, 3, s, x);
    expect(ctx, t, want, 1e-15);
    airc_tensor_destroy(t);
    airc_context_destroy(ctx);
}

/* NaN in, NaN out (the whole matrix); the other matrices unharmed. A
 * norm of 2^64 theta or more: NaN, as torch's int64 2^s is 0 there. */
static void test_nan_and_huge(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    const int64_t s[3] = {3, 2, 2};
    const double x[12] = {1, NAN, 0, 1, 0.5, 0, 0, -0.25, 5e19, 0, 0, 5e19};
    double want[12];
    for (int i = 0; i < 12; i++)
        want[i] = i < 4 || i >= 8 ? NAN : 0;
    want[4] = exp(0.5);
    want[7] = exp(-0.25);
    airc_tensor *t = tensor(ctx, AIRC_DTYPE_F64, 3, s, x);
    expect(ctx, t, want, 1e-15);
    airc_tensor_destroy(t);
    airc_context_destroy(ctx);
}

/* f16: torch's CPU build computes zero matrices (I) and fails on the
 * rest, naming the kernel it lacks; max-autotune refuses f16 matrices. */
static void test_half(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    const int64_t s[2] = {2, 2};
    const double z[4] = {0};
    airc_tensor *t = tensor(ctx, AIRC_DTYPE_F16, 2, s, z), *r;
    for (size_t m = 0; m < 2; m++) {
        AIRC_ASSERT_OK(run(ctx, modes[m], t, &r));
        assert_true(at(r, 0) == 1 && at(r, 1) == 0 && at(r, 2) == 0 && at(r, 3) == 1);
        airc_tensor_destroy(r);
    }
    airc_test_expect(run(ctx, "max-autotune", t, &r), AIRC_E_UNSUPPORTED,
                     "matrix_exp of float16 matrices has no Ascend IR lowering");
    ((uint16_t *)airc_tensor_data(t))[1] = 0x3400; /* 0.25: degree 12, a matmul */
    airc_test_expect(run(ctx, "eager", t, &r), AIRC_E_RUNTIME,
                     "\"bmm\" not implemented for 'Half'");
    ((uint16_t *)airc_tensor_data(t))[1] = 0x4500; /* 5.0: scaled, log2 first */
    airc_test_expect(run(ctx, "eager", t, &r), AIRC_E_RUNTIME,
                     "\"log2_vml_cpu\" not implemented for 'Half'");
    airc_tensor_destroy(t);
    airc_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_is_identity),
        cmocka_unit_test(test_closed_forms),
        cmocka_unit_test(test_one_by_one),
        cmocka_unit_test(test_nan_and_huge),
        cmocka_unit_test(test_half),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
