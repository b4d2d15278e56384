/* The compiler config: TorchAir's defaults, typed validation, unknown keys,
 * clones, allocation failure, misuse, and the internal accessors. */
#include "testutil.h"

#include "airc/compile.h"
#include "config/config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* TorchAir's defaults (torchair/configs/ files, notes §2), as get() returns
 * them: bools "1"/"0", None "". `mode` is airc's default (TorchAir:
 * max-autotune); `device` and passes.* are airc's own. */
static const struct {
    const char *key;
    const char *def;
} expected[] = {
    {"mode", "reduce-overhead"},
    {"device", "cpu"},
    {"debug.graph_dump.type", ""},
    {"debug.graph_dump.path", ""},
    {"debug.data_dump.type", ""},
    {"debug.data_dump.filter", ""},
    {"debug.data_dump.path", ""},
    {"debug.fx_summary.type", ""},
    {"debug.fx_summary.skip_compile", "1"},
    {"debug.fx_summary.path", ""},
    {"debug.run_eagerly", "0"},
    {"debug.deadlock_check", "0"},
    {"debug.aclgraph.disable_reinplace_inplaceable_ops_pass", "0"},
    {"debug.aclgraph.disable_reinplace_input_mutated_ops_pass", "0"},
    {"debug.aclgraph.disable_mempool_reuse_in_same_fx", "0"},
    {"debug.aclgraph.enable_output_clone", "0"},
    {"debug.aclgraph.static_capture_size_limit", "64"},
    {"debug.aclgraph.clone_input", "1"},
    {"debug.aclgraph.remove_cat_ops", "1"},
    {"ge_config.enable_single_stream", "0"},
    {"ge_config.oo_level", "O3"},
    {"ge_config.oo_constant_folding", ""},
    {"ge_config.oo_dead_code_elimination", ""},
    {"ge_config.export_compile_stat", "2"},
    {"ge_config.aicore_num", ""},
    {"ge_config.optimization_switch", ""},
    {"experimental_config.cc_parallel_enable", "0"},
    {"experimental_config.keep_inference_input_mutations", "1"},
    {"experimental_config.memory_efficiency", "0"},
    {"experimental_config.frozen_parameter", "0"},
    {"experimental_config.static_model_ops_lower_limit", ""},
    {"experimental_config.jit_compile", "auto"},
    {"experimental_config.npu_fx_pass", "0"},
    {"experimental_config.topology_sorting_strategy", "DFS"},
    {"experimental_config.enable_ref_data", "0"},
    {"experimental_config.enable_view_optimize", "1"},
    {"experimental_config.remove_noop_ops", "1"},
    {"experimental_config.tiling_schedule_optimize", "0"},
    {"experimental_config.pattern_fusion_pass", "1"},
    {"dump_config.enable_dump", "0"},
    {"dump_config.dump_path", "./"},
    {"dump_config.dump_mode", "all"},
    {"dump_config.dump_data", "tensor"},
    {"dump_config.data_dump_stage", "optimized"},
    {"inference_config.dynamic_gears_merge_policy", "zip"},
    {"passes.functionalize", "1"},
    {"passes.view_to_reshape", "1"},
    {"passes.dce", "1"},
    {"passes.cse", "1"},
    {"passes.constant_folding", "1"},
    {"passes.meta_propagation", "1"},
};
#define NEXPECTED (sizeof expected / sizeof expected[0])

static airc_context *new_ctx(void)
{
    airc_context *ctx = NULL;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    return ctx;
}

static airc_config *new_cfg(airc_context *ctx)
{
    airc_config *cfg = NULL;
    AIRC_ASSERT_OK(airc_config_create(ctx, &cfg));
    return cfg;
}

static void assert_get(const airc_config *cfg, const char *key, const char *want)
{
    const char *v = NULL;
    AIRC_ASSERT_OK(airc_config_get(cfg, key, &v));
    if (strcmp(v, want))
        print_error("%s: got '%s', want '%s'\n", key, v, want);
    assert_string_equal(v, want);
}

