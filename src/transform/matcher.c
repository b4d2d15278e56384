/* SubgraphMatcher: torch.fx's matcher_utils rules (see transform.h), with
 * an explicit work stack instead of recursion and a cycle check bounded by
 * the match's last node instead of a walk of everything downstream.
 *
 * State of one match attempt: map[p] / lit[p] hold what pattern node p is
 * bound to, rev[id] the pattern index + 1 a graph node is the image of, and
 * a trail of the pattern indices bound so far, so that a failed attempt (or
 * the backtracking over several anchors) unbinds exactly what it bound. */
#include "transform/transform_internal.h"

#include <string.h>

#define NO_PATTERN UINT32_MAX

void airc_matcher_options_init(airc_matcher_options *options)
{
    if (!options)
        return;
    memset(options, 0, sizeof *options);
    options->struct_size = sizeof *options;
    options->remove_overlapping_matches = 1;
}

/* ---- matcher ----------------------------------------------------------- */

static void matcher_free(airc_context *ctx, airc_matcher *m)
{
    airc_free(ctx, m->pnodes);
    airc_free(ctx, m->pidx);
    airc_free(ctx, m->ph);
    airc_free(ctx, m->ret);
    airc_free(ctx, m->anch);
    m->magic = AIRC_MAGIC_DEAD;
    airc_free(ctx, m);
}

static airc_status check_pattern(const airc_graph *p, const char *fn)
{
    if (p->nnodes == 0)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: the pattern is empty", fn);
    const airc_node *last = p->root.prev;
    AIRC_FOR_EACH_NODE(p, n) {
        if (n->kind == AIRC_NODE_OUTPUT && n != last)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "%s: the pattern's output node '%s' is not its last node", fn,
                             n->name);
        if (n != last && n->nusers == 0)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "%s: the pattern has dead code: node '%s' has no users", fn,
                             n->name);
    }
    if (last->kind != AIRC_NODE_OUTPUT)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: the pattern has no output node", fn);
    if (last->ninputs == 0)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: the pattern's output returns no node", fn);
    return AIRC_OK;
}

airc_status airc_matcher_create(const airc_graph *pattern, const airc_matcher_options *options,
                                airc_matcher **out)
{
    static const char fn[] = "airc_matcher_create";
    AIRC_TRY(airc_check_graph(pattern, fn));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: out is NULL", fn);
    airc_matcher_options opts;
    airc_matcher_options_init(&opts);
    if (options) {
        if (options->struct_size != sizeof opts)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "%s: options.struct_size is %zu, expected %zu (call "
                             "airc_matcher_options_init)",
                             fn, options->struct_size, sizeof opts);
        opts = *options;
    }
    AIRC_TRY(check_pattern(pattern, fn));
    airc_context *ctx = pattern->ctx;
    airc_matcher *m = airc_calloc(ctx, 1, sizeof *m);
    if (!m)
        return airc_fail_oom("matcher");
    m->ctx = ctx;
    m->pattern = pattern;
    m->opts = opts;
    m->np = pattern->nnodes;
    m->nids = pattern->next_id;
    m->pnodes = airc_calloc(ctx, m->np, sizeof *m->pnodes);
    m->pidx = airc_calloc(ctx, m->nids ? m->nids : 1, sizeof *m->pidx);
    m->ph = airc_calloc(ctx, m->np, sizeof *m->ph);
    m->ret = airc_calloc(ctx, m->np, sizeof *m->ret);
    m->anch = airc_calloc(ctx, m->np, sizeof *m->anch);
    if (!m->pnodes || !m->pidx || !m->ph || !m->ret || !m->anch) {
        matcher_free(ctx, m);
        return airc_fail_oom("matcher tables");
    }
    uint32_t i = 0;
    AIRC_FOR_EACH_NODE(pattern, n) {
        m->pnodes[i] = n;
        m->pidx[n->id] = i + 1;
        if (n->kind == AIRC_NODE_PLACEHOLDER)
            m->ph[m->nph++] = i;
        i++;
    }
    const airc_node *output = pattern->root.prev;
    m->out_idx = i - 1;
    /* torch.fx: pattern_returning_nodes = output.all_input_nodes */
    for (size_t k = 0; k < output->ninputs; k++)
        m->ret[m->nret++] = m->pidx[output->inputs[k]->id] - 1;
    if (opts.match_output) {
        m->anch[m->nanch++] = m->out_idx;
    } else {
        for (size_t k = 0; k < m->nret; k++) {
            const airc_node *r = m->pnodes[m->ret[k]];
            if (r->nusers == 1 && r->users[0] == output)
                m->anch[m->nanch++] = m->ret[k];
        }
    }
    if (m->nanch == 0) {
        matcher_free(ctx, m);
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "%s: no returning node of the pattern is used only by its output", fn);
    }
    airc_context_retain(ctx);
    m->magic = AIRC_MAGIC_MATCHER;
    *out = m;
    return AIRC_OK;
}

