/* Host tensors and .npy files: numpy-written fixtures (tests/data/npy, made
 * by tests/gen_npy_fixtures.py), byte-exact writes, round trips, every
 * malformed input we could think of, and allocation failure. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[64];

static const char *fixture(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/npy/%s", AIRC_TEST_DATA, name);
    return path;
}

static const char *tmpfile_path(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return path;
}

static int setup(void **state)
{
    (void)state;
    strcpy(tmpdir, "/tmp/airc_test_npy_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static airc_context *new_ctx(void)
{
    airc_context *ctx = NULL;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    return ctx;
}

static airc_tensor *read_fixture(airc_context *ctx, const char *name)
{
    airc_tensor *t = NULL;
    AIRC_ASSERT_OK(airc_npy_read(ctx, fixture(name), &t));
    assert_non_null(t);
    assert_int_equal((uintptr_t)airc_tensor_data(t) % 64, 0);
    return t;
}

static void assert_shape(const airc_tensor *t, airc_dtype dtype, int32_t ndim,
                         const int64_t *shape)
{
    assert_int_equal(airc_tensor_dtype(t), dtype);
    assert_int_equal(airc_tensor_ndim(t), ndim);
    size_t numel = 1;
    for (int32_t i = 0; i < ndim; i++) {
        assert_int_equal(airc_tensor_shape(t)[i], shape[i]);
        numel *= (size_t)shape[i];
    }
    assert_int_equal(airc_tensor_numel(t), numel);
    assert_int_equal(airc_tensor_nbytes(t), numel * airc_dtype_size(dtype));
}

/* ---- reading numpy's files ------------------------------------------------ */

static void test_read_every_dtype(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();

    airc_tensor *t = read_fixture(ctx, "f4_2x3.npy");
    assert_shape(t, AIRC_DTYPE_F32, 2, (int64_t[]){2, 3});
    const float *f = airc_tensor_data(t);
    assert_true(f[0] == 0.0f && f[1] == 1.5f && f[2] == -2.25f);
    assert_true(isinf(f[3]) && f[3] > 0 && isinf(f[4]) && f[4] < 0);
    assert_true(f[5] == 3.4028234663852886e38f); /* FLT_MAX */
    airc_tensor_destroy(t);

    t = read_fixture(ctx, "f8_3.npy");
    assert_shape(t, AIRC_DTYPE_F64, 1, (int64_t[]){3});
    const double *d = airc_tensor_data(t);
    assert_true(d[0] == 1e-300);
    assert_true(d[1] == 0.0 && signbit(d[1]));
    assert_true(isnan(d[2]));
    airc_tensor_destroy(t);

    /* IEEE half bits: 0.5 = 0x3800, -1 = 0xbc00, 65504 = 0x7bff, 2^-24 = 0x0001 */
    t = read_fixture(ctx, "f2_4.npy");
    assert_shape(t, AIRC_DTYPE_F16, 1, (int64_t[]){4});
    const uint16_t *h = airc_tensor_data(t);
    assert_int_equal(h[0], 0x3800);
    assert_int_equal(h[1], 0xbc00);
    assert_int_equal(h[2], 0x7bff);
    assert_int_equal(h[3], 0x0001);
    airc_tensor_destroy(t);

    t = read_fixture(ctx, "i8_2x2.npy");
    assert_shape(t, AIRC_DTYPE_I64, 2, (int64_t[]){2, 2});
    const int64_t *l = airc_tensor_data(t);
    assert_true(l[0] == INT64_MIN && l[1] == -1 && l[2] == 0 && l[3] == INT64_MAX);
    airc_tensor_destroy(t);

    t = read_fixture(ctx, "i4_3.npy");
    assert_shape(t, AIRC_DTYPE_I32, 1, (int64_t[]){3});
    const int32_t *i = airc_tensor_data(t);
    assert_true(i[0] == INT32_MIN && i[1] == 7 && i[2] == INT32_MAX);
    airc_tensor_destroy(t);

    t = read_fixture(ctx, "i2_2.npy");
    assert_shape(t, AIRC_DTYPE_I16, 1, (int64_t[]){2});
    const int16_t *s = airc_tensor_data(t);
    assert_true(s[0] == INT16_MIN && s[1] == INT16_MAX);
    airc_tensor_destroy(t);

    t = read_fixture(ctx, "i1_4.npy");
    assert_shape(t, AIRC_DTYPE_I8, 1, (int64_t[]){4});
    const int8_t *c = airc_tensor_data(t);
    assert_true(c[0] == -128 && c[1] == -1 && c[2] == 0 && c[3] == 127);
    airc_tensor_destroy(t);

    t = read_fixture(ctx, "u1_3x1x2.npy");
    assert_shape(t, AIRC_DTYPE_U8, 3, (int64_t[]){3, 1, 2});
    const uint8_t *u = airc_tensor_data(t);
    for (int k = 0; k < 6; k++)
        assert_int_equal(u[k], 5 + 50 * k);
    airc_tensor_destroy(t);

    t = read_fixture(ctx, "b1_2x2.npy");
    assert_shape(t, AIRC_DTYPE_BOOL, 2, (int64_t[]){2, 2});
    const uint8_t *b = airc_tensor_data(t);
    assert_true(b[0] == 1 && b[1] == 0 && b[2] == 0 && b[3] == 1);
    airc_tensor_destroy(t);

    t = read_fixture(ctx, "scalar_f8.npy");
    assert_shape(t, AIRC_DTYPE_F64, 0, NULL);
    assert_int_equal(airc_tensor_numel(t), 1);
    assert_true(*(const double *)airc_tensor_data(t) == 3.5);
    airc_tensor_destroy(t);

    t = read_fixture(ctx, "empty_f4_0x3.npy");
    assert_shape(t, AIRC_DTYPE_F32, 2, (int64_t[]){0, 3});
    assert_int_equal(airc_tensor_nbytes(t), 0);
    assert_non_null(airc_tensor_data(t));
    airc_tensor_destroy(t);

    t = read_fixture(ctx, "dims16_u1.npy");
    assert_int_equal(airc_tensor_ndim(t), 16);
    assert_int_equal(airc_tensor_numel(t), 1);
    assert_int_equal(*(const uint8_t *)airc_tensor_data(t), 9);
    airc_tensor_destroy(t);

    airc_context_destroy(ctx);
}

