/* reinplace: out-of-place ops run in place; reinplace.h states the rules.
 * One walk in graph order collects the candidates of both rules on the
 * unchanged graph (with the stream plan of that graph), then the rewrites
 * are applied, undone again if one of them fails.
 *
 * The two rules never claim one node: rule 1 wants a self that is not a
 * placeholder, rule 2 a placeholder. Nor do they step on each other: a rule-2
 * result r has the copy_ as its last non-output user, so no rule-1 candidate
 * can write into r (that needs every other user of r before it). Chains of
 * rule-1 rewrites are safe transitively: when b = op_(a) is applied, every
 * user of a comes before b, so writing into b later touches nothing that is
 * still read as a. */
#include "backends/replay/reinplace.h"

#include "backends/replay/stream_plan.h"
#include "exec/exec.h"
#include "ir/ir.h"
#include "ops/ops.h"

#include <string.h>

#define RP_COPY_ "aten.copy_.default"

typedef struct rp_cand {
    airc_node *node;       /* retargeted */
    const airc_op *old_op; /* to undo */
    const airc_op *twin;
    airc_node *erase; /* rule 2: the copy_ written back; NULL for rule 1 */
} rp_cand;

typedef struct rp_state {
    airc_graph *g;
    airc_stream_plan plan;
    rp_cand *cands;
    size_t ncands, cap;
} rp_state;

static bool is_air(const airc_op *op)
{
    return !strncmp(op->qualname, "air.", 4);
}

static bool is_view_node(const airc_node *n)
{
    return n->kind == AIRC_NODE_CALL_FUNCTION && n->op && (n->op->flags & AIRC_OP_VIEW);
}

/* An op whose single-or-tuple result is freshly allocated: no view, no side
 * effect, no written argument, no return sharing an argument's alias set. */
static bool allocates_result(const airc_op *op)
{
    if (!op || is_air(op) || (op->flags & (AIRC_OP_VIEW | AIRC_OP_SIDE_EFFECT)))
        return false;
    const airc_schema *s = op->schema;
    if (!s || s->is_mutable || s->varret)
        return false;
    for (uint32_t i = 0; i < s->nrets; i++)
        if (s->rets[i].type.alias)
            return false;
    return true;
}

static bool is_getitem(const airc_node *n)
{
    return n->kind == AIRC_NODE_CALL_FUNCTION && n->op && !strcmp(n->op->qualname, AIRC_OP_GETITEM);
}

static bool single_tensor(const airc_node *n)
{
    return n->meta_kind == AIRC_META_TENSOR && n->nout == 1;
}

static bool same_meta(const airc_node *a, const airc_node *b)
{
    if (!single_tensor(a) || !single_tensor(b))
        return false;
    const airc_tmeta *x = &a->out[0], *y = &b->out[0];
    if (x->dtype != y->dtype || x->ndim != y->ndim)
        return false;
    for (int32_t d = 0; d < x->ndim; d++)
        if (x->shape[d] != y->shape[d] || x->strides[d] != y->strides[d])
            return false;
    return true;
}

static uint32_t stream_of(const airc_stream_plan *p, const airc_node *n)
{
    uint32_t pos = airc_stream_plan_position(p, n);
    return pos == AIRC_STREAM_NONE ? AIRC_STREAM_NONE : p->nodes[pos].stream;
}

/* The tensor a node's schema calls `self` when it is passed positionally
 * first or by keyword; NULL otherwise. */
static airc_node *self_arg(const airc_node *n)
{
    const airc_value *v = n->nargs ? n->args[0] : NULL;
    for (uint32_t i = 0; !v && i < n->nkw; i++)
        if (!strcmp(n->kw_names[i], "self"))
            v = n->kw_values[i];
    return v && v->kind == AIRC_VALUE_NODE ? v->u.node : NULL;
}

static bool same_type(const airc_type *a, const airc_type *b)
{
    return a->kind == b->kind && a->optional == b->optional && a->is_list == b->is_list &&
           a->elem_optional == b->elem_optional && a->list_size == b->list_size;
}

/* Whether twin is the in-place form of op: `Tensor(a!) self` first,
 * returns `Tensor(a!)`, the other arguments alike (the node's args bind to
 * it unchanged). */
