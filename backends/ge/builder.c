/* The GE graph builder: include/airc/ge.h over protobuf-c structs kept in
 * the builder's arena. Ops are appended in creation order (the lowering
 * creates them in graph order, so the GraphDef is topologically ordered).
 * Every op created while a scope is open carries the scope stack's
 * attributes, and the first op created on a stream after an air.wait gets
 * the waited records as control inputs (appended after its data inputs
 * when the lowering finishes). */
#include "backends/cpu/ew.h"
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"
#include "ops/ops.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- dtypes -------------------------------------------------------------------- */

static const struct {
    airc_dtype airc;
    int32_t proto;   /* ge.proto.DataType */
    int64_t ge_attr; /* ge::DataType (C++): what attributes hold */
} dtypes[] = {
    {AIRC_DTYPE_F32, GE__PROTO__DATA_TYPE__DT_FLOAT, 0},
    {AIRC_DTYPE_F16, GE__PROTO__DATA_TYPE__DT_FLOAT16, 1},
    {AIRC_DTYPE_I8, GE__PROTO__DATA_TYPE__DT_INT8, 2},
    {AIRC_DTYPE_I32, GE__PROTO__DATA_TYPE__DT_INT32, 3},
    {AIRC_DTYPE_U8, GE__PROTO__DATA_TYPE__DT_UINT8, 4},
    {AIRC_DTYPE_I16, GE__PROTO__DATA_TYPE__DT_INT16, 6},
    {AIRC_DTYPE_I64, GE__PROTO__DATA_TYPE__DT_INT64, 9},
    {AIRC_DTYPE_F64, GE__PROTO__DATA_TYPE__DT_DOUBLE, 11},
    {AIRC_DTYPE_BOOL, GE__PROTO__DATA_TYPE__DT_BOOL, 12},
    {AIRC_DTYPE_BF16, GE__PROTO__DATA_TYPE__DT_BF16, 27},
};
#define NDTYPES (sizeof dtypes / sizeof *dtypes)

int32_t airc_ge_proto_dtype(airc_dtype d)
{
    for (size_t i = 0; i < NDTYPES; i++)
        if (dtypes[i].airc == d)
            return dtypes[i].proto;
    return GE__PROTO__DATA_TYPE__DT_UNDEFINED;
}

airc_dtype airc_ge_from_proto_dtype(int32_t d)
{
    for (size_t i = 0; i < NDTYPES; i++)
        if (dtypes[i].proto == d)
            return dtypes[i].airc;
    return AIRC_DTYPE_UNDEFINED;
}

int64_t airc_ge_attr_dtype(airc_dtype d)
{
    for (size_t i = 0; i < NDTYPES; i++)
        if (dtypes[i].airc == d)
            return dtypes[i].ge_attr;
    return 28; /* ge::DT_UNDEFINED */
}

airc_dtype airc_ge_from_attr_dtype(int64_t d)
{
    for (size_t i = 0; i < NDTYPES; i++)
        if (dtypes[i].ge_attr == d)
            return dtypes[i].airc;
    return AIRC_DTYPE_UNDEFINED;
}

/* ---- arena arrays ---------------------------------------------------------------- */

/* Makes room for one more pointer in an arena array (old blocks are left
 * in the arena: arrays double, so the waste is bounded by the final size). */
static bool room(airc_arena *a, void ***arr, size_t n, size_t *cap)
{
    if (n < *cap)
        return true;
    size_t nc = *cap ? *cap * 2 : 4;
    void **p = airc_arena_alloc(a, nc * sizeof *p);
    if (!p)
        return false;
    if (n)
        memcpy(p, *arr, n * sizeof *p);
    *arr = p;
    *cap = nc;
    return true;
}

static char *dup(airc_ge_builder *b, const char *s)
{
    return airc_arena_strdup(&b->mem, s ? s : "");
}

/* ---- life cycle ------------------------------------------------------------------- */

airc_status airc_ge_builder_init(airc_ge_builder *b, airc_context *ctx, const airc_graph *g,
                                 const char *name)
{
    memset(b, 0, sizeof *b);
    b->ctx = ctx;
    b->g = g;
    airc_arena_init(&b->mem, ctx);
    airc_strmap_init(&b->names, ctx);
    b->model = airc_arena_alloc(&b->mem, sizeof *b->model);
    b->graph = airc_arena_alloc(&b->mem, sizeof *b->graph);
    Ge__Proto__GraphDef **list = airc_arena_alloc(&b->mem, sizeof *list);
    b->results = airc_arena_calloc(&b->mem, g ? g->next_id + 1 : 1, sizeof *b->results);
    if (!b->model || !b->graph || !list || !b->results)
        return airc_fail_oom("GE model");
    ge__proto__model_def__init(b->model);
    ge__proto__graph_def__init(b->graph);
    b->model->name = dup(b, name);
    b->graph->name = dup(b, name);
    if (!b->model->name || !b->graph->name)
        return airc_fail_oom("GE model");
    list[0] = b->graph;
    b->model->graph = list;
    b->model->n_graph = 1;
    return AIRC_OK;
}

void airc_ge_builder_free(airc_ge_builder *b)
{
    airc_strmap_free(&b->names);
    for (size_t i = 0; i < b->nstreams; i++)
        airc_free(b->ctx, b->streams[i].pending);
    airc_free(b->ctx, b->streams);
    airc_free(b->ctx, b->caps);
    airc_arena_free(&b->mem);
}

