/* Eager execution: the graph interpreted node by node on a runtime.
 *
 * The caller's graph is cloned, nested graphs inlined, placeholders given
 * the inputs' meta and meta propagated; then every node is bound in order:
 * placeholders and get_attr to their data, operator.getitem to an element
 * of its producer's results, each other call to a kernel launched on one
 * stream. Launches are asynchronous: a view kernel sets its output's data
 * pointer when it runs, so consumers are handed pointers to their producers'
 * views (never copies) and Tensor[] lists and in-place outputs are filled
 * in by the launched item itself, just before its kernel runs.
 *
 * Memory: each result holds a reference on its buffer (views and in-place
 * results on their base's), and a result dies after its last user has been
 * launched. A buffer whose last reference dies must outlive the work
 * launched before it, so it is queued and freed after the next synchronize
 * (result buffers are never freed from the runtime's threads; kernels'
 * scratch memory is, so the allocator hook must be thread-safe, as
 * airc.h says). The queue is flushed when it holds FLUSH_BYTES, at the end,
 * and before retrying a failed allocation. */
#include "airc/exec.h"
#include "backends/cpu/k_strided.h"
#include "exec/data_dump.h"
#include "exec/exec.h"
#include "io/io.h"

#include <stdio.h>
#include <string.h>

#define NO_BUF UINT32_MAX
/* Synchronizing costs a thread hand-off (CPU) or a device round trip: paid
 * once per MiB released, it is small beside the kernels that produced the
 * bytes, and memory stays within about a MiB of the liveness plan. */
#define FLUSH_BYTES ((size_t)1 << 20)
#define BUF_ALIGN 64

typedef struct ebuf {
    void *ptr; /* NULL once queued for freeing */
    size_t bytes;
    uint32_t refs;
    bool owned;   /* allocated from the runtime by this run */
    bool written; /* an in-place op wrote to it */
    /* device runtimes: the caller's input this buffer is the copy of,
     * written back when a kernel wrote the copy */
    airc_tensor *input;
    /* host runtimes: a graph output's buffer made as its result tensor,
     * handed to the caller at the end instead of copied (NULL once handed) */
    airc_tensor *result;
} ebuf;

/* A node's results in the run. */
typedef struct eval {
    airc_tview *t;  /* nt views; for getitem, points into the producer's */
    uint32_t *buf;  /* per view: its buffer, or NO_BUF */
    uint32_t nt;
    uint32_t remaining; /* users not yet launched */
    bool keep;          /* a graph output */
    bool bound;
    bool released;
} eval;

typedef struct eager_run eager_run;

typedef struct launch_item {
    eager_run *run;
    airc_kernel_fn fn;
    void *user_data;
    airc_kernel_ctx k;
    const airc_tview ***list_src; /* per argument: a Tensor[] list's items (NULL: None) */
    const airc_tview **alias_src; /* per output: the written input it is, or NULL */
} launch_item;

struct eager_run {
    airc_context *ctx;
    airc_graph *g;
    const airc_runtime_vtable *vt;
    void *rctx;
    airc_stream_t stream;
    bool has_stream;
    bool host; /* device memory is host memory ("cpu") */
    /* a device runtime and a graph with in-place ops: input copies live to
     * the end of the run, to be written back */
    bool keep_inputs;
    const airc_data_dump *dump; /* debug.data_dump, or NULL */
    const char *device;
    int32_t threads;
    airc_arena arena; /* views, kernel contexts: live until the final synchronize */
    eval *vals;       /* by node id */
    ebuf *bufs;
    size_t nbufs, bufs_cap;
    void **pending;
    size_t npending, pending_cap, pending_bytes;
    size_t live_bytes, peak_bytes;
    uint64_t launches;
    /* the first kernel failure, written by the stream's worker */
    atomic_int failed;
    airc_status fail_code;
    char fail_msg[1024];
};

/* ---- runtime calls ------------------------------------------------------ */

/* A runtime's status, with its message when it left one. */
static airc_status runtime_fail(airc_status st, const char *what)
{
    if (st == AIRC_OK)
        return AIRC_OK;
    if (airc_last_error_code() == st && *airc_last_error())
        return airc_fail_prefix("runtime %s", what);
    return airc_fail(st, "runtime %s failed (%s)", what, airc_status_name(st));
}

/* Waits for the stream; a kernel failure is reported with its node. */
static airc_status run_sync(eager_run *r)
{
    airc_set_error(AIRC_OK, "");
    airc_status st = r->vt->synchronize(r->rctx, r->stream);
    if (atomic_load_explicit(&r->failed, memory_order_acquire))
        return airc_fail(r->fail_code, "%s", r->fail_msg);
    return runtime_fail(st, "synchronize");
}

static void free_pending(eager_run *r)
{
    for (size_t i = 0; i < r->npending; i++)
        r->vt->free(r->rctx, r->pending[i]);
    r->live_bytes -= r->pending_bytes;
    r->npending = 0;
    r->pending_bytes = 0;
}

static airc_status flush(eager_run *r)
{
    if (!r->npending)
        return AIRC_OK;
    airc_status st = run_sync(r);
    free_pending(r); /* nothing launched runs any more, even after a failure */
    return st;
}

