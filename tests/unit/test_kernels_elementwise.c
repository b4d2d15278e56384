/* The built-in CPU unary kernels, dtype casts, the elementwise iterator and
 * the kernel tables, called directly with hand-built kernel contexts.
 * Expected values come from plain double-precision references computed
 * here, from first principles, or from PyTorch 1.13 (noted where so).
 * Transcendental f32 kernels must stay within 1e-6 relative + 1e-7 absolute
 * of the double reference on every SIMD path (AVX2, SSE2, scalar). The
 * binary family is tested in test_kernels_binary.c. */
#include "backends/cpu/k_bessel.h"
#include "backends/cpu/k_math.h"
#include "backends/cpu/k_special.h"
#include "ew_testutil.h"

/* ---- references --------------------------------------------------------- */

static double r_neg(double x) { return -x; }
static double r_relu(double x) { return x < 0 ? 0 : x; }
static double r_rsqrt(double x) { return 1.0 / sqrt(x); }
static double r_recip(double x) { return 1.0 / x; }
static double r_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }
static double r_silu(double x) { return x / (1.0 + exp(-x)); }
static double r_gelu(double x) { return 0.5 * x * erfc(-x / sqrt(2.0)); }
static double r_gelu_tanh(double x)
{
    double inner = sqrt(2.0 / 3.14159265358979323846) * (x + 0.044715 * x * x * x);
    return 0.5 * x * (1.0 + tanh(inner));
}
static double r_sign(double x) { return (double)((0 < x) - (x < 0)); }

typedef struct uref {
    const char *q;
    double (*f)(double);
    const char *arg;   /* gelu's approximate */
    bool transcendental;
} uref;

static const uref UREFS[] = {
    {"aten.exp.default", exp, NULL, true},
    {"aten.expm1.default", expm1, NULL, true},
    {"aten.log.default", log, NULL, true},
    {"aten.log2.default", log2, NULL, true},
    {"aten.log1p.default", log1p, NULL, true},
    {"aten.sqrt.default", sqrt, NULL, true},
    {"aten.rsqrt.default", r_rsqrt, NULL, true},
    {"aten.reciprocal.default", r_recip, NULL, true},
    {"aten.sigmoid.default", r_sigmoid, NULL, true},
    {"aten.tanh.default", tanh, NULL, true},
    {"aten.gelu.default", r_gelu, NULL, true},
    {"aten.gelu.default", r_gelu, "none", true},
    {"aten.gelu.default", r_gelu_tanh, "tanh", true},
    {"aten.silu.default", r_silu, NULL, true},
    {"aten.sin.default", sin, NULL, true},
    {"aten.cos.default", cos, NULL, true},
    {"aten.erf.default", erf, NULL, true},
    {"aten.abs.default", fabs, NULL, false},
    {"aten.neg.default", r_neg, NULL, false},
    {"aten.relu.default", r_relu, NULL, false},
    {"aten.ceil.default", ceil, NULL, false},
    {"aten.floor.default", floor, NULL, false},
    {"aten.trunc.default", trunc, NULL, false},
    {"aten.round.default", nearbyint, NULL, false},
    {"aten.sign.default", r_sign, NULL, false},
};
#define NUREFS (sizeof UREFS / sizeof UREFS[0])


/* ---- tests: tables ------------------------------------------------------ */

static void check_sorted(const airc_cpu_kernel_entry *t, size_t n)
{
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        assert_non_null(t[i].fn);
        if (i)
            assert_true(strcmp(t[i - 1].qualname, t[i].qualname) < 0);
        /* every entry names a built-in op */
        bool found = false;
        for (size_t j = 0; j < airc_num_builtin_ops && !found; j++)
            found = !strcmp(airc_builtin_ops[j].qualname, t[i].qualname);
        if (!found)
            fail_msg("%s is not a built-in op", t[i].qualname);
    }
}

static bool in_table(const airc_cpu_kernel_entry *t, size_t n, const char *q)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(t[i].qualname, q))
            return true;
    return false;
}

static void test_tables(void **state)
{
    (void)state;
    check_sorted(airc_cpu_kernels_unary, airc_cpu_num_kernels_unary);
    check_sorted(airc_cpu_kernels_binary, airc_cpu_num_kernels_binary);
    check_sorted(airc_cpu_kernels_ternary, airc_cpu_num_kernels_ternary);
    check_sorted(airc_cpu_kernels_loss, airc_cpu_num_kernels_loss);
    static const char *const unary[] = {
        "abs", "neg", "exp", "log", "sqrt", "rsqrt", "reciprocal", "sigmoid", "tanh", "relu",
        "gelu", "silu", "sin", "cos", "logical_not", "erf", "expm1", "log1p", "log2", "ceil",
        "floor", "round", "trunc", "sign", "hardtanh", "leaky_relu", "bitwise_not"};
    char q[96];
    for (size_t i = 0; i < sizeof unary / sizeof unary[0]; i++) {
        snprintf(q, sizeof q, "aten.%s.default", unary[i]);
        assert_true(in_table(airc_cpu_kernels_unary, airc_cpu_num_kernels_unary, q));
        assert_true(airc_cpu_find_kernel(q) != NULL);
        snprintf(q, sizeof q, "aten.%s_.default", unary[i]);
        assert_true(in_table(airc_cpu_kernels_unary, airc_cpu_num_kernels_unary, q));
    }
    static const char *const casts[] = {"aten._to_copy.default", "aten.to.dtype",
                                        "aten.to.dtype_layout", "aten.to.device"};
    for (size_t i = 0; i < 4; i++)
        assert_true(in_table(airc_cpu_kernels_unary, airc_cpu_num_kernels_unary, casts[i]));
    /* every built-in op of the binary schema families, in-place twins too */
    static const char *const binary_prefixes[] = {
        "aten.add", "aten.sub", "aten.rsub", "aten.mul", "aten.div", "aten.pow",
        "aten.maximum", "aten.minimum", "aten.eq", "aten.ne", "aten.lt", "aten.le", "aten.gt",
        "aten.ge", "aten.logical_and", "aten.logical_or", "aten.logical_xor", "aten.where",
        "aten.masked_fill", "aten.clamp", "aten.clamp_min", "aten.clamp_max"};
    size_t count = 0;
    for (size_t j = 0; j < airc_num_builtin_ops; j++) {
        const char *name = airc_builtin_ops[j].qualname;
        for (size_t i = 0; i < sizeof binary_prefixes / sizeof binary_prefixes[0]; i++) {
            size_t len = strlen(binary_prefixes[i]);
            if (!strncmp(name, binary_prefixes[i], len) &&
                (name[len] == '.' || (name[len] == '_' && name[len + 1] == '.'))) {
                if (!in_table(airc_cpu_kernels_binary, airc_cpu_num_kernels_binary, name))
                    fail_msg("%s has no binary kernel", name);
                count++;
            }
        }
    }
    assert_true(count >= 70);
}

/* ---- tests: iterator ---------------------------------------------------- */

static void count_loop(void *user, int64_t n, char *const *p, const int64_t *s)
{
    int64_t *calls = user;
    (void)p;
    (void)s;
    calls[0]++;
    calls[1] += n;
}

