/* transforms: the examples of "writing graph transforms on ATen IR" (seed
 * 003, torch.fx's guide) with airc's C API.
 *
 *     transforms
 *
 * Each example parses a small graph from FX text, transforms it, prints it
 * before and after ("--- NAME: before ---" / "--- NAME: after ---") and
 * checks the result from first principles; the program exits 1 when a check
 * fails. The examples:
 *
 *   retarget       add -> mul by editing nodes, and by a Transformer
 *   insert_relu    relu after add (insertion point + replace_all_uses_with)
 *   one_to_many    Transformer: add -> mul, sub; addmm -> mm, add
 *   remove_detach  Transformer dropping detach; the same by direct edits
 *   scalar_to_tensor  Transformer: Tensor-typed literal args (read from the
 *                  op's schema) become aten.scalar_tensor nodes
 *   rewriter       replace_pattern_with_filters, pattern and replacement
 *                  parsed from FX text
 *   matcher        SubgraphMatcher: the matches and their fields
 *   partitioner    CapabilityBasedPartitioner: support add/mul/relu, fuse
 *   pass_manager   PassManager with a check after each pass that catches a
 *                  bad pass; the graph is rolled back */
#include <airc/airc.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */
/* ------------------------------------------------------------------------ */

static int failures;

static void check(int ok, const char *fmt, ...) AIRC_FORMAT_PRINTF(2, 3);
static void check(int ok, const char *fmt, ...)
{
    if (ok)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "transforms: FAIL: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    failures++;
}

/* An airc call that should not fail: on failure, say which and why. */
static int ok(airc_status st, const char *what)
{
    if (st == AIRC_OK)
        return 1;
    fprintf(stderr, "transforms: FAIL: %s: %s (%s)\n", what, airc_last_error(),
            airc_status_name(st));
    failures++;
    return 0;
}

static airc_graph *parse(airc_context *ctx, const char *name, const char *text)
{
    airc_graph *g = NULL;
    ok(airc_graph_parse(ctx, text, strlen(text), name, &g), name);
    return g;
}

static void show(const char *example, const char *stage, const airc_graph *g)
{
    char *text = NULL;
    if (!ok(airc_graph_print(g, AIRC_PRINT_NO_TYPES, &text), "print"))
        return;
    printf("--- %s: %s ---\n%s\n", example, stage, text);
    airc_string_free(text);
}

/* 1 when g prints as `expected` (both without types). */
static int prints_as(const airc_graph *g, const char *expected)
{
    char *text = NULL;
    if (!ok(airc_graph_print(g, AIRC_PRINT_NO_TYPES, &text), "print"))
        return 0;
    int same = strcmp(text, expected) == 0;
    airc_string_free(text);
    return same;
}

static int is_call(const airc_node *n, const char *op)
{
    return n && airc_node_get_kind(n) == AIRC_NODE_CALL_FUNCTION &&
           strcmp(airc_node_target(n), op) == 0;
}

static size_t count_calls(const airc_graph *g, const char *op)
{
    size_t k = 0;
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n))
        k += (size_t)is_call(n, op);
    return k;
}

/* The node that argument i of n refers to; NULL for a literal. */
static airc_node *arg_node(const airc_node *n, size_t i)
{
    airc_node *a = NULL;
    if (i < airc_node_num_args(n))
        airc_value_get_node(airc_node_arg(n, i), &a);
    return a;
}

/* The targets of g's call_function nodes, in order, joined by spaces. */
static const char *call_sequence(const airc_graph *g, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n)) {
        if (airc_node_get_kind(n) != AIRC_NODE_CALL_FUNCTION)
            continue;
        int w = snprintf(buf + len, size - len, "%s%s", len ? " " : "", airc_node_target(n));
        if (w < 0 || (size_t)w >= size - len)
            break;
        len += (size_t)w;
    }
    return buf;
}

static int calls_are(const airc_graph *g, const char *expected)
{
    char buf[512];
    const char *got = call_sequence(g, buf, sizeof buf);
    check(strcmp(got, expected) == 0, "call_functions are \"%s\", expected \"%s\"", got, expected);
    return strcmp(got, expected) == 0;
}

/* x + y, then * y: the graph most examples start from (make_fx's text). */
static const char *const ADD_MUL =
    "graph():\n"
    "    %x_1 : [#users=1] = placeholder[target=x_1]\n"
    "    %y_1 : [#users=2] = placeholder[target=y_1]\n"
    "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor]"
    "(args = (%x_1, %y_1), kwargs = {})\n"
    "    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor]"
    "(args = (%add, %y_1), kwargs = {})\n"
    "    return mul";

/* ------------------------------------------------------------------------ */
/* retarget: node.target = torch.ops.aten.mul.Tensor                        */
/* ------------------------------------------------------------------------ */

/* Transformer callback of ReplaceAddWithMul: copy every node, add as mul. */
static airc_status add_to_mul(void *user_data, airc_emitter *em, const airc_node *old,
                              airc_node **out)
{
    (void)user_data;
    const char *target = is_call(old, "aten.add.Tensor") ? "aten.mul.Tensor" : NULL;
    return airc_emitter_copy(em, old, target, out);
}

