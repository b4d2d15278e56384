/* The ops that take a factorization's pivots (lu_unpack, linalg_lu_solve,
 * linalg_ldl_solve) check them before LAPACK reads rows by them: torch's
 * messages where torch checks, airc's where torch 1.13 reads past the
 * matrix or crashes (ldl_solve's out-of-range pivots and its batch
 * broadcasting). Also lstsq's refusal of gelsd residuals of a
 * rank-deficient matrix (a result shape that depends on the values),
 * symeig's convergence failure, and max-autotune's refusal of LDL^T. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#define CALL(op, args) "call_function[target=torch.ops.aten." op "](args = " args ", kwargs = {})\n"
#define ITEM(name, of, i)                                                                          \
    "    %" name " : [#users=1] = call_function[target=operator.getitem](args = (%" of ", " i      \
    "), kwargs = {})\n"

typedef struct in {
    airc_dtype dt;
    int32_t nd;
    int64_t shape[3];
    const void *data;
} in;

/* Compiles text in mode, runs it on the inputs; the first result's items
 * (as floats, up to cap) into out. */
static airc_status run(const char *text, const char *mode, const in *ins, size_t nin, float *out,
                       size_t cap)
{
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_tensor *x[4] = {NULL}, *res[4] = {NULL};
    for (size_t i = 0; i < nin; i++) {
        AIRC_ASSERT_OK(airc_tensor_create(ctx, ins[i].dt, ins[i].nd, ins[i].shape, &x[i]));
        memcpy(airc_tensor_data(x[i]), ins[i].data, airc_tensor_nbytes(x[i]));
    }
    size_t n = 0;
    airc_status st = airc_test_compile_run(ctx, text, mode, x, nin, res, 4, &n);
    for (size_t i = 0; st == AIRC_OK && n && out && i < airc_tensor_numel(res[0]) && i < cap; i++) {
        const void *p = airc_tensor_data(res[0]);
        switch (airc_tensor_dtype(res[0])) {
        case AIRC_DTYPE_I64: out[i] = (float)((const int64_t *)p)[i]; break;
        case AIRC_DTYPE_F64: out[i] = (float)((const double *)p)[i]; break;
        default: out[i] = ((const float *)p)[i];
        }
    }
    for (size_t i = 0; i < 4; i++) {
        airc_tensor_destroy(res[i]);
        airc_tensor_destroy(x[i]);
    }
    airc_context_destroy(ctx);
    return st;
}

static const char *const exact_modes[] = {"eager", "reduce-overhead"};

static void test_lu_unpack_pivots(void **state)
{
    (void)state;
    static const char *const text =
        "graph():\n"
        "    %lu : [#users=1] = placeholder[target=lu]\n"
        "    %piv : [#users=1] = placeholder[target=piv]\n"
        "    %u : [#users=1] = " CALL("lu_unpack.default", "(%lu, %piv)")
            ITEM("p", "u", "0") "    return p\n";
    const float lu[4] = {2, 1, 0.5f, 3};
    int32_t piv[2] = {2, 2};
    in ins[2] = {{AIRC_DTYPE_F32, 2, {2, 2}, lu}, {AIRC_DTYPE_I32, 1, {2}, piv}};
    float p[4];
    for (size_t m = 0; m < 3; m++) { /* rows 0 and 1 swapped */
        AIRC_ASSERT_OK(run(text, m < 2 ? exact_modes[m] : "max-autotune", ins, 2, p, 4));
        assert_true(p[0] == 0 && p[1] == 1 && p[2] == 1 && p[3] == 0);
    }
    /* no rows: no pivots to check (torch's P, L and U are empty) */
    in empty[2] = {{AIRC_DTYPE_F32, 3, {2, 0, 1}, lu}, {AIRC_DTYPE_I32, 2, {2, 0}, piv}};
    for (size_t m = 0; m < 3; m++)
        AIRC_ASSERT_OK(run(text, m < 2 ? exact_modes[m] : "max-autotune", empty, 2, NULL, 0));
    const int32_t bad[2][2] = {{0, 2}, {1, 3}};
    for (size_t i = 0; i < 2; i++) {
        memcpy(piv, bad[i], sizeof piv);
        for (size_t m = 0; m < 2; m++)
            airc_test_expect(run(text, exact_modes[m], ins, 2, NULL, 0), AIRC_E_RUNTIME,
                             "pivots passed to lu_unpack must be between 1 and LU.size(-2)");
    }
}

