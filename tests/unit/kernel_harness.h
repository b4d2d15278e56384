/* A small interpreter for kernel unit tests (header-only, static): parses a
 * torch.fx text graph whose placeholders carry types (layouts included,
 * `f32[3, 4]{1, 3}`), propagates meta, fills the placeholders with random
 * data from a fixed seed, and runs every call_function node through its
 * built-in CPU kernel, binding arguments exactly as the executor does
 * (airc_schema_bind; tensors as strided views; view ops get data NULL,
 * in-place ops their written input). Tests then compare results with plain
 * double-precision references computed here from the same inputs. */
#ifndef AIRC_TEST_KERNEL_HARNESS_H
#define AIRC_TEST_KERNEL_HARNESS_H

#include "testutil.h"

#include "backends/cpu/cpu_kernels.h"
#include "backends/cpu/k_strided.h"
#include "ir/ir.h"
#include "ops/kernel.h"
#include "ops/ops.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Text builders: a typed placeholder, and a call_function node. */
#define KH_PH(name, type) "    %" name " : " type " [#users=1] = placeholder[target=" name "]\n"
#define KH_CALL(name, op, args)                                                                    \
    "    %" name " : [#users=1] = call_function[target=torch.ops." op "](args = " args             \
    ", kwargs = {})\n"
#define KH_CALLKW(name, op, args, kwargs)                                                          \
    "    %" name " : [#users=1] = call_function[target=torch.ops." op "](args = " args             \
    ", kwargs = " kwargs ")\n"
/* The same for snprintf format strings ('%' doubled). */
#define KH_PHF(name, type) "    %%" name " : " type " [#users=1] = placeholder[target=" name "]\n"
#define KH_CALLF(name, op, args)                                                                   \
    "    %%" name " : [#users=1] = call_function[target=torch.ops." op "](args = " args            \
    ", kwargs = {})\n"
#define KH_GETITEMF(name, src, i)                                                                  \
    "    %%" name " : [#users=1] = call_function[target=operator.getitem](args = (%%" src ", " #i  \
    "), kwargs = {})\n"
#define KH_GETITEM(name, src, i)                                                                   \
    "    %" name " : [#users=1] = call_function[target=operator.getitem](args = (%" src ", " #i    \
    "), kwargs = {})\n"

typedef struct kh_val {
    airc_node *node;
    uint32_t nout;
    airc_tview *t;
    void **mem; /* owned buffers (NULL for views) */
} kh_val;

typedef struct kh {
    airc_context *ctx;
    airc_graph *g;
    kh_val *vals; /* by node id */
    size_t nvals;
    uint64_t seed;
    airc_status st;       /* first kernel failure */
    char msg[1024];       /* its message */
} kh;

