/* Schema language: parsing, printing (PyTorch's str(schema) form),
 * accessors, errors, allocation failure, and argument checking of nodes.
 * Expected texts come from PyTorch 1.13 (str(torch.ops.aten.X._schema),
 * torch._C.parse_schema) unless a comment says otherwise. */
#include "testutil.h"

#include "ops/ops.h"

#include <dirent.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static airc_context *new_ctx(void)
{
    airc_context *ctx = NULL;
    AIRC_ASSERT_OK(airc_context_create(NULL, &ctx));
    return ctx;
}

static airc_schema *parse_ok(airc_context *ctx, const char *text)
{
    airc_schema *s = NULL;
    AIRC_ASSERT_OK(airc_schema_parse(ctx, text, &s));
    assert_non_null(s);
    return s;
}

static void assert_prints(const airc_schema *s, const char *want)
{
    char *text = NULL;
    AIRC_ASSERT_OK(airc_schema_to_string(s, &text));
    if (strcmp(text, want) != 0)
        print_error("printed: %s\nwanted:  %s\n", text, want);
    assert_string_equal(text, want);
    airc_string_free(text);
}

/* Parses `text` and checks that it prints as `want`. */
static void roundtrip(airc_context *ctx, const char *text, const char *want)
{
    airc_schema *s = parse_ok(ctx, text);
    assert_prints(s, want);
    airc_schema_destroy(s);
}

/* Everything the accessors expose must match between a and b. */
static void assert_same_schema(const airc_schema *a, const airc_schema *b)
{
    assert_string_equal(airc_schema_namespace(a), airc_schema_namespace(b));
    assert_string_equal(airc_schema_name(a), airc_schema_name(b));
    assert_string_equal(airc_schema_overload(a), airc_schema_overload(b));
    assert_int_equal(airc_schema_num_args(a), airc_schema_num_args(b));
    assert_int_equal(airc_schema_num_returns(a), airc_schema_num_returns(b));
    assert_int_equal(airc_schema_is_mutable(a), airc_schema_is_mutable(b));
    for (size_t i = 0; i < airc_schema_num_args(a); i++) {
        assert_string_equal(airc_schema_arg_name(a, i), airc_schema_arg_name(b, i));
        assert_int_equal(airc_schema_arg_type(a, i), airc_schema_arg_type(b, i));
        assert_string_equal(airc_schema_arg_type_string(a, i), airc_schema_arg_type_string(b, i));
        assert_int_equal(airc_schema_arg_is_optional(a, i), airc_schema_arg_is_optional(b, i));
        assert_int_equal(airc_schema_arg_is_list(a, i), airc_schema_arg_is_list(b, i));
        assert_int_equal(airc_schema_arg_list_size(a, i), airc_schema_arg_list_size(b, i));
        assert_int_equal(airc_schema_arg_is_kwarg_only(a, i), airc_schema_arg_is_kwarg_only(b, i));
        assert_int_equal(airc_schema_arg_is_write(a, i), airc_schema_arg_is_write(b, i));
        const char *x = airc_schema_arg_alias(a, i), *y = airc_schema_arg_alias(b, i);
        assert_true((x == NULL) == (y == NULL));
        if (x)
            assert_string_equal(x, y);
        const airc_value *da = airc_schema_arg_default(a, i), *db = airc_schema_arg_default(b, i);
        assert_true((da == NULL) == (db == NULL));
        if (da)
            assert_true(airc_value_equal(da, db));
    }
    for (size_t i = 0; i < airc_schema_num_returns(a); i++) {
        assert_string_equal(airc_schema_return_name(a, i), airc_schema_return_name(b, i));
        assert_int_equal(airc_schema_return_type(a, i), airc_schema_return_type(b, i));
        assert_string_equal(airc_schema_return_type_string(a, i),
                            airc_schema_return_type_string(b, i));
        assert_int_equal(airc_schema_return_is_write(a, i), airc_schema_return_is_write(b, i));
    }
}

/* ---- every schema torch 1.13 knows ------------------------------------- */

static void test_torch_schemas_roundtrip(void **state)
{
    (void)state;
    size_t len;
    char *data = airc_test_read_file(AIRC_TEST_DATA "/aten_schemas.txt", &len);
    assert_non_null(data);
    airc_context *ctx = new_ctx();
    size_t count = 0, bad = 0;
    for (char *line = data; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        if (*line && *line != '#') {
            count++;
            airc_schema *s = NULL, *again = NULL;
            char *text = NULL, *text2 = NULL;
            if (airc_schema_parse(ctx, line, &s) != AIRC_OK) {
                print_error("cannot parse: %s\n  %s\n", line, airc_last_error());
                bad++;
            } else {
                AIRC_ASSERT_OK(airc_schema_to_string(s, &text));
                if (strcmp(text, line) != 0) {
                    print_error("torch:  %s\nairc:   %s\n", line, text);
                    bad++;
                }
                /* the printed form reads back to the same schema */
                AIRC_ASSERT_OK(airc_schema_parse(ctx, text, &again));
                assert_same_schema(s, again);
                AIRC_ASSERT_OK(airc_schema_to_string(again, &text2));
                assert_string_equal(text, text2);
            }
            airc_string_free(text);
            airc_string_free(text2);
            airc_schema_destroy(again);
            airc_schema_destroy(s);
        }
        line = nl ? nl + 1 : NULL;
    }
    assert_int_equal(bad, 0);
    assert_true(count > 4000); /* torch 1.13 has 4165 */
    airc_context_destroy(ctx);
    free(data);
}

