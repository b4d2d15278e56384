/* Subgraph rewriter: torch.fx replace_pattern / replace_pattern_with_filters
 * (see transform.h), transactional.
 *
 * Matching and filtering change nothing. The rewrite then runs in two
 * steps: (1) for each match, copy the replacement and redirect the uses of
 * the returning nodes (torch.fx order, one match after the other); (2) erase
 * every matched node. Only step 1 can fail, and every change it makes is
 * logged first — a created node, or a user about to be relinked by
 * replace_all_uses_with with its old args and positions — so that a
 * failure undoes the log backwards without allocating (the created nodes
 * are res->repl: a relink entry notes how many there were, which places the
 * creations among the relinks). Step 2 is checked
 * before it starts and cannot fail.
 *
 * Deferring the erasures does not change the result: nodes that torch.fx
 * would already have erased ("dead") are skipped when looking for the first
 * user, and matched nodes are never relinked (they die anyway), so the
 * surviving nodes see exactly torch.fx's sequence of edits. */
#include "transform/transform_internal.h"

#include <stdio.h>
#include <string.h>

struct airc_replaced_patterns {
    uint32_t magic;
    airc_context *ctx;
    airc_match_list *list; /* the replaced matches only */
    airc_node **repl;      /* created nodes, match after match */
    size_t nrepl, repl_cap;
    size_t *start; /* list->n + 1 offsets into repl */
};

/* ---- undo log ---------------------------------------------------------- */

/* A relink (one user's args rewritten by replace_all_uses_with) changes the
 * user's args and inputs, removes it from each old input's users and
 * appends it to each new input's users (torch.fx order). Undone backwards,
 * every later change being undone first: pop it from the end of each new
 * input's users, re-insert it at its old position in each old input's.
 * What a relink saves is one heap block (a rewrite of a big graph logs
 * hundreds of thousands of entries: they stay small). */
typedef struct relink {
    const airc_value **args;
    const char **kwn;
    const airc_value **kwv;
    uint32_t nargs, nkw;
    size_t ninputs;
    airc_node *inputs[]; /* old inputs, then ninputs size_t: pos */
} relink;

static size_t *relink_pos(relink *r)
{
    return (size_t *)(void *)(r->inputs + r->ninputs);
}

typedef struct undo {
    airc_node *node; /* the relinked user */
    relink *rel;     /* heap */
    size_t nrepl;    /* nodes created (res->nrepl) before the relink */
} undo;

enum { LIVE = 0, DOOMED = 1, DEAD = 2 };

typedef struct rewrite {
    airc_graph *g;
    airc_context *ctx;
    airc_replaced_patterns *res; /* res->repl: the nodes created, in order */
    uint32_t nid;                /* g->next_id before the rewrite: ids of old nodes */
    uint8_t *state;              /* old node id -> LIVE, DOOMED (matched, later erased), DEAD */
    airc_node **changed;         /* old returning node id -> what replaced it */
    airc_node **dead_list;
    size_t ndead;
    uint32_t first_new_id; /* first id created for the current match */
    undo *log;
    size_t nlog, log_cap;
} rewrite;

static bool log_reserve(rewrite *rw, size_t extra)
{
    return airc_grow(rw->ctx, (void **)&rw->log, &rw->log_cap, rw->nlog + extra, sizeof *rw->log);
}

static bool save_relink(rewrite *rw, airc_node *u)
{
    if (!log_reserve(rw, 1))
        return false;
    size_t n = u->ninputs;
    relink *r = airc_malloc(rw->ctx, sizeof *r + n * (sizeof(airc_node *) + sizeof(size_t)));
    if (!r)
        return false;
    r->args = u->args;
    r->kwn = u->kw_names;
    r->kwv = u->kw_values;
    r->nargs = u->nargs;
    r->nkw = u->nkw;
    r->ninputs = n;
    size_t *pos = relink_pos(r);
    for (size_t k = 0; k < n; k++) {
        airc_node *x = r->inputs[k] = u->inputs[k];
        pos[k] = 0;
        while (pos[k] < x->nusers && x->users[pos[k]] != u)
            pos[k]++;
    }
    rw->log[rw->nlog++] = (undo){.node = u, .rel = r, .nrepl = rw->res->nrepl};
    return true;
}

