/* Context (allocator, logging) and the op registry: lookups in every
 * spelling, custom ops, meta replacement, listing, threads, failures. */
#include "testutil.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "airc/kernel.h"
#include "ops/ops.h"

static void test_builtin_table_sorted_and_parses(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    for (size_t i = 0; i < airc_num_builtin_ops; i++) {
        const airc_builtin_op *b = &airc_builtin_ops[i];
        if (i)
            assert_true(strcmp(airc_builtin_ops[i - 1].qualname, b->qualname) < 0);
        const airc_op *op;
        airc_status st = airc_context_find_op(ctx, b->qualname, &op);
        if (st != AIRC_OK)
            print_error("%s: %s\n", b->qualname, airc_last_error());
        assert_int_equal(st, AIRC_OK);
        assert_string_equal(airc_op_name(op), b->qualname);
        /* the qualname agrees with the schema's own ns/name/overload */
        const airc_schema *s = airc_op_schema(op);
        char buf[512];
        if (!strcmp(airc_schema_namespace(s), "operator"))
            snprintf(buf, sizeof buf, "operator.%s", airc_schema_name(s));
        else
            snprintf(buf, sizeof buf, "%s.%s.%s", airc_schema_namespace(s), airc_schema_name(s),
                     *airc_schema_overload(s) ? airc_schema_overload(s) : "default");
        assert_string_equal(buf, b->qualname);
        if (airc_schema_is_mutable(s))
            assert_true(airc_op_flags(op) & AIRC_OP_SIDE_EFFECT);
    }
    assert_int_equal(airc_context_num_ops(ctx), airc_num_builtin_ops);
    airc_context_destroy(ctx);
}

static void test_lookup_spellings(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    const airc_op *a, *b;
    AIRC_ASSERT_OK(airc_context_find_op(ctx, "aten.mm.default", &a));
    AIRC_ASSERT_OK(airc_context_find_op(ctx, "torch.ops.aten.mm.default", &b));
    assert_ptr_equal(a, b);
    AIRC_ASSERT_OK(airc_context_find_op(ctx, "aten::mm", &b));
    assert_ptr_equal(a, b);
    AIRC_ASSERT_OK(airc_context_find_op(ctx, "aten.mm", &b));
    assert_ptr_equal(a, b);
    AIRC_ASSERT_OK(airc_context_find_op(ctx, "aten::add.Tensor", &b));
    assert_string_equal(airc_op_name(b), "aten.add.Tensor");
    assert_string_equal(airc_op_target_string(b), "torch.ops.aten.add.Tensor");
    AIRC_ASSERT_OK(airc_context_find_op(ctx, "operator.getitem", &b));
    assert_string_equal(airc_op_target_string(b), "operator.getitem");
    AIRC_ASSERT_OK(airc_context_find_op(ctx, "air.scope_enter.default", &b));
    assert_true(airc_op_flags(b) & AIRC_OP_SIDE_EFFECT);
    AIRC_ASSERT_OK(airc_context_find_op(ctx, "aten.add_.Tensor", &b));
    assert_true(airc_op_flags(b) & AIRC_OP_SIDE_EFFECT);
    AIRC_ASSERT_OK(airc_context_find_op(ctx, "aten.add.Tensor", &b));
    assert_false(airc_op_flags(b) & AIRC_OP_SIDE_EFFECT);
    AIRC_EXPECT(airc_context_find_op(ctx, "aten.nope.default", &b), AIRC_E_NOT_FOUND,
                "aten.nope.default");
    AIRC_EXPECT(airc_context_find_op(ctx, "", &b), AIRC_E_NOT_FOUND, NULL);
    char *huge = malloc(100000);
    memset(huge, 'a', 99999);
    huge[99999] = 0;
    AIRC_EXPECT(airc_context_find_op(ctx, huge, &b), AIRC_E_NOT_FOUND, NULL);
    free(huge);
    AIRC_EXPECT(airc_context_find_op(NULL, "aten.mm", &b), AIRC_E_MISUSE, NULL);
    AIRC_EXPECT(airc_context_find_op(ctx, NULL, &b), AIRC_E_INVALID_ARGUMENT, NULL);
    airc_context_destroy(ctx);
}

static int frees;
static void count_free(void *ud)
{
    (void)ud;
    frees++;
}

static airc_status my_meta(airc_node *n, void *ud)
{
    (void)ud;
    return airc_node_set_meta(n, AIRC_DTYPE_F32, 0, NULL, NULL);
}

