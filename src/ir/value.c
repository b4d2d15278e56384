/* Values: immutable, arena-allocated arguments of nodes. */
#include "ir/ir.h"

#include <math.h>
#include <string.h>

airc_value *airc_value_alloc(airc_arena *a, const airc_graph *owner, airc_value_kind kind)
{
    airc_value *v = airc_arena_calloc(a, 1, sizeof *v);
    if (v) {
        v->kind = kind;
        v->owner = owner;
    }
    return v;
}

static airc_status check_g(airc_graph *g, const void *out, const char *fn)
{
    AIRC_TRY(airc_check_graph(g, fn));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: out is NULL", fn);
    return AIRC_OK;
}

static airc_status make(airc_graph *g, airc_value_kind kind, const airc_value **out,
                        airc_value **v, const char *fn)
{
    AIRC_TRY(check_g(g, out, fn));
    *v = airc_value_alloc(&g->arena, g, kind);
    if (!*v)
        return airc_fail_oom("value");
    return AIRC_OK;
}

#define SIMPLE_CTOR(fname, kind, field, ctype)                                                     \
    airc_status fname(airc_graph *g, ctype x, const airc_value **out)                              \
    {                                                                                              \
        airc_value *v;                                                                             \
        AIRC_TRY(make(g, kind, out, &v, #fname));                                                  \
        v->u.field = x;                                                                            \
        *out = v;                                                                                  \
        return AIRC_OK;                                                                            \
    }

SIMPLE_CTOR(airc_value_int, AIRC_VALUE_INT, i, int64_t)
SIMPLE_CTOR(airc_value_float, AIRC_VALUE_FLOAT, f, double)

airc_status airc_value_none(airc_graph *g, const airc_value **out)
{
    airc_value *v;
    AIRC_TRY(make(g, AIRC_VALUE_NONE, out, &v, "airc_value_none"));
    *out = v;
    return AIRC_OK;
}

airc_status airc_value_bool(airc_graph *g, int32_t b, const airc_value **out)
{
    airc_value *v;
    AIRC_TRY(make(g, AIRC_VALUE_BOOL, out, &v, "airc_value_bool"));
    v->u.b = b ? 1 : 0;
    *out = v;
    return AIRC_OK;
}

airc_status airc_value_string(airc_graph *g, const char *s, const airc_value **out)
{
    AIRC_TRY(check_g(g, out, "airc_value_string"));
    if (!s)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_value_string: string is NULL");
    size_t len = strlen(s);
    if (len > UINT32_MAX)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_value_string: string too long");
    airc_value *v = airc_value_alloc(&g->arena, g, AIRC_VALUE_STRING);
    char *copy = v ? airc_arena_strndup(&g->arena, s, len) : NULL;
    if (!copy)
        return airc_fail_oom("string value");
    v->u.s = copy;
    v->len = (uint32_t)len;
    *out = v;
    return AIRC_OK;
}

airc_status airc_value_node(airc_graph *g, airc_node *n, const airc_value **out)
{
    AIRC_TRY(check_g(g, out, "airc_value_node"));
    AIRC_TRY(airc_check_node(n, "airc_value_node"));
    if (n->graph != g)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_value_node: node '%s' belongs to another graph", n->name);
    airc_value *v = airc_value_alloc(&g->arena, g, AIRC_VALUE_NODE);
    if (!v)
        return airc_fail_oom("value");
    v->u.node = n;
    *out = v;
    return AIRC_OK;
}

airc_status airc_value_dtype(airc_graph *g, airc_dtype d, const airc_value **out)
{
    if (!airc_dtype_name(d))
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_value_dtype: invalid dtype %d", (int)d);
    airc_value *v;
    AIRC_TRY(make(g, AIRC_VALUE_DTYPE, out, &v, "airc_value_dtype"));
    v->u.dtype = d;
    *out = v;
    return AIRC_OK;
}

airc_status airc_value_device(airc_graph *g, const char *type, int32_t index,
                              const airc_value **out)
{
    AIRC_TRY(check_g(g, out, "airc_value_device"));
    if (!type || !*type)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_value_device: empty device type");
    for (const char *p = type; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "airc_value_device: bad device type '%.64s'", type);
    if (index < -1)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_value_device: bad index %d", (int)index);
    airc_value *v = airc_value_alloc(&g->arena, g, AIRC_VALUE_DEVICE);
    char *copy = v ? airc_arena_strdup(&g->arena, type) : NULL;
    if (!copy)
        return airc_fail_oom("device value");
    v->u.dev.type = copy;
    v->u.dev.index = index;
    *out = v;
    return AIRC_OK;
}

airc_status airc_value_memory_format(airc_graph *g, airc_memory_format f, const airc_value **out)
{
    if (f < AIRC_MEMORY_FORMAT_CONTIGUOUS || f > AIRC_MEMORY_FORMAT_CHANNELS_LAST_3D)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_value_memory_format: invalid format %d",
                         (int)f);
    airc_value *v;
    AIRC_TRY(make(g, AIRC_VALUE_MEMORY_FORMAT, out, &v, "airc_value_memory_format"));
    v->u.e = f;
    *out = v;
    return AIRC_OK;
}

airc_status airc_value_layout(airc_graph *g, airc_layout l, const airc_value **out)
{
    if (l < AIRC_LAYOUT_STRIDED || l > AIRC_LAYOUT_SPARSE_COO)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_value_layout: invalid layout %d", (int)l);
    airc_value *v;
    AIRC_TRY(make(g, AIRC_VALUE_LAYOUT, out, &v, "airc_value_layout"));
    v->u.e = l;
    *out = v;
    return AIRC_OK;
}

static airc_status make_seq(airc_graph *g, airc_value_kind kind, const airc_value *const *items,
                            size_t n, const airc_value **out, const char *fn)
{
    AIRC_TRY(check_g(g, out, fn));
    if (n && !items)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: items is NULL", fn);
    if (n > UINT32_MAX)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: too many items", fn);
    uint32_t depth = 0;
    for (size_t i = 0; i < n; i++) {
        if (items[i] && items[i]->depth > depth)
            depth = items[i]->depth;
        if (!items[i])
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: item %zu is NULL", fn, i);
        if (items[i]->owner != g)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "%s: item %zu belongs to another graph", fn, i);
    }
    if (depth + 1 > AIRC_MAX_VALUE_DEPTH)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: lists nest deeper than %d", fn,
                         AIRC_MAX_VALUE_DEPTH);
    airc_value *v = airc_value_alloc(&g->arena, g, kind);
    const airc_value **copy = v ? airc_arena_alloc(&g->arena, n * sizeof *copy) : NULL;
    if (!copy)
        return airc_fail_oom("list value");
    if (n)
        memcpy(copy, items, n * sizeof *copy);
    v->u.items = copy;
    v->len = (uint32_t)n;
    v->depth = depth + 1;
    *out = v;
    return AIRC_OK;
}

