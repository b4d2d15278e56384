/* bench/replay: what reduce-overhead buys (issue 5), as JSON lines.
 *
 *   chain        500 tiny elementwise ops on 8x8 f32 (a deep residual of
 *                relu/tanh/add/mul): median per call, eager vs replay
 *   launch       a chain of no-op custom ops: replay ns per launch
 *   streams      two independent matmul chains, one stream vs two
 *   transformer  bench/data/transformer_block.fx (512 tokens x 768):
 *                replay per call vs the sum of its kernels' times
 *   memory       arena / liveness lower bound for the project's models
 *                (tests/data/graphs) and the transformer block
 *
 * Usage: replay [--case NAME[,NAME]] [--runs N] [--src DIR]
 * bench/replay.py adds PyTorch's numbers and the targets. */
#define BENCH_NAME "replay"
#include "bench_util.h"

#include <airc/runtime.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

typedef struct bench {
    airc_context *ctx;
    airc_runtime *rt;
    int runs;
    const char *src;
    bool no_eager; /* --no-eager: replay only (for profiling) */
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
            fprintf(stderr, "replay: out of memory\n");
            exit(1);
        }
    }
}

static airc_graph *parse(bench *b, text *t)
{
    airc_graph *g;
    CHECK(airc_graph_parse(b->ctx, t->s, t->len, "bench", &g), "parse");
    free(t->s);
    memset(t, 0, sizeof *t);
    return g;
}

#define OP(t) "call_function[target=torch.ops.aten." t "]"

/* relu -> tanh -> add(residual) -> mul(0.5), repeated to `ops` ops. */
static airc_graph *chain_graph(bench *b, int ops)
{
    text t = {0};
    put(&t, "graph():\n    %%x : f32[8, 8] [#users=1] = placeholder[target=x]\n");
    const char *h = "x";
    char prev[32];
    snprintf(prev, sizeof prev, "%s", h);
    for (int i = 0; i < ops / 4; i++) {
        put(&t, "    %%r%d : [#users=1] = " OP("relu.default") "(args = (%%%s,), kwargs = {})\n", i,
            prev);
        put(&t, "    %%t%d : [#users=1] = " OP("tanh.default") "(args = (%%r%d,), kwargs = {})\n",
            i, i);
        put(&t,
            "    %%a%d : [#users=1] = " OP("add.Tensor") "(args = (%%t%d, %%%s), kwargs = {})\n", i,
            i, prev);
        put(&t, "    %%m%d : [#users=1] = " OP("mul.Tensor") "(args = (%%a%d, 0.5), kwargs = {})\n",
            i, i);
        snprintf(prev, sizeof prev, "m%d", i);
    }
    put(&t, "    return %s\n", prev);
    return parse(b, &t);
}

/* ---- running --------------------------------------------------------------- */

static airc_compiled *compile(bench *b, const airc_graph *g, const size_t *statics, size_t nstatics)
{
    airc_compile_options o;
    airc_compile_options_init(&o);
    o.runtime = b->rt;
    o.static_inputs = statics;
    o.nstatic_inputs = nstatics;
    airc_compiled *c;
    CHECK(airc_compile(g, &o, &c), "compile");
    return c;
}

static void to_views(airc_tensor *const *ts, size_t n, airc_tview *v)
{
    for (size_t i = 0; i < n; i++) {
        memset(&v[i], 0, sizeof v[i]);
        v[i].data = airc_tensor_data(ts[i]);
        v[i].dtype = airc_tensor_dtype(ts[i]);
        v[i].ndim = airc_tensor_ndim(ts[i]);
        int64_t stride = 1;
        for (int32_t d = v[i].ndim - 1; d >= 0; d--) {
            v[i].shape[d] = airc_tensor_shape(ts[i])[d];
            v[i].strides[d] = stride;
            stride *= v[i].shape[d];
        }
    }
}

/* Median seconds of one replay through the allocation-free entry point
 * (after one capturing call). */
