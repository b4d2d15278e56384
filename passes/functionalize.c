/* functionalize: in-place ops become their out-of-place twins.
 *
 * Which argument an op writes comes from its schema (`Tensor(a!)`), so
 * aten's ops and custom ops are treated alike. Two forms:
 *  A. the op returns the mutated alias (aten: `add_.Tensor(Tensor(a!) self,
 *     ...) -> Tensor(a!)`): the twin's result is the new value, and the
 *     node's own result is an alias of the mutated tensor;
 *  B. the op returns nothing for it (TorchAir's custom in-place ops,
 *     `-> ()`): the twin returns the new values of the written arguments,
 *     in order (one tensor: the node itself; several: getitem).
 * The twin is the op of the same name without the trailing `_`, same
 * overload (add_.Tensor -> add.Tensor, copy_.default -> copy.default),
 * with the same argument names and no writes; a custom op without one gets
 * a synthesized twin, `ns::name_functional.ov`, made from its schema
 * (airc_op_functional_twin, src/ops/functional_twin.c).
 *
 * Values are tracked per alias class (a tensor, the results of in-place
 * ops on it, and the functional values that replace it): walking in order,
 * each node's inputs are first rewired to the latest value of their class,
 * so every use after a mutation reads the functional result and every use
 * before it still reads the old value. Classes rooted at a graph input or
 * a constant are written back before the output with
 * aten.copy_.default(input, latest), as torch's functionalization does.
 *
 * Views, as torch's functionalization treats them. A view node (a view
 * op's result, or getitem of one) views a class member or another view
 * node; each root counts its writes, and a view older than the last write
 * to its root is stale: the next use reads it replayed on the current value
 * of what it views (the same op, made just before that use). A write
 * through a view computes the view's new value with the twin and sends it
 * back up the chain with each view's inverse: slice -> slice_scatter,
 * select -> select_scatter, t/transpose -> themselves, permute -> the
 * inverse permutation, unsqueeze -> squeeze.dim; with meta (the source's
 * shape) also view/_reshape_alias/contiguous reshape -> view, squeeze (all
 * dims) -> view, squeeze.dim -> unsqueeze, an item of split / unbind ->
 * slice_scatter / select_scatter of what the split views (meta: the items'
 * sizes); view.dtype -> view.dtype to the parent's dtype;
 * alias/detach/lift/lift_fresh (and a no-op squeeze or expand) -> the
 * value itself. The top of the chain becomes the root's latest
 * value; the views on the chain read their new values from then on, the
 * in-place op's result reads its view's.
 *
 * In-place views (squeeze_, unsqueeze_, t_, transpose_) write only self's
 * shape: they become their out-of-place views, once
 * airc_meta_inplace_view_ok has refused graphs that read self after them.
 *
 * Kept in place, with an info log: ops without a twin, written lists
 * (`Tensor(a!)[]`), and writes through a view without a known inverse
 * (diagonal, unfold, as_strided, or view without meta). A kept op
 * mutates its argument in place, so that argument is made to alias the
 * root's latest value (views replayed on it where the chain holds
 * functional values), and the views of the root are replayed afterwards. */
#include "ops/meta_util.h"
#include "ops/ops.h"
#include "passmgr/passmgr.h"

#include <stdio.h>
#include <string.h>

/* Per node id. A view value (a view op's result, a value regenerated for
 * it, a new value written through it) stands for a view node, its
 * identity; other values belong to an alias class, rooted at the tensor
 * in-place ops mutate. */
typedef struct finfo {
    airc_node *base;   /* class root (NULL: the node itself) */
    airc_node *latest; /* by root: the current value (NULL: the root) */
    uint32_t version;  /* by root: writes so far (views older than it are stale) */
    airc_node *ident;  /* the view node this value stands for (NULL: not a view) */
    airc_node *vsrc;   /* by view node: what it views (a view node or a class member) */
    airc_node *val;    /* by view node: its value at `stamp` */
    uint32_t stamp;    /* by view node: the root's version when val was made */
    bool functional;   /* by view node: val holds the values, but aliases nothing */
} finfo;

typedef struct fstate {
    airc_graph *g;
    airc_context *ctx;
    finfo *f;         /* by id */
    size_t cap;       /* entries of f */
    airc_node **dead; /* functionalized nodes, erased at the end */
    size_t ndead, dead_cap;
    bool created; /* views were replayed */
} fstate;

static bool ensure(fstate *s)
{
    size_t need = s->g->next_id;
    if (need <= s->cap)
        return true;
    size_t cap = s->cap ? s->cap : 64;
    while (cap < need)
        cap *= 2;
    finfo *f = airc_realloc(s->ctx, s->f, cap * sizeof *f);
    if (!f)
        return false;
    memset(f + s->cap, 0, (cap - s->cap) * sizeof *f);
    s->f = f;
    s->cap = cap;
    return true;
}

static airc_node *root_of(const fstate *s, airc_node *x)
{
    return s->f[x->id].base ? s->f[x->id].base : x;
}

/* What a use of class member x reads now: the class's functional value
 * once one of its mutations was replaced, x itself otherwise. */
static airc_node *latest_of(const fstate *s, airc_node *x)
{
    airc_node *r = root_of(s, x);
    return s->f[r->id].latest ? s->f[r->id].latest : x;
}

