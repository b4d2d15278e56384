/* The reduce-overhead memory planner (backends/replay/memory_plan.c): hand
 * cases, random buffer sets checked against a brute-force model, the
 * arena / lower-bound ratio on transformer-like lifetimes, and allocation
 * failures. */
#include "testutil.h"

#include "backends/replay/memory_plan.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fixture {
    airc_context *ctx;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    AIRC_ASSERT_OK(airc_context_create(NULL, &f->ctx));
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    airc_context_destroy(f->ctx);
    free(f);
    return 0;
}

static uint64_t rng_state;
static uint64_t rng(void)
{
    /* xorshift64*: fixed seed per test, so every run sees the same sets */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}
static uint32_t rng_below(uint32_t n) { return n ? (uint32_t)(rng() % n) : 0; }

/* ---- brute-force model (first principles, per position) ----------------- */

static uint64_t b_align(const airc_mem_buffer *b) { return b->align ? b->align : 64; }
static uint64_t b_asize(const airc_mem_buffer *b)
{
    uint64_t a = b_align(b);
    return (b->size + a - 1) / a * a;
}
static uint32_t b_horizon(const airc_mem_buffer *bufs, size_t n)
{
    uint32_t h = 0;
    for (size_t i = 0; i < n; i++) {
        if (bufs[i].last_use > h)
            h = bufs[i].last_use;
        if (bufs[i].join != AIRC_MEM_NO_EVENT && bufs[i].join > h)
            h = bufs[i].join;
    }
    return h;
}
static void b_life(const airc_mem_buffer *b, uint32_t horizon, uint32_t *s, uint32_t *e)
{
    *s = b->first_use;
    *e = b->last_use;
    if (b->fork != AIRC_MEM_NO_EVENT)
        *s = b->fork < *s ? b->fork : *s;
    else if (b->stream)
        *s = 0;
    if (b->join != AIRC_MEM_NO_EVENT)
        *e = b->join > *e ? b->join : *e;
    else if (b->stream)
        *e = horizon;
}
static uint64_t b_naive(const airc_mem_buffer *bufs, size_t n)
{
    uint64_t t = 0;
    for (size_t i = 0; i < n; i++)
        if (!bufs[i].unplanned)
            t += b_asize(&bufs[i]);
    return t;
}
static uint64_t b_lower(const airc_mem_buffer *bufs, size_t n)
{
    uint32_t h = b_horizon(bufs, n);
    uint64_t best = 0;
    for (uint32_t p = 0; p <= h; p++) {
        uint64_t live = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t s, e;
            b_life(&bufs[i], h, &s, &e);
            if (!bufs[i].unplanned && s <= p && p <= e)
                live += b_asize(&bufs[i]);
        }
        if (live > best)
            best = live;
    }
    return best;
}
/* Pairwise: 1 when the plan is valid. */
static int b_valid(const airc_mem_buffer *bufs, size_t n, const uint64_t *off, uint64_t arena)
{
    uint32_t h = b_horizon(bufs, n);
    for (size_t i = 0; i < n; i++) {
        if (bufs[i].unplanned) {
            if (off[i] != AIRC_MEM_UNPLANNED)
                return 0;
            continue;
        }
        if (off[i] % b_align(&bufs[i]) || off[i] + b_asize(&bufs[i]) > arena)
            return 0;
        for (size_t j = 0; j < i; j++) {
            if (bufs[j].unplanned)
                continue;
            uint32_t si, ei, sj, ej;
            b_life(&bufs[i], h, &si, &ei);
            b_life(&bufs[j], h, &sj, &ej);
            if (si > ej || sj > ei)
                continue;
            if (off[i] < off[j] + b_asize(&bufs[j]) && off[j] < off[i] + b_asize(&bufs[i]))
                return 0;
        }
    }
    return 1;
}

