/*
 * bench/passes — times airc's graph passes on synthetic ATen graphs.
 *
 * The graph is the one of torch-fx-semantics.md §4 (the torch.fx baseline),
 * generated directly as FX text: placeholders x and w, then blocks
 *
 *     add_i  = aten.add.Tensor(prev, prev_prev)
 *     mul_i  = aten.mul.Tensor(add_i, w)
 *     relu_i = aten.relu.default(mul_i)
 *     mm_i   = aten.mm.default(relu_i, w)          every 4th block (i % 4 == 3)
 *     neg_i  = aten.neg.default(relu_i)            every 5th block (i % 5 == 4),
 *     drelu_i = aten.relu.default(neg_i)           a dead chain
 *
 * where the block's result (mm_i if present, else relu_i) becomes prev; the
 * output returns the last block's result. The text is byte-for-byte what
 * torch.fx's str(graph) prints for the same graph (bench/passes.py checks).
 *
 * Each pass runs on a fresh clone of the parsed graph, so passes are timed
 * independently; "end_to_end" chains parse -> dce -> cse -> rewrite -> print
 * from the text in memory. Output: one JSON object on stdout.
 *
 * Usage: passes [--sizes 10000,100000,1000000] [--runs N] [--e2e-size N]
 *               [--only PASS[,PASS...]]  (run only these, for profiling;
 *                                         parse always runs)
 *               [--emit N]   (print the generated text for N nodes and exit)
 */
#include <airc/airc.h>
#define BENCH_NAME "bench/passes"
#include "bench_util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#ifndef AIRC_BENCH_BUILD_TYPE
#define AIRC_BENCH_BUILD_TYPE "unknown"
#endif

/* ------------------------------------------------------------------------ */
/* Small helpers                                                            */
/* ------------------------------------------------------------------------ */

typedef struct {
    char *data;
    size_t len, cap;
} buf;

static void buf_reserve(buf *b, size_t extra)
{
    if (b->len + extra <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + extra)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        fprintf(stderr, "bench/passes: out of memory\n");
        exit(1);
    }
    b->data = p;
    b->cap = cap;
}

static void buf_str(buf *b, const char *s)
{
    size_t n = strlen(s);
    buf_reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

static void buf_u(buf *b, unsigned long v)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    buf_reserve(b, (size_t)n);
    while (n)
        b->data[b->len++] = tmp[--n];
}

static void buf_printf(buf *b, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    buf_reserve(b, (size_t)n + 1);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    b->len += (size_t)n;
}

/* ------------------------------------------------------------------------ */
/* Graph text generation                                                    */
/* ------------------------------------------------------------------------ */

typedef struct {
    size_t nodes;  /* every node: placeholders and output included */
    size_t blocks; /* add->mul->relu blocks */
} gen_stats;

static size_t block_nodes(size_t i)
{
    return 3 + (i % 4 == 3) + 2 * (i % 5 == 4);
}

/* A reference to a block's result: "%relu_7" or "%mm_7"; the placeholders
 * are blocks -2 (x) and -1 (w). */
static void ref(buf *b, long i, int with_percent)
{
    if (with_percent)
        buf_str(b, "%");
    if (i == -2) {
        buf_str(b, "x");
        return;
    }
    if (i == -1) {
        buf_str(b, "w");
        return;
    }
    buf_str(b, i % 4 == 3 ? "mm_" : "relu_");
    buf_u(b, (unsigned long)i);
}

static void node_head(buf *b, const char *base, size_t i, size_t users, const char *target)
{
    buf_str(b, "\n    %");
    buf_str(b, base);
    buf_u(b, i);
    buf_str(b, " : [#users=");
    buf_u(b, users);
    buf_str(b, "] = call_function[target=torch.ops.aten.");
    buf_str(b, target);
    buf_str(b, "](args = (");
}

static const char *const tail1 = ",), kwargs = {})";
static const char *const tail2 = "), kwargs = {})";