static void undo_relink(const undo *e)
{
    airc_node *u = e->node;
    relink *r = e->rel;
    const size_t *pos = relink_pos(r);
    for (size_t k = 0; k < u->ninputs; k++)
        u->inputs[k]->nusers--; /* u is the last user of each new input */
    /* users arrays never shrink their capacity: u's old slot is still there */
    for (size_t k = 0; k < r->ninputs; k++) {
        airc_node *x = r->inputs[k];
        memmove(&x->users[pos[k] + 1], &x->users[pos[k]], (x->nusers - pos[k]) * sizeof *x->users);
        x->users[pos[k]] = u;
        x->nusers++;
        u->inputs[k] = x; /* inputs only shrink in a relink: within capacity */
    }
    u->ninputs = r->ninputs;
    u->args = r->args;
    u->nargs = r->nargs;
    u->kw_names = r->kwn;
    u->kw_values = r->kwv;
    u->nkw = r->nkw;
}

/* Erases the nodes created after the first `keep`, latest first. */
static void erase_created(rewrite *rw, size_t keep)
{
    airc_replaced_patterns *res = rw->res;
    while (res->nrepl > keep)
        airc_graph_erase_node(rw->g, res->repl[--res->nrepl]);
}

/* Restores the log and the creations backwards, in the order they were
 * made, without allocating. A created node has no users left when its
 * turn comes (later edits were undone first). */
static void rollback(rewrite *rw)
{
    while (rw->nlog) {
        undo *e = &rw->log[--rw->nlog];
        erase_created(rw, e->nrepl);
        undo_relink(e);
        airc_free(rw->ctx, e->rel);
    }
    erase_created(rw, 0);
}

static void log_free(rewrite *rw)
{
    for (size_t i = 0; i < rw->nlog; i++)
        airc_free(rw->ctx, rw->log[i].rel);
    airc_free(rw->ctx, rw->log);
}

/* ---- redirecting uses -------------------------------------------------- */

/* Users torch.fx would see when looking for the first user: not yet
 * erased. */
static bool visible(const rewrite *rw, const airc_node *u)
{
    return u->id >= rw->nid || rw->state[u->id] != DEAD;
}

/* Users whose uses are redirected: those that survive the rewrite, except
 * this match's copies (they read a returning node that is also a
 * placeholder's binding on purpose). Matched nodes keep their old args:
 * they are erased anyway, and rewriting them would only cost time. */
static bool redirected(const rewrite *rw, const airc_node *u)
{
    if (u->id < rw->nid)
        return rw->state[u->id] == LIVE;
    return u->id < rw->first_new_id;
}

static int32_t user_filter(void *user_data, const airc_node *u)
{
    return redirected(user_data, u);
}

static void drop_log(rewrite *rw, size_t mark)
{
    while (rw->nlog > mark)
        airc_free(rw->ctx, rw->log[--rw->nlog].rel);
}

static airc_status redirect(rewrite *rw, airc_node *gn, airc_node *cn)
{
    size_t mark = rw->nlog;
    for (size_t i = 0; i < gn->nusers; i++) {
        if (redirected(rw, gn->users[i]) && !save_relink(rw, gn->users[i])) {
            drop_log(rw, mark);
            return airc_fail_oom("rewrite undo log");
        }
    }
    /* all or nothing: on failure nothing was relinked */
    airc_status st = airc_node_replace_all_uses_with(gn, cn, user_filter, rw, NULL);
    if (st != AIRC_OK)
        drop_log(rw, mark);
    return st;
}

/* ---- copying the replacement ------------------------------------------- */

typedef struct binding {
    airc_node *node;
    const airc_value *lit;
} binding;

