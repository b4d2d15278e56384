/* Stream assignment and event insertion of the reduce-overhead capture;
 * stream_plan.h states the rules. Two walks in graph order: the first gives
 * every node its position and stream, the second emits the events, keeping
 * per (waiting stream, recording stream) the last position already waited
 * for, so that one event covers every later consumer of that stream. */
#include "backends/replay/stream_plan.h"

#include "ir/ir.h"
#include "ops/ops.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define SP_LABEL_KEY "_user_stream_label"
#define SP_OP_RECORD "air.record.default"
#define SP_OP_WAIT "air.wait.default"
/* known[] value for "never waited"; -1 is "waited for the stream's start" */
#define SP_NEVER ((int64_t)-2)

const char *airc_stream_event_kind_name(int32_t kind)
{
    switch (kind) {
    case AIRC_STREAM_EVENT_FORK: return "fork";
    case AIRC_STREAM_EVENT_DATA: return "data";
    case AIRC_STREAM_EVENT_USER: return "user";
    case AIRC_STREAM_EVENT_JOIN: return "join";
    default: return "unknown";
    }
}

static bool is_op(const airc_node *n, const char *qualname)
{
    return n->kind == AIRC_NODE_CALL_FUNCTION && n->op && !strcmp(n->op->qualname, qualname);
}

static bool is_air(const airc_node *n)
{
    return n->kind == AIRC_NODE_CALL_FUNCTION && n->op && !strncmp(n->op->qualname, "air.", 4);
}

static bool is_launched(const airc_node *n)
{
    if (n->kind != AIRC_NODE_CALL_FUNCTION && n->kind != AIRC_NODE_CALL_MODULE)
        return false;
    return !is_op(n, AIRC_OP_GETITEM) && !is_air(n);
}

/* Argument idx of n, or its keyword `name`; NULL when absent. */
static const airc_value *node_arg(const airc_node *n, uint32_t idx, const char *name)
{
    if (idx < n->nargs)
        return n->args[idx];
    for (uint32_t i = 0; i < n->nkw; i++)
        if (!strcmp(n->kw_names[i], name))
            return n->kw_values[i];
    return NULL;
}

static bool is_seq(const airc_value *v)
{
    return v && (v->kind == AIRC_VALUE_LIST || v->kind == AIRC_VALUE_TUPLE);
}

/* The `_user_stream_label` value of a scope_enter, NULL when its keys have
 * none (an unlabelled scope, e.g. limit_core_num). */
static airc_status scope_label(const airc_node *n, const char **label)
{
    const airc_value *keys = node_arg(n, 0, "keys");
    const airc_value *vals = node_arg(n, 1, "values");
    if (!is_seq(keys) || !is_seq(vals))
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "stream plan: node '%s': air.scope_enter needs two string lists "
                         "(keys, values)",
                         n->name);
    *label = NULL;
    for (uint32_t i = 0; i < keys->len; i++) {
        const airc_value *k = keys->u.items[i];
        if (!k || k->kind != AIRC_VALUE_STRING || strcmp(k->u.s, SP_LABEL_KEY))
            continue;
        const airc_value *v = i < vals->len ? vals->u.items[i] : NULL;
        if (!v || v->kind != AIRC_VALUE_STRING)
            return airc_fail(AIRC_E_INVALID_GRAPH,
                             "stream plan: node '%s': air.scope_enter key '%s' has no string "
                             "value (keys and values differ in length?)",
                             n->name, SP_LABEL_KEY);
        *label = v->u.s; /* a repeated key: the last one wins, as dict(zip()) does */
    }
    return AIRC_OK;
}

void airc_stream_plan_free(airc_stream_plan *plan)
{
    if (!plan || !plan->ctx)
        return;
    airc_context *ctx = plan->ctx;
    airc_free(ctx, plan->nodes);
    airc_free(ctx, plan->pos_of_id);
    airc_free(ctx, (void *)plan->labels);
    airc_free(ctx, plan->events);
    memset(plan, 0, sizeof *plan);
}

