/* A device runtime plugged in from outside airc: "mockdev", written against
 * the public headers alone (airc/airc.h, airc/runtime.h, airc/kernel.h,
 * airc/exec.h), runs TorchAir's seed-001 model (mm, abs, add, sub) through
 * airc_run_eager, with its own kernels registered per device type.
 *
 * The device's memory comes from its own allocator and is told apart from
 * host memory by a table of live blocks (each with a tag before it), so a
 * kernel handed a host pointer, or an output read from the host without a
 * copy, is caught. Launches run at once on the caller's thread. Counters
 * prove that every kernel call went to the mock's kernels (there is no
 * fallback to airc's CPU kernels for another device type), that every
 * buffer was the mock's, and that data crossed only through its copy. */
#include "testutil.h"

#include "airc/airc.h"
#include "airc/exec.h"
#include "airc/kernel.h"
#include "airc/runtime.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the device ------------------------------------------------------------ */

#define MOCK_TAG 0x6d6f636b64657631ull /* "mockdev1" */
#define MAX_BLOCKS 256

typedef struct block_header {
    uint64_t tag;
    size_t size;
    void *raw; /* what malloc returned */
} block_header;

typedef struct mockdev {
    void *live[MAX_BLOCKS]; /* device pointers handed out and not freed */
    size_t live_size[MAX_BLOCKS];
    int nlive;
    int allocs, frees, bad_frees;
    int h2d, d2h, d2d, bad_copies;
    int streams, stream_destroys, launches, syncs;
    int kernel_calls[4]; /* mm, abs, add, sub */
    int foreign_pointers; /* host pointers a kernel was handed */
    airc_status sticky;
    int stream_token;
} mockdev;

enum { K_MM, K_ABS, K_ADD, K_SUB };

/* Whether [p, p + n) lies inside one live device block. */
static bool on_device(const mockdev *m, const void *p, size_t n)
{
    const char *c = p;
    for (int i = 0; i < m->nlive; i++) {
        const char *b = m->live[i];
        if (c >= b && c + n <= b + m->live_size[i])
            return true;
    }
    return false;
}

static airc_status md_alloc(void *ctx, size_t size, size_t alignment, void **out)
{
    mockdev *m = ctx;
    if (m->nlive == MAX_BLOCKS)
        return airc_set_error(AIRC_E_OUT_OF_MEMORY, "mockdev: block table full");
    if (alignment < 64)
        alignment = 64;
    void *raw = malloc(sizeof(block_header) + alignment + size);
    if (!raw)
        return airc_set_error(AIRC_E_OUT_OF_MEMORY, "mockdev: out of memory");
    uintptr_t p = ((uintptr_t)raw + sizeof(block_header) + alignment - 1) & ~(uintptr_t)(alignment - 1);
    block_header *h = (block_header *)p - 1;
    h->tag = MOCK_TAG;
    h->size = size;
    h->raw = raw;
    /* poison: a kernel that forgets to write shows up in the results */
    memset((void *)p, 0xa5, size);
    m->live[m->nlive] = (void *)p;
    m->live_size[m->nlive++] = size;
    m->allocs++;
    *out = (void *)p;
    return AIRC_OK;
}

static void md_free(void *ctx, void *p)
{
    mockdev *m = ctx;
    if (!p)
        return;
    for (int i = 0; i < m->nlive; i++) {
        if (m->live[i] != p)
            continue;
        block_header *h = (block_header *)p - 1;
        if (h->tag != MOCK_TAG) {
            m->bad_frees++;
            return;
        }
        h->tag = 0;
        free(h->raw);
        m->live[i] = m->live[m->nlive - 1];
        m->live_size[i] = m->live_size[m->nlive - 1];
        m->nlive--;
        m->frees++;
        return;
    }
    m->bad_frees++; /* not ours: a host pointer, or freed twice */
}

