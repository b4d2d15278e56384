/* multistream: TorchAir's custom-pass guide (seed 001) in C.
 *
 *     multistream [MODEL.fx [INPUT.npy]]
 *
 * The guide's model
 *
 *     mm = mm(x, x); abs = abs(mm); add = add(abs, 1); sub = sub(x, mm)
 *     return add, sub
 *
 * should run mm and abs on a second stream, and sub only after them. Its
 * pass, written here against airc's public API, inserts
 *
 *     air.scope_enter(["_user_stream_label"], ["stream_1"])   before mm
 *     record = air.record(); air.scope_exit()                 after abs
 *     air.wait([record])                                      before sub
 *
 * It is registered as a user pre-pass (TorchAir's post_grad_custom_pre_pass)
 * and the compile pipeline runs: the pass, the built-in passes (which keep
 * the air ops: they have side effects), validation (lint and scope pairing).
 * The graph is printed before and after, and the program checks the order
 * itself: it exits 1 when the result is not the guide's.
 *
 * Defaults: the project's copy of the model, examples/seed001/model.fx, and
 * its input x.npy (AIRC_EXAMPLES_DIR is set by examples/CMakeLists.txt). */
#include <airc/airc.h>
#include <stdbool.h>

#include <stdio.h>
#include <string.h>

#ifndef AIRC_EXAMPLES_DIR
#define AIRC_EXAMPLES_DIR "examples"
#endif

static int report(const char *what)
{
    fprintf(stderr, "multistream: %s: %s (%s)\n", what, airc_last_error(),
            airc_status_name(airc_last_error_code()));
    return 1;
}

static int is_call(const airc_node *n, const char *op)
{
    return airc_node_get_kind(n) == AIRC_NODE_CALL_FUNCTION &&
           strcmp(airc_node_target(n), op) == 0;
}

/* Creates `op(args...)` at the graph's current insertion point; out may be
 * NULL when the caller does not need the node. */
static airc_status call(airc_graph *g, const char *op, const airc_value *const *args,
                        size_t nargs, airc_node **out)
{
    airc_node *n;
    airc_status st = airc_graph_call_function(g, op, args, nargs, &n);
    if (st == AIRC_OK && out)
        *out = n;
    return st;
}

/* ["s"]: a list holding one string. */
static airc_status string_list(airc_graph *g, const char *s, const airc_value **out)
{
    const airc_value *item;
    airc_status st = airc_value_string(g, s, &item);
    if (st != AIRC_OK)
        return st;
    return airc_value_list(g, &item, 1, out);
}

/* The guide's pass. Like the Python original it walks the nodes once and
 * edits around the node it stands on; the nodes it creates come after the
 * walk's position or before it, so the walk visits each original node once
 * (the new ones, when visited, match nothing). On any error it returns the
 * status: the pass manager then restores the graph as it was. */
static airc_status multistream_pass(airc_graph *g, const airc_example_inputs *inputs,
                                    const airc_config *config, void *user_data)
{
    (void)inputs;  /* shape/dtype of the inputs: not needed here */
    (void)config;  /* the full compile config: not needed here */
    const char *label = user_data; /* the stream label: "stream_1" */
    airc_node *record = NULL;
    airc_status st = AIRC_OK;

    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n)) {
        if (is_call(n, "aten.mm.default")) {
            /* with fx_graph.inserting_before(node): scope_enter(...) */
            const airc_value *args[2];
            if ((st = string_list(g, "_user_stream_label", &args[0])) != AIRC_OK ||
                (st = string_list(g, label, &args[1])) != AIRC_OK ||
                (st = airc_graph_set_insert_point(g, AIRC_INSERT_BEFORE, n)) != AIRC_OK ||
                (st = call(g, "air.scope_enter.default", args, 2, NULL)) != AIRC_OK)
                break;
        }
        if (is_call(n, "aten.abs.default")) {
            /* with inserting_after(node): record; with inserting_after(record):
             * scope_exit. (One AIRC_INSERT_AFTER n would do too: airc's point
             * moves past each new node, see docs/ir.md.) */
            if ((st = airc_graph_set_insert_point(g, AIRC_INSERT_AFTER, n)) != AIRC_OK ||
                (st = call(g, "air.record.default", NULL, 0, &record)) != AIRC_OK ||
                (st = airc_graph_set_insert_point(g, AIRC_INSERT_AFTER, record)) != AIRC_OK ||
                (st = call(g, "air.scope_exit.default", NULL, 0, NULL)) != AIRC_OK)
                break;
        }
        if (is_call(n, "aten.sub.Tensor")) {
            /* with inserting_before(node): wait([record]) */
            if (!record) {
                /* Python would raise NameError on record_node here. */
                st = airc_pass_fail(AIRC_E_INVALID_GRAPH,
                                    "multistream: %s comes before any aten.abs.default: "
                                    "nothing to wait for", airc_node_name(n));
                break;
            }
            const airc_value *rec, *list;
            if ((st = airc_value_node(g, record, &rec)) != AIRC_OK ||
                (st = airc_value_list(g, &rec, 1, &list)) != AIRC_OK ||
                (st = airc_graph_set_insert_point(g, AIRC_INSERT_BEFORE, n)) != AIRC_OK ||
                (st = call(g, "air.wait.default", &list, 1, NULL)) != AIRC_OK)
                break;
        }
    }
    /* Leave the insertion point as passes find it: at the end. */
    airc_graph_set_insert_point(g, AIRC_INSERT_END, NULL);
    return st;
}