uint32_t airc_stream_plan_position(const airc_stream_plan *plan, const airc_node *n)
{
    if (!plan || !n || n->graph != plan->graph || n->id >= plan->nids)
        return AIRC_STREAM_NONE;
    uint32_t p = plan->pos_of_id[n->id];
    return p < plan->nnodes && plan->nodes[p].node == n ? p : AIRC_STREAM_NONE;
}

/* ---- first walk: positions and streams ---------------------------------- */

static airc_status stream_of_label(airc_stream_plan *p, size_t *cap, const char *label,
                                   uint32_t *out)
{
    for (uint32_t s = 1; s < p->nstreams; s++)
        if (!strcmp(p->labels[s], label)) {
            *out = s;
            return AIRC_OK;
        }
    void *labels = (void *)p->labels;
    if (!airc_grow(p->ctx, &labels, cap, (size_t)p->nstreams + 1, sizeof *p->labels))
        return airc_fail_oom("stream plan: stream labels");
    p->labels = labels;
    p->labels[p->nstreams] = label;
    *out = p->nstreams++;
    return AIRC_OK;
}

static airc_status assign_streams(const airc_graph *g, airc_stream_plan *p)
{
    uint32_t stack[AIRC_STREAM_MAX_SCOPE_DEPTH];
    const airc_node *open[AIRC_STREAM_MAX_SCOPE_DEPTH];
    size_t depth = 0, cap = 0;
    void *labels = NULL;
    if (!airc_grow(p->ctx, &labels, &cap, 4, sizeof *p->labels))
        return airc_fail_oom("stream plan: stream labels");
    p->labels = labels;
    p->labels[0] = "main";
    p->nstreams = 1;
    p->output = AIRC_STREAM_NONE;
    uint32_t pos = 0;
    AIRC_FOR_EACH_NODE(g, n) {
        uint32_t cur = depth ? stack[depth - 1] : 0;
        airc_stream_node *sn = &p->nodes[pos];
        sn->node = n;
        sn->launched = is_launched(n);
        sn->stream = cur;
        p->pos_of_id[n->id] = pos;
        if (n->kind == AIRC_NODE_OUTPUT && p->output == AIRC_STREAM_NONE)
            p->output = pos;
        if (is_op(n, AIRC_OP_SCOPE_ENTER)) {
            if (depth == AIRC_STREAM_MAX_SCOPE_DEPTH)
                return airc_fail(AIRC_E_INVALID_GRAPH,
                                 "stream plan: node '%s': air.scope_enter nested deeper than %d",
                                 n->name, AIRC_STREAM_MAX_SCOPE_DEPTH);
            const char *label = NULL;
            AIRC_TRY(scope_label(n, &label));
            uint32_t s = cur;
            if (label)
                AIRC_TRY(stream_of_label(p, &cap, label, &s));
            open[depth] = n;
            stack[depth++] = s;
        } else if (is_op(n, AIRC_OP_SCOPE_EXIT)) {
            if (!depth)
                return airc_fail(AIRC_E_INVALID_GRAPH,
                                 "stream plan: node '%s': air.scope_exit without a matching "
                                 "air.scope_enter (unpaired scopes usually come from a user "
                                 "pass)",
                                 n->name);
            depth--;
        }
        pos++;
    }
    if (depth)
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "stream plan: node '%s': air.scope_enter has no matching "
                         "air.scope_exit (unpaired scopes usually come from a user pass)",
                         open[depth - 1]->name);
    if (p->output == AIRC_STREAM_NONE)
        return airc_fail(AIRC_E_INVALID_GRAPH, "stream plan: the graph has no output node");
    return AIRC_OK;
}

/* ---- second walk: events ------------------------------------------------ */

typedef struct sp_wait {
    uint32_t stream; /* waiting stream */
    uint32_t rec_stream, rec_after, origin;
} sp_wait;

typedef struct sp_state {
    airc_stream_plan *p;
    size_t ev_cap;
    int64_t *known;   /* [T * nstreams + S]: last position of S that T waited for */
    int64_t *last;    /* per stream: last launch so far (-1: none) */
    uint32_t *source; /* per position: the launch whose result it is, or NONE */
    uint32_t *mark;   /* per position of an air.record: the launch it follows, or NONE */
    sp_wait *pending; /* user waits not yet attached to a launch */
    size_t npending, pending_cap;
} sp_state;