static void plan_ok(airc_context *ctx, const airc_mem_buffer *bufs, size_t n, uint64_t *off,
                    airc_mem_plan *plan)
{
    AIRC_ASSERT_OK(airc_memory_plan(ctx, bufs, n, off, plan));
    AIRC_ASSERT_OK(airc_memory_plan_check(ctx, bufs, n, off, plan->arena_bytes));
    assert_true(b_valid(bufs, n, off, plan->arena_bytes));
    assert_int_equal(plan->naive_bytes, b_naive(bufs, n));
    assert_int_equal(plan->lower_bound_bytes, b_lower(bufs, n));
    assert_true(plan->arena_bytes <= plan->naive_bytes);
    assert_true(plan->arena_bytes >= plan->lower_bound_bytes);
}

/* ---- hand cases ---------------------------------------------------------- */

static void test_disjoint_share(void **state)
{
    fixture *f = *state;
    airc_mem_buffer b[3] = {airc_mem_buffer_make(100, 0, 1), airc_mem_buffer_make(100, 2, 3),
                            airc_mem_buffer_make(128, 4, 9)};
    uint64_t off[3];
    airc_mem_plan p;
    plan_ok(f->ctx, b, 3, off, &p);
    /* each rounds to 128 bytes and none overlaps another: one slot */
    assert_int_equal(p.naive_bytes, 384);
    assert_int_equal(p.lower_bound_bytes, 128);
    assert_int_equal(p.arena_bytes, 128);
    assert_int_equal(off[0], 0);
    assert_int_equal(off[1], 0);
    assert_int_equal(off[2], 0);
    assert_int_equal(p.planned, 3);
    assert_int_equal(p.arena_align, 64);
}

static void test_overlap_apart(void **state)
{
    fixture *f = *state;
    /* closed intervals: b reads a at position 1 while writing c there, so
     * a [0,1] and c [1,2] must not share (aliasing is reinplace's call). */
    airc_mem_buffer b[3] = {airc_mem_buffer_make(64, 0, 1), airc_mem_buffer_make(64, 1, 2),
                            airc_mem_buffer_make(64, 2, 3)};
    uint64_t off[3];
    airc_mem_plan p;
    plan_ok(f->ctx, b, 3, off, &p);
    assert_true(off[0] != off[1]);
    assert_true(off[1] != off[2]);
    assert_int_equal(p.lower_bound_bytes, 128);
    assert_int_equal(p.arena_bytes, 128);
    assert_int_equal(off[0], off[2]); /* a and c are apart in time: they share */

    /* a chain of sizes where the lower bound is reachable only by reuse */
    airc_mem_buffer c[4] = {airc_mem_buffer_make(1024, 0, 1), airc_mem_buffer_make(512, 1, 2),
                            airc_mem_buffer_make(512, 2, 3), airc_mem_buffer_make(1024, 3, 4)};
    uint64_t off2[4];
    plan_ok(f->ctx, c, 4, off2, &p);
    assert_int_equal(p.naive_bytes, 3072);
    assert_int_equal(p.lower_bound_bytes, 1536);
    assert_int_equal(p.arena_bytes, 1536);
}

static void test_alignment(void **state)
{
    fixture *f = *state;
    airc_mem_buffer b[4] = {airc_mem_buffer_make(10, 0, 5), airc_mem_buffer_make(10, 0, 5),
                            airc_mem_buffer_make(100, 0, 5), airc_mem_buffer_make(1, 0, 5)};
    b[0].align = 256;
    b[1].align = 64;
    b[2].align = 128;
    b[3].align = 16;
    uint64_t off[4];
    airc_mem_plan p;
    plan_ok(f->ctx, b, 4, off, &p);
    assert_int_equal(off[0] % 256, 0);
    assert_int_equal(off[1] % 64, 0);
    assert_int_equal(off[2] % 128, 0);
    assert_int_equal(off[3] % 16, 0);
    /* 256 + 64 + 128 + 16, all live together; packable with no padding */
    assert_int_equal(p.naive_bytes, 464);
    assert_int_equal(p.lower_bound_bytes, 464);
    assert_int_equal(p.arena_bytes, 464);
    assert_int_equal(p.arena_align, 256);

    /* a small buffer whose alignment leaves a hole the first-placed large
     * one cannot use: the plan still never exceeds naive */
    airc_mem_buffer c[2] = {airc_mem_buffer_make(64, 0, 1), airc_mem_buffer_make(4096, 0, 1)};
    c[0].align = 64;
    c[1].align = 4096;
    uint64_t off2[2];
    plan_ok(f->ctx, c, 2, off2, &p);
    assert_int_equal(p.arena_bytes, 4160);
    assert_int_equal(off2[1], 0);
}

