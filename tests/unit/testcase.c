/* Case files for the unit tests (testcase.h). */
#include "testcase.h"

#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

airc_tensor *airc_test_clone(airc_context *ctx, const airc_tensor *t)
{
    airc_tensor *c;
    AIRC_ASSERT_OK(airc_tensor_create(ctx, airc_tensor_dtype(t), airc_tensor_ndim(t),
                                      airc_tensor_shape(t), &c));
    memcpy(airc_tensor_data(c), airc_tensor_data(t), airc_tensor_nbytes(t));
    return c;
}

void airc_test_destroy_all(airc_tensor **t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        airc_tensor_destroy(t[i]);
        t[i] = NULL;
    }
}

static bool is_float(airc_dtype d)
{
    return d == AIRC_DTYPE_F32 || d == AIRC_DTYPE_F64 || d == AIRC_DTYPE_F16 ||
           d == AIRC_DTYPE_BF16;
}

static double f16_to_double(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}

static double get_f(const airc_tensor *t, size_t i)
{
    const void *d = airc_tensor_data(t);
    switch (airc_tensor_dtype(t)) {
    case AIRC_DTYPE_F32: return ((const float *)d)[i];
    case AIRC_DTYPE_F64: return ((const double *)d)[i];
    case AIRC_DTYPE_F16: return f16_to_double(((const uint16_t *)d)[i]);
    case AIRC_DTYPE_BF16: {
        uint32_t x = (uint32_t)((const uint16_t *)d)[i] << 16;
        float f;
        memcpy(&f, &x, 4);
        return f;
    }
    default: return NAN;
    }
}

static int64_t get_i(const airc_tensor *t, size_t i)
{
    const void *d = airc_tensor_data(t);
    switch (airc_tensor_dtype(t)) {
    case AIRC_DTYPE_I64: return ((const int64_t *)d)[i];
    case AIRC_DTYPE_I32: return ((const int32_t *)d)[i];
    case AIRC_DTYPE_I16: return ((const int16_t *)d)[i];
    case AIRC_DTYPE_I8: return ((const int8_t *)d)[i];
    case AIRC_DTYPE_U8:
    case AIRC_DTYPE_BOOL: return ((const uint8_t *)d)[i];
    default: return INT64_MIN;
    }
}

bool airc_test_same_values(const airc_tensor *got, const airc_tensor *want, const char *what)
{
    return airc_test_close_values(got, want, 1e-4, what);
}

/* print_error unless `what` is NULL (a quiet check) */
#define MISMATCH(...)                                                                              \
    do {                                                                                           \
        if (what)                                                                                  \
            print_error(__VA_ARGS__);                                                              \
    } while (0)

bool airc_test_close_values(const airc_tensor *got, const airc_tensor *want, double tol,
                            const char *what)
{
    if (!got || !want) {
        MISMATCH("%s: missing tensor\n", what);
        return false;
    }
    if (airc_tensor_dtype(got) != airc_tensor_dtype(want)) {
        MISMATCH("%s: dtype %s, want %s\n", what, airc_dtype_name(airc_tensor_dtype(got)),
                    airc_dtype_name(airc_tensor_dtype(want)));
        return false;
    }
    int32_t nd = airc_tensor_ndim(want);
    bool shape_ok = airc_tensor_ndim(got) == nd;
    for (int32_t d = 0; shape_ok && d < nd; d++)
        shape_ok = airc_tensor_shape(got)[d] == airc_tensor_shape(want)[d];
    if (!shape_ok) {
        MISMATCH("%s: shape differs (ndim %d, want %d)\n", what, (int)airc_tensor_ndim(got),
                    (int)nd);
        return false;
    }
    size_t n = airc_tensor_numel(want);
    if (!is_float(airc_tensor_dtype(want))) {
        for (size_t i = 0; i < n; i++)
            if (get_i(got, i) != get_i(want, i)) {
                MISMATCH("%s: element %zu is %lld, want %lld\n", what, i,
                            (long long)get_i(got, i), (long long)get_i(want, i));
                return false;
            }
        return true;
    }
    double maxabs = 0;
    for (size_t i = 0; i < n; i++) {
        double w = fabs(get_f(want, i));
        if (isfinite(w) && w > maxabs)
            maxabs = w;
    }
    double atol = tol * (1 + maxabs);
    for (size_t i = 0; i < n; i++) {
        double g = get_f(got, i), w = get_f(want, i);
        if (isnan(w) && isnan(g))
            continue;
        if (g == w)
            continue;
        if (!(fabs(g - w) <= atol + tol * fabs(w))) {
            MISMATCH("%s: element %zu is %.9g, want %.9g\n", what, i, g, w);
            return false;
        }
    }
    return true;
}

