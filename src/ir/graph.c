/* Graph lifetime, iteration, lookup, insertion point, submodules. */
#include "ir/ir.h"
#include "ops/ops.h"

#include <string.h>

airc_status airc_check_graph(const airc_graph *g, const char *fn)
{
    if (!g)
        return airc_fail(AIRC_E_MISUSE, "%s: graph is NULL", fn);
    if (g->magic != AIRC_MAGIC_GRAPH)
        return airc_fail(AIRC_E_MISUSE, "%s: not a live airc_graph", fn);
    return AIRC_OK;
}

airc_status airc_check_node(const airc_node *n, const char *fn)
{
    if (!n)
        return airc_fail(AIRC_E_MISUSE, "%s: node is NULL", fn);
    if (n->magic != AIRC_MAGIC_NODE)
        return airc_fail(AIRC_E_MISUSE, "%s: not an airc_node", fn);
    if (n->erased)
        return airc_fail(AIRC_E_MISUSE, "%s: node '%s' was erased", fn, n->name);
    if (!n->graph || n->graph->magic != AIRC_MAGIC_GRAPH)
        return airc_fail(AIRC_E_MISUSE, "%s: node's graph was destroyed", fn);
    return AIRC_OK;
}

airc_status airc_graph_create(airc_context *ctx, airc_graph **out)
{
    AIRC_TRY(airc_check_context(ctx, "airc_graph_create"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_graph_create: out is NULL");
    airc_graph *g = airc_calloc(ctx, 1, sizeof *g);
    if (!g)
        return airc_fail_oom("graph");
    g->ctx = ctx;
    airc_arena_init(&g->arena, ctx);
    airc_arena_init(&g->node_arena, ctx);
    g->root.prev = g->root.next = &g->root;
    g->root.graph = g;
    g->root.order = 0;
    g->root.name = "";
    airc_strmap_init(&g->sub_by_name, ctx);
    g->name_tomb.magic = AIRC_MAGIC_NODE;
    g->name_tomb.erased = true;
    g->name_tomb.name = "";
    airc_strmap_init(&g->ns.used, ctx);
    airc_strmap_init(&g->ns.bases, ctx);
    airc_strmap_init(&g->ns.runs, ctx);
    g->ins_where = AIRC_INSERT_END;
    g->magic = AIRC_MAGIC_GRAPH;
    airc_context_retain(ctx);
    *out = g;
    return AIRC_OK;
}

static void free_node_arrays(airc_context *ctx, airc_node *n)
{
    if (!n->users_in_arena)
        airc_free(ctx, n->users);
    if (!n->inputs_in_arena)
        airc_free(ctx, n->inputs);
    airc_free(ctx, n->out);
    airc_free(ctx, n->attr_keys);
    airc_free(ctx, n->attr_values);
}

/* Every node ever created (erased ones too) must release its heap arrays:
 * erased nodes are unlinked, so they are tracked on a side list. */
void airc_graph_destroy(airc_graph *g)
{
    if (!g || g->magic != AIRC_MAGIC_GRAPH)
        return;
    airc_context *ctx = g->ctx;
    AIRC_FOR_EACH_NODE(g, n) {
        free_node_arrays(ctx, n);
        n->magic = AIRC_MAGIC_DEAD;
    }
    for (size_t i = 0; i < g->nerased; i++) {
        free_node_arrays(ctx, g->erased[i]);
        g->erased[i]->magic = AIRC_MAGIC_DEAD;
    }
    airc_free(ctx, g->erased);
    for (size_t i = 0; i < g->nsubs; i++) {
        g->subs[i]->parent = NULL;
        airc_graph_destroy(g->subs[i]);
    }
    airc_free(ctx, g->subs);
    airc_free(ctx, g->sub_names);
    airc_strmap_free(&g->sub_by_name);
    for (size_t i = 0; i < g->nconsts; i++)
        airc_constant_release(g->consts[i]);
    airc_free(ctx, g->consts);
    airc_strmap_free(&g->ns.used);
    airc_strmap_free(&g->ns.bases);
    airc_strmap_free(&g->ns.runs);
    airc_arena_free(&g->arena);
    airc_arena_free(&g->node_arena);
    g->magic = AIRC_MAGIC_DEAD;
    airc_free(ctx, g);
    airc_context_release(ctx);
}

airc_context *airc_graph_context(const airc_graph *g)
{
    return g && g->magic == AIRC_MAGIC_GRAPH ? g->ctx : NULL;
}

size_t airc_graph_num_nodes(const airc_graph *g)
{
    return g && g->magic == AIRC_MAGIC_GRAPH ? g->nnodes : 0;
}

airc_node *airc_graph_first_node(const airc_graph *g)
{
    if (!g || g->magic != AIRC_MAGIC_GRAPH || g->root.next == &g->root)
        return NULL;
    return g->root.next;
}

airc_node *airc_graph_last_node(const airc_graph *g)
{
    if (!g || g->magic != AIRC_MAGIC_GRAPH || g->root.prev == &g->root)
        return NULL;
    return g->root.prev;
}

airc_node *airc_node_next(const airc_node *n)
{
    if (!n || n->magic != AIRC_MAGIC_NODE || n->erased || n->next == &n->graph->root)
        return NULL;
    return n->next;
}

airc_node *airc_node_prev(const airc_node *n)
{
    if (!n || n->magic != AIRC_MAGIC_NODE || n->erased || n->prev == &n->graph->root)
        return NULL;
    return n->prev;
}

airc_node *airc_graph_find_node(const airc_graph *g, const char *name)
{
    if (!g || g->magic != AIRC_MAGIC_GRAPH || !name)
        return NULL;
    return airc_graph_node_by_name(g, name, strlen(name));
}

airc_node *airc_graph_node_by_name(const airc_graph *g, const char *name, size_t len)
{
    airc_node *n = airc_strmap_getn(&g->ns.used, name, len);
    return n && !n->erased ? n : NULL;
}

bool airc_graph_reserve_names(airc_graph *g, size_t extra)
{
    return airc_strmap_reserve(&g->ns.used, extra);
}

airc_node *airc_graph_output_node(const airc_graph *g)
{
    if (!g || g->magic != AIRC_MAGIC_GRAPH)
        return NULL;
    /* the output is normally last: walk backwards */
    for (airc_node *n = g->root.prev; n != &g->root; n = n->prev)
        if (n->kind == AIRC_NODE_OUTPUT)
            return n;
    return NULL;
}

airc_status airc_graph_set_insert_point(airc_graph *g, int32_t where, airc_node *anchor)
{
    AIRC_TRY(airc_check_graph(g, "airc_graph_set_insert_point"));
    switch (where) {
    case AIRC_INSERT_END:
    case AIRC_INSERT_FRONT:
        g->ins_where = where;
        g->ins_anchor = NULL;
        return AIRC_OK;
    case AIRC_INSERT_BEFORE:
    case AIRC_INSERT_AFTER:
        AIRC_TRY(airc_check_node(anchor, "airc_graph_set_insert_point"));
        if (anchor->graph != g)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "airc_graph_set_insert_point: node '%s' is not in this graph",
                             anchor->name);
        g->ins_where = where;
        g->ins_anchor = anchor;
        return AIRC_OK;
    default:
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_graph_set_insert_point: unknown position %d", (int)where);
    }
}

airc_status airc_graph_get_insert_point(const airc_graph *g, int32_t *where, airc_node **anchor)
{
    AIRC_TRY(airc_check_graph(g, "airc_graph_get_insert_point"));
    if (!where || !anchor)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_graph_get_insert_point: NULL out");
    *where = g->ins_where;
    *anchor = g->ins_anchor;
    return AIRC_OK;
}

airc_status airc_graph_add_submodule(airc_graph *g, const char *name, airc_graph *sub)
{
    AIRC_TRY(airc_check_graph(g, "airc_graph_add_submodule"));
    AIRC_TRY(airc_check_graph(sub, "airc_graph_add_submodule"));
    if (!name || !*name)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_graph_add_submodule: empty name");
    if (sub == g || sub->parent)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_graph_add_submodule: graph already has a parent");
    for (airc_graph *p = g; p; p = p->parent)
        if (p == sub)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "airc_graph_add_submodule: '%s' would contain itself", name);
    if (sub->ctx != g->ctx)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_graph_add_submodule: '%s' belongs to another context", name);
    if (airc_graph_submodule(g, name))
        return airc_fail(AIRC_E_EXISTS, "airc_graph_add_submodule: submodule '%s' exists", name);
    size_t cap = g->subs_cap;
    if (!airc_grow(g->ctx, (void **)&g->subs, &cap, g->nsubs + 1, sizeof *g->subs))
        return airc_fail_oom("submodule list");
    cap = g->subs_cap;
    if (!airc_grow(g->ctx, (void **)&g->sub_names, &cap, g->nsubs + 1, sizeof *g->sub_names))
        return airc_fail_oom("submodule list");
    g->subs_cap = cap;
    char *copy = airc_arena_strdup(&g->arena, name);
    if (!copy || !airc_strmap_reserve(&g->sub_by_name, 1))
        return airc_fail_oom("submodule name");
    airc_strmap_put(&g->sub_by_name, copy, sub);
    g->subs[g->nsubs] = sub;
    g->sub_names[g->nsubs] = copy;
    g->nsubs++;
    sub->parent = g;
    return AIRC_OK;
}

