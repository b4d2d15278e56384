/* airc_compile and the compiled object: the pass pipeline once, then per
 * run either a replay of the plan captured for the inputs' signature
 * (reduce-overhead), or the eager executor (mode eager, debug.run_eagerly,
 * past the capture limit). docs/replay.md describes the behaviour. */
#include "compile/compile.h"
#include "backends/cpu/cpu_runtime.h"
#include "backends/cpu/k_strided.h"
#include "backends/ge/ge_internal.h"
#include "config/config.h"
#include "exec/data_dump.h"
#include "io/io.h"
#include "ir/ir.h"
#include "ops/ops.h"

#include <stdio.h>
#include <string.h>

/* ---- options and config -----------------------------------------------------
 */

void airc_compile_options_init(airc_compile_options *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->struct_size = sizeof *opts;
}

static bool cfg_bool(const airc_config *cfg, const char *key, bool dflt)
{
    int32_t v;
    if (!cfg || airc_config_get_bool(cfg, key, &v) != AIRC_OK)
        return dflt;
    return v != 0;
}

/* dump_config.enable_dump: the same dump, into dump_config.dump_path, of
 * the inputs, the outputs or both (dump_mode). Tensors only, of the graph
 * after the passes. */
static airc_status read_dump_config(airc_compiled *c, const airc_config *cfg, const char **path)
{
    const char *mode = "all", *data = "tensor", *stage = "optimized";
    airc_config_get(cfg, "dump_config.dump_path", path);
    airc_config_get(cfg, "dump_config.dump_mode", &mode);
    airc_config_get(cfg, "dump_config.dump_data", &data);
    airc_config_get(cfg, "dump_config.data_dump_stage", &stage);
    if (strcmp(data, "tensor"))
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "airc_compile: dump_config.dump_data '%s' is not available (airc dumps "
                         "tensors)",
                         data);
    if (strcmp(stage, "optimized"))
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "airc_compile: dump_config.data_dump_stage '%s' is not available (airc "
                         "dumps the graph after the passes: optimized)",
                         stage);
    c->data_dump_inputs = strcmp(mode, "output") != 0;
    c->data_dump_outputs = strcmp(mode, "input") != 0;
    return AIRC_OK;
}

/* debug.data_dump (or dump_config.enable_dump): every call runs eagerly,
 * saving each node's inputs and results (TorchAir's dumper interprets the
 * FX graph the same way). */
static airc_status read_data_dump(airc_compiled *c, const airc_config *cfg)
{
    const char *type = "", *path = "", *filter = "";
    if (!cfg)
        return AIRC_OK;
    c->data_dump_inputs = c->data_dump_outputs = true;
    if (airc_config_get(cfg, "debug.data_dump.type", &type) == AIRC_OK && *type) {
        airc_config_get(cfg, "debug.data_dump.path", &path);
        airc_config_get(cfg, "debug.data_dump.filter", &filter);
    } else if (cfg_bool(cfg, "dump_config.enable_dump", false)) {
        AIRC_TRY(read_dump_config(c, cfg, &path));
    } else {
        return AIRC_OK;
    }
    c->run_eagerly = true;
    c->data_dump_path = airc_strdup(c->ctx, path && *path ? path : ".");
    c->data_dump_filter = filter && *filter ? airc_strdup(c->ctx, filter) : NULL;
    if (!c->data_dump_path || (filter && *filter && !c->data_dump_filter))
        return airc_fail_oom("data dump path");
    char stamp[32];
    airc_data_dump_stamp(stamp, sizeof stamp);
    snprintf(c->data_dump_name, sizeof c->data_dump_name, "gm_%s_dump", stamp);
    return AIRC_OK;
}

/* debug.fx_summary (TorchAir's FX summary): in max-autotune, a csv
 * summary of the graph (compile/fx_summary.h) into debug.fx_summary.path
 * (airc's key; unset: the current folder), and with skip_compile (the
 * default) no lowering: every call runs eagerly. Other modes write none. */
