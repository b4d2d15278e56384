/* Transformer: re-emits a graph's nodes through a callback into a new graph
 * (torch.fx.Transformer builds a new GraphModule too). The source graph is
 * never changed, so a failed run needs no undo: the partial new graph is
 * simply destroyed. */
#include "transform/transform_internal.h"
#include "ops/ops.h"

#include <string.h>

struct airc_transformer {
    uint32_t magic;
    airc_context *ctx;
    airc_transform_fn fn;
    void *user_data;
    airc_free_fn free_user_data;
};

struct airc_emitter {
    const airc_graph *src;
    airc_graph *dst;
    airc_node **map; /* source node id -> image (NULL: none) */
    uint32_t nids;
};

airc_status airc_transformer_create(airc_context *ctx, airc_transform_fn fn, void *user_data,
                                    airc_free_fn free_user_data, airc_transformer **out)
{
    AIRC_TRY(airc_check_context(ctx, "airc_transformer_create"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_transformer_create: out is NULL");
    airc_transformer *t = airc_calloc(ctx, 1, sizeof *t);
    if (!t)
        return airc_fail_oom("transformer");
    t->magic = AIRC_MAGIC_TRANSFORMER;
    t->ctx = ctx;
    t->fn = fn;
    t->user_data = user_data;
    t->free_user_data = free_user_data;
    airc_context_retain(ctx);
    *out = t;
    return AIRC_OK;
}

void airc_transformer_destroy(airc_transformer *t)
{
    if (!t || t->magic != AIRC_MAGIC_TRANSFORMER)
        return;
    if (t->free_user_data)
        t->free_user_data(t->user_data);
    airc_context *ctx = t->ctx;
    t->magic = AIRC_MAGIC_DEAD;
    airc_free(ctx, t);
    airc_context_release(ctx);
}

/* ---- emitter ----------------------------------------------------------- */

static airc_status check_emitter(const airc_emitter *em, const char *fn)
{
    if (!em || !em->dst)
        return airc_fail(AIRC_E_MISUSE, "%s: invalid emitter (used outside its callback?)", fn);
    return AIRC_OK;
}

airc_graph *airc_emitter_graph(const airc_emitter *em)
{
    return em ? em->dst : NULL;
}

const airc_graph *airc_emitter_source(const airc_emitter *em)
{
    return em ? em->src : NULL;
}

static airc_node *image_of(const airc_emitter *em, const airc_node *x)
{
    if (x->graph == em->dst)
        return (airc_node *)x;
    if (x->graph == em->src && x->id < em->nids)
        return em->map[x->id];
    return NULL;
}

airc_node *airc_emitter_lookup(const airc_emitter *em, const airc_node *old)
{
    if (!em || !old || old->magic != AIRC_MAGIC_NODE || old->graph != em->src)
        return NULL;
    return image_of(em, old);
}

static airc_node *map_ref(void *user, airc_node *x)
{
    return image_of(user, x);
}

typedef struct ref_check {
    const airc_emitter *em;
    airc_node *bad;
} ref_check;

static void check_ref(void *user, airc_node *x)
{
    ref_check *rc = user;
    if (!rc->bad && !image_of(rc->em, x))
        rc->bad = x;
}

airc_status airc_emitter_map_value(airc_emitter *em, const airc_value *v, const airc_value **out)
{
    static const char fn[] = "airc_emitter_map_value";
    AIRC_TRY(check_emitter(em, fn));
    if (!v || !out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: value or out is NULL", fn);
    if (v->owner == em->dst) {
        *out = v;
        return AIRC_OK;
    }
    if (v->owner && v->owner != em->src)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: the value belongs to another graph", fn);
    ref_check rc = {em, NULL};
    airc_value_visit_nodes(v, check_ref, &rc);
    if (rc.bad)
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "%s: node '%s' has no image in the new graph (dropped without a "
                         "replacement, or not visited yet)",
                         fn, rc.bad->name);
    const airc_value *c = airc_value_copy(&em->dst->arena, em->dst, v, map_ref, em);
    if (!c)
        return airc_fail_oom("mapped value");
    *out = c;
    return AIRC_OK;
}

static airc_status copy_meta_attrs(airc_emitter *em, const airc_node *old, airc_node *c,
                                   bool with_meta)
{
    airc_context *ctx = em->dst->ctx;
    if (with_meta && old->meta_kind != AIRC_META_NONE) {
        if (!airc_grow(ctx, (void **)&c->out, &c->out_cap, old->nout ? old->nout : 1,
                       sizeof *c->out))
            return airc_fail_oom("node meta");
        if (old->nout)
            memcpy(c->out, old->out, old->nout * sizeof *c->out);
        c->nout = old->nout;
        c->meta_kind = old->meta_kind;
        c->type_annotated = old->type_annotated;
    }
    for (size_t i = 0; i < old->nattrs; i++) {
        const airc_value *v;
        AIRC_TRY(airc_emitter_map_value(em, old->attr_values[i], &v));
        AIRC_TRY(airc_node_set_attr(c, old->attr_keys[i], v));
    }
    return AIRC_OK;
}

airc_status airc_emitter_copy(airc_emitter *em, const airc_node *old, const char *target,
                              airc_node **out)
{
    static const char fn[] = "airc_emitter_copy";
    AIRC_TRY(check_emitter(em, fn));
    AIRC_TRY(airc_check_node(old, fn));
    if (old->graph != em->src)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: '%s' is not a node of the source graph",
                         fn, old->name);
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: out is NULL", fn);
    airc_graph *dst = em->dst;
    airc_context *ctx = dst->ctx;
    const airc_op *op = old->op;
    if (target && old->kind == AIRC_NODE_CALL_FUNCTION)
        AIRC_TRY(airc_registry_find(ctx, target, strlen(target), &op));
    size_t n = (size_t)old->nargs + old->nkw;
    const airc_value **vals = airc_malloc(ctx, (n ? n : 1) * sizeof *vals);
    if (!vals)
        return airc_fail_oom("argument list");
    airc_status st = AIRC_OK;
    for (uint32_t i = 0; i < old->nargs && st == AIRC_OK; i++)
        st = airc_emitter_map_value(em, old->args[i], &vals[i]);
    for (uint32_t i = 0; i < old->nkw && st == AIRC_OK; i++)
        st = airc_emitter_map_value(em, old->kw_values[i], &vals[old->nargs + i]);
    airc_node *c = NULL;
    if (st == AIRC_OK)
        st = airc_node_create(dst, old->kind, target ? target : old->target, op, vals, old->nargs,
                              old->kw_names, vals + old->nargs, old->nkw,
                              target ? NULL : old->name, 0, &c);
    airc_free(ctx, vals);
    if (st != AIRC_OK)
        return airc_fail_prefix("copying node '%s'", old->name);
    if ((st = copy_meta_attrs(em, old, c, target == NULL)) != AIRC_OK) {
        airc_graph_erase_node(dst, c); /* no users yet: cannot fail */
        return st;
    }
    *out = c;
    return AIRC_OK;
}

/* ---- run --------------------------------------------------------------- */

static airc_status share_constants_and_submodules(const airc_graph *g, airc_graph *ng)
{
    for (size_t i = 0; i < g->nsubs; i++) {
        airc_graph *sub;
        AIRC_TRY(airc_graph_clone(g->subs[i], &sub));
        airc_status st = airc_graph_add_submodule(ng, g->sub_names[i], sub);
        if (st != AIRC_OK) {
            airc_graph_destroy(sub);
            return st;
        }
    }
    if (g->nconsts && !airc_grow(ng->ctx, (void **)&ng->consts, &ng->consts_cap, g->nconsts,
                                 sizeof *ng->consts))
        return airc_fail_oom("constants");
    for (size_t i = 0; i < g->nconsts; i++) {
        atomic_fetch_add(&g->consts[i]->refs, 1);
        ng->consts[ng->nconsts++] = g->consts[i];
    }
    ng->num_users_style = g->num_users_style;
    return AIRC_OK;
}

/* What the callback returned, as a node of the new graph. */
static airc_status resolve(const airc_emitter *em, const airc_node *old, airc_node *res,
                           airc_node **out)
{
    *out = NULL;
    if (!res)
        return AIRC_OK;
    if (res->magic != AIRC_MAGIC_NODE || res->erased)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "transformer: the callback returned an invalid or erased node for '%s'",
                         old->name);
    if (res->graph == em->dst) {
        *out = res;
        return AIRC_OK;
    }
    if (res->graph == em->src && (*out = image_of(em, res)) != NULL)
        return AIRC_OK;
    if (res->graph == em->src)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "transformer: the callback returned source node '%s' for '%s', but "
                         "'%s' has no image in the new graph",
                         res->name, old->name, res->name);
    return airc_fail(AIRC_E_INVALID_ARGUMENT,
                     "transformer: the callback returned node '%s' of another graph for '%s'",
                     res->name, old->name);
}

