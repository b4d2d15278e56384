/* airc lint FILE...: parse and run airc_graph_lint on each file. */
#include "cli/cli.h"

#include <string.h>

enum { OPT_QUIET = 1 };

static const cli_option lint_options[] = {
    {"quiet", 'q', false, OPT_QUIET},
    {NULL, 0, false, 0},
};

/* Messages from the parser already start with "FILE:LINE:COL:"; lint's name
 * the node but not the file, so those get the file in front. */
static int lint_one(const cli_env *env, const char *path, bool quiet)
{
    airc_graph *g = NULL;
    if (airc_graph_parse_file(env->ctx, path, &g) != AIRC_OK)
        return cli_fail(NULL);
    airc_status st = airc_graph_lint(g);
    airc_graph_destroy(g);
    const char *shown = strcmp(path, "-") ? path : "<stdin>";
    if (st != AIRC_OK)
        return cli_fail(shown);
    if (!quiet) {
        cli_puts(shown);
        cli_puts(": ok\n");
    }
    return CLI_OK;
}

static int lint_run(const cli_env *env, int argc, char **argv)
{
    cli_args a;
    cli_args_init(&a, argc, argv, "lint");
    bool quiet = false;
    int nfiles = 0;
    const char *value;
    for (int id; (id = cli_next_option(&a, lint_options, &value)) != CLI_OPT_END;) {
        if (id == CLI_OPT_ERROR)
            return CLI_USAGE;
        if (id == OPT_QUIET)
            quiet = true;
        else if (id == CLI_OPT_OPERAND)
            nfiles++;
    }
    if (nfiles == 0)
        return cli_usage_error("lint", "missing FILE");

    /* Second sweep over the operands, now that every option is known. */
    int rc = CLI_OK;
    cli_args_init(&a, argc, argv, "lint");
    for (int id; (id = cli_next_option(&a, lint_options, &value)) != CLI_OPT_END;) {
        if (id != CLI_OPT_OPERAND)
            continue;
        if (lint_one(env, value, quiet) != CLI_OK)
            rc = CLI_BAD_INPUT;
    }
    return rc;
}

const cli_command cli_cmd_lint = {
    .name = "lint",
    .summary = "check graphs: syntax, names, ops, torch.fx's lint, schemas, scopes",
    .help = "Usage: airc lint [-q] FILE...\n"
            "\n"
            "Parses each FILE (torch.fx text; '-' reads standard input) and checks it\n"
            "the way torch.fx's Graph.lint does, plus airc's checks: every call's\n"
            "arity and argument kinds against the op's schema, and air.scope_enter /\n"
            "air.scope_exit pairing.\n"
            "\n"
            "Prints 'FILE: ok' on standard output for each file that passes; each\n"
            "problem goes to standard error as 'airc: FILE:LINE:COL: message' (parse\n"
            "errors) or 'airc: FILE: message' (lint errors, which name the node).\n"
            "\n"
            "Options:\n"
            "  -q, --quiet  print nothing for files that pass\n"
            "  -h, --help   show this help\n"
            "\n"
            "Exit status: 0 all files pass, 1 some file does not, 2 usage error.\n",
    .run = lint_run,
};
