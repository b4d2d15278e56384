/*
 * bench/kernels — throughput of airc's built-in CPU kernels.
 *
 * Each op is a one-node FX graph. It is timed two ways:
 *   kernel: the built-in kernel function called directly with a hand-built
 *           struct airc_kernel_ctx (bound arguments, views of the inputs,
 *           preallocated outputs): the kernel alone;
 *   eager:  airc_run_eager of the graph on one CPU runtime: what a caller
 *           pays (clone, meta, the result tensor's allocation, a thread
 *           hand-off);
 * beside a reference on the same data:
 *   GEMMs (mm, addmm, bmm; 256^3, 512^3, 1024^3): cblas_sgemm called
 *           directly (addmm: bias rows copied into C, then beta = 1; bmm: a
 *           loop of sgemm over the batch), in GFLOP/s;
 *   elementwise (add, mul, gelu, tanh) and sum on 16M floats: memcpy of
 *           the same element count (64 MiB), in GB/s counting every byte
 *           read and written;
 *   softmax, layer_norm, conv2d, topk, sort, index.Tensor, flip, grid_sampler_2d,
 *   grid_sampler_3d, upsample_bicubic2d, im2col: times
 *           only (bench/kernels.py puts PyTorch's beside them).
 *
 * Threads follow the CPU runtime's default policy: `total` = the online CPU
 * count; one busy stream gets all of them, OpenBLAS included. The direct
 * kernel calls and cblas get the same count (num_threads = total,
 * openblas_set_num_threads(total)). softmax/layer_norm/conv2d are also
 * timed with one thread (kernel path), to compare with single-threaded
 * PyTorch.
 *
 * Each number is the median of several runs after warm-up (outputs are
 * touched first, so page faults are not timed). Output: one JSON object.
 *
 * Usage: kernels [--quick] [--only gemm|elementwise|ops] [--op NAME[,NAME...]]
 * (--op: only these rows of "ops")
 */
#include "airc/airc.h"
#define BENCH_NAME "bench/kernels"
#include "bench_util.h"
#include "backends/cpu/cpu_kernels.h"
#include "exec/exec.h"
#include "ir/ir.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef AIRC_BENCH_BUILD_TYPE
#define AIRC_BENCH_BUILD_TYPE "unknown"
#endif

/* OpenBLAS extensions (cblas.h of some builds lacks their prototypes) */
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);
char *openblas_get_config(void);

static bool g_quick;
static const char *g_ops; /* --op: a comma-separated list of "ops" rows, or NULL for all */
static int g_total; /* the runtime's thread budget */
static airc_context *g_ctx;
static airc_runtime *g_rt;

/* ---- helpers ----------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef void (*work_fn)(void *arg);

/* Median seconds of each of n workloads, run round-robin (one run of each
 * per round) so that a change in the machine's load hits them alike and
 * their ratios stay fair on a shared machine: 2 warm-up rounds, then at
 * least 5 rounds and about 0.5 s per workload (0.1 s with --quick), at
 * most 50. */
#define MAX_WORK 4
static void time_medians(size_t n, work_fn *fn, void **arg, double *out)
{
    double est = 0;
    for (size_t j = 0; j < n; j++) {
        fn[j](arg[j]);
        double t0 = now_s();
        fn[j](arg[j]);
        double t = now_s() - t0;
        est = t > est ? t : est;
    }
    double budget = g_quick ? 0.1 : 0.5;
    int runs = est > 0 ? (int)(budget / est) : 50;
    if (runs < (g_quick ? 3 : 5))
        runs = g_quick ? 3 : 5;
    if (runs > 50)
        runs = 50;
    double t[MAX_WORK][50];
    for (int i = 0; i < runs; i++)
        for (size_t j = 0; j < n; j++) {
            double s = now_s();
            fn[j](arg[j]);
            t[j][i] = now_s() - s;
        }
    for (size_t j = 0; j < n; j++) {
        qsort(t[j], (size_t)runs, sizeof t[j][0], cmp_double);
        out[j] = runs % 2 ? t[j][runs / 2] : (t[j][runs / 2 - 1] + t[j][runs / 2]) / 2;
    }
}

static double time_median(work_fn fn, void *arg)
{
    double t;
    time_medians(1, &fn, &arg, &t);
    return t;
}

static void fill_random(float *p, size_t n, uint32_t seed)
{
    uint32_t s = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        p[i] = (float)((s >> 8) & 0xffff) / 32768.0f - 1.0f; /* [-1, 1) */
    }
}

static airc_tensor *random_tensor(int32_t ndim, const int64_t *shape, uint32_t seed)
{
    airc_tensor *t;
    CHECK(airc_tensor_create(g_ctx, AIRC_DTYPE_F32, ndim, shape, &t), "airc_tensor_create");
    fill_random(airc_tensor_data(t), airc_tensor_numel(t), seed);
    return t;
}

/* int64 of shape with values in [0, hi), a fixed sequence */
static airc_tensor *ints_tensor(int32_t ndim, const int64_t *shape, int64_t hi)
{
    airc_tensor *t;
    CHECK(airc_tensor_create(g_ctx, AIRC_DTYPE_I64, ndim, shape, &t), "airc_tensor_create");
    int64_t *p = airc_tensor_data(t);
    for (int64_t i = 0; i < (int64_t)airc_tensor_numel(t); i++)
        p[i] = (i * 7919 + 13) % hi;
    return t;
}

