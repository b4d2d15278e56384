/* The lowering to Ascend IR: a graph (after the pass pipeline, meta on
 * every node) into one GE GraphDef, in graph order:
 *  - placeholder i -> `Data` (attr index = i, input_desc "x", output_desc "y");
 *  - get_attr -> `Const` (attr value = TensorDef with the bytes);
 *  - operator.getitem -> the producer's output, no op;
 *  - air.scope_enter / scope_exit -> the scope stack whose attributes every
 *    op created inside carries (`_user_stream_label` as a string);
 *  - air.record -> "<last op on its stream>:-1"; air.wait -> those strings
 *    become control inputs of the next op created on the wait's stream
 *    (TorchAir's _build_record/_build_wait_control_edge);
 *  - any other call -> its converter (the context's registration first,
 *    then the built-in one, then for the functional twin of an in-place
 *    custom op the in-place op's); none is a compile error naming op and
 *    node (airc_compile checks it up front, airc_ge_check_converters);
 *  - output -> `NetOutput` with inputs input0, input1, ... (results
 *    flattened).
 * ge_config.* graph options go into the ModelDef's attributes. */
#include "backends/ge/ge_internal.h"
#include "exec/exec.h"
#include "ir/ir.h"
#include "ops/kernel.h"
#include "ops/ops.h"

#include <stdio.h>
#include <string.h>

/* ge_config options that are GE graph options, and their GE names. */
static const char *const graph_options[][2] = {
    {"ge_config.enable_single_stream", "ge.enableSingleStream"},
    {"ge_config.oo_level", "ge.oo.level"},
    {"ge_config.oo_constant_folding", "ge.oo.constantFolding"},
    {"ge_config.oo_dead_code_elimination", "ge.oo.deadCodeElimination"},
    {"ge_config.export_compile_stat", "ge.exportCompileStat"},
    {"ge_config.aicore_num", "ge.aicoreNum"},
    {"ge_config.optimization_switch", "ge.optimizationSwitch"},
    {"experimental_config.cc_parallel_enable", "ge.exec.enableEngineParallel"},
    {"experimental_config.memory_efficiency", "ge.featureBaseRefreshable"},
    {"experimental_config.static_model_ops_lower_limit", "ge.exec.static_model_ops_lower_limit"},
    {"experimental_config.topology_sorting_strategy", "ge.topoSortingMode"},
};

static airc_status write_options(airc_ge_builder *b, const airc_config *cfg)
{
    if (!cfg)
        return AIRC_OK;
    for (size_t i = 0; i < sizeof graph_options / sizeof *graph_options; i++) {
        const char *v = NULL;
        if (airc_config_get(cfg, graph_options[i][0], &v) != AIRC_OK) {
            airc_set_error(AIRC_OK, "");
            continue; /* a key this build's config lacks */
        }
        if (v && *v)
            AIRC_TRY(airc_ge_graph_attr_string(b, true, graph_options[i][1], v));
    }
    return AIRC_OK;
}

static bool is_op(const airc_node *n, const char *qualname)
{
    return n->op && !strcmp(n->op->qualname, qualname);
}

/* ---- placeholders and constants --------------------------------------------- */

static airc_status lower_data(airc_ge_builder *b, const airc_node *n, int64_t index)
{
    if (n->meta_kind != AIRC_META_TENSOR)
        return airc_fail(AIRC_E_SHAPE, "placeholder '%s' has no tensor meta: give an input",
                         n->name);
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Data", &op));
    AIRC_TRY(airc_ge_op_attr_int(op, "index", index));
    const airc_tmeta *m = &n->out[0];
    AIRC_TRY(airc_ge_op_input_desc(op, "x", m->dtype, m->ndim, m->shape));
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    return airc_ge_set_result(b, 0, y);
}

static airc_status lower_const(airc_ge_builder *b, const airc_node *n)
{
    airc_dtype dtype = AIRC_DTYPE_UNDEFINED;
    int32_t ndim = 0;
    const int64_t *shape, *strides;
    void *data;
    if (airc_graph_get_constant(b->g, n->target, &dtype, &ndim, &shape, &strides, &data) != AIRC_OK)
        return airc_fail(AIRC_E_NOT_FOUND, "get_attr node '%s': no constant '%s' is bound", n->name,
                         n->target);
    airc_tview t;
    memset(&t, 0, sizeof t);
    t.dtype = dtype;
    t.ndim = ndim;
    size_t numel = 1;
    for (int32_t i = 0; i < ndim; i++) {
        t.shape[i] = shape[i];
        t.strides[i] = strides[i];
        numel *= (size_t)shape[i];
    }
    void *dense = airc_malloc(b->ctx, numel * airc_dtype_size(dtype) + 1);
    if (!dense)
        return airc_fail_oom("GE constant");
    if (numel)
        airc_exec_gather(dense, data, &t);
    airc_ge_tensor y;
    airc_status st = airc_ge_const(b, dtype, ndim, shape, dense, &y);
    airc_free(b->ctx, dense);
    AIRC_TRY(st);
    return airc_ge_set_result(b, 0, y);
}

