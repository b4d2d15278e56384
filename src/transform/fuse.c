/* CapabilityBasedPartitioner's fuse step (torch fuse_by_partitions): each
 * partition becomes a nested graph `fused_K` and a call_module node.
 *
 * torch appends the call at the end and re-sorts the whole graph
 * (legalize_graph, a FIFO Kahn that reshuffles unrelated nodes). airc first
 * reorders the graph stably (Kahn on the graph with each partition
 * contracted, always taking the earliest available vertex) so that every
 * partition's nodes are contiguous; a partition's call can then go where its
 * first node was, and every edit is an ordinary order-checked IR edit. */
#include "transform/partition_internal.h"
#include "ops/ops.h"

#include <stdio.h>
#include <string.h>

typedef struct fuse_state {
    airc_context *ctx;
    size_t n, k;        /* nodes, partitions */
    airc_node **nodes;  /* graph order */
    size_t *idx_of;     /* node id -> index */
    int32_t *pof;       /* node index -> partition or -1 */
    size_t *key;        /* vertex -> priority (graph index of its first node) */
    size_t *indeg;      /* vertex -> pending inputs */
    size_t *heap;
    size_t nheap;
    size_t *pstart, *pnodes; /* partition members (node indexes, graph order) */
    airc_node **seq;    /* new order */
} fuse_state;

/* vertex ids: partition j -> j; lone node i -> k + i */
static size_t vertex(const fuse_state *s, size_t i)
{
    return s->pof[i] >= 0 ? (size_t)s->pof[i] : s->k + i;
}

static void heap_push(fuse_state *s, size_t v)
{
    size_t i = s->nheap++;
    s->heap[i] = v;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (s->key[s->heap[p]] <= s->key[s->heap[i]])
            break;
        size_t t = s->heap[p];
        s->heap[p] = s->heap[i];
        s->heap[i] = t;
        i = p;
    }
}

static size_t heap_pop(fuse_state *s)
{
    size_t top = s->heap[0], i = 0;
    s->heap[0] = s->heap[--s->nheap];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= s->nheap)
            break;
        if (c + 1 < s->nheap && s->key[s->heap[c + 1]] < s->key[s->heap[c]])
            c++;
        if (s->key[s->heap[i]] <= s->key[s->heap[c]])
            break;
        size_t t = s->heap[c];
        s->heap[c] = s->heap[i];
        s->heap[i] = t;
        i = c;
    }
    return top;
}

static void free_fuse_state(fuse_state *s)
{
    void *all[] = {s->nodes, s->idx_of, s->pof, s->key, s->indeg, s->heap, s->pstart, s->pnodes,
                   s->seq};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        airc_free(s->ctx, all[i]);
}

