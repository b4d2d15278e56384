/* Reading GE ModelDefs back (airc_model_read, backends/ge/execute.c +
 * serialize.c): the reader never crashes and always names the problem.
 * Starts from a real model (the seed multistream graph compiled in
 * max-autotune), then feeds it every prefix, every byte inverted, 20000
 * random mutations, random byte strings and hand-made huge length fields
 * (with a counting allocator: no huge allocation); semantic errors made by
 * editing the unpacked model (unknown op type, dangling / cyclic inputs,
 * Data indices, Const sizes, arity, attributes, duplicate names, NetOutput,
 * GraphDef count), each refused with a message naming the op; a custom op
 * without and with a converter in max-autotune; and an allocation-failure
 * loop around airc_model_read. */
#include "testutil.h"

#include "backends/ge/ge_model.pb-c.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED_FX AIRC_SOURCE_DIR "/examples/seed001/multistream.after.fx"
#define SEED_X AIRC_SOURCE_DIR "/examples/seed001/x.npy"
#define MAXOUT 8

/* ---- a counting allocator: live blocks, bytes, peak, fail the Nth -------- */

typedef struct counting {
    size_t count;   /* allocations attempted */
    size_t fail_at; /* 0 = never */
    long live;      /* blocks allocated */
    size_t bytes;   /* bytes allocated now */
    size_t peak;    /* most bytes allocated at once */
    size_t largest; /* largest single request */
} counting;

typedef struct block {
    size_t size;
    max_align_t pad_;
} block;

static void *c_malloc(void *ud, size_t n)
{
    counting *s = ud;
    s->count++;
    if (n > s->largest)
        s->largest = n;
    if ((s->fail_at && s->count == s->fail_at) || n > ((size_t)1 << 40))
        return NULL;
    block *h = malloc(sizeof *h + n);
    if (!h)
        return NULL;
    h->size = n;
    s->live++;
    s->bytes += n;
    if (s->bytes > s->peak)
        s->peak = s->bytes;
    return h + 1;
}

static void c_free(void *ud, void *p)
{
    counting *s = ud;
    if (!p)
        return;
    block *h = (block *)p - 1;
    s->live--;
    s->bytes -= h->size;
    free(h);
}

static void *c_realloc(void *ud, void *p, size_t n)
{
    counting *s = ud;
    if (!p)
        return c_malloc(ud, n);
    block *old = (block *)p - 1;
    size_t was = old->size;
    if (n > was) {
        s->count++;
        if (n > s->largest)
            s->largest = n;
        if ((s->fail_at && s->count == s->fail_at) || n > ((size_t)1 << 40))
            return NULL;
    }
    block *h = realloc(old, sizeof *h + n);
    if (!h)
        return NULL;
    h->size = n;
    s->bytes = s->bytes - was + n;
    if (s->bytes > s->peak)
        s->peak = s->bytes;
    return h + 1;
}

static airc_context *counting_context(counting *s)
{
    memset(s, 0, sizeof *s);
    airc_allocator a = {sizeof a, c_malloc, c_realloc, c_free, s};
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(&a, &ctx));
    return ctx;
}

/* ---- the good model and what it computes ----------------------------------- */

static airc_context *g_ctx; /* libc allocator */
static airc_tensor *g_x;    /* the seed input */
static uint8_t *g_bytes;    /* the compiled model (a copy) */
static size_t g_len;
static airc_tensor *g_want[MAXOUT]; /* airc_run_eager on the seed graph */
static size_t g_nwant;
static counting g_fuzz_alloc; /* the fuzzing context's allocator */
static airc_context *g_fuzz;

static airc_status compile_max_autotune(const airc_graph *g, airc_tensor *const *in, size_t nin,
                                        airc_compiled **out)
{
    airc_context *ctx = airc_graph_context(g);
    airc_config *cfg;
    AIRC_ASSERT_OK(airc_config_create(ctx, &cfg));
    AIRC_ASSERT_OK(airc_config_set(cfg, "mode", "max-autotune"));
    airc_example_inputs *ex;
    AIRC_ASSERT_OK(airc_example_inputs_create(ctx, &ex));
    for (size_t i = 0; i < nin; i++)
        AIRC_ASSERT_OK(airc_example_inputs_add_tensor(ex, in[i]));
    airc_compile_options o;
    airc_compile_options_init(&o);
    o.config = cfg;
    o.example_inputs = ex;
    airc_status st = airc_compile(g, &o, out);
    airc_example_inputs_destroy(ex);
    airc_config_destroy(cfg);
    return st;
}

static void tensors_equal(const airc_tensor *a, const airc_tensor *b)
{
    assert_int_equal(airc_tensor_dtype(a), airc_tensor_dtype(b));
    assert_int_equal(airc_tensor_ndim(a), airc_tensor_ndim(b));
    assert_memory_equal(airc_tensor_shape(a), airc_tensor_shape(b),
                        (size_t)airc_tensor_ndim(a) * sizeof(int64_t));
    assert_int_equal(airc_tensor_nbytes(a), airc_tensor_nbytes(b));
    assert_memory_equal(airc_tensor_data(a), airc_tensor_data(b), airc_tensor_nbytes(a));
}

/* g (read from a model) computes exactly what the seed graph does. */
static void expect_seed_results(const airc_graph *g)
{
    airc_tensor *got[MAXOUT] = {NULL};
    size_t ngot = 0;
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, &g_x, 1, got, MAXOUT, &ngot, NULL));
    assert_int_equal(ngot, g_nwant);
    for (size_t i = 0; i < ngot; i++) {
        tensors_equal(got[i], g_want[i]);
        airc_tensor_destroy(got[i]);
    }
}