static double time_replay(bench *b, airc_compiled *c, airc_tensor *const *ins, size_t nin,
                          int iters)
{
    airc_tview in[32], out[8];
    size_t nout;
    to_views(ins, nin, in);
    CHECK(airc_compiled_run_views(c, in, nin, out, 8, &nout), "capture");
    double *t = calloc((size_t)b->runs, sizeof *t);
    for (int r = 0; r < b->runs; r++) {
        double t0 = now_s();
        for (int i = 0; i < iters; i++)
            CHECK(airc_compiled_run_views(c, in, nin, out, 8, &nout), "replay");
        t[r] = (now_s() - t0) / iters;
    }
    double m = median(t, b->runs);
    free(t);
    return m;
}

static double time_eager(bench *b, const airc_graph *g, airc_tensor *const *ins, size_t nin,
                         int iters)
{
    airc_tensor *out[8];
    size_t nout;
    double *t = calloc((size_t)b->runs, sizeof *t);
    for (int r = 0; r < b->runs; r++) {
        double t0 = now_s();
        for (int i = 0; i < iters; i++) {
            CHECK(airc_run_eager(g, b->rt, ins, nin, out, 8, &nout, NULL), "eager");
            for (size_t j = 0; j < nout; j++)
                airc_tensor_destroy(out[j]);
        }
        t[r] = (now_s() - t0) / iters;
    }
    double m = median(t, b->runs);
    free(t);
    return m;
}

static airc_tensor *random_tensor(bench *b, int32_t ndim, const int64_t *shape, uint64_t *seed)
{
    airc_tensor *t;
    CHECK(airc_tensor_create(b->ctx, AIRC_DTYPE_F32, ndim, shape, &t), "tensor");
    float *d = airc_tensor_data(t);
    for (size_t i = 0; i < airc_tensor_numel(t); i++) {
        *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
        d[i] = (float)((double)(*seed >> 11) / 9007199254740992.0 - 0.5) * 0.1f;
    }
    return t;
}

/* ---- cases ----------------------------------------------------------------------- */

static void case_chain(bench *b)
{
    airc_graph *g = chain_graph(b, 500);
    uint64_t seed = 1;
    int64_t shape[2] = {8, 8};
    airc_tensor *x = random_tensor(b, 2, shape, &seed);
    airc_compiled *c = compile(b, g, NULL, 0);
    double replay = time_replay(b, c, &x, 1, 200);
    double eager = b->no_eager ? 0 : time_eager(b, g, &x, 1, 5);
    printf("{\"case\": \"chain\", \"ops\": 500, \"shape\": [8, 8], \"eager_us\": %.2f, "
           "\"replay_us\": %.2f, \"speedup\": %.1f}\n",
           eager * 1e6, replay * 1e6, eager / replay);
    airc_compiled_destroy(c);
    airc_tensor_destroy(x);
    airc_graph_destroy(g);
}

static airc_status noop_meta(airc_node *n, void *user)
{
    (void)user;
    airc_dtype dt;
    int32_t nd;
    const int64_t *shape;
    airc_status st = airc_value_meta(airc_node_arg(n, 0), &dt, &nd, &shape, NULL);
    return st != AIRC_OK ? st : airc_node_set_meta(n, dt, nd, shape, NULL);
}

static airc_status noop_kernel(airc_kernel_ctx *k, void *user)
{
    (void)k;
    (void)user;
    return AIRC_OK;
}

