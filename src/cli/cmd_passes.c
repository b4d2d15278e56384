/* airc passes FILE: run the compile pipeline's pass stages and print the
 * graph (user pre-passes -> built-in passes -> user post-passes -> lint). */
#include "airc/plugin.h"
#include "cli/cli.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_ONLY = 1, OPT_DISABLE, OPT_PRE, OPT_POST, OPT_INPUT, OPT_SET, OPT_TYPES };

static const cli_option passes_options[] = {
    {"only", 0, true, OPT_ONLY},     {"disable", 0, true, OPT_DISABLE},
    {"pre-pass", 0, true, OPT_PRE},  {"post-pass", 0, true, OPT_POST},
    {"input", 'i', true, OPT_INPUT}, {"set", 0, true, OPT_SET},
    {"types", 't', false, OPT_TYPES}, {NULL, 0, false, 0},
};

typedef struct strlist {
    const char **v;
    size_t n;
} strlist;

typedef struct passes_opts {
    const char *path;
    bool types;
    strlist only, disable, pre, post, inputs, sets;
    void **libs; /* dlopen handles of LIB.so:SYMBOL passes, closed at the end */
    size_t nlibs;
} passes_opts;

/* ---- built-in pass selection (--only, --disable) ------------------------ */

static bool builtin_known(const char *name, size_t len)
{
    for (size_t i = 0; i < airc_num_builtin_passes(); i++) {
        const char *b = airc_builtin_pass_name(i);
        if (strlen(b) == len && !strncmp(b, name, len))
            return true;
    }
    return false;
}

/* Checks every name of a comma list; reports the first bad one. */
static int check_builtin_list(const char *opt, const char *list)
{
    for (const char *p = list;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0) {
            cli_error("--%s '%.200s': empty pass name", opt, list);
            return CLI_BAD_INPUT;
        }
        if (!builtin_known(p, len)) {
            char known[256] = "";
            for (size_t i = 0; i < airc_num_builtin_passes(); i++) {
                if (i)
                    strncat(known, ", ", sizeof known - strlen(known) - 1);
                strncat(known, airc_builtin_pass_name(i), sizeof known - strlen(known) - 1);
            }
            cli_error("--%s: unknown built-in pass '%.*s' (built-in passes: %s)", opt,
                      (int)(len > 200 ? 200 : len), p, known);
            return CLI_BAD_INPUT;
        }
        if (!end)
            return CLI_OK;
        p = end + 1;
    }
}

static int set_builtin(airc_config *cfg, const char *name, size_t len, int32_t on)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.*s", (int)len, name); /* names are short (checked) */
    if (airc_config_set_bool(cfg, airc_builtin_pass_config_key(buf), on) != AIRC_OK)
        return cli_fail("setting the built-in passes");
    return CLI_OK;
}

static int set_builtin_list(airc_config *cfg, const char *list, int32_t on)
{
    for (const char *p = list;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (set_builtin(cfg, p, len, on) != CLI_OK)
            return CLI_BAD_INPUT;
        if (!end)
            return CLI_OK;
        p = end + 1;
    }
}

/* --set first, then --only and --disable (the dedicated options win). */
static int configure(const passes_opts *o, airc_config *cfg)
{
    if (cli_apply_sets(cfg, o->sets.v, o->sets.n) != CLI_OK)
        return CLI_BAD_INPUT;
    for (size_t i = 0; i < o->only.n; i++)
        if (check_builtin_list("only", o->only.v[i]) != CLI_OK)
            return CLI_BAD_INPUT;
    for (size_t i = 0; i < o->disable.n; i++)
        if (check_builtin_list("disable", o->disable.v[i]) != CLI_OK)
            return CLI_BAD_INPUT;
    if (o->only.n) {
        for (size_t i = 0; i < airc_num_builtin_passes(); i++) {
            const char *b = airc_builtin_pass_name(i);
            if (set_builtin(cfg, b, strlen(b), 0) != CLI_OK)
                return CLI_BAD_INPUT;
        }
        for (size_t i = 0; i < o->only.n; i++)
            if (set_builtin_list(cfg, o->only.v[i], 1) != CLI_OK)
                return CLI_BAD_INPUT;
    }
    for (size_t i = 0; i < o->disable.n; i++)
        if (set_builtin_list(cfg, o->disable.v[i], 0) != CLI_OK)
            return CLI_BAD_INPUT;
    return CLI_OK;
}

