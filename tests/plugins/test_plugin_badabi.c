/* A test plugin built for a plugin ABI version airc does not implement: the
 * loader must refuse it before calling airc_plugin_init. */
#include <airc/plugin.h>

int32_t airc_plugin_abi_version(void)
{
    return AIRC_PLUGIN_ABI_VERSION + 41;
}

airc_status airc_plugin_init(airc_context *ctx)
{
    /* Reaching this is the bug under test: make it visible. */
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = "test_plugin_badabi::should_not_exist(Tensor self) -> Tensor";
    return airc_context_register_op(ctx, &def, NULL);
}

/* A pass, so that `--pre-pass LIB.so:SYMBOL` on this library is refused for
 * its ABI version too. */
AIRC_PLUGIN_EXPORT airc_status test_plugin_badabi_pass(airc_graph *g,
                                                       const airc_example_inputs *inputs,
                                                       const airc_config *config,
                                                       void *user_data);
airc_status test_plugin_badabi_pass(airc_graph *g, const airc_example_inputs *inputs,
                                    const airc_config *config, void *user_data)
{
    (void)g;
    (void)inputs;
    (void)config;
    (void)user_data;
    return AIRC_OK;
}