static void test_iter(void **state)
{
    (void)state;
    /* contiguous operands coalesce into one run */
    int64_t shape[3] = {4, 5, 6};
    tt a = tmake(AIRC_DTYPE_F32, 3, shape, NULL, 1), o = tmake(AIRC_DTYPE_F32, 3, shape, NULL, 1);
    const airc_tview *in[1] = {&a.v};
    airc_iter it;
    AIRC_ASSERT_OK(airc_iter_init(&it, &o.v, in, 1));
    assert_int_equal(it.ndim, 1);
    int64_t calls[2] = {0, 0};
    airc_iter_run(&it, count_loop, calls);
    assert_int_equal(calls[0], 1);
    assert_int_equal(calls[1], 120);
    /* a permuted output is iterated in its memory order: unit inner stride */
    static const int perm[3] = {2, 0, 1};
    tt op = tmake(AIRC_DTYPE_F32, 3, shape, perm, 1);
    tt ap = tmake(AIRC_DTYPE_F32, 3, shape, perm, 1);
    in[0] = &ap.v;
    AIRC_ASSERT_OK(airc_iter_init(&it, &op.v, in, 1));
    assert_int_equal(it.ndim, 1);
    assert_int_equal(it.strides[0][0], 1);
    /* broadcast: [5,1] over [4,5,6] gives stride 0 on two dims */
    int64_t bshape[2] = {5, 1};
    tt b = tmake(AIRC_DTYPE_F32, 2, bshape, NULL, 1);
    in[0] = &b.v;
    AIRC_ASSERT_OK(airc_iter_init(&it, &o.v, in, 1));
    assert_int_equal(it.strides[1][0], 0);
    calls[0] = calls[1] = 0;
    airc_iter_run(&it, count_loop, calls);
    assert_int_equal(calls[1], 120);
    /* not broadcastable */
    int64_t cshape[1] = {5};
    tt c = tmake(AIRC_DTYPE_F32, 1, cshape, NULL, 1);
    in[0] = &c.v;
    AIRC_EXPECT(airc_iter_init(&it, &o.v, in, 1), AIRC_E_SHAPE, "broadcast");
    /* empty output: nothing runs */
    int64_t eshape[2] = {3, 0};
    tt e = tmake(AIRC_DTYPE_F32, 2, eshape, NULL, 1);
    in[0] = &e.v;
    AIRC_ASSERT_OK(airc_iter_init(&it, &e.v, in, 1));
    calls[0] = 0;
    airc_iter_run(&it, count_loop, calls);
    assert_int_equal(calls[0], 0);
    tfree(&a), tfree(&o), tfree(&op), tfree(&ap), tfree(&b), tfree(&c), tfree(&e);
}

/* ---- tests: transcendental accuracy -------------------------------------- */

#define SWEEP 50000

static void sweep_values(tt *x)
{
    static const double edges[] = {
        0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 0.5, -0.5, 2.0, 1e-45, -1e-45, 1e-40,
        -1e-40, 1.17549435e-38, 1e-30, -1e-30, 1e-7, -1e-7, 1e-4, -1e-4, 3e38, -3e38, 1e30,
        -1e30, 88.0, 88.7, 89.0, -87.0, -88.7, -103.0, -104.0, 100.0, -100.0, 9.0, -9.0,
        15.0, -15.0, 20.0, -20.0, 3.14159265, 1e4, 1e6, 1e8, -1e8, 65504.0, 0.1, -0.1, 1.5,
        2.5, -2.5, 0.49999997};
    int64_t n = numel(&x->v), ne = (int64_t)(sizeof edges / sizeof edges[0]);
    for (int64_t i = 0; i < n; i++) {
        double v;
        if (i < ne)
            v = edges[i];
        else if (i % 3 == 0)
            v = urand(-10, 10);
        else if (i % 3 == 1)
            v = urand(-1, 1);
        else
            v = (urand(0, 1) < 0.5 ? -1 : 1) * pow(10.0, urand(-38, 38));
        set(x, i, v);
    }
}

static void check_unary_sweep(airc_dtype dt, double rtol, double atol)
{
    tt x = tvec(dt, SWEEP), y = tvec(dt, SWEEP);
    sweep_values(&x);
    for (size_t r = 0; r < NUREFS; r++) {
        AIRC_ASSERT_OK(run_unary(UREFS[r].q, &x, &y, UREFS[r].arg));
        int bad = 0;
        for (int64_t i = 0; i < SWEEP; i++) {
            double xv = get(&x, i), ref = UREFS[r].f(xv), yv = get(&y, i);
            if (!close_f32(yv, ref, rtol, atol)) {
                if (bad++ < 3)
                    print_error("%s%s%s (%s, isa %d): x=%.9g y=%.9g ref=%.9g\n", UREFS[r].q,
                                UREFS[r].arg ? " " : "", UREFS[r].arg ? UREFS[r].arg : "",
                                airc_dtype_name(dt), airc_vm_isa(), xv, yv, ref);
            }
        }
        assert_int_equal(bad, 0);
    }
    tfree(&x), tfree(&y);
}

static void test_unary_accuracy_f32(void **state)
{
    (void)state;
    static const int isas[] = {AIRC_VM_ISA_AUTO, AIRC_VM_ISA_AVX512, AIRC_VM_ISA_AVX2,
                               AIRC_VM_ISA_SSE2, AIRC_VM_ISA_SCALAR};
    for (size_t i = 0; i < sizeof isas / sizeof isas[0]; i++) {
        airc_vm_set_isa(isas[i]);
        check_unary_sweep(AIRC_DTYPE_F32, 1e-6, 1e-7);
    }
    airc_vm_set_isa(AIRC_VM_ISA_AUTO);
}

/* The AVX2 and AVX-512 gelu (k_math.h): within 8 ulp of the exact value
 * (erfc in double) over x in [-14, 20] wherever the result is a normal
 * float, tails included, where erfc of a rounded -x / sqrt 2 is 200 ulp
 * off. */
static void test_gelu_ulp(void **state)
{
    (void)state;
    static const int isas[] = {AIRC_VM_ISA_AVX512, AIRC_VM_ISA_AVX2};
    enum { N = 400001 };
    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    assert_non_null(x);
    assert_non_null(y);
    for (int i = 0; i < N; i++)
        x[i] = -14.0f + 34.0f * (float)i / (float)(N - 1);
    for (size_t s = 0; s < sizeof isas / sizeof isas[0]; s++) {
        airc_vm_set_isa(isas[s]);
        if (airc_vm_isa() != isas[s])
            continue; /* the CPU lacks it */
        airc_vm_f32(AIRC_VM_GELU, N, x, y);
        for (int i = 0; i < N; i++) {
            double ref = 0.5 * (double)x[i] * erfc(-(double)x[i] / sqrt(2.0));
            float a = (float)fabs(ref);
            if (a < 1.17549435e-38f)
                continue;
            double ulps = fabs(y[i] - ref) / (double)(nextafterf(a, INFINITY) - a);
            if (ulps > 8)
                fail_msg("gelu(%.9g) = %.9g, want %.9g: %.1f ulp (isa %d)", x[i], y[i], ref, ulps,
                         isas[s]);
        }
    }
    airc_vm_set_isa(AIRC_VM_ISA_AUTO);
    free(x);
    free(y);
}

static void test_unary_accuracy_f64(void **state)
{
    (void)state;
    check_unary_sweep(AIRC_DTYPE_F64, 1e-12, 1e-15);
}

