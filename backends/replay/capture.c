/* Capture: a compiled graph and one input signature → a launch table over
 * a planned arena (capture.h). Steps:
 *  1. clone, inline, placeholder meta from the signature, meta propagation;
 *  2. backend passes: dce, reinplace, then the stream plan (event_closure +
 *     record_insertion), and the cats remove_cat_ops removes (cat_fusion.h);
 *  3. buffers: every graph input that is copied and every result that is
 *     neither a view nor an in-place write gets one; views, getitem and
 *     in-place results share their base's; each buffer's consumers give its
 *     stream-aware lifetime; memory_plan gives the offsets;
 *  4. resolution against the arena base: view kernels run now (they only
 *     compute a pointer), the others become launches whose views are final;
 *  5. events mapped onto the launches that remain. */
#include "backends/replay/capture.h"
#include "backends/replay/cat_fusion.h"
#include "backends/replay/reinplace.h"
#include "backends/replay/stream_plan.h"
#include "exec/exec.h"
#include "ir/ir.h"
#include "ops/ops.h"

#include <string.h>
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#define NO_BUF (-1)
#define NONE AIRC_STREAM_NONE
#define OUT_WAIT (UINT32_MAX - 1)

typedef struct cval {
    airc_tview *t; /* nt views; a getitem points into its producer's */
    int32_t *buf;  /* per view: its arena buffer, or NO_BUF */
    uint32_t nt;
} cval;

typedef struct cbuf {
    const airc_node *producer;
    uint64_t size;
    const airc_node **cons;
    size_t ncons, cap;
} cbuf;

typedef struct builder {
    airc_context *ctx;
    const airc_capture_params *p;
    airc_capture *c;
    airc_graph *g;
    airc_stream_plan plan;
    cval *vals; /* by node id */
    cbuf *bufs;
    size_t nbufs, bufs_cap;
    uint64_t *offsets;
    size_t slots_cap;
    airc_launch *launches;
    size_t nlaunches, launches_cap;
    uint32_t *launch_of_pos; /* position -> launch index, NONE when not in the table */
    airc_cat_fusion cats;    /* remove_cat_ops (into NULL when off) */
    int32_t *cat_buf;        /* by removed cat's id: its output buffer + 1 (0: none yet) */
} builder;

/* ---- keys --------------------------------------------------------------- */

uint64_t airc_capture_key(const airc_capture_sig *sigs, size_t n)
{
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    for (size_t i = 0; i < n; i++) {
        const airc_capture_sig *s = &sigs[i];
        int64_t head[2] = {s->dtype, s->ndim};
        XXH3_64bits_update(&st, head, sizeof head);
        XXH3_64bits_update(&st, s->shape, sizeof *s->shape * (size_t)s->ndim);
        XXH3_64bits_update(&st, s->strides, sizeof *s->strides * (size_t)s->ndim);
        XXH3_64bits_update(&st, &s->addr, sizeof s->addr);
        XXH3_64bits_update(&st, &s->bound, sizeof s->bound);
    }
    return XXH3_64bits_digest(&st);
}

static bool sig_equal(const airc_capture_sig *a, const airc_capture_sig *b)
{
    if (a->dtype != b->dtype || a->ndim != b->ndim || a->addr != b->addr || a->bound != b->bound)
        return false;
    size_t n = sizeof *a->shape * (size_t)a->ndim;
    return !memcmp(a->shape, b->shape, n) && !memcmp(a->strides, b->strides, n);
}

bool airc_capture_matches(const airc_capture *c, uint64_t key, const airc_capture_sig *sigs,
                          size_t n)
{
    if (c->key != key || c->ninputs != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!sig_equal(&c->sigs[i], &sigs[i]))
            return false;
    return true;
}

/* ---- step 1-2: the graph ---------------------------------------------------
 */

static airc_status prepare_graph(builder *b)
{
    const airc_capture_params *p = b->p;
    AIRC_TRY(airc_graph_clone(p->graph, &b->g));
    b->c->graph = b->g;
    if (b->g->nsubs)
        AIRC_TRY(airc_graph_inline_submodules(b->g, NULL));
    size_t i = 0;
    AIRC_FOR_EACH_NODE(b->g, n)
    {
        if (n->kind != AIRC_NODE_PLACEHOLDER)
            continue;
        if (i >= p->ninputs)
            return airc_fail(AIRC_E_INTERNAL, "capture: more placeholders than inputs");
        const airc_capture_sig *s = &p->sigs[i++];
        AIRC_TRY(airc_node_set_meta(n, s->dtype, s->ndim, s->shape, s->strides));
    }
    AIRC_TRY(airc_graph_propagate_meta(b->g));
    int32_t changed = 0;
    if (p->dce)
        AIRC_TRY(airc_pass_dce(b->g, &changed));
    airc_reinplace_options ro = {p->reinplace_inplaceable, p->reinplace_input_mutated, p->device};
    if (ro.inplaceable_ops || ro.input_mutated_ops)
        AIRC_TRY(airc_replay_reinplace(b->g, &ro, &changed));
    AIRC_TRY(airc_stream_plan_build(b->g, &b->plan));
    if (p->verify)
        AIRC_TRY(airc_stream_plan_check(b->g, &b->plan));
    if (p->remove_cat) {
        AIRC_TRY(airc_cat_fusion_find(b->g, &b->plan, &b->cats));
        b->cat_buf = airc_calloc(b->ctx, b->g->next_id + 1, sizeof *b->cat_buf);
        if (!b->cat_buf)
            return airc_fail_oom("remove_cat_ops");
    }
    return AIRC_OK;
}