static airc_status emit(sp_state *st, uint32_t S, uint32_t after, uint32_t T, uint32_t before,
                        int32_t kind, uint32_t origin)
{
    airc_stream_plan *p = st->p;
    void *ev = p->events;
    if (!airc_grow(p->ctx, &ev, &st->ev_cap, p->nevents + 1, sizeof *p->events))
        return airc_fail_oom("stream plan: events");
    p->events = ev;
    p->events[p->nevents++] = (airc_stream_event){S, after, T, before, kind, origin};
    int64_t *k = &st->known[(size_t)T * p->nstreams + S];
    int64_t a = after == AIRC_STREAM_NONE ? -1 : (int64_t)after;
    if (a > *k)
        *k = a;
    return AIRC_OK;
}

/* Waits of stream T needed before position `before` on it: pending user
 * waits first, then (side streams) the fork, then the data edges of node n. */
static airc_status waits_before(sp_state *st, uint32_t T, uint32_t before, const airc_node *n)
{
    airc_stream_plan *p = st->p;
    size_t keep = 0;
    for (size_t i = 0; i < st->npending; i++) {
        sp_wait w = st->pending[i];
        if (w.stream != T) {
            st->pending[keep++] = w;
            continue;
        }
        AIRC_TRY(emit(st, w.rec_stream, w.rec_after, T, before, AIRC_STREAM_EVENT_USER,
                      w.origin));
    }
    st->npending = keep;
    if (T != 0 && n) {
        int64_t m = st->last[0];
        if (st->known[(size_t)T * p->nstreams] < m) /* SP_NEVER < -1 <= m */
            AIRC_TRY(emit(st, 0, m < 0 ? AIRC_STREAM_NONE : (uint32_t)m, T, before,
                          AIRC_STREAM_EVENT_FORK, AIRC_STREAM_NONE));
    }
    for (size_t i = 0; n && i < n->ninputs; i++) {
        uint32_t ip = airc_stream_plan_position(p, n->inputs[i]);
        uint32_t src = ip == AIRC_STREAM_NONE ? AIRC_STREAM_NONE : st->source[ip];
        if (src == AIRC_STREAM_NONE)
            continue;
        uint32_t S = p->nodes[src].stream;
        if (S == T || st->known[(size_t)T * p->nstreams + S] >= (int64_t)src)
            continue;
        AIRC_TRY(emit(st, S, src, T, before, AIRC_STREAM_EVENT_DATA, ip));
    }
    return AIRC_OK;
}

static airc_status queue_user_wait(sp_state *st, const airc_node *w, uint32_t T)
{
    airc_stream_plan *p = st->p;
    for (size_t i = 0; i < w->ninputs; i++) {
        uint32_t ip = airc_stream_plan_position(p, w->inputs[i]);
        if (ip == AIRC_STREAM_NONE)
            continue;
        const airc_node *in = p->nodes[ip].node;
        uint32_t S, after;
        if (is_op(in, SP_OP_RECORD)) {
            S = p->nodes[ip].stream;
            after = st->mark[ip];
        } else {
            /* waiting on a plain tensor: on the point right after its producer */
            after = st->source[ip];
            if (after == AIRC_STREAM_NONE)
                continue;
            S = p->nodes[after].stream;
        }
        if (S == T)
            continue; /* program order already covers it */
        void *pend = st->pending;
        if (!airc_grow(p->ctx, &pend, &st->pending_cap, st->npending + 1, sizeof *st->pending))
            return airc_fail_oom("stream plan: pending waits");
        st->pending = pend;
        st->pending[st->npending++] = (sp_wait){T, S, after, ip};
    }
    return AIRC_OK;
}

