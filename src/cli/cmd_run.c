/* airc run FILE: execute a graph on the CPU runtime (or the CUDA runtime:
 * --device cuda) and write its results.
 *
 * Inputs come from --input files (the i-th binds the i-th placeholder) or,
 * past them, are random data of the placeholder's type (its type slot in
 * the file). Constants (get_attr targets) come from --const NAME=X.npy and
 * --weights W.npz; --const wins over an array of the same name in W.npz.
 *
 * Modes: eager interprets FILE node by node (airc_run_eager: the reference,
 * no passes); reduce-overhead (the default, as in the config) compiles it
 * (airc_compile: pass pipeline, capture) and replays; max-autotune lowers
 * it to Ascend IR and runs the model through the reference executor. */
#include "airc/runtime.h"
#include "cli/cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

enum {
    OPT_MODE = 1,
    OPT_INPUT,
    OPT_CONST,
    OPT_WEIGHTS,
    OPT_OUTDIR,
    OPT_SEED,
    OPT_REPEAT,
    OPT_STATS,
    OPT_SET,
    OPT_TRACE,
    OPT_STATIC,
    OPT_DEVICE
};

static const cli_option run_options[] = {
    {"mode", 0, true, OPT_MODE},          {"input", 'i', true, OPT_INPUT},
    {"const", 0, true, OPT_CONST},        {"weights", 'w', true, OPT_WEIGHTS},
    {"output-dir", 'o', true, OPT_OUTDIR}, {"seed", 0, true, OPT_SEED},
    {"repeat", 0, true, OPT_REPEAT},      {"stats", 0, false, OPT_STATS},
    {"set", 0, true, OPT_SET},            {"trace", 0, true, OPT_TRACE},
    {"static-input", 0, true, OPT_STATIC}, {"device", 0, true, OPT_DEVICE},
    {NULL, 0, false, 0},
};

typedef struct run_opts {
    const char *path;
    const char *mode;
    cli_graph_inputs in;
    const char *outdir;
    long repeat;
    bool stats;
    const char **sets; /* KEY=VALUE config options */
    size_t nsets;
    const char *trace;
    size_t *statics; /* --static-input indices */
    size_t nstatics;
} run_opts;

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int write_results(airc_tensor **outs, size_t nout, const run_opts *o)
{
    if (o->outdir && mkdir(o->outdir, 0777) != 0 && errno != EEXIST) {
        cli_error("--output-dir '%s': %s", o->outdir, strerror(errno));
        return CLI_BAD_INPUT;
    }
    for (size_t i = 0; i < nout; i++) {
        char line[512];
        int len = snprintf(line, sizeof line, "out%zu: %s[", i,
                           airc_dtype_name(airc_tensor_dtype(outs[i])));
        for (int32_t d = 0; d < airc_tensor_ndim(outs[i]) && len < 400; d++)
            len += snprintf(line + len, sizeof line - (size_t)len, "%s%lld", d ? ", " : "",
                            (long long)airc_tensor_shape(outs[i])[d]);
        len += snprintf(line + len, sizeof line - (size_t)len, "]");
        if (o->outdir) {
            size_t plen = strlen(o->outdir) + 32;
            char *path = malloc(plen);
            if (!path) {
                cli_error("out of memory");
                return CLI_BAD_INPUT;
            }
            snprintf(path, plen, "%s/out%zu.npy", o->outdir, i);
            airc_status st = airc_npy_write(outs[i], path);
            if (st == AIRC_OK && len < 400)
                snprintf(line + len, sizeof line - (size_t)len, " -> %.100s", path);
            free(path);
            if (st != AIRC_OK)
                return cli_fail(NULL);
        }
        cli_puts(line);
        cli_puts("\n");
    }
    return CLI_OK;
}

/* How many results the graph gives: needs meta for tuple-valued outputs,
 * so the graph (the CLI's own copy) gets its inputs' meta first. */