static void example_retarget(airc_context *ctx)
{
    airc_graph *g = parse(ctx, "retarget", ADD_MUL);
    airc_graph *t = NULL;
    airc_transformer *tr = NULL;
    if (!g)
        return;
    show("retarget", "before", g);

    /* In place: for node in gm.graph.nodes: if add: node.target = mul. */
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n))
        if (is_call(n, "aten.add.Tensor") && !ok(airc_node_set_target(n, "aten.mul.Tensor"),
                                                 "set_target"))
            goto done;
    show("retarget", "after", g);
    calls_are(g, "aten.mul.Tensor aten.mul.Tensor");
    /* The node keeps its name and arguments, as in torch.fx. */
    airc_node *n = airc_graph_find_node(g, "add");
    check(is_call(n, "aten.mul.Tensor") && airc_node_num_users(n) == 1,
          "retarget: node 'add' now calls mul and still feeds 'mul'");
    check(airc_graph_lint(g) == AIRC_OK, "retarget: lint: %s", airc_last_error());

    /* The same as a Transformer (ReplaceAddWithMul): a new graph; the
     * source is not changed. */
    airc_graph_destroy(g);
    g = parse(ctx, "retarget", ADD_MUL);
    if (!g || !ok(airc_transformer_create(ctx, add_to_mul, NULL, NULL, &tr), "transformer") ||
        !ok(airc_transformer_run(tr, g, &t), "transformer_run"))
        goto done;
    show("retarget", "after (Transformer)", t);
    calls_are(t, "aten.mul.Tensor aten.mul.Tensor");
    check(prints_as(g, ADD_MUL), "retarget: the Transformer left its source unchanged");
    check(airc_graph_lint(t) == AIRC_OK, "retarget: lint: %s", airc_last_error());
done:
    airc_transformer_destroy(tr);
    airc_graph_destroy(t);
    airc_graph_destroy(g);
}

/* ------------------------------------------------------------------------ */
/* insert_relu: inserting_after + replace_all_uses_with                     */
/* ------------------------------------------------------------------------ */

/* Every user but the new relu itself. The guide's
 * node.replace_all_uses_with(new_relu_node) would also rewrite the relu's
 * own argument (relu(relu)); torch.fx later added delete_user_cb for this. */
static int not_this_node(void *user_data, const airc_node *user)
{
    return user != (const airc_node *)user_data;
}

static void example_insert_relu(airc_context *ctx)
{
    airc_graph *g = parse(ctx, "insert_relu", ADD_MUL);
    if (!g)
        return;
    show("insert_relu", "before", g);
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n)) {
        if (!is_call(n, "aten.add.Tensor"))
            continue;
        const airc_value *arg;
        airc_node *relu;
        if (!ok(airc_value_node(g, n, &arg), "value") ||
            !ok(airc_graph_set_insert_point(g, AIRC_INSERT_AFTER, n), "insert point") ||
            !ok(airc_graph_call_function(g, "aten.relu.default", &arg, 1, &relu), "relu") ||
            !ok(airc_node_replace_all_uses_with(n, relu, not_this_node, relu, NULL), "replace"))
            break;
        n = relu; /* the walk goes on after the new node */
    }
    airc_graph_set_insert_point(g, AIRC_INSERT_END, NULL);
    show("insert_relu", "after", g);

    calls_are(g, "aten.add.Tensor aten.relu.default aten.mul.Tensor");
    airc_node *add = airc_graph_find_node(g, "add");
    airc_node *relu = add ? airc_node_next(add) : NULL;
    airc_node *mul = airc_graph_find_node(g, "mul");
    check(is_call(relu, "aten.relu.default") && arg_node(relu, 0) == add,
          "insert_relu: relu(add) right after add");
    check(add && airc_node_num_users(add) == 1 && airc_node_user(add, 0) == relu,
          "insert_relu: add's only user is relu");
    check(mul && arg_node(mul, 0) == relu, "insert_relu: mul reads relu");
    check(airc_graph_lint(g) == AIRC_OK, "insert_relu: lint: %s", airc_last_error());
    airc_graph_destroy(g);
}

/* ------------------------------------------------------------------------ */
/* one_to_many: a Transformer that decomposes                               */
/* ------------------------------------------------------------------------ */

static airc_status emit_call(airc_emitter *em, const char *op, const airc_value *a,
                             const airc_value *b, airc_node **out)
{
    const airc_value *args[2] = {a, b};
    return airc_graph_call_function(airc_emitter_graph(em), op, args, 2, out);
}

/* ReplaceAddWithMulSub (x + y -> (x * y) - y, the guide's toy) and
 * addmm(bias, m1, m2) -> mm(m1, m2) + bias (when beta and alpha are 1). */
static airc_status decompose(void *user_data, airc_emitter *em, const airc_node *old,
                             airc_node **out)
{
    (void)user_data;
    airc_graph *ng = airc_emitter_graph(em);
    const airc_value *a[3], *mid;
    airc_node *first;
    airc_status st;
    int add = is_call(old, "aten.add.Tensor") && airc_node_num_args(old) == 2 &&
              airc_node_num_kwargs(old) == 0;
    int addmm = is_call(old, "aten.addmm.default") && airc_node_num_args(old) == 3 &&
                airc_node_num_kwargs(old) == 0;
    if (!add && !addmm)
        return airc_emitter_copy(em, old, NULL, out);
    for (size_t i = 0; i < airc_node_num_args(old); i++)
        if ((st = airc_emitter_map_value(em, airc_node_arg(old, i), &a[i])) != AIRC_OK)
            return st;
    if (add) {
        if ((st = emit_call(em, "aten.mul.Tensor", a[0], a[1], &first)) != AIRC_OK ||
            (st = airc_value_node(ng, first, &mid)) != AIRC_OK)
            return st;
        return emit_call(em, "aten.sub.Tensor", mid, a[1], out);
    }
    if ((st = emit_call(em, "aten.mm.default", a[1], a[2], &first)) != AIRC_OK ||
        (st = airc_value_node(ng, first, &mid)) != AIRC_OK)
        return st;
    return emit_call(em, "aten.add.Tensor", mid, a[0], out);
}