static int setup(void **state)
{
    (void)state;
    AIRC_ASSERT_OK(airc_context_create(NULL, &g_ctx));
    g_fuzz = counting_context(&g_fuzz_alloc);
    airc_graph *g;
    AIRC_ASSERT_OK(airc_graph_parse_file(g_ctx, SEED_FX, &g));
    AIRC_ASSERT_OK(airc_npy_read(g_ctx, SEED_X, &g_x));
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, &g_x, 1, g_want, MAXOUT, &g_nwant, NULL));
    assert_int_equal(g_nwant, 2);
    airc_compiled *c;
    AIRC_ASSERT_OK(compile_max_autotune(g, &g_x, 1, &c));
    const uint8_t *bytes;
    AIRC_ASSERT_OK(airc_compiled_model(c, &bytes, &g_len));
    assert_true(g_len > 100);
    g_bytes = malloc(g_len);
    assert_non_null(g_bytes);
    memcpy(g_bytes, bytes, g_len);
    airc_compiled_destroy(c);
    airc_graph_destroy(g);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < g_nwant; i++)
        airc_tensor_destroy(g_want[i]);
    airc_tensor_destroy(g_x);
    free(g_bytes);
    airc_context_destroy(g_ctx);
    airc_context_destroy(g_fuzz);
    assert_int_equal(g_fuzz_alloc.live, 0);
    return 0;
}

/* airc_model_read over a heap copy of exactly len bytes (so a read past
 * the end is a sanitizer / valgrind error); on OK the graph is returned. */
static airc_status read_copy(airc_context *ctx, const uint8_t *data, size_t len, airc_graph **out)
{
    uint8_t *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    if (len)
        memcpy(copy, data, len);
    *out = NULL;
    airc_status st = airc_model_read(ctx, len ? copy : NULL, len, out);
    free(copy);
    if (st != AIRC_OK)
        assert_null(*out);
    return st;
}

/* ---- 1. the real model ----------------------------------------------------- */

static void test_roundtrip(void **state)
{
    (void)state;
    airc_graph *g;
    AIRC_ASSERT_OK(read_copy(g_ctx, g_bytes, g_len, &g));
    AIRC_ASSERT_OK(airc_graph_lint(g));
    expect_seed_results(g);
    airc_graph_destroy(g);
    /* bad arguments */
    AIRC_EXPECT(airc_model_read(g_ctx, g_bytes, g_len, NULL), AIRC_E_INVALID_ARGUMENT, NULL);
    AIRC_EXPECT(airc_model_read(g_ctx, NULL, 5, &g), AIRC_E_INVALID_ARGUMENT, NULL);
    AIRC_EXPECT(airc_model_read(NULL, g_bytes, g_len, &g), AIRC_E_MISUSE, NULL);
    /* an empty buffer is an empty ModelDef: no GraphDef */
    AIRC_EXPECT(airc_model_read(g_ctx, NULL, 0, &g), AIRC_E_INVALID_GRAPH, "GraphDef");
}

/* ---- 2. malformed bytes ---------------------------------------------------- */

static uint64_t rng_state = 0x243f6a8885a308d3ull;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static size_t n_status[32];

static void count_status(airc_status st)
{
    n_status[(size_t)st < 32 ? (size_t)st : 31]++;
}

/* Statuses seen, and the largest single allocation the fuzzed reads
 * asked for (a few KiB: no input of ~1 KB may ask for much more). */
static void print_statuses(const char *what)
{
    printf("%s: largest allocation %zu bytes;", what, g_fuzz_alloc.largest);
    assert_true(g_fuzz_alloc.largest < ((size_t)1 << 20));
    g_fuzz_alloc.largest = 0;
    for (size_t i = 0; i < 32; i++)
        if (n_status[i])
            printf(" %s=%zu", airc_status_name((airc_status)i), n_status[i]);
    printf("\n");
    memset(n_status, 0, sizeof n_status);
}

/* A prefix is refused, or (cut at a field boundary of the ModelDef) reads
 * as a model that still computes the seed graph's results. */
static void test_truncation(void **state)
{
    (void)state;
    size_t ok = 0;
    for (size_t k = 0; k < g_len; k++) {
        airc_graph *g;
        airc_status st = read_copy(g_fuzz, g_bytes, k, &g);
        count_status(st);
        if (st == AIRC_OK) {
            AIRC_ASSERT_OK(airc_graph_lint(g));
            expect_seed_results(g);
            airc_graph_destroy(g);
            ok++;
            continue;
        }
        if (st != AIRC_E_PARSE && st != AIRC_E_INVALID_GRAPH)
            fail_msg("prefix of %zu bytes: %s: %s", k, airc_status_name(st), airc_last_error());
        assert_true(strlen(airc_last_error()) > 0);
    }
    printf("prefixes: %zu read as the whole model (cut between model attributes)\n", ok);
    print_statuses("prefixes");
}

/* Any status but never a crash; a model read is a graph that lints. */
static void check_any(const uint8_t *data, size_t len)
{
    airc_graph *g;
    airc_status st = read_copy(g_fuzz, data, len, &g);
    count_status(st);
    if (st == AIRC_OK) {
        AIRC_ASSERT_OK(airc_graph_lint(g));
        airc_graph_destroy(g);
    } else {
        assert_true(strlen(airc_last_error()) > 0);
    }
}

static void test_byte_flips(void **state)
{
    (void)state;
    uint8_t *buf = malloc(g_len);
    assert_non_null(buf);
    for (size_t i = 0; i < g_len; i++) {
        memcpy(buf, g_bytes, g_len);
        buf[i] ^= 0xFF;
        check_any(buf, g_len);
    }
    free(buf);
    print_statuses("bytes inverted");
}

