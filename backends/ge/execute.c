/* The reference executor: a ModelDef read back, validated, raised op by op
 * into ATen nodes (each GE op type's raiser), then run by the eager
 * executor on the CPU kernels — so what max-autotune emits is checked by
 * running it, not by reading it.
 *
 * Validation (every failure names the op): one GraphDef; op names present
 * and unique; inputs "op:index" naming an earlier op (ops are in
 * topological order: a later or unknown name is a dangling or cyclic
 * input) and an output it has; control inputs "op:-1" naming an op;
 * `Data` with a unique `index` in 0..n-1; `Const` with a `value` tensor
 * whose bytes match its shape; exactly one `NetOutput`, last; every other
 * type known to the executor — declared in the context
 * (airc_context_set_ge_op, which wins) or built in — with the arity and
 * attributes its raiser checks. */
#include "backends/ge/execute.h"
#include "io/io.h"
#include "ir/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct raised {
    airc_node **out; /* per output of the op */
    size_t nout;
    const Ge__Proto__TensorDef *konst; /* Const: its tensor */
} raised;

static airc_status op_error(const Ge__Proto__OpDef *op, const char *what)
{
    return airc_fail(AIRC_E_INVALID_GRAPH, "ModelDef: op '%s' (%s): %s", op->name,
                     op->type && *op->type ? op->type : "?", what);
}

/* "name:index" -> the producer's position and the index. */
static airc_status parse_input(const airc_strmap *names, const Ge__Proto__OpDef *op, const char *s,
                               size_t self, size_t *producer, int64_t *index)
{
    const char *colon = strrchr(s, ':');
    if (!colon || colon == s)
        return op_error(op, "an input is not 'op:index'");
    char *end;
    long long idx = strtoll(colon + 1, &end, 10);
    if (*end || end == colon + 1 || idx < -1)
        return op_error(op, "an input has a bad output index");
    void *v = airc_strmap_getn(names, s, (size_t)(colon - s));
    if (!v) {
        char msg[300];
        snprintf(msg, sizeof msg, "input '%.200s' names no op", s);
        return op_error(op, msg);
    }
    size_t pos = (size_t)(uintptr_t)v - 1;
    if (pos >= self) {
        char msg[300];
        snprintf(msg, sizeof msg,
                 "input '%.200s' comes from a later op (a cycle, or ops out of "
                 "topological order)",
                 s);
        return op_error(op, msg);
    }
    *producer = pos;
    *index = idx;
    return AIRC_OK;
}

static void free_tensor(void *p)
{
    airc_tensor_destroy(p);
}

static airc_status raise_const(airc_graph *g, const Ge__Proto__OpDef *op, size_t pos, raised *r)
{
    const Ge__Proto__AttrDef *a = airc_ge_find_attr(op, "value");
    if (!a || a->value_case != GE__PROTO__ATTR_DEF__VALUE_T || !a->t || !a->t->desc)
        return op_error(op, "attribute 'value' (a tensor) is missing");
    const Ge__Proto__TensorDescriptor *d = a->t->desc;
    airc_dtype dt = airc_ge_from_proto_dtype(d->dtype);
    size_t ndim = d->shape ? d->shape->n_dim : 0;
    if (dt == AIRC_DTYPE_UNDEFINED || ndim > AIRC_MAX_DIMS)
        return op_error(op, "the value's dtype or rank is not supported");
    /* the shape is checked against the bytes before anything is allocated:
     * a small model must not ask for a huge (or negative) tensor */
    size_t numel, nbytes;
    if (airc_tensor_check_shape("Const", dt, (int32_t)ndim, d->shape ? d->shape->dim : NULL,
                                &numel, &nbytes) != AIRC_OK)
        return op_error(op, "the value's shape is negative or too large");
    if (nbytes != a->t->data.len)
        return op_error(op, "the value's byte count does not match its shape");
    airc_tensor *t;
    AIRC_TRY(
        airc_tensor_new(g->ctx, dt, (int32_t)ndim, d->shape ? d->shape->dim : NULL, false, &t));
    if (t->nbytes)
        memcpy(t->data, a->t->data.data, t->nbytes);
    char name[64];
    snprintf(name, sizeof name, "const_%zu", pos);
    airc_status st =
        airc_graph_set_constant(g, name, dt, t->ndim, t->shape, NULL, t->data, free_tensor, t);
    if (st != AIRC_OK) {
        airc_tensor_destroy(t);
        return st;
    }
    r->konst = a->t;
    return airc_graph_get_attr(g, name, &r->out[0]);
}