airc_status airc_ge_begin_node(airc_ge_builder *b, const airc_node *n)
{
    b->node = n;
    b->node_ops = 0;
    b->node_named = false;
    b->nargs = 0;
    b->args = NULL;
    if (n->kind == AIRC_NODE_CALL_FUNCTION && n->op && n->op->schema) {
        b->nargs = n->op->schema->nargs;
        b->args = airc_arena_calloc(&b->mem, b->nargs + 1, sizeof *b->args);
        if (!b->args)
            return airc_fail_oom("GE converter arguments");
        airc_schema_bind(n, b->args);
    }
    ge_result *r = &b->results[n->id];
    uint32_t nout = n->meta_kind == AIRC_META_NONE ? 0 : n->nout;
    r->n = nout;
    r->t = airc_arena_calloc(&b->mem, nout + 1, sizeof *r->t);
    if (!r->t)
        return airc_fail_oom("GE results");
    return AIRC_OK;
}

void airc_ge_end_node(airc_ge_builder *b)
{
    b->node = NULL;
    b->args = NULL;
    b->nargs = 0;
}

static ge_stream *stream_of(airc_ge_builder *b, const char *label);

/* ---- streams ---------------------------------------------------------------------- */

/* The innermost `_user_stream_label` of the open scopes ("" = main). */
static const char *current_label(const airc_ge_builder *b)
{
    for (uint32_t d = b->depth; d-- > 0;)
        for (uint32_t k = 0; k < b->scope_n[d]; k++)
            if (!strcmp(b->scope_keys[d][k], "_user_stream_label"))
                return b->scope_values[d][k];
    return "";
}

ge_stream *airc_ge_current_stream(airc_ge_builder *b)
{
    return stream_of(b, current_label(b));
}

static ge_stream *stream_of(airc_ge_builder *b, const char *label)
{
    for (size_t i = 0; i < b->nstreams; i++)
        if (!strcmp(b->streams[i].label, label))
            return &b->streams[i];
    if (!airc_grow(b->ctx, (void **)&b->streams, &b->streams_cap, b->nstreams + 1,
                   sizeof *b->streams))
        return NULL;
    ge_stream *s = &b->streams[b->nstreams++];
    memset(s, 0, sizeof *s);
    s->label = label;
    s->last_op = -1;
    return s;
}

/* ---- ops -------------------------------------------------------------------------- */

static airc_status unique_name(airc_ge_builder *b, const char *want, char **out)
{
    const char *name = want;
    char buf[300];
    for (uint32_t k = 1; airc_strmap_get(&b->names, name); k++) {
        snprintf(buf, sizeof buf, "%.280s_%u", want, k);
        name = buf;
    }
    char *s = dup(b, name);
    if (!s || !airc_strmap_put(&b->names, s, s))
        return airc_fail_oom("GE op name");
    *out = s;
    return AIRC_OK;
}

static airc_status add_attr_entry(airc_ge_builder *b, Ge__Proto__OpDef *def, size_t *cap,
                                  const char *key, Ge__Proto__AttrDef *v)
{
    Ge__Proto__OpDef__AttrEntry *e = airc_arena_alloc(&b->mem, sizeof *e);
    if (!e || !room(&b->mem, (void ***)&def->attr, def->n_attr, cap))
        return airc_fail_oom("GE attribute");
    ge__proto__op_def__attr_entry__init(e);
    e->key = dup(b, key);
    e->value = v;
    if (!e->key)
        return airc_fail_oom("GE attribute");
    def->attr[def->n_attr++] = e;
    return AIRC_OK;
}

Ge__Proto__AttrDef *airc_ge_attr_new(airc_ge_builder *b)
{
    Ge__Proto__AttrDef *v = airc_arena_alloc(&b->mem, sizeof *v);
    if (v)
        ge__proto__attr_def__init(v);
    return v;
}

static bool bool_scope_key(const char *key)
{
    return !strcmp(key, "_op_exec_never_timeout") || !strcmp(key, "_enable_inner_parallel");
}

/* The scope stack's attributes on a new op (TorchAir's guard_scope_attr). */
static airc_status stamp_scopes(airc_ge_builder *b, Ge__Proto__OpDef *def, size_t *cap)
{
    for (uint32_t d = 0; d < b->depth; d++)
        for (uint32_t k = 0; k < b->scope_n[d]; k++) {
            Ge__Proto__AttrDef *v = airc_ge_attr_new(b);
            if (!v)
                return airc_fail_oom("GE scope attribute");
            const char *key = b->scope_keys[d][k], *val = b->scope_values[d][k];
            if (bool_scope_key(key)) {
                v->value_case = GE__PROTO__ATTR_DEF__VALUE_B;
                v->b = !strcmp(val, "1") || !strcmp(val, "True") || !strcmp(val, "true");
            } else {
                v->value_case = GE__PROTO__ATTR_DEF__VALUE_S;
                v->s.data = (uint8_t *)dup(b, val);
                v->s.len = strlen(val);
                if (!v->s.data)
                    return airc_fail_oom("GE scope attribute");
            }
            AIRC_TRY(add_attr_entry(b, def, cap, key, v));
        }
    return AIRC_OK;
}

