/* Memory planner of the reduce-overhead capture; memory_plan.h states the
 * model. Six greedy heuristics run (three orders x two fits) and the smallest
 * arena wins; a naive layout backs them so that the arena never exceeds the
 * naive bytes. Each heuristic places buffers one at a time at an offset that
 * avoids the bytes of the already placed buffers whose lifetimes overlap its
 * own; those are found with a max-tree over the buffers sorted by start (an
 * output-sensitive interval query), so the cost follows the number of
 * buffers live together rather than n^2. */
#include "backends/replay/memory_plan.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A buffer that takes arena bytes (planned, size > 0). */
typedef struct mp_item {
    uint64_t asize; /* round_up(size, align) */
    uint64_t align;
    uint32_t start, end; /* effective lifetime, closed */
    uint32_t idx;        /* index in the caller's list */
} mp_item;

/* Sort key: compared a, b, c ascending, then item (a total order, hence
 * deterministic results whatever qsort does with ties). */
typedef struct mp_key {
    uint64_t a, b, c;
    uint32_t item;
} mp_key;

typedef struct mp_span {
    uint64_t lo, hi; /* bytes [lo, hi) */
} mp_span;

static int mp_key_cmp(const void *pa, const void *pb)
{
    const mp_key *x = pa, *y = pb;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    if (x->b != y->b)
        return x->b < y->b ? -1 : 1;
    if (x->c != y->c)
        return x->c < y->c ? -1 : 1;
    return x->item < y->item ? -1 : x->item > y->item;
}

static int mp_span_cmp(const void *pa, const void *pb)
{
    const mp_span *x = pa, *y = pb;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return x->hi < y->hi ? -1 : x->hi > y->hi;
}

airc_mem_buffer airc_mem_buffer_make(uint64_t size, uint32_t first_use, uint32_t last_use)
{
    airc_mem_buffer b = {.size = size,
                         .align = AIRC_MEM_DEFAULT_ALIGN,
                         .first_use = first_use,
                         .last_use = last_use,
                         .stream = 0,
                         .fork = AIRC_MEM_NO_EVENT,
                         .join = AIRC_MEM_NO_EVENT,
                         .unplanned = false};
    return b;
}

const char *airc_mem_strategy_name(int32_t strategy)
{
    switch (strategy) {
    case AIRC_MEM_STRATEGY_SIZE_FIRST_FIT: return "size_first_fit";
    case AIRC_MEM_STRATEGY_SIZE_BEST_FIT: return "size_best_fit";
    case AIRC_MEM_STRATEGY_BREADTH_FIRST_FIT: return "breadth_first_fit";
    case AIRC_MEM_STRATEGY_BREADTH_BEST_FIT: return "breadth_best_fit";
    case AIRC_MEM_STRATEGY_START_FIRST_FIT: return "start_first_fit";
    case AIRC_MEM_STRATEGY_START_BEST_FIT: return "start_best_fit";
    case AIRC_MEM_STRATEGY_NAIVE: return "naive";
    case AIRC_MEM_STRATEGY_SEARCH: return "search";
    default: return "unknown";
    }
}

/* The validated, arena-relevant view of the buffer list, shared by the
 * planner and the checker. */
typedef struct mp_prep {
    mp_item *items; /* planned buffers with size > 0 */
    size_t m;
    uint64_t naive;
    uint64_t arena_align;
    size_t planned;
} mp_prep;