static airc_status md_copy(void *ctx, void *dst, const void *src, size_t n, int32_t kind,
                           airc_stream_t s)
{
    (void)s;
    mockdev *m = ctx;
    bool ok;
    switch (kind) {
    case AIRC_COPY_HOST_TO_DEVICE:
        ok = on_device(m, dst, n) && !on_device(m, src, n);
        m->h2d++;
        break;
    case AIRC_COPY_DEVICE_TO_HOST:
        ok = on_device(m, src, n) && !on_device(m, dst, n);
        m->d2h++;
        break;
    case AIRC_COPY_DEVICE_TO_DEVICE:
        ok = on_device(m, src, n) && on_device(m, dst, n);
        m->d2d++;
        break;
    default:
        ok = false;
    }
    if (!ok) {
        m->bad_copies++;
        return airc_set_error(AIRC_E_RUNTIME, "mockdev: copy between the wrong memories");
    }
    memcpy(dst, src, n);
    return AIRC_OK;
}

static airc_status md_stream_create(void *ctx, airc_stream_t *out)
{
    mockdev *m = ctx;
    m->streams++;
    *out = &m->stream_token;
    return AIRC_OK;
}

static void md_stream_destroy(void *ctx, airc_stream_t s)
{
    (void)s;
    ((mockdev *)ctx)->stream_destroys++;
}

static airc_status md_event_create(void *ctx, airc_event_t *out)
{
    *out = ctx;
    return AIRC_OK;
}

static void md_event_destroy(void *ctx, airc_event_t e)
{
    (void)ctx;
    (void)e;
}

static airc_status md_event_record(void *ctx, airc_event_t e, airc_stream_t s)
{
    (void)ctx;
    (void)e;
    (void)s;
    return AIRC_OK; /* work runs at launch: everything before is done */
}

static airc_status md_stream_wait_event(void *ctx, airc_stream_t s, airc_event_t e)
{
    (void)ctx;
    (void)e;
    (void)s;
    return AIRC_OK;
}

static airc_status md_launch(void *ctx, airc_stream_t s, airc_launch_fn fn, void *arg)
{
    mockdev *m = ctx;
    m->launches++;
    airc_status st = fn(arg, s);
    if (st != AIRC_OK && m->sticky == AIRC_OK)
        m->sticky = st;
    return AIRC_OK;
}

static airc_status md_synchronize(void *ctx, airc_stream_t s)
{
    (void)s;
    mockdev *m = ctx;
    m->syncs++;
    airc_status st = m->sticky;
    m->sticky = AIRC_OK;
    return st;
}

static airc_runtime *mockdev_runtime(airc_context *ctx, mockdev *m)
{
    airc_runtime_vtable vt;
    memset(&vt, 0, sizeof vt);
    vt.struct_size = sizeof vt;
    vt.abi_version = AIRC_RUNTIME_ABI_VERSION;
    vt.device_type = "mockdev";
    vt.alloc = md_alloc;
    vt.free = md_free;
    vt.copy = md_copy;
    vt.stream_create = md_stream_create;
    vt.stream_destroy = md_stream_destroy;
    vt.event_create = md_event_create;
    vt.event_destroy = md_event_destroy;
    vt.event_record = md_event_record;
    vt.stream_wait_event = md_stream_wait_event;
    vt.launch = md_launch;
    vt.synchronize = md_synchronize;
    airc_runtime *rt;
    AIRC_ASSERT_OK(airc_runtime_create(ctx, &vt, m, &rt));
    assert_string_equal(airc_runtime_device_type(rt), "mockdev");
    return rt;
}

/* ---- its kernels (2-d f32, strided) ------------------------------------------- */

static float *at(const airc_tview *t, int64_t i, int64_t j)
{
    return (float *)t->data + i * t->strides[0] + j * t->strides[1];
}

