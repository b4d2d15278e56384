/* constant_folding: computes at compile time what depends only on constants
 * (Inductor's constant_fold / torch.fx's const_fold), with airc's own CPU
 * kernels, and binds the results as new constants.
 *
 * A call is foldable when its op is a pure aten op (no side effect, not
 * random or uninitialised like empty, no device other than the CPU in its
 * arguments) with a CPU kernel, every tensor it reads is a get_attr with
 * bound data or another foldable call, and each result it produces is at
 * most AIRC_FOLD_MAX_BYTES: the cap bounds both the constants the graph
 * gains and the memory the evaluation needs. Creation ops without inputs
 * (ones, zeros, full, arange) fold too, as in torch.
 *
 * The foldable calls are copied into a scratch graph whose output is the
 * set of values the rest of the graph reads, and that graph runs through
 * the eager executor (the reference semantics, on an embedded CPU
 * runtime). Each such value becomes `_folded_constant_N` (contiguous), read
 * by a new get_attr just before the node it replaces; what is left unused
 * is erased. Views (t, permute, expand, ...) of constants are not folded
 * into copies: they cost nothing at run time, and a copy would double the
 * memory of a weight. Values whose meta cannot be computed are left alone.
 *
 * The pass is all or nothing: it edits a clone-protected graph and swaps
 * the saved copy back on any failure. Constants it no longer reads stay
 * bound to the graph (they belong to the caller). */
#include "exec/exec.h"
#include "passmgr/passmgr.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The largest result one fold may produce (per tensor). */
#define AIRC_FOLD_MAX_BYTES ((size_t)1 << 20)

enum { ST_NONE = 0, ST_CAND, ST_FOLD, ST_KEEP, ST_REPLACE, ST_WRITTEN };

typedef struct fold_state {
    airc_context *ctx;
    airc_graph *g;
    airc_graph *scratch;
    uint8_t *st;         /* by node id of g (ids below nids) */
    uint32_t nids;
    airc_node **copy;    /* by node id of g: its twin in scratch */
    airc_node **replace; /* nodes of g to replace, graph order */
    size_t nreplace;
    const char **written; /* get_attr targets the graph writes */
    size_t nwritten, written_cap;
} fold_state;

/* A constant some op of the graph writes (through any alias) is not
 * constant: reads after the write must see it. */
static bool is_written(const fold_state *s, const char *target)
{
    for (size_t i = 0; i < s->nwritten; i++)
        if (!strcmp(s->written[i], target))
            return true;
    return false;
}

static bool is_const_attr(const fold_state *s, const airc_node *n)
{
    return n->kind == AIRC_NODE_GET_ATTR &&
           airc_graph_get_constant(s->g, n->target, NULL, NULL, NULL, NULL, NULL) == AIRC_OK &&
           !is_written(s, n->target);
}

/* Whether n's result may alias one of its inputs (views, getitem, and ops
 * like reshape or contiguous whose schema returns an alias). */
static bool may_alias(const airc_node *n)
{
    if (n->kind != AIRC_NODE_CALL_FUNCTION)
        return false;
    if (!strcmp(n->op->qualname, AIRC_OP_GETITEM) || (n->op->flags & AIRC_OP_VIEW))
        return true;
    const airc_schema *sc = n->op->schema;
    for (uint32_t i = 0; i < sc->nrets; i++)
        if (sc->rets[i].type.alias)
            return true;
    return false;
}

/* Records what an in-place op may write: every tensor a mutating op
 * reads, followed back through aliasing ops to the get_attr targets and
 * the calls that made it (over-approximate: its read-only arguments count
 * too). A written call is no constant either: folding `full` under a later
 * tanh_ would let every run write the one folded buffer. */
static airc_status mark_root(fold_state *s, const airc_node *x, uint32_t depth)
{
    if (x->kind == AIRC_NODE_CALL_FUNCTION && x->id < s->nids)
        s->st[x->id] = ST_WRITTEN;
    if (x->kind == AIRC_NODE_GET_ATTR) {
        if (is_written(s, x->target))
            return AIRC_OK;
        if (!airc_grow(s->ctx, (void **)&s->written, &s->written_cap, s->nwritten + 1,
                       sizeof *s->written))
            return airc_fail_oom("constant folding: written constants");
        s->written[s->nwritten++] = x->target;
        return AIRC_OK;
    }
    if (!may_alias(x))
        return AIRC_OK;
    if (depth > 4096) /* an absurd alias chain: give up folding the graph */
        return airc_fail(AIRC_E_UNSUPPORTED, "alias chain too long at node '%s'", x->name);
    for (size_t i = 0; i < x->ninputs; i++)
        AIRC_TRY(mark_root(s, x->inputs[i], depth + 1));
    return AIRC_OK;
}

