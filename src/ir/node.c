/* Node creation, erasure and every edit of the use-def graph.
 *
 * Invariants kept by this file (lint re-checks them):
 * - the node list is in topological order: every input of a node comes
 *   before it; edits that would break that are refused;
 * - order labels strictly increase along the list (O(1) order queries);
 * - n->inputs is the distinct node refs of n's args then kwargs, in first-
 *   occurrence order, and x->users holds n exactly when x is in n->inputs;
 * - every edit validates and reserves memory first, then commits without
 *   any step that can fail, so a failed edit leaves the graph unchanged. */
#include "ir/ir.h"
#include "ops/ops.h"

#include <string.h>

#define ORDER_STEP (UINT64_C(1) << 32)

/* ---- order labels ------------------------------------------------------ */

static uint64_t order_after(const airc_node *n)
{
    /* the label bound after n: the root sentinel stands for +infinity */
    return n == &n->graph->root ? UINT64_MAX : n->order;
}

static void relabel(airc_graph *g)
{
    uint64_t o = ORDER_STEP;
    AIRC_FOR_EACH_NODE(g, n) {
        n->order = o;
        o += ORDER_STEP;
    }
}

/* No label fits between n->prev and n->next: respace a window of nodes
 * starting at n, grown until the labels ahead leave room, so that many
 * inserts at one spot cost amortised O(log n) each instead of a whole-graph
 * relabel each time. */
static void make_room(airc_graph *g, airc_node *n)
{
    uint64_t lo = n->prev->order;
    uint64_t count = 1;
    airc_node *x = n->next;
    while (x != &g->root && x->order - lo < (count + 1) * (ORDER_STEP >> 12)) {
        count++;
        x = x->next;
    }
    uint64_t hi = order_after(x);
    if (hi - lo < (count + 1) * 2) {
        relabel(g); /* labels exhausted near the top: start over */
        return;
    }
    uint64_t step = (hi - lo) / (count + 1);
    uint64_t o = lo;
    for (airc_node *y = n; y != x; y = y->next) {
        o += step;
        y->order = o;
    }
}

/* Links n between prev and prev->next and gives it a label in between. */
static void link_after(airc_node *prev, airc_node *n)
{
    airc_graph *g = prev->graph;
    airc_node *next = prev->next;
    n->prev = prev;
    n->next = next;
    prev->next = n;
    next->prev = n;
    uint64_t lo = prev->order, hi = order_after(next);
    if (hi - lo >= 2) {
        n->order = lo + (hi - lo) / 2;
        if (next == &g->root && lo < UINT64_MAX - 2 * ORDER_STEP)
            n->order = lo + ORDER_STEP; /* appends keep even spacing */
    } else {
        make_room(g, n);
    }
}

static void unlink_node(airc_node *n)
{
    n->prev->next = n->next;
    n->next->prev = n->prev;
    n->prev = n->next = NULL;
}

/* ---- use-def ----------------------------------------------------------- */

/* Grows a users or inputs array to hold `need`. The first array of a node
 * comes from the arena: most nodes have a few users and inputs, and a heap
 * call for each of a million nodes shows in parse and rewrite times. One
 * that outgrows it moves to the heap (the arena copy is simply left). */
#define ARENA_REFS 4

/* ir.h lays a node out in whole cache lines (the node arena hands out
 * 64-byte aligned chunks): keep it so when fields change */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(airc_node) % 64 == 0, "airc_node is a whole number of cache lines");
#endif

static bool grow_refs(airc_graph *g, airc_node ***data, uint32_t *cap, size_t need, bool *in_arena)
{
    if (need <= *cap)
        return true;
    if (need > UINT32_MAX) /* counts are 32-bit: a graph holds fewer nodes */
        return false;
    if (!*data && need <= ARENA_REFS) {
        airc_node **p = airc_arena_alloc(&g->arena, ARENA_REFS * sizeof *p);
        if (!p)
            return false;
        *data = p;
        *cap = ARENA_REFS;
        *in_arena = true;
        return true;
    }
    /* doubling from a 32-bit capacity; past UINT32_MAX the capacity is
     * clamped (need fits, checked above) */
    size_t ncap = *cap;
    airc_node **p = *in_arena ? NULL : *data;
    if (!airc_grow(g->ctx, (void **)&p, &ncap, need, sizeof *p))
        return false;
    if (*in_arena)
        memcpy(p, *data, *cap * sizeof *p);
    *data = p;
    *cap = ncap > UINT32_MAX ? UINT32_MAX : (uint32_t)ncap;
    *in_arena = false;
    return true;
}

typedef struct walk {
    airc_graph *g;
    size_t count;
    airc_node *self;     /* node being edited (refs to it are an error) */
    uint64_t max_order;  /* every ref must have order < max_order */
    airc_node *bad;      /* first offending ref */
    bool reserve_failed;
    uint64_t old_epoch;   /* marks self's current inputs (already users) */
    airc_node *append_to; /* commit mode: node whose inputs are rebuilt */
} walk;