/* ---- step 3: buffers and lifetimes -----------------------------------------
 */

static airc_status new_buffer(builder *b, const airc_node *producer, const airc_tview *t,
                              int32_t *out)
{
    if (b->nbufs >= INT32_MAX ||
        !airc_grow(b->ctx, (void **)&b->bufs, &b->bufs_cap, b->nbufs + 1, sizeof *b->bufs))
        return airc_fail_oom("capture buffers");
    b->bufs[b->nbufs] = (cbuf){producer, airc_tview_span_bytes(t), NULL, 0, 0};
    *out = (int32_t)b->nbufs++;
    return AIRC_OK;
}

static airc_status add_consumer(builder *b, int32_t bi, const airc_node *n)
{
    cbuf *e = &b->bufs[bi];
    if (e->ncons && e->cons[e->ncons - 1] == n)
        return AIRC_OK;
    if (!airc_grow(b->ctx, (void **)&e->cons, &e->cap, e->ncons + 1, sizeof *e->cons))
        return airc_fail_oom("capture consumers");
    e->cons[e->ncons++] = n;
    return AIRC_OK;
}

static uint32_t node_nout(const airc_node *n)
{
    return n->meta_kind == AIRC_META_NONE ? 0 : n->nout;
}

static bool is_air(const airc_node *n)
{
    return n->op && !strncmp(n->op->qualname, "air.", 4);
}

static bool is_getitem(const airc_node *n)
{
    return n->op && !strcmp(n->op->qualname, AIRC_OP_GETITEM);
}

/* The argument a written return aliases; -1 if none. */
static int32_t written_arg(const airc_schema *s, uint32_t j)
{
    if (!s->nrets)
        return -1;
    const airc_arg *ret = &s->rets[j < s->nrets ? j : s->nrets - 1];
    if (!ret->type.alias || !ret->type.is_write)
        return -1;
    for (uint32_t a = 0; a < s->nargs; a++)
        if (s->args[a].type.alias && !strcmp(s->args[a].type.alias, ret->type.alias))
            return (int32_t)a;
    return -1;
}

static airc_status alloc_vals(builder *b, cval *v, uint32_t nt)
{
    v->t = airc_arena_calloc(&b->c->mem, nt ? nt : 1, sizeof *v->t);
    v->buf = airc_arena_calloc(&b->c->mem, nt ? nt : 1, sizeof *v->buf);
    if (!v->t || !v->buf)
        return airc_fail_oom("capture views");
    for (uint32_t j = 0; j < nt; j++)
        v->buf[j] = NO_BUF;
    v->nt = nt;
    return AIRC_OK;
}

/* The single tensor a node value stands for. */
static airc_status tensor_of(builder *b, const airc_node *user, const airc_node *src,
                             airc_tview **t, int32_t *buf)
{
    cval *e = &b->vals[src->id];
    if (e->nt != 1)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "node '%s': input '%s' has %u results, not one tensor (index it with "
                         "operator.getitem)",
                         user->name, src->name, e->nt);
    *t = &e->t[0];
    *buf = e->buf[0];
    return AIRC_OK;
}

static airc_status getitem_val(builder *b, airc_node *n)
{
    const airc_value *self = n->nargs > 0 ? n->args[0] : NULL;
    const airc_value *idxv = n->nargs > 1 ? n->args[1] : NULL;
    int64_t idx;
    if (!self || self->kind != AIRC_VALUE_NODE || !idxv || airc_value_get_int(idxv, &idx))
        return airc_fail(AIRC_E_UNSUPPORTED, "node '%s': getitem needs a node and an int", n->name);
    cval *src = &b->vals[self->u.node->id];
    if (idx < 0)
        idx += src->nt;
    if (idx < 0 || idx >= (int64_t)src->nt)
        return airc_fail(AIRC_E_INVALID_GRAPH, "node '%s': index out of range of %u results",
                         n->name, src->nt);
    cval *v = &b->vals[n->id];
    v->t = &src->t[idx];
    v->buf = &src->buf[idx];
    v->nt = 1;
    return AIRC_OK;
}

