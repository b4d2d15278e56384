/* The compiler config: TorchAir's CompilerConfig option tree, set and read
 * by dotted key (config_table.c holds the options).
 *
 * Every option's value lives in one slot of an array parallel to the table.
 * A set parses the text into a fresh slot first and swaps it in only on
 * success, so a failed set (bad value or out of memory) changes nothing.
 *
 * Thread-safety: one thread at a time may change a config; reads of a config
 * nobody is changing may run concurrently (they do not write). */
#include "config/config.h"

#include <stdio.h>
#include <string.h>

typedef struct cfg_slot {
    bool has_value; /* false: unset (TorchAir's None) */
    bool set;       /* set explicitly (airc_config_is_set) */
    int64_t i;      /* BOOL: 0/1; INT: the value; ENUM: index into allowed */
    const char *s;  /* STRING/PATH: the table's default or `owned` */
    char *owned;
    char num[24]; /* INT: decimal text */
} cfg_slot;

struct airc_config {
    uint32_t magic;
    airc_context *ctx; /* one reference held */
    cfg_slot *slots;   /* airc_config_num_options() entries */
};

static bool live(const airc_config *cfg)
{
    return cfg && cfg->magic == AIRC_MAGIC_CONFIG;
}

static airc_status check_config(const airc_config *cfg, const char *fn)
{
    if (!cfg)
        return airc_fail(AIRC_E_MISUSE, "%s: config is NULL", fn);
    if (cfg->magic != AIRC_MAGIC_CONFIG)
        return airc_fail(AIRC_E_MISUSE, "%s: not a live airc_config", fn);
    return AIRC_OK;
}

static const char *type_name(airc_config_type t)
{
    static const char *const names[] = {"a bool", "an int", "a string", "an enum", "a path"};
    return names[t];
}

/* ---- unknown keys ------------------------------------------------------- */

/* Edit distance, capped: keys longer than 127 bytes get no suggestion. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 127 || lb > 127)
        return SIZE_MAX;
    size_t row[128];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

static const char *last_part(const char *key)
{
    const char *dot = strrchr(key, '.');
    return dot ? dot + 1 : key;
}

/* The closest known key, or NULL when nothing is close. A key given without
 * its group ("remove_noop_ops") finds its full name. */
static const char *suggest(const char *key)
{
    size_t n = airc_config_num_options();
    for (size_t i = 0; i < n; i++) {
        const char *k = airc_config_option_at(i)->key;
        if (!strcmp(last_part(k), last_part(key)))
            return k;
    }
    const char *best = NULL;
    size_t best_d = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        const char *k = airc_config_option_at(i)->key;
        size_t d = edit_distance(key, k);
        /* also compare the leaf alone, for a right leaf in a wrong group */
        size_t dl = edit_distance(last_part(key), last_part(k));
        if (dl != SIZE_MAX && dl + 2 < d)
            d = dl + 2;
        if (d < best_d) {
            best_d = d;
            best = k;
        }
    }
    size_t len = strlen(key);
    size_t limit = len / 3 > 3 ? len / 3 : 3;
    return best_d <= limit ? best : NULL;
}

/* Lists the options under group `key[0..len)` ("debug.aclgraph") into list;
 * returns how many there are. The list is cut short (", ...") when long. */
static size_t list_group(const char *key, size_t len, char *list, size_t cap)
{
    size_t n = airc_config_num_options(), count = 0, used = 0;
    list[0] = '\0';
    for (size_t i = 0; i < n && len; i++) {
        const char *k = airc_config_option_at(i)->key;
        if (strncmp(k, key, len) || k[len] != '.')
            continue;
        count++;
        if (used + strlen(k) + 8 >= cap) {
            if (used + 6 < cap && !strstr(list, ", ..."))
                used += (size_t)snprintf(list + used, cap - used, ", ...");
            continue;
        }
        used += (size_t)snprintf(list + used, cap - used, "%s%s", used ? ", " : "", k);
    }
    return count;
}

