/* The example's ops as an airc plugin: `airc run model.fx --plugin
 * build/lib/libairc_custom_op_plugin.so --mode max-autotune`. */
#include "ops.h"

#include <airc/plugin.h>

int32_t airc_plugin_abi_version(void)
{
    return AIRC_PLUGIN_ABI_VERSION;
}

airc_status airc_plugin_init(airc_context *ctx)
{
    return custom_op_register(ctx);
}