/* The output buffer of a removed cat, made by the first of n (the cat or
 * one of its inputs) to need it: the buffer's lifetime starts there. */
static airc_status cat_buffer(builder *b, const airc_node *n, int32_t *out)
{
    const airc_node *cat = b->cats.into[n->id] ? b->cats.into[n->id] : n;
    if (!b->cat_buf[cat->id]) {
        airc_tview t;
        airc_tview_from_meta(&t, &cat->out[0]);
        int32_t bi;
        AIRC_TRY(new_buffer(b, n, &t, &bi));
        b->cat_buf[cat->id] = bi + 1;
    }
    *out = b->cat_buf[cat->id] - 1;
    return AIRC_OK;
}

static bool in_removed_cat(const builder *b, const airc_node *n)
{
    return b->cats.into && (b->cats.into[n->id] || b->cats.removed[n->id]);
}

/* The buffer of each result of a call (views and written results share
 * their argument's). */
static airc_status call_buffers(builder *b, airc_node *n, const airc_value **args)
{
    cval *v = &b->vals[n->id];
    uint32_t nout = node_nout(n);
    AIRC_TRY(alloc_vals(b, v, nout));
    if (is_air(n)) {
        /* air.record's result: dummy data that only air.wait takes (lint) */
        for (uint32_t j = 0; j < nout; j++)
            airc_tview_from_meta(&v->t[j], &n->out[j]);
        return AIRC_OK;
    }
    const airc_schema *s = n->op->schema;
    int32_t first = NO_BUF;
    bool have_first = false;
    for (uint32_t i = 0; i < s->nargs && !have_first; i++)
        if (args[i] && args[i]->kind == AIRC_VALUE_NODE) {
            airc_tview *t = NULL;
            AIRC_TRY(tensor_of(b, n, args[i]->u.node, &t, &first));
            have_first = true;
        }
    for (uint32_t j = 0; j < nout; j++) {
        airc_tview_from_meta(&v->t[j], &n->out[j]);
        int32_t a = written_arg(s, j);
        if (a >= 0 && !(n->op->flags & AIRC_OP_VIEW)) { /* not an in-place view (squeeze_) */
            if (!args[a] || args[a]->kind != AIRC_VALUE_NODE)
                return airc_fail(AIRC_E_UNSUPPORTED,
                                 "node '%s': %s writes an argument that is not a tensor", n->name,
                                 n->op->qualname);
            airc_tview *t = NULL;
            AIRC_TRY(tensor_of(b, n, args[a]->u.node, &t, &v->buf[j]));
        } else if (n->op->flags & AIRC_OP_VIEW) {
            v->buf[j] = first;
        } else if (in_removed_cat(b, n)) {
            AIRC_TRY(cat_buffer(b, n, &v->buf[j]));
        } else {
            AIRC_TRY(new_buffer(b, n, &v->t[j], &v->buf[j]));
        }
    }
    return AIRC_OK;
}

/* Records n as a consumer of the buffers its inputs live in. */
static airc_status consume(builder *b, const airc_node *n)
{
    for (size_t i = 0; i < n->ninputs; i++) {
        const cval *e = &b->vals[n->inputs[i]->id];
        for (uint32_t j = 0; j < e->nt; j++)
            if (e->buf[j] != NO_BUF)
                AIRC_TRY(add_consumer(b, e->buf[j], n));
    }
    return AIRC_OK;
}

static airc_status assign_buffers(builder *b)
{
    const airc_capture_params *p = b->p;
    airc_arena scratch;
    airc_arena_init(&scratch, b->ctx);
    /* buffers of copied inputs read back after the run: live to the end */
    int32_t *read_back = airc_arena_calloc(&scratch, p->ninputs + 1, sizeof *read_back);
    size_t nread_back = 0;
    airc_status st = read_back ? AIRC_OK : airc_fail_oom("capture inputs");
    size_t input = 0;
    for (uint32_t pos = 0; st == AIRC_OK && pos < b->plan.nnodes; pos++) {
        airc_node *n = (airc_node *)b->plan.nodes[pos].node;
        cval *v = &b->vals[n->id];
        switch (n->kind) {
        case AIRC_NODE_PLACEHOLDER:
        case AIRC_NODE_GET_ATTR:
            if ((st = alloc_vals(b, v, 1)) != AIRC_OK)
                break;
            airc_tview_from_meta(&v->t[0], &n->out[0]);
            if (n->kind == AIRC_NODE_PLACEHOLDER && !p->bound[input])
                st = new_buffer(b, n, &v->t[0], &v->buf[0]);
            if (st == AIRC_OK && n->kind == AIRC_NODE_PLACEHOLDER && !p->bound[input] &&
                p->write_back && p->write_back[input])
                read_back[nread_back++] = v->buf[0];
            input += n->kind == AIRC_NODE_PLACEHOLDER;
            break;
        case AIRC_NODE_CALL_FUNCTION:
            if (is_getitem(n)) {
                st = getitem_val(b, n);
                break;
            }
            {
                const airc_value **args =
                    airc_arena_calloc(&scratch, n->op->schema->nargs + 1, sizeof *args);
                if (!args) {
                    st = airc_fail_oom("capture arguments");
                    break;
                }
                airc_schema_bind(n, args);
                st = call_buffers(b, n, args);
            }
            break;
        case AIRC_NODE_OUTPUT:
            for (size_t i = 0; st == AIRC_OK && i < nread_back; i++)
                st = add_consumer(b, read_back[i], n);
            break;
        default:
            st = airc_fail(AIRC_E_INTERNAL, "capture: node '%s' of an unexpected kind", n->name);
        }
        if (st == AIRC_OK && (b->plan.nodes[pos].launched || n->kind == AIRC_NODE_OUTPUT))
            st = consume(b, n);
    }
    airc_arena_free(&scratch);
    return st;
}

