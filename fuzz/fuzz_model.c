/* Fuzz target: the GE ModelDef reader (airc_model_read, the protobuf that
 * max-autotune emits), then lint and print of the graph it gives. */
#include "fuzz_common.h"

FUZZ_PROCESS_CONTEXT(ctx)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ctx || size > (256u << 10))
        return 0;
    airc_graph *g = NULL;
    if (airc_model_read(ctx, data, size, &g) != AIRC_OK)
        return 0;
    char *text = NULL;
    if (airc_graph_lint(g) == AIRC_OK && airc_graph_print(g, AIRC_PRINT_TYPES, &text) == AIRC_OK)
        airc_string_free(text);
    airc_graph_destroy(g);
    return 0;
}
