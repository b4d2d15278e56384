/* CapabilityBasedPartitioner's propose step (torch 2.0 semantics).
 *
 * Nodes are visited in reverse order; a supported node starts a partition,
 * which is merged with the partitions of its users (and, with horizontal
 * fusion, the users' partitions of any node are merged with each other)
 * unless the merge would create a cycle through outside nodes.
 *
 * torch detects cycles with transitive closures (1.13: O(N^2) memory) or a
 * DFS over everything downstream (2.x). Here the contracted graph (each
 * partition one vertex, every other node a vertex) keeps a topological
 * order of its vertices in an order-maintenance list (Pearce-Kelly): a path
 * between the two partitions X before Y can only visit vertices whose label
 * lies between theirs, so the search is bounded by that window, and it
 * starts from the smaller partition. After a merge, the vertices the search
 * found are moved past the merged vertex so the order stays topological.
 * Everything is iterative: 100k-node chains need neither deep stacks nor
 * quadratic time. */
#include "transform/partition_internal.h"
#include "ops/ops.h"

#include <stdlib.h>
#include <string.h>

/* ---- op name sets (non_compute_ops, allowed_single_node_partition_ops) -- */

typedef struct opmatch {
    const airc_op *op;  /* exact op, or */
    const char *packet; /* "aten.view": every overload */
    size_t plen;
} opmatch;

typedef struct opset {
    opmatch *m;
    size_t n, cap;
} opset;

static bool packet_matches(const char *qualname, const char *packet, size_t len)
{
    return !strncmp(qualname, packet, len) && (qualname[len] == '\0' || qualname[len] == '.');
}

static airc_status opset_add(airc_context *ctx, opset *s, const char *name, const char *what)
{
    if (!name)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_graph_propose_partitions: NULL name in %s",
                         what);
    const char *n = strncmp(name, "torch.ops.", 10) ? name : name + 10;
    if (!airc_grow(ctx, (void **)&s->m, &s->cap, s->n + 1, sizeof *s->m))
        return airc_fail_oom("op name set");
    opmatch *m = &s->m[s->n];
    memset(m, 0, sizeof *m);
    const char *dot = strchr(n, '.');
    if (dot && strchr(dot + 1, '.')) { /* ns.name.overload: one op */
        airc_status st = airc_context_find_op(ctx, n, &m->op);
        if (st != AIRC_OK)
            return airc_fail_prefix("airc_graph_propose_partitions: %s", what);
        s->n++;
        return AIRC_OK;
    }
    m->packet = n;
    m->plen = strlen(n);
    size_t nops = airc_context_num_ops(ctx);
    for (size_t i = 0; i < nops; i++) {
        const char *q = airc_context_op_name(ctx, i);
        if (q && packet_matches(q, n, m->plen)) {
            s->n++;
            return AIRC_OK;
        }
    }
    return airc_fail(AIRC_E_NOT_FOUND, "airc_graph_propose_partitions: %s: unknown op '%s'", what,
                     name);
}

static bool opset_has(const opset *s, const airc_op *op)
{
    for (size_t i = 0; i < s->n; i++) {
        if (s->m[i].op ? s->m[i].op == op : packet_matches(op->qualname, s->m[i].packet, s->m[i].plen))
            return true;
    }
    return false;
}

/* ---- state ------------------------------------------------------------- */

typedef struct pstate {
    airc_context *ctx;
    int32_t n;
    airc_node **nodes;   /* index -> node (graph order) */
    int32_t *idx_of;     /* node id -> index */
    int32_t *part;       /* node -> a partition (find() it) or -1 */
    int32_t *uf;         /* partition union-find parent */
    int32_t *psize;      /* root -> number of nodes */
    int32_t *head, *tail;
    int32_t *nextm;      /* node -> next member of its partition or -1 */
    int32_t *pslot;      /* root -> its vertex slot (a node index) */
    int32_t *pid;        /* root -> torch's partition id */
    int32_t *slot_part;  /* slot -> root partition, or -1 for a lone node */
    uint64_t *lab;       /* slot -> label, increasing along the list */
    int32_t *lprev, *lnext;
    int32_t lhead;
    uint32_t *seen;      /* slot -> search epoch: visited */
    uint32_t *dmark;     /* slot -> search epoch: on the deferred list */
    uint32_t *nsmark;    /* slot -> search epoch: a non-source vertex points at it */
    uint32_t epoch;
    int32_t src;         /* the current search */
    bool fwd, cache_valid;
    uint64_t cache_bound;
    int32_t *deferred;
    size_t ndef, dcap;
    uint32_t *cmark;     /* partition -> candidate epoch */
    uint32_t cepoch;
    int32_t *stack;
    size_t sp, scap;
    int32_t *found;
    size_t nfound, fcap;
    int32_t np;          /* partitions created */
    bool oom;
} pstate;