static airc_status plan_memory(builder *b)
{
    airc_capture *c = b->c;
    airc_mem_buffer *mb = airc_calloc(b->ctx, b->nbufs ? b->nbufs : 1, sizeof *mb);
    b->offsets = airc_calloc(b->ctx, b->nbufs ? b->nbufs : 1, sizeof *b->offsets);
    if (!mb || !b->offsets) {
        airc_free(b->ctx, mb);
        return airc_fail_oom("capture memory plan");
    }
    airc_status st = AIRC_OK;
    for (size_t i = 0; st == AIRC_OK && i < b->nbufs; i++) {
        mb[i] = airc_mem_buffer_make(b->bufs[i].size, 0, 0);
        st = airc_stream_plan_lifetime(&b->plan, b->bufs[i].producer, b->bufs[i].cons,
                                       b->bufs[i].ncons, &mb[i]);
        /* a copied input is written before the first launch, wherever its
         * placeholder stands (one after a call must not share memory with
         * what that call reads) */
        if (b->bufs[i].producer->kind == AIRC_NODE_PLACEHOLDER)
            mb[i].first_use = 0;
    }
    if (st == AIRC_OK)
        st = airc_memory_plan(b->ctx, mb, b->nbufs, b->offsets, &c->plan);
    if (st == AIRC_OK && b->p->verify)
        st = airc_memory_plan_check(b->ctx, mb, b->nbufs, b->offsets, c->plan.arena_bytes);
    airc_free(b->ctx, mb);
    if (st != AIRC_OK)
        return st;
    c->arena_bytes = c->plan.arena_bytes;
    uint64_t align = c->plan.arena_align > 64 ? c->plan.arena_align : 64;
    return b->p->arena(b->p->arena_user, c->arena_bytes ? c->arena_bytes : 1, align, &c->base);
}

/* ---- step 4: resolution ------------------------------------------------------------------ */

static airc_status add_slot(builder *b, airc_tview *t)
{
    airc_capture *c = b->c;
    if (!airc_grow(b->ctx, (void **)&c->slots, &b->slots_cap, c->nslots + 1, sizeof *c->slots))
        return airc_fail_oom("capture views");
    c->slots[c->nslots++] = t;
    return AIRC_OK;
}

/* Points result j of n at its memory (not for views and written results,
 * which the kernel context fills). */
static airc_status place(builder *b, const airc_node *n, cval *v, uint32_t j)
{
    if (v->buf[j] == NO_BUF)
        return AIRC_OK;
    uint64_t slice = b->cats.into && b->cats.into[n->id] ? b->cats.offset[n->id] : 0;
    v->t[j].data = b->c->base + b->offsets[v->buf[j]] + slice;
    return add_slot(b, &v->t[j]);
}

static airc_status bind_inputs_of_call(builder *b, airc_node *n, airc_kernel_ctx *k)
{
    airc_arena *m = &b->c->mem;
    uint32_t nargs = k->nargs;
    for (uint32_t i = 0; i < nargs; i++) {
        const airc_value *v = k->args[i];
        const airc_type *ty = &n->op->schema->args[i].type;
        if (!v)
            continue;
        if (v->kind == AIRC_VALUE_NODE) {
            airc_tview *t = NULL;
            int32_t buf = NO_BUF;
            AIRC_TRY(tensor_of(b, n, v->u.node, &t, &buf));
            k->in[i] = t;
            continue;
        }
        if (ty->kind != AIRC_TYPE_TENSOR || !ty->is_list ||
            (v->kind != AIRC_VALUE_LIST && v->kind != AIRC_VALUE_TUPLE))
            continue;
        airc_tview *arr = airc_arena_calloc(m, v->len ? v->len : 1, sizeof *arr);
        if (!arr)
            return airc_fail_oom("capture tensor list");
        for (uint32_t j = 0; j < v->len; j++) {
            const airc_value *item = v->u.items[j];
            if (item->kind == AIRC_VALUE_NONE)
                continue;
            if (item->kind != AIRC_VALUE_NODE)
                return airc_fail(AIRC_E_UNSUPPORTED,
                                 "node '%s': item %u of argument '%s' is not a tensor", n->name, j,
                                 n->op->schema->args[i].name);
            airc_tview *t = NULL;
            int32_t buf = NO_BUF;
            AIRC_TRY(tensor_of(b, n, item->u.node, &t, &buf));
            arr[j] = *t;
            if (buf != NO_BUF)
                AIRC_TRY(add_slot(b, &arr[j]));
        }
        k->in_list[i] = arr;
        k->in_list_len[i] = v->len;
    }
    return AIRC_OK;
}