static void case_launch(bench *b)
{
    const int n = 10000;
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = "bench::noop(Tensor x) -> Tensor";
    def.meta = noop_meta;
    if (airc_context_find_op(b->ctx, "bench.noop.default", NULL) != AIRC_OK) {
        CHECK(airc_context_register_op(b->ctx, &def, NULL), "register bench::noop");
        CHECK(airc_context_set_op_kernel(b->ctx, "bench.noop.default", "cpu", noop_kernel, NULL,
                                         NULL),
              "noop kernel");
    }
    text t = {0};
    put(&t, "graph():\n    %%x : f32[1] [#users=1] = placeholder[target=x]\n");
    put(&t, "    %%n0 : [#users=1] = call_function[target=torch.ops.bench.noop.default](args = "
            "(%%x,), kwargs "
            "= {})\n");
    for (int i = 1; i < n; i++)
        put(&t,
            "    %%n%d : [#users=1] = call_function[target=torch.ops.bench.noop.default](args = "
            "(%%n%d,), "
            "kwargs = {})\n",
            i, i - 1);
    put(&t, "    return n%d\n", n - 1);
    airc_graph *g = parse(b, &t);
    int64_t shape[1] = {1};
    uint64_t seed = 2;
    airc_tensor *x = random_tensor(b, 1, shape, &seed);
    airc_compiled *c = compile(b, g, NULL, 0);
    double per_call = time_replay(b, c, &x, 1, 50);
    airc_compiled_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    CHECK(airc_compiled_get_stats(c, &s), "stats");
    printf("{\"case\": \"launch\", \"launches\": %llu, \"replay_us\": %.2f, "
           "\"ns_per_launch\": %.2f}\n",
           (unsigned long long)s.launches, per_call * 1e6, per_call * 1e9 / (double)s.launches);
    airc_compiled_destroy(c);
    airc_tensor_destroy(x);
    airc_graph_destroy(g);
}

/* Two chains of k matmuls (n x n); with `streams`, the second runs inside a
 * scope on stream_1. */
static airc_graph *two_chains(bench *b, int n, int k, bool streams)
{
    text t = {0};
    put(&t, "graph():\n");
    put(&t, "    %%x1 : f32[%d, %d] [#users=1] = placeholder[target=x1]\n", n, n);
    put(&t, "    %%x2 : f32[%d, %d] [#users=1] = placeholder[target=x2]\n", n, n);
    put(&t, "    %%w : f32[%d, %d] [#users=1] = placeholder[target=w]\n", n, n);
    put(&t, "    %%a0 : [#users=1] = " OP("mm.default") "(args = (%%x1, %%w), kwargs = {})\n");
    for (int i = 1; i < k; i++)
        put(&t, "    %%a%d : [#users=1] = " OP("mm.default") "(args = (%%a%d, %%w), kwargs = {})\n",
            i, i - 1);
    if (streams)
        put(&t, "    %%se : [#users=1] = "
                "call_function[target=torch.ops.air.scope_enter.default](args = "
                "([\"_user_stream_label\"], [\"stream_1\"]), kwargs = {})\n");
    put(&t, "    %%b0 : [#users=1] = " OP("mm.default") "(args = (%%x2, %%w), kwargs = {})\n");
    for (int i = 1; i < k; i++)
        put(&t, "    %%b%d : [#users=1] = " OP("mm.default") "(args = (%%b%d, %%w), kwargs = {})\n",
            i, i - 1);
    if (streams)
        put(&t, "    %%sx : [#users=1] = "
                "call_function[target=torch.ops.air.scope_exit.default](args = (), "
                "kwargs = {})\n");
    put(&t, "    return (a%d, b%d)\n", k - 1, k - 1);
    return parse(b, &t);
}

static void case_streams(bench *b)
{
    const int n = 256, k = 8;
    int64_t shape[2] = {n, n};
    uint64_t seed = 3;
    airc_tensor *ins[3];
    for (int i = 0; i < 3; i++)
        ins[i] = random_tensor(b, 2, shape, &seed);
    double t[2];
    for (int s = 0; s < 2; s++) {
        airc_graph *g = two_chains(b, n, k, s == 1);
        size_t statics[1] = {2};
        airc_compiled *c = compile(b, g, statics, 1);
        t[s] = time_replay(b, c, ins, 3, 5);
        airc_compiled_destroy(c);
        airc_graph_destroy(g);
    }
    printf("{\"case\": \"streams\", \"chains\": 2, \"matmuls_per_chain\": %d, \"n\": %d, "
           "\"one_stream_us\": %.1f, \"two_streams_us\": %.1f, \"ratio\": %.2f}\n",
           k, n, t[0] * 1e6, t[1] * 1e6, t[1] / t[0]);
    for (int i = 0; i < 3; i++)
        airc_tensor_destroy(ins[i]);
}