/* A replacement value in g, its node refs replaced by their bindings
 * (a literal binding replaces the ref itself). Depth <= 64: bounded. */
static airc_status map_value(rewrite *rw, const airc_value *v, const binding *bind,
                             const airc_value **out)
{
    airc_graph *g = rw->g;
    if (v->kind == AIRC_VALUE_NODE) {
        const binding *b = &bind[v->u.node->id];
        if (b->lit) {
            *out = b->lit;
            return AIRC_OK;
        }
        return airc_value_node(g, b->node, out);
    }
    if (v->kind != AIRC_VALUE_LIST && v->kind != AIRC_VALUE_TUPLE) {
        if (!(*out = airc_value_copy(&g->arena, g, v, NULL, NULL)))
            return airc_fail_oom("replacement value");
        return AIRC_OK;
    }
    const airc_value **items = airc_malloc(rw->ctx, (v->len ? v->len : 1) * sizeof *items);
    if (!items)
        return airc_fail_oom("replacement value");
    airc_status st = AIRC_OK;
    for (uint32_t i = 0; i < v->len && st == AIRC_OK; i++)
        st = map_value(rw, v->u.items[i], bind, &items[i]);
    if (st == AIRC_OK)
        st = v->kind == AIRC_VALUE_LIST ? airc_value_list(g, items, v->len, out)
                                        : airc_value_tuple(g, items, v->len, out);
    airc_free(rw->ctx, items);
    return st;
}

static airc_status copy_node(rewrite *rw, const airc_node *rn, binding *bind,
                             airc_replaced_patterns *res)
{
    size_t n = (size_t)rn->nargs + rn->nkw;
    const airc_value **vals = airc_malloc(rw->ctx, (n ? n : 1) * sizeof *vals);
    if (!vals)
        return airc_fail_oom("replacement arguments");
    airc_status st = AIRC_OK;
    for (uint32_t i = 0; i < rn->nargs && st == AIRC_OK; i++)
        st = map_value(rw, rn->args[i], bind, &vals[i]);
    for (uint32_t i = 0; i < rn->nkw && st == AIRC_OK; i++)
        st = map_value(rw, rn->kw_values[i], bind, &vals[rn->nargs + i]);
    airc_node *c = NULL;
    if (st == AIRC_OK &&
        !airc_grow(rw->ctx, (void **)&res->repl, &res->repl_cap, res->nrepl + 1, sizeof *res->repl))
        st = airc_fail_oom("rewrite undo log");
    if (st == AIRC_OK)
        st = airc_node_create(rw->g, rn->kind, rn->target, rn->op, vals, rn->nargs, rn->kw_names,
                              vals + rn->nargs, rn->nkw, rn->name, 0, &c);
    airc_free(rw->ctx, vals);
    if (st != AIRC_OK)
        return airc_fail_prefix("replace_pattern: copying replacement node '%s'", rn->name);
    res->repl[res->nrepl++] = c;
    bind[rn->id] = (binding){c, NULL};
    return AIRC_OK;
}

/* Where torch.fx inserts the copy: before the first live user of any
 * returning node; with none, after the match's last node. */
static airc_status insert_point(rewrite *rw, const airc_match *m)
{
    airc_node *first = NULL, *last = NULL;
    for (size_t r = 0; r < m->list->nret; r++) {
        const airc_node *gn = m->ret[r];
        for (size_t k = 0; k < gn->nusers; k++) {
            airc_node *u = gn->users[k];
            if (visible(rw, u) && (!first || u->order < first->order))
                first = u;
        }
    }
    if (first)
        return airc_graph_set_insert_point(rw->g, AIRC_INSERT_BEFORE, first);
    for (size_t p = 0; p < m->list->np; p++)
        if (m->gnodes[p] && (!last || m->gnodes[p]->order > last->order))
            last = m->gnodes[p];
    return airc_graph_set_insert_point(rw->g, AIRC_INSERT_AFTER, last);
}