static void test_read_versions_and_byte_order(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();

    airc_tensor *t = read_fixture(ctx, "v2_i4.npy");
    assert_shape(t, AIRC_DTYPE_I32, 1, (int64_t[]){3});
    const int32_t *i = airc_tensor_data(t);
    assert_true(i[0] == 1 && i[1] == 2 && i[2] == 3);
    airc_tensor_destroy(t);

    t = read_fixture(ctx, "v3_f4.npy");
    assert_shape(t, AIRC_DTYPE_F32, 2, (int64_t[]){2, 2});
    const float *f = airc_tensor_data(t);
    assert_true(f[0] == 1 && f[1] == 2 && f[2] == 3 && f[3] == 4);
    airc_tensor_destroy(t);

    /* big-endian files are byte-swapped into host order */
    t = read_fixture(ctx, "be_f4.npy");
    assert_shape(t, AIRC_DTYPE_F32, 1, (int64_t[]){2});
    f = airc_tensor_data(t);
    assert_true(f[0] == 1.0f && f[1] == -2.5f);
    airc_tensor_destroy(t);

    t = read_fixture(ctx, "be_i8.npy");
    const int64_t *l = airc_tensor_data(t);
    assert_true(l[0] == 1 && l[1] == -2 && l[2] == 0x0102030405060708LL);
    airc_tensor_destroy(t);

    /* np.load reads the first of two arrays saved into one file */
    t = read_fixture(ctx, "two_arrays.npy");
    assert_shape(t, AIRC_DTYPE_I16, 1, (int64_t[]){2});
    const int16_t *s = airc_tensor_data(t);
    assert_true(s[0] == 10 && s[1] == 20);
    airc_tensor_destroy(t);

    airc_context_destroy(ctx);
}

static void test_refused_numpy_files(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    static const struct {
        const char *file;
        airc_status code;
        const char *needle;
    } cases[] = {
        {"fortran_f4.npy", AIRC_E_UNSUPPORTED, "Fortran"},
        {"c8.npy", AIRC_E_UNSUPPORTED, "'<c8' (complex64)"},
        {"u2.npy", AIRC_E_UNSUPPORTED, "'<u2' (uint16)"},
        {"object.npy", AIRC_E_UNSUPPORTED, "object arrays"},
        {"structured.npy", AIRC_E_UNSUPPORTED, "structured"},
        {"datetime.npy", AIRC_E_UNSUPPORTED, "datetime64"},
        {"dims17_f4.npy", AIRC_E_UNSUPPORTED, "more than 16 dimensions"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        airc_tensor *t = (airc_tensor *)0x1;
        const char *path = fixture(cases[k].file);
        char copy[512];
        snprintf(copy, sizeof copy, "%s", path);
        AIRC_EXPECT(airc_npy_read(ctx, copy, &t), cases[k].code, cases[k].needle);
        assert_ptr_equal(t, (airc_tensor *)0x1); /* out untouched */
        assert_non_null(strstr(airc_last_error(), copy)); /* names the file */
    }
    airc_context_destroy(ctx);
}

/* ---- writing ------------------------------------------------------------- */

static void test_write_matches_numpy(void **state)
{
    (void)state;
    static const char *const files[] = {
        "f4_2x3.npy",   "f8_3.npy",         "f2_4.npy",   "i8_2x2.npy",      "i4_3.npy",
        "i2_2.npy",     "i1_4.npy",         "u1_3x1x2.npy", "b1_2x2.npy",    "scalar_f8.npy",
        "empty_f4_0x3.npy", "dims16_u1.npy",
    };
    airc_context *ctx = new_ctx();
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        airc_tensor *t = read_fixture(ctx, files[k]);
        char out[512];
        snprintf(out, sizeof out, "%s", tmpfile_path(files[k]));
        AIRC_ASSERT_OK(airc_npy_write(t, out));
        size_t n1, n2;
        char *want = airc_test_read_file(fixture(files[k]), &n1);
        char *got = airc_test_read_file(out, &n2);
        assert_non_null(want);
        assert_non_null(got);
        if (n1 != n2 || memcmp(want, got, n1))
            print_error("%s: airc's bytes differ from numpy's\n", files[k]);
        assert_int_equal(n1, n2);
        assert_memory_equal(want, got, n1);
        free(want);
        free(got);
        airc_tensor_destroy(t);
    }
    airc_context_destroy(ctx);
}