static bool twin_matches(const airc_op *op, const airc_op *twin)
{
    const airc_schema *s = op->schema, *t = twin->schema;
    if (!s || !t || s->nargs != t->nargs || s->vararg != t->vararg || t->varret || t->nrets != 1 ||
        !s->nargs)
        return false;
    const airc_arg *self = &t->args[0];
    const airc_arg *ret = &t->rets[0];
    if (strcmp(self->name, "self") || self->type.kind != AIRC_TYPE_TENSOR || self->type.is_list ||
        self->type.optional || !self->type.alias || !self->type.is_write)
        return false;
    if (ret->type.kind != AIRC_TYPE_TENSOR || ret->type.is_list || !ret->type.alias ||
        !ret->type.is_write || strcmp(ret->type.alias, self->type.alias))
        return false;
    for (uint32_t i = 0; i < s->nargs; i++) {
        const airc_arg *a = &s->args[i], *b = &t->args[i];
        if (strcmp(a->name, b->name) || a->kwarg_only != b->kwarg_only ||
            !same_type(&a->type, &b->type))
            return false;
        if (i && b->type.is_write)
            return false;
    }
    return true;
}

/* The in-place twin of n's op with a cpu kernel, in *twin (NULL: none).
 * Fails only when the registry runs out of memory loading it. */
static airc_status find_twin(airc_graph *g, const airc_node *n, const airc_op **twin)
{
    *twin = NULL;
    const airc_op *op = n->op;
    const airc_schema *s = op->schema;
    if (!allocates_result(op) || !s || s->nrets != 1 || s->rets[0].type.kind != AIRC_TYPE_TENSOR ||
        s->rets[0].type.is_list)
        return AIRC_OK;
    const char *q = op->qualname;
    const char *dot = strrchr(q, '.');
    if (!dot || dot == q || dot[-1] == '_')
        return AIRC_OK;
    char buf[512];
    size_t head = (size_t)(dot - q), len = strlen(q);
    if (len + 2 > sizeof buf)
        return AIRC_OK;
    memcpy(buf, q, head);
    buf[head] = '_';
    memcpy(buf + head + 1, dot, len - head + 1);
    const airc_op *t = NULL;
    airc_status st = airc_registry_find(g->ctx, buf, len + 1, &t);
    if (st == AIRC_E_OUT_OF_MEMORY)
        return st;
    if (st != AIRC_OK || !twin_matches(op, t))
        return AIRC_OK;
    airc_kernel_ref ref;
    if (!airc_find_kernel(t, "cpu", &ref))
        return AIRC_OK;
    *twin = t;
    return AIRC_OK;
}

/* n itself may be retargeted (before looking at its self). */
static bool retargetable(const airc_node *n)
{
    return n->kind == AIRC_NODE_CALL_FUNCTION && n->op && allocates_result(n->op) &&
           single_tensor(n);
}

static airc_status add_cand(rp_state *st, airc_node *n, const airc_op *twin, airc_node *erase)
{
    void *c = st->cands;
    if (!airc_grow(st->g->ctx, &c, &st->cap, st->ncands + 1, sizeof *st->cands))
        return airc_fail_oom("reinplace: candidates");
    st->cands = c;
    st->cands[st->ncands++] = (rp_cand){n, n->op, twin, erase};
    return AIRC_OK;
}

/* Rule 1 on n (see reinplace.h). */
static airc_status try_inplaceable(rp_state *st, airc_node *n)
{
    if (!retargetable(n))
        return AIRC_OK;
    airc_node *x = self_arg(n);
    if (!x || x->kind != AIRC_NODE_CALL_FUNCTION || !x->op || !single_tensor(x))
        return AIRC_OK;
    const airc_node *producer = x;
    if (is_getitem(x)) {
        const airc_value *base = x->nargs ? x->args[0] : NULL;
        if (!base || base->kind != AIRC_VALUE_NODE)
            return AIRC_OK;
        producer = base->u.node;
        if (producer->kind != AIRC_NODE_CALL_FUNCTION || is_getitem(producer))
            return AIRC_OK;
    }
    if (!allocates_result(producer->op) || !same_meta(x, n))
        return AIRC_OK;
    const airc_stream_plan *p = &st->plan;
    uint32_t s = stream_of(p, n);
    if (s == AIRC_STREAM_NONE || stream_of(p, x) != s || stream_of(p, producer) != s)
        return AIRC_OK;
    for (size_t i = 0; i < x->nusers; i++) {
        const airc_node *u = x->users[i];
        if (u == n)
            continue;
        if (u->kind == AIRC_NODE_OUTPUT || is_view_node(u) || u->order > n->order ||
            stream_of(p, u) != s)
            return AIRC_OK;
    }
    const airc_op *twin;
    AIRC_TRY(find_twin(st->g, n, &twin));
    return twin ? add_cand(st, n, twin, NULL) : AIRC_OK;
}