static airc_status unknown_key(const char *key)
{
    const char *why = airc_config_torchair_only(key);
    if (why)
        return airc_fail(AIRC_E_NOT_FOUND,
                         "config option '%.128s' is TorchAir's but airc does not implement it (%s)",
                         key, why);
    char list[640];
    if (list_group(key, strlen(key), list, sizeof list))
        return airc_fail(AIRC_E_NOT_FOUND,
                         "config option '%.128s' is a group, not an option; its options: %s", key,
                         list);
    const char *s = suggest(key);
    if (s)
        return airc_fail(AIRC_E_NOT_FOUND, "unknown config option '%.128s' (did you mean '%s'?)",
                         key, s);
    /* a wrong leaf in a known group: show the group */
    const char *dot = strrchr(key, '.');
    if (dot && list_group(key, (size_t)(dot - key), list, sizeof list))
        return airc_fail(AIRC_E_NOT_FOUND, "unknown config option '%.128s' (options in '%.*s': %s)",
                         key, (int)(dot - key < 64 ? dot - key : 64), key, list);
    return airc_fail(AIRC_E_NOT_FOUND,
                     "unknown config option '%.128s' (see docs/config.md for the option list)",
                     key);
}

static airc_status lookup(const airc_config *cfg, const char *key, const char *fn,
                          const airc_config_option **opt, size_t *index)
{
    AIRC_TRY(check_config(cfg, fn));
    if (!key)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: key is NULL", fn);
    *opt = airc_config_find_option(key, index);
    if (!*opt)
        return unknown_key(key);
    return AIRC_OK;
}

/* ---- values ------------------------------------------------------------- */

static bool parse_bool_text(const char *v, int64_t *out)
{
    static const char *const t[] = {"true", "1", "True"};
    static const char *const f[] = {"false", "0", "False"};
    for (int i = 0; i < 3; i++) {
        if (!strcmp(v, t[i])) {
            *out = 1;
            return true;
        }
        if (!strcmp(v, f[i])) {
            *out = 0;
            return true;
        }
    }
    return false;
}

static bool parse_int_text(const char *v, int64_t *out)
{
    const char *p = v;
    bool neg = *p == '-';
    if (*p == '-' || *p == '+')
        p++;
    if (!*p)
        return false;
    uint64_t acc = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; *p; p++) {
        if (*p < '0' || *p > '9')
            return false;
        unsigned d = (unsigned)(*p - '0');
        if (acc > (lim - d) / 10)
            return false;
        acc = acc * 10 + d;
    }
    *out = neg ? (acc == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)acc) : (int64_t)acc;
    return true;
}

static airc_status range_error(const airc_config_option *o, const char *got)
{
    return airc_fail(AIRC_E_INVALID_ARGUMENT,
                     "config option '%s' expects an integer in [%lld, %lld], got '%.64s'", o->key,
                     (long long)o->min, (long long)o->max, got);
}

static void set_int_slot(cfg_slot *s, int64_t v)
{
    s->i = v;
    snprintf(s->num, sizeof s->num, "%lld", (long long)v);
}

/* Parses text for option o into a fresh slot (the owned string, if any,
 * belongs to the slot). */
static airc_status parse_value(airc_context *ctx, const airc_config_option *o, const char *v,
                               cfg_slot *s)
{
    memset(s, 0, sizeof *s);
    s->has_value = true;
    switch (o->type) {
    case AIRC_CFG_BOOL:
        if (!parse_bool_text(v, &s->i))
            return airc_fail(AIRC_E_INVALID_ARGUMENT,
                             "config option '%s' expects a bool (true, false, 1, 0, True, False), "
                             "got '%.64s'",
                             o->key, v);
        return AIRC_OK;
    case AIRC_CFG_INT: {
        int64_t x;
        if (!parse_int_text(v, &x) || x < o->min || x > o->max)
            return range_error(o, v);
        set_int_slot(s, x);
        return AIRC_OK;
    }
    case AIRC_CFG_ENUM: {
        for (size_t i = 0; o->allowed[i]; i++) {
            if (!strcmp(v, o->allowed[i])) {
                s->i = (int64_t)i;
                return AIRC_OK;
            }
        }
        if (o->refused && !strcmp(v, o->refused))
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "config option '%s': '%s' is refused: %s",
                             o->key, v, o->refused_why);
        char list[256];
        size_t used = 0;
        for (size_t i = 0; o->allowed[i] && used < sizeof list; i++) {
            int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                             o->allowed[i]);
            used += w > 0 ? (size_t)w : 0;
        }
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "config option '%s': '%.64s' is not allowed (allowed: %s)", o->key, v,
                         list);
    }
    case AIRC_CFG_PATH:
        if (!*v)
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "config option '%s' expects a non-empty path",
                             o->key);
        /* fall through */
    case AIRC_CFG_STRING:
        s->owned = airc_strdup(ctx, v);
        if (!s->owned)
            return airc_fail_oom("config value");
        s->s = s->owned;
        return AIRC_OK;
    }
    return airc_fail(AIRC_E_INTERNAL, "config option '%s' has an unknown type", o->key);
}