static void test_custom_ops(void **state)
{
    (void)state;
    airc_context *ctx, *other;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    AIRC_ASSERT_OK(airc_context_create(NULL, &other));
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = "demo::my_op(Tensor x, *, float scale=1.0) -> Tensor";
    def.meta = my_meta;
    def.meta_free = count_free;
    const airc_op *op;
    frees = 0;
    AIRC_ASSERT_OK(airc_context_register_op(ctx, &def, &op));
    assert_string_equal(airc_op_name(op), "demo.my_op.default");
    assert_string_equal(airc_op_target_string(op), "torch.ops.demo.my_op.default");
    assert_true(airc_op_has_meta(op));
    /* one context's ops are invisible to another */
    const airc_op *found;
    AIRC_EXPECT(airc_context_find_op(other, "demo.my_op.default", &found), AIRC_E_NOT_FOUND,
                NULL);
    AIRC_ASSERT_OK(airc_context_find_op(ctx, "torch.ops.demo.my_op.default", &found));
    assert_ptr_equal(found, op);
    /* duplicates, built-in names, bad schemas: clear errors, meta_free not called */
    AIRC_EXPECT(airc_context_register_op(ctx, &def, NULL), AIRC_E_EXISTS, "demo.my_op.default");
    def.schema = "aten::mm(Tensor self, Tensor mat2) -> Tensor";
    AIRC_EXPECT(airc_context_register_op(ctx, &def, NULL), AIRC_E_EXISTS, "aten.mm.default");
    def.schema = "demo::broken(Tensor x -> Tensor";
    AIRC_EXPECT(airc_context_register_op(ctx, &def, NULL), AIRC_E_PARSE, NULL);
    def.schema = "nonamespace(Tensor x) -> Tensor";
    AIRC_EXPECT(airc_context_register_op(ctx, &def, NULL), AIRC_E_INVALID_ARGUMENT, "namespace");
    def.schema = NULL;
    AIRC_EXPECT(airc_context_register_op(ctx, &def, NULL), AIRC_E_INVALID_ARGUMENT, "schema");
    def.schema = "demo::x(Tensor x) -> Tensor";
    def.flags = 0x80;
    AIRC_EXPECT(airc_context_register_op(ctx, &def, NULL), AIRC_E_INVALID_ARGUMENT, "flags");
    def.struct_size = 3;
    AIRC_EXPECT(airc_context_register_op(ctx, &def, NULL), AIRC_E_INVALID_ARGUMENT, "struct_size");
    assert_int_equal(frees, 0);
    /* an in-place custom op is a side effect from its schema alone */
    airc_op_def_init(&def);
    def.schema = "demo::scale_(Tensor(a!) x, float s) -> ()";
    AIRC_ASSERT_OK(airc_context_register_op(ctx, &def, &op));
    assert_true(airc_op_flags(op) & AIRC_OP_SIDE_EFFECT);
    assert_int_equal(airc_context_num_ops(ctx), airc_num_builtin_ops + 2);
    assert_string_equal(airc_context_op_name(ctx, airc_num_builtin_ops + 1), "demo.scale_.default");
    assert_null(airc_context_op_name(ctx, airc_num_builtin_ops + 2));
    /* a replaced meta's user data lives until the context dies (another
     * thread may be running it), and is freed once */
    AIRC_ASSERT_OK(airc_context_set_op_meta(ctx, "demo.my_op.default", my_meta, NULL, NULL));
    AIRC_ASSERT_OK(airc_context_set_op_meta(ctx, "aten.mm.default", my_meta, NULL, count_free));
    AIRC_ASSERT_OK(airc_context_set_op_meta(ctx, "aten.mm.default", NULL, NULL, count_free));
    assert_false(airc_op_has_meta(airc_registry_lookup(ctx, "aten.mm.default")));
    AIRC_ASSERT_OK(airc_context_set_op_meta(ctx, "aten.mm.default", my_meta, NULL, NULL));
    assert_true(airc_op_has_meta(airc_registry_lookup(ctx, "aten.mm.default")));
    assert_int_equal(frees, 0);
    airc_context_destroy(ctx);
    assert_int_equal(frees, 3);
    airc_context_destroy(other);
}

typedef struct log_state {
    int calls;
    int32_t last_level;
    char last[256];
} log_state;

static void log_fn(void *ud, int32_t level, const char *msg)
{
    log_state *s = ud;
    s->calls++;
    s->last_level = level;
    snprintf(s->last, sizeof s->last, "%s", msg);
}

