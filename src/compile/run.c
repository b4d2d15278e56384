/* Running a compiled graph: pick (or capture) the plan of the inputs'
 * signature and replay it, or run eagerly; hand back the results. */
#include "backends/cpu/cpu_runtime.h"
#include "backends/replay/dump.h"
#include "compile/compile.h"
#include "exec/data_dump.h"
#include "exec/exec.h"
#include "io/io.h"
#include "ir/ir.h"

#include <stdio.h>
#include <string.h>

/* ---- signature --------------------------------------------------------------------------- */

/* The key of the inputs `in` and how each is captured. host_data: the
 * views are host memory (airc_compiled_run's tensors); on a device runtime
 * every such input is then copied to the device before each replay
 * (static and mutated ones too), since kernels cannot read the host. */
static airc_status signature(airc_compiled *c, const airc_tview *in, size_t n, bool host_data)
{
    if (n != c->ninputs)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "the compiled graph has %zu input%s but %zu %s given", c->ninputs,
                         c->ninputs == 1 ? "" : "s", n, n == 1 ? "was" : "were");
    for (size_t i = 0; i < n; i++) {
        const airc_tview *t = &in[i];
        if (t->ndim < 0 || t->ndim > AIRC_MAX_DIMS || airc_dtype_size(t->dtype) == 0)
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "input %zu: bad dtype or ndim %d", i,
                             (int)t->ndim);
        for (int32_t d = 0; d < t->ndim; d++)
            if (t->shape[d] < 0 || t->strides[d] < 0)
                return airc_fail(AIRC_E_INVALID_ARGUMENT,
                                 "input %zu: negative size or stride in dimension %d", i, (int)d);
        if (!t->data && airc_tview_span_bytes(t))
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "input %zu: data is NULL", i);
        airc_capture_sig *s = &c->sigs[i];
        memset(s, 0, sizeof *s);
        s->dtype = t->dtype;
        s->ndim = t->ndim;
        memcpy(s->shape, t->shape, sizeof *t->shape * (size_t)t->ndim);
        memcpy(s->strides, t->strides, sizeof *t->strides * (size_t)t->ndim);
        bool addr_key = c->is_static[i] || c->is_mutated[i];
        s->addr = addr_key ? t->data : NULL;
        c->bound[i] = (addr_key || !c->clone_input) && (c->host || !host_data);
        s->bound = c->bound[i];
        c->datas[i] = t->data;
        if (!addr_key && !c->clone_input) {
            /* TorchAir's clone_input=False: the first address is captured and
             * later inputs are copied into it */
            if (!c->first_addr[i])
                c->first_addr[i] = t->data;
            c->datas[i] = c->first_addr[i];
        }
    }
    return AIRC_OK;
}

/* ---- capture ----------------------------------------------------------------------------- */

typedef struct arena_req {
    airc_compiled *c;
    uint8_t *own; /* not shared: this capture's arena */
} arena_req;

static airc_status rt_alloc(airc_compiled *c, uint64_t bytes, uint64_t align, void **out)
{
    if (bytes > SIZE_MAX)
        return airc_fail(AIRC_E_OUT_OF_MEMORY, "arena of %llu bytes is too large",
                         (unsigned long long)bytes);
    airc_set_error(AIRC_OK, "");
    airc_status st = c->vt->alloc(c->rctx, (size_t)bytes, (size_t)align, out);
    if (st != AIRC_OK || !*out)
        return airc_fail(AIRC_E_OUT_OF_MEMORY, "out of memory: the replay arena needs %llu bytes",
                         (unsigned long long)bytes);
    return AIRC_OK;
}

static airc_status give_arena(void *user, uint64_t bytes, uint64_t align, uint8_t **base)
{
    arena_req *r = user;
    airc_compiled *c = r->c;
    if (!c->share_arena) {
        AIRC_TRY(rt_alloc(c, bytes, align, (void **)&r->own));
        *base = r->own;
        return AIRC_OK;
    }
    if (!c->arena || bytes > c->arena_bytes || ((uintptr_t)c->arena & (align - 1))) {
        void *p;
        AIRC_TRY(rt_alloc(c, bytes > c->arena_bytes ? bytes : c->arena_bytes, align, &p));
        if (c->arena)
            c->vt->free(c->rctx, c->arena); /* captures are rebased before they replay */
        c->arena = p;
        if (bytes > c->arena_bytes)
            c->arena_bytes = bytes;
    }
    *base = c->arena;
    return AIRC_OK;
}

