/* .npz archives (airc_npz_read): numpy's stored and deflated archives
 * (tests/data/npz, written by tests/gen_npz_fixtures.py), and malformed ones
 * derived from them: every truncation, every byte flipped, unsupported
 * methods, encryption, CRC errors, allocation failures. */
#include "testutil.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct seen {
    int count;
    char names[8][64];
    airc_tensor *t[8];
    int stop_after; /* return an error after this many (0: never) */
} seen;

static airc_status collect(void *user_data, const char *name, airc_tensor *t)
{
    seen *s = user_data;
    if (s->count < 8) {
        snprintf(s->names[s->count], sizeof s->names[0], "%s", name);
        s->t[s->count] = t;
    } else {
        airc_tensor_destroy(t);
    }
    s->count++;
    if (s->stop_after && s->count >= s->stop_after)
        return airc_set_error(AIRC_E_EXISTS, "stop here");
    return AIRC_OK;
}

static void seen_free(seen *s)
{
    for (int i = 0; i < s->count && i < 8; i++)
        airc_tensor_destroy(s->t[i]);
    memset(s, 0, sizeof *s);
}

static unsigned char *fixture(const char *name, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/npz/%s", AIRC_TEST_DATA, name);
    unsigned char *d = (unsigned char *)airc_test_read_file(path, len);
    assert_non_null(d);
    return d;
}

static void check_arrays(const seen *s)
{
    assert_int_equal(s->count, 4);
    assert_string_equal(s->names[0], "a");
    assert_string_equal(s->names[1], "flag");
    assert_string_equal(s->names[2], "idx");
    assert_string_equal(s->names[3], "layer.weight");
    const airc_tensor *a = s->t[0];
    assert_int_equal(airc_tensor_dtype(a), AIRC_DTYPE_F32);
    assert_int_equal(airc_tensor_ndim(a), 2);
    assert_int_equal(airc_tensor_shape(a)[0], 2);
    assert_int_equal(airc_tensor_shape(a)[1], 3);
    for (int i = 0; i < 6; i++)
        assert_true(((const float *)airc_tensor_data(a))[i] == (float)i);
    assert_int_equal(airc_tensor_dtype(s->t[1]), AIRC_DTYPE_BOOL);
    assert_int_equal(airc_tensor_ndim(s->t[1]), 0);
    assert_int_equal(((const uint8_t *)airc_tensor_data(s->t[1]))[0], 1);
    const int64_t *idx = airc_tensor_data(s->t[2]);
    assert_int_equal(airc_tensor_dtype(s->t[2]), AIRC_DTYPE_I64);
    assert_true(idx[0] == -1 && idx[1] == 0 && idx[2] == 5);
    const airc_tensor *w = s->t[3];
    assert_int_equal(airc_tensor_numel(w), 64 * 64);
    for (size_t i = 0; i < 64 * 64; i++)
        assert_true(((const float *)airc_tensor_data(w))[i] == 0.5f);
}

static void test_read_files(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    seen s;
    memset(&s, 0, sizeof s);
    char path[512];
    const char *names[] = {"stored.npz", "deflated.npz"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/npz/%s", AIRC_TEST_DATA, names[i]);
        AIRC_ASSERT_OK(airc_npz_read(ctx, path, collect, &s));
        check_arrays(&s);
        seen_free(&s);
    }
    snprintf(path, sizeof path, "%s/npz/empty.npz", AIRC_TEST_DATA);
    AIRC_ASSERT_OK(airc_npz_read(ctx, path, collect, &s));
    assert_int_equal(s.count, 0);

    /* the callback stops the reading with its status */
    snprintf(path, sizeof path, "%s/npz/deflated.npz", AIRC_TEST_DATA);
    s.stop_after = 2;
    AIRC_EXPECT(airc_npz_read(ctx, path, collect, &s), AIRC_E_EXISTS, "stop here");
    assert_int_equal(s.count, 2);
    seen_free(&s);

    AIRC_EXPECT(airc_npz_read(ctx, "/nonexistent/w.npz", collect, &s), AIRC_E_NOT_FOUND,
                "/nonexistent/w.npz");
    AIRC_EXPECT(airc_npz_read(ctx, path, NULL, &s), AIRC_E_INVALID_ARGUMENT, NULL);
    AIRC_EXPECT(airc_npz_read(NULL, path, collect, &s), AIRC_E_MISUSE, NULL);
    /* an .npy is not an archive */
    snprintf(path, sizeof path, "%s/npy/f4_2x3.npy", AIRC_TEST_DATA);
    AIRC_EXPECT(airc_npz_read(ctx, path, collect, &s), AIRC_E_PARSE, "f4_2x3.npy");
    assert_int_equal(s.count, 0);
    airc_context_destroy(ctx);
}

/* Offset of the n-th (0-based) occurrence of a 4-byte signature. */
static size_t find_sig(const unsigned char *d, size_t len, uint32_t sig, int n)
{
    for (size_t i = 0; i + 4 <= len; i++) {
        uint32_t v = (uint32_t)d[i] | (uint32_t)d[i + 1] << 8 | (uint32_t)d[i + 2] << 16 |
                     (uint32_t)d[i + 3] << 24;
        if (v == sig && n-- == 0)
            return i;
    }
    fail_msg("signature %08x not found", sig);
    return 0;
}

