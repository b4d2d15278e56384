/* airc_graph_lint: torch.fx Graph.lint's checks (opcode, ownership, use
 * before definition, unique names) plus what a compiler needs to trust a
 * graph: users consistent with args, exactly one output and it is last,
 * call_function arguments against the op's schema, get_attr / call_module
 * targets resolved, air.scope_enter/scope_exit paired, air.record's result
 * read by air.wait alone (it is an event handle, not data). */
#include "ir/ir.h"
#include "ops/ops.h"

#include <string.h>

typedef struct lint_ctx {
    const airc_graph *g;
    const airc_node *node;
    airc_status st;
} lint_ctx;

static void check_ref(void *user, airc_node *x)
{
    lint_ctx *c = user;
    if (c->st != AIRC_OK)
        return;
    if (!x || x->magic != AIRC_MAGIC_NODE)
        c->st = airc_fail(AIRC_E_INVALID_GRAPH, "node '%s': an argument is not a node",
                          c->node->name);
    else if (x->graph != c->g)
        c->st = airc_fail(AIRC_E_INVALID_GRAPH,
                          "Argument '%s' of Node '%s' does not belong to this Graph", x->name,
                          c->node->name);
    else if (x->erased || x->mark != c->g->epoch)
        c->st = airc_fail(AIRC_E_INVALID_GRAPH,
                          "Argument '%s' of Node '%s' was used before it has been defined! "
                          "Please check that Nodes in the graph are topologically ordered",
                          x->name, c->node->name);
}

/* splitmix64 of the edge's two creation ids */
static uint64_t edge_hash(const airc_node *from, const airc_node *to)
{
    uint64_t z = ((uint64_t)from->id << 32 | to->id) + UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static airc_status check_scopes(const airc_graph *g)
{
    const airc_node *open[64];
    size_t depth = 0;
    AIRC_FOR_EACH_NODE(g, n) {
        if (n->kind != AIRC_NODE_CALL_FUNCTION)
            continue;
        if (!strcmp(n->op->qualname, AIRC_OP_SCOPE_ENTER)) {
            if (depth == sizeof open / sizeof open[0])
                return airc_fail(AIRC_E_INVALID_GRAPH,
                                 "node '%s': air.scope_enter nested deeper than %zu", n->name,
                                 sizeof open / sizeof open[0]);
            open[depth++] = n;
        } else if (!strcmp(n->op->qualname, AIRC_OP_SCOPE_EXIT)) {
            if (!depth)
                return airc_fail(AIRC_E_INVALID_GRAPH,
                                 "node '%s': air.scope_exit without a matching air.scope_enter "
                                 "(unpaired scopes usually come from a user pass)",
                                 n->name);
            depth--;
        } else if (!strcmp(n->op->qualname, AIRC_OP_RECORD)) {
            for (size_t u = 0; u < n->nusers; u++) {
                const airc_node *w = n->users[u];
                if (w->kind != AIRC_NODE_CALL_FUNCTION || strcmp(w->op->qualname, AIRC_OP_WAIT))
                    return airc_fail(AIRC_E_INVALID_GRAPH,
                                     "node '%s' reads the result of air.record '%s', which only "
                                     "air.wait may take (it marks a point of a stream, it holds "
                                     "no data)",
                                     w->name, n->name);
            }
        }
    }
    if (depth)
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "node '%s': air.scope_enter has no matching air.scope_exit "
                         "(unpaired scopes usually come from a user pass)",
                         open[depth - 1]->name);
    return AIRC_OK;
}