airc_status airc_value_list(airc_graph *g, const airc_value *const *items, size_t n,
                            const airc_value **out)
{
    return make_seq(g, AIRC_VALUE_LIST, items, n, out, "airc_value_list");
}

airc_status airc_value_tuple(airc_graph *g, const airc_value *const *items, size_t n,
                             const airc_value **out)
{
    return make_seq(g, AIRC_VALUE_TUPLE, items, n, out, "airc_value_tuple");
}

airc_value_kind airc_value_get_kind(const airc_value *v)
{
    return v ? v->kind : AIRC_VALUE_NONE;
}

static airc_status want(const airc_value *v, const void *out, airc_value_kind kind,
                        const char *fn)
{
    static const char *const names[] = {"None",  "int",    "float",  "bool",
                                        "str",   "node",   "dtype",  "device",
                                        "memory_format", "layout", "list", "tuple"};
    if (!v || !out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: NULL argument", fn);
    if (v->kind != kind)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: value is %s, not %s", fn,
                         v->kind >= 0 && v->kind <= AIRC_VALUE_TUPLE ? names[v->kind] : "?",
                         names[kind]);
    return AIRC_OK;
}

airc_status airc_value_get_int(const airc_value *v, int64_t *out)
{
    if (v && out && v->kind == AIRC_VALUE_BOOL) {
        *out = v->u.b;
        return AIRC_OK;
    }
    AIRC_TRY(want(v, out, AIRC_VALUE_INT, "airc_value_get_int"));
    *out = v->u.i;
    return AIRC_OK;
}

airc_status airc_value_get_float(const airc_value *v, double *out)
{
    if (v && out && v->kind == AIRC_VALUE_INT) {
        *out = (double)v->u.i;
        return AIRC_OK;
    }
    AIRC_TRY(want(v, out, AIRC_VALUE_FLOAT, "airc_value_get_float"));
    *out = v->u.f;
    return AIRC_OK;
}

airc_status airc_value_get_bool(const airc_value *v, int32_t *out)
{
    AIRC_TRY(want(v, out, AIRC_VALUE_BOOL, "airc_value_get_bool"));
    *out = v->u.b;
    return AIRC_OK;
}

airc_status airc_value_get_string(const airc_value *v, const char **out)
{
    AIRC_TRY(want(v, out, AIRC_VALUE_STRING, "airc_value_get_string"));
    *out = v->u.s;
    return AIRC_OK;
}

airc_status airc_value_get_node(const airc_value *v, airc_node **out)
{
    AIRC_TRY(want(v, out, AIRC_VALUE_NODE, "airc_value_get_node"));
    *out = v->u.node;
    return AIRC_OK;
}

airc_status airc_value_get_dtype(const airc_value *v, airc_dtype *out)
{
    AIRC_TRY(want(v, out, AIRC_VALUE_DTYPE, "airc_value_get_dtype"));
    *out = v->u.dtype;
    return AIRC_OK;
}