static void test_malformed(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    size_t len;
    unsigned char *d = fixture("deflated.npz", &len);
    unsigned char *m = malloc(len);
    seen s;
    memset(&s, 0, sizeof s);

    /* compression method 12 (bzip2) in the central directory */
    size_t cd = find_sig(d, len, 0x02014b50u, 0);
    memcpy(m, d, len);
    m[cd + 10] = 12;
    AIRC_EXPECT(airc_npz_read_buffer(ctx, m, len, "w.npz", collect, &s), AIRC_E_UNSUPPORTED,
                "w.npz: member 'a.npy': compression method 12");
    /* encrypted */
    memcpy(m, d, len);
    m[cd + 8] |= 1;
    AIRC_EXPECT(airc_npz_read_buffer(ctx, m, len, "w.npz", collect, &s), AIRC_E_UNSUPPORTED,
                "encrypted");
    /* a flipped byte in the compressed data of the first member */
    memcpy(m, d, len);
    size_t local = find_sig(d, len, 0x04034b50u, 0);
    size_t data = local + 30 + (d[local + 26] | d[local + 27] << 8) +
                  (d[local + 28] | d[local + 29] << 8);
    m[data + 20] ^= 0x01;
    airc_status st = airc_npz_read_buffer(ctx, m, len, "w.npz", collect, &s);
    assert_int_equal(st, AIRC_E_PARSE);
    assert_true(strstr(airc_last_error(), "CRC-32") || strstr(airc_last_error(), "deflate"));
    /* a local header offset past the end */
    memcpy(m, d, len);
    m[cd + 45] = 0x7f;
    AIRC_EXPECT(airc_npz_read_buffer(ctx, m, len, "w.npz", collect, &s), AIRC_E_PARSE,
                "local header");
    /* a stored archive whose member claims a size past the end of the file */
    size_t slen;
    unsigned char *sd = fixture("stored.npz", &slen);
    size_t scd = find_sig(sd, slen, 0x02014b50u, 3);
    sd[scd + 20] = sd[scd + 24] = 0xff;
    sd[scd + 21] = sd[scd + 25] = 0xff;
    AIRC_EXPECT(airc_npz_read_buffer(ctx, sd, slen, "s.npz", collect, &s), AIRC_E_PARSE,
                "layer.weight.npy");
    free(sd);
    assert_int_equal(s.count, 3); /* the arrays before it were handed over */
    seen_free(&s);

    /* zip64 end of central directory */
    memcpy(m, d, len);
    size_t end = find_sig(d, len, 0x06054b50u, 0);
    m[end + 10] = m[end + 11] = 0xff;
    AIRC_EXPECT(airc_npz_read_buffer(ctx, m, len, "w.npz", collect, &s), AIRC_E_UNSUPPORTED,
                "zip64");
    seen_free(&s);
    free(m);
    free(d);
    airc_context_destroy(ctx);
}

/* Every prefix of an archive and every single flipped byte: a status,
 * never a crash or a leak (run under ASan too). */
static void fuzz_file(const char *name)
{
    airc_test_alloc st;
    airc_allocator hook;
    airc_test_alloc_init(&st, &hook);
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(&hook, &ctx));
    long base = st.live;
    size_t len;
    unsigned char *d = fixture(name, &len);
    unsigned char *m = malloc(len);
    seen s;
    memset(&s, 0, sizeof s);
    for (size_t n = 0; n < len; n++) {
        airc_status r = airc_npz_read_buffer(ctx, d, n, name, collect, &s);
        assert_int_not_equal(r, AIRC_OK);
        seen_free(&s);
        assert_int_equal(st.live, base);
    }
    int failed = 0;
    for (size_t i = 0; i < len; i++) {
        memcpy(m, d, len);
        m[i] ^= 0xff;
        airc_status r = airc_npz_read_buffer(ctx, m, len, name, collect, &s);
        failed += r != AIRC_OK;
        if (r != AIRC_OK && r != AIRC_E_PARSE && r != AIRC_E_UNSUPPORTED &&
            r != AIRC_E_OUT_OF_MEMORY)
            fail_msg("byte %zu: %s: %s", i, airc_status_name(r), airc_last_error());
        seen_free(&s);
        assert_int_equal(st.live, base);
    }
    assert_true(failed > 0);
    free(m);
    free(d);
    airc_context_destroy(ctx);
    assert_int_equal(st.live, 0);
}

static void test_fuzz_deflated(void **state)
{
    (void)state;
    fuzz_file("deflated.npz");
}

static void test_fuzz_stored(void **state)
{
    (void)state;
    fuzz_file("stored.npz");
}

static void test_oom(void **state)
{
    (void)state;
    airc_test_alloc st;
    airc_allocator hook;
    airc_test_alloc_init(&st, &hook);
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(&hook, &ctx));
    long base = st.live;
    char path[512];
    snprintf(path, sizeof path, "%s/npz/deflated.npz", AIRC_TEST_DATA);
    seen s;
    memset(&s, 0, sizeof s);
    bool done = false;
    size_t fail = 1;
    for (; !done && fail < 1000; fail++) {
        st.count = 0;
        st.fail_at = fail;
        airc_status r = airc_npz_read(ctx, path, collect, &s);
        st.fail_at = 0;
        if (r == AIRC_OK) {
            check_arrays(&s);
            done = true;
        } else {
            assert_int_equal(r, AIRC_E_OUT_OF_MEMORY);
        }
        seen_free(&s);
        assert_int_equal(st.live, base);
    }
    assert_true(done);
    assert_true(fail > 4);
    airc_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_files),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_fuzz_deflated),
        cmocka_unit_test(test_fuzz_stored),
        cmocka_unit_test(test_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