/* ---- multi-stream markers -------------------------------------------------------- */

/* The strings of a str[] argument. */
static airc_status string_list(const airc_node *n, uint32_t arg, const char **out, uint32_t cap,
                               uint32_t *count)
{
    const airc_value *v = arg < n->nargs ? n->args[arg] : NULL;
    if (!v || (v->kind != AIRC_VALUE_LIST && v->kind != AIRC_VALUE_TUPLE))
        return airc_fail(AIRC_E_INVALID_GRAPH, "node '%s': argument %u is not a list of strings",
                         n->name, arg);
    if (v->len > cap)
        return airc_fail(AIRC_E_UNSUPPORTED, "node '%s': more than %u scope attributes", n->name,
                         cap);
    for (uint32_t i = 0; i < v->len; i++)
        if (airc_value_get_string(v->u.items[i], &out[i]) != AIRC_OK)
            return airc_fail(AIRC_E_INVALID_GRAPH, "node '%s': item %u is not a string", n->name,
                             i);
    *count = v->len;
    return AIRC_OK;
}

static airc_status scope_enter(airc_ge_builder *b, const airc_node *n)
{
    if (b->depth >= AIRC_GE_MAX_SCOPES)
        return airc_fail(AIRC_E_UNSUPPORTED, "node '%s': scopes nest deeper than %d", n->name,
                         AIRC_GE_MAX_SCOPES);
    uint32_t nk, nv;
    AIRC_TRY(string_list(n, 0, b->scope_keys[b->depth], 8, &nk));
    AIRC_TRY(string_list(n, 1, b->scope_values[b->depth], 8, &nv));
    if (nk != nv)
        return airc_fail(AIRC_E_INVALID_GRAPH, "node '%s': %u keys but %u values", n->name, nk, nv);
    b->scope_n[b->depth++] = nk;
    return AIRC_OK;
}

static airc_status record(airc_ge_builder *b, const airc_node *n)
{
    ge_stream *s = airc_ge_current_stream(b);
    if (!s)
        return airc_fail_oom("GE streams");
    ge_result *r = &b->results[n->id];
    r->is_record = true;
    if (s->last_op >= 0) {
        r->control = (char *)airc_ge_edge(b, (airc_ge_tensor){(uint32_t)s->last_op, -1});
        if (!r->control)
            return airc_fail_oom("GE control edge");
    }
    /* its tensor result is never read by an op: it points at nothing */
    r->set = r->n;
    return AIRC_OK;
}

static airc_status wait(airc_ge_builder *b, const airc_node *n)
{
    ge_stream *s = airc_ge_current_stream(b);
    if (!s)
        return airc_fail_oom("GE streams");
    const airc_value *v = n->nargs ? n->args[0] : NULL;
    uint32_t len = v && (v->kind == AIRC_VALUE_LIST || v->kind == AIRC_VALUE_TUPLE) ? v->len : 0;
    for (uint32_t i = 0; i < len; i++) {
        const airc_value *item = v->u.items[i];
        if (item->kind != AIRC_VALUE_NODE)
            continue;
        const ge_result *r = &b->results[item->u.node->id];
        if (!r->is_record || !r->control)
            continue; /* a plain tensor, or a record with no op before it */
        if (!airc_grow(b->ctx, (void **)&s->pending, &s->pending_cap, s->npending + 1,
                       sizeof *s->pending))
            return airc_fail_oom("GE control edge");
        s->pending[s->npending++] = r->control;
    }
    return AIRC_OK;
}

/* ---- calls ------------------------------------------------------------------------ */

static airc_status getitem(airc_ge_builder *b, const airc_node *n)
{
    const airc_value *self = n->nargs > 0 ? n->args[0] : NULL;
    int64_t idx = 0;
    if (!self || self->kind != AIRC_VALUE_NODE || n->nargs < 2 ||
        airc_value_get_int(n->args[1], &idx) != AIRC_OK)
        return airc_fail(AIRC_E_UNSUPPORTED, "node '%s': getitem needs a node and an int", n->name);
    const ge_result *src = &b->results[self->u.node->id];
    if (idx < 0)
        idx += src->n;
    if (idx < 0 || idx >= (int64_t)src->set)
        return airc_fail(AIRC_E_INVALID_GRAPH, "node '%s': index out of range of %u results",
                         n->name, src->set);
    return airc_ge_set_result(b, 0, src->t[idx]);
}

bool airc_ge_find_converter(const airc_op *op, airc_ge_converter_fn *fn, void **user_data)
{
    if (airc_op_registered_converter(op, fn, user_data) ||
        airc_ge_builtin_converter(op->qualname, fn, user_data))
        return true;
    /* functionalize leaves the twin of an in-place custom op: the
     * converter registered for the in-place op converts it */
    const airc_op *origin = airc_op_inplace_origin(op);
    return origin && (airc_op_registered_converter(origin, fn, user_data) ||
                      airc_ge_builtin_converter(origin->qualname, fn, user_data));
}

bool airc_ge_node_needs_converter(const airc_node *n)
{
    return n->kind == AIRC_NODE_CALL_FUNCTION && n->op && !is_op(n, AIRC_OP_GETITEM) &&
           strncmp(n->op->qualname, "air.", 4);
}