static void count_ref(void *user, airc_node *x)
{
    walk *w = user;
    if (w->bad)
        return;
    if (x->magic != AIRC_MAGIC_NODE || x->erased || x->graph != w->g || x == w->self ||
        x->order >= w->max_order) {
        w->bad = x;
        return;
    }
    if (x->mark == w->g->epoch)
        return;
    bool already_user = w->old_epoch && x->mark == w->old_epoch;
    x->mark = w->g->epoch;
    w->count++;
    if (!already_user &&
        !grow_refs(w->g, &x->users, &x->users_cap, x->nusers + 1, &x->users_in_arena))
        w->reserve_failed = true;
}

static void commit_ref(void *user, airc_node *x)
{
    walk *w = user;
    if (x->mark == w->g->epoch)
        return;
    x->mark = w->g->epoch;
    airc_node *n = w->append_to;
    n->inputs[n->ninputs++] = x;
    x->users[x->nusers++] = n;
}

/* Searches from the back: DCE and rewrites mostly remove the latest users,
 * so a node read by very many others stays cheap to edit. */
static void remove_user(airc_node *x, const airc_node *user)
{
    for (size_t i = x->nusers; i-- > 0;) {
        if (x->users[i] == user) {
            memmove(&x->users[i], &x->users[i + 1], (x->nusers - i - 1) * sizeof *x->users);
            x->nusers--;
            return;
        }
    }
}

static void visit_all(const airc_value *const *args, size_t nargs,
                      const airc_value *const *kwv, size_t nkw,
                      void (*fn)(void *, airc_node *), void *user)
{
    for (size_t i = 0; i < nargs; i++)
        airc_value_visit_nodes(args[i], fn, user);
    for (size_t i = 0; i < nkw; i++)
        airc_value_visit_nodes(kwv[i], fn, user);
}

static const char *describe_bad_ref(const walk *w, const airc_node *x)
{
    if (x->magic != AIRC_MAGIC_NODE)
        return "is not a node";
    if (x->erased)
        return "was erased";
    if (x->graph != w->g)
        return "belongs to another graph";
    if (x == w->self)
        return "is the node itself";
    return "is defined after the position of the node";
}

/* Phase 1 of every edit: checks the refs in the new arguments (live, same
 * graph, ordered before max_order) and reserves room in their users arrays
 * and in n's inputs array. Nothing observable changes. */
static airc_status prepare_refs(airc_graph *g, airc_node *self, uint64_t max_order,
                                const airc_value *const *args, size_t nargs,
                                const airc_value *const *kwv, size_t nkw, size_t *ninputs,
                                const char *what)
{
    walk w = {.g = g, .self = self, .max_order = max_order};
    if (self) {
        /* self's current inputs keep their slot for self: no growth needed */
        w.old_epoch = ++g->epoch;
        for (size_t i = 0; i < self->ninputs; i++)
            self->inputs[i]->mark = w.old_epoch;
    }
    g->epoch++;
    visit_all(args, nargs, kwv, nkw, count_ref, &w);
    if (w.bad) {
        const char *name = w.bad->magic == AIRC_MAGIC_NODE ? w.bad->name : "?";
        return airc_fail(AIRC_E_INVALID_GRAPH, "%s: argument '%s' %s", what, name,
                         describe_bad_ref(&w, w.bad));
    }
    if (w.reserve_failed)
        return airc_fail_oom("users list");
    *ninputs = w.count;
    return AIRC_OK;
}

/* Phase 2: replaces n's arguments and rebuilds the use-def links (torch.fx
 * re-adds n at the end of each input's users). Cannot fail: prepare_refs
 * reserved the users arrays and the caller reserved n->inputs. */
static void commit_args(airc_node *n, const airc_value **args, size_t nargs, const char **kwn,
                        const airc_value **kwv, size_t nkw)
{
    for (size_t i = 0; i < n->ninputs; i++)
        remove_user(n->inputs[i], n);
    n->ninputs = 0;
    n->args = args;
    n->nargs = (uint32_t)nargs;
    n->kw_names = kwn;
    n->kw_values = kwv;
    n->nkw = (uint32_t)nkw;
    walk w = {.g = n->graph, .append_to = n};
    n->graph->epoch++;
    visit_all(args, nargs, kwv, nkw, commit_ref, &w);
}

/* Keywords must be distinct: pairwise for the usual handful, a hash set
 * beyond that so that a hostile node stays linear. */
static airc_status check_unique_keywords(airc_context *ctx, const char *const *kwn, size_t nkw,
                                         const char *fn)
{
    if (nkw <= 16) {
        for (size_t i = 0; i < nkw; i++)
            for (size_t j = 0; j < i; j++)
                if (!strcmp(kwn[i], kwn[j]))
                    return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: keyword '%s' given twice",
                                     fn, kwn[i]);
        return AIRC_OK;
    }
    airc_strmap seen;
    airc_strmap_init(&seen, ctx);
    airc_status st = AIRC_OK;
    if (!airc_strmap_reserve(&seen, nkw))
        st = airc_fail_oom("keyword set");
    for (size_t i = 0; i < nkw && st == AIRC_OK; i++) {
        if (airc_strmap_get(&seen, kwn[i]))
            st = airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: keyword '%s' given twice", fn, kwn[i]);
        else
            airc_strmap_put(&seen, kwn[i], (void *)kwn[i]);
    }
    airc_strmap_free(&seen);
    return st;
}

