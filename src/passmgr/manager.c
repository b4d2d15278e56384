/* The pass manager: torch.fx's PassManager with its 1.13 bugs fixed
 * (per-instance pass lists, honoured suppress_check_failures, several
 * checks) and airc's transactions: every pass runs on the caller's graph
 * after a clone was taken, and a failing pass is undone by swapping the
 * clone's content back into the caller's handle. */
#include "passmgr/passmgr.h"

#include <stdio.h>
#include <string.h>

typedef struct pm_pass {
    char *name;
    airc_pass_fn fn;
    void *user_data;
    airc_free_fn free_user_data;
    const airc_builtin_pass *builtin; /* added by name as a built-in */
} pm_pass;

typedef struct pm_check {
    airc_check_fn fn;
    void *user_data;
    airc_free_fn free_user_data;
} pm_check;

typedef struct pm_constraint {
    char *this_name, *that_name;
} pm_constraint;

struct airc_pass_manager {
    uint32_t magic;
    airc_context *ctx;
    pm_pass *passes;
    size_t npasses, passes_cap;
    pm_constraint *cons;
    size_t ncons, cons_cap;
    pm_check *checks;
    size_t nchecks, checks_cap;
    int32_t steps;
    bool checks_after_each;
    bool suppress_check_failures;
    bool solved;
};

static airc_status check_pm(const airc_pass_manager *pm, const char *fn)
{
    if (!pm)
        return airc_fail(AIRC_E_MISUSE, "%s: pass manager is NULL", fn);
    if (pm->magic != AIRC_MAGIC_PASS_MANAGER)
        return airc_fail(AIRC_E_MISUSE, "%s: not a live airc_pass_manager", fn);
    return AIRC_OK;
}