/* Generates the graph text with as many blocks as fit in `target` nodes. */
static char *generate(size_t target, size_t *len, gen_stats *st)
{
    size_t n = 0, nodes = 3; /* x, w, output */
    while (nodes + block_nodes(n) <= target || n < 1) {
        nodes += block_nodes(n);
        n++;
    }
    buf b = {0};
    buf_reserve(&b, nodes * 120 + 256);
    /* w: add_0 and add_1 (as prev / prev_prev), every mul, every mm */
    size_t w_users = 1 + (n >= 2) + n + n / 4;
    buf_str(&b, "graph():\n    %x : [#users=1] = placeholder[target=x]");
    buf_str(&b, "\n    %w : [#users=");
    buf_u(&b, w_users);
    buf_str(&b, "] = placeholder[target=w]");
    for (size_t i = 0; i < n; i++) {
        int has_mm = i % 4 == 3, has_dead = i % 5 == 4;
        /* the block result is used by the next two adds, or the output */
        size_t res_users = (i + 1 < n) + (i + 2 < n) + (i + 1 == n);
        node_head(&b, "add_", i, 1, "add.Tensor");
        ref(&b, (long)i - 1, 1);
        buf_str(&b, ", ");
        ref(&b, (long)i - 2, 1);
        buf_str(&b, tail2);
        node_head(&b, "mul_", i, 1, "mul.Tensor");
        buf_str(&b, "%add_");
        buf_u(&b, i);
        buf_str(&b, ", %w");
        buf_str(&b, tail2);
        node_head(&b, "relu_", i, (has_mm ? 1 : res_users) + (size_t)has_dead, "relu.default");
        buf_str(&b, "%mul_");
        buf_u(&b, i);
        buf_str(&b, tail1);
        if (has_mm) {
            node_head(&b, "mm_", i, res_users, "mm.default");
            buf_str(&b, "%relu_");
            buf_u(&b, i);
            buf_str(&b, ", %w");
            buf_str(&b, tail2);
        }
        if (has_dead) {
            node_head(&b, "neg_", i, 1, "neg.default");
            buf_str(&b, "%relu_");
            buf_u(&b, i);
            buf_str(&b, tail1);
            node_head(&b, "drelu_", i, 0, "relu.default");
            buf_str(&b, "%neg_");
            buf_u(&b, i);
            buf_str(&b, tail1);
        }
    }
    buf_str(&b, "\n    return ");
    ref(&b, (long)n - 1, 0);
    buf_str(&b, "\n");
    st->nodes = nodes;
    st->blocks = n;
    *len = b.len;
    return b.data;
}

/* ------------------------------------------------------------------------ */
/* The passes                                                               */
/* ------------------------------------------------------------------------ */

/* mul(add(a, b), c) -> add(mul(a, c), mul(b, c)), as in the torch.fx
 * baseline (torch-fx-semantics.md §4). */
static const char pattern_text[] =
    "graph():\n"
    "    %a : [#users=1] = placeholder[target=a]\n"
    "    %b : [#users=1] = placeholder[target=b]\n"
    "    %c : [#users=1] = placeholder[target=c]\n"
    "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor]"
    "(args = (%a, %b), kwargs = {})\n"
    "    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor]"
    "(args = (%add, %c), kwargs = {})\n"
    "    return mul\n";
static const char replacement_text[] =
    "graph():\n"
    "    %a : [#users=1] = placeholder[target=a]\n"
    "    %b : [#users=1] = placeholder[target=b]\n"
    "    %c : [#users=2] = placeholder[target=c]\n"
    "    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor]"
    "(args = (%a, %c), kwargs = {})\n"
    "    %mul_1 : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor]"
    "(args = (%b, %c), kwargs = {})\n"
    "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor]"
    "(args = (%mul, %mul_1), kwargs = {})\n"
    "    return add\n";

static const char *const partition_ops[] = {"aten.add.Tensor", "aten.mul.Tensor",
                                            "aten.relu.default", "aten.neg.default"};

enum {
    P_PARSE,
    P_LINT,
    P_CLONE,
    P_DCE,
    P_CSE,
    P_MATCH,
    P_REWRITE,
    P_PROPOSE,
    P_FUSE,
    P_PARTITION,
    P_PRINT,
    P_COUNT
};
static const char *const pass_names[P_COUNT] = {
    "parse", "lint", "clone", "dce", "cse", "match", "rewrite",
    "partition_propose", "partition_fuse", "partition", "print"};

typedef struct {
    size_t dce_removed, cse_removed, matches, replaced, nodes_after_rewrite, partitions,
        nodes_after_fuse, print_bytes;
} counts;

