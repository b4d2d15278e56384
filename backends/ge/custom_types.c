/* Custom GE op types (airc_context_set_ge_op): a per-context table from GE
 * type to the ATen op it computes, and the raiser the reference executor
 * uses for those types.
 *
 * The table is created on first use (a compare-and-swap publishes it) and
 * dies with the context. Entries are never removed; declaring a type again
 * replaces its op under the lock, and lookups copy the entry out, so a
 * reader never sees a half-written entry. Ops live as long as the context.
 *
 * Raising: the GE op's data inputs fill the callee's Tensor / Tensor?
 * arguments in schema order, its attributes the other arguments by name,
 * and its outputs are the callee's results in order. The callee of an op
 * that writes arguments is its functional twin (result k = new value of
 * written argument k). */
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"
#include "ops/ops.h"

#include <stdio.h>
#include <string.h>

typedef struct ge_type_entry {
    char *type;
    airc_ge_custom_type t;
} ge_type_entry;

struct airc_ge_type_table {
    pthread_mutex_t lock;
    ge_type_entry *items;
    size_t n, cap;
};

static airc_ge_type_table *get_table(airc_context *ctx, bool create)
{
    airc_ge_type_table *t = atomic_load(&ctx->ge_types);
    if (t || !create)
        return t;
    t = airc_calloc(ctx, 1, sizeof *t);
    if (!t)
        return NULL;
    if (pthread_mutex_init(&t->lock, NULL)) {
        airc_free(ctx, t);
        return NULL;
    }
    airc_ge_type_table *expected = NULL;
    if (!atomic_compare_exchange_strong(&ctx->ge_types, &expected, t)) {
        pthread_mutex_destroy(&t->lock); /* another thread won */
        airc_free(ctx, t);
        return expected;
    }
    return t;
}

void airc_ge_type_table_destroy(airc_context *ctx)
{
    airc_ge_type_table *t = atomic_exchange(&ctx->ge_types, NULL);
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++)
        airc_free(ctx, t->items[i].type);
    airc_free(ctx, t->items);
    pthread_mutex_destroy(&t->lock);
    airc_free(ctx, t);
}

/* Whether the executor can fill every argument of s and hold its results;
 * names the first obstacle. */
static airc_status check_callable(const airc_op *op, const char *why)
{
    const airc_schema *s = op->schema;
    for (uint32_t i = 0; i < s->nargs; i++) {
        const airc_type *ty = &s->args[i].type;
        if (ty->kind == AIRC_TYPE_TENSOR && ty->is_list)
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "airc_context_set_ge_op: %s%s: argument '%s' is a Tensor list (GE "
                             "data inputs map to Tensor and Tensor? arguments only)",
                             op->qualname, why, s->args[i].name);
    }
    if (!s->nrets || s->varret)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "airc_context_set_ge_op: %s%s returns no fixed list of tensors",
                         op->qualname, why);
    for (uint32_t j = 0; j < s->nrets; j++) {
        const airc_type *ty = &s->rets[j].type;
        if (ty->kind != AIRC_TYPE_TENSOR || ty->is_list || ty->optional)
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "airc_context_set_ge_op: %s%s: result %u is a %s, not a Tensor",
                             op->qualname, why, j, ty->text);
    }
    return AIRC_OK;
}