static void test_random_mutations(void **state)
{
    (void)state;
    const char *env = getenv("AIRC_TEST_MUTATIONS");
    size_t rounds = env ? (size_t)strtoul(env, NULL, 10) : 20000;
    size_t cap = g_len + 64;
    uint8_t *buf = malloc(cap);
    assert_non_null(buf);
    rng_state = 0x243f6a8885a308d3ull;
    for (size_t r = 0; r < rounds; r++) {
        size_t len = g_len;
        memcpy(buf, g_bytes, len);
        size_t edits = 1 + rnd() % 4;
        for (size_t e = 0; e < edits; e++) {
            size_t at = len ? rnd() % len : 0;
            switch (rnd() % 5) {
            case 0: /* flip a bit */
                if (len)
                    buf[at] ^= (uint8_t)(1u << (rnd() % 8));
                break;
            case 1: /* a random byte */
                if (len)
                    buf[at] = (uint8_t)rnd();
                break;
            case 2: /* an interesting byte: varint continuation, 0, 0x7f */
                if (len)
                    buf[at] = (uint8_t[]){0x80, 0xff, 0x00, 0x7f, 0x01}[rnd() % 5];
                break;
            case 3: /* insert */
                if (len < cap) {
                    memmove(buf + at + 1, buf + at, len - at);
                    buf[at] = (uint8_t)rnd();
                    len++;
                }
                break;
            default: /* delete */
                if (len) {
                    memmove(buf + at, buf + at + 1, len - at - 1);
                    len--;
                }
                break;
            }
        }
        check_any(buf, len);
    }
    free(buf);
    print_statuses("mutations");
}

static void test_random_bytes(void **state)
{
    (void)state;
    rng_state = 0x13198a2e03707344ull;
    static const size_t sizes[] = {1,  2,  3,  4,   5,   7,    8,    15,
                                   16, 31, 64, 100, 255, 1000, 4096, 65536};
    uint8_t *buf = malloc(65536);
    assert_non_null(buf);
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        size_t reps = sizes[s] < 100 ? 500 : sizes[s] < 10000 ? 100 : 10;
        for (size_t r = 0; r < reps; r++) {
            for (size_t i = 0; i < sizes[s]; i++)
                buf[i] = (uint8_t)rnd();
            airc_graph *g;
            airc_status st = read_copy(g_fuzz, buf, sizes[s], &g);
            count_status(st);
            if (st == AIRC_OK)
                fail_msg("%zu random bytes read as a model", sizes[s]);
            assert_true(st == AIRC_E_PARSE || st == AIRC_E_INVALID_GRAPH);
        }
    }
    free(buf);
    print_statuses("random bytes");
}