static int count_results(airc_graph *g, airc_tensor *const *ins, const run_opts *o, size_t *out)
{
    const char *shown = cli_shown_path(o->path);
    if (airc_graph_num_submodules(g) && airc_graph_inline_submodules(g, NULL) != AIRC_OK)
        return cli_fail(shown);
    size_t i = 0;
    for (airc_node *p = airc_graph_first_node(g); p; p = airc_node_next(p)) {
        if (airc_node_get_kind(p) != AIRC_NODE_PLACEHOLDER)
            continue;
        if (airc_node_set_meta(p, airc_tensor_dtype(ins[i]), airc_tensor_ndim(ins[i]),
                               airc_tensor_shape(ins[i]), NULL) != AIRC_OK)
            return cli_fail(shown);
        i++;
    }
    if (airc_graph_propagate_meta(g) != AIRC_OK || airc_graph_num_results(g, out) != AIRC_OK)
        return cli_fail(shown);
    return CLI_OK;
}

/* The compiled object of FILE for --mode reduce-overhead (or eager through
 * the compile API when --set asks for debug.run_eagerly). */
static int compile_graph(const cli_env *env, airc_graph *g, const run_opts *o, airc_runtime *rt,
                         airc_tensor *const *ins, size_t nin, airc_compiled **out)
{
    airc_config *cfg = NULL;
    airc_example_inputs *ex = NULL;
    if (airc_config_create(env->ctx, &cfg) != AIRC_OK ||
        airc_example_inputs_create(env->ctx, &ex) != AIRC_OK) {
        airc_config_destroy(cfg);
        return cli_fail("config");
    }
    int rc = airc_config_set(cfg, "mode", o->mode) == AIRC_OK ? CLI_OK : cli_fail("--mode");
    rc = rc == CLI_OK ? cli_apply_sets(cfg, o->sets, o->nsets) : rc;
    /* the inputs are the example inputs (TorchAir traces with them): the
     * passes see shapes, and max-autotune lowers at compile time */
    for (size_t i = 0; rc == CLI_OK && i < nin; i++)
        if (airc_example_inputs_add_tensor(ex, ins[i]) != AIRC_OK)
            rc = cli_fail("inputs");
    airc_compile_options co;
    airc_compile_options_init(&co);
    co.config = cfg;
    co.example_inputs = ex;
    co.runtime = rt;
    co.static_inputs = o->statics;
    co.nstatic_inputs = o->nstatics;
    if (rc == CLI_OK && airc_compile(g, &co, out) != AIRC_OK)
        rc = cli_fail(cli_shown_path(o->path));
    if (rc == CLI_OK && o->trace && airc_compiled_set_trace(*out, 1) != AIRC_OK)
        rc = cli_fail("--trace");
    airc_config_destroy(cfg);
    airc_example_inputs_destroy(ex);
    return rc;
}

static int print_stats(const run_opts *o, double *times, uint64_t launches, const airc_compiled *c)
{
    qsort(times, (size_t)o->repeat, sizeof *times, cmp_double);
    size_t m = (size_t)o->repeat / 2;
    double median = o->repeat % 2 ? times[m] : (times[m - 1] + times[m]) / 2;
    char line[1024];
    int len =
        snprintf(line, sizeof line, "{\"mode\": \"%s\", \"iterations\": %ld, \"median_us\": %.1f",
                 o->mode, o->repeat, median);
    if (c) {
        airc_compiled_stats s;
        memset(&s, 0, sizeof s);
        s.struct_size = sizeof s;
        if (airc_compiled_get_stats(c, &s) != AIRC_OK)
            return cli_fail("stats");
        launches = s.launches;
        len += snprintf(line + len, sizeof line - (size_t)len,
                        ", \"arena_bytes\": %llu, \"lower_bound_bytes\": %llu, "
                        "\"naive_bytes\": %llu, \"captures\": %llu, \"replays\": %llu, "
                        "\"fallbacks\": %llu, \"streams\": %u, \"events\": %llu",
                        (unsigned long long)s.arena_bytes, (unsigned long long)s.lower_bound_bytes,
                        (unsigned long long)s.naive_bytes, (unsigned long long)s.captures,
                        (unsigned long long)s.replays, (unsigned long long)s.fallbacks, s.streams,
                        (unsigned long long)s.events);
    }
    snprintf(line + len, sizeof line - (size_t)len, ", \"launches\": %llu}\n",
             (unsigned long long)launches);
    cli_puts(line);
    return CLI_OK;
}