/* The header is rewritten to C order with the shape reversed, which reads
 * the same bytes as the transpose, and the result is transposed back. */
airc_status airc_test_read_npy(airc_context *ctx, const char *path, airc_tensor **out)
{
    airc_status st = airc_npy_read(ctx, path, out);
    if (st == AIRC_OK || !strstr(airc_last_error(), "Fortran"))
        return st;
    size_t len;
    char *buf = airc_test_read_file(path, &len);
    char *f = buf && len > 10 ? strstr(buf + 10, "'fortran_order': True") : NULL;
    char *nl = f ? strchr(f, '\n') : NULL;
    char *sh = f ? strstr(buf + 10, "'shape': (") : NULL;
    if (!nl || !sh || nl[-1] != ' ') {
        free(buf);
        return st;
    }
    /* "True" -> "False": one padding space less before the newline */
    memmove(f + 22, f + 21, (size_t)(nl - 1 - (f + 21)));
    memcpy(f + 17, "False", 5);
    sh = strstr(buf + 10, "'shape': (") + 10;
    int64_t shape[AIRC_MAX_DIMS];
    int32_t nd = 0;
    char *end = sh;
    while (*end != ')' && nd < AIRC_MAX_DIMS) {
        shape[nd++] = strtoll(end, &end, 10);
        while (*end == ',' || *end == ' ')
            end++;
    }
    char rev[256], *r = rev;
    r += snprintf(r, sizeof rev, "(");
    for (int32_t d = nd - 1; d >= 0; d--)
        r +=
            snprintf(r, sizeof rev - (size_t)(r - rev), d ? "%lld, " : "%lld", (long long)shape[d]);
    snprintf(r, sizeof rev - (size_t)(r - rev), nd == 1 ? ",)" : ")");
    memcpy(sh - 1, rev, strlen(rev)); /* same length: the same numbers */
    airc_tensor *t = NULL;
    st = airc_npy_read_buffer(ctx, buf, len, path, &t);
    free(buf);
    if (st != AIRC_OK)
        return st;
    airc_tensor *c;
    st = airc_tensor_create(ctx, airc_tensor_dtype(t), nd, shape, &c);
    if (st != AIRC_OK) {
        airc_tensor_destroy(t);
        return st;
    }
    size_t es = airc_dtype_size(airc_tensor_dtype(t)), n = airc_tensor_numel(c);
    const char *src = airc_tensor_data(t);
    char *dst = airc_tensor_data(c);
    for (size_t i = 0; i < n; i++) {
        /* C index i of shape -> Fortran offset (first dimension fastest) */
        size_t rest = i, off = 0, mul = 1;
        size_t idx[AIRC_MAX_DIMS];
        for (int32_t d = nd - 1; d >= 0; d--) {
            idx[d] = rest % (size_t)shape[d];
            rest /= (size_t)shape[d];
        }
        for (int32_t d = 0; d < nd; d++) {
            off += idx[d] * mul;
            mul *= (size_t)shape[d];
        }
        memcpy(dst + i * es, src + off * es, es);
    }
    airc_tensor_destroy(t);
    *out = c;
    return AIRC_OK;
}

/* dir/NAME.<kind>0.npy, .<kind>1.npy, ... until one is missing. */
static bool read_series(airc_context *ctx, const airc_test_case *k, const char *kind,
                        airc_tensor **out, size_t cap, size_t *n)
{
    char path[1024];
    for (*n = 0; *n < cap; (*n)++) {
        snprintf(path, sizeof path, "%s/%s.%s%zu.npy", k->dir, k->name, kind, *n);
        FILE *f = fopen(path, "rb");
        if (!f)
            break;
        fclose(f);
        if (airc_test_read_npy(ctx, path, &out[*n]) != AIRC_OK) {
            print_error("%s: %s\n", path, airc_last_error());
            return false;
        }
    }
    return true;
}

bool airc_test_case_load(airc_context *ctx, airc_test_case *k)
{
    return read_series(ctx, k, "in", k->in, AIRC_TEST_MAXIN, &k->nin) &&
           read_series(ctx, k, "out", k->want, AIRC_TEST_MAXOUT, &k->nwant);
}

void airc_test_case_free(airc_test_case *k)
{
    airc_test_destroy_all(k->in, k->nin);
    airc_test_destroy_all(k->want, k->nwant);
}

int32_t airc_test_parse_dims(const char *s, int64_t *out)
{
    if (!strcmp(s, "-"))
        return 0;
    int32_t n = 0;
    char *end;
    for (;;) {
        assert_true(n < AIRC_MAX_DIMS);
        out[n++] = strtoll(s, &end, 10);
        if (*end != ',')
            break;
        s = end + 1;
    }
    return n;
}
