/* reinplace: out-of-place ops run in place; reinplace.h states the rules.
 * One walk in graph order collects the candidates of the three rules on
 * the unchanged graph (with the stream plan of that graph), then the
 * rewrites are applied, undone again if one of them fails (rule 3 rewires
 * uses: with its rewrites the graph is restored from a clone instead).
 *
 * Rule 3 never claims a node of rules 1-2 (twins have no `name_` form, and
 * rule 1's lookup skips them), and its checks are theirs, so the arguments
 * below hold for it too. A form-B rewrite makes later readers of result k
 * read written argument k, which after the in-place op holds result k's
 * value and is neither read as its old value nor written after it.
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

/* Most written arguments of a synthesized twin this pass rewrites. */
#define RP_MAX_WRITTEN 16
/* Most schema arguments it binds (airc_schema_bind needs them all). */
#define RP_MAX_ARGS 64

/* A node of a synthesized functional twin put back in place (rule 3). */
typedef struct rp_synth {
    airc_node *node;
    const airc_op *origin;
    uint32_t npos;                   /* written arguments */
    airc_node *res[RP_MAX_WRITTEN];  /* result k: the node or its getitem; NULL: unread */
    airc_node *copy[RP_MAX_WRITTEN]; /* the copy_ writing result k back to an input, or NULL */
} rp_synth;