static airc_tensor *index_tensor(int64_t n, int64_t m, int64_t hi)
{
    const int64_t shape[2] = {n, m};
    return ints_tensor(2, shape, hi);
}

/* f32 [n] ascending over [-1, 1): a searchsorted sequence */
static airc_tensor *sorted_tensor(int64_t n)
{
    airc_tensor *t;
    CHECK(airc_tensor_create(g_ctx, AIRC_DTYPE_F32, 1, &n, &t), "airc_tensor_create");
    float *p = airc_tensor_data(t);
    for (int64_t i = 0; i < n; i++)
        p[i] = -1.0f + 2.0f * (float)i / (float)n;
    return t;
}

/* ---- one op, two ways -------------------------------------------------- */

/* The most inputs and arguments a benchmarked op has (the encoder layer) */
#define OP_MAX_IN 16
#define OP_MAX_ARGS 24

typedef struct op_call {
    airc_graph *g; /* the one-op graph, meta propagated */
    airc_tensor *in[OP_MAX_IN];
    size_t nin;
    airc_kernel_fn fn;
    void *user_data;
    struct airc_kernel_ctx k;
    const airc_value *args[OP_MAX_ARGS];
    const airc_tview *inv[OP_MAX_ARGS];
    const airc_tview *in_list[OP_MAX_ARGS];
    uint32_t in_list_len[OP_MAX_ARGS];
    airc_tview views[OP_MAX_IN];      /* placeholders' views */
    airc_tview lists[OP_MAX_ARGS][4]; /* Tensor[] / Tensor?[] arguments' views */
    airc_tview out[4];
    void *out_mem[4];
} op_call;

/* The view of placeholder node src over its input tensor. */
static const airc_tview *placeholder_view(op_call *c, airc_tensor *const *in,
                                          const airc_node *src)
{
    size_t p = 0;
    AIRC_FOR_EACH_NODE(c->g, n) {
        if (n == src)
            break;
        p += n->kind == AIRC_NODE_PLACEHOLDER;
    }
    airc_tview_from_meta(&c->views[p], &src->out[0]);
    c->views[p].data = airc_tensor_data(in[p]);
    return &c->views[p];
}

/* Parses a graph with one call_function, binds the inputs, and prepares a
 * direct call of its built-in CPU kernel with `threads` threads. */
static void op_prepare(op_call *c, const char *text, airc_tensor **in, size_t nin)
{
    memset(c, 0, sizeof *c);
    CHECK(airc_graph_parse(g_ctx, text, strlen(text), "bench", &c->g), "parse");
    if (nin > OP_MAX_IN) {
        fprintf(stderr, "bench/kernels: too many inputs\n");
        exit(1);
    }
    memcpy(c->in, in, nin * sizeof *in);
    c->nin = nin;
    size_t i = 0;
    airc_node *call = NULL;
    AIRC_FOR_EACH_NODE(c->g, n) {
        if (n->kind == AIRC_NODE_PLACEHOLDER) {
            airc_tensor *t = in[i];
            CHECK(airc_node_set_meta(n, airc_tensor_dtype(t), airc_tensor_ndim(t),
                                     airc_tensor_shape(t), NULL),
                  "set_meta");
            i++;
        } else if (n->kind == AIRC_NODE_CALL_FUNCTION) {
            call = n;
        }
    }
    CHECK(airc_graph_propagate_meta(c->g), "propagate_meta");
    airc_kernel_ref ref;
    if (!call || !airc_find_kernel(call->op, "cpu", &ref)) {
        fprintf(stderr, "bench/kernels: no cpu kernel in graph\n%s", text);
        exit(1);
    }
    c->fn = ref.fn;
    c->user_data = ref.user_data;
    const airc_op *op = call->op;
    uint32_t nargs = op->schema->nargs;
    if (nargs > OP_MAX_ARGS || call->nout > 4) {
        fprintf(stderr, "bench/kernels: op too wide\n");
        exit(1);
    }
    airc_schema_bind(call, c->args);
    for (uint32_t a = 0; a < nargs; a++) {
        const airc_value *v = c->args[a];
        if (v && v->kind == AIRC_VALUE_NODE) {
            c->inv[a] = placeholder_view(c, in, v->u.node);
        } else if (v && v->kind == AIRC_VALUE_LIST && v->len <= 4) {
            for (uint32_t j = 0; j < v->len; j++) /* None: a zeroed view */
                if (v->u.items[j]->kind == AIRC_VALUE_NODE)
                    c->lists[a][j] = *placeholder_view(c, in, v->u.items[j]->u.node);
            c->in_list[a] = c->lists[a];
            c->in_list_len[a] = v->len;
        }
    }
    for (uint32_t j = 0; j < call->nout; j++) {
        airc_tview_from_meta(&c->out[j], &call->out[j]);
        size_t bytes = airc_tview_span_bytes(&c->out[j]);
        bytes = (bytes + 63) / 64 * 64;
        c->out_mem[j] = aligned_alloc(64, bytes ? bytes : 64);
        if (!c->out_mem[j]) {
            fprintf(stderr, "bench/kernels: out of memory\n");
            exit(1);
        }
        memset(c->out_mem[j], 0, bytes); /* fault the pages in now */
        c->out[j].data = c->out_mem[j];
    }
    c->k.node = call;
    c->k.op = op;
    c->k.nargs = nargs;
    c->k.args = c->args;
    c->k.in = c->inv;
    c->k.in_list = c->in_list;
    c->k.in_list_len = c->in_list_len;
    c->k.nout = call->nout;
    c->k.out = c->out;
    c->k.num_threads = g_total;
    c->k.ctx = g_ctx;
}

