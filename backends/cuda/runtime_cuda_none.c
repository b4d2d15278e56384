/* airc_cuda_runtime_create in a build without AIRC_CUDA: the symbol always
 * exists, so applications and bindings need no build-time switch. */
#include "core/core.h"

#include "airc/runtime.h"

airc_status airc_cuda_runtime_create(airc_context *ctx, int32_t device, airc_runtime **out)
{
    (void)ctx;
    (void)device;
    (void)out;
    return airc_fail(AIRC_E_UNSUPPORTED,
                     "airc_cuda_runtime_create: airc was built without CUDA (configure with "
                     "-DAIRC_CUDA=ON and a CUDA toolkit)");
}