static airc_status ensure_streams(airc_compiled *c, uint32_t n)
{
    if (n <= c->nstreams)
        return AIRC_OK;
    airc_stream_t *s = airc_calloc(c->ctx, n, sizeof *s);
    if (!s)
        return airc_fail_oom("replay streams");
    if (c->nstreams)
        memcpy(s, c->streams, sizeof *s * c->nstreams);
    airc_free(c->ctx, c->streams);
    c->streams = s;
    for (uint32_t i = c->nstreams; i < n; i++) {
        if (i == 0 && c->cpu_inline) {
            c->nstreams = 1; /* the main stream is the calling thread */
            continue;
        }
        airc_set_error(AIRC_OK, "");
        if (c->vt->stream_create(c->rctx, &c->streams[i]) != AIRC_OK)
            return airc_fail_prefix("replay: creating stream %u", i);
        c->nstreams = i + 1;
    }
    return AIRC_OK;
}

static void set_threads(airc_compiled *c, airc_capture *k)
{
    if (!c->vt->stream_threads)
        return;
    for (uint32_t s = 0; s < k->table.nstreams; s++) {
        airc_stream_t st = s == 0 && c->cpu_inline ? NULL : c->streams[s];
        int32_t n = c->vt->stream_threads(c->rctx, st);
        k->stream_threads[s] = n > 0 ? n : 1;
    }
    for (size_t l = 0; l < k->table.nlaunches; l++)
        k->table.launches[l].k.num_threads = k->stream_threads[k->table.launches[l].stream];
}

/* debug.graph_dump.type=txt: the FX text after the backend passes and the
 * launch table, one file per capture. */
static airc_status dump_capture(airc_compiled *c, const airc_capture *k)
{
    airc_strbuf sb;
    airc_sb_init(&sb, c->ctx);
    airc_status st = airc_make_dirs(c->dump_dir);
    if (st == AIRC_OK)
        st = airc_replay_dump_txt(k->graph, &k->table, &k->plan, NULL, &sb);
    if (st == AIRC_OK) {
        char path[4096];
        snprintf(path, sizeof path, "%s/airc_reduce_overhead_capture_%llu.txt", c->dump_dir,
                 (unsigned long long)c->captures);
        st = sb.oom ? airc_fail_oom("dump") : airc_write_file(path, airc_sb_cstr(&sb), sb.len);
    }
    airc_sb_free(&sb);
    return st;
}

/* Device runtimes: a constant's device copy, made once per compiled
 * object (constants do not change while bound). */
static airc_status device_constant(void *user, const airc_node *n, const void *data, size_t span,
                                   void **out)
{
    airc_compiled *c = user;
    for (size_t i = 0; i < c->ndev_consts; i++)
        if (c->dev_consts[i].host == data && c->dev_consts[i].span == span) {
            *out = c->dev_consts[i].dev;
            return AIRC_OK;
        }
    if (!airc_grow(c->ctx, (void **)&c->dev_consts, &c->dev_consts_cap, c->ndev_consts + 1,
                   sizeof *c->dev_consts))
        return airc_fail_oom("device constants");
    void *p;
    AIRC_TRY(rt_alloc(c, span ? span : 1, 64, &p));
    airc_set_error(AIRC_OK, "");
    if (span && c->vt->copy(c->rctx, p, data, span, AIRC_COPY_HOST_TO_DEVICE, NULL) != AIRC_OK) {
        c->vt->free(c->rctx, p);
        return airc_fail_prefix("get_attr node '%s': copying the constant to the device", n->name);
    }
    c->dev_consts[c->ndev_consts++] = (airc_device_constant){data, p, span};
    *out = p;
    return AIRC_OK;
}