static void test_defaults(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_config *cfg = new_cfg(ctx);
    assert_int_equal(airc_config_num_keys(cfg), NEXPECTED);
    for (size_t i = 0; i < NEXPECTED; i++) {
        assert_get(cfg, expected[i].key, expected[i].def);
        assert_int_equal(airc_config_is_set(cfg, expected[i].key), 0);
    }
    /* the key list is the same set, each key once, in a stable order */
    for (size_t i = 0; i < airc_config_num_keys(cfg); i++) {
        const char *k = airc_config_key(cfg, i);
        assert_non_null(k);
        size_t hits = 0;
        for (size_t j = 0; j < NEXPECTED; j++)
            hits += !strcmp(k, expected[j].key);
        assert_int_equal(hits, 1);
        assert_string_equal(k, airc_config_key(cfg, i));
    }
    assert_null(airc_config_key(cfg, NEXPECTED));

    int64_t n = 0;
    AIRC_ASSERT_OK(airc_config_get_int(cfg, "debug.aclgraph.static_capture_size_limit", &n));
    assert_int_equal(n, 64);
    int32_t b = -1;
    AIRC_ASSERT_OK(airc_config_get_bool(cfg, "debug.aclgraph.clone_input", &b));
    assert_int_equal(b, 1);
    AIRC_ASSERT_OK(airc_config_get_bool(cfg, "debug.run_eagerly", &b));
    assert_int_equal(b, 0);
    /* unset (TorchAir's None) options have no typed value */
    AIRC_EXPECT(airc_config_get_bool(cfg, "ge_config.oo_constant_folding", &b), AIRC_E_NOT_FOUND,
                "no value");
    AIRC_EXPECT(
        airc_config_get_int(cfg, "experimental_config.static_model_ops_lower_limit", &n),
        AIRC_E_NOT_FOUND, "no value");
    assert_int_equal(b, 0);
    assert_int_equal(n, 64);
    airc_config_destroy(cfg);
    airc_context_destroy(ctx);
}

static void test_set_get_round_trip(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_config *cfg = new_cfg(ctx);

    /* bools: every accepted spelling, read back as TorchAir serialises */
    static const struct {
        const char *in, *out;
    } bools[] = {{"true", "1"}, {"false", "0"}, {"1", "1"},
                 {"0", "0"},    {"True", "1"},  {"False", "0"}};
    for (size_t i = 0; i < sizeof bools / sizeof bools[0]; i++) {
        AIRC_ASSERT_OK(airc_config_set(cfg, "debug.run_eagerly", bools[i].in));
        assert_get(cfg, "debug.run_eagerly", bools[i].out);
        int32_t b = -1;
        AIRC_ASSERT_OK(airc_config_get_bool(cfg, "debug.run_eagerly", &b));
        assert_int_equal(b, bools[i].out[0] == '1');
    }
    assert_int_equal(airc_config_is_set(cfg, "debug.run_eagerly"), 1);

    /* ints */
    AIRC_ASSERT_OK(airc_config_set(cfg, "debug.aclgraph.static_capture_size_limit", "1"));
    assert_get(cfg, "debug.aclgraph.static_capture_size_limit", "1");
    AIRC_ASSERT_OK(airc_config_set(cfg, "debug.aclgraph.static_capture_size_limit",
                                   "9223372036854775807"));
    assert_get(cfg, "debug.aclgraph.static_capture_size_limit", "9223372036854775807");
    AIRC_ASSERT_OK(airc_config_set(cfg, "debug.aclgraph.static_capture_size_limit", "+12"));
    assert_get(cfg, "debug.aclgraph.static_capture_size_limit", "12");
    AIRC_ASSERT_OK(airc_config_set(cfg, "experimental_config.static_model_ops_lower_limit", "-1"));
    assert_get(cfg, "experimental_config.static_model_ops_lower_limit", "-1");
    AIRC_ASSERT_OK(airc_config_set_int(cfg, "debug.aclgraph.static_capture_size_limit", 7));
    int64_t n = 0;
    AIRC_ASSERT_OK(airc_config_get_int(cfg, "debug.aclgraph.static_capture_size_limit", &n));
    assert_int_equal(n, 7);
    assert_get(cfg, "debug.aclgraph.static_capture_size_limit", "7");

    /* enums: every allowed value of a few options */
    static const char *const modes[] = {"max-autotune", "eager", "reduce-overhead"};
    for (size_t i = 0; i < 3; i++) {
        AIRC_ASSERT_OK(airc_config_set(cfg, "mode", modes[i]));
        assert_get(cfg, "mode", modes[i]);
    }
    static const char *const dumps[] = {"txt", "pbtxt", "pb"};
    for (size_t i = 0; i < 3; i++) {
        AIRC_ASSERT_OK(airc_config_set(cfg, "debug.graph_dump.type", dumps[i]));
        assert_get(cfg, "debug.graph_dump.type", dumps[i]);
    }
    static const char *const topo[] = {"BFS", "DFS", "RDFS", "StableRDFS"};
    for (size_t i = 0; i < 4; i++) {
        AIRC_ASSERT_OK(airc_config_set(cfg, "experimental_config.topology_sorting_strategy",
                                       topo[i]));
        assert_get(cfg, "experimental_config.topology_sorting_strategy", topo[i]);
    }
    AIRC_ASSERT_OK(airc_config_set(cfg, "ge_config.export_compile_stat", "0"));
    assert_get(cfg, "ge_config.export_compile_stat", "0");
    AIRC_ASSERT_OK(airc_config_set(cfg, "device", "cuda"));
    assert_get(cfg, "device", "cuda");
    AIRC_ASSERT_OK(airc_config_set(cfg, "inference_config.dynamic_gears_merge_policy", "product"));
    assert_get(cfg, "inference_config.dynamic_gears_merge_policy", "product");

    /* strings (free text, "" allowed) and paths */
    AIRC_ASSERT_OK(airc_config_set(cfg, "ge_config.optimization_switch", "AutomaticUbFusion:off"));
    assert_get(cfg, "ge_config.optimization_switch", "AutomaticUbFusion:off");
    AIRC_ASSERT_OK(airc_config_set(cfg, "ge_config.aicore_num", ""));
    assert_get(cfg, "ge_config.aicore_num", "");
    assert_int_equal(airc_config_is_set(cfg, "ge_config.aicore_num"), 1);
    AIRC_ASSERT_OK(airc_config_set(cfg, "debug.graph_dump.path", "/tmp/dumps with space"));
    assert_get(cfg, "debug.graph_dump.path", "/tmp/dumps with space");
    /* the value is copied */
    char buf[16];
    strcpy(buf, "out/");
    AIRC_ASSERT_OK(airc_config_set(cfg, "dump_config.dump_path", buf));
    strcpy(buf, "XXXX");
    assert_get(cfg, "dump_config.dump_path", "out/");
    AIRC_ASSERT_OK(airc_config_set(cfg, "dump_config.dump_path", "again/"));
    assert_get(cfg, "dump_config.dump_path", "again/");

    /* NULL resets to the default and clears is_set */
    AIRC_ASSERT_OK(airc_config_set(cfg, "dump_config.dump_path", NULL));
    assert_get(cfg, "dump_config.dump_path", "./");
    assert_int_equal(airc_config_is_set(cfg, "dump_config.dump_path"), 0);
    AIRC_ASSERT_OK(airc_config_set(cfg, "debug.graph_dump.type", NULL));
    assert_get(cfg, "debug.graph_dump.type", "");
    AIRC_ASSERT_OK(airc_config_set(cfg, "debug.aclgraph.static_capture_size_limit", NULL));
    assert_get(cfg, "debug.aclgraph.static_capture_size_limit", "64");

    /* set_bool takes any int as truth */
    AIRC_ASSERT_OK(airc_config_set_bool(cfg, "passes.cse", 0));
    assert_get(cfg, "passes.cse", "0");
    AIRC_ASSERT_OK(airc_config_set_bool(cfg, "passes.cse", 42));
    assert_get(cfg, "passes.cse", "1");
    AIRC_ASSERT_OK(airc_config_set_bool(cfg, "ge_config.oo_constant_folding", 0));
    int32_t b = -1;
    AIRC_ASSERT_OK(airc_config_get_bool(cfg, "ge_config.oo_constant_folding", &b));
    assert_int_equal(b, 0);

    airc_config_destroy(cfg);
    airc_context_destroy(ctx);
}