static void fill_pattern(airc_tensor *t)
{
    uint8_t *p = airc_tensor_data(t);
    for (size_t i = 0; i < airc_tensor_nbytes(t); i++)
        p[i] = (uint8_t)(i * 37 + 11);
    if (airc_tensor_dtype(t) == AIRC_DTYPE_BOOL)
        for (size_t i = 0; i < airc_tensor_nbytes(t); i++)
            p[i] &= 1;
}

static void test_round_trip_every_dtype(void **state)
{
    (void)state;
    static const airc_dtype dtypes[] = {AIRC_DTYPE_F32, AIRC_DTYPE_F64, AIRC_DTYPE_F16,
                                        AIRC_DTYPE_I64, AIRC_DTYPE_I32, AIRC_DTYPE_I16,
                                        AIRC_DTYPE_I8,  AIRC_DTYPE_U8,  AIRC_DTYPE_BOOL};
    static const struct {
        int32_t ndim;
        int64_t shape[AIRC_MAX_DIMS];
    } shapes[] = {
        {0, {0}},          {1, {5}},       {2, {3, 4}},
        {3, {2, 0, 7}},    {4, {1, 2, 3, 1}},
        {16, {1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3}},
        {1, {1000}}, /* shape[0] with 4 digits: numpy's growth padding shrinks */
    };
    airc_context *ctx = new_ctx();
    for (size_t di = 0; di < sizeof dtypes / sizeof dtypes[0]; di++) {
        for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
            airc_tensor *t = NULL;
            AIRC_ASSERT_OK(
                airc_tensor_create(ctx, dtypes[di], shapes[si].ndim, shapes[si].shape, &t));
            fill_pattern(t);
            const char *path = tmpfile_path("rt.npy");
            AIRC_ASSERT_OK(airc_npy_write(t, path));

            airc_tensor *back = NULL;
            AIRC_ASSERT_OK(airc_npy_read(ctx, path, &back));
            assert_shape(back, dtypes[di], shapes[si].ndim, shapes[si].shape);
            assert_memory_equal(airc_tensor_data(t), airc_tensor_data(back),
                                airc_tensor_nbytes(t));
            airc_tensor_destroy(back);

            /* the same bytes through the buffer reader; header 64-aligned */
            size_t len;
            char *bytes = airc_test_read_file(path, &len);
            assert_int_equal((len - airc_tensor_nbytes(t)) % 64, 0);
            AIRC_ASSERT_OK(airc_npy_read_buffer(ctx, bytes, len, "rt", &back));
            assert_shape(back, dtypes[di], shapes[si].ndim, shapes[si].shape);
            assert_memory_equal(airc_tensor_data(t), airc_tensor_data(back),
                                airc_tensor_nbytes(t));
            airc_tensor_destroy(back);
            free(bytes);
            airc_tensor_destroy(t);
        }
    }
    airc_context_destroy(ctx);
}

static void test_write_errors(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_tensor *t = NULL;
    AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_BF16, 1, (int64_t[]){2}, &t));
    const char *path = tmpfile_path("bf16.npy");
    AIRC_EXPECT(airc_npy_write(t, path), AIRC_E_UNSUPPORTED, "bf16");
    assert_int_equal(access(path, F_OK), -1); /* nothing written */
    airc_tensor_destroy(t);

    AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_F32, 1, (int64_t[]){2}, &t));
    AIRC_EXPECT(airc_npy_write(t, "/nonexistent-airc-dir/x.npy"), AIRC_E_IO,
                "/nonexistent-airc-dir/x.npy");
    AIRC_EXPECT(airc_npy_write(t, NULL), AIRC_E_INVALID_ARGUMENT, NULL);
    AIRC_EXPECT(airc_npy_write(NULL, path), AIRC_E_MISUSE, NULL);
    airc_tensor_destroy(t);
    airc_context_destroy(ctx);
}