static airc_status capture(airc_compiled *c, airc_capture **out)
{
    if (c->ncaps == c->caps_cap) {
        size_t cap = c->caps_cap;
        if (!airc_grow(c->ctx, (void **)&c->caps, &cap, c->ncaps + 1, sizeof *c->caps))
            return airc_fail_oom("captures");
        size_t cap2 = c->caps_cap;
        if (!airc_grow(c->ctx, (void **)&c->cap_arena, &cap2, c->ncaps + 1, sizeof *c->cap_arena))
            return airc_fail_oom("captures");
        c->caps_cap = cap < cap2 ? cap : cap2;
    }
    if (!c->dummy)
        AIRC_TRY(rt_alloc(c, 64, 64, &c->dummy));
    arena_req req = {c, NULL};
    airc_capture_params p = {0};
    p.graph = c->graph;
    p.sigs = c->sigs;
    p.input_data = c->datas;
    p.bound = c->bound;
    p.ninputs = c->ninputs;
    p.device = c->device;
    p.reinplace_inplaceable = c->reinplace_inplaceable;
    p.reinplace_input_mutated = c->reinplace_input_mutated;
    p.dce = c->dce;
    p.remove_cat = c->remove_cat;
    p.verify = true;
    p.arena = give_arena;
    p.arena_user = &req;
    p.dummy = c->dummy;
    if (!c->host) {
        p.constant = device_constant;
        p.constant_user = c;
        p.write_back = c->is_mutated;
    }
    airc_capture *k = NULL;
    airc_status st = airc_capture_build(c->ctx, &p, &k);
    if (st == AIRC_OK)
        st = ensure_streams(c, k->table.nstreams);
    if (st == AIRC_OK) {
        set_threads(c, k);
        airc_replay_env env = {c->vt, c->rctx, c->cpu_inline, c->streams, 0, false, 0};
        st = airc_capture_prepare_runtime(k, &env);
    }
    if (st == AIRC_OK && c->dump)
        st = dump_capture(c, k);
    if (st != AIRC_OK) {
        if (k)
            airc_capture_release_runtime(k, c->vt, c->rctx);
        airc_capture_free(k);
        if (req.own)
            c->vt->free(c->rctx, req.own);
        return st;
    }
    c->caps[c->ncaps] = k;
    c->cap_arena[c->ncaps] = req.own;
    c->ncaps++;
    c->captures++;
    *out = k;
    return AIRC_OK;
}

/* The plan for the current signature (c->sigs): a known one, a new capture,
 * or NULL once the capture limit was passed. As in TorchAir, a new key past
 * the limit releases every plan and the graph runs eagerly for good. */
static airc_status select_plan(airc_compiled *c, airc_capture **out)
{
    *out = NULL;
    if (c->limit_reached)
        return AIRC_OK;
    uint64_t key = airc_capture_key(c->sigs, c->ninputs);
    for (size_t i = 0; i < c->ncaps; i++)
        if (airc_capture_matches(c->caps[i], key, c->sigs, c->ninputs)) {
            *out = c->caps[i];
            return AIRC_OK;
        }
    if ((int64_t)c->ncaps >= c->capture_limit) {
        c->limit_reached = true;
        airc_compiled_release_captures(c);
        airc_log(c->ctx, AIRC_LOG_WARN,
                 "reduce-overhead: a new input signature past "
                 "debug.aclgraph.static_capture_size_limit (%lld): the captured plans are "
                 "released and the graph runs eagerly from now on",
                 (long long)c->capture_limit);
        return AIRC_OK;
    }
    return capture(c, out);
}

static airc_status replay(airc_compiled *c, airc_capture *k, const airc_tview *in,
                          int32_t copy_kind)
{
    if (c->share_arena && k->base != c->arena) {
        airc_capture_rebase(k, c->arena);
        /* a native graph holds the old arena's addresses */
        airc_capture_drop_native(k, c->vt, c->rctx);
    }
    if (++c->seq == 0)
        c->seq = 1;
    airc_replay_env env = {c->vt, c->rctx, c->cpu_inline, c->streams, c->seq, c->trace, copy_kind};
    if (c->cpu_inline && k->table.nlaunches)
        airc_cpu_prepare_blas(c->rctx, NULL);
    airc_status st = airc_capture_replay(k, &env, in, &c->input_copies);
    c->last = k;
    if (c->trace && k->traced)
        c->traced = k;
    if (st == AIRC_OK)
        c->replays++;
    return st;
}

/* ---- results ----------------------------------------------------------------------------- */

void airc_compiled_free_outputs(airc_compiled *c)
{
    for (size_t i = 0; i < c->nheld; i++)
        c->vt->free(c->rctx, c->held[i]);
    c->nheld = 0;
    for (size_t i = 0; i < c->nheld_tensors; i++)
        airc_tensor_destroy(c->held_tensors[i]);
    airc_free(c->ctx, c->held_tensors);
    c->held_tensors = NULL;
    c->nheld_tensors = 0;
    if (!c->nheld) {
        airc_free(c->ctx, c->held);
        c->held = NULL;
        c->held_cap = 0;
    }
}