static airc_status validate(airc_graph *g, const airc_partitions *p, fuse_state *s)
{
    s->ctx = g->ctx;
    s->n = g->nnodes;
    s->k = p->count;
    size_t n = s->n ? s->n : 1, nv = s->k + n;
    s->nodes = airc_calloc(s->ctx, n, sizeof *s->nodes);
    s->idx_of = airc_calloc(s->ctx, g->next_id ? g->next_id : 1, sizeof *s->idx_of);
    s->pof = airc_calloc(s->ctx, n, sizeof *s->pof);
    s->key = airc_calloc(s->ctx, nv, sizeof *s->key);
    s->indeg = airc_calloc(s->ctx, nv, sizeof *s->indeg);
    s->heap = airc_calloc(s->ctx, nv, sizeof *s->heap);
    s->pstart = airc_calloc(s->ctx, s->k + 1, sizeof *s->pstart);
    s->pnodes = airc_calloc(s->ctx, p->nnodes ? p->nnodes : 1, sizeof *s->pnodes);
    s->seq = airc_calloc(s->ctx, n, sizeof *s->seq);
    if (!s->nodes || !s->idx_of || !s->pof || !s->key || !s->indeg || !s->heap || !s->pstart ||
        !s->pnodes || !s->seq)
        return airc_fail_oom("fuse state");
    size_t i = 0;
    AIRC_FOR_EACH_NODE(g, nd) {
        s->nodes[i] = nd;
        s->idx_of[nd->id] = i;
        s->pof[i] = -1;
        i++;
    }
    for (size_t j = 0; j < p->count; j++) {
        for (size_t m = p->start[j]; m < p->start[j + 1]; m++) {
            airc_node *x = p->nodes[m];
            if (x->magic != AIRC_MAGIC_NODE || x->erased || x->graph != g)
                return airc_fail(AIRC_E_MISUSE,
                                 "airc_graph_fuse_partitions: partition %zu holds a node that is "
                                 "erased or not in the graph",
                                 j);
            size_t xi = s->idx_of[x->id];
            if (s->pof[xi] >= 0)
                return airc_fail(AIRC_E_INVALID_ARGUMENT,
                                 "airc_graph_fuse_partitions: node '%s' is in partitions %d and %zu",
                                 x->name, s->pof[xi], j);
            s->pof[xi] = (int32_t)j;
        }
    }
    /* members in current graph order, and the contracted in-degrees */
    for (i = 0; i < s->n; i++)
        if (s->pof[i] >= 0)
            s->pstart[s->pof[i] + 1]++;
    for (size_t j = 0; j < s->k; j++)
        s->pstart[j + 1] += s->pstart[j];
    size_t *fill = s->heap; /* scratch: the heap is empty until the sort */
    for (size_t j = 0; j < s->k; j++)
        fill[j] = s->pstart[j];
    for (i = 0; i < s->n; i++)
        if (s->pof[i] >= 0)
            s->pnodes[fill[s->pof[i]]++] = i;
    for (size_t j = 0; j < s->k; j++)
        s->key[j] = s->pnodes[s->pstart[j]];
    for (i = 0; i < s->n; i++) {
        s->key[s->k + i] = i;
        size_t vi = vertex(s, i);
        for (size_t u = 0; u < s->nodes[i]->nusers; u++) {
            size_t vu = vertex(s, s->idx_of[s->nodes[i]->users[u]->id]);
            if (vu != vi)
                s->indeg[vu]++;
        }
    }
    /* Kahn, earliest vertex first: the order changes only where needed */
    size_t emitted = 0;
    for (size_t v = 0; v < s->k + s->n; v++)
        if ((v < s->k || s->pof[v - s->k] < 0) && s->indeg[v] == 0)
            heap_push(s, v);
    while (s->nheap) {
        size_t v = heap_pop(s);
        size_t lo = v < s->k ? s->pstart[v] : 0, hi = v < s->k ? s->pstart[v + 1] : 1;
        for (size_t m = lo; m < hi; m++) {
            size_t xi = v < s->k ? s->pnodes[m] : v - s->k;
            airc_node *x = s->nodes[xi];
            s->seq[emitted++] = x;
            for (size_t u = 0; u < x->nusers; u++) {
                size_t vu = vertex(s, s->idx_of[x->users[u]->id]);
                if (vu != v && --s->indeg[vu] == 0)
                    heap_push(s, vu);
            }
        }
    }
    if (emitted != s->n)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_graph_fuse_partitions: fusing these partitions would create a "
                         "cycle (a path leaves a partition and comes back into it)");
    return AIRC_OK;
}

static airc_status reorder(airc_graph *g, fuse_state *s)
{
    airc_node *prev = NULL;
    for (size_t i = 0; i < s->n; i++) {
        airc_node *x = s->seq[i];
        if (!prev) {
            if (g->root.next != x)
                AIRC_TRY(airc_node_move_before(x, g->root.next));
        } else if (prev->next != x) {
            AIRC_TRY(airc_node_move_after(x, prev));
        }
        prev = x;
    }
    return AIRC_OK;
}

/* ---- one partition ----------------------------------------------------- */

static bool copy_meta(airc_context *ctx, airc_node *dst, const airc_node *src)
{
    if (src->meta_kind == AIRC_META_NONE)
        return true;
    if (!airc_grow(ctx, (void **)&dst->out, &dst->out_cap, src->nout ? src->nout : 1,
                   sizeof *dst->out))
        return false;
    memcpy(dst->out, src->out, src->nout * sizeof *dst->out);
    dst->nout = src->nout;
    dst->meta_kind = src->meta_kind;
    dst->type_annotated = src->type_annotated;
    return true;
}

typedef struct node_map {
    airc_node **by_id; /* parent node id -> copy in the nested graph */
} node_map;

/* Scratch indexed by node id, grown as fusing creates nodes, cleared entry
 * by entry after each partition (so the cost stays per partition). */