void airc_matcher_destroy(airc_matcher *m)
{
    if (!m || m->magic != AIRC_MAGIC_MATCHER)
        return;
    airc_context *ctx = m->ctx;
    matcher_free(ctx, m);
    airc_context_release(ctx);
}

/* ---- match lists ------------------------------------------------------- */

void airc_match_list_destroy(airc_match_list *l)
{
    if (!l || l->magic != AIRC_MAGIC_MATCH_LIST)
        return;
    airc_context *ctx = l->ctx;
    for (size_t i = 0; i < l->n; i++)
        airc_free(ctx, l->items[i]);
    airc_free(ctx, l->items);
    airc_free(ctx, l->pnodes);
    airc_free(ctx, l->ph);
    l->magic = AIRC_MAGIC_DEAD;
    airc_free(ctx, l);
    airc_context_release(ctx);
}

static airc_match_list *list_create(const airc_matcher *m)
{
    airc_context *ctx = m->ctx;
    airc_match_list *l = airc_calloc(ctx, 1, sizeof *l);
    if (!l)
        return NULL;
    l->ctx = ctx;
    l->np = m->np;
    l->nph = m->nph;
    l->nret = m->nret;
    l->nanch = m->nanch;
    l->with_output = m->opts.match_output != 0;
    l->out_idx = m->out_idx;
    l->pnodes = airc_calloc(ctx, m->np, sizeof *l->pnodes);
    l->ph = airc_calloc(ctx, m->nph ? m->nph : 1, sizeof *l->ph);
    if (!l->pnodes || !l->ph) {
        airc_free(ctx, l->pnodes);
        airc_free(ctx, l->ph);
        airc_free(ctx, l);
        return NULL;
    }
    memcpy(l->pnodes, m->pnodes, m->np * sizeof *l->pnodes);
    if (m->nph)
        memcpy(l->ph, m->ph, m->nph * sizeof *l->ph);
    airc_context_retain(ctx);
    l->magic = AIRC_MAGIC_MATCH_LIST;
    return l;
}

/* ---- matching engine --------------------------------------------------- */

typedef struct work {
    const airc_value *pv, *gv; /* a pair of values, or */
    uint32_t p;                /* a pattern node index (NO_PATTERN: values) */
    airc_node *gn;             /* and the graph node it should match */
} work;

typedef struct engine {
    const airc_matcher *m;
    const airc_graph *g;
    airc_context *ctx;
    airc_node **map;
    const airc_value **lit;
    bool *is_ret;
    uint32_t *rev; /* graph node id -> pattern index + 1 */
    uint32_t *trail;
    size_t ntrail;
    work *stack;
    size_t nstack, stack_cap;
    uint32_t *seen; /* graph node id -> stamp (cycle walk, overlap claims) */
    uint32_t stamp;
    airc_node **dfs;
    size_t ndfs, dfs_cap;
    bool oom;
} engine;

static bool nodes_equal(const airc_matcher *m, const airc_node *pn, const airc_node *gn)
{
    if (!m->opts.match_placeholder && pn->kind == AIRC_NODE_PLACEHOLDER)
        return true; /* a wildcard */
    if (pn->kind != gn->kind)
        return false;
    switch (pn->kind) {
    case AIRC_NODE_PLACEHOLDER:
    case AIRC_NODE_OUTPUT:
        return true;
    case AIRC_NODE_CALL_FUNCTION:
        return pn->op == gn->op || !strcmp(pn->target, gn->target);
    default:
        return !strcmp(pn->target, gn->target);
    }
}