static airc_status add_buf(eager_run *r, void *ptr, size_t bytes, bool owned, uint32_t *out)
{
    if (r->nbufs >= NO_BUF ||
        !airc_grow(r->ctx, (void **)&r->bufs, &r->bufs_cap, r->nbufs + 1, sizeof *r->bufs))
        return airc_fail_oom("eager buffer table");
    r->bufs[r->nbufs] = (ebuf){ptr, bytes, 0, owned, false, NULL, NULL};
    *out = (uint32_t)r->nbufs++;
    return AIRC_OK;
}

static void count_live(eager_run *r, size_t bytes)
{
    r->live_bytes += bytes;
    if (r->live_bytes > r->peak_bytes)
        r->peak_bytes = r->live_bytes;
}

/* A new runtime buffer of `bytes` (at least 1, so that empty tensors have
 * a pointer too), registered in the table. */
static airc_status new_buf(eager_run *r, size_t bytes, const airc_node *n, uint32_t *out)
{
    size_t size = bytes ? bytes : 1;
    void *p = NULL;
    airc_status st = r->vt->alloc(r->rctx, size, BUF_ALIGN, &p);
    if (st != AIRC_OK && r->npending) {
        AIRC_TRY(flush(r));
        st = r->vt->alloc(r->rctx, size, BUF_ALIGN, &p);
    }
    if (st != AIRC_OK || !p) {
        if (st == AIRC_OK || st == AIRC_E_OUT_OF_MEMORY)
            return airc_fail(AIRC_E_OUT_OF_MEMORY,
                             "out of memory: %zu bytes for the result of node '%s'", size,
                             n->name);
        return airc_fail_prefix("node '%s': allocating %zu bytes", n->name, size);
    }
    if ((st = add_buf(r, p, size, true, out)) != AIRC_OK) {
        r->vt->free(r->rctx, p);
        return st;
    }
    count_live(r, size);
    return AIRC_OK;
}

/* A graph output's buffer on a host runtime, when its layout is a tensor's
 * (contiguous): made as the result tensor itself, so that the result is
 * handed over rather than copied into a second allocation. A run whose
 * result is as large as its input thus touches half the memory, which
 * matters most where the allocator hands back pages the kernel faults in
 * again on every call. It stays until the end of the run. */
static airc_status new_result_buf(eager_run *r, const airc_tview *t, const airc_node *n,
                                  uint32_t *out)
{
    airc_tensor *res = NULL;
    if (!airc_cpu_is_contiguous(t) ||
        airc_tensor_new(r->ctx, t->dtype, t->ndim, t->shape, false, &res) != AIRC_OK)
        return new_buf(r, airc_tview_span_bytes(t), n, out);
    airc_status st = add_buf(r, res->data, res->nbytes, true, out);
    if (st != AIRC_OK) {
        airc_tensor_destroy(res);
        return st;
    }
    r->bufs[*out].result = res;
    count_live(r, res->nbytes);
    return AIRC_OK;
}

/* Drops one reference; a dead owned buffer is queued, to be freed after
 * the next synchronize (or freed after draining the stream now when the
 * queue cannot grow). */
static airc_status drop_ref(eager_run *r, uint32_t b)
{
    if (b == NO_BUF)
        return AIRC_OK;
    ebuf *e = &r->bufs[b];
    if (--e->refs || !e->owned || !e->ptr || e->result)
        return AIRC_OK;
    void *p = e->ptr;
    e->ptr = NULL;
    if (!airc_grow(r->ctx, (void **)&r->pending, &r->pending_cap, r->npending + 1,
                   sizeof *r->pending)) {
        airc_status st = run_sync(r);
        r->vt->free(r->rctx, p); /* the stream is idle now */
        r->live_bytes -= e->bytes;
        return st;
    }
    r->pending[r->npending++] = p;
    r->pending_bytes += e->bytes;
    return r->pending_bytes >= FLUSH_BYTES ? flush(r) : AIRC_OK;
}

static airc_status release(eager_run *r, eval *v)
{
    if (v->released || !v->bound)
        return AIRC_OK;
    v->released = true;
    for (uint32_t j = 0; j < v->nt; j++)
        AIRC_TRY(drop_ref(r, v->buf[j]));
    return AIRC_OK;
}

/* ---- results of nodes ---------------------------------------------------- */

static airc_status alloc_views(eager_run *r, eval *v, uint32_t nt)
{
    v->t = airc_arena_calloc(&r->arena, nt ? nt : 1, sizeof *v->t);
    v->buf = airc_arena_calloc(&r->arena, nt ? nt : 1, sizeof *v->buf);
    if (!v->t || !v->buf)
        return airc_fail_oom("eager views");
    for (uint32_t j = 0; j < nt; j++)
        v->buf[j] = NO_BUF;
    v->nt = nt;
    return AIRC_OK;
}

static uint32_t node_nout(const airc_node *n)
{
    return n->meta_kind == AIRC_META_NONE ? 0 : n->nout;
}

/* Binds data that lives outside the run (an input, a constant) to a
 * single-result node: used in place on a host runtime, copied otherwise. */
