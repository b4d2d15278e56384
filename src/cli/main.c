/* airc: entry point, global options, subcommand dispatch.
 *
 *   airc [GLOBAL OPTIONS] COMMAND [ARGS...]
 *
 * Adding a subcommand: write cmd_NAME.c defining a cli_command, declare it in
 * cli.h and list it in cli_commands below. Global options are parsed here,
 * before the command, and act on the context that every command receives:
 * `--plugin LIB.so` (also accepted among any command's arguments) loads a
 * plugin into it before the command runs. */
#include "airc/plugin.h"
#include "cli/cli.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_command *const cli_commands[] = {
    &cli_cmd_compile,
    &cli_cmd_fmt,
    &cli_cmd_lint,
    &cli_cmd_passes,
    &cli_cmd_rewrite,
    &cli_cmd_run,
};
#define CLI_NUM_COMMANDS (sizeof cli_commands / sizeof cli_commands[0])

static const cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < CLI_NUM_COMMANDS; i++)
        if (!strcmp(cli_commands[i]->name, name))
            return cli_commands[i];
    return NULL;
}

static int print_main_help(void)
{
    cli_puts("Usage: airc [--help] [--version] [--plugin LIB.so]... COMMAND [ARGS...]\n"
             "\n"
             "airc is a graph compiler for torch.fx graphs (the text torch.fx prints\n"
             "for str(graph)). Commands:\n"
             "\n");
    for (size_t i = 0; i < CLI_NUM_COMMANDS; i++) {
        cli_puts("  ");
        cli_puts(cli_commands[i]->name);
        for (size_t n = strlen(cli_commands[i]->name); n < 10; n++)
            cli_puts(" ");
        cli_puts(cli_commands[i]->summary);
        cli_puts("\n");
    }
    cli_puts("  help      show a command's help: airc help COMMAND\n"
             "\n"
             "Global options:\n"
             "  -h, --help     show this help\n"
             "  -V, --version  print airc's version\n"
             "  --plugin LIB.so\n"
             "                 load an airc plugin (a shared library exporting\n"
             "                 airc_plugin_abi_version and airc_plugin_init) before the\n"
             "                 command runs: its ops and named passes become usable.\n"
             "                 Repeatable; also accepted among a command's arguments.\n"
             "                 A LIB.so without '/' is a file in the current directory\n"
             "\n"
             "Exit status: 0 success, 1 bad input (message on stderr), 2 usage error.\n"
             "FILE may be '-' for standard input.\n");
    return cli_flush() ? CLI_OK : CLI_BAD_INPUT;
}

static int print_version(void)
{
    char line[96]; /* both versions are short static strings */
    snprintf(line, sizeof line, "airc %s (library %s, ABI %d)\n", AIRC_VERSION_STRING,
             airc_version(), (int)airc_abi_version());
    cli_puts(line);
    return cli_flush() ? CLI_OK : CLI_BAD_INPUT;
}

static int run_help(int argc, char **argv)
{
    if (argc < 2)
        return print_main_help();
    if (argc > 2)
        return cli_usage_error("help", "too many arguments (expected one COMMAND)");
    if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
        return print_main_help();
    const cli_command *cmd = find_command(argv[1]);
    if (!cmd)
        return cli_usage_error("help", "unknown command '%.200s'", argv[1]);
    return cli_print_help(cmd);
}

/* --plugin LIB.so names a file: without a '/', dlopen would search the
 * library path instead of the current directory. */
static int load_plugin(airc_context *ctx, const char *lib)
{
    if (!*lib) {
        cli_error("--plugin: empty library path");
        return CLI_BAD_INPUT;
    }
    char *path = malloc(strlen(lib) + 3);
    if (!path) {
        cli_error("out of memory");
        return CLI_BAD_INPUT;
    }
    strcpy(path, strchr(lib, '/') ? "" : "./");
    strcat(path, lib);
    int rc = airc_context_load_plugin(ctx, path) == AIRC_OK ? CLI_OK : cli_fail("--plugin");
    free(path);
    return rc;
}

