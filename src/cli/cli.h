/* The airc command-line tool: shared declarations.
 *
 * The tool is a thin layer over the public API (it links libairc.so like any
 * application). Each subcommand is one entry of a table (cli_commands in
 * main.c) and lives in its own cmd_*.c file. main.c handles the global
 * options, creates the context once (so a future `--plugin LIB.so` can
 * register ops into it before any subcommand runs) and dispatches.
 *
 * Exit codes, for every subcommand:
 *   0  success
 *   1  bad input: unreadable file, malformed text, lint failure, bad .npy,
 *      a write to stdout that failed (EPIPE included)
 *   2  usage error: unknown subcommand or option, missing argument
 */
#ifndef AIRC_CLI_H
#define AIRC_CLI_H

#include "airc/airc.h"

#include <stdbool.h>
#include <stddef.h>

enum { CLI_OK = 0, CLI_BAD_INPUT = 1, CLI_USAGE = 2 };

/* What every subcommand receives besides its own arguments. */
typedef struct cli_env {
    airc_context *ctx; /* created by main before the subcommand runs */
} cli_env;

typedef struct cli_command {
    const char *name;
    const char *summary; /* one line for `airc --help` */
    const char *help;    /* full text for `airc help CMD` / `airc CMD --help` */
    /* argv[0] is the subcommand's name; argv[argc] is NULL. Returns an exit
     * code (CLI_*). */
    int (*run)(const cli_env *env, int argc, char **argv);
} cli_command;

/* The subcommands (one per cmd_*.c). */
extern const cli_command cli_cmd_compile;
extern const cli_command cli_cmd_fmt;
extern const cli_command cli_cmd_lint;
extern const cli_command cli_cmd_passes;
extern const cli_command cli_cmd_rewrite;
extern const cli_command cli_cmd_run;

/* ---- option parsing ------------------------------------------------------
 * GNU-style: options and operands may be mixed; `--name=value` or
 * `--name value`; `--` ends options; a lone `-` is an operand (stdin). */

typedef struct cli_option {
    const char *long_name; /* without the leading "--" */
    char short_name;       /* 0 if none */
    bool takes_value;
    int id; /* returned by cli_next_option */
} cli_option;

typedef struct cli_args {
    int argc;
    char **argv;
    int index;         /* next argv entry to read */
    bool options_done; /* after "--" */
    const char *cmd;   /* for messages: "fmt" */
} cli_args;

enum {
    CLI_OPT_END = -1,     /* no more arguments */
    CLI_OPT_OPERAND = -2, /* *value is a positional argument */
    CLI_OPT_ERROR = -3    /* unknown option or missing value (already reported) */
};

void cli_args_init(cli_args *a, int argc, char **argv, const char *cmd);
/* Returns the id of the next option (with *value set when it takes one),
 * CLI_OPT_OPERAND, CLI_OPT_END or CLI_OPT_ERROR. */
int cli_next_option(cli_args *a, const cli_option *opts, const char **value);

/* ---- output ------------------------------------------------------------- */

/* Writes n bytes to stdout. false after a write failure (reported once). */
bool cli_write(const char *s, size_t n);
bool cli_puts(const char *s);
/* Flushes stdout; false (reported) when any earlier write failed. */
bool cli_flush(void);

/* "airc: <message>" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "airc CMD: <message>" and a pointer to --help, on stderr; returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Reports airc_last_error() prefixed by what (may be NULL); returns CLI_BAD_INPUT. */
int cli_fail(const char *what);
/* A graph's inputs and constants as the options gave them (graph_inputs.c). */
typedef struct cli_graph_inputs {
    const char *path; /* the graph file, for messages */
    const char **inputs;
    size_t ninputs;
    const char **consts; /* NAME=X.npy */
    size_t nconsts;
    const char *weights; /* .npz */
    uint64_t seed;       /* random inputs past the --input files */
} cli_graph_inputs;
/* One tensor per placeholder: --input files, then random data of the
 * placeholder's written type. */
int cli_make_inputs(const cli_env *env, airc_graph *g, const cli_graph_inputs *o,
                    airc_tensor ***out, size_t *count);
/* Binds --const and --weights; every get_attr must end up with data. */
int cli_load_constants(const cli_env *env, airc_graph *g, const cli_graph_inputs *o);
/* Applies --set KEY=VALUE options (each holds a '=') to cfg. */
int cli_apply_sets(airc_config *cfg, const char *const *kv, size_t n);

/* Prints a command's help text to stdout; returns CLI_OK, or CLI_BAD_INPUT
 * when stdout could not be written. */
int cli_print_help(const cli_command *cmd);

/* ---- graphs ------------------------------------------------------------- */

/* "<stdin>" for "-", else path: how messages name a FILE operand. */
const char *cli_shown_path(const char *path);

/* `--input X.npy`: gives the i-th placeholder of g the dtype and shape of
 * the i-th file. Placeholders past the inputs keep the type the graph text
 * gave them; one with neither is an error (meta needs every input's type),
 * as is a file too many. shown names the graph in messages. Returns CLI_*. */
int cli_set_placeholder_meta(const cli_env *env, airc_graph *g, const char *shown,
                             const char *const *inputs, size_t ninputs);

/* Writes a printed graph: torch prints str(graph) without a trailing
 * newline, files usually end with one, so exactly one is written (then
 * `airc fmt F.fx | cmp - F.fx` holds). Returns CLI_*. */
int cli_write_graph_text(const char *text);

/* Prints g (airc_graph_print with flags) on stdout. Returns CLI_*. */
int cli_print_graph(const airc_graph *g, uint32_t flags, const char *shown);

#endif