airc_status airc_transformer_run(airc_transformer *t, const airc_graph *g, airc_graph **out)
{
    static const char fn[] = "airc_transformer_run";
    if (!t || t->magic != AIRC_MAGIC_TRANSFORMER)
        return airc_fail(AIRC_E_MISUSE, "%s: invalid transformer handle", fn);
    AIRC_TRY(airc_check_graph(g, fn));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: out is NULL", fn);
    airc_graph *ng;
    AIRC_TRY(airc_graph_create(g->ctx, &ng));
    airc_emitter em = {.src = g, .dst = ng, .nids = g->next_id};
    airc_status st = share_constants_and_submodules(g, ng);
    if (st == AIRC_OK && !(em.map = airc_calloc(g->ctx, em.nids ? em.nids : 1, sizeof *em.map)))
        st = airc_fail_oom("transformer map");
    for (airc_node *n = g->root.next; st == AIRC_OK && n != &g->root; n = n->next) {
        airc_graph_set_insert_point(ng, AIRC_INSERT_END, NULL);
        airc_node *res = NULL;
        if (t->fn) {
            st = t->fn(t->user_data, &em, n, &res);
            if (st != AIRC_OK)
                airc_fail_prefix("transformer: callback failed on node '%s'", n->name);
        } else {
            st = airc_emitter_copy(&em, n, NULL, &res);
        }
        if (st == AIRC_OK)
            st = resolve(&em, n, res, &em.map[n->id]);
    }
    airc_free(g->ctx, em.map);
    if (st != AIRC_OK) {
        airc_graph_destroy(ng);
        return st;
    }
    airc_graph_set_insert_point(ng, AIRC_INSERT_END, NULL);
    *out = ng;
    return AIRC_OK;
}