static airc_status kernel_failed(const airc_node *n, const airc_op *op, airc_status st)
{
    if (airc_last_error_code() == st && *airc_last_error())
        return airc_fail_prefix("node '%s'", n->name);
    return airc_fail(st, "node '%s': the kernel of %s failed (%s)", n->name, op->qualname,
                     airc_status_name(st));
}

static airc_status resolve_call(builder *b, airc_node *n, uint32_t pos)
{
    airc_capture *c = b->c;
    airc_arena *m = &c->mem;
    cval *v = &b->vals[n->id];
    const airc_op *op = n->op;
    if (is_air(n)) {
        for (uint32_t j = 0; j < v->nt; j++)
            v->t[j].data = b->p->dummy;
        return AIRC_OK;
    }
    if (b->cats.into && b->cats.removed[n->id])
        return place(b, n, v, 0); /* its inputs wrote its output: no launch */
    airc_kernel_ref ref;
    if (!airc_find_kernel(op, b->p->device, &ref))
        return airc_fail(AIRC_E_UNSUPPORTED, "no %s kernel for %s (node '%s')", b->p->device,
                         op->qualname, n->name);
    uint32_t nargs = op->schema->nargs;
    airc_kernel_ctx k = {0};
    k.node = n;
    k.op = op;
    k.nargs = nargs;
    k.args = airc_arena_calloc(m, nargs + 1, sizeof *k.args);
    k.in = airc_arena_calloc(m, nargs + 1, sizeof *k.in);
    k.in_list = airc_arena_calloc(m, nargs + 1, sizeof *k.in_list);
    k.in_list_len = airc_arena_calloc(m, nargs + 1, sizeof *k.in_list_len);
    if (!k.args || !k.in || !k.in_list || !k.in_list_len)
        return airc_fail_oom("capture kernel arguments");
    airc_schema_bind(n, k.args);
    AIRC_TRY(bind_inputs_of_call(b, n, &k));
    k.nout = v->nt;
    k.out = v->t;
    k.num_threads = 1;
    k.ctx = b->ctx;
    bool view = (op->flags & AIRC_OP_VIEW) != 0;
    for (uint32_t j = 0; j < v->nt; j++) {
        int32_t a = written_arg(op->schema, j);
        if (a >= 0) {
            v->t[j] = *k.in[a];
            if (v->buf[j] != NO_BUF)
                AIRC_TRY(add_slot(b, &v->t[j]));
        } else if (!view) {
            AIRC_TRY(place(b, n, v, j));
        }
    }
    if (view) {
        /* a view's kernel only computes its output's data pointer */
        airc_set_error(AIRC_OK, "");
        airc_status st = ref.fn(&k, ref.user_data);
        if (st != AIRC_OK)
            return kernel_failed(n, op, st);
        for (uint32_t j = 0; j < v->nt; j++)
            if (v->buf[j] != NO_BUF && v->t[j].data)
                AIRC_TRY(add_slot(b, &v->t[j]));
        return AIRC_OK;
    }
    if (!airc_grow(b->ctx, (void **)&b->launches, &b->launches_cap, b->nlaunches + 1,
                   sizeof *b->launches))
        return airc_fail_oom("capture launch table");
    airc_launch *l = &b->launches[b->nlaunches];
    memset(l, 0, sizeof *l);
    l->fn = ref.fn;
    l->user_data = ref.user_data;
    l->k = k;
    l->stream = b->plan.nodes[pos].stream;
    l->owner = c;
    b->launch_of_pos[pos] = (uint32_t)b->nlaunches++;
    return AIRC_OK;
}