/* ------------------------------------------------------------------------ */
/* The program's own check of the result                                    */
/* ------------------------------------------------------------------------ */

static int failures;

static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "multistream: FAIL: %s\n", what);
        failures++;
    }
}

static airc_node *find_call(const airc_graph *g, const char *op)
{
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n))
        if (is_call(n, op))
            return n;
    return NULL;
}

static size_t count_calls(const airc_graph *g, const char *op)
{
    size_t k = 0;
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n))
        k += (size_t)is_call(n, op);
    return k;
}

/* v is a list of exactly one string equal to s. */
static int is_string_list(const airc_value *v, const char *s)
{
    const char *got;
    return airc_value_get_kind(v) == AIRC_VALUE_LIST && airc_value_length(v) == 1 &&
           airc_value_get_string(airc_value_item(v, 0), &got) == AIRC_OK && strcmp(got, s) == 0;
}

/* The guide's expected order: scope_enter right before mm, record then
 * scope_exit right after abs, wait([record]) right before sub; one of each. */
static void check_result(const airc_graph *g)
{
    airc_node *mm = find_call(g, "aten.mm.default");
    airc_node *abs_ = find_call(g, "aten.abs.default");
    airc_node *sub = find_call(g, "aten.sub.Tensor");
    expect(mm && abs_ && sub, "mm, abs and sub are still in the graph");
    if (!mm || !abs_ || !sub)
        return;
    expect(count_calls(g, "air.scope_enter.default") == 1 &&
               count_calls(g, "air.scope_exit.default") == 1 &&
               count_calls(g, "air.record.default") == 1 &&
               count_calls(g, "air.wait.default") == 1,
           "exactly one scope_enter, scope_exit, record and wait");

    airc_node *enter = airc_node_prev(mm);
    expect(enter && is_call(enter, "air.scope_enter.default"),
           "air.scope_enter.default right before mm");
    if (enter && is_call(enter, "air.scope_enter.default"))
        expect(airc_node_num_args(enter) == 2 &&
                   is_string_list(airc_node_arg(enter, 0), "_user_stream_label") &&
                   is_string_list(airc_node_arg(enter, 1), "stream_1"),
               "scope_enter's args are ([_user_stream_label], [stream_1])");

    airc_node *record = airc_node_next(abs_);
    expect(record && is_call(record, "air.record.default"), "air.record.default right after abs");
    airc_node *exit_ = record ? airc_node_next(record) : NULL;
    expect(exit_ && is_call(exit_, "air.scope_exit.default"),
           "air.scope_exit.default right after the record");

    airc_node *wait = airc_node_prev(sub);
    expect(wait && is_call(wait, "air.wait.default"), "air.wait.default right before sub");
    if (wait && is_call(wait, "air.wait.default") && record) {
        const airc_value *list = airc_node_num_args(wait) == 1 ? airc_node_arg(wait, 0) : NULL;
        airc_node *waited = NULL;
        expect(list && airc_value_length(list) == 1 &&
                   airc_value_get_node(airc_value_item(list, 0), &waited) == AIRC_OK &&
                   waited == record,
               "wait's argument is [record]");
    }
}

/* ------------------------------------------------------------------------ */

static int print_graph(const char *title, const airc_graph *g)
{
    char *text;
    /* No type slot: the text compares with what torch.fx prints. */
    if (airc_graph_print(g, AIRC_PRINT_NO_TYPES, &text) != AIRC_OK)
        return report("print");
    printf("--- %s ---\n%s\n", title, text);
    airc_string_free(text);
    return 0;
}

/* The guide's torch.compile(model, backend=npu_backend) then model(x):
 * compile the original graph with the pass as a pre-pass, run it twice in
 * reduce-overhead (capture, then replay) and compare with eager. */