/* The default slot of option o; never allocates (defaults are static). */
static void default_slot(const airc_config_option *o, cfg_slot *s)
{
    memset(s, 0, sizeof *s);
    if (!o->def)
        return;
    s->has_value = true;
    switch (o->type) {
    case AIRC_CFG_BOOL:
        parse_bool_text(o->def, &s->i);
        break;
    case AIRC_CFG_INT: {
        int64_t x = 0;
        parse_int_text(o->def, &x);
        set_int_slot(s, x);
        break;
    }
    case AIRC_CFG_ENUM:
        for (size_t i = 0; o->allowed[i]; i++)
            if (!strcmp(o->def, o->allowed[i]))
                s->i = (int64_t)i;
        break;
    case AIRC_CFG_STRING:
    case AIRC_CFG_PATH:
        s->s = o->def;
        break;
    }
}

static void replace_slot(airc_context *ctx, cfg_slot *dst, const cfg_slot *src)
{
    airc_free(ctx, dst->owned);
    *dst = *src;
    if (dst->owned)
        dst->s = dst->owned;
}

/* Text of a slot ("" when unset). */
/* Text of a slot whose value does not live inside the slot (all but ints). */
static const char *slot_text_external(const airc_config_option *o, const cfg_slot *s)
{
    if (!s->has_value)
        return "";
    switch (o->type) {
    case AIRC_CFG_BOOL:
        return s->i ? "1" : "0";
    case AIRC_CFG_ENUM:
        return o->allowed[s->i];
    case AIRC_CFG_STRING:
    case AIRC_CFG_PATH:
        return s->s;
    default:
        return "";
    }
}

static const char *slot_text(const airc_config_option *o, const cfg_slot *s)
{
    if (s->has_value && o->type == AIRC_CFG_INT)
        return s->num;
    return slot_text_external(o, s);
}

/* ---- public API --------------------------------------------------------- */