static airc_status apply_match(rewrite *rw, const airc_match *m, const airc_graph *repl,
                               binding *bind, airc_replaced_patterns *res)
{
    const airc_match_list *l = m->list;
    for (size_t r = 0; r < l->nret; r++)
        if (!m->ret[r])
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "replace_pattern: a returning placeholder of the pattern bound a "
                             "literal: nothing to replace");
    AIRC_TRY(insert_point(rw, m));
    rw->first_new_id = rw->g->next_id;
    size_t ph = 0;
    const airc_node *output = repl->root.prev;
    AIRC_FOR_EACH_NODE(repl, rn) {
        if (rn->kind == AIRC_NODE_PLACEHOLDER) {
            /* positional binding; a node an earlier match replaced stands
             * for its replacement (torch.fx match_changed_node) */
            airc_node *gn = m->gnodes[l->ph[ph]];
            const airc_value *lit = m->lits[l->ph[ph]];
            ph++;
            if (gn && gn->id < rw->nid && rw->changed[gn->id])
                gn = rw->changed[gn->id];
            bind[rn->id] = (binding){gn, lit};
        } else if (rn != output) {
            AIRC_TRY(copy_node(rw, rn, bind, res));
        }
    }
    const airc_value *ov = output->args[0];
    bool seq = ov->kind == AIRC_VALUE_LIST || ov->kind == AIRC_VALUE_TUPLE;
    for (size_t r = 0; r < l->nret; r++) {
        const binding *b = &bind[(seq ? ov->u.items[r] : ov)->u.node->id];
        if (!b->node)
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "replace_pattern: replacement output %zu is a placeholder bound to "
                             "a literal; '%s' cannot be replaced by a literal",
                             r, m->ret[r]->name);
        if (b->node != m->ret[r]) {
            AIRC_TRY(redirect(rw, m->ret[r], b->node));
            if (m->ret[r]->id < rw->nid)
                rw->changed[m->ret[r]->id] = b->node;
        }
    }
    for (size_t p = 0; p < l->np; p++) {
        airc_node *gn = m->gnodes[p];
        airc_node_kind k = l->pnodes[p]->kind;
        if (gn && k != AIRC_NODE_PLACEHOLDER && k != AIRC_NODE_OUTPUT &&
            rw->state[gn->id] != DEAD) {
            rw->state[gn->id] = DEAD;
            rw->dead_list[rw->ndead++] = gn;
        }
    }
    return AIRC_OK;
}

/* Step 2: the matched nodes the rewrite left without users go, in one
 * linear batch (one at a time is quadratic when they share an input). It
 * refuses before changing anything if a user was left behind, and then the
 * caller rolls the rewrite back. */
static airc_status erase_dead(rewrite *rw)
{
    if (airc_graph_erase_nodes(rw->g, rw->dead_list, rw->ndead) != AIRC_OK)
        return airc_fail_prefix("replace_pattern: erasing the matched nodes");
    return AIRC_OK;
}

/* ---- entry points ------------------------------------------------------ */

void airc_replaced_patterns_destroy(airc_replaced_patterns *r)
{
    if (!r || r->magic != AIRC_MAGIC_REPLACED)
        return;
    airc_context *ctx = r->ctx;
    airc_match_list_destroy(r->list);
    airc_free(ctx, r->repl);
    airc_free(ctx, r->start);
    r->magic = AIRC_MAGIC_DEAD;
    airc_free(ctx, r);
    airc_context_release(ctx);
}