static int run_compiled(const airc_graph *g, const airc_config *config, airc_pass_manager *pre,
                        airc_tensor *x, const char *trace)
{
    airc_compile_options o;
    airc_compile_options_init(&o);
    o.config = config;
    o.pre_passes = pre;
    airc_compiled *c = NULL;
    airc_tensor *want[2] = {NULL, NULL}, *got[2] = {NULL, NULL};
    size_t nwant = 0, ngot = 0;
    int rc = 1;
    if (airc_compile(g, &o, &c) != AIRC_OK || airc_compiled_set_trace(c, 1) != AIRC_OK) {
        report("compile");
        goto out;
    }
    for (int run = 0; run < 2; run++) {
        for (size_t i = 0; i < ngot; i++)
            airc_tensor_destroy(got[i]);
        ngot = 0;
        if (airc_compiled_run(c, &x, 1, got, 2, &ngot) != AIRC_OK) {
            report("reduce-overhead run");
            goto out;
        }
    }
    if (airc_run_eager(g, NULL, &x, 1, want, 2, &nwant, NULL) != AIRC_OK) {
        report("eager run");
        goto out;
    }
    airc_compiled_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    airc_compiled_get_stats(c, &s);
    bool same = ngot == nwant && ngot == 2;
    for (size_t i = 0; same && i < ngot; i++)
        same = airc_tensor_nbytes(got[i]) == airc_tensor_nbytes(want[i]) &&
               !memcmp(airc_tensor_data(got[i]), airc_tensor_data(want[i]),
                       airc_tensor_nbytes(want[i]));
    expect(same, "reduce-overhead results equal eager's");
    expect(s.streams == 2, "two streams (main, stream_1)");
    expect(s.captures == 1 && s.replays == 2, "one capture, two replays");
    if (trace && airc_compiled_write_trace(c, trace) != AIRC_OK) {
        report(trace);
        goto out;
    }
    if (failures == 0) {
        printf("multistream: ok: reduce-overhead on %u streams, %llu launches, %llu events, "
               "arena %llu bytes; results equal eager%s%s\n",
               s.streams, (unsigned long long)s.launches, (unsigned long long)s.events,
               (unsigned long long)s.arena_bytes, trace ? "; trace: " : "", trace ? trace : "");
        rc = 0;
    }
out:
    for (size_t i = 0; i < ngot; i++)
        airc_tensor_destroy(got[i]);
    for (size_t i = 0; i < nwant; i++)
        airc_tensor_destroy(want[i]);
    airc_compiled_destroy(c);
    return rc;
}

int main(int argc, char **argv)
{
    const char *model = argc > 1 ? argv[1] : AIRC_EXAMPLES_DIR "/seed001/model.fx";
    const char *input = argc > 2 ? argv[2] : argc > 1 ? NULL : AIRC_EXAMPLES_DIR "/seed001/x.npy";
    const char *trace = argc > 3 ? argv[3] : NULL;
    if (argc > 4 || (argc > 1 && argv[1][0] == '-')) {
        fprintf(stderr, "usage: %s [MODEL.fx [INPUT.npy [TRACE.json]]]\n", argv[0]);
        return 2;
    }

    airc_context *ctx = NULL;
    if (airc_context_create(NULL, &ctx) != AIRC_OK)
        return report("airc_context_create");
    int rc = 1;
    airc_graph *g = NULL, *original = NULL;
    airc_tensor *x = NULL;
    airc_example_inputs *inputs = NULL;
    airc_config *config = NULL;
    airc_pass_manager *pre = NULL;

    if (airc_graph_parse_file(ctx, model, &g) != AIRC_OK) {
        report(model);
        goto done;
    }
    if (print_graph("before", g) != 0)
        goto done;
    if (airc_graph_clone(g, &original) != AIRC_OK) {
        report("clone");
        goto done;
    }

    /* example_inputs: the dtype and shape of x (the guide's randn(3, 3)).
     * Without an input file the pipeline gets NULL: no example inputs (an
     * empty list would say "the graph takes no inputs"). */
    if (input && (airc_example_inputs_create(ctx, &inputs) != AIRC_OK ||
                  airc_npy_read(ctx, input, &x) != AIRC_OK ||
                  airc_example_inputs_add_tensor(inputs, x) != AIRC_OK)) {
        report(input);
        goto done;
    }

    /* The guide's config: reduce-overhead mode, fusion off so that the
     * profile shows the streams. The passes do not depend on them. */
    if (airc_config_create(ctx, &config) != AIRC_OK ||
        airc_config_set(config, "mode", "reduce-overhead") != AIRC_OK ||
        airc_config_set(config, "ge_config.optimization_switch", "AutomaticUbFusion:off") !=
            AIRC_OK) {
        report("config");
        goto done;
    }

    /* config.post_grad_custom_pre_pass = _custom_pre_pass. user_data is
     * borrowed (a string literal): no free function. */
    if (airc_pass_manager_create(ctx, &pre) != AIRC_OK ||
        airc_pass_manager_add_pass(pre, "multistream", multistream_pass, (void *)"stream_1",
                                   NULL) != AIRC_OK) {
        report("pass manager");
        goto done;
    }
    if (airc_run_pipeline(g, inputs, config, pre, NULL) != AIRC_OK) {
        report("pipeline");
        goto done;
    }
    if (print_graph("after the pipeline", g) != 0)
        goto done;

    check_result(g);
    if (failures == 0)
        printf("multistream: ok: scope_enter before mm, record and scope_exit after abs, "
               "wait([record]) before sub\n");
    if (failures == 0 && x && run_compiled(original, config, pre, x, trace) == 0)
        rc = 0;
    else if (failures == 0 && !x)
        rc = 0;

done:
    airc_pass_manager_destroy(pre);
    airc_config_destroy(config);
    airc_example_inputs_destroy(inputs);
    airc_tensor_destroy(x);
    airc_graph_destroy(original);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
    return rc;
}