static airc_status insert_events(sp_state *st)
{
    airc_stream_plan *p = st->p;
    for (uint32_t pos = 0; pos < p->nnodes; pos++) {
        const airc_stream_node *sn = &p->nodes[pos];
        const airc_node *n = sn->node;
        uint32_t T = sn->stream;
        st->source[pos] = AIRC_STREAM_NONE;
        st->mark[pos] = AIRC_STREAM_NONE;
        if (sn->launched) {
            AIRC_TRY(waits_before(st, T, pos, n));
            st->last[T] = pos;
            st->source[pos] = pos;
        } else if (is_op(n, AIRC_OP_GETITEM) && n->ninputs) {
            uint32_t ip = airc_stream_plan_position(p, n->inputs[0]);
            st->source[pos] = ip == AIRC_STREAM_NONE ? AIRC_STREAM_NONE : st->source[ip];
        } else if (is_op(n, SP_OP_RECORD)) {
            st->mark[pos] = st->last[T] < 0 ? AIRC_STREAM_NONE : (uint32_t)st->last[T];
        } else if (is_op(n, SP_OP_WAIT)) {
            AIRC_TRY(queue_user_wait(st, n, T));
        } else if (n->kind == AIRC_NODE_OUTPUT) {
            /* side-stream waits with no launch after them order nothing */
            size_t keep = 0;
            for (size_t i = 0; i < st->npending; i++)
                if (st->pending[i].stream == 0)
                    st->pending[keep++] = st->pending[i];
            st->npending = keep;
            AIRC_TRY(waits_before(st, 0, pos, NULL));
            for (uint32_t S = 1; S < p->nstreams; S++)
                if (st->last[S] >= 0)
                    AIRC_TRY(emit(st, S, (uint32_t)st->last[S], 0, pos, AIRC_STREAM_EVENT_JOIN,
                                  AIRC_STREAM_NONE));
            break; /* nothing after the output is launched */
        }
    }
    return AIRC_OK;
}