static airc_status check_values(airc_graph *g, const airc_value *const *args, size_t nargs,
                                const char *const *kwn, const airc_value *const *kwv, size_t nkw,
                                const char *fn)
{
    if ((nargs && !args) || (nkw && (!kwn || !kwv)))
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: argument array is NULL", fn);
    if (nargs > UINT32_MAX || nkw > UINT32_MAX)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: too many arguments", fn);
    for (size_t i = 0; i < nargs; i++) {
        if (!args[i])
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: argument %zu is NULL", fn, i);
        if (args[i]->owner != g)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "%s: argument %zu belongs to another graph", fn, i);
    }
    for (size_t i = 0; i < nkw; i++) {
        if (!kwn[i] || !*kwn[i] || !kwv[i])
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: keyword argument %zu is empty", fn, i);
        if (kwv[i]->owner != g)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "%s: keyword argument '%s' belongs to another graph", fn, kwn[i]);
    }
    return check_unique_keywords(g->ctx, kwn, nkw, fn);
}

/* Copies argument arrays into the arena (values themselves are shared). */
static airc_status copy_arrays(airc_graph *g, const airc_value *const *args, size_t nargs,
                               const char *const *kwn, const airc_value *const *kwv, size_t nkw,
                               const airc_value ***args_out, const char ***kwn_out,
                               const airc_value ***kwv_out)
{
    const airc_value **a = airc_arena_alloc(&g->arena, nargs * sizeof *a);
    const char **kn = airc_arena_alloc(&g->arena, nkw * sizeof *kn);
    const airc_value **kv = airc_arena_alloc(&g->arena, nkw * sizeof *kv);
    if (!a || !kn || !kv)
        return airc_fail_oom("node arguments");
    if (nargs)
        memcpy(a, args, nargs * sizeof *a);
    for (size_t i = 0; i < nkw; i++) {
        kv[i] = kwv[i];
        if (!(kn[i] = airc_arena_strdup(&g->arena, kwn[i])))
            return airc_fail_oom("keyword name");
    }
    *args_out = a;
    *kwn_out = kn;
    *kwv_out = kv;
    return AIRC_OK;
}

/* ---- creation ---------------------------------------------------------- */

static airc_status insert_position(airc_graph *g, airc_node **prev)
{
    switch (g->ins_where) {
    case AIRC_INSERT_FRONT:
        *prev = &g->root;
        return AIRC_OK;
    case AIRC_INSERT_BEFORE:
    case AIRC_INSERT_AFTER:
        if (!g->ins_anchor || g->ins_anchor->erased || g->ins_anchor->graph != g)
            return airc_fail(AIRC_E_MISUSE, "insertion point refers to an erased node");
        *prev = g->ins_where == AIRC_INSERT_BEFORE ? g->ins_anchor->prev : g->ins_anchor;
        return AIRC_OK;
    default:
        *prev = g->root.prev;
        return AIRC_OK;
    }
}