/* pow (u10 SLEEF for f32) on positive bases and mixed exponents */
static void test_pow_accuracy(void **state)
{
    (void)state;
    static const int isas[] = {AIRC_VM_ISA_AVX512, AIRC_VM_ISA_AVX2, AIRC_VM_ISA_SSE2,
                               AIRC_VM_ISA_SCALAR};
    int64_t n = 3001;
    tt a = tvec(AIRC_DTYPE_F32, n), b = tvec(AIRC_DTYPE_F32, n), o = tvec(AIRC_DTYPE_F32, n);
    for (int64_t i = 0; i < n; i++) {
        set(&a, i, i % 7 == 0 ? -urand(0, 4) : pow(10.0, urand(-5, 5)));
        set(&b, i, i % 7 == 0 ? floor(urand(-5, 5)) : urand(-8, 8));
    }
    set(&a, 0, 0.0), set(&b, 0, 0.0);
    set(&a, 1, -0.0), set(&b, 1, -1.0);
    set(&a, 2, NAN), set(&b, 2, 0.0);
    set(&a, 3, 1.0), set(&b, 3, NAN);
    for (size_t s = 0; s < sizeof isas / sizeof isas[0]; s++) {
        airc_vm_set_isa(isas[s]);
        call c;
        cinit(&c, 2);
        arg_t(&c, 0, &a);
        arg_t(&c, 1, &b);
        AIRC_ASSERT_OK(crun(&c, "aten.pow.Tensor_Tensor", &o));
        for (int64_t i = 0; i < n; i++) {
            double ref = pow(get(&a, i), get(&b, i));
            if (!close_f32(get(&o, i), ref, 1e-6, 1e-7))
                fail_msg("pow(%g, %g) = %.9g, want %.9g (isa %d)", get(&a, i), get(&b, i),
                         get(&o, i), ref, airc_vm_isa());
        }
    }
    airc_vm_set_isa(AIRC_VM_ISA_AUTO);
    tfree(&a), tfree(&b), tfree(&o);
}

/* ---- tests: unary layouts, dtypes, in-place ------------------------------ */

static void expect_unary(const char *q, const tt *x, const tt *y, double (*f)(double),
                         double rtol, double atol)
{
    for (int64_t i = 0; i < numel(&y->v); i++) {
        double ref = f(get(x, i));
        if (y->v.dtype == AIRC_DTYPE_F16 || y->v.dtype == AIRC_DTYPE_BF16)
            ref = rd(&(airc_tview){.data = &(uint16_t){y->v.dtype == AIRC_DTYPE_F16
                                                            ? airc_f32_to_f16((float)ref)
                                                            : airc_f32_to_bf16((float)ref)},
                                   .dtype = y->v.dtype},
                     0);
        if (!close_f32(get(y, i), ref, rtol, atol))
            fail_msg("%s at %lld: x=%g y=%.9g ref=%.9g", q, (long long)i, get(x, i), get(y, i),
                     ref);
    }
}

static void test_unary_layouts(void **state)
{
    (void)state;
    int64_t shape[3] = {3, 4, 5};
    static const int perm[3] = {2, 0, 1};
    static const int rev[3] = {2, 1, 0};
    struct {
        const int *in_perm, *out_perm;
        int64_t in_step, out_step;
    } layouts[] = {
        {NULL, NULL, 1, 1}, {perm, NULL, 1, 1}, {NULL, perm, 1, 1},
        {rev, perm, 2, 1},  {NULL, NULL, 2, 3}, {perm, perm, 1, 1},
    };
    static const char *const qs[] = {"aten.exp.default", "aten.sigmoid.default",
                                     "aten.gelu.default", "aten.relu.default",
                                     "aten.tanh.default"};
    static double (*const fs[])(double) = {exp, r_sigmoid, r_gelu, r_relu, tanh};
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
        tt x = tmake(AIRC_DTYPE_F32, 3, shape, layouts[l].in_perm, layouts[l].in_step);
        tt y = tmake(AIRC_DTYPE_F32, 3, shape, layouts[l].out_perm, layouts[l].out_step);
        fill_rand(&x, -5, 5);
        for (size_t q = 0; q < 5; q++) {
            AIRC_ASSERT_OK(run_unary(qs[q], &x, &y, NULL));
            expect_unary(qs[q], &x, &y, fs[q], 1e-6, 1e-7);
        }
        tfree(&x), tfree(&y);
    }
    /* an expanded input (stride 0) into a dense output */
    int64_t one[2] = {1, 5}, full[2] = {4, 5};
    tt x = tmake(AIRC_DTYPE_F32, 2, one, NULL, 1);
    fill_rand(&x, -3, 3);
    x.v.shape[0] = 4;
    x.v.strides[0] = 0;
    tt y = tmake(AIRC_DTYPE_F32, 2, full, NULL, 1);
    AIRC_ASSERT_OK(run_unary("aten.exp.default", &x, &y, NULL));
    expect_unary("exp expanded", &x, &y, exp, 1e-6, 1e-7);
    AIRC_ASSERT_OK(run_unary("aten.neg.default", &x, &y, NULL));
    expect_unary("neg expanded", &x, &y, r_neg, 0, 0);
    tfree(&x), tfree(&y);
    /* size-0, size-1 and 0-d */
    int64_t zshape[3] = {3, 0, 2}, oshape[3] = {1, 7, 1};
    tt z = tmake(AIRC_DTYPE_F32, 3, zshape, NULL, 1), zo = tmake(AIRC_DTYPE_F32, 3, zshape, NULL, 1);
    AIRC_ASSERT_OK(run_unary("aten.sigmoid.default", &z, &zo, NULL));
    tt s1 = tmake(AIRC_DTYPE_F32, 3, oshape, NULL, 1), s1o = tmake(AIRC_DTYPE_F32, 3, oshape, rev, 1);
    fill_rand(&s1, -2, 2);
    AIRC_ASSERT_OK(run_unary("aten.silu.default", &s1, &s1o, NULL));
    expect_unary("silu size-1", &s1, &s1o, r_silu, 1e-6, 1e-7);
    tt d0 = tmake(AIRC_DTYPE_F32, 0, NULL, NULL, 1), d0o = tmake(AIRC_DTYPE_F32, 0, NULL, NULL, 1);
    set(&d0, 0, -0.75);
    AIRC_ASSERT_OK(run_unary("aten.abs.default", &d0, &d0o, NULL));
    assert_true(get(&d0o, 0) == 0.75);
    tfree(&z), tfree(&zo), tfree(&s1), tfree(&s1o), tfree(&d0), tfree(&d0o);
}

static void test_unary_inplace(void **state)
{
    (void)state;
    int64_t shape[2] = {37, 300};
    static const int tr[2] = {1, 0};
    static const char *const qs[] = {"aten.sigmoid_.default", "aten.silu_.default",
                                     "aten.gelu_.default", "aten.exp_.default",
                                     "aten.relu_.default", "aten.rsqrt_.default",
                                     "aten.abs_.default", "aten.tanh_.default"};
    static double (*const fs[])(double) = {r_sigmoid, r_silu, r_gelu, exp,
                                           r_relu,    r_rsqrt, fabs,  tanh};
    for (int t = 0; t < 2; t++) {
        for (size_t q = 0; q < sizeof qs / sizeof qs[0]; q++) {
            tt x = tmake(AIRC_DTYPE_F32, 2, shape, t ? tr : NULL, 1);
            tt ref = tmake(AIRC_DTYPE_F32, 2, shape, NULL, 1);
            fill_rand(&x, q == 5 ? 0.01 : -6, 6);
            for (int64_t i = 0; i < numel(&x.v); i++)
                set(&ref, i, get(&x, i));
            /* the executor hands out[0] = self for in-place ops */
            AIRC_ASSERT_OK(run_unary(qs[q], &x, &x, NULL));
            expect_unary(qs[q], &ref, &x, fs[q], 1e-6, 1e-7);
            tfree(&x), tfree(&ref);
        }
    }
    /* gelu_ tanh, in place, aliasing through the chunked temporaries */
    tt x = tvec(AIRC_DTYPE_F32, 1000), ref = tvec(AIRC_DTYPE_F32, 1000);
    fill_rand(&x, -8, 8);
    for (int64_t i = 0; i < 1000; i++)
        set(&ref, i, get(&x, i));
    AIRC_ASSERT_OK(run_unary("aten.gelu_.default", &x, &x, "tanh"));
    expect_unary("gelu_ tanh", &ref, &x, r_gelu_tanh, 1e-6, 1e-7);
    tfree(&x), tfree(&ref);
}

