/* airc_graph_clone: a deep copy with the same names, so that a pass can run
 * on a copy and the caller's graph stays exactly as it was on failure. */
#include "ir/ir.h"
#include "ops/ops.h"

#include <string.h>

typedef struct clone_map {
    airc_node **by_id; /* old id -> new node */
    uint32_t nids;
} clone_map;

static airc_node *map_node(void *user, airc_node *old)
{
    clone_map *m = user;
    return old->id < m->nids ? m->by_id[old->id] : NULL;
}

static airc_status clone_into(const airc_graph *src, airc_graph *dst)
{
    airc_context *ctx = src->ctx;
    clone_map m = {.nids = src->next_id};
    m.by_id = airc_calloc(ctx, m.nids ? m.nids : 1, sizeof *m.by_id);
    if (!m.by_id)
        return airc_fail_oom("clone map");
    airc_status st = AIRC_OK;
    if (!airc_graph_reserve_names(dst, src->ns.used.count))
        st = airc_fail_oom("clone names");
    const airc_value **args = NULL, **kwv = NULL;
    size_t acap = 0, kcap = 0;
    /* submodules first: call_module nodes must find them */
    for (size_t i = 0; i < src->nsubs && st == AIRC_OK; i++) {
        airc_graph *sub;
        if ((st = airc_graph_clone(src->subs[i], &sub)) != AIRC_OK)
            goto done;
        if ((st = airc_graph_add_submodule(dst, src->sub_names[i], sub)) != AIRC_OK) {
            airc_graph_destroy(sub);
            goto done;
        }
    }
    if (st != AIRC_OK)
        goto done;
    AIRC_FOR_EACH_NODE(src, n) {
        if (!airc_grow(ctx, (void **)&args, &acap, n->nargs ? n->nargs : 1, sizeof *args) ||
            !airc_grow(ctx, (void **)&kwv, &kcap, n->nkw ? n->nkw : 1, sizeof *kwv)) {
            st = airc_fail_oom("clone");
            goto done;
        }
        for (uint32_t i = 0; i < n->nargs; i++)
            if (!(args[i] = airc_value_copy(&dst->arena, dst, n->args[i], map_node, &m))) {
                st = airc_fail_oom("clone values");
                goto done;
            }
        for (uint32_t i = 0; i < n->nkw; i++)
            if (!(kwv[i] = airc_value_copy(&dst->arena, dst, n->kw_values[i], map_node, &m))) {
                st = airc_fail_oom("clone values");
                goto done;
            }
        airc_node *c;
        st = airc_node_create(dst, n->kind, n->target, n->op, args, n->nargs, n->kw_names, kwv,
                              n->nkw, n->name, AIRC_CREATE_EXACT_NAME, &c);
        if (st != AIRC_OK)
            goto done;
        m.by_id[n->id] = c;
        c->type_annotated = n->type_annotated;
        if (n->meta_kind != AIRC_META_NONE) {
            if (!airc_grow(ctx, (void **)&c->out, &c->out_cap, n->nout ? n->nout : 1,
                           sizeof *c->out)) {
                st = airc_fail_oom("clone meta");
                goto done;
            }
            memcpy(c->out, n->out, n->nout * sizeof *c->out);
            c->nout = n->nout;
            c->meta_kind = n->meta_kind;
        }
        for (size_t i = 0; i < n->nattrs; i++) {
            const airc_value *v = airc_value_copy(&dst->arena, dst, n->attr_values[i], map_node, &m);
            if (!v) {
                st = airc_fail_oom("clone attributes");
                goto done;
            }
            if ((st = airc_node_set_attr(c, n->attr_keys[i], v)) != AIRC_OK)
                goto done;
        }
    }
    /* names used by erased nodes stay used in the copy too */
    for (size_t i = 0; i < src->ns.used.cap; i++) {
        const airc_strmap_slot *s = &src->ns.used.slots[i];
        if (!s->value || airc_strmap_getn(&dst->ns.used, s->key, s->len))
            continue;
        const char *name = airc_arena_strndup(&dst->arena, s->key, s->len);
        airc_name_note note;
        if (!name || !airc_names_prepare(dst, name, s->len, &note) ||
            !airc_strmap_put(&dst->ns.used, name, &dst->name_tomb)) {
            st = airc_fail_oom("clone names");
            goto done;
        }
        airc_names_commit(dst, name, &note);
    }
    for (size_t i = 0; i < src->ns.bases.cap; i++) {
        const airc_strmap_slot *s = &src->ns.bases.slots[i];
        if (!s->value)
            continue;
        const char *base = airc_arena_strndup(&dst->arena, s->key, s->len);
        if (!base || !airc_strmap_put(&dst->ns.bases, base, s->value)) {
            st = airc_fail_oom("clone names");
            goto done;
        }
    }
    if (!airc_grow(ctx, (void **)&dst->consts, &dst->consts_cap, src->nconsts ? src->nconsts : 1,
                   sizeof *dst->consts)) {
        st = airc_fail_oom("clone constants");
        goto done;
    }
    for (size_t i = 0; i < src->nconsts; i++) {
        atomic_fetch_add(&src->consts[i]->refs, 1);
        dst->consts[dst->nconsts++] = src->consts[i];
    }
    dst->num_users_style = src->num_users_style;
done:
    airc_free(ctx, args);
    airc_free(ctx, kwv);
    airc_free(ctx, m.by_id);
    return st;
}

airc_status airc_graph_clone(const airc_graph *g, airc_graph **out)
{
    AIRC_TRY(airc_check_graph(g, "airc_graph_clone"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_graph_clone: out is NULL");
    airc_graph *c;
    AIRC_TRY(airc_graph_create(g->ctx, &c));
    airc_status st = clone_into(g, c);
    if (st != AIRC_OK) {
        airc_graph_destroy(c);
        return st;
    }
    *out = c;
    return AIRC_OK;
}