static inline uint64_t kh_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* uniform in [-1, 1) */
static inline double kh_uniform(uint64_t *s)
{
    return (double)(kh_rand(s) >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static inline void *kh_alloc_view(airc_tview *t)
{
    size_t span = airc_tview_span_bytes(t);
    void *mem = calloc(1, span ? span : 8);
    assert_non_null(mem);
    t->data = mem;
    return mem;
}

/* Random values over the whole span (so gaps between strided elements hold
 * garbage a kernel must not read as data). Integers in [0, 5). */
static inline void kh_fill_random(airc_tview *t, uint64_t *seed)
{
    size_t esz = airc_dtype_size(t->dtype), span = airc_tview_span_bytes(t);
    for (size_t off = 0; off + esz <= span; off += esz) {
        char *p = (char *)t->data + off;
        switch (t->dtype) {
        case AIRC_DTYPE_F32: { float v = (float)kh_uniform(seed); memcpy(p, &v, 4); break; }
        case AIRC_DTYPE_F64: { double v = kh_uniform(seed); memcpy(p, &v, 8); break; }
        case AIRC_DTYPE_I64: { int64_t v = (int64_t)(kh_rand(seed) % 5); memcpy(p, &v, 8); break; }
        case AIRC_DTYPE_I32: { int32_t v = (int32_t)(kh_rand(seed) % 5); memcpy(p, &v, 4); break; }
        case AIRC_DTYPE_BOOL: *(uint8_t *)p = (uint8_t)(kh_rand(seed) & 1); break;
        default: memset(p, 0, esz); break;
        }
    }
}

static inline kh_val *kh_val_of(kh *h, const airc_node *n)
{
    assert_true(n->id < h->nvals);
    return &h->vals[n->id];
}

static inline void kh_init(kh *h, const char *text)
{
    memset(h, 0, sizeof *h);
    h->seed = 0x9e3779b97f4a7c15ull;
    AIRC_ASSERT_OK(airc_context_create(NULL, &h->ctx));
    h->g = airc_test_parse(h->ctx, text);
    AIRC_ASSERT_OK(airc_graph_propagate_meta(h->g));
    size_t maxid = 0;
    for (airc_node *n = airc_graph_first_node(h->g); n; n = airc_node_next(n))
        maxid = n->id + 1 > maxid ? n->id + 1 : maxid;
    h->nvals = maxid;
    h->vals = calloc(maxid ? maxid : 1, sizeof *h->vals);
    assert_non_null(h->vals);
    for (airc_node *n = airc_graph_first_node(h->g); n; n = airc_node_next(n)) {
        if (airc_node_get_kind(n) != AIRC_NODE_PLACEHOLDER)
            continue;
        kh_val *v = kh_val_of(h, n);
        v->node = n;
        v->nout = 1;
        v->t = calloc(1, sizeof *v->t);
        v->mem = calloc(1, sizeof *v->mem);
        assert_true(v->t && v->mem);
        airc_tview_from_meta(v->t, &n->out[0]);
        v->mem[0] = kh_alloc_view(v->t);
        kh_fill_random(v->t, &h->seed);
    }
}

/* The tensor a value names (a node's output 0, or a getitem's item). */
static inline const airc_tview *kh_view_of_value(kh *h, const airc_value *v)
{
    if (!v || v->kind != AIRC_VALUE_NODE)
        return NULL;
    kh_val *kv = kh_val_of(h, v->u.node);
    assert_non_null(kv->t);
    return &kv->t[0];
}

static inline void kh_run_node(kh *h, airc_node *n)
{
    kh_val *v = kh_val_of(h, n);
    v->node = n;
    const airc_op *op = airc_node_op(n);
    assert_non_null(op);
    if (!strcmp(op->qualname, AIRC_OP_GETITEM)) {
        kh_val *src = kh_val_of(h, n->args[0]->u.node);
        int64_t i = n->args[1]->u.i;
        assert_true(i >= 0 && i < (int64_t)src->nout);
        v->nout = 1;
        v->t = calloc(1, sizeof *v->t);
        v->mem = calloc(1, sizeof *v->mem);
        assert_true(v->t && v->mem);
        v->t[0] = src->t[i];
        return;
    }
    uint32_t nargs = op->schema->nargs;
    const airc_value *args[64] = {0};
    const airc_tview *in[64] = {0};
    const airc_tview *lists[64] = {0};
    uint32_t list_len[64] = {0};
    airc_tview *owned_lists[64] = {0};
    assert_true(nargs <= 64);
    airc_schema_bind(n, args);
    for (uint32_t i = 0; i < nargs; i++) {
        in[i] = kh_view_of_value(h, args[i]);
        bool tensors = false; /* a Tensor[] or Tensor?[] list (None: a zeroed view) */
        for (uint32_t j = 0;
             args[i] && (args[i]->kind == AIRC_VALUE_LIST || args[i]->kind == AIRC_VALUE_TUPLE) &&
             j < args[i]->len;
             j++)
            tensors |= args[i]->u.items[j]->kind == AIRC_VALUE_NODE;
        if (tensors) {
            owned_lists[i] = calloc(args[i]->len, sizeof(airc_tview));
            assert_non_null(owned_lists[i]);
            for (uint32_t j = 0; j < args[i]->len; j++)
                if (args[i]->u.items[j]->kind == AIRC_VALUE_NODE)
                    owned_lists[i][j] = *kh_view_of_value(h, args[i]->u.items[j]);
            lists[i] = owned_lists[i];
            list_len[i] = args[i]->len;
        }
    }
    v->nout = (uint32_t)airc_node_num_outputs(n);
    v->t = calloc(v->nout ? v->nout : 1, sizeof *v->t);
    v->mem = calloc(v->nout ? v->nout : 1, sizeof *v->mem);
    assert_true(v->t && v->mem);
    bool is_view = (op->flags & AIRC_OP_VIEW) != 0;
    bool inplace = op->schema->nrets > 0 && op->schema->rets[0].type.is_write;
    for (uint32_t i = 0; i < v->nout; i++) {
        airc_tview_from_meta(&v->t[i], &n->out[i]);
        if (inplace && i == 0)
            v->t[0] = *in[0];
        else if (!is_view)
            v->mem[i] = kh_alloc_view(&v->t[i]);
    }
    airc_kernel_fn fn = airc_cpu_find_kernel(op->qualname);
    if (!fn)
        fail_msg("no CPU kernel for %s", op->qualname);
    airc_kernel_ctx k = {n, op, nargs, args, in, lists, list_len, v->nout, v->t, 1, h->ctx, NULL};
    airc_status st = fn(&k, NULL);
    if (st != AIRC_OK && h->st == AIRC_OK) {
        h->st = st;
        snprintf(h->msg, sizeof h->msg, "%s", airc_last_error());
    }
    if (st == AIRC_OK && is_view)
        for (uint32_t i = 0; i < v->nout; i++)
            assert_true(v->t[i].data != NULL || airc_tview_span_bytes(&v->t[i]) == 0);
    for (uint32_t i = 0; i < nargs; i++)
        free(owned_lists[i]);
}

/* Runs every call_function node in order; stops at the first failure
 * (returned, message in h->msg). */
static inline airc_status kh_run(kh *h)
{
    for (airc_node *n = airc_graph_first_node(h->g); n; n = airc_node_next(n)) {
        if (airc_node_get_kind(n) != AIRC_NODE_CALL_FUNCTION)
            continue;
        kh_run_node(h, n);
        if (h->st != AIRC_OK)
            return h->st;
    }
    return AIRC_OK;
}

static inline void kh_run_ok(kh *h)
{
    airc_status st = kh_run(h);
    if (st != AIRC_OK)
        fail_msg("kernel failed: %s: %s", airc_status_name(st), h->msg);
}

/* Output i of node `name`. */
static inline airc_tview *kh_get(kh *h, const char *name, uint32_t i)
{
    airc_node *n = airc_graph_find_node(h->g, name);
    if (!n)
        fail_msg("no node %s", name);
    kh_val *v = kh_val_of(h, n);
    assert_true(i < v->nout);
    return &v->t[i];
}

static inline void kh_free(kh *h)
{
    for (size_t i = 0; i < h->nvals; i++) {
        for (uint32_t j = 0; j < h->vals[i].nout; j++)
            free(h->vals[i].mem[j]);
        free(h->vals[i].mem);
        free(h->vals[i].t);
    }
    free(h->vals);
    airc_graph_destroy(h->g);
    airc_context_destroy(h->ctx);
}

/* ---- reading and comparing -------------------------------------------- */

static inline double kh_at(const airc_tview *t, const int64_t *idx)
{
    int64_t off = 0;
    for (int32_t i = 0; i < t->ndim; i++)
        off += idx[i] * t->strides[i];
    const char *p = (const char *)t->data + off * (int64_t)airc_dtype_size(t->dtype);
    switch (t->dtype) {
    case AIRC_DTYPE_F32: { float v; memcpy(&v, p, 4); return v; }
    case AIRC_DTYPE_F64: { double v; memcpy(&v, p, 8); return v; }
    case AIRC_DTYPE_I64: { int64_t v; memcpy(&v, p, 8); return (double)v; }
    case AIRC_DTYPE_I32: { int32_t v; memcpy(&v, p, 4); return v; }
    case AIRC_DTYPE_BOOL: return *(const uint8_t *)p;
    default: return airc_cpu_load_f64(p, t->dtype);
    }
}

/* Shorthands for 2-, 3- and 4-d reads. */
static inline double kh_at2(const airc_tview *t, int64_t a, int64_t b)
{
    int64_t i[2] = {a, b};
    return kh_at(t, i);
}
static inline double kh_at3(const airc_tview *t, int64_t a, int64_t b, int64_t c)
{
    int64_t i[3] = {a, b, c};
    return kh_at(t, i);
}
static inline double kh_at4(const airc_tview *t, int64_t a, int64_t b, int64_t c, int64_t d)
{
    int64_t i[4] = {a, b, c, d};
    return kh_at(t, i);
}

static inline void kh_set(const airc_tview *t, const int64_t *idx, double v)
{
    int64_t off = 0;
    for (int32_t i = 0; i < t->ndim; i++)
        off += idx[i] * t->strides[i];
    char *p = (char *)t->data + off * (int64_t)airc_dtype_size(t->dtype);
    switch (t->dtype) {
    case AIRC_DTYPE_F32: { float x = (float)v; memcpy(p, &x, 4); break; }
    case AIRC_DTYPE_F64: memcpy(p, &v, 8); break;
    case AIRC_DTYPE_I64: { int64_t x = (int64_t)v; memcpy(p, &x, 8); break; }
    case AIRC_DTYPE_I32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
    case AIRC_DTYPE_BOOL: *(uint8_t *)p = v != 0; break;
    default: airc_cpu_store_f64(p, t->dtype, v); /* f16, bf16, ... as the kernels store them */
    }
}

/* Row-major index step; false after the last index. */
static inline bool kh_next(int64_t *idx, const int64_t *shape, int32_t ndim)
{
    for (int32_t i = ndim - 1; i >= 0; i--) {
        if (++idx[i] < shape[i])
            return true;
        idx[i] = 0;
    }
    return false;
}

static inline int64_t kh_numel(const airc_tview *t)
{
    int64_t n = 1;
    for (int32_t i = 0; i < t->ndim; i++)
        n *= t->shape[i];
    return n;
}

/* got (any layout) against want (row-major over got's shape), DESIGN.md's
 * tolerance: |g - w| <= 1e-4 * |w| + 1e-4 * (1 + max|want|); exact when
 * `exact`. NaN matches NaN. */
static inline void kh_expect(const airc_tview *got, const double *want, bool exact, const char *what)
{
    int64_t n = kh_numel(got), idx[AIRC_MAX_DIMS] = {0};
    double maxabs = 0;
    for (int64_t e = 0; e < n; e++)
        maxabs = fabs(want[e]) > maxabs ? fabs(want[e]) : maxabs;
    double atol = 1e-4 * (1 + maxabs);
    for (int64_t e = 0; e < n; e++) {
        double g = kh_at(got, idx), w = want[e];
        bool ok = isnan(w) ? isnan(g) : exact ? g == w : fabs(g - w) <= 1e-4 * fabs(w) + atol;
        if (!ok)
            fail_msg("%s: element %lld: got %.9g, want %.9g", what, (long long)e, g, w);
        if (n)
            kh_next(idx, got->shape, got->ndim);
    }
}

#endif