static void test_lu_solve_pivots(void **state)
{
    (void)state;
    static const char *const text =
        "graph():\n"
        "    %lu : [#users=1] = placeholder[target=lu]\n"
        "    %piv : [#users=1] = placeholder[target=piv]\n"
        "    %b : [#users=1] = placeholder[target=b]\n"
        "    %x : [#users=1] = " CALL("linalg_lu_solve.default",
                                      "(%lu, %piv, %b)") "    return x\n";
    /* A = P L U with P swapping the rows: A = [[1, 2], [4, 2]] -> x = [1, 1] for b = [3, 6] */
    const float lu[4] = {4, 2, 0.25f, 1.5f}, b[2] = {3, 6};
    int32_t piv[2] = {2, 2};
    in ins[3] = {{AIRC_DTYPE_F32, 2, {2, 2}, lu},
                 {AIRC_DTYPE_I32, 1, {2}, piv},
                 {AIRC_DTYPE_F32, 2, {2, 1}, b}};
    float x[2];
    static const char *const modes[] = {"eager", "reduce-overhead", "max-autotune"};
    for (size_t m = 0; m < 3; m++) {
        AIRC_ASSERT_OK(run(text, modes[m], ins, 3, x, 2));
        assert_float_equal(x[0], 1, 1e-5);
        assert_float_equal(x[1], 1, 1e-5);
    }
    piv[1] = 0;
    airc_test_expect(run(text, "eager", ins, 3, NULL, 0), AIRC_E_RUNTIME,
                     "Pivots given to lu_solve must all be greater or equal to 1");
    piv[1] = 5;
    airc_test_expect(run(text, "reduce-overhead", ins, 3, NULL, 0), AIRC_E_RUNTIME,
                     "Pivots given to lu_solve must all be smaller or equal to LU.size(-2)");
}

#define LDL_SOLVE                                                                                  \
    "graph():\n"                                                                                   \
    "    %ld : [#users=1] = placeholder[target=ld]\n"                                              \
    "    %piv : [#users=1] = placeholder[target=piv]\n"                                            \
    "    %b : [#users=1] = placeholder[target=b]\n"                                                \
    "    %x : [#users=1] = " CALL("linalg_ldl_solve.default", "(%ld, %piv, %b)") "    return x\n"

static void test_ldl_solve_pivots(void **state)
{
    (void)state;
    /* [[0, 1], [1, 0]]: sytrf takes one 2 x 2 block, pivots (-2, -2) */
    const float ld[4] = {0, 1, 1, 0}, b[2] = {3, 5};
    int32_t piv[2] = {-2, -2};
    in ins[3] = {{AIRC_DTYPE_F32, 2, {2, 2}, ld},
                 {AIRC_DTYPE_I32, 1, {2}, piv},
                 {AIRC_DTYPE_F32, 2, {2, 1}, b}};
    float x[2];
    for (size_t m = 0; m < 2; m++) {
        AIRC_ASSERT_OK(run(LDL_SOLVE, exact_modes[m], ins, 3, x, 2));
        assert_float_equal(x[0], 5, 1e-5);
        assert_float_equal(x[1], 3, 1e-5);
    }
    /* a block's pivots unpaired, a row past the matrix, 0: refused */
    const int32_t bad[3][2] = {{1, -2}, {3, 1}, {0, 1}};
    for (size_t i = 0; i < 3; i++) {
        memcpy(piv, bad[i], sizeof piv);
        airc_test_expect(run(LDL_SOLVE, "eager", ins, 3, NULL, 0), AIRC_E_RUNTIME,
                         "the pivots are not those of linalg.ldl_factor");
    }
    /* max-autotune: no lowering */
    piv[0] = piv[1] = -2;
    airc_test_expect(run(LDL_SOLVE, "max-autotune", ins, 3, NULL, 0), AIRC_E_UNSUPPORTED,
                     "Bunch-Kaufman");
}

/* LD [1, 2, 2] solved against a batch of three right-hand sides (torch
 * 1.13 crashes on this broadcast) */