static void test_zero_size_and_unplanned(void **state)
{
    fixture *f = *state;
    airc_mem_buffer b[4] = {airc_mem_buffer_make(0, 0, 9), airc_mem_buffer_make(200, 0, 9),
                            airc_mem_buffer_make(1 << 20, 0, 9), airc_mem_buffer_make(0, 3, 3)};
    b[2].unplanned = true; /* a graph output */
    uint64_t off[4];
    airc_mem_plan p;
    plan_ok(f->ctx, b, 4, off, &p);
    assert_int_equal(off[0], 0);
    assert_int_equal(off[3], 0);
    assert_int_equal(off[2], AIRC_MEM_UNPLANNED);
    assert_int_equal(p.naive_bytes, 256);
    assert_int_equal(p.arena_bytes, 256);
    assert_int_equal(p.planned, 3);

    /* nothing to plan */
    airc_mem_plan q;
    AIRC_ASSERT_OK(airc_memory_plan(f->ctx, NULL, 0, NULL, &q));
    assert_int_equal(q.arena_bytes, 0);
    assert_int_equal(q.naive_bytes, 0);
    assert_int_equal(q.lower_bound_bytes, 0);
    AIRC_ASSERT_OK(airc_memory_plan_check(f->ctx, NULL, 0, NULL, 0));
}

static void test_side_stream(void **state)
{
    fixture *f = *state;
    /* main: a [0,1]; stream 1: s written at 2, last read at 3, forked after
     * position 1, joined back at 6; main: c [4,5] (launched after s's last
     * reader but before the join), d [7,8] after the join. */
    airc_mem_buffer b[4] = {airc_mem_buffer_make(100, 0, 1), airc_mem_buffer_make(100, 2, 3),
                            airc_mem_buffer_make(100, 4, 5), airc_mem_buffer_make(100, 7, 8)};
    b[1].stream = 1;
    b[1].fork = 1;
    b[1].join = 6;
    uint64_t off[4];
    airc_mem_plan p;
    plan_ok(f->ctx, b, 4, off, &p);
    assert_true(off[1] != off[2]); /* c may run before stream 1 has read s */
    assert_true(off[1] != off[0]); /* stream 1 may write s while a is still read */
    assert_int_equal(p.lower_bound_bytes, 256);
    assert_int_equal(p.arena_bytes, 256);

    /* The checker applies the same rule: c on s's bytes is refused with the
     * join, accepted without the side stream. */
    uint64_t bad[4] = {0, 128, 128, 0};
    AIRC_EXPECT(airc_memory_plan_check(f->ctx, b, 4, bad, 256), AIRC_E_INVALID_ARGUMENT,
                "share bytes");
    airc_mem_buffer plain[4];
    memcpy(plain, b, sizeof plain);
    plain[1].stream = 0;
    plain[1].fork = plain[1].join = AIRC_MEM_NO_EVENT;
    AIRC_ASSERT_OK(airc_memory_plan_check(f->ctx, plain, 4, bad, 256));
    plan_ok(f->ctx, plain, 4, off, &p);
    assert_int_equal(p.lower_bound_bytes, 128);
    assert_int_equal(p.arena_bytes, 128);

    /* A side-stream buffer with no events lives across the whole plan. */
    airc_mem_buffer c[3] = {airc_mem_buffer_make(64, 0, 0), airc_mem_buffer_make(64, 2, 3),
                            airc_mem_buffer_make(64, 5, 5)};
    c[1].stream = 2;
    uint64_t off3[3];
    plan_ok(f->ctx, c, 3, off3, &p);
    assert_true(off3[1] != off3[0]);
    assert_true(off3[1] != off3[2]);
    assert_int_equal(p.lower_bound_bytes, 128);
    /* a join alone: free again after it (d [5,5] shares with it) */
    c[1].fork = 1;
    c[1].join = 4;
    plan_ok(f->ctx, c, 3, off3, &p);
    assert_int_equal(p.arena_bytes, 64);
}