static int32_t find(pstate *s, int32_t p)
{
    int32_t r = p;
    while (s->uf[r] != r)
        r = s->uf[r];
    while (s->uf[p] != r) {
        int32_t nx = s->uf[p];
        s->uf[p] = r;
        p = nx;
    }
    return r;
}

static int32_t vertex_of(pstate *s, int32_t i)
{
    return s->part[i] < 0 ? i : s->pslot[find(s, s->part[i])];
}

static bool push(pstate *s, int32_t **arr, size_t *len, size_t *cap, int32_t v)
{
    if (!airc_grow(s->ctx, (void **)arr, cap, *len + 1, sizeof **arr)) {
        s->oom = true;
        return false;
    }
    (*arr)[(*len)++] = v;
    return true;
}

/* ---- bounded, resumable reachability search ---------------------------
 *
 * A search runs from a source vertex in one direction (users when forward,
 * inputs otherwise). Vertices inside the window (label strictly between the
 * source's and the target's) are visited; the others are parked on the
 * `deferred` list. When the merge is refused nothing changes, so the next
 * query from the same source with a farther target resumes the search
 * instead of starting over: a node read by thousands of partitions (a graph
 * input) costs one walk, not one per partition. */

static bool in_window(const pstate *s, int32_t w, uint64_t bound)
{
    return s->fwd ? s->lab[w] < bound : s->lab[w] > bound;
}

static void defer(pstate *s, int32_t w, bool from_source)
{
    if (!from_source)
        s->nsmark[w] = s->epoch;
    if (s->dmark[w] == s->epoch)
        return;
    s->dmark[w] = s->epoch;
    push(s, &s->deferred, &s->ndef, &s->dcap, w);
}

static void visit(pstate *s, int32_t w)
{
    s->seen[w] = s->epoch;
    if (push(s, &s->stack, &s->sp, &s->scap, w))
        push(s, &s->found, &s->nfound, &s->fcap, w);
}

/* Expands v (all of its members' edges); true when `target` is a neighbour
 * and v is not the source (a path of two or more edges). */
static bool expand(pstate *s, int32_t v, uint64_t bound, int32_t target)
{
    bool from_source = v == s->src, hit = false;
    int32_t r = s->slot_part[v];
    for (int32_t m = r < 0 ? v : s->head[r]; m >= 0; m = r < 0 ? -1 : s->nextm[m]) {
        airc_node *x = s->nodes[m];
        size_t deg = s->fwd ? x->nusers : x->ninputs;
        for (size_t k = 0; k < deg; k++) {
            airc_node *y = s->fwd ? x->users[k] : x->inputs[k];
            int32_t w = vertex_of(s, s->idx_of[y->id]);
            if (w == v || s->seen[w] == s->epoch)
                continue;
            if (w == target && !from_source)
                hit = true;
            if (w != target && in_window(s, w, bound))
                visit(s, w);
            else
                defer(s, w, from_source);
        }
    }
    return hit;
}

/* true when a path source ~> target of two or more edges exists; otherwise
 * s->found holds every vertex of the window reachable from the source. */
static bool search(pstate *s, int32_t source, int32_t target, bool forward)
{
    uint64_t bound = s->lab[target];
    bool resume = s->cache_valid && s->src == source && s->fwd == forward &&
                  (forward ? bound >= s->cache_bound : bound <= s->cache_bound);
    if (!resume) {
        s->epoch++;
        s->src = source;
        s->fwd = forward;
        s->sp = s->nfound = s->ndef = 0;
        s->seen[source] = s->epoch;
        expand(s, source, bound, -1);
    }
    s->cache_valid = true;
    s->cache_bound = bound;
    /* parked vertices that the wider window now holds */
    size_t keep = 0;
    bool hit = false;
    for (size_t i = 0; i < s->ndef; i++) {
        int32_t w = s->deferred[i];
        if (w == target && s->nsmark[w] == s->epoch)
            hit = true;
        if (w != target && in_window(s, w, bound)) {
            s->dmark[w] = 0;
            if (s->seen[w] != s->epoch)
                visit(s, w);
        } else {
            s->deferred[keep++] = w;
        }
    }
    s->ndef = keep;
    while (s->sp && !s->oom) {
        int32_t w = s->stack[--s->sp];
        if (expand(s, w, bound, target))
            hit = true;
        if (hit)
            break; /* the rest of the stack stays for a resumed search */
    }
    return hit;
}

