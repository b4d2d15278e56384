/* Plugins: airc_context_load_plugin with the test plugins built by CMake
 * (tests/plugins/), and the plugin's lifetime tied to its context's. */
#include "airc/plugin.h"
#include "testutil.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLUGIN AIRC_BINARY_DIR "/lib/libairc_test_plugin.so"
#define PLUGIN_BADABI AIRC_BINARY_DIR "/lib/libairc_test_plugin_badabi.so"

static const char *const graph_text =
    "graph():\n"
    "    %x : [#users=1] = placeholder[target=x]\n"
    "    %twice : [#users=1] = call_function[target=torch.ops.test_plugin.twice.default]"
    "(args = (%x,), kwargs = {})\n"
    "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default]"
    "(args = (%twice,), kwargs = {})\n"
    "    return relu";

/* twice(x) lowered to x + x: the new node takes the op's name ("add"), goes
 * where twice was, and relu now reads it. x has one user (torch.fx counts
 * users as a set: add(x, x) is one). */
static const char *const lowered_text =
    "graph():\n"
    "    %x : [#users=1] = placeholder[target=x]\n"
    "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor]"
    "(args = (%x, %x), kwargs = {})\n"
    "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default]"
    "(args = (%add,), kwargs = {})\n"
    "    return relu";

/* airc_context_find_op's status for name (its out pointer is required). */
static airc_status find_op(airc_context *ctx, const char *name)
{
    const airc_op *op;
    return airc_context_find_op(ctx, name, &op);
}

static void test_load_registers_op_and_pass(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    /* before loading, the op is unknown */
    assert_int_equal(find_op(ctx, "test_plugin.twice.default"),
                     AIRC_E_NOT_FOUND);
    assert_int_equal(airc_context_num_plugins(ctx), 0);
    AIRC_ASSERT_OK(airc_context_load_plugin(ctx, PLUGIN));
    const airc_op *op = NULL;
    AIRC_ASSERT_OK(airc_context_find_op(ctx, "test_plugin.twice.default", &op));
    assert_string_equal(airc_op_target_string(op), "torch.ops.test_plugin.twice.default");
    airc_pass_fn fn = NULL;
    AIRC_ASSERT_OK(airc_context_find_pass(ctx, "test_plugin.lower_twice", &fn, NULL));
    assert_non_null(fn);
    assert_int_equal(airc_context_num_plugins(ctx), 1);
    assert_string_equal(airc_context_plugin_path(ctx, 0), PLUGIN);
    assert_null(airc_context_plugin_path(ctx, 1));

    /* the plugin's pass, by name, through a pass manager */
    airc_graph *g = airc_test_parse(ctx, graph_text);
    airc_pass_manager *pm;
    AIRC_ASSERT_OK(airc_pass_manager_create(ctx, &pm));
    AIRC_ASSERT_OK(airc_pass_manager_add_named_pass(pm, "test_plugin.lower_twice"));
    int32_t changed = 0;
    AIRC_ASSERT_OK(airc_pass_manager_run(pm, g, NULL, NULL, &changed));
    assert_int_equal(changed, 1);
    char *text = airc_test_print(g, AIRC_PRINT_DEFAULT);
    assert_string_equal(text, lowered_text);
    free(text);
    airc_pass_manager_destroy(pm);
    airc_graph_destroy(g);
    airc_context_destroy(ctx);
}

static void test_double_load_is_exists(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    AIRC_ASSERT_OK(airc_context_load_plugin(ctx, PLUGIN));
    AIRC_EXPECT(airc_context_load_plugin(ctx, PLUGIN), AIRC_E_EXISTS, "already loaded");
    /* another path to the same file is the same library */
    AIRC_EXPECT(airc_context_load_plugin(ctx, AIRC_BINARY_DIR "/lib/../lib/libairc_test_plugin.so"),
                AIRC_E_EXISTS, PLUGIN);
    assert_int_equal(airc_context_num_plugins(ctx), 1);
    /* still usable after the refused loads (the refusals dropped only their
     * own dlopen references) */
    airc_graph *g = airc_test_parse(ctx, graph_text);
    airc_graph_destroy(g);

    /* a second context loads it on its own, and runs its init again */
    airc_context *ctx2;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx2));
    assert_int_equal(find_op(ctx2, "test_plugin.twice.default"),
                     AIRC_E_NOT_FOUND);
    AIRC_ASSERT_OK(airc_context_load_plugin(ctx2, PLUGIN));
    AIRC_ASSERT_OK(find_op(ctx2, "test_plugin.twice.default"));
    airc_context_destroy(ctx);
    /* ctx's death does not unload ctx2's reference */
    g = airc_test_parse(ctx2, graph_text);
    airc_pass_manager *pm;
    AIRC_ASSERT_OK(airc_pass_manager_create(ctx2, &pm));
    AIRC_ASSERT_OK(airc_pass_manager_add_named_pass(pm, "test_plugin.lower_twice"));
    AIRC_ASSERT_OK(airc_pass_manager_run(pm, g, NULL, NULL, NULL));
    airc_pass_manager_destroy(pm);
    airc_graph_destroy(g);
    airc_context_destroy(ctx2);
}