/* Appends a varint. */
static size_t put_varint(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

/* Huge declared lengths: refused as AIRC_E_PARSE with no allocation of
 * that size (the peak stays small). */
static void test_huge_lengths(void **state)
{
    (void)state;
    counting s;
    airc_context *ctx = counting_context(&s);
    static const uint64_t lengths[] = {(uint64_t)1 << 31, ((uint64_t)1 << 32) - 1,
                                       (uint64_t)1 << 32, (uint64_t)1 << 62, UINT64_MAX};
    for (size_t l = 0; l < sizeof lengths / sizeof *lengths; l++) {
        uint8_t buf[64];
        /* 1. ModelDef.graph (field 7) of a huge length */
        size_t n = 0;
        buf[n++] = (7 << 3) | 2;
        n += put_varint(buf + n, lengths[l]);
        memset(buf + n, 0, 8);
        n += 8;
        /* 2. a GraphDef holding OpDef (field 6) of a huge length */
        uint8_t in[32], buf2[64];
        size_t m = 0;
        in[m++] = (6 << 3) | 2;
        m += put_varint(in + m, lengths[l]);
        in[m++] = 0x0a;
        size_t n2 = 0;
        buf2[n2++] = (7 << 3) | 2;
        n2 += put_varint(buf2 + n2, m);
        memcpy(buf2 + n2, in, m);
        n2 += m;
        /* 3. a packed repeated int64 (ShapeDef.dim) of a huge length, nested
         * in ModelDef.graph.op.output_desc.shape */
        uint8_t shape[24], td[32], op[40], gd[48], buf3[64];
        size_t ns = 0, nt = 0, no = 0, ng = 0, n3 = 0;
        shape[ns++] = (1 << 3) | 2;
        ns += put_varint(shape + ns, lengths[l]);
        shape[ns++] = 0x01;
        td[nt++] = (3 << 3) | 2;
        nt += put_varint(td + nt, ns);
        memcpy(td + nt, shape, ns);
        nt += ns;
        no += put_varint(op + no, (34 << 3) | 2); /* a two-byte tag */
        no += put_varint(op + no, nt);
        memcpy(op + no, td, nt);
        no += nt;
        gd[ng++] = (6 << 3) | 2;
        ng += put_varint(gd + ng, no);
        memcpy(gd + ng, op, no);
        ng += no;
        buf3[n3++] = (7 << 3) | 2;
        n3 += put_varint(buf3 + n3, ng);
        memcpy(buf3 + n3, gd, ng);
        n3 += ng;
        const uint8_t *cases[] = {buf, buf2, buf3};
        size_t lens[] = {n, n2, n3};
        for (size_t c = 0; c < 3; c++) {
            s.peak = s.bytes;
            s.largest = 0;
            airc_graph *g;
            AIRC_EXPECT(read_copy(ctx, cases[c], lens[c], &g), AIRC_E_PARSE, "ModelDef");
            if (s.peak - s.bytes > 65536 || s.largest > 65536)
                fail_msg("length %llu, case %zu: peak %zu bytes, largest request %zu",
                         (unsigned long long)lengths[l], c, s.peak - s.bytes, s.largest);
        }
    }
    /* Many empty repeated elements (100000 empty OpDefs): allowed by the
     * wire format, refused by validation; memory grows with the input only. */
    size_t nops = 100000, cap = 2 * nops + 16;
    uint8_t *big = malloc(cap);
    assert_non_null(big);
    size_t n = 0;
    big[n++] = (7 << 3) | 2;
    n += put_varint(big + n, 2 * nops);
    for (size_t i = 0; i < nops; i++) {
        big[n++] = (6 << 3) | 2;
        big[n++] = 0;
    }
    long live = s.live;
    s.peak = s.bytes;
    airc_graph *g;
    AIRC_EXPECT(read_copy(ctx, big, n, &g), AIRC_E_INVALID_GRAPH, "op 0 has no name");
    printf("100000 empty OpDefs (%zu bytes): peak %zu bytes\n", n, s.peak - s.bytes);
    assert_true(s.peak - s.bytes < 1000 * n);
    assert_int_equal(s.live, live);
    free(big);
    airc_context_destroy(ctx);
    assert_int_equal(s.live, 0);
}

/* ---- 3. semantic errors: the good model unpacked, edited, packed ---------- */

/* An arena the unpacked model and every edit live in, freed at once (so an
 * edit may point anywhere without caring who owns what). */
typedef struct arena_block {
    struct arena_block *next;
    max_align_t pad_;
} arena_block;

static arena_block *arena;

static void *arena_alloc(void *ud, size_t n)
{
    (void)ud;
    arena_block *b = calloc(1, sizeof *b + n);
    assert_non_null(b);
    b->next = arena;
    arena = b;
    return b + 1;
}

static void arena_nofree(void *ud, void *p)
{
    (void)ud;
    (void)p;
}

static void arena_release(void)
{
    while (arena) {
        arena_block *next = arena->next;
        free(arena);
        arena = next;
    }
}

static ProtobufCAllocator arena_allocator = {arena_alloc, arena_nofree, NULL};

static char *arena_str(const char *s)
{
    char *p = arena_alloc(NULL, strlen(s) + 1);
    memcpy(p, s, strlen(s) + 1);
    return p;
}

static Ge__Proto__ModelDef *unpack_good(void)
{
    Ge__Proto__ModelDef *m = ge__proto__model_def__unpack(&arena_allocator, g_len, g_bytes);
    assert_non_null(m);
    assert_int_equal(m->n_graph, 1);
    return m;
}

static Ge__Proto__OpDef *find_op(Ge__Proto__GraphDef *gd, const char *name)
{
    for (size_t i = 0; i < gd->n_op; i++)
        if (!strcmp(gd->op[i]->name, name))
            return gd->op[i];
    fail_msg("no op '%s' in the model", name);
    return NULL;
}

static Ge__Proto__AttrDef *find_attr(Ge__Proto__OpDef *op, const char *key)
{
    for (size_t i = 0; i < op->n_attr; i++)
        if (!strcmp(op->attr[i]->key, key))
            return op->attr[i]->value;
    return NULL;
}

static void remove_attr(Ge__Proto__OpDef *op, const char *key)
{
    size_t k = 0;
    for (size_t i = 0; i < op->n_attr; i++)
        if (strcmp(op->attr[i]->key, key))
            op->attr[k++] = op->attr[i];
    assert_true(k < op->n_attr);
    op->n_attr = k;
}

/* Packs m, reads it with airc_model_read and expects code with a message
 * holding each of the needles; releases the arena. */
static void expect_model(Ge__Proto__ModelDef *m, airc_status code, const char *needle1,
                         const char *needle2)
{
    size_t n = ge__proto__model_def__get_packed_size(m);
    uint8_t *buf = malloc(n ? n : 1);
    assert_non_null(buf);
    assert_int_equal(ge__proto__model_def__pack(m, buf), n);
    arena_release();
    counting s;
    airc_context *ctx = counting_context(&s);
    airc_graph *g = NULL;
    airc_status st = airc_model_read(ctx, buf, n, &g);
    free(buf);
    AIRC_EXPECT(st, code, needle1);
    if (needle2 && !strstr(airc_last_error(), needle2))
        fail_msg("error message \"%s\" lacks \"%s\"", airc_last_error(), needle2);
    if (st == AIRC_OK)
        airc_graph_destroy(g);
    else
        assert_null(g);
    /* the context caches what it looked up: leaks show once it is gone */
    airc_context_destroy(ctx);
    assert_int_equal(s.live, 0);
}

static void test_unknown_op_type(void **state)
{
    (void)state;
    Ge__Proto__ModelDef *m = unpack_good();
    find_op(m->graph[0], "mm")->type = arena_str("FooBar");
    expect_model(m, AIRC_E_INVALID_GRAPH, "op 'mm' (FooBar)", "unknown op type 'FooBar'");
}

static void set_input(const char *op, size_t i, const char *v, const char *needle1,
                      const char *needle2)
{
    Ge__Proto__ModelDef *m = unpack_good();
    Ge__Proto__OpDef *o = find_op(m->graph[0], op);
    assert_true(i < o->n_input);
    o->input[i] = arena_str(v);
    expect_model(m, AIRC_E_INVALID_GRAPH, needle1, needle2);
}

static void test_bad_inputs(void **state)
{
    (void)state;
    set_input("abs_1", 0, "nosuch:0", "op 'abs_1' (Abs)", "'nosuch:0' names no op");
    set_input("sub", 2, "nosuch:-1", "op 'sub' (Sub)", "names no op"); /* control edge */
    set_input("abs_1", 0, "add:0", "op 'abs_1' (Abs)", "from a later op");
    set_input("abs_1", 0, "abs_1:0", "op 'abs_1' (Abs)", "from a later op"); /* itself */
    set_input("output", 0, "output:0", "op 'output' (NetOutput)", "from a later op");
    set_input("abs_1", 0, "mm:1", "op 'abs_1' (Abs)", "output its producer does not have");
    set_input("output", 1, "sub:7", "op 'output' (NetOutput)", "output its producer does not");
    set_input("abs_1", 0, "mm:99999999999999999999", "op 'abs_1'", "producer does not have");
    set_input("abs_1", 0, "mm:-2", "op 'abs_1' (Abs)", "bad output index");
    set_input("abs_1", 0, "mm:x", "op 'abs_1' (Abs)", "bad output index");
    set_input("abs_1", 0, "mm:", "op 'abs_1' (Abs)", "bad output index");
    set_input("abs_1", 0, "mm", "op 'abs_1' (Abs)", "not 'op:index'");
    set_input("abs_1", 0, ":0", "op 'abs_1' (Abs)", "not 'op:index'");
    /* an input of an op with no outputs */
    Ge__Proto__ModelDef *m = unpack_good();
    find_op(m->graph[0], "mm")->n_output_desc = 0;
    expect_model(m, AIRC_E_INVALID_GRAPH, "op 'abs_1' (Abs)", "does not have");
}

static void test_data_index(void **state)
{
    (void)state;
    /* no index */
    Ge__Proto__ModelDef *m = unpack_good();
    remove_attr(find_op(m->graph[0], "x_1"), "index");
    expect_model(m, AIRC_E_INVALID_GRAPH, "op 'x_1' (Data)", "'index' (int) is missing");
    /* an index of the wrong kind */
    m = unpack_good();
    find_attr(find_op(m->graph[0], "x_1"), "index")->value_case = GE__PROTO__ATTR_DEF__VALUE_F;
    expect_model(m, AIRC_E_INVALID_GRAPH, "op 'x_1' (Data)", "'index' (int) is missing");
    /* out of range */
    static const int64_t bad[] = {1, -1, INT64_MAX, INT64_MIN};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        m = unpack_good();
        find_attr(find_op(m->graph[0], "x_1"), "index")->i = bad[i];
        expect_model(m, AIRC_E_INVALID_GRAPH, "op 'x_1' (Data)", "out of range or repeated");
    }
    /* two Data with index 0: a copy of x_1 named x_2 right after it */
    m = unpack_good();
    Ge__Proto__GraphDef *gd = m->graph[0];
    Ge__Proto__OpDef **ops = arena_alloc(NULL, (gd->n_op + 1) * sizeof *ops);
    Ge__Proto__OpDef *x2 = arena_alloc(NULL, sizeof *x2);
    *x2 = *gd->op[0];
    x2->name = arena_str("x_2");
    ops[0] = gd->op[0];
    ops[1] = x2;
    memcpy(ops + 2, gd->op + 1, (gd->n_op - 1) * sizeof *ops);
    gd->op = ops;
    gd->n_op++;
    expect_model(m, AIRC_E_INVALID_GRAPH, "op 'x_2' (Data)", "out of range or repeated");
}