/* The class root under a view node's chain. */
static airc_node *view_root(const fstate *s, airc_node *c)
{
    while (s->f[c->id].ident == c)
        c = s->f[c->id].vsrc;
    return root_of(s, c);
}

/* Creates a call at the insertion point (before the node being walked). */
static airc_status make(fstate *s, const char *op, const airc_value **args, size_t nargs,
                        const char *const *kw_names, const airc_value *const *kw, size_t nkw,
                        airc_node **out)
{
    AIRC_TRY(airc_graph_create_node(s->g, AIRC_NODE_CALL_FUNCTION, op, args, nargs, kw_names, kw,
                                    nkw, NULL, out));
    if (!ensure(s))
        return airc_fail_oom("functionalize tables");
    return AIRC_OK;
}

/* Computes t's meta when all its inputs have one; false when unknown. */
static airc_status try_meta(airc_node *t, bool *known)
{
    airc_meta_fn meta;
    void *ud;
    *known = airc_op_get_meta(t->op, &meta, &ud);
    for (size_t i = 0; *known && i < t->ninputs; i++)
        *known = t->inputs[i]->meta_kind != AIRC_META_NONE;
    airc_status st = *known ? meta(t, ud) : AIRC_OK;
    if (st == AIRC_E_OUT_OF_MEMORY)
        return st; /* not "unknown": the pass would build another graph */
    if (st != AIRC_OK) {
        airc_set_error(AIRC_OK, "");
        AIRC_TRY(airc_node_clear_meta(t));
        *known = false;
    }
    return AIRC_OK;
}

/* View node c replayed on p (its source's value now). */
static airc_status replay(fstate *s, airc_node *c, airc_node *p, airc_node **out)
{
    const airc_value *args[64];
    if (c->nargs > 64)
        return airc_fail(AIRC_E_UNSUPPORTED, "view '%s': %u arguments", c->name, c->nargs);
    memcpy(args, c->args, c->nargs * sizeof *args);
    AIRC_TRY(airc_value_node(s->g, p, &args[0]));
    AIRC_TRY(make(s, c->op->qualname, args, c->nargs, c->kw_names, c->kw_values, c->nkw, out));
    bool known;
    AIRC_TRY(try_meta(*out, &known));
    s->created = true;
    return AIRC_OK;
}

/* What a use of x reads now. A view older than its root's last write is
 * replayed on the current value of what it views (torch's view replay);
 * `alias`: the value must alias the root's latest value (a kept in-place
 * op writes through it), not merely hold the same values. */
static airc_status current(fstate *s, airc_node *x, bool alias, airc_node **out)
{
    airc_node *c = s->f[x->id].ident;
    if (!c) {
        *out = latest_of(s, x);
        return AIRC_OK;
    }
    uint32_t version = s->f[view_root(s, c)->id].version;
    if (s->f[c->id].stamp == version && !(alias && s->f[c->id].functional)) {
        *out = s->f[c->id].val;
        return AIRC_OK;
    }
    airc_node *src = s->f[c->id].vsrc, *p, *y;
    AIRC_TRY(current(s, src, alias, &p));
    AIRC_TRY(replay(s, c, p, &y));
    s->f[y->id].ident = c;
    s->f[c->id].val = y;
    s->f[c->id].stamp = version;
    s->f[c->id].functional = s->f[src->id].ident == src && s->f[src->id].functional;
    *out = y;
    return AIRC_OK;
}

/* Positions of the written arguments; false when one is not a single
 * tensor node (a list, or a missing value). */
static bool written_args(const airc_node *n, const airc_value **bound, uint32_t *pos,
                         uint32_t *npos)
{
    const airc_schema *s = n->op->schema;
    *npos = 0;
    for (uint32_t i = 0; i < s->nargs; i++) {
        if (!s->args[i].type.is_write)
            continue;
        if (s->args[i].type.is_list || !bound[i] || bound[i]->kind != AIRC_VALUE_NODE)
            return false;
        pos[(*npos)++] = i;
    }
    return *npos > 0;
}

/* Return index aliasing written argument `arg` (form A), or -1. */
static int aliased_return(const airc_schema *s, uint32_t arg)
{
    const char *a = s->args[arg].type.alias;
    for (uint32_t j = 0; a && j < s->nrets; j++)
        if (s->rets[j].type.alias && !strcmp(s->rets[j].type.alias, a))
            return (int)j;
    return -1;
}

/* A result that aliases an input without writing it: a view. */
static bool is_view_op(const airc_op *op)
{
    if (op->flags & AIRC_OP_VIEW)
        return true;
    for (uint32_t j = 0; j < op->schema->nrets; j++)
        if (op->schema->rets[j].type.alias && !op->schema->rets[j].type.is_write)
            return true;
    return false;
}

static bool is_view_result(const airc_node *n)
{
    if (n->kind != AIRC_NODE_CALL_FUNCTION)
        return false;
    if (is_view_op(n->op))
        return true;
    if (!strcmp(n->op->qualname, AIRC_OP_GETITEM) && n->nargs >= 1 &&
        n->args[0]->kind == AIRC_VALUE_NODE) {
        const airc_node *src = n->args[0]->u.node;
        return src->kind == AIRC_NODE_CALL_FUNCTION && is_view_op(src->op);
    }
    return false;
}