static void test_invalid(void **state)
{
    fixture *f = *state;
    uint64_t off[2] = {7, 7};
    airc_mem_plan p = {.arena_bytes = 99};
    airc_mem_buffer b[2] = {airc_mem_buffer_make(10, 0, 1), airc_mem_buffer_make(10, 0, 1)};
    b[1].align = 48;
    AIRC_EXPECT(airc_memory_plan(f->ctx, b, 2, off, &p), AIRC_E_INVALID_ARGUMENT,
                "buffer 1: alignment 48");
    b[1].align = 0;
    b[0].first_use = 3;
    AIRC_EXPECT(airc_memory_plan(f->ctx, b, 2, off, &p), AIRC_E_INVALID_ARGUMENT,
                "buffer 0: first use 3 after last use 1");
    b[0].first_use = 0;
    b[0].size = UINT64_MAX - 10;
    AIRC_EXPECT(airc_memory_plan(f->ctx, b, 2, off, &p), AIRC_E_INVALID_ARGUMENT,
                "overflows when aligned");
    b[0].size = b[1].size = (uint64_t)1 << 63;
    AIRC_EXPECT(airc_memory_plan(f->ctx, b, 2, off, &p), AIRC_E_INVALID_ARGUMENT,
                "total size overflows");
    AIRC_EXPECT(airc_memory_plan(f->ctx, NULL, 2, off, &p), AIRC_E_INVALID_ARGUMENT, "NULL");
    AIRC_EXPECT(airc_memory_plan(f->ctx, b, 2, NULL, &p), AIRC_E_INVALID_ARGUMENT, "NULL");
    AIRC_EXPECT(airc_memory_plan(f->ctx, b, 2, off, NULL), AIRC_E_INVALID_ARGUMENT, "NULL");
    /* out-params untouched on failure */
    assert_int_equal(off[0], 7);
    assert_int_equal(off[1], 7);
    assert_int_equal(p.arena_bytes, 99);

    /* the largest aligned size that fits in 64 bits still plans */
    airc_mem_buffer h = airc_mem_buffer_make(UINT64_MAX - 63, 0, 0);
    uint64_t hoff;
    AIRC_ASSERT_OK(airc_memory_plan(f->ctx, &h, 1, &hoff, &p));
    assert_int_equal(hoff, 0);
    assert_int_equal(p.arena_bytes, UINT64_MAX - 63);
}

