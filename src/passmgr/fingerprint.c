/* Graph fingerprints (did a pass change anything?) and call hashes (CSE).
 *
 * The pass API has no "changed" out-parameter (TorchAir's passes return
 * nothing), so the pass manager compares a digest of the graph before and
 * after each pass. The digest covers every field a pass can change through
 * the API; node identity is the node's address, which is never reused
 * within a graph (erased nodes stay allocated until the graph dies). */
#define XXH_STATIC_LINKING_ONLY
#include "passmgr/passmgr.h"

#include <string.h>
#include <xxhash.h>

typedef struct hasher {
    XXH3_state_t st;
} hasher;

static void put(hasher *h, const void *p, size_t n)
{
    XXH3_64bits_update(&h->st, p, n);
}

static void put_u64(hasher *h, uint64_t v)
{
    put(h, &v, sizeof v);
}

static void put_str(hasher *h, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    put_u64(h, n);
    if (n)
        put(h, s, n);
}

static void put_value(hasher *h, const airc_value *v)
{
    if (!v) {
        put_u64(h, 0xffu);
        return;
    }
    put_u64(h, (uint64_t)v->kind);
    switch (v->kind) {
    case AIRC_VALUE_INT:
        put_u64(h, (uint64_t)v->u.i);
        break;
    case AIRC_VALUE_FLOAT:
        put(h, &v->u.f, sizeof v->u.f);
        break;
    case AIRC_VALUE_BOOL:
        put_u64(h, (uint64_t)(v->u.b != 0));
        break;
    case AIRC_VALUE_STRING:
        put_u64(h, v->len);
        put(h, v->u.s, v->len);
        break;
    case AIRC_VALUE_NODE:
        put_u64(h, (uint64_t)(uintptr_t)v->u.node);
        break;
    case AIRC_VALUE_DTYPE:
        put_u64(h, (uint64_t)v->u.dtype);
        break;
    case AIRC_VALUE_MEMORY_FORMAT:
    case AIRC_VALUE_LAYOUT:
        put_u64(h, (uint64_t)v->u.e);
        break;
    case AIRC_VALUE_DEVICE:
        put_str(h, v->u.dev.type);
        put_u64(h, (uint64_t)v->u.dev.index);
        break;
    case AIRC_VALUE_LIST:
    case AIRC_VALUE_TUPLE:
        put_u64(h, v->len);
        for (uint32_t i = 0; i < v->len; i++)
            put_value(h, v->u.items[i]);
        break;
    default:
        break;
    }
}

static void put_meta(hasher *h, const airc_node *n)
{
    put_u64(h, (uint64_t)n->meta_kind);
    put_u64(h, n->meta_kind == AIRC_META_NONE ? 0 : n->nout);
    if (n->meta_kind == AIRC_META_NONE)
        return;
    for (uint32_t i = 0; i < n->nout; i++) {
        const airc_tmeta *t = &n->out[i];
        int32_t nd = t->ndim < 0 ? 0 : t->ndim > AIRC_MAX_DIMS ? AIRC_MAX_DIMS : t->ndim;
        put_u64(h, (uint64_t)t->dtype);
        put_u64(h, (uint64_t)t->ndim);
        put(h, t->shape, (size_t)nd * sizeof *t->shape);
        put(h, t->strides, (size_t)nd * sizeof *t->strides);
    }
}

static void put_graph(hasher *h, const airc_graph *g)
{
    put_u64(h, g->nnodes);
    AIRC_FOR_EACH_NODE(g, n) {
        put_u64(h, (uint64_t)(uintptr_t)n);
        put_u64(h, (uint64_t)n->kind);
        put_str(h, n->name);
        put_str(h, n->target);
        put_u64(h, (uint64_t)(uintptr_t)n->op);
        put_u64(h, n->nargs);
        for (uint32_t i = 0; i < n->nargs; i++)
            put_value(h, n->args[i]);
        put_u64(h, n->nkw);
        for (uint32_t i = 0; i < n->nkw; i++) {
            put_str(h, n->kw_names[i]);
            put_value(h, n->kw_values[i]);
        }
        put_meta(h, n);
        put_u64(h, n->type_annotated);
        put_u64(h, n->nattrs);
        for (size_t i = 0; i < n->nattrs; i++) {
            put_str(h, n->attr_keys[i]);
            put_value(h, n->attr_values[i]);
        }
    }
    put_u64(h, g->nconsts);
    for (size_t i = 0; i < g->nconsts; i++)
        put_u64(h, (uint64_t)(uintptr_t)g->consts[i]);
    put_u64(h, g->nsubs);
    for (size_t i = 0; i < g->nsubs; i++) {
        put_str(h, g->sub_names[i]);
        put_u64(h, (uint64_t)(uintptr_t)g->subs[i]);
        put_graph(h, g->subs[i]); /* nesting is shallow (partitions) */
    }
}

uint64_t airc_graph_fingerprint(const airc_graph *g)
{
    hasher h;
    XXH3_64bits_reset(&h.st);
    put_graph(&h, g);
    return XXH3_64bits_digest(&h.st);
}

static uint64_t value_hash(const airc_value *v)
{
    hasher h;
    XXH3_64bits_reset(&h.st);
    put_value(&h, v);
    return XXH3_64bits_digest(&h.st);
}

uint64_t airc_call_hash(const airc_node *n)
{
    hasher h;
    XXH3_64bits_reset(&h.st);
    put_u64(&h, (uint64_t)(uintptr_t)n->op);
    put_str(&h, n->target);
    put_u64(&h, n->nargs);
    for (uint32_t i = 0; i < n->nargs; i++)
        put_value(&h, n->args[i]);
    /* keyword order does not change a call's meaning: combine per-keyword
     * hashes commutatively */
    uint64_t kw = 0;
    for (uint32_t i = 0; i < n->nkw; i++)
        kw += XXH3_64bits_withSeed(n->kw_names[i], strlen(n->kw_names[i]),
                                   value_hash(n->kw_values[i]));
    put_u64(&h, n->nkw);
    put_u64(&h, kw);
    return XXH3_64bits_digest(&h.st);
}
