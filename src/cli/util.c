/* Option parsing, output and error reporting shared by the subcommands. */
#include "cli/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void cli_args_init(cli_args *a, int argc, char **argv, const char *cmd)
{
    a->argc = argc;
    a->argv = argv;
    a->index = 1; /* argv[0] is the subcommand's name */
    a->options_done = false;
    a->cmd = cmd;
}

static const cli_option *find_long(const cli_option *opts, const char *name, size_t len)
{
    for (const cli_option *o = opts; o->long_name || o->short_name; o++)
        if (o->long_name && strlen(o->long_name) == len && !strncmp(o->long_name, name, len))
            return o;
    return NULL;
}

static const cli_option *find_short(const cli_option *opts, char c)
{
    for (const cli_option *o = opts; o->long_name || o->short_name; o++)
        if (o->short_name == c)
            return o;
    return NULL;
}

int cli_next_option(cli_args *a, const cli_option *opts, const char **value)
{
    *value = NULL;
    if (a->index >= a->argc)
        return CLI_OPT_END;
    const char *arg = a->argv[a->index++];
    if (a->options_done || arg[0] != '-' || arg[1] == '\0') {
        *value = arg;
        return CLI_OPT_OPERAND;
    }
    if (!strcmp(arg, "--")) {
        a->options_done = true;
        return cli_next_option(a, opts, value);
    }
    const cli_option *o;
    const char *inline_value = NULL;
    if (arg[1] == '-') {
        const char *name = arg + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        o = find_long(opts, name, len);
        if (!o) {
            cli_usage_error(a->cmd, "unknown option '--%.*s'", (int)(len > 200 ? 200 : len), name);
            return CLI_OPT_ERROR;
        }
        if (eq) {
            if (!o->takes_value) {
                cli_usage_error(a->cmd, "option '--%s' takes no value", o->long_name);
                return CLI_OPT_ERROR;
            }
            inline_value = eq + 1;
        }
    } else {
        /* Short options are not bundled: "-q" yes, "-qx" no. */
        o = arg[2] == '\0' ? find_short(opts, arg[1]) : NULL;
        if (!o) {
            cli_usage_error(a->cmd, "unknown option '%.200s'", arg);
            return CLI_OPT_ERROR;
        }
    }
    if (o->takes_value) {
        if (inline_value) {
            *value = inline_value;
        } else if (a->index < a->argc) {
            *value = a->argv[a->index++];
        } else {
            cli_usage_error(a->cmd, "option '%s' needs a value", arg);
            return CLI_OPT_ERROR;
        }
    }
    return o->id;
}

/* stdout is written with fwrite and checked: SIGPIPE is ignored (main.c), so
 * a closed pipe shows up here as EPIPE and becomes exit status 1. */
static bool g_write_failed;

bool cli_write(const char *s, size_t n)
{
    if (g_write_failed)
        return false;
    if (n && fwrite(s, 1, n, stdout) != n) {
        g_write_failed = true;
        cli_error("cannot write to standard output: %s", strerror(errno));
        return false;
    }
    return true;
}

bool cli_puts(const char *s)
{
    return cli_write(s, strlen(s));
}

bool cli_flush(void)
{
    if (g_write_failed)
        return false;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        g_write_failed = true;
        cli_error("cannot write to standard output: %s", strerror(errno));
        return false;
    }
    return true;
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("airc: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "airc%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fprintf(stderr, "Try 'airc %s%s--help' for more information.\n", cmd ? cmd : "",
            cmd ? " " : "");
    return CLI_USAGE;
}

int cli_fail(const char *what)
{
    const char *msg = airc_last_error();
    if (!msg || !*msg)
        msg = airc_status_name(airc_last_error_code());
    if (what)
        cli_error("%s: %s", what, msg);
    else
        cli_error("%s", msg);
    return CLI_BAD_INPUT;
}

int cli_apply_sets(airc_config *cfg, const char *const *kv, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(kv[i], '=');
        char key[256];
        snprintf(key, sizeof key, "%.*s", (int)(eq - kv[i]), kv[i]);
        if (airc_config_set(cfg, key, eq + 1) != AIRC_OK)
            return cli_fail("--set");
    }
    return CLI_OK;
}

int cli_print_help(const cli_command *cmd)
{
    cli_puts(cmd->help);
    return cli_flush() ? CLI_OK : CLI_BAD_INPUT;
}

const char *cli_shown_path(const char *path)
{
    return strcmp(path, "-") ? path : "<stdin>";
}

int cli_set_placeholder_meta(const cli_env *env, airc_graph *g, const char *shown,
                             const char *const *inputs, size_t ninputs)
{
    size_t index = 0;
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n)) {
        if (airc_node_get_kind(n) != AIRC_NODE_PLACEHOLDER)
            continue;
        if (index < ninputs) {
            airc_tensor *t = NULL;
            if (airc_npy_read(env->ctx, inputs[index], &t) != AIRC_OK)
                return cli_fail(NULL);
            airc_status st = airc_node_set_meta(n, airc_tensor_dtype(t), airc_tensor_ndim(t),
                                                airc_tensor_shape(t), NULL);
            airc_tensor_destroy(t);
            if (st != AIRC_OK)
                return cli_fail(inputs[index]);
        } else if (airc_node_meta_kind(n) == AIRC_META_NONE) {
            cli_error("%s: placeholder '%s' (input %zu) has no type: give it with --input "
                      "FILE.npy or write its type in the graph",
                      shown, airc_node_name(n), index);
            return CLI_BAD_INPUT;
        }
        index++;
    }
    if (ninputs > index) {
        cli_error("%s: %zu --input file%s given, but the graph has %zu placeholder%s", shown,
                  ninputs, ninputs == 1 ? "" : "s", index, index == 1 ? "" : "s");
        return CLI_BAD_INPUT;
    }
    return CLI_OK;
}

int cli_write_graph_text(const char *text)
{
    size_t len = strlen(text);
    if (!cli_write(text, len))
        return CLI_BAD_INPUT;
    if ((len == 0 || text[len - 1] != '\n') && !cli_write("\n", 1))
        return CLI_BAD_INPUT;
    return CLI_OK;
}

int cli_print_graph(const airc_graph *g, uint32_t flags, const char *shown)
{
    char *text = NULL;
    if (airc_graph_print(g, flags, &text) != AIRC_OK)
        return cli_fail(shown);
    int rc = cli_write_graph_text(text);
    airc_string_free(text);
    return rc;
}
