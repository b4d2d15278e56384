/* A test plugin (built as a MODULE library into build/lib): registers a
 * custom op, test_plugin::twice(Tensor self) -> Tensor, with a meta function,
 * and a named pass, "test_plugin.lower_twice", that lowers every twice(x) to
 * aten.add.Tensor(x, x). It also exports passes by symbol for the
 * `--pre-pass LIB.so:SYMBOL` form. airc's symbols come from the host. */
#include <airc/plugin.h>

#include <string.h>

/* The result has its input's meta (x + x). */
static airc_status twice_meta(airc_node *node, void *user_data)
{
    (void)user_data;
    airc_dtype dtype;
    int32_t ndim;
    const int64_t *shape;
    airc_status st = airc_value_meta(airc_node_arg(node, 0), &dtype, &ndim, &shape, NULL);
    if (st != AIRC_OK)
        return st;
    return airc_node_set_meta(node, dtype, ndim, shape, NULL);
}

/* Exported: usable as `--pre-pass libairc_test_plugin.so:test_plugin_lower_twice`. */
AIRC_PLUGIN_EXPORT airc_status test_plugin_lower_twice(airc_graph *g,
                                                       const airc_example_inputs *inputs,
                                                       const airc_config *config,
                                                       void *user_data);
airc_status test_plugin_lower_twice(airc_graph *g, const airc_example_inputs *inputs,
                                    const airc_config *config, void *user_data)
{
    (void)inputs;
    (void)config;
    (void)user_data;
    airc_node *next;
    for (airc_node *n = airc_graph_first_node(g); n; n = next) {
        next = airc_node_next(n);
        if (airc_node_get_kind(n) != AIRC_NODE_CALL_FUNCTION)
            continue;
        const airc_op *op = airc_node_op(n);
        if (!op || !airc_op_name(op) || strcmp(airc_op_name(op), "test_plugin.twice.default"))
            continue;
        const airc_value *x = airc_node_arg(n, 0);
        const airc_value *args[2] = {x, x};
        airc_node *add = NULL;
        AIRC_TRY_PLUGIN(airc_graph_set_insert_point(g, AIRC_INSERT_BEFORE, n));
        airc_status st = airc_graph_call_function(g, "aten.add.Tensor", args, 2, &add);
        airc_graph_set_insert_point(g, AIRC_INSERT_END, NULL);
        AIRC_TRY_PLUGIN(st);
        AIRC_TRY_PLUGIN(airc_node_replace_all_uses_with(n, add, NULL, NULL, NULL));
        AIRC_TRY_PLUGIN(airc_graph_erase_node(g, n));
    }
    return AIRC_OK;
}

/* Exported: a pass that always fails, to test how failures are reported. */
AIRC_PLUGIN_EXPORT airc_status test_plugin_failing_pass(airc_graph *g,
                                                        const airc_example_inputs *inputs,
                                                        const airc_config *config,
                                                        void *user_data);
airc_status test_plugin_failing_pass(airc_graph *g, const airc_example_inputs *inputs,
                                     const airc_config *config, void *user_data)
{
    (void)g;
    (void)inputs;
    (void)config;
    (void)user_data;
    return airc_pass_fail(AIRC_E_INVALID_ARGUMENT, "test_plugin_failing_pass fails on purpose");
}

int32_t airc_plugin_abi_version(void)
{
    return AIRC_PLUGIN_ABI_VERSION;
}

airc_status airc_plugin_init(airc_context *ctx)
{
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = "test_plugin::twice(Tensor self) -> Tensor";
    def.meta = twice_meta;
    AIRC_TRY_PLUGIN(airc_context_register_op(ctx, &def, NULL));
    return airc_context_register_pass(ctx, "test_plugin.lower_twice", test_plugin_lower_twice,
                                      NULL, NULL);
}