static void test_checker_rejects(void **state)
{
    fixture *f = *state;
    airc_mem_buffer b[3] = {airc_mem_buffer_make(100, 0, 2), airc_mem_buffer_make(100, 1, 3),
                            airc_mem_buffer_make(64, 5, 6)};
    b[2].unplanned = true;
    uint64_t off[3] = {0, 128, AIRC_MEM_UNPLANNED};
    AIRC_ASSERT_OK(airc_memory_plan_check(f->ctx, b, 3, off, 256));
    AIRC_EXPECT(airc_memory_plan_check(f->ctx, b, 3, off, 255), AIRC_E_INVALID_ARGUMENT,
                "past the arena");
    off[1] = 64; /* overlaps buffer 0's rounded bytes [0, 128) */
    AIRC_EXPECT(airc_memory_plan_check(f->ctx, b, 3, off, 256), AIRC_E_INVALID_ARGUMENT,
                "buffers 0 (bytes [0, 128), live 0..2) and 1");
    off[1] = 160;
    AIRC_EXPECT(airc_memory_plan_check(f->ctx, b, 3, off, 512), AIRC_E_INVALID_ARGUMENT,
                "not a multiple of 64");
    off[1] = 128;
    off[2] = 0;
    AIRC_EXPECT(airc_memory_plan_check(f->ctx, b, 3, off, 256), AIRC_E_INVALID_ARGUMENT,
                "unplanned buffer 2");
}

/* ---- random sets ---------------------------------------------------------- */

static size_t random_set(airc_mem_buffer *b, size_t max_n)
{
    static const uint64_t aligns[] = {0, 16, 64, 128, 256, 4096};
    size_t n = rng_below((uint32_t)max_n + 1);
    uint32_t span = 2 + rng_below(80);
    for (size_t i = 0; i < n; i++) {
        uint32_t s = rng_below(span), len = rng_below(4) ? rng_below(6) : rng_below(span);
        uint64_t size = rng_below(12) == 0 ? 0 : (uint64_t)1 << rng_below(21);
        size += rng_below(4) ? rng() % (size + 1) : 0;
        b[i] = airc_mem_buffer_make(size, s, s + len);
        b[i].align = aligns[rng_below(6)];
        if (rng_below(8) == 0) {
            b[i].stream = 1 + rng_below(2);
            if (rng_below(4))
                b[i].fork = s - rng_below(s + 1);
            if (rng_below(4))
                b[i].join = s + len + rng_below(5);
        }
        b[i].unplanned = rng_below(20) == 0;
    }
    return n;
}

static void test_random(void **state)
{
    fixture *f = *state;
    enum { MAX_N = 120, SETS = 4000 };
    airc_mem_buffer b[MAX_N];
    uint64_t off[MAX_N], off2[MAX_N];
    rng_state = 0x9E3779B97F4A7C15ULL;
    int wins[AIRC_MEM_STRATEGY_SEARCH + 1] = {0};
    double worst = 1.0;
    for (int t = 0; t < SETS; t++) {
        size_t n = random_set(b, MAX_N);
        airc_mem_plan p, q;
        plan_ok(f->ctx, b, n, off, &p);
        assert_true(p.strategy >= 0 && p.strategy <= AIRC_MEM_STRATEGY_SEARCH);
        wins[p.strategy]++;
        if (p.lower_bound_bytes && (double)p.arena_bytes / (double)p.lower_bound_bytes > worst)
            worst = (double)p.arena_bytes / (double)p.lower_bound_bytes;
        /* deterministic */
        AIRC_ASSERT_OK(airc_memory_plan(f->ctx, b, n, off2, &q));
        assert_memory_equal(off, off2, n * sizeof *off);
        assert_int_equal(p.arena_bytes, q.arena_bytes);
        assert_int_equal(p.strategy, q.strategy);
        /* moving a live buffer onto a neighbour's bytes is caught */
        uint32_t h = b_horizon(b, n);
        for (size_t i = 1; i < n; i++) {
            uint32_t si, ei, sj, ej;
            b_life(&b[i], h, &si, &ei);
            b_life(&b[i - 1], h, &sj, &ej);
            if (b[i].unplanned || b[i - 1].unplanned || !b_asize(&b[i]) || !b_asize(&b[i - 1]) ||
                si > ej || sj > ei || b_align(&b[i]) > b_align(&b[i - 1]))
                continue;
            uint64_t keep = off[i];
            off[i] = off[i - 1]; /* aligned, as b[i-1]'s alignment is larger */
            uint64_t arena = p.arena_bytes > off[i] + b_asize(&b[i]) ? p.arena_bytes
                                                                   : off[i] + b_asize(&b[i]);
            AIRC_EXPECT(airc_memory_plan_check(f->ctx, b, n, off, arena), AIRC_E_INVALID_ARGUMENT,
                        "share bytes");
            off[i] = keep;
            break;
        }
    }
    print_message("random: %d sets, worst arena/lower bound %.3f; wins:", SETS, worst);
    for (int32_t k = 0; k <= AIRC_MEM_STRATEGY_SEARCH; k++)
        print_message(" %s %d", airc_mem_strategy_name(k), wins[k]);
    print_message("\n");
}

