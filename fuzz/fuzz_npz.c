/* Fuzz target: the .npz reader (airc_npz_read_buffer: zip, deflate, CRC,
 * .npy members); every array handed over is read and destroyed. */
#include "fuzz_common.h"

FUZZ_PROCESS_CONTEXT(ctx)

static airc_status on_array(void *user_data, const char *name, airc_tensor *t)
{
    uint32_t *h = user_data;
    *h = *h * 31u + (uint32_t)strlen(name) + fuzz_touch_tensor(t);
    airc_tensor_destroy(t);
    return AIRC_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ctx || size > (1u << 20))
        return 0;
    uint32_t h = 0;
    airc_npz_read_buffer(ctx, data, size, "fuzz.npz", on_array, &h);
    volatile uint32_t sink = h;
    (void)sink;
    return 0;
}