/* Random inputs of the types written in the graph's placeholders. */
static size_t typed_inputs(bench *b, airc_graph *g, airc_tensor **ins, size_t cap)
{
    size_t n = 0;
    uint64_t seed = 4;
    for (airc_node *p = airc_graph_first_node(g); p; p = airc_node_next(p)) {
        if (airc_node_get_kind(p) != AIRC_NODE_PLACEHOLDER)
            continue;
        airc_dtype dt;
        int32_t nd;
        const int64_t *shape;
        if (n >= cap || airc_node_output_meta(p, 0, &dt, &nd, &shape, NULL) != AIRC_OK) {
            fprintf(stderr, "replay: placeholder '%s' has no type\n", airc_node_name(p));
            exit(1);
        }
        ins[n++] = random_tensor(b, nd, shape, &seed);
    }
    return n;
}

static void case_transformer(bench *b)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/bench/data/transformer_block.fx", b->src);
    airc_graph *g;
    CHECK(airc_graph_parse_file(b->ctx, path, &g), path);
    airc_tensor *ins[32];
    size_t nin = typed_inputs(b, g, ins, 32);
    size_t statics[31];
    for (size_t i = 1; i < nin; i++)
        statics[i - 1] = i; /* weights */
    airc_compiled *c = compile(b, g, statics, nin - 1);
    double replay = time_replay(b, c, ins, nin, 3);
    /* kernel times: a traced replay's launches, summed; median over runs */
    CHECK(airc_compiled_set_trace(c, 1), "trace");
    double *sums = calloc((size_t)b->runs, sizeof *sums);
    airc_tview in[32], out[8];
    size_t nout;
    to_views(ins, nin, in);
    char tpath[] = "/tmp/airc-bench-trace-XXXXXX";
    int fd = mkstemp(tpath);
    if (fd < 0) {
        perror("replay: mkstemp");
        exit(1);
    }
    close(fd);
    for (int r = 0; r < b->runs; r++) {
        CHECK(airc_compiled_run_views(c, in, nin, out, 8, &nout), "traced replay");
        CHECK(airc_compiled_write_trace(c, tpath), "write trace");
        FILE *f = fopen(tpath, "r");
        double sum = 0;
        char line[1 << 16];
        while (f && fgets(line, sizeof line, f)) {
            for (char *p = line; (p = strstr(p, "\"dur\":")); p += 6)
                sum += strtod(p + 6, NULL);
        }
        if (f)
            fclose(f);
        sums[r] = sum * 1e-6;
    }
    remove(tpath);
    double kernels = median(sums, b->runs);
    double eager = time_eager(b, g, ins, nin, 1);
    airc_compiled_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    CHECK(airc_compiled_get_stats(c, &s), "stats");
    printf("{\"case\": \"transformer\", \"tokens\": 512, \"dim\": 768, \"launches\": %llu, "
           "\"eager_ms\": %.2f, \"replay_ms\": %.2f, \"kernels_ms\": %.2f, "
           "\"replay_over_kernels\": %.3f, \"arena_bytes\": %llu, \"lower_bound_bytes\": %llu, "
           "\"naive_bytes\": %llu}\n",
           (unsigned long long)s.launches, eager * 1e3, replay * 1e3, kernels * 1e3,
           replay / kernels, (unsigned long long)s.arena_bytes,
           (unsigned long long)s.lower_bound_bytes, (unsigned long long)s.naive_bytes);
    free(sums);
    airc_compiled_destroy(c);
    for (size_t i = 0; i < nin; i++)
        airc_tensor_destroy(ins[i]);
    airc_graph_destroy(g);
}