static airc_status mp_prepare(airc_context *ctx, const airc_mem_buffer *bufs, size_t n,
                              const char *fn, mp_prep *p)
{
    memset(p, 0, sizeof *p);
    if (n > 0 && !bufs)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: NULL buffer list for %zu buffers", fn, n);
    if (n >= UINT32_MAX)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: %zu buffers (at most %u)", fn, n,
                         UINT32_MAX - 1);
    /* The last position of the plan bounds side-stream lifetimes without a
     * join. */
    uint32_t horizon = 0;
    size_t m = 0;
    uint64_t naive = 0, arena_align = 1;
    for (size_t i = 0; i < n; i++) {
        const airc_mem_buffer *b = &bufs[i];
        uint64_t align = b->align ? b->align : AIRC_MEM_DEFAULT_ALIGN;
        if ((align & (align - 1)) != 0 || align > AIRC_MEM_MAX_ALIGN)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "%s: buffer %zu: alignment %" PRIu64
                             " is not a power of two up to 2^40",
                             fn, i, b->align);
        if (b->first_use > b->last_use)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "%s: buffer %zu: first use %" PRIu32 " after last use %" PRIu32, fn, i,
                             b->first_use, b->last_use);
        if (b->size > UINT64_MAX - (align - 1))
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "%s: buffer %zu: size %" PRIu64 " overflows when aligned", fn, i,
                             b->size);
        if (b->last_use > horizon)
            horizon = b->last_use;
        if (b->join != AIRC_MEM_NO_EVENT && b->join > horizon)
            horizon = b->join;
        if (b->unplanned)
            continue;
        p->planned++;
        uint64_t asize = (b->size + align - 1) & ~(align - 1);
        if (asize > UINT64_MAX - naive)
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "%s: buffer %zu: the buffers' total size overflows 64 bits", fn, i);
        naive += asize;
        if (asize > 0) {
            m++;
            if (align > arena_align)
                arena_align = align;
        }
    }
    mp_item *items = NULL;
    if (m > 0) {
        items = airc_calloc(ctx, m, sizeof *items);
        if (!items)
            return airc_fail_oom("memory plan buffers");
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const airc_mem_buffer *b = &bufs[i];
        uint64_t align = b->align ? b->align : AIRC_MEM_DEFAULT_ALIGN;
        uint64_t asize = (b->size + align - 1) & ~(align - 1);
        if (b->unplanned || asize == 0)
            continue;
        uint32_t start = b->first_use, end = b->last_use;
        if (b->fork != AIRC_MEM_NO_EVENT) {
            if (b->fork < start)
                start = b->fork;
        } else if (b->stream != 0) {
            start = 0;
        }
        if (b->join != AIRC_MEM_NO_EVENT) {
            if (b->join > end)
                end = b->join;
        } else if (b->stream != 0) {
            end = horizon;
        }
        items[k++] = (mp_item){.asize = asize, .align = align, .start = start, .end = end,
                               .idx = (uint32_t)i};
    }
    p->items = items;
    p->m = m;
    p->naive = naive;
    p->arena_align = arena_align;
    return AIRC_OK;
}

/* ---- planner state ----------------------------------------------------- */

typedef struct mp_state {
    airc_context *ctx;
    const mp_item *items;
    size_t m;
    mp_key *keys;       /* sort scratch */
    uint32_t *by_start; /* items sorted by start */
    uint32_t *starts;   /* starts[r] = items[by_start[r]].start */
    uint32_t *rank;     /* rank[item] = its place in by_start */
    uint64_t *tree;     /* max-tree over ranks: end + 1 of placed items, 0 otherwise */
    size_t leaves;      /* power of two >= m */
    mp_span *spans;     /* conflicts of the item being placed */
    size_t nspans;
    uint64_t *offs; /* offsets being built, per item */
} mp_state;

static void mp_tree_set(mp_state *s, size_t r, uint64_t v)
{
    size_t i = s->leaves + r;
    s->tree[i] = v;
    for (i >>= 1; i >= 1; i >>= 1) {
        uint64_t l = s->tree[2 * i], h = s->tree[2 * i + 1];
        s->tree[i] = l > h ? l : h;
    }
}

/* Collects the spans of placed items with rank < hi and end >= start. The
 * tree prunes subtrees whose largest end is too small, so the walk costs
 * O((found + 1) log m). Recursion depth is log2(leaves) <= 32. */
static void mp_collect(mp_state *s, size_t node, size_t lo, size_t width, size_t hi,
                       uint32_t start)
{
    if (lo >= hi || s->tree[node] <= start)
        return;
    if (width == 1) {
        uint32_t it = s->by_start[lo];
        uint64_t off = s->offs[it];
        s->spans[s->nspans++] = (mp_span){off, off + s->items[it].asize};
        return;
    }
    size_t half = width / 2;
    mp_collect(s, 2 * node, lo, half, hi, start);
    mp_collect(s, 2 * node + 1, lo + half, half, hi, start);
}