/* An in-place view (squeeze_, t_...) writes only self's shape, and meta
 * gives that shape to the node's result alone, refusing reads of self
 * after it (airc_meta_inplace_view_ok, checked here too: meta may be
 * unknown): the node becomes its out-of-place view. */
static airc_status unwrite_view(airc_node *n, int32_t *changed)
{
    const airc_value *self = n->nargs ? n->args[0] : airc_node_kwarg(n, "self");
    if (self && self->kind == AIRC_VALUE_NODE)
        AIRC_TRY(airc_meta_inplace_view_ok(n, self->u.node));
    const airc_op *twin;
    AIRC_TRY(airc_op_functional_twin(n->graph->ctx, n->op, &twin));
    if (!twin || !is_view_op(twin))
        return AIRC_OK;
    *changed = 1;
    return airc_node_set_target(n, twin->qualname);
}

/* A view whose leading arguments come by keyword (detach(self=x)) gets
 * them as positional ones, in schema order: the tracking below finds a
 * view's source in args[0], and replays views from their args. */
static airc_status positional_leading(airc_node *n)
{
    const airc_schema *sc = n->op->schema;
    const airc_value *args[64], *kw[64];
    const char *names[64];
    uint32_t na = n->nargs, nk = 0;
    if (!n->nkw || sc->nargs > 64 || n->nkw > 64 || na >= sc->nargs)
        return AIRC_OK;
    memcpy(args, n->args, na * sizeof *args);
    for (; na < sc->nargs && !sc->args[na].kwarg_only; na++) {
        const airc_value *v = airc_node_kwarg(n, sc->args[na].name);
        if (!v)
            break;
        args[na] = v;
    }
    if (na == n->nargs)
        return AIRC_OK;
    for (uint32_t i = 0; i < n->nkw; i++) {
        bool moved = false;
        for (uint32_t j = n->nargs; j < na && !moved; j++)
            moved = !strcmp(n->kw_names[i], sc->args[j].name);
        if (!moved) {
            names[nk] = n->kw_names[i];
            kw[nk++] = n->kw_values[i];
        }
    }
    AIRC_TRY(airc_node_set_kwargs(n, names, kw, nk));
    return airc_node_set_args(n, args, na);
}

/* getitem(t, j) of a multi-output op that is not a view (max.dim,
 * native_layer_norm...): j, else -1. Every such getitem of the same (t, j)
 * is the same tensor, whichever way j is written (False is 0, -1 the
 * last). */
static int64_t tuple_item(const airc_node *n)
{
    int64_t j;
    if (n->kind != AIRC_NODE_CALL_FUNCTION || strcmp(n->op->qualname, AIRC_OP_GETITEM) ||
        n->nargs < 2 || n->args[0]->kind != AIRC_VALUE_NODE ||
        airc_value_get_int(n->args[1], &j) != AIRC_OK)
        return -1;
    const airc_node *t = n->args[0]->u.node;
    if (t->kind != AIRC_NODE_CALL_FUNCTION || is_view_op(t->op))
        return -1;
    if (j < 0 && t->op->schema->nrets > 1) /* a tuple of schema returns */
        j += (int64_t)t->op->schema->nrets;
    return j;
}

/* The first getitem(t, j) in graph order, or NULL. */
static airc_node *first_item(const airc_node *t, int64_t j)
{
    airc_node *first = NULL;
    for (size_t i = 0; i < t->nusers; i++) {
        airc_node *u = t->users[i];
        if (tuple_item(u) == j && u->args[0]->u.node == t && (!first || u->order < first->order))
            first = u;
    }
    return first;
}

/* A later getitem(t, j) joins the class of the first, so that it reads a
 * write to the first: fill_(getitem(max, 1)) shows in getitem(max, 1)
 * taken again. */
static void join_items(fstate *s, airc_node *n)
{
    int64_t j = tuple_item(n);
    airc_node *first = j >= 0 ? first_item(n->args[0]->u.node, j) : NULL;
    if (first && first != n && !s->f[n->id].base)
        s->f[n->id].base = root_of(s, first);
}

/* The output's direct references to a multi-output node t, one of whose
 * items was written, become the tuple of its items (getitems made where
 * missing): torch returns the tensors, written ones included, where t's
 * own value is the old one. */
static airc_status item_value(fstate *s, const airc_value *v, const airc_value **out)
{
    *out = v;
    if (v->kind == AIRC_VALUE_LIST || v->kind == AIRC_VALUE_TUPLE) {
        const airc_value *items[64];
        bool changed = false;
        if (v->len > 64)
            return AIRC_OK;
        for (uint32_t i = 0; i < v->len; i++) {
            AIRC_TRY(item_value(s, v->u.items[i], &items[i]));
            changed |= items[i] != v->u.items[i];
        }
        if (!changed)
            return AIRC_OK;
        return v->kind == AIRC_VALUE_LIST ? airc_value_list(s->g, items, v->len, out)
                                          : airc_value_tuple(s->g, items, v->len, out);
    }
    airc_node *t = v->kind == AIRC_VALUE_NODE ? v->u.node : NULL;
    /* a tuple of a fixed count: the schema's returns (meta may be unknown) */
    const airc_schema *sc = t && t->kind == AIRC_NODE_CALL_FUNCTION ? t->op->schema : NULL;
    if (!sc || sc->nrets < 2 || sc->varret || sc->nrets > 64 || is_view_op(t->op))
        return AIRC_OK;
    uint32_t nitems = sc->nrets;
    bool written = false;
    for (uint32_t j = 0; j < nitems && !written; j++) {
        airc_node *g = first_item(t, j);
        written = g && s->f[root_of(s, g)->id].latest;
    }
    if (!written)
        return AIRC_OK;
    const airc_value *items[64];
    for (uint32_t j = 0; j < nitems; j++) {
        airc_node *g = first_item(t, j);
        if (!g) {
            const airc_value *args[2];
            AIRC_TRY(airc_value_node(s->g, t, &args[0]));
            AIRC_TRY(airc_value_int(s->g, j, &args[1]));
            AIRC_TRY(make(s, AIRC_OP_GETITEM, args, 2, NULL, NULL, 0, &g));
        }
        AIRC_TRY(airc_value_node(s->g, g, &items[j]));
    }
    return airc_value_tuple(s->g, items, nitems, out);
}