airc_graph *airc_graph_submodule(const airc_graph *g, const char *name)
{
    if (!g || g->magic != AIRC_MAGIC_GRAPH || !name)
        return NULL;
    return airc_strmap_get(&g->sub_by_name, name);
}

void airc_graph_drop_submodules(airc_graph *g, const uint8_t *drop)
{
    size_t w = 0;
    for (size_t i = 0; i < g->nsubs; i++) {
        if (drop[i]) {
            airc_strmap_remove(&g->sub_by_name, g->sub_names[i]);
            g->subs[i]->parent = NULL;
            airc_graph_destroy(g->subs[i]);
            continue;
        }
        g->subs[w] = g->subs[i];
        g->sub_names[w] = g->sub_names[i];
        w++;
    }
    g->nsubs = w;
}

size_t airc_graph_num_submodules(const airc_graph *g)
{
    return g && g->magic == AIRC_MAGIC_GRAPH ? g->nsubs : 0;
}

airc_graph *airc_graph_submodule_at(const airc_graph *g, size_t i, const char **name)
{
    if (!g || g->magic != AIRC_MAGIC_GRAPH || i >= g->nsubs)
        return NULL;
    if (name)
        *name = g->sub_names[i];
    return g->subs[i];
}

const char *airc_node_kind_name(airc_node_kind kind)
{
    static const char *const names[] = {"placeholder", "get_attr", "call_function",
                                        "call_module", "output"};
    return kind >= 0 && kind <= AIRC_NODE_OUTPUT ? names[kind] : NULL;
}