static void test_const_value(void **state)
{
    (void)state;
    /* bytes that do not match the shape (a scalar float) */
    static const size_t sizes[] = {0, 3, 5, 8};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        Ge__Proto__ModelDef *m = unpack_good();
        Ge__Proto__AttrDef *v = find_attr(find_op(m->graph[0], "add/Const"), "value");
        assert_non_null(v);
        v->t->data.len = sizes[i];
        v->t->data.data = arena_alloc(NULL, sizes[i] + 1);
        expect_model(m, AIRC_E_INVALID_GRAPH, "op 'add/Const' (Const)", "byte count");
    }
    /* no value */
    Ge__Proto__ModelDef *m = unpack_good();
    remove_attr(find_op(m->graph[0], "add/Const"), "value");
    expect_model(m, AIRC_E_INVALID_GRAPH, "op 'add/Const' (Const)", "'value'");
    /* a value of another kind */
    m = unpack_good();
    find_attr(find_op(m->graph[0], "add/Const"), "value")->value_case =
        GE__PROTO__ATTR_DEF__VALUE_I;
    expect_model(m, AIRC_E_INVALID_GRAPH, "op 'add/Const' (Const)", "'value'");
    /* an unknown dtype, a rank past AIRC_MAX_DIMS */
    m = unpack_good();
    find_attr(find_op(m->graph[0], "add/Const"), "value")->t->desc->dtype =
        GE__PROTO__DATA_TYPE__DT_STRING;
    expect_model(m, AIRC_E_INVALID_GRAPH, "op 'add/Const' (Const)", "dtype or rank");
    m = unpack_good();
    Ge__Proto__ShapeDef *sh = find_attr(find_op(m->graph[0], "add/Const"), "value")->t->desc->shape;
    sh->n_dim = 100;
    sh->dim = arena_alloc(NULL, 100 * sizeof *sh->dim);
    for (size_t i = 0; i < 100; i++)
        sh->dim[i] = 1;
    expect_model(m, AIRC_E_INVALID_GRAPH, "op 'add/Const' (Const)", "dtype or rank");
}

/* A Const whose shape is negative or far larger than its 4 bytes: the
 * shape is the op's fault (AIRC_E_INVALID_GRAPH naming it), and no
 * allocation of the declared size is attempted. */