airc_status airc_node_create(airc_graph *g, airc_node_kind kind, const char *target,
                             const airc_op *op, const airc_value *const *args, size_t nargs,
                             const char *const *kw_names, const airc_value *const *kw_values,
                             size_t nkw, const char *name, uint32_t flags, airc_node **out)
{
    static const char fn[] = "airc_graph_create_node";
    AIRC_TRY(airc_check_graph(g, fn));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: out is NULL", fn);
    if (kind < AIRC_NODE_PLACEHOLDER || kind > AIRC_NODE_OUTPUT)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: unknown node kind %d", fn, (int)kind);
    if (kind == AIRC_NODE_CALL_FUNCTION) {
        if (!op)
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: call_function needs an op", fn);
        target = op->qualname;
    } else if (kind == AIRC_NODE_OUTPUT) {
        target = "output";
    } else if (!target || !*target) {
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: %s needs a target", fn,
                         airc_node_kind_name(kind));
    }
    if (kind == AIRC_NODE_CALL_MODULE && !airc_graph_submodule(g, target))
        return airc_fail(AIRC_E_NOT_FOUND, "%s: no submodule '%s'", fn, target);
    AIRC_TRY(check_values(g, args, nargs, kw_names, kw_values, nkw, fn));

    airc_node *prev = NULL;
    AIRC_TRY(insert_position(g, &prev));
    if ((flags & AIRC_CREATE_EXACT_NAME) && (!name || !*name))
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: empty node name", fn);
    /* an exact name is hashed once, for this check and the insertion */
    size_t name_len = 0;
    uint64_t name_hash = 0;
    if (flags & AIRC_CREATE_EXACT_NAME) {
        name_len = strlen(name);
        name_hash = airc_strmap_hash(name, name_len);
        if (airc_strmap_get_hashed(&g->ns.used, name, name_len, name_hash))
            return airc_fail(AIRC_E_EXISTS, "node name '%s' is already used", name);
        if (name_len > UINT32_MAX)
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: node name is too long", fn);
    }
    if (g->nnodes >= UINT32_MAX - 1)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: graph is full", fn);

    /* refs must be defined at or before prev; a node's own label will be
     * greater than prev's, so "order < prev->order + 1" */
    size_t ninputs;
    uint64_t bound = prev == &g->root ? 0 : prev->order + 1;
    AIRC_TRY(prepare_refs(g, NULL, bound, args, nargs, kw_values, nkw, &ninputs,
                          name ? name : target));

    airc_node *n = airc_arena_calloc(&g->node_arena, 1, sizeof *n);
    if (!n)
        return airc_fail_oom("node");
    if (ninputs && !grow_refs(g, &n->inputs, &n->inputs_cap, ninputs, &n->inputs_in_arena))
        return airc_fail_oom("node inputs");
    airc_status st = AIRC_OK;
    const airc_value **a = NULL;
    const char **kn = NULL;
    const airc_value **kv = NULL;
    if ((st = copy_arrays(g, args, nargs, kw_names, kw_values, nkw, &a, &kn, &kv)) != AIRC_OK)
        goto fail;
    n->target = kind == AIRC_NODE_CALL_FUNCTION ? op->qualname
                                                 : airc_arena_strdup(&g->arena, target);
    if (!n->target) {
        st = airc_fail_oom("node target");
        goto fail;
    }
    if (!airc_strmap_reserve(&g->ns.used, 1) ||
        !airc_grow(g->ctx, (void **)&g->erased, &g->erased_cap, g->nnodes + g->nerased + 1,
                   sizeof *g->erased)) {
        st = airc_fail_oom("node tables");
        goto fail;
    }
    if (flags & AIRC_CREATE_EXACT_NAME) {
        n->name = airc_arena_strndup(&g->arena, name, name_len);
    } else {
        const char *cand = name;
        char small[128], *buf = NULL;
        if (!cand || !*cand) {
            size_t cap = 2 * strlen(target) + 2;
            buf = cap <= sizeof small ? small : airc_malloc(g->ctx, cap);
            if (!buf) {
                st = airc_fail_oom("node name");
                goto fail;
            }
            airc_name_from_target(target, kind == AIRC_NODE_CALL_FUNCTION, buf, cap);
            cand = buf;
        }
        n->name = airc_graph_unique_name(g, cand);
        if (buf != small)
            airc_free(g->ctx, buf);
        if (n->name) {
            name_len = strlen(n->name);
            name_hash = airc_strmap_hash(n->name, name_len);
            airc_strmap_prefetch(&g->ns.used, name_hash); /* a miss in a big graph */
        }
    }
    if (!n->name) {
        st = airc_fail_oom("node name");
        goto fail;
    }
    if (name_len > UINT32_MAX) {
        st = airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: node name is too long", fn);
        goto fail;
    }
    airc_name_note note;
    if (!airc_names_prepare(g, n->name, name_len, &note)) {
        st = airc_fail_oom("node name");
        goto fail;
    }

    /* commit: nothing below can fail */
    n->magic = AIRC_MAGIC_NODE;
    n->kind = kind;
    n->graph = g;
    n->op = kind == AIRC_NODE_CALL_FUNCTION ? op : NULL;
    n->id = g->next_id++;
    link_after(prev, n);
    commit_args(n, a, nargs, kn, kv, nkw);
    /* room reserved above; the name is free (checked, or made unique) */
    airc_strmap_insert_new(&g->ns.used, n->name, name_len, name_hash, n);
    airc_names_commit(g, n->name, &note);
    g->nnodes++;
    if (g->ins_where == AIRC_INSERT_AFTER)
        g->ins_anchor = n; /* keep creation order (see airc.h) */
    *out = n;
    return AIRC_OK;
fail:
    if (!n->inputs_in_arena)
        airc_free(g->ctx, n->inputs);
    return st;
}

airc_status airc_graph_create_node(airc_graph *g, airc_node_kind kind, const char *target,
                                   const airc_value *const *args, size_t nargs,
                                   const char *const *kw_names, const airc_value *const *kw_values,
                                   size_t nkw, const char *name, airc_node **out)
{
    AIRC_TRY(airc_check_graph(g, "airc_graph_create_node"));
    const airc_op *op = NULL;
    if (kind == AIRC_NODE_CALL_FUNCTION) {
        if (!target)
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_graph_create_node: op name is NULL");
        AIRC_TRY(airc_registry_find(g->ctx, target, strlen(target), &op));
    }
    return airc_node_create(g, kind, target, op, args, nargs, kw_names, kw_values, nkw, name, 0,
                            out);
}

airc_status airc_graph_placeholder(airc_graph *g, const char *name, airc_node **out)
{
    return airc_graph_create_node(g, AIRC_NODE_PLACEHOLDER, name, NULL, 0, NULL, NULL, 0, NULL,
                                  out);
}

airc_status airc_graph_get_attr(airc_graph *g, const char *target, airc_node **out)
{
    return airc_graph_create_node(g, AIRC_NODE_GET_ATTR, target, NULL, 0, NULL, NULL, 0, NULL,
                                  out);
}

