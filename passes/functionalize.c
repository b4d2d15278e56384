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
 * with the same argument names and no writes.
 *
 * Values are tracked per alias class (a tensor, the results of in-place
 * ops on it, and the functional values that replace it): walking in order,
 * each node's inputs are first rewired to the latest value of their class,
 * so every use after a mutation reads the functional result and every use
 * before it still reads the old value. Classes rooted at a graph input or
 * a constant are written back before the output with
 * aten.copy_.default(input, latest), as torch's functionalization does.
 *
 * Kept in place, with an info log: ops without a twin, written lists
 * (`Tensor(a!)[]`), writes through a view, and writes to a tensor of which
 * a view was taken before (the view would have to be replayed on the new
 * value, which this pass does not do). Kept ops stay correct: they mutate
 * the class's latest value in place, and later uses read that value. */
#include "passmgr/passmgr.h"
#include "ops/ops.h"

#include <stdio.h>
#include <string.h>

typedef struct fstate {
    airc_graph *g;
    airc_context *ctx;
    airc_node **base;   /* by id: the class root (NULL: the node itself) */
    airc_node **latest; /* by root id: the current value (NULL: the root) */
    bool *viewed;       /* by root id: a view of the class exists (so far) */
    size_t cap;         /* entries of the three arrays */
    airc_node **dead;   /* functionalized nodes, erased at the end */
    size_t ndead, dead_cap;
} fstate;

static bool ensure(fstate *s)
{
    size_t need = s->g->next_id;
    if (need <= s->cap)
        return true;
    size_t cap = s->cap ? s->cap : 64;
    while (cap < need)
        cap *= 2;
    airc_node **b = airc_realloc(s->ctx, s->base, cap * sizeof *b);
    if (!b)
        return false;
    s->base = b;
    airc_node **l = airc_realloc(s->ctx, s->latest, cap * sizeof *l);
    if (!l)
        return false;
    s->latest = l;
    bool *u = airc_realloc(s->ctx, s->viewed, cap * sizeof *u);
    if (!u)
        return false;
    s->viewed = u;
    memset(s->base + s->cap, 0, (cap - s->cap) * sizeof *b);
    memset(s->latest + s->cap, 0, (cap - s->cap) * sizeof *l);
    memset(s->viewed + s->cap, 0, (cap - s->cap) * sizeof *u);
    s->cap = cap;
    return true;
}

static airc_node *root_of(const fstate *s, airc_node *x)
{
    return s->base[x->id] ? s->base[x->id] : x;
}

/* What a use of x reads now: the class's functional value once one of its
 * mutations was replaced, x itself otherwise. */
