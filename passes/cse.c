/* cse: torch.fx's CSEPass (torch/fx/passes/dialect/common/cse_pass.py),
 * in place. Nodes are visited in order; a node's inputs are first rewired
 * to their surviving twins, then its call (op, args, kwargs; node refs by
 * identity) is hashed with XXH3 and compared with airc_value_equal against
 * earlier calls of the same hash. A duplicate is mapped to the first
 * occurrence and erased at the end.
 *
 * Differences from torch 1.13, on purpose: side-effect ops (in-place ops,
 * air.* stream/event ops) and random ops are never merged (torch bans only
 * a short list); 1 and 1.0 and True are different literals (Python's ==
 * merges them); keyword order does not matter.
 *
 * torch rebuilds the graph, so every users list comes out in graph order;
 * rewiring in place appends, so the users of each surviving twin are put
 * back in graph order at the end. */
#include "passmgr/passmgr.h"
#include "ops/ops.h"

#include <stdlib.h>
#include <string.h>

typedef struct slot {
    uint64_t hash;
    airc_node *node; /* NULL: empty */
} slot;

/* cse_candidate per op, remembered: a graph has few distinct ops, and the
 * test compares the op's name with every random op */
typedef struct op_memo {
    const airc_op *op;
    bool candidate;
} op_memo;

typedef struct cse_state {
    airc_context *ctx;
    op_memo memo[16];
    slot *slots;
    size_t mask;
    airc_node **rep; /* by node id: the earlier twin, or NULL */
    airc_node **targets; /* twins that gained users (to re-sort) */
    size_t ntargets;
    bool *is_target;     /* by node id */
} cse_state;

static const char *const random_ops[] = {
    "_fused_dropout", "_standard_gamma", "bernoulli", "binomial", "dropout", "exponential",
    "multinomial", "native_dropout", "normal", "poisson", "rand", "rand_like", "randint",
    "randint_like", "randn", "randn_like", "randperm", "rrelu", "uniform", "bernoulli_",
    "uniform_", "normal_", "exponential_",
};

static bool is_random(const airc_op *op)
{
    const char *name = op->schema->name;
    for (size_t i = 0; i < sizeof random_ops / sizeof random_ops[0]; i++)
        if (!strcmp(name, random_ops[i]))
            return true;
    return false;
}

static bool op_candidate(const airc_op *op)
{
    if (op->flags & AIRC_OP_SIDE_EFFECT)
        return false;
    if (!strcmp(op->schema->ns, "air"))
        return false;
    return !is_random(op);
}

static bool cse_candidate(cse_state *s, const airc_node *n)
{
    if (n->kind != AIRC_NODE_CALL_FUNCTION)
        return false;
    op_memo *m = &s->memo[((uintptr_t)n->op >> 4) % (sizeof s->memo / sizeof s->memo[0])];
    if (m->op != n->op)
        *m = (op_memo){n->op, op_candidate(n->op)};
    return m->candidate;
}

static const airc_value *kwarg(const airc_node *n, const char *name)
{
    for (uint32_t i = 0; i < n->nkw; i++)
        if (!strcmp(n->kw_names[i], name))
            return n->kw_values[i];
    return NULL;
}

static bool same_call(const airc_node *a, const airc_node *b)
{
    if (a->op != b->op || a->nargs != b->nargs || a->nkw != b->nkw)
        return false;
    for (uint32_t i = 0; i < a->nargs; i++)
        if (!airc_value_equal(a->args[i], b->args[i]))
            return false;
    for (uint32_t i = 0; i < a->nkw; i++) {
        const airc_value *v = kwarg(b, a->kw_names[i]);
        if (!v || !airc_value_equal(a->kw_values[i], v))
            return false;
    }
    return true;
}

/* Finds an earlier equal call, or records n. */
static airc_node *lookup_or_insert(cse_state *s, airc_node *n)
{
    uint64_t h = airc_call_hash(n);
    for (size_t i = (size_t)h & s->mask;; i = (i + 1) & s->mask) {
        slot *sl = &s->slots[i];
        if (!sl->node) {
            sl->hash = h;
            sl->node = n;
            return NULL;
        }
        if (sl->hash == h && same_call(sl->node, n))
            return sl->node;
    }
}

/* Rewires n's inputs to their twins. */
static airc_status remap_inputs(cse_state *s, airc_node *n)
{
    for (size_t i = 0; i < n->ninputs;) {
        airc_node *x = n->inputs[i];
        airc_node *r = s->rep[x->id];
        if (!r) {
            i++;
            continue;
        }
        /* inputs shrink or are reordered by the edit: rescan from the
         * start (a node has few inputs) */
        AIRC_TRY(airc_node_replace_input_with(n, x, r));
        if (!s->is_target[r->id]) {
            s->is_target[r->id] = true;
            s->targets[s->ntargets++] = r;
        }
        i = 0;
    }
    return AIRC_OK;
}

static int by_order(const void *a, const void *b)
{
    const airc_node *x = *(airc_node *const *)a, *y = *(airc_node *const *)b;
    return x->order < y->order ? -1 : x->order > y->order;
}

static airc_status cse_graph(airc_graph *g, int32_t *changed)
{
    airc_context *ctx = g->ctx;
    size_t cap = 16;
    while (cap < 2 * g->nnodes + 2)
        cap *= 2;
    cse_state s = {.ctx = ctx, .mask = cap - 1};
    s.slots = airc_calloc(ctx, cap, sizeof *s.slots);
    s.rep = airc_calloc(ctx, g->next_id ? g->next_id : 1, sizeof *s.rep);
    s.targets = airc_calloc(ctx, g->nnodes ? g->nnodes : 1, sizeof *s.targets);
    s.is_target = airc_calloc(ctx, g->next_id ? g->next_id : 1, sizeof *s.is_target);
    airc_status st = AIRC_OK;
    if (!s.slots || !s.rep || !s.targets || !s.is_target) {
        st = airc_fail_oom("cse tables");
        goto done;
    }
    size_t dups = 0;
    AIRC_FOR_EACH_NODE(g, n) {
        if ((st = remap_inputs(&s, n)) != AIRC_OK) {
            airc_fail_prefix("cse: node '%s'", n->name);
            goto done;
        }
        if (!cse_candidate(&s, n))
            continue;
        airc_node *twin = lookup_or_insert(&s, n);
        if (twin) {
            s.rep[n->id] = twin;
            dups++;
        }
    }
    /* duplicates have lost all their users: erase them, last first */
    for (airc_node *n = g->root.prev, *prev; dups && n != &g->root; n = prev) {
        prev = n->prev;
        if (!s.rep[n->id])
            continue;
        if ((st = airc_graph_erase_node(g, n)) != AIRC_OK) {
            airc_fail_prefix("cse");
            goto done;
        }
        dups--;
        *changed = 1;
    }
    for (size_t i = 0; i < s.ntargets; i++) {
        airc_node *t = s.targets[i];
        qsort(t->users, t->nusers, sizeof *t->users, by_order);
    }
done:
    airc_free(ctx, s.slots);
    airc_free(ctx, s.is_target);
    airc_free(ctx, s.rep);
    airc_free(ctx, s.targets);
    return st;
}

airc_status airc_pass_cse(airc_graph *g, int32_t *changed)
{
    AIRC_TRY(airc_check_graph(g, "airc_pass_cse"));
    return airc_pass_each_graph(g, cse_graph, changed);
}