static void test_load_errors(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    AIRC_EXPECT(airc_context_load_plugin(ctx, AIRC_BINARY_DIR "/lib/no_such_plugin.so"),
                AIRC_E_IO, "no_such_plugin.so");
    AIRC_EXPECT(airc_context_load_plugin(ctx, AIRC_BINARY_DIR "/lib/no_such_plugin.so"),
                AIRC_E_IO, "No such file");
    /* a shared library that is not an airc plugin */
    AIRC_EXPECT(airc_context_load_plugin(ctx, "libm.so.6"), AIRC_E_NOT_FOUND,
                "does not export airc_plugin_abi_version");
    /* wrong plugin ABI version: both versions named, init never called */
    AIRC_EXPECT(airc_context_load_plugin(ctx, PLUGIN_BADABI), AIRC_E_UNSUPPORTED,
                "built for airc plugin ABI version 42");
    AIRC_EXPECT(airc_context_load_plugin(ctx, PLUGIN_BADABI), AIRC_E_UNSUPPORTED,
                "implements plugin ABI version 1");
    assert_int_equal(
        find_op(ctx, "test_plugin_badabi.should_not_exist.default"),
        AIRC_E_NOT_FOUND);
    assert_int_equal(airc_context_num_plugins(ctx), 0);
    AIRC_EXPECT(airc_context_load_plugin(NULL, PLUGIN), AIRC_E_MISUSE, NULL);
    AIRC_EXPECT(airc_context_load_plugin(ctx, NULL), AIRC_E_INVALID_ARGUMENT, NULL);
    AIRC_EXPECT(airc_context_load_plugin(ctx, ""), AIRC_E_INVALID_ARGUMENT, NULL);
    assert_int_equal(airc_context_num_plugins(NULL), 0);
    assert_null(airc_context_plugin_path(NULL, 0));
    airc_context_destroy(ctx);
}

/* init fails when its op is already registered: the status is init's, the
 * message names the plugin, and the library stays loaded (a second load is
 * refused as a duplicate). */
static void test_init_failure(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = "test_plugin::twice(Tensor self) -> Tensor";
    AIRC_ASSERT_OK(airc_context_register_op(ctx, &def, NULL));
    AIRC_EXPECT(airc_context_load_plugin(ctx, PLUGIN), AIRC_E_EXISTS,
                "airc_plugin_init failed");
    AIRC_EXPECT(airc_context_load_plugin(ctx, PLUGIN), AIRC_E_EXISTS, "already loaded");
    assert_int_equal(airc_context_num_plugins(ctx), 1);
    /* nothing past the failing registration happened */
    assert_int_equal(airc_context_find_pass(ctx, "test_plugin.lower_twice", NULL, NULL),
                     AIRC_E_NOT_FOUND);
    airc_context_destroy(ctx);
}

/* The library stays loaded while a graph keeps the context alive: the op's
 * meta function (plugin code) still runs after airc_context_destroy. */
static void test_lifetime_follows_context(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    AIRC_ASSERT_OK(airc_context_load_plugin(ctx, PLUGIN));
    airc_graph *g = airc_test_parse(ctx, graph_text);
    airc_context_destroy(ctx);
    airc_node *x = airc_graph_find_node(g, "x");
    const int64_t shape[2] = {2, 3};
    AIRC_ASSERT_OK(airc_node_set_meta(x, AIRC_DTYPE_F32, 2, shape, NULL));
    AIRC_ASSERT_OK(airc_graph_propagate_meta(g));
    airc_dtype dtype;
    int32_t ndim;
    const int64_t *s;
    AIRC_ASSERT_OK(airc_node_output_meta(airc_graph_find_node(g, "twice"), 0, &dtype, &ndim, &s,
                                         NULL));
    assert_int_equal(dtype, AIRC_DTYPE_F32);
    assert_int_equal(ndim, 2);
    assert_int_equal(s[0], 2);
    assert_int_equal(s[1], 3);
    airc_graph_destroy(g); /* the context dies here, and unloads the plugin */
}

/* Every allocation failure is reported as out of memory (or, inside init,
 * as init's failure) and nothing leaks. */
static void test_out_of_memory(void **state)
{
    (void)state;
    bool succeeded = false;
    for (size_t fail_at = 1; fail_at < 10000 && !succeeded; fail_at++) {
        airc_test_alloc counter = {0};
        airc_allocator a;
        airc_test_alloc_init(&counter, &a);
        airc_context *ctx;
        if (airc_context_create(&a, &ctx) != AIRC_OK)
            continue; /* failed before the plugin could be loaded */
        counter.fail_at = counter.count + fail_at;
        airc_status st = airc_context_load_plugin(ctx, PLUGIN);
        if (st == AIRC_OK) {
            succeeded = true;
            AIRC_ASSERT_OK(find_op(ctx, "test_plugin.twice.default"));
        } else {
            assert_int_equal(st, AIRC_E_OUT_OF_MEMORY);
        }
        airc_context_destroy(ctx);
        assert_int_equal(counter.live, 0);
    }
    assert_true(succeeded);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_registers_op_and_pass),
        cmocka_unit_test(test_double_load_is_exists),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_init_failure),
        cmocka_unit_test(test_lifetime_follows_context),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