static bool contiguous(const airc_tview *t)
{
    int64_t expect = 1;
    for (int32_t d = t->ndim - 1; d >= 0; d--) {
        if (t->shape[d] != 1 && t->strides[d] != expect)
            return false;
        expect *= t->shape[d];
    }
    return true;
}

static airc_status host_result(airc_compiled *c, const airc_tview *t, airc_tensor **out)
{
    if (c->host && !c->output_clone && contiguous(t))
        return airc_tensor_wrap(c->ctx, t->dtype, t->ndim, t->shape, t->data, out);
    airc_tensor *h;
    AIRC_TRY(airc_tensor_new(c->ctx, t->dtype, t->ndim, t->shape, false, &h));
    size_t span = airc_tview_span_bytes(t);
    airc_status st = AIRC_OK;
    if (h->numel && c->host) {
        airc_exec_gather(h->data, t->data, t);
    } else if (h->numel) {
        void *tmp = airc_malloc(c->ctx, span);
        airc_set_error(AIRC_OK, "");
        st = tmp ? c->vt->copy(c->rctx, tmp, t->data, span, AIRC_COPY_DEVICE_TO_HOST, NULL)
                 : airc_fail_oom("a result's device copy");
        if (st == AIRC_OK)
            airc_exec_gather(h->data, tmp, t);
        airc_free(c->ctx, tmp);
    }
    if (st != AIRC_OK) {
        airc_tensor_destroy(h);
        return st;
    }
    *out = h;
    return AIRC_OK;
}

/* enable_output_clone for views: each result copied into a buffer of c. */
static airc_status clone_view(airc_compiled *c, const airc_tview *t, airc_tview *out)
{
    size_t span = airc_tview_span_bytes(t);
    void *p;
    if (!airc_grow(c->ctx, (void **)&c->held, &c->held_cap, c->nheld + 1, sizeof *c->held))
        return airc_fail_oom("output clones");
    AIRC_TRY(rt_alloc(c, span ? span : 1, 64, &p));
    c->held[c->nheld++] = p;
    airc_set_error(AIRC_OK, "");
    if (span && c->vt->copy(c->rctx, p, t->data, span, AIRC_COPY_DEVICE_TO_DEVICE, NULL) != AIRC_OK)
        return airc_fail_prefix("output clone");
    *out = *t;
    out->data = p;
    return AIRC_OK;
}

/* ---- entry points ------------------------------------------------------------------------ */

static airc_status check_run(airc_compiled *c, const void *inputs, size_t ninputs,
                             const void *outputs, size_t cap, const size_t *nout, const char *fn)
{
    AIRC_TRY(airc_check_compiled(c, fn));
    if ((ninputs && !inputs) || (cap && !outputs) || !nout)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: NULL inputs, outputs or noutputs", fn);
    if (c->nresults > cap)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "%s: the graph has %zu results; outputs_cap is %zu", fn, c->nresults, cap);
    return AIRC_OK;
}

/* max-autotune: the model of this signature (lowered on first sight). */
static airc_status model_for(airc_compiled *c, const airc_tview *in, size_t n)
{
    AIRC_TRY(signature(c, in, n, false));
    return airc_compiled_model_matches(c) ? AIRC_OK : airc_compiled_lower(c);
}

/* An eager run of g, with debug.data_dump's files when it is on (one
 * folder per run). */
static airc_status run_eager(airc_compiled *c, const airc_graph *g, airc_tensor *const *inputs,
                             size_t ninputs, airc_tensor **outputs, size_t cap, size_t *nout)
{
    if (!c->data_dump_path)
        return airc_run_eager(g, c->rt, inputs, ninputs, outputs, cap, nout, NULL);
    char dir[4096];
    airc_data_dump d;
    airc_data_dump_init(&d, dir, sizeof dir, c->data_dump_path, c->data_dump_name,
                        c->data_dump_step++, c->data_dump_filter);
    d.inputs = c->data_dump_inputs;
    d.outputs = c->data_dump_outputs;
    return airc_run_eager_dumping(g, c->rt, inputs, ninputs, outputs, cap, nout, NULL, &d);
}

/* debug.fx_summary when airc_compile did not know the signature: the
 * csv of the first run's (retried by the next run if writing fails). */
static airc_status fx_summary_first_run(airc_compiled *c, const airc_tview *in, size_t n)
{
    if (!c->fx_summary_pending)
        return AIRC_OK;
    AIRC_TRY(signature(c, in, n, false));
    return airc_compiled_write_fx_summary(c);
}

