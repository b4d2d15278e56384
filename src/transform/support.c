/* Operator-support objects (torch.fx OperatorSupportBase, chain, any_chain)
 * and the partition list container. */
#include "transform/partition_internal.h"
#include "ops/ops.h"

#include <stdlib.h>
#include <string.h>

enum { SUPPORT_FN, SUPPORT_OPS, SUPPORT_ALL, SUPPORT_ANY };

struct airc_support {
    uint32_t magic;
    atomic_int refs;
    airc_context *ctx;
    int32_t kind;
    airc_support_fn fn;
    void *user_data;
    airc_free_fn free_user_data;
    const airc_op **ops;    /* SUPPORT_OPS */
    airc_support **parts;   /* SUPPORT_ALL / SUPPORT_ANY (references held) */
    size_t n;
};

static airc_status new_support(airc_context *ctx, int32_t kind, size_t n, const char *fn,
                               airc_support **out)
{
    AIRC_TRY(airc_check_context(ctx, fn));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: out is NULL", fn);
    airc_support *s = airc_calloc(ctx, 1, sizeof *s);
    if (!s)
        return airc_fail_oom("operator support");
    if (n && !(s->parts = airc_calloc(ctx, n, sizeof(void *)))) {
        airc_free(ctx, s);
        return airc_fail_oom("operator support");
    }
    s->magic = AIRC_MAGIC_SUPPORT;
    atomic_init(&s->refs, 1);
    s->ctx = ctx;
    s->kind = kind;
    s->n = n;
    *out = s;
    return AIRC_OK;
}

airc_status airc_support_create(airc_context *ctx, airc_support_fn fn, void *user_data,
                                airc_free_fn free_user_data, airc_support **out)
{
    if (!fn) {
        AIRC_TRY(airc_check_context(ctx, "airc_support_create"));
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_support_create: fn is NULL");
    }
    airc_support *s = NULL;
    AIRC_TRY(new_support(ctx, SUPPORT_FN, 0, "airc_support_create", &s));
    s->fn = fn;
    s->user_data = user_data;
    s->free_user_data = free_user_data;
    *out = s;
    return AIRC_OK;
}

airc_status airc_support_create_ops(airc_context *ctx, const char *const *ops, size_t n,
                                    airc_support **out)
{
    AIRC_TRY(airc_check_context(ctx, "airc_support_create_ops"));
    if (n && !ops)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_support_create_ops: ops is NULL");
    const airc_op **found = airc_calloc(ctx, n ? n : 1, sizeof *found);
    if (!found)
        return airc_fail_oom("operator support");
    for (size_t i = 0; i < n; i++) {
        airc_status st = ops[i] ? airc_context_find_op(ctx, ops[i], &found[i])
                                : airc_fail(AIRC_E_INVALID_ARGUMENT, "op %zu is NULL", i);
        if (st != AIRC_OK) {
            airc_free(ctx, found);
            return airc_fail_prefix("airc_support_create_ops");
        }
    }
    airc_support *s = NULL;
    airc_status st = new_support(ctx, SUPPORT_OPS, 0, "airc_support_create_ops", &s);
    if (st != AIRC_OK) {
        airc_free(ctx, found);
        return st;
    }
    s->ops = found;
    s->n = n;
    *out = s;
    return AIRC_OK;
}

static airc_status combine(airc_context *ctx, int32_t kind, airc_support *const *parts, size_t n,
                           const char *fn, airc_support **out)
{
    AIRC_TRY(airc_check_context(ctx, fn));
    if (n && !parts)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: parts is NULL", fn);
    for (size_t i = 0; i < n; i++) {
        if (!parts[i] || parts[i]->magic != AIRC_MAGIC_SUPPORT)
            return airc_fail(AIRC_E_MISUSE, "%s: part %zu is not a live support object", fn, i);
        if (parts[i]->ctx != ctx)
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: part %zu belongs to another context",
                             fn, i);
    }
    airc_support *s = NULL;
    AIRC_TRY(new_support(ctx, kind, n, fn, &s));
    for (size_t i = 0; i < n; i++) {
        atomic_fetch_add(&parts[i]->refs, 1);
        s->parts[i] = parts[i];
    }
    *out = s;
    return AIRC_OK;
}

airc_status airc_support_chain(airc_context *ctx, airc_support *const *parts, size_t n,
                               airc_support **out)
{
    return combine(ctx, SUPPORT_ALL, parts, n, "airc_support_chain", out);
}

airc_status airc_support_any_chain(airc_context *ctx, airc_support *const *parts, size_t n,
                                   airc_support **out)
{
    return combine(ctx, SUPPORT_ANY, parts, n, "airc_support_any_chain", out);
}

bool airc_support_live(const airc_support *s)
{
    return s && s->magic == AIRC_MAGIC_SUPPORT;
}

/* Combinations nest only as deep as the caller built them, so plain
 * recursion is bounded by the caller's own construction depth. */