static airc_status resolve(builder *b)
{
    airc_capture *c = b->c;
    size_t input = 0;
    for (uint32_t pos = 0; pos < b->plan.nnodes; pos++) {
        airc_node *n = (airc_node *)b->plan.nodes[pos].node;
        cval *v = &b->vals[n->id];
        b->launch_of_pos[pos] = NONE;
        if (n->kind == AIRC_NODE_PLACEHOLDER) {
            airc_capture_input *in = &c->inputs[input];
            if (b->p->bound[input]) {
                v->t[0].data = (void *)b->p->input_data[input];
                in->kind = AIRC_CAPTURE_INPUT_BOUND;
            } else {
                AIRC_TRY(place(b, n, v, 0));
                in->kind = AIRC_CAPTURE_INPUT_COPY;
            }
            in->view = v->t[0];
            in->span = airc_tview_span_bytes(&v->t[0]);
            input++;
        } else if (n->kind == AIRC_NODE_GET_ATTR) {
            void *data;
            if (airc_graph_get_constant(b->g, n->target, NULL, NULL, NULL, NULL, &data) != AIRC_OK)
                return airc_fail(AIRC_E_NOT_FOUND, "get_attr node '%s': no constant '%s' is bound",
                                 n->name, n->target);
            if (b->p->constant)
                AIRC_TRY(b->p->constant(b->p->constant_user, n, data,
                                        airc_tview_span_bytes(&v->t[0]), &data));
            v->t[0].data = data;
        } else if (n->kind == AIRC_NODE_CALL_FUNCTION && !is_getitem(n)) {
            AIRC_TRY(resolve_call(b, n, pos));
        }
    }
    return AIRC_OK;
}

/* Input views: the slots of COPY inputs must follow rebasing too; they are
 * copies of the placeholder's view, so they get their own slot. */
static airc_status input_slots(builder *b)
{
    airc_capture *c = b->c;
    for (size_t i = 0; i < c->ninputs; i++)
        if (c->inputs[i].kind == AIRC_CAPTURE_INPUT_COPY)
            AIRC_TRY(add_slot(b, &c->inputs[i].view));
    return AIRC_OK;
}

/* ---- step 5: events ---------------------------------------------------------------------- */

typedef struct ev_map {
    uint32_t rec;  /* launch index it is recorded after, NONE: at its stream's start */
    uint32_t wait; /* launch index it is waited before, OUT_WAIT, or NONE: dropped */
} ev_map;

static airc_status map_events(builder *b)
{
    airc_capture *c = b->c;
    airc_launch_table *t = &c->table;
    const airc_stream_plan *sp = &b->plan;
    uint32_t nn = sp->nnodes, ns = sp->nstreams;
    uint32_t *prev = airc_calloc(b->ctx, nn + 1, sizeof *prev);
    uint32_t *next = airc_calloc(b->ctx, nn + 1, sizeof *next);
    uint32_t *last = airc_calloc(b->ctx, ns, sizeof *last);
    ev_map *em = airc_calloc(b->ctx, sp->nevents + 1, sizeof *em);
    airc_status st = AIRC_OK;
    if (!prev || !next || !last || !em) {
        st = airc_fail_oom("capture events");
        goto done;
    }
    for (uint32_t s = 0; s < ns; s++)
        last[s] = NONE;
    for (uint32_t p = 0; p < nn; p++) {
        uint32_t s = sp->nodes[p].stream;
        if (b->launch_of_pos[p] != NONE)
            last[s] = b->launch_of_pos[p];
        prev[p] = last[s];
    }
    for (uint32_t s = 0; s < ns; s++)
        last[s] = NONE;
    for (uint32_t p = nn; p-- > 0;) {
        uint32_t s = sp->nodes[p].stream;
        if (b->launch_of_pos[p] != NONE)
            last[s] = b->launch_of_pos[p];
        next[p] = last[s];
    }
    uint32_t kept = 0;
    uint32_t *nwait = airc_calloc(b->ctx, b->nlaunches + 1, sizeof *nwait);
    uint32_t *nrec = airc_calloc(b->ctx, b->nlaunches + 1, sizeof *nrec);
    if (!nwait || !nrec) {
        airc_free(b->ctx, nwait);
        airc_free(b->ctx, nrec);
        st = airc_fail_oom("capture events");
        goto done;
    }
    for (size_t i = 0; i < sp->nevents; i++) {
        const airc_stream_event *e = &sp->events[i];
        em[i].rec = e->record_after == NONE ? NONE : prev[e->record_after];
        if (e->wait_before == sp->output)
            em[i].wait = OUT_WAIT;
        else
            em[i].wait = next[e->wait_before];
        if (em[i].wait == NONE && e->wait_stream == 0)
            em[i].wait = OUT_WAIT;
        if (em[i].wait == NONE)
            continue;
        kept++;
        if (em[i].wait != OUT_WAIT)
            nwait[em[i].wait]++;
        if (em[i].rec != NONE)
            nrec[em[i].rec]++;
    }
    airc_arena *m = &c->mem;
    t->nevents = kept;
    t->waits = airc_arena_calloc(m, kept + 1, sizeof *t->waits);
    t->records = airc_arena_calloc(m, kept + 1, sizeof *t->records);
    t->start_records = airc_arena_calloc(m, kept + 1, sizeof *t->start_records);
    t->start_record_stream = airc_arena_calloc(m, kept + 1, sizeof *t->start_record_stream);
    t->out_waits = airc_arena_calloc(m, kept + 1, sizeof *t->out_waits);
    t->event_kind = airc_arena_calloc(m, kept + 1, sizeof *t->event_kind);
    t->event_record_stream = airc_arena_calloc(m, kept + 1, sizeof *t->event_record_stream);
    t->event_wait_stream = airc_arena_calloc(m, kept + 1, sizeof *t->event_wait_stream);
    if (!t->waits || !t->records || !t->start_records || !t->start_record_stream || !t->out_waits ||
        !t->event_kind || !t->event_record_stream || !t->event_wait_stream) {
        st = airc_fail_oom("capture events");
    } else {
        uint32_t wsum = 0, rsum = 0;
        for (size_t l = 0; l < b->nlaunches; l++) {
            b->launches[l].wait_first = wsum;
            b->launches[l].record_first = rsum;
            wsum += nwait[l];
            rsum += nrec[l];
        }
        uint32_t id = 0;
        for (size_t i = 0; i < sp->nevents; i++) {
            const airc_stream_event *e = &sp->events[i];
            if (em[i].wait == NONE)
                continue;
            t->event_kind[id] = e->kind;
            t->event_record_stream[id] = e->record_stream;
            t->event_wait_stream[id] = e->wait_stream;
            if (em[i].wait == OUT_WAIT) {
                t->out_waits[t->nout_waits++] = id;
            } else {
                airc_launch *l = &b->launches[em[i].wait];
                t->waits[l->wait_first + l->nwait++] = id;
            }
            if (em[i].rec == NONE) {
                t->start_record_stream[t->nstart_records] = e->record_stream;
                t->start_records[t->nstart_records++] = id;
            } else {
                airc_launch *l = &b->launches[em[i].rec];
                t->records[l->record_first + l->nrecord++] = id;
            }
            id++;
        }
    }
    airc_free(b->ctx, nwait);
    airc_free(b->ctx, nrec);
done:
    airc_free(b->ctx, prev);
    airc_free(b->ctx, next);
    airc_free(b->ctx, last);
    airc_free(b->ctx, em);
    return st;
}