static bool eager_mode(const airc_compiled *c)
{
    return c->mode == AIRC_COMPILED_EAGER || c->run_eagerly;
}

/* The plan's results fit the caller's array (their count can depend on the
 * input shapes: a tuple result counts each of its tensors). */
static airc_status check_cap(const airc_capture *k, size_t cap, const char *fn)
{
    if (k->noutputs > cap)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: the graph has %zu results; outputs_cap is %zu",
                         fn, k->noutputs, cap);
    return AIRC_OK;
}

/* Device runtimes: the inputs the graph writes, copied back to the
 * caller's tensors after a replay (their device copies were written; on a
 * host runtime the kernels write the caller's memory itself). */
static airc_status write_back(airc_compiled *c, const airc_capture *k, airc_tensor *const *inputs)
{
    for (size_t i = 0; i < c->ninputs; i++) {
        const airc_capture_input *in = &k->inputs[i];
        if (!c->is_mutated[i] || in->kind != AIRC_CAPTURE_INPUT_COPY || !in->span)
            continue;
        airc_set_error(AIRC_OK, "");
        if (c->vt->copy(c->rctx, inputs[i]->data, in->view.data, in->span, AIRC_COPY_DEVICE_TO_HOST,
                        NULL) != AIRC_OK)
            return airc_fail_prefix("input %zu: writing the mutated input back", i);
    }
    return AIRC_OK;
}

static airc_status run_tensors(airc_compiled *c, airc_tensor *const *inputs, size_t ninputs,
                               airc_tensor **outputs, size_t cap, size_t *nout)
{
    if (ninputs != c->ninputs)
        return signature(c, c->views, ninputs, true);
    for (size_t i = 0; i < ninputs; i++) {
        AIRC_TRY(airc_check_tensor(inputs[i], "airc_compiled_run"));
        airc_tview *v = &c->views[i];
        memset(v, 0, sizeof *v);
        v->data = inputs[i]->data;
        v->dtype = inputs[i]->dtype;
        v->ndim = inputs[i]->ndim;
        int64_t stride = 1;
        for (int32_t d = v->ndim - 1; d >= 0; d--) {
            v->shape[d] = inputs[i]->shape[d];
            v->strides[d] = stride;
            stride *= v->shape[d] > 1 ? v->shape[d] : 1;
        }
    }
    AIRC_TRY(fx_summary_first_run(c, c->views, ninputs));
    if (c->mode == AIRC_COMPILED_MAX_AUTOTUNE && !c->run_eagerly) {
        AIRC_TRY(model_for(c, c->views, ninputs));
        return run_eager(c, c->model_graph, inputs, ninputs, outputs, cap, nout);
    }
    airc_capture *k = NULL;
    if (!eager_mode(c)) {
        AIRC_TRY(signature(c, c->views, ninputs, true));
        AIRC_TRY(select_plan(c, &k));
    }
    if (!k) {
        if (!eager_mode(c))
            c->fallbacks++;
        else if (c->run_eagerly)
            c->fallbacks++;
        return run_eager(c, c->graph, inputs, ninputs, outputs, cap, nout);
    }
    AIRC_TRY(check_cap(k, cap, "airc_compiled_run"));
    AIRC_TRY(
        replay(c, k, c->views, c->host ? AIRC_COPY_DEVICE_TO_DEVICE : AIRC_COPY_HOST_TO_DEVICE));
    if (!c->host)
        AIRC_TRY(write_back(c, k, inputs));
    size_t i = 0;
    airc_status st = AIRC_OK;
    for (; i < k->noutputs && st == AIRC_OK; i++)
        st = host_result(c, k->outputs[i], &outputs[i]);
    if (st != AIRC_OK) {
        for (size_t j = 0; j + 1 < i; j++)
            airc_tensor_destroy(outputs[j]);
        return st;
    }
    *nout = k->noutputs;
    return AIRC_OK;
}

airc_status airc_compiled_run(airc_compiled *c, airc_tensor *const *inputs, size_t ninputs,
                              airc_tensor **outputs, size_t outputs_cap, size_t *noutputs)
{
    AIRC_TRY(check_run(c, inputs, ninputs, outputs, outputs_cap, noutputs, "airc_compiled_run"));
    pthread_mutex_lock(&c->lock);
    airc_compiled_free_outputs(c);
    airc_status st = run_tensors(c, inputs, ninputs, outputs, outputs_cap, noutputs);
    if (st == AIRC_OK)
        c->runs++;
    pthread_mutex_unlock(&c->lock);
    return st;
}

