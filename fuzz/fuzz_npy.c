/* Fuzz target: the .npy reader (airc_npy_read_buffer); every byte of the
 * tensor it returns is read. */
#include "fuzz_common.h"

FUZZ_PROCESS_CONTEXT(ctx)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ctx || size > (1u << 20))
        return 0;
    airc_tensor *t = NULL;
    if (airc_npy_read_buffer(ctx, data, size, "fuzz.npy", &t) != AIRC_OK)
        return 0;
    volatile uint32_t sink = fuzz_touch_tensor(t) + (uint32_t)airc_tensor_numel(t);
    (void)sink;
    airc_tensor_destroy(t);
    return 0;
}
