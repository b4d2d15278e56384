/* Chrome trace writer (backends/replay/trace.c) and the reduce-overhead txt
 * dump (backends/replay/dump.c), over a launch table built by hand from the
 * stream plan of the seed graph (no kernels: fn = NULL). The trace is
 * checked line by line (the writer puts one trace event per line) and, when
 * /usr/bin/python3 exists, parsed as JSON and checked structurally. */
#include "testutil.h"

#include "backends/replay/dump.h"
#include "backends/replay/launch.h"
#include "backends/replay/stream_plan.h"
#include "ir/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PYTHON "/usr/bin/python3"
#define MAXL 16
#define MAXE 16

/* A launch table and its trace, every array inline. */
typedef struct table_fixture {
    airc_context *ctx;
    airc_graph *g;
    airc_stream_plan plan;
    airc_launch_table t;
    airc_replay_trace tr;
    airc_launch launches[MAXL];
    uint32_t waits[MAXE], records[MAXE], start_records[MAXE], start_stream[MAXE];
    uint32_t out_waits[MAXE];
    int32_t kind[MAXE];
    uint32_t rs[MAXE], ws[MAXE];
    uint64_t start_ns[MAXL], end_ns[MAXL], record_ns[MAXE], wait_ns[MAXE];
    uint32_t launch_of_pos[64];
    char path[64];
} table_fixture;