/* The runtime of the config option `device` (--device, or the last --set
 * device=...): the CPU runtime, or the CUDA runtime on GPU 0. */
static int make_runtime(const cli_env *env, const run_opts *o, airc_runtime **rt)
{
    const char *device = "cpu";
    for (size_t i = 0; i < o->nsets; i++)
        if (!strncmp(o->sets[i], "device=", 7))
            device = o->sets[i] + 7;
    if (!strcmp(device, "cuda"))
        return airc_cuda_runtime_create(env->ctx, 0, rt) == AIRC_OK ? CLI_OK
                                                                    : cli_fail("device cuda");
    if (strcmp(device, "cpu")) {
        cli_error("device %.200s: airc has no runtime of its own for '%.200s' (cpu, cuda)",
                  device, device);
        return CLI_BAD_INPUT;
    }
    return airc_cpu_runtime_create(env->ctx, NULL, rt) == AIRC_OK
               ? CLI_OK
               : cli_fail("cannot create the CPU runtime");
}

static int run_graph(const cli_env *env, airc_graph *g, const run_opts *o)
{
    airc_tensor **ins = NULL;
    size_t nin = 0;
    int rc = cli_make_inputs(env, g, &o->in, &ins, &nin);
    if (rc != CLI_OK)
        return rc;
    size_t cap = 0, nout = 0;
    bool eager = !strcmp(o->mode, "eager");
    if (eager)
        rc = count_results(g, ins, o, &cap);
    airc_runtime *rt = NULL;
    airc_compiled *c = NULL;
    double *times = calloc((size_t)o->repeat, sizeof *times);
    airc_run_stats stats = {sizeof stats, 0, 0};
    if (rc == CLI_OK)
        rc = make_runtime(env, o, &rt);
    if (rc == CLI_OK && !eager) {
        rc = compile_graph(env, g, o, rt, ins, nin, &c);
        if (rc == CLI_OK && airc_graph_num_results(airc_compiled_graph(c), &cap) != AIRC_OK)
            rc = cli_fail(cli_shown_path(o->path));
    }
    airc_tensor **outs = calloc(cap ? cap : 1, sizeof *outs);
    if (rc == CLI_OK && (!times || !outs)) {
        cli_error("out of memory");
        rc = CLI_BAD_INPUT;
    }
    for (long it = 0; rc == CLI_OK && it < o->repeat; it++) {
        for (size_t i = 0; i < nout; i++)
            airc_tensor_destroy(outs[i]);
        nout = 0;
        double t0 = now_us();
        airc_status st = c ? airc_compiled_run(c, ins, nin, outs, cap, &nout)
                           : airc_run_eager(g, rt, ins, nin, outs, cap, &nout, &stats);
        times[it] = now_us() - t0;
        if (st != AIRC_OK)
            rc = cli_fail(cli_shown_path(o->path));
    }
    if (rc == CLI_OK)
        rc = write_results(outs, nout, o);
    if (rc == CLI_OK && o->trace) {
        if (!c) {
            cli_error("--trace: eager mode has no replay to trace (use --mode "
                      "reduce-overhead)");
            rc = CLI_BAD_INPUT;
        } else if (airc_compiled_write_trace(c, o->trace) != AIRC_OK) {
            rc = cli_fail("--trace");
        }
    }
    if (rc == CLI_OK && o->stats)
        rc = print_stats(o, times, stats.launches, c);
    for (size_t i = 0; i < nout; i++)
        airc_tensor_destroy(outs[i]);
    free(outs);
    free(times);
    airc_compiled_destroy(c);
    airc_runtime_destroy(rt);
    for (size_t i = 0; i < nin; i++)
        airc_tensor_destroy(ins[i]);
    free(ins);
    return rc;
}

/* ---- options -------------------------------------------------------------------- */