static airc_status mark_written(fold_state *s)
{
    AIRC_FOR_EACH_NODE(s->g, n) {
        if (n->kind != AIRC_NODE_CALL_FUNCTION || !airc_schema_is_mutable(n->op->schema))
            continue;
        for (size_t i = 0; i < n->ninputs; i++)
            AIRC_TRY(mark_root(s, n->inputs[i], 0));
    }
    return AIRC_OK;
}

static const char *const nondeterministic[] = {"empty", "empty_like", "new_empty",
                                               "empty_strided"};

static bool device_not_cpu(const airc_value *v)
{
    if (!v)
        return false;
    if (v->kind == AIRC_VALUE_DEVICE)
        return strcmp(v->u.dev.type, "cpu") != 0;
    if (v->kind == AIRC_VALUE_LIST || v->kind == AIRC_VALUE_TUPLE)
        for (uint32_t i = 0; i < v->len; i++)
            if (device_not_cpu(v->u.items[i]))
                return true;
    return false;
}

/* Whether the op itself allows folding (its inputs are checked apart). */
static bool foldable_op(const airc_node *n)
{
    const airc_op *op = n->op;
    if (!strcmp(op->qualname, AIRC_OP_GETITEM))
        return true;
    if (op->flags & AIRC_OP_SIDE_EFFECT)
        return false;
    /* custom ops may hide state or randomness their flags do not say */
    if (strcmp(op->schema->ns, "aten"))
        return false;
    for (size_t i = 0; i < sizeof nondeterministic / sizeof nondeterministic[0]; i++)
        if (!strcmp(op->schema->name, nondeterministic[i]))
            return false;
    for (uint32_t i = 0; i < n->nargs; i++)
        if (device_not_cpu(n->args[i]))
            return false;
    for (uint32_t i = 0; i < n->nkw; i++)
        if (device_not_cpu(n->kw_values[i]))
            return false;
    airc_kernel_ref ref;
    return airc_find_kernel(op, "cpu", &ref);
}

/* Marks the calls whose inputs are all constants or candidates. */
static size_t mark_candidates(fold_state *s)
{
    size_t count = 0;
    AIRC_FOR_EACH_NODE(s->g, n) {
        if (n->kind != AIRC_NODE_CALL_FUNCTION || s->st[n->id] == ST_WRITTEN || !foldable_op(n))
            continue;
        bool ok = true;
        for (size_t i = 0; i < n->ninputs && ok; i++) {
            const airc_node *x = n->inputs[i];
            ok = s->st[x->id] == ST_CAND || is_const_attr(s, x);
        }
        if (ok) {
            s->st[n->id] = ST_CAND;
            count++;
        }
    }
    return count;
}

static airc_node *map_to_copy(void *user, airc_node *old)
{
    return ((fold_state *)user)->copy[old->id];
}

/* A no-op release: the scratch graph borrows the caller's constant data. */
static void borrowed(void *user_data)
{
    (void)user_data;
}

static airc_status copy_attr(fold_state *s, airc_node *n)
{
    airc_graph *d = s->scratch;
    if (airc_graph_get_constant(d, n->target, NULL, NULL, NULL, NULL, NULL) != AIRC_OK) {
        airc_dtype dt;
        int32_t ndim;
        const int64_t *shape, *strides;
        void *data;
        AIRC_TRY(airc_graph_get_constant(s->g, n->target, &dt, &ndim, &shape, &strides, &data));
        AIRC_TRY(airc_graph_set_constant(d, n->target, dt, ndim, shape, strides, data, borrowed,
                                         NULL));
    }
    return airc_node_create(d, AIRC_NODE_GET_ATTR, n->target, NULL, NULL, 0, NULL, NULL, 0,
                            n->name, AIRC_CREATE_EXACT_NAME, &s->copy[n->id]);
}

