/* airc: entry point, global options, subcommand dispatch.
 *
 *   airc [GLOBAL OPTIONS] COMMAND [ARGS...]
 *
 * Adding a subcommand: write cmd_NAME.c defining a cli_command, declare it in
 * cli.h and list it in cli_commands below. Global options (the future
 * `--plugin LIB.so`) are parsed here, before the command, and act on the
 * context that every command receives. */
#include "cli/cli.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

static const cli_command *const cli_commands[] = {
    &cli_cmd_fmt,
    &cli_cmd_lint,
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
    cli_puts("Usage: airc [--help] [--version] COMMAND [ARGS...]\n"
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

static int run_command(const cli_command *cmd, int argc, char **argv)
{
    cli_env env = {0};
    if (airc_context_create(NULL, &env.ctx) != AIRC_OK)
        return cli_fail("cannot create a context");
    /* Global options that act on the context (plugins) go here. */
    int rc = cmd->run(&env, argc, argv);
    if (rc == CLI_OK && !cli_flush())
        rc = CLI_BAD_INPUT;
    airc_context_destroy(env.ctx);
    return rc;
}

int main(int argc, char **argv)
{
    /* A closed pipe must give exit status 1 and a message, not a signal. */
    signal(SIGPIPE, SIG_IGN);

    int i = 1;
    for (; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-' || !strcmp(arg, "-"))
            break;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help"))
            return print_main_help();
        if (!strcmp(arg, "-V") || !strcmp(arg, "--version"))
            return print_version();
        if (!strcmp(arg, "--")) {
            i++;
            break;
        }
        return cli_usage_error(NULL, "unknown option '%.200s'", arg);
    }
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
    return run_command(cmd, argc - i, argv + i);
}
