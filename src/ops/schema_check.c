/* Checks a call_function node's arguments against its op's schema with
 * Python's calling convention (as torch.ops.ns.op.overload(...) checks
 * them), and binds them to schema positions.
 *
 * Accepted kinds follow what torch 1.13 accepts when an op is called
 * (checked with torch.ops.aten.*):
 * - Tensor: a node, or a Python number (int/float/bool), which torch wraps
 *   in a 0-d tensor; make_fx graphs hold `aten.add.Tensor(%x, 1)`.
 * - int / SymInt: int or bool (a Python bool is an int); float: int, float
 *   or bool; bool: bool or int; Scalar: int, float or bool.
 * - ScalarType: dtype or int; Device: device or string; Layout and
 *   MemoryFormat: their enum or int; str and Dimname: string.
 * - A node may also stand for a non-tensor value (sym_size gives a SymInt,
 *   _local_scalar_dense a Scalar, split a Tensor[]), so a node is accepted
 *   for every kind a node can produce: Tensor, the numeric kinds, lists of
 *   them, Generator, Storage, Any; but not for a numeric kind when it
 *   surely holds a tensor (an op returning Tensor, a get_attr, a
 *   placeholder with tensor meta), which torch refuses.
 * - T[] takes a list or tuple of T; int[N] / SymInt[N] also a bare int,
 *   which torch broadcasts. T? and T?[] items take None. */
#include "ops/schema_internal.h"

#include <stdio.h>
#include <string.h>

/* A node that surely holds a tensor: a call whose op returns one Tensor,
 * a get_attr, or a placeholder with tensor meta. torch.ops refuses one for
 * a number argument ("Expected a value of type 'number' ... found type
 * 'Tensor'"), while a node of a SymInt or Scalar (sym_size,
 * _local_scalar_dense, a symbolic input) is accepted. */
static bool holds_tensor(const airc_node *n)
{
    if (!n)
        return false;
    if (n->kind == AIRC_NODE_CALL_FUNCTION && n->op && n->op->schema) {
        const airc_schema *s = n->op->schema;
        return s->nrets == 1 && !s->varret && s->rets[0].type.kind == AIRC_TYPE_TENSOR &&
               !s->rets[0].type.is_list;
    }
    return n->kind == AIRC_NODE_GET_ATTR ||
           (n->kind == AIRC_NODE_PLACEHOLDER && n->meta_kind == AIRC_META_TENSOR);
}

static bool scalar_ok(airc_type_kind kind, const airc_value *v)
{
    airc_value_kind k = v->kind;
    bool number_node = k == AIRC_VALUE_NODE && !holds_tensor(v->u.node);
    switch (kind) {
    case AIRC_TYPE_TENSOR:
        return k == AIRC_VALUE_NODE || k == AIRC_VALUE_INT || k == AIRC_VALUE_FLOAT ||
               k == AIRC_VALUE_BOOL;
    case AIRC_TYPE_FLOAT:
    case AIRC_TYPE_SCALAR:
        return number_node || k == AIRC_VALUE_INT || k == AIRC_VALUE_FLOAT || k == AIRC_VALUE_BOOL;
    case AIRC_TYPE_INT:
    case AIRC_TYPE_SYMINT:
    case AIRC_TYPE_BOOL:
        return number_node || k == AIRC_VALUE_INT || k == AIRC_VALUE_BOOL;
    case AIRC_TYPE_STR:
    case AIRC_TYPE_DIMNAME:
        return k == AIRC_VALUE_STRING;
    case AIRC_TYPE_SCALAR_TYPE:
        return k == AIRC_VALUE_DTYPE || k == AIRC_VALUE_INT;
    case AIRC_TYPE_DEVICE:
        return k == AIRC_VALUE_DEVICE || k == AIRC_VALUE_STRING;
    case AIRC_TYPE_LAYOUT:
        return k == AIRC_VALUE_LAYOUT || k == AIRC_VALUE_INT;
    case AIRC_TYPE_MEMORY_FORMAT:
        return k == AIRC_VALUE_MEMORY_FORMAT || k == AIRC_VALUE_INT;
    case AIRC_TYPE_GENERATOR:
    case AIRC_TYPE_STORAGE:
        return k == AIRC_VALUE_NODE;
    case AIRC_TYPE_ANY:
        return true;
    case AIRC_TYPE_NONE:
        return k == AIRC_VALUE_NONE;
    default:
        return false;
    }
}