static void example_one_to_many(airc_context *ctx)
{
    static const char *const text =
        "graph():\n"
        "    %x_1 : [#users=1] = placeholder[target=x_1]\n"
        "    %y_1 : [#users=1] = placeholder[target=y_1]\n"
        "    %b_1 : [#users=1] = placeholder[target=b_1]\n"
        "    %w_1 : [#users=1] = placeholder[target=w_1]\n"
        "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor]"
        "(args = (%x_1, %y_1), kwargs = {})\n"
        "    %addmm : [#users=1] = call_function[target=torch.ops.aten.addmm.default]"
        "(args = (%b_1, %add, %w_1), kwargs = {})\n"
        "    return addmm";
    airc_graph *g = parse(ctx, "one_to_many", text), *t = NULL;
    airc_transformer *tr = NULL;
    if (!g)
        return;
    show("one_to_many", "before", g);
    if (ok(airc_transformer_create(ctx, decompose, NULL, NULL, &tr), "transformer") &&
        ok(airc_transformer_run(tr, g, &t), "transformer_run")) {
        show("one_to_many", "after", t);
        if (calls_are(t, "aten.mul.Tensor aten.sub.Tensor aten.mm.default aten.add.Tensor")) {
            airc_node *mul = airc_graph_first_node(t);
            while (airc_node_get_kind(mul) != AIRC_NODE_CALL_FUNCTION)
                mul = airc_node_next(mul);
            airc_node *sub = airc_node_next(mul), *mm = airc_node_next(sub);
            airc_node *add = airc_node_next(mm);
            airc_node *x = airc_graph_find_node(t, "x_1"), *y = airc_graph_find_node(t, "y_1");
            airc_node *b = airc_graph_find_node(t, "b_1"), *w = airc_graph_find_node(t, "w_1");
            check(arg_node(mul, 0) == x && arg_node(mul, 1) == y, "one_to_many: mul(x, y)");
            check(arg_node(sub, 0) == mul && arg_node(sub, 1) == y, "one_to_many: sub(mul, y)");
            check(arg_node(mm, 0) == sub && arg_node(mm, 1) == w, "one_to_many: mm(sub, w)");
            check(arg_node(add, 0) == mm && arg_node(add, 1) == b, "one_to_many: add(mm, b)");
            check(arg_node(airc_graph_output_node(t), 0) == add, "one_to_many: returns add");
        }
        check(airc_graph_lint(t) == AIRC_OK, "one_to_many: lint: %s", airc_last_error());
    }
    airc_transformer_destroy(tr);
    airc_graph_destroy(t);
    airc_graph_destroy(g);
}

/* ------------------------------------------------------------------------ */
/* remove_detach: drop a node (the Transformer returns its input)           */
/* ------------------------------------------------------------------------ */

static const char *const DETACH =
    "graph():\n"
    "    %x_1 : [#users=1] = placeholder[target=x_1]\n"
    "    %y_1 : [#users=1] = placeholder[target=y_1]\n"
    "    %detach : [#users=1] = call_function[target=torch.ops.aten.detach.default]"
    "(args = (%x_1,), kwargs = {})\n"
    "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor]"
    "(args = (%detach, %y_1), kwargs = {})\n"
    "    %detach_1 : [#users=1] = call_function[target=torch.ops.aten.detach.default]"
    "(args = (%add,), kwargs = {})\n"
    "    return detach_1";

/* RemoveDetachPass: `return args[0]` — the source input stands for the
 * detach; the transformer translates it to its image. */
static airc_status drop_detach(void *user_data, airc_emitter *em, const airc_node *old,
                               airc_node **out)
{
    (void)user_data;
    if (!is_call(old, "aten.detach.default"))
        return airc_emitter_copy(em, old, NULL, out);
    *out = arg_node(old, 0);
    return AIRC_OK;
}

static void example_remove_detach(airc_context *ctx)
{
    airc_graph *g = parse(ctx, "remove_detach", DETACH), *t = NULL;
    airc_transformer *tr = NULL;
    char *by_transformer = NULL;
    if (!g)
        return;
    show("remove_detach", "before", g);
    if (!ok(airc_transformer_create(ctx, drop_detach, NULL, NULL, &tr), "transformer") ||
        !ok(airc_transformer_run(tr, g, &t), "transformer_run") ||
        !ok(airc_graph_print(t, AIRC_PRINT_NO_TYPES, &by_transformer), "print"))
        goto done;
    show("remove_detach", "after", t);
    calls_are(t, "aten.add.Tensor");
    airc_node *add = airc_graph_find_node(t, "add");
    check(add && arg_node(add, 0) == airc_graph_find_node(t, "x_1"),
          "remove_detach: add reads x_1");
    check(arg_node(airc_graph_output_node(t), 0) == add, "remove_detach: returns add");

    /* The same by direct edits on g: each detach's uses go to its input,
     * then it is erased (the walk saves `next` first). */
    for (airc_node *n = airc_graph_first_node(g), *next; n; n = next) {
        next = airc_node_next(n);
        if (is_call(n, "aten.detach.default") &&
            (!ok(airc_node_replace_all_uses_with(n, arg_node(n, 0), NULL, NULL, NULL),
                 "replace") ||
             !ok(airc_graph_erase_node(g, n), "erase")))
            goto done;
    }
    show("remove_detach", "after (direct edits)", g);
    check(prints_as(g, by_transformer), "remove_detach: both ways give the same graph");
    check(airc_graph_lint(g) == AIRC_OK, "remove_detach: lint: %s", airc_last_error());
done:
    airc_string_free(by_transformer);
    airc_transformer_destroy(tr);
    airc_graph_destroy(t);
    airc_graph_destroy(g);
}

/* ------------------------------------------------------------------------ */
/* scalar_to_tensor: arguments rewritten through the op's schema            */
/* ------------------------------------------------------------------------ */

