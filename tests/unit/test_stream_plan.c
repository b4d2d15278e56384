/* Stream assignment and event insertion of the reduce-overhead capture
 * (backends/replay/stream_plan.c). Expected streams and events are derived
 * by hand from the rules in DESIGN.md "Ops" (fork, data, user, join), with
 * positions counted in graph order; the checker is tested on plans with an
 * event removed. */
#include "testutil.h"

#include "backends/replay/stream_plan.h"
#include "ir/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE AIRC_STREAM_NONE
#define SE(label) "call_function[target=torch.ops.air.scope_enter.default](args = ([_user_stream_label], [" label "]), kwargs = {})\n"
#define SX "call_function[target=torch.ops.air.scope_exit.default](args = (), kwargs = {})\n"


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

/* The seed file, found from this source file's path (CMake compiles it by
 * absolute path). */
static airc_graph *parse_seed(airc_context *ctx)
{
    char path[4096];
    const char *src = __FILE__;
    const char *tail = strstr(src, "tests/unit/test_stream_plan.c");
    assert_non_null(tail);
    snprintf(path, sizeof path, "%.*sexamples/seed001/multistream.after.fx", (int)(tail - src),
             src);
    size_t len;
    char *text = airc_test_read_file(path, &len);
    assert_non_null(text);
    airc_graph *g = airc_test_parse(ctx, text);
    free(text);
    return g;
}

typedef struct ev {
    uint32_t rs, ra, ws, wb;
    int32_t kind;
} ev;

/* Asserts the plan's events are exactly `want`, in order. */
static void expect_events(const airc_stream_plan *p, const ev *want, size_t n)
{
    for (size_t i = 0; i < p->nevents; i++) {
        const airc_stream_event *e = &p->events[i];
        print_message("event %zu: %s s%u after %d -> s%u before %u\n", i,
                      airc_stream_event_kind_name(e->kind), e->record_stream,
                      e->record_after == NONE ? -1 : (int)e->record_after, e->wait_stream,
                      e->wait_before);
    }
    assert_int_equal(p->nevents, n);
    for (size_t i = 0; i < n; i++) {
        const airc_stream_event *e = &p->events[i];
        assert_int_equal(e->kind, want[i].kind);
        assert_int_equal(e->record_stream, want[i].rs);
        assert_int_equal(e->record_after, want[i].ra);
        assert_int_equal(e->wait_stream, want[i].ws);
        assert_int_equal(e->wait_before, want[i].wb);
    }
}

static const airc_node *by_name(const airc_graph *g, const char *name)
{
    const airc_node *n = airc_graph_node_by_name(g, name, strlen(name));
    assert_non_null(n);
    return n;
}

static void expect_node(const airc_stream_plan *p, const airc_graph *g, const char *name,
                        uint32_t pos, uint32_t stream, bool launched)
{
    const airc_node *n = by_name(g, name);
    assert_int_equal(airc_stream_plan_position(p, n), pos);
    assert_int_equal(p->nodes[pos].stream, stream);
    assert_int_equal(p->nodes[pos].launched, launched);
}

/* Removes event i (a corrupted plan for the checker). */
static void drop_event(airc_stream_plan *p, size_t i)
{
    memmove(&p->events[i], &p->events[i + 1], (p->nevents - i - 1) * sizeof *p->events);
    p->nevents--;
}

/* x_1 0, scope_enter 1, mm 2, abs_1 3, record 4, scope_exit 5, add 6,
 * wait 7, sub 8, output 9. */