static airc_status expand_written_tuples(fstate *s, airc_node *out)
{
    if (out->nargs != 1)
        return AIRC_OK;
    const airc_value *v;
    AIRC_TRY(item_value(s, out->args[0], &v));
    if (v == out->args[0])
        return AIRC_OK;
    s->created = true;
    return airc_node_set_args(out, &v, 1);
}

static airc_status rewire_inputs(fstate *s, airc_node *n)
{
    for (size_t i = 0; i < n->ninputs;) {
        airc_node *x = n->inputs[i], *now;
        AIRC_TRY(current(s, x, false, &now));
        if (now == x) {
            i++;
            continue;
        }
        AIRC_TRY(airc_node_replace_input_with(n, x, now));
        i = 0; /* the input list was rebuilt: rescan (few inputs) */
    }
    return AIRC_OK;
}

/* A view node read after `order`, directly or through views of it. */
static bool read_after(const fstate *s, const airc_node *x, uint64_t order)
{
    for (size_t i = 0; i < x->nusers; i++) {
        const airc_node *u = x->users[i];
        if (u->order > order || (s->f[u->id].ident == u && read_after(s, u, order)))
            return true;
    }
    return false;
}

/* A copy_ of a graph input that nothing reads afterwards is already the
 * write-back this pass would emit: leave it, so the pass is idempotent. */
static bool is_final_writeback(const fstate *s, const airc_node *n, const airc_value **bound)
{
    if (strcmp(n->op->qualname, "aten.copy_.default") || n->nusers || !bound[0] ||
        bound[0]->kind != AIRC_VALUE_NODE)
        return false;
    airc_node *p = bound[0]->u.node;
    if (p->kind != AIRC_NODE_PLACEHOLDER || s->f[p->id].latest)
        return false;
    return !read_after(s, p, n->order);
}

static airc_status getitem(airc_graph *g, airc_node *src, int64_t i, airc_node **out)
{
    const airc_value *args[2];
    AIRC_TRY(airc_value_node(g, src, &args[0]));
    AIRC_TRY(airc_value_int(g, i, &args[1]));
    return airc_graph_create_node(g, AIRC_NODE_CALL_FUNCTION, AIRC_OP_GETITEM, args, 2, NULL, NULL,
                                  0, NULL, out);
}

/* Twins whose result is bool whatever self's dtype (comparisons, logical
 * ops): used to decide when meta cannot tell. */
static bool bool_twin(const airc_op *twin)
{
    static const char *const names[] = {"eq",          "ne",         "lt",          "le",
                                        "gt",          "ge",         "logical_and", "logical_or",
                                        "logical_xor", "logical_not"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(twin->short_name, names[i]))
            return true;
    return false;
}

/* The in-place op's result keeps self's dtype (self.copy_(twin result)),
 * while its twin's may differ (eq_ on f32 is f32, eq is bool). Like torch's
 * functionalization, the twin's result is cast back: _to_copy(t, dtype=self's)
 * when meta tells the dtypes differ; copy(self, t) when meta is missing and
 * the twin returns bool. *value is what now holds the new value of self. */
static airc_status cast_back(fstate *s, airc_node *t, airc_node *self, airc_node **value)
{
    *value = t;
    const airc_op *twin = t->op;
    bool known = false;
    if (self->meta_kind == AIRC_META_TENSOR && self->nout == 1)
        AIRC_TRY(try_meta(t, &known));
    const airc_value *args[2];
    AIRC_TRY(airc_value_node(s->g, t, &args[0]));
    airc_node *c;
    if (known) {
        if (t->meta_kind != AIRC_META_TENSOR || t->out[0].dtype == self->out[0].dtype)
            return AIRC_OK;
        const airc_value *kw[2];
        const char *names[2] = {"dtype", "layout"};
        AIRC_TRY(airc_value_dtype(s->g, self->out[0].dtype, &kw[0]));
        AIRC_TRY(airc_value_layout(s->g, AIRC_LAYOUT_STRIDED, &kw[1]));
        AIRC_TRY(airc_graph_create_node(s->g, AIRC_NODE_CALL_FUNCTION, "aten._to_copy.default",
                                        args, 1, names, kw, 2, NULL, &c));
    } else {
        if (!bool_twin(twin))
            return AIRC_OK;
        args[1] = args[0];
        AIRC_TRY(airc_value_node(s->g, self, &args[0]));
        AIRC_TRY(airc_graph_create_node(s->g, AIRC_NODE_CALL_FUNCTION, "aten.copy.default", args, 2,
                                        NULL, NULL, 0, NULL, &c));
    }
    *value = c;
    return AIRC_OK;
}