/* ---- the table --------------------------------------------------------------------------- */

static airc_status outputs_visit(builder *b, const airc_value *v, uint32_t depth, bool count)
{
    airc_capture *c = b->c;
    if (!v)
        return airc_fail(AIRC_E_UNSUPPORTED, "the graph's output has no value");
    if (v->kind == AIRC_VALUE_NODE) {
        const airc_node *n = v->u.node;
        const cval *e = &b->vals[n->id];
        uint32_t cnt = n->meta_kind == AIRC_META_TUPLE ? n->nout : 1;
        for (uint32_t j = 0; j < cnt; j++) {
            if (!count) {
                if (j >= e->nt)
                    return airc_fail(AIRC_E_INTERNAL, "output '%s' has no result %u", n->name, j);
                c->outputs[c->noutputs] = &e->t[j];
            }
            c->noutputs++;
        }
        return AIRC_OK;
    }
    if (v->kind == AIRC_VALUE_LIST || v->kind == AIRC_VALUE_TUPLE) {
        if (depth >= AIRC_MAX_VALUE_DEPTH)
            return airc_fail(AIRC_E_UNSUPPORTED, "the graph's output nests too deeply");
        for (uint32_t i = 0; i < v->len; i++)
            AIRC_TRY(outputs_visit(b, v->u.items[i], depth + 1, count));
        return AIRC_OK;
    }
    return airc_fail(AIRC_E_UNSUPPORTED, "the graph returns a value that is not a tensor");
}