static void op_free(op_call *c)
{
    for (int j = 0; j < 4; j++)
        free(c->out_mem[j]);
    airc_graph_destroy(c->g);
}

static void run_kernel(void *arg)
{
    op_call *c = arg;
    if (c->fn(&c->k, c->user_data) != AIRC_OK)
        die("kernel");
}

static void run_eager(void *arg)
{
    op_call *c = arg;
    airc_tensor *out[4];
    size_t n = 0;
    CHECK(airc_run_eager(c->g, g_rt, c->in, c->nin, out, 4, &n, NULL), "airc_run_eager");
    for (size_t i = 0; i < n; i++)
        airc_tensor_destroy(out[i]);
}

/* Direct kernel time with `threads` (kernel and OpenBLAS), then back to the
 * runtime's setting (it caches what it last told OpenBLAS). */
static double time_kernel(op_call *c, int threads)
{
    c->k.num_threads = threads;
    openblas_set_num_threads(threads);
    double t = time_median(run_kernel, c);
    c->k.num_threads = g_total;
    openblas_set_num_threads(g_total);
    return t;
}

static double time_eager(op_call *c)
{
    return time_median(run_eager, c);
}

/* ---- GEMMs ----------------------------------------------------------------- */

typedef struct gemm_ref {
    int kind; /* 0 mm, 1 addmm, 2 bmm */
    int n, batch;
    const float *a, *b, *bias;
    float *c;
} gemm_ref;

static void run_cblas(void *arg)
{
    gemm_ref *r = arg;
    int n = r->n;
    size_t nn = (size_t)n * n;
    switch (r->kind) {
    case 0:
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, r->a, n, r->b, n,
                    0.0f, r->c, n);
        break;
    case 1:
        for (int i = 0; i < n; i++)
            memcpy(r->c + (size_t)i * n, r->bias, sizeof(float) * (size_t)n);
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, r->a, n, r->b, n,
                    1.0f, r->c, n);
        break;
    default:
        for (int b = 0; b < r->batch; b++)
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, r->a + b * nn,
                        n, r->b + b * nn, n, 0.0f, r->c + b * nn, n);
    }
}

/* Largest |x - y| relative to the largest |y|: the kernel computes what
 * cblas does. */
static double rel_diff(const float *x, const float *y, size_t n)
{
    double d = 0, m = 0;
    for (size_t i = 0; i < n; i++) {
        d = fmax(d, fabs((double)x[i] - y[i]));
        m = fmax(m, fabs((double)y[i]));
    }
    return m > 0 ? d / m : d;
}

#define BMM_BATCH 4

static void bench_gemm(const char *name, int kind, int n, bool first)
{
    char text[1024];
    int64_t sq[3] = {n, n, 0}, b3[3] = {BMM_BATCH, n, n}, vec[1] = {n};
    airc_tensor *in[3];
    size_t nin;
    const char *ph =
        "    %a : [#users=1] = placeholder[target=a]\n"
        "    %b : [#users=1] = placeholder[target=b]\n";
    if (kind == 0) {
        snprintf(text, sizeof text,
                 "graph():\n%s    %%mm : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%%a, %%b), kwargs = {})\n    return mm\n",
                 ph);
        in[0] = random_tensor(2, sq, 1);
        in[1] = random_tensor(2, sq, 2);
        nin = 2;
    } else if (kind == 1) {
        snprintf(text, sizeof text,
                 "graph():\n    %%bias : [#users=1] = placeholder[target=bias]\n%s    %%addmm : [#users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%%bias, %%a, %%b), kwargs = {})\n    return addmm\n",
                 ph);
        in[0] = random_tensor(1, vec, 3);
        in[1] = random_tensor(2, sq, 1);
        in[2] = random_tensor(2, sq, 2);
        nin = 3;
    } else {
        snprintf(text, sizeof text,
                 "graph():\n%s    %%bmm : [#users=1] = call_function[target=torch.ops.aten.bmm.default](args = (%%a, %%b), kwargs = {})\n    return bmm\n",
                 ph);
        in[0] = random_tensor(3, b3, 1);
        in[1] = random_tensor(3, b3, 2);
        nin = 2;
    }
    op_call c;
    op_prepare(&c, text, in, nin);
    int batch = kind == 2 ? BMM_BATCH : 1;
    size_t nc = (size_t)batch * n * n;
    gemm_ref r = {kind, n, batch, NULL, NULL, NULL, aligned_alloc(64, nc * sizeof(float))};
    memset(r.c, 0, nc * sizeof(float));
    r.a = airc_tensor_data(in[kind == 1 ? 1 : 0]);
    r.b = airc_tensor_data(in[kind == 1 ? 2 : 1]);
    r.bias = kind == 1 ? airc_tensor_data(in[0]) : NULL;

    double flop = 2.0 * n * n * (double)n * batch;
    openblas_set_num_threads(g_total);
    c.k.num_threads = g_total;
    work_fn fns[3] = {run_cblas, run_kernel, run_eager};
    void *args[3] = {&r, &c, &c};
    double t3[3];
    time_medians(3, fns, args, t3);
    double t_ref = t3[0], t_kernel = t3[1], t_eager = t3[2];
    double diff = rel_diff(c.out[0].data, r.c, nc);
    printf("%s    {\"op\": \"%s\", \"m\": %d, \"n\": %d, \"k\": %d, \"batch\": %d, "
           "\"gflops_kernel\": %.2f, \"gflops_eager\": %.2f, \"gflops_cblas\": %.2f, "
           "\"ratio_kernel\": %.3f, \"ratio_eager\": %.3f, \"max_rel_diff\": %.2e}",
           first ? "" : ",\n", name, n, n, n, batch, flop / t_kernel * 1e-9,
           flop / t_eager * 1e-9, flop / t_ref * 1e-9, t_ref / t_kernel, t_ref / t_eager, diff);
    fflush(stdout);
    free(r.c);
    op_free(&c);
    for (size_t i = 0; i < nin; i++)
        airc_tensor_destroy(in[i]);
}

