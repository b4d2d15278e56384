/* Fuzz target: the FX text parser (airc_graph_parse), then what a tool does
 * with a parsed graph: lint, print, and for a graph that lints, the
 * built-in pass pipeline (airc_run_pipeline) and a print of the result.
 * Fails when a printed graph (parsed, or made by the passes) does not
 * parse back to the same text. */
#include "fuzz_common.h"

FUZZ_PROCESS_CONTEXT(ctx)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ctx || size > (64u << 10))
        return 0;
    airc_graph *g = NULL;
    if (airc_graph_parse(ctx, (const char *)data, size, "fuzz.fx", &g) != AIRC_OK)
        return 0;
    fuzz_require_reprint(ctx, g);
    if (airc_graph_lint(g) == AIRC_OK && airc_run_pipeline(g, NULL, NULL, NULL, NULL) == AIRC_OK) {
        fuzz_require_reprint(ctx, g); /* what the passes made, too */
        char *text = NULL;
        if (airc_graph_print(g, AIRC_PRINT_TYPES, &text) == AIRC_OK)
            airc_string_free(text);
    }
    airc_graph_destroy(g);
    return 0;
}