static bool parse_count(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static int parse_options(int argc, char **argv, run_opts *o)
{
    cli_args a;
    cli_args_init(&a, argc, argv, "run");
    const char *value;
    for (int id; (id = cli_next_option(&a, run_options, &value)) != CLI_OPT_END;) {
        long v;
        switch (id) {
        case CLI_OPT_ERROR: return CLI_USAGE;
        case CLI_OPT_OPERAND:
            if (o->path)
                return cli_usage_error("run", "more than one FILE ('%.200s')", value);
            o->path = value;
            o->in.path = value;
            break;
        case OPT_MODE: o->mode = value; break;
        case OPT_INPUT: o->in.inputs[o->in.ninputs++] = value; break;
        case OPT_CONST: o->in.consts[o->in.nconsts++] = value; break;
        case OPT_WEIGHTS:
            if (o->in.weights)
                return cli_usage_error("run", "--weights given twice");
            o->in.weights = value;
            break;
        case OPT_OUTDIR: o->outdir = value; break;
        case OPT_SEED: {
            char *end;
            errno = 0;
            unsigned long long s = strtoull(value, &end, 10);
            if (errno || end == value || *end || value[0] == '-')
                return cli_usage_error("run", "--seed '%.200s': expected a non-negative integer",
                                       value);
            o->in.seed = s;
            break;
        }
        case OPT_REPEAT:
            if (!parse_count(value, 1, 1000000000L, &v))
                return cli_usage_error("run", "--repeat '%.200s': expected an integer >= 1",
                                       value);
            o->repeat = v;
            break;
        case OPT_STATS: o->stats = true; break;
        case OPT_SET:
            if (!strchr(value, '=') || value[0] == '=')
                return cli_usage_error("run", "--set '%.200s': expected KEY=VALUE", value);
            o->sets[o->nsets++] = value;
            break;
        case OPT_TRACE: o->trace = value; break;
        case OPT_DEVICE: {
            /* the config option `device`, as --set device=DEV would set it */
            static const char *const devices[] = {"device=cpu", "device=cuda", "device=npu"};
            size_t d = 0;
            while (d < 3 && strcmp(devices[d] + 7, value))
                d++;
            if (d == 3)
                return cli_usage_error("run", "--device '%.200s': expected cpu or cuda", value);
            o->sets[o->nsets++] = devices[d];
            break;
        }
        case OPT_STATIC:
            if (!parse_count(value, 0, 1000000000L, &v))
                return cli_usage_error("run",
                                       "--static-input '%.200s': expected an input index >= 0",
                                       value);
            o->statics[o->nstatics++] = (size_t)v;
            break;
        default: break;
        }
    }
    if (!o->path)
        return cli_usage_error("run", "missing FILE");
    if (strcmp(o->mode, "eager") && strcmp(o->mode, "reduce-overhead") &&
        strcmp(o->mode, "max-autotune"))
        return cli_usage_error("run", "--mode '%.200s': expected eager, reduce-overhead or "
                                      "max-autotune",
                               o->mode);
    /* eager is the uncompiled reference: a config option would be ignored */
    for (size_t i = 0; !strcmp(o->mode, "eager") && i < o->nsets; i++)
        if (strncmp(o->sets[i], "device=", 7))
            return cli_usage_error("run",
                                   "--set %.200s: --mode eager runs the graph as parsed, with "
                                   "no config (only device applies); to run a compiled graph "
                                   "eagerly with options, use --mode reduce-overhead --set "
                                   "debug.run_eagerly=true",
                                   o->sets[i]);
    return CLI_OK;
}

static int run_run(const cli_env *env, int argc, char **argv)
{
    run_opts o;
    memset(&o, 0, sizeof o);
    o.mode = "reduce-overhead";
    o.repeat = 1;
    o.in.inputs = calloc((size_t)argc + 1, sizeof *o.in.inputs);
    o.in.consts = calloc((size_t)argc + 1, sizeof *o.in.consts);
    o.sets = calloc((size_t)argc + 1, sizeof *o.sets);
    o.statics = calloc((size_t)argc + 1, sizeof *o.statics);
    int rc = CLI_OK;
    if (!o.in.inputs || !o.in.consts || !o.sets || !o.statics) {
        cli_error("out of memory");
        rc = CLI_BAD_INPUT;
    }
    if (rc == CLI_OK)
        rc = parse_options(argc, argv, &o);
    airc_graph *g = NULL;
    if (rc == CLI_OK && airc_graph_parse_file(env->ctx, o.path, &g) != AIRC_OK)
        rc = cli_fail(NULL);
    if (rc == CLI_OK && airc_graph_lint(g) != AIRC_OK)
        rc = cli_fail(cli_shown_path(o.path));
    if (rc == CLI_OK)
        rc = cli_load_constants(env, g, &o.in);
    if (rc == CLI_OK)
        rc = run_graph(env, g, &o);
    airc_graph_destroy(g);
    free(o.in.inputs);
    free(o.in.consts);
    free(o.sets);
    free(o.statics);
    return rc;
}

const cli_command cli_cmd_run = {
    .name = "run",
    .summary = "execute a graph (CPU or CUDA) and write its results (.npy)",
    .help =
        "Usage: airc run FILE [--mode MODE] [--input X.npy]... [--const NAME=X.npy]...\n"
        "                [--weights W.npz] [--output-dir DIR] [--seed N] [--repeat N]\n"
        "                [--stats] [--set KEY=VALUE]... [--static-input I]...\n"
        "                [--trace FILE.json] [--device cpu|cuda] [--plugin LIB.so]...\n"
        "\n"
        "Parses and lints FILE (torch.fx text; '-' reads standard input), binds its\n"
        "inputs and constants, runs it on airc's CPU runtime (or GPU 0: --device\n"
        "cuda) and prints one line per result: 'outI: DTYPE[SHAPE]' (with\n"
        "' -> DIR/outI.npy' when written).\n"
        "\n"
        "Inputs: the i-th --input binds the i-th placeholder. Placeholders past the\n"
        "given files get random data of the type written in the graph's type slot\n"
        "(%x : f32[2, 3] = placeholder...): floats ~ N(0, 1), integers in [0, 10),\n"
        "bools 0/1, from --seed. A placeholder with neither is an error.\n"
        "Constants: every get_attr target needs data, from --const NAME=X.npy or an\n"
        "array NAME in --weights W.npz (np.savez / np.savez_compressed); --const wins.\n"
        "\n"
        "Options:\n"
        "  --mode MODE         reduce-overhead (the default, as in the config):\n"
        "                      compile (pass pipeline), capture once per input\n"
        "                      signature, replay; eager: run the graph as parsed,\n"
        "                      node by node (the reference); max-autotune: lower\n"
        "                      to Ascend IR (a GE ModelDef) and run that model\n"
        "  -i, --input X.npy   an input (repeatable, in placeholder order)\n"
        "  --const NAME=X.npy  a constant (repeatable)\n"
        "  -w, --weights W.npz constants, one array per get_attr target name\n"
        "  -o, --output-dir DIR\n"
        "                      write result i to DIR/outI.npy (DIR is created)\n"
        "  --seed N            seed of the random inputs (default 0)\n"
        "  --repeat N          run N times (timing; results of the last run)\n"
        "  --set KEY=VALUE     a config option (repeatable): debug.aclgraph.*,\n"
        "                      debug.run_eagerly, debug.graph_dump.type=txt, ...\n"
        "                      (with --mode eager only device=...)\n"
        "  --static-input I    input I is static (a weight): never copied before a\n"
        "                      replay; its address is part of the graph key\n"
        "  --trace FILE.json   write the last replay as a Chrome trace (one track\n"
        "                      per stream; reduce-overhead only)\n"
        "  --stats             end standard output with one JSON line:\n"
        "                      {\"mode\": ..., \"iterations\": N, \"median_us\": ...,\n"
        "                      \"launches\": ...}, plus in reduce-overhead arena_bytes,\n"
        "                      lower_bound_bytes, naive_bytes, captures, replays,\n"
        "                      fallbacks, streams, events\n"
        "  --device DEV        cpu (the default) or cuda (GPU 0, in a CUDA build;\n"
        "                      inputs and results stay .npy files on the host);\n"
        "                      the config option `device`, as --set device=DEV\n"
        "  --plugin LIB.so     load a plugin (its ops and kernels) first\n"
        "  -h, --help          show this help\n"
        "\n"
        "Exit status: 0 success, 1 bad input or a failed run (message on stderr:\n"
        "e.g. \"no cpu kernel for aten.foo.default (node 'foo_1')\"), 2 usage error.\n",
    .run = run_run,
};