static void test_unary_dtypes(void **state)
{
    (void)state;
    /* integers: exact, wrapping like torch (abs/neg of INT64_MIN stay) */
    static const int64_t iv[] = {INT64_MIN, -5, -1, 0, 1, 7, INT64_MAX};
    tt x = tvec(AIRC_DTYPE_I64, 7), y = tvec(AIRC_DTYPE_I64, 7);
    for (int i = 0; i < 7; i++)
        seti(&x, i, iv[i]);
    AIRC_ASSERT_OK(run_unary("aten.abs.default", &x, &y, NULL));
    static const int64_t abs_want[] = {INT64_MIN, 5, 1, 0, 1, 7, INT64_MAX};
    for (int i = 0; i < 7; i++)
        assert_true(geti(&y, i) == abs_want[i]);
    AIRC_ASSERT_OK(run_unary("aten.neg.default", &x, &y, NULL));
    static const int64_t neg_want[] = {INT64_MIN, 5, 1, 0, -1, -7, -INT64_MAX};
    for (int i = 0; i < 7; i++)
        assert_true(geti(&y, i) == neg_want[i]);
    AIRC_ASSERT_OK(run_unary("aten.relu.default", &x, &y, NULL));
    for (int i = 0; i < 7; i++)
        assert_true(geti(&y, i) == (iv[i] < 0 ? 0 : iv[i]));
    AIRC_ASSERT_OK(run_unary("aten.sign.default", &x, &y, NULL));
    for (int i = 0; i < 7; i++)
        assert_true(geti(&y, i) == (iv[i] > 0) - (iv[i] < 0));
    AIRC_ASSERT_OK(run_unary("aten.bitwise_not.default", &x, &y, NULL));
    for (int i = 0; i < 7; i++)
        assert_true(geti(&y, i) == ~iv[i]);
    AIRC_ASSERT_OK(run_unary("aten.floor.default", &x, &y, NULL));
    for (int i = 0; i < 7; i++)
        assert_true(geti(&y, i) == iv[i]);
    tfree(&y);
    /* narrower ints wrap in their own width: abs(int8 -128) = -128 (torch) */
    tt b = tvec(AIRC_DTYPE_I8, 3), bo = tvec(AIRC_DTYPE_I8, 3);
    seti(&b, 0, -128), seti(&b, 1, -3), seti(&b, 2, 100);
    AIRC_ASSERT_OK(run_unary("aten.abs.default", &b, &bo, NULL));
    assert_int_equal(geti(&bo, 0), -128);
    assert_int_equal(geti(&bo, 1), 3);
    AIRC_ASSERT_OK(run_unary("aten.neg.default", &b, &bo, NULL));
    assert_int_equal(geti(&bo, 0), -128);
    assert_int_equal(geti(&bo, 2), -100);
    tt u = tvec(AIRC_DTYPE_U8, 2), uo = tvec(AIRC_DTYPE_U8, 2);
    seti(&u, 0, 1), seti(&u, 1, 200);
    AIRC_ASSERT_OK(run_unary("aten.neg.default", &u, &uo, NULL));
    assert_int_equal(geti(&uo, 0), 255);
    assert_int_equal(geti(&uo, 1), 56);
    /* float ops of integer tensors: the meta says f32; read as int64 */
    tt f = tvec(AIRC_DTYPE_F32, 7);
    AIRC_ASSERT_OK(run_unary("aten.sigmoid.default", &x, &f, NULL));
    for (int i = 0; i < 7; i++)
        assert_true(close_f32(get(&f, i), r_sigmoid((double)iv[i]), 1e-6, 1e-7));
    tt i32 = tvec(AIRC_DTYPE_I32, 5);
    for (int i = 0; i < 5; i++)
        seti(&i32, i, i * 3 - 6);
    tt f5 = tvec(AIRC_DTYPE_F32, 5);
    AIRC_ASSERT_OK(run_unary("aten.exp.default", &i32, &f5, NULL));
    expect_unary("exp i32", &i32, &f5, exp, 1e-6, 1e-7);
    /* float-only op on an integer result: unsupported, not a crash */
    tt i5 = tvec(AIRC_DTYPE_I32, 5);
    AIRC_EXPECT(run_unary("aten.exp.default", &i32, &i5, NULL), AIRC_E_UNSUPPORTED, "dtype");
    /* f16 / bf16 / f64 */
    static const airc_dtype fts[] = {AIRC_DTYPE_F16, AIRC_DTYPE_BF16, AIRC_DTYPE_F64};
    for (int t = 0; t < 3; t++) {
        tt h = tvec(fts[t], 100), ho = tvec(fts[t], 100);
        fill_rand(&h, -4, 4);
        double tol = fts[t] == AIRC_DTYPE_F64 ? 1e-12 : fts[t] == AIRC_DTYPE_F16 ? 1e-3 : 8e-3;
        AIRC_ASSERT_OK(run_unary("aten.tanh.default", &h, &ho, NULL));
        expect_unary("tanh half", &h, &ho, tanh, tol, 1e-6);
        AIRC_ASSERT_OK(run_unary("aten.neg_.default", &h, &h, NULL));
        AIRC_ASSERT_OK(run_unary("aten.neg.default", &h, &ho, NULL));
        expect_unary("neg half", &h, &ho, r_neg, 0, 0);
        tfree(&h), tfree(&ho);
    }
    /* logical_not: anything to bool; in place writes 1/0 in self's dtype */
    tt lf = tvec(AIRC_DTYPE_F32, 4), lb = tvec(AIRC_DTYPE_BOOL, 4);
    set(&lf, 0, 0.0), set(&lf, 1, -0.0), set(&lf, 2, NAN), set(&lf, 3, 2.5);
    AIRC_ASSERT_OK(run_unary("aten.logical_not.default", &lf, &lb, NULL));
    assert_int_equal(geti(&lb, 0), 1);
    assert_int_equal(geti(&lb, 1), 1);
    assert_int_equal(geti(&lb, 2), 0);
    assert_int_equal(geti(&lb, 3), 0);
    AIRC_ASSERT_OK(run_unary("aten.logical_not_.default", &lf, &lf, NULL));
    assert_true(get(&lf, 0) == 1.0 && get(&lf, 1) == 1.0 && get(&lf, 2) == 0.0 &&
                get(&lf, 3) == 0.0);
    tt lb2 = tvec(AIRC_DTYPE_BOOL, 4);
    AIRC_ASSERT_OK(run_unary("aten.logical_not.default", &lb, &lb2, NULL));
    assert_int_equal(geti(&lb2, 0), 0);
    assert_int_equal(geti(&lb2, 3), 1);
    AIRC_ASSERT_OK(run_unary("aten.bitwise_not.default", &lb2, &lb, NULL));
    assert_int_equal(geti(&lb, 0), 1);
    assert_int_equal(geti(&lb, 3), 0);
    /* int64 in (iv[3] is 0) */
    tt lb7 = tvec(AIRC_DTYPE_BOOL, 7);
    AIRC_ASSERT_OK(run_unary("aten.logical_not.default", &x, &lb7, NULL));
    for (int i = 0; i < 7; i++)
        assert_int_equal(geti(&lb7, i), iv[i] == 0);
    tfree(&x), tfree(&b), tfree(&bo), tfree(&u), tfree(&uo), tfree(&f), tfree(&i32);
    tfree(&f5), tfree(&i5), tfree(&lf), tfree(&lb), tfree(&lb2), tfree(&lb7);
}