static void unlink_slot(pstate *s, int32_t v)
{
    int32_t p = s->lprev[v], q = s->lnext[v];
    if (p >= 0)
        s->lnext[p] = q;
    else
        s->lhead = q;
    if (q >= 0)
        s->lprev[q] = p;
    s->lprev[v] = s->lnext[v] = -1;
}

static void link_after_slot(pstate *s, int32_t v, int32_t after)
{
    int32_t q = s->lnext[after];
    s->lprev[v] = after;
    s->lnext[v] = q;
    s->lnext[after] = v;
    if (q >= 0)
        s->lprev[q] = v;
}

static void link_before_slot(pstate *s, int32_t v, int32_t before)
{
    int32_t p = s->lprev[before];
    s->lnext[v] = before;
    s->lprev[v] = p;
    s->lprev[before] = v;
    if (p >= 0)
        s->lnext[p] = v;
    else
        s->lhead = v;
}

static void relabel_all(pstate *s)
{
    uint64_t o = UINT64_C(1) << 32;
    for (int32_t v = s->lhead; v >= 0; v = s->lnext[v], o += UINT64_C(1) << 32)
        s->lab[v] = o;
}

/* Gives the run of k linked slots starting at `first` evenly spaced labels
 * between its neighbours (relabelling everything when there is no room). */
static void label_run(pstate *s, int32_t first, size_t k)
{
    int32_t p = s->lprev[first], last = first;
    for (size_t i = 1; i < k; i++)
        last = s->lnext[last];
    uint64_t lo = p >= 0 ? s->lab[p] : 0;
    uint64_t hi = s->lnext[last] >= 0 ? s->lab[s->lnext[last]] : UINT64_MAX;
    if (hi - lo <= k + 1) {
        relabel_all(s);
        return;
    }
    uint64_t step = (hi - lo) / (k + 1);
    int32_t v = first;
    for (size_t i = 0; i < k; i++, v = s->lnext[v])
        s->lab[v] = lo + step * (i + 1);
}

/* Sorts the found slots by label: an in-place heapsort (no recursion, no
 * context-less qsort comparator, so concurrent partitioners stay apart). */
static void sift(const uint64_t *lab, int32_t *a, size_t i, size_t n)
{
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            return;
        if (c + 1 < n && lab[a[c + 1]] > lab[a[c]])
            c++;
        if (lab[a[i]] >= lab[a[c]])
            return;
        int32_t t = a[i];
        a[i] = a[c];
        a[c] = t;
        i = c;
    }
}

static void sort_found(pstate *s)
{
    int32_t *a = s->found;
    size_t n = s->nfound;
    for (size_t i = n / 2; i-- > 0;)
        sift(s->lab, a, i, n);
    for (size_t end = n; end > 1; end--) {
        int32_t t = a[0];
        a[0] = a[end - 1];
        a[end - 1] = t;
        sift(s->lab, a, 0, end - 1);
    }
}

/* Merges partition roots a (whose torch id survives) and b unless that
 * creates a cycle. Returns the new root, or -1 when refused. */