/* run_views past the capture limit: eager over tensors wrapping the views;
 * the results are held by c until the next run. */
static airc_status run_views_eager(airc_compiled *c, const airc_graph *g,
                                   const airc_tview *inputs, size_t ninputs, airc_tview *outputs,
                                   size_t cap, size_t *nout)
{
    if (!c->host)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "airc_compiled_run_views: eager execution of device views is not "
                         "supported (use airc_compiled_run)");
    airc_tensor **ins = airc_calloc(c->ctx, ninputs + 1, sizeof *ins);
    c->held_tensors = airc_calloc(c->ctx, cap + 1, sizeof *c->held_tensors);
    airc_status st = ins && c->held_tensors ? AIRC_OK : airc_fail_oom("eager inputs");
    size_t made = 0;
    for (; st == AIRC_OK && made < ninputs; made++) {
        if (!contiguous(&inputs[made])) {
            st = airc_fail(AIRC_E_UNSUPPORTED,
                           "input %zu: eager execution needs contiguous input views", made);
            break;
        }
        st = airc_tensor_wrap(c->ctx, inputs[made].dtype, inputs[made].ndim, inputs[made].shape,
                              inputs[made].data, &ins[made]);
    }
    size_t n = 0;
    if (st == AIRC_OK)
        st = run_eager(c, g, ins, ninputs, c->held_tensors, cap, &n);
    if (st == AIRC_OK) {
        c->nheld_tensors = n;
        for (size_t i = 0; i < n; i++) {
            const airc_tensor *t = c->held_tensors[i];
            airc_tview *v = &outputs[i];
            memset(v, 0, sizeof *v);
            v->data = t->data;
            v->dtype = t->dtype;
            v->ndim = t->ndim;
            int64_t stride = 1;
            for (int32_t d = t->ndim - 1; d >= 0; d--) {
                v->shape[d] = t->shape[d];
                v->strides[d] = stride;
                stride *= t->shape[d] > 1 ? t->shape[d] : 1;
            }
        }
        *nout = n;
    }
    for (size_t i = 0; ins && i < made; i++)
        airc_tensor_destroy(ins[i]);
    airc_free(c->ctx, ins);
    return st;
}

static airc_status run_views(airc_compiled *c, const airc_tview *inputs, size_t ninputs,
                             airc_tview *outputs, size_t cap, size_t *nout)
{
    AIRC_TRY(fx_summary_first_run(c, inputs, ninputs));
    if (c->mode == AIRC_COMPILED_MAX_AUTOTUNE && !c->run_eagerly) {
        AIRC_TRY(model_for(c, inputs, ninputs));
        return run_views_eager(c, c->model_graph, inputs, ninputs, outputs, cap, nout);
    }
    airc_capture *k = NULL;
    if (!eager_mode(c)) {
        AIRC_TRY(signature(c, inputs, ninputs, false));
        AIRC_TRY(select_plan(c, &k));
    }
    if (!k) {
        if (!eager_mode(c) || c->run_eagerly)
            c->fallbacks++;
        return run_views_eager(c, c->graph, inputs, ninputs, outputs, cap, nout);
    }
    AIRC_TRY(check_cap(k, cap, "airc_compiled_run_views"));
    AIRC_TRY(replay(c, k, inputs, AIRC_COPY_DEVICE_TO_DEVICE));
    for (size_t i = 0; i < k->noutputs; i++) {
        if (c->output_clone)
            AIRC_TRY(clone_view(c, k->outputs[i], &outputs[i]));
        else
            outputs[i] = *k->outputs[i];
    }
    *nout = k->noutputs;
    return AIRC_OK;
}

airc_status airc_compiled_run_views(airc_compiled *c, const airc_tview *inputs, size_t ninputs,
                                    airc_tview *outputs, size_t outputs_cap, size_t *noutputs)
{
    AIRC_TRY(
        check_run(c, inputs, ninputs, outputs, outputs_cap, noutputs, "airc_compiled_run_views"));
    pthread_mutex_lock(&c->lock);
    airc_compiled_free_outputs(c);
    airc_status st = run_views(c, inputs, ninputs, outputs, outputs_cap, noutputs);
    if (st == AIRC_OK)
        c->runs++;
    pthread_mutex_unlock(&c->lock);
    return st;
}