static void test_unary_params(void **state)
{
    (void)state;
    tt x = tvec(AIRC_DTYPE_F32, 6), y = tvec(AIRC_DTYPE_F32, 6);
    static const double xs[] = {-3.0, -0.5, 0.25, 2.0, NAN, -0.0};
    for (int i = 0; i < 6; i++)
        set(&x, i, xs[i]);
    call c;
    cinit(&c, 3);
    arg_t(&c, 0, &x);
    arg_f(&c, 1, -1.0);
    arg_i(&c, 2, 1);
    AIRC_ASSERT_OK(crun(&c, "aten.hardtanh.default", &y));
    static const double ht[] = {-1.0, -0.5, 0.25, 1.0};
    for (int i = 0; i < 4; i++)
        assert_true(get(&y, i) == ht[i]);
    assert_true(isnan(get(&y, 4)));
    /* defaults (-1, 1) when the arguments are absent */
    cinit(&c, 1);
    arg_t(&c, 0, &x);
    AIRC_ASSERT_OK(crun(&c, "aten.hardtanh.default", &y));
    assert_true(get(&y, 0) == -1.0 && get(&y, 3) == 1.0);
    cinit(&c, 2);
    arg_t(&c, 0, &x);
    arg_f(&c, 1, 0.2);
    AIRC_ASSERT_OK(crun(&c, "aten.leaky_relu.default", &y));
    assert_true(get(&y, 0) == (double)(-3.0f * 0.2f));
    assert_true(get(&y, 3) == 2.0);
    cinit(&c, 1);
    arg_t(&c, 0, &x);
    AIRC_ASSERT_OK(crun(&c, "aten.leaky_relu.default", &y)); /* default 0.01 */
    assert_true(get(&y, 0) == (double)(-3.0f * 0.01f));
    /* relu/sign of NaN and -0 as torch: relu keeps NaN and -0, sign(NaN) = 0 */
    AIRC_ASSERT_OK(run_unary("aten.relu.default", &x, &y, NULL));
    assert_true(isnan(get(&y, 4)));
    assert_true(get(&y, 5) == 0.0 && signbit(get(&y, 5)));
    AIRC_ASSERT_OK(run_unary("aten.sign.default", &x, &y, NULL));
    assert_true(get(&y, 4) == 0.0);
    AIRC_EXPECT(run_unary("aten.gelu.default", &x, &y, "bogus"), AIRC_E_UNSUPPORTED, "tanh");
    /* hardtanh on integers uses integer bounds */
    tt xi = tvec(AIRC_DTYPE_I32, 3), yi = tvec(AIRC_DTYPE_I32, 3);
    seti(&xi, 0, -10), seti(&xi, 1, 3), seti(&xi, 2, 10);
    cinit(&c, 3);
    arg_t(&c, 0, &xi);
    arg_i(&c, 1, -2);
    arg_i(&c, 2, 5);
    AIRC_ASSERT_OK(crun(&c, "aten.hardtanh_.default", &xi));
    assert_int_equal(geti(&xi, 0), -2);
    assert_int_equal(geti(&xi, 1), 3);
    assert_int_equal(geti(&xi, 2), 5);
    tfree(&x), tfree(&y), tfree(&xi), tfree(&yi);
}

/* ---- tests: torch.special's functions ------------------------------------- */

static bool rel_close(double y, double ref, double rtol)
{
    return fabs(y - ref) <= rtol * fabs(ref);
}

/* I0(x) = (1 / pi) int_0^pi exp(x cos t) dt by Simpson's rule (smooth and
 * periodic: converges fast), the reference from first principles */
static double i0_integral(double x)
{
    const int n = 2000;
    const double pi = 3.14159265358979323846, h = pi / n;
    double s = exp(x) + exp(-x);
    for (int i = 1; i < n; i++)
        s += (i % 2 ? 4 : 2) * exp(x * cos(i * h));
    return s * h / 3 / pi;
}

static void test_special_functions(void **state)
{
    (void)state;
    const double pi = 3.14159265358979323846;
    /* erfcx: the product where both factors are exact enough, continuity at
     * the switch to the asymptotic series, the -inf / inf / NaN ends */
    for (double x = -5; x <= 5; x += 0.37)
        assert_true(rel_close(airc_erfcx(x), exp(x * x) * erfc(x), 1e-13));
    assert_true(rel_close(airc_erfcx(24.999999), airc_erfcx(25.000001), 1e-6));
    assert_true(rel_close(airc_erfcx(1e10), 1 / (1e10 * sqrt(pi)), 1e-15));
    assert_true(airc_erfcx(INFINITY) == 0 && isinf(airc_erfcx(-30)) && isnan(airc_erfcx(NAN)));
    /* log_ndtr and ndtri are inverse (up to x = 5: beyond, p rounds next to
     * 1 and 1 - p keeps too few digits); ndtri's known quantiles and edges */
    for (double x = -37; x <= 5; x += 0.5)
        assert_true(fabs(airc_ndtri(exp(airc_log_ndtr(x))) - x) <= 1e-9 * (1 + fabs(x)));
    assert_true(rel_close(airc_ndtri(0.975), 1.959963984540054, 1e-14));
    assert_true(rel_close(airc_ndtri(0.025), -1.959963984540054, 1e-14));
    assert_true(airc_ndtri(0.5) == 0 && airc_ndtri(0) == -INFINITY && airc_ndtri(1) == INFINITY);
    assert_true(isnan(airc_ndtri(-0.1)) && isnan(airc_ndtri(1.5)) && isnan(airc_ndtri(NAN)));
    assert_true(rel_close(airc_log_ndtr(0), log(0.5), 1e-15));
    /* I0 against its integral, on both sides of the series' switch at 15 */
    static const double xs[] = {0, 0.1, -1, 2.5, 7, -14.9, 15.1, 30, 60};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        assert_true(rel_close(airc_i0(xs[i]), i0_integral(xs[i]), 1e-12));
        assert_true(rel_close(airc_i0e(xs[i]), i0_integral(xs[i]) * exp(-fabs(xs[i])), 1e-12));
    }
    assert_true(isinf(airc_i0(711)) && isnan(airc_i0(INFINITY)) && airc_i0e(-INFINITY) == 0);
    /* entr */
    assert_true(airc_entr(0) == 0 && airc_entr(-1) == -INFINITY && isnan(airc_entr(NAN)));
    assert_true(rel_close(airc_entr(0.5), 0.5 * log(2.0), 1e-15));
    /* polygamma: trigamma(1) = pi^2 / 6, trigamma(1/4) = pi^2 + 8 G (G
     * Catalan's constant), polygamma(2, 1) = -2 zeta(3), polygamma(3, 1/2)
     * = pi^4; zeta(2, 1) = pi^2 / 6. trigamma is torch's algorithm, six
     * recurrence steps and three series terms: about 1e-9 relative */
    assert_true(rel_close(airc_polygamma(1, 1), pi * pi / 6, 1e-8));
    assert_true(rel_close(airc_polygamma(1, 0.25), pi * pi + 8 * 0.915965594177219015, 1e-8));
    assert_true(rel_close(airc_polygamma(2, 1), -2.4041138063191885, 1e-14));
    assert_true(rel_close(airc_polygamma(3, 0.5), pi * pi * pi * pi, 1e-13));
    assert_true(rel_close(airc_zeta(2, 1), pi * pi / 6, 1e-15));
    /* the reflection below 1/2: trigamma(1 - x) + trigamma(x) = pi^2 / sin^2(pi x) */
    double s = sin(pi * -0.3);
    assert_true(
        rel_close(airc_polygamma(1, -0.3) + airc_polygamma(1, 1.3), pi * pi / (s * s), 1e-8));
    assert_true(airc_polygamma(0, 1) == airc_digamma(1));
    assert_true(isinf(airc_zeta(3, -2)) && isnan(airc_zeta(0.5, 1)) && isinf(airc_zeta(1, 2)));
    /* igamma / igammac: P(1, x) = 1 - exp(-x), P(1/2, x) = erf(sqrt x),
     * P + Q = 1, and torch's edges */
    for (double x = 0.01; x < 40; x *= 1.7) {
        assert_true(rel_close(airc_igamma(1, x), -expm1(-x), 1e-13));
        assert_true(rel_close(airc_igammac(1, x), exp(-x), 1e-12));
        assert_true(rel_close(airc_igamma(0.5, x), erf(sqrt(x)), 1e-13));
        assert_true(fabs(airc_igamma(3.7, x) + airc_igammac(3.7, x) - 1) < 1e-14);
    }
    assert_true(airc_igamma(0, 2) == 1 && isnan(airc_igamma(0, 0)) && airc_igamma(2, 0) == 0);
    assert_true(airc_igammac(0, 2) == 0 && airc_igammac(2, 0) == 1);
    assert_true(airc_igamma(INFINITY, 3) == 0 && isnan(airc_igamma(INFINITY, INFINITY)));
    assert_true(airc_igamma(3, INFINITY) == 1 && airc_igammac(3, INFINITY) == 0);
    assert_true(isnan(airc_igamma(-1, 1)) && isnan(airc_igammac(1, -1)));
    /* torch's f32 trigamma next to a pole: float pi makes it finite */
    float t = airc_trigammaf(-1.0f);
    assert_true(isfinite(t) && t > 1e14f);
}