typedef struct rp_state {
    airc_graph *g;
    const char *device; /* whose kernels an in-place twin needs */
    airc_stream_plan plan;
    rp_cand *cands;
    size_t ncands, cap;
    rp_synth *synth;
    size_t nsynth, synth_cap;
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

static bool same_tmeta(const airc_tmeta *x, const airc_tmeta *y)
{
    if (x->dtype != y->dtype || x->ndim != y->ndim)
        return false;
    for (int32_t d = 0; d < x->ndim; d++)
        if (x->shape[d] != y->shape[d] || x->strides[d] != y->strides[d])
            return false;
    return true;
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

/* The in-place twin of n's op with a kernel for st's device, in *twin
 * (NULL: none). Fails only when the registry runs out of memory loading it. */
static airc_status find_twin(const rp_state *rp, const airc_node *n, const airc_op **twin)
{
    airc_graph *g = rp->g;
    *twin = NULL;
    const airc_op *op = n->op;
    const airc_schema *s = op->schema;
    if (!allocates_result(op) || airc_op_inplace_origin(op) || !s || s->nrets != 1 ||
        s->rets[0].type.kind != AIRC_TYPE_TENSOR || s->rets[0].type.is_list)
        return AIRC_OK; /* a synthesized twin is rule 3's */
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
    if (!airc_find_kernel(t, rp->device, &ref))
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

/* Whether n may write into x (rule 1's conditions but the meta): x is
 * the single-tensor result of a call that allocates it (or a getitem of
 * one, the only use of the call's tuple that holds that tensor), the
 * output does not read it, no view of it is taken, every other user comes
 * before n, and all of them run on n's stream. */
/* The item getitem u takes from producer p as Python reads its index (a
 * bool is an int, a negative one counts from the end); INT64_MIN when not
 * known. */
static int64_t item_of(const airc_node *u, const airc_node *p)
{
    int64_t j;
    if (u->nargs < 2 || airc_value_get_int(u->args[1], &j) != AIRC_OK)
        return INT64_MIN;
    return j < 0 ? j + (int64_t)p->nout : j;
}

static bool writable_intermediate(const rp_state *st, const airc_node *x, const airc_node *n)
{
    if (!x || x->kind != AIRC_NODE_CALL_FUNCTION || !x->op || !single_tensor(x))
        return false;
    const airc_node *producer = x;
    if (is_getitem(x)) {
        const airc_value *base = x->nargs ? x->args[0] : NULL;
        if (!base || base->kind != AIRC_VALUE_NODE)
            return false;
        producer = base->u.node;
        if (producer->kind != AIRC_NODE_CALL_FUNCTION || is_getitem(producer))
            return false;
        /* x's tensor is also the producer's: returned whole by the output,
         * passed as a list, or taken again by another getitem of x's index */
        for (size_t i = 0; i < producer->nusers; i++) {
            const airc_node *u = producer->users[i];
            if (!is_getitem(u) || (u != x && item_of(u, producer) == item_of(x, producer)))
                return false;
        }
    }
    if (!allocates_result(producer->op))
        return false;
    const airc_stream_plan *p = &st->plan;
    uint32_t s = stream_of(p, n);
    if (s == AIRC_STREAM_NONE || stream_of(p, x) != s || stream_of(p, producer) != s)
        return false;
    for (size_t i = 0; i < x->nusers; i++) {
        const airc_node *u = x->users[i];
        if (u == n)
            continue;
        if (u->kind == AIRC_NODE_OUTPUT || is_view_node(u) || u->order > n->order ||
            stream_of(p, u) != s)
            return false;
    }
    return true;
}

/* Rule 1 on n (see reinplace.h). */
static airc_status try_inplaceable(rp_state *st, airc_node *n)
{
    if (!retargetable(n))
        return AIRC_OK;
    airc_node *x = self_arg(n);
    if (!writable_intermediate(st, x, n) || !same_meta(x, n))
        return AIRC_OK;
    const airc_op *twin;
    AIRC_TRY(find_twin(st, n, &twin));
    return twin ? add_cand(st, n, twin, NULL) : AIRC_OK;
}

/* Whether c is a write-back `copy_(P, r)`: no users, blocking; *P and *r
 * are its two nodes. */
static bool is_write_back(const airc_node *c, airc_node **P, airc_node **r)
{
    if (c->kind != AIRC_NODE_CALL_FUNCTION || !c->op || strcmp(c->op->qualname, RP_COPY_) ||
        c->nusers || c->nargs < 2)
        return false;
    const airc_value *nb = c->nargs > 2 ? c->args[2] : NULL;
    for (uint32_t i = 0; i < c->nkw; i++)
        if (!strcmp(c->kw_names[i], "non_blocking"))
            nb = c->kw_values[i];
    if (nb && (nb->kind != AIRC_VALUE_BOOL || nb->u.b))
        return false;
    const airc_value *pv = c->args[0], *rv = c->args[1];
    if (pv->kind != AIRC_VALUE_NODE || rv->kind != AIRC_VALUE_NODE)
        return false;
    *P = pv->u.node;
    *r = rv->u.node;
    return true;
}

/* Whether n may write into graph input P, whose new value r (n or a
 * getitem of it) the write-back c copies into it (rule 2's conditions but
 * the meta): every user of P but n and c comes before n (the output may
 * read P), no view of P is taken, every user of r but c and the output
 * comes before c, and n, c and P's users run on one stream. */
static bool writable_input(const rp_state *st, const airc_node *P, const airc_node *n,
                           const airc_node *r, const airc_node *c)
{
    const airc_stream_plan *p = &st->plan;
    uint32_t s = stream_of(p, n);
    if (s == AIRC_STREAM_NONE || stream_of(p, c) != s)
        return false;
    for (size_t i = 0; i < P->nusers; i++) {
        const airc_node *u = P->users[i];
        if (u == n || u == c || u->kind == AIRC_NODE_OUTPUT)
            continue;
        if (is_view_node(u) || u->order > n->order || stream_of(p, u) != s)
            return false;
    }
    for (size_t i = 0; i < r->nusers; i++) {
        const airc_node *u = r->users[i];
        if (u != c && u->kind != AIRC_NODE_OUTPUT && u->order > c->order)
            return false;
    }
    return true;
}

/* Rule 2 on a node c that may be `copy_(P, r)` (see reinplace.h). */
static airc_status try_input_mutated(rp_state *st, airc_node *c)
{
    airc_node *P, *r;
    if (!is_write_back(c, &P, &r))
        return AIRC_OK;
    if (P->kind != AIRC_NODE_PLACEHOLDER || !retargetable(r) || self_arg(r) != P ||
        !same_meta(P, r) || !writable_input(st, P, r, r, c))
        return AIRC_OK;
    const airc_op *twin;
    AIRC_TRY(find_twin(st, r, &twin));
    return twin ? add_cand(st, r, twin, c) : AIRC_OK;
}

/* ---- rule 3: synthesized functional twins ---------------------------------- */

/* The result nodes of twin node n: n itself for one written argument,
 * else its getitem users (one per index at most; every user a getitem). */
static bool twin_results(const airc_node *n, rp_synth *c)
{
    if (c->npos == 1) {
        c->res[0] = (airc_node *)n;
        return single_tensor(n);
    }
    if (n->meta_kind != AIRC_META_TUPLE || n->nout != c->npos)
        return false;
    for (size_t i = 0; i < n->nusers; i++) {
        airc_node *u = n->users[i];
        int64_t k;
        if (!is_getitem(u) || u->nargs != 2 || u->nkw || u->args[0]->kind != AIRC_VALUE_NODE ||
            u->args[0]->u.node != n || airc_value_get_int(u->args[1], &k) != AIRC_OK || k < 0 ||
            k >= c->npos || c->res[k] || !single_tensor(u))
            return false;
        c->res[k] = u;
    }
    return true;
}

/* The write-back copy_(P, r) among r's users; NULL when none. */
static airc_node *write_back_of(const airc_node *P, const airc_node *r)
{
    for (size_t i = 0; r && i < r->nusers; i++) {
        airc_node *c = r->users[i], *cp, *cr;
        if (is_write_back(c, &cp, &cr) && cp == P && cr == r)
            return c;
    }
    return NULL;
}

/* Rule 3 on n (see reinplace.h): a node of a synthesized twin whose every
 * written argument may be written, by rule 1's conditions (an
 * intermediate; when rule 1 is on) or rule 2's (a graph input written
 * back; when rule 2 is on), goes back to the in-place op. */
static airc_status try_synth(rp_state *st, const airc_reinplace_options *o, airc_node *n)
{
    const airc_op *origin =
        n->kind == AIRC_NODE_CALL_FUNCTION && n->op ? airc_op_inplace_origin(n->op) : NULL;
    airc_kernel_ref ref;
    if (!origin || !airc_find_kernel(origin, st->device, &ref))
        return AIRC_OK;
    const airc_schema *os = origin->schema;
    if (os->nargs > RP_MAX_ARGS || n->op->schema->nargs != os->nargs)
        return AIRC_OK;
    rp_synth c;
    memset(&c, 0, sizeof c);
    c.node = n;
    c.origin = origin;
    uint32_t pos[RP_MAX_WRITTEN];
    for (uint32_t i = 0; i < os->nargs; i++) {
        if (!os->args[i].type.is_write)
            continue;
        if (c.npos == RP_MAX_WRITTEN)
            return AIRC_OK;
        pos[c.npos++] = i;
    }
    /* form A keeps the node's result (now an alias of what it writes):
     * only when the in-place op returns the written arguments in order */
    for (uint32_t r = 0; r < os->nrets; r++)
        if (os->nrets != c.npos || !os->rets[r].type.alias ||
            strcmp(os->rets[r].type.alias, os->args[pos[r]].type.alias))
            return AIRC_OK;
    if (!c.npos || !twin_results(n, &c))
        return AIRC_OK;
    const airc_value *bound[RP_MAX_ARGS];
    airc_schema_bind(n, bound);
    for (uint32_t k = 0; k < c.npos; k++) {
        const airc_value *v = bound[pos[k]];
        if (!v || v->kind != AIRC_VALUE_NODE)
            return AIRC_OK;
        airc_node *x = v->u.node;
        for (uint32_t i = 0; i < os->nargs; i++) /* written once, read nowhere else */
            if (i != pos[k] && bound[i] && airc_value_mentions(bound[i], x))
                return AIRC_OK;
        const airc_tmeta *want = c.npos == 1 ? &n->out[0] : &n->out[k];
        if (!single_tensor(x) || !same_tmeta(&x->out[0], want))
            return AIRC_OK;
        if (x->kind == AIRC_NODE_PLACEHOLDER) {
            c.copy[k] = write_back_of(x, c.res[k]);
            if (!o->input_mutated_ops || !c.copy[k] ||
                !writable_input(st, x, n, c.res[k], c.copy[k]))
                return AIRC_OK;
        } else if (!o->inplaceable_ops || !writable_intermediate(st, x, n)) {
            return AIRC_OK;
        }
    }
    if (!airc_grow(st->g->ctx, (void **)&st->synth, &st->synth_cap, st->nsynth + 1,
                   sizeof *st->synth))
        return airc_fail_oom("reinplace: candidates");
    st->synth[st->nsynth++] = c;
    return AIRC_OK;
}

/* Applies rule 3's rewrites in graph order: retarget to the in-place op;
 * for form B (it returns nothing) every use of result k reads written
 * argument k instead (bound now: an earlier rewrite may have replaced it)
 * and the node's result becomes (); the write-backs and getitems go. */
static airc_status apply_synth(rp_state *st)
{
    airc_context *ctx = st->g->ctx;
    size_t nerase = 0, cap = 0;
    airc_node **erase = NULL;
    airc_status rc = AIRC_OK;
    for (size_t i = 0; rc == AIRC_OK && i < st->nsynth; i++) {
        rp_synth *c = &st->synth[i];
        airc_node *n = c->node;
        bool form_b = c->origin->schema->nrets == 0;
        const airc_value *bound[RP_MAX_ARGS];
        airc_schema_bind(n, bound);
        uint32_t k = 0;
        for (uint32_t a = 0; rc == AIRC_OK && a < c->origin->schema->nargs; a++) {
            if (!c->origin->schema->args[a].type.is_write)
                continue;
            airc_node *x = bound[a]->u.node, *r = c->res[k], *w = c->copy[k];
            k++;
            if (!airc_grow(ctx, (void **)&erase, &cap, nerase + 2, sizeof *erase)) {
                rc = airc_fail_oom("reinplace: erased nodes");
                break;
            }
            if (w)
                erase[nerase++] = w;
            if (form_b && r) {
                rc = airc_node_replace_all_uses_with(r, x, NULL, NULL, NULL);
                if (r != n)
                    erase[nerase++] = r;
            }
        }
        if (rc == AIRC_OK)
            rc = airc_node_set_target(n, c->origin->qualname);
        if (rc == AIRC_OK && form_b)
            rc = airc_node_set_meta_tuple(n, 0);
    }
    if (rc == AIRC_OK && nerase)
        rc = airc_graph_erase_nodes(st->g, erase, nerase);
    airc_free(ctx, erase);
    return rc;
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

/* Rules 1-2 and rule 3. Rule 3 rewires uses, which cannot be undone
 * without allocating: with rule-3 rewrites, a clone taken first is swapped
 * back in on failure (g's contents then are that clone's). */
static airc_status apply_all(rp_state *st)
{
    if (!st->nsynth)
        return apply(st);
    airc_graph *backup;
    AIRC_TRY(airc_graph_clone(st->g, &backup));
    airc_status rc = apply_synth(st);
    if (rc == AIRC_OK)
        rc = apply(st);
    if (rc != AIRC_OK)
        airc_graph_swap(st->g, backup);
    airc_graph_destroy(backup);
    return rc;
}

airc_status airc_replay_reinplace(airc_graph *g, const airc_reinplace_options *o, int32_t *changed)
{
    AIRC_TRY(airc_check_graph(g, "airc_replay_reinplace"));
    airc_reinplace_options all = {true, true, NULL};
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
    st.device = o->device ? o->device : "cpu";
    AIRC_TRY(airc_stream_plan_build(g, &st.plan));
    airc_status rc = AIRC_OK;
    AIRC_FOR_EACH_NODE (g, n) {
        if (o->inplaceable_ops)
            rc = try_inplaceable(&st, n);
        if (rc == AIRC_OK && o->input_mutated_ops)
            rc = try_input_mutated(&st, n);
        if (rc == AIRC_OK)
            rc = try_synth(&st, o, n);
        if (rc != AIRC_OK)
            break;
    }
    size_t total = st.ncands + st.nsynth;
    if (rc == AIRC_OK && total > INT32_MAX)
        rc = airc_fail(AIRC_E_INVALID_GRAPH, "reinplace: too many candidates (%zu)", total);
    if (rc == AIRC_OK)
        rc = apply_all(&st);
    if (rc == AIRC_OK && changed)
        *changed = (int32_t)total;
    if (rc == AIRC_OK && total)
        airc_log(g->ctx, AIRC_LOG_INFO, "reinplace: %zu op(s) now run in place", total);
    airc_free(g->ctx, st.cands);
    airc_free(g->ctx, st.synth);
    airc_stream_plan_free(&st.plan);
    return rc;
}