static airc_status check_replacement(const airc_graph *repl, const airc_matcher *m,
                                     const char *fn)
{
    size_t nph = 0;
    AIRC_FOR_EACH_NODE(repl, n) nph += n->kind == AIRC_NODE_PLACEHOLDER;
    const airc_node *out = repl->root.prev;
    if (repl->nnodes == 0 || out->kind != AIRC_NODE_OUTPUT || out->nargs != 1)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "%s: the replacement has no output node as its last node", fn);
    if (nph != m->nph)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "%s: the replacement has %zu placeholders, the pattern %zu", fn, nph,
                         m->nph);
    const airc_value *ov = out->args[0];
    bool seq = ov->kind == AIRC_VALUE_LIST || ov->kind == AIRC_VALUE_TUPLE;
    size_t nout = seq ? ov->len : 1;
    if (nout != m->nret)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "%s: the replacement returns %zu value(s), the pattern %zu", fn, nout,
                         m->nret);
    for (size_t i = 0; i < nout; i++)
        if ((seq ? ov->u.items[i] : ov)->kind != AIRC_VALUE_NODE)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "%s: replacement output %zu is not a node", fn, i);
    return AIRC_OK;
}

/* Runs the filters; keeps the accepted matches (in order) in l. */
static airc_status run_filters(airc_match_list *l, const airc_graph *g, const airc_graph *pattern,
                               const airc_match_filter *filters, size_t nf)
{
    size_t kept = 0;
    for (size_t i = 0; i < l->n; i++) {
        bool accept = true;
        for (size_t f = 0; f < nf && accept; f++) {
            int32_t r = filters[f].fn(filters[f].user_data, l->items[i], g, pattern);
            if (r < 0) {
                /* keep the list consistent for its destroy */
                for (size_t j = i; j < l->n; j++)
                    l->items[kept++] = l->items[j];
                l->n = kept;
                char why[512];
                snprintf(why, sizeof why, "%s", *airc_last_error() ? airc_last_error() : "no message");
                return airc_fail(AIRC_E_PASS,
                                 "replace_pattern: match filter %zu failed (%s); the graph is "
                                 "unchanged",
                                 f, why);
            }
            accept = r != 0;
        }
        if (accept)
            l->items[kept++] = l->items[i];
        else
            airc_free(l->ctx, l->items[i]);
    }
    l->n = kept;
    return AIRC_OK;
}

static airc_status rewrite_all(airc_graph *g, const airc_graph *repl, airc_match_list *l,
                               airc_replaced_patterns *res)
{
    airc_context *ctx = g->ctx;
    rewrite rw = {.g = g, .ctx = ctx, .res = res, .nid = g->next_id ? g->next_id : 1};
    binding *bind = airc_calloc(ctx, repl->next_id ? repl->next_id : 1, sizeof *bind);
    rw.state = airc_calloc(ctx, rw.nid, sizeof *rw.state);
    rw.changed = airc_calloc(ctx, rw.nid, sizeof *rw.changed);
    rw.dead_list = airc_calloc(ctx, g->nnodes ? g->nnodes : 1, sizeof *rw.dead_list);
    res->start = airc_calloc(ctx, l->n + 1, sizeof *res->start);
    int32_t where;
    airc_node *anchor;
    airc_graph_get_insert_point(g, &where, &anchor);
    airc_status st = AIRC_OK;
    if (!bind || !rw.state || !rw.changed || !rw.dead_list || !res->start)
        st = airc_fail_oom("rewrite state");
    for (size_t i = 0; st == AIRC_OK && i < l->n; i++) {
        const airc_match *m = l->items[i];
        for (size_t p = 0; p < l->np; p++) {
            airc_node_kind k = l->pnodes[p]->kind;
            if (m->gnodes[p] && k != AIRC_NODE_PLACEHOLDER && k != AIRC_NODE_OUTPUT)
                rw.state[m->gnodes[p]->id] = DOOMED;
        }
    }
    for (size_t i = 0; st == AIRC_OK && i < l->n; i++) {
        res->start[i] = res->nrepl;
        st = apply_match(&rw, l->items[i], repl, bind, res);
    }
    if (st == AIRC_OK) {
        res->start[l->n] = res->nrepl;
        airc_graph_set_insert_point(g, where, anchor);
        st = erase_dead(&rw);
    }
    if (st != AIRC_OK) {
        rollback(&rw);
        airc_graph_set_insert_point(g, where, anchor);
    }
    log_free(&rw);
    airc_free(ctx, bind);
    airc_free(ctx, rw.state);
    airc_free(ctx, rw.changed);
    airc_free(ctx, rw.dead_list);
    return st;
}