/* The guide's ScalarToTensorPass: a literal int/float/bool passed where the
 * schema wants a Tensor becomes a tensor — here an
 * aten.scalar_tensor.default node with torch.tensor(v)'s dtype (int64,
 * float32, bool). Scalar-typed arguments (add's alpha) stay literals. */
static airc_status coerce(airc_emitter *em, const airc_schema *s, size_t ai, const airc_value *v,
                          const airc_value **out)
{
    airc_graph *ng = airc_emitter_graph(em);
    airc_value_kind k = airc_value_get_kind(v);
    if (airc_schema_arg_type(s, ai) != AIRC_TYPE_TENSOR || airc_schema_arg_is_list(s, ai) ||
        (k != AIRC_VALUE_INT && k != AIRC_VALUE_FLOAT && k != AIRC_VALUE_BOOL)) {
        *out = v;
        return AIRC_OK;
    }
    airc_dtype dt = k == AIRC_VALUE_INT ? AIRC_DTYPE_I64
                    : k == AIRC_VALUE_FLOAT ? AIRC_DTYPE_F32 : AIRC_DTYPE_BOOL;
    const char *kw = "dtype";
    const airc_value *dtv, *ref;
    airc_node *t;
    airc_status st;
    if ((st = airc_value_dtype(ng, dt, &dtv)) != AIRC_OK ||
        (st = airc_graph_create_node(ng, AIRC_NODE_CALL_FUNCTION, "aten.scalar_tensor.default",
                                     &v, 1, &kw, &dtv, 1, NULL, &t)) != AIRC_OK ||
        (st = airc_value_node(ng, t, &ref)) != AIRC_OK)
        return st;
    *out = ref;
    return AIRC_OK;
}

/* Index of the schema argument called `name`; num_args when none. */
static size_t schema_arg_index(const airc_schema *s, const char *name)
{
    size_t i = 0, n = airc_schema_num_args(s);
    while (i < n && strcmp(airc_schema_arg_name(s, i), name) != 0)
        i++;
    return i;
}

enum { MAX_ARGS = 16 };

static airc_status scalar_to_tensor(void *user_data, airc_emitter *em, const airc_node *old,
                                    airc_node **out)
{
    (void)user_data;
    const airc_op *op = airc_node_op(old);
    size_t na = airc_node_num_args(old), nk = airc_node_num_kwargs(old);
    if (!op || na > MAX_ARGS || nk > MAX_ARGS)
        return airc_emitter_copy(em, old, NULL, out);
    const airc_schema *s = airc_op_schema(op);
    const airc_value *args[MAX_ARGS], *kwv[MAX_ARGS];
    const char *kwn[MAX_ARGS];
    airc_status st;
    /* args_map: positional i is schema argument i (for the non-kwarg-only
     * ones), a keyword argument is found by name. */
    for (size_t i = 0; i < na; i++) {
        const airc_value *v;
        if ((st = airc_emitter_map_value(em, airc_node_arg(old, i), &v)) != AIRC_OK)
            return st;
        if (i < airc_schema_num_args(s) && !airc_schema_arg_is_kwarg_only(s, i)) {
            if ((st = coerce(em, s, i, v, &args[i])) != AIRC_OK)
                return st;
        } else {
            args[i] = v;
        }
    }
    for (size_t i = 0; i < nk; i++) {
        const airc_value *v;
        kwn[i] = airc_node_kwarg_name(old, i);
        size_t ai = schema_arg_index(s, kwn[i]);
        if ((st = airc_emitter_map_value(em, airc_node_kwarg_value(old, i), &v)) != AIRC_OK)
            return st;
        if (ai < airc_schema_num_args(s)) {
            if ((st = coerce(em, s, ai, v, &kwv[i])) != AIRC_OK)
                return st;
        } else {
            kwv[i] = v;
        }
    }
    /* super().call_function(target, args, kwargs), keeping the node's name. */
    return airc_graph_create_node(airc_emitter_graph(em), AIRC_NODE_CALL_FUNCTION,
                                  airc_node_target(old), args, na, kwn, kwv, nk,
                                  airc_node_name(old), out);
}