static bool node_can_be(airc_type_kind kind)
{
    airc_value item = {.kind = AIRC_VALUE_NODE};
    return scalar_ok(kind, &item);
}

/* Whether v fits type t. On a mismatch inside a list, *bad_index is the
 * item's index (SIZE_MAX otherwise). */
static bool value_ok(const airc_type *t, const airc_value *v, size_t *bad_index)
{
    *bad_index = SIZE_MAX;
    if (!v || v->kind == AIRC_VALUE_NONE)
        return t->optional || t->kind == AIRC_TYPE_ANY || t->kind == AIRC_TYPE_NONE;
    if (!t->is_list)
        return scalar_ok(t->kind, v);
    if (v->kind == AIRC_VALUE_LIST || v->kind == AIRC_VALUE_TUPLE) {
        for (uint32_t k = 0; k < v->len; k++) {
            const airc_value *item = v->u.items[k];
            bool ok = (!item || item->kind == AIRC_VALUE_NONE)
                          ? (t->elem_optional || t->kind == AIRC_TYPE_ANY ||
                             t->kind == AIRC_TYPE_NONE)
                          : scalar_ok(t->kind, item);
            if (!ok) {
                *bad_index = k;
                return false;
            }
        }
        return true;
    }
    if (v->kind == AIRC_VALUE_NODE)
        return node_can_be(t->kind); /* a node producing the whole list */
    /* "int[2] stride=1": torch broadcasts one int to a sized int list */
    if (t->list_size > 0 && (t->kind == AIRC_TYPE_INT || t->kind == AIRC_TYPE_SYMINT))
        return v->kind == AIRC_VALUE_INT || v->kind == AIRC_VALUE_BOOL;
    return false;
}

/* "float 2.0", "str 'a'", "node 'x'", "list", "None" for messages. */
static void describe_value(const airc_value *v, char *buf, size_t cap)
{
    char num[32];
    if (!v) {
        snprintf(buf, cap, "None");
        return;
    }
    switch (v->kind) {
    case AIRC_VALUE_NONE: snprintf(buf, cap, "None"); break;
    case AIRC_VALUE_INT: snprintf(buf, cap, "int %lld", (long long)v->u.i); break;
    case AIRC_VALUE_FLOAT:
        airc_format_double(v->u.f, num);
        snprintf(buf, cap, "float %s", num);
        break;
    case AIRC_VALUE_BOOL: snprintf(buf, cap, "bool %s", v->u.b ? "True" : "False"); break;
    case AIRC_VALUE_STRING:
        snprintf(buf, cap, "str '%.40s%s'", v->u.s, v->len > 40 ? "..." : "");
        break;
    case AIRC_VALUE_NODE:
        snprintf(buf, cap, "node '%.60s'", v->u.node && v->u.node->name ? v->u.node->name : "?");
        break;
    case AIRC_VALUE_DTYPE: {
        const char *name = airc_dtype_torch_name(v->u.dtype);
        snprintf(buf, cap, "dtype %s", name ? name : "?");
        break;
    }
    case AIRC_VALUE_DEVICE:
        snprintf(buf, cap, "device %.40s", v->u.dev.type ? v->u.dev.type : "?");
        break;
    case AIRC_VALUE_MEMORY_FORMAT: snprintf(buf, cap, "memory_format %d", v->u.e); break;
    case AIRC_VALUE_LAYOUT: snprintf(buf, cap, "layout %d", v->u.e); break;
    case AIRC_VALUE_LIST: snprintf(buf, cap, "list of %u", v->len); break;
    case AIRC_VALUE_TUPLE: snprintf(buf, cap, "tuple of %u", v->len); break;
    default: snprintf(buf, cap, "value of kind %d", v->kind); break;
    }
}