/* ---- user passes (--pre-pass, --post-pass) ------------------------------ */

/* LIB.so:SYMBOL rather than a registered name: the part before the last ':'
 * looks like a library file (a '/' or a ".so"). Pass names such as
 * "ns::pass" stay names. */
static const char *library_colon(const char *spec)
{
    const char *colon = strrchr(spec, ':');
    if (!colon)
        return NULL;
    size_t len = (size_t)(colon - spec);
    if (memchr(spec, '/', len))
        return colon;
    for (size_t i = 0; i + 3 <= len; i++)
        if (!strncmp(spec + i, ".so", 3) && (i + 3 == len || spec[i + 3] == '.'))
            return colon;
    return NULL;
}

static void *find_symbol(void *lib, const char *name)
{
    dlerror();
    return dlsym(lib, name);
}

/* dlopen()s LIB, dlsym()s SYMBOL (an airc_pass_fn, user_data NULL) and
 * appends it to pm under the name spec. A LIB that also is an airc plugin
 * must have the right plugin ABI version. */
static int add_library_pass(passes_opts *o, airc_pass_manager *pm, const char *opt,
                            const char *spec, const char *colon)
{
    const char *symbol = colon + 1;
    if (!*symbol) {
        cli_error("--%s '%.200s': missing SYMBOL after ':'", opt, spec);
        return CLI_BAD_INPUT;
    }
    size_t len = (size_t)(colon - spec);
    char *path = malloc(len + 3);
    if (!path) {
        cli_error("out of memory");
        return CLI_BAD_INPUT;
    }
    /* LIB.so names a file: without '/', dlopen would search the library path */
    snprintf(path, len + 3, "%s%.*s", memchr(spec, '/', len) ? "" : "./", (int)len, spec);
    dlerror();
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        cli_error("--%s '%.200s': cannot load '%s': %s", opt, spec, path,
                  why ? why : "dlopen failed");
        free(path);
        return CLI_BAD_INPUT;
    }
    o->libs[o->nlibs++] = lib;
    int rc = CLI_OK;
    void *version = find_symbol(lib, "airc_plugin_abi_version");
    void *sym = find_symbol(lib, symbol);
    if (version) {
        int32_t (*version_fn)(void);
        memcpy(&version_fn, &version, sizeof version);
        int32_t v = version_fn();
        if (v != AIRC_PLUGIN_ABI_VERSION) {
            cli_error("--%s '%.200s': '%s' was built for airc plugin ABI version %d, but this "
                      "airc implements version %d",
                      opt, spec, path, (int)v, AIRC_PLUGIN_ABI_VERSION);
            rc = CLI_BAD_INPUT;
        }
    }
    if (rc == CLI_OK && !sym) {
        const char *why = dlerror();
        cli_error("--%s '%.200s': '%s' has no symbol '%s'%s%s", opt, spec, path, symbol,
                  why ? ": " : "", why ? why : "");
        rc = CLI_BAD_INPUT;
    }
    if (rc == CLI_OK) {
        /* POSIX: dlsym's object pointer converts to a function pointer */
        airc_pass_fn fn;
        memcpy(&fn, &sym, sizeof sym);
        if (airc_pass_manager_add_pass(pm, spec, fn, NULL, NULL) != AIRC_OK)
            rc = cli_fail(opt);
    }
    free(path);
    return rc;
}

static int add_passes(passes_opts *o, const cli_env *env, const char *opt, const strlist *specs,
                      airc_pass_manager **out)
{
    if (!specs->n)
        return CLI_OK;
    airc_pass_manager *pm = NULL;
    if (airc_pass_manager_create(env->ctx, &pm) != AIRC_OK)
        return cli_fail(opt);
    *out = pm;
    for (size_t i = 0; i < specs->n; i++) {
        const char *spec = specs->v[i];
        const char *colon = library_colon(spec);
        if (colon) {
            if (add_library_pass(o, pm, opt, spec, colon) != CLI_OK)
                return CLI_BAD_INPUT;
            continue;
        }
        airc_status st = airc_pass_manager_add_named_pass(pm, spec);
        if (st == AIRC_E_NOT_FOUND) {
            cli_error("--%s: unknown pass '%.200s': no plugin registered it (load one with "
                      "--plugin LIB.so) and it is not built-in; a pass in a library is given as "
                      "LIB.so:SYMBOL",
                      opt, spec);
            return CLI_BAD_INPUT;
        }
        if (st != AIRC_OK)
            return cli_fail(opt);
    }
    return CLI_OK;
}