static airc_status bind_external(eager_run *r, airc_node *n, const airc_tview *t, void *data)
{
    eval *v = &r->vals[n->id];
    AIRC_TRY(alloc_views(r, v, 1));
    v->t[0] = *t;
    if (r->host) {
        v->t[0].data = data;
        AIRC_TRY(add_buf(r, data, 0, false, &v->buf[0]));
    } else {
        AIRC_TRY(new_buf(r, airc_tview_span_bytes(t), n, &v->buf[0]));
        v->t[0].data = r->bufs[v->buf[0]].ptr;
        size_t span = airc_tview_span_bytes(t);
        if (span) {
            airc_set_error(AIRC_OK, "");
            airc_status st = r->vt->copy(r->rctx, v->t[0].data, data, span,
                                         AIRC_COPY_HOST_TO_DEVICE, NULL);
            if (st != AIRC_OK)
                return airc_fail_prefix("node '%s'", n->name), runtime_fail(st, "copy");
        }
    }
    r->bufs[v->buf[0]].refs = 1;
    v->bound = true;
    return AIRC_OK;
}

static airc_status bind_placeholder(eager_run *r, airc_node *n, airc_tensor *in)
{
    airc_tview t;
    airc_tview_from_meta(&t, &n->out[0]);
    AIRC_TRY(bind_external(r, n, &t, in->data));
    ebuf *b = &r->bufs[r->vals[n->id].buf[0]];
    if (!r->host && r->keep_inputs) {
        b->input = in;
        b->refs++; /* held until write_back */
    }
    return AIRC_OK;
}

/* Whether some node writes an argument (the graph may write an input). */
static bool has_inplace_ops(const airc_graph *g)
{
    AIRC_FOR_EACH_NODE(g, n)
    {
        if (n->kind == AIRC_NODE_CALL_FUNCTION && n->op && n->op->schema &&
            n->op->schema->is_mutable)
            return true;
    }
    return false;
}

/* Device runtimes: inputs whose device copy a kernel wrote get it back
 * (graph inputs the graph mutates, as on a host runtime, where the
 * kernels write the caller's memory itself). */
static airc_status write_back(eager_run *r)
{
    for (size_t i = 0; i < r->nbufs; i++) {
        const ebuf *b = &r->bufs[i];
        size_t n = b->input ? b->input->nbytes : 0;
        if (!b->written || !n)
            continue;
        airc_set_error(AIRC_OK, "");
        airc_status st =
            r->vt->copy(r->rctx, b->input->data, b->ptr, n, AIRC_COPY_DEVICE_TO_HOST, NULL);
        if (st != AIRC_OK)
            return runtime_fail(st, "writing a mutated input back");
    }
    return AIRC_OK;
}

static airc_status bind_constant(eager_run *r, airc_node *n)
{
    airc_tmeta m;
    const int64_t *shape, *strides;
    void *data;
    if (airc_graph_get_constant(r->g, n->target, &m.dtype, &m.ndim, &shape, &strides, &data) !=
        AIRC_OK)
        return airc_fail(AIRC_E_NOT_FOUND, "get_attr node '%s': no constant '%s' is bound",
                         n->name, n->target);
    memcpy(m.shape, shape, sizeof *shape * (size_t)m.ndim);
    memcpy(m.strides, strides, sizeof *strides * (size_t)m.ndim);
    airc_tview t;
    airc_tview_from_meta(&t, &m);
    return bind_external(r, n, &t, data);
}

/* The view and buffer of a node value used as a tensor argument. */
static airc_status tensor_arg(eager_run *r, const airc_node *user, const airc_value *v,
                              airc_tview **view, uint32_t *buf)
{
    const airc_node *src = v->u.node;
    eval *e = &r->vals[src->id];
    if (!e->bound || e->released)
        return airc_fail(AIRC_E_INTERNAL, "node '%s': its input '%s' is not live", user->name,
                         src->name);
    if (e->nt != 1)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "node '%s': input '%s' has %u results, not one tensor (index it with "
                         "operator.getitem)",
                         user->name, src->name, e->nt);
    *view = &e->t[0];
    *buf = e->buf[0];
    return AIRC_OK;
}

static airc_status exec_getitem(eager_run *r, airc_node *n)
{
    const airc_value *self = n->nargs > 0 ? n->args[0] : NULL;
    const airc_value *idxv = n->nargs > 1 ? n->args[1] : NULL;
    int64_t idx;
    if (!self || self->kind != AIRC_VALUE_NODE || !idxv || airc_value_get_int(idxv, &idx))
        return airc_fail(AIRC_E_UNSUPPORTED, "node '%s': getitem needs a node and an int",
                         n->name);
    eval *src = &r->vals[self->u.node->id];
    if (!src->bound || src->released)
        return airc_fail(AIRC_E_INTERNAL, "node '%s': its input is not live", n->name);
    if (idx < 0)
        idx += src->nt;
    if (idx < 0 || idx >= (int64_t)src->nt)
        return airc_fail(AIRC_E_INVALID_GRAPH, "node '%s': index out of range of %u results",
                         n->name, src->nt);
    eval *v = &r->vals[n->id];
    v->t = &src->t[idx];
    v->buf = &src->buf[idx];
    v->nt = 1;
    if (v->buf[0] != NO_BUF)
        r->bufs[v->buf[0]].refs++;
    v->bound = true;
    return AIRC_OK;
}

