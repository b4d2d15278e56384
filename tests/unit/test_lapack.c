/* The linear algebra's failures, as make_fx records them: linalg_inv_ex /
 * linalg_cholesky_ex then _linalg_check_errors, which raises torch's
 * message for the first nonzero info (of a matrix, or naming its batch
 * element), passes all zeros, and survives dead-code elimination; the
 * legacy cholesky and eigh raise on their own; _assert_async raises on
 * a zero. Messages are PyTorch 1.13's. Max-autotune lowers the check to nothing (its device ops
 * report no status), and runs. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define INV_GRAPH(is_matrix)                                                                       \
    "graph():\n"                                                                                   \
    "    %a : [#users=1] = placeholder[target=a]\n"                                                \
    "    %inv : [#users=2] = call_function[target=torch.ops.aten.linalg_inv_ex.default]"           \
    "(args = (%a,), kwargs = {})\n"                                                                \
    "    %r : [#users=1] = call_function[target=operator.getitem](args = (%inv, 0), kwargs = "     \
    "{})\n"                                                                                        \
    "    %info : [#users=1] = call_function[target=operator.getitem](args = (%inv, 1), kwargs = "  \
    "{})\n"                                                                                        \
    "    %chk : [#users=0] = call_function[target=torch.ops.aten._linalg_check_errors.default]"    \
    "(args = (%info, linalg.inv), kwargs = {is_matrix: " is_matrix "})\n"                          \
    "    return r\n"

/* Compiles text in mode and runs it on x; returns the run's status and
 * leaves the result's first element in *first (when it ran). */
static airc_status run(const char *text, const char *mode, airc_tensor *x, float *first)
{
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_tensor *out[2] = {NULL, NULL};
    size_t n = 0;
    airc_status st = airc_test_compile_run(ctx, text, mode, &x, 1, out, 2, &n);
    if (st == AIRC_OK && first && n)
        *first = *(const float *)airc_tensor_data(out[0]);
    for (size_t i = 0; i < n; i++)
        airc_tensor_destroy(out[i]);
    airc_context_destroy(ctx);
    return st;
}

static airc_tensor *matrices(airc_context **ctx, int32_t nd, const int64_t *shape, const float *v,
                             size_t n)
{
    AIRC_ASSERT_OK(airc_context_create(NULL, ctx));
    airc_tensor *t;
    AIRC_ASSERT_OK(airc_tensor_create(*ctx, AIRC_DTYPE_F32, nd, shape, &t));
    memcpy(airc_tensor_data(t), v, n * sizeof *v);
    return t;
}

static void test_inverse_of_singular(void **state)
{
    (void)state;
    const char *text = INV_GRAPH("True");
    airc_context *ctx;
    const int64_t s[2] = {2, 2};
    const float sing[4] = {1, 2, 2, 4}, ok[4] = {2, 0, 0, 4};
    airc_tensor *x = matrices(&ctx, 2, s, sing, 4);
    static const char *const modes[] = {"eager", "reduce-overhead"};
    for (size_t m = 0; m < 2; m++)
        airc_test_expect(run(text, modes[m], x, NULL), AIRC_E_RUNTIME,
                         "linalg.inv: The diagonal element 2 is zero, the inversion could not be "
                         "completed because the input matrix is singular.");
    /* max-autotune: no status from the device, the check lowers to nothing */
    AIRC_ASSERT_OK(run(text, "max-autotune", x, NULL));
    memcpy(airc_tensor_data(x), ok, sizeof ok);
    float first = 0;
    for (size_t m = 0; m < 2; m++) {
        AIRC_ASSERT_OK(run(text, modes[m], x, &first));
        assert_float_equal(first, 0.5f, 1e-6);
    }
    airc_tensor_destroy(x);
    airc_context_destroy(ctx);
}

static void test_batch_element_named(void **state)
{
    (void)state;
    const char *text = INV_GRAPH("False");
    airc_context *ctx;
    const int64_t s[3] = {3, 2, 2};
    const float v[12] = {1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1}; /* the third singular */
    airc_tensor *x = matrices(&ctx, 3, s, v, 12);
    airc_test_expect(run(text, "eager", x, NULL), AIRC_E_RUNTIME,
                     "linalg.inv: (Batch element 2): The diagonal element 2 is zero");
    /* is_matrix with a batch: torch reads one info */
    text = INV_GRAPH("True");
    airc_test_expect(run(text, "eager", x, NULL), AIRC_E_RUNTIME,
                     "a Tensor with 3 elements cannot be converted to Scalar");
    /* all zeros pass whatever their count */
    const float fine[12] = {1, 0, 0, 1, 1, 1, 0, 1, 2, 1, 1, 1};
    memcpy(airc_tensor_data(x), fine, sizeof fine);
    AIRC_ASSERT_OK(run(text, "eager", x, NULL));
    airc_tensor_destroy(x);
    airc_context_destroy(ctx);
}

