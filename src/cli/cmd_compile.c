/* airc compile FILE -o MODEL.pb: lower a graph to Ascend IR (a GE ModelDef,
 * max-autotune) for its inputs' dtypes and shapes, and write the model.
 * The model is also read back and validated by the reference executor
 * (airc_compile does that), so a model written here is one airc can run. */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_MODE = 1, OPT_INPUT, OPT_CONST, OPT_WEIGHTS, OPT_OUT, OPT_DUMP, OPT_DUMP_PATH, OPT_SET };

static const cli_option compile_options[] = {
    {"mode", 0, true, OPT_MODE},
    {"input", 'i', true, OPT_INPUT},
    {"const", 0, true, OPT_CONST},
    {"weights", 'w', true, OPT_WEIGHTS},
    {"output", 'o', true, OPT_OUT},
    {"dump", 0, true, OPT_DUMP},
    {"dump-path", 0, true, OPT_DUMP_PATH},
    {"set", 0, true, OPT_SET},
    {NULL, 0, false, 0},
};

typedef struct compile_opts {
    cli_graph_inputs in;
    const char *out;
    const char *dump;
    const char *dump_path;
    const char **sets;
    size_t nsets;
} compile_opts;

static int parse_options(int argc, char **argv, compile_opts *o)
{
    cli_args a;
    cli_args_init(&a, argc, argv, "compile");
    const char *value;
    for (int id; (id = cli_next_option(&a, compile_options, &value)) != CLI_OPT_END;) {
        switch (id) {
        case CLI_OPT_ERROR: return CLI_USAGE;
        case CLI_OPT_OPERAND:
            if (o->in.path)
                return cli_usage_error("compile", "more than one FILE ('%.200s')", value);
            o->in.path = value;
            break;
        case OPT_MODE:
            if (strcmp(value, "max-autotune"))
                return cli_usage_error("compile",
                                       "--mode '%.200s': airc compile emits Ascend IR, which is "
                                       "--mode max-autotune (reduce-overhead compiles at run "
                                       "time: airc run)",
                                       value);
            break;
        case OPT_INPUT: o->in.inputs[o->in.ninputs++] = value; break;
        case OPT_CONST: o->in.consts[o->in.nconsts++] = value; break;
        case OPT_WEIGHTS:
            if (o->in.weights)
                return cli_usage_error("compile", "--weights given twice");
            o->in.weights = value;
            break;
        case OPT_OUT: o->out = value; break;
        case OPT_DUMP: o->dump = value; break;
        case OPT_DUMP_PATH: o->dump_path = value; break;
        case OPT_SET:
            if (!strchr(value, '=') || value[0] == '=')
                return cli_usage_error("compile", "--set '%.200s': expected KEY=VALUE", value);
            o->sets[o->nsets++] = value;
            break;
        default: break;
        }
    }
    if (!o->in.path)
        return cli_usage_error("compile", "missing FILE");
    if (!o->out)
        return cli_usage_error("compile", "missing -o MODEL.pb");
    if (o->dump_path && !o->dump)
        return cli_usage_error("compile", "--dump-path without --dump");
    return CLI_OK;
}

static int configure(airc_config *cfg, const compile_opts *o)
{
    if (airc_config_set(cfg, "mode", "max-autotune") != AIRC_OK)
        return cli_fail("config");
    if (cli_apply_sets(cfg, o->sets, o->nsets) != CLI_OK)
        return CLI_BAD_INPUT;
    if (o->dump && airc_config_set(cfg, "debug.graph_dump.type", o->dump) != AIRC_OK)
        return cli_fail("--dump");
    if (o->dump_path && airc_config_set(cfg, "debug.graph_dump.path", o->dump_path) != AIRC_OK)
        return cli_fail("--dump-path");
    return CLI_OK;
}