static bool push(engine *e, work w)
{
    if (!airc_grow(e->ctx, (void **)&e->stack, &e->stack_cap, e->nstack + 1, sizeof *e->stack)) {
        e->oom = true;
        return false;
    }
    e->stack[e->nstack++] = w;
    return true;
}

static uint32_t pattern_index(const engine *e, const airc_node *pn)
{
    return e->m->pidx[pn->id] - 1;
}

static void bind(engine *e, uint32_t p, airc_node *gn, const airc_value *lit)
{
    e->map[p] = gn;
    e->lit[p] = lit;
    if (gn)
        e->rev[gn->id] = p + 1;
    e->trail[e->ntrail++] = p;
}

static void undo_to(engine *e, size_t mark)
{
    while (e->ntrail > mark) {
        uint32_t p = e->trail[--e->ntrail];
        if (e->map[p])
            e->rev[e->map[p]->id] = 0;
        e->map[p] = NULL;
        e->lit[p] = NULL;
    }
}

static const airc_value *kwarg_of(const airc_node *n, const char *name)
{
    for (uint32_t i = 0; i < n->nkw; i++)
        if (!strcmp(n->kw_names[i], name))
            return n->kw_values[i];
    return NULL;
}

/* torch.fx _match_nodes for one pair; the argument pairs are pushed. */
static bool match_pair(engine *e, uint32_t p, airc_node *gn)
{
    if (e->map[p])
        return e->map[p] == gn;
    if (e->lit[p] || e->rev[gn->id])
        return false; /* bound to something else, or gn is another's image */
    const airc_node *pn = e->m->pnodes[p];
    if (!nodes_equal(e->m, pn, gn))
        return false;
    bind(e, p, gn, NULL);
    if (pn->kind == AIRC_NODE_PLACEHOLDER)
        return true;
    if (pn->nargs != gn->nargs || pn->nkw != gn->nkw)
        return false;
    /* pushed in reverse: popped (matched) left to right, args first */
    for (uint32_t i = pn->nkw; i-- > 0;) {
        const airc_value *gv = kwarg_of(gn, pn->kw_names[i]);
        if (!gv || !push(e, (work){pn->kw_values[i], gv, NO_PATTERN, NULL}))
            return false;
    }
    for (uint32_t i = pn->nargs; i-- > 0;)
        if (!push(e, (work){pn->args[i], gn->args[i], NO_PATTERN, NULL}))
            return false;
    return true;
}

static bool is_seq(const airc_value *v)
{
    return v->kind == AIRC_VALUE_LIST || v->kind == AIRC_VALUE_TUPLE;
}

static bool match_values(engine *e, const airc_value *pv, const airc_value *gv)
{
    bool pnode = pv->kind == AIRC_VALUE_NODE, gnode = gv->kind == AIRC_VALUE_NODE;
    if (pnode && gnode)
        return push(e, (work){NULL, NULL, pattern_index(e, pv->u.node), gv->u.node});
    if (is_seq(pv) && is_seq(gv)) {
        if (pv->len != gv->len)
            return false;
        for (uint32_t i = pv->len; i-- > 0;)
            if (!push(e, (work){pv->u.items[i], gv->u.items[i], NO_PATTERN, NULL}))
                return false;
        return true;
    }
    if (pnode) {
        /* only a placeholder binds a literal (torch.fx _match_literals) */
        uint32_t p = pattern_index(e, pv->u.node);
        if (e->m->pnodes[p]->kind != AIRC_NODE_PLACEHOLDER || e->map[p])
            return false;
        if (e->lit[p])
            return airc_value_equal(e->lit[p], gv) != 0;
        bind(e, p, NULL, gv);
        return true;
    }
    if (gnode || is_seq(pv) || is_seq(gv))
        return false;
    return e->m->opts.ignore_literals || airc_value_equal(pv, gv);
}

/* Matches pattern node p against gn and everything above them. */
static bool match_from(engine *e, uint32_t p, airc_node *gn)
{
    e->nstack = 0;
    if (!push(e, (work){NULL, NULL, p, gn}))
        return false;
    while (e->nstack) {
        work w = e->stack[--e->nstack];
        bool ok = w.p != NO_PATTERN ? match_pair(e, w.p, w.gn) : match_values(e, w.pv, w.gv);
        if (!ok)
            return false;
    }
    return true;
}