static airc_status raise_op(airc_graph *g, const airc_strmap *names, raised *rs, size_t pos,
                            const Ge__Proto__OpDef *op)
{
    /* the context's declaration first: users may override a built-in type */
    airc_ge_custom_type custom;
    ge_raise_fn fn = airc_ge_raise_custom;
    const void *data = &custom;
    if (!airc_ge_custom_type_find(g->ctx, op->type, &custom)) {
        const ge_raise_entry *e = airc_ge_builtin_raiser(op->type);
        if (!e) {
            char msg[300];
            snprintf(msg, sizeof msg,
                     "unknown op type '%.100s' (the reference executor has no "
                     "implementation of it; declare a custom type with "
                     "airc_context_set_ge_op)",
                     op->type);
            return op_error(op, msg);
        }
        fn = e->fn;
        data = e->data;
    }
    ge_raise r;
    memset(&r, 0, sizeof r);
    r.g = g;
    r.op = op;
    r.data = data;
    r.nout = rs[pos].nout;
    r.out = rs[pos].out;
    airc_node *in[64];
    const Ge__Proto__TensorDef *cin[64];
    for (size_t i = 0; i < op->n_input; i++) {
        const char *s = op->input[i];
        if (!*s) { /* an absent optional input */
            if (r.nin >= 64)
                return op_error(op, "more than 64 inputs");
            in[r.nin] = NULL;
            cin[r.nin++] = NULL;
            continue;
        }
        size_t p = 0;
        int64_t idx = 0;
        AIRC_TRY(parse_input(names, op, s, pos, &p, &idx));
        if (idx < 0)
            continue; /* a control edge: order only, which graph order keeps */
        if ((size_t)idx >= rs[p].nout || !rs[p].out[idx])
            return op_error(op, "an input names an output its producer does not have");
        if (r.nin >= 64)
            return op_error(op, "more than 64 inputs");
        in[r.nin] = rs[p].out[idx];
        cin[r.nin++] = rs[p].konst;
    }
    r.in = in;
    r.cin = cin;
    airc_status st = fn(&r);
    if (st != AIRC_OK) { /* name the op unless the raiser did */
        char mention[300];
        snprintf(mention, sizeof mention, "op '%.250s'", op->name);
        if (strstr(airc_last_error(), mention))
            return airc_fail_prefix("ModelDef");
        return airc_fail_prefix("ModelDef: op '%s' (%s)", op->name, op->type);
    }
    for (size_t j = 0; j < r.nout; j++)
        if (!r.out[j])
            return op_error(op, "the reference executor produced no value for an output");
    return AIRC_OK;
}

static airc_status raise_output(airc_graph *g, const airc_strmap *names, raised *rs, size_t pos,
                                const Ge__Proto__OpDef *op)
{
    const airc_value **items = airc_calloc(g->ctx, op->n_input + 1, sizeof *items);
    if (!items)
        return airc_fail_oom("NetOutput");
    size_t n = 0;
    airc_status st = AIRC_OK;
    for (size_t i = 0; st == AIRC_OK && i < op->n_input; i++) {
        size_t p = 0;
        int64_t idx = 0;
        st = parse_input(names, op, op->input[i], pos, &p, &idx);
        if (st != AIRC_OK || idx < 0)
            continue;
        if ((size_t)idx >= rs[p].nout || !rs[p].out[idx])
            st = op_error(op, "an input names an output its producer does not have");
        else
            st = airc_value_node(g, rs[p].out[idx], &items[n++]);
    }
    const airc_value *tuple = NULL;
    airc_node *node;
    if (st == AIRC_OK)
        st = airc_value_tuple(g, items, n, &tuple);
    if (st == AIRC_OK)
        st = airc_graph_output(g, tuple, &node);
    airc_free(g->ctx, items);
    return st;
}

/* Placeholders in Data index order, first (torch.fx's convention). */
static airc_status raise_data(airc_graph *g, const Ge__Proto__GraphDef *gd, raised *rs,
                              size_t *ninputs)
{
    size_t n = 0;
    for (size_t i = 0; i < gd->n_op; i++)
        n += !strcmp(gd->op[i]->type, "Data");
    size_t *by_index = airc_calloc(g->ctx, n + 1, sizeof *by_index);
    if (!by_index)
        return airc_fail_oom("Data ops");
    for (size_t i = 0; i < n; i++)
        by_index[i] = SIZE_MAX;
    airc_status st = AIRC_OK;
    for (size_t i = 0; st == AIRC_OK && i < gd->n_op; i++) {
        const Ge__Proto__OpDef *op = gd->op[i];
        if (strcmp(op->type, "Data"))
            continue;
        const Ge__Proto__AttrDef *a = airc_ge_find_attr(op, "index");
        if (!a || a->value_case != GE__PROTO__ATTR_DEF__VALUE_I)
            st = op_error(op, "attribute 'index' (int) is missing");
        else if (a->i < 0 || (size_t)a->i >= n || by_index[a->i] != SIZE_MAX)
            st = op_error(op, "attribute 'index' is out of range or repeated");
        else
            by_index[a->i] = i;
    }
    for (size_t k = 0; st == AIRC_OK && k < n; k++) {
        char name[32];
        snprintf(name, sizeof name, "arg%zu", k);
        st = airc_graph_placeholder(g, name, &rs[by_index[k]].out[0]);
    }
    airc_free(g->ctx, by_index);
    *ninputs = n;
    return st;
}