static airc_graph *parse_seed(airc_context *ctx)
{
    char path[4096];
    const char *src = __FILE__;
    const char *tail = strstr(src, "tests/unit/test_replay_trace.c");
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

/* The launch table of the plan: one launch per launched node in position
 * order; event e waits before its wait_before launch (or the output) and
 * is recorded after its record_after launch (or at its stream's start). */
static void build_table(table_fixture *f)
{
    airc_stream_plan *p = &f->plan;
    airc_launch_table *t = &f->t;
    assert_true(p->nnodes <= 64 && p->nevents <= MAXE);
    memset(t, 0, sizeof *t);
    t->launches = f->launches;
    t->nstreams = p->nstreams;
    t->stream_labels = p->labels;
    t->nevents = (uint32_t)p->nevents;
    t->waits = f->waits;
    t->records = f->records;
    t->start_records = f->start_records;
    t->start_record_stream = f->start_stream;
    t->out_waits = f->out_waits;
    t->event_kind = f->kind;
    t->event_record_stream = f->rs;
    t->event_wait_stream = f->ws;
    uint32_t nw = 0, nr = 0;
    for (uint32_t pos = 0; pos < p->nnodes; pos++) {
        f->launch_of_pos[pos] = AIRC_STREAM_NONE;
        if (!p->nodes[pos].launched)
            continue;
        assert_true(t->nlaunches < MAXL);
        airc_launch *l = &f->launches[t->nlaunches];
        memset(l, 0, sizeof *l);
        l->k.node = p->nodes[pos].node;
        l->k.op = airc_node_op(p->nodes[pos].node);
        l->stream = p->nodes[pos].stream;
        l->wait_first = nw;
        l->record_first = nr;
        for (uint32_t e = 0; e < p->nevents; e++) {
            if (p->events[e].wait_before == pos) {
                f->waits[nw++] = e;
                l->nwait++;
            }
            if (p->events[e].record_after == pos) {
                f->records[nr++] = e;
                l->nrecord++;
            }
        }
        f->launch_of_pos[pos] = (uint32_t)t->nlaunches++;
    }
    for (uint32_t e = 0; e < p->nevents; e++) {
        const airc_stream_event *ev = &p->events[e];
        f->kind[e] = ev->kind;
        f->rs[e] = ev->record_stream;
        f->ws[e] = ev->wait_stream;
        if (ev->record_after == AIRC_STREAM_NONE) {
            f->start_stream[t->nstart_records] = ev->record_stream;
            f->start_records[t->nstart_records++] = e;
        }
        if (ev->wait_before == p->output)
            f->out_waits[t->nout_waits++] = e;
    }
}

/* A fake replay: t0 = 1 ms; launch i runs at t0 + (i+1) us + 7 ns for
 * 500 + i ns; an event is recorded at its launch's end (1 ns after t0 at a
 * stream's start) and its wait is satisfied 1 ns before the waiting launch
 * (10 ns after the last launch for the output). */
static void fill_trace(table_fixture *f)
{
    airc_replay_trace *tr = &f->tr;
    tr->nlaunches = f->t.nlaunches;
    tr->nevents = f->t.nevents;
    tr->start_ns = f->start_ns;
    tr->end_ns = f->end_ns;
    tr->record_ns = f->record_ns;
    tr->wait_ns = f->wait_ns;
    tr->t0_ns = 1000000;
    for (size_t i = 0; i < f->t.nlaunches; i++) {
        f->start_ns[i] = tr->t0_ns + 1000 * (i + 1) + 7;
        f->end_ns[i] = f->start_ns[i] + 500 + i;
    }
    uint64_t last = f->end_ns[f->t.nlaunches - 1];
    for (uint32_t e = 0; e < f->t.nevents; e++) {
        const airc_stream_event *ev = &f->plan.events[e];
        f->record_ns[e] = ev->record_after == AIRC_STREAM_NONE
                              ? tr->t0_ns + 1
                              : f->end_ns[f->launch_of_pos[ev->record_after]];
        f->wait_ns[e] = ev->wait_before == f->plan.output
                            ? last + 10
                            : f->start_ns[f->launch_of_pos[ev->wait_before]] - 1;
    }
}

static int setup(void **state)
{
    table_fixture *f = calloc(1, sizeof *f);
    AIRC_ASSERT_OK(airc_context_create(NULL, &f->ctx));
    f->g = parse_seed(f->ctx);
    AIRC_ASSERT_OK(airc_stream_plan_build(f->g, &f->plan));
    build_table(f);
    fill_trace(f);
    const char *dir = getenv("TMPDIR");
    snprintf(f->path, sizeof f->path, "%s/airc_trace_XXXXXX",
             dir && strlen(dir) < 40 ? dir : "/tmp");
    int fd = mkstemp(f->path);
    assert_true(fd >= 0);
    close(fd);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    table_fixture *f = *state;
    unlink(f->path);
    airc_stream_plan_free(&f->plan);
    airc_graph_destroy(f->g);
    airc_context_destroy(f->ctx);
    free(f);
    return 0;
}

/* Number of lines of text containing every needle (NULL-terminated). */
static size_t count_lines(const char *text, const char *const *needles)
{
    size_t n = 0;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        bool all = true;
        for (size_t i = 0; needles[i] && all; i++) {
            const char *hit = strstr(line, needles[i]);
            all = hit && hit + strlen(needles[i]) <= line + len;
        }
        n += all;
        line += len + (end != NULL);
    }
    return n;
}

static size_t count1(const char *text, const char *a, const char *b, const char *c)
{
    const char *needles[] = {a, b, c, NULL};
    return count_lines(text, needles);
}

/* Runs a python snippet on path; 0 on success, -1 when python is absent. */
static int run_python(const char *code, const char *path)
{
    if (access(PYTHON, X_OK) != 0) {
        print_message("skipping the JSON parse check: %s not found\n", PYTHON);
        return -1;
    }
    char cmd[4096];
    snprintf(cmd, sizeof cmd, PYTHON " -c '%s' '%s'", code, path);
    return system(cmd);
}

/* Seed: mm, abs_1 on stream_1; add, sub on main; events e0 fork (main's
 * start -> mm), e1 data (abs_1 -> add), e2 user (abs_1 -> sub), e3 join
 * (abs_1 -> output). */
