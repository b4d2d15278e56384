/* debug.data_dump (exec/data_dump.h): a compiled graph runs eagerly and
 * saves each call_function node's tensor inputs (before its kernel: an
 * in-place op's input is the value it read) and results as .npy, in
 * TorchAir's layout, one folder per run; the filter picks nodes by name;
 * every mode does it; the results are those of a run without the dump.
 * TorchAir's dump_config (enable_dump, dump_path, dump_mode) does the same
 * with inputs, outputs or both. */
#include "testutil.h"

#include "airc/compile.h"

#include <dirent.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* x (3x3) -> mm = x @ x, abs_1 = |mm|, add = abs_1 + 1 (in place), sub = x - mm */
static const char *const GRAPH =
    "graph():\n"
    "    %x : [#users=2] = placeholder[target=x]\n"
    "    %mm : [#users=2] = call_function[target=torch.ops.aten.mm.default](args = (%x, %x), "
    "kwargs = {})\n"
    "    %abs_1 : [#users=1] = call_function[target=torch.ops.aten.abs.default](args = (%mm,), "
    "kwargs = {})\n"
    "    %add_ : [#users=1] = call_function[target=torch.ops.aten.add_.Tensor](args = (%abs_1, "
    "1), kwargs = {})\n"
    "    %sub : [#users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x, %mm), "
    "kwargs = {})\n"
    "    return (add_, sub)\n";

typedef struct dump_dir {
    char root[256];
    char run[2][1024]; /* <root>/worldsize1_global_rank0/gm_<stamp>_dump/<step> */
} dump_dir;

/* The one gm_*_dump folder under root, and its runs 0 and 1. */
static void find_runs(dump_dir *d)
{
    char rank[320];
    snprintf(rank, sizeof rank, "%s/worldsize1_global_rank0", d->root);
    DIR *dir = opendir(rank);
    assert_non_null(dir);
    int found = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        if (strncmp(e->d_name, "gm_", 3))
            continue;
        assert_non_null(strstr(e->d_name, "_dump"));
        for (int s = 0; s < 2; s++)
            snprintf(d->run[s], sizeof d->run[s], "%s/%s/%d", rank, e->d_name, s);
        found++;
    }
    closedir(dir);
    assert_int_equal(found, 1);
}

/* The file of run dir whose name matches pattern ("mm-aten.mm.default.OUTPUT.0.*.npy"),
 * read; NULL when none. Counts the files in *nfiles. */
static airc_tensor *read_dumped(airc_context *ctx, const char *run, const char *pattern,
                                int *nfiles)
{
    DIR *dir = opendir(run);
    assert_non_null(dir);
    airc_tensor *t = NULL;
    *nfiles = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        if (e->d_name[0] == '.')
            continue;
        (*nfiles)++;
        if (fnmatch(pattern, e->d_name, 0))
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", run, e->d_name);
        assert_null(t); /* one file per pattern */
        AIRC_ASSERT_OK(airc_npy_read(ctx, path, &t));
    }
    closedir(dir);
    return t;
}

static void remove_tree(const char *path)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    assert_int_equal(system(cmd), 0);
}

static void expect_values(const airc_tensor *t, const float *want, int n)
{
    assert_non_null(t);
    assert_int_equal(airc_tensor_numel(t), n);
    const float *got = airc_tensor_data(t);
    for (int i = 0; i < n; i++)
        assert_float_equal(got[i], want[i], 1e-4 * (1 + (want[i] < 0 ? -want[i] : want[i])));
}

/* Compiles GRAPH in mode with the dump (filter may be NULL), runs it twice
 * on x, checks the results, and leaves the files in d. */