airc_status airc_value_get_device(const airc_value *v, const char **type, int32_t *index)
{
    AIRC_TRY(want(v, type, AIRC_VALUE_DEVICE, "airc_value_get_device"));
    *type = v->u.dev.type;
    if (index)
        *index = v->u.dev.index;
    return AIRC_OK;
}

airc_status airc_value_get_enum(const airc_value *v, int32_t *out)
{
    if (v && out && (v->kind == AIRC_VALUE_MEMORY_FORMAT || v->kind == AIRC_VALUE_LAYOUT)) {
        *out = v->u.e;
        return AIRC_OK;
    }
    return airc_fail(AIRC_E_INVALID_ARGUMENT,
                     "airc_value_get_enum: value is not a memory format or layout");
}

size_t airc_value_length(const airc_value *v)
{
    return v && (v->kind == AIRC_VALUE_LIST || v->kind == AIRC_VALUE_TUPLE) ? v->len : 0;
}

const airc_value *airc_value_item(const airc_value *v, size_t i)
{
    return i < airc_value_length(v) ? v->u.items[i] : NULL;
}

int32_t airc_value_equal(const airc_value *a, const airc_value *b)
{
    if (a == b)
        return 1;
    if (!a || !b || a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case AIRC_VALUE_NONE:
        return 1;
    case AIRC_VALUE_INT:
        return a->u.i == b->u.i;
    case AIRC_VALUE_FLOAT:
        return a->u.f == b->u.f ? signbit(a->u.f) == signbit(b->u.f)
                                : (isnan(a->u.f) && isnan(b->u.f));
    case AIRC_VALUE_BOOL:
        return a->u.b == b->u.b;
    case AIRC_VALUE_STRING:
        return a->len == b->len && !memcmp(a->u.s, b->u.s, a->len);
    case AIRC_VALUE_NODE:
        return a->u.node == b->u.node;
    case AIRC_VALUE_DTYPE:
        return a->u.dtype == b->u.dtype;
    case AIRC_VALUE_DEVICE:
        return a->u.dev.index == b->u.dev.index && !strcmp(a->u.dev.type, b->u.dev.type);
    case AIRC_VALUE_MEMORY_FORMAT:
    case AIRC_VALUE_LAYOUT:
        return a->u.e == b->u.e;
    case AIRC_VALUE_LIST:
    case AIRC_VALUE_TUPLE:
        if (a->len != b->len)
            return 0;
        for (uint32_t i = 0; i < a->len; i++)
            if (!airc_value_equal(a->u.items[i], b->u.items[i]))
                return 0;
        return 1;
    default:
        return 0;
    }
}

const airc_value *airc_value_copy(airc_arena *a, const airc_graph *owner, const airc_value *v,
                                  airc_node_map_fn map, void *user)
{
    airc_value *c = airc_value_alloc(a, owner, v->kind);
    if (!c)
        return NULL;
    c->len = v->len;
    c->depth = v->depth;
    c->u = v->u;
    switch (v->kind) {
    case AIRC_VALUE_STRING:
        if (!(c->u.s = airc_arena_strndup(a, v->u.s, v->len)))
            return NULL;
        break;
    case AIRC_VALUE_DEVICE:
        if (!(c->u.dev.type = airc_arena_strdup(a, v->u.dev.type)))
            return NULL;
        break;
    case AIRC_VALUE_NODE:
        if (map && !(c->u.node = map(user, v->u.node)))
            return NULL;
        break;
    case AIRC_VALUE_LIST:
    case AIRC_VALUE_TUPLE: {
        const airc_value **items = airc_arena_alloc(a, v->len * sizeof *items);
        if (!items)
            return NULL;
        for (uint32_t i = 0; i < v->len; i++)
            if (!(items[i] = airc_value_copy(a, owner, v->u.items[i], map, user)))
                return NULL;
        c->u.items = items;
        break;
    }
    default:
        break;
    }
    return c;
}

void airc_value_visit_nodes(const airc_value *v, void (*fn)(void *, airc_node *), void *user)
{
    if (!v)
        return;
    if (v->kind == AIRC_VALUE_NODE)
        fn(user, v->u.node);
    else if (v->kind == AIRC_VALUE_LIST || v->kind == AIRC_VALUE_TUPLE)
        for (uint32_t i = 0; i < v->len; i++)
            airc_value_visit_nodes(v->u.items[i], fn, user);
}

bool airc_value_mentions(const airc_value *v, const airc_node *n)
{
    if (!v)
        return false;
    if (v->kind == AIRC_VALUE_NODE)
        return v->u.node == n;
    if (v->kind == AIRC_VALUE_LIST || v->kind == AIRC_VALUE_TUPLE)
        for (uint32_t i = 0; i < v->len; i++)
            if (airc_value_mentions(v->u.items[i], n))
                return true;
    return false;
}