/* ---- elementwise and reductions ------------------------------------------- */

typedef struct copy_ref {
    void *dst;
    const void *src;
    size_t bytes;
} copy_ref;

static void run_memcpy(void *arg)
{
    copy_ref *r = arg;
    memcpy(r->dst, r->src, r->bytes);
}

#define EW_N ((int64_t)1 << 24)

static void bench_elementwise(void)
{
    const int64_t n = g_quick ? EW_N / 8 : EW_N;
    size_t bytes = (size_t)n * sizeof(float);
    airc_tensor *x = random_tensor(1, &n, 11), *y = random_tensor(1, &n, 12);
    copy_ref cr = {aligned_alloc(64, bytes), airc_tensor_data(x), bytes};
    memset(cr.dst, 0, bytes);

    static const struct {
        const char *name, *target, *extra;
        int nin;      /* tensors read */
        int nwritten; /* tensors written */
    } cases[] = {
        {"add", "aten.add.Tensor", ", %y", 2, 1},
        {"mul", "aten.mul.Tensor", ", %y", 2, 1},
        {"gelu", "aten.gelu.default", "", 1, 1},
        {"tanh", "aten.tanh.default", "", 1, 1},
        {"sum", "aten.sum.default", "", 1, 0},
    };
    printf("  \"elementwise\": [\n");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "graph():\n"
                 "    %%x : [#users=1] = placeholder[target=x]\n"
                 "%s"
                 "    %%r : [#users=1] = call_function[target=torch.ops.%s](args = (%%x%s), kwargs = {})\n"
                 "    return r\n",
                 cases[i].nin == 2 ? "    %y : [#users=1] = placeholder[target=y]\n" : "",
                 cases[i].target, cases[i].extra);
        airc_tensor *in[2] = {x, y};
        op_call c;
        op_prepare(&c, text, in, (size_t)cases[i].nin);
        double moved = (double)bytes * (cases[i].nin + cases[i].nwritten);
        /* memcpy beside each op, in the same rounds */
        work_fn fns[3] = {run_memcpy, run_kernel, run_eager};
        void *args[3] = {&cr, &c, &c};
        double t3[3];
        time_medians(3, fns, args, t3);
        double tc = t3[0], tk = t3[1], te = t3[2];
        double tk1 = time_kernel(&c, 1);
        double copy_gbs = 2.0 * (double)bytes / tc * 1e-9;
        printf("%s    {\"op\": \"%s\", \"elements\": %lld, \"bytes\": %.0f, "
               "\"gbs_memcpy\": %.2f, "
               "\"gbs_kernel\": %.2f, \"gbs_kernel_1t\": %.2f, \"gbs_eager\": %.2f, "
               "\"vs_memcpy_kernel\": %.3f, \"vs_memcpy_kernel_1t\": %.3f, "
               "\"vs_memcpy_eager\": %.3f}",
               i ? ",\n" : "", cases[i].name, (long long)n, moved, copy_gbs, moved / tk * 1e-9,
               moved / tk1 * 1e-9, moved / te * 1e-9, moved / tk * 1e-9 / copy_gbs,
               moved / tk1 * 1e-9 / copy_gbs, moved / te * 1e-9 / copy_gbs);
        fflush(stdout);
        op_free(&c);
    }
    printf("\n  ],\n");
    free(cr.dst);
    airc_tensor_destroy(x);
    airc_tensor_destroy(y);
}

/* ---- softmax, layer_norm, conv2d, sort, topk, index, flip ------------------- */

/* name is in --op's list (or there is none) */
static bool op_selected(const char *name)
{
    if (!g_ops)
        return true;
    size_t n = strlen(name);
    for (const char *p = g_ops; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && !strncmp(p, name, n))
            return true;
        p += len + (e != NULL);
    }
    return false;
}