airc_status airc_graph_lint(const airc_graph *cg)
{
    AIRC_TRY(airc_check_graph(cg, "airc_graph_lint"));
    airc_graph *g = (airc_graph *)cg; /* lint only touches scratch marks */
    g->epoch++;
    const airc_node *output = NULL;
    size_t count = 0;
    size_t nedges_users = 0, nedges_inputs = 0;
    uint64_t edges_users = 0, edges_inputs = 0;
    uint64_t last_order = 0;
    AIRC_FOR_EACH_NODE(g, n) {
        count++;
        if (n->magic != AIRC_MAGIC_NODE || n->kind < AIRC_NODE_PLACEHOLDER ||
            n->kind > AIRC_NODE_OUTPUT)
            return airc_fail(AIRC_E_INVALID_GRAPH, "Node '%s' had unknown opcode %d!",
                             n->name ? n->name : "?", (int)n->kind);
        if (n->graph != g)
            return airc_fail(AIRC_E_INVALID_GRAPH, "Node '%s' does not belong to this Graph!",
                             n->name);
        if (n->order <= last_order && count > 1)
            return airc_fail(AIRC_E_INTERNAL, "node '%s': order labels out of sequence", n->name);
        last_order = n->order;
        if (output)
            return airc_fail(AIRC_E_INVALID_GRAPH,
                             "node '%s' comes after the output node '%s': output must be last",
                             n->name, output->name);
        lint_ctx c = {g, n, AIRC_OK};
        for (uint32_t i = 0; i < n->nargs; i++)
            airc_value_visit_nodes(n->args[i], check_ref, &c);
        for (uint32_t i = 0; i < n->nkw; i++)
            airc_value_visit_nodes(n->kw_values[i], check_ref, &c);
        if (c.st != AIRC_OK)
            return c.st;
        if (airc_strmap_get(&g->ns.used, n->name) != n)
            return airc_fail(AIRC_E_INVALID_GRAPH, "Node redefined name %s!", n->name);
        /* use-def links: every user must be live and of this graph; the
         * two directions are compared as edge multisets below */
        for (size_t i = 0; i < n->nusers; i++) {
            const airc_node *u = n->users[i];
            if (!u || u->magic != AIRC_MAGIC_NODE || u->erased || u->graph != g)
                return airc_fail(AIRC_E_INTERNAL, "node '%s' lists a dead or foreign user",
                                 n->name);
            edges_users += edge_hash(n, u);
        }
        for (size_t i = 0; i < n->ninputs; i++)
            edges_inputs += edge_hash(n->inputs[i], n);
        nedges_users += n->nusers;
        nedges_inputs += n->ninputs;
        n->mark = g->epoch;

        switch (n->kind) {
        case AIRC_NODE_CALL_FUNCTION:
            AIRC_TRY(airc_schema_check_node(n));
            break;
        case AIRC_NODE_CALL_MODULE:
            if (!airc_graph_submodule(g, n->target))
                return airc_fail(AIRC_E_INVALID_GRAPH,
                                 "Node '%s' target %s references nonexistent submodule", n->name,
                                 n->target);
            break;
        case AIRC_NODE_GET_ATTR:
            if (g->nconsts && airc_graph_get_constant(g, n->target, NULL, NULL, NULL, NULL,
                                                      NULL) != AIRC_OK)
                return airc_fail(AIRC_E_INVALID_GRAPH,
                                 "Node '%s' target %s references nonexistent constant", n->name,
                                 n->target);
            break;
        case AIRC_NODE_PLACEHOLDER:
            if (n->nargs > 1 || n->nkw)
                return airc_fail(AIRC_E_INVALID_GRAPH,
                                 "placeholder '%s' takes at most one argument (its default)",
                                 n->name);
            break;
        case AIRC_NODE_OUTPUT:
            if (n->nargs != 1 || n->nkw)
                return airc_fail(AIRC_E_INVALID_GRAPH,
                                 "output node '%s' must have exactly one argument", n->name);
            output = n;
            break;
        }
    }
    /* each (input, user) edge appears once on each side: equal counts and
     * equal sums of a strong 64-bit hash per edge (O(edges), where a
     * membership scan per edge is quadratic for a widely read node) */
    if (nedges_users != nedges_inputs || edges_users != edges_inputs)
        return airc_fail(AIRC_E_INTERNAL, "users and inputs disagree (%zu user edges, %zu input "
                         "edges)", nedges_users, nedges_inputs);
    if (count != g->nnodes)
        return airc_fail(AIRC_E_INTERNAL, "graph node count %zu != %zu listed", g->nnodes, count);
    if (!output)
        return airc_fail(AIRC_E_INVALID_GRAPH, "graph has no output node");
    AIRC_TRY(check_scopes(g));
    for (size_t i = 0; i < g->nsubs; i++)
        if (airc_graph_lint(g->subs[i]) != AIRC_OK)
            return airc_fail_prefix("in submodule '%s'", g->sub_names[i]);
    return AIRC_OK;
}