/* ---- kernel launches ------------------------------------------------------ */

static void record_failure(eager_run *r, const airc_kernel_ctx *k, airc_status st)
{
    const char *msg = airc_last_error_code() == st ? airc_last_error() : "";
    if (*msg)
        snprintf(r->fail_msg, sizeof r->fail_msg, "node '%s': %s", k->node->name, msg);
    else
        snprintf(r->fail_msg, sizeof r->fail_msg, "node '%s': the kernel of %s failed (%s)",
                 k->node->name, k->op->qualname, airc_status_name(st));
    r->fail_code = st;
    atomic_store_explicit(&r->failed, 1, memory_order_release);
}

/* Runs on the stream: completes the views only known now, then the kernel. */
static airc_status run_item(void *arg, airc_stream_t stream)
{
    launch_item *it = arg;
    eager_run *r = it->run;
    if (atomic_load_explicit(&r->failed, memory_order_acquire))
        return AIRC_OK; /* later nodes read what the failed one did not write */
    airc_kernel_ctx *k = &it->k;
    k->stream = stream; /* a device kernel enqueues its work there */
    for (uint32_t i = 0; it->list_src && i < k->nargs; i++) {
        if (!it->list_src[i])
            continue;
        airc_tview *dst = (airc_tview *)k->in_list[i];
        for (uint32_t j = 0; j < k->in_list_len[i]; j++) {
            if (it->list_src[i][j])
                dst[j] = *it->list_src[i][j];
            else
                memset(&dst[j], 0, sizeof dst[j]); /* None in a Tensor?[] */
        }
    }
    for (uint32_t j = 0; it->alias_src && j < k->nout; j++)
        if (it->alias_src[j])
            k->out[j] = *it->alias_src[j];
    airc_set_error(AIRC_OK, "");
    airc_status st = it->fn(k, it->user_data);
    for (uint32_t j = 0; st == AIRC_OK && j < k->nout; j++) {
        if (k->out[j].data)
            continue;
        bool empty = false;
        for (int32_t d = 0; d < k->out[j].ndim; d++)
            empty |= k->out[j].shape[d] == 0;
        if (!empty)
            st = airc_fail(AIRC_E_RUNTIME, "the kernel of %s left output %u without data",
                           k->op->qualname, j);
    }
    if (st != AIRC_OK)
        record_failure(r, k, st);
    return st;
}

static bool is_air_noop(const airc_op *op)
{
    return !strcmp(op->qualname, AIRC_OP_SCOPE_ENTER) ||
           !strcmp(op->qualname, AIRC_OP_SCOPE_EXIT) || !strcmp(op->qualname, "air.wait.default");
}

/* The argument whose alias set a written return shares; -1 if none. */
static int32_t written_arg(const airc_schema *s, const airc_arg *ret)
{
    for (uint32_t a = 0; a < s->nargs; a++)
        if (s->args[a].type.alias && !strcmp(s->args[a].type.alias, ret->type.alias))
            return (int32_t)a;
    return -1;
}

/* Buffers of a call's tensor arguments, for its view and in-place outputs. */
typedef struct arg_bufs {
    uint32_t *of_arg; /* per argument: its tensor's buffer (NO_BUF if none) */
    uint32_t first;   /* the first tensor argument's */
} arg_bufs;

/* Fills argument i of the kernel context from its bound value. */
static airc_status bind_arg(eager_run *r, airc_node *n, launch_item *it, uint32_t i,
                            arg_bufs *ab)
{
    airc_kernel_ctx *k = &it->k;
    const airc_value *v = k->args[i];
    const airc_type *ty = &n->op->schema->args[i].type;
    if (!v)
        return AIRC_OK;
    if (v->kind == AIRC_VALUE_NODE) {
        airc_tview *view = NULL;
        uint32_t b = NO_BUF;
        AIRC_TRY(tensor_arg(r, n, v, &view, &b));
        k->in[i] = view;
        ab->of_arg[i] = b;
        if (ab->first == NO_BUF)
            ab->first = b;
        return AIRC_OK;
    }
    if (ty->kind != AIRC_TYPE_TENSOR || !ty->is_list ||
        (v->kind != AIRC_VALUE_LIST && v->kind != AIRC_VALUE_TUPLE))
        return AIRC_OK;
    uint32_t len = v->len;
    airc_tview *arr = airc_arena_calloc(&r->arena, len ? len : 1, sizeof *arr);
    const airc_tview **src = airc_arena_calloc(&r->arena, len ? len : 1, sizeof *src);
    if (!it->list_src)
        it->list_src = airc_arena_calloc(&r->arena, k->nargs, sizeof *it->list_src);
    if (!arr || !src || !it->list_src)
        return airc_fail_oom("eager tensor list");
    for (uint32_t j = 0; j < len; j++) {
        const airc_value *item = v->u.items[j];
        if (item->kind == AIRC_VALUE_NONE)
            continue;
        if (item->kind != AIRC_VALUE_NODE)
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "node '%s': item %u of argument '%s' is not a tensor", n->name, j,
                             n->op->schema->args[i].name);
        airc_tview *view = NULL;
        uint32_t b = NO_BUF;
        AIRC_TRY(tensor_arg(r, n, item, &view, &b));
        src[j] = view;
        if (ab->first == NO_BUF)
            ab->first = b;
    }
    k->in_list[i] = arr;
    k->in_list_len[i] = len;
    it->list_src[i] = src;
    return AIRC_OK;
}

