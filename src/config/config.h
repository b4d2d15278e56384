/* Internal view of the compiler config (src/config/): the option table and
 * accessors that the compile driver, passes and backends use.
 *
 * The accessors below never fail: an unknown key, a key of another type or
 * a NULL config gives the option's default (or "", false, 0), so a layer can
 * read its switches without error paths. Keys are checked by the unit test
 * of each layer, not at run time.
 *
 * Thread-safety: a config is used by one thread at a time while it is being
 * changed; once built, any number of threads may read it concurrently (reads
 * do not modify it). */
#ifndef AIRC_CONFIG_H
#define AIRC_CONFIG_H

#include "core/core.h"

typedef enum airc_config_type {
    AIRC_CFG_BOOL = 0,
    AIRC_CFG_INT = 1,
    AIRC_CFG_STRING = 2, /* free text, "" allowed */
    AIRC_CFG_ENUM = 3,   /* one of `allowed` */
    AIRC_CFG_PATH = 4    /* non-empty file system path, not checked when set */
} airc_config_type;

/* Modes in which an option takes effect (the compile driver warns about
 * options set for another mode, as TorchAir's _check_config_support does). */
enum {
    AIRC_CFG_MODE_REDUCE_OVERHEAD = 1u << 0,
    AIRC_CFG_MODE_MAX_AUTOTUNE = 1u << 1,
    AIRC_CFG_MODE_EAGER = 1u << 2,
    AIRC_CFG_MODE_ALL = 7u
};

typedef struct airc_config_option {
    const char *key;            /* dotted, TorchAir's spelling */
    airc_config_type type;
    const char *def;            /* default as text; NULL: unset (TorchAir's None) */
    const char *const *allowed; /* ENUM: NULL-terminated list */
    int64_t min, max;           /* INT: inclusive range */
    const char *refused;        /* a value TorchAir allows that airc refuses ... */
    const char *refused_why;    /* ... and why */
    uint32_t modes;             /* AIRC_CFG_MODE_* where it takes effect */
    bool torchair;              /* TorchAir's option (false: airc's own) */
    const char *doc;            /* one line, for docs and `--help` */
} airc_config_option;

/* The option table (src/config/config_table.c), in the stable order of
 * airc_config_key. */
AIRC_HIDDEN size_t airc_config_num_options(void);
AIRC_HIDDEN const airc_config_option *airc_config_option_at(size_t i);
/* Option with this key and its index; NULL when unknown. */
AIRC_HIDDEN const airc_config_option *airc_config_find_option(const char *key, size_t *index);
/* For a key airc does not have but TorchAir does: why airc lacks it. NULL
 * for keys TorchAir does not have either. */
AIRC_HIDDEN const char *airc_config_torchair_only(const char *key);

/* ---- accessors for later layers (never fail; see the top comment) ------ */

/* Value as text ("1"/"0" for bools); "" when unset or unknown. Borrowed
 * until the option changes. */
AIRC_HIDDEN const char *airc_config_get_str(const airc_config *cfg, const char *key);
/* Boolean value; false when unset, unknown or not a bool. */
AIRC_HIDDEN bool airc_config_flag(const airc_config *cfg, const char *key);
/* Integer value; 0 when unset, unknown or not an int. */
AIRC_HIDDEN int64_t airc_config_int(const airc_config *cfg, const char *key);
/* true when the option has a value (its default or a set one). */
AIRC_HIDDEN bool airc_config_has_value(const airc_config *cfg, const char *key);
/* The selected mode as one AIRC_CFG_MODE_* bit. */
AIRC_HIDDEN uint32_t airc_config_mode(const airc_config *cfg);
/* The config's context (borrowed); NULL for an invalid config. */
AIRC_HIDDEN airc_context *airc_config_context(const airc_config *cfg);
/* Logs one warning listing the options that were set explicitly but take
 * no effect in the selected mode; returns how many there were. */
AIRC_HIDDEN size_t airc_config_warn_mode(const airc_config *cfg);

#endif
