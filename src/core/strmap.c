/* String -> pointer hash map (open addressing, linear probing, xxhash).
 * Keys are borrowed; tombstones keep probe chains intact after removal. */
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

static airc_strmap_slot *find_slot(const airc_strmap *m, const char *key, size_t len,
                                   uint64_t h)
{
    if (!m->cap)
        return NULL;
    size_t mask = m->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        airc_strmap_slot *s = &m->slots[i];
        if (!s->key)
            return NULL;
        if (s->key != TOMBSTONE && s->hash == h && s->len == len && !memcmp(s->key, key, len))
            return s;
    }
}

void *airc_strmap_getn(const airc_strmap *m, const char *key, size_t len)
{
    airc_strmap_slot *s = find_slot(m, key, len, XXH3_64bits(key, len));
    return s ? s->value : NULL;
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
    while (ncap < need) {
        if (ncap > SIZE_MAX / 4)
            return false;
        ncap *= 2;
    }
    return rehash(m, ncap);
}

bool airc_strmap_put(airc_strmap *m, const char *key, void *value)
{
    size_t len = strlen(key);
    uint64_t h = XXH3_64bits(key, len);
    airc_strmap_slot *s = find_slot(m, key, len, h);
    if (s) {
        s->value = value;
        return true;
    }
    if (!airc_strmap_reserve(m, 1))
        return false;
    size_t mask = m->cap - 1;
    size_t i = (size_t)h & mask;
    while (m->slots[i].key && m->slots[i].key != TOMBSTONE)
        i = (i + 1) & mask;
    if (!m->slots[i].key)
        m->used++;
    m->slots[i] = (airc_strmap_slot){key, len, h, value};
    m->count++;
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
    s->key = TOMBSTONE;
    s->value = NULL;
    m->count--;
    return v;
}
