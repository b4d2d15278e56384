/* Consumer of an installed airc: creates a context, parses a tiny graph and
 * prints it back. tests/scripts/test_install.sh builds it with find_package
 * and with pkg-config and compares the output with the graph text. */
#include <airc/airc.h>

#include <stdio.h>
#include <string.h>

static const char graph_text[] =
    "graph():\n"
    "    %x_1 : [#users=1] = placeholder[target=x_1]\n"
    "    %abs_1 : [#users=1] = call_function[target=torch.ops.aten.abs.default]"
    "(args = (%x_1,), kwargs = {})\n"
    "    return abs_1";

int main(void)
{
    if (airc_abi_version() != AIRC_ABI_VERSION) {
        fprintf(stderr, "consumer: ABI %d, header %d\n", (int)airc_abi_version(),
                AIRC_ABI_VERSION);
        return 1;
    }
    airc_context *ctx = NULL;
    airc_graph *g = NULL;
    char *text = NULL;
    int rc = 1;
    if (airc_context_create(NULL, &ctx) != AIRC_OK)
        goto fail;
    if (airc_graph_parse(ctx, graph_text, strlen(graph_text), "consumer", &g) != AIRC_OK)
        goto fail;
    if (airc_graph_print(g, AIRC_PRINT_DEFAULT, &text) != AIRC_OK)
        goto fail;
    /* Exactly the text, whatever print does with the final newline. */
    size_t n = strlen(text);
    while (n && text[n - 1] == '\n')
        n--;
    printf("%.*s\n", (int)n, text);
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "consumer: %s\n", airc_last_error());
done:
    airc_string_free(text);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
    return rc;
}
