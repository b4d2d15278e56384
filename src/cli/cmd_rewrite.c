/* airc rewrite FILE --pattern P.fx --replacement R.fx: torch.fx's
 * replace_pattern on a graph file. */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

enum { OPT_PATTERN = 1, OPT_REPLACEMENT };

static const cli_option rewrite_options[] = {
    {"pattern", 'p', true, OPT_PATTERN},
    {"replacement", 'r', true, OPT_REPLACEMENT},
    {NULL, 0, false, 0},
};

static int rewrite_graph(const cli_env *env, const char *path, const char *pattern_path,
                         const char *replacement_path)
{
    airc_graph *g = NULL, *pattern = NULL, *replacement = NULL;
    airc_replaced_patterns *replaced = NULL;
    int rc = CLI_OK;
    if (airc_graph_parse_file(env->ctx, path, &g) != AIRC_OK ||
        airc_graph_parse_file(env->ctx, pattern_path, &pattern) != AIRC_OK ||
        airc_graph_parse_file(env->ctx, replacement_path, &replacement) != AIRC_OK)
        rc = cli_fail(NULL);
    const char *shown = cli_shown_path(path);
    if (rc == CLI_OK && airc_replace_pattern(g, pattern, replacement, &replaced) != AIRC_OK)
        rc = cli_fail(shown);
    if (rc == CLI_OK)
        rc = cli_print_graph(g, AIRC_PRINT_DEFAULT, shown);
    if (rc == CLI_OK && !cli_flush())
        rc = CLI_BAD_INPUT;
    /* after the graph, so that the count follows it on a shared terminal */
    if (rc == CLI_OK)
        fprintf(stderr, "matches: %zu\n", airc_replaced_patterns_size(replaced));
    airc_replaced_patterns_destroy(replaced);
    airc_graph_destroy(replacement);
    airc_graph_destroy(pattern);
    airc_graph_destroy(g);
    return rc;
}

static int rewrite_run(const cli_env *env, int argc, char **argv)
{
    cli_args a;
    cli_args_init(&a, argc, argv, "rewrite");
    const char *path = NULL, *pattern = NULL, *replacement = NULL;
    const char *value;
    for (int id; (id = cli_next_option(&a, rewrite_options, &value)) != CLI_OPT_END;) {
        switch (id) {
        case OPT_PATTERN:
            pattern = value;
            break;
        case OPT_REPLACEMENT:
            replacement = value;
            break;
        case CLI_OPT_OPERAND:
            if (path)
                return cli_usage_error("rewrite", "more than one FILE ('%.200s' and '%.200s')",
                                       path, value);
            path = value;
            break;
        default:
            return CLI_USAGE;
        }
    }
    if (!path)
        return cli_usage_error("rewrite", "missing FILE");
    if (!pattern)
        return cli_usage_error("rewrite", "missing --pattern P.fx");
    if (!replacement)
        return cli_usage_error("rewrite", "missing --replacement R.fx");
    int stdin_uses = !strcmp(path, "-") + !strcmp(pattern, "-") + !strcmp(replacement, "-");
    if (stdin_uses > 1)
        return cli_usage_error("rewrite", "only one of FILE, P.fx and R.fx can be '-'");
    return rewrite_graph(env, path, pattern, replacement);
}

const cli_command cli_cmd_rewrite = {
    .name = "rewrite",
    .summary = "replace a pattern graph by a replacement graph (torch.fx replace_pattern)",
    .help = "Usage: airc rewrite FILE --pattern P.fx --replacement R.fx\n"
            "\n"
            "Replaces, in FILE, every occurrence of the pattern graph P.fx by the\n"
            "replacement graph R.fx, with torch.fx's replace_pattern rules\n"
            "(non-overlapping matches in graph order; a match whose intermediate\n"
            "result is used outside it is not replaced; literals must be equal).\n"
            "All three are torch.fx text ('-' reads standard input, for one of them).\n"
            "P.fx and R.fx have as many placeholders, and as many outputs, as each\n"
            "other. Prints the rewritten graph on standard output and\n"
            "'matches: N' (the number of replaced matches) on standard error.\n"
            "\n"
            "Options:\n"
            "  -p, --pattern P.fx       the pattern graph (required)\n"
            "  -r, --replacement R.fx   the replacement graph (required)\n"
            "  -h, --help               show this help\n"
            "\n"
            "Exit status: 0 success (also with 0 matches), 1 bad input (message on\n"
            "standard error), 2 usage error.\n",
    .run = rewrite_run,
};