airc_status airc_graph_call_function(airc_graph *g, const char *op, const airc_value *const *args,
                                     size_t nargs, airc_node **out)
{
    return airc_graph_create_node(g, AIRC_NODE_CALL_FUNCTION, op, args, nargs, NULL, NULL, 0,
                                  NULL, out);
}

airc_status airc_graph_output(airc_graph *g, const airc_value *result, airc_node **out)
{
    if (!result)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_graph_output: result is NULL");
    return airc_graph_create_node(g, AIRC_NODE_OUTPUT, "output", &result, 1, NULL, NULL, 0, NULL,
                                  out);
}

/* ---- erase and move ---------------------------------------------------- */

/* Moves the insertion point off a node about to be erased. */
static void retarget_insert_point(airc_graph *g, airc_node *n)
{
    if (g->ins_anchor != n)
        return;
    if (g->ins_where == AIRC_INSERT_BEFORE) {
        if (n->next == &g->root)
            g->ins_where = AIRC_INSERT_END, g->ins_anchor = NULL;
        else
            g->ins_anchor = n->next;
    } else {
        if (n->prev == &g->root)
            g->ins_where = AIRC_INSERT_FRONT, g->ins_anchor = NULL;
        else
            g->ins_anchor = n->prev;
    }
}

/* Unlinks a node that has no users and no inputs left. Cannot fail: room
 * in g->erased was reserved when the node was created. */
static void finish_erase(airc_graph *g, airc_node *n)
{
    retarget_insert_point(g, n);
    unlink_node(n);
    n->erased = true;
    g->erased[g->nerased++] = n;
    g->nnodes--;
}

static airc_status check_erasable(airc_graph *g, airc_node *n, const char *fn)
{
    if (n && n->magic == AIRC_MAGIC_NODE && n->erased)
        return airc_fail(AIRC_E_MISUSE, "%s: node '%s' was already erased", fn, n->name);
    AIRC_TRY(airc_check_node(n, fn));
    if (n->graph != g)
        return airc_fail(AIRC_E_MISUSE, "%s: node '%s' is not in this graph", fn, n->name);
    return AIRC_OK;
}

airc_status airc_graph_erase_node(airc_graph *g, airc_node *n)
{
    AIRC_TRY(airc_check_graph(g, "airc_graph_erase_node"));
    AIRC_TRY(check_erasable(g, n, "airc_graph_erase_node"));
    if (n->nusers)
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "cannot erase node '%s': it still has %zu user(s), first '%s'", n->name,
                         (size_t)n->nusers, n->users[0]->name);
    for (size_t i = 0; i < n->ninputs; i++)
        remove_user(n->inputs[i], n);
    n->ninputs = 0;
    finish_erase(g, n);
    return AIRC_OK;
}

/* Erasing nodes one by one costs O(users) per input each time, quadratic
 * when they share an input (a weight read by every layer). Here each
 * affected input's users array is compacted once. Scratch marks, not an
 * allocation, hold the sets, so this never fails once the arguments are
 * valid: callers that have committed other edits (the rewriter) can finish
 * with it. */
airc_status airc_graph_erase_nodes(airc_graph *g, airc_node *const *nodes, size_t count)
{
    static const char fn[] = "airc_graph_erase_nodes";
    AIRC_TRY(airc_check_graph(g, fn));
    if (count && !nodes)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: nodes is NULL", fn);
    uint64_t dead = ++g->epoch; /* mark of the nodes listed */
    for (size_t i = 0; i < count; i++) {
        AIRC_TRY(check_erasable(g, nodes[i], fn));
        if (nodes[i]->mark == dead)
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: node '%s' is listed twice", fn,
                             nodes[i]->name);
        nodes[i]->mark = dead;
    }
    for (size_t i = 0; i < count; i++)
        for (size_t k = 0; k < nodes[i]->nusers; k++)
            if (nodes[i]->users[k]->mark != dead)
                return airc_fail(AIRC_E_INVALID_GRAPH,
                                 "cannot erase node '%s': its user '%s' is not erased with it",
                                 nodes[i]->name, nodes[i]->users[k]->name);
    /* a listed input loses all its users (all listed); a live one is
     * compacted once, then marked so that it is not compacted again */
    uint64_t compacted = ++g->epoch;
    for (size_t i = 0; i < count; i++) {
        airc_node *n = nodes[i];
        for (size_t k = 0; k < n->ninputs; k++) {
            airc_node *x = n->inputs[k];
            if (x->mark == dead || x->mark == compacted)
                continue;
            size_t o = 0;
            for (size_t j = 0; j < x->nusers; j++)
                if (x->users[j]->mark != dead)
                    x->users[o++] = x->users[j];
            x->nusers = o;
            x->mark = compacted;
        }
    }
    for (size_t i = 0; i < count; i++) {
        nodes[i]->ninputs = 0;
        nodes[i]->nusers = 0;
    }
    for (size_t i = 0; i < count; i++)
        finish_erase(g, nodes[i]);
    return AIRC_OK;
}