static airc_status read_fx_summary(airc_compiled *c, const airc_config *cfg, const char *mode)
{
    const char *type = "", *path = "";
    if (!cfg || airc_config_get(cfg, "debug.fx_summary.type", &type) != AIRC_OK || !*type)
        return AIRC_OK;
    if (c->mode != AIRC_COMPILED_MAX_AUTOTUNE) {
        airc_log(c->ctx, AIRC_LOG_WARN,
                 "debug.fx_summary: the fx_summary csv files will not be generated in %s mode "
                 "(max-autotune only)",
                 mode);
        return AIRC_OK;
    }
    airc_config_get(cfg, "debug.fx_summary.path", &path);
    c->fx_summary_dir = airc_strdup(c->ctx, path && *path ? path : ".");
    if (!c->fx_summary_dir)
        return airc_fail_oom("fx summary path");
    c->fx_summary_pending = true;
    c->fx_summary_skip = cfg_bool(cfg, "debug.fx_summary.skip_compile", true);
    if (c->fx_summary_skip) {
        c->run_eagerly = true;
        airc_log(c->ctx, AIRC_LOG_WARN,
                 "debug.fx_summary: skip_compile is on, so the graph is not compiled and every "
                 "call runs eagerly; set debug.fx_summary.skip_compile=0, or turn the summary "
                 "off, to compile it");
    }
    return AIRC_OK;
}

static airc_status read_config(airc_compiled *c, const airc_config *cfg)
{
    const char *mode = "reduce-overhead";
    if (cfg)
        AIRC_TRY(airc_config_get(cfg, "mode", &mode));
    if (!strcmp(mode, "eager"))
        c->mode = AIRC_COMPILED_EAGER;
    else if (!strcmp(mode, "reduce-overhead"))
        c->mode = AIRC_COMPILED_REDUCE_OVERHEAD;
    else if (!strcmp(mode, "max-autotune"))
        c->mode = AIRC_COMPILED_MAX_AUTOTUNE;
    else
        return airc_fail(AIRC_E_UNSUPPORTED, "airc_compile: mode '%s' is not supported", mode);
    c->run_eagerly = cfg_bool(cfg, "debug.run_eagerly", false);
    c->clone_input = cfg_bool(cfg, "debug.aclgraph.clone_input", true);
    c->output_clone = cfg_bool(cfg, "debug.aclgraph.enable_output_clone", false);
    c->share_arena = !cfg_bool(cfg, "debug.aclgraph.disable_mempool_reuse_in_same_fx", false);
    c->reinplace_inplaceable =
        !cfg_bool(cfg, "debug.aclgraph.disable_reinplace_inplaceable_ops_pass", false);
    c->reinplace_input_mutated =
        !cfg_bool(cfg, "debug.aclgraph.disable_reinplace_input_mutated_ops_pass", false);
    c->dce = cfg ? airc_builtin_pass_enabled(cfg, "dce") != 0 : true;
    c->remove_cat = cfg_bool(cfg, "debug.aclgraph.remove_cat_ops", true);
    c->capture_limit = 64;
    if (cfg)
        AIRC_TRY(airc_config_get_int(cfg, "debug.aclgraph.static_capture_size_limit",
                                     &c->capture_limit));
    const char *dump = "";
    if (cfg && airc_config_get(cfg, "debug.graph_dump.type", &dump) == AIRC_OK && *dump) {
        if (strcmp(dump, "txt") && c->mode == AIRC_COMPILED_REDUCE_OVERHEAD)
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "airc_compile: debug.graph_dump.type '%s' is not available in "
                             "reduce-overhead (only txt: the FX text after the backend passes "
                             "and the launch table)",
                             dump);
        if (c->mode == AIRC_COMPILED_MAX_AUTOTUNE)
            c->dump_type = !strcmp(dump, "txt") ? "txt" : !strcmp(dump, "pbtxt") ? "pbtxt" : "pb";
        else
            c->dump = !strcmp(dump, "txt");
        const char *dir = "";
        airc_config_get(cfg, "debug.graph_dump.path", &dir);
        c->dump_dir = airc_strdup(c->ctx, dir && *dir ? dir : ".");
        if (!c->dump_dir)
            return airc_fail_oom("dump path");
    }
    AIRC_TRY(read_data_dump(c, cfg));
    return read_fx_summary(c, cfg, mode);
}

/* ---- inputs ------------------------------------------------------------------------------ */