/* ---- malformed input ------------------------------------------------------- */

/* Builds a .npy image: magic, version major.minor, a length field holding
 * strlen(header) (or hlen when >= 0), the header text, then dlen data bytes. */
static size_t make_npy(unsigned char *buf, int major, int minor, const char *header, long hlen,
                       const void *data, size_t dlen)
{
    size_t n = strlen(header);
    size_t field = hlen >= 0 ? (size_t)hlen : n;
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major;
    buf[7] = (unsigned char)minor;
    size_t off;
    if (major == 1) {
        buf[8] = (unsigned char)(field & 0xff);
        buf[9] = (unsigned char)(field >> 8);
        off = 10;
    } else {
        for (int i = 0; i < 4; i++)
            buf[8 + i] = (unsigned char)(field >> (8 * i));
        off = 12;
    }
    memcpy(buf + off, header, n);
    if (dlen)
        memcpy(buf + off + n, data, dlen);
    return off + n + dlen;
}

static const unsigned char zeros[64];

static void expect_header(airc_context *ctx, const char *header, size_t dlen, airc_status code,
                          const char *needle)
{
    unsigned char buf[4096];
    size_t len = make_npy(buf, 1, 0, header, -1, zeros, dlen);
    airc_tensor *t = NULL;
    airc_status st = airc_npy_read_buffer(ctx, buf, len, "bad.npy", &t);
    if (st != code)
        print_error("header: %s\n", header);
    AIRC_EXPECT(st, code, needle);
    if (code != AIRC_OK) {
        assert_null(t);
        assert_non_null(strstr(airc_last_error(), "bad.npy"));
    }
    airc_tensor_destroy(t);
}

static void test_malformed_headers(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    static const struct {
        const char *header;
        size_t dlen;
        airc_status code;
        const char *needle;
    } cases[] = {
        /* key order and spacing are free; the trailing comma is optional */
        {"{ 'shape':(2,) ,\"fortran_order\" :False,'descr':'<i2'}\n", 4, AIRC_OK, NULL},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': ()}", 4, AIRC_OK, NULL},
        {"{'descr':'=f4','fortran_order':False,'shape':(1,),}", 4, AIRC_OK, NULL},
        {"{'descr':'<u1','fortran_order':False,'shape':(1,),}", 1, AIRC_OK, NULL},
        {"{'descr':'>u1','fortran_order':False,'shape':(1,),}", 1, AIRC_OK, NULL},
        {"{'descr':'|b1','fortran_order':False,'shape':(2L, 3L),}", 6, AIRC_OK, NULL},
        {"{'descr':'<f4','fortran_order':True,'shape':(3,),}", 12, AIRC_OK, NULL},
        {"{'descr':'<f4','fortran_order':True,'shape':(1, 3, 1),}", 12, AIRC_OK, NULL},
        {"{'descr':'<f4','fortran_order':False,'shape':(0, 4611686018427387904),}", 0, AIRC_OK,
         NULL},
        /* not a dict / bad syntax */
        {"", 0, AIRC_E_PARSE, "expected '{'"},
        {"[1, 2]", 0, AIRC_E_PARSE, "expected '{'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)", 8, AIRC_E_PARSE,
         "expected ',' or '}'"},
        {"{'descr': '<f4' 'fortran_order': False, 'shape': (2,)}", 8, AIRC_E_PARSE,
         "expected ',' or '}'"},
        {"{'descr' '<f4', 'fortran_order': False, 'shape': (2,)}", 8, AIRC_E_PARSE,
         "expected ':'"},
        {"{descr: '<f4', 'fortran_order': False, 'shape': (2,)}", 8, AIRC_E_PARSE, "key string"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} x", 8, AIRC_E_PARSE, "padding"},
        {"{'descr': '<f\\x34', 'fortran_order': False, 'shape': (2,)}", 8, AIRC_E_PARSE,
         "escape"},
        {"{'descr': '<f4, 'fortran_order': False, 'shape': (2,)}", 8, AIRC_E_PARSE, NULL},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", 8, AIRC_E_PARSE,
         "unexpected key 'x'"},
        {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", 8,
         AIRC_E_PARSE, "duplicate key 'descr'"},
        {"{'descr': '<f4', 'fortran_order': False}", 8, AIRC_E_PARSE, "missing key 'shape'"},
        {"{'shape': (2,), 'fortran_order': False}", 8, AIRC_E_PARSE, "missing key 'descr'"},
        {"{'descr': '<f4', 'shape': (2,)}", 8, AIRC_E_PARSE, "missing key 'fortran_order'"},
        {"{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}", 8, AIRC_E_PARSE, "True or False"},
        {"{'descr': '<f4', 'fortran_order': Falsey, 'shape': (2,)}", 8, AIRC_E_PARSE,
         "True or False"},
        /* shapes */
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2)}", 8, AIRC_E_PARSE,
         "not a tuple"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': [2, 3]}", 24, AIRC_E_PARSE,
         "expected a tuple"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3}", 24, AIRC_E_PARSE,
         "expected ',' or ')'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,,)}", 8, AIRC_E_PARSE,
         "expected a dimension"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 3)}", 8, AIRC_E_PARSE,
         "negative dimension -1"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2.5,)}", 8, AIRC_E_PARSE, NULL},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (9223372036854775808,)}", 8,
         AIRC_E_PARSE, "exceeds int64"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, "
         "4611686018427387904)}",
         8, AIRC_E_PARSE, "too large"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (9223372036854775807,)}", 8,
         AIRC_E_PARSE, "too large"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': "
         "(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1)}",
         4, AIRC_E_UNSUPPORTED, "more than 16 dimensions"},
        /* dtypes */
        {"{'descr': '<c8', 'fortran_order': False, 'shape': (1,)}", 8, AIRC_E_UNSUPPORTED,
         "'<c8' (complex64)"},
        {"{'descr': '<c16', 'fortran_order': False, 'shape': (1,)}", 16, AIRC_E_UNSUPPORTED,
         "complex128"},
        {"{'descr': '<u8', 'fortran_order': False, 'shape': (1,)}", 8, AIRC_E_UNSUPPORTED,
         "uint64"},
        {"{'descr': '|S5', 'fortran_order': False, 'shape': (1,)}", 5, AIRC_E_UNSUPPORTED,
         "byte string"},
        {"{'descr': '<U3', 'fortran_order': False, 'shape': (1,)}", 12, AIRC_E_UNSUPPORTED,
         "unicode"},
        {"{'descr': '|O', 'fortran_order': False, 'shape': (1,)}", 8, AIRC_E_UNSUPPORTED,
         "object arrays"},
        {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}", 4,
         AIRC_E_UNSUPPORTED, "structured"},
        {"{'descr': '', 'fortran_order': False, 'shape': (1,)}", 4, AIRC_E_PARSE, "bad descr"},
        {"{'descr': 5, 'fortran_order': False, 'shape': (1,)}", 4, AIRC_E_PARSE,
         "dtype string"},
        /* Fortran order where it changes the layout */
        {"{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3)}", 24, AIRC_E_UNSUPPORTED,
         "Fortran"},
        /* bytes */
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}\x01", 4, AIRC_E_PARSE,
         "byte 0x01"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}\xc3\xa9", 4, AIRC_E_PARSE,
         "not printable"},
        /* data */
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)}", 20, AIRC_E_PARSE,
         "truncated data: expected 24 bytes, got 20"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': ()}", 0, AIRC_E_PARSE,
         "expected 8 bytes, got 0"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        expect_header(ctx, cases[k].header, cases[k].dlen, cases[k].code, cases[k].needle);
    airc_context_destroy(ctx);
}