static int32_t maybe_merge(pstate *s, int32_t a, int32_t b)
{
    int32_t sa = s->pslot[a], sb = s->pslot[b];
    int32_t x = s->lab[sa] < s->lab[sb] ? sa : sb, y = x == sa ? sb : sa;
    int32_t rx = s->slot_part[x], ry = s->slot_part[y];
    bool forward;
    if (s->cache_valid && s->src == x && s->fwd && s->lab[y] >= s->cache_bound)
        forward = true; /* resumes the previous search */
    else if (s->cache_valid && s->src == y && !s->fwd && s->lab[x] <= s->cache_bound)
        forward = false;
    else
        forward = s->psize[rx] <= s->psize[ry]; /* walk out of the smaller one */
    int32_t keep, drop;
    s->cache_valid = s->cache_valid && !s->oom;
    if (forward) {
        if (search(s, x, y, true) || s->oom)
            return -1;
        keep = y, drop = x;
        sort_found(s);
        for (size_t i = 0; i < s->nfound; i++)
            unlink_slot(s, s->found[i]);
        int32_t at = y;
        for (size_t i = 0; i < s->nfound; i++) {
            link_after_slot(s, s->found[i], at);
            at = s->found[i];
        }
        if (s->nfound)
            label_run(s, s->found[0], s->nfound);
    } else {
        if (search(s, y, x, false) || s->oom)
            return -1;
        keep = x, drop = y;
        sort_found(s);
        for (size_t i = 0; i < s->nfound; i++)
            unlink_slot(s, s->found[i]);
        for (size_t i = 0; i < s->nfound; i++)
            link_before_slot(s, s->found[i], x);
        if (s->nfound)
            label_run(s, s->found[0], s->nfound);
    }
    s->cache_valid = false; /* the contracted graph and its labels changed */
    unlink_slot(s, drop);
    s->slot_part[drop] = -1;
    int32_t big = s->psize[a] >= s->psize[b] ? a : b, small = big == a ? b : a;
    s->uf[small] = big;
    s->psize[big] += s->psize[small];
    s->nextm[s->tail[big]] = s->head[small];
    s->tail[big] = s->tail[small];
    s->pid[big] = s->pid[a];
    s->pslot[big] = keep;
    s->slot_part[keep] = big;
    return big;
}

static void new_partition(pstate *s, int32_t i)
{
    int32_t p = s->np++;
    s->uf[p] = p;
    s->psize[p] = 1;
    s->head[p] = s->tail[p] = i;
    s->nextm[i] = -1;
    s->part[i] = p;
    s->pslot[p] = i;
    s->pid[p] = p;
    s->slot_part[i] = p;
}

/* ---- propose ----------------------------------------------------------- */

static airc_status alloc_state(pstate *s, airc_graph *g)
{
    airc_context *ctx = g->ctx;
    size_t n = g->nnodes ? g->nnodes : 1;
    s->ctx = ctx;
    s->n = (int32_t)g->nnodes;
    s->nodes = airc_calloc(ctx, n, sizeof *s->nodes);
    s->idx_of = airc_calloc(ctx, g->next_id ? g->next_id : 1, sizeof *s->idx_of);
    int32_t **ints[] = {&s->part, &s->uf, &s->psize, &s->head, &s->tail, &s->nextm,
                        &s->pslot, &s->pid, &s->slot_part, &s->lprev, &s->lnext};
    bool ok = s->nodes && s->idx_of;
    for (size_t k = 0; k < sizeof ints / sizeof *ints; k++)
        ok = (*ints[k] = airc_calloc(ctx, n, sizeof(int32_t))) && ok;
    s->lab = airc_calloc(ctx, n, sizeof *s->lab);
    s->seen = airc_calloc(ctx, n, sizeof *s->seen);
    s->dmark = airc_calloc(ctx, n, sizeof *s->dmark);
    s->nsmark = airc_calloc(ctx, n, sizeof *s->nsmark);
    s->cmark = airc_calloc(ctx, n, sizeof *s->cmark);
    if (!ok || !s->lab || !s->seen || !s->cmark || !s->dmark || !s->nsmark)
        return airc_fail_oom("partitioner state");
    int32_t i = 0;
    AIRC_FOR_EACH_NODE(g, nd) {
        s->nodes[i] = nd;
        s->idx_of[nd->id] = i;
        s->part[i] = s->slot_part[i] = -1;
        s->lprev[i] = i - 1;
        s->lnext[i] = i + 1 < s->n ? i + 1 : -1;
        s->lab[i] = (uint64_t)(i + 1) << 32;
        i++;
    }
    s->lhead = s->n ? 0 : -1;
    return AIRC_OK;
}

static void free_state(pstate *s)
{
    airc_context *ctx = s->ctx;
    void *all[] = {s->nodes, s->idx_of, s->part, s->uf, s->psize, s->head, s->tail, s->nextm,
                   s->pslot, s->pid, s->slot_part, s->lprev, s->lnext, s->lab, s->seen,
                   s->dmark, s->nsmark, s->deferred, s->cmark, s->stack, s->found};
    for (size_t k = 0; k < sizeof all / sizeof *all; k++)
        airc_free(ctx, all[k]);
}