static void test_trace_seed(void **state)
{
    table_fixture *f = *state;
    assert_int_equal(f->t.nlaunches, 4);
    assert_int_equal(f->t.nevents, 4);
    AIRC_ASSERT_OK(airc_replay_trace_write(&f->t, &f->tr, f->path));
    size_t len;
    char *text = airc_test_read_file(f->path, &len);
    assert_non_null(text);
    fputs(text, stdout);

    assert_non_null(strstr(text, "\"displayTimeUnit\":\"ns\""));
    assert_int_equal(count1(text, "\"process_name\"", "\"name\":\"airc replay\"", NULL), 1);
    assert_int_equal(count1(text, "\"thread_name\"", "\"tid\":0,", "\"name\":\"main\""), 1);
    assert_int_equal(count1(text, "\"thread_name\"", "\"tid\":1,", "\"name\":\"stream_1\""), 1);

    /* one complete event per launch, on its stream's track */
    assert_int_equal(count1(text, "\"ph\":\"X\"", NULL, NULL), 4);
    assert_int_equal(count1(text, "\"name\":\"mm\",", "\"ph\":\"X\",\"pid\":1,\"tid\":1,",
                            "\"target\":\"aten.mm.default\",\"stream\":\"stream_1\""),
                     1);
    assert_int_equal(count1(text, "\"name\":\"abs_1\",", "\"ph\":\"X\",\"pid\":1,\"tid\":1,",
                            "\"target\":\"aten.abs.default\",\"stream\":\"stream_1\""),
                     1);
    assert_int_equal(count1(text, "\"name\":\"add\",", "\"ph\":\"X\",\"pid\":1,\"tid\":0,",
                            "\"target\":\"aten.add.Tensor\",\"stream\":\"main\""),
                     1);
    assert_int_equal(count1(text, "\"name\":\"sub\",", "\"ph\":\"X\",\"pid\":1,\"tid\":0,",
                            "\"target\":\"aten.sub.Tensor\",\"stream\":\"main\""),
                     1);
    /* ts/dur: microseconds from t0, 3 decimals (mm: 1007 ns, 500 ns) */
    assert_int_equal(count1(text, "\"name\":\"mm\",", "\"ts\":1.007,\"dur\":0.500,", NULL), 1);
    assert_int_equal(count1(text, "\"name\":\"sub\",", "\"ts\":4.007,\"dur\":0.503,", NULL), 1);

    /* instants: every event recorded and waited on, on the right tracks */
    assert_int_equal(count1(text, "\"ph\":\"i\",\"s\":\"t\"", NULL, NULL), 8);
    assert_int_equal(count1(text, "\"name\":\"record e0\"", "\"tid\":0,\"ts\":0.001,",
                            "\"args\":{\"event\":0,\"kind\":\"fork\"}"),
                     1);
    assert_int_equal(
        count1(text, "\"name\":\"wait e0\"", "\"tid\":1,\"ts\":1.006,", "\"kind\":\"fork\""), 1);
    assert_int_equal(count1(text, "\"name\":\"record e1\"", "\"tid\":1,", "\"kind\":\"data\""), 1);
    assert_int_equal(count1(text, "\"name\":\"wait e1\"", "\"tid\":0,", "\"kind\":\"data\""), 1);
    assert_int_equal(count1(text, "\"name\":\"wait e2\"", "\"tid\":0,", "\"kind\":\"user\""), 1);
    assert_int_equal(count1(text, "\"name\":\"wait e3\"", "\"tid\":0,", "\"kind\":\"join\""), 1);
    free(text);

    int rc = run_python(
        "import json,sys\n"
        "d = json.load(open(sys.argv[1]))\n"
        "ev = d[\"traceEvents\"]\n"
        "x = [(e[\"name\"], e[\"tid\"], e[\"args\"][\"target\"], e[\"args\"][\"stream\"]) "
        "for e in ev if e[\"ph\"] == \"X\"]\n"
        "assert x == [(\"mm\", 1, \"aten.mm.default\", \"stream_1\"), "
        "(\"abs_1\", 1, \"aten.abs.default\", \"stream_1\"), "
        "(\"add\", 0, \"aten.add.Tensor\", \"main\"), "
        "(\"sub\", 0, \"aten.sub.Tensor\", \"main\")], x\n"
        "i = sorted((e[\"name\"], e[\"tid\"], e[\"args\"][\"kind\"]) for e in ev if e[\"ph\"] == "
        "\"i\")\n"
        "assert len(i) == 8 and (\"wait e3\", 0, \"join\") in i, i\n"
        "sub = [e for e in ev if e[\"name\"] == \"sub\"][0]\n"
        "ab = [e for e in ev if e[\"name\"] == \"abs_1\"][0]\n"
        "assert sub[\"ts\"] >= ab[\"ts\"] + ab[\"dur\"]\n",
        f->path);
    if (rc != -1)
        assert_int_equal(rc, 0);
}