/* Output j: allocated from meta, a view of the first tensor argument's
 * buffer, or the written argument itself (in-place). */
static airc_status bind_output(eager_run *r, airc_node *n, launch_item *it, eval *v, uint32_t j,
                               const arg_bufs *ab)
{
    const airc_schema *s = n->op->schema;
    const airc_arg *ret = s->nrets ? &s->rets[j < s->nrets ? j : s->nrets - 1] : NULL;
    airc_tview_from_meta(&v->t[j], &n->out[j]);
    /* an in-place view (squeeze_...) writes only self's shape: a view */
    if (ret && ret->type.alias && ret->type.is_write && !(n->op->flags & AIRC_OP_VIEW)) {
        int32_t a = written_arg(s, ret);
        if (a < 0 || !it->k.in[a])
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "node '%s': %s writes an argument that is not a tensor", n->name,
                             n->op->qualname);
        if (!it->alias_src) {
            it->alias_src = airc_arena_calloc(&r->arena, v->nt, sizeof *it->alias_src);
            if (!it->alias_src)
                return airc_fail_oom("eager in-place outputs");
        }
        it->alias_src[j] = it->k.in[a];
        v->buf[j] = ab->of_arg[a];
    } else if (n->op->flags & AIRC_OP_VIEW) {
        v->buf[j] = ab->first;
    } else {
        if (r->host && v->keep)
            AIRC_TRY(new_result_buf(r, &v->t[j], n, &v->buf[j]));
        else
            AIRC_TRY(new_buf(r, airc_tview_span_bytes(&v->t[j]), n, &v->buf[j]));
        v->t[j].data = r->bufs[v->buf[j]].ptr;
    }
    if (v->buf[j] != NO_BUF)
        r->bufs[v->buf[j]].refs++;
    return AIRC_OK;
}

/* debug.data_dump: a node's tensor arguments, once the work before it is
 * done (an in-place kernel will overwrite one). */
static airc_status dump_args(eager_run *r, const airc_node *n, const launch_item *it)
{
    AIRC_TRY(run_sync(r));
    const airc_kernel_ctx *k = &it->k;
    char what[64];
    for (uint32_t i = 0; i < k->nargs; i++) {
        if (k->in[i]) {
            snprintf(what, sizeof what, "INPUT.%u", i);
            AIRC_TRY(airc_data_dump_view(r->dump, r->ctx, r->vt, r->rctx, r->host, n->name,
                                         n->op->qualname, what, k->in[i]));
        }
        for (uint32_t j = 0; it->list_src && it->list_src[i] && j < k->in_list_len[i]; j++) {
            if (!it->list_src[i][j])
                continue;
            snprintf(what, sizeof what, "INPUT.%u.%u", i, j);
            AIRC_TRY(airc_data_dump_view(r->dump, r->ctx, r->vt, r->rctx, r->host, n->name,
                                         n->op->qualname, what, it->list_src[i][j]));
        }
    }
    return AIRC_OK;
}

/* debug.data_dump: a node's results, once its kernel ran. */
static airc_status dump_results(eager_run *r, const airc_node *n, const eval *v)
{
    AIRC_TRY(run_sync(r));
    char what[32];
    for (uint32_t j = 0; j < v->nt; j++) {
        snprintf(what, sizeof what, "OUTPUT.%u", j);
        AIRC_TRY(airc_data_dump_view(r->dump, r->ctx, r->vt, r->rctx, r->host, n->name,
                                     n->op->qualname, what, &v->t[j]));
    }
    return AIRC_OK;
}