/* Whether some user of placeholder p writes it (the copy_ back of a
 * mutated input, an in-place op on it). */
static airc_status writes_input(airc_context *ctx, const airc_node *p, bool *out)
{
    *out = false;
    for (size_t u = 0; u < p->nusers && !*out; u++) {
        const airc_node *n = p->users[u];
        if (n->kind != AIRC_NODE_CALL_FUNCTION || !n->op || !n->op->schema)
            continue;
        const airc_schema *s = n->op->schema;
        const airc_value **args = airc_calloc(ctx, s->nargs + 1, sizeof *args);
        if (!args)
            return airc_fail_oom("compiled inputs");
        airc_schema_bind(n, args);
        for (uint32_t a = 0; a < s->nargs; a++)
            if (s->args[a].type.is_write && args[a] && args[a]->kind == AIRC_VALUE_NODE &&
                args[a]->u.node == p)
                *out = true;
        airc_free(ctx, args);
    }
    return AIRC_OK;
}

static airc_status classify_inputs(airc_compiled *c, const airc_compile_options *o)
{
    size_t n = 0;
    AIRC_FOR_EACH_NODE(c->graph, p)
    {
        n += p->kind == AIRC_NODE_PLACEHOLDER;
    }
    c->ninputs = n;
    c->is_static = airc_calloc(c->ctx, n + 1, sizeof *c->is_static);
    c->is_mutated = airc_calloc(c->ctx, n + 1, sizeof *c->is_mutated);
    c->sigs = airc_calloc(c->ctx, n + 1, sizeof *c->sigs);
    c->bound = airc_calloc(c->ctx, n + 1, sizeof *c->bound);
    c->datas = airc_calloc(c->ctx, n + 1, sizeof *c->datas);
    c->views = airc_calloc(c->ctx, n + 1, sizeof *c->views);
    c->model_sigs = airc_calloc(c->ctx, n + 1, sizeof *c->model_sigs);
    c->first_addr = airc_calloc(c->ctx, n + 1, sizeof *c->first_addr);
    if (!c->is_static || !c->is_mutated || !c->sigs || !c->bound || !c->datas || !c->views ||
        !c->first_addr || !c->model_sigs)
        return airc_fail_oom("compiled inputs");
    for (size_t i = 0; i < o->nstatic_inputs; i++) {
        if (o->static_inputs[i] >= n)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "airc_compile: static input %zu is out of range (the graph has %zu "
                             "input%s)",
                             o->static_inputs[i], n, n == 1 ? "" : "s");
        c->is_static[o->static_inputs[i]] = true;
    }
    size_t i = 0;
    AIRC_FOR_EACH_NODE(c->graph, p)
    {
        if (p->kind == AIRC_NODE_PLACEHOLDER)
            AIRC_TRY(writes_input(c->ctx, p, &c->is_mutated[i++]));
    }
    return AIRC_OK;
}

/* ---- compile ------------------------------------------------------------------------ */

/* Graph modes need every op's meta function (replay plans memory, the
 * lowering writes descriptors from it): a missing one is a compile error,
 * not a surprise at the first run. Checked on the graph as written (so the
 * error does not depend on example inputs) and after the passes. */
static airc_status check_metas(const airc_compiled *c, const airc_graph *g)
{
    if (c->mode == AIRC_COMPILED_EAGER)
        return AIRC_OK;
    AIRC_FOR_EACH_NODE(g, n)
    {
        if (n->kind == AIRC_NODE_CALL_FUNCTION && n->op && !airc_op_has_meta(n->op))
            return airc_fail(AIRC_E_UNSUPPORTED, "no meta function for %s (node '%s')",
                             n->op->qualname, n->name);
    }
    return AIRC_OK;
}