airc_status airc_stream_plan_build(const airc_graph *g, airc_stream_plan *out)
{
    AIRC_TRY(airc_check_graph(g, "airc_stream_plan_build"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_stream_plan_build: out is NULL");
    if (g->nnodes >= AIRC_STREAM_NONE || g->next_id >= AIRC_STREAM_NONE)
        return airc_fail(AIRC_E_INVALID_GRAPH, "stream plan: too many nodes (%zu)", g->nnodes);
    airc_context *ctx = g->ctx;
    airc_stream_plan p;
    memset(&p, 0, sizeof p);
    p.ctx = ctx;
    p.graph = g;
    p.nnodes = (uint32_t)g->nnodes;
    p.nids = g->next_id;
    sp_state st;
    memset(&st, 0, sizeof st);
    st.p = &p;
    airc_status rc = AIRC_OK;
    p.nodes = airc_calloc(ctx, p.nnodes ? p.nnodes : 1, sizeof *p.nodes);
    p.pos_of_id = airc_malloc(ctx, ((size_t)p.nids ? p.nids : 1) * sizeof *p.pos_of_id);
    if (!p.nodes || !p.pos_of_id) {
        rc = airc_fail_oom("stream plan: node table");
        goto fail;
    }
    memset(p.pos_of_id, 0xff, (size_t)p.nids * sizeof *p.pos_of_id);
    rc = assign_streams(g, &p);
    if (rc != AIRC_OK)
        goto fail;
    size_t ns = p.nstreams;
    st.known = airc_calloc(ctx, ns * ns, sizeof *st.known);
    st.last = airc_calloc(ctx, ns, sizeof *st.last);
    st.source = airc_calloc(ctx, p.nnodes ? p.nnodes : 1, sizeof *st.source);
    st.mark = airc_calloc(ctx, p.nnodes ? p.nnodes : 1, sizeof *st.mark);
    if (!st.known || !st.last || !st.source || !st.mark) {
        rc = airc_fail_oom("stream plan: scratch");
        goto fail;
    }
    for (size_t i = 0; i < ns * ns; i++)
        st.known[i] = SP_NEVER;
    for (size_t i = 0; i < ns; i++)
        st.last[i] = -1;
    rc = insert_events(&st);
    if (rc != AIRC_OK)
        goto fail;
    airc_free(ctx, st.known);
    airc_free(ctx, st.last);
    airc_free(ctx, st.source);
    airc_free(ctx, st.mark);
    airc_free(ctx, st.pending);
    *out = p;
    return AIRC_OK;
fail:
    airc_free(ctx, st.known);
    airc_free(ctx, st.last);
    airc_free(ctx, st.source);
    airc_free(ctx, st.mark);
    airc_free(ctx, st.pending);
    airc_stream_plan_free(&p);
    return rc;
}

/* ---- lifetimes for the memory planner ----------------------------------- */

/* Earliest main-stream wait directly covering position `at` of side stream S. */
static uint32_t join_of(const airc_stream_plan *p, uint32_t S, uint32_t at)
{
    uint32_t best = AIRC_STREAM_NONE;
    for (size_t i = 0; i < p->nevents; i++) {
        const airc_stream_event *e = &p->events[i];
        if (e->record_stream == S && e->wait_stream == 0 && e->record_after != AIRC_STREAM_NONE &&
            e->record_after >= at && e->wait_before < best)
            best = e->wait_before;
    }
    return best;
}

airc_status airc_stream_plan_lifetime(const airc_stream_plan *plan, const airc_node *producer,
                                      const airc_node *const *consumers, size_t nconsumers,
                                      airc_mem_buffer *out)
{
    if (!plan || !producer || !out || (nconsumers && !consumers))
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_stream_plan_lifetime: NULL argument");
    uint32_t pp = airc_stream_plan_position(plan, producer);
    if (pp == AIRC_STREAM_NONE)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_stream_plan_lifetime: producer '%s' is not in the plan",
                         producer->name);
    uint32_t last = pp, stream = plan->nodes[pp].stream, join = AIRC_MEM_NO_EVENT;
    uint32_t ps = plan->nodes[pp].stream;
    /* touches: the producer, then each consumer */
    for (size_t i = 0; i <= nconsumers; i++) {
        uint32_t q = pp;
        if (i) {
            q = airc_stream_plan_position(plan, consumers[i - 1]);
            if (q == AIRC_STREAM_NONE)
                return airc_fail(AIRC_E_INVALID_ARGUMENT,
                                 "airc_stream_plan_lifetime: consumer %zu ('%s') of '%s' is not "
                                 "in the plan",
                                 i - 1, consumers[i - 1] ? consumers[i - 1]->name : "(null)",
                                 producer->name);
        }
        uint32_t s = plan->nodes[q].stream;
        if (q > last)
            last = q;
        if (!s)
            continue;
        if (!stream)
            stream = s;
        uint32_t j = join_of(plan, s, q);
        if (j != AIRC_STREAM_NONE && (join == AIRC_MEM_NO_EVENT || j > join))
            join = j;
    }
    uint32_t fork = AIRC_MEM_NO_EVENT;
    if (stream) {
        if (!ps) {
            fork = pp;
        } else {
            for (size_t i = 0; i < plan->nevents; i++) {
                const airc_stream_event *e = &plan->events[i];
                if (e->wait_stream != ps || e->record_stream != 0 || e->wait_before > pp)
                    continue;
                uint32_t f = e->record_after == AIRC_STREAM_NONE ? 0 : e->record_after + 1;
                if (fork == AIRC_MEM_NO_EVENT || f > fork)
                    fork = f;
            }
        }
    }
    out->first_use = pp;
    out->last_use = last;
    out->stream = stream;
    out->fork = fork;
    out->join = join;
    return AIRC_OK;
}

/* ---- checker ------------------------------------------------------------ */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static airc_status check_shape(const airc_graph *g, const airc_stream_plan *p)
{
    if (p->graph != g || p->nnodes != g->nnodes || !p->nstreams || p->output >= p->nnodes)
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "stream plan check: the plan was not built from this graph (or the "
                         "graph changed since)");
    uint32_t pos = 0;
    AIRC_FOR_EACH_NODE(g, n) {
        const airc_stream_node *sn = &p->nodes[pos];
        if (sn->node != n || sn->stream >= p->nstreams || sn->launched != is_launched(n) ||
            airc_stream_plan_position(p, n) != pos)
            return airc_fail(AIRC_E_INVALID_GRAPH,
                             "stream plan check: entry %" PRIu32 " does not describe node '%s'",
                             pos, n->name);
        pos++;
    }
    if (p->nodes[p->output].node->kind != AIRC_NODE_OUTPUT)
        return airc_fail(AIRC_E_INVALID_GRAPH, "stream plan check: output position is wrong");
    for (size_t i = 0; i < p->nevents; i++) {
        const airc_stream_event *e = &p->events[i];
        bool ok = e->record_stream < p->nstreams && e->wait_stream < p->nstreams &&
                  e->record_stream != e->wait_stream && e->wait_before < p->nnodes;
        if (ok && e->record_after != AIRC_STREAM_NONE)
            ok = e->record_after < e->wait_before && p->nodes[e->record_after].launched &&
                 p->nodes[e->record_after].stream == e->record_stream;
        if (ok) {
            const airc_stream_node *w = &p->nodes[e->wait_before];
            ok = (w->launched && w->stream == e->wait_stream) ||
                 (e->wait_before == p->output && e->wait_stream == 0);
        }
        if (!ok)
            return airc_fail(AIRC_E_INVALID_GRAPH,
                             "stream plan check: event %zu (%s, stream %" PRIu32
                             " -> %" PRIu32 ") is malformed: it must be recorded after a "
                             "launch of its record stream and waited before a later launch of "
                             "its wait stream (or the output)",
                             i, airc_stream_event_kind_name(e->kind), e->record_stream,
                             e->wait_stream);
    }
    return AIRC_OK;
}