static size_t span(const airc_tview *t)
{
    size_t last = 0;
    for (int32_t d = 0; d < t->ndim; d++)
        if (t->shape[d] > 0)
            last += (size_t)((t->shape[d] - 1) * t->strides[d]);
    return (last + 1) * sizeof(float);
}

/* Checks a kernel's tensors: 2-d f32 in the mock's memory. */
static airc_status check_view(mockdev *m, const airc_tview *t, const char *what)
{
    if (!t || t->dtype != AIRC_DTYPE_F32 || t->ndim != 2)
        return airc_set_error(AIRC_E_UNSUPPORTED, what);
    if (!on_device(m, t->data, span(t))) {
        m->foreign_pointers++;
        return airc_set_error(AIRC_E_RUNTIME, "mockdev kernel: a tensor outside device memory");
    }
    return AIRC_OK;
}

static double number_arg(const airc_kernel_ctx *k, size_t i, double dflt)
{
    const airc_value *v = airc_kernel_arg(k, i);
    double f;
    int64_t n;
    if (!v)
        return dflt;
    if (airc_value_get_float(v, &f) == AIRC_OK)
        return f;
    if (airc_value_get_int(v, &n) == AIRC_OK)
        return (double)n;
    return dflt;
}

static airc_status k_mm(airc_kernel_ctx *k, void *user_data)
{
    mockdev *m = user_data;
    m->kernel_calls[K_MM]++;
    const airc_tview *a = airc_kernel_input(k, 0), *b = airc_kernel_input(k, 1);
    airc_tview *o = airc_kernel_output(k, 0);
    airc_status st;
    if ((st = check_view(m, a, "mm: self")) || (st = check_view(m, b, "mm: mat2")) ||
        (st = check_view(m, o, "mm: out")))
        return st;
    for (int64_t i = 0; i < o->shape[0]; i++)
        for (int64_t j = 0; j < o->shape[1]; j++) {
            double acc = 0;
            for (int64_t p = 0; p < a->shape[1]; p++)
                acc += (double)*at(a, i, p) * *at(b, p, j);
            *at(o, i, j) = (float)acc;
        }
    return AIRC_OK;
}

static airc_status k_abs(airc_kernel_ctx *k, void *user_data)
{
    mockdev *m = user_data;
    m->kernel_calls[K_ABS]++;
    const airc_tview *a = airc_kernel_input(k, 0);
    airc_tview *o = airc_kernel_output(k, 0);
    airc_status st;
    if ((st = check_view(m, a, "abs: self")) || (st = check_view(m, o, "abs: out")))
        return st;
    for (int64_t i = 0; i < o->shape[0]; i++)
        for (int64_t j = 0; j < o->shape[1]; j++)
            *at(o, i, j) = fabsf(*at(a, i, j));
    return AIRC_OK;
}

/* add.Tensor / sub.Tensor (self, other, *, alpha): other may be a number
 * (add(abs_1, 1) in the seed graph), as torch's wrapped numbers. */
static airc_status add_sub(airc_kernel_ctx *k, mockdev *m, double sign)
{
    const airc_tview *a = airc_kernel_input(k, 0), *b = airc_kernel_input(k, 1);
    airc_tview *o = airc_kernel_output(k, 0);
    airc_status st;
    if ((st = check_view(m, a, "add/sub: self")) || (st = check_view(m, o, "add/sub: out")) ||
        (b && (st = check_view(m, b, "add/sub: other"))))
        return st;
    double alpha = sign * number_arg(k, 2, 1.0);
    double scalar = b ? 0.0 : number_arg(k, 1, 0.0);
    for (int64_t i = 0; i < o->shape[0]; i++)
        for (int64_t j = 0; j < o->shape[1]; j++) {
            double y = b ? *at(b, b->shape[0] == 1 ? 0 : i, b->shape[1] == 1 ? 0 : j) : scalar;
            *at(o, i, j) = (float)(*at(a, i, j) + alpha * y);
        }
    return AIRC_OK;
}