static airc_status finish_table(builder *b)
{
    airc_capture *c = b->c;
    airc_launch_table *t = &c->table;
    airc_arena *m = &c->mem;
    const airc_stream_plan *sp = &b->plan;
    t->nlaunches = b->nlaunches;
    t->launches = airc_arena_calloc(m, b->nlaunches + 1, sizeof *t->launches);
    if (t->launches && b->nlaunches)
        memcpy(t->launches, b->launches, sizeof *b->launches * b->nlaunches);
    t->nstreams = sp->nstreams;
    t->stream_labels = airc_arena_calloc(m, sp->nstreams, sizeof *t->stream_labels);
    c->stream_launches = airc_arena_calloc(m, sp->nstreams, sizeof *c->stream_launches);
    c->stream_nlaunches = airc_arena_calloc(m, sp->nstreams, sizeof *c->stream_nlaunches);
    c->stream_threads = airc_arena_calloc(m, sp->nstreams, sizeof *c->stream_threads);
    c->ev_seq = airc_arena_calloc(m, t->nevents + 1, sizeof *c->ev_seq);
    c->ev_sleepers = airc_arena_calloc(m, t->nevents + 1, sizeof *c->ev_sleepers);
    if (!t->launches || !t->stream_labels || !c->stream_launches || !c->stream_nlaunches ||
        !c->stream_threads || !c->ev_seq || !c->ev_sleepers)
        return airc_fail_oom("capture launch table");
    for (uint32_t s = 0; s < sp->nstreams; s++) {
        t->stream_labels[s] = airc_arena_strdup(m, sp->labels[s]);
        c->stream_launches[s] = airc_arena_calloc(m, t->nlaunches + 1, sizeof(uint32_t));
        c->stream_threads[s] = 1;
        if (!t->stream_labels[s] || !c->stream_launches[s])
            return airc_fail_oom("capture launch table");
    }
    for (uint32_t l = 0; l < t->nlaunches; l++) {
        uint32_t s = t->launches[l].stream;
        c->stream_launches[s][c->stream_nlaunches[s]++] = l;
    }
    for (uint32_t e = 0; e < t->nevents; e++) {
        atomic_init(&c->ev_seq[e], 0);
        atomic_init(&c->ev_sleepers[e], 0);
    }
    /* launches live in the table now: their in[] point at views, not at
     * each other, so the copy is complete */
    airc_node *out = airc_graph_output_node(b->g);
    if (!out || !out->nargs)
        return airc_fail(AIRC_E_INVALID_GRAPH, "the graph has no output");
    AIRC_TRY(outputs_visit(b, out->args[0], 0, true));
    c->outputs = airc_arena_calloc(m, c->noutputs + 1, sizeof *c->outputs);
    if (!c->outputs)
        return airc_fail_oom("capture outputs");
    c->noutputs = 0;
    return outputs_visit(b, out->args[0], 0, false);
}

static airc_status build(builder *b)
{
    airc_capture *c = b->c;
    const airc_capture_params *p = b->p;
    c->ninputs = p->ninputs;
    c->inputs = airc_arena_calloc(&c->mem, p->ninputs + 1, sizeof *c->inputs);
    c->sigs = airc_arena_memdup(&c->mem, p->sigs, sizeof *p->sigs * (p->ninputs + 1));
    if (!c->inputs || !c->sigs)
        return airc_fail_oom("capture inputs");
    c->key = airc_capture_key(p->sigs, p->ninputs);
    AIRC_TRY(prepare_graph(b));
    b->vals = airc_calloc(b->ctx, b->g->next_id + 1, sizeof *b->vals);
    b->launch_of_pos = airc_calloc(b->ctx, b->plan.nnodes + 1, sizeof *b->launch_of_pos);
    if (!b->vals || !b->launch_of_pos)
        return airc_fail_oom("capture node table");
    AIRC_TRY(assign_buffers(b));
    AIRC_TRY(plan_memory(b));
    AIRC_TRY(resolve(b));
    AIRC_TRY(input_slots(b));
    AIRC_TRY(map_events(b));
    return finish_table(b);
}

airc_status airc_capture_build(airc_context *ctx, const airc_capture_params *p, airc_capture **out)
{
    *out = NULL;
    airc_capture *c = airc_calloc(ctx, 1, sizeof *c);
    if (!c)
        return airc_fail_oom("capture");
    c->ctx = ctx;
    airc_arena_init(&c->mem, ctx);
    atomic_init(&c->failed, 0);
    builder b;
    memset(&b, 0, sizeof b);
    b.ctx = ctx;
    b.p = p;
    b.c = c;
    airc_status st = build(&b);
    for (size_t i = 0; i < b.nbufs; i++)
        airc_free(ctx, b.bufs[i].cons);
    airc_free(ctx, b.bufs);
    airc_free(ctx, b.offsets);
    airc_free(ctx, b.launches);
    airc_free(ctx, b.launch_of_pos);
    airc_free(ctx, b.vals);
    airc_free(ctx, b.cat_buf);
    airc_cat_fusion_free(ctx, &b.cats);
    airc_stream_plan_free(&b.plan);
    if (st != AIRC_OK) {
        airc_capture_free(c);
        return st;
    }
    *out = c;
    return AIRC_OK;
}

void airc_capture_free(airc_capture *c)
{
    if (!c)
        return;
    airc_context *ctx = c->ctx;
    airc_graph_destroy(c->graph);
    airc_free(ctx, c->slots);
    airc_free(ctx, c->trace.start_ns);
    airc_free(ctx, c->trace.end_ns);
    airc_free(ctx, c->trace.record_ns);
    airc_free(ctx, c->trace.wait_ns);
    airc_arena_free(&c->mem);
    airc_free(ctx, c);
}

void airc_capture_rebase(airc_capture *c, uint8_t *base)
{
    if (c->base == base)
        return;
    uintptr_t delta = (uintptr_t)base - (uintptr_t)c->base; /* modular: also when lower */
    for (size_t i = 0; i < c->nslots; i++)
        c->slots[i]->data = (void *)((uintptr_t)c->slots[i]->data + delta);
    c->base = base;
}