typedef struct ck_state {
    const airc_stream_plan *p;
    int64_t *vc;    /* [T * ns + U]: latest launch of U that T's current point follows */
    int64_t *snap;  /* [event * ns]: the record stream's clock when recorded */
    uint64_t *by_wait, *by_rec; /* (position << 32 | event), sorted */
    int64_t *last;  /* per stream: last launch so far */
    uint32_t *source;
} ck_state;

static airc_status ck_require(const ck_state *c, uint32_t T, uint32_t S, int64_t at,
                              uint32_t pos, const char *what)
{
    const airc_stream_plan *p = c->p;
    if (c->vc[(size_t)T * p->nstreams + S] >= at)
        return AIRC_OK;
    return airc_fail(AIRC_E_INVALID_GRAPH,
                     "stream plan check: %s: '%s' on stream '%s' is not ordered after '%s' on "
                     "stream '%s' (a missing event)",
                     what, p->nodes[pos].node->name, p->labels[T], p->nodes[at].node->name,
                     p->labels[S]);
}

static airc_status ck_walk(ck_state *c)
{
    const airc_stream_plan *p = c->p;
    size_t ns = p->nstreams, iw = 0, ir = 0, ne = p->nevents;
    for (uint32_t pos = 0; pos < p->nnodes; pos++) {
        for (; iw < ne && (c->by_wait[iw] >> 32) == pos; iw++) {
            size_t e = (size_t)(c->by_wait[iw] & 0xffffffffu);
            const airc_stream_event *ev = &p->events[e];
            int64_t *dst = &c->vc[(size_t)ev->wait_stream * ns];
            for (size_t u = 0; u < ns; u++)
                if (c->snap[e * ns + u] > dst[u])
                    dst[u] = c->snap[e * ns + u];
        }
        const airc_stream_node *sn = &p->nodes[pos];
        const airc_node *n = sn->node;
        uint32_t T = sn->stream;
        c->source[pos] = AIRC_STREAM_NONE;
        if (sn->launched) {
            for (size_t i = 0; i < n->ninputs; i++) {
                uint32_t ip = airc_stream_plan_position(p, n->inputs[i]);
                uint32_t src = ip == AIRC_STREAM_NONE ? AIRC_STREAM_NONE : c->source[ip];
                if (src != AIRC_STREAM_NONE && p->nodes[src].stream != T)
                    AIRC_TRY(ck_require(c, T, p->nodes[src].stream, src, pos, "data edge"));
            }
            if (T && c->last[0] >= 0)
                AIRC_TRY(ck_require(c, T, 0, c->last[0], pos, "fork"));
            c->vc[(size_t)T * ns + T] = pos;
            c->last[T] = pos;
            c->source[pos] = pos;
        } else if (is_op(n, AIRC_OP_GETITEM) && n->ninputs) {
            uint32_t ip = airc_stream_plan_position(p, n->inputs[0]);
            c->source[pos] = ip == AIRC_STREAM_NONE ? AIRC_STREAM_NONE : c->source[ip];
        } else if (pos == p->output) {
            for (uint32_t S = 1; S < ns; S++)
                if (c->last[S] >= 0 && c->vc[S] < c->last[S])
                    return airc_fail(AIRC_E_INVALID_GRAPH,
                                     "stream plan check: side stream '%s' is not joined before "
                                     "the output (its last launch '%s' is unordered)",
                                     p->labels[S], p->nodes[c->last[S]].node->name);
        }
        for (; ir < ne && (c->by_rec[ir] >> 32) == pos; ir++) {
            size_t e = (size_t)(c->by_rec[ir] & 0xffffffffu);
            memcpy(&c->snap[e * ns], &c->vc[(size_t)p->events[e].record_stream * ns],
                   ns * sizeof *c->snap);
        }
    }
    return AIRC_OK;
}