static airc_status k_add(airc_kernel_ctx *k, void *user_data)
{
    mockdev *m = user_data;
    m->kernel_calls[K_ADD]++;
    return add_sub(k, m, 1.0);
}

static airc_status k_sub(airc_kernel_ctx *k, void *user_data)
{
    mockdev *m = user_data;
    m->kernel_calls[K_SUB]++;
    return add_sub(k, m, -1.0);
}

static void register_kernels(airc_context *ctx, mockdev *m)
{
    AIRC_ASSERT_OK(airc_context_set_op_kernel(ctx, "aten.mm.default", "mockdev", k_mm, m, NULL));
    AIRC_ASSERT_OK(airc_context_set_op_kernel(ctx, "aten.abs.default", "mockdev", k_abs, m, NULL));
    AIRC_ASSERT_OK(airc_context_set_op_kernel(ctx, "aten.add.Tensor", "mockdev", k_add, m, NULL));
    AIRC_ASSERT_OK(airc_context_set_op_kernel(ctx, "aten.sub.Tensor", "mockdev", k_sub, m, NULL));
}

/* ---- the seed-001 model -------------------------------------------------------- */

/* examples/seed001/model.fx: TorchAir's custom-pass guide's model,
 * mm = x @ x; add = |mm| + 1; sub = x - mm. */
static const char *const k_seed =
    "graph():\n"
    "    %x_1 : [#users=2] = placeholder[target=x_1]\n"
    "    %mm : [#users=2] = call_function[target=torch.ops.aten.mm.default](args = (%x_1, %x_1), kwargs = {})\n"
    "    %abs_1 : [#users=1] = call_function[target=torch.ops.aten.abs.default](args = (%mm,), kwargs = {})\n"
    "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%abs_1, 1), kwargs = {})\n"
    "    %sub : [#users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x_1, %mm), kwargs = {})\n"
    "    return (add, sub)\n";

/* The same after the guide's multistream pass (examples/seed001/
 * multistream.after.fx): the air ops order streams, which one stream in
 * graph order already satisfies. */
static const char *const k_seed_multistream =
    "graph():\n"
    "    %x_1 : [#users=2] = placeholder[target=x_1]\n"
    "    %scope_enter : [#users=0] = call_function[target=torch.ops.air.scope_enter.default](args = ([_user_stream_label], [stream_1]), kwargs = {})\n"
    "    %mm : [#users=2] = call_function[target=torch.ops.aten.mm.default](args = (%x_1, %x_1), kwargs = {})\n"
    "    %abs_1 : [#users=1] = call_function[target=torch.ops.aten.abs.default](args = (%mm,), kwargs = {})\n"
    "    %record : [#users=1] = call_function[target=torch.ops.air.record.default](args = (), kwargs = {})\n"
    "    %scope_exit : [#users=0] = call_function[target=torch.ops.air.scope_exit.default](args = (), kwargs = {})\n"
    "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%abs_1, 1), kwargs = {})\n"
    "    %wait : [#users=0] = call_function[target=torch.ops.air.wait.default](args = ([%record],), kwargs = {})\n"
    "    %sub : [#users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x_1, %mm), kwargs = {})\n"
    "    return (add, sub)\n";

#define N 5

static airc_tensor *seed_input(airc_context *ctx, float *x)
{
    const int64_t shape[2] = {N, N};
    airc_tensor *t;
    AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_F32, 2, shape, &t));
    uint32_t s = 12345;
    for (int i = 0; i < N * N; i++) {
        s = s * 1103515245u + 12345u;
        x[i] = (float)((int)(s >> 16) % 2001 - 1000) / 250.0f; /* [-4, 4] */
    }
    memcpy(airc_tensor_data(t), x, sizeof(float) * N * N);
    return t;
}

/* The model in plain C (double accumulation). */
static void reference(const float *x, double *add, double *sub)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double mm = 0;
            for (int p = 0; p < N; p++)
                mm += (double)x[i * N + p] * x[p * N + j];
            add[i * N + j] = fabs(mm) + 1.0;
            sub[i * N + j] = x[i * N + j] - mm;
        }
}