typedef struct {
    unsigned only; /* bit p set: run pass p */
    airc_context *ctx;
    airc_graph *pattern, *replacement;
    airc_matcher *matcher;
    airc_support *support;
    airc_partition_options popts;
} bench_env;

static airc_graph *clone_of(const airc_graph *g)
{
    airc_graph *c;
    CHECK(airc_graph_clone(g, &c), "airc_graph_clone");
    return c;
}

/* One run of every pass on `text`; t[] receives seconds. */
static void run_once(bench_env *env, const char *text, size_t len, double t[P_COUNT], counts *c)
{
    double t0;
    airc_graph *g, *w;
    size_t n0;

    t0 = now_s();
    CHECK(airc_graph_parse(env->ctx, text, len, "bench", &g), "airc_graph_parse");
    t[P_PARSE] = now_s() - t0;
    n0 = airc_graph_num_nodes(g);

    for (int p = P_LINT; p < P_COUNT; p++)
        t[p] = NAN;
#define RUNS(p) (env->only & (1u << (p)))

    if (RUNS(P_LINT)) {
        t0 = now_s();
        CHECK(airc_graph_lint(g), "airc_graph_lint");
        t[P_LINT] = now_s() - t0;
    }

    if (RUNS(P_CLONE)) {
        t0 = now_s();
        w = clone_of(g);
        t[P_CLONE] = now_s() - t0;
        airc_graph_destroy(w);
    }

    if (RUNS(P_DCE)) {
        w = clone_of(g);
        t0 = now_s();
        CHECK(airc_pass_dce(w, NULL), "airc_pass_dce");
        t[P_DCE] = now_s() - t0;
        c->dce_removed = n0 - airc_graph_num_nodes(w);
        airc_graph_destroy(w);
    }

    if (RUNS(P_CSE)) {
        w = clone_of(g);
        t0 = now_s();
        CHECK(airc_pass_cse(w, NULL), "airc_pass_cse");
        t[P_CSE] = now_s() - t0;
        c->cse_removed = n0 - airc_graph_num_nodes(w);
        airc_graph_destroy(w);
    }

    if (RUNS(P_MATCH)) {
        airc_match_list *ml;
        t0 = now_s();
        CHECK(airc_matcher_match(env->matcher, g, &ml), "airc_matcher_match");
        t[P_MATCH] = now_s() - t0;
        c->matches = airc_match_list_size(ml);
        airc_match_list_destroy(ml);
    }

    if (RUNS(P_REWRITE)) {
        w = clone_of(g);
        airc_replaced_patterns *rp;
        t0 = now_s();
        CHECK(airc_replace_pattern(w, env->pattern, env->replacement, &rp),
              "airc_replace_pattern");
        t[P_REWRITE] = now_s() - t0;
        c->replaced = airc_replaced_patterns_size(rp);
        c->nodes_after_rewrite = airc_graph_num_nodes(w);
        airc_replaced_patterns_destroy(rp);
        airc_graph_destroy(w);
    }

    if (RUNS(P_PROPOSE) || RUNS(P_FUSE) || RUNS(P_PARTITION)) {
        w = clone_of(g);
        airc_partitions *parts;
        t0 = now_s();
        CHECK(airc_graph_propose_partitions(w, env->support, &env->popts, &parts),
              "airc_graph_propose_partitions");
        double t1 = now_s();
        CHECK(airc_graph_fuse_partitions(w, parts), "airc_graph_fuse_partitions");
        double t2 = now_s();
        t[P_PROPOSE] = t1 - t0;
        t[P_FUSE] = t2 - t1;
        t[P_PARTITION] = t2 - t0;
        c->partitions = airc_partitions_count(parts);
        c->nodes_after_fuse = airc_graph_num_nodes(w);
        airc_partitions_destroy(parts);
        airc_graph_destroy(w);
    }

    if (RUNS(P_PRINT)) {
        char *s;
        t0 = now_s();
        CHECK(airc_graph_print(g, AIRC_PRINT_DEFAULT, &s), "airc_graph_print");
        t[P_PRINT] = now_s() - t0;
        c->print_bytes = strlen(s);
        airc_string_free(s);
    }
#undef RUNS
    airc_graph_destroy(g);
}

/* CPU time of the process (user + system): on a shared machine it varies
 * less than the wall clock. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* parse -> dce -> cse -> rewrite -> print, from the text in memory;
 * *cpu_out receives the CPU seconds of the same span. */