static void example_scalar_to_tensor(airc_context *ctx)
{
    static const char *const text =
        "graph():\n"
        "    %x_1 : [#users=1] = placeholder[target=x_1]\n"
        "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor]"
        "(args = (%x_1, 1), kwargs = {alpha: 2})\n"
        "    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor]"
        "(args = (%add, 2.5), kwargs = {})\n"
        "    return mul";
    airc_graph *g = parse(ctx, "scalar_to_tensor", text), *t = NULL;
    airc_transformer *tr = NULL;
    if (!g)
        return;
    show("scalar_to_tensor", "before", g);
    if (!ok(airc_transformer_create(ctx, scalar_to_tensor, NULL, NULL, &tr), "transformer") ||
        !ok(airc_transformer_run(tr, g, &t), "transformer_run"))
        goto done;
    show("scalar_to_tensor", "after", t);
    calls_are(t, "aten.scalar_tensor.default aten.add.Tensor "
                 "aten.scalar_tensor.default aten.mul.Tensor");
    airc_node *add = airc_graph_find_node(t, "add"), *mul = airc_graph_find_node(t, "mul");
    airc_node *one = arg_node(add, 1), *half = arg_node(mul, 1);
    int64_t alpha = 0, iv = 0;
    double fv = 0;
    airc_dtype d1 = AIRC_DTYPE_UNDEFINED, d2 = AIRC_DTYPE_UNDEFINED;
    check(is_call(one, "aten.scalar_tensor.default") &&
              airc_value_get_int(airc_node_arg(one, 0), &iv) == AIRC_OK && iv == 1 &&
              airc_value_get_dtype(airc_node_kwarg(one, "dtype"), &d1) == AIRC_OK &&
              d1 == AIRC_DTYPE_I64,
          "scalar_to_tensor: add's `other` is scalar_tensor(1, dtype=torch.int64)");
    check(is_call(half, "aten.scalar_tensor.default") &&
              airc_value_get_float(airc_node_arg(half, 0), &fv) == AIRC_OK && fv == 2.5 &&
              airc_value_get_dtype(airc_node_kwarg(half, "dtype"), &d2) == AIRC_OK &&
              d2 == AIRC_DTYPE_F32,
          "scalar_to_tensor: mul's `other` is scalar_tensor(2.5, dtype=torch.float32)");
    check(add && airc_value_get_int(airc_node_kwarg(add, "alpha"), &alpha) == AIRC_OK &&
              alpha == 2,
          "scalar_to_tensor: add's alpha (a Scalar) stays the literal 2");
    check(airc_graph_lint(t) == AIRC_OK, "scalar_to_tensor: lint: %s", airc_last_error());

    /* The new graph still type-checks: a 0-d int64 tensor does not promote
     * a float32 one, so add and mul stay f32[2, 3]. */
    airc_node *x = airc_graph_find_node(t, "x_1");
    airc_dtype dt;
    int32_t nd;
    const int64_t *shape;
    if (ok(airc_node_set_meta(x, AIRC_DTYPE_F32, 2, (const int64_t[]){2, 3}, NULL), "meta") &&
        ok(airc_graph_propagate_meta(t), "propagate_meta") &&
        ok(airc_node_output_meta(mul, 0, &dt, &nd, &shape, NULL), "meta"))
        check(dt == AIRC_DTYPE_F32 && nd == 2 && shape[0] == 2 && shape[1] == 3,
              "scalar_to_tensor: mul is f32[2, 3]");
done:
    airc_transformer_destroy(tr);
    airc_graph_destroy(t);
    airc_graph_destroy(g);
}

/* ------------------------------------------------------------------------ */
/* rewriter: subgraph_rewriter.replace_pattern_with_filters                 */
/* ------------------------------------------------------------------------ */

/* def pattern(x, y): return mul(add(x, y), y) — as FX text. */
static const char *const PATTERN =
    "graph():\n"
    "    %x : [#users=1] = placeholder[target=x]\n"
    "    %y : [#users=2] = placeholder[target=y]\n"
    "    %add_tensor : [#users=1] = call_function[target=torch.ops.aten.add.Tensor]"
    "(args = (%x, %y), kwargs = {})\n"
    "    %mul_tensor : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor]"
    "(args = (%add_tensor, %y), kwargs = {})\n"
    "    return mul_tensor";
/* def replacement(x, y): return sub(x, y) */
static const char *const REPLACEMENT =
    "graph():\n"
    "    %x : [#users=1] = placeholder[target=x]\n"
    "    %y : [#users=1] = placeholder[target=y]\n"
    "    %sub_tensor : [#users=1] = call_function[target=torch.ops.aten.sub.Tensor]"
    "(args = (%x, %y), kwargs = {})\n"
    "    return sub_tensor";
/* Two occurrences, and a third whose add is also used by relu: replacing
 * it would lose that use, so it is not a match. */
static const char *const REWRITE_GRAPH =
    "graph():\n"
    "    %x_1 : [#users=3] = placeholder[target=x_1]\n"
    "    %y_1 : [#users=3] = placeholder[target=y_1]\n"
    "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor]"
    "(args = (%x_1, %y_1), kwargs = {})\n"
    "    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor]"
    "(args = (%add, %y_1), kwargs = {})\n"
    "    %add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor]"
    "(args = (%mul, %x_1), kwargs = {})\n"
    "    %mul_1 : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor]"
    "(args = (%add_1, %x_1), kwargs = {})\n"
    "    %add_2 : [#users=2] = call_function[target=torch.ops.aten.add.Tensor]"
    "(args = (%mul_1, %y_1), kwargs = {})\n"
    "    %mul_2 : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor]"
    "(args = (%add_2, %y_1), kwargs = {})\n"
    "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default]"
    "(args = (%add_2,), kwargs = {})\n"
    "    return (mul_2, relu)";

/* A match filter (torch.fx match_filters): accept every match, and count
 * how many it saw. */
static int32_t count_matches(void *user_data, const airc_match *match, const airc_graph *graph,
                             const airc_graph *pattern)
{
    (void)match, (void)graph, (void)pattern;
    ++*(int *)user_data;
    return 1;
}