static void check_result(const airc_tensor *t, const double *want)
{
    assert_int_equal(airc_tensor_dtype(t), AIRC_DTYPE_F32);
    assert_int_equal(airc_tensor_ndim(t), 2);
    assert_int_equal(airc_tensor_shape(t)[0], N);
    assert_int_equal(airc_tensor_shape(t)[1], N);
    const float *got = airc_tensor_data(t);
    double maxabs = 0;
    for (int i = 0; i < N * N; i++)
        maxabs = fmax(maxabs, fabs(want[i]));
    for (int i = 0; i < N * N; i++) {
        /* DESIGN.md: rtol 1e-4, atol 1e-4 x (1 + max|expected|) */
        double tol = 1e-4 * fabs(want[i]) + 1e-4 * (1.0 + maxabs);
        if (fabs(got[i] - want[i]) > tol)
            print_error("element %d: got %.9g, want %.9g\n", i, got[i], want[i]);
        assert_true(fabs(got[i] - want[i]) <= tol);
    }
}

static void run_seed(const char *text, int air_buffers)
{
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    mockdev m;
    memset(&m, 0, sizeof m);
    register_kernels(ctx, &m);
    airc_runtime *rt = mockdev_runtime(ctx, &m);
    airc_graph *g = airc_test_parse(ctx, text);
    float x[N * N];
    airc_tensor *in = seed_input(ctx, x);
    double want_add[N * N], want_sub[N * N];
    reference(x, want_add, want_sub);

    for (int rep = 1; rep <= 2; rep++) {
        airc_tensor *out[4];
        size_t nout = 0;
        airc_run_stats stats = {.struct_size = sizeof stats};
        AIRC_ASSERT_OK(airc_run_eager(g, rt, &in, 1, out, 4, &nout, &stats));
        assert_int_equal(nout, 2);
        check_result(out[0], want_add);
        check_result(out[1], want_sub);
        /* results are host tensors, not device memory */
        assert_false(on_device(&m, airc_tensor_data(out[0]), 1));
        assert_false(on_device(&m, airc_tensor_data(out[1]), 1));

        /* every kernel call went to the mock's kernels, once per node */
        for (int k = 0; k < 4; k++)
            assert_int_equal(m.kernel_calls[k], rep);
        assert_int_equal(m.foreign_pointers, 0);
        assert_int_equal(m.launches, 4 * rep);
        assert_int_equal(stats.launches, 4);
        /* memory: the input and each of mm, abs_1, add, sub (and air.record's
         * placeholder result) from the mock, all freed after */
        assert_int_equal(m.allocs, (5 + air_buffers) * rep);
        assert_int_equal(m.frees, m.allocs);
        assert_int_equal(m.nlive, 0);
        assert_int_equal(m.bad_frees, 0);
        assert_true(stats.peak_bytes >= 3 * N * N * sizeof(float));
        /* data crossed through the mock's copy only: one input in, two
         * results out */
        assert_int_equal(m.h2d, rep);
        assert_int_equal(m.d2h, 2 * rep);
        assert_int_equal(m.bad_copies, 0);
        assert_int_equal(m.streams, rep);
        assert_int_equal(m.stream_destroys, rep);
        assert_true(m.syncs >= rep);
        airc_tensor_destroy(out[0]);
        airc_tensor_destroy(out[1]);
    }
    /* the caller's input was copied, not used in place or written */
    assert_memory_equal(airc_tensor_data(in), x, sizeof x);

    airc_tensor_destroy(in);
    airc_graph_destroy(g);
    airc_runtime_destroy(rt);
    airc_context_destroy(ctx);
}

static void test_seed_on_mockdev(void **state)
{
    (void)state;
    run_seed(k_seed, 0);
}