/* ---- writes through views ------------------------------------------------ */

/* How a view's new value goes back into what it views (torch's
 * functionalization: the view's scatter or inverse). */
typedef enum inv_kind {
    INV_NONE,      /* not known: the write is kept */
    INV_SCATTER,   /* slice -> slice_scatter, select -> select_scatter */
    INV_SAME,      /* t, transpose: their own inverse */
    INV_PERMUTE,   /* permute by the inverse permutation */
    INV_SQUEEZE,   /* unsqueeze(d) -> squeeze.dim(d) */
    INV_UNSQUEEZE, /* squeeze.dim(d) of a size-1 d -> unsqueeze(d) */
    INV_VIEW,      /* view/_reshape_alias/reshape -> view(parent's shape) */
    INV_IDENTITY,  /* alias, detach, a no-op expand or squeeze */
    INV_ITEM,      /* item j of split / unbind -> slice_scatter / select_scatter */
    INV_DTYPE,     /* view.dtype -> view.dtype(the parent's dtype) */
} inv_kind;

/* The split-family node whose item getitem c takes, with j in range and
 * the items' shapes known (meta); NULL otherwise. */
static const airc_node *split_of_item(const airc_node *c, int64_t *j)
{
    static const char *const splits[] = {"aten.split.Tensor", "aten.split_with_sizes.default",
                                         "aten.unsafe_split.Tensor",
                                         "aten.unsafe_split_with_sizes.default", "aten.unbind.int"};
    if (strcmp(c->op->qualname, AIRC_OP_GETITEM) || c->nargs < 2 ||
        c->args[0]->kind != AIRC_VALUE_NODE || airc_value_get_int(c->args[1], j) != AIRC_OK)
        return NULL;
    const airc_node *t = c->args[0]->u.node;
    if (t->kind != AIRC_NODE_CALL_FUNCTION || t->meta_kind != AIRC_META_TUPLE || !t->nargs ||
        t->args[0]->kind != AIRC_VALUE_NODE || t->args[0]->u.node->meta_kind != AIRC_META_TENSOR)
        return NULL;
    for (size_t i = 0; i < sizeof splits / sizeof *splits; i++)
        if (!strcmp(t->op->qualname, splits[i])) {
            if (*j < 0)
                *j += (int64_t)t->nout;
            return *j >= 0 && *j < (int64_t)t->nout ? t : NULL;
        }
    return NULL;
}

/* The node a view node's inverse writes into: what it views, but for an
 * item of split / unbind, what the split views (the tuple has no value
 * of its own to scatter into). */
static airc_node *inverse_src(const fstate *s, airc_node *c)
{
    int64_t j;
    const airc_node *t = split_of_item(c, &j);
    return t ? s->f[t->id].vsrc : s->f[c->id].vsrc;
}

/* The shape of what view node c views, from meta (NULL: unknown). */
static const airc_tmeta *source_meta(const fstate *s, airc_node *c)
{
    const airc_node *src = inverse_src(s, c);
    return src->meta_kind == AIRC_META_TENSOR && src->nout == 1 ? &src->out[0] : NULL;
}

static bool same_shape(const airc_tmeta *a, const airc_tmeta *b)
{
    return a->ndim == b->ndim && !memcmp(a->shape, b->shape, (size_t)a->ndim * sizeof *a->shape);
}

static inv_kind inverse_kind(const fstate *s, airc_node *c)
{
    if (c->kind != AIRC_NODE_CALL_FUNCTION || !c->nargs)
        return INV_NONE;
    const char *q = c->op->qualname;
    int64_t j;
    if (split_of_item(c, &j))
        return INV_ITEM;
    if (!strcmp(q, "aten.slice.Tensor") || !strcmp(q, "aten.select.int"))
        return INV_SCATTER;
    if (!strcmp(q, "aten.t.default") || !strcmp(q, "aten.transpose.int"))
        return INV_SAME;
    if (!strcmp(q, "aten.permute.default"))
        return INV_PERMUTE;
    if (!strcmp(q, "aten.unsqueeze.default"))
        return INV_SQUEEZE;
    if (!strcmp(q, "aten.view.dtype"))
        return source_meta(s, c) ? INV_DTYPE : INV_NONE;
    if (!strcmp(q, "aten.alias.default") || !strcmp(q, "aten.detach.default") ||
        !strcmp(q, "aten.lift_fresh.default") || !strcmp(q, "aten.lift.default"))
        return INV_IDENTITY;
    const airc_tmeta *pm = source_meta(s, c);
    const airc_tmeta *cm = c->meta_kind == AIRC_META_TENSOR && c->nout == 1 ? &c->out[0] : NULL;
    if (!pm || !cm)
        return INV_NONE;
    if (!strcmp(q, "aten.squeeze.default")) /* size-1 dims out: a view puts them back */
        return same_shape(pm, cm) ? INV_IDENTITY : INV_VIEW;
    if (!strcmp(q, "aten.squeeze.dim") || !strcmp(q, "aten.expand.default"))
        return same_shape(pm, cm)                                           ? INV_IDENTITY
               : !strcmp(q, "aten.squeeze.dim") && pm->ndim == cm->ndim + 1 ? INV_UNSQUEEZE
                                                                            : INV_NONE;
    if (!strcmp(q, "aten.view.default") || !strcmp(q, "aten._reshape_alias.default") ||
        (!strcmp(q, "aten.reshape.default") && airc_tmeta_is_contiguous(pm)))
        return INV_VIEW;
    return INV_NONE;
}