static void test_seed(void **state)
{
    fixture *f = *state;
    airc_graph *g = parse_seed(f->ctx);
    airc_stream_plan p;
    AIRC_ASSERT_OK(airc_stream_plan_build(g, &p));
    assert_int_equal(p.nnodes, 10);
    assert_int_equal(p.nstreams, 2);
    assert_string_equal(p.labels[0], "main");
    assert_string_equal(p.labels[1], "stream_1");
    assert_int_equal(p.output, 9);
    expect_node(&p, g, "x_1", 0, 0, false);
    expect_node(&p, g, "scope_enter", 1, 0, false);
    expect_node(&p, g, "mm", 2, 1, true);
    expect_node(&p, g, "abs_1", 3, 1, true);
    expect_node(&p, g, "record", 4, 1, false);
    expect_node(&p, g, "scope_exit", 5, 1, false);
    expect_node(&p, g, "add", 6, 0, true);
    expect_node(&p, g, "wait", 7, 0, false);
    expect_node(&p, g, "sub", 8, 0, true);
    /* fork before mm (main has launched nothing yet: recorded at its start);
     * add reads abs_1 across streams; sub waits for the record (after abs_1)
     * and its read of mm is covered by add's wait (mm precedes abs_1 on
     * stream_1); main joins stream_1 before the output */
    const ev want[] = {
        {0, NONE, 1, 2, AIRC_STREAM_EVENT_FORK},
        {1, 3, 0, 6, AIRC_STREAM_EVENT_DATA},
        {1, 3, 0, 8, AIRC_STREAM_EVENT_USER},
        {1, 3, 0, 9, AIRC_STREAM_EVENT_JOIN},
    };
    expect_events(&p, want, 4);
    assert_int_equal(p.events[2].origin, 4); /* the air.record node */
    AIRC_ASSERT_OK(airc_stream_plan_check(g, &p));

    /* without the data event, add is unordered after abs_1 (the user's wait
     * comes later, before sub) */
    drop_event(&p, 1);
    AIRC_EXPECT(airc_stream_plan_check(g, &p), AIRC_E_INVALID_GRAPH, "'add'");
    airc_stream_plan_free(&p);
    airc_stream_plan_free(&p); /* idempotent */
    airc_graph_destroy(g);
}

static void test_seed_lifetimes(void **state)
{
    fixture *f = *state;
    airc_graph *g = parse_seed(f->ctx);
    airc_stream_plan p;
    AIRC_ASSERT_OK(airc_stream_plan_build(g, &p));
    airc_mem_buffer b = airc_mem_buffer_make(64, 0, 0);
    /* mm (stream_1 @2) read by abs_1 (@3) and sub (main @8): the fork was
     * recorded at main's start (0); the first main wait covering stream_1's
     * touches is add's data event (@6) */
    const airc_node *mm_users[] = {by_name(g, "abs_1"), by_name(g, "sub")};
    AIRC_ASSERT_OK(airc_stream_plan_lifetime(&p, by_name(g, "mm"), mm_users, 2, &b));
    assert_int_equal(b.first_use, 2);
    assert_int_equal(b.last_use, 8);
    assert_int_equal(b.stream, 1);
    assert_int_equal(b.fork, 0);
    assert_int_equal(b.join, 6);
    assert_int_equal(b.size, 64); /* untouched */
    /* add: main only */
    const airc_node *add_users[] = {by_name(g, "output")};
    AIRC_ASSERT_OK(airc_stream_plan_lifetime(&p, by_name(g, "add"), add_users, 1, &b));
    assert_int_equal(b.first_use, 6);
    assert_int_equal(b.last_use, 9);
    assert_int_equal(b.stream, 0);
    assert_int_equal(b.fork, AIRC_MEM_NO_EVENT);
    assert_int_equal(b.join, AIRC_MEM_NO_EVENT);
    /* x_1 (main @0) read by mm on stream_1: starts at its producer */
    const airc_node *x_users[] = {by_name(g, "mm"), by_name(g, "sub")};
    AIRC_ASSERT_OK(airc_stream_plan_lifetime(&p, by_name(g, "x_1"), x_users, 2, &b));
    assert_int_equal(b.first_use, 0);
    assert_int_equal(b.last_use, 8);
    assert_int_equal(b.stream, 1);
    assert_int_equal(b.fork, 0);
    assert_int_equal(b.join, 6);
    /* a node of another graph is rejected, out untouched */
    airc_graph *g2 = parse_seed(f->ctx);
    b.first_use = 77;
    AIRC_EXPECT(airc_stream_plan_lifetime(&p, by_name(g2, "mm"), NULL, 0, &b),
                AIRC_E_INVALID_ARGUMENT, "not in the plan");
    assert_int_equal(b.first_use, 77);
    /* the plan of g does not describe g2 */
    AIRC_EXPECT(airc_stream_plan_check(g2, &p), AIRC_E_INVALID_GRAPH, "not built from");
    airc_graph_destroy(g2);
    airc_stream_plan_free(&p);
    airc_graph_destroy(g);
}

static const char *TWO_STREAMS =
    "graph():\n"
    "    %x : [#users=2] = placeholder[target=x]\n"
    "    %r0 : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})\n"
    "    %se1 : [#users=0] = " SE("a")
    "    %a1 : [#users=3] = call_function[target=torch.ops.aten.neg.default](args = (%r0,), kwargs = {})\n"
    "    %sx1 : [#users=0] = " SX
    "    %se2 : [#users=0] = " SE("b")
    "    %b1 : [#users=1] = call_function[target=torch.ops.aten.abs.default](args = (%x,), kwargs = {})\n"
    "    %b2 : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%a1,), kwargs = {})\n"
    "    %sx2 : [#users=0] = " SX
    "    %m : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%a1, %b2), kwargs = {})\n"
    "    %m2 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%a1, %b1), kwargs = {})\n"
    "    return (m, m2)\n";