static void test_malformed_preamble(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    const char *good = "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }";
    int32_t data[2] = {5, -6};
    unsigned char buf[256];
    airc_tensor *t = NULL;

    AIRC_EXPECT(airc_npy_read_buffer(ctx, NULL, 0, "e.npy", &t), AIRC_E_PARSE, "e.npy: ");
    AIRC_EXPECT(airc_npy_read_buffer(ctx, "", 0, NULL, &t), AIRC_E_PARSE, "<buffer>");
    AIRC_EXPECT(airc_npy_read_buffer(ctx, NULL, 5, "x", &t), AIRC_E_INVALID_ARGUMENT, NULL);
    AIRC_EXPECT(airc_npy_read_buffer(ctx, "GIF89a\1\0\0\0\0\0", 12, "x.npy", &t), AIRC_E_PARSE,
                "bad magic");
    AIRC_EXPECT(airc_npy_read_buffer(ctx, "\x93NUMPZ\1\0", 8, "x.npy", &t), AIRC_E_PARSE,
                "bad magic");
    AIRC_EXPECT(airc_npy_read_buffer(ctx, "\x93NUM", 4, "x.npy", &t), AIRC_E_PARSE, "truncated");
    AIRC_EXPECT(airc_npy_read_buffer(ctx, "\x93NUMPY\1", 7, "x.npy", &t), AIRC_E_PARSE,
                "truncated");
    AIRC_EXPECT(airc_npy_read_buffer(ctx, "\x93NUMPY\1\0\x10", 9, "x.npy", &t), AIRC_E_PARSE,
                "truncated npy preamble");
    assert_null(t);

    size_t len = make_npy(buf, 4, 0, good, -1, data, sizeof data);
    AIRC_EXPECT(airc_npy_read_buffer(ctx, buf, len, "x.npy", &t), AIRC_E_UNSUPPORTED,
                "version 4.0");
    len = make_npy(buf, 1, 1, good, -1, data, sizeof data);
    AIRC_EXPECT(airc_npy_read_buffer(ctx, buf, len, "x.npy", &t), AIRC_E_UNSUPPORTED,
                "version 1.1");
    len = make_npy(buf, 0, 0, good, -1, data, sizeof data);
    AIRC_EXPECT(airc_npy_read_buffer(ctx, buf, len, "x.npy", &t), AIRC_E_UNSUPPORTED,
                "version 0.0");
    /* a length field pointing past the end */
    len = make_npy(buf, 1, 0, good, 1000, NULL, 0);
    char want[64];
    snprintf(want, sizeof want, "truncated header: expected 1000 bytes, got %zu", strlen(good));
    AIRC_EXPECT(airc_npy_read_buffer(ctx, buf, len, "x.npy", &t), AIRC_E_PARSE, want);
    len = make_npy(buf, 2, 0, good, 0xffffffffL, NULL, 0);
    AIRC_EXPECT(airc_npy_read_buffer(ctx, buf, len, "x.npy", &t), AIRC_E_PARSE,
                "truncated header");
    assert_null(t);

    /* versions 2 and 3 use a 4-byte length */
    for (int major = 1; major <= 3; major++) {
        len = make_npy(buf, major, 0, good, -1, data, sizeof data);
        AIRC_ASSERT_OK(airc_npy_read_buffer(ctx, buf, len, "ok.npy", &t));
        assert_int_equal(((int32_t *)airc_tensor_data(t))[1], -6);
        airc_tensor_destroy(t);
        t = NULL;
    }

    /* every strict prefix of a valid file fails cleanly */
    len = make_npy(buf, 1, 0, good, -1, data, sizeof data);
    for (size_t k = 0; k < len; k++) {
        airc_status st = airc_npy_read_buffer(ctx, buf, k, "cut.npy", &t);
        assert_int_equal(st, AIRC_E_PARSE);
        assert_null(t);
    }
    airc_context_destroy(ctx);
}