/* Written through view c: every view on the chain down to the root can
 * send its new value back. */
static bool invertible(const fstate *s, airc_node *c)
{
    for (int depth = 0; s->f[c->id].ident == c; c = inverse_src(s, c))
        if (++depth > 64 || inverse_kind(s, c) == INV_NONE)
            return false;
    return true;
}

static airc_status int_list(airc_graph *g, const int64_t *v, int32_t n, const airc_value **out)
{
    const airc_value *items[AIRC_MAX_DIMS];
    for (int32_t i = 0; i < n; i++)
        AIRC_TRY(airc_value_int(g, v[i], &items[i]));
    return airc_value_list(g, items, (size_t)n, out);
}

/* Item j of split / unbind (c) written as v: p (what the split views)
 * with the item's range along dim replaced, as torch's functionalization
 * does (split_with_sizes' inverse is a slice_scatter per item). */
static airc_status item_inverse(fstate *s, airc_node *c, airc_node *p, airc_node *v,
                                airc_node **out)
{
    int64_t j, dim = 0;
    const airc_node *t = split_of_item(c, &j);
    const airc_value *bound[8], *args[6];
    if (t->op->schema->nargs > 8)
        return airc_fail(AIRC_E_INTERNAL, "functionalize: '%s' has no inverse", c->name);
    airc_schema_bind(t, bound);
    const airc_value *d = bound[t->op->schema->nargs - 1]; /* dim: the last argument */
    if (d)
        AIRC_TRY(airc_value_get_int(d, &dim));
    int32_t nd = t->args[0]->u.node->out[0].ndim;
    dim = dim < 0 ? dim + nd : dim;
    if (dim < 0 || dim >= nd)
        return airc_fail(AIRC_E_INVALID_GRAPH, "'%s': dim out of range", t->name);
    bool unbind = !strcmp(t->op->qualname, "aten.unbind.int");
    int64_t start = 0;
    for (int64_t k = 0; k < j; k++)
        start += unbind ? 1 : t->out[k].shape[dim];
    AIRC_TRY(airc_value_node(s->g, p, &args[0]));
    AIRC_TRY(airc_value_node(s->g, v, &args[1]));
    AIRC_TRY(airc_value_int(s->g, dim, &args[2]));
    AIRC_TRY(airc_value_int(s->g, start, &args[3]));
    if (unbind)
        return make(s, "aten.select_scatter.default", args, 4, NULL, NULL, 0, out);
    AIRC_TRY(airc_value_int(s->g, start + t->out[j].shape[dim], &args[4]));
    AIRC_TRY(airc_value_int(s->g, 1, &args[5]));
    return make(s, "aten.slice_scatter.default", args, 6, NULL, NULL, 0, out);
}

/* *out: what view c views (now p), with c's part replaced by v. */
static airc_status inverse(fstate *s, airc_node *c, airc_node *p, airc_node *v, airc_node **out)
{
    const airc_value *args[66], *bound[8];
    const char *q = c->op->qualname;
    if (c->op->schema->nargs > 8)
        return airc_fail(AIRC_E_INTERNAL, "functionalize: view '%s' has no inverse", c->name);
    airc_schema_bind(c, bound); /* the views above take at most 5 arguments */
    AIRC_TRY(airc_value_node(s->g, v, &args[0]));
    switch (inverse_kind(s, c)) {
    case INV_SCATTER:
        AIRC_TRY(airc_value_node(s->g, p, &args[0]));
        AIRC_TRY(airc_value_node(s->g, v, &args[1]));
        memcpy(args + 2, c->args + 1, (c->nargs - 1) * sizeof *args);
        return make(s,
                    strcmp(q, "aten.slice.Tensor") ? "aten.select_scatter.default"
                                                   : "aten.slice_scatter.default",
                    args, c->nargs + 1, c->kw_names, c->kw_values, c->nkw, out);
    case INV_SAME:
        memcpy(args + 1, c->args + 1, (c->nargs - 1) * sizeof *args);
        return make(s, q, args, c->nargs, c->kw_names, c->kw_values, c->nkw, out);
    case INV_PERMUTE: {
        int64_t perm[AIRC_MAX_DIMS], inv[AIRC_MAX_DIMS];
        size_t n = bound[1] ? airc_value_length(bound[1]) : 0;
        if (!n || n > AIRC_MAX_DIMS)
            return airc_fail(AIRC_E_INVALID_GRAPH, "permute '%s': bad dims", c->name);
        for (size_t i = 0; i < n; i++) {
            AIRC_TRY(airc_value_get_int(airc_value_item(bound[1], i), &perm[i]));
            perm[i] = perm[i] < 0 ? perm[i] + (int64_t)n : perm[i];
            if (perm[i] < 0 || perm[i] >= (int64_t)n)
                return airc_fail(AIRC_E_INVALID_GRAPH, "permute '%s': bad dims", c->name);
            inv[perm[i]] = (int64_t)i;
        }
        AIRC_TRY(int_list(s->g, inv, (int32_t)n, &args[1]));
        return make(s, q, args, 2, NULL, NULL, 0, out);
    }
    case INV_SQUEEZE:
    case INV_UNSQUEEZE:
        args[1] = bound[1];
        return make(
            s, inverse_kind(s, c) == INV_SQUEEZE ? "aten.squeeze.dim" : "aten.unsqueeze.default",
            args, 2, NULL, NULL, 0, out);
    case INV_VIEW: {
        const airc_tmeta *pm = source_meta(s, c);
        AIRC_TRY(int_list(s->g, pm->shape, pm->ndim, &args[1]));
        return make(s, "aten.view.default", args, 2, NULL, NULL, 0, out);
    }
    case INV_DTYPE: {
        const airc_tmeta *pm = source_meta(s, c);
        AIRC_TRY(airc_value_dtype(s->g, pm->dtype, &args[1]));
        return make(s, q, args, 2, NULL, NULL, 0, out);
    }
    case INV_ITEM: return item_inverse(s, c, p, v, out);
    case INV_IDENTITY: *out = v; return AIRC_OK;
    case INV_NONE: break;
    }
    return airc_fail(AIRC_E_INTERNAL, "functionalize: view '%s' has no inverse", c->name);
}