static bool is_compute_p(const engine *e, uint32_t p)
{
    airc_node_kind k = e->m->pnodes[p]->kind;
    return k != AIRC_NODE_PLACEHOLDER && k != AIRC_NODE_OUTPUT;
}

static bool is_compute_image(const engine *e, const airc_node *x)
{
    uint32_t r = e->rev[x->id];
    return r && is_compute_p(e, r - 1);
}

static void next_stamp(engine *e, uint32_t nid)
{
    if (++e->stamp == 0) {
        memset(e->seen, 0, nid * sizeof *e->seen);
        e->stamp = 1;
    }
}

static bool dfs_push(engine *e, airc_node *x)
{
    if (e->seen[x->id] == e->stamp)
        return true;
    e->seen[x->id] = e->stamp;
    if (!airc_grow(e->ctx, (void **)&e->dfs, &e->dfs_cap, e->ndfs + 1, sizeof *e->dfs)) {
        e->oom = true;
        return false;
    }
    e->dfs[e->ndfs++] = x;
    return true;
}

/* fuser_utils.validate_partition: no path from the match's compute nodes
 * through an outside node back into them. Nodes after the match's last
 * compute node cannot lead back (the graph is in topological order), so
 * the walk stops there. */
static bool acyclic(engine *e)
{
    const airc_matcher *m = e->m;
    next_stamp(e, e->g->next_id);
    uint64_t last = 0;
    for (uint32_t p = 0; p < m->np; p++)
        if (e->map[p] && is_compute_p(e, p) && e->map[p]->order > last)
            last = e->map[p]->order;
    e->ndfs = 0;
    for (uint32_t p = 0; p < m->np; p++) {
        if (!e->map[p] || !is_compute_p(e, p))
            continue;
        const airc_node *gn = e->map[p];
        for (size_t k = 0; k < gn->nusers; k++)
            if (!is_compute_image(e, gn->users[k]) && !dfs_push(e, gn->users[k]))
                return false;
    }
    while (e->ndfs) {
        airc_node *x = e->dfs[--e->ndfs];
        if (x->order > last)
            continue;
        for (size_t k = 0; k < x->nusers; k++) {
            if (is_compute_image(e, x->users[k]))
                return false;
            if (!dfs_push(e, x->users[k]))
                return false;
        }
    }
    return true;
}

/* Intermediate nodes may not escape the match (torch.fx _is_contained). */
static bool contained(const engine *e)
{
    const airc_matcher *m = e->m;
    for (uint32_t p = 0; p < m->np; p++) {
        if (!is_compute_p(e, p) || e->is_ret[p])
            continue;
        const airc_node *gn = e->map[p];
        for (size_t k = 0; k < gn->nusers; k++)
            if (!e->rev[gn->users[k]->id])
                return false;
    }
    return true;
}

static bool record(engine *e, airc_match_list *l)
{
    const airc_matcher *m = e->m;
    for (uint32_t p = 0; p < m->np; p++) {
        if (p == m->out_idx && !m->opts.match_output)
            continue;
        if (!e->map[p] && !e->lit[p])
            return true; /* unreachable from the anchors: not a match */
    }
    if (!contained(e))
        return true;
    bool ok = acyclic(e);
    if (e->oom)
        return false;
    if (!ok)
        return true;
    if (!airc_grow(e->ctx, (void **)&l->items, &l->cap, l->n + 1, sizeof *l->items)) {
        e->oom = true;
        return false;
    }
    size_t slots = m->nanch + 2 * m->np + m->nret;
    airc_match *mt = airc_malloc(e->ctx, sizeof *mt + slots * sizeof(void *));
    if (!mt) {
        e->oom = true;
        return false;
    }
    void **s = (void **)(mt + 1);
    mt->list = l;
    mt->anchors = (airc_node **)s;
    mt->gnodes = (airc_node **)(s + m->nanch);
    mt->lits = (const airc_value **)(s + m->nanch + m->np);
    mt->ret = (airc_node **)(s + m->nanch + 2 * m->np);
    for (size_t a = 0; a < m->nanch; a++)
        mt->anchors[a] = e->map[m->anch[a]];
    memcpy(mt->gnodes, e->map, m->np * sizeof *e->map);
    memcpy(mt->lits, e->lit, m->np * sizeof *e->lit);
    for (size_t r = 0; r < m->nret; r++)
        mt->ret[r] = e->map[m->ret[r]];
    l->items[l->n++] = mt;
    return true;
}