static void example_rewriter(airc_context *ctx)
{
    airc_graph *g = parse(ctx, "rewriter", REWRITE_GRAPH);
    airc_graph *pat = parse(ctx, "pattern", PATTERN);
    airc_graph *rep = parse(ctx, "replacement", REPLACEMENT);
    airc_replaced_patterns *r = NULL;
    int seen = 0;
    airc_match_filter filter = {count_matches, &seen};
    if (!g || !pat || !rep)
        goto done;
    show("rewriter", "before", g);
    if (!ok(airc_replace_pattern_with_filters(g, pat, rep, &filter, 1, 0, &r), "replace_pattern"))
        goto done;
    show("rewriter", "after", g);
    size_t n = airc_replaced_patterns_size(r);
    printf("rewriter: %zu matches replaced\n", n);
    for (size_t i = 0; i < n; i++) {
        printf("  anchor %s ->", airc_node_name(airc_replaced_patterns_anchor(r, i)));
        for (size_t j = 0; j < airc_replaced_patterns_num_replacements(r, i); j++)
            printf(" %s", airc_node_name(airc_replaced_patterns_replacement(r, i, j)));
        printf("\n");
    }
    check(n == 2 && seen == 2, "rewriter: 2 matches (filter saw %d), got %zu", seen, n);
    check(n == 2 && strcmp(airc_node_name(airc_replaced_patterns_anchor(r, 0)), "mul") == 0 &&
              strcmp(airc_node_name(airc_replaced_patterns_anchor(r, 1)), "mul_1") == 0,
          "rewriter: anchors are mul and mul_1");
    calls_are(g, "aten.sub.Tensor aten.sub.Tensor aten.add.Tensor aten.mul.Tensor "
                 "aten.relu.default");
    /* sub(x, y) then sub(<first sub>, x): the second match's x was the first
     * match's returning node, now its replacement. */
    airc_node *s0 = n == 2 ? airc_replaced_patterns_replacement(r, 0, 0) : NULL;
    airc_node *s1 = n == 2 ? airc_replaced_patterns_replacement(r, 1, 0) : NULL;
    airc_node *x = airc_graph_find_node(g, "x_1"), *y = airc_graph_find_node(g, "y_1");
    check(s0 && arg_node(s0, 0) == x && arg_node(s0, 1) == y, "rewriter: sub(x_1, y_1)");
    check(s1 && arg_node(s1, 0) == s0 && arg_node(s1, 1) == x, "rewriter: sub(sub, x_1)");
    check(airc_node_is_erased(airc_graph_find_node(g, "add_2")) == 0 &&
              arg_node(airc_graph_find_node(g, "add_2"), 0) == s1,
          "rewriter: add_2 (used by relu too) is kept and reads the second sub");
    check(airc_graph_lint(g) == AIRC_OK, "rewriter: lint: %s", airc_last_error());
done:
    airc_replaced_patterns_destroy(r);
    airc_graph_destroy(rep);
    airc_graph_destroy(pat);
    airc_graph_destroy(g);
}

/* ------------------------------------------------------------------------ */
/* matcher: SubgraphMatcher                                                 */
/* ------------------------------------------------------------------------ */

static void print_match(const airc_match *m)
{
    printf("  anchors:");
    for (size_t i = 0; i < airc_match_num_anchors(m); i++)
        printf(" %s", airc_node_name(airc_match_anchor(m, i)));
    printf("\n  nodes_map:");
    for (size_t i = 0; i < airc_match_num_entries(m); i++) {
        const airc_node *pn;
        airc_node *gn;
        const airc_value *lit;
        if (airc_match_entry(m, i, &pn, &gn, &lit) == AIRC_OK)
            printf(" %s->%s", airc_node_name(pn), gn ? airc_node_name(gn) : "<literal>");
    }
    printf("\n  placeholder_nodes:");
    for (size_t i = 0; i < airc_match_num_placeholders(m); i++) {
        airc_node *p = airc_match_placeholder(m, i);
        printf(" %s", p ? airc_node_name(p) : "<literal>");
    }
    printf("\n  returning_nodes:");
    for (size_t i = 0; i < airc_match_num_returning(m); i++)
        printf(" %s", airc_node_name(airc_match_returning(m, i)));
    printf("\n");
}

static void example_matcher(airc_context *ctx)
{
    /* The guide's pattern: addmm(bias, x, weight). */
    static const char *const pattern =
        "graph():\n"
        "    %bias : [#users=1] = placeholder[target=bias]\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %weight : [#users=1] = placeholder[target=weight]\n"
        "    %addmm_default : [#users=1] = call_function[target=torch.ops.aten.addmm.default]"
        "(args = (%bias, %x, %weight), kwargs = {})\n"
        "    return addmm_default";
    static const char *const text =
        "graph():\n"
        "    %x_1 : [#users=1] = placeholder[target=x_1]\n"
        "    %b_1 : [#users=2] = placeholder[target=b_1]\n"
        "    %w_1 : [#users=2] = placeholder[target=w_1]\n"
        "    %addmm : [#users=1] = call_function[target=torch.ops.aten.addmm.default]"
        "(args = (%b_1, %x_1, %w_1), kwargs = {})\n"
        "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default]"
        "(args = (%addmm,), kwargs = {})\n"
        "    %addmm_1 : [#users=1] = call_function[target=torch.ops.aten.addmm.default]"
        "(args = (%b_1, %relu, %w_1), kwargs = {})\n"
        "    return addmm_1";
    airc_graph *g = parse(ctx, "matcher", text), *pat = parse(ctx, "pattern", pattern);
    airc_matcher *m = NULL, *m2 = NULL;
    airc_match_list *all = NULL, *only_inputs = NULL;
    airc_matcher_options opts;
    if (!g || !pat)
        goto done;
    show("matcher", "graph", g);
    show("matcher", "pattern", pat);
    if (!ok(airc_matcher_create(pat, NULL, &m), "matcher") ||
        !ok(airc_matcher_match(m, g, &all), "match"))
        goto done;
    printf("matcher: %zu matches\n", airc_match_list_size(all));
    for (size_t i = 0; i < airc_match_list_size(all); i++)
        print_match(airc_match_list_get(all, i));
    check(airc_match_list_size(all) == 2, "matcher: 2 matches (placeholders are wildcards)");
    if (airc_match_list_size(all) == 2) {
        const airc_match *m1 = airc_match_list_get(all, 1);
        check(airc_match_returning(m1, 0) == airc_graph_find_node(g, "addmm_1") &&
                  airc_match_placeholder(m1, 1) == airc_graph_find_node(g, "relu"),
              "matcher: second match returns addmm_1, binds x to relu");
    }

    /* match_placeholder: pattern inputs must be graph inputs; addmm_1 reads
     * relu, so only the first addmm matches. */
    airc_matcher_options_init(&opts);
    opts.match_placeholder = 1;
    if (!ok(airc_matcher_create(pat, &opts, &m2), "matcher") ||
        !ok(airc_matcher_match(m2, g, &only_inputs), "match"))
        goto done;
    printf("matcher (match_placeholder): %zu matches\n", airc_match_list_size(only_inputs));
    check(airc_match_list_size(only_inputs) == 1 &&
              airc_match_anchor(airc_match_list_get(only_inputs, 0), 0) ==
                  airc_graph_find_node(g, "addmm"),
          "matcher: with match_placeholder only addmm matches");
done:
    airc_match_list_destroy(only_inputs);
    airc_match_list_destroy(all);
    airc_matcher_destroy(m2);
    airc_matcher_destroy(m);
    airc_graph_destroy(pat);
    airc_graph_destroy(g);
}