static void test_data_fixups(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    unsigned char buf[256];
    airc_tensor *t = NULL;

    /* '>i4' is swapped: bytes 00 00 01 02 are 258 */
    const unsigned char be[] = {0, 0, 1, 2, 0xff, 0xff, 0xff, 0xfe};
    size_t len = make_npy(buf, 1, 0, "{'descr': '>i4', 'fortran_order': False, 'shape': (2,)}",
                          -1, be, sizeof be);
    AIRC_ASSERT_OK(airc_npy_read_buffer(ctx, buf, len, "be", &t));
    assert_int_equal(((int32_t *)airc_tensor_data(t))[0], 258);
    assert_int_equal(((int32_t *)airc_tensor_data(t))[1], -2);
    airc_tensor_destroy(t);

    /* a bool byte other than 0 reads as 1 */
    const unsigned char bools[] = {0, 1, 2, 255};
    len = make_npy(buf, 1, 0, "{'descr': '|b1', 'fortran_order': False, 'shape': (4,)}", -1,
                   bools, sizeof bools);
    AIRC_ASSERT_OK(airc_npy_read_buffer(ctx, buf, len, "b", &t));
    const uint8_t *b = airc_tensor_data(t);
    assert_true(b[0] == 0 && b[1] == 1 && b[2] == 1 && b[3] == 1);
    airc_tensor_destroy(t);
    airc_context_destroy(ctx);
}

/* Flips bytes of a valid file (deterministically): whatever comes out must
 * be a clean status, never a crash (run under ASan in the sanitizer build). */
static void test_mutations_never_crash(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    size_t len;
    char *orig = airc_test_read_file(fixture("f4_2x3.npy"), &len);
    assert_non_null(orig);
    unsigned char *buf = malloc(len);
    uint32_t seed = 12345;
    for (int round = 0; round < 4000; round++) {
        memcpy(buf, orig, len);
        int flips = 1 + round % 4;
        for (int f = 0; f < flips; f++) {
            seed = seed * 1103515245u + 12345u;
            size_t pos = (seed >> 8) % 128; /* preamble + header */
            seed = seed * 1103515245u + 12345u;
            buf[pos] = (unsigned char)(seed >> 16);
        }
        airc_tensor *t = NULL;
        airc_status st = airc_npy_read_buffer(ctx, buf, len, "m", &t);
        assert_true(st == AIRC_OK || st == AIRC_E_PARSE || st == AIRC_E_UNSUPPORTED);
        assert_true((st == AIRC_OK) == (t != NULL));
        airc_tensor_destroy(t);
    }
    free(buf);
    free(orig);
    airc_context_destroy(ctx);
}