/* ---- the command -------------------------------------------------------- */

/* Example inputs for the passes, from the placeholders' meta (which
 * --input just set, or the graph's text gave). */
static int make_inputs(const cli_env *env, const airc_graph *g, const char *shown,
                       airc_example_inputs **out)
{
    airc_example_inputs *in = NULL;
    if (airc_example_inputs_create(env->ctx, &in) != AIRC_OK)
        return cli_fail(shown);
    *out = in;
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n)) {
        if (airc_node_get_kind(n) != AIRC_NODE_PLACEHOLDER)
            continue;
        airc_dtype dtype;
        int32_t ndim;
        const int64_t *shape, *strides;
        if (airc_node_meta_kind(n) != AIRC_META_TENSOR) {
            cli_error("%s: placeholder '%s' has no tensor type", shown, airc_node_name(n));
            return CLI_BAD_INPUT;
        }
        if (airc_node_output_meta(n, 0, &dtype, &ndim, &shape, &strides) != AIRC_OK ||
            airc_example_inputs_add(in, dtype, ndim, shape, strides) != AIRC_OK)
            return cli_fail(shown);
    }
    return CLI_OK;
}

static int passes_graph(passes_opts *o, const cli_env *env)
{
    const char *shown = cli_shown_path(o->path);
    airc_config *cfg = NULL;
    airc_graph *g = NULL;
    airc_example_inputs *inputs = NULL;
    airc_pass_manager *pre = NULL, *post = NULL;
    int rc = CLI_OK;
    if (airc_config_create(env->ctx, &cfg) != AIRC_OK)
        rc = cli_fail(NULL);
    if (rc == CLI_OK)
        rc = configure(o, cfg);
    if (rc == CLI_OK)
        rc = add_passes(o, env, "pre-pass", &o->pre, &pre);
    if (rc == CLI_OK)
        rc = add_passes(o, env, "post-pass", &o->post, &post);
    if (rc == CLI_OK && airc_graph_parse_file(env->ctx, o->path, &g) != AIRC_OK)
        rc = cli_fail(NULL);
    if (rc == CLI_OK && o->inputs.n) {
        rc = cli_set_placeholder_meta(env, g, shown, o->inputs.v, o->inputs.n);
        if (rc == CLI_OK)
            rc = make_inputs(env, g, shown, &inputs);
    }
    if (rc == CLI_OK && airc_run_pipeline(g, inputs, cfg, pre, post) != AIRC_OK)
        rc = cli_fail(shown);
    if (rc == CLI_OK)
        rc = cli_print_graph(g, o->types ? AIRC_PRINT_TYPES : AIRC_PRINT_DEFAULT, shown);
    /* the passes' code may live in the libraries: unload them last */
    airc_graph_destroy(g);
    airc_pass_manager_destroy(pre);
    airc_pass_manager_destroy(post);
    airc_example_inputs_destroy(inputs);
    airc_config_destroy(cfg);
    return rc;
}