static void test_const_bad_shape(void **state)
{
    (void)state;
    static const int64_t dims[][2] = {{-1, 1}, {1, -4}, {(int64_t)1 << 40, 1}, {1 << 30, 1 << 30}};
    size_t bad = 0;
    for (size_t i = 0; i < sizeof dims / sizeof *dims; i++) {
        Ge__Proto__ModelDef *m = unpack_good();
        Ge__Proto__ShapeDef *sh =
            find_attr(find_op(m->graph[0], "add/Const"), "value")->t->desc->shape;
        sh->n_dim = 2;
        sh->dim = arena_alloc(NULL, 2 * sizeof *sh->dim);
        memcpy(sh->dim, dims[i], sizeof dims[i]);
        size_t n = ge__proto__model_def__get_packed_size(m);
        uint8_t *buf = malloc(n);
        assert_non_null(buf);
        ge__proto__model_def__pack(m, buf);
        arena_release();
        counting s;
        airc_context *ctx = counting_context(&s);
        airc_graph *g = NULL;
        airc_status st = airc_model_read(ctx, buf, n, &g);
        free(buf);
        if (st != AIRC_E_INVALID_GRAPH || !strstr(airc_last_error(), "add/Const") ||
            s.largest > 65536)
            print_error("Const of shape [%lld, %lld]: %s \"%s\", largest allocation %zu "
                        "bytes\n",
                        (long long)dims[i][0], (long long)dims[i][1], airc_status_name(st),
                        airc_last_error(), s.largest),
                bad++;
        if (st == AIRC_OK)
            airc_graph_destroy(g);
        airc_context_destroy(ctx);
        assert_int_equal(s.live, 0);
    }
    assert_int_equal(bad, 0);
}

static void test_arity(void **state)
{
    (void)state;
    Ge__Proto__ModelDef *m = unpack_good();
    find_op(m->graph[0], "mm")->n_input = 1;
    expect_model(m, AIRC_E_INVALID_GRAPH, "op 'mm' (MatMul)", "x2");
    m = unpack_good();
    find_op(m->graph[0], "abs_1")->n_input = 0;
    expect_model(m, AIRC_E_INVALID_GRAPH, "op 'abs_1' (Abs)", NULL);
    /* an absent optional input where a required one goes */
    m = unpack_good();
    find_op(m->graph[0], "abs_1")->input[0] = arena_str("");
    expect_model(m, AIRC_E_INVALID_GRAPH, "op 'abs_1' (Abs)", NULL);
    /* three data inputs to Sub (its third input is a control edge) */
    m = unpack_good();
    find_op(m->graph[0], "sub")->input[2] = arena_str("abs_1:0");
    expect_model(m, AIRC_E_INVALID_GRAPH, "op 'sub' (Sub)", NULL);
}

/* A model with a Cast: aten._to_copy to float64, compiled. */
static Ge__Proto__ModelDef *unpack_cast_model(void)
{
    static const char text[] =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %to : [#users=1] = call_function[target=torch.ops.aten._to_copy.default](args = "
        "(%x,), kwargs = {dtype: torch.float64})\n"
        "    return (to,)\n";
    airc_graph *g = airc_test_parse(g_ctx, text);
    airc_compiled *c;
    AIRC_ASSERT_OK(compile_max_autotune(g, &g_x, 1, &c));
    const uint8_t *bytes;
    size_t len;
    AIRC_ASSERT_OK(airc_compiled_model(c, &bytes, &len));
    /* it reads back and runs as the graph does */
    airc_graph *back;
    AIRC_ASSERT_OK(airc_model_read(g_ctx, bytes, len, &back));
    airc_tensor *want[1], *got[1];
    size_t nw, ng;
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, &g_x, 1, want, 1, &nw, NULL));
    AIRC_ASSERT_OK(airc_run_eager(back, NULL, &g_x, 1, got, 1, &ng, NULL));
    tensors_equal(got[0], want[0]);
    airc_tensor_destroy(got[0]);
    airc_tensor_destroy(want[0]);
    airc_graph_destroy(back);
    Ge__Proto__ModelDef *m = ge__proto__model_def__unpack(&arena_allocator, len, bytes);
    assert_non_null(m);
    airc_compiled_destroy(c);
    airc_graph_destroy(g);
    return m;
}

static void test_missing_attribute(void **state)
{
    (void)state;
    Ge__Proto__ModelDef *m = unpack_cast_model();
    Ge__Proto__OpDef *cast = find_op(m->graph[0], "to/Cast");
    assert_string_equal(cast->type, "Cast");
    remove_attr(cast, "dst_type");
    expect_model(m, AIRC_E_INVALID_GRAPH, "op 'to/Cast' (Cast)", "'dst_type' (int) is missing");
    /* dst_type of the wrong kind */
    m = unpack_cast_model();
    Ge__Proto__AttrDef *a = find_attr(find_op(m->graph[0], "to/Cast"), "dst_type");
    a->value_case = GE__PROTO__ATTR_DEF__VALUE_S;
    a->s.len = 3;
    a->s.data = (uint8_t *)arena_str("f64");
    expect_model(m, AIRC_E_INVALID_GRAPH, "op 'to/Cast' (Cast)", "'dst_type'");
    /* a dst_type no dtype has */
    m = unpack_cast_model();
    a = find_attr(find_op(m->graph[0], "to/Cast"), "dst_type");
    if (a->value_case == GE__PROTO__ATTR_DEF__VALUE_DT)
        a->dt = 12345;
    else
        a->i = 12345;
    expect_model(m, AIRC_E_UNSUPPORTED, "op 'to/Cast' (Cast)", "dst_type 12345");
}

static void test_names(void **state)
{
    (void)state;
    Ge__Proto__ModelDef *m = unpack_good();
    find_op(m->graph[0], "abs_1")->name = arena_str("mm");
    expect_model(m, AIRC_E_INVALID_GRAPH, "op 'mm' (Abs)", "name is used twice");
    m = unpack_good();
    find_op(m->graph[0], "abs_1")->name = arena_str("");
    expect_model(m, AIRC_E_INVALID_GRAPH, "op 2 has no name", NULL);
    m = unpack_good();
    find_op(m->graph[0], "abs_1")->type = arena_str("");
    expect_model(m, AIRC_E_INVALID_GRAPH, "op 2 has no name or no type", NULL);
}