static airc_status build(airc_graph *g, const Ge__Proto__ModelDef *m, airc_strmap *names,
                         raised *rs, size_t *ninputs)
{
    const Ge__Proto__GraphDef *gd = m->graph[0];
    for (size_t i = 0; i < gd->n_op; i++) {
        const Ge__Proto__OpDef *op = gd->op[i];
        if (!op->name || !*op->name || !op->type || !*op->type)
            return airc_fail(AIRC_E_INVALID_GRAPH, "ModelDef: op %zu has no name or no type", i);
        if (airc_strmap_get(names, op->name))
            return op_error(op, "its name is used twice");
        if (!airc_strmap_put(names, op->name, (void *)(uintptr_t)(i + 1)))
            return airc_fail_oom("op names");
        rs[i].nout = op->n_output_desc;
        rs[i].out = airc_calloc(g->ctx, op->n_output_desc + 1, sizeof *rs[i].out);
        if (!rs[i].out)
            return airc_fail_oom("op outputs");
        if (!strcmp(op->type, "NetOutput") && i + 1 != gd->n_op)
            return op_error(op, "NetOutput must be the last op");
    }
    if (!gd->n_op || strcmp(gd->op[gd->n_op - 1]->type, "NetOutput"))
        return airc_fail(AIRC_E_INVALID_GRAPH, "ModelDef: the graph has no NetOutput");
    AIRC_TRY(raise_data(g, gd, rs, ninputs));
    AIRC_TRY(airc_graph_set_insert_point(g, AIRC_INSERT_END, NULL));
    for (size_t i = 0; i < gd->n_op; i++) {
        const Ge__Proto__OpDef *op = gd->op[i];
        if (!strcmp(op->type, "Data"))
            continue;
        if (!strcmp(op->type, "Const")) {
            if (!rs[i].nout)
                return op_error(op, "it has no output_desc");
            AIRC_TRY(raise_const(g, op, i, &rs[i]));
        } else if (!strcmp(op->type, "NetOutput")) {
            AIRC_TRY(raise_output(g, names, rs, i, op));
        } else {
            AIRC_TRY(raise_op(g, names, rs, i, op));
        }
    }
    return airc_graph_lint(g);
}

airc_status airc_ge_raise_model(airc_context *ctx, const Ge__Proto__ModelDef *m, airc_graph **out,
                                size_t *ninputs)
{
    if (!m || m->n_graph != 1 || !m->graph[0])
        return airc_fail(AIRC_E_INVALID_GRAPH, "ModelDef: expected exactly one GraphDef, found %zu",
                         m ? m->n_graph : 0);
    airc_graph *g;
    AIRC_TRY(airc_graph_create(ctx, &g));
    const Ge__Proto__GraphDef *gd = m->graph[0];
    raised *rs = airc_calloc(ctx, gd->n_op + 1, sizeof *rs);
    airc_strmap names;
    airc_strmap_init(&names, ctx);
    size_t n = 0;
    airc_status st = rs ? build(g, m, &names, rs, &n) : airc_fail_oom("ModelDef ops");
    for (size_t i = 0; rs && i < gd->n_op; i++)
        airc_free(ctx, rs[i].out);
    airc_free(ctx, rs);
    airc_strmap_free(&names);
    if (st != AIRC_OK) {
        airc_graph_destroy(g);
        return st;
    }
    *out = g;
    if (ninputs)
        *ninputs = n;
    return AIRC_OK;
}

airc_status airc_model_read(airc_context *ctx, const void *data, size_t len, airc_graph **out)
{
    AIRC_TRY(airc_check_context(ctx, "airc_model_read"));
    if (!out || (!data && len))
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_model_read: NULL argument");
    Ge__Proto__ModelDef *m;
    AIRC_TRY(airc_ge_unpack(ctx, data, len, &m));
    airc_status st = airc_ge_raise_model(ctx, m, out, NULL);
    airc_ge_unpacked_free(ctx, m);
    return st;
}