static airc_status copy_call(fold_state *s, airc_node *n)
{
    airc_graph *d = s->scratch;
    const airc_value **args = airc_arena_calloc(&d->arena, n->nargs + n->nkw + 1, sizeof *args);
    if (!args)
        return airc_fail_oom("constant folding values");
    const airc_value **kw = args + n->nargs;
    for (uint32_t i = 0; i < n->nargs + n->nkw; i++) {
        const airc_value *v = i < n->nargs ? n->args[i] : n->kw_values[i - n->nargs];
        if (!(args[i] = airc_value_copy(&d->arena, d, v, map_to_copy, s)))
            return airc_fail_oom("constant folding values");
    }
    return airc_node_create(d, AIRC_NODE_CALL_FUNCTION, n->target, n->op, args, n->nargs,
                            n->kw_names, kw, n->nkw, n->name, AIRC_CREATE_EXACT_NAME,
                            &s->copy[n->id]);
}

/* The candidates and the constants they read, in a graph of their own. */
static airc_status build_scratch(fold_state *s)
{
    AIRC_TRY(airc_graph_create(s->ctx, &s->scratch));
    AIRC_FOR_EACH_NODE(s->g, n) {
        if (s->st[n->id] != ST_CAND)
            continue;
        for (size_t i = 0; i < n->ninputs; i++) {
            airc_node *x = n->inputs[i];
            if (!s->copy[x->id])
                AIRC_TRY(copy_attr(s, x));
        }
        AIRC_TRY(copy_call(s, n));
    }
    return AIRC_OK;
}

static bool within_cap(const airc_node *c)
{
    if (c->meta_kind == AIRC_META_NONE)
        return false;
    for (uint32_t j = 0; j < c->nout; j++) {
        const airc_tmeta *m = &c->out[j];
        int64_t numel = airc_tmeta_numel(m);
        if (numel < 0 || (uint64_t)numel > AIRC_FOLD_MAX_BYTES / airc_dtype_size(m->dtype))
            return false;
    }
    return true;
}

/* A view op, or an element of a view op's results (split). */
static bool is_view(const airc_node *n)
{
    if (n->op->flags & AIRC_OP_VIEW)
        return true;
    if (strcmp(n->op->qualname, AIRC_OP_GETITEM) || !n->ninputs)
        return false;
    const airc_node *src = n->inputs[0];
    return src->kind == AIRC_NODE_CALL_FUNCTION && (src->op->flags & AIRC_OP_VIEW);
}

/* With meta known: the candidates within the cap whose inputs qualify too
 * (ST_FOLD), then, last to first, what the rest of the graph will read:
 * replaced by a constant (ST_REPLACE) or, for views and tuples, kept as a
 * computation on folded inputs (ST_KEEP). */
static void choose(fold_state *s)
{
    AIRC_FOR_EACH_NODE(s->g, n) {
        if (s->st[n->id] != ST_CAND)
            continue;
        bool ok = within_cap(s->copy[n->id]);
        for (size_t i = 0; i < n->ninputs && ok; i++)
            ok = s->st[n->inputs[i]->id] == ST_FOLD || n->inputs[i]->kind == AIRC_NODE_GET_ATTR;
        s->st[n->id] = ok ? ST_FOLD : ST_NONE;
    }
    for (airc_node *n = s->g->root.prev; n != &s->g->root; n = n->prev) {
        if (s->st[n->id] != ST_FOLD)
            continue;
        bool read_outside = false;
        for (size_t i = 0; i < n->nusers && !read_outside; i++) {
            uint8_t u = s->st[n->users[i]->id];
            read_outside = u != ST_FOLD && u != ST_REPLACE;
        }
        if (!read_outside)
            continue;
        const airc_node *c = s->copy[n->id];
        bool tensor = c->meta_kind == AIRC_META_TENSOR;
        s->st[n->id] = tensor && !is_view(n) ? ST_REPLACE : ST_KEEP;
    }
}

/* Runs the scratch graph for the values to replace. */
static airc_status evaluate(fold_state *s, airc_tensor **res)
{
    airc_graph *d = s->scratch;
    const airc_value **items = airc_arena_calloc(&d->arena, s->nreplace, sizeof *items);
    if (!items)
        return airc_fail_oom("constant folding outputs");
    for (size_t i = 0; i < s->nreplace; i++)
        AIRC_TRY(airc_value_node(d, s->copy[s->replace[i]->id], &items[i]));
    const airc_value *tuple;
    AIRC_TRY(airc_value_tuple(d, items, s->nreplace, &tuple));
    airc_node *out;
    AIRC_TRY(airc_graph_output(d, tuple, &out));
    AIRC_TRY(airc_graph_eliminate_dead_code(d, NULL));
    size_t nres = 0;
    AIRC_TRY(airc_run_eager(d, NULL, NULL, 0, res, s->nreplace, &nres, NULL));
    if (nres != s->nreplace) {
        for (size_t i = 0; i < nres; i++)
            airc_tensor_destroy(res[i]);
        return airc_fail(AIRC_E_INTERNAL, "constant folding: %zu results for %zu values", nres,
                         s->nreplace);
    }
    return AIRC_OK;
}