static void test_read_file_errors(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_tensor *t = NULL;
    AIRC_EXPECT(airc_npy_read(ctx, "/nonexistent-airc/x.npy", &t), AIRC_E_NOT_FOUND,
                "/nonexistent-airc/x.npy");
    AIRC_EXPECT(airc_npy_read(ctx, tmpdir, &t), AIRC_E_IO, tmpdir);
    AIRC_EXPECT(airc_npy_read(ctx, NULL, &t), AIRC_E_INVALID_ARGUMENT, NULL);
    AIRC_EXPECT(airc_npy_read(ctx, fixture("f4_2x3.npy"), NULL), AIRC_E_INVALID_ARGUMENT, NULL);
    AIRC_EXPECT(airc_npy_read(NULL, fixture("f4_2x3.npy"), &t), AIRC_E_MISUSE, NULL);
    assert_null(t);

    /* a truncated file: header intact, 4 of 24 data bytes missing */
    size_t len;
    char *bytes = airc_test_read_file(fixture("f4_2x3.npy"), &len);
    const char *path = tmpfile_path("cut.npy");
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, len - 4, f), len - 4);
    fclose(f);
    AIRC_EXPECT(airc_npy_read(ctx, path, &t), AIRC_E_PARSE,
                "truncated data: expected 24 bytes, got 20");
    assert_non_null(strstr(airc_last_error(), path));
    /* cut inside the header */
    f = fopen(path, "wb");
    assert_int_equal(fwrite(bytes, 1, 50, f), 50);
    fclose(f);
    AIRC_EXPECT(airc_npy_read(ctx, path, &t), AIRC_E_PARSE,
                "truncated header: expected 118 bytes, got 40");
    /* a header that claims 4 GB */
    memcpy(bytes, "\x93NUMPY\2\0\xff\xff\xff\xff", 12);
    f = fopen(path, "wb");
    assert_int_equal(fwrite(bytes, 1, len, f), len);
    fclose(f);
    AIRC_EXPECT(airc_npy_read(ctx, path, &t), AIRC_E_PARSE, "truncated header");
    /* a shape that claims terabytes in a small file: refused before allocating */
    unsigned char buf[256];
    len = make_npy(buf, 1, 0,
                   "{'descr': '<f8', 'fortran_order': False, 'shape': (1099511627776,)}", -1,
                   zeros, 16);
    f = fopen(path, "wb");
    assert_int_equal(fwrite(buf, 1, len, f), len);
    fclose(f);
    AIRC_EXPECT(airc_npy_read(ctx, path, &t), AIRC_E_PARSE,
                "expected 8796093022208 bytes, got 16");
    assert_null(t);
    free(bytes);
    airc_context_destroy(ctx);
}

/* ---- tensors -------------------------------------------------------------- */

static void test_tensor_api(void **state)
{
    (void)state;
    airc_test_alloc st;
    airc_allocator a;
    airc_test_alloc_init(&st, &a);
    airc_context *ctx = NULL;
    AIRC_ASSERT_OK(airc_context_create(&a, &ctx));

    airc_tensor *t = NULL;
    AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_F64, 3, (int64_t[]){2, 3, 4}, &t));
    assert_shape(t, AIRC_DTYPE_F64, 3, (int64_t[]){2, 3, 4});
    assert_int_equal((uintptr_t)airc_tensor_data(t) % 64, 0);
    const double *d = airc_tensor_data(t);
    for (int i = 0; i < 24; i++)
        assert_true(d[i] == 0.0);
    airc_tensor_destroy(t);

    AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_BOOL, 0, NULL, &t));
    assert_int_equal(airc_tensor_numel(t), 1);
    assert_int_equal(airc_tensor_nbytes(t), 1);
    airc_tensor_destroy(t);

    /* a zero dim makes any other dim harmless, as in numpy */
    AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_I64, 2, (int64_t[]){INT64_MAX, 0}, &t));
    assert_int_equal(airc_tensor_numel(t), 0);
    assert_non_null(airc_tensor_data(t));
    airc_tensor_destroy(t);

    t = (airc_tensor *)0x1;
    AIRC_EXPECT(airc_tensor_create(ctx, AIRC_DTYPE_F32, 2, (int64_t[]){2, -1}, &t),
                AIRC_E_INVALID_ARGUMENT, "negative");
    AIRC_EXPECT(airc_tensor_create(ctx, AIRC_DTYPE_F32, 17, (int64_t[17]){0}, &t),
                AIRC_E_INVALID_ARGUMENT, "ndim 17");
    AIRC_EXPECT(airc_tensor_create(ctx, AIRC_DTYPE_F32, -1, NULL, &t), AIRC_E_INVALID_ARGUMENT,
                "ndim -1");
    AIRC_EXPECT(airc_tensor_create(ctx, AIRC_DTYPE_F32, 2, NULL, &t), AIRC_E_INVALID_ARGUMENT,
                "shape is NULL");
    AIRC_EXPECT(airc_tensor_create(ctx, 99, 1, (int64_t[]){1}, &t), AIRC_E_INVALID_ARGUMENT,
                "dtype");
    AIRC_EXPECT(airc_tensor_create(ctx, AIRC_DTYPE_UNDEFINED, 1, (int64_t[]){1}, &t),
                AIRC_E_INVALID_ARGUMENT, "dtype");
    AIRC_EXPECT(
        airc_tensor_create(ctx, AIRC_DTYPE_F32, 2, (int64_t[]){INT64_MAX, INT64_MAX}, &t),
        AIRC_E_INVALID_ARGUMENT, "too large");
    AIRC_EXPECT(airc_tensor_create(ctx, AIRC_DTYPE_F64, 1, (int64_t[]){INT64_MAX / 4}, &t),
                AIRC_E_INVALID_ARGUMENT, "too large");
    assert_ptr_equal(t, (airc_tensor *)0x1);
    AIRC_EXPECT(airc_tensor_create(ctx, AIRC_DTYPE_F32, 0, NULL, NULL), AIRC_E_INVALID_ARGUMENT,
                NULL);
    AIRC_EXPECT(airc_tensor_create(NULL, AIRC_DTYPE_F32, 0, NULL, &t), AIRC_E_MISUSE, NULL);

    /* NULL handles read as empty; destroy(NULL) is a no-op */
    assert_int_equal(airc_tensor_dtype(NULL), AIRC_DTYPE_UNDEFINED);
    assert_int_equal(airc_tensor_ndim(NULL), 0);
    assert_null(airc_tensor_shape(NULL));
    assert_int_equal(airc_tensor_numel(NULL), 0);
    assert_int_equal(airc_tensor_nbytes(NULL), 0);
    assert_null(airc_tensor_data(NULL));
    airc_tensor_destroy(NULL);

    /* a tensor keeps its context alive */
    AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_I8, 1, (int64_t[]){3}, &t));
    airc_context_destroy(ctx);
    ((int8_t *)airc_tensor_data(t))[2] = 7;
    airc_tensor_destroy(t);
    assert_int_equal(st.live, 0);
}