airc_status airc_ge_op_create_named(airc_ge_builder *b, const char *type, const char *name,
                                    airc_ge_op **out)
{
    Ge__Proto__GraphDef *g = b->graph;
    if (g->n_op >= INT32_MAX)
        return airc_fail(AIRC_E_UNSUPPORTED, "GE graph: too many ops");
    Ge__Proto__OpDef *def = airc_arena_alloc(&b->mem, sizeof *def);
    airc_ge_op *h = airc_arena_alloc(&b->mem, sizeof *h);
    if (!def || !h || !room(&b->mem, (void ***)&g->op, g->n_op, &b->ops_cap) ||
        !airc_grow(b->ctx, (void **)&b->caps, &b->caps_cap, g->n_op + 1, sizeof *b->caps))
        return airc_fail_oom("GE op");
    ge__proto__op_def__init(def);
    AIRC_TRY(unique_name(b, name, &def->name));
    def->type = dup(b, type);
    if (!def->type)
        return airc_fail_oom("GE op");
    def->id = (int64_t)g->n_op;
    uint32_t index = (uint32_t)g->n_op;
    memset(&b->caps[index], 0, sizeof b->caps[index]);
    AIRC_TRY(stamp_scopes(b, def, &b->caps[index].attr));
    ge_stream *s = airc_ge_current_stream(b);
    if (!s)
        return airc_fail_oom("GE streams");
    /* the first op on a stream after an air.wait takes its controls */
    for (size_t i = 0; i < s->npending; i++) {
        if (!room(&b->mem, (void ***)&def->input, def->n_input, &b->caps[index].input))
            return airc_fail_oom("GE control input");
        def->input[def->n_input++] = (char *)s->pending[i];
    }
    /* controls go after the data inputs: airc_ge_finish moves them */
    b->caps[index].controls = s->npending;
    s->npending = 0;
    s->last_op = (int64_t)index;
    g->op[g->n_op++] = def;
    h->b = b;
    h->index = index;
    *out = h;
    return AIRC_OK;
}

airc_status airc_ge_op_create(airc_ge_builder *b, const char *type, airc_ge_op **out)
{
    if (!b || !type || !out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_ge_op_create: NULL argument");
    /* the node's name goes to its first op that is not a helper (Const,
     * Cast): the op that computes it, as in TorchAir's graphs */
    const char *base = b->node ? b->node->name : type;
    bool helper = !strcmp(type, "Const") || !strcmp(type, "Cast");
    char name[300];
    if (b->node && (helper || b->node_named))
        snprintf(name, sizeof name, "%.200s/%.80s", base, type);
    else
        snprintf(name, sizeof name, "%.280s", base);
    AIRC_TRY(airc_ge_op_create_named(b, type, name, out));
    b->node_ops++;
    b->node_named |= b->node && !helper;
    return AIRC_OK;
}

const char *airc_ge_edge(airc_ge_builder *b, airc_ge_tensor t)
{
    if (t.op >= b->graph->n_op)
        return NULL;
    char buf[320];
    snprintf(buf, sizeof buf, "%s:%d", b->graph->op[t.op]->name, (int)t.index);
    return dup(b, buf);
}

/* ---- descs ------------------------------------------------------------------------ */

static Ge__Proto__TensorDescriptor *new_desc(airc_ge_builder *b, const char *name, airc_dtype dtype,
                                             int32_t ndim, const int64_t *shape)
{
    Ge__Proto__TensorDescriptor *d = airc_arena_alloc(&b->mem, sizeof *d);
    Ge__Proto__ShapeDef *s = airc_arena_alloc(&b->mem, sizeof *s);
    int64_t *dims = airc_arena_alloc(&b->mem, sizeof *dims * (size_t)(ndim + 1));
    if (!d || !s || !dims)
        return NULL;
    ge__proto__tensor_descriptor__init(d);
    ge__proto__shape_def__init(s);
    for (int32_t i = 0; i < ndim; i++)
        dims[i] = shape[i];
    s->dim = dims;
    s->n_dim = (size_t)ndim;
    d->name = dup(b, name);
    d->dtype = (Ge__Proto__DataType)airc_ge_proto_dtype(dtype);
    d->shape = s;
    d->layout = dup(b, "ND");
    d->device_type = dup(b, "NPU");
    d->real_dim_cnt = ndim;
    return d->name && d->layout && d->device_type ? d : NULL;
}

static const Ge__Proto__TensorDescriptor *desc_of(airc_ge_builder *b, airc_ge_tensor t)
{
    if (t.op >= b->graph->n_op)
        return NULL;
    const Ge__Proto__OpDef *op = b->graph->op[t.op];
    if (t.index < 0 || (size_t)t.index >= op->n_output_desc)
        return NULL;
    return op->output_desc[t.index];
}

airc_status airc_ge_tensor_meta(airc_ge_builder *b, airc_ge_tensor t, airc_dtype *dtype,
                                int32_t *ndim, const int64_t **shape)
{
    if (!b)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_ge_tensor_meta: NULL builder");
    const Ge__Proto__TensorDescriptor *d = desc_of(b, t);
    if (!d)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_ge_tensor_meta: no such tensor (%u:%d)",
                         t.op, (int)t.index);
    if (dtype)
        *dtype = airc_ge_from_proto_dtype(d->dtype);
    if (ndim)
        *ndim = d->shape ? (int32_t)d->shape->n_dim : 0;
    if (shape)
        *shape = d->shape ? d->shape->dim : b->shape_scratch;
    return AIRC_OK;
}

airc_status airc_ge_op_input(airc_ge_op *op, const char *name, airc_ge_tensor t)
{
    if (!op || !name)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_ge_op_input: NULL argument");
    airc_ge_builder *b = op->b;
    Ge__Proto__OpDef *def = b->graph->op[op->index];
    const Ge__Proto__TensorDescriptor *src = desc_of(b, t);
    if (!src)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_ge_op_input: op '%s' input '%s': no such tensor", def->name, name);
    Ge__Proto__TensorDescriptor *d =
        new_desc(b, name, airc_ge_from_proto_dtype(src->dtype),
                 src->shape ? (int32_t)src->shape->n_dim : 0, src->shape ? src->shape->dim : NULL);
    const char *edge = airc_ge_edge(b, t);
    ge_op_caps *c = &b->caps[op->index];
    if (!d || !edge || !room(&b->mem, (void ***)&def->input, def->n_input, &c->input) ||
        !room(&b->mem, (void ***)&def->input_desc, def->n_input_desc, &c->input_desc))
        return airc_fail_oom("GE input");
    def->input[def->n_input++] = (char *)edge;
    def->input_desc[def->n_input_desc++] = d;
    return AIRC_OK;
}