static void destroy_tensor(void *t)
{
    airc_tensor_destroy(t);
}

#define FOLD_PREFIX "_folded_constant_"

/* n when name is FOLD_PREFIX followed by the decimal n; -1 otherwise. */
static int64_t fold_suffix(const char *name)
{
    size_t len = sizeof FOLD_PREFIX - 1;
    if (!name || strncmp(name, FOLD_PREFIX, len) || !name[len])
        return -1;
    int64_t v = 0;
    for (const char *p = name + len; *p; p++) {
        if (*p < '0' || *p > '9' || v > INT64_MAX / 16)
            return -1;
        v = v * 10 + (*p - '0');
    }
    return v;
}

/* The first N such that no constant, get_attr target or submodule of g is
 * named FOLD_PREFIX N or higher: names from there on are free. */
static uint64_t first_free_suffix(const airc_graph *g)
{
    int64_t max = -1, v;
    for (size_t i = 0; i < airc_graph_num_constants(g); i++)
        if ((v = fold_suffix(airc_graph_constant_name(g, i))) > max)
            max = v;
    for (size_t i = 0; i < g->nsubs; i++)
        if ((v = fold_suffix(g->sub_names[i])) > max)
            max = v;
    AIRC_FOR_EACH_NODE(g, n) {
        if (n->kind == AIRC_NODE_GET_ATTR && (v = fold_suffix(n->target)) > max)
            max = v;
    }
    return (uint64_t)(max + 1);
}

/* Binds res[i] (taken over) and reroutes the readers of replace[i] to it. */
static airc_status substitute(fold_state *s, airc_tensor **res)
{
    airc_graph *g = s->g;
    uint64_t next = first_free_suffix(g);
    size_t i = 0;
    airc_status st = AIRC_OK;
    for (; i < s->nreplace && st == AIRC_OK; i++) {
        airc_node *n = s->replace[i];
        airc_tensor *t = res[i];
        char name[64];
        snprintf(name, sizeof name, FOLD_PREFIX "%llu", (unsigned long long)next++);
        st = airc_graph_set_constant(g, name, airc_tensor_dtype(t), airc_tensor_ndim(t),
                                     airc_tensor_shape(t), NULL, airc_tensor_data(t),
                                     destroy_tensor, t);
        if (st != AIRC_OK)
            break;
        res[i] = NULL; /* the graph owns it now */
        airc_node *attr;
        if ((st = airc_graph_set_insert_point(g, AIRC_INSERT_BEFORE, n)) != AIRC_OK ||
            (st = airc_graph_get_attr(g, name, &attr)) != AIRC_OK)
            break;
        if (n->meta_kind == AIRC_META_TENSOR)
            st = airc_node_set_meta(attr, airc_tensor_dtype(t), airc_tensor_ndim(t),
                                    airc_tensor_shape(t), NULL);
        if (st == AIRC_OK)
            st = airc_node_replace_all_uses_with(n, attr, NULL, NULL, NULL);
    }
    for (size_t j = i; j < s->nreplace; j++)
        airc_tensor_destroy(res[j]);
    return st;
}

/* Erases the folded nodes nothing reads any more, with the get_attr nodes
 * only they read. */
static airc_status erase_dead(fold_state *s)
{
    airc_graph *g = s->g;
    airc_node **dead = airc_calloc(s->ctx, g->nnodes ? g->nnodes : 1, sizeof *dead);
    bool *is_dead = airc_calloc(s->ctx, g->next_id ? g->next_id : 1, sizeof *is_dead);
    airc_status st = AIRC_OK;
    if (!dead || !is_dead) {
        st = airc_fail_oom("constant folding: dead nodes");
        goto done;
    }
    size_t ndead = 0;
    for (airc_node *n = g->root.prev; n != &g->root; n = n->prev) {
        uint8_t k = n->id < s->nids ? s->st[n->id] : ST_NONE;
        bool ours = k == ST_FOLD || k == ST_REPLACE;
        if (!ours && n->kind == AIRC_NODE_GET_ATTR && n->nusers) {
            ours = true; /* only when every reader is ours and dead */
            for (size_t i = 0; i < n->nusers && ours; i++)
                ours = is_dead[n->users[i]->id];
        }
        if (!ours)
            continue;
        bool all = true;
        for (size_t i = 0; i < n->nusers && all; i++)
            all = is_dead[n->users[i]->id];
        /* nodes that were dead before the pass are dce's business */
        if (all && (n->nusers || k == ST_REPLACE)) {
            is_dead[n->id] = true;
            dead[ndead++] = n;
        }
    }
    st = airc_graph_erase_nodes(g, dead, ndead);
done:
    airc_free(s->ctx, dead);
    airc_free(s->ctx, is_dead);
    return st;
}