/* Rule 2 on a node c that may be `copy_(P, r)` (see reinplace.h). */
static airc_status try_input_mutated(rp_state *st, airc_node *c)
{
    if (c->kind != AIRC_NODE_CALL_FUNCTION || !c->op || strcmp(c->op->qualname, RP_COPY_) ||
        c->nusers || c->nargs < 2)
        return AIRC_OK;
    const airc_value *nb = c->nargs > 2 ? c->args[2] : NULL;
    for (uint32_t i = 0; i < c->nkw; i++)
        if (!strcmp(c->kw_names[i], "non_blocking"))
            nb = c->kw_values[i];
    if (nb && (nb->kind != AIRC_VALUE_BOOL || nb->u.b))
        return AIRC_OK;
    const airc_value *pv = c->args[0], *rv = c->args[1];
    if (pv->kind != AIRC_VALUE_NODE || rv->kind != AIRC_VALUE_NODE)
        return AIRC_OK;
    airc_node *P = pv->u.node, *r = rv->u.node;
    if (P->kind != AIRC_NODE_PLACEHOLDER || !retargetable(r) || self_arg(r) != P ||
        !same_meta(P, r))
        return AIRC_OK;
    const airc_stream_plan *p = &st->plan;
    uint32_t s = stream_of(p, r);
    if (s == AIRC_STREAM_NONE || stream_of(p, c) != s)
        return AIRC_OK;
    for (size_t i = 0; i < P->nusers; i++) {
        const airc_node *u = P->users[i];
        if (u == r || u == c || u->kind == AIRC_NODE_OUTPUT)
            continue;
        if (is_view_node(u) || u->order > r->order || stream_of(p, u) != s)
            return AIRC_OK;
    }
    for (size_t i = 0; i < r->nusers; i++) {
        const airc_node *u = r->users[i];
        if (u != c && u->kind != AIRC_NODE_OUTPUT && u->order > c->order)
            return AIRC_OK;
    }
    const airc_op *twin;
    AIRC_TRY(find_twin(st->g, r, &twin));
    return twin ? add_cand(st, r, twin, c) : AIRC_OK;
}

/* Undoes the retargets of cands[0..n). Cannot fail: each old op is loaded
 * in the context already, so finding it again allocates nothing. */
static void undo(rp_state *st, size_t n)
{
    for (size_t i = n; i-- > 0;)
        (void)airc_node_set_target(st->cands[i].node, st->cands[i].old_op->qualname);
}

static airc_status apply(rp_state *st)
{
    airc_context *ctx = st->g->ctx;
    size_t nerase = 0;
    for (size_t i = 0; i < st->ncands; i++)
        nerase += st->cands[i].erase != NULL;
    airc_node **erase = NULL;
    if (nerase) {
        erase = airc_malloc(ctx, nerase * sizeof *erase);
        if (!erase)
            return airc_fail_oom("reinplace: erased copies");
        nerase = 0;
        for (size_t i = 0; i < st->ncands; i++)
            if (st->cands[i].erase)
                erase[nerase++] = st->cands[i].erase;
    }
    for (size_t i = 0; i < st->ncands; i++) {
        airc_status rc = airc_node_set_target(st->cands[i].node, st->cands[i].twin->qualname);
        if (rc != AIRC_OK) {
            undo(st, i);
            airc_free(ctx, erase);
            return rc;
        }
    }
    airc_status rc = nerase ? airc_graph_erase_nodes(st->g, erase, nerase) : AIRC_OK;
    if (rc != AIRC_OK)
        undo(st, st->ncands);
    airc_free(ctx, erase);
    return rc;
}

airc_status airc_replay_reinplace(airc_graph *g, const airc_reinplace_options *o, int32_t *changed)
{
    AIRC_TRY(airc_check_graph(g, "airc_replay_reinplace"));
    airc_reinplace_options all = {true, true};
    if (!o)
        o = &all;
    if (!o->inplaceable_ops && !o->input_mutated_ops) {
        if (changed)
            *changed = 0;
        return AIRC_OK;
    }
    rp_state st;
    memset(&st, 0, sizeof st);
    st.g = g;
    AIRC_TRY(airc_stream_plan_build(g, &st.plan));
    airc_status rc = AIRC_OK;
    AIRC_FOR_EACH_NODE (g, n) {
        if (o->inplaceable_ops)
            rc = try_inplaceable(&st, n);
        if (rc == AIRC_OK && o->input_mutated_ops)
            rc = try_input_mutated(&st, n);
        if (rc != AIRC_OK)
            break;
    }
    if (rc == AIRC_OK && st.ncands > INT32_MAX)
        rc = airc_fail(AIRC_E_INVALID_GRAPH, "reinplace: too many candidates (%zu)", st.ncands);
    if (rc == AIRC_OK)
        rc = apply(&st);
    if (rc == AIRC_OK && changed)
        *changed = (int32_t)st.ncands;
    if (rc == AIRC_OK && st.ncands)
        airc_log(g->ctx, AIRC_LOG_INFO, "reinplace: %zu op(s) now run in place", st.ncands);
    airc_free(g->ctx, st.cands);
    airc_stream_plan_free(&st.plan);
    return rc;
}