static airc_node *latest_of(const fstate *s, airc_node *x)
{
    airc_node *r = root_of(s, x);
    return s->latest[r->id] ? s->latest[r->id] : x;
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

static airc_status rewire_inputs(fstate *s, airc_node *n)
{
    for (size_t i = 0; i < n->ninputs;) {
        airc_node *x = n->inputs[i];
        airc_node *now = latest_of(s, x);
        if (now == x) {
            i++;
            continue;
        }
        AIRC_TRY(airc_node_replace_input_with(n, x, now));
        i = 0; /* the input list was rebuilt: rescan (few inputs) */
    }
    return AIRC_OK;
}

/* A copy_ of a graph input that nothing reads afterwards is already the
 * write-back this pass would emit: leave it, so the pass is idempotent. */
static bool is_final_writeback(const fstate *s, const airc_node *n, const airc_value **bound)
{
    if (strcmp(n->op->qualname, "aten.copy_.default") || n->nusers || !bound[0] ||
        bound[0]->kind != AIRC_VALUE_NODE)
        return false;
    airc_node *p = bound[0]->u.node;
    if (p->kind != AIRC_NODE_PLACEHOLDER || s->latest[p->id])
        return false;
    for (size_t i = 0; i < p->nusers; i++)
        if (p->users[i]->order > n->order)
            return false;
    return true;
}

/* aten in-place ops whose functional variant has another overload name
 * (native_functions.yaml): pow_.Scalar is pow(Tensor, Scalar), which is
 * pow.Tensor_Scalar, while pow.Scalar is pow(Scalar, Tensor). */
static const char *const renamed_twins[][2] = {
    {"aten.pow_.Scalar", "aten.pow.Tensor_Scalar"},
    {"aten.pow_.Tensor", "aten.pow.Tensor_Tensor"},
    {"aten.zero_.default", "aten.zeros_like.default"},
};

static bool same_type(const airc_type *a, const airc_type *b)
{
    return a->kind == b->kind && a->optional == b->optional && a->is_list == b->is_list &&
           a->elem_optional == b->elem_optional;
}

static airc_status find_twin(airc_context *ctx, const airc_op *op, const airc_op **twin)
{
    *twin = NULL;
    const char *q = op->qualname;
    char buf[256];
    const char *dot = strrchr(q, '.');
    size_t r = 0, nr = sizeof renamed_twins / sizeof renamed_twins[0];
    while (r < nr && strcmp(renamed_twins[r][0], q))
        r++;
    if (r < nr) {
        snprintf(buf, sizeof buf, "%s", renamed_twins[r][1]);
    } else {
        if (!dot || dot == q || dot[-1] != '_' || (dot - q >= 2 && dot[-2] == '_'))
            return AIRC_OK; /* not name_ (dunder names are not in-place variants) */
        size_t head = (size_t)(dot - q) - 1, tail = strlen(dot);
        if (head + tail + 1 > sizeof buf)
            return AIRC_OK;
        memcpy(buf, q, head);
        memcpy(buf + head, dot, tail + 1);
    }
    airc_status st = airc_registry_find(ctx, buf, strlen(buf), twin);
    if (st == AIRC_E_NOT_FOUND) {
        *twin = NULL;
        return AIRC_OK;
    }
    if (st != AIRC_OK)
        return st;
    /* a twin takes the same arguments (plus keyword-only ones with
     * defaults: zeros_like's dtype, layout, ...) and writes none */
    const airc_schema *a = op->schema, *b = (*twin)->schema;
    bool ok = !b->is_mutable && a->nargs <= b->nargs;
    for (uint32_t i = 0; ok && i < a->nargs; i++)
        ok = !strcmp(a->args[i].name, b->args[i].name) &&
             same_type(&a->args[i].type, &b->args[i].type) &&
             a->args[i].kwarg_only == b->args[i].kwarg_only;
    for (uint32_t i = a->nargs; ok && i < b->nargs; i++)
        ok = b->args[i].kwarg_only && b->args[i].def;
    if (!ok)
        *twin = NULL;
    return AIRC_OK;
}

static airc_status getitem(airc_graph *g, airc_node *src, int64_t i, airc_node **out)
{
    const airc_value *args[2];
    AIRC_TRY(airc_value_node(g, src, &args[0]));
    AIRC_TRY(airc_value_int(g, i, &args[1]));
    return airc_graph_create_node(g, AIRC_NODE_CALL_FUNCTION, AIRC_OP_GETITEM, args, 2, NULL,
                                  NULL, 0, NULL, out);
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
    bool self_known = self->meta_kind == AIRC_META_TENSOR && self->nout == 1;
    bool known = self_known && twin->meta;
    for (size_t i = 0; known && i < t->ninputs; i++)
        known = t->inputs[i]->meta_kind != AIRC_META_NONE;
    if (known && twin->meta(t, twin->meta_user_data) != AIRC_OK) {
        airc_set_error(AIRC_OK, "");
        AIRC_TRY(airc_node_clear_meta(t));
        known = false;
    }
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

/* Replaces in-place node n by its twin; *done false when n is kept. */
static airc_status functionalize_node(fstate *s, airc_node *n, const airc_value **bound,
                                      bool *done)
{
    const airc_schema *sc = n->op->schema;
    uint32_t pos[64], npos;
    *done = false;
    const char *why = NULL;
    const airc_op *twin = NULL;
    if (!written_args(n, bound, pos, &npos))
        why = "it writes a list or a non-tensor";
    bool form_a = !why && sc->nrets == 1 && npos == 1 && aliased_return(sc, pos[0]) == 0;
    bool form_b = sc->nrets == 0;
    for (uint32_t k = 0; !why && k < npos; k++) {
        airc_node *root = root_of(s, bound[pos[k]]->u.node);
        if (is_view_result(root))
            why = "it writes through a view";
        else if (s->viewed[root->id])
            why = "the tensor it writes has views";
    }
    if (!why)
        AIRC_TRY(find_twin(s->ctx, n->op, &twin));
    if (!why && !twin)
        why = "no out-of-place twin is registered";
    if (!why && !(form_a && twin->schema->nrets == 1) &&
        !(form_b && twin->schema->nrets == npos))
        why = "its returns do not match its twin's";
    if (form_a && !s->base[n->id]) /* the result aliases what it writes */
        s->base[n->id] = root_of(s, bound[pos[0]]->u.node);
    if (why) {
        airc_log(s->ctx, AIRC_LOG_INFO, "functionalize: kept '%s' (%s): %s", n->name,
                 n->op->qualname, why);
        return AIRC_OK;
    }
    AIRC_TRY(airc_graph_set_insert_point(s->g, AIRC_INSERT_BEFORE, n));
    airc_node *t;
    AIRC_TRY(airc_graph_create_node(s->g, AIRC_NODE_CALL_FUNCTION, twin->qualname, n->args,
                                    n->nargs, n->kw_names, n->kw_values, n->nkw, NULL, &t));
    airc_node *value = t;
    if (form_a)
        AIRC_TRY(cast_back(s, t, bound[pos[0]]->u.node, &value));
    for (uint32_t k = 0; k < npos; k++) {
        airc_node *v = value;
        if (npos > 1)
            AIRC_TRY(getitem(s->g, t, k, &v));
        if (!ensure(s))
            return airc_fail_oom("functionalize tables");
        airc_node *root = root_of(s, bound[pos[k]]->u.node);
        s->base[v->id] = root;
        s->latest[root->id] = v;
    }
    if (!airc_grow(s->ctx, (void **)&s->dead, &s->dead_cap, s->ndead + 1, sizeof *s->dead))
        return airc_fail_oom("functionalize list");
    s->dead[s->ndead++] = n;
    *done = true;
    return AIRC_OK;
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
        if (p->id >= s->cap || !s->latest[p->id])
            continue;
        const airc_value *args[2];
        AIRC_TRY(airc_value_node(s->g, p, &args[0]));
        AIRC_TRY(airc_value_node(s->g, s->latest[p->id], &args[1]));
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
        AIRC_TRY(rewire_inputs(s, n));
        if (is_view_result(n) && n->ninputs) /* views made before a mutation see it */
            s->viewed[root_of(s, n->inputs[0])->id] = true;
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
    airc_free(g->ctx, s.base);
    airc_free(g->ctx, s.latest);
    airc_free(g->ctx, s.viewed);
    airc_free(g->ctx, s.dead);
    if (st == AIRC_OK && changed)
        *changed = any;
    return st;
}