static airc_status bad_kind(const airc_node *n, const airc_arg *a, const airc_value *v)
{
    size_t idx;
    char what[128], item[128];
    value_ok(&a->type, v, &idx);
    describe_value(v, what, sizeof what);
    if (idx != SIZE_MAX) {
        describe_value(v->u.items[idx], item, sizeof item);
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "node '%s': %s: argument '%s' (%s) got %s with %s at index %zu",
                         n->name, n->op->qualname, a->name, a->type.text, what, item, idx);
    }
    return airc_fail(AIRC_E_INVALID_GRAPH, "node '%s': %s: argument '%s' (%s) got %s", n->name,
                     n->op->qualname, a->name, a->type.text, what);
}

static int64_t find_arg(const airc_schema *s, const char *name)
{
    for (uint32_t i = 0; i < s->nargs; i++)
        if (strcmp(s->args[i].name, name) == 0)
            return i;
    return -1;
}

airc_status airc_schema_check_node(const airc_node *n)
{
    if (!n || n->kind != AIRC_NODE_CALL_FUNCTION)
        return AIRC_OK;
    if (!n->op || !n->op->schema)
        return airc_fail(AIRC_E_INVALID_GRAPH, "node '%s': call_function without an op schema",
                         n->name ? n->name : "?");
    const airc_schema *s = n->op->schema;
    const char *op = n->op->qualname;

    uint32_t npos = 0; /* parameters that can be given positionally */
    while (npos < s->nargs && !s->args[npos].kwarg_only)
        npos++;
    if (n->nargs > npos && !s->vararg) {
        if (npos < s->nargs)
            return airc_fail(AIRC_E_INVALID_GRAPH,
                             "node '%s': %s: argument '%s' is keyword-only but was given "
                             "positionally (takes %u positional argument%s, %u given)",
                             n->name, op, s->args[npos].name, npos, npos == 1 ? "" : "s",
                             n->nargs);
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "node '%s': %s: takes %u positional argument%s but %u were given",
                         n->name, op, npos, npos == 1 ? "" : "s", n->nargs);
    }
    for (uint32_t k = 0; k < n->nkw; k++) {
        const char *kw = n->kw_names[k];
        int64_t at = find_arg(s, kw);
        if (at < 0) {
            if (s->vararg)
                continue;
            return airc_fail(AIRC_E_INVALID_GRAPH,
                             "node '%s': %s: unexpected keyword argument '%s'", n->name, op, kw);
        }
        if ((uint32_t)at < n->nargs)
            return airc_fail(AIRC_E_INVALID_GRAPH,
                             "node '%s': %s: argument '%s' given both positionally and as a "
                             "keyword",
                             n->name, op, kw);
        for (uint32_t j = 0; j < k; j++)
            if (strcmp(n->kw_names[j], kw) == 0)
                return airc_fail(AIRC_E_INVALID_GRAPH,
                                 "node '%s': %s: keyword argument '%s' given twice", n->name, op,
                                 kw);
        size_t idx;
        if (!value_ok(&s->args[at].type, n->kw_values[k], &idx))
            return bad_kind(n, &s->args[at], n->kw_values[k]);
    }
    for (uint32_t i = 0; i < s->nargs; i++) {
        const airc_value *v = NULL;
        bool given = false;
        if (i < n->nargs) {
            v = n->args[i];
            given = true;
        } else {
            for (uint32_t k = 0; k < n->nkw && !given; k++)
                if (strcmp(n->kw_names[k], s->args[i].name) == 0)
                    given = true; /* checked above */
            if (given)
                continue;
        }
        if (!given) {
            if (!s->args[i].def)
                return airc_fail(AIRC_E_INVALID_GRAPH,
                                 "node '%s': %s: missing required argument '%s' (%s)", n->name,
                                 op, s->args[i].name, s->args[i].type.text);
            continue;
        }
        size_t idx;
        if (!value_ok(&s->args[i].type, v, &idx))
            return bad_kind(n, &s->args[i], v);
    }
    return AIRC_OK;
}

void airc_schema_bind(const airc_node *n, const airc_value **out)
{
    const airc_schema *s = n->op->schema;
    for (uint32_t i = 0; i < s->nargs; i++) {
        const airc_value *v = s->args[i].def;
        if (i < n->nargs) {
            v = n->args[i];
        } else {
            for (uint32_t k = 0; k < n->nkw; k++)
                if (strcmp(n->kw_names[k], s->args[i].name) == 0) {
                    v = n->kw_values[k];
                    break;
                }
        }
        out[i] = v;
    }
}