static void test_ldl_solve_broadcast(void **state)
{
    (void)state;
    const float ld[4] = {2, 0, 0.5f, 1.5f}; /* A = [[2, 1], [1, 2]], 1 x 1 pivots */
    const int32_t piv[2] = {1, 2};
    const float b[6] = {3, 3, 1, 2, 0, 3}; /* x = [1, 1], [0, 1], [-1, 2] */
    in ins[3] = {{AIRC_DTYPE_F32, 3, {1, 2, 2}, ld},
                 {AIRC_DTYPE_I32, 2, {1, 2}, piv},
                 {AIRC_DTYPE_F32, 3, {3, 2, 1}, b}};
    float x[6];
    AIRC_ASSERT_OK(run(LDL_SOLVE, "eager", ins, 3, x, 6));
    const float want[6] = {1, 1, 0, 1, -1, 2};
    for (int i = 0; i < 6; i++)
        assert_float_equal(x[i], want[i], 1e-5);
}

static void test_lstsq_rank_deficient(void **state)
{
    (void)state;
#define LSTSQ(driver)                                                                              \
    "graph():\n"                                                                                   \
    "    %a : [#users=1] = placeholder[target=a]\n"                                                \
    "    %b : [#users=1] = placeholder[target=b]\n"                                                \
    "    %l : [#users=2] = call_function[target=torch.ops.aten.linalg_lstsq.default](args = "      \
    "(%a, %b), kwargs = {driver: " driver "})\n" ITEM("r", "l", "1")                               \
        ITEM("k", "l", "2") "    return (k, r)\n"
    const float a[6] = {1, 1, 1, 1, 1, 1}, b[3] = {1, 2, 3};
    in ins[2] = {{AIRC_DTYPE_F32, 2, {3, 2}, a}, {AIRC_DTYPE_F32, 2, {3, 1}, b}};
    airc_test_expect(run(LSTSQ("gelsd"), "eager", ins, 2, NULL, 0), AIRC_E_UNSUPPORTED,
                     "a result shape that depends on the values");
    float rank = 0;
    AIRC_ASSERT_OK(run(LSTSQ("gelsy"), "eager", ins, 2, &rank, 1));
    assert_float_equal(rank, 1, 0);
    /* full rank: gelsd's residual, ||A x - b||^2 */
    const float full[6] = {1, 0, 0, 1, 1, 1}, bb[3] = {1, 1, 1};
    in ok[2] = {{AIRC_DTYPE_F32, 2, {3, 2}, full}, {AIRC_DTYPE_F32, 2, {3, 1}, bb}};
    static const char *const text = "graph():\n"
                                    "    %a : [#users=1] = placeholder[target=a]\n"
                                    "    %b : [#users=1] = placeholder[target=b]\n"
                                    "    %l : [#users=1] = call_function[target=torch.ops.aten."
                                    "linalg_lstsq.default](args = (%a, %b), kwargs = {driver: "
                                    "gelsd})\n" ITEM("r", "l", "1") "    return r\n";
    static const char *const modes[] = {"eager", "reduce-overhead", "max-autotune"};
    for (size_t m = 0; m < 3; m++) {
        float r = -1;
        AIRC_ASSERT_OK(run(text, modes[m], ok, 2, &r, 1));
        assert_float_equal(r, 1.0f / 3, 1e-5); /* x = [2/3, 2/3] */
    }
}

static void test_symeig_fails(void **state)
{
    (void)state;
    static const char *const text = "graph():\n"
                                    "    %a : [#users=1] = placeholder[target=a]\n"
                                    "    %e : [#users=1] = " CALL("symeig.default", "(%a,)")
                                        ITEM("w", "e", "0") "    return w\n";
    const float nan[9] = {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
    in ins[1] = {{AIRC_DTYPE_F32, 2, {3, 3}, nan}};
    airc_test_expect(run(text, "eager", ins, 1, NULL, 0), AIRC_E_RUNTIME,
                     "symeig: The algorithm failed to converge");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lu_unpack_pivots),     cmocka_unit_test(test_lu_solve_pivots),
        cmocka_unit_test(test_ldl_solve_pivots),     cmocka_unit_test(test_ldl_solve_broadcast),
        cmocka_unit_test(test_lstsq_rank_deficient), cmocka_unit_test(test_symeig_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