airc_status airc_context_set_ge_op(airc_context *ctx, const char *ge_type, const char *opname)
{
    static const char fn[] = "airc_context_set_ge_op";
    AIRC_TRY(airc_check_context(ctx, fn));
    if (!ge_type || !*ge_type || !opname || !*opname)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: NULL or empty %s", fn,
                         !ge_type || !*ge_type ? "GE type" : "op name");
    if (!strcmp(ge_type, "Data") || !strcmp(ge_type, "Const") || !strcmp(ge_type, "NetOutput"))
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "%s: '%s' is a structural GE type the executor handles itself", fn,
                         ge_type);
    const airc_op *op;
    airc_status st = airc_registry_find(ctx, opname, strlen(opname), &op);
    if (st != AIRC_OK)
        return airc_fail_prefix("%s: GE type '%s'", fn, ge_type);
    if (!op->schema)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: %s has no schema", fn, op->qualname);
    const airc_op *call = op;
    if (op->schema->is_mutable) {
        call = NULL;
        AIRC_TRY(airc_op_functional_twin(ctx, op, &call));
        if (!call)
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "%s: %s writes arguments and has no functional twin (it must return "
                             "() or exactly its written arguments)",
                             fn, op->qualname);
        AIRC_TRY(check_callable(call, " (the functional twin)"));
    } else {
        AIRC_TRY(check_callable(op, ""));
    }
    airc_ge_type_table *t = get_table(ctx, true);
    if (!t)
        return airc_fail_oom("GE type table");
    st = AIRC_OK;
    pthread_mutex_lock(&t->lock);
    size_t i = 0;
    while (i < t->n && strcmp(t->items[i].type, ge_type))
        i++;
    if (i == t->n) {
        char *name = airc_strdup(ctx, ge_type);
        if (!name || !airc_grow(ctx, (void **)&t->items, &t->cap, t->n + 1, sizeof *t->items)) {
            airc_free(ctx, name);
            st = airc_fail_oom("GE type table");
        } else {
            t->items[t->n++].type = name;
        }
    }
    if (st == AIRC_OK)
        t->items[i].t = (airc_ge_custom_type){op, call};
    pthread_mutex_unlock(&t->lock);
    return st;
}

bool airc_ge_custom_type_find(airc_context *ctx, const char *ge_type, airc_ge_custom_type *out)
{
    airc_ge_type_table *t = get_table(ctx, false);
    if (!t || !ge_type)
        return false;
    bool found = false;
    pthread_mutex_lock(&t->lock);
    for (size_t i = 0; i < t->n && !found; i++)
        if (!strcmp(t->items[i].type, ge_type)) {
            *out = t->items[i].t;
            found = true;
        }
    pthread_mutex_unlock(&t->lock);
    return found;
}

/* ---- raising ------------------------------------------------------------------------ */

static const char *attr_kind_name(const Ge__Proto__AttrDef *a)
{
    switch (a->value_case) {
    case GE__PROTO__ATTR_DEF__VALUE_I: return "an int";
    case GE__PROTO__ATTR_DEF__VALUE_F: return "a float";
    case GE__PROTO__ATTR_DEF__VALUE_B: return "a bool";
    case GE__PROTO__ATTR_DEF__VALUE_S: return "a string";
    case GE__PROTO__ATTR_DEF__VALUE_DT: return "a dtype";
    case GE__PROTO__ATTR_DEF__VALUE_LIST: return "a list";
    default: return "of another kind";
    }
}

/* A list attribute as a list value of the argument's element kind. */
static airc_status list_value(ge_raise *r, const airc_type *ty, const Ge__Proto__AttrDef *a,
                              const airc_value **out)
{
    const Ge__Proto__AttrDef__ListValue *l = a->list;
    size_t n = ty->kind == AIRC_TYPE_FLOAT ? l->n_f : ty->kind == AIRC_TYPE_BOOL ? l->n_b : l->n_i;
    /* an empty list is typed NONE by some writers: accept it for any kind */
    if (!n && !l->n_i && !l->n_f && !l->n_b && !l->n_s)
        return airc_value_list(r->g, NULL, 0, out);
    if (!n)
        return AIRC_E_INVALID_GRAPH;
    const airc_value **items = airc_calloc(r->g->ctx, n, sizeof *items);
    if (!items)
        return airc_fail_oom("raised list attribute");
    airc_status st = AIRC_OK;
    for (size_t k = 0; st == AIRC_OK && k < n; k++)
        st = ty->kind == AIRC_TYPE_FLOAT  ? airc_value_float(r->g, l->f[k], &items[k])
             : ty->kind == AIRC_TYPE_BOOL ? airc_value_bool(r->g, l->b[k], &items[k])
                                          : airc_value_int(r->g, l->i[k], &items[k]);
    if (st == AIRC_OK)
        st = airc_value_list(r->g, items, n, out);
    airc_free(r->g->ctx, items);
    return st;
}