/* ---- transformer-like lifetimes ------------------------------------------- */

typedef struct tbuild {
    airc_mem_buffer *b;
    size_t n;
    uint32_t pos;
} tbuild;

static size_t t_new(tbuild *t, uint64_t size)
{
    t->b[t->n] = airc_mem_buffer_make(size, t->pos, t->pos);
    return t->n++;
}
static void t_use(tbuild *t, size_t i) { t->b[i].last_use = t->pos; }

/* One op at the next position: reads ins (a -1-terminated list), writes a
 * new buffer of `size` bytes. */
static size_t t_op(tbuild *t, uint64_t size, const int *ins)
{
    t->pos++;
    for (; *ins >= 0; ins++)
        t_use(t, (size_t)*ins);
    return t_new(t, size);
}

/* A decoder-only transformer forward at random width, sequence, heads,
 * dtype and depth, lowered to its intermediate buffers: layer norm, q/k/v
 * projections, scores, softmax, context, output projection, residual, MLP
 * (sometimes gated), residual; K and V also go to a KV cache (graph outputs,
 * unplanned). Weights are inputs, hence not buffers. */
static size_t transformer(airc_mem_buffer *b, uint32_t *layers_out)
{
    tbuild t = {b, 0, 0};
    uint64_t es = rng_below(2) ? 2 : 4;
    uint64_t seq = 1 + rng_below(512), hid = 64 * (1 + rng_below(32)), heads = 1 + rng_below(16);
    uint64_t ffn = hid * (2 + rng_below(3)) + 64 * rng_below(8);
    bool gated = rng_below(2), cache = rng_below(2);
    uint32_t layers = 1 + rng_below(12);
    *layers_out = layers;
    uint64_t act = seq * hid * es;
    int x = (int)t_new(&t, act); /* embedding output */
    for (uint32_t l = 0; l < layers; l++) {
        int ln = (int)t_op(&t, act, (int[]){x, -1});
        int q = (int)t_op(&t, act, (int[]){ln, -1});
        int k = (int)t_op(&t, act, (int[]){ln, -1});
        int v = (int)t_op(&t, act, (int[]){ln, -1});
        if (cache) {
            b[k].unplanned = b[v].unplanned = true;
        }
        int sc = (int)t_op(&t, heads * seq * seq * es, (int[]){q, k, -1});
        int sm = (int)t_op(&t, heads * seq * seq * es, (int[]){sc, -1});
        int cx = (int)t_op(&t, act, (int[]){sm, v, -1});
        int o = (int)t_op(&t, act, (int[]){cx, -1});
        int r = (int)t_op(&t, act, (int[]){x, o, -1});
        int ln2 = (int)t_op(&t, act, (int[]){r, -1});
        int up = (int)t_op(&t, seq * ffn * es, (int[]){ln2, -1});
        int h;
        if (gated) {
            int gate = (int)t_op(&t, seq * ffn * es, (int[]){ln2, -1});
            int sg = (int)t_op(&t, seq * ffn * es, (int[]){gate, -1});
            h = (int)t_op(&t, seq * ffn * es, (int[]){sg, up, -1});
        } else {
            h = (int)t_op(&t, seq * ffn * es, (int[]){up, -1});
        }
        int down = (int)t_op(&t, act, (int[]){h, -1});
        x = (int)t_op(&t, act, (int[]){r, down, -1});
    }
    int lnf = (int)t_op(&t, act, (int[]){x, -1});
    int logits = (int)t_op(&t, seq * (1000 + rng_below(31000)) * es, (int[]){lnf, -1});
    b[logits].unplanned = true; /* the graph output */
    return t.n;
}