static void test_seed_multistream_on_mockdev(void **state)
{
    (void)state;
    /* scope_enter, scope_exit and wait return nothing; record gives a
     * 0-dim placeholder tensor: one more device buffer per run */
    run_seed(k_seed_multistream, 1);
}

/* An op the mock has no kernel for is refused: airc's CPU kernels are not a
 * fallback for another device, and nothing leaks. */
static void test_missing_kernel(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    mockdev m;
    memset(&m, 0, sizeof m);
    register_kernels(ctx, &m);
    airc_runtime *rt = mockdev_runtime(ctx, &m);
    airc_graph *g = airc_test_parse(
        ctx, "graph():\n"
             "    %x_1 : [#users=1] = placeholder[target=x_1]\n"
             "    %abs_1 : [#users=1] = call_function[target=torch.ops.aten.abs.default](args = (%x_1,), kwargs = {})\n"
             "    %neg : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%abs_1,), kwargs = {})\n"
             "    return neg\n");
    float x[N * N];
    airc_tensor *in = seed_input(ctx, x);
    airc_tensor *out[1] = {NULL};
    size_t nout = 7;
    AIRC_EXPECT(airc_run_eager(g, rt, &in, 1, out, 1, &nout, NULL), AIRC_E_UNSUPPORTED,
                "no mockdev kernel for aten.neg.default (node 'neg')");
    assert_null(out[0]);
    assert_int_equal(nout, 7);
    assert_int_equal(m.nlive, 0);
    assert_int_equal(m.frees, m.allocs);

    /* a kernel failure surfaces through synchronize with the node's name */
    AIRC_ASSERT_OK(airc_context_set_op_kernel(ctx, "aten.neg.default", "mockdev", k_mm, &m, NULL));
    AIRC_EXPECT(airc_run_eager(g, rt, &in, 1, out, 1, &nout, NULL), AIRC_E_UNSUPPORTED,
                "node 'neg'");
    assert_int_equal(m.nlive, 0);
    assert_int_equal(m.bad_frees, 0);

    airc_tensor_destroy(in);
    airc_graph_destroy(g);
    airc_runtime_destroy(rt);
    airc_context_destroy(ctx);
}


/* ---- reduce-overhead and graph inputs on the device ----------------------------- */

/* copy_(self, src) and add_(self, other): the executors hand the written
 * argument's view as the output. */
static airc_status k_copy_(airc_kernel_ctx *k, void *user_data)
{
    mockdev *m = user_data;
    const airc_tview *src = airc_kernel_input(k, 1);
    airc_tview *o = airc_kernel_output(k, 0);
    airc_status st;
    if ((st = check_view(m, src, "copy_: src")) || (st = check_view(m, o, "copy_: self")))
        return st;
    for (int64_t i = 0; i < o->shape[0]; i++)
        for (int64_t j = 0; j < o->shape[1]; j++)
            *at(o, i, j) = *at(src, i, j);
    return AIRC_OK;
}

static void register_more_kernels(airc_context *ctx, mockdev *m)
{
    register_kernels(ctx, m);
    AIRC_ASSERT_OK(
        airc_context_set_op_kernel(ctx, "aten.copy_.default", "mockdev", k_copy_, m, NULL));
    AIRC_ASSERT_OK(airc_context_set_op_kernel(ctx, "aten.add_.Tensor", "mockdev", k_add, m, NULL));
}

/* x @ w with w a constant (get_attr) bound to the graph in host memory. */
static const char *const k_const =
    "graph():\n"
    "    %x : [#users=1] = placeholder[target=x]\n"
    "    %w : [#users=1] = get_attr[target=w]\n"
    "    %mm : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})\n"
    "    %abs_1 : [#users=1] = call_function[target=torch.ops.aten.abs.default](args = (%mm,), kwargs = {})\n"
    "    return (abs_1,)\n";