static void test_net_output(void **state)
{
    (void)state;
    /* none */
    Ge__Proto__ModelDef *m = unpack_good();
    m->graph[0]->n_op--;
    expect_model(m, AIRC_E_INVALID_GRAPH, "no NetOutput", NULL);
    /* not last */
    m = unpack_good();
    Ge__Proto__GraphDef *gd = m->graph[0];
    Ge__Proto__OpDef *t = gd->op[gd->n_op - 1];
    gd->op[gd->n_op - 1] = gd->op[gd->n_op - 2];
    gd->op[gd->n_op - 2] = t;
    expect_model(m, AIRC_E_INVALID_GRAPH, "op 'output' (NetOutput)", "must be the last op");
    /* no ops at all */
    m = unpack_good();
    m->graph[0]->n_op = 0;
    expect_model(m, AIRC_E_INVALID_GRAPH, "no NetOutput", NULL);
    /* an empty NetOutput: a graph returning () */
    m = unpack_good();
    find_op(m->graph[0], "output")->n_input = 0;
    expect_model(m, AIRC_OK, NULL, NULL);
}

static void test_graph_count(void **state)
{
    (void)state;
    Ge__Proto__ModelDef *m = unpack_good();
    Ge__Proto__GraphDef **two = arena_alloc(NULL, 2 * sizeof *two);
    two[0] = two[1] = m->graph[0];
    m->graph = two;
    m->n_graph = 2;
    expect_model(m, AIRC_E_INVALID_GRAPH, "exactly one GraphDef, found 2", NULL);
    m = unpack_good();
    m->n_graph = 0;
    expect_model(m, AIRC_E_INVALID_GRAPH, "exactly one GraphDef, found 0", NULL);
}

/* ---- 4. a custom op without and with a converter --------------------------- */

static airc_status noconv_meta(airc_node *n, void *ud)
{
    (void)ud;
    airc_dtype dt;
    int32_t nd;
    const int64_t *shape;
    airc_status st = airc_value_meta(airc_node_arg(n, 0), &dt, &nd, &shape, NULL);
    if (st != AIRC_OK)
        return st;
    return airc_node_set_meta(n, dt, nd, shape, NULL);
}

/* |x| on float32 views of any strides. */
static airc_status noconv_kernel(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    const airc_tview *x = airc_kernel_input(k, 0);
    airc_tview *y = airc_kernel_output(k, 0);
    if (!x || x->dtype != AIRC_DTYPE_F32)
        return airc_set_error(AIRC_E_UNSUPPORTED, "test.noconv: float32 only");
    int64_t idx[AIRC_MAX_DIMS] = {0};
    size_t n = 1;
    for (int32_t d = 0; d < x->ndim; d++)
        n *= (size_t)x->shape[d];
    for (size_t i = 0; i < n; i++) {
        int64_t xo = 0, yo = 0;
        for (int32_t d = 0; d < x->ndim; d++) {
            xo += idx[d] * x->strides[d];
            yo += idx[d] * y->strides[d];
        }
        float v = ((const float *)x->data)[xo];
        ((float *)y->data)[yo] = v < 0 ? -v : v;
        for (int32_t d = x->ndim - 1; d >= 0 && ++idx[d] == x->shape[d]; d--)
            idx[d] = 0;
    }
    return AIRC_OK;
}

/* Emits one op of the GE type in user_data ("" for none: the result is
 * never set; "fail": the converter fails). */
static airc_status noconv_converter(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    const char *type = ud;
    if (!strcmp(type, "fail"))
        return airc_set_error(AIRC_E_UNSUPPORTED, "test converter refuses");
    airc_ge_tensor x, y;
    airc_ge_op *op;
    airc_status st = airc_ge_input(b, 0, &x);
    if (st == AIRC_OK && *type)
        st = airc_ge_op_create(b, type, &op);
    if (st == AIRC_OK && *type)
        st = airc_ge_op_input(op, "x", x);
    if (st == AIRC_OK && *type)
        st = airc_ge_op_output_like_node(op, "y", 0, &y);
    if (st == AIRC_OK && *type)
        st = airc_ge_set_result(b, 0, y);
    return st;
}

static int frees;

static void count_free(void *p)
{
    (void)p;
    frees++;
}