airc_status airc_pass_manager_create(airc_context *ctx, airc_pass_manager **out)
{
    AIRC_TRY(airc_check_context(ctx, "airc_pass_manager_create"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_pass_manager_create: out is NULL");
    airc_pass_manager *pm = airc_calloc(ctx, 1, sizeof *pm);
    if (!pm)
        return airc_fail_oom("pass manager");
    pm->magic = AIRC_MAGIC_PASS_MANAGER;
    pm->ctx = ctx;
    pm->steps = 1;
    pm->solved = true;
    airc_context_retain(ctx);
    *out = pm;
    return AIRC_OK;
}

void airc_pass_manager_destroy(airc_pass_manager *pm)
{
    if (!pm || pm->magic != AIRC_MAGIC_PASS_MANAGER)
        return;
    airc_context *ctx = pm->ctx;
    pm->magic = AIRC_MAGIC_DEAD;
    for (size_t i = 0; i < pm->npasses; i++) {
        if (pm->passes[i].free_user_data)
            pm->passes[i].free_user_data(pm->passes[i].user_data);
        airc_free(ctx, pm->passes[i].name);
    }
    for (size_t i = 0; i < pm->nchecks; i++)
        if (pm->checks[i].free_user_data)
            pm->checks[i].free_user_data(pm->checks[i].user_data);
    for (size_t i = 0; i < pm->ncons; i++) {
        airc_free(ctx, pm->cons[i].this_name);
        airc_free(ctx, pm->cons[i].that_name);
    }
    airc_free(ctx, pm->passes);
    airc_free(ctx, pm->checks);
    airc_free(ctx, pm->cons);
    airc_free(ctx, pm);
    airc_context_release(ctx);
}

static const pm_pass *find_pass(const airc_pass_manager *pm, const char *name)
{
    for (size_t i = 0; i < pm->npasses; i++)
        if (!strcmp(pm->passes[i].name, name))
            return &pm->passes[i];
    return NULL;
}

static airc_status append_pass(airc_pass_manager *pm, const char *name, airc_pass_fn fn,
                               void *ud, airc_free_fn free_ud, const airc_builtin_pass *builtin)
{
    if (find_pass(pm, name))
        return airc_fail(AIRC_E_EXISTS, "pass manager: a pass named '%s' was already added",
                         name);
    char *copy = airc_strdup(pm->ctx, name);
    if (!copy)
        return airc_fail_oom("pass name");
    if (!airc_grow(pm->ctx, (void **)&pm->passes, &pm->passes_cap, pm->npasses + 1,
                   sizeof *pm->passes)) {
        airc_free(pm->ctx, copy);
        return airc_fail_oom("pass list");
    }
    pm->passes[pm->npasses++] = (pm_pass){copy, fn, ud, free_ud, builtin};
    pm->solved = pm->ncons == 0;
    return AIRC_OK;
}

airc_status airc_pass_manager_add_pass(airc_pass_manager *pm, const char *name, airc_pass_fn fn,
                                       void *user_data, airc_free_fn free_user_data)
{
    AIRC_TRY(check_pm(pm, "airc_pass_manager_add_pass"));
    if (!name || !*name)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_pass_manager_add_pass: empty name");
    if (!fn)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_pass_manager_add_pass: pass '%s' has no function", name);
    return append_pass(pm, name, fn, user_data, free_user_data, NULL);
}

airc_status airc_pass_manager_add_named_pass(airc_pass_manager *pm, const char *name)
{
    AIRC_TRY(check_pm(pm, "airc_pass_manager_add_named_pass"));
    if (!name || !*name)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_pass_manager_add_named_pass: empty name");
    const airc_builtin_pass *b = airc_builtin_pass_find(name);
    if (b)
        return append_pass(pm, name, NULL, NULL, NULL, b);
    airc_pass_fn fn;
    void *ud;
    if (airc_context_find_pass(pm->ctx, name, &fn, &ud) != AIRC_OK)
        return airc_fail(AIRC_E_NOT_FOUND,
                         "no pass named '%s': neither registered on the context nor built-in",
                         name);
    /* the context owns ud: no free function here */
    return append_pass(pm, name, fn, ud, NULL, NULL);
}

airc_status airc_pass_manager_add_constraint(airc_pass_manager *pm, const char *this_name,
                                             const char *that_name)
{
    AIRC_TRY(check_pm(pm, "airc_pass_manager_add_constraint"));
    if (!this_name || !that_name || !*this_name || !*that_name)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_pass_manager_add_constraint: empty name");
    char *a = airc_strdup(pm->ctx, this_name), *b = airc_strdup(pm->ctx, that_name);
    if (!a || !b || !airc_grow(pm->ctx, (void **)&pm->cons, &pm->cons_cap, pm->ncons + 1,
                               sizeof *pm->cons)) {
        airc_free(pm->ctx, a);
        airc_free(pm->ctx, b);
        return airc_fail_oom("pass constraint");
    }
    pm->cons[pm->ncons++] = (pm_constraint){a, b};
    pm->solved = false;
    return AIRC_OK;
}

airc_status airc_pass_manager_add_check(airc_pass_manager *pm, airc_check_fn fn, void *user_data,
                                        airc_free_fn free_user_data)
{
    AIRC_TRY(check_pm(pm, "airc_pass_manager_add_check"));
    if (!fn)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_pass_manager_add_check: fn is NULL");
    if (!airc_grow(pm->ctx, (void **)&pm->checks, &pm->checks_cap, pm->nchecks + 1,
                   sizeof *pm->checks))
        return airc_fail_oom("check list");
    pm->checks[pm->nchecks++] = (pm_check){fn, user_data, free_user_data};
    return AIRC_OK;
}

airc_status airc_pass_manager_set_steps(airc_pass_manager *pm, int32_t steps)
{
    AIRC_TRY(check_pm(pm, "airc_pass_manager_set_steps"));
    if (steps < 1)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_pass_manager_set_steps: steps %d < 1",
                         (int)steps);
    pm->steps = steps;
    return AIRC_OK;
}

airc_status airc_pass_manager_set_run_checks_after_each_pass(airc_pass_manager *pm, int32_t on)
{
    AIRC_TRY(check_pm(pm, "airc_pass_manager_set_run_checks_after_each_pass"));
    pm->checks_after_each = on != 0;
    return AIRC_OK;
}

airc_status airc_pass_manager_set_suppress_check_failures(airc_pass_manager *pm, int32_t on)
{
    AIRC_TRY(check_pm(pm, "airc_pass_manager_set_suppress_check_failures"));
    pm->suppress_check_failures = on != 0;
    return AIRC_OK;
}

size_t airc_pass_manager_num_passes(const airc_pass_manager *pm)
{
    return pm && pm->magic == AIRC_MAGIC_PASS_MANAGER ? pm->npasses : 0;
}

const char *airc_pass_manager_pass_name(const airc_pass_manager *pm, size_t i)
{
    if (!pm || pm->magic != AIRC_MAGIC_PASS_MANAGER || i >= pm->npasses)
        return NULL;
    return pm->passes[i].name;
}

/* ---- constraints: torch.fx's _topological_sort_passes ------------------ */

typedef struct sort_scratch {
    size_t *ethis, *ethat; /* constraint edges this -> that, as indices */
    size_t *start, *adj;   /* CSR adjacency of `this` nodes */
    size_t *indeg, *queue, *order;
} sort_scratch;

static size_t index_of(const airc_pass_manager *pm, const char *name)
{
    const pm_pass *p = find_pass(pm, name);
    return p ? (size_t)(p - pm->passes) : SIZE_MAX;
}

static airc_status cycle_error(const airc_pass_manager *pm, const size_t *indeg)
{
    airc_strbuf sb;
    airc_sb_init(&sb, pm->ctx);
    for (size_t i = 0; i < pm->npasses; i++)
        if (indeg[i])
            airc_sb_printf(&sb, "%s'%s'", sb.len ? ", " : "", pm->passes[i].name);
    airc_status st = airc_fail(AIRC_E_INVALID_ARGUMENT,
                               "pass constraints: circular dependency among the passes [%s]",
                               airc_sb_cstr(&sb));
    airc_sb_free(&sb);
    return st;
}

/* The adjacency of torch.fx's sort lists, for each `this`, its `that`s in
 * pass-list order (the outer loop runs over `that`), then constraint order;
 * Kahn's FIFO queue starts with in-degree-0 passes in list order. The
 * order it produces is therefore reproduced exactly. O(P + C). */
static airc_status topo_sort(airc_pass_manager *pm, sort_scratch *s)
{
    size_t np = pm->npasses, ne = 0;
    for (size_t c = 0; c < pm->ncons; c++) {
        size_t a = index_of(pm, pm->cons[c].this_name);
        size_t b = index_of(pm, pm->cons[c].that_name);
        if (a == SIZE_MAX || b == SIZE_MAX)
            return airc_fail(AIRC_E_NOT_FOUND,
                             "pass constraint '%s' before '%s': no pass named '%s' was added",
                             pm->cons[c].this_name, pm->cons[c].that_name,
                             a == SIZE_MAX ? pm->cons[c].this_name : pm->cons[c].that_name);
        if (a == b) /* torch.fx skips a == b */
            continue;
        s->ethis[ne] = a;
        s->ethat[ne] = b;
        ne++;
    }
    /* bucket the edges by `that` (stable), then count them per `this` */
    memset(s->start, 0, (np + 1) * sizeof *s->start);
    for (size_t e = 0; e < ne; e++)
        s->start[s->ethat[e] + 1]++;
    for (size_t i = 0; i < np; i++)
        s->start[i + 1] += s->start[i];
    for (size_t e = 0; e < ne; e++)
        s->queue[s->start[s->ethat[e]]++] = e; /* queue is scratch here */
    memset(s->start, 0, (np + 1) * sizeof *s->start);
    memset(s->indeg, 0, np * sizeof *s->indeg);
    for (size_t e = 0; e < ne; e++) {
        s->start[s->ethis[e] + 1]++;
        s->indeg[s->ethat[e]]++;
    }
    for (size_t i = 0; i < np; i++)
        s->start[i + 1] += s->start[i];
    size_t *fill = s->order; /* scratch: next free slot per `this` */
    memcpy(fill, s->start, np * sizeof *fill);
    for (size_t k = 0; k < ne; k++) {
        size_t e = s->queue[k];
        s->adj[fill[s->ethis[e]]++] = s->ethat[e];
    }
    size_t head = 0, tail = 0, nout = 0;
    for (size_t i = 0; i < np; i++)
        if (!s->indeg[i])
            s->queue[tail++] = i;
    while (head < tail) {
        size_t p = s->queue[head++];
        s->order[nout++] = p; /* fill[] is no longer needed past this point */
        for (size_t k = s->start[p]; k < s->start[p + 1]; k++)
            if (--s->indeg[s->adj[k]] == 0)
                s->queue[tail++] = s->adj[k];
    }
    if (nout != np)
        return cycle_error(pm, s->indeg);
    return AIRC_OK;
}

airc_status airc_pass_manager_solve(airc_pass_manager *pm)
{
    AIRC_TRY(check_pm(pm, "airc_pass_manager_solve"));
    if (pm->solved || pm->ncons == 0 || pm->npasses == 0) {
        pm->solved = true;
        return AIRC_OK;
    }
    size_t np = pm->npasses, nc = pm->ncons;
    sort_scratch s;
    s.ethis = airc_calloc(pm->ctx, nc, sizeof *s.ethis);
    s.ethat = airc_calloc(pm->ctx, nc, sizeof *s.ethat);
    s.adj = airc_calloc(pm->ctx, nc, sizeof *s.adj);
    s.start = airc_calloc(pm->ctx, np + 1, sizeof *s.start);
    s.indeg = airc_calloc(pm->ctx, np, sizeof *s.indeg);
    s.queue = airc_calloc(pm->ctx, np > nc ? np : nc, sizeof *s.queue);
    s.order = airc_calloc(pm->ctx, np, sizeof *s.order);
    pm_pass *sorted = airc_calloc(pm->ctx, np, sizeof *sorted);
    airc_status st;
    if (!s.ethis || !s.ethat || !s.adj || !s.start || !s.indeg || !s.queue || !s.order || !sorted)
        st = airc_fail_oom("pass constraint solver");
    else if ((st = topo_sort(pm, &s)) == AIRC_OK) {
        for (size_t i = 0; i < np; i++)
            sorted[i] = pm->passes[s.order[i]];
        memcpy(pm->passes, sorted, np * sizeof *sorted);
        pm->solved = true;
    }
    airc_free(pm->ctx, sorted);
    airc_free(pm->ctx, s.ethis);
    airc_free(pm->ctx, s.ethat);
    airc_free(pm->ctx, s.adj);
    airc_free(pm->ctx, s.start);
    airc_free(pm->ctx, s.indeg);
    airc_free(pm->ctx, s.queue);
    airc_free(pm->ctx, s.order);
    return st;
}

/* ---- running ------------------------------------------------------------ */

/* A copy of the last error (airc_fail must not format from its own
 * buffer), or a note when the callback set none. */
typedef struct msg_copy {
    char text[1024];
} msg_copy;

static msg_copy error_text(void)
{
    msg_copy m;
    const char *e = airc_last_error();
    snprintf(m.text, sizeof m.text, "%s",
             *e ? e : "(the pass returned a failure without a message)");
    return m;
}

/* Puts the graph back as it was: g receives the backup's content, the
 * failed content dies with the backup handle. The insertion point is not
 * part of a clone, so it is carried over by anchor name. */
static void restore(airc_graph *g, airc_graph *backup, int32_t where, const char *anchor)
{
    airc_graph_swap(g, backup);
    airc_graph_destroy(backup);
    airc_node *a = anchor ? airc_graph_find_node(g, anchor) : NULL;
    if ((where == AIRC_INSERT_BEFORE || where == AIRC_INSERT_AFTER) && !a)
        where = AIRC_INSERT_END;
    g->ins_where = where;
    g->ins_anchor = a;
}

static airc_status run_checks(airc_pass_manager *pm, const airc_graph *g, const char *after)
{
    for (size_t i = 0; i < pm->nchecks; i++) {
        airc_clear_error();
        airc_status st = pm->checks[i].fn(g, pm->checks[i].user_data);
        if (st == AIRC_OK)
            continue;
        if (pm->suppress_check_failures) {
            airc_log(pm->ctx, AIRC_LOG_WARN, "check %zu failed %s%s%s (suppressed): %s", i + 1,
                     after ? "after pass '" : "before the first pass", after ? after : "",
                     after ? "'" : "", error_text().text);
            continue;
        }
        if (st == AIRC_E_OUT_OF_MEMORY)
            return airc_fail_prefix("check %zu", i + 1);
        if (after)
            return airc_fail(AIRC_E_PASS, "check failed after pass '%s': %s", after,
                             error_text().text);
        return airc_fail(AIRC_E_PASS, "check failed before the first pass: %s", error_text().text);
    }
    return AIRC_OK;
}

static airc_status run_one(airc_pass_manager *pm, const pm_pass *p, airc_graph *g,
                           const airc_example_inputs *inputs, const airc_config *config,
                           uint64_t *fp, bool *changed)
{
    airc_graph *backup;
    airc_status st = airc_graph_clone(g, &backup);
    if (st != AIRC_OK)
        return airc_fail_prefix("pass '%s': saving the graph before it", p->name);
    int32_t where = g->ins_where;
    /* the name must live in the backup's arena: that content survives */
    const airc_node *in_backup =
        g->ins_anchor ? airc_graph_find_node(backup, g->ins_anchor->name) : NULL;
    const char *anchor = in_backup ? in_backup->name : NULL;
    double t0 = airc_now_ms();
    airc_clear_error();
    if (p->builtin) {
        int32_t ignored;
        st = p->builtin->fn(g, inputs, &ignored);
    } else {
        st = p->fn(g, inputs, config, p->user_data);
    }
    double ms = airc_now_ms() - t0;
    if (st != AIRC_OK) {
        restore(g, backup, where, anchor);
        return airc_fail(st == AIRC_E_OUT_OF_MEMORY ? st : AIRC_E_PASS, "pass '%s' failed: %s",
                         p->name, error_text().text);
    }
    if (g->magic != AIRC_MAGIC_GRAPH) { /* not recoverable: the pass freed it */
        airc_graph_destroy(backup);
        return airc_fail(AIRC_E_PASS, "pass '%s' destroyed the graph it was given", p->name);
    }
    st = airc_graph_lint(g);
    if (st != AIRC_OK) {
        restore(g, backup, where, anchor);
        if (st == AIRC_E_INVALID_GRAPH)
            return airc_fail(AIRC_E_PASS, "pass '%s' left an invalid graph: %s", p->name,
                             error_text().text);
        return airc_fail_prefix("pass '%s': checking the graph after it", p->name);
    }
    if (pm->checks_after_each && (st = run_checks(pm, g, p->name)) != AIRC_OK) {
        restore(g, backup, where, anchor);
        return st;
    }
    uint64_t now = airc_graph_fingerprint(g);
    *changed = now != *fp;
    *fp = now;
    if (*changed)
        airc_log_pass_change(g, p->name, ms);
    airc_graph_destroy(backup);
    return AIRC_OK;
}

airc_status airc_pass_manager_run(airc_pass_manager *pm, airc_graph *g,
                                  const airc_example_inputs *inputs, const airc_config *config,
                                  int32_t *changed)
{
    AIRC_TRY(check_pm(pm, "airc_pass_manager_run"));
    AIRC_TRY(airc_check_graph(g, "airc_pass_manager_run"));
    if (g->ctx != pm->ctx)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_pass_manager_run: the graph belongs to another context");
    if (inputs && inputs->magic != AIRC_MAGIC_INPUTS)
        return airc_fail(AIRC_E_MISUSE, "airc_pass_manager_run: not a live airc_example_inputs");
    if (!pm->solved)
        AIRC_TRY(airc_pass_manager_solve(pm));
    /* a pass is blamed only for what it did: the graph must be valid first */
    airc_status st = airc_graph_lint(g);
    if (st != AIRC_OK)
        return st == AIRC_E_INVALID_GRAPH ? airc_fail_prefix("the graph is invalid before any pass")
                                          : st;
    AIRC_TRY(run_checks(pm, g, NULL));
    uint64_t fp = airc_graph_fingerprint(g);
    bool overall = false;
    for (int32_t step = 0; step < pm->steps; step++) {
        bool modified = false;
        for (size_t i = 0; i < pm->npasses; i++) {
            bool ch = false;
            AIRC_TRY(run_one(pm, &pm->passes[i], g, inputs, config, &fp, &ch));
            modified |= ch;
        }
        overall |= modified;
        if (!modified)
            break;
    }
    if (changed)
        *changed = overall;
    return AIRC_OK;
}