/* Folds g itself (not its submodules). */
static airc_status fold_graph(airc_graph *g, int32_t *changed)
{
    fold_state s = {.ctx = g->ctx, .g = g};
    size_t ids = g->next_id ? g->next_id : 1;
    s.st = airc_calloc(s.ctx, ids, sizeof *s.st);
    s.copy = airc_calloc(s.ctx, ids, sizeof *s.copy);
    s.nids = g->next_id;
    airc_tensor **res = NULL;
    airc_graph *backup = NULL;
    airc_status st = AIRC_OK;
    if (!s.st || !s.copy) {
        st = airc_fail_oom("constant folding tables");
        goto done;
    }
    if ((st = mark_written(&s)) != AIRC_OK) {
        if (st != AIRC_E_OUT_OF_MEMORY) {
            airc_clear_error();
            st = AIRC_OK;
        }
        goto done;
    }
    if (!mark_candidates(&s))
        goto done;
    if ((st = build_scratch(&s)) != AIRC_OK)
        goto done;
    if (airc_graph_propagate_meta(s.scratch) != AIRC_OK) {
        if (airc_last_error_code() == AIRC_E_OUT_OF_MEMORY) {
            st = AIRC_E_OUT_OF_MEMORY;
            goto done;
        }
        /* a graph that cannot be typed is not ours to judge: leave it */
        airc_log(s.ctx, AIRC_LOG_DEBUG, "constant_folding: skipped (meta: %s)",
                 airc_last_error());
        airc_clear_error();
        goto done;
    }
    choose(&s);
    s.replace = airc_calloc(s.ctx, g->nnodes ? g->nnodes : 1, sizeof *s.replace);
    if (!s.replace) {
        st = airc_fail_oom("constant folding list");
        goto done;
    }
    AIRC_FOR_EACH_NODE(g, n) {
        if (s.st[n->id] == ST_REPLACE)
            s.replace[s.nreplace++] = n;
    }
    if (!s.nreplace)
        goto done;
    res = airc_calloc(s.ctx, s.nreplace, sizeof *res);
    if (!res) {
        st = airc_fail_oom("constant folding results");
        goto done;
    }
    if ((st = evaluate(&s, res)) != AIRC_OK) {
        st = airc_fail_prefix("evaluating constants");
        goto done;
    }
    int32_t where;
    airc_node *anchor;
    airc_graph_get_insert_point(g, &where, &anchor);
    if ((st = airc_graph_clone(g, &backup)) != AIRC_OK) {
        for (size_t i = 0; i < s.nreplace; i++)
            airc_tensor_destroy(res[i]);
        goto done;
    }
    const char *anchor_name = anchor ? anchor->name : NULL;
    st = substitute(&s, res);
    if (st == AIRC_OK)
        st = erase_dead(&s);
    if (st != AIRC_OK) {
        airc_graph_swap(g, backup);
        anchor = anchor_name ? airc_graph_find_node(g, anchor_name) : NULL;
    }
    if (anchor && airc_node_is_erased(anchor))
        anchor = NULL;
    if (anchor || where == AIRC_INSERT_END || where == AIRC_INSERT_FRONT)
        airc_graph_set_insert_point(g, where, anchor);
    else
        airc_graph_set_insert_point(g, AIRC_INSERT_END, NULL);
    if (st == AIRC_OK && changed)
        *changed = 1;
done:
    airc_graph_destroy(backup);
    airc_graph_destroy(s.scratch);
    airc_free(s.ctx, res);
    airc_free(s.ctx, s.replace);
    airc_free(s.ctx, s.copy);
    airc_free(s.ctx, s.st);
    airc_free(s.ctx, s.written);
    return st;
}

airc_status airc_pass_constant_folding(airc_graph *g, int32_t *changed)
{
    AIRC_TRY(airc_check_graph(g, "airc_pass_constant_folding"));
    return airc_pass_each_graph(g, fold_graph, changed);
}