/* The example inputs' signature, into c->sigs. */
static airc_status example_sigs(airc_compiled *c, const airc_example_inputs *in)
{
    size_t n = airc_example_inputs_count(in);
    if (n != c->ninputs)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_compile: %zu example inputs for a graph of %zu inputs", n,
                         c->ninputs);
    for (size_t i = 0; i < n; i++) {
        airc_capture_sig *s = &c->sigs[i];
        const int64_t *shape, *strides;
        memset(s, 0, sizeof *s);
        AIRC_TRY(airc_example_inputs_get(in, i, &s->dtype, &s->ndim, &shape, &strides));
        int64_t stride = 1;
        for (int32_t d = s->ndim - 1; d >= 0; d--) {
            s->shape[d] = shape[d];
            s->strides[d] = strides ? strides[d] : stride;
            stride *= shape[d] > 1 ? shape[d] : 1;
        }
    }
    return AIRC_OK;
}

/* max-autotune with example inputs: the model is lowered at compile time,
 * so airc_compiled_model has it before any run. */
static airc_status lower_examples(airc_compiled *c, const airc_example_inputs *in)
{
    AIRC_TRY(example_sigs(c, in));
    return airc_compiled_lower(c);
}

/* debug.fx_summary: the csv now when the signature is known (the example
 * inputs', or the meta every placeholder carries), else at the first run. */
static airc_status fx_summary_at_compile(airc_compiled *c, const airc_example_inputs *in)
{
    if (in) {
        AIRC_TRY(example_sigs(c, in));
        return airc_compiled_write_fx_summary(c);
    }
    size_t i = 0;
    AIRC_FOR_EACH_NODE(c->graph, p)
    {
        if (p->kind != AIRC_NODE_PLACEHOLDER)
            continue;
        if (p->meta_kind != AIRC_META_TENSOR || p->nout < 1)
            return AIRC_OK; /* written by the first run */
        airc_capture_sig *s = &c->sigs[i++];
        memset(s, 0, sizeof *s);
        s->dtype = p->out[0].dtype;
        s->ndim = p->out[0].ndim;
        memcpy(s->shape, p->out[0].shape, sizeof *s->shape * (size_t)s->ndim);
        memcpy(s->strides, p->out[0].strides, sizeof *s->strides * (size_t)s->ndim);
    }
    return airc_compiled_write_fx_summary(c);
}

/* The caller's runtime, which must be of the config's `device` when the
 * config sets one, or one of c's own for that device: the embedded CPU
 * runtime, or the CUDA runtime on device 0. airc has no NPU runtime of its
 * own: one comes in through opts.runtime. */
static airc_status pick_runtime(airc_compiled *c, airc_runtime *rt, const airc_config *cfg)
{
    const char *device = "cpu";
    bool chosen = cfg && airc_config_is_set(cfg, "device");
    if (chosen)
        AIRC_TRY(airc_config_get(cfg, "device", &device));
    if (rt && chosen && strcmp(airc_runtime_device_type(rt), device))
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_compile: the config's device is '%s' but opts.runtime runs on "
                         "'%s'",
                         device, airc_runtime_device_type(rt));
    if (!rt && !strcmp(device, "npu"))
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "airc_compile: device 'npu' needs an NPU runtime in opts.runtime (airc "
                         "has none of its own; see docs/runtime.md)");
    if (!rt && !strcmp(device, "cuda")) {
        if (airc_cuda_runtime_create(c->ctx, 0, &c->own_rt) != AIRC_OK)
            return airc_fail_prefix("airc_compile: device 'cuda'");
        rt = c->own_rt;
    } else if (!rt) {
        AIRC_TRY(airc_cpu_runtime_create(c->ctx, NULL, &c->own_rt));
        rt = c->own_rt;
    }
    c->rt = rt;
    c->vt = airc_runtime_vtable_of(rt);
    c->rctx = airc_runtime_ctx(rt);
    c->device = airc_runtime_device_type(rt);
    c->host = !strcmp(c->device, "cpu");
    c->cpu_inline = c->vt->launch == airc_cpu_launch;
    return AIRC_OK;
}