static double end_to_end(bench_env *env, const char *text, size_t len, double steps[5],
                         size_t *nodes_out, double *cpu_out)
{
    airc_graph *g, *pat, *rep;
    char *s;
    double c0 = cpu_s();
    double t0 = now_s(), t;
    CHECK(airc_graph_parse(env->ctx, text, len, "bench", &g), "airc_graph_parse");
    t = now_s();
    steps[0] = t - t0;
    CHECK(airc_pass_dce(g, NULL), "airc_pass_dce");
    steps[1] = now_s() - t;
    t = now_s();
    CHECK(airc_pass_cse(g, NULL), "airc_pass_cse");
    steps[2] = now_s() - t;
    t = now_s();
    /* the pattern is part of the work a CLI run does, so it is timed too */
    CHECK(airc_graph_parse(env->ctx, pattern_text, sizeof pattern_text - 1, "pattern", &pat),
          "parse pattern");
    CHECK(airc_graph_parse(env->ctx, replacement_text, sizeof replacement_text - 1,
                           "replacement", &rep),
          "parse replacement");
    CHECK(airc_replace_pattern(g, pat, rep, NULL), "airc_replace_pattern");
    steps[3] = now_s() - t;
    t = now_s();
    CHECK(airc_graph_print(g, AIRC_PRINT_DEFAULT, &s), "airc_graph_print");
    steps[4] = now_s() - t;
    double total = now_s() - t0;
    *cpu_out = cpu_s() - c0;
    *nodes_out = airc_graph_num_nodes(g);
    airc_string_free(s);
    airc_graph_destroy(pat);
    airc_graph_destroy(rep);
    airc_graph_destroy(g);
    return total;
}