static airc_status exec_call(eager_run *r, airc_node *n)
{
    const airc_op *op = n->op;
    eval *v = &r->vals[n->id];
    if (!strcmp(op->qualname, AIRC_OP_GETITEM))
        return exec_getitem(r, n);
    uint32_t nout = node_nout(n);
    if (is_air_noop(op) || !strcmp(op->qualname, "air.record.default")) {
        /* one stream in graph order already orders everything; a record's
         * result is a placeholder nothing reads */
        AIRC_TRY(alloc_views(r, v, nout));
        for (uint32_t j = 0; j < nout; j++) {
            airc_tview_from_meta(&v->t[j], &n->out[j]);
            AIRC_TRY(new_buf(r, airc_tview_span_bytes(&v->t[j]), n, &v->buf[j]));
            v->t[j].data = r->bufs[v->buf[j]].ptr;
            r->bufs[v->buf[j]].refs = 1;
        }
        v->bound = true;
        return AIRC_OK;
    }

    launch_item *it = airc_arena_calloc(&r->arena, 1, sizeof *it);
    if (!it)
        return airc_fail_oom("eager launch");
    airc_kernel_ref ref;
    if (!airc_find_kernel(op, r->device, &ref))
        return airc_fail(AIRC_E_UNSUPPORTED, "no %s kernel for %s (node '%s')", r->device,
                         op->qualname, n->name);
    it->run = r;
    it->fn = ref.fn;
    it->user_data = ref.user_data;
    airc_kernel_ctx *k = &it->k;
    uint32_t nargs = op->schema->nargs;
    k->node = n;
    k->op = op;
    k->nargs = nargs;
    k->args = airc_arena_calloc(&r->arena, nargs ? nargs : 1, sizeof *k->args);
    k->in = airc_arena_calloc(&r->arena, nargs ? nargs : 1, sizeof *k->in);
    k->in_list = airc_arena_calloc(&r->arena, nargs ? nargs : 1, sizeof *k->in_list);
    k->in_list_len = airc_arena_calloc(&r->arena, nargs ? nargs : 1, sizeof *k->in_list_len);
    arg_bufs ab = {airc_arena_calloc(&r->arena, nargs ? nargs : 1, sizeof *ab.of_arg), NO_BUF};
    if (!k->args || !k->in || !k->in_list || !k->in_list_len || !ab.of_arg)
        return airc_fail_oom("eager kernel arguments");
    airc_schema_bind(n, k->args);
    for (uint32_t i = 0; i < nargs; i++) {
        ab.of_arg[i] = NO_BUF;
        AIRC_TRY(bind_arg(r, n, it, i, &ab));
        if (op->schema->args[i].type.is_write && ab.of_arg[i] != NO_BUF)
            r->bufs[ab.of_arg[i]].written = true;
    }

    AIRC_TRY(alloc_views(r, v, nout));
    v->bound = true; /* from here on, release() drops what is bound */
    for (uint32_t j = 0; j < nout; j++)
        AIRC_TRY(bind_output(r, n, it, v, j, &ab));
    k->nout = nout;
    k->out = v->t;
    k->num_threads = r->threads;
    k->ctx = r->ctx;

    bool dumping = r->dump && airc_data_dump_wants(r->dump, n->name);
    if (dumping && r->dump->inputs)
        AIRC_TRY(dump_args(r, n, it));
    airc_set_error(AIRC_OK, "");
    airc_status st = r->vt->launch(r->rctx, r->stream, run_item, it);
    if (st != AIRC_OK)
        return runtime_fail(st, "launch"), airc_fail_prefix("node '%s'", n->name);
    r->launches++;
    return dumping && r->dump->outputs ? dump_results(r, n, v) : AIRC_OK;
}

/* After node n was launched: its inputs that have no user left die, and so
 * does n itself when nothing uses it. */
static airc_status update_liveness(eager_run *r, airc_node *n)
{
    for (size_t i = 0; i < n->ninputs; i++) {
        eval *e = &r->vals[n->inputs[i]->id];
        if (e->remaining && --e->remaining == 0 && !e->keep)
            AIRC_TRY(release(r, e));
    }
    eval *self = &r->vals[n->id];
    if (n->nusers == 0 && !self->keep)
        AIRC_TRY(release(r, self));
    return AIRC_OK;
}

/* ---- outputs --------------------------------------------------------------- */

typedef airc_status (*result_fn)(void *user, const airc_node *n, uint32_t index);

/* Calls fn for each tensor of an output value, flattened. */
static airc_status visit_results(const airc_value *v, uint32_t depth, result_fn fn, void *user)
{
    if (!v)
        return airc_fail(AIRC_E_UNSUPPORTED, "the graph's output has no value");
    if (v->kind == AIRC_VALUE_NODE) {
        const airc_node *n = v->u.node;
        uint32_t count = n->meta_kind == AIRC_META_TUPLE ? n->nout : 1;
        for (uint32_t j = 0; j < count; j++)
            AIRC_TRY(fn(user, n, n->meta_kind == AIRC_META_TUPLE ? j : 0));
        return AIRC_OK;
    }
    if (v->kind == AIRC_VALUE_LIST || v->kind == AIRC_VALUE_TUPLE) {
        if (depth >= AIRC_MAX_VALUE_DEPTH)
            return airc_fail(AIRC_E_UNSUPPORTED, "the graph's output nests too deeply");
        for (uint32_t i = 0; i < v->len; i++)
            AIRC_TRY(visit_results(v->u.items[i], depth + 1, fn, user));
        return AIRC_OK;
    }
    static const char *const kinds[] = {"None", "an int",   "a float",  "a bool",
                                        "a string", "a node", "a dtype", "a device",
                                        "a memory format", "a layout"};
    return airc_fail(AIRC_E_UNSUPPORTED,
                     "the graph returns %s, not a tensor: only tensors can be results",
                     v->kind >= 0 && v->kind < 10 ? kinds[v->kind] : "a value");
}

static const airc_value *output_value(const airc_graph *g)
{
    airc_node *out = airc_graph_output_node(g);
    return out && out->nargs ? out->args[0] : NULL;
}

static airc_status count_one(void *user, const airc_node *n, uint32_t index)
{
    (void)n;
    (void)index;
    (*(size_t *)user)++;
    return AIRC_OK;
}