airc_status airc_ge_op_input_absent(airc_ge_op *op, const char *name)
{
    if (!op || !name)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_ge_op_input_absent: NULL argument");
    airc_ge_builder *b = op->b;
    Ge__Proto__OpDef *def = b->graph->op[op->index];
    Ge__Proto__TensorDescriptor *d = new_desc(b, name, AIRC_DTYPE_UNDEFINED, 0, NULL);
    Ge__Proto__AttrDef *v = airc_ge_attr_new(b);
    Ge__Proto__TensorDescriptor__AttrEntry *e = airc_arena_alloc(&b->mem, sizeof *e);
    Ge__Proto__TensorDescriptor__AttrEntry **arr = airc_arena_alloc(&b->mem, sizeof *arr);
    ge_op_caps *c = &b->caps[op->index];
    if (!d || !v || !e || !arr || !room(&b->mem, (void ***)&def->input, def->n_input, &c->input) ||
        !room(&b->mem, (void ***)&def->input_desc, def->n_input_desc, &c->input_desc))
        return airc_fail_oom("GE input");
    ge__proto__tensor_descriptor__attr_entry__init(e);
    e->key = dup(b, "_is_unfed_optional");
    v->value_case = GE__PROTO__ATTR_DEF__VALUE_I;
    v->i = 1;
    e->value = v;
    arr[0] = e;
    d->attr = arr;
    d->n_attr = 1;
    def->input[def->n_input++] = dup(b, "");
    def->input_desc[def->n_input_desc++] = d;
    return AIRC_OK;
}

airc_status airc_ge_op_input_desc(airc_ge_op *op, const char *name, airc_dtype dtype,
                                  int32_t ndim, const int64_t *shape)
{
    airc_ge_builder *b = op->b;
    Ge__Proto__OpDef *def = b->graph->op[op->index];
    Ge__Proto__TensorDescriptor *d = new_desc(b, name, dtype, ndim, shape);
    if (!d || !room(&b->mem, (void ***)&def->input_desc, def->n_input_desc,
                    &b->caps[op->index].input_desc))
        return airc_fail_oom("GE input desc");
    def->input_desc[def->n_input_desc++] = d;
    return AIRC_OK;
}

airc_status airc_ge_op_output(airc_ge_op *op, const char *name, airc_dtype dtype, int32_t ndim,
                              const int64_t *shape, airc_ge_tensor *out)
{
    if (!op || !name || ndim < 0 || ndim > AIRC_MAX_DIMS || (ndim && !shape))
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_ge_op_output: bad argument");
    airc_ge_builder *b = op->b;
    Ge__Proto__OpDef *def = b->graph->op[op->index];
    if (airc_ge_proto_dtype(dtype) == GE__PROTO__DATA_TYPE__DT_UNDEFINED)
        return airc_fail(AIRC_E_UNSUPPORTED, "op '%s': output '%s' has dtype %s, which GE lacks",
                         def->name, name, airc_dtype_name(dtype) ? airc_dtype_name(dtype) : "?");
    Ge__Proto__TensorDescriptor *d = new_desc(b, name, dtype, ndim, shape);
    ge_op_caps *c = &b->caps[op->index];
    if (!d || !room(&b->mem, (void ***)&def->output_desc, def->n_output_desc, &c->output_desc))
        return airc_fail_oom("GE output");
    def->output_desc[def->n_output_desc++] = d;
    if (out)
        *out = (airc_ge_tensor){op->index, (int32_t)def->n_output_desc - 1};
    return AIRC_OK;
}

airc_status airc_ge_op_output_like_node(airc_ge_op *op, const char *name, size_t result,
                                        airc_ge_tensor *out)
{
    if (!op)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_ge_op_output_like_node: NULL op");
    const airc_node *n = op->b->node;
    if (!n || n->meta_kind == AIRC_META_NONE || result >= n->nout)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_ge_op_output_like_node: the node has no result %zu", result);
    const airc_tmeta *m = &n->out[result];
    return airc_ge_op_output(op, name, m->dtype, m->ndim, m->shape, out);
}

void airc_ge_finish(airc_ge_builder *b)
{
    for (size_t i = 0; i < b->graph->n_op; i++) {
        Ge__Proto__OpDef *def = b->graph->op[i];
        size_t k = b->caps[i].controls;
        if (!k || k == def->n_input)
            continue;
        char *lead[64];
        char **tmp = k <= 64 ? lead : airc_arena_alloc(&b->mem, sizeof *tmp * k);
        if (!tmp)
            continue; /* leaves them first: still a valid GraphDef */
        memcpy(tmp, def->input, sizeof *tmp * k);
        memmove(def->input, def->input + k, sizeof *def->input * (def->n_input - k));
        memcpy(def->input + def->n_input - k, tmp, sizeof *tmp * k);
        b->caps[i].controls = 0;
    }
}

/* ---- attributes ---------------------------------------------------------------------- */

static airc_status put_attr(airc_ge_op *op, const char *key, Ge__Proto__AttrDef *v)
{
    if (!v)
        return airc_fail_oom("GE attribute");
    Ge__Proto__OpDef *def = op->b->graph->op[op->index];
    return add_attr_entry(op->b, def, &op->b->caps[op->index].attr, key, v);
}