int32_t airc_support_is_supported(const airc_support *s, const airc_node *node)
{
    if (!s || s->magic != AIRC_MAGIC_SUPPORT || !node || node->magic != AIRC_MAGIC_NODE ||
        node->erased || node->kind != AIRC_NODE_CALL_FUNCTION)
        return 0;
    switch (s->kind) {
    case SUPPORT_FN:
        return s->fn(s->user_data, node) != 0;
    case SUPPORT_OPS:
        for (size_t i = 0; i < s->n; i++)
            if (s->ops[i] == node->op)
                return 1;
        return 0;
    case SUPPORT_ALL:
        for (size_t i = 0; i < s->n; i++)
            if (!airc_support_is_supported(s->parts[i], node))
                return 0;
        return 1;
    default:
        for (size_t i = 0; i < s->n; i++)
            if (airc_support_is_supported(s->parts[i], node))
                return 1;
        return 0;
    }
}

void airc_support_destroy(airc_support *s)
{
    if (!s || s->magic != AIRC_MAGIC_SUPPORT)
        return;
    if (atomic_fetch_sub(&s->refs, 1) != 1)
        return;
    airc_context *ctx = s->ctx;
    if (s->kind == SUPPORT_ALL || s->kind == SUPPORT_ANY)
        for (size_t i = 0; i < s->n; i++)
            airc_support_destroy(s->parts[i]);
    if (s->free_user_data)
        s->free_user_data(s->user_data);
    s->magic = AIRC_MAGIC_DEAD;
    airc_free(ctx, s->parts);
    airc_free(ctx, s->ops);
    airc_free(ctx, s);
}

/* ---- partition lists --------------------------------------------------- */

bool airc_partitions_push(airc_partitions *p, airc_node *const *nodes, size_t n)
{
    if (!airc_grow(p->ctx, (void **)&p->nodes, &p->nodes_cap, p->nnodes + n, sizeof *p->nodes) ||
        !airc_grow(p->ctx, (void **)&p->start, &p->start_cap, p->count + 2, sizeof *p->start))
        return false;
    memcpy(p->nodes + p->nnodes, nodes, n * sizeof *nodes);
    p->nnodes += n;
    p->start[++p->count] = p->nnodes;
    return true;
}

airc_status airc_partitions_create(airc_graph *g, airc_partitions **out)
{
    AIRC_TRY(airc_check_graph(g, "airc_partitions_create"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_partitions_create: out is NULL");
    airc_partitions *p = airc_calloc(g->ctx, 1, sizeof *p);
    if (!p || !(p->start = airc_calloc(g->ctx, 4, sizeof *p->start))) {
        airc_free(g->ctx, p);
        return airc_fail_oom("partition list");
    }
    p->magic = AIRC_MAGIC_PARTITIONS;
    p->ctx = g->ctx;
    p->g = g;
    p->start_cap = 4;
    *out = p;
    return AIRC_OK;
}

static int by_order(const void *x, const void *y)
{
    uint64_t a = (*(airc_node *const *)x)->order, b = (*(airc_node *const *)y)->order;
    return a < b ? -1 : a > b;
}

airc_status airc_partitions_add(airc_partitions *p, airc_node *const *nodes, size_t n)
{
    if (!p || p->magic != AIRC_MAGIC_PARTITIONS)
        return airc_fail(AIRC_E_MISUSE, "airc_partitions_add: not a live partition list");
    if (!n || !nodes)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_partitions_add: empty partition");
    airc_graph *g = p->g;
    g->epoch++;
    for (size_t i = 0; i < p->nnodes; i++)
        if (p->nodes[i]->magic == AIRC_MAGIC_NODE)
            p->nodes[i]->mark = g->epoch;
    for (size_t i = 0; i < n; i++) {
        AIRC_TRY(airc_check_node(nodes[i], "airc_partitions_add"));
        if (nodes[i]->graph != g)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "airc_partitions_add: node '%s' is not in the list's graph",
                             nodes[i]->name);
        if (nodes[i]->kind != AIRC_NODE_CALL_FUNCTION)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "airc_partitions_add: node '%s' is a %s, not a call_function",
                             nodes[i]->name, airc_node_kind_name(nodes[i]->kind));
        if (nodes[i]->mark == g->epoch)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "airc_partitions_add: node '%s' is already in a partition",
                             nodes[i]->name);
        nodes[i]->mark = g->epoch;
    }
    if (!airc_partitions_push(p, nodes, n))
        return airc_fail_oom("partition list");
    airc_node **a = p->nodes + p->start[p->count - 1];
    qsort(a, n, sizeof *a, by_order); /* keep graph order inside the partition */
    return AIRC_OK;
}

void airc_partitions_destroy(airc_partitions *p)
{
    if (!p || p->magic != AIRC_MAGIC_PARTITIONS)
        return;
    p->magic = AIRC_MAGIC_DEAD;
    airc_free(p->ctx, p->nodes);
    airc_free(p->ctx, p->start);
    airc_free(p->ctx, p);
}

size_t airc_partitions_count(const airc_partitions *p)
{
    return p && p->magic == AIRC_MAGIC_PARTITIONS ? p->count : 0;
}

size_t airc_partition_size(const airc_partitions *p, size_t i)
{
    if (!p || p->magic != AIRC_MAGIC_PARTITIONS || i >= p->count)
        return 0;
    return p->start[i + 1] - p->start[i];
}

airc_node *airc_partition_node(const airc_partitions *p, size_t i, size_t j)
{
    if (j >= airc_partition_size(p, i))
        return NULL;
    return p->nodes[p->start[i] + j];
}