/* Attribute a as a value for an argument of type ty; AIRC_E_INVALID_GRAPH
 * (no message) when its kind does not fit. */
static airc_status attr_value(ge_raise *r, const airc_type *ty, const Ge__Proto__AttrDef *a,
                              const airc_value **out)
{
    int c = a->value_case;
    if (ty->is_list) {
        if (c != GE__PROTO__ATTR_DEF__VALUE_LIST || !a->list ||
            (ty->kind != AIRC_TYPE_INT && ty->kind != AIRC_TYPE_SYMINT &&
             ty->kind != AIRC_TYPE_FLOAT && ty->kind != AIRC_TYPE_BOOL))
            return AIRC_E_INVALID_GRAPH;
        return list_value(r, ty, a, out);
    }
    switch (ty->kind) {
    case AIRC_TYPE_INT:
    case AIRC_TYPE_SYMINT:
        if (c == GE__PROTO__ATTR_DEF__VALUE_I)
            return airc_value_int(r->g, a->i, out);
        break;
    case AIRC_TYPE_FLOAT:
        if (c == GE__PROTO__ATTR_DEF__VALUE_F)
            return airc_value_float(r->g, a->f, out);
        if (c == GE__PROTO__ATTR_DEF__VALUE_I)
            return airc_value_float(r->g, (double)a->i, out);
        break;
    case AIRC_TYPE_BOOL:
        if (c == GE__PROTO__ATTR_DEF__VALUE_B)
            return airc_value_bool(r->g, a->b, out);
        break;
    case AIRC_TYPE_STR:
        if (c == GE__PROTO__ATTR_DEF__VALUE_S) {
            char *s = airc_malloc(r->g->ctx, a->s.len + 1);
            if (!s)
                return airc_fail_oom("raised string attribute");
            if (a->s.len)
                memcpy(s, a->s.data, a->s.len);
            s[a->s.len] = '\0';
            airc_status st = airc_value_string(r->g, s, out);
            airc_free(r->g->ctx, s);
            return st;
        }
        break;
    case AIRC_TYPE_SCALAR:
        if (c == GE__PROTO__ATTR_DEF__VALUE_I)
            return airc_value_int(r->g, a->i, out);
        if (c == GE__PROTO__ATTR_DEF__VALUE_F)
            return airc_value_float(r->g, a->f, out);
        if (c == GE__PROTO__ATTR_DEF__VALUE_B)
            return airc_value_bool(r->g, a->b, out);
        break;
    case AIRC_TYPE_SCALAR_TYPE:
        if (c == GE__PROTO__ATTR_DEF__VALUE_DT || c == GE__PROTO__ATTR_DEF__VALUE_I) {
            airc_dtype d =
                airc_ge_from_attr_dtype(c == GE__PROTO__ATTR_DEF__VALUE_DT ? a->dt : a->i);
            if (d == AIRC_DTYPE_UNDEFINED)
                return AIRC_E_INVALID_GRAPH;
            return airc_value_dtype(r->g, d, out);
        }
        break;
    default: break;
    }
    return AIRC_E_INVALID_GRAPH;
}

/* Fills the callee's arguments: positional while every argument is given,
 * by keyword after the first one left to its default (and for keyword-only
 * ones). */