/* x 0, r0 1, se1 2, a1 3, sx1 4, se2 5, b1 6, b2 7, sx2 8, m 9, m2 10, out 11 */
static void test_two_side_streams(void **state)
{
    fixture *f = *state;
    airc_graph *g = airc_test_parse(f->ctx, TWO_STREAMS);
    airc_stream_plan p;
    AIRC_ASSERT_OK(airc_stream_plan_build(g, &p));
    assert_int_equal(p.nstreams, 3);
    expect_node(&p, g, "r0", 1, 0, true);
    expect_node(&p, g, "a1", 3, 1, true);
    expect_node(&p, g, "b1", 6, 2, true);
    expect_node(&p, g, "b2", 7, 2, true);
    expect_node(&p, g, "m", 9, 0, true);
    expect_node(&p, g, "m2", 10, 0, true);
    /* a1's read of r0 is covered by its fork; b2 reads a1 across side
     * streams; m2's reads are covered by m's waits (deduplicated) */
    const ev want[] = {
        {0, 1, 1, 3, AIRC_STREAM_EVENT_FORK},  {0, 1, 2, 6, AIRC_STREAM_EVENT_FORK},
        {1, 3, 2, 7, AIRC_STREAM_EVENT_DATA},  {1, 3, 0, 9, AIRC_STREAM_EVENT_DATA},
        {2, 7, 0, 9, AIRC_STREAM_EVENT_DATA},  {1, 3, 0, 11, AIRC_STREAM_EVENT_JOIN},
        {2, 7, 0, 11, AIRC_STREAM_EVENT_JOIN},
    };
    expect_events(&p, want, 7);
    for (size_t i = 0; i < p.nevents; i++)
        assert_int_not_equal(p.events[i].wait_before, 10);
    AIRC_ASSERT_OK(airc_stream_plan_check(g, &p));
    /* b2's cross-side-stream read without its event */
    airc_stream_plan q = p;
    q.events = malloc(p.nevents * sizeof *p.events);
    memcpy(q.events, p.events, p.nevents * sizeof *p.events);
    drop_event(&q, 2);
    AIRC_EXPECT(airc_stream_plan_check(g, &q), AIRC_E_INVALID_GRAPH, "'b2'");
    /* stream b's fork: b1 would not follow r0 */
    memcpy(q.events, p.events, p.nevents * sizeof *p.events);
    q.nevents = p.nevents;
    drop_event(&q, 1);
    AIRC_EXPECT(airc_stream_plan_check(g, &q), AIRC_E_INVALID_GRAPH, "fork");
    /* a malformed event: recorded after a node that is not on its stream */
    memcpy(q.events, p.events, p.nevents * sizeof *p.events);
    q.nevents = p.nevents;
    q.events[2].record_after = 6;
    AIRC_EXPECT(airc_stream_plan_check(g, &q), AIRC_E_INVALID_GRAPH, "malformed");
    free(q.events);
    airc_stream_plan_free(&p);
    airc_graph_destroy(g);
}

/* A side-stream result only the output reads: the join alone orders it. */
static void test_join_required(void **state)
{
    fixture *f = *state;
    airc_graph *g = airc_test_parse(
        f->ctx, "graph():\n"
                "    %x : [#users=2] = placeholder[target=x]\n"
                "    %se : [#users=0] = " SE("s")
                "    %a : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})\n"
                "    %sx : [#users=0] = " SX
                "    %c : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%x,), kwargs = {})\n"
                "    return (c, a)\n");
    airc_stream_plan p;
    AIRC_ASSERT_OK(airc_stream_plan_build(g, &p));
    const ev want[] = {
        {0, NONE, 1, 2, AIRC_STREAM_EVENT_FORK},
        {1, 2, 0, 5, AIRC_STREAM_EVENT_JOIN},
    };
    expect_events(&p, want, 2);
    AIRC_ASSERT_OK(airc_stream_plan_check(g, &p));
    drop_event(&p, 1);
    AIRC_EXPECT(airc_stream_plan_check(g, &p), AIRC_E_INVALID_GRAPH, "not joined");
    airc_stream_plan_free(&p);
    airc_graph_destroy(g);
}

/* x 0, se1 1, a 2 (s1), se2 3, b 4 (s2), se3 5 (unlabelled: inherits s2),
 * c 6 (s2), sx3 7, sx2 8, d 9 (s1), sx1 10, e 11 (main), output 12 */
