/* Graph inputs and constants for the subcommands that run or lower a
 * graph (run, compile): --input files or seeded random data of the
 * placeholders' written types, --const NAME=X.npy and --weights W.npz. */
#include "cli/cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- random inputs -------------------------------------------------------- */

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Standard normal (Box-Muller), like torch.randn's distribution. */
static double normal(uint64_t *s)
{
    double u1 = ((double)(splitmix(s) >> 11) + 1.0) / 9007199254740993.0; /* (0, 1] */
    double u2 = (double)(splitmix(s) >> 11) / 9007199254740992.0;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

static uint16_t f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    int32_t exp = (int32_t)((x >> 23) & 0xff) - 127 + 15;
    uint32_t mant = x & 0x7fffffu;
    if (exp <= 0)
        return (uint16_t)sign; /* |x| < 2^-14: flush (inputs are ~N(0,1)) */
    if (exp >= 31)
        return (uint16_t)(sign | 0x7c00u);
    return (uint16_t)(sign | (uint32_t)exp << 10 | (mant + 0x1000u) >> 13);
}

/* Floats ~ N(0, 1); integers uniform in [0, 10) (small enough to index
 * most tables); bools 0/1. */
static void fill_random(airc_tensor *t, uint64_t *s)
{
    size_t n = airc_tensor_numel(t);
    void *d = airc_tensor_data(t);
    for (size_t i = 0; i < n; i++) {
        switch (airc_tensor_dtype(t)) {
        case AIRC_DTYPE_F32: ((float *)d)[i] = (float)normal(s); break;
        case AIRC_DTYPE_F64: ((double *)d)[i] = normal(s); break;
        case AIRC_DTYPE_F16: ((uint16_t *)d)[i] = f32_to_f16((float)normal(s)); break;
        case AIRC_DTYPE_BF16: {
            float f = (float)normal(s);
            uint32_t x;
            memcpy(&x, &f, 4);
            ((uint16_t *)d)[i] = (uint16_t)(x >> 16);
            break;
        }
        case AIRC_DTYPE_I64: ((int64_t *)d)[i] = (int64_t)(splitmix(s) % 10); break;
        case AIRC_DTYPE_I32: ((int32_t *)d)[i] = (int32_t)(splitmix(s) % 10); break;
        case AIRC_DTYPE_I16: ((int16_t *)d)[i] = (int16_t)(splitmix(s) % 10); break;
        case AIRC_DTYPE_I8: ((int8_t *)d)[i] = (int8_t)(splitmix(s) % 10); break;
        case AIRC_DTYPE_U8: ((uint8_t *)d)[i] = (uint8_t)(splitmix(s) % 10); break;
        case AIRC_DTYPE_BOOL: ((uint8_t *)d)[i] = (uint8_t)(splitmix(s) & 1); break;
        default: break;
        }
    }
}

/* One tensor per placeholder: from --input files, then random. */
int cli_make_inputs(const cli_env *env, airc_graph *g, const cli_graph_inputs *o,
                       airc_tensor ***out, size_t *count)
{
    size_t n = 0;
    for (airc_node *p = airc_graph_first_node(g); p; p = airc_node_next(p))
        n += airc_node_get_kind(p) == AIRC_NODE_PLACEHOLDER;
    const char *shown = cli_shown_path(o->path);
    if (o->ninputs > n) {
        cli_error("%s: %zu --input file%s given, but the graph has %zu placeholder%s", shown,
                  o->ninputs, o->ninputs == 1 ? "" : "s", n, n == 1 ? "" : "s");
        return CLI_BAD_INPUT;
    }
    airc_tensor **ts = calloc(n ? n : 1, sizeof *ts);
    if (!ts) {
        cli_error("out of memory");
        return CLI_BAD_INPUT;
    }
    uint64_t state = o->seed;
    size_t i = 0;
    int rc = CLI_OK;
    for (airc_node *p = airc_graph_first_node(g); p && rc == CLI_OK; p = airc_node_next(p)) {
        if (airc_node_get_kind(p) != AIRC_NODE_PLACEHOLDER)
            continue;
        if (i < o->ninputs) {
            if (airc_npy_read(env->ctx, o->inputs[i], &ts[i]) != AIRC_OK)
                rc = cli_fail(NULL);
        } else {
            airc_dtype dtype;
            int32_t ndim;
            const int64_t *shape;
            if (airc_node_meta_kind(p) != AIRC_META_TENSOR ||
                airc_node_output_meta(p, 0, &dtype, &ndim, &shape, NULL) != AIRC_OK) {
                cli_error("%s: placeholder '%s' (input %zu) has no type: give it with --input "
                          "FILE.npy or write its type in the graph (%%x : f32[2, 3] = ...)",
                          shown, airc_node_name(p), i);
                rc = CLI_BAD_INPUT;
            } else if (airc_tensor_create(env->ctx, dtype, ndim, shape, &ts[i]) != AIRC_OK) {
                rc = cli_fail(airc_node_name(p));
            } else {
                fill_random(ts[i], &state);
            }
        }
        i++;
    }
    if (rc != CLI_OK) {
        for (size_t j = 0; j < n; j++)
            airc_tensor_destroy(ts[j]);
        free(ts);
        return rc;
    }
    *out = ts;
    *count = n;
    return CLI_OK;
}