/* One model's arena vs its lower bound: its inputs are read from NAME.in*.npy. */
static void memory_one(bench *b, const char *dir, const char *file, double *worst, double *sum,
                       int *count)
{
    char path[8192];
    if (snprintf(path, sizeof path, "%s/%s", dir, file) >= (int)sizeof path)
        return;
    airc_graph *g;
    if (airc_graph_parse_file(b->ctx, path, &g) != AIRC_OK)
        return;
    airc_tensor *ins[64];
    size_t nin = 0;
    size_t stem = strlen(file) - 3;
    for (; nin < 64; nin++) {
        if (snprintf(path, sizeof path, "%s/%.*s.in%zu.npy", dir, (int)stem, file, nin) >=
            (int)sizeof path)
            break;
        if (airc_npy_read(b->ctx, path, &ins[nin]) != AIRC_OK)
            break;
    }
    airc_compiled *c = NULL;
    airc_tensor *outs[64];
    size_t nout = 0;
    if (airc_compile(g, NULL, &c) == AIRC_OK &&
        airc_compiled_run(c, ins, nin, outs, 64, &nout) == AIRC_OK) {
        for (size_t i = 0; i < nout; i++)
            airc_tensor_destroy(outs[i]);
        airc_compiled_stats s;
        memset(&s, 0, sizeof s);
        s.struct_size = sizeof s;
        airc_compiled_get_stats(c, &s);
        double ratio =
            s.lower_bound_bytes ? (double)s.plan_arena_bytes / (double)s.lower_bound_bytes : 1.0;
        printf("{\"case\": \"memory\", \"model\": \"%.*s\", \"arena_bytes\": %llu, "
               "\"lower_bound_bytes\": %llu, \"naive_bytes\": %llu, \"ratio\": %.3f}\n",
               (int)stem, file, (unsigned long long)s.plan_arena_bytes,
               (unsigned long long)s.lower_bound_bytes, (unsigned long long)s.naive_bytes, ratio);
        *worst = ratio > *worst ? ratio : *worst;
        *sum += ratio;
        (*count)++;
    }
    airc_compiled_destroy(c);
    for (size_t i = 0; i < nin; i++)
        airc_tensor_destroy(ins[i]);
    airc_graph_destroy(g);
}

static void case_memory(bench *b)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/data/graphs", b->src);
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: %s: cannot open\n", dir);
        exit(1);
    }
    double worst = 0, sum = 0;
    int count = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len > 3 && !strcmp(e->d_name + len - 3, ".fx"))
            memory_one(b, dir, e->d_name, &worst, &sum, &count);
    }
    closedir(d);
    printf("{\"case\": \"memory_summary\", \"models\": %d, \"mean_ratio\": %.3f, "
           "\"worst_ratio\": %.3f}\n",
           count, count ? sum / count : 0.0, worst);
}

int main(int argc, char **argv)
{
    bench b = {0};
    b.runs = 7;
    b.src = AIRC_BENCH_SRC;
    const char *cases = "chain,launch,streams,transformer,memory";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--case") && i + 1 < argc)
            cases = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            b.runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-eager"))
            b.no_eager = true;
        else if (!strcmp(argv[i], "--src") && i + 1 < argc)
            b.src = argv[++i];
        else {
            fprintf(stderr, "usage: replay [--case chain,launch,streams,transformer,memory] "
                            "[--runs N] [--src DIR]\n");
            return 2;
        }
    }
    if (b.runs < 1)
        b.runs = 1;
    CHECK(airc_context_create(NULL, &b.ctx), "context");
    CHECK(airc_cpu_runtime_create(b.ctx, NULL, &b.rt), "runtime");
    printf("{\"bench\": \"replay\", \"build\": \"%s\", \"runs\": %d}\n", AIRC_BENCH_BUILD_TYPE,
           b.runs);
    static const struct {
        const char *name;
        void (*fn)(bench *);
    } all[] = {{"chain", case_chain},
               {"launch", case_launch},
               {"streams", case_streams},
               {"transformer", case_transformer},
               {"memory", case_memory}};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        if (strstr(cases, all[i].name))
            all[i].fn(&b);
    airc_runtime_destroy(b.rt);
    airc_context_destroy(b.ctx);
    return 0;
}