airc_status airc_graph_num_results(const airc_graph *g, size_t *out)
{
    AIRC_TRY(airc_check_graph(g, "airc_graph_num_results"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_graph_num_results: out is NULL");
    size_t count = 0;
    if (airc_graph_output_node(g))
        AIRC_TRY(visit_results(output_value(g), 0, count_one, &count));
    *out = count;
    return AIRC_OK;
}

static airc_status mark_keep(void *user, const airc_node *n, uint32_t index)
{
    (void)index;
    ((eager_run *)user)->vals[n->id].keep = true;
    return AIRC_OK;
}

typedef struct collect {
    eager_run *run;
    airc_tensor **out;
    size_t n;
} collect;

void airc_exec_gather(void *dst, const void *base, const airc_tview *t)
{
    airc_tview src = *t, out = *t;
    src.data = (void *)base;
    out.data = dst;
    int64_t stride = 1;
    for (int32_t i = t->ndim - 1; i >= 0; i--) {
        out.strides[i] = stride;
        stride *= t->shape[i] > 1 ? t->shape[i] : 1;
    }
    airc_cpu_copy(&out, &src);
}

static airc_status collect_one(void *user, const airc_node *n, uint32_t index)
{
    collect *c = user;
    eager_run *r = c->run;
    const eval *v = &r->vals[n->id];
    if (!v->bound || index >= v->nt)
        return airc_fail(AIRC_E_INTERNAL, "output '%s' was not computed", n->name);
    const airc_tview *t = &v->t[index];
    ebuf *b = v->buf[index] == NO_BUF ? NULL : &r->bufs[v->buf[index]];
    /* the node that made it (a view of it may share its first byte) */
    if (b && b->result && b->result->data == t->data && b->result->dtype == t->dtype &&
        b->result->ndim == t->ndim &&
        !memcmp(b->result->shape, t->shape, sizeof *t->shape * (size_t)t->ndim) &&
        airc_cpu_is_contiguous(t)) {
        c->out[c->n++] = b->result;
        b->result = NULL;
        b->ptr = NULL;
        b->owned = false;
        return AIRC_OK;
    }
    airc_tensor *host;
    AIRC_TRY(airc_tensor_new(r->ctx, t->dtype, t->ndim, t->shape, false, &host));
    airc_status st = AIRC_OK;
    size_t span = airc_tview_span_bytes(t);
    if (host->numel && r->host) {
        airc_exec_gather(host->data, t->data, t);
    } else if (host->numel) {
        void *tmp = airc_malloc(r->ctx, span);
        if (!tmp) {
            st = airc_fail_oom("a result's device copy");
        } else {
            airc_set_error(AIRC_OK, "");
            st = r->vt->copy(r->rctx, tmp, t->data, span, AIRC_COPY_DEVICE_TO_HOST, NULL);
            if (st == AIRC_OK)
                airc_exec_gather(host->data, tmp, t);
            else
                runtime_fail(st, "copy");
            airc_free(r->ctx, tmp);
        }
    }
    if (st != AIRC_OK) {
        airc_tensor_destroy(host);
        return st;
    }
    c->out[c->n++] = host;
    return AIRC_OK;
}

/* ---- the run ----------------------------------------------------------------- */

/* Clone, inline, input meta, meta propagation. */
static airc_status prepare(const airc_graph *g, airc_tensor *const *inputs, size_t ninputs,
                           airc_graph **out)
{
    airc_graph *c;
    AIRC_TRY(airc_graph_clone(g, &c));
    airc_status st = AIRC_OK;
    if (c->nsubs)
        st = airc_graph_inline_submodules(c, NULL);
    size_t index = 0;
    for (airc_node *n = c->root.next; st == AIRC_OK && n != &c->root; n = n->next) {
        if (n->kind != AIRC_NODE_PLACEHOLDER)
            continue;
        if (index >= ninputs) {
            index++;
            continue;
        }
        const airc_tensor *t = inputs[index];
        if ((st = airc_check_tensor(t, "airc_run_eager")) != AIRC_OK)
            break;
        st = airc_node_set_meta(n, t->dtype, t->ndim, t->shape, NULL);
        index++;
    }
    if (st == AIRC_OK && index != ninputs)
        st = airc_fail(AIRC_E_INVALID_ARGUMENT,
                       "airc_run_eager: the graph has %zu placeholder%s but %zu input%s given",
                       index, index == 1 ? "" : "s", ninputs, ninputs == 1 ? " was" : "s were");
    if (st == AIRC_OK)
        st = airc_graph_propagate_meta(c);
    if (st != AIRC_OK) {
        airc_graph_destroy(c);
        return st;
    }
    *out = c;
    return AIRC_OK;
}

static airc_status execute(eager_run *r, airc_tensor *const *inputs, collect *res)
{
    airc_graph *g = r->g;
    r->vals = airc_calloc(r->ctx, g->next_id ? g->next_id : 1, sizeof *r->vals);
    if (!r->vals)
        return airc_fail_oom("eager node table");
    AIRC_FOR_EACH_NODE(g, n)
    {
        r->vals[n->id].remaining = (uint32_t)n->nusers;
    }
    if (airc_graph_output_node(g))
        AIRC_TRY(visit_results(output_value(g), 0, mark_keep, r));

    airc_set_error(AIRC_OK, "");
    AIRC_TRY(runtime_fail(r->vt->stream_create(r->rctx, &r->stream), "stream_create"));
    r->has_stream = true;
    r->threads = r->vt->stream_threads ? r->vt->stream_threads(r->rctx, r->stream) : 1;
    if (r->threads < 1)
        r->threads = 1;

    size_t input = 0;
    AIRC_FOR_EACH_NODE(g, n)
    {
        switch (n->kind) {
        case AIRC_NODE_PLACEHOLDER:
            AIRC_TRY(bind_placeholder(r, n, inputs[input++]));
            break;
        case AIRC_NODE_GET_ATTR:
            AIRC_TRY(bind_constant(r, n));
            break;
        case AIRC_NODE_CALL_FUNCTION:
            AIRC_TRY(exec_call(r, n));
            break;
        case AIRC_NODE_CALL_MODULE:
            return airc_fail(AIRC_E_INTERNAL, "call_module '%s' left after inlining", n->name);
        default:
            continue; /* output */
        }
        AIRC_TRY(update_liveness(r, n));
    }
    AIRC_TRY(run_sync(r));
    free_pending(r);
    if (r->keep_inputs)
        AIRC_TRY(write_back(r));
    if (airc_graph_output_node(g))
        AIRC_TRY(visit_results(output_value(g), 0, collect_one, res));
    return AIRC_OK;
}

static void finish(eager_run *r)
{
    if (r->has_stream) {
        r->vt->synchronize(r->rctx, r->stream); /* a failed run may still have work queued */
        r->vt->stream_destroy(r->rctx, r->stream);
    }
    free_pending(r);
    for (size_t i = 0; i < r->nbufs; i++)
        if (r->bufs[i].result)
            airc_tensor_destroy(r->bufs[i].result);
        else if (r->bufs[i].owned && r->bufs[i].ptr)
            r->vt->free(r->rctx, r->bufs[i].ptr);
    airc_free(r->ctx, r->bufs);
    airc_free(r->ctx, r->pending);
    airc_free(r->ctx, r->vals);
    airc_arena_free(&r->arena);
}

airc_status airc_run_eager(const airc_graph *g, airc_runtime *rt, airc_tensor *const *inputs,
                           size_t ninputs, airc_tensor **outputs, size_t outputs_cap,
                           size_t *noutputs, airc_run_stats *stats)
{
    return airc_run_eager_dumping(g, rt, inputs, ninputs, outputs, outputs_cap, noutputs, stats,
                                  NULL);
}

airc_status airc_run_eager_dumping(const airc_graph *g, airc_runtime *rt,
                                   airc_tensor *const *inputs, size_t ninputs,
                                   airc_tensor **outputs, size_t outputs_cap, size_t *noutputs,
                                   airc_run_stats *stats, const airc_data_dump *dump)
{
    static const char fn[] = "airc_run_eager";
    AIRC_TRY(airc_check_graph(g, fn));
    if ((ninputs && !inputs) || (outputs_cap && !outputs) || !noutputs)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: NULL inputs, outputs or noutputs", fn);
    if (stats && stats->struct_size < sizeof(size_t))
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: stats->struct_size is not set", fn);
    airc_context *ctx = g->ctx;

    airc_graph *c = NULL;
    AIRC_TRY(prepare(g, inputs, ninputs, &c));
    size_t nres = 0;
    airc_status st = airc_graph_num_results(c, &nres);
    if (st == AIRC_OK && nres > outputs_cap)
        st = airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: the graph has %zu results; outputs_cap is %zu",
                       fn, nres, outputs_cap);
    airc_runtime *own = NULL;
    if (st == AIRC_OK && !rt && (st = airc_cpu_runtime_create(ctx, NULL, &own)) == AIRC_OK)
        rt = own;
    if (st != AIRC_OK) {
        airc_graph_destroy(c);
        return st;
    }

    eager_run r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.g = c;
    r.vt = airc_runtime_vtable_of(rt);
    r.rctx = airc_runtime_ctx(rt);
    r.device = airc_runtime_device_type(rt);
    r.host = !strcmp(r.device, "cpu");
    r.keep_inputs = !r.host && has_inplace_ops(c);
    r.dump = dump;
    atomic_init(&r.failed, 0);
    airc_arena_init(&r.arena, ctx);
    airc_tensor **res = airc_calloc(ctx, nres ? nres : 1, sizeof *res);
    collect col = {&r, res, 0};
    st = res ? execute(&r, inputs, &col) : airc_fail_oom("eager results");

    /* finish() talks to the runtime, which may overwrite the message */
    char msg[1024];
    if (st != AIRC_OK)
        snprintf(msg, sizeof msg, "%s", airc_last_error());
    finish(&r);
    airc_runtime_destroy(own);
    airc_graph_destroy(c);
    if (st != AIRC_OK) {
        for (size_t i = 0; i < col.n; i++)
            airc_tensor_destroy(res[i]);
        airc_free(ctx, res);
        return airc_fail(st, "%s", msg);
    }
    memcpy(outputs, res, sizeof *res * col.n);
    *noutputs = col.n;
    airc_free(ctx, res);
    if (stats) {
        if (stats->struct_size >= offsetof(airc_run_stats, launches) + sizeof stats->launches)
            stats->launches = r.launches;
        if (stats->struct_size >= offsetof(airc_run_stats, peak_bytes) + sizeof stats->peak_bytes)
            stats->peak_bytes = r.peak_bytes;
    }
    return AIRC_OK;
}