/* The kernels: polygamma's tensor is its second argument (polygamma_'s its
 * first); angle and rad2deg of integers; ndtri in f32 */
/* torch.special's Bessel functions against known values (mpmath's), and
 * torch's edges: the poles and NaN domains, inf, NaN. Torch's (Cephes')
 * approximations, which airc follows, are good to about 1e-8 relative past
 * 5 (airy's below -2.09): the sweep compares with torch itself. */
static void test_bessel_functions(void **state)
{
    (void)state;
    static const struct {
        double (*f)(double);
        double x, want;
    } known[] = {
        {airc_bessel_j0_f64, 1, 0.7651976865579666},
        {airc_bessel_j0_f64, -7.5, 0.2663396578803784},
        {airc_bessel_j1_f64, 1, 0.4400505857449335},
        {airc_bessel_j1_f64, -7.5, -0.1352484275797055},
        {airc_bessel_y0_f64, 1, 0.08825696421567696},
        {airc_bessel_y0_f64, 7.5, 0.1173132861482086},
        {airc_bessel_y1_f64, 1, -0.7812128213002887},
        {airc_bessel_y1_f64, 7.5, -0.2591285104861163},
        {airc_modified_bessel_i0_f64, 1, 1.2660658777520082},
        {airc_modified_bessel_i0_f64, -10, 2815.716628466254},
        {airc_modified_bessel_i1_f64, 1, 0.5651591039924851},
        {airc_modified_bessel_i1_f64, -10, -2670.988303701255},
        {airc_modified_bessel_k0_f64, 1, 0.42102443824070834},
        {airc_modified_bessel_k0_f64, 3, 0.03473950438627925},
        {airc_modified_bessel_k1_f64, 1, 0.6019072301972346},
        {airc_modified_bessel_k1_f64, 3, 0.04015643112819418},
        {airc_scaled_modified_bessel_k0_f64, 1, 1.1444630798068949},
        {airc_scaled_modified_bessel_k1_f64, 3, 0.8065634801287869},
        {airc_airy_ai_f64, 0, 0.3550280538878172},
        {airc_airy_ai_f64, 1, 0.1352924163128814},
        {airc_airy_ai_f64, -3, -0.3788142936776580},
        {airc_airy_ai_f64, 5, 1.083444281360744e-04},
        {airc_airy_ai_f64, 10, 1.104753255289869e-10},
        {airc_spherical_bessel_j0_f64, 0.25, 0.9896158370180917},
        {airc_spherical_bessel_j0_f64, 3, 0.04704000268662240},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        assert_true(rel_close(known[i].f(known[i].x), known[i].want, 1e-7));
    /* f32 computes in float: close to the double within float's rounding */
    assert_true(rel_close(airc_bessel_j0_f32(1), 0.7651976865579666, 1e-6));
    assert_true(rel_close(airc_airy_ai_f32(-3), -0.3788142936776580, 1e-5));
    assert_true(airc_bessel_y0_f64(0) == -INFINITY && isnan(airc_bessel_y0_f64(-1)));
    assert_true(airc_bessel_y1_f32(0) == -INFINITY && isnan(airc_bessel_y1_f32(-INFINITY)));
    assert_true(airc_modified_bessel_k0_f64(0) == INFINITY &&
                isnan(airc_modified_bessel_k0_f64(-2)));
    assert_true(airc_scaled_modified_bessel_k1_f32(-0.0f) == INFINITY &&
                isnan(airc_scaled_modified_bessel_k1_f32(-1)));
    assert_true(isnan(airc_airy_ai_f64(INFINITY)) && isnan(airc_airy_ai_f64(-INFINITY)) &&
                airc_airy_ai_f64(200) == 0 && isnan(airc_airy_ai_f32(NAN)));
    assert_true(airc_spherical_bessel_j0_f64(INFINITY) == 0 &&
                airc_spherical_bessel_j0_f64(0) == 1);
    assert_true(isnan(airc_bessel_j0_f64(NAN)) && isnan(airc_modified_bessel_i1_f64(NAN)));
    assert_true(isinf(airc_modified_bessel_i0_f64(800)) && airc_modified_bessel_k0_f64(800) == 0);
}

/* The polynomials against their closed forms, and torch's edges: n < 0 is
 * 0, a NaN / infinite / huge degree (torch's int64 cast) 0, |x| == 1 (the
 * shifted ones' x == 1 and 0), NaN, the closed forms past n > 4 / 6 / 8 */
static void test_orthogonal_polynomials(void **state)
{
    (void)state;
    airc_status st = AIRC_OK;
    const double x = 0.3, t = acos(x), y = 2 * x - 1;
    assert_true(rel_close(airc_chebyshev_t_f64(x, 5, &st), cos(5 * t), 1e-13));
    assert_true(rel_close(airc_chebyshev_t_f64(x, 100, &st), cos(100 * t), 1e-12));
    assert_true(rel_close(airc_chebyshev_u_f64(x, 4, &st), sin(5 * t) / sin(t), 1e-13));
    assert_true(rel_close(airc_chebyshev_v_f64(x, 3, &st), cos(3.5 * t) / cos(t / 2), 1e-13));
    assert_true(rel_close(airc_chebyshev_w_f64(x, 12, &st), sin(12.5 * t) / sin(t / 2), 1e-12));
    assert_true(rel_close(airc_shifted_chebyshev_t_f64(x, 4, &st), cos(4 * acos(y)), 1e-13));
    assert_true(rel_close(airc_shifted_chebyshev_u_f64(x, 3, &st), 8 * y * y * y - 4 * y, 1e-13));
    assert_true(rel_close(airc_hermite_h_f64(x, 3, &st), 8 * x * x * x - 12 * x, 1e-13));
    assert_true(rel_close(airc_hermite_he_f64(x, 3, &st), x * x * x - 3 * x, 1e-13));
    assert_true(rel_close(airc_laguerre_l_f64(x, 2, &st), (x * x - 4 * x + 2) / 2, 1e-13));
    assert_true(rel_close(airc_legendre_p_f64(x, 2, &st), (3 * x * x - 1) / 2, 1e-13));
    assert_true(rel_close(airc_chebyshev_t_f64(3, 4, &st), 577, 1e-15)); /* |x| > 1: recurrence */
    /* edges */
    assert_true(airc_chebyshev_t_f64(x, -1, &st) == 0 && airc_legendre_p_f32(x, -3, &st) == 0);
    assert_true(airc_hermite_h_f64(x, NAN, &st) == 0 &&
                airc_laguerre_l_f64(x, INFINITY, &st) == 0 &&
                airc_chebyshev_u_f32(0.5f, 1e30f, &st) == 0);
    assert_true(airc_chebyshev_t_f64(2.5, 3.9, &st) == airc_chebyshev_t_f64(2.5, 3, &st));
    assert_true(airc_chebyshev_t_f64(-1, 3, &st) == -1 && airc_chebyshev_u_f64(-1, 3, &st) == -4 &&
                airc_chebyshev_v_f64(-1, 3, &st) == -7 && airc_chebyshev_w_f64(1, 3, &st) == 7);
    assert_true(airc_shifted_chebyshev_v_f64(0, 4, &st) == 9 &&
                airc_shifted_chebyshev_w_f64(1, 2, &st) == 5);
    assert_true(airc_legendre_p_f64(-1, 5, &st) == -1 && airc_laguerre_l_f64(0, 7, &st) == 1);
    assert_true(airc_chebyshev_t_f64(NAN, 0, &st) == 1 &&
                isnan(airc_chebyshev_t_f64(NAN, 5, &st)) &&
                isnan(airc_hermite_he_f64(NAN, 4, &st)));
    /* x = inf: inf * inf - 1 is inf, then inf - inf NaN (torch's recurrence) */
    assert_true(airc_chebyshev_t_f64(INFINITY, 2, &st) == INFINITY &&
                isnan(airc_chebyshev_t_f64(INFINITY, 3, &st)));
    /* float overflows where double does not: H_100(0.3) is NaN in f32 */
    assert_true(isnan(airc_hermite_h_f32(0.3f, 100, &st)) &&
                isfinite(airc_hermite_h_f64(0.3, 100, &st)));
    assert_true(isnan(airc_hermite_he_f64(0.3, 1e15, &st)) && st == AIRC_OK);
    /* a recurrence past 2^20 steps is refused (torch's would run on) */
    assert_true(isnan(airc_legendre_p_f64(0.3, 1e15, &st)) && st == AIRC_E_UNSUPPORTED);
    st = AIRC_OK;
    assert_true(isnan(airc_chebyshev_t_f64(1e10, 1e15, &st)) && st == AIRC_OK); /* NaN early */
    assert_true(airc_chebyshev_t_f64(0.3, 1e15, &st) == cos(1e15 * t) && st == AIRC_OK);
}

static void test_special_kernels(void **state)
{
    (void)state;
    const double pi = 3.14159265358979323846;
    tt x = tvec(AIRC_DTYPE_F32, 4), y = tvec(AIRC_DTYPE_F32, 4);
    static const double xv[] = {1.0, 0.5, -0.5, 7.5};
    for (int i = 0; i < 4; i++)
        set(&x, i, xv[i]);
    call c;
    cinit(&c, 2);
    arg_i(&c, 0, 2);
    arg_t(&c, 1, &x);
    AIRC_ASSERT_OK(crun(&c, "aten.polygamma.default", &y));
    for (int i = 0; i < 4; i++)
        assert_true(close_f32(get(&y, i), airc_polygamma(2, xv[i]), 1e-6, 1e-7));
    cinit(&c, 2);
    arg_t(&c, 0, &x);
    arg_i(&c, 1, 1);
    AIRC_ASSERT_OK(crun(&c, "aten.polygamma_.default", &x)); /* in place */
    for (int i = 0; i < 4; i++)
        assert_true(close_f32(get(&x, i), airc_polygamma(1, xv[i]), 1e-6, 1e-7));
    tt n = tvec(AIRC_DTYPE_I64, 4);
    static const int64_t nv[] = {-3, 0, 2, INT64_MIN};
    for (int i = 0; i < 4; i++)
        seti(&n, i, nv[i]);
    AIRC_ASSERT_OK(run_unary("aten.angle.default", &n, &y, NULL));
    assert_true(get(&y, 0) == (float)pi && get(&y, 1) == 0 && get(&y, 2) == 0 &&
                get(&y, 3) == (float)pi);
    AIRC_ASSERT_OK(run_unary("aten.rad2deg.default", &n, &y, NULL));
    assert_true(get(&y, 2) == 2.0f * (float)(180.0 / pi));
    static const double pv[] = {0.975, 1e-30, 0.0, 1.0};
    for (int i = 0; i < 4; i++)
        set(&x, i, pv[i]);
    AIRC_ASSERT_OK(run_unary("aten.special_ndtri.default", &x, &y, NULL));
    assert_true(close_f32(get(&y, 0), 1.959963984540054, 1e-6, 0));
    assert_true(close_f32(get(&y, 1), airc_ndtri((double)(float)1e-30), 1e-6, 0));
    assert_true(get(&y, 2) == -INFINITY && get(&y, 3) == INFINITY);
    tfree(&x), tfree(&y), tfree(&n);
}

/* ---- tests: casts --------------------------------------------------------- */

static void test_casts(void **state)
{
    (void)state;
    /* f32 -> f16 / bf16 bits, from PyTorch 1.13 */
    static const float fv[] = {0.0f, -0.0f, 1.0f, -2.5f, 0.1f, 65504.0f, 65519.0f, 65520.0f,
                               1e-8f, 6e-8f, 3e-5f, 1.0009765625f, 1.00048828125f,
                               1.00146484375f, INFINITY, -INFINITY, 1e10f,
                               3.3895313892515355e38f, 1.00390625f, 1.01171875f};
    static const uint16_t f16[] = {0x0000, 0x8000, 0x3c00, 0xc100, 0x2e66, 0x7bff, 0x7bff,
                                   0x7c00, 0x0000, 0x0001, 0x01f7, 0x3c01, 0x3c00, 0x3c02,
                                   0x7c00, 0xfc00, 0x7c00, 0x7c00, 0x3c04, 0x3c0c};
    static const uint16_t bf16[] = {0x0000, 0x8000, 0x3f80, 0xc020, 0x3dcd, 0x4780, 0x4780,
                                    0x4780, 0x322c, 0x3381, 0x37fc, 0x3f80, 0x3f80, 0x3f80,
                                    0x7f80, 0xff80, 0x5015, 0x7f7f, 0x3f80, 0x3f82};
    int64_t n = 20;
    tt x = tvec(AIRC_DTYPE_F32, n), h = tvec(AIRC_DTYPE_F16, n), b = tvec(AIRC_DTYPE_BF16, n);
    for (int i = 0; i < n; i++)
        set(&x, i, fv[i]);
    AIRC_ASSERT_OK(run_unary("aten._to_copy.default", &x, &h, NULL));
    AIRC_ASSERT_OK(run_unary("aten.to.dtype", &x, &b, NULL));
    for (int i = 0; i < n; i++) {
        assert_int_equal(((uint16_t *)h.v.data)[i], f16[i]);
        assert_int_equal(((uint16_t *)b.v.data)[i], bf16[i]);
    }
    /* f16 -> f32 round trip: every finite half is exact in f32 */
    for (uint32_t bits = 0; bits < 0x10000; bits++) {
        float f = airc_f16_to_f32((uint16_t)bits);
        if (isnan(f))
            assert_true((bits & 0x7c00) == 0x7c00 && (bits & 0x3ff));
        else
            assert_int_equal(airc_f32_to_f16(f), bits);
    }
    assert_true(isnan(airc_f16_to_f32(airc_f32_to_f16(NAN))));
    assert_true(isnan(airc_bf16_to_f32(airc_f32_to_bf16(NAN))));
    /* floats -> integers (PyTorch 1.13 on x86) */
    static const double fi[] = {3.7, -3.7, 300.0, NAN};
    tt xf = tvec(AIRC_DTYPE_F32, 4), u8 = tvec(AIRC_DTYPE_U8, 4), i8 = tvec(AIRC_DTYPE_I8, 4);
    for (int i = 0; i < 4; i++)
        set(&xf, i, fi[i]);
    AIRC_ASSERT_OK(run_unary("aten._to_copy.default", &xf, &u8, NULL));
    AIRC_ASSERT_OK(run_unary("aten._to_copy.default", &xf, &i8, NULL));
    static const int64_t u8_want[] = {3, 253, 44, 0}, i8_want[] = {3, -3, 44, 0};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(geti(&u8, i), u8_want[i]);
        assert_int_equal(geti(&i8, i), i8_want[i]);
    }
    static const double big[] = {3e9, NAN, 1e20, -2147483648.0};
    tt xb = tvec(AIRC_DTYPE_F64, 4), i32 = tvec(AIRC_DTYPE_I32, 4), i64 = tvec(AIRC_DTYPE_I64, 4);
    for (int i = 0; i < 4; i++)
        set(&xb, i, big[i]);
    AIRC_ASSERT_OK(run_unary("aten.to.dtype", &xb, &i32, NULL));
    AIRC_ASSERT_OK(run_unary("aten.to.dtype", &xb, &i64, NULL));
    for (int i = 0; i < 4; i++)
        assert_true(geti(&i32, i) == INT32_MIN);
    assert_true(geti(&i64, 0) == 3000000000LL);
    assert_true(geti(&i64, 1) == INT64_MIN && geti(&i64, 2) == INT64_MIN);
    /* integers: wrap to narrower types; int64 -> f32 rounds once */
    static const int64_t iv[] = {-1, 256, 65535, -129};
    tt xi = tvec(AIRC_DTYPE_I64, 4);
    for (int i = 0; i < 4; i++)
        seti(&xi, i, iv[i]);
    AIRC_ASSERT_OK(run_unary("aten.to.dtype_layout", &xi, &u8, NULL));
    AIRC_ASSERT_OK(run_unary("aten.to.device", &xi, &i8, NULL));
    static const int64_t u8w[] = {255, 0, 255, 127}, i8w[] = {-1, 0, -1, 127};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(geti(&u8, i), u8w[i]);
        assert_int_equal(geti(&i8, i), i8w[i]);
    }
    seti(&xi, 0, (1LL << 53) + 1);
    seti(&xi, 1, INT64_MAX);
    seti(&xi, 2, (1LL << 24) + 1);
    seti(&xi, 3, (1LL << 40) + (1LL << 16) + 1); /* just above a float tie: rounds up */
    tt xo = tvec(AIRC_DTYPE_F32, 4), xd = tvec(AIRC_DTYPE_F64, 4), back = tvec(AIRC_DTYPE_I64, 4);
    AIRC_ASSERT_OK(run_unary("aten._to_copy.default", &xi, &xo, NULL));
    assert_true(get(&xo, 2) == 16777216.0);
    assert_true(get(&xo, 3) == (double)(float)((1LL << 40) + (1LL << 16) + 1));
    assert_true(get(&xo, 3) == 1099511758848.0);
    AIRC_ASSERT_OK(run_unary("aten._to_copy.default", &xi, &back, NULL)); /* i64 -> i64 exact */
    assert_true(geti(&back, 0) == (1LL << 53) + 1 && geti(&back, 1) == INT64_MAX);
    AIRC_ASSERT_OK(run_unary("aten._to_copy.default", &xi, &xd, NULL));
    assert_true(get(&xd, 0) == 9007199254740992.0);
    /* bool: != 0, NaN is true */
    static const double bv[] = {0.2, 0.0, NAN, -0.0};
    tt bb = tvec(AIRC_DTYPE_BOOL, 4);
    for (int i = 0; i < 4; i++)
        set(&xf, i, bv[i]);
    AIRC_ASSERT_OK(run_unary("aten._to_copy.default", &xf, &bb, NULL));
    assert_int_equal(geti(&bb, 0), 1);
    assert_int_equal(geti(&bb, 1), 0);
    assert_int_equal(geti(&bb, 2), 1);
    assert_int_equal(geti(&bb, 3), 0);
    AIRC_ASSERT_OK(run_unary("aten._to_copy.default", &bb, &xd, NULL));
    assert_true(get(&xd, 0) == 1.0 && get(&xd, 1) == 0.0);
    /* every dtype pair on small integers (exact everywhere), permuted out */
    static const airc_dtype all[] = {AIRC_DTYPE_F32, AIRC_DTYPE_F64, AIRC_DTYPE_F16,
                                     AIRC_DTYPE_BF16, AIRC_DTYPE_I64, AIRC_DTYPE_I32,
                                     AIRC_DTYPE_I16,  AIRC_DTYPE_I8,  AIRC_DTYPE_U8,
                                     AIRC_DTYPE_BOOL};
    int64_t shape[2] = {5, 7};
    static const int tr[2] = {1, 0};
    for (int s = 0; s < 10; s++) {
        for (int d = 0; d < 10; d++) {
            tt src = tmake(all[s], 2, shape, d % 2 ? tr : NULL, 1);
            tt dst = tmake(all[d], 2, shape, d % 2 ? NULL : tr, s % 3 ? 1 : 2);
            for (int64_t i = 0; i < 35; i++)
                set(&src, i, all[s] == AIRC_DTYPE_BOOL ? (double)(i % 3 == 0)
                             : all[s] == AIRC_DTYPE_U8 ? (double)(i * 7 % 100)
                                                       : (double)(i % 50 - 20));
            AIRC_ASSERT_OK(run_unary("aten._to_copy.default", &src, &dst, NULL));
            for (int64_t i = 0; i < 35; i++) {
                double want = get(&src, i);
                if (all[d] == AIRC_DTYPE_BOOL)
                    want = want != 0;
                else if (all[d] == AIRC_DTYPE_U8 && want < 0)
                    want += 256;
                if (get(&dst, i) != want)
                    fail_msg("%s -> %s at %lld: %g, want %g", airc_dtype_name(all[s]),
                             airc_dtype_name(all[d]), (long long)i, get(&dst, i), want);
            }
            tfree(&src), tfree(&dst);
        }
    }
    tfree(&x), tfree(&h), tfree(&b), tfree(&xf), tfree(&u8), tfree(&i8), tfree(&xb);
    tfree(&i32), tfree(&i64), tfree(&xi), tfree(&xo), tfree(&xd), tfree(&back), tfree(&bb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_iter),
        cmocka_unit_test(test_unary_accuracy_f32),
        cmocka_unit_test(test_unary_accuracy_f64),
        cmocka_unit_test(test_pow_accuracy),
        cmocka_unit_test(test_gelu_ulp),
        cmocka_unit_test(test_unary_layouts),
        cmocka_unit_test(test_unary_inplace),
        cmocka_unit_test(test_unary_dtypes),
        cmocka_unit_test(test_unary_params),
        cmocka_unit_test(test_casts),
        cmocka_unit_test(test_special_functions),
        cmocka_unit_test(test_special_kernels),
        cmocka_unit_test(test_bessel_functions),
        cmocka_unit_test(test_orthogonal_polynomials),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
