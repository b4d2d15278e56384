#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct block_header {
    size_t size;
    max_align_t pad_;
} block_header;

static void *t_malloc(void *ud, size_t n)
{
    airc_test_alloc *s = ud;
    s->count++;
    if (s->fail_at && s->count == s->fail_at) {
        s->failures++;
        return NULL;
    }
    block_header *h = malloc(sizeof *h + n);
    if (!h)
        return NULL;
    h->size = n;
    s->live++;
    return h + 1;
}

static void t_free(void *ud, void *p)
{
    airc_test_alloc *s = ud;
    if (!p)
        return;
    s->live--;
    free((block_header *)p - 1);
}

static void *t_realloc(void *ud, void *p, size_t n)
{
    airc_test_alloc *s = ud;
    if (!p)
        return t_malloc(ud, n);
    block_header *old = (block_header *)p - 1;
    if (n > old->size) {
        s->count++;
        if (s->fail_at && s->count == s->fail_at) {
            s->failures++;
            return NULL;
        }
    }
    block_header *h = realloc(old, sizeof *h + n);
    if (!h)
        return NULL;
    h->size = n;
    return h + 1;
}

void airc_test_alloc_init(airc_test_alloc *state, airc_allocator *out)
{
    memset(state, 0, sizeof *state);
    out->struct_size = sizeof *out;
    out->malloc_fn = t_malloc;
    out->realloc_fn = t_realloc;
    out->free_fn = t_free;
    out->user_data = state;
}

void airc_test_expect(airc_status st, airc_status code, const char *needle)
{
    if (st != code)
        print_error("expected %s, got %s: %s\n", airc_status_name(code), airc_status_name(st),
                    airc_last_error());
    assert_int_equal(st, code);
    if (needle && !strstr(airc_last_error(), needle)) {
        print_error("error message \"%s\" lacks \"%s\"\n", airc_last_error(), needle);
        fail();
    }
}

char *airc_test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    fclose(f);
    buf[got] = '\0';
    if (len)
        *len = got;
    return buf;
}

int airc_test_have_shared(void)
{
    struct stat st;
    return stat(AIRC_SHARED_DIR "/conformance", &st) == 0 && S_ISDIR(st.st_mode);
}

airc_graph *airc_test_parse(airc_context *ctx, const char *text)
{
    airc_graph *g = NULL;
    AIRC_ASSERT_OK(airc_graph_parse(ctx, text, strlen(text), "<test>", &g));
    return g;
}

airc_status airc_test_compile_run(airc_context *ctx, const char *text, const char *mode,
                                  airc_tensor *const *in, size_t nin, airc_tensor **out, size_t cap,
                                  size_t *n)
{
    airc_graph *g = airc_test_parse(ctx, text);
    airc_config *cfg;
    AIRC_ASSERT_OK(airc_config_create(ctx, &cfg));
    AIRC_ASSERT_OK(airc_config_set(cfg, "mode", mode));
    /* the results outlive c: reduce-overhead's would otherwise live in its arena */
    AIRC_ASSERT_OK(airc_config_set(cfg, "debug.aclgraph.enable_output_clone", "1"));
    airc_compile_options co;
    airc_compile_options_init(&co);
    co.config = cfg;
    airc_compiled *c = NULL;
    *n = 0;
    airc_status st = airc_compile(g, &co, &c);
    if (st == AIRC_OK)
        st = airc_compiled_run(c, in, nin, out, cap, n);
    airc_compiled_destroy(c);
    airc_config_destroy(cfg);
    airc_graph_destroy(g);
    return st;
}

char *airc_test_print(const airc_graph *g, uint32_t flags)
{
    char *s = NULL;
    AIRC_ASSERT_OK(airc_graph_print(g, flags, &s));
    char *copy = strdup(s);
    airc_string_free(s);
    return copy;
}

bool airc_test_linalg_info_failed(const char *op, airc_tensor *const *want, size_t nwant)
{
    static const char *const ops[] = {"linalg_inv_ex.", "linalg_cholesky_ex.",
                                      "_linalg_solve_ex.", "linalg_lu_factor_ex."};
    const airc_tensor *w = nwant ? want[nwant - 1] : NULL;
    if (!w || airc_tensor_dtype(w) != AIRC_DTYPE_I32)
        return false;
    bool linalg = false;
    for (size_t j = 0; j < sizeof ops / sizeof *ops; j++)
        linalg |= strstr(op, ops[j]) != NULL;
    const int32_t *v = airc_tensor_data(w);
    for (size_t e = 0; linalg && e < airc_tensor_numel(w); e++)
        if (v[e])
            return true;
    return false;
}