static void dump_runs(airc_context *ctx, const char *mode, const char *filter, bool functionalize,
                      const char *dump_mode, dump_dir *d, airc_tensor *x, const float *want_add,
                      const float *want_sub)
{
    snprintf(d->root, sizeof d->root, "%s/airc-dump.XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(d->root));
    airc_graph *g = airc_test_parse(ctx, GRAPH);
    airc_config *cfg;
    AIRC_ASSERT_OK(airc_config_create(ctx, &cfg));
    AIRC_ASSERT_OK(airc_config_set(cfg, "mode", mode));
    if (dump_mode) { /* TorchAir's dump_config */
        AIRC_ASSERT_OK(airc_config_set(cfg, "dump_config.enable_dump", "1"));
        AIRC_ASSERT_OK(airc_config_set(cfg, "dump_config.dump_path", d->root));
        AIRC_ASSERT_OK(airc_config_set(cfg, "dump_config.dump_mode", dump_mode));
    } else {
        AIRC_ASSERT_OK(airc_config_set(cfg, "debug.data_dump.type", "npy"));
        AIRC_ASSERT_OK(airc_config_set(cfg, "debug.data_dump.path", d->root));
    }
    if (filter)
        AIRC_ASSERT_OK(airc_config_set(cfg, "debug.data_dump.filter", filter));
    AIRC_ASSERT_OK(airc_config_set_bool(cfg, "passes.functionalize", functionalize));
    airc_compile_options o;
    airc_compile_options_init(&o);
    o.config = cfg;
    airc_compiled *c;
    AIRC_ASSERT_OK(airc_compile(g, &o, &c));
    for (int r = 0; r < 2; r++) {
        airc_tensor *out[2];
        size_t n = 0;
        AIRC_ASSERT_OK(airc_compiled_run(c, &x, 1, out, 2, &n));
        assert_int_equal(n, 2);
        expect_values(out[0], want_add, 9);
        expect_values(out[1], want_sub, 9);
        airc_tensor_destroy(out[0]);
        airc_tensor_destroy(out[1]);
    }
    airc_compiled_destroy(c);
    airc_config_destroy(cfg);
    airc_graph_destroy(g);
    find_runs(d);
}

/* A dump of fewer files (a filter, a dump_mode): nfiles in the second run's
 * folder, one of them matching pattern with values want_file. want: the
 * results add, sub. */
static void some_files(airc_context *ctx, const char *mode, const char *filter,
                       const char *dump_mode, airc_tensor *x, const float *const *want,
                       const char *pattern, const float *want_file, int nfiles)
{
    dump_dir d;
    dump_runs(ctx, mode, filter, true, dump_mode, &d, x, want[0], want[1]);
    int n = 0;
    airc_tensor *t = read_dumped(ctx, d.run[1], pattern, &n);
    expect_values(t, want_file, 9);
    airc_tensor_destroy(t);
    assert_int_equal(n, nfiles);
    remove_tree(d.root);
}

static void test_data_dump(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    const int64_t shape[2] = {3, 3};
    airc_tensor *x;
    AIRC_ASSERT_OK(airc_tensor_create(ctx, AIRC_DTYPE_F32, 2, shape, &x));
    float *xd = airc_tensor_data(x), mm[9], abs1[9], add[9], sub[9];
    for (int i = 0; i < 9; i++)
        xd[i] = (float)(i % 4) - 1.5f;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            float acc = 0;
            for (int p = 0; p < 3; p++)
                acc += xd[i * 3 + p] * xd[p * 3 + j];
            mm[i * 3 + j] = acc;
        }
    for (int i = 0; i < 9; i++) {
        abs1[i] = mm[i] < 0 ? -mm[i] : mm[i];
        add[i] = abs1[i] + 1;
        sub[i] = xd[i] - mm[i];
    }
    static const char *const modes[] = {"eager", "reduce-overhead", "max-autotune"};
    for (int m = 0; m < 3; m++) {
        dump_dir d;
        /* eager without functionalize keeps add_ in place */
        dump_runs(ctx, modes[m], NULL, m > 0, NULL, &d, x, add, sub);
        for (int r = 0; r < 2; r++) {
            int nfiles = 0;
            airc_tensor *t =
                read_dumped(ctx, d.run[r], "mm-aten.mm.default.INPUT.1.*.npy", &nfiles);
            expect_values(t, xd, 9);
            airc_tensor_destroy(t);
            t = read_dumped(ctx, d.run[r], "mm-aten.mm.default.OUTPUT.0.*.npy", &nfiles);
            expect_values(t, mm, 9);
            airc_tensor_destroy(t);
            /* add_ writes its input: the input file holds what it read
             * (functionalize makes it a node add of aten.add.Tensor) */
            t = read_dumped(ctx, d.run[r],
                            m ? "add-aten.add.Tensor.INPUT.0.*.npy"
                              : "add_-aten.add_.Tensor.INPUT.0.*.npy",
                            &nfiles);
            expect_values(t, abs1, 9);
            airc_tensor_destroy(t);
            t = read_dumped(ctx, d.run[r], "add*-aten.add*.Tensor.OUTPUT.0.*.npy", &nfiles);
            expect_values(t, add, 9);
            airc_tensor_destroy(t);
            /* mm 2 in + 1 out, abs 1 + 1, add_ 1 + 1 (its 1 is no tensor),
             * sub 2 + 1 */
            assert_int_equal(nfiles, 10);
        }
        remove_tree(d.root);
    }
    /* the filter, node names matching "a*": abs_1 and add_, one input and
     * one output each */
    const float *const want[2] = {add, sub};
    some_files(ctx, "reduce-overhead", "a*", NULL, x, want, "abs_1-aten.abs.default.OUTPUT.0.*.npy",
               abs1, 4);
    /* dump_config: outputs only, inputs only */
    some_files(ctx, "max-autotune", NULL, "output", x, want, "mm-aten.mm.default.OUTPUT.0.*.npy",
               mm, 4);
    some_files(ctx, "reduce-overhead", NULL, "input", x, want, "sub-aten.sub.Tensor.INPUT.0.*.npy",
               xd, 6);
    /* what airc cannot dump is refused */
    airc_graph *g = airc_test_parse(ctx, GRAPH);
    airc_config *cfg;
    AIRC_ASSERT_OK(airc_config_create(ctx, &cfg));
    AIRC_ASSERT_OK(airc_config_set(cfg, "dump_config.enable_dump", "1"));
    AIRC_ASSERT_OK(airc_config_set(cfg, "dump_config.dump_data", "stats"));
    airc_compile_options o;
    airc_compile_options_init(&o);
    o.config = cfg;
    airc_compiled *c = NULL;
    AIRC_EXPECT(airc_compile(g, &o, &c), AIRC_E_UNSUPPORTED, "dump_config.dump_data 'stats'");
    AIRC_ASSERT_OK(airc_config_set(cfg, "dump_config.dump_data", "tensor"));
    AIRC_ASSERT_OK(airc_config_set(cfg, "dump_config.data_dump_stage", "original"));
    AIRC_EXPECT(airc_compile(g, &o, &c), AIRC_E_UNSUPPORTED, "data_dump_stage 'original'");
    assert_null(c);
    airc_config_destroy(cfg);
    airc_graph_destroy(g);

    airc_tensor_destroy(x);
    airc_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_data_dump),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