airc_status airc_compile(const airc_graph *g, const airc_compile_options *opts, airc_compiled **out)
{
    static const char fn[] = "airc_compile";
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: out is NULL", fn);
    *out = NULL;
    AIRC_TRY(airc_check_graph(g, fn));
    airc_compile_options o;
    airc_compile_options_init(&o);
    if (opts) {
        if (opts->struct_size < sizeof(size_t) || opts->struct_size > sizeof o)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "%s: opts->struct_size is %zu (use airc_compile_options_init)", fn,
                             opts->struct_size);
        memcpy(&o, opts, opts->struct_size);
        o.struct_size = sizeof o;
    }
    if (o.nstatic_inputs && !o.static_inputs)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: static_inputs is NULL", fn);
    airc_context *ctx = g->ctx;
    airc_compiled *c = airc_calloc(ctx, 1, sizeof *c);
    if (!c)
        return airc_fail_oom("compiled graph");
    c->magic = AIRC_MAGIC_COMPILED;
    c->ctx = ctx;
    airc_context_retain(ctx);
    pthread_mutex_init(&c->lock, NULL);
    c->seq = 1;
    airc_status st = read_config(c, o.config);
    if (st == AIRC_OK && o.config) /* TorchAir's _check_config_support */
        airc_config_warn_mode(o.config);
    if (st == AIRC_OK)
        st = airc_graph_clone(g, &c->graph);
    if (st == AIRC_OK && c->graph->nsubs)
        st = airc_graph_inline_submodules(c->graph, NULL);
    if (st == AIRC_OK)
        st = check_metas(c, c->graph);
    if (st == AIRC_OK)
        st = airc_run_pipeline(c->graph, o.example_inputs, o.config, o.pre_passes, o.post_passes);
    if (st == AIRC_OK)
        st = check_metas(c, c->graph);
    /* every op the lowering will meet has a converter: known without inputs
     * (with debug.fx_summary, after the csv, which tells which ops lack one) */
    if (st == AIRC_OK && c->mode == AIRC_COMPILED_MAX_AUTOTUNE && !c->fx_summary_dir)
        st = airc_ge_check_converters(c->graph);
    if (st == AIRC_OK)
        st = classify_inputs(c, &o);
    if (st == AIRC_OK)
        st = airc_graph_num_results(c->graph, &c->nresults);
    if (st == AIRC_OK)
        st = pick_runtime(c, o.runtime, o.config);
    if (st == AIRC_OK && o.config)
        st = airc_config_clone(o.config, &c->config);
    if (st == AIRC_OK && c->fx_summary_dir)
        st = fx_summary_at_compile(c, o.example_inputs);
    if (st == AIRC_OK && c->fx_summary_dir && !c->fx_summary_skip)
        st = airc_ge_check_converters(c->graph);
    if (st == AIRC_OK && c->mode == AIRC_COMPILED_MAX_AUTOTUNE && o.example_inputs &&
        !c->fx_summary_skip)
        st = lower_examples(c, o.example_inputs);
    if (st != AIRC_OK) {
        airc_compiled_destroy(c);
        return st;
    }
    *out = c;
    return AIRC_OK;
}

void airc_compiled_destroy(airc_compiled *c)
{
    if (!c || c->magic != AIRC_MAGIC_COMPILED)
        return;
    airc_context *ctx = c->ctx;
    c->magic = AIRC_MAGIC_DEAD;
    if (c->vt) {
        for (uint32_t s = 0; s < c->nstreams; s++)
            if (c->streams[s]) {
                c->vt->synchronize(c->rctx, c->streams[s]);
                c->vt->stream_destroy(c->rctx, c->streams[s]);
            }
        airc_compiled_release_captures(c);
        if (c->dummy)
            c->vt->free(c->rctx, c->dummy);
        for (size_t i = 0; i < c->ndev_consts; i++)
            c->vt->free(c->rctx, c->dev_consts[i].dev);
        airc_compiled_free_outputs(c);
    }
    airc_free(ctx, c->dev_consts);
    airc_free(ctx, c->streams);
    airc_free(ctx, c->caps);
    airc_free(ctx, c->cap_arena);
    airc_free(ctx, c->is_static);
    airc_free(ctx, c->is_mutated);
    airc_free(ctx, c->sigs);
    airc_free(ctx, c->bound);
    airc_free(ctx, c->datas);
    airc_free(ctx, c->views);
    airc_free(ctx, c->first_addr);
    airc_free(ctx, c->dump_dir);
    airc_free(ctx, c->data_dump_path);
    airc_free(ctx, c->data_dump_filter);
    airc_free(ctx, c->fx_summary_dir);
    airc_compiled_free_model(c);
    airc_free(ctx, c->model_sigs);
    airc_config_destroy(c->config);
    airc_runtime_destroy(c->own_rt);
    airc_graph_destroy(c->graph);
    pthread_mutex_destroy(&c->lock);
    airc_free(ctx, c);
    airc_context_release(ctx);
}

