/* Edge values of the fake-quantization kernels (backends/cpu/k_quant.c)
 * and of histogramdd's (backends/cpu/k_histc.c), against values torch
 * 1.13 gives (worked by hand from its kernels, checked with torch): ties at
 * .5 rounding half to even, values past the quant range and past int64,
 * NaN and ±inf, quant_min == quant_max, per-channel qparams along axis 0
 * and the last, a float zero point, the switched-off tensor-qparams form,
 * the learnable forms' zero point rounding; histogramdd's NaN and inf
 * coordinates, its closed last bin, weights and density. */
#include "kernel_harness.h"

static void set_values(kh *h, const char *name, const double *v)
{
    const airc_tview *t = kh_get(h, name, 0);
    int64_t idx[AIRC_MAX_DIMS] = {0}, n = kh_numel(t);
    for (int64_t e = 0; e < n; e++, kh_next(idx, t->shape, t->ndim))
        kh_set(t, idx, v[e]);
}

#define NAN_ NAN
#define INF_ INFINITY

/* x's edges, for one dtype: ties, past the range, past int64, ±inf, NaN */
static const double edges[12] = {-2.5,  -1.5,   -0.5, 0.5,  1.5,   2.5,
                                 127.5, -128.5, 1e19, INF_, -INF_, NAN_};
static const double edge_mask[12] = {1, 1, 1, 1, 1, 1, 0, 1, 0, 0, 0, 0};

static void per_tensor_edges(const char *type, const double *want)
{
    char text[1024];
    snprintf(text, sizeof text,
             "graph():\n" KH_PHF("x", "%s[12]")
                 KH_CALLF("fq", "aten.fake_quantize_per_tensor_affine_cachemask.default",
                          "(%%x, 1.0, 0, -128, 127)") KH_GETITEMF("y", "fq", 0)
                     KH_GETITEMF("m", "fq", 1) "    return (y, m)\n",
             type);
    kh h;
    kh_init(&h, text);
    set_values(&h, "x", edges);
    kh_run_ok(&h);
    kh_expect(kh_get(&h, "fq", 0), want, true, type);
    kh_expect(kh_get(&h, "fq", 1), edge_mask, true, "mask");
    kh_free(&h);
}

static void test_per_tensor_edges(void **state)
{
    (void)state;
    /* f32 and f16: NaN, ±inf and 1e19 convert to INT64_MIN: quant_min */
    static const double f32[12] = {-2, -2, 0, 0, 2, 2, 127, -128, -128, -128, -128, -128};
    /* f64: q stays a double; ±inf and 1e19 saturate, NaN is quant_min */
    static const double f64[12] = {-2, -2, 0, 0, 2, 2, 127, -128, 127, 127, -128, -128};
    per_tensor_edges("f32", f32);
    per_tensor_edges("f16", f32);
    per_tensor_edges("f64", f64);
}

static void test_degenerate_range_and_switch(void **state)
{
    (void)state;
    kh h;
    kh_init(
        &h,
        "graph():\n" KH_PH("x", "f32[5]") KH_PH("s", "f32[1]") KH_PH("z", "f32[1]")
            KH_PH("on", "i64[1]") KH_PH("off", "i64[1]") KH_CALL(
                "one", "aten.fake_quantize_per_tensor_affine_cachemask.default",
                "(%x, 1.0, 3, 3, 3)")
                KH_CALL("q",
                        "aten._fake_quantize_per_tensor_affine_cachemask_tensor_qparams.default",
                        "(%x, %s, %z, %on, -10, 10)")
                    KH_CALL(
                        "q0",
                        "aten._fake_quantize_per_tensor_affine_cachemask_tensor_qparams.default",
                        "(%x, %s, %z, %off, -10, 10)")
                        KH_CALL("l", "aten._fake_quantize_learnable_per_tensor_affine.default",
                                "(%x, %s, %z, -10, 10)") "    return one\n");
    static const double x[5] = {-0.5, 0.5, 0.75, -0.75, NAN_}, s[1] = {0.5}, z[1] = {-2.7},
                        on[1] = {1}, off[1] = {0};
    set_values(&h, "x", x);
    set_values(&h, "s", s);
    set_values(&h, "z", z);
    set_values(&h, "on", on);
    set_values(&h, "off", off);
    kh_run_ok(&h);
    /* quant_min == quant_max == zero point: every output 0 */
    static const double zero[5] = {0}, one_mask[5] = {1, 1, 0, 0, 0};
    kh_expect(kh_get(&h, "one", 0), zero, true, "one-point range");
    kh_expect(kh_get(&h, "one", 1), one_mask, true, "one-point mask");
    /* .item().toInt() truncates -2.7 to -2; x / 0.5 = -1, 1, 1.5, -1.5, NaN */
    static const double q[5] = {-0.5, 0.5, 1, -1, -4}, all[5] = {1, 1, 1, 1, 1},
                        qm[5] = {1, 1, 1, 1, 0};
    kh_expect(kh_get(&h, "q", 0), q, true, "tensor qparams");
    kh_expect(kh_get(&h, "q", 1), qm, true, "tensor qparams mask");
    kh_expect(kh_get(&h, "q0", 0), x, true, "switched off");
    kh_expect(kh_get(&h, "q0", 1), all, true, "switched off mask");
    /* learnable: -2.7 rounds to -3 */
    static const double l[5] = {-0.5, 0.5, 1, -1, -3.5};
    kh_expect(kh_get(&h, "l", 0), l, true, "learnable");
    kh_free(&h);
}

