/* The compile pipeline's pass stages (DESIGN.md "The compile pipeline"):
 * user pre-passes -> built-in passes -> user post-passes -> validation. */
#include "config/config.h"
#include "passmgr/passmgr.h"

#include <stdio.h>
#include <string.h>

static airc_status run_meta_propagation(airc_graph *g, const airc_example_inputs *in,
                                        int32_t *changed)
{
    return airc_pass_meta_propagation(g, in, changed);
}

#define WRAP(name)                                                                                 \
    static airc_status run_##name(airc_graph *g, const airc_example_inputs *in, int32_t *changed) \
    {                                                                                              \
        (void)in;                                                                                  \
        return airc_pass_##name(g, changed);                                                       \
    }
WRAP(functionalize)
WRAP(remove_noop_ops)
WRAP(view_to_reshape)
WRAP(dce)
WRAP(cse)
WRAP(constant_folding)
#undef WRAP

/* Pipeline order (DESIGN.md). */
static const airc_builtin_pass builtins[] = {
    {"functionalize", "passes.functionalize", run_functionalize},
    {"remove_noop_ops", "experimental_config.remove_noop_ops", run_remove_noop_ops},
    {"view_to_reshape", "passes.view_to_reshape", run_view_to_reshape},
    {"dce", "passes.dce", run_dce},
    {"cse", "passes.cse", run_cse},
    {"constant_folding", "passes.constant_folding", run_constant_folding},
    {"meta_propagation", "passes.meta_propagation", run_meta_propagation},
};
#define NUM_BUILTINS (sizeof builtins / sizeof builtins[0])

const airc_builtin_pass *airc_builtin_pass_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < NUM_BUILTINS; i++)
        if (!strcmp(builtins[i].name, name))
            return &builtins[i];
    return NULL;
}

size_t airc_num_builtin_passes(void)
{
    return NUM_BUILTINS;
}

const char *airc_builtin_pass_name(size_t i)
{
    return i < NUM_BUILTINS ? builtins[i].name : NULL;
}

const char *airc_builtin_pass_config_key(const char *name)
{
    const airc_builtin_pass *b = airc_builtin_pass_find(name);
    return b ? b->config_key : NULL;
}

int32_t airc_builtin_pass_enabled(const airc_config *config, const char *name)
{
    const airc_builtin_pass *b = airc_builtin_pass_find(name);
    if (!b)
        return 0;
    if (!config)
        return 1;
    return airc_config_flag(config, b->config_key);
}

/* remove_noop_ops decides from meta; give it what the example inputs imply
 * (best effort: a graph whose meta cannot be computed keeps what it had,
 * and the pass then only touches nodes whose meta is known). */
static airc_status prepare_meta(airc_graph *g, const airc_example_inputs *inputs)
{
    if (inputs)
        AIRC_TRY(airc_seed_placeholder_meta(g, inputs));
    AIRC_FOR_EACH_NODE(g, n)
        if (n->kind == AIRC_NODE_PLACEHOLDER && n->meta_kind == AIRC_META_NONE)
            return AIRC_OK;
    /* with every input known, a shape or dtype error is the graph's own:
     * torch's functionalization runs each in-place op on meta tensors
     * before it rewrites the op, so add_(i64, f32) still raises "result
     * type Float can't be cast to the desired output type Long" */
    airc_status st = airc_graph_propagate_meta(g);
    if (st == AIRC_E_OUT_OF_MEMORY || st == AIRC_E_SHAPE)
        return st;
    airc_clear_error();
    return AIRC_OK;
}

static airc_status run_builtins(airc_graph *g, const airc_example_inputs *inputs,
                                const airc_config *config)
{
    bool any = false;
    for (size_t i = 0; i < NUM_BUILTINS; i++)
        any |= airc_builtin_pass_enabled(config, builtins[i].name) != 0;
    if (!any)
        return AIRC_OK;
    /* built-ins are trusted to keep the graph valid, so the stage as a
     * whole is one transaction: one clone instead of one per pass */
    airc_graph *backup;
    if (airc_graph_clone(g, &backup) != AIRC_OK)
        return airc_fail_prefix("built-in passes: saving the graph");
    int32_t where = g->ins_where;
    const airc_node *a = g->ins_anchor ? airc_graph_find_node(backup, g->ins_anchor->name) : NULL;
    airc_status st = AIRC_OK;
    for (size_t i = 0; i < NUM_BUILTINS && st == AIRC_OK; i++) {
        const airc_builtin_pass *b = &builtins[i];
        if (!airc_builtin_pass_enabled(config, b->name))
            continue;
        /* functionalize inverts views from their shapes; remove_noop_ops
         * compares shapes: both get what the example inputs imply */
        if ((b->fn == run_remove_noop_ops || b->fn == run_functionalize) &&
            (st = prepare_meta(g, inputs)) != AIRC_OK) {
            st = airc_fail_prefix("pass '%s': computing meta", b->name);
            break;
        }
        int32_t changed = 0;
        double t0 = airc_now_ms();
        airc_clear_error();
        st = b->fn(g, inputs, &changed);
        if (st != AIRC_OK) {
            char msg[1024];
            snprintf(msg, sizeof msg, "%s", airc_last_error());
            st = airc_fail(st == AIRC_E_OUT_OF_MEMORY ? st : AIRC_E_PASS, "pass '%s' failed: %s",
                           b->name, msg);
            break;
        }
        if (changed)
            airc_log_pass_change(g, b->name, airc_now_ms() - t0);
    }
    if (st == AIRC_OK) {
        airc_graph_destroy(backup);
        return AIRC_OK;
    }
    const char *anchor = a ? a->name : NULL;
    airc_graph_swap(g, backup);
    airc_graph_destroy(backup);
    airc_node *an = anchor ? airc_graph_find_node(g, anchor) : NULL;
    g->ins_where = (where == AIRC_INSERT_BEFORE || where == AIRC_INSERT_AFTER) && !an
                       ? AIRC_INSERT_END
                       : where;
    g->ins_anchor = an;
    return st;
}

airc_status airc_run_pipeline(airc_graph *g, const airc_example_inputs *inputs,
                              const airc_config *config, airc_pass_manager *pre,
                              airc_pass_manager *post)
{
    AIRC_TRY(airc_check_graph(g, "airc_run_pipeline"));
    if (inputs && inputs->magic != AIRC_MAGIC_INPUTS)
        return airc_fail(AIRC_E_MISUSE, "airc_run_pipeline: not a live airc_example_inputs");
    if (config && airc_config_context(config) != g->ctx)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_run_pipeline: the config belongs to another context");
    airc_status st = airc_graph_lint(g);
    if (st != AIRC_OK)
        return st == AIRC_E_INVALID_GRAPH ? airc_fail_prefix("the input graph is invalid") : st;
    if (pre)
        AIRC_TRY(airc_pass_manager_run(pre, g, inputs, config, NULL));
    AIRC_TRY(run_builtins(g, inputs, config));
    if (post)
        AIRC_TRY(airc_pass_manager_run(post, g, inputs, config, NULL));
    st = airc_graph_lint(g);
    if (st == AIRC_E_INVALID_GRAPH)
        return airc_fail_prefix("validation");
    return st;
}