/* Greedy, first found wins; placeholders may overlap. */
static void remove_overlaps(engine *e, airc_match_list *l)
{
    next_stamp(e, e->g->next_id);
    size_t kept = 0;
    for (size_t i = 0; i < l->n; i++) {
        airc_match *mt = l->items[i];
        bool overlap = false;
        for (uint32_t p = 0; p < l->np && !overlap; p++)
            overlap = is_compute_p(e, p) && e->seen[mt->gnodes[p]->id] == e->stamp;
        if (overlap) {
            airc_free(e->ctx, mt);
            continue;
        }
        for (uint32_t p = 0; p < l->np; p++)
            if (is_compute_p(e, p))
                e->seen[mt->gnodes[p]->id] = e->stamp;
        l->items[kept++] = mt;
    }
    l->n = kept;
}

/* Backtracking over the anchors (torch.fx match()), without recursion:
 * level a tries the candidates of anchor a in graph order. */
static bool search(engine *e, airc_node ***cand, const size_t *ncand, size_t *pos, size_t *mark,
                   airc_match_list *l)
{
    const airc_matcher *m = e->m;
    size_t na = m->nanch;
    for (size_t a = 0; a < na; a++)
        if (ncand[a] == 0)
            return true; /* torch 1.13 raises KeyError here; no match */
    size_t a = 0;
    pos[0] = 0;
    for (;;) {
        if (pos[a] == ncand[a]) {
            if (a == 0)
                return true;
            a--;
            undo_to(e, mark[a]);
            pos[a]++;
            continue;
        }
        mark[a] = e->ntrail;
        bool ok = match_from(e, m->anch[a], cand[a][pos[a]]);
        if (e->oom)
            return false;
        if (ok && a + 1 < na) {
            pos[++a] = 0;
            continue;
        }
        if (ok && !record(e, l))
            return false;
        undo_to(e, mark[a]);
        pos[a]++;
    }
}

airc_status airc_matcher_match(const airc_matcher *m, const airc_graph *g, airc_match_list **out)
{
    static const char fn[] = "airc_matcher_match";
    if (!m || m->magic != AIRC_MAGIC_MATCHER)
        return airc_fail(AIRC_E_MISUSE, "%s: invalid matcher handle", fn);
    AIRC_TRY(airc_check_graph(g, fn));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: out is NULL", fn);
    airc_context *ctx = m->ctx;
    uint32_t nid = g->next_id ? g->next_id : 1;
    engine e = {.m = m, .g = g, .ctx = ctx};
    airc_match_list *l = list_create(m);
    airc_node ***cand = airc_calloc(ctx, m->nanch, sizeof *cand);
    size_t *ncand = airc_calloc(ctx, 3 * m->nanch, sizeof *ncand); /* + pos, mark */
    e.map = airc_calloc(ctx, m->np, sizeof *e.map);
    e.lit = airc_calloc(ctx, m->np, sizeof *e.lit);
    e.is_ret = airc_calloc(ctx, m->np, sizeof *e.is_ret);
    e.trail = airc_calloc(ctx, m->np, sizeof *e.trail);
    e.rev = airc_calloc(ctx, nid, sizeof *e.rev);
    e.seen = airc_calloc(ctx, nid, sizeof *e.seen);
    bool ok = l && cand && ncand && e.map && e.lit && e.is_ret && e.trail && e.rev && e.seen;
    for (size_t a = 0; ok && a < m->nanch; a++)
        ok = (cand[a] = airc_calloc(ctx, g->nnodes ? g->nnodes : 1, sizeof **cand)) != NULL;
    if (ok) {
        for (size_t r = 0; r < m->nret; r++)
            e.is_ret[m->ret[r]] = true;
        AIRC_FOR_EACH_NODE(g, n) {
            for (size_t a = 0; a < m->nanch; a++)
                if (nodes_equal(m, m->pnodes[m->anch[a]], n))
                    cand[a][ncand[a]++] = n;
        }
        ok = search(&e, cand, ncand, ncand + m->nanch, ncand + 2 * m->nanch, l);
        if (ok && m->opts.remove_overlapping_matches)
            remove_overlaps(&e, l);
    }
    for (size_t a = 0; cand && a < m->nanch; a++)
        airc_free(ctx, cand[a]);
    airc_free(ctx, cand);
    airc_free(ctx, ncand);
    airc_free(ctx, e.map);
    airc_free(ctx, e.lit);
    airc_free(ctx, e.is_ret);
    airc_free(ctx, e.trail);
    airc_free(ctx, e.rev);
    airc_free(ctx, e.seen);
    airc_free(ctx, e.stack);
    airc_free(ctx, e.dfs);
    if (!ok) {
        airc_match_list_destroy(l);
        if (l)
            return airc_fail_oom("matcher state");
        return airc_fail_oom("match list");
    }
    *out = l;
    return AIRC_OK;
}