/* Ranks [0, result) hold the items starting at or before pos. */
static size_t mp_upper_bound(const mp_state *s, uint32_t pos)
{
    size_t lo = 0, hi = s->m;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->starts[mid] <= pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Places the items in `order` (item indices). Returns false when an offset
 * would overflow 64 bits or the arena grows past `limit` (a better plan
 * exists already); *arena gets the arena size otherwise. */
static bool mp_place(mp_state *s, const uint32_t *order, bool best_fit, uint64_t limit,
                     uint64_t *arena)
{
    memset(s->tree, 0, 2 * s->leaves * sizeof *s->tree);
    uint64_t top = 0;
    for (size_t k = 0; k < s->m; k++) {
        uint32_t it = order[k];
        const mp_item *x = &s->items[it];
        s->nspans = 0;
        mp_collect(s, 1, 0, s->leaves, mp_upper_bound(s, x->end), x->start);
        qsort(s->spans, s->nspans, sizeof *s->spans, mp_span_cmp);
        uint64_t mask = x->align - 1, cur = 0, best = UINT64_MAX, best_gap = UINT64_MAX;
        bool found = false;
        for (size_t j = 0; j < s->nspans && !(found && !best_fit); j++) {
            const mp_span *sp = &s->spans[j];
            if (sp->lo > cur) {
                /* cur < sp->lo <= UINT64_MAX: aligning cannot wrap past it
                 * unnoticed, as cand is then > cur. */
                uint64_t cand = (cur + mask) & ~mask;
                if (cand >= cur && cand <= sp->lo && sp->lo - cand >= x->asize) {
                    uint64_t gap = sp->lo - cand;
                    if (!found || gap < best_gap) {
                        best = cand;
                        best_gap = gap;
                        found = true;
                    }
                }
            }
            if (sp->hi > cur)
                cur = sp->hi;
        }
        if (!found) {
            if (cur > UINT64_MAX - mask)
                return false;
            best = (cur + mask) & ~mask;
            if (best > UINT64_MAX - x->asize)
                return false;
        }
        s->offs[it] = best;
        if (best + x->asize > top) {
            top = best + x->asize;
            if (top > limit)
                return false;
        }
        mp_tree_set(s, s->rank[it], (uint64_t)x->end + 1);
    }
    *arena = top;
    return true;
}

static void mp_sort_order(mp_state *s, uint32_t *order)
{
    qsort(s->keys, s->m, sizeof *s->keys, mp_key_cmp);
    for (size_t k = 0; k < s->m; k++)
        order[k] = s->keys[k].item;
}

/* Busiest-position-first order (Pisarchyk & Lee's greedy by breadth): each
 * item is keyed by the largest breadth (bytes live) over its lifetime and
 * the first position where it is reached, so the items of the busiest
 * position come first, largest first. breadth[r] is the breadth at the start
 * of the item of rank r; the maximum over a lifetime is reached at a start
 * inside it, as breadth only grows at starts. `scratch` holds 2 * leaves
 * uint32 for a range-argmax tree over ranks. */
static void mp_breadth_keys(mp_state *s, const uint64_t *breadth, uint32_t *scratch)
{
    size_t L = s->leaves;
    for (size_t r = 0; r < L; r++)
        scratch[L + r] = (uint32_t)(r < s->m ? r : s->m - 1);
    for (size_t i = L - 1; i >= 1; i--) {
        uint32_t a = scratch[2 * i], b = scratch[2 * i + 1];
        scratch[i] = breadth[b] > breadth[a] ? b : a; /* ties: the earlier rank */
    }
    for (size_t it = 0; it < s->m; it++) {
        const mp_item *x = &s->items[it];
        size_t lo = s->rank[it], hi = mp_upper_bound(s, x->end); /* ranks [lo, hi) */
        /* ranks before `lo` with the same start have the same breadth */
        uint32_t arg = (uint32_t)lo;
        for (size_t l = lo + L, h = hi + L; l < h; l >>= 1, h >>= 1) {
            if (l & 1) {
                uint32_t c = scratch[l++];
                if (breadth[c] > breadth[arg] || (breadth[c] == breadth[arg] && c < arg))
                    arg = c;
            }
            if (h & 1) {
                uint32_t c = scratch[--h];
                if (breadth[c] > breadth[arg] || (breadth[c] == breadth[arg] && c < arg))
                    arg = c;
            }
        }
        s->keys[it] = (mp_key){~breadth[arg], s->starts[arg], ~x->asize, (uint32_t)it};
    }
}

airc_status airc_memory_plan(airc_context *ctx, const airc_mem_buffer *bufs, size_t n,
                             uint64_t *offsets, airc_mem_plan *out)
{
    if (!out || (n > 0 && !offsets))
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_memory_plan: NULL output");
    mp_prep p;
    AIRC_TRY(mp_prepare(ctx, bufs, n, "airc_memory_plan", &p));
    airc_status st = AIRC_OK;
    mp_state s = {.ctx = ctx, .items = p.items, .m = p.m};
    uint32_t *order = NULL, *scratch = NULL;
    uint64_t *breadth = NULL, *best = NULL;
    uint32_t *ends = NULL;
    uint64_t lower = 0, arena = 0;
    int32_t strategy = AIRC_MEM_STRATEGY_NAIVE;
    size_t m = p.m;
    if (m == 0)
        goto done;
    s.leaves = 1;
    while (s.leaves < m)
        s.leaves *= 2;
    s.keys = airc_calloc(ctx, m, sizeof *s.keys);
    s.by_start = airc_calloc(ctx, m, sizeof *s.by_start);
    s.starts = airc_calloc(ctx, m, sizeof *s.starts);
    s.rank = airc_calloc(ctx, m, sizeof *s.rank);
    s.tree = airc_calloc(ctx, 2 * s.leaves, sizeof *s.tree);
    s.spans = airc_calloc(ctx, m, sizeof *s.spans);
    s.offs = airc_calloc(ctx, m, sizeof *s.offs);
    order = airc_calloc(ctx, m, sizeof *order);
    scratch = airc_calloc(ctx, 2 * s.leaves, sizeof *scratch);
    breadth = airc_calloc(ctx, m, sizeof *breadth);
    best = airc_calloc(ctx, m, sizeof *best);
    ends = airc_calloc(ctx, m, sizeof *ends);
    if (!s.keys || !s.by_start || !s.starts || !s.rank || !s.tree || !s.spans || !s.offs ||
        !order || !scratch || !breadth || !best || !ends) {
        st = airc_fail_oom("memory plan scratch");
        goto done;
    }

    /* Items by start; then the breadth at each start by a sweep against the
     * sorted ends (an item stops counting after its end). */
    for (size_t i = 0; i < m; i++)
        s.keys[i] = (mp_key){p.items[i].start, 0, 0, (uint32_t)i};
    mp_sort_order(&s, s.by_start);
    for (size_t r = 0; r < m; r++) {
        s.starts[r] = p.items[s.by_start[r]].start;
        s.rank[s.by_start[r]] = (uint32_t)r;
    }
    for (size_t i = 0; i < m; i++)
        s.keys[i] = (mp_key){p.items[i].end, 0, 0, (uint32_t)i};
    mp_sort_order(&s, order);
    for (size_t i = 0; i < m; i++)
        ends[i] = order[i];
    {
        uint64_t live = 0;
        size_t r = 0, e = 0;
        while (r < m) {
            uint32_t pos = s.starts[r];
            while (r < m && s.starts[r] == pos)
                live += p.items[s.by_start[r++]].asize;
            while (e < m && p.items[ends[e]].end < pos)
                live -= p.items[ends[e++]].asize;
            for (size_t q = r; q > 0 && s.starts[q - 1] == pos; q--)
                breadth[q - 1] = live;
            if (live > lower)
                lower = live;
        }
    }

    /* The naive layout: largest alignment first, so that slots pack with no
     * padding (each aligned size is a multiple of every later alignment). */
    {
        uint64_t off = 0;
        for (size_t i = 0; i < m; i++)
            s.keys[i] = (mp_key){~p.items[i].align, 0, 0, (uint32_t)i};
        mp_sort_order(&s, order);
        for (size_t k = 0; k < m; k++) {
            best[order[k]] = off;
            off += p.items[order[k]].asize;
        }
        arena = off;
    }

    for (int32_t strat = AIRC_MEM_STRATEGY_START_BEST_FIT; strat >= 0; strat--) {
        /* Tried from the last so that the earlier strategy wins a tie. No
         * order wins everywhere: size order packs the large buffers
         * tightly, breadth order the busiest positions, launch order the
         * chains of buffers that hand over to each other. */
        bool best_fit = strat % 2 == 1;
        if (strat == AIRC_MEM_STRATEGY_SIZE_FIRST_FIT || strat == AIRC_MEM_STRATEGY_SIZE_BEST_FIT) {
            for (size_t i = 0; i < m; i++) {
                const mp_item *x = &p.items[i];
                s.keys[i] = (mp_key){~x->asize, ~(uint64_t)(x->end - x->start), x->start,
                                     (uint32_t)i};
            }
        } else if (strat == AIRC_MEM_STRATEGY_START_FIRST_FIT ||
                   strat == AIRC_MEM_STRATEGY_START_BEST_FIT) {
            for (size_t i = 0; i < m; i++) {
                const mp_item *x = &p.items[i];
                s.keys[i] = (mp_key){x->start, ~x->asize, x->end, (uint32_t)i};
            }
        } else {
            mp_breadth_keys(&s, breadth, scratch);
        }
        mp_sort_order(&s, order);
        uint64_t got;
        if (mp_place(&s, order, best_fit, arena, &got) && got <= arena) {
            arena = got;
            strategy = strat;
            memcpy(best, s.offs, m * sizeof *best);
        }
    }

    /* Still above the lower bound: a deterministic search over size orders
     * with random weights (each size scaled by a factor in [0.5, 1.5)), a
     * fixed number of tries that shrinks as the plan grows. */
    for (uint32_t t = 0, tries = m <= 64 ? 256 : m <= 1024 ? 32 : 0; t < tries && arena > lower;
         t++) {
        uint64_t rng = 0x9e3779b97f4a7c15ull * (t + 1);
        for (size_t i = 0; i < m; i++) {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            const mp_item *x = &p.items[i];
            double w = (double)x->asize * (0.5 + (double)(rng >> 11) / 9007199254740992.0);
            s.keys[i] = (mp_key){~(uint64_t)w, rng, x->start, (uint32_t)i};
        }
        mp_sort_order(&s, order);
        uint64_t got;
        if (mp_place(&s, order, t % 2 == 1, arena, &got) && got < arena) {
            arena = got;
            strategy = AIRC_MEM_STRATEGY_SEARCH;
            memcpy(best, s.offs, m * sizeof *best);
        }
    }

done:
    if (st == AIRC_OK) {
        for (size_t i = 0; i < n; i++)
            offsets[i] = bufs[i].unplanned ? AIRC_MEM_UNPLANNED : 0;
        for (size_t i = 0; i < m; i++)
            offsets[p.items[i].idx] = best[i];
        *out = (airc_mem_plan){.arena_bytes = arena,
                               .naive_bytes = p.naive,
                               .lower_bound_bytes = lower,
                               .arena_align = p.arena_align,
                               .planned = p.planned,
                               .strategy = strategy};
    }
    airc_free(ctx, s.keys);
    airc_free(ctx, s.by_start);
    airc_free(ctx, s.starts);
    airc_free(ctx, s.rank);
    airc_free(ctx, s.tree);
    airc_free(ctx, s.spans);
    airc_free(ctx, s.offs);
    airc_free(ctx, order);
    airc_free(ctx, scratch);
    airc_free(ctx, breadth);
    airc_free(ctx, best);
    airc_free(ctx, ends);
    airc_free(ctx, p.items);
    return st;
}

/* ---- checker ------------------------------------------------------------ */

airc_status airc_memory_plan_check(airc_context *ctx, const airc_mem_buffer *bufs, size_t n,
                                   const uint64_t *offsets, uint64_t arena_bytes)
{
    static const char fn[] = "airc_memory_plan_check";
    if (n > 0 && !offsets)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: NULL offsets", fn);
    mp_prep p;
    AIRC_TRY(mp_prepare(ctx, bufs, n, fn, &p));
    /* Per-buffer checks first, over every buffer (zero-size ones included). */
    for (size_t i = 0; i < n; i++) {
        const airc_mem_buffer *b = &bufs[i];
        uint64_t align = b->align ? b->align : AIRC_MEM_DEFAULT_ALIGN;
        uint64_t asize = (b->size + align - 1) & ~(align - 1);
        airc_status st = AIRC_OK;
        if (b->unplanned) {
            if (offsets[i] != AIRC_MEM_UNPLANNED)
                st = airc_fail(AIRC_E_INVALID_ARGUMENT,
                               "%s: unplanned buffer %zu has arena offset %" PRIu64, fn, i,
                               offsets[i]);
        } else if (offsets[i] & (align - 1)) {
            st = airc_fail(AIRC_E_INVALID_ARGUMENT,
                           "%s: buffer %zu: offset %" PRIu64 " is not a multiple of %" PRIu64, fn,
                           i, offsets[i], align);
        } else if (offsets[i] > arena_bytes || arena_bytes - offsets[i] < asize) {
            st = airc_fail(AIRC_E_INVALID_ARGUMENT,
                           "%s: buffer %zu: bytes [%" PRIu64 ", +%" PRIu64
                           ") past the arena's %" PRIu64,
                           fn, i, offsets[i], asize, arena_bytes);
        }
        if (st != AIRC_OK) {
            airc_free(ctx, p.items);
            return st;
        }
    }
    /* Sweep by start: each item meets every earlier-starting item still
     * live, i.e. every pair whose lifetimes overlap exactly once. Plain
     * quadratic in the live set: simple on purpose, unlike the planner. */
    size_t m = p.m;
    airc_status st = AIRC_OK;
    mp_key *keys = NULL;
    uint32_t *active = NULL;
    if (m > 0) {
        keys = airc_calloc(ctx, m, sizeof *keys);
        active = airc_calloc(ctx, m, sizeof *active);
        if (!keys || !active) {
            st = airc_fail_oom("memory plan check scratch");
            goto out;
        }
    }
    for (size_t i = 0; i < m; i++)
        keys[i] = (mp_key){p.items[i].start, 0, 0, (uint32_t)i};
    if (m > 0)
        qsort(keys, m, sizeof *keys, mp_key_cmp);
    size_t na = 0;
    for (size_t k = 0; k < m && st == AIRC_OK; k++) {
        const mp_item *x = &p.items[keys[k].item];
        uint64_t xlo = offsets[x->idx], xhi = xlo + x->asize; /* bounded by the arena above */
        size_t keep = 0;
        for (size_t a = 0; a < na; a++) {
            const mp_item *y = &p.items[active[a]];
            if (y->end < x->start)
                continue;
            active[keep++] = active[a];
            uint64_t ylo = offsets[y->idx], yhi = ylo + y->asize;
            if (xlo < yhi && ylo < xhi) {
                st = airc_fail(AIRC_E_INVALID_ARGUMENT,
                               "%s: buffers %" PRIu32 " (bytes [%" PRIu64 ", %" PRIu64
                               "), live %" PRIu32 "..%" PRIu32 ") and %" PRIu32
                               " (bytes [%" PRIu64 ", %" PRIu64 "), live %" PRIu32 "..%" PRIu32
                               ") are live together and share bytes",
                               fn, y->idx, ylo, yhi, y->start, y->end, x->idx, xlo, xhi, x->start,
                               x->end);
                break;
            }
        }
        na = keep;
        active[na++] = keys[k].item;
    }
out:
    airc_free(ctx, keys);
    airc_free(ctx, active);
    airc_free(ctx, p.items);
    return st;
}