static void test_logging(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    log_state s = {0};
    frees = 0;
    AIRC_ASSERT_OK(airc_context_set_log(ctx, log_fn, &s, count_free));
    AIRC_ASSERT_OK(airc_context_set_log_level(ctx, AIRC_LOG_INFO));
    assert_int_equal(airc_context_log_level(ctx), AIRC_LOG_INFO);
    airc_log(ctx, AIRC_LOG_DEBUG, "hidden %d", 1);
    assert_int_equal(s.calls, 0);
    airc_log(ctx, AIRC_LOG_INFO, "shown %d", 2);
    assert_int_equal(s.calls, 1);
    assert_string_equal(s.last, "shown 2");
    /* long messages are not truncated */
    char big[2000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    airc_log(ctx, AIRC_LOG_ERROR, "%s", big);
    assert_int_equal(s.calls, 2);
    assert_int_equal(s.last_level, AIRC_LOG_ERROR);
    AIRC_EXPECT(airc_context_set_log_level(ctx, 9), AIRC_E_INVALID_ARGUMENT, "level");
    AIRC_ASSERT_OK(airc_context_set_log(ctx, NULL, NULL, NULL));
    assert_int_equal(frees, 1);
    airc_context_destroy(ctx);
}

typedef struct thread_arg {
    airc_context *ctx;
    int id;
    int ok;
} thread_arg;

static void *register_and_lookup(void *p)
{
    thread_arg *a = p;
    char schema[128];
    a->ok = 1;
    for (int i = 0; i < 50; i++) {
        snprintf(schema, sizeof schema, "t%d::op%d(Tensor x) -> Tensor", a->id, i);
        airc_op_def def;
        airc_op_def_init(&def);
        def.schema = schema;
        if (airc_context_register_op(a->ctx, &def, NULL) != AIRC_OK)
            a->ok = 0;
        const airc_op *op;
        if (airc_context_find_op(a->ctx, "aten.add.Tensor", &op) != AIRC_OK)
            a->ok = 0;
        if (airc_context_find_op(a->ctx, airc_builtin_ops[(size_t)i % airc_num_builtin_ops].qualname,
                                 &op) != AIRC_OK)
            a->ok = 0;
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    airc_context *ctx;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    pthread_t t[4];
    thread_arg args[4];
    for (int i = 0; i < 4; i++) {
        args[i] = (thread_arg){ctx, i, 0};
        pthread_create(&t[i], NULL, register_and_lookup, &args[i]);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        assert_true(args[i].ok);
    }
    assert_int_equal(airc_context_num_ops(ctx), airc_num_builtin_ops + 200);
    airc_context_destroy(ctx);
}

static airc_status noop_kernel(airc_kernel_ctx *k, void *user_data)
{
    (void)k;
    (void)user_data;
    return AIRC_OK;
}

static void test_failing_allocator(void **state)
{
    (void)state;
    for (size_t fail_at = 1;; fail_at++) {
        airc_test_alloc ta;
        airc_allocator a;
        airc_test_alloc_init(&ta, &a);
        ta.fail_at = fail_at;
        airc_context *ctx = NULL;
        airc_status st = airc_context_create(&a, &ctx);
        const airc_op *op = NULL;
        if (st == AIRC_OK)
            st = airc_context_find_op(ctx, "aten.native_layer_norm.default", &op);
        if (st == AIRC_E_NOT_FOUND) /* materializing a built-in hit the failure */
            st = AIRC_E_OUT_OF_MEMORY;
        /* each call either takes its user_data (freed once, when ctx
         * dies) or fails with it still the caller's */
        int taken = 0;
        frees = 0;
        if (st == AIRC_OK) {
            airc_op_def def;
            airc_op_def_init(&def);
            def.schema = "demo::f(Tensor x, int[2] k=1, *, str mode='a') -> (Tensor, Tensor)";
            def.meta_free = count_free;
            st = airc_context_register_op(ctx, &def, &op);
            taken += st == AIRC_OK;
        }
        for (int i = 0; st == AIRC_OK && i < 4; i++) { /* set, then replace, each twice */
            st = i < 2 ? airc_context_set_op_meta(ctx, "demo.f.default", my_meta, NULL, count_free)
                       : airc_context_set_op_kernel(ctx, "demo.f.default", "cpu", noop_kernel, NULL,
                                                    count_free);
            taken += st == AIRC_OK;
        }
        if (st != AIRC_OK)
            assert_int_equal(st, AIRC_E_OUT_OF_MEMORY);
        assert_int_equal(frees, 0);
        airc_context_destroy(ctx);
        assert_int_equal(frees, taken);
        assert_int_equal(ta.live, 0);
        if (ta.failures == 0)
            break;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_table_sorted_and_parses),
        cmocka_unit_test(test_lookup_spellings),
        cmocka_unit_test(test_custom_ops),
        cmocka_unit_test(test_logging),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_failing_allocator),
    };
    return cmocka_run_group_tests_name("registry", tests, NULL, NULL);
}
