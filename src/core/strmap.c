/* String -> pointer hash map (open addressing, linear probing, xxhash).
 * Keys are borrowed; tombstones keep probe chains intact after removal.
 *
 * The name table of a big graph is far larger than the cache, so a probe
 * should cost one cache line: slots are 24 bytes and carry 32 bits of the
 * hash and the length, so only a key that matches both is dereferenced,
 * and rehashing reads no key at all. */
#include "core/core.h"

#include <string.h>
#include <xxhash.h>

static char tombstone_key;
#define TOMBSTONE (&tombstone_key)

void airc_strmap_init(airc_strmap *m, airc_context *ctx)
{
    memset(m, 0, sizeof *m);
    m->ctx = ctx;
}

void airc_strmap_free(airc_strmap *m)
{
    airc_free(m->ctx, m->slots);
    m->slots = NULL;
    m->cap = m->count = m->used = 0;
}

uint64_t airc_strmap_hash(const char *key, size_t len)
{
    return XXH3_64bits(key, len);
}

static airc_strmap_slot *find_slot(const airc_strmap *m, const char *key, size_t len,
                                   uint64_t h)
{
    if (!m->cap || len > UINT32_MAX)
        return NULL;
    size_t mask = m->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        airc_strmap_slot *s = &m->slots[i];
        if (!s->key)
            return NULL;
        /* a tombstone's hash and len are 0 and its key is never compared */
        if (s->hash == (uint32_t)h && s->len == len && s->key != TOMBSTONE &&
            !memcmp(s->key, key, len))
            return s;
    }
}

void *airc_strmap_get_hashed(const airc_strmap *m, const char *key, size_t len, uint64_t h)
{
    airc_strmap_slot *s = find_slot(m, key, len, h);
    return s ? s->value : NULL;
}

void *airc_strmap_getn(const airc_strmap *m, const char *key, size_t len)
{
    return airc_strmap_get_hashed(m, key, len, XXH3_64bits(key, len));
}

void *airc_strmap_get(const airc_strmap *m, const char *key)
{
    return airc_strmap_getn(m, key, strlen(key));
}

static bool rehash(airc_strmap *m, size_t ncap)
{
    if (ncap > SIZE_MAX / sizeof(airc_strmap_slot))
        return false;
    airc_strmap_slot *slots = airc_calloc(m->ctx, ncap, sizeof *slots);
    if (!slots)
        return false;
    for (size_t i = 0; i < m->cap; i++) {
        airc_strmap_slot *s = &m->slots[i];
        if (!s->key || s->key == TOMBSTONE)
            continue;
        /* the index uses the low bits of the hash: the 32 kept suffice up
         * to 2^32 slots, far more than any table here */
        size_t j = (size_t)s->hash & (ncap - 1);
        while (slots[j].key)
            j = (j + 1) & (ncap - 1);
        slots[j] = *s;
    }
    airc_free(m->ctx, m->slots);
    m->slots = slots;
    m->cap = ncap;
    m->used = m->count;
    return true;
}

bool airc_strmap_reserve(airc_strmap *m, size_t extra)
{
    /* load factor <= 1/2 counting tombstones */
    if (m->used + extra <= m->cap / 2)
        return true;
    size_t need = (m->count + extra) * 2;
    size_t ncap = m->cap ? m->cap : 16;
    /* more slots than 2^32 would need more than the 32 hash bits kept */
    if (need > ((size_t)1 << 31) || need < m->count)
        return false;
    while (ncap < need)
        ncap *= 2;
    return rehash(m, ncap);
}

void airc_strmap_prefetch(const airc_strmap *m, uint64_t h)
{
    if (m->cap)
        __builtin_prefetch(&m->slots[(size_t)(uint32_t)h & (m->cap - 1)], 1);
}

void airc_strmap_insert_new(airc_strmap *m, const char *key, size_t len, uint64_t h, void *value)
{
    size_t mask = m->cap - 1;
    size_t i = (size_t)(uint32_t)h & mask;
    while (m->slots[i].key && m->slots[i].key != TOMBSTONE)
        i = (i + 1) & mask;
    if (!m->slots[i].key)
        m->used++;
    m->slots[i] = (airc_strmap_slot){key, value, (uint32_t)len, (uint32_t)h};
    m->count++;
}

bool airc_strmap_put(airc_strmap *m, const char *key, void *value)
{
    size_t len = strlen(key);
    if (len > UINT32_MAX)
        return false;
    uint64_t h = XXH3_64bits(key, len);
    airc_strmap_slot *s = find_slot(m, key, len, h);
    if (s) {
        s->value = value;
        return true;
    }
    if (!airc_strmap_reserve(m, 1))
        return false;
    airc_strmap_insert_new(m, key, len, h, value);
    return true;
}

bool airc_strmap_put_existing(airc_strmap *m, const char *key, size_t len, void *value)
{
    airc_strmap_slot *s = find_slot(m, key, len, XXH3_64bits(key, len));
    if (!s)
        return false;
    s->value = value;
    return true;
}

void *airc_strmap_remove(airc_strmap *m, const char *key)
{
    size_t len = strlen(key);
    airc_strmap_slot *s = find_slot(m, key, len, XXH3_64bits(key, len));
    if (!s)
        return NULL;
    void *v = s->value;
    *s = (airc_strmap_slot){TOMBSTONE, NULL, 0, 0};
    m->count--;
    return v;
}