/* ---- allocation failure --------------------------------------------------- */

typedef airc_status (*make_fn)(airc_context *ctx, const void *arg, airc_tensor **out);

static airc_status make_buffer(airc_context *ctx, const void *arg, airc_tensor **out)
{
    const char *path = arg;
    size_t len;
    char *bytes = airc_test_read_file(path, &len);
    airc_status st = airc_npy_read_buffer(ctx, bytes, len, path, out);
    free(bytes);
    return st;
}

static airc_status make_file(airc_context *ctx, const void *arg, airc_tensor **out)
{
    return airc_npy_read(ctx, arg, out);
}

static airc_status make_tensor(airc_context *ctx, const void *arg, airc_tensor **out)
{
    (void)arg;
    return airc_tensor_create(ctx, AIRC_DTYPE_F32, 2, (int64_t[]){3, 5}, out);
}

static void oom_loop(make_fn fn, const void *arg)
{
    airc_test_alloc st;
    airc_allocator a;
    airc_test_alloc_init(&st, &a);
    airc_context *ctx = NULL;
    AIRC_ASSERT_OK(airc_context_create(&a, &ctx));
    long base = st.live;
    size_t failures = 0;
    for (size_t k = 1; k < 1000; k++) {
        st.fail_at = st.count + k;
        airc_tensor *t = NULL;
        airc_status s = fn(ctx, arg, &t);
        st.fail_at = 0;
        if (s == AIRC_OK) {
            assert_non_null(t);
            airc_tensor_destroy(t);
            assert_int_equal(st.live, base);
            break;
        }
        assert_int_equal(s, AIRC_E_OUT_OF_MEMORY);
        assert_null(t);
        assert_int_equal(st.live, base);
        failures++;
    }
    assert_true(failures >= 2); /* the struct and the data block at least */
    airc_context_destroy(ctx);
    assert_int_equal(st.live, 0);
}

static void test_failing_allocator(void **state)
{
    (void)state;
    static const char *const files[] = {"f4_2x3.npy", "scalar_f8.npy", "empty_f4_0x3.npy",
                                        "be_i8.npy", "v3_f4.npy"};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s", fixture(files[k]));
        oom_loop(make_buffer, path);
        oom_loop(make_file, path);
    }
    oom_loop(make_tensor, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_every_dtype),
        cmocka_unit_test(test_read_versions_and_byte_order),
        cmocka_unit_test(test_refused_numpy_files),
        cmocka_unit_test(test_write_matches_numpy),
        cmocka_unit_test(test_round_trip_every_dtype),
        cmocka_unit_test(test_write_errors),
        cmocka_unit_test(test_malformed_headers),
        cmocka_unit_test(test_malformed_preamble),
        cmocka_unit_test(test_data_fixups),
        cmocka_unit_test(test_mutations_never_crash),
        cmocka_unit_test(test_read_file_errors),
        cmocka_unit_test(test_tensor_api),
        cmocka_unit_test(test_failing_allocator),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