static airc_status no_converter(const airc_node *n)
{
    const airc_op *origin = airc_op_inplace_origin(n->op);
    return airc_fail(AIRC_E_UNSUPPORTED,
                     "no Ascend IR converter for %s (node '%s') (needed by max-autotune)",
                     (origin ? origin : n->op)->qualname, n->name);
}

airc_status airc_ge_check_converters(const airc_graph *g)
{
    airc_ge_converter_fn fn;
    void *ud;
    AIRC_FOR_EACH_NODE(g, n)
    {
        if (airc_ge_node_needs_converter(n) && !airc_ge_find_converter(n->op, &fn, &ud))
            return no_converter(n);
    }
    return AIRC_OK;
}

static airc_status convert(airc_ge_builder *b, const airc_node *n)
{
    airc_ge_converter_fn fn = NULL;
    void *ud = NULL;
    if (!airc_ge_find_converter(n->op, &fn, &ud))
        return no_converter(n);
    airc_set_error(AIRC_OK, "");
    airc_status st = fn(b, n, ud);
    if (st != AIRC_OK) {
        if (airc_last_error_code() == st && *airc_last_error())
            return airc_fail_prefix("node '%s' (%s)", n->name, n->op->qualname);
        return airc_fail(st, "node '%s': the converter of %s failed (%s)", n->name, n->op->qualname,
                         airc_status_name(st));
    }
    const ge_result *r = &b->results[n->id];
    if (r->set < r->n)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "node '%s': the converter of %s set %u of its %u results", n->name,
                         n->op->qualname, r->set, r->n);
    return AIRC_OK;
}

static airc_status lower_call(airc_ge_builder *b, const airc_node *n)
{
    if (is_op(n, AIRC_OP_GETITEM))
        return getitem(b, n);
    if (is_op(n, AIRC_OP_SCOPE_ENTER))
        return scope_enter(b, n);
    if (is_op(n, AIRC_OP_SCOPE_EXIT)) {
        if (!b->depth)
            return airc_fail(AIRC_E_INVALID_GRAPH, "node '%s': scope_exit without scope_enter",
                             n->name);
        b->depth--;
        return AIRC_OK;
    }
    if (is_op(n, "air.record.default"))
        return record(b, n);
    if (is_op(n, "air.wait.default"))
        return wait(b, n);
    return convert(b, n);
}

/* ---- output ------------------------------------------------------------------------ */

static airc_status output_inputs(airc_ge_builder *b, airc_ge_op *op, const airc_value *v,
                                 uint32_t depth, uint32_t *count)
{
    if (!v)
        return airc_fail(AIRC_E_UNSUPPORTED, "the graph's output has no value");
    if (v->kind == AIRC_VALUE_NODE) {
        const ge_result *r = &b->results[v->u.node->id];
        for (uint32_t j = 0; j < r->set; j++) {
            char name[32];
            snprintf(name, sizeof name, "input%u", (*count)++);
            AIRC_TRY(airc_ge_op_input(op, name, r->t[j]));
        }
        return AIRC_OK;
    }
    if (v->kind == AIRC_VALUE_LIST || v->kind == AIRC_VALUE_TUPLE) {
        if (depth >= AIRC_MAX_VALUE_DEPTH)
            return airc_fail(AIRC_E_UNSUPPORTED, "the graph's output nests too deeply");
        for (uint32_t i = 0; i < v->len; i++)
            AIRC_TRY(output_inputs(b, op, v->u.items[i], depth + 1, count));
        return AIRC_OK;
    }
    return airc_fail(AIRC_E_UNSUPPORTED, "the graph returns a value that is not a tensor");
}

static airc_status lower_output(airc_ge_builder *b, const airc_node *n)
{
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "NetOutput", &op));
    uint32_t count = 0;
    return output_inputs(b, op, n->nargs ? n->args[0] : NULL, 0, &count);
}

/* ---- the walk --------------------------------------------------------------------------- */

airc_status airc_ge_lower(airc_ge_builder *b, const airc_graph *g, const airc_ge_lower_options *o)
{
    AIRC_TRY(write_options(b, o ? o->config : NULL));
    int64_t data_index = 0;
    AIRC_FOR_EACH_NODE(g, n)
    {
        AIRC_TRY(airc_ge_begin_node(b, n));
        airc_status st = AIRC_OK;
        switch (n->kind) {
        case AIRC_NODE_PLACEHOLDER: st = lower_data(b, n, data_index++); break;
        case AIRC_NODE_GET_ATTR: st = lower_const(b, n); break;
        case AIRC_NODE_CALL_FUNCTION: st = lower_call(b, n); break;
        case AIRC_NODE_OUTPUT: st = lower_output(b, n); break;
        default:
            st = airc_fail(AIRC_E_UNSUPPORTED,
                           "node '%s': call_module must be inlined before lowering", n->name);
        }
        airc_ge_end_node(b);
        AIRC_TRY(st);
    }
    airc_ge_finish(b);
    return AIRC_OK;
}