#define ATTR_CHECK(op, key, fn)                                                                    \
    do {                                                                                           \
        if (!(op) || !(key))                                                                       \
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: NULL argument", fn);                    \
    } while (0)

airc_status airc_ge_op_attr_int(airc_ge_op *op, const char *key, int64_t i)
{
    ATTR_CHECK(op, key, "airc_ge_op_attr_int");
    Ge__Proto__AttrDef *v = airc_ge_attr_new(op->b);
    if (v) {
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_I;
        v->i = i;
    }
    return put_attr(op, key, v);
}

/* A GE float attribute is 32-bit: a finite double past its range would
 * become an infinity the op never asked for (and the cast is undefined). */
static airc_status check_f32(const char *fn, const char *key, const double *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (isfinite(f[i]) && fabs(f[i]) > FLT_MAX)
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "%s: attribute '%s' = %g does not fit a 32-bit float", fn, key, f[i]);
    return AIRC_OK;
}

airc_status airc_ge_op_attr_float(airc_ge_op *op, const char *key, double f)
{
    ATTR_CHECK(op, key, "airc_ge_op_attr_float");
    AIRC_TRY(check_f32("airc_ge_op_attr_float", key, &f, 1));
    Ge__Proto__AttrDef *v = airc_ge_attr_new(op->b);
    if (v) {
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_F;
        v->f = (float)f;
    }
    return put_attr(op, key, v);
}

airc_status airc_ge_op_attr_bool(airc_ge_op *op, const char *key, int32_t b)
{
    ATTR_CHECK(op, key, "airc_ge_op_attr_bool");
    Ge__Proto__AttrDef *v = airc_ge_attr_new(op->b);
    if (v) {
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_B;
        v->b = b != 0;
    }
    return put_attr(op, key, v);
}

airc_status airc_ge_op_attr_string(airc_ge_op *op, const char *key, const char *s)
{
    ATTR_CHECK(op, key, "airc_ge_op_attr_string");
    Ge__Proto__AttrDef *v = airc_ge_attr_new(op->b);
    if (v) {
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_S;
        v->s.data = (uint8_t *)dup(op->b, s);
        v->s.len = s ? strlen(s) : 0;
        if (!v->s.data)
            v = NULL;
    }
    return put_attr(op, key, v);
}

static Ge__Proto__AttrDef *list_attr(airc_ge_builder *b, int type)
{
    Ge__Proto__AttrDef *v = airc_ge_attr_new(b);
    Ge__Proto__AttrDef__ListValue *l = airc_arena_alloc(&b->mem, sizeof *l);
    if (!v || !l)
        return NULL;
    ge__proto__attr_def__list_value__init(l);
    l->val_type = (Ge__Proto__AttrDef__ListValue__ListValueType)type;
    v->value_case = GE__PROTO__ATTR_DEF__VALUE_LIST;
    v->list = l;
    return v;
}

airc_status airc_ge_op_attr_ints(airc_ge_op *op, const char *key, const int64_t *ints, size_t n)
{
    ATTR_CHECK(op, key, "airc_ge_op_attr_ints");
    if (n && !ints)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_ge_op_attr_ints: NULL values");
    Ge__Proto__AttrDef *v =
        list_attr(op->b, GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_INT);
    int64_t *copy = airc_arena_alloc(&op->b->mem, sizeof *copy * (n + 1));
    if (!v || !copy)
        return airc_fail_oom("GE attribute");
    if (n)
        memcpy(copy, ints, sizeof *copy * n);
    v->list->i = copy;
    v->list->n_i = n;
    return put_attr(op, key, v);
}

airc_status airc_ge_op_attr_floats(airc_ge_op *op, const char *key, const double *f, size_t n)
{
    ATTR_CHECK(op, key, "airc_ge_op_attr_floats");
    if (n && !f)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_ge_op_attr_floats: NULL values");
    AIRC_TRY(check_f32("airc_ge_op_attr_floats", key, f, n));
    Ge__Proto__AttrDef *v =
        list_attr(op->b, GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_FLOAT);
    float *copy = airc_arena_alloc(&op->b->mem, sizeof *copy * (n + 1));
    if (!v || !copy)
        return airc_fail_oom("GE attribute");
    for (size_t i = 0; i < n; i++)
        copy[i] = (float)f[i];
    v->list->f = copy;
    v->list->n_f = n;
    return put_attr(op, key, v);
}

airc_status airc_ge_op_attr_dtype(airc_ge_op *op, const char *key, airc_dtype d)
{
    ATTR_CHECK(op, key, "airc_ge_op_attr_dtype");
    Ge__Proto__AttrDef *v = airc_ge_attr_new(op->b);
    if (v) {
        v->value_case = GE__PROTO__ATTR_DEF__VALUE_DT;
        v->dt = airc_ge_attr_dtype(d);
    }
    return put_attr(op, key, v);
}

/* ---- converter inputs --------------------------------------------------------------- */

static airc_status node_tensor(airc_ge_builder *b, const airc_value *v, airc_ge_tensor *out,
                               const char *what)
{
    if (!v || v->kind != AIRC_VALUE_NODE)
        return airc_fail(AIRC_E_NOT_FOUND, "%s is not a tensor", what);
    const airc_node *src = v->u.node;
    const ge_result *r = &b->results[src->id];
    if (r->n < 1 || r->set < 1)
        return airc_fail(AIRC_E_INTERNAL, "%s: node '%s' has no lowered result", what, src->name);
    if (r->n != 1)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: node '%s' has %u results (index it with operator.getitem)", what,
                         src->name, r->n);
    *out = r->t[0];
    return AIRC_OK;
}