static void test_transformer_ratios(void **state)
{
    fixture *f = *state;
    enum { MAX_N = 20 * 12 + 8, CASES = 200 };
    airc_mem_buffer b[MAX_N];
    uint64_t off[MAX_N];
    rng_state = 0x0123456789ABCDEFULL;
    double worst = 1.0, sum = 0.0, worst_naive = 0.0;
    for (int c = 0; c < CASES; c++) {
        uint32_t layers;
        size_t n = transformer(b, &layers);
        assert_true(n <= MAX_N);
        airc_mem_plan p;
        plan_ok(f->ctx, b, n, off, &p);
        double ratio = (double)p.arena_bytes / (double)p.lower_bound_bytes;
        double saving = (double)p.arena_bytes / (double)p.naive_bytes;
        if (c < 12 || ratio > 1.02)
            print_message("transformer %2d: %2u layers %3zu buffers: arena %" PRIu64
                          " lower bound %" PRIu64 " naive %" PRIu64
                          " -> arena/lb %.4f arena/naive %.4f (%s)\n",
                          c, layers, n, p.arena_bytes, p.lower_bound_bytes, p.naive_bytes, ratio,
                          saving, airc_mem_strategy_name(p.strategy));
        assert_true(ratio <= 1.25);
        sum += ratio;
        worst = ratio > worst ? ratio : worst;
        worst_naive = saving > worst_naive ? saving : worst_naive;
    }
    print_message("transformer: %d cases, arena/lower bound mean %.4f worst %.4f; "
                  "arena/naive worst %.4f\n",
                  CASES, sum / CASES, worst, worst_naive);
}

/* Random lifetimes in the shape of a ResNet-like net with skip
 * connections held across several ops, and a side stream: reported as
 * well, to watch the heuristics where lifetimes interleave more. */
static void test_interleaved_ratios(void **state)
{
    fixture *f = *state;
    enum { MAX_N = 400, CASES = 200 };
    airc_mem_buffer b[MAX_N];
    uint64_t off[MAX_N];
    rng_state = 0xC0FFEEULL;
    double worst = 1.0, sum = 0.0;
    for (int c = 0; c < CASES; c++) {
        size_t n = 50 + rng_below(MAX_N - 50);
        uint64_t base = 4096u << rng_below(8);
        for (size_t i = 0; i < n; i++) {
            /* mostly short-lived, some skips; sizes shrink with depth as in
             * a downsampling net */
            uint32_t len = rng_below(10) ? 1 + rng_below(2) : 2 + rng_below(12);
            uint64_t size = (base >> (4 * i / n)) * (1 + rng_below(3));
            b[i] = airc_mem_buffer_make(size, (uint32_t)i, (uint32_t)i + len);
            if (rng_below(10) == 0) {
                b[i].stream = 1;
                b[i].fork = (uint32_t)i - rng_below((uint32_t)i + 1 < 3 ? (uint32_t)i + 1 : 3);
                b[i].join = (uint32_t)i + len + rng_below(4);
            }
        }
        airc_mem_plan p;
        plan_ok(f->ctx, b, n, off, &p);
        double ratio = (double)p.arena_bytes / (double)p.lower_bound_bytes;
        /* measured: mean 1.021, worst 1.250 (one case of 200: 10 units
         * where the bound says 8; the side-stream extensions make the
         * lifetimes far from an interval pattern greedy handles well) */
        assert_true(ratio <= 1.30);
        sum += ratio;
        worst = ratio > worst ? ratio : worst;
    }
    print_message("interleaved: %d cases, arena/lower bound mean %.4f worst %.4f\n", CASES,
                  sum / CASES, worst);
}