/* The built-in ops' schemas print back as their table text. */
static void test_builtin_schemas_print(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    for (size_t i = 0; i < airc_num_builtin_ops; i++) {
        const airc_op *op = NULL;
        AIRC_ASSERT_OK(airc_context_find_op(ctx, airc_builtin_ops[i].qualname, &op));
        assert_prints(airc_op_schema(op), airc_builtin_ops[i].schema);
    }
    const airc_op *op = NULL;
    AIRC_ASSERT_OK(airc_context_find_op(ctx, "aten.add.Tensor", &op));
    assert_prints(airc_op_schema(op),
                  "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
    airc_context_destroy(ctx);
}

/* ---- accessors --------------------------------------------------------- */

static void test_add_tensor(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_schema *s =
        parse_ok(ctx, "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
    assert_string_equal(airc_schema_namespace(s), "aten");
    assert_string_equal(airc_schema_name(s), "add");
    assert_string_equal(airc_schema_overload(s), "Tensor");
    assert_int_equal(airc_schema_num_args(s), 3);
    assert_int_equal(airc_schema_num_returns(s), 1);
    assert_string_equal(airc_schema_arg_name(s, 0), "self");
    assert_string_equal(airc_schema_arg_name(s, 1), "other");
    assert_string_equal(airc_schema_arg_name(s, 2), "alpha");
    assert_int_equal(airc_schema_arg_type(s, 0), AIRC_TYPE_TENSOR);
    assert_int_equal(airc_schema_arg_type(s, 2), AIRC_TYPE_SCALAR);
    assert_string_equal(airc_schema_arg_type_string(s, 2), "Scalar");
    assert_int_equal(airc_schema_arg_is_kwarg_only(s, 1), 0);
    assert_int_equal(airc_schema_arg_is_kwarg_only(s, 2), 1);
    assert_null(airc_schema_arg_default(s, 0));
    const airc_value *d = airc_schema_arg_default(s, 2);
    assert_int_equal(airc_value_get_kind(d), AIRC_VALUE_INT);
    int64_t iv = 0;
    AIRC_ASSERT_OK(airc_value_get_int(d, &iv));
    assert_int_equal(iv, 1);
    assert_null(airc_schema_arg_alias(s, 0));
    assert_int_equal(airc_schema_arg_is_write(s, 0), 0);
    assert_int_equal(airc_schema_return_type(s, 0), AIRC_TYPE_TENSOR);
    assert_string_equal(airc_schema_return_name(s, 0), "");
    assert_string_equal(airc_schema_return_type_string(s, 0), "Tensor");
    assert_int_equal(airc_schema_is_mutable(s), 0);
    airc_schema_destroy(s);
    airc_context_destroy(ctx);
}

static void test_alias_annotations(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_schema *s = parse_ok(
        ctx, "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
    assert_string_equal(airc_schema_arg_alias(s, 0), "a");
    assert_int_equal(airc_schema_arg_is_write(s, 0), 1);
    assert_string_equal(airc_schema_arg_type_string(s, 0), "Tensor(a!)");
    assert_int_equal(airc_schema_arg_type(s, 0), AIRC_TYPE_TENSOR);
    assert_string_equal(airc_schema_return_alias(s, 0), "a");
    assert_int_equal(airc_schema_return_is_write(s, 0), 1);
    assert_int_equal(airc_schema_is_mutable(s), 1);
    airc_schema_destroy(s);

    /* a view: aliased, not written */
    s = parse_ok(ctx, "aten::split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> "
                      "Tensor(a)[]");
    assert_string_equal(airc_schema_arg_alias(s, 0), "a");
    assert_int_equal(airc_schema_arg_is_write(s, 0), 0);
    assert_string_equal(airc_schema_arg_type_string(s, 0), "Tensor(a -> *)");
    assert_string_equal(airc_schema_return_type_string(s, 0), "Tensor(a)[]");
    assert_string_equal(airc_schema_return_alias(s, 0), "a");
    assert_int_equal(airc_schema_return_type(s, 0), AIRC_TYPE_TENSOR);
    assert_int_equal(airc_schema_is_mutable(s), 0);
    airc_schema_destroy(s);

    /* out= variant: kwarg-only written outputs, named returns */
    s = parse_ok(ctx, "aten::max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) "
                      "max, Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)");
    assert_int_equal(airc_schema_num_args(s), 5);
    assert_int_equal(airc_schema_arg_is_kwarg_only(s, 3), 1);
    assert_string_equal(airc_schema_arg_alias(s, 4), "b");
    assert_int_equal(airc_schema_num_returns(s), 2);
    assert_string_equal(airc_schema_return_name(s, 0), "values");
    assert_string_equal(airc_schema_return_name(s, 1), "indices");
    assert_string_equal(airc_schema_return_alias(s, 1), "b");
    assert_int_equal(airc_schema_is_mutable(s), 1);
    airc_schema_destroy(s);

    /* a written list element, alias sets, wildcard; spacing normalised */
    s = parse_ok(ctx, "aten::_foreach_add_.Scalar(Tensor( a! )[] self, Scalar scalar) -> ()");
    assert_string_equal(airc_schema_arg_type_string(s, 0), "Tensor(a!)[]");
    assert_int_equal(airc_schema_arg_is_list(s, 0), 1);
    assert_int_equal(airc_schema_arg_is_write(s, 0), 1);
    assert_int_equal(airc_schema_is_mutable(s), 1);
    assert_int_equal(airc_schema_num_returns(s), 0);
    assert_prints(s, "aten::_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()");
    airc_schema_destroy(s);

    s = parse_ok(ctx, "aten::f(t[](a!) l, t(c->*) x, Tensor(a|b) y, Dict(str,t)(a!) d) -> t(*)");
    assert_string_equal(airc_schema_arg_type_string(s, 0), "t[](a!)");
    assert_string_equal(airc_schema_arg_type_string(s, 1), "t(c -> *)");
    assert_string_equal(airc_schema_arg_alias(s, 2), "a|b");
    assert_string_equal(airc_schema_arg_type_string(s, 3), "Dict(str, t)(a!)");
    assert_string_equal(airc_schema_return_alias(s, 0), "*");
    assert_prints(s, "aten::f(t[](a!) l, t(c -> *) x, Tensor(a|b) y, Dict(str, t)(a!) d) -> t(*)");
    airc_schema_destroy(s);
    airc_context_destroy(ctx);
}

static void test_types(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_schema *s = parse_ok(
        ctx, "aten::f(Tensor? a, Tensor?[] b, int[1]? c, SymInt[] d, SymInt[2] e, ScalarType? f, "
             "Device g, Layout h, MemoryFormat? i, Generator? j, Dimname k, Storage l, Any m, "
             "None n, t o, Dict(str, Tensor) p, Tensor[][] q, (int, str) r, "
             "__torch__.torch.classes.quantized.LinearPackedParamsBase s, float u, bool v, str w, "
             "Scalar x, complex y, Tensor?[]? z) -> Tensor");
    static const struct {
        const char *text;
        airc_type_kind kind;
        int opt, list, size;
    } want[] = {
        {"Tensor?", AIRC_TYPE_TENSOR, 1, 0, 0},
        {"Tensor?[]", AIRC_TYPE_TENSOR, 0, 1, 0},
        {"int[1]?", AIRC_TYPE_INT, 1, 1, 1},
        {"SymInt[]", AIRC_TYPE_SYMINT, 0, 1, 0},
        {"SymInt[2]", AIRC_TYPE_SYMINT, 0, 1, 2},
        {"ScalarType?", AIRC_TYPE_SCALAR_TYPE, 1, 0, 0},
        {"Device", AIRC_TYPE_DEVICE, 0, 0, 0},
        {"Layout", AIRC_TYPE_LAYOUT, 0, 0, 0},
        {"MemoryFormat?", AIRC_TYPE_MEMORY_FORMAT, 1, 0, 0},
        {"Generator?", AIRC_TYPE_GENERATOR, 1, 0, 0},
        {"Dimname", AIRC_TYPE_DIMNAME, 0, 0, 0},
        {"Storage", AIRC_TYPE_STORAGE, 0, 0, 0},
        {"Any", AIRC_TYPE_ANY, 0, 0, 0},
        {"None", AIRC_TYPE_NONE, 0, 0, 0},
        {"t", AIRC_TYPE_ANY, 0, 0, 0},
        {"Dict(str, Tensor)", AIRC_TYPE_ANY, 0, 0, 0},
        {"Tensor[][]", AIRC_TYPE_ANY, 0, 1, 0}, /* a list of lists: elements are Any */
        {"(int, str)", AIRC_TYPE_ANY, 0, 0, 0},
        {"__torch__.torch.classes.quantized.LinearPackedParamsBase", AIRC_TYPE_ANY, 0, 0, 0},
        {"float", AIRC_TYPE_FLOAT, 0, 0, 0},
        {"bool", AIRC_TYPE_BOOL, 0, 0, 0},
        {"str", AIRC_TYPE_STR, 0, 0, 0},
        {"Scalar", AIRC_TYPE_SCALAR, 0, 0, 0},
        {"complex", AIRC_TYPE_ANY, 0, 0, 0},
        {"Tensor?[]?", AIRC_TYPE_TENSOR, 1, 1, 0},
    };
    assert_int_equal(airc_schema_num_args(s), sizeof want / sizeof want[0]);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        assert_string_equal(airc_schema_arg_type_string(s, i), want[i].text);
        assert_int_equal(airc_schema_arg_type(s, i), want[i].kind);
        assert_int_equal(airc_schema_arg_is_optional(s, i), want[i].opt);
        assert_int_equal(airc_schema_arg_is_list(s, i), want[i].list);
        assert_int_equal(airc_schema_arg_list_size(s, i), want[i].size);
    }
    airc_schema_destroy(s);
    airc_context_destroy(ctx);
}

/* ---- defaults ---------------------------------------------------------- */

static const airc_value *def_of(const airc_schema *s, size_t i, airc_value_kind kind)
{
    const airc_value *v = airc_schema_arg_default(s, i);
    assert_non_null(v);
    assert_int_equal(airc_value_get_kind(v), kind);
    return v;
}

static void test_defaults(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    /* native_functions.yaml spellings */
    airc_schema *s = parse_ok(
        ctx,
        "aten::f(float eps=1e-05, int[2] stride=1, int[] dims=[0, -1], "
        "MemoryFormat? memory_format=contiguous_format, MemoryFormat m2=preserve_format, "
        "ScalarType dtype=long, ScalarType? d2=6, ScalarType d3=8, Layout layout=strided, "
        "int reduction=Mean, str approximate='none', float lo=-inf, float nn=nan, float one=1, "
        "Scalar a=1, Scalar b=1., bool k=True, Tensor? w=None, Device d=cpu, "
        "Device d4=\"cuda:1\", int mn=-9223372036854775808, int mx=9223372036854775807, "
        "bool[3] mask=[True, False, True], float[] fl=[1, 2.5], str s=\"q\\\"\\'\\\\\\n\") -> ()");
    int64_t iv;
    double fv;
    airc_dtype dt;
    int32_t e, b;
    const char *str;
    AIRC_ASSERT_OK(airc_value_get_float(def_of(s, 0, AIRC_VALUE_FLOAT), &fv));
    assert_true(fv == 1e-05);
    AIRC_ASSERT_OK(airc_value_get_int(def_of(s, 1, AIRC_VALUE_INT), &iv));
    assert_int_equal(iv, 1); /* stored as given; the consumer broadcasts */
    assert_int_equal(airc_schema_arg_list_size(s, 1), 2);
    const airc_value *l = def_of(s, 2, AIRC_VALUE_LIST);
    assert_int_equal(airc_value_length(l), 2);
    AIRC_ASSERT_OK(airc_value_get_int(airc_value_item(l, 1), &iv));
    assert_int_equal(iv, -1);
    AIRC_ASSERT_OK(airc_value_get_enum(def_of(s, 3, AIRC_VALUE_MEMORY_FORMAT), &e));
    assert_int_equal(e, AIRC_MEMORY_FORMAT_CONTIGUOUS);
    AIRC_ASSERT_OK(airc_value_get_enum(def_of(s, 4, AIRC_VALUE_MEMORY_FORMAT), &e));
    assert_int_equal(e, AIRC_MEMORY_FORMAT_PRESERVE);
    AIRC_ASSERT_OK(airc_value_get_dtype(def_of(s, 5, AIRC_VALUE_DTYPE), &dt));
    assert_int_equal(dt, AIRC_DTYPE_I64);
    AIRC_ASSERT_OK(airc_value_get_dtype(def_of(s, 6, AIRC_VALUE_DTYPE), &dt));
    assert_int_equal(dt, AIRC_DTYPE_F32); /* c10::ScalarType::Float == 6 */
    AIRC_ASSERT_OK(airc_value_get_int(def_of(s, 7, AIRC_VALUE_INT), &iv));
    assert_int_equal(iv, 8); /* ComplexHalf: no airc dtype, kept as the code */
    AIRC_ASSERT_OK(airc_value_get_enum(def_of(s, 8, AIRC_VALUE_LAYOUT), &e));
    assert_int_equal(e, AIRC_LAYOUT_STRIDED);
    AIRC_ASSERT_OK(airc_value_get_int(def_of(s, 9, AIRC_VALUE_INT), &iv));
    assert_int_equal(iv, 1); /* at::Reduction::Mean */
    AIRC_ASSERT_OK(airc_value_get_string(def_of(s, 10, AIRC_VALUE_STRING), &str));
    assert_string_equal(str, "none");
    AIRC_ASSERT_OK(airc_value_get_float(def_of(s, 11, AIRC_VALUE_FLOAT), &fv));
    assert_true(isinf(fv) && fv < 0);
    AIRC_ASSERT_OK(airc_value_get_float(def_of(s, 12, AIRC_VALUE_FLOAT), &fv));
    assert_true(isnan(fv));
    AIRC_ASSERT_OK(airc_value_get_float(def_of(s, 13, AIRC_VALUE_FLOAT), &fv));
    assert_true(fv == 1.0);        /* an int literal for a float is a float */
    def_of(s, 14, AIRC_VALUE_INT); /* Scalar keeps the literal's kind */
    def_of(s, 15, AIRC_VALUE_FLOAT);
    AIRC_ASSERT_OK(airc_value_get_bool(def_of(s, 16, AIRC_VALUE_BOOL), &b));
    assert_int_equal(b, 1);
    def_of(s, 17, AIRC_VALUE_NONE);
    const char *dev;
    int32_t idx;
    AIRC_ASSERT_OK(airc_value_get_device(def_of(s, 18, AIRC_VALUE_DEVICE), &dev, &idx));
    assert_string_equal(dev, "cpu");
    assert_int_equal(idx, -1);
    AIRC_ASSERT_OK(airc_value_get_device(def_of(s, 19, AIRC_VALUE_DEVICE), &dev, &idx));
    assert_string_equal(dev, "cuda");
    assert_int_equal(idx, 1);
    AIRC_ASSERT_OK(airc_value_get_int(def_of(s, 20, AIRC_VALUE_INT), &iv));
    assert_true(iv == INT64_MIN);
    AIRC_ASSERT_OK(airc_value_get_int(def_of(s, 21, AIRC_VALUE_INT), &iv));
    assert_true(iv == INT64_MAX);
    assert_int_equal(airc_value_length(def_of(s, 22, AIRC_VALUE_LIST)), 3);
    l = def_of(s, 23, AIRC_VALUE_LIST);
    assert_int_equal(airc_value_get_kind(airc_value_item(l, 0)), AIRC_VALUE_FLOAT);
    AIRC_ASSERT_OK(airc_value_get_string(def_of(s, 24, AIRC_VALUE_STRING), &str));
    assert_string_equal(str, "q\"'\\\n");
    /* torch prints doubles with max_digits10, enums as their C++ codes,
     * strings double-quoted (torch._C.parse_schema gives the same for the
     * parts it accepts; it has no enum names or inf/nan literals) */
    assert_prints(s,
                  "aten::f(float eps=1.0000000000000001e-05, int[2] stride=1, int[] dims=[0, -1], "
                  "MemoryFormat? memory_format=0, MemoryFormat m2=1, ScalarType dtype=4, "
                  "ScalarType? d2=6, ScalarType d3=8, Layout layout=0, int reduction=1, "
                  "str approximate=\"none\", float lo=-inf, float nn=nan, float one=1., "
                  "Scalar a=1, Scalar b=1., bool k=True, Tensor? w=None, Device d=cpu, "
                  "Device d4=\"cuda:1\", int mn=-9223372036854775808, "
                  "int mx=9223372036854775807, bool[3] mask=[True, False, True], "
                  "float[] fl=[1., 2.5], str s=\"q\\\"\\'\\\\\\n\") -> ()");
    /* and that text reads back to the same schema */
    char *text;
    AIRC_ASSERT_OK(airc_schema_to_string(s, &text));
    airc_schema *again = parse_ok(ctx, text);
    assert_same_schema(s, again);
    airc_string_free(text);
    airc_schema_destroy(again);
    airc_schema_destroy(s);

    /* from torch: str(torch._C.parse_schema(...)) */
    roundtrip(ctx, "aten::f(Scalar a=1, Scalar b=1.5, Scalar c=True, float d=1e20) -> ()",
              "aten::f(Scalar a=1, Scalar b=1.5, Scalar c=True, float d=1e+20) -> ()");
    roundtrip(ctx, "aten::f(MemoryFormat m=1, Layout l=0, ScalarType t=8) -> ()",
              "aten::f(MemoryFormat m=1, Layout l=0, ScalarType t=8) -> ()");
    roundtrip(ctx, "aten::f(Tensor x=None, int y=None) -> ()",
              "aten::f(Tensor x=None, int y=None) -> ()");
    roundtrip(ctx, "aten::center(str self, int width, str fillchar=' ') -> str",
              "aten::center(str self, int width, str fillchar=\" \") -> str");
    /* octal and hex escapes decode; unprintable bytes print as octal */
    roundtrip(ctx, "aten::f(str s='\\x41\\101\\1') -> ()", "aten::f(str s=\"AA\\001\") -> ()");
    /* not from torch: %.17g gives "10000000000" for 1e10, which would read
     * back as an int, so airc keeps a '.' there */
    roundtrip(ctx, "aten::f(Scalar x=1e10) -> ()", "aten::f(Scalar x=10000000000.) -> ()");
    airc_context_destroy(ctx);
}

/* ---- names, returns, varargs ------------------------------------------- */

static void test_names_and_returns(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_schema *s = parse_ok(ctx, "  add ( Tensor a )->Tensor  ");
    assert_string_equal(airc_schema_namespace(s), "");
    assert_string_equal(airc_schema_overload(s), "");
    assert_string_equal(airc_schema_name(s), "add");
    assert_prints(s, "add(Tensor a) -> Tensor");
    airc_schema_destroy(s);

    s = parse_ok(ctx, "aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, "
                      "Tensor indices)");
    assert_int_equal(airc_schema_num_returns(s), 2);
    assert_string_equal(airc_schema_return_name(s, 1), "indices");
    airc_schema_destroy(s);

    /* torch prints one return without parentheses, "(...)" varargs */
    roundtrip(ctx, "aten::i(Tensor x) -> (Tensor y)", "aten::i(Tensor x) -> Tensor y");
    roundtrip(ctx, "aten::k(...) -> (Tensor, ...)", "aten::k(...) -> (Tensor, ...)");
    roundtrip(ctx, "aten::k(Tensor x, ...) -> ...", "aten::k(Tensor x, ...) -> ...");
    roundtrip(ctx, "aten::items.str(Dict(str, t) self) -> ((str, t)[])",
              "aten::items.str(Dict(str, t) self) -> ((str, t)[])");
    roundtrip(ctx, "f(Tensor a, *) -> ()", "f(Tensor a) -> ()");
    roundtrip(ctx, "aten::f() -> (int, float)", "aten::f() -> (int, float)");
    /* torch's own duplicate names (static_runtime::clamp_nan_to_num) */
    roundtrip(ctx, "ns::f(float? a, float? a) -> ()", "ns::f(float? a, float? a) -> ()");

    s = parse_ok(ctx, "aten::k(Tensor x, ...) -> ...");
    assert_int_equal(airc_schema_num_args(s), 1);
    assert_int_equal(airc_schema_num_returns(s), 0);
    airc_schema_destroy(s);

    s = parse_ok(ctx, "air::scope_enter(str[] keys, str[] values, bool need_execute=False) -> ()");
    assert_int_equal(airc_schema_arg_type(s, 0), AIRC_TYPE_STR);
    assert_int_equal(airc_schema_arg_is_list(s, 0), 1);
    assert_int_equal(airc_schema_num_returns(s), 0);
    airc_schema_destroy(s);
    airc_context_destroy(ctx);
}

/* ---- errors ------------------------------------------------------------ */

static void expect_parse_error(airc_context *ctx, const char *text, const char *needle)
{
    airc_schema *s = (airc_schema *)(uintptr_t)0x1234; /* must stay untouched */
    airc_status st = airc_schema_parse(ctx, text, &s);
    if (st != AIRC_E_PARSE || !strstr(airc_last_error(), needle))
        print_error("text: %.200s\n", text);
    AIRC_EXPECT(st, AIRC_E_PARSE, needle);
    assert_ptr_equal(s, (airc_schema *)(uintptr_t)0x1234);
    assert_non_null(strstr(airc_last_error(), "schema:"));
}

static char *repeat(const char *pre, const char *unit, size_t n, const char *mid, const char *unit2,
                    size_t n2, const char *post)
{
    size_t len = strlen(pre) + strlen(unit) * n + strlen(mid) + strlen(unit2) * n2 + strlen(post);
    char *s = malloc(len + 1);
    assert_non_null(s);
    char *o = s;
    o += sprintf(o, "%s", pre);
    for (size_t i = 0; i < n; i++)
        o += sprintf(o, "%s", unit);
    o += sprintf(o, "%s", mid);
    for (size_t i = 0; i < n2; i++)
        o += sprintf(o, "%s", unit2);
    sprintf(o, "%s", post);
    return s;
}

static void test_errors(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    /* columns are 1-based; counted by hand */
    expect_parse_error(ctx, "", "schema:1: expected an operator name, got end of text");
    expect_parse_error(ctx, "aten::add(Tensor self) -> Tensor y junk",
                       "schema:36: expected end of schema, got 'junk'");
    expect_parse_error(ctx, "aten::add(Tensr self) -> Tensor",
                       "schema:11: expected a type, got unknown type 'Tensr'");
    expect_parse_error(ctx, "aten::add(Tensor self",
                       "schema:22: expected ',' or ')' after an argument, got end of text");
    expect_parse_error(ctx, "aten::", "expected an operator name after '::'");
    expect_parse_error(ctx, "aten::add", "expected '(' starting the arguments");
    expect_parse_error(ctx, "aten::add.(Tensor a) -> Tensor", "expected an overload name");
    expect_parse_error(ctx, "aten::add(Tensor) -> Tensor",
                       "schema:17: expected an argument name, got ')'");
    expect_parse_error(ctx, "aten::add(Tensor a)", "expected '->', got end of text");
    expect_parse_error(ctx, "aten::add(Tensor a) ->", "expected a type");
    expect_parse_error(ctx, "aten::add(Tensor a) -> (Tensor", "expected ',' or ')' after a return");
    expect_parse_error(ctx, "aten::f(*, *, Tensor a) -> ()", "a second '*'");
    expect_parse_error(ctx, "aten::f(..., Tensor a) -> ()", "expected ')' after '...'");
    expect_parse_error(ctx, "aten::f(Tensor(a! x) -> ()", "')' closing the alias annotation");
    expect_parse_error(ctx, "aten::f(Tensor() x) -> ()", "expected an alias set name or '*'");
    expect_parse_error(ctx, "aten::f(Dict(str) d) -> ()", "Dict takes 2 type parameters, got 1");
    expect_parse_error(ctx, "aten::f(Future x) -> ()", "expected '(' after Future");
    expect_parse_error(ctx, "aten::f(__torch__ x) -> ()", "expected '.' after __torch__");
    expect_parse_error(ctx, "aten::f(int[0] x) -> ()", "list size must be at least 1");
    expect_parse_error(ctx, "aten::f(int[99999999999] x) -> ()", "list size out of range");
    expect_parse_error(ctx, "aten::f(int[x] x) -> ()", "expected ']'");
    /* defaults */
    expect_parse_error(ctx, "aten::f(int x=99999999999999999999) -> ()",
                       "schema:15: integer '99999999999999999999' out of int64 range");
    expect_parse_error(ctx, "aten::f(int x=-9223372036854775809) -> ()", "out of int64 range");
    expect_parse_error(ctx, "aten::f(float x=1e400) -> ()", "float '1e400' out of range");
    expect_parse_error(ctx, "aten::f(float x=1e) -> ()", "expected exponent digits");
    expect_parse_error(ctx, "aten::f(int x=12abc) -> ()", "expected the end of the number");
    expect_parse_error(ctx, "aten::f(int x=1.5) -> ()", "expected an int default, got a float");
    expect_parse_error(ctx, "aten::f(int x=True) -> ()", "expected an int default, got 'True'");
    expect_parse_error(ctx, "aten::f(bool x=1) -> ()", "expected a bool default, got a number");
    expect_parse_error(ctx, "aten::f(float x='a') -> ()", "expected a float default, got a string");
    expect_parse_error(ctx, "aten::f(str s=abc) -> ()", "expected a quoted string");
    expect_parse_error(ctx, "aten::f(str s='abc) -> ()", "unterminated string");
    expect_parse_error(ctx, "aten::f(str s='a\\qb') -> ()", "unknown escape '\\q'");
    expect_parse_error(ctx, "aten::f(str s='a\\0b') -> ()", "NUL byte in a string");
    expect_parse_error(ctx, "aten::f(str s='a\\x4') -> ()", "two hex digits");
    expect_parse_error(ctx, "aten::f(ScalarType t=quux) -> ()", "unknown name 'quux'");
    expect_parse_error(ctx, "aten::f(int x=Foo) -> ()", "unknown name 'Foo'");
    expect_parse_error(ctx, "aten::f(int[] x=1) -> ()", "expected a list default");
    expect_parse_error(ctx, "aten::f(int[] x=[1, 2) -> ()", "expected ',' or ']' in a list");
    expect_parse_error(ctx, "aten::f(int[] x=[1, 'a']) -> ()", "got a string");
    expect_parse_error(ctx, "aten::f(Tensor x=1) -> ()", "expected a Tensor default, got a number");
    expect_parse_error(ctx, "aten::f(Device d=\"cuda:x\") -> ()", "device index");
    expect_parse_error(ctx, "aten::f(int x=) -> ()", "expected a default value, got ')'");
    /* garbage */
    expect_parse_error(ctx, "\x01\xff\xfe garbage", "got byte 0x01");
    expect_parse_error(ctx, "aten::f(Tensor \xc3\xa9) -> ()", "got byte 0xc3");
    expect_parse_error(ctx, "()->()", "expected an operator name, got '('");

    /* deep nesting: bounded recursion, a message, no crash */
    char *t = repeat("aten::f(", "Dict(str, ", 10000, "int", ")", 10000, " x) -> ()");
    expect_parse_error(ctx, t, "nested deeper than");
    free(t);
    t = repeat("aten::f(int", "[]", 10000, "", "", 0, " x) -> ()");
    expect_parse_error(ctx, t, "nested deeper than");
    free(t);
    t = repeat("aten::f(Any x=", "[", 10000, "", "]", 10000, ") -> ()");
    expect_parse_error(ctx, t, "nested deeper than");
    free(t);
    t = repeat("aten::f() -> (", "(", 10000, "int", ")", 10001, "");
    expect_parse_error(ctx, t, "nested deeper than");
    free(t);
    /* nesting within the limit is fine */
    t = repeat("aten::f(Any x=", "[", 20, "", "]", 20, ") -> ()");
    airc_schema *s = parse_ok(ctx, t);
    assert_prints(s, t);
    airc_schema_destroy(s);
    free(t);

    /* huge names and texts */
    t = repeat("aten::", "a", 100000, "(Tensor x) -> Tensor", "", 0, "");
    expect_parse_error(ctx, t, "identifier longer than 1024 characters");
    free(t);
    t = repeat("aten::f(Tensor ", "x", 1u << 20, ") -> Tensor", "", 0, "");
    expect_parse_error(ctx, t, "schema:1: text longer than");
    free(t);
    t = repeat("aten::f(float x=", "1", 100, ".5) -> ()", "", 0, "");
    expect_parse_error(ctx, t, "number longer than");
    free(t);
    /* a long error text is quoted as an excerpt around the error */
    t = repeat("aten::f(", "Tensor a, ", 100, "Tensor ?) -> ()", "", 0, "");
    expect_parse_error(ctx, t, "...");
    assert_true(strlen(airc_last_error()) < 600);
    free(t);
    /* every prefix of a valid schema fails cleanly (or parses) */
    const char *full = "aten::max.dim_max(Tensor self, int dim, bool keepdim=False, *, "
                       "Tensor(a!) max, Tensor(b!) max_values) -> (Tensor(a!) values, "
                       "Tensor(b!) indices)";
    char buf[256];
    for (size_t n = 0; n < strlen(full); n++) {
        memcpy(buf, full, n);
        buf[n] = '\0';
        airc_schema *p = NULL;
        airc_status st = airc_schema_parse(ctx, buf, &p);
        assert_int_equal(st, AIRC_E_PARSE);
        assert_null(p);
    }
    airc_context_destroy(ctx);
}

/* Mutated real schemas (fixed seed): each either parses or fails with
 * AIRC_E_PARSE, and whatever parses prints to text that reads back and
 * prints the same (printing is a fixed point). */
static void test_mutations(void **state)
{
    (void)state;
    size_t len;
    char *data = airc_test_read_file(AIRC_TEST_DATA "/aten_schemas.txt", &len);
    assert_non_null(data);
    char *lines[8192];
    size_t n = 0;
    for (char *p = data; p && *p && n < 8192;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        if (*p != '#')
            lines[n++] = p;
        p = nl ? nl + 1 : NULL;
    }
    assert_true(n > 100);
    static const char pieces[] = "()[]<>,=?!*|.:-'\"\\ 0123456789eaT_\x01\xff";
    airc_context *ctx = new_ctx();
    uint64_t rng = 0x9E3779B97F4A7C15u;
    size_t parsed = 0;
    char buf[4200];
    for (int iter = 0; iter < 30000; iter++) {
        rng = rng * 6364136223846793005u + 1442695040888963407u;
        const char *src = lines[(rng >> 33) % n];
        size_t l = strlen(src);
        if (l >= sizeof buf - 8)
            continue;
        memcpy(buf, src, l + 1);
        int edits = 1 + (int)((rng >> 20) % 3);
        for (int e = 0; e < edits && l > 0; e++) {
            rng = rng * 6364136223846793005u + 1442695040888963407u;
            size_t at = (rng >> 33) % l;
            char c = pieces[(rng >> 12) % (sizeof pieces - 1)];
            switch ((rng >> 8) % 3) {
            case 0: buf[at] = c; break; /* replace */
            case 1:
                memmove(buf + at, buf + at + 1, l - at);
                l--;
                break; /* delete */
            default:   /* insert */
                memmove(buf + at + 1, buf + at, l - at + 1);
                buf[at] = c;
                l++;
                break;
            }
        }
        airc_schema *s = NULL;
        airc_status st = airc_schema_parse(ctx, buf, &s);
        if (st != AIRC_OK) {
            if (st != AIRC_E_PARSE)
                print_error("text: %s\n%s\n", buf, airc_last_error());
            assert_int_equal(st, AIRC_E_PARSE);
            continue;
        }
        parsed++;
        char *t1 = NULL, *t2 = NULL;
        airc_schema *again = NULL;
        AIRC_ASSERT_OK(airc_schema_to_string(s, &t1));
        if (airc_schema_parse(ctx, t1, &again) != AIRC_OK)
            print_error("input:   %s\nprinted: %s\n%s\n", buf, t1, airc_last_error());
        assert_non_null(again);
        AIRC_ASSERT_OK(airc_schema_to_string(again, &t2));
        assert_string_equal(t1, t2);
        assert_same_schema(s, again);
        airc_string_free(t1);
        airc_string_free(t2);
        airc_schema_destroy(again);
        airc_schema_destroy(s);
    }
    assert_true(parsed > 1000); /* many mutations stay valid (names, numbers) */
    airc_context_destroy(ctx);
    free(data);
}

static void test_misuse_and_null(void **state)
{
    (void)state;
    airc_context *ctx = new_ctx();
    airc_schema *s = NULL;
    AIRC_EXPECT(airc_schema_parse(NULL, "f() -> ()", &s), AIRC_E_MISUSE, NULL);
    AIRC_EXPECT(airc_schema_parse(ctx, NULL, &s), AIRC_E_INVALID_ARGUMENT, "text");
    AIRC_EXPECT(airc_schema_parse(ctx, "f() -> ()", NULL), AIRC_E_INVALID_ARGUMENT, "out");
    assert_null(s);
    char *text = (char *)(uintptr_t)0x99;
    AIRC_EXPECT(airc_schema_to_string(NULL, &text), AIRC_E_MISUSE, "schema");
    assert_ptr_equal(text, (char *)(uintptr_t)0x99);
    airc_schema_destroy(NULL);

    assert_string_equal(airc_schema_namespace(NULL), "");
    assert_string_equal(airc_schema_name(NULL), "");
    assert_string_equal(airc_schema_overload(NULL), "");
    assert_int_equal(airc_schema_num_args(NULL), 0);
    assert_int_equal(airc_schema_num_returns(NULL), 0);
    assert_int_equal(airc_schema_is_mutable(NULL), 0);

    s = parse_ok(ctx, "aten::f(Tensor(a!) x=None) -> Tensor(a!) y");
    AIRC_EXPECT(airc_schema_to_string(s, NULL), AIRC_E_INVALID_ARGUMENT, "out");
    const size_t bad[] = {1, 2, 1000, SIZE_MAX};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        size_t i = bad[k];
        assert_string_equal(airc_schema_arg_name(s, i), "");
        assert_int_equal(airc_schema_arg_type(s, i), AIRC_TYPE_NONE);
        assert_string_equal(airc_schema_arg_type_string(s, i), "");
        assert_int_equal(airc_schema_arg_is_optional(s, i), 0);
        assert_int_equal(airc_schema_arg_is_list(s, i), 0);
        assert_int_equal(airc_schema_arg_list_size(s, i), 0);
        assert_int_equal(airc_schema_arg_is_kwarg_only(s, i), 0);
        assert_null(airc_schema_arg_default(s, i));
        assert_null(airc_schema_arg_alias(s, i));
        assert_int_equal(airc_schema_arg_is_write(s, i), 0);
        assert_int_equal(airc_schema_return_type(s, i), AIRC_TYPE_NONE);
        assert_string_equal(airc_schema_return_type_string(s, i), "");
        assert_string_equal(airc_schema_return_name(s, i), "");
        assert_null(airc_schema_return_alias(s, i));
        assert_int_equal(airc_schema_return_is_write(s, i), 0);
        /* NULL schema, any index */
        assert_string_equal(airc_schema_arg_name(NULL, k), "");
        assert_null(airc_schema_arg_default(NULL, k));
        assert_string_equal(airc_schema_return_type_string(NULL, k), "");
    }
    assert_string_equal(airc_schema_return_name(s, 0), "y");
    airc_schema_destroy(s);

    /* a schema keeps its context alive */
    s = parse_ok(ctx, "aten::f(Tensor x) -> Tensor");
    airc_context_destroy(ctx);
    assert_prints(s, "aten::f(Tensor x) -> Tensor");
    airc_schema_destroy(s);
}

/* ---- allocation failure ------------------------------------------------ */

static void test_out_of_memory(void **state)
{
    (void)state;
    const char *text =
        "aten::f(Tensor(a!) self, int[] dims=[0, -1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "
        "Dict(str, Dict(str, Dict(str, Tensor))) deep, str s='hello world', "
        "float eps=1e-05, Device d=cpu, *, Tensor?[]? xs=None, "
        "__torch__.torch.classes.quantized.LinearPackedParamsBase p, "
        "MemoryFormat? m=contiguous_format) -> (Tensor(a!) values, Tensor(b!)[] rest)";
    airc_test_alloc st;
    airc_allocator alloc;
    airc_test_alloc_init(&st, &alloc);
    airc_context *ctx = NULL;
    AIRC_ASSERT_OK(airc_context_create(&alloc, &ctx));
    long baseline = st.live;
    size_t k;
    for (k = 1; k < 10000; k++) {
        st.fail_at = st.count + k;
        airc_schema *s = NULL;
        airc_status rc = airc_schema_parse(ctx, text, &s);
        if (rc == AIRC_OK) {
            st.fail_at = 0;
            assert_prints(s, "aten::f(Tensor(a!) self, int[] dims=[0, -1, 2, 3, 4, 5, 6, 7, 8, 9, "
                             "10], Dict(str, Dict(str, Dict(str, Tensor))) deep, str s=\"hello "
                             "world\", float eps=1.0000000000000001e-05, Device d=cpu, *, "
                             "Tensor?[]? xs=None, "
                             "__torch__.torch.classes.quantized.LinearPackedParamsBase p, "
                             "MemoryFormat? m=0) -> (Tensor(a!) values, Tensor(b!)[] rest)");
            /* printing under failure too */
            for (size_t j = 1; j < 100; j++) {
                st.fail_at = st.count + j;
                char *out = (char *)(uintptr_t)0x77;
                airc_status r2 = airc_schema_to_string(s, &out);
                st.fail_at = 0;
                if (r2 == AIRC_OK) {
                    airc_string_free(out);
                    break;
                }
                assert_int_equal(r2, AIRC_E_OUT_OF_MEMORY);
                assert_ptr_equal(out, (char *)(uintptr_t)0x77);
            }
            airc_schema_destroy(s);
            assert_int_equal(st.live, baseline);
            break;
        }
        st.fail_at = 0;
        if (rc != AIRC_E_OUT_OF_MEMORY)
            print_error("fail_at=%zu: %s\n", k, airc_last_error());
        assert_int_equal(rc, AIRC_E_OUT_OF_MEMORY);
        assert_null(s);
        assert_int_equal(st.live, baseline);
    }
    assert_true(k > 2); /* the loop did exercise failures */
    airc_context_destroy(ctx);
    assert_int_equal(st.live, 0);
}

/* ---- checking nodes against schemas ------------------------------------ */

typedef struct fx {
    airc_context *ctx;
    airc_graph *g;
    airc_node *x, *y;
    const airc_value *vx, *vy;
} fx;

static void fx_init(fx *f)
{
    f->ctx = new_ctx();
    AIRC_ASSERT_OK(airc_graph_create(f->ctx, &f->g));
    AIRC_ASSERT_OK(airc_graph_placeholder(f->g, "x", &f->x));
    AIRC_ASSERT_OK(airc_graph_placeholder(f->g, "y", &f->y));
    AIRC_ASSERT_OK(airc_value_node(f->g, f->x, &f->vx));
    AIRC_ASSERT_OK(airc_value_node(f->g, f->y, &f->vy));
}

static void fx_free(fx *f)
{
    airc_graph_destroy(f->g);
    airc_context_destroy(f->ctx);
}

static const airc_value *vint(fx *f, int64_t v)
{
    const airc_value *r;
    AIRC_ASSERT_OK(airc_value_int(f->g, v, &r));
    return r;
}
static const airc_value *vfloat(fx *f, double v)
{
    const airc_value *r;
    AIRC_ASSERT_OK(airc_value_float(f->g, v, &r));
    return r;
}
static const airc_value *vstr(fx *f, const char *v)
{
    const airc_value *r;
    AIRC_ASSERT_OK(airc_value_string(f->g, v, &r));
    return r;
}
static const airc_value *vnone(fx *f)
{
    const airc_value *r;
    AIRC_ASSERT_OK(airc_value_none(f->g, &r));
    return r;
}
static const airc_value *vbool(fx *f, int v)
{
    const airc_value *r;
    AIRC_ASSERT_OK(airc_value_bool(f->g, v, &r));
    return r;
}
static const airc_value *vlist(fx *f, const airc_value *const *items, size_t n)
{
    const airc_value *r;
    AIRC_ASSERT_OK(airc_value_list(f->g, items, n, &r));
    return r;
}

static airc_node *call(fx *f, const char *op, const airc_value *const *args, size_t nargs,
                       const char *const *kwn, const airc_value *const *kwv, size_t nkw)
{
    airc_node *n = NULL;
    AIRC_ASSERT_OK(airc_graph_create_node(f->g, AIRC_NODE_CALL_FUNCTION, op, args, nargs, kwn, kwv,
                                          nkw, NULL, &n));
    return n;
}

static void check_ok(const airc_node *n)
{
    AIRC_ASSERT_OK(airc_schema_check_node(n));
}

static void check_bad(const airc_node *n, const char *needle)
{
    AIRC_EXPECT(airc_schema_check_node(n), AIRC_E_INVALID_GRAPH, needle);
}

static void test_check_calling_convention(void **state)
{
    (void)state;
    fx f;
    fx_init(&f);
    const airc_value *xy[] = {f.vx, f.vy, vint(&f, 2)};
    airc_node *n = call(&f, "aten.add.Tensor", xy, 2, NULL, NULL, 0);
    check_ok(n);
    const airc_value *bind[3];
    airc_schema_bind(n, bind);
    assert_ptr_equal(bind[0], f.vx);
    assert_ptr_equal(bind[1], f.vy);
    assert_int_equal(airc_value_get_kind(bind[2]), AIRC_VALUE_INT); /* alpha's default */
    assert_null(bind[2]->owner);

    /* torch wraps numbers passed for a Tensor (make_fx: aten.add.Tensor(%x, 1)) */
    const airc_value *xf[] = {f.vx, vfloat(&f, 2.0)};
    check_ok(call(&f, "aten.add.Tensor", xf, 2, NULL, NULL, 0));

    const airc_value *xs[] = {f.vx, vstr(&f, "a")};
    n = call(&f, "aten.add.Tensor", xs, 2, NULL, NULL, 0);
    check_bad(n, "aten.add.Tensor: argument 'other' (Tensor) got str 'a'");
    assert_non_null(strstr(airc_last_error(), "node 'add_2'"));

    check_bad(call(&f, "aten.add.Tensor", xy, 1, NULL, NULL, 0),
              "missing required argument 'other'");
    check_bad(call(&f, "aten.add.Tensor", xy, 3, NULL, NULL, 0),
              "argument 'alpha' is keyword-only but was given positionally");
    const airc_value *x1[] = {f.vx};
    check_bad(call(&f, "aten.relu.default", xy, 2, NULL, NULL, 0),
              "takes 1 positional argument but 2 were given");

    const char *kn[] = {"alpha", "foo"};
    const airc_value *kv[] = {vint(&f, 2), vint(&f, 1)};
    n = call(&f, "aten.add.Tensor", xy, 2, kn, kv, 1);
    check_ok(n);
    airc_schema_bind(n, bind);
    assert_ptr_equal(bind[2], kv[0]);
    check_bad(call(&f, "aten.add.Tensor", xy, 2, kn, kv, 2), "unexpected keyword argument 'foo'");
    /* positional parameters may be passed by keyword */
    const char *kn2[] = {"other", "self"};
    const airc_value *kv2[] = {f.vy, f.vx};
    n = call(&f, "aten.add.Tensor", NULL, 0, kn2, kv2, 2);
    check_ok(n);
    airc_schema_bind(n, bind);
    assert_ptr_equal(bind[0], f.vx);
    assert_ptr_equal(bind[1], f.vy);
    check_bad(call(&f, "aten.add.Tensor", xy, 2, kn2, kv2, 1),
              "argument 'other' given both positionally and as a keyword");
    /* a keyword twice cannot be built through the API; forge it */
    const char *kn3[] = {"alpha", "other"};
    const airc_value *kv3[] = {vint(&f, 2), f.vy};
    n = call(&f, "aten.add.Tensor", x1, 1, kn3, kv3, 2);
    check_ok(n);
    n->kw_names[1] = n->kw_names[0];
    check_bad(n, "keyword argument 'alpha' given twice");

    /* lint reports the same */
    AIRC_EXPECT(airc_graph_lint(f.g), AIRC_E_INVALID_GRAPH, "node 'add_2'");
    fx_free(&f);
}

static void test_check_kinds(void **state)
{
    (void)state;
    airc_node *n;
    fx f;
    fx_init(&f);
    /* int[] lists: tuple or list of ints; a bare int only for a sized list */
    const airc_value *ints[] = {vint(&f, 2), vint(&f, 3)};
    const airc_value *mixed[] = {vint(&f, 2), vstr(&f, "b")};
    const airc_value *a1[] = {f.vx, vlist(&f, ints, 2)};
    check_ok(call(&f, "aten.view.default", a1, 2, NULL, NULL, 0));
    const airc_value *a2[] = {f.vx, vlist(&f, mixed, 2)};
    check_bad(call(&f, "aten.view.default", a2, 2, NULL, NULL, 0),
              "argument 'size' (SymInt[]) got list of 2 with str 'b' at index 1");
    const airc_value *a3[] = {f.vx, vint(&f, 4)};
    check_bad(call(&f, "aten.view.default", a3, 2, NULL, NULL, 0),
              "argument 'size' (SymInt[]) got int 4");
    /* sum.dim_IntList(Tensor self, int[1]? dim, ...): a bare int broadcasts; None ok */
    check_ok(call(&f, "aten.sum.dim_IntList", a3, 2, NULL, NULL, 0));
    const airc_value *a4[] = {f.vx, vnone(&f)};
    check_ok(call(&f, "aten.sum.dim_IntList", a4, 2, NULL, NULL, 0));
    /* None for a non-optional */
    check_bad(call(&f, "aten.add.Tensor", a4, 2, NULL, NULL, 0),
              "argument 'other' (Tensor) got None");
    /* float for int */
    const airc_value *a5[] = {f.vx, vfloat(&f, 0.0), vint(&f, 1)};
    check_bad(call(&f, "aten.transpose.int", a5, 3, NULL, NULL, 0),
              "argument 'dim0' (int) got float 0.0");
    /* Tensor[] */
    const airc_value *ts[] = {f.vx, f.vy};
    const airc_value *a6[] = {vlist(&f, ts, 2)};
    check_ok(call(&f, "aten.cat.default", a6, 1, NULL, NULL, 0));
    const airc_value *tsbad[] = {f.vx, vfloat(&f, 1.5), vstr(&f, "z")};
    const airc_value *a7[] = {vlist(&f, tsbad, 3)};
    check_bad(call(&f, "aten.cat.default", a7, 1, NULL, NULL, 0),
              "argument 'tensors' (Tensor[]) got list of 3 with str 'z' at index 2");
    /* kwargs: dtype / memory format / str */
    const airc_value *mf;
    AIRC_ASSERT_OK(airc_value_memory_format(f.g, AIRC_MEMORY_FORMAT_CONTIGUOUS, &mf));
    const char *kmf[] = {"memory_format"};
    const airc_value *x1[] = {f.vx};
    check_ok(call(&f, "aten.clone.default", x1, 1, kmf, &mf, 1));
    const airc_value *sv = vstr(&f, "contiguous");
    check_bad(call(&f, "aten.clone.default", x1, 1, kmf, &sv, 1),
              "argument 'memory_format' (MemoryFormat?) got str 'contiguous'");
    const char *kap[] = {"approximate"};
    const airc_value *tanh = vstr(&f, "tanh");
    check_ok(call(&f, "aten.gelu.default", x1, 1, kap, &tanh, 1));
    const airc_value *one = vint(&f, 1);
    check_bad(call(&f, "aten.gelu.default", x1, 1, kap, &one, 1),
              "argument 'approximate' (str) got int 1");
    /* bool */
    const airc_value *a8[] = {f.vx, vint(&f, -1), vbool(&f, 0)};
    check_ok(call(&f, "aten._softmax.default", a8, 3, NULL, NULL, 0));
    const airc_value *a9[] = {f.vx, vint(&f, -1), vstr(&f, "no")};
    check_bad(call(&f, "aten._softmax.default", a9, 3, NULL, NULL, 0),
              "argument 'half_to_float' (bool) got str 'no'");
    /* operator.getitem(Any self, int idx) */
    const airc_value *g1[] = {f.vx, vint(&f, 0)};
    check_ok(call(&f, "operator.getitem", g1, 2, NULL, NULL, 0));
    const airc_value *g2[] = {f.vx, vstr(&f, "k")};
    check_bad(call(&f, "operator.getitem", g2, 2, NULL, NULL, 0),
              "operator.getitem: argument 'idx' (int) got str 'k'");
    check_bad(call(&f, "operator.getitem", g1, 1, NULL, NULL, 0),
              "missing required argument 'idx'");
    /* air ops */
    const airc_value *keys[] = {vstr(&f, "_user_stream_label")};
    const airc_value *vals[] = {vstr(&f, "s1")};
    const airc_value *se[] = {vlist(&f, keys, 1), vlist(&f, vals, 1)};
    check_ok(call(&f, "air.scope_enter.default", se, 2, NULL, NULL, 0));
    const airc_value *se2[] = {vlist(&f, keys, 1), vlist(&f, ints, 2)};
    check_bad(call(&f, "air.scope_enter.default", se2, 2, NULL, NULL, 0),
              "argument 'values' (str[]) got list of 2 with int 2 at index 0");
    /* a node for a number: a SymInt's or Scalar's, not a tensor's (torch.ops
     * refuses that: "Expected a value of type 'number'") */
    airc_op_def sdef;
    airc_op_def_init(&sdef);
    sdef.schema = "my::size(Tensor x, int dim) -> SymInt";
    AIRC_ASSERT_OK(airc_context_register_op(f.ctx, &sdef, NULL));
    const airc_value *s1[] = {f.vx, vint(&f, 0)};
    airc_node *size = call(&f, "my.size.default", s1, 2, NULL, NULL, 0);
    const airc_value *vsize, *vrelu;
    AIRC_ASSERT_OK(airc_value_node(f.g, size, &vsize));
    const airc_value *r1[] = {f.vx};
    AIRC_ASSERT_OK(
        airc_value_node(f.g, call(&f, "aten.relu.default", r1, 1, NULL, NULL, 0), &vrelu));
    const char *kalpha[] = {"alpha"};
    const airc_value *add2[] = {f.vx, f.vy};
    check_ok(call(&f, "aten.add.Tensor", add2, 2, kalpha, &vsize, 1));
    check_bad(call(&f, "aten.add.Tensor", add2, 2, kalpha, &vrelu, 1), "argument 'alpha' (Scalar)");
    const airc_value *t2[] = {f.vx, vrelu, vint(&f, 1)};
    check_bad(call(&f, "aten.transpose.int", t2, 3, NULL, NULL, 0), "argument 'dim0' (int)");
    /* nodes that are not call_function have nothing to check */
    check_ok(f.x);

    /* custom ops: varargs, sized lists, optional list items */
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = "my::va(Tensor x, ...) -> Tensor";
    AIRC_ASSERT_OK(airc_context_register_op(f.ctx, &def, NULL));
    def.schema = "my::pool(Tensor x, int[2] k, Tensor?[] idx, *, float? eps=None) -> Tensor";
    AIRC_ASSERT_OK(airc_context_register_op(f.ctx, &def, NULL));
    const airc_value *va[] = {f.vx, vint(&f, 1), vstr(&f, "s")};
    const char *kfoo[] = {"foo"};
    check_ok(call(&f, "my.va.default", va, 3, kfoo, va, 1));
    check_bad(call(&f, "my.va.default", NULL, 0, NULL, NULL, 0), "missing required argument 'x'");
    const airc_value *opt_items[] = {f.vx, vnone(&f)};
    const airc_value *p1[] = {f.vx, vint(&f, 3), vlist(&f, opt_items, 2)};
    check_ok(call(&f, "my.pool.default", p1, 3, NULL, NULL, 0));
    const airc_value *bad_items[] = {f.vx, vbool(&f, 1)};
    const airc_value *p2[] = {f.vx, vlist(&f, ints, 2), vlist(&f, bad_items, 2)};
    check_ok(call(&f, "my.pool.default", p2, 3, NULL, NULL, 0)); /* a bool wraps as a tensor */
    const airc_value *p3[] = {f.vx, vfloat(&f, 3.0), vlist(&f, opt_items, 2)};
    check_bad(call(&f, "my.pool.default", p3, 3, NULL, NULL, 0),
              "argument 'k' (int[2]) got float 3.0");
    const char *keps[] = {"eps"};
    const airc_value *eps = vint(&f, 1);
    n = call(&f, "my.pool.default", p1, 3, keps, &eps, 1);
    check_ok(n); /* an int for a float */
    const airc_value *bound[4];
    airc_schema_bind(n, bound);
    assert_ptr_equal(bound[3], eps);
    n = call(&f, "my.pool.default", p1, 3, NULL, NULL, 0);
    airc_schema_bind(n, bound);
    assert_int_equal(airc_value_get_kind(bound[3]), AIRC_VALUE_NONE); /* default None */
    const airc_value *p4[] = {f.vx, vint(&f, 3), vlist(&f, ints, 2)};
    check_ok(call(&f, "my.pool.default", p4, 3, NULL, NULL, 0)); /* ints wrap as tensors */
    const airc_value *strs[] = {vstr(&f, "no")};
    const airc_value *p5[] = {f.vx, vint(&f, 3), vlist(&f, strs, 1)};
    check_bad(call(&f, "my.pool.default", p5, 3, NULL, NULL, 0),
              "argument 'idx' (Tensor?[]) got list of 1 with str 'no' at index 0");
    fx_free(&f);
}

/* Every call in the conformance graphs (printed by torch) passes the check. */
static void test_check_conformance(void **state)
{
    (void)state;
    if (!airc_test_have_shared())
        skip();
    DIR *dir = opendir(AIRC_SHARED_DIR "/conformance");
    assert_non_null(dir);
    airc_context *ctx = new_ctx();
    size_t files = 0, calls = 0;
    struct dirent *de;
    while ((de = readdir(dir))) {
        size_t nl = strlen(de->d_name);
        if (nl < 4 || strcmp(de->d_name + nl - 3, ".fx") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/conformance/%s", AIRC_SHARED_DIR, de->d_name);
        size_t len;
        char *text = airc_test_read_file(path, &len);
        assert_non_null(text);
        airc_graph *g = airc_test_parse(ctx, text);
        AIRC_FOR_EACH_NODE(g, n)
        {
            if (n->kind == AIRC_NODE_CALL_FUNCTION)
                calls++;
            if (airc_schema_check_node(n) != AIRC_OK)
                print_error("%s: %s\n", de->d_name, airc_last_error());
            AIRC_ASSERT_OK(airc_schema_check_node(n));
        }
        airc_graph_destroy(g);
        free(text);
        files++;
    }
    closedir(dir);
    assert_true(files > 0 && calls > 0);
    airc_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_torch_schemas_roundtrip),
        cmocka_unit_test(test_builtin_schemas_print),
        cmocka_unit_test(test_add_tensor),
        cmocka_unit_test(test_alias_annotations),
        cmocka_unit_test(test_types),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_names_and_returns),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_misuse_and_null),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_check_calling_convention),
        cmocka_unit_test(test_check_kinds),
        cmocka_unit_test(test_check_conformance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