airc_status airc_ge_input(airc_ge_builder *b, size_t arg, airc_ge_tensor *out)
{
    if (!b || !out || !b->node)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_ge_input: no node is being converted");
    char what[64];
    snprintf(what, sizeof what, "argument %zu", arg);
    return node_tensor(b, arg < b->nargs ? b->args[arg] : NULL, out, what);
}

size_t airc_ge_input_list_length(airc_ge_builder *b, size_t arg)
{
    if (!b || arg >= b->nargs || !b->args[arg])
        return 0;
    const airc_value *v = b->args[arg];
    return v->kind == AIRC_VALUE_LIST || v->kind == AIRC_VALUE_TUPLE ? v->len : 0;
}

airc_status airc_ge_input_list_item(airc_ge_builder *b, size_t arg, size_t j, airc_ge_tensor *out)
{
    if (!b || !out || j >= airc_ge_input_list_length(b, arg))
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_ge_input_list_item: argument %zu has no item %zu", arg, j);
    char what[64];
    snprintf(what, sizeof what, "item %zu of argument %zu", j, arg);
    return node_tensor(b, b->args[arg]->u.items[j], out, what);
}

const airc_value *airc_ge_arg(airc_ge_builder *b, size_t arg)
{
    return b && arg < b->nargs ? b->args[arg] : NULL;
}

airc_status airc_ge_set_result(airc_ge_builder *b, size_t result, airc_ge_tensor t)
{
    if (!b || !b->node)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_ge_set_result: no node is being converted");
    ge_result *r = &b->results[b->node->id];
    if (result >= r->n)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_ge_set_result: the node has %u results",
                         r->n);
    if (!desc_of(b, t))
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_ge_set_result: no such tensor");
    r->t[result] = t;
    if (r->set < result + 1)
        r->set = (uint32_t)result + 1;
    return AIRC_OK;
}

/* ---- constants and casts -------------------------------------------------------------- */

airc_status airc_ge_const(airc_ge_builder *b, airc_dtype dtype, int32_t ndim, const int64_t *shape,
                          const void *data, airc_ge_tensor *out)
{
    if (!b || !out || ndim < 0 || ndim > AIRC_MAX_DIMS || (ndim && !shape))
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_ge_const: bad argument");
    size_t numel = 1, es = airc_dtype_size(dtype);
    for (int32_t i = 0; i < ndim; i++)
        numel *= (size_t)shape[i];
    if (!es || (numel && !data))
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_ge_const: bad dtype or NULL data");
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Const", &op));
    Ge__Proto__AttrDef *v = airc_ge_attr_new(b);
    Ge__Proto__TensorDef *t = airc_arena_alloc(&b->mem, sizeof *t);
    uint8_t *bytes = airc_arena_alloc(&b->mem, numel * es + 1);
    if (!v || !t || !bytes)
        return airc_fail_oom("GE constant");
    ge__proto__tensor_def__init(t);
    t->desc = new_desc(b, "", dtype, ndim, shape);
    if (!t->desc)
        return airc_fail_oom("GE constant");
    if (numel)
        memcpy(bytes, data, numel * es);
    t->data.data = bytes;
    t->data.len = numel * es;
    v->value_case = GE__PROTO__ATTR_DEF__VALUE_T;
    v->t = t;
    AIRC_TRY(put_attr(op, "value", v));
    return airc_ge_op_output(op, "y", dtype, ndim, shape, out);
}

airc_status airc_ge_const_scalar(airc_ge_builder *b, airc_dtype dtype, double v,
                                 airc_ge_tensor *out)
{
    size_t es = airc_dtype_size(dtype);
    if (!es || airc_ge_proto_dtype(dtype) == GE__PROTO__DATA_TYPE__DT_UNDEFINED)
        return airc_fail(AIRC_E_UNSUPPORTED, "airc_ge_const_scalar: dtype %s",
                         airc_dtype_name(dtype) ? airc_dtype_name(dtype) : "?");
    uint64_t bytes[2] = {0, 0}; /* the CPU kernels' conversion: f16/bf16 too */
    airc_cpu_cast(dtype, bytes, 1, AIRC_DTYPE_F64, &v, 1, 1);
    return airc_ge_const(b, dtype, 0, NULL, bytes, out);
}

airc_status airc_ge_const_ints(airc_ge_builder *b, const int64_t *v, size_t n, airc_ge_tensor *out)
{
    int64_t shape[1] = {(int64_t)n};
    return airc_ge_const(b, AIRC_DTYPE_I64, 1, shape, v, out);
}

airc_status airc_ge_ints_arg(airc_ge_builder *b, size_t arg, int64_t *v, size_t cap, size_t *n)
{
    const airc_value *a = airc_ge_arg(b, arg);
    size_t len = a ? airc_value_length(a) : 0;
    if (!a || (a->kind != AIRC_VALUE_LIST && a->kind != AIRC_VALUE_TUPLE) || len > cap)
        return airc_fail(AIRC_E_UNSUPPORTED, "argument %zu is not a short int list", arg);
    for (size_t i = 0; i < len; i++)
        if (airc_value_get_int(airc_value_item(a, i), &v[i]) != AIRC_OK)
            return airc_fail(AIRC_E_UNSUPPORTED, "argument %zu: item %zu is not an int", arg, i);
    *n = len;
    return AIRC_OK;
}