/* ------------------------------------------------------------------------ */
/* partitioner: CapabilityBasedPartitioner                                  */
/* ------------------------------------------------------------------------ */

/* An OperatorSupportBase written as a callback: relu. */
static int32_t supports_relu(void *user_data, const airc_node *node)
{
    (void)user_data;
    return is_call(node, "aten.relu.default");
}

static void example_partitioner(airc_context *ctx)
{
    static const char *const text =
        "graph():\n"
        "    %x_1 : [#users=2] = placeholder[target=x_1]\n"
        "    %y_1 : [#users=3] = placeholder[target=y_1]\n"
        "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor]"
        "(args = (%x_1, %y_1), kwargs = {})\n"
        "    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor]"
        "(args = (%add, %y_1), kwargs = {})\n"
        "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default]"
        "(args = (%mul,), kwargs = {})\n"
        "    %mm : [#users=1] = call_function[target=torch.ops.aten.mm.default]"
        "(args = (%relu, %y_1), kwargs = {})\n"
        "    %add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor]"
        "(args = (%mm, %x_1), kwargs = {})\n"
        "    %relu_1 : [#users=1] = call_function[target=torch.ops.aten.relu.default]"
        "(args = (%add_1,), kwargs = {})\n"
        "    return relu_1";
    static const char *const ops[] = {"aten.add.Tensor", "aten.mul.Tensor"};
    airc_graph *g = parse(ctx, "partitioner", text);
    airc_support *by_name = NULL, *by_fn = NULL, *support = NULL;
    airc_partitions *parts = NULL;
    if (!g)
        return;
    show("partitioner", "before", g);
    /* any_chain(add/mul by name, relu by callback): add, mul, relu. */
    if (!ok(airc_support_create_ops(ctx, ops, 2, &by_name), "support") ||
        !ok(airc_support_create(ctx, supports_relu, NULL, NULL, &by_fn), "support") ||
        !ok(airc_support_any_chain(ctx, (airc_support *const[]){by_name, by_fn}, 2, &support),
            "any_chain") ||
        !ok(airc_graph_propose_partitions(g, support, NULL, &parts), "propose"))
        goto done;
    size_t np = airc_partitions_count(parts), total = 0;
    printf("partitioner: %zu partitions\n", np);
    for (size_t i = 0; i < np; i++) {
        printf("  partition %zu:", i);
        for (size_t j = 0; j < airc_partition_size(parts, i); j++)
            printf(" %s", airc_node_name(airc_partition_node(parts, i, j)));
        printf("\n");
        total += airc_partition_size(parts, i);
    }
    check(np == 2 && total == 5, "partitioner: 2 partitions of 5 nodes (mm is not supported)");
    if (!ok(airc_graph_fuse_partitions(g, parts), "fuse"))
        goto done;
    show("partitioner", "after", g); /* nested graphs follow as # submodule */

    calls_are(g, "aten.mm.default");
    size_t calls = 0;
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n))
        calls += airc_node_get_kind(n) == AIRC_NODE_CALL_MODULE;
    check(calls == 2 && airc_graph_num_submodules(g) == 2,
          "partitioner: two call_module nodes, two nested graphs");
    size_t fused = 0;
    for (size_t i = 0; i < airc_graph_num_submodules(g); i++) {
        const airc_graph *sub = airc_graph_submodule_at(g, i, NULL);
        for (airc_node *n = airc_graph_first_node(sub); n; n = airc_node_next(n)) {
            if (airc_node_get_kind(n) != AIRC_NODE_CALL_FUNCTION)
                continue;
            fused++;
            check(airc_support_is_supported(support, n), "partitioner: %s is supported",
                  airc_node_name(n));
        }
    }
    check(fused == 5, "partitioner: the nested graphs hold the 5 supported nodes");
    check(airc_graph_lint(g) == AIRC_OK, "partitioner: lint: %s", airc_last_error());
done:
    airc_partitions_destroy(parts);
    airc_support_destroy(support);
    airc_support_destroy(by_fn);
    airc_support_destroy(by_name);
    airc_graph_destroy(g);
}

/* ------------------------------------------------------------------------ */
/* pass_manager: checks after each pass, and the rollback                   */
/* ------------------------------------------------------------------------ */

/* Retargets every call of user_data[0] to user_data[1]. */
static airc_status retarget_pass(airc_graph *g, const airc_example_inputs *inputs,
                                 const airc_config *config, void *user_data)
{
    (void)inputs, (void)config;
    const char *const *ops = user_data;
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n)) {
        airc_status st;
        if (is_call(n, ops[0]) && (st = airc_node_set_target(n, ops[1])) != AIRC_OK)
            return st;
    }
    return AIRC_OK;
}

/* The check: say the backend has no division. */
static airc_status check_no_div(const airc_graph *g, void *user_data)
{
    (void)user_data;
    for (airc_node *n = airc_graph_first_node(g); n; n = airc_node_next(n))
        if (is_call(n, "aten.div.Tensor"))
            return airc_pass_fail(AIRC_E_INVALID_GRAPH, "%s is a division: not supported",
                                  airc_node_name(n));
    return AIRC_OK;
}