static int lower(const cli_env *env, airc_graph *g, const compile_opts *o)
{
    airc_tensor **ins = NULL;
    size_t nin = 0;
    int rc = cli_make_inputs(env, g, &o->in, &ins, &nin);
    if (rc != CLI_OK)
        return rc;
    airc_example_inputs *ex = NULL;
    airc_config *cfg = NULL;
    airc_compiled *c = NULL;
    if (airc_example_inputs_create(env->ctx, &ex) != AIRC_OK ||
        airc_config_create(env->ctx, &cfg) != AIRC_OK)
        rc = cli_fail("setup");
    for (size_t i = 0; rc == CLI_OK && i < nin; i++)
        if (airc_example_inputs_add_tensor(ex, ins[i]) != AIRC_OK)
            rc = cli_fail("inputs");
    if (rc == CLI_OK)
        rc = configure(cfg, o);
    airc_compile_options co;
    airc_compile_options_init(&co);
    co.config = cfg;
    co.example_inputs = ex;
    if (rc == CLI_OK && airc_compile(g, &co, &c) != AIRC_OK)
        rc = cli_fail(cli_shown_path(o->in.path));
    const uint8_t *bytes = NULL;
    size_t len = 0;
    if (rc == CLI_OK && airc_compiled_model(c, &bytes, &len) != AIRC_OK)
        rc = cli_fail("model");
    if (rc == CLI_OK) {
        FILE *f = fopen(o->out, "wb");
        bool ok = f && fwrite(bytes, 1, len, f) == len;
        ok = (f && fclose(f) == 0) && ok;
        if (!ok) {
            cli_error("-o '%.200s': cannot write the model", o->out);
            rc = CLI_BAD_INPUT;
        }
    }
    if (rc == CLI_OK) {
        char line[512];
        snprintf(line, sizeof line, "%.300s: GE ModelDef, %zu bytes\n", o->out, len);
        cli_puts(line);
    }
    airc_compiled_destroy(c);
    airc_config_destroy(cfg);
    airc_example_inputs_destroy(ex);
    for (size_t i = 0; i < nin; i++)
        airc_tensor_destroy(ins[i]);
    free(ins);
    return rc;
}

static int run_compile(const cli_env *env, int argc, char **argv)
{
    compile_opts o;
    memset(&o, 0, sizeof o);
    o.in.inputs = calloc((size_t)argc + 1, sizeof *o.in.inputs);
    o.in.consts = calloc((size_t)argc + 1, sizeof *o.in.consts);
    o.sets = calloc((size_t)argc + 1, sizeof *o.sets);
    int rc = CLI_OK;
    if (!o.in.inputs || !o.in.consts || !o.sets) {
        cli_error("out of memory");
        rc = CLI_BAD_INPUT;
    }
    if (rc == CLI_OK)
        rc = parse_options(argc, argv, &o);
    airc_graph *g = NULL;
    if (rc == CLI_OK && airc_graph_parse_file(env->ctx, o.in.path, &g) != AIRC_OK)
        rc = cli_fail(NULL);
    if (rc == CLI_OK && airc_graph_lint(g) != AIRC_OK)
        rc = cli_fail(cli_shown_path(o.in.path));
    if (rc == CLI_OK)
        rc = cli_load_constants(env, g, &o.in);
    if (rc == CLI_OK)
        rc = lower(env, g, &o);
    airc_graph_destroy(g);
    free(o.in.inputs);
    free(o.in.consts);
    free(o.sets);
    return rc;
}

const cli_command cli_cmd_compile = {
    .name = "compile",
    .summary = "lower a graph to Ascend IR (a GE ModelDef, max-autotune)",
    .help = "Usage: airc compile FILE -o MODEL.pb [--mode max-autotune] [--input X.npy]...\n"
            "                    [--const NAME=X.npy]... [--weights W.npz]\n"
            "                    [--dump txt|pbtxt|pb [--dump-path DIR]] [--set KEY=VALUE]...\n"
            "                    [--plugin LIB.so]...\n"
            "\n"
            "Parses and lints FILE (torch.fx text), runs the pass pipeline, lowers the graph\n"
            "for its inputs' dtypes and shapes to one GE ModelDef (Ascend IR, Ascend's\n"
            "ge.proto) and writes it to MODEL.pb. The model is read back and validated by\n"
            "airc's reference executor first. Inputs: the i-th --input gives the i-th\n"
            "placeholder's dtype and shape; past them, the type written in the graph.\n"
            "Constants (get_attr) need data: --const NAME=X.npy, --weights W.npz (they are\n"
            "written into the model as Const ops).\n"
            "\n"
            "Options:\n"
            "  -o, --output MODEL.pb  where the binary ModelDef goes\n"
            "  --mode max-autotune    the only mode this command emits (the default)\n"
            "  -i, --input X.npy      an input's dtype and shape (repeatable)\n"
            "  --const NAME=X.npy     a constant (repeatable)\n"
            "  -w, --weights W.npz    constants, one array per get_attr target\n"
            "  --dump TYPE            also dump the graph: txt (protobuf text of the\n"
            "                         GraphDef), pbtxt (TensorFlow-style, for Netron), pb\n"
            "  --dump-path DIR        where dumps go (default: the current folder), as\n"
            "                         dynamo_original_graph_<N>.<TYPE>\n"
            "  --set KEY=VALUE        a config option (ge_config.* become model attributes)\n"
            "  --plugin LIB.so        load a plugin (ops, kernels, converters) first\n"
            "  -h, --help             show this help\n"
            "\n"
            "Exit status: 0 success, 1 bad input or a failed lowering (e.g. \"no Ascend IR\n"
            "converter for aten.foo.default (node 'foo_1')\"), 2 usage error.\n",
    .run = run_compile,
};