/* Labels (and so names) are escaped: quotes, backslashes, control
 * characters, and invalid UTF-8 (U+FFFD); valid UTF-8 is kept. */
static void test_trace_escaping(void **state)
{
    table_fixture *f = *state;
    const char *labels[2] = {"main", "s\"1\\\n\x01\xff\xc3\xa9"};
    f->t.stream_labels = labels;
    AIRC_ASSERT_OK(airc_replay_trace_write(&f->t, &f->tr, f->path));
    size_t len;
    char *text = airc_test_read_file(f->path, &len);
    assert_non_null(text);
    assert_non_null(strstr(text, "\"stream\":\"s\\\"1\\\\\\n\\u0001\\ufffd\xc3\xa9\""));
    free(text);
    int rc = run_python("import json,sys\n"
                        "d = json.load(open(sys.argv[1], encoding=\"utf-8\"))\n"
                        "s = {e[\"args\"][\"stream\"] for e in d[\"traceEvents\"] if e[\"ph\"] == "
                        "\"X\"}\n"
                        "assert s == {\"main\", \"s\\\"1\\\\\\n\\x01\\ufffd\\xe9\"}, s\n",
                        f->path);
    if (rc != -1)
        assert_int_equal(rc, 0);
}

/* An event not observed (timestamp 0) leaves no instant; a launch ending
 * before it starts gets dur 0; a timestamp before t0 is negative. */
static void test_trace_partial(void **state)
{
    table_fixture *f = *state;
    f->wait_ns[3] = 0;
    f->record_ns[0] = 0;
    f->end_ns[0] = f->start_ns[0] - 5;
    f->start_ns[1] = f->tr.t0_ns - 1500;
    AIRC_ASSERT_OK(airc_replay_trace_write(&f->t, &f->tr, f->path));
    size_t len;
    char *text = airc_test_read_file(f->path, &len);
    assert_non_null(text);
    assert_int_equal(count1(text, "\"ph\":\"i\"", NULL, NULL), 6);
    assert_null(strstr(text, "wait e3"));
    assert_null(strstr(text, "record e0"));
    assert_int_equal(count1(text, "\"name\":\"mm\",", "\"dur\":0.000,", NULL), 1);
    assert_int_equal(count1(text, "\"name\":\"abs_1\",", "\"ts\":-1.500,", NULL), 1);
    free(text);
}