static airc_status move_node(airc_node *n, airc_node *anchor, bool before, const char *fn)
{
    AIRC_TRY(airc_check_node(n, fn));
    AIRC_TRY(airc_check_node(anchor, fn));
    if (n->graph != anchor->graph)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: nodes are in different graphs", fn);
    if (n == anchor)
        return AIRC_OK;
    airc_node *prev = before ? anchor->prev : anchor;
    if (prev == n)
        return AIRC_OK; /* already there */
    airc_node *next = prev->next == n ? n->next : prev->next;
    uint64_t lo = prev == &n->graph->root ? 0 : prev->order;
    uint64_t hi = order_after(next);
    for (size_t i = 0; i < n->ninputs; i++)
        if (n->inputs[i]->order > lo)
            return airc_fail(AIRC_E_INVALID_GRAPH,
                             "%s: '%s' would come before its input '%s'", fn, n->name,
                             n->inputs[i]->name);
    for (size_t i = 0; i < n->nusers; i++)
        if (n->users[i]->order < hi)
            return airc_fail(AIRC_E_INVALID_GRAPH, "%s: '%s' would come after its user '%s'", fn,
                             n->name, n->users[i]->name);
    unlink_node(n);
    link_after(prev, n);
    return AIRC_OK;
}

airc_status airc_node_move_before(airc_node *n, airc_node *anchor)
{
    return move_node(n, anchor, true, "airc_node_move_before");
}

airc_status airc_node_move_after(airc_node *n, airc_node *anchor)
{
    return move_node(n, anchor, false, "airc_node_move_after");
}

/* ---- argument edits ---------------------------------------------------- */

/* Validates, reserves and commits new args/kwargs for n (already arena
 * copies). */
static airc_status relink(airc_node *n, const airc_value **args, size_t nargs, const char **kwn,
                          const airc_value **kwv, size_t nkw, const char *fn)
{
    size_t ninputs;
    AIRC_TRY(prepare_refs(n->graph, n, n->order, args, nargs, kwv, nkw, &ninputs, n->name));
    if (!grow_refs(n->graph, &n->inputs, &n->inputs_cap, ninputs, &n->inputs_in_arena))
        return airc_fail_oom("node inputs");
    (void)fn;
    commit_args(n, args, nargs, kwn, kwv, nkw);
    return AIRC_OK;
}

airc_status airc_node_set_args(airc_node *n, const airc_value *const *args, size_t nargs)
{
    AIRC_TRY(airc_check_node(n, "airc_node_set_args"));
    airc_graph *g = n->graph;
    AIRC_TRY(check_values(g, args, nargs, NULL, NULL, 0, "airc_node_set_args"));
    const airc_value **a = NULL;
    const char **kn = NULL;
    const airc_value **kv = NULL;
    AIRC_TRY(copy_arrays(g, args, nargs, NULL, NULL, 0, &a, &kn, &kv));
    return relink(n, a, nargs, n->kw_names, n->kw_values, n->nkw, "airc_node_set_args");
}

airc_status airc_node_set_kwargs(airc_node *n, const char *const *names,
                                 const airc_value *const *values, size_t nkw)
{
    AIRC_TRY(airc_check_node(n, "airc_node_set_kwargs"));
    airc_graph *g = n->graph;
    AIRC_TRY(check_values(g, NULL, 0, names, values, nkw, "airc_node_set_kwargs"));
    const airc_value **a = NULL;
    const char **kn = NULL;
    const airc_value **kv = NULL;
    AIRC_TRY(copy_arrays(g, NULL, 0, names, values, nkw, &a, &kn, &kv));
    return relink(n, n->args, n->nargs, kn, kv, nkw, "airc_node_set_kwargs");
}

airc_status airc_node_update_arg(airc_node *n, size_t i, const airc_value *v)
{
    AIRC_TRY(airc_check_node(n, "airc_node_update_arg"));
    if (i >= n->nargs)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_node_update_arg: node '%s' has %u args, no index %zu", n->name,
                         n->nargs, i);
    airc_graph *g = n->graph;
    AIRC_TRY(check_values(g, &v, 1, NULL, NULL, 0, "airc_node_update_arg"));
    const airc_value **a = airc_arena_memdup(&g->arena, n->args, n->nargs * sizeof *a);
    if (!a)
        return airc_fail_oom("node arguments");
    a[i] = v;
    return relink(n, a, n->nargs, n->kw_names, n->kw_values, n->nkw, "airc_node_update_arg");
}

airc_status airc_node_update_kwarg(airc_node *n, const char *name, const airc_value *v)
{
    AIRC_TRY(airc_check_node(n, "airc_node_update_kwarg"));
    if (!name || !*name)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_node_update_kwarg: empty name");
    airc_graph *g = n->graph;
    if (v)
        AIRC_TRY(check_values(g, &v, 1, NULL, NULL, 0, "airc_node_update_kwarg"));
    size_t found = n->nkw;
    for (size_t i = 0; i < n->nkw; i++)
        if (!strcmp(n->kw_names[i], name))
            found = i;
    if (!v && found == n->nkw)
        return AIRC_OK;
    size_t nkw = found < n->nkw ? (v ? n->nkw : n->nkw - 1) : n->nkw + 1;
    const char **kn = airc_arena_alloc(&g->arena, nkw * sizeof *kn);
    const airc_value **kv = airc_arena_alloc(&g->arena, nkw * sizeof *kv);
    const char *name_copy = airc_arena_strdup(&g->arena, name);
    if (!kn || !kv || !name_copy)
        return airc_fail_oom("keyword arguments");
    size_t o = 0;
    for (size_t i = 0; i < n->nkw; i++) {
        if (i == found) {
            if (!v)
                continue;
            kn[o] = n->kw_names[i];
            kv[o++] = v;
        } else {
            kn[o] = n->kw_names[i];
            kv[o++] = n->kw_values[i];
        }
    }
    if (found == n->nkw) {
        kn[o] = name_copy;
        kv[o++] = v;
    }
    return relink(n, n->args, n->nargs, kn, kv, o, "airc_node_update_kwarg");
}