/* ------------------------------------------------------------------------ */
/* Driver                                                                   */
/* ------------------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define MAX_SIZES 8
#define MAX_RUNS 15

typedef struct {
    size_t target;
    gen_stats st;
    size_t text_bytes;
    double gen_s;
    int runs;
    double med[P_COUNT];
    counts c;
} size_result;

static void machine_json(buf *o)
{
    char model[256] = "unknown";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10) == 0) {
                char *p = strchr(line, ':');
                if (p) {
                    p++;
                    while (*p == ' ' || *p == '\t')
                        p++;
                    p[strcspn(p, "\n")] = '\0';
                    snprintf(model, sizeof model, "%s", p);
                }
                break;
            }
        }
        fclose(f);
    }
    for (char *p = model; *p; p++)
        if (*p == '"' || *p == '\\')
            *p = ' ';
    double load[3] = {-1, -1, -1};
    f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
            load[0] = load[1] = load[2] = -1;
        fclose(f);
    }
    buf_printf(o,
               "  \"machine\": {\"nproc\": %ld, \"cpu_model\": \"%s\", "
               "\"loadavg_at_start\": [%.2f, %.2f, %.2f]},\n",
               sysconf(_SC_NPROCESSORS_ONLN), model, load[0], load[1], load[2]);
}

static void json_num_or_null(buf *o, double v)
{
    if (isfinite(v))
        buf_printf(o, "%.6g", v);
    else
        buf_str(o, "null");
}

static void usage(void)
{
    fprintf(stderr, "usage: passes [--sizes N,N,...] [--runs R] [--e2e-size N|0] "
                    "[--only PASS,...] [--emit N]\n");
    exit(2);
}

static size_t parse_size(const char *s)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || v < 8 || v > 100000000ULL)
        usage();
    if (*end == 'k')
        v *= 1000, end++;
    else if (*end == 'M')
        v *= 1000000, end++;
    if (*end && *end != ',')
        usage();
    return (size_t)v;
}

int main(int argc, char **argv)
{
    size_t sizes[MAX_SIZES] = {10000, 100000, 1000000};
    size_t nsizes = 3, e2e_size = 1000000;
    int runs_opt = 0;
    unsigned only = (1u << P_COUNT) - 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            nsizes = 0;
            for (char *p = argv[++i]; *p;) {
                if (nsizes == MAX_SIZES)
                    usage();
                sizes[nsizes++] = parse_size(p);
                p = strchr(p, ',');
                if (!p)
                    break;
                p++;
            }
        } else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
            runs_opt = atoi(argv[++i]);
            if (runs_opt < 1 || runs_opt > MAX_RUNS)
                usage();
        } else if (!strcmp(argv[i], "--e2e-size") && i + 1 < argc) {
            e2e_size = strcmp(argv[i + 1], "0") ? parse_size(argv[i + 1]) : 0;
            i++;
        } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            only = 1u << P_PARSE;
            for (char *tok = strtok(argv[++i], ","); tok; tok = strtok(NULL, ",")) {
                int p = 0;
                while (p < P_COUNT && strcmp(tok, pass_names[p]))
                    p++;
                if (p == P_COUNT)
                    usage();
                only |= 1u << p;
            }
        } else if (!strcmp(argv[i], "--emit") && i + 1 < argc) {
            size_t len;
            gen_stats st;
            char *text = generate(parse_size(argv[++i]), &len, &st);
            fwrite(text, 1, len, stdout);
            free(text);
            return 0;
        } else {
            usage();
        }
    }

    bench_env env;
    env.only = only;
    CHECK(airc_context_create(NULL, &env.ctx), "airc_context_create");
    CHECK(airc_graph_parse(env.ctx, pattern_text, sizeof pattern_text - 1, "pattern",
                           &env.pattern),
          "parse pattern");
    CHECK(airc_graph_parse(env.ctx, replacement_text, sizeof replacement_text - 1, "replacement",
                           &env.replacement),
          "parse replacement");
    CHECK(airc_matcher_create(env.pattern, NULL, &env.matcher), "airc_matcher_create");
    CHECK(airc_support_create_ops(env.ctx, partition_ops, 4, &env.support),
          "airc_support_create_ops");
    airc_partition_options_init(&env.popts);
    /* torch 1.13's partitioner (the baseline) has no horizontal fusion */
    env.popts.horizontal_fusion = 0;

    buf o = {0};
    buf_str(&o, "{\n");
    machine_json(&o);
    buf_printf(&o, "  \"build_type\": \"%s\",\n  \"airc_version\": \"%s\",\n",
               AIRC_BENCH_BUILD_TYPE, airc_version());

    size_result res[MAX_SIZES];
    for (size_t k = 0; k < nsizes; k++) {
        size_result *r = &res[k];
        memset(r, 0, sizeof *r);
        r->target = sizes[k];
        double t0 = now_s();
        char *text = generate(sizes[k], &r->text_bytes, &r->st);
        r->gen_s = now_s() - t0;
        r->runs = runs_opt ? runs_opt : (sizes[k] >= 1000000 ? 1 : 3);
        double t[MAX_RUNS][P_COUNT];
        for (int j = 0; j < r->runs; j++) {
            fprintf(stderr, "bench/passes: %zu nodes, run %d/%d\n", r->st.nodes, j + 1, r->runs);
            run_once(&env, text, r->text_bytes, t[j], &r->c);
        }
        for (int p = 0; p < P_COUNT; p++) {
            double v[MAX_RUNS];
            for (int j = 0; j < r->runs; j++)
                v[j] = t[j][p];
            qsort(v, (size_t)r->runs, sizeof v[0], cmp_double);
            r->med[p] = v[r->runs / 2];
        }
        free(text);
    }

    buf_str(&o, "  \"pattern\": \"mul(add(a, b), c) -> add(mul(a, c), mul(b, c))\",\n");
    buf_str(&o, "  \"partition_support\": [\"aten.add.Tensor\", \"aten.mul.Tensor\", "
                "\"aten.relu.default\", \"aten.neg.default\"],\n");
    buf_str(&o, "  \"sizes\": [\n");
    for (size_t k = 0; k < nsizes; k++) {
        size_result *r = &res[k];
        buf_printf(&o,
                   "    {\"target_nodes\": %zu, \"nodes\": %zu, \"blocks\": %zu, "
                   "\"text_bytes\": %zu, \"generate_s\": %.6g, \"runs\": %d,\n",
                   r->target, r->st.nodes, r->st.blocks, r->text_bytes, r->gen_s, r->runs);
        buf_str(&o, "     \"seconds\": {");
        for (int p = 0; p < P_COUNT; p++) {
            buf_printf(&o, "%s\"%s\": ", p ? ", " : "", pass_names[p]);
            json_num_or_null(&o, r->med[p]);
        }
        buf_str(&o, "},\n     \"us_per_node\": {");
        for (int p = 0; p < P_COUNT; p++) {
            buf_printf(&o, "%s\"%s\": ", p ? ", " : "", pass_names[p]);
            json_num_or_null(&o, r->med[p] * 1e6 / (double)r->st.nodes);
        }
        buf_printf(&o,
                   "},\n     \"counts\": {\"dce_removed\": %zu, \"cse_removed\": %zu, "
                   "\"matches\": %zu, \"replaced\": %zu, \"nodes_after_rewrite\": %zu, "
                   "\"partitions\": %zu, \"nodes_after_fuse\": %zu, \"print_bytes\": %zu}}%s\n",
                   r->c.dce_removed, r->c.cse_removed, r->c.matches, r->c.replaced,
                   r->c.nodes_after_rewrite, r->c.partitions, r->c.nodes_after_fuse,
                   r->c.print_bytes, k + 1 < nsizes ? "," : "");
    }
    buf_str(&o, "  ],\n");

    /* growth per 10x between consecutive sizes, normalised by the actual
     * node counts: (t2/t1)^(1/log10(n2/n1)); 10 means linear */
    buf_str(&o, "  \"growth_per_10x\": {");
    for (int p = 0; p < P_COUNT; p++) {
        buf_printf(&o, "%s\"%s\": [", p ? ", " : "", pass_names[p]);
        for (size_t k = 1; k < nsizes; k++) {
            double ratio = res[k].med[p] / res[k - 1].med[p];
            double decades = log10((double)res[k].st.nodes / (double)res[k - 1].st.nodes);
            if (k > 1)
                buf_str(&o, ", ");
            json_num_or_null(&o, decades > 0 ? pow(ratio, 1.0 / decades) : NAN);
        }
        buf_str(&o, "]");
    }
    buf_str(&o, "},\n");

    double e2e = NAN;
    if (e2e_size) {
        size_t len, nodes_after;
        gen_stats st;
        char *text = generate(e2e_size, &len, &st);
        double steps[5], cpu;
        fprintf(stderr, "bench/passes: end to end, %zu nodes\n", st.nodes);
        e2e = end_to_end(&env, text, len, steps, &nodes_after, &cpu);
        free(text);
        buf_printf(&o,
                   "  \"end_to_end\": {\"pipeline\": \"parse -> dce -> cse -> rewrite -> print\", "
                   "\"nodes\": %zu, \"nodes_after\": %zu, \"seconds\": %.6g, "
                   "\"cpu_seconds\": %.6g, \"steps\": "
                   "{\"parse\": %.6g, \"dce\": %.6g, \"cse\": %.6g, \"rewrite\": %.6g, "
                   "\"print\": %.6g}},\n",
                   st.nodes, nodes_after, e2e, cpu, steps[0], steps[1], steps[2], steps[3],
                   steps[4]);
    } else {
        buf_str(&o, "  \"end_to_end\": null,\n");
    }

    /* the targets; null when the size was not run */
    double rw100k = NAN;
    for (size_t k = 0; k < nsizes; k++)
        if (res[k].target == 100000)
            rw100k = res[k].med[P_REWRITE];
    buf_str(&o, "  \"targets\": {\n    \"rewrite_100k_under_1pct_of_torch_fx_19s\": "
                "{\"limit_s\": 0.19, \"seconds\": ");
    json_num_or_null(&o, rw100k);
    buf_printf(&o, ", \"pass\": %s},\n",
               isfinite(rw100k) ? (rw100k < 0.19 ? "true" : "false") : "null");
    int e2e_1m = e2e_size == 1000000 && isfinite(e2e);
    buf_str(&o, "    \"parse_dce_cse_rewrite_print_1M_under_3s\": {\"limit_s\": 3.0, \"seconds\": ");
    json_num_or_null(&o, e2e_1m ? e2e : NAN);
    buf_printf(&o, ", \"pass\": %s}\n  },\n",
               e2e_1m ? (e2e < 3.0 ? "true" : "false") : "null");

    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    buf_printf(&o, "  \"peak_rss_mb\": %.1f\n}\n", (double)ru.ru_maxrss / 1024.0);
    fwrite(o.data, 1, o.len, stdout);
    free(o.data);

    airc_support_destroy(env.support);
    airc_matcher_destroy(env.matcher);
    airc_graph_destroy(env.pattern);
    airc_graph_destroy(env.replacement);
    airc_context_destroy(env.ctx);
    return 0;
}