/* v is the new value of view node c: scatter it back up the chain of
 * views to the class root, whose latest value it becomes. Every view on
 * the chain now reads its new value; any other view of the root is stale
 * and replayed when read. */
static airc_status write_through(fstate *s, airc_node *c, airc_node *v)
{
    airc_node *chain[65];
    size_t n = 0;
    for (;;) {
        airc_node *src = inverse_src(s, c), *p, *pv;
        AIRC_TRY(current(s, src, false, &p));
        AIRC_TRY(inverse(s, c, p, v, &pv));
        AIRC_TRY(try_meta(pv, &(bool){false}));
        s->f[v->id].ident = c;
        s->f[c->id].val = v;
        chain[n++] = c;
        if (s->f[src->id].ident != src) {
            airc_node *root = root_of(s, src);
            s->f[pv->id].base = root;
            s->f[pv->id].ident = NULL;
            s->f[root->id].latest = pv;
            uint32_t version = ++s->f[root->id].version;
            for (size_t i = 0; i < n; i++) {
                s->f[chain[i]->id].stamp = version;
                s->f[chain[i]->id].functional = true;
            }
            return AIRC_OK;
        }
        c = src;
        v = pv;
    }
}

/* ---- in-place ops ---------------------------------------------------------- */

/* Replaces in-place node n by its twin; *done false when n is kept. */
static airc_status functionalize_node(fstate *s, airc_node *n, const airc_value **bound, bool *done)
{
    const airc_schema *sc = n->op->schema;
    uint32_t pos[64], npos;
    *done = false;
    const char *why = NULL;
    const airc_op *twin = NULL;
    bool tensors = written_args(n, bound, pos, &npos);
    if (!tensors)
        why = "it writes a list or a non-tensor";
    bool form_a = !why && sc->nrets == 1 && npos == 1 && aliased_return(sc, pos[0]) == 0;
    bool form_b = sc->nrets == 0;
    for (uint32_t k = 0; !why && k < npos; k++) {
        airc_node *c = s->f[bound[pos[k]]->u.node->id].ident;
        if (c && !invertible(s, c))
            why = "it writes through a view that cannot be scattered back";
    }
    if (!why)
        AIRC_TRY(airc_op_functional_twin(s->ctx, n->op, &twin));
    if (!why && !twin)
        why = "no out-of-place twin is registered";
    if (!why && !(form_a && twin->schema->nrets == 1) && !(form_b && twin->schema->nrets == npos))
        why = "its returns do not match its twin's";
    if (form_a) { /* the result aliases what it writes */
        airc_node *w = bound[pos[0]]->u.node;
        if (s->f[w->id].ident)
            s->f[n->id].ident = s->f[w->id].ident;
        else if (!s->f[n->id].base)
            s->f[n->id].base = root_of(s, w);
    }
    if (why) {
        airc_log(s->ctx, AIRC_LOG_INFO, "functionalize: kept '%s' (%s): %s", n->name,
                 n->op->qualname, why);
        /* it mutates in place: what it writes must alias the root's latest
         * value, and every view of the root then reads the result afresh */
        for (uint32_t k = 0; tensors && k < npos; k++) {
            airc_node *w = bound[pos[k]]->u.node, *c = s->f[w->id].ident, *a;
            if (c) {
                AIRC_TRY(current(s, c, true, &a));
                if (a != w)
                    AIRC_TRY(airc_node_replace_input_with(n, w, a));
            }
            s->f[(c ? view_root(s, c) : root_of(s, w))->id].version++;
        }
        return AIRC_OK;
    }
    airc_node *t;
    AIRC_TRY(make(s, twin->qualname, n->args, n->nargs, n->kw_names, n->kw_values, n->nkw, &t));
    airc_node *value = t;
    if (form_a)
        AIRC_TRY(cast_back(s, t, bound[pos[0]]->u.node, &value));
    for (uint32_t k = 0; k < npos; k++) {
        airc_node *v = value;
        if (npos > 1)
            AIRC_TRY(getitem(s->g, t, k, &v));
        if (!ensure(s))
            return airc_fail_oom("functionalize tables");
        airc_node *w = bound[pos[k]]->u.node, *c = s->f[w->id].ident;
        if (c) {
            AIRC_TRY(write_through(s, c, v));
            continue;
        }
        airc_node *root = root_of(s, w);
        s->f[v->id].base = root;
        s->f[root->id].latest = v;
        s->f[root->id].version++;
    }
    if (!airc_grow(s->ctx, (void **)&s->dead, &s->dead_cap, s->ndead + 1, sizeof *s->dead))
        return airc_fail_oom("functionalize list");
    s->dead[s->ndead++] = n;
    *done = true;
    return AIRC_OK;
}

