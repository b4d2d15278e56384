/* Seed 002 end to end: custom ops in graph mode, through airc's public API.
 *
 *   custom_op [MODEL.fx]
 *
 * Registers demo::my_op (functional) and demo::my_inplace (in-place) with
 * schema, meta, CPU kernel and Ascend IR converter (ops.c), parses the
 * model that uses both (examples/custom_op/model.fx), compiles it in eager,
 * reduce-overhead and max-autotune, runs each twice on fresh inputs and
 * compares every result with a plain C reference. Prints what it checked;
 * exits 1 on any mismatch. */
#include "ops.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 4
#define COLS 8
#define N (ROWS * COLS)

static int failures;

static int report(const char *what)
{
    fprintf(stderr, "custom_op: %s: %s (%s)\n", what, airc_last_error(),
            airc_status_name(airc_last_error_code()));
    return 1;
}

/* The model in plain C: my_op = x*y*2 + 1; add = max(my_op + 1, 0) * 0.5
 * (my_inplace on add); tanh(add). */
static void reference(const float *x, const float *y, float *my_op, float *out)
{
    for (int i = 0; i < N; i++) {
        my_op[i] = x[i] * y[i] * 2.0f + 1.0f;
        float add = my_op[i] + 1.0f;
        add = (add > 0 ? add : 0) * 0.5f;
        out[i] = tanhf(add);
    }
}

static void fill(airc_tensor *t, unsigned seed)
{
    float *d = airc_tensor_data(t);
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        d[i] = (float)((seed >> 8) % 2000) / 500.0f - 2.0f; /* [-2, 2) */
    }
}

static double max_err(const airc_tensor *got, const float *want)
{
    if (airc_tensor_numel(got) != N || airc_tensor_dtype(got) != AIRC_DTYPE_F32)
        return INFINITY;
    const float *g = airc_tensor_data(got);
    double m = 0;
    for (int i = 0; i < N; i++)
        m = fmax(m, fabs((double)g[i] - want[i]));
    return m;
}

/* Compiles g in `mode`, runs it on two input sets, checks both results. */
static int check_mode(airc_context *ctx, const airc_graph *g, const char *mode)
{
    airc_config *cfg = NULL;
    airc_compiled *c = NULL;
    airc_compile_options o;
    airc_compile_options_init(&o);
    if (airc_config_create(ctx, &cfg) != AIRC_OK || airc_config_set(cfg, "mode", mode) != AIRC_OK)
        return report("config");
    o.config = cfg;
    int rc = 0;
    if (airc_compile(g, &o, &c) != AIRC_OK) {
        rc = report(mode);
        goto out;
    }
    int64_t shape[2] = {ROWS, COLS};
    for (unsigned round = 0; round < 2 && !rc; round++) {
        airc_tensor *x = NULL, *y = NULL, *res[2] = {NULL, NULL};
        size_t n = 0;
        if (airc_tensor_create(ctx, AIRC_DTYPE_F32, 2, shape, &x) != AIRC_OK ||
            airc_tensor_create(ctx, AIRC_DTYPE_F32, 2, shape, &y) != AIRC_OK) {
            rc = report("inputs");
        } else {
            fill(x, 7 + round);
            fill(y, 100 + round);
            float want_op[N], want_out[N];
            reference(airc_tensor_data(x), airc_tensor_data(y), want_op, want_out);
            airc_tensor *in[2] = {x, y};
            if (airc_compiled_run(c, in, 2, res, 2, &n) != AIRC_OK) {
                rc = report(mode);
            } else {
                double e0 = n == 2 ? max_err(res[0], want_op) : INFINITY;
                double e1 = n == 2 ? max_err(res[1], want_out) : INFINITY;
                bool ok = e0 <= 1e-5 && e1 <= 1e-5;
                printf("custom_op: %-15s run %u: my_op max|err| %.2g, tanh max|err| %.2g: %s\n",
                       mode, round + 1, e0, e1, ok ? "ok" : "MISMATCH");
                failures += !ok;
            }
        }
        for (size_t i = 0; i < n; i++)
            airc_tensor_destroy(res[i]);
        airc_tensor_destroy(x);
        airc_tensor_destroy(y);
    }
    if (!rc && !strcmp(mode, "max-autotune")) {
        /* the Ascend IR holds the converters' custom op types */
        const uint8_t *bytes;
        size_t len;
        if (airc_compiled_model(c, &bytes, &len) != AIRC_OK) {
            rc = report("model");
        } else {
            bool my_op = memmem(bytes, len, "MyOp", 4) != NULL;
            bool my_inplace = memmem(bytes, len, "MyInplace", 9) != NULL;
            printf("custom_op: max-autotune model: %zu bytes, MyOp %s, MyInplace %s\n", len,
                   my_op ? "present" : "MISSING", my_inplace ? "present" : "MISSING");
            failures += !my_op + !my_inplace;
        }
    }
out:
    airc_compiled_destroy(c);
    airc_config_destroy(cfg);
    return rc;
}

int main(int argc, char **argv)
{
    const char *model = argc > 1 ? argv[1] : AIRC_EXAMPLES_DIR "/custom_op/model.fx";
    if (argc > 2 || (argc > 1 && argv[1][0] == '-')) {
        fprintf(stderr, "usage: %s [MODEL.fx]\n", argv[0]);
        return 2;
    }
    airc_context *ctx = NULL;
    if (airc_context_create(NULL, &ctx) != AIRC_OK)
        return report("context");
    airc_graph *g = NULL;
    int rc = 0;
    if (custom_op_register(ctx) != AIRC_OK)
        rc = report("registering the custom ops");
    else if (airc_graph_parse_file(ctx, model, &g) != AIRC_OK || airc_graph_lint(g) != AIRC_OK)
        rc = report(model);
    static const char *const modes[] = {"eager", "reduce-overhead", "max-autotune"};
    for (size_t m = 0; !rc && m < 3; m++)
        rc = check_mode(ctx, g, modes[m]);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
    if (rc)
        return rc;
    if (failures) {
        fprintf(stderr, "custom_op: %d check%s failed\n", failures, failures == 1 ? "" : "s");
        return 1;
    }
    printf("custom_op: ok: eager, reduce-overhead and max-autotune match the C reference\n");
    return 0;
}