static void test_custom_op_converter(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = "test::noconv(Tensor x) -> Tensor";
    def.meta = noconv_meta;
    AIRC_ASSERT_OK(airc_context_register_op(ctx, &def, NULL));
    AIRC_ASSERT_OK(
        airc_context_set_op_kernel(ctx, "test.noconv.default", "cpu", noconv_kernel, NULL, NULL));
    static const char text[] =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %noconv : [#users=1] = call_function[target=torch.ops.test.noconv.default](args = "
        "(%x,), kwargs = {})\n"
        "    return (noconv,)\n";
    airc_graph *g = airc_test_parse(ctx, text);
    airc_tensor *x, *want, *got;
    AIRC_ASSERT_OK(airc_npy_read(ctx, SEED_X, &x));
    size_t n;
    AIRC_ASSERT_OK(airc_run_eager(g, NULL, &x, 1, &want, 1, &n, NULL));
    airc_compiled *c = NULL;
    /* no converter */
    AIRC_EXPECT(compile_max_autotune(g, &x, 1, &c), AIRC_E_UNSUPPORTED,
                "no Ascend IR converter for test.noconv.default (node 'noconv') (needed by "
                "max-autotune)");
    assert_null(c);
    /* and without example inputs: still at compile time */
    airc_config *cfg;
    AIRC_ASSERT_OK(airc_config_create(ctx, &cfg));
    AIRC_ASSERT_OK(airc_config_set(cfg, "mode", "max-autotune"));
    airc_compile_options o;
    airc_compile_options_init(&o);
    o.config = cfg;
    AIRC_EXPECT(airc_compile(g, &o, &c), AIRC_E_UNSUPPORTED,
                "no Ascend IR converter for test.noconv.default (node 'noconv') (needed by "
                "max-autotune)");
    assert_null(c);
    airc_config_destroy(cfg);

    /* a converter emitting Abs: lowered, read back, same results */
    AIRC_ASSERT_OK(airc_context_set_op_converter(ctx, "test.noconv.default", noconv_converter,
                                                 "Abs", count_free));
    AIRC_ASSERT_OK(compile_max_autotune(g, &x, 1, &c));
    const uint8_t *bytes;
    size_t len;
    AIRC_ASSERT_OK(airc_compiled_model(c, &bytes, &len));
    Ge__Proto__ModelDef *m = ge__proto__model_def__unpack(NULL, len, bytes);
    assert_non_null(m);
    bool found = false;
    for (size_t i = 0; i < m->graph[0]->n_op; i++)
        found |=
            !strcmp(m->graph[0]->op[i]->name, "noconv") && !strcmp(m->graph[0]->op[i]->type, "Abs");
    assert_true(found);
    ge__proto__model_def__free_unpacked(m, NULL);
    AIRC_ASSERT_OK(airc_compiled_run(c, &x, 1, &got, 1, &n));
    tensors_equal(got, want);
    airc_tensor_destroy(got);
    airc_compiled_destroy(c);

    /* a custom GE type: lowered, but the reference executor has no raiser */
    AIRC_ASSERT_OK(airc_context_set_op_converter(ctx, "test.noconv.default", noconv_converter,
                                                 "TestNoConv", count_free));
    assert_int_equal(frees, 0); /* replaced converters live as long as ctx */
    airc_status st = compile_max_autotune(g, &x, 1, &c);
    AIRC_EXPECT(st, AIRC_E_INVALID_GRAPH, "unknown op type 'TestNoConv'");
    assert_non_null(strstr(airc_last_error(), "op 'noconv' (TestNoConv)"));

    /* a converter that fails: its message, prefixed with the node */
    AIRC_ASSERT_OK(airc_context_set_op_converter(ctx, "test.noconv.default", noconv_converter,
                                                 "fail", count_free));
    AIRC_EXPECT(compile_max_autotune(g, &x, 1, &c), AIRC_E_UNSUPPORTED, "test converter refuses");
    assert_non_null(strstr(airc_last_error(), "noconv"));
    /* a converter that sets no result */
    AIRC_ASSERT_OK(
        airc_context_set_op_converter(ctx, "test.noconv.default", noconv_converter, "", NULL));
    assert_int_equal(frees, 0);
    st = compile_max_autotune(g, &x, 1, &c);
    if (st == AIRC_OK)
        fail_msg("a converter that set no result was accepted");
    assert_non_null(strstr(airc_last_error(), "noconv"));
    /* unknown ops, bad arguments */
    AIRC_EXPECT(
        airc_context_set_op_converter(ctx, "test.nosuch.default", noconv_converter, "Abs", NULL),
        AIRC_E_NOT_FOUND, NULL);
    AIRC_EXPECT(airc_context_set_op_converter(ctx, "test.noconv.default", NULL, "Abs", NULL),
                AIRC_E_INVALID_ARGUMENT, NULL);

    airc_tensor_destroy(want);
    airc_tensor_destroy(x);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
    assert_int_equal(frees, 3); /* each exactly once */
}

/* ---- 5. allocation failures ------------------------------------------------ */

/* The Nth allocation of airc_model_read fails, for every N until it
 * succeeds: AIRC_E_OUT_OF_MEMORY each time, nothing leaked (a fresh
 * context each time, since a context caches the ops it looked up). */
static void test_allocation_failures(void **state)
{
    (void)state;
    size_t n_oom = 0, n_other = 0;
    char first_other[256] = "";
    for (size_t k = 1;; k++) {
        counting s;
        airc_context *ctx = counting_context(&s);
        s.fail_at = s.count + k;
        airc_graph *g = NULL;
        airc_status st = airc_model_read(ctx, g_bytes, g_len, &g);
        bool failed_alloc = s.count >= s.fail_at;
        s.fail_at = 0;
        if (st == AIRC_OK) {
            assert_false(failed_alloc);
            expect_seed_results(g);
            airc_graph_destroy(g);
        } else {
            assert_true(failed_alloc);
            assert_null(g);
            if (st == AIRC_E_OUT_OF_MEMORY) {
                n_oom++;
            } else if (!n_other++) {
                snprintf(first_other, sizeof first_other, "allocation %zu: %s: %s", k,
                         airc_status_name(st), airc_last_error());
            }
        }
        airc_context_destroy(ctx);
        if (s.live != 0)
            fail_msg("allocation %zu failing leaks %ld blocks (%s: %s)", k, s.live,
                     airc_status_name(st), airc_last_error());
        if (st == AIRC_OK) {
            printf("allocation failures: %zu allocations; %zu AIRC_E_OUT_OF_MEMORY, %zu other\n",
                   k - 1, n_oom, n_other);
            break;
        }
        assert_true(k < 100000);
    }
    if (n_other)
        fail_msg("%zu failed allocations are not reported as AIRC_E_OUT_OF_MEMORY; first: %s",
                 n_other, first_other);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),           cmocka_unit_test(test_truncation),
        cmocka_unit_test(test_byte_flips),          cmocka_unit_test(test_random_mutations),
        cmocka_unit_test(test_random_bytes),        cmocka_unit_test(test_huge_lengths),
        cmocka_unit_test(test_unknown_op_type),     cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_data_index),          cmocka_unit_test(test_const_value),
        cmocka_unit_test(test_const_bad_shape),     cmocka_unit_test(test_arity),
        cmocka_unit_test(test_missing_attribute),   cmocka_unit_test(test_names),
        cmocka_unit_test(test_net_output),          cmocka_unit_test(test_graph_count),
        cmocka_unit_test(test_custom_op_converter), cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