airc_status airc_ge_int_list_arg(airc_ge_builder *b, size_t arg, int64_t *out, size_t cap,
                                 size_t *n)
{
    const airc_value *v = airc_ge_arg(b, arg);
    *n = 0;
    if (!v || v->kind == AIRC_VALUE_NONE)
        return AIRC_OK;
    if (v->kind == AIRC_VALUE_INT) {
        out[0] = v->u.i;
        *n = 1;
        return AIRC_OK;
    }
    if ((v->kind != AIRC_VALUE_LIST && v->kind != AIRC_VALUE_TUPLE) || v->len > cap)
        return airc_fail(AIRC_E_UNSUPPORTED, "argument %zu is not a short int list", arg);
    for (uint32_t i = 0; i < v->len; i++)
        if (airc_value_get_int(v->u.items[i], &out[i]) != AIRC_OK)
            return airc_fail(AIRC_E_UNSUPPORTED, "argument %zu is not an int list", arg);
    *n = v->len;
    return AIRC_OK;
}

airc_status airc_ge_spatial_arg(airc_ge_builder *b, size_t arg, size_t k, const int64_t *dflt,
                                int64_t *out)
{
    size_t n = 0;
    AIRC_TRY(airc_ge_int_list_arg(b, arg, out, k, &n));
    if (n == k)
        return AIRC_OK;
    if (n == 1) {
        for (size_t i = 1; i < k; i++)
            out[i] = out[0];
        return AIRC_OK;
    }
    if (n == 0 && dflt) {
        memcpy(out, dflt, sizeof *out * k);
        return AIRC_OK;
    }
    return airc_fail(AIRC_E_UNSUPPORTED, "argument %zu must have 1 or %zu items", arg, k);
}

airc_status airc_ge_gather(airc_ge_builder *b, airc_ge_tensor x, airc_ge_tensor idx, int64_t axis,
                           airc_dtype dt, int32_t nd, const int64_t *shape, airc_ge_tensor *out)
{
    airc_ge_tensor ca;
    airc_ge_op *op;
    AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_I64, 0, NULL, &axis, &ca));
    AIRC_TRY(airc_ge_op_create(b, "GatherV2", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "indices", idx));
    AIRC_TRY(airc_ge_op_input(op, "axis", ca));
    AIRC_TRY(airc_ge_op_attr_int(op, "batch_dims", 0));
    return airc_ge_op_output(op, "y", dt, nd, shape, out);
}

airc_status airc_ge_fill(airc_ge_builder *b, airc_dtype dt, int32_t nd, const int64_t *shape,
                         double v, airc_ge_tensor *out)
{
    airc_ge_tensor dims, value;
    airc_ge_op *op;
    AIRC_TRY(airc_ge_const_ints(b, shape, (size_t)nd, &dims));
    AIRC_TRY(airc_ge_const_scalar(b, dt, v, &value));
    AIRC_TRY(airc_ge_op_create(b, "Fill", &op));
    AIRC_TRY(airc_ge_op_input(op, "dims", dims));
    AIRC_TRY(airc_ge_op_input(op, "value", value));
    return airc_ge_op_output(op, "y", dt, nd, shape, out);
}

airc_status airc_ge_positions(airc_ge_builder *b, int64_t from, int32_t nd, const int64_t *shape,
                              airc_ge_tensor *out)
{
    int64_t count = 1;
    for (int32_t i = 0; i < nd; i++)
        count *= shape[i];
    int64_t *v = airc_arena_alloc(&b->mem, sizeof *v * (size_t)(count > 0 ? count : 1));
    if (!v)
        return airc_fail_oom("a Const of positions");
    for (int64_t i = 0; i < count; i++)
        v[i] = from + i;
    return airc_ge_const(b, AIRC_DTYPE_I64, nd, shape, v, out);
}

airc_status airc_ge_transpose(airc_ge_builder *b, airc_ge_tensor t, airc_dtype dt, int32_t nd,
                              const int64_t *shape, const int64_t *perm, airc_ge_tensor *out)
{
    int64_t to[AIRC_MAX_DIMS];
    for (int32_t d = 0; d < nd; d++)
        to[d] = shape[perm[d]];
    airc_ge_tensor p;
    AIRC_TRY(airc_ge_const_ints(b, perm, (size_t)nd, &p));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Transpose", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", t));
    AIRC_TRY(airc_ge_op_input(op, "perm", p));
    return airc_ge_op_output(op, "y", dt, nd, to, out);
}

airc_status airc_ge_concat(airc_ge_builder *b, const airc_ge_tensor *pieces, size_t n, int64_t axis,
                           airc_dtype dt, int32_t nd, const int64_t *shape, airc_ge_tensor *out)
{
    airc_ge_tensor dim;
    AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_I64, 0, NULL, &axis, &dim));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "ConcatV2", &op));
    AIRC_TRY(airc_ge_op_input_list(op, "x", pieces, n));
    AIRC_TRY(airc_ge_op_input(op, "concat_dim", dim));
    AIRC_TRY(airc_ge_op_attr_int(op, "N", (int64_t)n));
    return airc_ge_op_output(op, "y", dt, nd, shape, out);
}

airc_status airc_ge_broadcast(airc_ge_builder *b, airc_ge_tensor t, int32_t nd,
                              const int64_t *shape, airc_ge_tensor *out)
{
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t tn = 0;
    const int64_t *ts;
    AIRC_TRY(airc_ge_tensor_meta(b, t, &dt, &tn, &ts));
    if (tn == nd && (!nd || !memcmp(ts, shape, sizeof *shape * (size_t)nd))) {
        *out = t;
        return AIRC_OK;
    }
    airc_ge_tensor c;
    AIRC_TRY(airc_ge_const_ints(b, shape, (size_t)nd, &c));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "BroadcastTo", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", t));
    AIRC_TRY(airc_ge_op_input(op, "shape", c));
    return airc_ge_op_output(op, "y", dt, nd, shape, out);
}