static airc_status main_loop(pstate *s, const airc_support *support, bool horizontal)
{
    int32_t *cand = NULL;
    size_t nc = 0, ccap = 0;
    for (int32_t i = s->n - 1; i >= 0; i--) {
        airc_node *v = s->nodes[i];
        nc = 0;
        s->cepoch++;
        bool created = false;
        if (airc_support_is_supported(support, v)) {
            new_partition(s, i);
            s->cmark[s->part[i]] = s->cepoch;
            push(s, &cand, &nc, &ccap, s->part[i]);
            created = true;
        }
        if (created || horizontal) {
            for (size_t k = 0; k < v->nusers; k++) {
                int32_t u = s->idx_of[v->users[k]->id];
                if (s->part[u] < 0)
                    continue;
                int32_t r = find(s, s->part[u]);
                if (s->cmark[r] == s->cepoch)
                    continue;
                s->cmark[r] = s->cepoch;
                push(s, &cand, &nc, &ccap, r);
            }
        }
        if (s->oom)
            break;
        int32_t self = nc ? cand[0] : -1;
        for (size_t k = 1; k < nc; k++) {
            int32_t a = find(s, self), b = find(s, cand[k]);
            if (a == b)
                continue;
            int32_t r = maybe_merge(s, a, b);
            if (s->oom)
                break;
            if (r >= 0)
                self = r;
        }
        if (s->oom)
            break;
    }
    airc_free(s->ctx, cand);
    return s->oom ? airc_fail_oom("partitioner search") : AIRC_OK;
}

static airc_status build_opsets(airc_context *ctx, const airc_partition_options *o, opset *nc,
                                opset *allowed)
{
    AIRC_TRY(opset_add(ctx, nc, "operator.getitem", "non_compute_ops"));
    AIRC_TRY(opset_add(ctx, nc, "aten.view", "non_compute_ops"));
    if (o->num_non_compute_ops && !o->non_compute_ops)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_graph_propose_partitions: non_compute_ops is NULL");
    if (o->num_allowed_single_node_partition_ops && !o->allowed_single_node_partition_ops)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_graph_propose_partitions: allowed_single_node_partition_ops is NULL");
    for (size_t i = 0; i < o->num_non_compute_ops; i++)
        AIRC_TRY(opset_add(ctx, nc, o->non_compute_ops[i], "non_compute_ops"));
    for (size_t i = 0; i < o->num_allowed_single_node_partition_ops; i++)
        AIRC_TRY(opset_add(ctx, allowed, o->allowed_single_node_partition_ops[i],
                           "allowed_single_node_partition_ops"));
    return AIRC_OK;
}