static int parse_options(passes_opts *o, int argc, char **argv)
{
    cli_args a;
    cli_args_init(&a, argc, argv, "passes");
    const char *value;
    for (int id; (id = cli_next_option(&a, passes_options, &value)) != CLI_OPT_END;) {
        switch (id) {
        case OPT_ONLY:
            o->only.v[o->only.n++] = value;
            break;
        case OPT_DISABLE:
            o->disable.v[o->disable.n++] = value;
            break;
        case OPT_PRE:
            o->pre.v[o->pre.n++] = value;
            break;
        case OPT_POST:
            o->post.v[o->post.n++] = value;
            break;
        case OPT_INPUT:
            o->inputs.v[o->inputs.n++] = value;
            break;
        case OPT_SET:
            if (!strchr(value, '=') || value[0] == '=')
                return cli_usage_error("passes", "--set '%.200s': expected KEY=VALUE", value);
            o->sets.v[o->sets.n++] = value;
            break;
        case OPT_TYPES:
            o->types = true;
            break;
        case CLI_OPT_OPERAND:
            if (o->path)
                return cli_usage_error("passes", "more than one FILE ('%.200s' and '%.200s')",
                                       o->path, value);
            o->path = value;
            break;
        default:
            return CLI_USAGE;
        }
    }
    if (!o->path)
        return cli_usage_error("passes", "missing FILE");
    return CLI_OK;
}

static int passes_run(const cli_env *env, int argc, char **argv)
{
    /* Each list holds at most argc entries; the CLI is an application, so
     * plain malloc. */
    passes_opts o = {0};
    strlist *lists[] = {&o.only, &o.disable, &o.pre, &o.post, &o.inputs, &o.sets};
    enum { NLISTS = sizeof lists / sizeof lists[0] };
    const char **buf = calloc((size_t)argc * NLISTS, sizeof *buf);
    o.libs = calloc((size_t)argc, sizeof *o.libs);
    if (!buf || !o.libs) {
        free(buf);
        free(o.libs);
        cli_error("out of memory");
        return CLI_BAD_INPUT;
    }
    for (size_t i = 0; i < NLISTS; i++)
        lists[i]->v = buf + i * (size_t)argc;
    int rc = parse_options(&o, argc, argv);
    if (rc == CLI_OK)
        rc = passes_graph(&o, env);
    for (size_t i = o.nlibs; i-- > 0;)
        dlclose(o.libs[i]);
    free(o.libs);
    free(buf);
    return rc;
}

const cli_command cli_cmd_passes = {
    .name = "passes",
    .summary = "run the pipeline's passes on a graph and print the result",
    .help =
        "Usage: airc passes [OPTIONS] FILE\n"
        "\n"
        "Runs the compile pipeline's pass stages on FILE (torch.fx text; '-' reads\n"
        "standard input) and prints the resulting graph (no lowering):\n"
        "\n"
        "  --pre-pass passes -> built-in passes -> --post-pass passes -> lint\n"
        "\n"
        "Built-in passes, in pipeline order, all on by default: functionalize,\n"
        "remove_noop_ops, view_to_reshape, dce, cse, constant_folding (values\n"
        "computed from constants alone become new constants, 1 MiB each at\n"
        "most), meta_propagation. They are switched by config keys\n"
        "(passes.NAME; experimental_config.remove_noop_ops).\n"
        "\n"
        "Options:\n"
        "  --only A,B           run only these built-in passes (comma list;\n"
        "                       repeatable)\n"
        "  --disable A,B        do not run these built-in passes\n"
        "  --pre-pass PASS      run PASS before the built-in passes; repeatable,\n"
        "                       in order. PASS is NAME, a pass a plugin registered\n"
        "                       (or a built-in one), or LIB.so:SYMBOL, a function\n"
        "                       of type airc_pass_fn in a shared library (called\n"
        "                       with user_data NULL)\n"
        "  --post-pass PASS     run PASS after the built-in passes\n"
        "  --plugin LIB.so      load an airc plugin first (see airc --help)\n"
        "  -i, --input X.npy    the i-th --input gives the i-th placeholder's dtype\n"
        "                       and shape (as in airc fmt --types); the passes get\n"
        "                       them as example inputs\n"
        "  --set KEY=VALUE      set a compiler config option (TorchAir's option\n"
        "                       tree, e.g. passes.cse=false); --only and --disable\n"
        "                       apply after every --set\n"
        "  -t, --types          print every node's computed type\n"
        "  -h, --help           show this help\n"
        "\n"
        "A user pass that fails, or leaves a graph that does not lint, is an error\n"
        "naming the pass.\n"
        "\n"
        "Exit status: 0 success, 1 bad input (unreadable or invalid graph, unknown\n"
        "pass, library or symbol not found, a pass failed; message on standard\n"
        "error), 2 usage error.\n",
    .run = passes_run,
};