/* x @ w with w an input (static in some runs). */
static const char *const k_two_inputs =
    "graph():\n"
    "    %x : [#users=1] = placeholder[target=x]\n"
    "    %w : [#users=1] = placeholder[target=w]\n"
    "    %mm : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %w), kwargs = {})\n"
    "    return (mm,)\n";

/* x += y (a mutated input, as AOT writes it back), then (x + y) - y. */
static const char *const k_mutating =
    "graph():\n"
    "    %x : [#users=2] = placeholder[target=x]\n"
    "    %y : [#users=2] = placeholder[target=y]\n"
    "    %add : [#users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%x, %y), kwargs = {})\n"
    "    %copy_ : [#users=0] = call_function[target=torch.ops.aten.copy_.default](args = (%x, %add), kwargs = {})\n"
    "    %sub : [#users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%add, %y), kwargs = {})\n"
    "    return (sub,)\n";

/* want = |x @ w| (abs_) or x @ w, in double */
static void matmul_ref(const float *x, const float *w, bool absolute, double *want)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double acc = 0;
            for (int p = 0; p < N; p++)
                acc += (double)x[i * N + p] * w[p * N + j];
            want[i * N + j] = absolute ? fabs(acc) : acc;
        }
}

typedef struct dev_run {
    airc_context *ctx;
    mockdev m;
    airc_runtime *rt;
    airc_graph *g;
} dev_run;

static void dev_open(dev_run *d, const char *text)
{
    AIRC_ASSERT_OK(airc_context_create(NULL, &d->ctx));
    memset(&d->m, 0, sizeof d->m);
    register_more_kernels(d->ctx, &d->m);
    d->rt = mockdev_runtime(d->ctx, &d->m);
    d->g = airc_test_parse(d->ctx, text);
}

/* Compiles d->g in `mode` onto the mock (inputs listed in statics are
 * static). */
static airc_compiled *dev_compile(dev_run *d, const char *mode, const size_t *statics,
                                  size_t nstatics)
{
    airc_config *cfg;
    AIRC_ASSERT_OK(airc_config_create(d->ctx, &cfg));
    AIRC_ASSERT_OK(airc_config_set(cfg, "mode", mode));
    airc_compile_options o;
    airc_compile_options_init(&o);
    o.config = cfg;
    o.runtime = d->rt;
    o.static_inputs = statics;
    o.nstatic_inputs = nstatics;
    airc_compiled *c;
    AIRC_ASSERT_OK(airc_compile(d->g, &o, &c));
    airc_config_destroy(cfg);
    return c;
}

/* No kernel saw host memory, every copy went the right way, nothing of
 * the mock's is left once c is gone. */
static void dev_close(dev_run *d, airc_compiled *c)
{
    assert_int_equal(d->m.foreign_pointers, 0);
    assert_int_equal(d->m.bad_copies, 0);
    airc_compiled_destroy(c);
    assert_int_equal(d->m.nlive, 0);
    assert_int_equal(d->m.bad_frees, 0);
    airc_graph_destroy(d->g);
    airc_runtime_destroy(d->rt);
    airc_context_destroy(d->ctx);
}

static const char *const modes[] = {"eager", "reduce-overhead"};

/* A constant in host memory reaches the device's kernels as device memory:
 * copied once per compiled object in reduce-overhead. */
static void test_constant_on_mockdev(void **state)
{
    (void)state;
    for (int mo = 0; mo < 2; mo++) {
        dev_run d;
        dev_open(&d, k_const);
        float x[N * N], w[N * N];
        airc_tensor *in = seed_input(d.ctx, x);
        for (int i = 0; i < N * N; i++)
            w[i] = (float)(i % 7) - 3.0f;
        const int64_t shape[2] = {N, N};
        AIRC_ASSERT_OK(
            airc_graph_set_constant(d.g, "w", AIRC_DTYPE_F32, 2, shape, NULL, w, NULL, NULL));
        double want[N * N];
        matmul_ref(x, w, true, want);
        airc_compiled *c = dev_compile(&d, modes[mo], NULL, 0);
        for (int r = 0; r < 3; r++) {
            airc_tensor *out[1];
            size_t n = 0;
            AIRC_ASSERT_OK(airc_compiled_run(c, &in, 1, out, 1, &n));
            check_result(out[0], want);
            airc_tensor_destroy(out[0]);
        }
        if (mo == 1) /* the input each replay, the constant once */
            assert_int_equal(d.m.h2d, 3 + 1);
        airc_tensor_destroy(in);
        dev_close(&d, c);
    }
}