typedef struct fuse_bufs {
    uint8_t *in;
    airc_node **map;
    size_t cap;
} fuse_bufs;

static bool bufs_reserve(airc_context *ctx, fuse_bufs *b, size_t need)
{
    if (need <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap *= 2;
    uint8_t *in = airc_realloc(ctx, b->in, cap);
    if (!in)
        return false;
    b->in = in;
    airc_node **map = airc_realloc(ctx, b->map, cap * sizeof *map);
    if (!map)
        return false;
    b->map = map;
    memset(b->in + b->cap, 0, cap - b->cap);
    memset(b->map + b->cap, 0, (cap - b->cap) * sizeof *map);
    b->cap = cap;
    return true;
}

static airc_node *map_fn(void *user, airc_node *old)
{
    return ((node_map *)user)->by_id[old->id];
}

airc_status airc_fuse_copy_node(airc_graph *dst, const airc_node *x, airc_node_map_fn map,
                                void *user, airc_node **out)
{
    airc_context *ctx = dst->ctx;
    size_t na = x->nargs ? x->nargs : 1, nk = x->nkw ? x->nkw : 1;
    const airc_value **args = airc_calloc(ctx, na + nk, sizeof *args);
    if (!args)
        return airc_fail_oom("node copy");
    const airc_value **kwv = args + na;
    airc_status st = AIRC_OK;
    for (uint32_t i = 0; i < x->nargs && st == AIRC_OK; i++)
        if (!(args[i] = airc_value_copy(&dst->arena, dst, x->args[i], map, user)))
            st = airc_fail_oom("node copy");
    for (uint32_t i = 0; i < x->nkw && st == AIRC_OK; i++)
        if (!(kwv[i] = airc_value_copy(&dst->arena, dst, x->kw_values[i], map, user)))
            st = airc_fail_oom("node copy");
    airc_node *c = NULL;
    if (st == AIRC_OK)
        st = airc_node_create(dst, x->kind, x->target, x->op, args, x->nargs, x->kw_names, kwv,
                              x->nkw, x->name, 0, &c);
    airc_free(ctx, args);
    AIRC_TRY(st);
    if (!copy_meta(ctx, c, x))
        return airc_fail_oom("node copy meta");
    for (size_t i = 0; i < x->nattrs; i++) {
        const airc_value *v = airc_value_copy(&dst->arena, dst, x->attr_values[i], map, user);
        if (!v)
            return airc_fail_oom("node copy attributes");
        AIRC_TRY(airc_node_set_attr(c, x->attr_keys[i], v));
    }
    *out = c;
    return AIRC_OK;
}

typedef struct member_filter {
    const uint8_t *in; /* node id -> 1 when in the partition being fused */
} member_filter;

static int32_t outside(void *user, const airc_node *n)
{
    return !((member_filter *)user)->in[n->id];
}

/* Builds the nested graph; ins and outs receive the external inputs and the
 * nodes used outside (arrays of the context allocator). */
static airc_status build_sub(airc_graph *g, airc_node **mem, size_t nm, const uint8_t *in,
                             airc_node **by_id, airc_graph **sub_out, airc_node ***ins, size_t *nin,
                             airc_node ***outs, size_t *nout)
{
    airc_context *ctx = g->ctx;
    airc_graph *sub = NULL;
    node_map map = {by_id};
    size_t icap = 0, ocap = 0;
    const airc_value **items = NULL;
    airc_status st = airc_graph_create(ctx, &sub);
    for (size_t i = 0; i < nm && st == AIRC_OK; i++) {
        for (size_t k = 0; k < mem[i]->ninputs && st == AIRC_OK; k++) {
            airc_node *x = mem[i]->inputs[k];
            if (in[x->id] || map.by_id[x->id])
                continue;
            airc_node *ph = NULL;
            if (!airc_grow(ctx, (void **)ins, &icap, *nin + 1, sizeof **ins))
                st = airc_fail_oom("fuse inputs");
            else if ((st = airc_node_create(sub, AIRC_NODE_PLACEHOLDER, x->name, NULL, NULL, 0,
                                            NULL, NULL, 0, x->name, 0, &ph)) == AIRC_OK &&
                     !copy_meta(ctx, ph, x))
                st = airc_fail_oom("fuse placeholder meta");
            if (st == AIRC_OK) {
                map.by_id[x->id] = ph;
                (*ins)[(*nin)++] = x;
            }
        }
    }
    for (size_t i = 0; i < nm && st == AIRC_OK; i++) {
        airc_node *c;
        st = airc_fuse_copy_node(sub, mem[i], map_fn, &map, &c);
        if (st == AIRC_OK)
            map.by_id[mem[i]->id] = c;
        bool used_outside = false;
        for (size_t u = 0; u < mem[i]->nusers; u++)
            used_outside = used_outside || !in[mem[i]->users[u]->id];
        if (st == AIRC_OK && used_outside) {
            if (!airc_grow(ctx, (void **)outs, &ocap, *nout + 1, sizeof **outs))
                st = airc_fail_oom("fuse outputs");
            else
                (*outs)[(*nout)++] = mem[i];
        }
    }
    const airc_value *result = NULL;
    airc_node *outn;
    if (st == AIRC_OK && *nout == 1) {
        st = airc_value_node(sub, map.by_id[(*outs)[0]->id], &result);
    } else if (st == AIRC_OK) {
        items = airc_calloc(ctx, *nout ? *nout : 1, sizeof *items);
        if (!items)
            st = airc_fail_oom("fuse outputs");
        for (size_t i = 0; i < *nout && st == AIRC_OK; i++)
            st = airc_value_node(sub, map.by_id[(*outs)[i]->id], &items[i]);
        if (st == AIRC_OK)
            st = airc_value_tuple(sub, items, *nout, &result);
    }
    if (st == AIRC_OK)
        st = airc_graph_output(sub, result, &outn);
    airc_free(ctx, items);
    if (st != AIRC_OK) {
        airc_graph_destroy(sub);
        return st;
    }
    *sub_out = sub;
    return AIRC_OK;
}

/* Adds the call (and getitems) and rewires the outside users; the dead
 * members are erased later, all partitions at once. */
static airc_status insert_call(airc_graph *g, const char *name, airc_node **mem, size_t nm,
                               airc_node **ins, size_t nin, airc_node **outs, size_t nout,
                               uint8_t *in)
{
    airc_context *ctx = g->ctx;
    const airc_value **args = airc_calloc(ctx, nin ? nin : 1, sizeof *args);
    if (!args)
        return airc_fail_oom("fuse call arguments");
    airc_status st = AIRC_OK;
    for (size_t i = 0; i < nin && st == AIRC_OK; i++)
        st = airc_value_node(g, ins[i], &args[i]);
    int32_t where;
    airc_node *anchor, *call = NULL;
    airc_graph_get_insert_point(g, &where, &anchor);
    if (st == AIRC_OK)
        st = airc_graph_set_insert_point(g, AIRC_INSERT_BEFORE, mem[0]);
    if (st == AIRC_OK)
        st = airc_graph_create_node(g, AIRC_NODE_CALL_MODULE, name, args, nin, NULL, NULL, 0, NULL,
                                    &call);
    airc_free(ctx, args);
    bool all_tensors = nout > 1;
    for (size_t i = 0; i < nout; i++)
        all_tensors = all_tensors && outs[i]->meta_kind == AIRC_META_TENSOR;
    if (st == AIRC_OK && nout == 1 && !copy_meta(ctx, call, outs[0]))
        st = airc_fail_oom("fuse call meta");
    if (st == AIRC_OK && all_tensors && (st = airc_node_set_meta_tuple(call, nout)) == AIRC_OK)
        for (size_t i = 0; i < nout; i++)
            call->out[i] = outs[i]->out[0];
    member_filter f = {in};
    for (size_t i = 0; i < nout && st == AIRC_OK; i++) {
        airc_node *repl = call;
        if (nout > 1) {
            const airc_value *gargs[2];
            if ((st = airc_value_node(g, call, &gargs[0])) != AIRC_OK ||
                (st = airc_value_int(g, (int64_t)i, &gargs[1])) != AIRC_OK ||
                (st = airc_graph_call_function(g, AIRC_OP_GETITEM, gargs, 2, &repl)) != AIRC_OK)
                break;
            if (!copy_meta(ctx, repl, outs[i])) {
                st = airc_fail_oom("fuse getitem meta");
                break;
            }
        }
        st = airc_node_replace_all_uses_with(outs[i], repl, outside, &f, NULL);
    }
    if (anchor && !anchor->erased)
        airc_graph_set_insert_point(g, where, anchor);
    else
        airc_graph_set_insert_point(g, AIRC_INSERT_END, NULL);
    return st;
}

static airc_status fuse_one(airc_graph *g, airc_node **mem, size_t nm, size_t *next_k,
                            fuse_bufs *b)
{
    airc_context *ctx = g->ctx;
    if (!bufs_reserve(ctx, b, g->next_id))
        return airc_fail_oom("fuse scratch");
    uint8_t *in = b->in;
    char name[48];
    for (;; (*next_k)++) {
        snprintf(name, sizeof name, "fused_%zu", *next_k);
        if (!airc_graph_submodule(g, name))
            break;
    }
    (*next_k)++;
    for (size_t i = 0; i < nm; i++)
        in[mem[i]->id] = 1;
    airc_graph *sub = NULL;
    airc_node **ins = NULL, **outs = NULL;
    size_t nin = 0, nout = 0;
    airc_status st = build_sub(g, mem, nm, in, b->map, &sub, &ins, &nin, &outs, &nout);
    if (st == AIRC_OK && (st = airc_graph_add_submodule(g, name, sub)) != AIRC_OK)
        airc_graph_destroy(sub);
    if (st == AIRC_OK)
        st = insert_call(g, name, mem, nm, ins, nin, outs, nout, in);
    for (size_t i = 0; i < nm; i++) {
        in[mem[i]->id] = 0;
        b->map[mem[i]->id] = NULL;
    }
    for (size_t i = 0; i < nin; i++)
        b->map[ins[i]->id] = NULL;
    airc_free(ctx, ins);
    airc_free(ctx, outs);
    return st;
}

airc_status airc_graph_fuse_partitions(airc_graph *g, const airc_partitions *p)
{
    AIRC_TRY(airc_check_graph(g, "airc_graph_fuse_partitions"));
    if (!p || p->magic != AIRC_MAGIC_PARTITIONS)
        return airc_fail(AIRC_E_MISUSE, "airc_graph_fuse_partitions: not a live partition list");
    if (p->g != g)
        return airc_fail(AIRC_E_MISUSE,
                         "airc_graph_fuse_partitions: the partitions belong to another graph");
    if (!p->count)
        return AIRC_OK;
    fuse_state s = {0};
    airc_status st = validate(g, p, &s);
    if (st == AIRC_OK)
        st = reorder(g, &s);
    /* members are gathered again in the new order; ids stay valid */
    airc_node **mem = NULL;
    fuse_bufs b = {0};
    if (st == AIRC_OK && !(mem = airc_calloc(g->ctx, p->nnodes ? p->nnodes : 1, sizeof *mem)))
        st = airc_fail_oom("fuse members");
    if (st == AIRC_OK) {
        for (size_t j = 0; j < s.k; j++)
            for (size_t m = s.pstart[j]; m < s.pstart[j + 1]; m++)
                mem[m] = s.nodes[s.pnodes[m]];
        /* graph order after the reorder equals the old order within a
         * partition (Kahn emits a partition's members in that order) */
        size_t next_k = 0, j;
        for (j = 0; j < s.k && st == AIRC_OK; j++) {
            if (next_k < j)
                next_k = j;
            st = fuse_one(g, mem + s.pstart[j], s.pstart[j + 1] - s.pstart[j], &next_k, &b);
        }
        /* the members of every fused partition have no users left outside
         * it: erase them in one linear batch (one at a time is quadratic
         * when partitions share an input) */
        size_t done = st == AIRC_OK ? s.pstart[s.k] : s.pstart[j - 1];
        airc_status est = airc_graph_erase_nodes(g, mem, done);
        if (st == AIRC_OK)
            st = est;
    }
    airc_free(g->ctx, mem);
    airc_free(g->ctx, b.in);
    airc_free(g->ctx, b.map);
    free_fuse_state(&s);
    return st;
}

airc_status airc_graph_partition_and_fuse(airc_graph *g, const airc_support *support,
                                          const airc_partition_options *opts, size_t *num_fused)
{
    airc_partitions *p;
    AIRC_TRY(airc_graph_propose_partitions(g, support, opts, &p));
    airc_status st = airc_graph_fuse_partitions(g, p);
    if (st == AIRC_OK && num_fused)
        *num_fused = p->count;
    airc_partitions_destroy(p);
    return st;
}