static void test_check_survives_dce(void **state)
{
    (void)state;
    const char *text = INV_GRAPH("True");
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g = airc_test_parse(ctx, text);
    int32_t changed = -1;
    AIRC_ASSERT_OK(airc_graph_eliminate_dead_code(g, &changed));
    assert_int_equal(changed, 0);
    char *printed = airc_test_print(g, 0);
    assert_non_null(strstr(printed, "_linalg_check_errors"));
    free(printed);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

static void test_factorizations_that_raise(void **state)
{
    (void)state;
    static const char *const chol =
        "graph():\n"
        "    %a : [#users=1] = placeholder[target=a]\n"
        "    %l : [#users=1] = call_function[target=torch.ops.aten.cholesky.default]"
        "(args = (%a,), kwargs = {})\n"
        "    return l\n";
    static const char *const chol_ex =
        "graph():\n"
        "    %a : [#users=1] = placeholder[target=a]\n"
        "    %l : [#users=1] = call_function[target=torch.ops.aten.linalg_cholesky_ex.default]"
        "(args = (%a,), kwargs = {check_errors: True})\n"
        "    %r : [#users=1] = call_function[target=operator.getitem](args = (%l, 0), kwargs = "
        "{})\n"
        "    return r\n";
    static const char *const eigh =
        "graph():\n"
        "    %a : [#users=1] = placeholder[target=a]\n"
        "    %e : [#users=1] = call_function[target=torch.ops.aten._linalg_eigh.default]"
        "(args = (%a,), kwargs = {})\n"
        "    %r : [#users=1] = call_function[target=operator.getitem](args = (%e, 0), kwargs = "
        "{})\n"
        "    return r\n";
    airc_context *ctx;
    const int64_t s[2] = {2, 2};
    const float indefinite[4] = {1, 2, 2, 1};
    airc_tensor *x = matrices(&ctx, 2, s, indefinite, 4);
    const char *pd = "the input is not positive-definite (the leading minor of order 2 is not "
                     "positive-definite).";
    airc_test_expect(run(chol, "eager", x, NULL), AIRC_E_RUNTIME, pd);
    airc_test_expect(run(chol_ex, "reduce-overhead", x, NULL), AIRC_E_RUNTIME,
                     "linalg.cholesky_ex: The factorization could not be completed");
    airc_tensor_destroy(x);
    airc_context_destroy(ctx);
    /* a 3 x 3 of NaN: syevd gives up (torch 1.13: error code 2) */
    const int64_t s3[2] = {3, 3};
    const float nan[9] = {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
    x = matrices(&ctx, 2, s3, nan, 9);
    airc_test_expect(run(eigh, "eager", x, NULL), AIRC_E_RUNTIME,
                     "linalg.eigh: The algorithm failed to converge");
    airc_tensor_destroy(x);
    airc_context_destroy(ctx);
}

/* _assert_async(x), as make_fx records torch._assert_async: a zero (or
 * false) raises torch's message at run time, NaN and other values pass;
 * max-autotune lowers it to nothing, as _linalg_check_errors */
static void test_assert_async(void **state)
{
    (void)state;
    const char *text = "graph():\n"
                       "    %a : [#users=1] = placeholder[target=a]\n"
                       "    %chk : [#users=0] = call_function[target=torch.ops.aten._assert_async."
                       "default](args = (%a,), kwargs = {})\n"
                       "    %r : [#users=1] = call_function[target=torch.ops.aten.add.Tensor]"
                       "(args = (%a, %a), kwargs = {})\n"
                       "    return r\n";
    airc_context *ctx;
    const int64_t s[1] = {1};
    const float zero[1] = {0}, nan[1] = {NAN}, two[1] = {2};
    airc_tensor *x = matrices(&ctx, 1, s, zero, 1);
    static const char *const modes[] = {"eager", "reduce-overhead"};
    for (size_t m = 0; m < 2; m++)
        airc_test_expect(run(text, modes[m], x, NULL), AIRC_E_RUNTIME,
                         "Expected Tensor with single nonzero value, but got zero");
    AIRC_ASSERT_OK(run(text, "max-autotune", x, NULL));
    float first = 0;
    memcpy(airc_tensor_data(x), nan, sizeof nan);
    AIRC_ASSERT_OK(run(text, "eager", x, &first));
    assert_true(isnan(first));
    memcpy(airc_tensor_data(x), two, sizeof two);
    AIRC_ASSERT_OK(run(text, "reduce-overhead", x, &first));
    assert_float_equal(first, 4.0f, 0);
    airc_tensor_destroy(x);
    airc_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inverse_of_singular),
        cmocka_unit_test(test_batch_element_named),
        cmocka_unit_test(test_check_survives_dce),
        cmocka_unit_test(test_assert_async),
        cmocka_unit_test(test_factorizations_that_raise),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