/* ---- accessors --------------------------------------------------------- */

size_t airc_match_list_size(const airc_match_list *l)
{
    return l && l->magic == AIRC_MAGIC_MATCH_LIST ? l->n : 0;
}

const airc_match *airc_match_list_get(const airc_match_list *l, size_t i)
{
    return i < airc_match_list_size(l) ? l->items[i] : NULL;
}

size_t airc_match_num_anchors(const airc_match *m)
{
    return m ? m->list->nanch : 0;
}

airc_node *airc_match_anchor(const airc_match *m, size_t i)
{
    return i < airc_match_num_anchors(m) ? m->anchors[i] : NULL;
}

size_t airc_match_num_entries(const airc_match *m)
{
    if (!m)
        return 0;
    return m->list->with_output ? m->list->np : m->list->np - 1;
}

airc_status airc_match_entry(const airc_match *m, size_t i, const airc_node **pattern_node,
                             airc_node **graph_node, const airc_value **literal)
{
    if (!m)
        return airc_fail(AIRC_E_MISUSE, "airc_match_entry: match is NULL");
    if (i >= airc_match_num_entries(m))
        return airc_fail(AIRC_E_NOT_FOUND, "airc_match_entry: no entry %zu (the match has %zu)",
                         i, airc_match_num_entries(m));
    /* the output is the pattern's last node: entries are a prefix */
    if (pattern_node)
        *pattern_node = m->list->pnodes[i];
    if (graph_node)
        *graph_node = m->gnodes[i];
    if (literal)
        *literal = m->lits[i];
    return AIRC_OK;
}

static size_t find_pattern(const airc_match *m, const airc_node *pn)
{
    size_t n = airc_match_num_entries(m);
    for (size_t i = 0; i < n; i++)
        if (m->list->pnodes[i] == pn)
            return i;
    return SIZE_MAX;
}

airc_node *airc_match_lookup(const airc_match *m, const airc_node *pattern_node)
{
    size_t i = find_pattern(m, pattern_node);
    return i == SIZE_MAX ? NULL : m->gnodes[i];
}

const airc_value *airc_match_lookup_literal(const airc_match *m, const airc_node *pattern_node)
{
    size_t i = find_pattern(m, pattern_node);
    return i == SIZE_MAX ? NULL : m->lits[i];
}

size_t airc_match_num_placeholders(const airc_match *m)
{
    return m ? m->list->nph : 0;
}

airc_node *airc_match_placeholder(const airc_match *m, size_t i)
{
    return i < airc_match_num_placeholders(m) ? m->gnodes[m->list->ph[i]] : NULL;
}

const airc_value *airc_match_placeholder_literal(const airc_match *m, size_t i)
{
    return i < airc_match_num_placeholders(m) ? m->lits[m->list->ph[i]] : NULL;
}

size_t airc_match_num_returning(const airc_match *m)
{
    return m ? m->list->nret : 0;
}

airc_node *airc_match_returning(const airc_match *m, size_t i)
{
    return i < airc_match_num_returning(m) ? m->ret[i] : NULL;
}