airc_status airc_ge_scatter_elements_reduce(airc_ge_builder *b, airc_ge_tensor data,
                                            airc_ge_tensor idx, airc_ge_tensor upd, int64_t axis,
                                            const char *reduction, airc_dtype dt, int32_t nd,
                                            const int64_t *shape, airc_ge_tensor *out)
{
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "ScatterElements", &op));
    AIRC_TRY(airc_ge_op_input(op, "data", data));
    AIRC_TRY(airc_ge_op_input(op, "indices", idx));
    AIRC_TRY(airc_ge_op_input(op, "updates", upd));
    AIRC_TRY(airc_ge_op_attr_int(op, "axis", axis));
    AIRC_TRY(airc_ge_op_attr_string(op, "reduction", reduction));
    return airc_ge_op_output(op, "y", dt, nd, shape, out);
}

airc_status airc_ge_scatter_elements(airc_ge_builder *b, airc_ge_tensor data, airc_ge_tensor idx,
                                     airc_ge_tensor upd, int64_t axis, bool add, airc_dtype dt,
                                     int32_t nd, const int64_t *shape, airc_ge_tensor *out)
{
    return airc_ge_scatter_elements_reduce(b, data, idx, upd, axis, add ? "add" : "none", dt, nd,
                                           shape, out);
}

airc_status airc_ge_op_input_list(airc_ge_op *op, const char *prefix, const airc_ge_tensor *t,
                                  size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s%zu", prefix, i);
        AIRC_TRY(airc_ge_op_input(op, name, t[i]));
    }
    return AIRC_OK;
}

airc_status airc_ge_ew_op(airc_ge_builder *b, const char *type, const airc_ge_tensor *in,
                          size_t nin, airc_dtype dt, int32_t nd, const int64_t *shape,
                          airc_ge_tensor *out)
{
    static const char *const one[] = {"x"}, *const two[] = {"x1", "x2"};
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, type, &op));
    for (size_t i = 0; i < nin && i < 2; i++)
        AIRC_TRY(airc_ge_op_input(op, nin == 1 ? one[0] : two[i], in[i]));
    return airc_ge_op_output(op, "y", dt, nd, shape, out);
}

airc_status airc_ge_cast(airc_ge_builder *b, airc_ge_tensor t, airc_dtype dtype,
                         airc_ge_tensor *out)
{
    airc_dtype have = AIRC_DTYPE_UNDEFINED;
    int32_t ndim = 0;
    const int64_t *shape = NULL;
    AIRC_TRY(airc_ge_tensor_meta(b, t, &have, &ndim, &shape));
    if (have == dtype) {
        *out = t;
        return AIRC_OK;
    }
    int64_t dims[AIRC_MAX_DIMS];
    memcpy(dims, shape, sizeof *dims * (size_t)ndim);
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Cast", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", t));
    AIRC_TRY(airc_ge_op_attr_dtype(op, "dst_type", dtype));
    return airc_ge_op_output(op, "y", dtype, ndim, dims, out);
}

airc_status airc_ge_graph_attr_string(airc_ge_builder *b, bool model, const char *key,
                                      const char *s)
{
    Ge__Proto__AttrDef *v = airc_ge_attr_new(b);
    if (!v)
        return airc_fail_oom("GE graph attribute");
    v->value_case = GE__PROTO__ATTR_DEF__VALUE_S;
    v->s.data = (uint8_t *)dup(b, s);
    v->s.len = strlen(s);
    if (model) {
        Ge__Proto__ModelDef__AttrEntry *e = airc_arena_alloc(&b->mem, sizeof *e);
        Ge__Proto__ModelDef__AttrEntry **arr =
            airc_arena_alloc(&b->mem, sizeof *arr * (b->model->n_attr + 1));
        if (!e || !arr || !v->s.data)
            return airc_fail_oom("GE graph attribute");
        ge__proto__model_def__attr_entry__init(e);
        e->key = dup(b, key);
        e->value = v;
        if (b->model->n_attr)
            memcpy(arr, b->model->attr, sizeof *arr * b->model->n_attr);
        arr[b->model->n_attr++] = e;
        b->model->attr = arr;
        return e->key ? AIRC_OK : airc_fail_oom("GE graph attribute");
    }
    Ge__Proto__GraphDef__AttrEntry *e = airc_arena_alloc(&b->mem, sizeof *e);
    Ge__Proto__GraphDef__AttrEntry **arr =
        airc_arena_alloc(&b->mem, sizeof *arr * (b->graph->n_attr + 1));
    if (!e || !arr || !v->s.data)
        return airc_fail_oom("GE graph attribute");
    ge__proto__graph_def__attr_entry__init(e);
    e->key = dup(b, key);
    e->value = v;
    if (b->graph->n_attr)
        memcpy(arr, b->graph->attr, sizeof *arr * b->graph->n_attr);
    arr[b->graph->n_attr++] = e;
    b->graph->attr = arr;
    return e->key ? AIRC_OK : airc_fail_oom("GE graph attribute");
}

airc_status airc_ge_reshape(airc_ge_builder *b, airc_ge_tensor x, airc_dtype dt, int32_t nd,
                            const int64_t *shape, airc_ge_tensor *out)
{
    airc_ge_tensor c;
    airc_ge_op *op;
    AIRC_TRY(airc_ge_const_ints(b, shape, (size_t)nd, &c));
    AIRC_TRY(airc_ge_op_create(b, "Reshape", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "shape", c));
    return airc_ge_op_output(op, "y", dt, nd, shape, out);
}