airc_status airc_node_set_target(airc_node *n, const char *opname)
{
    AIRC_TRY(airc_check_node(n, "airc_node_set_target"));
    if (n->kind != AIRC_NODE_CALL_FUNCTION)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_node_set_target: '%s' is a %s, not call_function", n->name,
                         airc_node_kind_name(n->kind));
    if (!opname)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_node_set_target: op is NULL");
    const airc_op *op;
    AIRC_TRY(airc_registry_find(n->graph->ctx, opname, strlen(opname), &op));
    n->op = op;
    n->target = op->qualname;
    return AIRC_OK;
}

airc_status airc_node_rename(airc_node *n, const char *candidate, const char **name)
{
    static const char fn[] = "airc_node_rename";
    AIRC_TRY(airc_check_node(n, fn));
    if (!candidate || !*candidate)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: the new name of '%s' is NULL or empty", fn,
                         n->name);
    airc_graph *g = n->graph;
    if (!strcmp(candidate, n->name)) {
        if (name)
            *name = n->name;
        return AIRC_OK;
    }
    const char *fresh = airc_graph_unique_name(g, candidate);
    if (!fresh)
        return airc_fail_oom("node name");
    size_t len = strlen(fresh);
    if (len > UINT32_MAX)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: the name is too long", fn);
    airc_name_note note;
    if (!airc_strmap_reserve(&g->ns.used, 1) || !airc_names_prepare(g, fresh, len, &note))
        return airc_fail_oom("node name");
    /* commit: the old name stays taken, by nobody live */
    airc_strmap_put_existing(&g->ns.used, n->name, strlen(n->name), &g->name_tomb);
    airc_strmap_insert_new(&g->ns.used, fresh, len, airc_strmap_hash(fresh, len), n);
    airc_names_commit(g, fresh, &note);
    n->name = fresh;
    if (name)
        *name = fresh;
    return AIRC_OK;
}

/* ---- replacing uses ---------------------------------------------------- */

typedef struct subst {
    const airc_node *from;
    airc_node *to;
} subst;

static airc_node *subst_map(void *user, airc_node *x)
{
    subst *s = user;
    return x == s->from ? s->to : x;
}

/* n's args/kwargs with every ref to `from` replaced (arena copies). */
static airc_status substituted(airc_node *n, const airc_node *from, airc_node *to,
                               const airc_value ***args, const airc_value ***kwv)
{
    airc_graph *g = n->graph;
    subst s = {from, to};
    const airc_value **a = airc_arena_alloc(&g->arena, n->nargs * sizeof *a);
    const airc_value **k = airc_arena_alloc(&g->arena, n->nkw * sizeof *k);
    if (!a || !k)
        return airc_fail_oom("node arguments");
    for (uint32_t i = 0; i < n->nargs; i++) {
        a[i] = airc_value_mentions(n->args[i], from)
                   ? airc_value_copy(&g->arena, g, n->args[i], subst_map, &s)
                   : n->args[i];
        if (!a[i])
            return airc_fail_oom("node arguments");
    }
    for (uint32_t i = 0; i < n->nkw; i++) {
        k[i] = airc_value_mentions(n->kw_values[i], from)
                   ? airc_value_copy(&g->arena, g, n->kw_values[i], subst_map, &s)
                   : n->kw_values[i];
        if (!k[i])
            return airc_fail_oom("node arguments");
    }
    *args = a;
    *kwv = k;
    return AIRC_OK;
}