/* Thousands of buffers with long overlapping lifetimes: the interval
 * queries keep this fast (a quadratic planner takes seconds). */
static void test_large(void **state)
{
    fixture *f = *state;
    enum { N = 20000 };
    airc_mem_buffer *b = calloc(N, sizeof *b);
    uint64_t *off = calloc(N, sizeof *off);
    rng_state = 42;
    for (size_t i = 0; i < N; i++) {
        uint32_t s = (uint32_t)i;
        b[i] = airc_mem_buffer_make(64 * (1 + rng_below(64)), s, s + 1 + rng_below(40));
    }
    airc_mem_plan p;
    AIRC_ASSERT_OK(airc_memory_plan(f->ctx, b, N, off, &p));
    AIRC_ASSERT_OK(airc_memory_plan_check(f->ctx, b, N, off, p.arena_bytes));
    assert_true(p.arena_bytes >= p.lower_bound_bytes && p.arena_bytes <= p.naive_bytes);
    print_message("large: %d buffers, arena/lower bound %.4f\n", N,
                  (double)p.arena_bytes / (double)p.lower_bound_bytes);
    free(b);
    free(off);
}

/* ---- allocation failures -------------------------------------------------- */

static void test_failing_allocator(void **state)
{
    (void)state;
    enum { N = 60 };
    airc_mem_buffer b[N];
    rng_state = 7;
    size_t n = 0;
    while (n < 40)
        n = random_set(b, N);
    int done = 0, failures = 0;
    for (size_t fail_at = 1; !done && fail_at < 200; fail_at++) {
        airc_test_alloc ta = {0};
        airc_allocator al;
        airc_test_alloc_init(&ta, &al);
        airc_context *ctx;
        if (airc_context_create(&al, &ctx) != AIRC_OK)
            continue;
        uint64_t off[N];
        memset(off, 0xAB, sizeof off);
        airc_mem_plan p;
        memset(&p, 0xCD, sizeof p);
        ta.fail_at = ta.count + fail_at;
        airc_status st = airc_memory_plan(ctx, b, n, off, &p);
        if (st == AIRC_OK)
            st = airc_memory_plan_check(ctx, b, n, off, p.arena_bytes);
        ta.fail_at = 0;
        if (st == AIRC_OK) {
            done = 1;
            assert_true(b_valid(b, n, off, p.arena_bytes));
        } else {
            failures++;
            assert_int_equal(st, AIRC_E_OUT_OF_MEMORY);
            assert_non_null(strstr(airc_last_error(), "memory plan"));
            if (ta.failures && p.strategy == (int32_t)0xCDCDCDCD) {
                /* the planner failed: outputs untouched */
                for (size_t i = 0; i < n; i++)
                    assert_int_equal(off[i], 0xABABABABABABABABULL);
            }
        }
        airc_context_destroy(ctx);
        assert_int_equal(ta.live, 0);
    }
    assert_true(done);
    assert_true(failures > 5); /* the loop did reach the planner's allocations */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_disjoint_share, setup, teardown),
        cmocka_unit_test_setup_teardown(test_overlap_apart, setup, teardown),
        cmocka_unit_test_setup_teardown(test_alignment, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zero_size_and_unplanned, setup, teardown),
        cmocka_unit_test_setup_teardown(test_side_stream, setup, teardown),
        cmocka_unit_test_setup_teardown(test_invalid, setup, teardown),
        cmocka_unit_test_setup_teardown(test_checker_rejects, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random, setup, teardown),
        cmocka_unit_test_setup_teardown(test_transformer_ratios, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interleaved_ratios, setup, teardown),
        cmocka_unit_test_setup_teardown(test_large, setup, teardown),
        cmocka_unit_test(test_failing_allocator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