static void test_validation(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_config *cfg = new_cfg(ctx);

    static const struct {
        const char *key, *value, *needle;
    } bad[] = {
        /* bool */
        {"debug.run_eagerly", "yes", "expects a bool (true, false, 1, 0, True, False), got 'yes'"},
        {"debug.run_eagerly", "TRUE", "got 'TRUE'"},
        {"debug.run_eagerly", "", "expects a bool"},
        {"passes.dce", "2", "expects a bool"},
        {"ge_config.oo_constant_folding", " true", "expects a bool"},
        /* int */
        {"debug.aclgraph.static_capture_size_limit", "0",
         "expects an integer in [1, 9223372036854775807], got '0'"},
        {"debug.aclgraph.static_capture_size_limit", "-5", "got '-5'"},
        {"debug.aclgraph.static_capture_size_limit", "abc", "expects an integer"},
        {"debug.aclgraph.static_capture_size_limit", "", "expects an integer"},
        {"debug.aclgraph.static_capture_size_limit", "1.5", "expects an integer"},
        {"debug.aclgraph.static_capture_size_limit", "12 ", "expects an integer"},
        {"debug.aclgraph.static_capture_size_limit", "-", "expects an integer"},
        {"debug.aclgraph.static_capture_size_limit", "9223372036854775808", "expects an integer"},
        {"experimental_config.static_model_ops_lower_limit", "-2", "[-1, 9223372036854775807]"},
        /* enum */
        {"mode", "fast", "'fast' is not allowed (allowed: reduce-overhead, max-autotune, eager)"},
        {"mode", "npugraph_ex", "npugraph_ex backend is airc's reduce-overhead"},
        {"mode", "Eager", "not allowed"},
        {"debug.graph_dump.type", "py", "airc cannot emit Python"},
        {"debug.graph_dump.type", "json", "(allowed: txt, pbtxt, pb)"},
        {"debug.data_dump.type", "pt", "(allowed: npy)"},
        {"debug.fx_summary.type", "xlsx", "(allowed: csv)"},
        {"ge_config.oo_level", "O2", "(allowed: O1, O3)"},
        {"ge_config.export_compile_stat", "3", "(allowed: 0, 1, 2)"},
        {"experimental_config.jit_compile", "true", "(allowed: auto)"},
        {"experimental_config.topology_sorting_strategy", "dfs",
         "(allowed: BFS, DFS, RDFS, StableRDFS)"},
        {"dump_config.dump_mode", "both", "(allowed: input, output, all)"},
        {"dump_config.dump_data", "x", "(allowed: tensor, stats)"},
        {"dump_config.data_dump_stage", "x", "(allowed: original, optimized)"},
        {"inference_config.dynamic_gears_merge_policy", "x", "(allowed: zip, product)"},
        {"device", "tpu", "(allowed: cpu, cuda, npu)"},
        /* path */
        {"debug.graph_dump.path", "", "non-empty path"},
        {"dump_config.dump_path", "", "non-empty path"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *before = NULL;
        AIRC_ASSERT_OK(airc_config_get(cfg, bad[i].key, &before));
        char saved[128];
        snprintf(saved, sizeof saved, "%s", before);
        airc_status st = airc_config_set(cfg, bad[i].key, bad[i].value);
        if (st != AIRC_E_INVALID_ARGUMENT)
            print_error("%s = '%s'\n", bad[i].key, bad[i].value);
        AIRC_EXPECT(st, AIRC_E_INVALID_ARGUMENT, bad[i].needle);
        assert_non_null(strstr(airc_last_error(), bad[i].key)); /* names the option */
        assert_get(cfg, bad[i].key, saved);                   /* unchanged */
        assert_int_equal(airc_config_is_set(cfg, bad[i].key), 0);
    }

    /* typed helpers check the option's type and range */
    AIRC_EXPECT(airc_config_set_bool(cfg, "mode", 1), AIRC_E_INVALID_ARGUMENT,
                "'mode' is an enum, not a bool");
    AIRC_EXPECT(airc_config_set_int(cfg, "debug.run_eagerly", 1), AIRC_E_INVALID_ARGUMENT,
                "is a bool, not an int");
    AIRC_EXPECT(airc_config_set_int(cfg, "ge_config.export_compile_stat", 1),
                AIRC_E_INVALID_ARGUMENT, "is an enum, not an int");
    AIRC_EXPECT(airc_config_set_int(cfg, "debug.aclgraph.static_capture_size_limit", 0),
                AIRC_E_INVALID_ARGUMENT, "got '0'");
    AIRC_EXPECT(airc_config_set_int(cfg, "experimental_config.static_model_ops_lower_limit",
                                    INT64_MIN),
                AIRC_E_INVALID_ARGUMENT, "got '-9223372036854775808'");
    int32_t b = 7;
    int64_t n = 7;
    AIRC_EXPECT(airc_config_get_bool(cfg, "debug.graph_dump.path", &b), AIRC_E_INVALID_ARGUMENT,
                "is a path, not a bool");
    AIRC_EXPECT(airc_config_get_int(cfg, "ge_config.aicore_num", &n), AIRC_E_INVALID_ARGUMENT,
                "is a string, not an int");
    AIRC_EXPECT(airc_config_get_bool(cfg, "debug.run_eagerly", NULL), AIRC_E_INVALID_ARGUMENT,
                NULL);
    AIRC_EXPECT(airc_config_get_int(cfg, "debug.aclgraph.static_capture_size_limit", NULL),
                AIRC_E_INVALID_ARGUMENT, NULL);
    AIRC_EXPECT(airc_config_get(cfg, "mode", NULL), AIRC_E_INVALID_ARGUMENT, NULL);
    assert_int_equal(b, 7);
    assert_int_equal(n, 7);
    assert_get(cfg, "debug.aclgraph.static_capture_size_limit", "64");

    airc_config_destroy(cfg);
    airc_context_destroy(ctx);
}

static void test_unknown_keys(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_config *cfg = new_cfg(ctx);
    const char *v = (const char *)0x1;

    AIRC_EXPECT(airc_config_set(cfg, "debug.foo", "1"), AIRC_E_NOT_FOUND,
                "unknown config option 'debug.foo' (options in 'debug': debug.graph_dump.type, "
                "debug.graph_dump.path");
    AIRC_EXPECT(airc_config_set(cfg, "passes.xyzzy_quux", "1"), AIRC_E_NOT_FOUND,
                "(options in 'passes': passes.functionalize, passes.view_to_reshape, passes.dce, "
                "passes.cse, passes.constant_folding, passes.meta_propagation)");
    AIRC_EXPECT(airc_config_set(cfg, "debug.graph_dump.typ", "txt"), AIRC_E_NOT_FOUND,
                "did you mean 'debug.graph_dump.type'?");
    AIRC_EXPECT(airc_config_get(cfg, "debug.aclgraph.static_capture_limit", &v), AIRC_E_NOT_FOUND,
                "did you mean 'debug.aclgraph.static_capture_size_limit'?");
    AIRC_EXPECT(airc_config_set(cfg, "remove_noop_ops", "0"), AIRC_E_NOT_FOUND,
                "did you mean 'experimental_config.remove_noop_ops'?");
    AIRC_EXPECT(airc_config_set(cfg, "debug.aclgraph.clone_inputs", "0"), AIRC_E_NOT_FOUND,
                "did you mean 'debug.aclgraph.clone_input'?");
    AIRC_EXPECT(airc_config_set(cfg, "Mode", "eager"), AIRC_E_NOT_FOUND,
                "did you mean 'mode'?");
    AIRC_EXPECT(airc_config_set(cfg, "debug.aclgraph", "1"), AIRC_E_NOT_FOUND,
                "is a group, not an option; its options: "
                "debug.aclgraph.disable_reinplace_inplaceable_ops_pass");
    AIRC_EXPECT(airc_config_set(cfg, "aoe_config.aoe_mode", "2"), AIRC_E_NOT_FOUND,
                "TorchAir's but airc does not implement it");
    AIRC_EXPECT(airc_config_set(cfg, "post_grad_custom_pre_pass", "f"), AIRC_E_NOT_FOUND,
                "pass API");
    AIRC_EXPECT(airc_config_set(cfg, "", "1"), AIRC_E_NOT_FOUND, "unknown config option ''");
    AIRC_EXPECT(airc_config_set_bool(cfg, "zzzzzzzzzzzzzzzzzzzzzz", 1), AIRC_E_NOT_FOUND,
                "docs/config.md");
    AIRC_EXPECT(airc_config_get_int(cfg, "nope", NULL), AIRC_E_NOT_FOUND, NULL);
    AIRC_EXPECT(airc_config_get_bool(cfg, "nope", NULL), AIRC_E_NOT_FOUND, NULL);
    AIRC_EXPECT(airc_config_set_int(cfg, "nope", 1), AIRC_E_NOT_FOUND, NULL);
    AIRC_EXPECT(airc_config_set(cfg, NULL, "1"), AIRC_E_INVALID_ARGUMENT, NULL);
    AIRC_EXPECT(airc_config_get(cfg, NULL, &v), AIRC_E_INVALID_ARGUMENT, NULL);
    assert_ptr_equal(v, (const char *)0x1);
    assert_int_equal(airc_config_is_set(cfg, "nope"), 0);
    assert_int_equal(airc_config_is_set(cfg, NULL), 0);

    /* a huge key: bounded message, no crash */
    size_t big = 100000;
    char *key = malloc(big + 1);
    memset(key, 'a', big);
    key[big] = '\0';
    AIRC_EXPECT(airc_config_set(cfg, key, "1"), AIRC_E_NOT_FOUND, "unknown config option");
    assert_true(strlen(airc_last_error()) < 1024);
    free(key);
    airc_config_destroy(cfg);
    airc_context_destroy(ctx);
}

static void test_clone_independence(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_config *cfg = new_cfg(ctx);
    AIRC_ASSERT_OK(airc_config_set(cfg, "mode", "max-autotune"));
    AIRC_ASSERT_OK(airc_config_set(cfg, "debug.graph_dump.path", "/tmp/a"));
    AIRC_ASSERT_OK(airc_config_set(cfg, "ge_config.optimization_switch", "X:on"));
    AIRC_ASSERT_OK(airc_config_set_int(cfg, "debug.aclgraph.static_capture_size_limit", 3));

    airc_config *copy = NULL;
    AIRC_ASSERT_OK(airc_config_clone(cfg, &copy));
    assert_ptr_not_equal(copy, cfg);
    assert_get(copy, "mode", "max-autotune");
    assert_get(copy, "debug.graph_dump.path", "/tmp/a");
    assert_get(copy, "ge_config.optimization_switch", "X:on");
    assert_get(copy, "debug.aclgraph.static_capture_size_limit", "3");
    assert_int_equal(airc_config_is_set(copy, "mode"), 1);
    assert_int_equal(airc_config_is_set(copy, "device"), 0);

    /* changes to one never show in the other */
    AIRC_ASSERT_OK(airc_config_set(cfg, "debug.graph_dump.path", "/tmp/b"));
    AIRC_ASSERT_OK(airc_config_set(copy, "ge_config.optimization_switch", "Y:off"));
    AIRC_ASSERT_OK(airc_config_set(cfg, "mode", NULL));
    assert_get(copy, "debug.graph_dump.path", "/tmp/a");
    assert_get(cfg, "ge_config.optimization_switch", "X:on");
    assert_get(copy, "mode", "max-autotune");

    /* the copy outlives the original and the caller's context handle */
    airc_config_destroy(cfg);
    airc_context_destroy(ctx);
    assert_get(copy, "debug.graph_dump.path", "/tmp/a");
    AIRC_ASSERT_OK(airc_config_set(copy, "debug.data_dump.filter", "mm*"));
    assert_get(copy, "debug.data_dump.filter", "mm*");
    airc_config_destroy(copy);
}

static void test_failing_allocator(void **state)
{
    (void)state;
    airc_test_alloc st;
    airc_allocator a;
    airc_test_alloc_init(&st, &a);
    airc_context *ctx = NULL;
    AIRC_ASSERT_OK(airc_context_create(&a, &ctx));
    long base = st.live;

    /* create */
    size_t failures = 0;
    for (size_t k = 1; k < 100; k++) {
        st.fail_at = st.count + k;
        airc_config *cfg = NULL;
        airc_status s = airc_config_create(ctx, &cfg);
        st.fail_at = 0;
        if (s == AIRC_OK) {
            airc_config_destroy(cfg);
            break;
        }
        assert_int_equal(s, AIRC_E_OUT_OF_MEMORY);
        assert_null(cfg);
        assert_int_equal(st.live, base);
        failures++;
    }
    assert_true(failures >= 2);

    /* set of a string: on failure the old value stays */
    airc_config *cfg = NULL;
    AIRC_ASSERT_OK(airc_config_create(ctx, &cfg));
    AIRC_ASSERT_OK(airc_config_set(cfg, "debug.graph_dump.path", "old"));
    long live = st.live;
    st.fail_at = st.count + 1;
    AIRC_EXPECT(airc_config_set(cfg, "debug.graph_dump.path", "new"), AIRC_E_OUT_OF_MEMORY, NULL);
    st.fail_at = 0;
    assert_int_equal(st.live, live);
    assert_get(cfg, "debug.graph_dump.path", "old");
    AIRC_ASSERT_OK(airc_config_set(cfg, "ge_config.aicore_num", "8"));

    /* clone */
    failures = 0;
    live = st.live;
    for (size_t k = 1; k < 100; k++) {
        st.fail_at = st.count + k;
        airc_config *copy = NULL;
        airc_status s = airc_config_clone(cfg, &copy);
        st.fail_at = 0;
        if (s == AIRC_OK) {
            assert_get(copy, "ge_config.aicore_num", "8");
            airc_config_destroy(copy);
            assert_int_equal(st.live, live);
            break;
        }
        assert_int_equal(s, AIRC_E_OUT_OF_MEMORY);
        assert_null(copy);
        assert_int_equal(st.live, live);
        failures++;
    }
    assert_true(failures >= 4); /* struct, slots, two strings */
    airc_config_destroy(cfg);
    assert_int_equal(st.live, base);
    airc_context_destroy(ctx);
    assert_int_equal(st.live, 0);
}

static void test_misuse(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_config *cfg = (airc_config *)0x1;
    const char *v = NULL;
    int32_t b;
    int64_t n;
    AIRC_EXPECT(airc_config_create(NULL, &cfg), AIRC_E_MISUSE, "airc_config_create");
    AIRC_EXPECT(airc_config_create(ctx, NULL), AIRC_E_INVALID_ARGUMENT, NULL);
    assert_ptr_equal(cfg, (airc_config *)0x1);
    AIRC_EXPECT(airc_config_clone(NULL, &cfg), AIRC_E_MISUSE, "airc_config_clone");
    AIRC_EXPECT(airc_config_set(NULL, "mode", "eager"), AIRC_E_MISUSE, "airc_config_set");
    AIRC_EXPECT(airc_config_get(NULL, "mode", &v), AIRC_E_MISUSE, "airc_config_get");
    AIRC_EXPECT(airc_config_set_bool(NULL, "passes.dce", 1), AIRC_E_MISUSE, NULL);
    AIRC_EXPECT(airc_config_get_bool(NULL, "passes.dce", &b), AIRC_E_MISUSE, NULL);
    AIRC_EXPECT(airc_config_set_int(NULL, "debug.aclgraph.static_capture_size_limit", 2),
                AIRC_E_MISUSE, NULL);
    AIRC_EXPECT(airc_config_get_int(NULL, "debug.aclgraph.static_capture_size_limit", &n),
                AIRC_E_MISUSE, NULL);
    /* a handle of another kind is refused by its magic */
    AIRC_EXPECT(airc_config_set((airc_config *)ctx, "mode", "eager"), AIRC_E_MISUSE,
                "not a live airc_config");
    assert_int_equal(airc_config_is_set(NULL, "mode"), 0);
    assert_int_equal(airc_config_num_keys(NULL), 0);
    assert_null(airc_config_key(NULL, 0));
    airc_config_destroy(NULL);

    cfg = new_cfg(ctx);
    airc_config *copy = (airc_config *)0x1;
    AIRC_EXPECT(airc_config_clone(cfg, NULL), AIRC_E_INVALID_ARGUMENT, NULL);
    assert_ptr_equal(copy, (airc_config *)0x1);
    airc_config_destroy(cfg);
    airc_context_destroy(ctx);
}

/* ---- internal accessors ---------------------------------------------------- */

static void capture_log(void *user, int32_t level, const char *msg)
{
    (void)level;
    snprintf(user, 1024, "%s", msg);
}

static void test_internal_accessors(void **state)
{
    (void)state;
    /* no config: the defaults */
    assert_string_equal(airc_config_get_str(NULL, "mode"), "reduce-overhead");
    assert_string_equal(airc_config_get_str(NULL, "debug.aclgraph.static_capture_size_limit"),
                        "64");
    assert_string_equal(airc_config_get_str(NULL, "debug.graph_dump.type"), "");
    assert_string_equal(airc_config_get_str(NULL, "no.such.key"), "");
    assert_true(airc_config_flag(NULL, "debug.aclgraph.clone_input"));
    assert_false(airc_config_flag(NULL, "debug.run_eagerly"));
    assert_false(airc_config_flag(NULL, "ge_config.oo_constant_folding"));
    assert_false(airc_config_flag(NULL, "mode"));
    assert_false(airc_config_flag(NULL, "no.such.key"));
    assert_int_equal(airc_config_int(NULL, "debug.aclgraph.static_capture_size_limit"), 64);
    assert_int_equal(airc_config_int(NULL, "passes.dce"), 0);
    assert_int_equal(airc_config_int(NULL, "no.such.key"), 0);
    assert_true(airc_config_has_value(NULL, "mode"));
    assert_false(airc_config_has_value(NULL, "debug.graph_dump.type"));
    assert_false(airc_config_has_value(NULL, "no.such.key"));
    assert_int_equal(airc_config_mode(NULL), AIRC_CFG_MODE_REDUCE_OVERHEAD);
    assert_null(airc_config_context(NULL));

    airc_context *ctx = new_ctx();
    char logged[1024] = "";
    AIRC_ASSERT_OK(airc_context_set_log(ctx, capture_log, logged, NULL));
    airc_config *cfg = new_cfg(ctx);
    assert_ptr_equal(airc_config_context(cfg), ctx);
    AIRC_ASSERT_OK(airc_config_set(cfg, "debug.run_eagerly", "True"));
    AIRC_ASSERT_OK(airc_config_set(cfg, "experimental_config.static_model_ops_lower_limit", "5"));
    AIRC_ASSERT_OK(airc_config_set(cfg, "debug.graph_dump.type", "pbtxt"));
    assert_true(airc_config_flag(cfg, "debug.run_eagerly"));
    assert_int_equal(airc_config_int(cfg, "experimental_config.static_model_ops_lower_limit"), 5);
    assert_string_equal(airc_config_get_str(cfg, "debug.graph_dump.type"), "pbtxt");
    assert_true(airc_config_has_value(cfg, "debug.graph_dump.type"));

    /* options that take no effect in the mode: one warning naming them */
    AIRC_ASSERT_OK(airc_config_set(cfg, "ge_config.oo_level", "O1"));
    AIRC_ASSERT_OK(airc_config_set(cfg, "debug.aclgraph.clone_input", "0"));
    assert_int_equal(airc_config_warn_mode(cfg), 2); /* static_model_ops_lower_limit, oo_level */
    assert_non_null(strstr(logged, "reduce-overhead"));
    assert_non_null(strstr(logged, "ge_config.oo_level=O1"));
    assert_non_null(strstr(logged, "experimental_config.static_model_ops_lower_limit=5"));
    AIRC_ASSERT_OK(airc_config_set(cfg, "mode", "max-autotune"));
    assert_int_equal(airc_config_mode(cfg), AIRC_CFG_MODE_MAX_AUTOTUNE);
    logged[0] = '\0';
    assert_int_equal(airc_config_warn_mode(cfg), 1);
    assert_non_null(strstr(logged, "debug.aclgraph.clone_input=0"));
    AIRC_ASSERT_OK(airc_config_set(cfg, "mode", "eager"));
    assert_int_equal(airc_config_mode(cfg), AIRC_CFG_MODE_EAGER);
    AIRC_ASSERT_OK(airc_config_set(cfg, "mode", "reduce-overhead"));
    AIRC_ASSERT_OK(airc_config_set(cfg, "ge_config.oo_level", NULL));
    AIRC_ASSERT_OK(airc_config_set(cfg, "experimental_config.static_model_ops_lower_limit", NULL));
    logged[0] = '\0';
    assert_int_equal(airc_config_warn_mode(cfg), 0);
    assert_string_equal(logged, "");

    /* table sanity: defaults parse as their own type, enums list their default */
    for (size_t i = 0; i < airc_config_num_options(); i++) {
        const airc_config_option *o = airc_config_option_at(i);
        size_t idx = SIZE_MAX;
        assert_ptr_equal(airc_config_find_option(o->key, &idx), o);
        assert_int_equal(idx, i);
        assert_non_null(o->doc);
        assert_true(o->modes != 0);
        if (o->def)
            AIRC_ASSERT_OK(airc_config_set(cfg, o->key, o->def));
    }
    assert_null(airc_config_option_at(airc_config_num_options()));
    assert_null(airc_config_find_option("nope", NULL));
    airc_config_destroy(cfg);
    airc_context_destroy(ctx);
}

/* docs/config.md has a row per option whose default column matches. */
/* airc_compile logs that warning once for the config it is given (and
 * none when every set option applies to the mode). */
static void test_compile_warns_mode(void **state)
{
    (void)state;
    airc_context *ctx = NULL;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    char logged[1024] = "";
    AIRC_ASSERT_OK(airc_context_set_log(ctx, capture_log, logged, NULL));
    airc_graph *g = airc_test_parse(ctx, "graph():\n"
                                         "    %x : f32[2] [#users=1] = placeholder[target=x]\n"
                                         "    %relu : [#users=1] = call_function[target=torch.ops."
                                         "aten.relu.default](args = (%x,), kwargs = {})\n"
                                         "    return relu\n");
    airc_config *cfg = new_cfg(ctx);
    AIRC_ASSERT_OK(airc_config_set(cfg, "ge_config.oo_level", "O1"));
    airc_compile_options co;
    airc_compile_options_init(&co);
    co.config = cfg;
    airc_compiled *c = NULL;
    AIRC_ASSERT_OK(airc_compile(g, &co, &c));
    airc_compiled_destroy(c);
    assert_non_null(strstr(logged, "no effect in reduce-overhead mode: ge_config.oo_level=O1"));
    logged[0] = '\0';
    AIRC_ASSERT_OK(airc_config_set(cfg, "mode", "max-autotune"));
    AIRC_ASSERT_OK(airc_compile(g, &co, &c));
    airc_compiled_destroy(c);
    assert_string_equal(logged, "");
    airc_config_destroy(cfg);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

static void test_docs_in_step(void **state)
{
    (void)state;
    char *doc = airc_test_read_file(AIRC_SOURCE_DIR "/docs/config.md", NULL);
    assert_non_null(doc);
    for (size_t i = 0; i < airc_config_num_options(); i++) {
        const airc_config_option *o = airc_config_option_at(i);
        char row[256];
        snprintf(row, sizeof row, "\n| `%s` | ", o->key);
        char *at = strstr(doc, row);
        if (!at)
            print_error("docs/config.md lacks a row for %s\n", o->key);
        assert_non_null(at);
        /* columns: key | type | default | ... */
        char *type = at + strlen(row);
        char *def = strstr(type, " | ");
        assert_non_null(def);
        def += 3;
        char want[128];
        snprintf(want, sizeof want, o->def ? "`%s` |" : "unset |", o->def ? o->def : "");
        if (o->type == AIRC_CFG_BOOL && o->def)
            snprintf(want, sizeof want, "`%s` |", o->def[0] == '1' ? "true" : "false");
        if (strncmp(def, want, strlen(want)))
            print_error("docs/config.md: %s default should read %s\n", o->key, want);
        assert_int_equal(strncmp(def, want, strlen(want)), 0);
    }
    free(doc);
}

/* Options describe themselves: type, allowed values, range. */
static void test_key_info(void **state)
{
    (void)state;
    airc_context *ctx;
    airc_config *cfg;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    AIRC_ASSERT_OK(airc_config_create(ctx, &cfg));
    int32_t t = -1;
    AIRC_ASSERT_OK(airc_config_key_type(cfg, "mode", &t));
    assert_int_equal(t, AIRC_CONFIG_ENUM);
    bool have_eager = false;
    size_t n = 0;
    for (const char *v; (v = airc_config_key_allowed(cfg, "mode", n)); n++)
        have_eager |= !strcmp(v, "eager");
    assert_true(have_eager);
    assert_int_equal(n, 3);
    assert_null(airc_config_key_allowed(cfg, "debug.run_eagerly", 0));
    AIRC_ASSERT_OK(airc_config_key_type(cfg, "debug.run_eagerly", &t));
    assert_int_equal(t, AIRC_CONFIG_BOOL);
    AIRC_ASSERT_OK(airc_config_key_type(cfg, "debug.graph_dump.path", &t));
    assert_int_equal(t, AIRC_CONFIG_PATH);
    int64_t lo = 0, hi = 0;
    AIRC_ASSERT_OK(airc_config_key_range(cfg, "debug.aclgraph.static_capture_size_limit", &lo,
                                         &hi));
    assert_int_equal(lo, 1);
    assert_true(hi == INT64_MAX);
    AIRC_EXPECT(airc_config_key_range(cfg, "mode", &lo, &hi), AIRC_E_INVALID_ARGUMENT, "mode");
    AIRC_EXPECT(airc_config_key_type(cfg, "no.such.key", &t), AIRC_E_NOT_FOUND, "no.such.key");
    AIRC_EXPECT(airc_config_key_type(NULL, "mode", &t), AIRC_E_MISUSE, NULL);
    AIRC_EXPECT(airc_config_key_type(cfg, "mode", NULL), AIRC_E_INVALID_ARGUMENT, NULL);
    airc_config_destroy(cfg);
    airc_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_set_get_round_trip),
        cmocka_unit_test(test_validation),
        cmocka_unit_test(test_unknown_keys),
        cmocka_unit_test(test_clone_independence),
        cmocka_unit_test(test_failing_allocator),
        cmocka_unit_test(test_misuse),
        cmocka_unit_test(test_internal_accessors),
        cmocka_unit_test(test_compile_warns_mode),
        cmocka_unit_test(test_docs_in_step),
        cmocka_unit_test(test_key_info),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