/* n views src (read now): n becomes a view node, up to date. */
static void track_view(fstate *s, airc_node *n, airc_node *src)
{
    airc_node *c = s->f[src->id].ident;
    finfo *f = &s->f[n->id];
    f->ident = n;
    f->vsrc = c ? c : src;
    f->val = n;
    f->stamp = s->f[view_root(s, n)->id].version;
    f->functional = c && s->f[c->id].functional;
}

static airc_status write_back(fstate *s)
{
    airc_node *out = airc_graph_output_node(s->g);
    if (out)
        AIRC_TRY(airc_graph_set_insert_point(s->g, AIRC_INSERT_BEFORE, out));
    else
        AIRC_TRY(airc_graph_set_insert_point(s->g, AIRC_INSERT_END, NULL));
    for (airc_node *p = s->g->root.next; p != &s->g->root; p = p->next) {
        if (p->kind != AIRC_NODE_PLACEHOLDER && p->kind != AIRC_NODE_GET_ATTR)
            continue;
        if (p->id >= s->cap || !s->f[p->id].latest)
            continue;
        const airc_value *args[2];
        AIRC_TRY(airc_value_node(s->g, p, &args[0]));
        AIRC_TRY(airc_value_node(s->g, s->f[p->id].latest, &args[1]));
        airc_node *c;
        AIRC_TRY(airc_graph_create_node(s->g, AIRC_NODE_CALL_FUNCTION, "aten.copy_.default", args,
                                        2, NULL, NULL, 0, NULL, &c));
    }
    return AIRC_OK;
}

static airc_status run(fstate *s, int32_t *changed)
{
    if (!ensure(s))
        return airc_fail_oom("functionalize tables");
    const airc_value *bound[64];
    for (airc_node *n = s->g->root.next; n != &s->g->root; n = n->next) {
        if (n->kind == AIRC_NODE_CALL_FUNCTION || n->kind == AIRC_NODE_OUTPUT)
            AIRC_TRY(airc_graph_set_insert_point(s->g, AIRC_INSERT_BEFORE, n));
        join_items(s, n);
        if (n->kind == AIRC_NODE_OUTPUT)
            AIRC_TRY(expand_written_tuples(s, n));
        AIRC_TRY(rewire_inputs(s, n));
        if (n->kind == AIRC_NODE_CALL_FUNCTION && n->op->schema->is_mutable &&
            (n->op->flags & AIRC_OP_VIEW))
            AIRC_TRY(unwrite_view(n, changed));
        if (n->kind == AIRC_NODE_CALL_FUNCTION && is_view_op(n->op))
            AIRC_TRY(positional_leading(n));
        if (is_view_result(n) && n->nargs && n->args[0]->kind == AIRC_VALUE_NODE)
            track_view(s, n, n->args[0]->u.node);
        if (n->kind != AIRC_NODE_CALL_FUNCTION || !n->op->schema->is_mutable ||
            n->op->schema->nargs > 64)
            continue;
        airc_schema_bind(n, bound);
        if (is_final_writeback(s, n, bound))
            continue;
        bool done;
        AIRC_TRY(functionalize_node(s, n, bound, &done));
        *changed |= done;
    }
    *changed |= s->created;
    if (!s->ndead)
        return AIRC_OK;
    AIRC_TRY(write_back(s));
    for (size_t i = s->ndead; i-- > 0;) {
        airc_node *n = s->dead[i];
        if (n->nusers)
            return airc_fail(AIRC_E_INTERNAL, "functionalize: '%s' still has users", n->name);
        AIRC_TRY(airc_graph_erase_node(s->g, n));
    }
    return AIRC_OK;
}

airc_status airc_pass_functionalize(airc_graph *g, int32_t *changed)
{
    AIRC_TRY(airc_check_graph(g, "airc_pass_functionalize"));
    int32_t where;
    airc_node *anchor;
    AIRC_TRY(airc_graph_get_insert_point(g, &where, &anchor));
    fstate s = {.g = g, .ctx = g->ctx};
    int32_t any = 0;
    airc_status st = run(&s, &any);
    if (st != AIRC_OK)
        airc_fail_prefix("functionalize");
    /* the anchor may have been functionalized away */
    if (anchor && anchor->erased)
        where = AIRC_INSERT_END, anchor = NULL;
    (void)airc_graph_set_insert_point(g, where, anchor);
    airc_free(g->ctx, s.f);
    airc_free(g->ctx, s.dead);
    if (st == AIRC_OK && changed)
        *changed = any;
    return st;
}