/* A bad pass of another kind: opens a stream scope and never closes it. */
static airc_status unpaired_scope(airc_graph *g, const airc_example_inputs *inputs,
                                  const airc_config *config, void *user_data)
{
    (void)inputs, (void)config, (void)user_data;
    const airc_value *s, *l;
    airc_node *n;
    airc_status st;
    if ((st = airc_value_string(g, "_user_stream_label", &s)) != AIRC_OK ||
        (st = airc_value_list(g, &s, 1, &l)) != AIRC_OK ||
        (st = airc_graph_set_insert_point(g, AIRC_INSERT_BEFORE,
                                          airc_graph_output_node(g))) != AIRC_OK)
        return st;
    st = airc_graph_call_function(g, "air.scope_enter.default", (const airc_value *[]){l, l}, 2,
                                  &n);
    airc_graph_set_insert_point(g, AIRC_INSERT_END, NULL);
    return st;
}

static const char *const ADD_TO_MUL[] = {"aten.add.Tensor", "aten.mul.Tensor"};
static const char *const MUL_TO_DIV[] = {"aten.mul.Tensor", "aten.div.Tensor"};

static void example_pass_manager(airc_context *ctx)
{
    airc_graph *g = parse(ctx, "pass_manager", ADD_MUL), *expected = NULL;
    airc_pass_manager *pm = NULL, *pm2 = NULL;
    char *before_bad = NULL;
    if (!g)
        return;
    show("pass_manager", "before", g);
    if (!ok(airc_pass_manager_create(ctx, &pm), "pass manager") ||
        !ok(airc_pass_manager_add_pass(pm, "replace_add_with_mul", retarget_pass,
                                       (void *)ADD_TO_MUL, NULL), "add_pass") ||
        !ok(airc_pass_manager_add_pass(pm, "replace_mul_with_div", retarget_pass,
                                       (void *)MUL_TO_DIV, NULL), "add_pass") ||
        !ok(airc_pass_manager_add_check(pm, check_no_div, NULL, NULL), "add_check") ||
        !ok(airc_pass_manager_set_run_checks_after_each_pass(pm, 1), "checks"))
        goto done;

    /* What the graph is after the first pass alone: the rollback target. */
    if (!ok(airc_graph_clone(g, &expected), "clone") ||
        !ok(retarget_pass(expected, NULL, NULL, (void *)ADD_TO_MUL), "pass") ||
        !ok(airc_graph_print(expected, AIRC_PRINT_NO_TYPES, &before_bad), "print"))
        goto done;

    airc_status st = airc_pass_manager_run(pm, g, NULL, NULL, NULL);
    printf("pass_manager: run: %s: %s\n", airc_status_name(st), airc_last_error());
    check(st == AIRC_E_PASS && strstr(airc_last_error(), "replace_mul_with_div") &&
              strstr(airc_last_error(), "is a division"),
          "pass_manager: the check fails after replace_mul_with_div, naming it");
    show("pass_manager", "after (rolled back to before replace_mul_with_div)", g);
    check(prints_as(g, before_bad), "pass_manager: g is as the first pass left it");
    calls_are(g, "aten.mul.Tensor aten.mul.Tensor");

    /* suppress_check_failures: the failure is a warning, the run goes on. */
    if (!ok(airc_pass_manager_set_suppress_check_failures(pm, 1), "suppress"))
        goto done;
    airc_context_set_log_level(ctx, AIRC_LOG_ERROR); /* keep the warning off stderr */
    st = airc_pass_manager_run(pm, g, NULL, NULL, NULL);
    airc_context_set_log_level(ctx, AIRC_LOG_WARN);
    check(st == AIRC_OK, "pass_manager: with suppress_check_failures the run succeeds");
    show("pass_manager", "after (check failures suppressed)", g);
    calls_are(g, "aten.div.Tensor aten.div.Tensor");

    /* A pass that leaves an unpaired scope_enter: lint refuses the graph,
     * the pass manager restores it. */
    char *text = NULL;
    if (!ok(airc_graph_print(g, AIRC_PRINT_NO_TYPES, &text), "print"))
        goto done;
    if (ok(airc_pass_manager_create(ctx, &pm2), "pass manager") &&
        ok(airc_pass_manager_add_pass(pm2, "unpaired_scope", unpaired_scope, NULL, NULL),
           "add_pass")) {
        st = airc_pass_manager_run(pm2, g, NULL, NULL, NULL);
        printf("pass_manager: run: %s: %s\n", airc_status_name(st), airc_last_error());
        check(st == AIRC_E_PASS && strstr(airc_last_error(), "unpaired_scope"),
              "pass_manager: the unpaired scope is refused, naming the pass");
        check(prints_as(g, text), "pass_manager: g is as it was before unpaired_scope");
        check(count_calls(g, "air.scope_enter.default") == 0, "pass_manager: no scope_enter");
    }
    airc_string_free(text);
done:
    airc_string_free(before_bad);
    airc_pass_manager_destroy(pm2);
    airc_pass_manager_destroy(pm);
    airc_graph_destroy(expected);
    airc_graph_destroy(g);
}

int main(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "usage: transforms (no arguments)\n");
        return 2;
    }
    airc_context *ctx = NULL;
    if (!ok(airc_context_create(NULL, &ctx), "airc_context_create"))
        return 1;
    example_retarget(ctx);
    example_insert_relu(ctx);
    example_one_to_many(ctx);
    example_remove_detach(ctx);
    example_scalar_to_tensor(ctx);
    example_rewriter(ctx);
    example_matcher(ctx);
    example_partitioner(ctx);
    example_pass_manager(ctx);
    airc_context_destroy(ctx);
    if (failures) {
        fprintf(stderr, "transforms: %d checks failed\n", failures);
        return 1;
    }
    printf("transforms: all checks passed\n");
    return 0;
}