/* getitem post-pass, single-node filter, and the result in torch's order. */
static airc_status finish(pstate *s, const airc_partition_options *o, const opset *nc,
                          const opset *allowed, const airc_op *getitem, airc_partitions *out)
{
    airc_context *ctx = s->ctx;
    size_t n = s->n ? (size_t)s->n : 1;
    int32_t *asg = airc_calloc(ctx, n, sizeof *asg), *fin = airc_calloc(ctx, n, sizeof *fin);
    int32_t *cnt = airc_calloc(ctx, n, sizeof *cnt), *members = airc_calloc(ctx, n, sizeof *cnt);
    int32_t *slot = airc_calloc(ctx, n, sizeof *slot), *kept = airc_calloc(ctx, n, sizeof *kept);
    airc_status st = AIRC_OK;
    if (!asg || !fin || !cnt || !members || !slot || !kept) {
        st = airc_fail_oom("partitioner result");
        goto done;
    }
    for (int32_t i = 0; i < s->n; i++)
        asg[i] = fin[i] = s->part[i] < 0 ? -1 : find(s, s->part[i]);
    /* a node read only through getitem takes its getitems along (decided on
     * the assignment before the pass, as torch does) */
    for (int32_t i = 0; i < s->n; i++) {
        airc_node *x = s->nodes[i];
        bool tuple = true;
        for (size_t k = 0; k < x->nusers && tuple; k++)
            tuple = x->users[k]->kind == AIRC_NODE_CALL_FUNCTION && x->users[k]->op == getitem &&
                    x->users[k]->ninputs == 1;
        if (!tuple)
            continue;
        for (size_t k = 0; k < x->nusers; k++)
            fin[s->idx_of[x->users[k]->id]] = asg[i];
    }
    for (int32_t i = 0; i < s->n; i++) {
        if (fin[i] < 0)
            continue;
        const airc_op *op = s->nodes[i]->op;
        members[fin[i]]++;
        if (op && !opset_has(nc, op))
            cnt[fin[i]]++;
        if (op && opset_has(allowed, op))
            cnt[fin[i]]++;
    }
    /* partitions sorted by torch id: ids are partition indexes of roots, and
     * pid[r] <= ... is unique, so a counting pass over ids keeps it linear */
    for (int32_t p = 0; p < s->np; p++)
        slot[p] = -1;
    for (int32_t p = 0; p < s->np; p++)
        if (s->uf[p] == p && members[p] > 0 && (o->allows_single_node_partition || cnt[p] > 1))
            slot[s->pid[p]] = p; /* pid -> root */
    size_t nk = 0;
    for (int32_t id = 0; id < s->np; id++)
        if (slot[id] >= 0)
            kept[nk++] = slot[id];
    /* reuse cnt as root -> output index, members as fill cursor */
    for (int32_t p = 0; p < s->np; p++)
        cnt[p] = -1;
    size_t total = 0;
    for (size_t k = 0; k < nk; k++) {
        cnt[kept[k]] = (int32_t)k;
        total += (size_t)members[kept[k]];
    }
    if (!airc_grow(ctx, (void **)&out->nodes, &out->nodes_cap, total ? total : 1,
                   sizeof *out->nodes) ||
        !airc_grow(ctx, (void **)&out->start, &out->start_cap, nk + 1, sizeof *out->start)) {
        st = airc_fail_oom("partitioner result");
        goto done;
    }
    out->start[0] = 0;
    for (size_t k = 0; k < nk; k++)
        out->start[k + 1] = out->start[k] + (size_t)members[kept[k]];
    for (size_t k = 0; k < nk; k++)
        members[kept[k]] = (int32_t)out->start[k];
    for (int32_t i = 0; i < s->n; i++)
        if (fin[i] >= 0 && cnt[fin[i]] >= 0)
            out->nodes[members[fin[i]]++] = s->nodes[i];
    out->nnodes = total;
    out->count = nk;
done:
    airc_free(ctx, asg);
    airc_free(ctx, fin);
    airc_free(ctx, cnt);
    airc_free(ctx, members);
    airc_free(ctx, slot);
    airc_free(ctx, kept);
    return st;
}

void airc_partition_options_init(airc_partition_options *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->struct_size = sizeof *opts;
    opts->horizontal_fusion = 1;
}

airc_status airc_graph_propose_partitions(airc_graph *g, const airc_support *support,
                                          const airc_partition_options *opts,
                                          airc_partitions **out)
{
    AIRC_TRY(airc_check_graph(g, "airc_graph_propose_partitions"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_graph_propose_partitions: out is NULL");
    if (!airc_support_live(support))
        return airc_fail(AIRC_E_MISUSE,
                         "airc_graph_propose_partitions: support is not a live support object");
    airc_partition_options defaults;
    airc_partition_options_init(&defaults);
    if (!opts)
        opts = &defaults;
    if (opts->struct_size != sizeof *opts)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "airc_graph_propose_partitions: options struct_size is %zu, expected %zu "
                         "(use airc_partition_options_init)",
                         opts->struct_size, sizeof *opts);
    if (g->nnodes > (size_t)INT32_MAX / 2)
        return airc_fail(AIRC_E_UNSUPPORTED, "airc_graph_propose_partitions: graph too large");
    airc_context *ctx = g->ctx;
    opset nc = {0}, allowed = {0};
    pstate s = {0};
    airc_partitions *res = NULL;
    const airc_op *getitem = NULL;
    airc_status st = build_opsets(ctx, opts, &nc, &allowed);
    if (st == AIRC_OK)
        st = airc_context_find_op(ctx, AIRC_OP_GETITEM, &getitem);
    if (st == AIRC_OK)
        st = alloc_state(&s, g);
    if (st == AIRC_OK)
        st = main_loop(&s, support, opts->horizontal_fusion != 0);
    if (st == AIRC_OK)
        st = airc_partitions_create(g, &res);
    if (st == AIRC_OK)
        st = finish(&s, opts, &nc, &allowed, getitem, res);
    free_state(&s);
    airc_free(ctx, nc.m);
    airc_free(ctx, allowed.m);
    if (st != AIRC_OK) {
        airc_partitions_destroy(res);
        return st;
    }
    *out = res;
    return AIRC_OK;
}
