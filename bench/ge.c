/* bench/ge: Ascend IR (GE ModelDef) lowering on a large graph (issue 6),
 * as JSON lines.
 *
 * A synthetic ATen graph of N nodes (placeholders and output included) on
 * 8x8 f32: blocks of add(prev, prev_prev) -> mul(., w) -> relu -> sub(., add),
 * every 4th block ending in mm(., w). Timed, median of --runs:
 *   emit_serialize_s  airc_ge_builder_init + airc_ge_lower + airc_ge_pack of
 *                     the typed graph (as src/compile/autotune.c does)
 *   parse_validate_s  airc_ge_unpack + airc_ge_raise_model of those bytes
 *   compile_total_s   airc_compile in max-autotune with example inputs: the
 *                     pass pipeline, the lowering, packing and the read-back
 * Targets (issue 6): emit + serialize and parse + validate under 0.5 s each.
 *
 * Usage: ge [--nodes N[,N...]] [--runs R] [--only direct|compile] */
#define BENCH_NAME "bench/ge"
#include "bench_util.h"

#include <airc/runtime.h>

#include "backends/ge/execute.h"
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"

#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#ifndef AIRC_BENCH_BUILD_TYPE
#define AIRC_BENCH_BUILD_TYPE "unknown"
#endif

#define TARGET_S 0.5

typedef struct bench {
    airc_context *ctx;
    airc_runtime *rt;
    int runs;
    bool direct, compile;
} bench;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- graph text ----------------------------------------------------------- */

typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (t->s && (size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        t->cap = (t->cap + (size_t)n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        if (!t->s) {
            fprintf(stderr, "%s: out of memory\n", BENCH_NAME);
            exit(1);
        }
    }
}

#define OP(t) "call_function[target=torch.ops.aten." t "]"

/* Emits one binary node `name = op(a, b)`. */
static void binary(text *t, const char *name, const char *op, const char *a, const char *b)
{
    put(t,
        "    %%%s : [#users=1] = call_function[target=torch.ops.aten.%s](args = (%%%s, %%%s), "
        "kwargs = {})\n",
        name, op, a, b);
}

/* N nodes in all: 2 placeholders, blocks, 1 output (the last block may be
 * cut short). [#users=K] is required by the parser; it recounts users. */
static airc_graph *build_graph(bench *b, int nodes)
{
    text t = {0};
    put(&t, "graph():\n");
    put(&t, "    %%x : f32[8, 8] [#users=1] = placeholder[target=x]\n");
    put(&t, "    %%w : f32[8, 8] [#users=1] = placeholder[target=w]\n");
    int left = nodes - 3;
    char prev[32] = "x", prev2[32] = "x", name[32], a[32], cur[32];
    for (int i = 0; left > 0; i++) {
        snprintf(a, sizeof a, "add_%d", i);
        binary(&t, a, "add.Tensor", prev, prev2);
        snprintf(cur, sizeof cur, "%s", a);
        if (--left > 0) {
            snprintf(name, sizeof name, "mul_%d", i);
            binary(&t, name, "mul.Tensor", cur, "w");
            snprintf(cur, sizeof cur, "%s", name);
            left--;
        }
        if (left > 0) {
            snprintf(name, sizeof name, "relu_%d", i);
            put(&t, "    %%%s : [#users=1] = " OP("relu.default") "(args = (%%%s,), kwargs = {})\n",
                name, cur);
            snprintf(cur, sizeof cur, "%s", name);
            left--;
        }
        if (left > 0) {
            snprintf(name, sizeof name, "sub_%d", i);
            binary(&t, name, "sub.Tensor", cur, a);
            snprintf(cur, sizeof cur, "%s", name);
            left--;
        }
        if (left > 0 && i % 4 == 3) {
            snprintf(name, sizeof name, "mm_%d", i);
            binary(&t, name, "mm.default", cur, "w");
            snprintf(cur, sizeof cur, "%s", name);
            left--;
        }
        snprintf(prev2, sizeof prev2, "%s", prev);
        snprintf(prev, sizeof prev, "%s", cur);
    }
    put(&t, "    return %s\n", prev);
    airc_graph *g;
    CHECK(airc_graph_parse(b->ctx, t.s, t.len, "bench_ge", &g), "parse");
    free(t.s);
    return g;
}

/* ---- direct: the lowering's pieces ---------------------------------------- */

typedef struct result {
    size_t nodes, ops, bytes;
    double emit_serialize_s, parse_validate_s, compile_total_s;
} result;

/* A clone of g with 8x8 f32 meta on the placeholders, propagated (what
 * autotune.c's typed_clone does). */
static airc_graph *typed_clone(const airc_graph *g)
{
    airc_graph *c;
    CHECK(airc_graph_clone(g, &c), "clone");
    const int64_t shape[2] = {8, 8}, strides[2] = {8, 1};
    for (airc_node *n = c->root.next; n != &c->root; n = n->next)
        if (n->kind == AIRC_NODE_PLACEHOLDER)
            CHECK(airc_node_set_meta(n, AIRC_DTYPE_F32, 2, shape, strides), "set meta");
    CHECK(airc_graph_propagate_meta(c), "propagate meta");
    return c;
}

static void time_direct(bench *b, const airc_graph *g, result *r)
{
    airc_graph *tg = typed_clone(g);
    double *es = calloc((size_t)b->runs, sizeof *es), *pv = calloc((size_t)b->runs, sizeof *pv);
    for (int k = 0; k < b->runs; k++) {
        double t0 = now_s();
        airc_ge_builder gb;
        CHECK(airc_ge_builder_init(&gb, b->ctx, tg, "airc_graph"), "builder init");
        airc_ge_lower_options o = {NULL, "airc_graph"};
        CHECK(airc_ge_lower(&gb, tg, &o), "lower");
        uint8_t *bytes;
        size_t len;
        CHECK(airc_ge_pack(b->ctx, gb.model, &bytes, &len), "pack");
        airc_ge_builder_free(&gb);
        double t1 = now_s();
        Ge__Proto__ModelDef *m;
        CHECK(airc_ge_unpack(b->ctx, bytes, len, &m), "unpack");
        airc_graph *raised;
        size_t nin;
        CHECK(airc_ge_raise_model(b->ctx, m, &raised, &nin), "raise");
        double t2 = now_s();
        if (nin != 2) {
            fprintf(stderr, "%s: the model has %zu inputs, expected 2\n", BENCH_NAME, nin);
            exit(1);
        }
        r->ops = m->n_graph ? m->graph[0]->n_op : 0;
        r->bytes = len;
        es[k] = t1 - t0;
        pv[k] = t2 - t1;
        airc_graph_destroy(raised);
        airc_ge_unpacked_free(b->ctx, m);
        airc_free(b->ctx, bytes);
    }
    r->emit_serialize_s = median(es, b->runs);
    r->parse_validate_s = median(pv, b->runs);
    free(es);
    free(pv);
    airc_graph_destroy(tg);
}

/* ---- compile: max-autotune with example inputs ----------------------------- */

static void time_compile(bench *b, const airc_graph *g, result *r)
{
    airc_config *cfg;
    CHECK(airc_config_create(b->ctx, &cfg), "config");
    CHECK(airc_config_set(cfg, "mode", "max-autotune"), "config mode");
    airc_example_inputs *ex;
    CHECK(airc_example_inputs_create(b->ctx, &ex), "example inputs");
    const int64_t shape[2] = {8, 8};
    for (int i = 0; i < 2; i++)
        CHECK(airc_example_inputs_add(ex, AIRC_DTYPE_F32, 2, shape, NULL), "example input");
    airc_compile_options o;
    airc_compile_options_init(&o);
    o.config = cfg;
    o.example_inputs = ex;
    o.runtime = b->rt;
    double *t = calloc((size_t)b->runs, sizeof *t);
    for (int k = 0; k < b->runs; k++) {
        double t0 = now_s();
        airc_compiled *c;
        CHECK(airc_compile(g, &o, &c), "compile");
        t[k] = now_s() - t0;
        const uint8_t *data;
        size_t len;
        CHECK(airc_compiled_model(c, &data, &len), "compiled model");
        if (!r->bytes) { /* --only compile: the compiled model's size and ops */
            Ge__Proto__ModelDef *m;
            CHECK(airc_ge_unpack(b->ctx, data, len, &m), "unpack");
            r->ops = m->n_graph ? m->graph[0]->n_op : 0;
            r->bytes = len;
            airc_ge_unpacked_free(b->ctx, m);
        }
        airc_compiled_destroy(c);
    }
    r->compile_total_s = median(t, b->runs);
    free(t);
    airc_example_inputs_destroy(ex);
    airc_config_destroy(cfg);
}

static void run_size(bench *b, int nodes)
{
    airc_graph *g = build_graph(b, nodes);
    result r = {0};
    r.nodes = g->nnodes;
    if (b->direct)
        time_direct(b, g, &r);
    if (b->compile)
        time_compile(b, g, &r);
    printf("{\"bench\": \"ge\", \"nodes\": %zu, \"ops\": %zu, \"bytes\": %zu, \"runs\": %d, "
           "\"build\": \"%s\"",
           r.nodes, r.ops, r.bytes, b->runs, AIRC_BENCH_BUILD_TYPE);
    if (b->direct)
        printf(", \"emit_serialize_s\": %.4f, \"parse_validate_s\": %.4f", r.emit_serialize_s,
               r.parse_validate_s);
    if (b->compile)
        printf(", \"compile_total_s\": %.4f", r.compile_total_s);
    if (b->direct)
        printf(", \"targets\": {\"emit_serialize_under_%.1fs\": %s, "
               "\"parse_validate_under_%.1fs\": %s}",
               TARGET_S, r.emit_serialize_s < TARGET_S ? "true" : "false", TARGET_S,
               r.parse_validate_s < TARGET_S ? "true" : "false");
    printf("}\n");
    fflush(stdout);
    airc_graph_destroy(g);
}

int main(int argc, char **argv)
{
    bench b = {.runs = 3, .direct = true, .compile = true};
    const char *sizes = "100000";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--nodes") && i + 1 < argc)
            sizes = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            b.runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            const char *w = argv[++i];
            b.direct = !strcmp(w, "direct");
            b.compile = !strcmp(w, "compile");
            if (!b.direct && !b.compile) {
                fprintf(stderr, "%s: --only direct|compile\n", BENCH_NAME);
                return 2;
            }
        } else {
            fprintf(stderr, "usage: %s [--nodes N[,N...]] [--runs R] [--only direct|compile]\n",
                    argv[0]);
            return 2;
        }
    }
    if (b.runs < 1)
        b.runs = 1;
    CHECK(airc_context_create(NULL, &b.ctx), "context");
    CHECK(airc_cpu_runtime_create(b.ctx, NULL, &b.rt), "runtime");
    for (const char *p = sizes; *p;) {
        char *end;
        long n = strtol(p, &end, 10);
        if (end == p || n < 4) {
            fprintf(stderr, "%s: bad --nodes '%s' (each at least 4)\n", BENCH_NAME, sizes);
            return 2;
        }
        run_size(&b, (int)n);
        p = *end == ',' ? end + 1 : end;
    }
    airc_runtime_destroy(b.rt);
    airc_context_destroy(b.ctx);
    return 0;
}