airc_status airc_replace_pattern_with_filters(airc_graph *g, const airc_graph *pattern,
                                              const airc_graph *replacement,
                                              const airc_match_filter *filters, size_t nfilters,
                                              int32_t ignore_literals,
                                              airc_replaced_patterns **out)
{
    static const char fn[] = "airc_replace_pattern";
    AIRC_TRY(airc_check_graph(g, fn));
    AIRC_TRY(airc_check_graph(pattern, fn));
    AIRC_TRY(airc_check_graph(replacement, fn));
    if (g == pattern || g == replacement)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "%s: the graph cannot be its own pattern or replacement", fn);
    if (pattern->ctx != g->ctx || replacement->ctx != g->ctx)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "%s: pattern and replacement must belong to the graph's context", fn);
    if (nfilters && !filters)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: filters is NULL", fn);
    for (size_t f = 0; f < nfilters; f++)
        if (!filters[f].fn)
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: filter %zu has no function", fn, f);
    airc_matcher_options opts;
    airc_matcher_options_init(&opts);
    opts.ignore_literals = ignore_literals != 0;
    airc_matcher *m;
    AIRC_TRY(airc_matcher_create(pattern, &opts, &m));
    airc_status st = check_replacement(replacement, m, fn);
    airc_match_list *l = NULL;
    if (st == AIRC_OK)
        st = airc_matcher_match(m, g, &l);
    airc_matcher_destroy(m);
    if (st == AIRC_OK)
        st = run_filters(l, g, pattern, filters, nfilters);
    airc_replaced_patterns *res = NULL;
    if (st == AIRC_OK && !(res = airc_calloc(g->ctx, 1, sizeof *res)))
        st = airc_fail_oom("replaced patterns");
    if (st == AIRC_OK) {
        res->ctx = g->ctx;
        res->list = l;
        l = NULL;
        st = rewrite_all(g, replacement, res->list, res);
    }
    airc_match_list_destroy(l);
    if (st != AIRC_OK) {
        if (res) {
            airc_match_list_destroy(res->list);
            airc_free(g->ctx, res->repl);
            airc_free(g->ctx, res->start);
            airc_free(g->ctx, res);
        }
        return st;
    }
    airc_context_retain(g->ctx);
    res->magic = AIRC_MAGIC_REPLACED;
    if (out)
        *out = res;
    else
        airc_replaced_patterns_destroy(res);
    return AIRC_OK;
}

airc_status airc_replace_pattern(airc_graph *g, const airc_graph *pattern,
                                 const airc_graph *replacement, airc_replaced_patterns **out)
{
    return airc_replace_pattern_with_filters(g, pattern, replacement, NULL, 0, 0, out);
}

size_t airc_replaced_patterns_size(const airc_replaced_patterns *r)
{
    return r && r->magic == AIRC_MAGIC_REPLACED ? r->list->n : 0;
}

const airc_match *airc_replaced_patterns_match(const airc_replaced_patterns *r, size_t i)
{
    return i < airc_replaced_patterns_size(r) ? r->list->items[i] : NULL;
}

airc_node *airc_replaced_patterns_anchor(const airc_replaced_patterns *r, size_t i)
{
    return airc_match_anchor(airc_replaced_patterns_match(r, i), 0);
}

size_t airc_replaced_patterns_num_replacements(const airc_replaced_patterns *r, size_t i)
{
    return i < airc_replaced_patterns_size(r) ? r->start[i + 1] - r->start[i] : 0;
}

airc_node *airc_replaced_patterns_replacement(const airc_replaced_patterns *r, size_t i, size_t j)
{
    return j < airc_replaced_patterns_num_replacements(r, i) ? r->repl[r->start[i] + j] : NULL;
}