static int run_command(const cli_command *cmd, int argc, char **argv, const char *const *plugins,
                       size_t nplugins)
{
    cli_env env = {0};
    if (airc_context_create(NULL, &env.ctx) != AIRC_OK)
        return cli_fail("cannot create a context");
    int rc = CLI_OK;
    for (size_t i = 0; i < nplugins && rc == CLI_OK; i++)
        rc = load_plugin(env.ctx, plugins[i]);
    if (rc == CLI_OK)
        rc = cmd->run(&env, argc, argv);
    if (rc == CLI_OK && !cli_flush())
        rc = CLI_BAD_INPUT;
    airc_context_destroy(env.ctx);
    return rc;
}

/* If argv[*i] is `--plugin LIB` or `--plugin=LIB`: stores LIB, advances *i
 * past it and returns 1; 0 if it is something else; -1 (reported) when the
 * value is missing. */
static int take_plugin(int argc, char **argv, int *i, const char *cmd, const char **lib)
{
    const char *arg = argv[*i];
    if (!strncmp(arg, "--plugin=", 9)) {
        *lib = arg + 9;
        *i += 1;
        return 1;
    }
    if (strcmp(arg, "--plugin"))
        return 0;
    if (*i + 1 >= argc) {
        cli_usage_error(cmd, "option '--plugin' needs a value");
        return -1;
    }
    *lib = argv[*i + 1];
    *i += 2;
    return 1;
}

/* Runs cmd with `--plugin` options taken out of its arguments (before a
 * "--") and loaded, with the global ones, into its context. */
static int dispatch(const cli_command *cmd, int argc, char **argv, const char **plugins,
                    size_t nplugins)
{
    char **args = malloc(sizeof *args * ((size_t)argc + 1));
    if (!args) {
        cli_error("out of memory");
        return CLI_BAD_INPUT;
    }
    int n = 0;
    args[n++] = argv[0];
    for (int j = 1; j < argc;) {
        if (!strcmp(argv[j], "--")) {
            while (j < argc)
                args[n++] = argv[j++];
            break;
        }
        const char *lib = NULL;
        int took = take_plugin(argc, argv, &j, cmd->name, &lib);
        if (took < 0) {
            free(args);
            return CLI_USAGE;
        }
        if (took)
            plugins[nplugins++] = lib;
        else
            args[n++] = argv[j++];
    }
    args[n] = NULL;
    int rc = run_command(cmd, n, args, plugins, nplugins);
    free(args);
    return rc;
}

static int run_main_command(int argc, char **argv, int i, const char **plugins, size_t nplugins)
{
    if (i >= argc) {
        cli_usage_error(NULL, "missing COMMAND");
        return CLI_USAGE;
    }
    const char *name = argv[i];
    if (!strcmp(name, "help"))
        return run_help(argc - i, argv + i);
    const cli_command *cmd = find_command(name);
    if (!cmd)
        return cli_usage_error(NULL, "unknown command '%.200s'", name);
    /* `airc CMD --help` anywhere before a "--" needs no context. */
    for (int j = i + 1; j < argc && strcmp(argv[j], "--"); j++)
        if (!strcmp(argv[j], "--help") || !strcmp(argv[j], "-h"))
            return cli_print_help(cmd);
    return dispatch(cmd, argc - i, argv + i, plugins, nplugins);
}

int main(int argc, char **argv)
{
    /* A closed pipe must give exit status 1 and a message, not a signal. */
    signal(SIGPIPE, SIG_IGN);

    /* at most one plugin per argument */
    const char **plugins = malloc(sizeof *plugins * (size_t)argc);
    if (!plugins) {
        cli_error("out of memory");
        return CLI_BAD_INPUT;
    }
    size_t nplugins = 0;
    int i = 1;
    while (i < argc) {
        const char *arg = argv[i];
        if (arg[0] != '-' || !strcmp(arg, "-"))
            break;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            free(plugins);
            return print_main_help();
        }
        if (!strcmp(arg, "-V") || !strcmp(arg, "--version")) {
            free(plugins);
            return print_version();
        }
        if (!strcmp(arg, "--")) {
            i++;
            break;
        }
        const char *lib = NULL;
        int took = take_plugin(argc, argv, &i, NULL, &lib);
        if (took > 0) {
            plugins[nplugins++] = lib;
            continue;
        }
        free(plugins);
        if (took < 0)
            return CLI_USAGE;
        return cli_usage_error(NULL, "unknown option '%.200s'", arg);
    }
    int rc = run_main_command(argc, argv, i, plugins, nplugins);
    free(plugins);
    return rc;
}
