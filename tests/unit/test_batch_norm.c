/* native_batch_norm: the CPU kernel against a double reference in
 * evaluation mode (strided input, with and without affine parameters) and
 * in training mode without running statistics (batch mean and biased
 * variance, save_mean and save_invstd), and the argument sets airc refuses
 * where torch's raw op checks nothing or mutates: parameters of the wrong
 * size, evaluation without running statistics, training with them (an
 * in-place update), mixed dtypes, an input of one dim. Results against
 * PyTorch are the conformance model batchnorm_eval and the meta cases. */
#include "kernel_harness.h"

static void test_eval(void **state)
{
    (void)state;
    for (int affine = 0; affine < 2; affine++) {
        kh h;
        kh_init(&h, affine ? "graph():\n" KH_PH("x", "f32[2, 3, 5]{1, 10, 2}") KH_PH("w", "f32[3]")
                                 KH_PH("b", "f32[3]") KH_PH("rm", "f32[3]") KH_PH("rv0", "f32[3]")
                                     KH_CALL("rv", "aten.abs.default", "(%rv0,)") KH_CALL(
                                         "bn", "aten.native_batch_norm.default",
                                         "(%x, %w, %b, %rm, %rv, False, 0.1, 0.001)")
                                         KH_GETITEM("y", "bn", 0) "    return y\n"
                           : "graph():\n" KH_PH("x", "f32[2, 3, 5]{1, 10, 2}") KH_PH("rm", "f32[3]")
                                 KH_PH("rv0", "f32[3]") KH_CALL("rv", "aten.abs.default", "(%rv0,)")
                                     KH_CALL("bn", "aten.native_batch_norm.default",
                                             "(%x, None, None, %rm, %rv, False, 0.1, 0.001)")
                                         KH_GETITEM("y", "bn", 0) "    return y\n");
        kh_run_ok(&h);
        const airc_tview *x = kh_get(&h, "x", 0), *rm = kh_get(&h, "rm", 0);
        const airc_tview *rv = kh_get(&h, "rv", 0), *bn = kh_get(&h, "bn", 1);
        assert_int_equal(bn->ndim, 1);
        assert_int_equal(bn->shape[0], 0); /* save_mean: empty in eval */
        double want[30];
        for (int64_t n = 0; n < 2; n++)
            for (int64_t c = 0; c < 3; c++)
                for (int64_t s = 0; s < 5; s++) {
                    double v = (kh_at3(x, n, c, s) - kh_at(rm, &c)) / sqrt(kh_at(rv, &c) + 1e-3);
                    if (affine)
                        v = v * kh_at(kh_get(&h, "w", 0), &c) + kh_at(kh_get(&h, "b", 0), &c);
                    want[(n * 3 + c) * 5 + s] = v;
                }
        kh_expect(kh_get(&h, "bn", 0), want, false, affine ? "eval, affine" : "eval");
        kh_free(&h);
    }
}

static void test_training(void **state)
{
    (void)state;
    kh h;
    kh_init(&h, "graph():\n" KH_PH("x", "f64[4, 2, 3]") KH_PH("w", "f64[2]")
                    KH_CALL("bn", "aten.native_batch_norm.default",
                            "(%x, %w, None, None, None, True, 0.1, 1e-05)") "    return bn\n");
    kh_run_ok(&h);
    const airc_tview *x = kh_get(&h, "x", 0), *w = kh_get(&h, "w", 0);
    double mean[2] = {0}, var[2] = {0}, invstd[2], want[24];
    for (int64_t c = 0; c < 2; c++) {
        for (int64_t n = 0; n < 4; n++)
            for (int64_t s = 0; s < 3; s++)
                mean[c] += kh_at3(x, n, c, s) / 12;
        for (int64_t n = 0; n < 4; n++)
            for (int64_t s = 0; s < 3; s++)
                var[c] += (kh_at3(x, n, c, s) - mean[c]) * (kh_at3(x, n, c, s) - mean[c]) / 12;
        invstd[c] = 1 / sqrt(var[c] + 1e-5);
        for (int64_t n = 0; n < 4; n++)
            for (int64_t s = 0; s < 3; s++)
                want[(n * 2 + c) * 3 + s] = (kh_at3(x, n, c, s) - mean[c]) * invstd[c] * kh_at(w, &c);
    }
    kh_expect(kh_get(&h, "bn", 0), want, false, "training y");
    kh_expect(kh_get(&h, "bn", 1), mean, false, "save_mean");
    kh_expect(kh_get(&h, "bn", 2), invstd, false, "save_invstd");
    kh_free(&h);
}

/* Meta refuses args (after x and w): code, and a word of the message. */
static void expect_refused(const char *x, const char *args, airc_status code, const char *needle)
{
    char text[1024];
    snprintf(text, sizeof text,
             "graph():\n" KH_PHF("x", "%s") KH_PHF("p", "f32[3]") KH_PHF("q", "f32[4]")
                 KH_CALLF("bn", "aten.native_batch_norm.default", "%s") "    return bn\n",
             x, args);
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_graph *g = airc_test_parse(ctx, text);
    AIRC_EXPECT(airc_graph_propagate_meta(g), code, needle);
    assert_non_null(strstr(airc_last_error(), "'bn'"));
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

static void test_refusals(void **state)
{
    (void)state;
    expect_refused("f32[2, 3, 4]", "(%x, %q, None, %p, %p, False, 0.1, 1e-05)", AIRC_E_SHAPE,
                   "weight should contain 3 elements");
    expect_refused("f32[2, 3, 4]", "(%x, None, None, %p, %q, False, 0.1, 1e-05)", AIRC_E_SHAPE,
                   "running_var should contain 3");
    expect_refused("f32[2, 3, 4]", "(%x, %p, %p, None, %p, False, 0.1, 1e-05)", AIRC_E_SHAPE,
                   "evaluation mode");
    expect_refused("f32[2, 3, 4]", "(%x, %p, %p, %p, %p, True, 0.1, 1e-05)", AIRC_E_UNSUPPORTED,
                   "in place");
    expect_refused("f64[2, 3, 4]", "(%x, None, None, %p, %p, False, 0.1, 1e-05)", AIRC_E_SHAPE,
                   "dtype");
    expect_refused("f32[3]", "(%x, None, None, %p, %p, False, 0.1, 1e-05)", AIRC_E_SHAPE,
                   "at least 2 dims");
    expect_refused("i64[2, 3]", "(%x, None, None, None, None, True, 0.1, 1e-05)", AIRC_E_SHAPE,
                   "not implemented for 'Long'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eval),
        cmocka_unit_test(test_training),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