static void test_nested_scopes(void **state)
{
    fixture *f = *state;
    airc_graph *g = airc_test_parse(
        f->ctx,
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %se1 : [#users=0] = " SE("s1")
        "    %a : [#users=2] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})\n"
        "    %se2 : [#users=0] = call_function[target=torch.ops.air.scope_enter.default](args = ([_user_stream_label, _user_stream_priority], [s2, 0]), kwargs = {})\n"
        "    %b : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%a,), kwargs = {})\n"
        "    %se3 : [#users=0] = call_function[target=torch.ops.air.scope_enter.default](args = ([_op_aicore_num], [4]), kwargs = {})\n"
        "    %c : [#users=1] = call_function[target=torch.ops.aten.abs.default](args = (%b,), kwargs = {})\n"
        "    %sx3 : [#users=0] = " SX
        "    %sx2 : [#users=0] = " SX
        "    %d : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%a, %c), kwargs = {})\n"
        "    %sx1 : [#users=0] = " SX
        "    %e : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%d,), kwargs = {})\n"
        "    return (e,)\n");
    airc_stream_plan p;
    AIRC_ASSERT_OK(airc_stream_plan_build(g, &p));
    assert_int_equal(p.nstreams, 3);
    assert_string_equal(p.labels[1], "s1");
    assert_string_equal(p.labels[2], "s2");
    expect_node(&p, g, "a", 2, 1, true);
    expect_node(&p, g, "b", 4, 2, true);
    expect_node(&p, g, "se3", 5, 2, false);
    expect_node(&p, g, "c", 6, 2, true);
    expect_node(&p, g, "d", 9, 1, true);
    expect_node(&p, g, "e", 11, 0, true);
    /* d returns to s1 with no new main work: no second fork */
    const ev want[] = {
        {0, NONE, 1, 2, AIRC_STREAM_EVENT_FORK}, {0, NONE, 2, 4, AIRC_STREAM_EVENT_FORK},
        {1, 2, 2, 4, AIRC_STREAM_EVENT_DATA},    {2, 6, 1, 9, AIRC_STREAM_EVENT_DATA},
        {1, 9, 0, 11, AIRC_STREAM_EVENT_DATA},   {1, 9, 0, 12, AIRC_STREAM_EVENT_JOIN},
        {2, 6, 0, 12, AIRC_STREAM_EVENT_JOIN},
    };
    expect_events(&p, want, 7);
    AIRC_ASSERT_OK(airc_stream_plan_check(g, &p));
    airc_stream_plan_free(&p);
    airc_graph_destroy(g);
}

/* Two scopes with one label share a stream; main work between them forks
 * again. */
static void test_same_label_refork(void **state)
{
    fixture *f = *state;
    airc_graph *g = airc_test_parse(
        f->ctx, "graph():\n"
                "    %x : [#users=2] = placeholder[target=x]\n"
                "    %se : [#users=0] = " SE("s")
                "    %a : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})\n"
                "    %sx : [#users=0] = " SX
                "    %m : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%x,), kwargs = {})\n"
                "    %se_1 : [#users=0] = " SE("s")
                "    %b : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%a, %m), kwargs = {})\n"
                "    %sx_1 : [#users=0] = " SX
                "    return (b,)\n");
    airc_stream_plan p;
    AIRC_ASSERT_OK(airc_stream_plan_build(g, &p));
    assert_int_equal(p.nstreams, 2);
    expect_node(&p, g, "b", 6, 1, true);
    /* b's read of m is covered by its fork (m is main's last launch) */
    const ev want[] = {
        {0, NONE, 1, 2, AIRC_STREAM_EVENT_FORK},
        {0, 4, 1, 6, AIRC_STREAM_EVENT_FORK},
        {1, 6, 0, 8, AIRC_STREAM_EVENT_JOIN},
    };
    expect_events(&p, want, 3);
    AIRC_ASSERT_OK(airc_stream_plan_check(g, &p));
    airc_stream_plan_free(&p);
    airc_graph_destroy(g);
}

static void test_no_scopes(void **state)
{
    fixture *f = *state;
    airc_graph *g = airc_test_parse(
        f->ctx, "graph():\n"
                "    %x : [#users=1] = placeholder[target=x]\n"
                "    %a : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})\n"
                "    %b : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%a,), kwargs = {})\n"
                "    return (b,)\n");
    airc_stream_plan p;
    AIRC_ASSERT_OK(airc_stream_plan_build(g, &p));
    assert_int_equal(p.nstreams, 1);
    assert_int_equal(p.nevents, 0);
    for (uint32_t i = 0; i < p.nnodes; i++)
        assert_int_equal(p.nodes[i].stream, 0);
    expect_node(&p, g, "a", 1, 0, true);
    expect_node(&p, g, "output", 3, 0, false);
    AIRC_ASSERT_OK(airc_stream_plan_check(g, &p));
    airc_stream_plan_free(&p);
    airc_graph_destroy(g);
}

static void test_unpaired(void **state)
{
    fixture *f = *state;
    airc_graph *g = airc_test_parse(
        f->ctx, "graph():\n"
                "    %x : [#users=1] = placeholder[target=x]\n"
                "    %se : [#users=0] = " SE("s")
                "    %a : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})\n"
                "    return (a,)\n");
    airc_stream_plan p;
    memset(&p, 0x5a, sizeof p);
    AIRC_EXPECT(airc_stream_plan_build(g, &p), AIRC_E_INVALID_GRAPH, "user pass");
    assert_int_equal(p.nnodes, 0x5a5a5a5a); /* untouched */
    airc_graph_destroy(g);
    g = airc_test_parse(
        f->ctx, "graph():\n"
                "    %x : [#users=1] = placeholder[target=x]\n"
                "    %a : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})\n"
                "    %sx : [#users=0] = " SX
                "    return (a,)\n");
    AIRC_EXPECT(airc_stream_plan_build(g, &p), AIRC_E_INVALID_GRAPH,
                "'sx': air.scope_exit without a matching");
    airc_graph_destroy(g);
}

/* Repeated user waits and reads: airc's own waits are skipped once the
 * stream has waited for that producer stream at or after the position. */
static void test_dedup(void **state)
{
    fixture *f = *state;
    airc_graph *g = airc_test_parse(
        f->ctx,
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %se : [#users=0] = " SE("s")
        "    %a : [#users=3] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})\n"
        "    %b : [#users=2] = call_function[target=torch.ops.aten.neg.default](args = (%a,), kwargs = {})\n"
        "    %rec : [#users=1] = call_function[target=torch.ops.air.record.default](args = (), kwargs = {})\n"
        "    %sx : [#users=0] = " SX
        "    %w : [#users=0] = call_function[target=torch.ops.air.wait.default](args = ([%rec],), kwargs = {})\n"
        "    %c : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%a, %b), kwargs = {})\n"
        "    %d : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%a, %b), kwargs = {})\n"
        "    %e : [#users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%d, %a), kwargs = {})\n"
        "    return (c, e)\n");
    /* x 0, se 1, a 2, b 3, rec 4, sx 5, w 6, c 7, d 8, e 9, output 10:
     * the user's wait (before c) covers every read of a and b */
    airc_stream_plan p;
    AIRC_ASSERT_OK(airc_stream_plan_build(g, &p));
    const ev want[] = {
        {0, NONE, 1, 2, AIRC_STREAM_EVENT_FORK},
        {1, 3, 0, 7, AIRC_STREAM_EVENT_USER},
        {1, 3, 0, 10, AIRC_STREAM_EVENT_JOIN},
    };
    expect_events(&p, want, 3);
    AIRC_ASSERT_OK(airc_stream_plan_check(g, &p));
    airc_stream_plan_free(&p);
    airc_graph_destroy(g);
}

static void test_oom(void **state)
{
    (void)state;
    bool done = false;
    for (size_t k = 1; !done && k < 200; k++) {
        airc_test_alloc ta;
        airc_allocator al;
        airc_test_alloc_init(&ta, &al);
        airc_context *ctx;
        AIRC_ASSERT_OK(airc_context_create(&al, &ctx));
        airc_graph *g = airc_test_parse(ctx, TWO_STREAMS);
        long live = ta.live;
        ta.fail_at = ta.count + k;
        airc_stream_plan p;
        airc_status st = airc_stream_plan_build(g, &p);
        if (st == AIRC_OK) {
            st = airc_stream_plan_check(g, &p);
            airc_stream_plan_free(&p);
            done = st == AIRC_OK;
        }
        if (st != AIRC_OK)
            assert_int_equal(st, AIRC_E_OUT_OF_MEMORY);
        assert_int_equal(ta.live, live);
        ta.fail_at = 0;
        airc_graph_destroy(g);
        airc_context_destroy(ctx);
    }
    assert_true(done);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_seed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_seed_lifetimes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_side_streams, setup, teardown),
        cmocka_unit_test_setup_teardown(test_join_required, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nested_scopes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_same_label_refork, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_scopes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unpaired, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dedup, setup, teardown),
        cmocka_unit_test_setup_teardown(test_oom, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
