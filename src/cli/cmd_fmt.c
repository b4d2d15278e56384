/* airc fmt FILE: parse and print back (optionally with computed types). */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_TYPES = 1, OPT_INPUT };

static const cli_option fmt_options[] = {
    {"types", 't', false, OPT_TYPES},
    {"input", 'i', true, OPT_INPUT},
    {NULL, 0, false, 0},
};

static int fmt_graph(const cli_env *env, const char *path, bool types, const char *const *inputs,
                     size_t ninputs)
{
    airc_graph *g = NULL;
    if (airc_graph_parse_file(env->ctx, path, &g) != AIRC_OK)
        return cli_fail(NULL);
    const char *shown = cli_shown_path(path);
    int rc = CLI_OK;
    if (types) {
        rc = cli_set_placeholder_meta(env, g, shown, inputs, ninputs);
        if (rc == CLI_OK && airc_graph_propagate_meta(g) != AIRC_OK)
            rc = cli_fail(shown);
    }
    if (rc == CLI_OK)
        rc = cli_print_graph(g, types ? AIRC_PRINT_TYPES : AIRC_PRINT_DEFAULT, shown);
    airc_graph_destroy(g);
    return rc;
}

static int fmt_run(const cli_env *env, int argc, char **argv)
{
    cli_args a;
    cli_args_init(&a, argc, argv, "fmt");
    bool types = false;
    const char *path = NULL;
    /* At most argc inputs; the CLI is an application, so plain malloc. */
    const char **inputs = malloc(sizeof *inputs * (size_t)argc);
    if (!inputs) {
        cli_error("out of memory");
        return CLI_BAD_INPUT;
    }
    size_t ninputs = 0;
    int rc = CLI_OK;
    const char *value;
    for (int id; rc == CLI_OK && (id = cli_next_option(&a, fmt_options, &value)) != CLI_OPT_END;) {
        switch (id) {
        case OPT_TYPES:
            types = true;
            break;
        case OPT_INPUT:
            inputs[ninputs++] = value;
            break;
        case CLI_OPT_OPERAND:
            if (path)
                rc = cli_usage_error("fmt", "more than one FILE ('%.200s' and '%.200s')", path,
                                     value);
            path = value;
            break;
        default:
            rc = CLI_USAGE;
            break;
        }
    }
    if (rc == CLI_OK && !path)
        rc = cli_usage_error("fmt", "missing FILE");
    if (rc == CLI_OK && ninputs && !types)
        rc = cli_usage_error("fmt", "--input needs --types");
    if (rc == CLI_OK)
        rc = fmt_graph(env, path, types, inputs, ninputs);
    free(inputs);
    return rc;
}

const cli_command cli_cmd_fmt = {
    .name = "fmt",
    .summary = "parse a graph and print it back (--types: with computed types)",
    .help = "Usage: airc fmt [--types [--input X.npy]...] FILE\n"
            "\n"
            "Parses FILE (torch.fx text as printed by str(graph); '-' reads standard\n"
            "input) and prints it back in torch.fx's format on standard output,\n"
            "ending with one newline. Parsing checks the syntax, that every name is\n"
            "defined once before use, and that every target is a registered op.\n"
            "A file that carries types (`%x : f32[3, 3] [#users=1] = ...`) prints\n"
            "them back. Print -> parse -> print is the identity.\n"
            "\n"
            "Options:\n"
            "  -t, --types         compute every node's dtype and shape from the\n"
            "                      placeholders' and print them\n"
            "  -i, --input X.npy   with --types: the i-th --input gives the i-th\n"
            "                      placeholder's dtype and shape; repeat it once per\n"
            "                      placeholder. Placeholders past the last --input keep\n"
            "                      the type written in the file (an error if none)\n"
            "  -h, --help          show this help\n"
            "\n"
            "Exit status: 0 success, 1 bad input (message on standard error),\n"
            "2 usage error.\n",
    .run = fmt_run,
};