void airc_compiled_release_captures(airc_compiled *c)
{
    for (size_t i = 0; i < c->ncaps; i++) {
        airc_capture_release_runtime(c->caps[i], c->vt, c->rctx);
        if (c->cap_arena[i])
            c->vt->free(c->rctx, c->cap_arena[i]);
        airc_capture_free(c->caps[i]);
    }
    c->ncaps = 0;
    if (c->arena)
        c->vt->free(c->rctx, c->arena);
    c->arena = NULL;
    c->arena_bytes = 0;
    c->last = NULL;
    c->traced = NULL;
}

airc_status airc_check_compiled(const airc_compiled *c, const char *fn)
{
    if (!c || c->magic != AIRC_MAGIC_COMPILED)
        return airc_fail(AIRC_E_MISUSE, "%s: %s compiled handle", fn,
                         c ? "a destroyed or invalid" : "NULL");
    return AIRC_OK;
}

const airc_graph *airc_compiled_graph(const airc_compiled *c)
{
    return airc_check_compiled(c, "airc_compiled_graph") == AIRC_OK ? c->graph : NULL;
}

void *airc_compiled_input_buffer(const airc_compiled *c, size_t i)
{
    if (airc_check_compiled(c, "airc_compiled_input_buffer") != AIRC_OK || !c->last ||
        i >= c->last->ninputs || c->last->inputs[i].kind != AIRC_CAPTURE_INPUT_COPY)
        return NULL;
    return c->last->inputs[i].view.data;
}

airc_status airc_compiled_get_stats(const airc_compiled *c, airc_compiled_stats *stats)
{
    AIRC_TRY(airc_check_compiled(c, "airc_compiled_get_stats"));
    if (!stats || stats->struct_size < sizeof(size_t))
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_compiled_get_stats: stats is NULL or its struct_size is not set");
    airc_compiled_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = stats->struct_size;
    pthread_mutex_lock((pthread_mutex_t *)&c->lock);
    s.runs = c->runs;
    s.captures = c->captures;
    s.replays = c->replays;
    s.fallbacks = c->fallbacks;
    s.input_copies = c->input_copies;
    if (c->last) {
        const airc_capture *k = c->last;
        s.launches = k->table.nlaunches;
        s.events = k->table.nevents;
        s.streams = k->table.nstreams;
        s.arena_bytes = c->share_arena ? c->arena_bytes : k->arena_bytes;
        s.plan_arena_bytes = k->plan.arena_bytes;
        s.lower_bound_bytes = k->plan.lower_bound_bytes;
        s.naive_bytes = k->plan.naive_bytes;
    }
    pthread_mutex_unlock((pthread_mutex_t *)&c->lock);
    size_t n = stats->struct_size < sizeof s ? stats->struct_size : sizeof s;
    memcpy(stats, &s, n);
    return AIRC_OK;
}

airc_status airc_compiled_set_trace(airc_compiled *c, int32_t on)
{
    AIRC_TRY(airc_check_compiled(c, "airc_compiled_set_trace"));
    pthread_mutex_lock(&c->lock);
    c->trace = on != 0;
    pthread_mutex_unlock(&c->lock);
    return AIRC_OK;
}

airc_status airc_compiled_write_trace(const airc_compiled *c, const char *path)
{
    AIRC_TRY(airc_check_compiled(c, "airc_compiled_write_trace"));
    if (!path)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_compiled_write_trace: path is NULL");
    pthread_mutex_lock((pthread_mutex_t *)&c->lock);
    const airc_capture *k = c->traced;
    airc_status st =
        k ? airc_replay_trace_write(&k->table, &k->trace, path)
          : airc_fail(AIRC_E_NOT_FOUND, "airc_compiled_write_trace: no replay was traced (turn "
                                        "tracing on with airc_compiled_set_trace, then run)");
    pthread_mutex_unlock((pthread_mutex_t *)&c->lock);
    return st;
}