static airc_status bind_args(ge_raise *r, const airc_ge_custom_type *ct, const airc_value **pos,
                             size_t *npos, const char **kw_names, const airc_value **kw_values,
                             size_t *nkw)
{
    const airc_schema *s = ct->call->schema;
    size_t next_in = 0;
    bool gap = false;
    *npos = *nkw = 0;
    for (uint32_t i = 0; i < s->nargs; i++) {
        const airc_arg *arg = &s->args[i];
        const airc_value *v = NULL;
        if (arg->type.kind == AIRC_TYPE_TENSOR) {
            airc_node *in = next_in < r->nin ? r->in[next_in] : NULL;
            next_in++;
            if (in) {
                v = airc_ge_vnode(r, in);
                if (!v)
                    return airc_fail_oom("raised arguments");
            } else if (arg->type.optional) {
                AIRC_TRY(airc_value_none(r->g, &v));
            } else {
                return airc_fail(AIRC_E_INVALID_GRAPH,
                                 "op '%s' (%s, declared as %s): input %zu (argument '%s') is %s",
                                 r->op->name, r->op->type, ct->op->qualname, next_in - 1, arg->name,
                                 next_in <= r->nin ? "absent" : "missing");
            }
        } else {
            const Ge__Proto__AttrDef *a = airc_ge_find_attr(r->op, arg->name);
            if (a) {
                airc_status st = attr_value(r, &arg->type, a, &v);
                if (st == AIRC_E_INVALID_GRAPH && !v)
                    return airc_fail(AIRC_E_INVALID_GRAPH,
                                     "op '%s' (%s, declared as %s): attribute '%s' is %s, which "
                                     "does not fit argument type %s",
                                     r->op->name, r->op->type, ct->op->qualname, arg->name,
                                     attr_kind_name(a), arg->type.text);
                AIRC_TRY(st);
            } else if (arg->def) {
                gap = true;
                continue; /* the schema default */
            } else if (arg->type.optional) {
                AIRC_TRY(airc_value_none(r->g, &v));
            } else {
                return airc_fail(AIRC_E_INVALID_GRAPH,
                                 "op '%s' (%s, declared as %s): attribute '%s' (%s) is missing",
                                 r->op->name, r->op->type, ct->op->qualname, arg->name,
                                 arg->type.text);
            }
        }
        if (gap || arg->kwarg_only) {
            kw_names[*nkw] = arg->name;
            kw_values[(*nkw)++] = v;
        } else {
            pos[(*npos)++] = v;
        }
    }
    if (next_in < r->nin)
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "op '%s' (%s, declared as %s): %zu data inputs, but %s takes %zu tensors",
                         r->op->name, r->op->type, ct->op->qualname, r->nin, ct->call->qualname,
                         next_in);
    return AIRC_OK;
}

airc_status airc_ge_raise_custom(ge_raise *r)
{
    const airc_ge_custom_type *ct = r->data;
    const airc_schema *s = ct->call->schema;
    if (r->nout != s->nrets)
        return airc_fail(
            AIRC_E_INVALID_GRAPH, "op '%s' (%s, declared as %s): %zu outputs, but %s returns %u",
            r->op->name, r->op->type, ct->op->qualname, r->nout, ct->call->qualname, s->nrets);
    airc_context *ctx = r->g->ctx;
    size_t n = s->nargs + 1;
    const airc_value **pos = airc_calloc(ctx, n, sizeof *pos);
    const airc_value **kw_values = airc_calloc(ctx, n, sizeof *kw_values);
    const char **kw_names = airc_calloc(ctx, n, sizeof *kw_names);
    size_t npos = 0, nkw = 0;
    airc_status st = pos && kw_values && kw_names ? AIRC_OK : airc_fail_oom("raised arguments");
    if (st == AIRC_OK)
        st = bind_args(r, ct, pos, &npos, kw_names, kw_values, &nkw);
    airc_node *call = NULL;
    if (st == AIRC_OK)
        st = airc_graph_create_node(r->g, AIRC_NODE_CALL_FUNCTION, ct->call->qualname, pos, npos,
                                    (const char *const *)kw_names, kw_values, nkw, NULL, &call);
    airc_free(ctx, pos);
    airc_free(ctx, kw_values);
    airc_free(ctx, kw_names);
    AIRC_TRY(st);
    if (s->nrets == 1) {
        r->out[0] = call;
        return AIRC_OK;
    }
    return airc_ge_raise_getitems(r, call, r->nout);
}