static void test_trace_errors(void **state)
{
    table_fixture *f = *state;
    AIRC_EXPECT(airc_replay_trace_write(NULL, &f->tr, f->path), AIRC_E_INVALID_ARGUMENT, "table");
    AIRC_EXPECT(airc_replay_trace_write(&f->t, NULL, f->path), AIRC_E_INVALID_ARGUMENT, "trace");
    AIRC_EXPECT(airc_replay_trace_write(&f->t, &f->tr, NULL), AIRC_E_INVALID_ARGUMENT, "path");
    const char *bad = "/nonexistent-airc-dir/trace.json";
    AIRC_EXPECT(airc_replay_trace_write(&f->t, &f->tr, bad), AIRC_E_IO, bad);
    AIRC_EXPECT(airc_replay_trace_write(&f->t, &f->tr, bad), AIRC_E_IO, "No such file");
    if (access("/dev/full", W_OK) == 0)
        AIRC_EXPECT(airc_replay_trace_write(&f->t, &f->tr, "/dev/full"), AIRC_E_IO, "/dev/full");

    /* a trace that does not match its table */
    f->tr.nlaunches--;
    AIRC_EXPECT(airc_replay_trace_write(&f->t, &f->tr, f->path), AIRC_E_INVALID_ARGUMENT,
                "launches");
    f->tr.nlaunches++;
    f->tr.wait_ns = NULL;
    AIRC_EXPECT(airc_replay_trace_write(&f->t, &f->tr, f->path), AIRC_E_INVALID_ARGUMENT, "NULL");
    f->tr.wait_ns = f->wait_ns;
    f->launches[2].stream = 7;
    AIRC_EXPECT(airc_replay_trace_write(&f->t, &f->tr, f->path), AIRC_E_INVALID_ARGUMENT, "add");
    f->launches[2].stream = 0;
    f->rs[1] = 9;
    AIRC_EXPECT(airc_replay_trace_write(&f->t, &f->tr, f->path), AIRC_E_INVALID_ARGUMENT, "e1");
    f->rs[1] = 1;
    AIRC_ASSERT_OK(airc_replay_trace_write(&f->t, &f->tr, f->path));
}

/* The dump: the FX text, then one line per launch and the plan's numbers. */
static void test_dump_seed(void **state)
{
    table_fixture *f = *state;
    airc_mem_buffer bufs[MAXL];
    for (size_t i = 0; i < f->t.nlaunches; i++)
        bufs[i] = airc_mem_buffer_make(64 * (i + 1), (uint32_t)i, (uint32_t)i + 1);
    uint64_t offs[MAXL];
    airc_mem_plan mp;
    AIRC_ASSERT_OK(airc_memory_plan(f->ctx, bufs, f->t.nlaunches, offs, &mp));
    uint64_t *node_offsets = calloc(f->g->next_id, sizeof *node_offsets);
    for (uint32_t i = 0; i < f->g->next_id; i++)
        node_offsets[i] = AIRC_MEM_UNPLANNED;
    for (size_t i = 0; i < f->t.nlaunches - 1; i++) /* sub stays outside the arena */
        node_offsets[f->launches[i].k.node->id] = offs[i];

    airc_strbuf sb;
    airc_sb_init(&sb, f->ctx);
    AIRC_ASSERT_OK(airc_replay_dump_txt(f->g, &f->t, &mp, node_offsets, &sb));
    const char *text = airc_sb_cstr(&sb);
    fputs(text, stdout);

    char *fx = airc_test_print(f->g, AIRC_PRINT_TYPES);
    assert_memory_equal(text, fx, strlen(fx));
    free(fx);
    const char *launch_lines[] = {
        "#  0 stream_1 mm aten.mm.default wait=[e0] record=[] offset=",
        "#  1 stream_1 abs_1 aten.abs.default wait=[] record=[e1,e2,e3] offset=",
        "#  2 main add aten.add.Tensor wait=[e1] record=[] offset=",
        "#  3 main sub aten.sub.Tensor wait=[e2] record=[] offset=-\n",
    };
    for (size_t i = 0; i < 4; i++)
        assert_non_null(strstr(text, launch_lines[i]));
    assert_int_equal(count1(text, "#  ", "wait=[", " record=["), 4);
    char want[160];
    snprintf(want, sizeof want, "wait=[e0] record=[] offset=%llu\n", (unsigned long long)offs[0]);
    assert_non_null(strstr(text, want));
    assert_non_null(strstr(text, "# launch table: 4 launches, 2 streams, 4 events\n"));
    assert_non_null(strstr(text, "# streams: 0=main 1=stream_1\n"));
    assert_non_null(strstr(text, "# event e0 fork main -> stream_1\n"));
    assert_non_null(strstr(text, "# event e3 join stream_1 -> main\n"));
    assert_non_null(strstr(text, "# start main record=[e0]\n"));
    assert_non_null(strstr(text, "# output wait=[e3]\n"));
    snprintf(want, sizeof want,
             "# memory plan: arena=%llu lower_bound=%llu naive=%llu align=64 planned=4 "
             "strategy=%s\n",
             (unsigned long long)mp.arena_bytes, (unsigned long long)mp.lower_bound_bytes,
             (unsigned long long)mp.naive_bytes, airc_mem_strategy_name(mp.strategy));
    assert_non_null(strstr(text, want));

    /* the dump is still FX text: the table is comments */
    airc_graph *back = NULL;
    AIRC_ASSERT_OK(airc_graph_parse(f->ctx, text, strlen(text), "dump", &back));
    airc_graph_destroy(back);

    /* no offsets, no plan */
    airc_sb_free(&sb);
    airc_sb_init(&sb, f->ctx);
    AIRC_ASSERT_OK(airc_replay_dump_txt(f->g, &f->t, NULL, NULL, &sb));
    text = airc_sb_cstr(&sb);
    assert_non_null(strstr(text, "#  3 main sub aten.sub.Tensor wait=[e2] record=[]\n"));
    assert_null(strstr(text, "offset="));
    assert_non_null(strstr(text, "# memory plan: none\n"));
    airc_sb_free(&sb);
    free(node_offsets);
}