/* ---- constants -------------------------------------------------------------- */

static void destroy_tensor(void *t)
{
    airc_tensor_destroy(t);
}

/* Binds t (consumed) to a constant name; an existing one is kept. */
static airc_status bind_constant(airc_graph *g, const char *name, airc_tensor *t, bool *existed)
{
    if (airc_graph_get_constant(g, name, NULL, NULL, NULL, NULL, NULL) == AIRC_OK) {
        airc_tensor_destroy(t);
        if (existed)
            *existed = true;
        return AIRC_OK;
    }
    airc_status st = airc_graph_set_constant(g, name, airc_tensor_dtype(t), airc_tensor_ndim(t),
                                             airc_tensor_shape(t), NULL, airc_tensor_data(t),
                                             destroy_tensor, t);
    if (st != AIRC_OK)
        airc_tensor_destroy(t);
    return st;
}

static airc_status weights_cb(void *user_data, const char *name, airc_tensor *t)
{
    return bind_constant(user_data, name, t, NULL);
}

int cli_load_constants(const cli_env *env, airc_graph *g, const cli_graph_inputs *o)
{
    for (size_t i = 0; i < o->nconsts; i++) {
        const char *eq = strchr(o->consts[i], '=');
        if (!eq || eq == o->consts[i] || !eq[1]) {
            cli_error("--const '%.200s': expected NAME=FILE.npy", o->consts[i]);
            return CLI_BAD_INPUT;
        }
        size_t len = (size_t)(eq - o->consts[i]);
        char *name = malloc(len + 1);
        if (!name) {
            cli_error("out of memory");
            return CLI_BAD_INPUT;
        }
        memcpy(name, o->consts[i], len);
        name[len] = '\0';
        airc_tensor *t = NULL;
        bool existed = false;
        int rc = CLI_OK;
        if (airc_npy_read(env->ctx, eq + 1, &t) != AIRC_OK)
            rc = cli_fail("--const");
        else if (bind_constant(g, name, t, &existed) != AIRC_OK)
            rc = cli_fail("--const");
        else if (existed) {
            cli_error("--const: constant '%s' is given twice", name);
            rc = CLI_BAD_INPUT;
        }
        free(name);
        if (rc != CLI_OK)
            return rc;
    }
    if (o->weights && airc_npz_read(env->ctx, o->weights, weights_cb, g) != AIRC_OK)
        return cli_fail("--weights");
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n)) {
        if (airc_node_get_kind(n) != AIRC_NODE_GET_ATTR)
            continue;
        const char *target = airc_node_target(n);
        if (airc_graph_get_constant(g, target, NULL, NULL, NULL, NULL, NULL) != AIRC_OK) {
            cli_error("%s: get_attr '%s' (node '%s') has no data: give it with --const "
                      "%s=FILE.npy or --weights FILE.npz",
                      cli_shown_path(o->path), target, airc_node_name(n), target);
            return CLI_BAD_INPUT;
        }
    }
    return CLI_OK;
}

/* ---- running ------------------------------------------------------------------ */