airc_status airc_node_replace_all_uses_with(airc_node *n, airc_node *replacement,
                                            airc_user_filter_fn filter, void *user_data,
                                            size_t *n_changed)
{
    static const char fn[] = "airc_node_replace_all_uses_with";
    AIRC_TRY(airc_check_node(n, fn));
    AIRC_TRY(airc_check_node(replacement, fn));
    airc_graph *g = n->graph;
    if (replacement->graph != g)
        return airc_fail(AIRC_E_INVALID_GRAPH, "%s: '%s' belongs to another graph", fn,
                         replacement->name);
    if (replacement == n)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: cannot replace '%s' with itself", fn,
                         n->name);
    size_t k = n->nusers;
    airc_node **sel = airc_malloc(g->ctx, (k ? k : 1) * sizeof *sel);
    const airc_value ***new_args = airc_malloc(g->ctx, (k ? k : 1) * sizeof *new_args);
    const airc_value ***new_kw = airc_malloc(g->ctx, (k ? k : 1) * sizeof *new_kw);
    airc_status st = AIRC_OK;
    size_t nsel = 0;
    if (!sel || !new_args || !new_kw) {
        st = airc_fail_oom("user list");
        goto done;
    }
    /* select and validate every user before touching any */
    for (size_t i = 0; i < k; i++) {
        airc_node *u = n->users[i];
        if (filter && !filter(user_data, u))
            continue;
        if (u == replacement || replacement->order >= u->order) {
            st = airc_fail(AIRC_E_INVALID_GRAPH,
                           "%s: replacement '%s' is not defined before user '%s' of '%s'", fn,
                           replacement->name, u->name, n->name);
            goto done;
        }
        if ((st = substituted(u, n, replacement, &new_args[nsel], &new_kw[nsel])) != AIRC_OK)
            goto done;
        sel[nsel++] = u;
    }
    if (!grow_refs(g, &replacement->users, &replacement->users_cap, replacement->nusers + nsel,
                   &replacement->users_in_arena)) {
        st = airc_fail_oom("users list");
        goto done;
    }
    /* each user's distinct inputs can only shrink (n -> replacement), and
     * replacement's users array has room for all: relink cannot fail */
    for (size_t i = 0; i < nsel; i++) {
        st = relink(sel[i], new_args[i], sel[i]->nargs, sel[i]->kw_names, new_kw[i], sel[i]->nkw,
                    fn);
        if (st != AIRC_OK) {
            st = airc_fail(AIRC_E_INTERNAL, "%s: relink failed after validation", fn);
            goto done;
        }
    }
    if (n_changed)
        *n_changed = nsel;
done:
    airc_free(g->ctx, sel);
    airc_free(g->ctx, new_args);
    airc_free(g->ctx, new_kw);
    return st;
}

airc_status airc_node_replace_input_with(airc_node *n, airc_node *old_input, airc_node *new_input)
{
    static const char fn[] = "airc_node_replace_input_with";
    AIRC_TRY(airc_check_node(n, fn));
    if (!old_input || old_input->magic != AIRC_MAGIC_NODE)
        return airc_fail(AIRC_E_MISUSE, "%s: old input is not a node", fn);
    AIRC_TRY(airc_check_node(new_input, fn));
    bool found = false;
    for (size_t i = 0; i < n->ninputs; i++)
        found |= n->inputs[i] == old_input;
    if (!found)
        return airc_fail(AIRC_E_NOT_FOUND, "%s: '%s' is not an input of '%s'", fn,
                         old_input->name, n->name);
    const airc_value **a = NULL, **k = NULL;
    AIRC_TRY(substituted(n, old_input, new_input, &a, &k));
    return relink(n, a, n->nargs, n->kw_names, k, n->nkw, fn);
}

/* ---- reading ----------------------------------------------------------- */

static bool live(const airc_node *n)
{
    return n && n->magic == AIRC_MAGIC_NODE;
}

airc_node_kind airc_node_get_kind(const airc_node *n)
{
    return live(n) ? n->kind : -1;
}

const char *airc_node_name(const airc_node *n)
{
    return live(n) ? n->name : NULL;
}

const char *airc_node_target(const airc_node *n)
{
    return live(n) ? n->target : NULL;
}

const airc_op *airc_node_op(const airc_node *n)
{
    return live(n) ? n->op : NULL;
}

airc_graph *airc_node_graph(const airc_node *n)
{
    return live(n) ? n->graph : NULL;
}

int32_t airc_node_is_erased(const airc_node *n)
{
    return live(n) ? n->erased : 1;
}

size_t airc_node_num_args(const airc_node *n)
{
    return live(n) ? n->nargs : 0;
}

const airc_value *airc_node_arg(const airc_node *n, size_t i)
{
    return live(n) && i < n->nargs ? n->args[i] : NULL;
}

size_t airc_node_num_kwargs(const airc_node *n)
{
    return live(n) ? n->nkw : 0;
}

const char *airc_node_kwarg_name(const airc_node *n, size_t i)
{
    return live(n) && i < n->nkw ? n->kw_names[i] : NULL;
}

const airc_value *airc_node_kwarg_value(const airc_node *n, size_t i)
{
    return live(n) && i < n->nkw ? n->kw_values[i] : NULL;
}

const airc_value *airc_node_kwarg(const airc_node *n, const char *name)
{
    if (!live(n) || !name)
        return NULL;
    for (uint32_t i = 0; i < n->nkw; i++)
        if (!strcmp(n->kw_names[i], name))
            return n->kw_values[i];
    return NULL;
}

size_t airc_node_num_users(const airc_node *n)
{
    return live(n) ? n->nusers : 0;
}

airc_node *airc_node_user(const airc_node *n, size_t i)
{
    return live(n) && i < n->nusers ? n->users[i] : NULL;
}

size_t airc_node_num_inputs(const airc_node *n)
{
    return live(n) ? n->ninputs : 0;
}

airc_node *airc_node_input(const airc_node *n, size_t i)
{
    return live(n) && i < n->ninputs ? n->inputs[i] : NULL;
}