airc_status airc_config_create(airc_context *ctx, airc_config **out)
{
    AIRC_TRY(airc_check_context(ctx, "airc_config_create"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_config_create: out is NULL");
    size_t n = airc_config_num_options();
    airc_config *cfg = airc_malloc(ctx, sizeof *cfg);
    if (!cfg)
        return airc_fail_oom("config");
    cfg->slots = airc_calloc(ctx, n, sizeof *cfg->slots);
    if (!cfg->slots) {
        airc_free(ctx, cfg);
        return airc_fail_oom("config values");
    }
    for (size_t i = 0; i < n; i++)
        default_slot(airc_config_option_at(i), &cfg->slots[i]);
    cfg->magic = AIRC_MAGIC_CONFIG;
    cfg->ctx = ctx;
    airc_context_retain(ctx);
    *out = cfg;
    return AIRC_OK;
}

void airc_config_destroy(airc_config *cfg)
{
    if (!live(cfg))
        return;
    airc_context *ctx = cfg->ctx;
    size_t n = airc_config_num_options();
    for (size_t i = 0; i < n; i++)
        airc_free(ctx, cfg->slots[i].owned);
    cfg->magic = AIRC_MAGIC_DEAD;
    airc_free(ctx, cfg->slots);
    airc_free(ctx, cfg);
    airc_context_release(ctx);
}

airc_status airc_config_clone(const airc_config *cfg, airc_config **out)
{
    AIRC_TRY(check_config(cfg, "airc_config_clone"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_config_clone: out is NULL");
    airc_config *c;
    AIRC_TRY(airc_config_create(cfg->ctx, &c));
    size_t n = airc_config_num_options();
    for (size_t i = 0; i < n; i++) {
        cfg_slot s = cfg->slots[i];
        if (s.owned) {
            s.owned = airc_strdup(cfg->ctx, s.owned);
            if (!s.owned) {
                airc_config_destroy(c);
                return airc_fail_oom("config clone");
            }
        }
        replace_slot(cfg->ctx, &c->slots[i], &s);
    }
    *out = c;
    return AIRC_OK;
}

airc_status airc_config_set(airc_config *cfg, const char *key, const char *value)
{
    const airc_config_option *o;
    size_t i;
    AIRC_TRY(lookup(cfg, key, "airc_config_set", &o, &i));
    cfg_slot s;
    if (!value) {
        default_slot(o, &s); /* NULL: back to the default, no longer "set" */
    } else {
        AIRC_TRY(parse_value(cfg->ctx, o, value, &s));
        s.set = true;
    }
    replace_slot(cfg->ctx, &cfg->slots[i], &s);
    return AIRC_OK;
}

airc_status airc_config_get(const airc_config *cfg, const char *key, const char **out)
{
    const airc_config_option *o;
    size_t i;
    AIRC_TRY(lookup(cfg, key, "airc_config_get", &o, &i));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_config_get: out is NULL");
    *out = slot_text(o, &cfg->slots[i]);
    return AIRC_OK;
}

static airc_status want_type(const airc_config_option *o, airc_config_type t, const char *fn)
{
    if (o->type != t)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: config option '%s' is %s, not %s", fn,
                         o->key, type_name(o->type), type_name(t));
    return AIRC_OK;
}

static airc_status no_value(const airc_config_option *o)
{
    return airc_fail(AIRC_E_NOT_FOUND, "config option '%s' has no value (unset)", o->key);
}

airc_status airc_config_set_bool(airc_config *cfg, const char *key, int32_t v)
{
    const airc_config_option *o;
    size_t i;
    AIRC_TRY(lookup(cfg, key, "airc_config_set_bool", &o, &i));
    AIRC_TRY(want_type(o, AIRC_CFG_BOOL, "airc_config_set_bool"));
    cfg_slot s = {.has_value = true, .set = true, .i = v != 0};
    replace_slot(cfg->ctx, &cfg->slots[i], &s);
    return AIRC_OK;
}

airc_status airc_config_get_bool(const airc_config *cfg, const char *key, int32_t *out)
{
    const airc_config_option *o;
    size_t i;
    AIRC_TRY(lookup(cfg, key, "airc_config_get_bool", &o, &i));
    AIRC_TRY(want_type(o, AIRC_CFG_BOOL, "airc_config_get_bool"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_config_get_bool: out is NULL");
    if (!cfg->slots[i].has_value)
        return no_value(o);
    *out = (int32_t)cfg->slots[i].i;
    return AIRC_OK;
}

airc_status airc_config_set_int(airc_config *cfg, const char *key, int64_t v)
{
    const airc_config_option *o;
    size_t i;
    AIRC_TRY(lookup(cfg, key, "airc_config_set_int", &o, &i));
    AIRC_TRY(want_type(o, AIRC_CFG_INT, "airc_config_set_int"));
    if (v < o->min || v > o->max) {
        char text[24];
        snprintf(text, sizeof text, "%lld", (long long)v);
        return range_error(o, text);
    }
    cfg_slot s = {.has_value = true, .set = true};
    set_int_slot(&s, v);
    replace_slot(cfg->ctx, &cfg->slots[i], &s);
    return AIRC_OK;
}

airc_status airc_config_get_int(const airc_config *cfg, const char *key, int64_t *out)
{
    const airc_config_option *o;
    size_t i;
    AIRC_TRY(lookup(cfg, key, "airc_config_get_int", &o, &i));
    AIRC_TRY(want_type(o, AIRC_CFG_INT, "airc_config_get_int"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_config_get_int: out is NULL");
    if (!cfg->slots[i].has_value)
        return no_value(o);
    *out = cfg->slots[i].i;
    return AIRC_OK;
}

int32_t airc_config_is_set(const airc_config *cfg, const char *key)
{
    size_t i;
    if (!live(cfg) || !airc_config_find_option(key, &i))
        return 0;
    return cfg->slots[i].set;
}

size_t airc_config_num_keys(const airc_config *cfg)
{
    return live(cfg) ? airc_config_num_options() : 0;
}

const char *airc_config_key(const airc_config *cfg, size_t i)
{
    const airc_config_option *o = live(cfg) ? airc_config_option_at(i) : NULL;
    return o ? o->key : NULL;
}

/* ---- internal accessors ------------------------------------------------- */

/* The slot for key in cfg, or the default slot when cfg is NULL/invalid. */
static const airc_config_option *find_slot(const airc_config *cfg, const char *key,
                                           cfg_slot *tmp, const cfg_slot **slot)
{
    size_t i;
    const airc_config_option *o = airc_config_find_option(key, &i);
    if (!o)
        return NULL;
    if (live(cfg)) {
        *slot = &cfg->slots[i];
    } else {
        default_slot(o, tmp);
        *slot = tmp;
    }
    return o;
}

const char *airc_config_get_str(const airc_config *cfg, const char *key)
{
    cfg_slot tmp;
    const cfg_slot *s;
    const airc_config_option *o = find_slot(cfg, key, &tmp, &s);
    if (!o)
        return "";
    if (s == &tmp) /* tmp's buffer dies with this call */
        return o->type == AIRC_CFG_INT ? (o->def ? o->def : "") : slot_text_external(o, &tmp);
    return slot_text(o, s);
}

bool airc_config_flag(const airc_config *cfg, const char *key)
{
    cfg_slot tmp;
    const cfg_slot *s;
    const airc_config_option *o = find_slot(cfg, key, &tmp, &s);
    return o && o->type == AIRC_CFG_BOOL && s->has_value && s->i;
}

int64_t airc_config_int(const airc_config *cfg, const char *key)
{
    cfg_slot tmp;
    const cfg_slot *s;
    const airc_config_option *o = find_slot(cfg, key, &tmp, &s);
    return o && o->type == AIRC_CFG_INT && s->has_value ? s->i : 0;
}

bool airc_config_has_value(const airc_config *cfg, const char *key)
{
    cfg_slot tmp;
    const cfg_slot *s;
    return find_slot(cfg, key, &tmp, &s) && s->has_value;
}

uint32_t airc_config_mode(const airc_config *cfg)
{
    const char *m = airc_config_get_str(cfg, "mode");
    if (!strcmp(m, "max-autotune"))
        return AIRC_CFG_MODE_MAX_AUTOTUNE;
    if (!strcmp(m, "eager"))
        return AIRC_CFG_MODE_EAGER;
    return AIRC_CFG_MODE_REDUCE_OVERHEAD;
}

airc_context *airc_config_context(const airc_config *cfg)
{
    return live(cfg) ? cfg->ctx : NULL;
}

size_t airc_config_warn_mode(const airc_config *cfg)
{
    if (!live(cfg))
        return 0;
    uint32_t mode = airc_config_mode(cfg);
    airc_strbuf sb;
    airc_sb_init(&sb, cfg->ctx);
    size_t count = 0, n = airc_config_num_options();
    for (size_t i = 0; i < n; i++) {
        const airc_config_option *o = airc_config_option_at(i);
        if (!cfg->slots[i].set || (o->modes & mode))
            continue;
        airc_sb_printf(&sb, "%s%s=%s", count ? ", " : "", o->key, slot_text(o, &cfg->slots[i]));
        count++;
    }
    if (count)
        airc_log(cfg->ctx, AIRC_LOG_WARN, "config options that take no effect in %s mode: %s",
                 airc_config_get_str(cfg, "mode"), airc_sb_cstr(&sb));
    airc_sb_free(&sb);
    return count;
}

/* ---- describing options ----------------------------------------------------- */

airc_status airc_config_key_type(const airc_config *cfg, const char *key, int32_t *type)
{
    const airc_config_option *o;
    size_t i;
    AIRC_TRY(lookup(cfg, key, "airc_config_key_type", &o, &i));
    if (!type)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_config_key_type: type is NULL");
    *type = (int32_t)o->type;
    return AIRC_OK;
}

const char *airc_config_key_allowed(const airc_config *cfg, const char *key, size_t i)
{
    const airc_config_option *o;
    size_t index;
    if (lookup(cfg, key, "airc_config_key_allowed", &o, &index) != AIRC_OK || !o->allowed)
        return NULL;
    for (size_t k = 0; o->allowed[k]; k++)
        if (k == i)
            return o->allowed[k];
    return NULL;
}

airc_status airc_config_key_range(const airc_config *cfg, const char *key, int64_t *min,
                                  int64_t *max)
{
    const airc_config_option *o;
    size_t i;
    AIRC_TRY(lookup(cfg, key, "airc_config_key_range", &o, &i));
    AIRC_TRY(want_type(o, AIRC_CFG_INT, "airc_config_key_range"));
    if (min)
        *min = o->min;
    if (max)
        *max = o->max;
    return AIRC_OK;
}

_Static_assert(AIRC_CONFIG_BOOL == (int)AIRC_CFG_BOOL && AIRC_CONFIG_INT == (int)AIRC_CFG_INT &&
                   AIRC_CONFIG_STRING == (int)AIRC_CFG_STRING &&
                   AIRC_CONFIG_ENUM == (int)AIRC_CFG_ENUM && AIRC_CONFIG_PATH == (int)AIRC_CFG_PATH,
               "the public option types are the table's");