static void test_per_channel_axes(void **state)
{
    (void)state;
    kh h;
    kh_init(&h, "graph():\n" KH_PH("x", "f32[2, 3]") KH_PH("s0", "f32[2]") KH_PH("z0", "i32[2]")
                    KH_PH("s1", "f32[3]") KH_PH("z1", "f32[3]") KH_PH("zl", "f32[3]")
                        KH_CALL("a0", "aten.fake_quantize_per_channel_affine_cachemask.default",
                                "(%x, %s0, %z0, 0, -4, 4)")
                            KH_CALL("a1", "aten.fake_quantize_per_channel_affine_cachemask.default",
                                    "(%x, %s1, %z1, 1, -4, 4)")
                                KH_CALL("l1",
                                        "aten._fake_quantize_learnable_per_channel_affine.default",
                                        "(%x, %s1, %zl, 1, -4, 4)") "    return a0\n");
    static const double x[6] = {0.25, 0.75, 1.25, -0.25, -0.75, 10.0}, s0[2] = {0.5, 0.25},
                        z0[2] = {1, -1}, s1[3] = {0.5, 1, 2}, z1[3] = {0.5, 0, 0},
                        zl[3] = {0.5, 1.5, 9.0};
    set_values(&h, "x", x);
    set_values(&h, "s0", s0);
    set_values(&h, "z0", z0);
    set_values(&h, "s1", s1);
    set_values(&h, "z1", z1);
    set_values(&h, "zl", zl);
    kh_run_ok(&h);
    /* axis 0: row 0 scale 0.5 zero point 1 (0.5 -> 0 + 1, 1.5 -> 2 + 1,
     * 2.5 -> 2 + 1); row 1 scale 0.25 zero point -1 (40 - 1 past 4) */
    static const double a0[6] = {0, 1, 1, -0.25, -0.75, 1.25}, m0[6] = {1, 1, 1, 1, 1, 0};
    kh_expect(kh_get(&h, "a0", 0), a0, true, "axis 0");
    kh_expect(kh_get(&h, "a0", 1), m0, true, "axis 0 mask");
    /* the last axis, a float zero point added before the rounding and
     * subtracted as it is */
    static const double a1[6] = {0.25, 1, 2, -0.25, -1, 8}, m1[6] = {1, 1, 1, 1, 1, 0};
    kh_expect(kh_get(&h, "a1", 0), a1, true, "last axis");
    kh_expect(kh_get(&h, "a1", 1), m1, true, "last axis mask");
    /* learnable: zero points 0.5 -> 0, 1.5 -> 2, 9 -> 4 (clamped) */
    static const double l1[6] = {0, 1, 0, 0, -1, 0};
    kh_expect(kh_get(&h, "l1", 0), l1, true, "learnable per channel");
    kh_free(&h);
}

static void test_bad_qparams_fail(void **state)
{
    (void)state;
    kh h;
    /* a zero point outside [quant_min, quant_max] read from data */
    kh_init(&h, "graph():\n" KH_PH("x", "f32[2]") KH_PH("s", "f32[2]") KH_PH("z", "i32[2]")
                    KH_CALL("out", "aten.fake_quantize_per_channel_affine_cachemask.default",
                            "(%x, %s, %z, 0, -4, 4)") "    return out\n");
    static const double z[2] = {0, 5};
    set_values(&h, "z", z);
    assert_int_equal(kh_run(&h), AIRC_E_RUNTIME);
    assert_non_null(strstr(h.msg, "`zero_point` must be between"));
    kh_free(&h);
    /* .item() of a zero point past int32 */
    kh_init(&h,
            "graph():\n" KH_PH("x", "f32[2]") KH_PH("s", "f32[1]") KH_PH("z", "f64[1]")
                KH_PH("on", "i64[1]") KH_CALL(
                    "out", "aten._fake_quantize_per_tensor_affine_cachemask_tensor_qparams.default",
                    "(%x, %s, %z, %on, -4, 4)") "    return out\n");
    static const double big[1] = {1e20};
    set_values(&h, "z", big);
    assert_int_equal(kh_run(&h), AIRC_E_RUNTIME);
    assert_non_null(strstr(h.msg, "without overflow"));
    kh_free(&h);
}