static void test_dump_errors(void **state)
{
    table_fixture *f = *state;
    airc_strbuf sb;
    airc_sb_init(&sb, f->ctx);
    AIRC_EXPECT(airc_replay_dump_txt(NULL, &f->t, NULL, NULL, &sb), AIRC_E_INVALID_ARGUMENT,
                "graph");
    AIRC_EXPECT(airc_replay_dump_txt(f->g, NULL, NULL, NULL, &sb), AIRC_E_INVALID_ARGUMENT,
                "table");
    AIRC_EXPECT(airc_replay_dump_txt(f->g, &f->t, NULL, NULL, NULL), AIRC_E_INVALID_ARGUMENT,
                "out");
    f->waits[0] = 99;
    AIRC_EXPECT(airc_replay_dump_txt(f->g, &f->t, NULL, NULL, &sb), AIRC_E_INVALID_ARGUMENT,
                "launch 0");
    f->waits[0] = 0;
    f->out_waits[0] = 99;
    AIRC_EXPECT(airc_replay_dump_txt(f->g, &f->t, NULL, NULL, &sb), AIRC_E_INVALID_ARGUMENT,
                "output");
    f->out_waits[0] = 3;
    assert_int_equal(sb.len, 0);
    airc_sb_free(&sb);
}

/* Every allocation failure of the dump reports OUT_OF_MEMORY and leaks
 * nothing. */
static void test_dump_oom(void **state)
{
    (void)state;
    for (size_t fail_at = 1;; fail_at++) {
        airc_test_alloc st = {0};
        airc_allocator a;
        airc_test_alloc_init(&st, &a);
        table_fixture *f = calloc(1, sizeof *f);
        AIRC_ASSERT_OK(airc_context_create(&a, &f->ctx));
        f->g = parse_seed(f->ctx);
        AIRC_ASSERT_OK(airc_stream_plan_build(f->g, &f->plan));
        build_table(f);
        airc_strbuf sb;
        airc_sb_init(&sb, f->ctx);
        st.fail_at = st.count + fail_at;
        airc_status s = airc_replay_dump_txt(f->g, &f->t, NULL, NULL, &sb);
        bool failed = st.failures > 0;
        st.fail_at = 0;
        airc_sb_free(&sb);
        airc_stream_plan_free(&f->plan);
        airc_graph_destroy(f->g);
        airc_context_destroy(f->ctx);
        free(f);
        assert_int_equal(st.live, 0);
        if (!failed) {
            assert_int_equal(s, AIRC_OK);
            break;
        }
        assert_int_equal(s, AIRC_E_OUT_OF_MEMORY);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_trace_seed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_escaping, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_partial, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dump_seed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dump_errors, setup, teardown),
        cmocka_unit_test(test_dump_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