/* Host tensors given to a compiled graph on a device runtime are copied to
 * the device before every run, static inputs included: a weight changed in
 * place between runs is seen, as on the CPU (where it is used in place). */
static void test_static_input_on_mockdev(void **state)
{
    (void)state;
    for (int mo = 0; mo < 2; mo++) {
        dev_run d;
        dev_open(&d, k_two_inputs);
        float x[N * N];
        airc_tensor *in[2] = {seed_input(d.ctx, x), seed_input(d.ctx, x)};
        float *w = airc_tensor_data(in[1]);
        const size_t statics[1] = {1};
        airc_compiled *c = dev_compile(&d, modes[mo], statics, 1);
        for (int r = 0; r < 3; r++) {
            w[r] += 1.0f; /* in place: same address */
            double want[N * N];
            matmul_ref(x, w, false, want);
            airc_tensor *out[1];
            size_t n = 0;
            AIRC_ASSERT_OK(airc_compiled_run(c, in, 2, out, 1, &n));
            check_result(out[0], want);
            airc_tensor_destroy(out[0]);
        }
        if (mo == 1) {
            airc_compiled_stats s = {.struct_size = sizeof s};
            AIRC_ASSERT_OK(airc_compiled_get_stats(c, &s));
            assert_int_equal(s.captures, 1);
            assert_int_equal(s.replays, 3);
        }
        airc_tensor_destroy(in[0]);
        airc_tensor_destroy(in[1]);
        dev_close(&d, c);
    }
}

/* A graph input the graph writes (copy_ back) is written back to the
 * caller's host tensor after the run, in each mode. */
static void test_mutated_input_on_mockdev(void **state)
{
    (void)state;
    for (int mo = 0; mo < 2; mo++) {
        dev_run d;
        dev_open(&d, k_mutating);
        float x[N * N], y[N * N];
        airc_tensor *in[2] = {seed_input(d.ctx, x), seed_input(d.ctx, y)};
        for (int i = 0; i < N * N; i++) /* y unlike x */
            y[i] = ((float *)airc_tensor_data(in[1]))[i] = 0.5f * (float)(i % 5) - 1.0f;
        airc_compiled *c = dev_compile(&d, modes[mo], NULL, 0);
        for (int r = 1; r <= 3; r++) {
            double want[N * N];
            for (int i = 0; i < N * N; i++)
                want[i] = (double)x[i] + (r - 1) * (double)y[i]; /* x before this run */
            airc_tensor *out[1];
            size_t n = 0;
            AIRC_ASSERT_OK(airc_compiled_run(c, in, 2, out, 1, &n));
            check_result(out[0], want);
            airc_tensor_destroy(out[0]);
            for (int i = 0; i < N * N; i++)
                want[i] = (double)x[i] + r * (double)y[i];
            check_result(in[0], want); /* x += y, on the host */
        }
        airc_tensor_destroy(in[0]);
        airc_tensor_destroy(in[1]);
        dev_close(&d, c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_on_mockdev),
        cmocka_unit_test(test_seed_multistream_on_mockdev),
        cmocka_unit_test(test_missing_kernel),
        cmocka_unit_test(test_constant_on_mockdev),
        cmocka_unit_test(test_static_input_on_mockdev),
        cmocka_unit_test(test_mutated_input_on_mockdev),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