static void bench_ops(void)
{
    const int64_t rows = 4096, cols = 1024;
    const int64_t x2[2] = {rows, cols}, vcols[1] = {cols};
    const int64_t img[4] = {1, 64, 56, 56}, wt[4] = {64, 64, 3, 3}, bias[1] = {64};
    airc_tensor *x = random_tensor(2, x2, 21), *w = random_tensor(1, vcols, 22),
                *b = random_tensor(1, vcols, 23);
    airc_tensor *xi = random_tensor(4, img, 24), *wc = random_tensor(4, wt, 25),
                *bc = random_tensor(1, bias, 26);
    /* a decoder's logits over a 50257-word vocabulary, an embedding table,
     * a batch of images */
    const int64_t logit[2] = {8, 50257}, table[2] = {32000, 512}, pics[4] = {16, 3, 224, 224};
    airc_tensor *xl = random_tensor(2, logit, 27), *xt = random_tensor(2, table, 28),
                *xp = random_tensor(4, pics, 29), *ix = index_tensor(8, 50, 32000);
    /* feature maps warped by a flow field (values in [-1, 1]) */
    const int64_t fmap[4] = {8, 64, 64, 64}, flow[4] = {8, 64, 64, 2};
    airc_tensor *xf = random_tensor(4, fmap, 30), *gf = random_tensor(4, flow, 31);
    /* a feature volume warped by a 3-d deformation field (registration) */
    const int64_t vol[5] = {1, 16, 32, 64, 64}, flow3[5] = {1, 32, 64, 64, 3};
    airc_tensor *xg = random_tensor(5, vol, 35), *gg = random_tensor(5, flow3, 36);
    static const char *const softmax =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten._softmax.default](args = (%x, -1, False), kwargs = {})\n"
        "    return r\n";
    static const char *const layer_norm =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %w : [#users=1] = placeholder[target=w]\n"
        "    %b : [#users=1] = placeholder[target=b]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.native_layer_norm.default](args = (%x, [1024], %w, %b, 1e-05), kwargs = {})\n"
        "    return r\n";
    static const char *const conv =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %w : [#users=1] = placeholder[target=w]\n"
        "    %b : [#users=1] = placeholder[target=b]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%x, %w, %b, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})\n"
        "    return r\n";
    static const char *const topk =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.topk.default](args = (%x, 50), kwargs = {})\n"
        "    return r\n";
    static const char *const sort =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.sort.default](args = (%x, -1, True), kwargs = {})\n"
        "    return r\n";
    static const char *const index =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %i : [#users=1] = placeholder[target=i]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.index.Tensor](args = (%x, [%i]), kwargs = {})\n"
        "    return r\n";
    static const char *const flip =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.flip.default](args = (%x, [-1]), kwargs = {})\n"
        "    return r\n";
    static const char *const grid =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %g : [#users=1] = placeholder[target=g]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.grid_sampler_2d.default](args = "
        "(%x, %g, 0, 0, False), kwargs = {})\n"
        "    return r\n";
    static const char *const grid3 =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %g : [#users=1] = placeholder[target=g]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.grid_sampler_3d.default](args = "
        "(%x, %g, 0, 0, False), kwargs = {})\n"
        "    return r\n";
    static const char *const bicubic =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.upsample_bicubic2d.vec](args = "
        "(%x, [112, 112], False, None), kwargs = {})\n"
        "    return r\n";
    static const char *const unfold =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.im2col.default](args = (%x, [3, "
        "3], [1, 1], [1, 1], [1, 1]), kwargs = {})\n"
        "    return r\n";
    /* point clouds, classifier logits, GNN messages, a sorted grid */
    const int64_t cloud[3] = {4, 256, 64}, logp[2] = {8192, 1000}, tgt[1] = {8192},
                  nodes[2] = {10000, 64}, msgs[2] = {50000, 64};
    airc_tensor *c1 = random_tensor(3, cloud, 32), *c2 = random_tensor(3, cloud, 33),
                *xy = random_tensor(2, x2, 34), *xn = random_tensor(2, logp, 35),
                *tn = ints_tensor(1, tgt, 1000), *sn = random_tensor(2, nodes, 36),
                *im = index_tensor(msgs[0], msgs[1], nodes[0]), *sm = random_tensor(2, msgs, 37),
                *grid1 = sorted_tensor(1024);
#define CDIST(P)                                                                                   \
    "graph():\n"                                                                                   \
    "    %a : [#users=1] = placeholder[target=a]\n"                                                \
    "    %b : [#users=1] = placeholder[target=b]\n"                                                \
    "    %r : [#users=1] = call_function[target=torch.ops.aten._cdist_forward.default](args = "    \
    "(%a, %b, " P ", None), kwargs = {})\n"                                                        \
    "    return r\n"
    static const char *const cdist1 = CDIST("1.0"), *const cdist2 = CDIST("2.0");
#undef CDIST
    static const char *const mse =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %y : [#users=1] = placeholder[target=y]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.mse_loss.default](args = (%x, "
        "%y, 1), kwargs = {})\n"
        "    return r\n";
    static const char *const nll =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %t : [#users=1] = placeholder[target=t]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.nll_loss_forward.default](args "
        "= "
        "(%x, %t, None, 1, -100), kwargs = {})\n"
        "    return r\n";
    static const char *const scatter_amax =
        "graph():\n"
        "    %s : [#users=1] = placeholder[target=s]\n"
        "    %i : [#users=1] = placeholder[target=i]\n"
        "    %m : [#users=1] = placeholder[target=m]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.scatter_reduce.two](args = (%s, "
        "0, %i, %m, 'amax'), kwargs = {})\n"
        "    return r\n";
    static const char *const cummax =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.cummax.default](args = (%x, 1), "
        "kwargs = {})\n"
        "    return r\n";
    static const char *const lcse =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.logcumsumexp.default](args = "
        "(%x, 1), kwargs = {})\n"
        "    return r\n";
    static const char *const search =
        "graph():\n"
        "    %s : [#users=1] = placeholder[target=s]\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.searchsorted.Tensor](args = "
        "(%s, "
        "%x), kwargs = {})\n"
        "    return r\n";
    /* a video clip's features: [N, C, T, H, W] */
    const int64_t clip[5] = {1, 32, 8, 28, 28}, wt3[5] = {32, 32, 3, 3, 3}, b3[1] = {32};
    airc_tensor *xv = random_tensor(5, clip, 38), *wv = random_tensor(5, wt3, 39),
                *bv = random_tensor(1, b3, 40);
    static const char *const conv3d =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %w : [#users=1] = placeholder[target=w]\n"
        "    %b : [#users=1] = placeholder[target=b]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%x, "
        "%w, %b, [1, 1, 1], [1, 1, 1], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})\n"
        "    return r\n";
    static const char *const maxpool3d =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.max_pool3d_with_indices.default]"
        "(args = (%x, [2, 2, 2]), kwargs = {})\n"
        "    return r\n";
    /* a transformer encoder layer as torch's inference fast path records
     * it (nn.TransformerEncoderLayer(256, 8, 1024, gelu), 128 tokens) */
    const int64_t tok[3] = {1, 128, 256}, wqkv[2] = {768, 256}, bqkv[1] = {768}, wo[2] = {256, 256},
                  e256[1] = {256}, w1[2] = {1024, 256}, b1[1] = {1024}, w2[2] = {256, 1024};
    airc_tensor *enc[13] = {
        random_tensor(3, tok, 41),  random_tensor(2, wqkv, 42), random_tensor(1, bqkv, 43),
        random_tensor(2, wo, 44),   random_tensor(1, e256, 45), random_tensor(1, e256, 46),
        random_tensor(1, e256, 47), random_tensor(1, e256, 48), random_tensor(1, e256, 49),
        random_tensor(2, w1, 50),   random_tensor(1, b1, 51),   random_tensor(2, w2, 52),
        random_tensor(1, e256, 53)};
    static const char *const encoder =
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %wqkv : [#users=1] = placeholder[target=wqkv]\n"
        "    %bqkv : [#users=1] = placeholder[target=bqkv]\n"
        "    %wo : [#users=1] = placeholder[target=wo]\n"
        "    %bo : [#users=1] = placeholder[target=bo]\n"
        "    %g1 : [#users=1] = placeholder[target=g1]\n"
        "    %n1 : [#users=1] = placeholder[target=n1]\n"
        "    %g2 : [#users=1] = placeholder[target=g2]\n"
        "    %n2 : [#users=1] = placeholder[target=n2]\n"
        "    %w1 : [#users=1] = placeholder[target=w1]\n"
        "    %b1 : [#users=1] = placeholder[target=b1]\n"
        "    %w2 : [#users=1] = placeholder[target=w2]\n"
        "    %b2 : [#users=1] = placeholder[target=b2]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten._transformer_encoder_layer_fwd"
        ".default](args = (%x, 256, 8, %wqkv, %bqkv, %wo, %bo, True, False, 1e-05, %g1, %n1, "
        "%g2, %n2, %w1, %b1, %w2, %b2), kwargs = {})\n"
        "    return r\n";
    /* nn.Bilinear(256, 256, 128) on 64 rows, as its graph records it */
    const int64_t x256[2] = {64, 256}, wbl[3] = {128, 256, 256};
    airc_tensor *bx1 = random_tensor(2, x256, 54), *bw = random_tensor(3, wbl, 55),
                *bx2 = random_tensor(2, x256, 56);
    static const char *const bilinear =
        "graph():\n"
        "    %x1 : [#users=1] = placeholder[target=x1]\n"
        "    %w : [#users=1] = placeholder[target=w]\n"
        "    %x2 : [#users=1] = placeholder[target=x2]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten._trilinear.default](args = "
        "(%x1, "
        "%w, %x2, [1, 3], [0], [1, 2], [2, 3]), kwargs = {})\n"
        "    return r\n";
    /* torch.linalg.solve / svd / lstsq on LAPACK: a batch of 64 systems, one 256 x 256
     * SVD, a batch of 64 least-squares fits of 128 points by 32 features */
    const int64_t la_a[3] = {64, 64, 64}, la_b[3] = {64, 64, 8}, la_m[2] = {256, 256},
                  ls_a[3] = {64, 128, 32}, ls_b[3] = {64, 128, 4};
    airc_tensor *sa = random_tensor(3, la_a, 57), *sb = random_tensor(3, la_b, 58),
                *sm2 = random_tensor(2, la_m, 59), *la = random_tensor(3, ls_a, 60),
                *lb = random_tensor(3, ls_b, 61);
    static const char *const solve =
        "graph():\n"
        "    %a : [#users=1] = placeholder[target=a]\n"
        "    %b : [#users=1] = placeholder[target=b]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten._linalg_solve_ex.default]"
        "(args = (%a, %b), kwargs = {})\n"
        "    return r\n";
    static const char *const svd =
        "graph():\n"
        "    %a : [#users=1] = placeholder[target=a]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten._linalg_svd.default]"
        "(args = (%a,), kwargs = {})\n"
        "    return r\n";
    static const char *const lstsq =
        "graph():\n"
        "    %a : [#users=1] = placeholder[target=a]\n"
        "    %b : [#users=1] = placeholder[target=b]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.linalg_lstsq.default]"
        "(args = (%a, %b), kwargs = {})\n"
        "    return r\n";
    /* torch.linalg.matrix_exp of one 64 x 64 matrix (entries in [-1, 1]: a
     * 1-norm near 32, degree 18 and 4 squarings) */
    const int64_t me_s[2] = {64, 64};
    airc_tensor *me = random_tensor(2, me_s, 60);
    static const char *const mexp =
        "graph():\n"
        "    %a : [#users=1] = placeholder[target=a]\n"
        "    %r : [#users=1] = call_function[target=torch.ops.aten.linalg_matrix_exp.default]"
        "(args = (%a,), kwargs = {})\n"
        "    return r\n";
    struct {
        const char *name, *text, *shape;
        airc_tensor *in[13];
        size_t nin;
    } cases[] = {
        {"softmax", softmax, "_softmax(x[4096, 1024], dim=-1)", {x}, 1},
        {"layer_norm",
         layer_norm,
         "native_layer_norm(x[4096, 1024], [1024], w, b, 1e-5)",
         {x, w, b},
         3},
        {"conv2d",
         conv,
         "convolution(x[1, 64, 56, 56], w[64, 64, 3, 3], b[64], pad 1)",
         {xi, wc, bc},
         3},
        {"topk", topk, "topk(x[8, 50257], 50)", {xl}, 1},
        {"sort", sort, "sort(x[8, 50257], -1, descending)", {xl}, 1},
        {"index", index, "index(x[32000, 512], [i64[8, 50]])", {xt, ix}, 2},
        {"flip", flip, "flip(x[16, 3, 224, 224], [-1])", {xp}, 1},
        {"grid_sample",
         grid,
         "grid_sampler_2d(x[8, 64, 64, 64], g[8, 64, 64, 2], bilinear)",
         {xf, gf},
         2},
        {"grid_sample3d",
         grid3,
         "grid_sampler_3d(x[1, 16, 32, 64, 64], g[1, 32, 64, 64, 3], bilinear)",
         {xg, gg},
         2},
        {"bicubic", bicubic, "upsample_bicubic2d(x[1, 64, 56, 56], [112, 112])", {xi}, 1},
        {"im2col", unfold, "im2col(x[1, 64, 56, 56], 3x3, pad 1)", {xi}, 1},
        {"cdist_p1", cdist1, "_cdist_forward(a[4, 256, 64], b[4, 256, 64], p=1)", {c1, c2}, 2},
        {"cdist_p2", cdist2, "_cdist_forward(a[4, 256, 64], b[4, 256, 64], p=2)", {c1, c2}, 2},
        {"mse_loss", mse, "mse_loss(x[4096, 1024], y[4096, 1024], mean)", {x, xy}, 2},
        {"nll_loss", nll, "nll_loss_forward(x[8192, 1000], t[8192], mean)", {xn, tn}, 2},
        {"scatter_amax",
         scatter_amax,
         "scatter_reduce.two(s[10000, 64], 0, i[50000, 64], m[50000, 64], amax)",
         {sn, im, sm},
         3},
        {"cummax", cummax, "cummax(x[4096, 1024], 1)", {x}, 1},
        {"logcumsumexp", lcse, "logcumsumexp(x[4096, 1024], 1)", {x}, 1},
        {"searchsorted", search, "searchsorted(s[1024], x[4096, 1024])", {grid1, x}, 2},
        {"conv3d",
         conv3d,
         "convolution(x[1, 32, 8, 28, 28], w[32, 32, 3, 3, 3], b[32], pad 1)",
         {xv, wv, bv},
         3},
        {"max_pool3d", maxpool3d, "max_pool3d_with_indices(x[1, 32, 8, 28, 28], 2)", {xv}, 1},
        {"encoder_layer",
         encoder,
         "_transformer_encoder_layer_fwd(x[1, 128, 256], 8 heads, ffn 1024, gelu)",
         {enc[0], enc[1], enc[2], enc[3], enc[4], enc[5], enc[6], enc[7], enc[8], enc[9], enc[10],
          enc[11], enc[12]},
         13},
        {"bilinear",
         bilinear,
         "_trilinear(x1[64, 256], w[128, 256, 256], x2[64, 256]) (nn.Bilinear)",
         {bx1, bw, bx2},
         3},
        {"solve", solve, "_linalg_solve_ex(a[64, 64, 64], b[64, 64, 8])", {sa, sb}, 2},
        {"svd", svd, "_linalg_svd(a[256, 256], full_matrices=False)", {sm2}, 1},
        {"lstsq", lstsq, "linalg_lstsq(a[64, 128, 32], b[64, 128, 4]) (gelsy)", {la, lb}, 2},
        {"matrix_exp", mexp, "linalg_matrix_exp(a[64, 64])", {me}, 1},
    };
    printf("  \"ops\": [\n");
    bool first = true;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (!op_selected(cases[i].name))
            continue;
        op_call c;
        op_prepare(&c, cases[i].text, cases[i].in, cases[i].nin);
        double t1 = time_kernel(&c, 1);
        double tk = time_kernel(&c, g_total);
        double te = time_eager(&c);
        printf("%s    {\"op\": \"%s\", \"shape\": \"%s\", \"us_kernel_1t\": %.1f, "
               "\"us_kernel\": %.1f, \"us_eager\": %.1f}",
               first ? "" : ",\n", cases[i].name, cases[i].shape, t1 * 1e6, tk * 1e6, te * 1e6);
        first = false;
        fflush(stdout);
        op_free(&c);
    }
    printf("\n  ],\n");
    airc_tensor *all[] = {x,  w,  b,   xi, wc,  bc, xl, xt,  xp,    ix, xf, gf,
                          c1, c2, xy,  xn, tn,  sn, im, sm,  grid1, xv, wv, bv,
                          xg, gg, bx1, bw, bx2, sa, sb, sm2, la,    lb, me};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        airc_tensor_destroy(all[i]);
    for (size_t i = 0; i < sizeof enc / sizeof *enc; i++)
        airc_tensor_destroy(enc[i]);
}

int main(int argc, char **argv)
{
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) {
            g_quick = true;
        } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            only = argv[++i];
        } else if (!strcmp(argv[i], "--op") && i + 1 < argc) {
            g_ops = argv[++i];
        } else {
            fprintf(
                stderr,
                "usage: kernels [--quick] [--only gemm|elementwise|ops] [--op NAME[,NAME...]]\n");
            return 2;
        }
    }
    int blas_initial = openblas_get_num_threads();
    CHECK(airc_context_create(NULL, &g_ctx), "airc_context_create");
    CHECK(airc_cpu_runtime_create(g_ctx, NULL, &g_rt), "airc_cpu_runtime_create");
    /* the default policy's budget: what an idle runtime gives one stream */
    const airc_runtime_vtable *vt = airc_runtime_vtable_of(g_rt);
    airc_stream_t s;
    CHECK(vt->stream_create(airc_runtime_ctx(g_rt), &s), "stream_create");
    g_total = vt->stream_threads(airc_runtime_ctx(g_rt), s);
    vt->stream_destroy(airc_runtime_ctx(g_rt), s);

    { /* wake OpenBLAS's thread pool before anything is timed */
        static float wa[256 * 256], wb[256 * 256], wc[256 * 256];
        openblas_set_num_threads(g_total);
        for (int i = 0; i < 20; i++)
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 256, 256, 256, 1.0f, wa, 256,
                        wb, 256, 0.0f, wc, 256);
    }
    const char *env = getenv("OPENBLAS_NUM_THREADS");
    double load[3] = {0, 0, 0};
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
            load[0] = load[1] = load[2] = -1;
        fclose(f);
    }
    printf("{\n  \"bench\": \"kernels\",\n  \"build_type\": \"%s\",\n  \"quick\": %s,\n",
           AIRC_BENCH_BUILD_TYPE, g_quick ? "true" : "false");
    printf("  \"cpus_online\": %ld,\n  \"runtime_threads\": %d,\n", sysconf(_SC_NPROCESSORS_ONLN),
           g_total);
    printf("  \"openblas\": {\"config\": \"%s\", \"threads_at_start\": %d, "
           "\"OPENBLAS_NUM_THREADS\": %s%s%s},\n",
           openblas_get_config(), blas_initial, env ? "\"" : "", env ? env : "null",
           env ? "\"" : "");
    printf("  \"loadavg_before\": [%.2f, %.2f, %.2f],\n", load[0], load[1], load[2]);
    fflush(stdout);

    if (!only || !strcmp(only, "gemm")) {
        printf("  \"gemm\": [\n");
        static const int sizes[] = {256, 512, 1024};
        static const char *const names[] = {"mm", "addmm", "bmm"};
        bool first = true;
        for (int kind = 0; kind < 3; kind++)
            for (int si = 0; si < (g_quick ? 1 : 3); si++) {
                bench_gemm(names[kind], kind, sizes[si], first);
                first = false;
            }
        printf("\n  ],\n");
    }
    if (!only || !strcmp(only, "elementwise"))
        bench_elementwise();
    if (!only || !strcmp(only, "ops"))
        bench_ops();
    printf("  \"end\": true\n}\n");
    airc_runtime_destroy(g_rt);
    airc_context_destroy(g_ctx);
    return 0;
}