airc_status airc_stream_plan_check(const airc_graph *g, const airc_stream_plan *plan)
{
    AIRC_TRY(airc_check_graph(g, "airc_stream_plan_check"));
    if (!plan || !plan->ctx)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_stream_plan_check: no plan");
    AIRC_TRY(check_shape(g, plan));
    airc_context *ctx = g->ctx;
    size_t ns = plan->nstreams, ne = plan->nevents;
    ck_state c;
    memset(&c, 0, sizeof c);
    c.p = plan;
    c.vc = airc_malloc(ctx, ns * ns * sizeof *c.vc);
    c.snap = airc_malloc(ctx, (ne ? ne : 1) * ns * sizeof *c.snap);
    c.by_wait = airc_malloc(ctx, (ne ? ne : 1) * sizeof *c.by_wait);
    c.by_rec = airc_malloc(ctx, (ne ? ne : 1) * sizeof *c.by_rec);
    c.last = airc_malloc(ctx, ns * sizeof *c.last);
    c.source = airc_malloc(ctx, (plan->nnodes ? plan->nnodes : 1) * sizeof *c.source);
    airc_status rc = AIRC_OK;
    if (!c.vc || !c.snap || !c.by_wait || !c.by_rec || !c.last || !c.source) {
        rc = airc_fail_oom("stream plan check: scratch");
        goto done;
    }
    for (size_t i = 0; i < ns * ns; i++)
        c.vc[i] = -1;
    for (size_t i = 0; i < ns; i++)
        c.last[i] = -1;
    /* an event recorded before any launch on its stream orders nothing */
    for (size_t i = 0; i < ne * ns; i++)
        c.snap[i] = -1;
    size_t nrec = 0;
    for (size_t e = 0; e < ne; e++) {
        c.by_wait[e] = (uint64_t)plan->events[e].wait_before << 32 | e;
        if (plan->events[e].record_after != AIRC_STREAM_NONE)
            c.by_rec[nrec++] = (uint64_t)plan->events[e].record_after << 32 | e;
    }
    qsort(c.by_wait, ne, sizeof *c.by_wait, cmp_u64);
    qsort(c.by_rec, nrec, sizeof *c.by_rec, cmp_u64);
    /* ck_walk reads by_rec up to ne entries: pad with a position no walk reaches */
    for (size_t i = nrec; i < ne; i++)
        c.by_rec[i] = UINT64_MAX;
    rc = ck_walk(&c);
done:
    airc_free(ctx, c.vc);
    airc_free(ctx, c.snap);
    airc_free(ctx, c.by_wait);
    airc_free(ctx, c.by_rec);
    airc_free(ctx, c.last);
    airc_free(ctx, c.source);
    return rc;
}