static void test_histogramdd_edges(void **state)
{
    (void)state;
    kh h;
    kh_init(&h,
            "graph():\n" KH_PH("x", "f32[5, 2]") KH_PH("e0", "f32[3]") KH_PH("e1", "f32[3]")
                KH_PH("w", "f32[5]") KH_CALLKW("cts", "aten._histogramdd_from_bin_cts.default",
                                               "(%x, [2, 3])", "{range: [0.0, 1.0, 0.0, 3.0]}")
                    KH_CALLKW("dens", "aten._histogramdd_from_bin_tensors.default",
                              "(%x, [%e0, %e1])", "{weight: %w, density: True}")
                        KH_CALLKW("edges", "aten._histogramdd_bin_edges.default", "(%x, [2, 3])",
                                  "{range: [0.0, 1.0, 0.0, 3.0]}") "    return cts\n");
    static const double x[10] = {0, 1, 0.5, 2, 1, 3, NAN_, 1.5, 0.2, INF_}, e0[3] = {0, 0.5, 1},
                        e1[3] = {0, 2, 3}, w[5] = {1, 2, 0.5, 4, 8};
    set_values(&h, "x", x);
    set_values(&h, "e0", e0);
    set_values(&h, "e1", e1);
    set_values(&h, "w", w);
    kh_run_ok(&h);
    /* rows: (0, 1) bin (0, 1); (0.5, 2) and (1, 3) (the last edges, in the
     * last bins) bin (1, 2); NaN in bin 1 of the linear edges, (.., 1.5)
     * bin 1; (0.2, inf) outside */
    static const double cts[6] = {0, 1, 0, 0, 1, 2};
    kh_expect(kh_get(&h, "cts", 0), cts, true, "from_bin_cts");
    /* given edges: NaN after every edge (the last bin); weights 1 (0, 0),
     * 2 + 0.5 (1, 1), 4 (1, 0) of 7.5, over widths 0.5 x 2 and 0.5 x 1 */
    static const double dens[4] = {1 / 7.5, 0, 4 / 7.5, 2.5 / 7.5 / 0.5};
    kh_expect(kh_get(&h, "dens", 0), dens, false, "from_bin_tensors density");
    static const double want0[3] = {0, 0.5, 1}, want1[4] = {0, 1, 2, 3};
    kh_expect(kh_get(&h, "edges", 0), want0, true, "edges 0");
    kh_expect(kh_get(&h, "edges", 1), want1, true, "edges 1");
    kh_free(&h);
}

/* a 0-dim histogram (self [3, 0]): no edges, a 0-dim zero count (NaN
 * with density: 0 / 0), as torch gives when it does not crash */
static void test_histogramdd_no_dims(void **state)
{
    (void)state;
    kh h;
    kh_init(&h, "graph():\n" KH_PH("x", "f32[3, 0]")
                    KH_CALL("edges", "aten._histogramdd_bin_edges.default", "(%x, [])")
                        KH_CALL("cts", "aten._histogramdd_from_bin_cts.default", "(%x, [])")
                            KH_CALLKW("dens", "aten._histogramdd_from_bin_tensors.default",
                                      "(%x, [])", "{density: True}") "    return cts\n");
    kh_run_ok(&h);
    static const double zero[1] = {0}, nan[1] = {NAN_};
    assert_int_equal(kh_get(&h, "cts", 0)->ndim, 0);
    kh_expect(kh_get(&h, "cts", 0), zero, true, "0-dim count");
    kh_expect(kh_get(&h, "dens", 0), nan, true, "0-dim density");
    kh_free(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_per_tensor_edges),
        cmocka_unit_test(test_degenerate_range_and_switch),
        cmocka_unit_test(test_per_channel_axes),
        cmocka_unit_test(test_bad_qparams_fail),
        cmocka_unit_test(test_histogramdd_edges),
        cmocka_unit_test(test_histogramdd_no_dims),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
