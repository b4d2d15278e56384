/* Internal core services shared by every layer: errors, allocation through
 * the context's hook, arenas, growable arrays, string maps, string buffers,
 * logging. Nothing here is exported. */
#ifndef AIRC_CORE_H
#define AIRC_CORE_H

#include "airc/airc.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AIRC_HIDDEN __attribute__((visibility("hidden")))
#define AIRC_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* Magic numbers at the start of every handle struct; destroy clears them. */
#define AIRC_MAGIC_CONTEXT 0x41430001u
#define AIRC_MAGIC_GRAPH 0x41430002u
#define AIRC_MAGIC_NODE 0x41430003u
#define AIRC_MAGIC_OP 0x41430004u
#define AIRC_MAGIC_SCHEMA 0x41430005u
#define AIRC_MAGIC_CONFIG 0x41430006u
#define AIRC_MAGIC_TENSOR 0x41430007u
#define AIRC_MAGIC_DEAD 0xdeadbeefu

/* ---- errors ------------------------------------------------------------ */

/* Records code + formatted message as this thread's last error; returns code.
 * Every failing path inside airc ends in exactly one airc_fail (or passes on
 * a status another function already recorded). */
AIRC_HIDDEN airc_status airc_fail(airc_status code, const char *fmt, ...) AIRC_PRINTF(2, 3);
/* Prepends "prefix: " to the current last-error message; returns the code. */
AIRC_HIDDEN airc_status airc_fail_prefix(const char *fmt, ...) AIRC_PRINTF(1, 2);
/* Shorthand: AIRC_E_OUT_OF_MEMORY naming what could not be allocated. */
AIRC_HIDDEN airc_status airc_fail_oom(const char *what);

#define AIRC_TRY(expr)                                                                             \
    do {                                                                                           \
        airc_status airc_try_st_ = (expr);                                                         \
        if (airc_try_st_ != AIRC_OK)                                                               \
            return airc_try_st_;                                                                   \
    } while (0)

/* ---- context ----------------------------------------------------------- */

typedef struct airc_registry airc_registry; /* src/ops/registry.c */
typedef struct airc_pass_registry airc_pass_registry; /* src/passmgr/registry.c */
typedef struct airc_plugin airc_plugin; /* src/plugin/plugin.c */
typedef struct airc_ge_type_table airc_ge_type_table; /* backends/ge/custom_types.c */

struct airc_context {
    uint32_t magic;
    atomic_int refs; /* caller's reference + one per live graph/config/... */
    airc_allocator alloc;
    pthread_mutex_t log_lock;
    airc_log_fn log_fn;
    void *log_user_data;
    airc_free_fn log_free;
    atomic_int log_level;
    airc_registry *registry;
    _Atomic(airc_pass_registry *) passes; /* named user passes; created on first use */
    airc_plugin *plugins; /* loaded plugins, newest first; guarded by plugin.c's lock */
    _Atomic(airc_ge_type_table *) ge_types; /* airc_context_set_ge_op; created on first use */
};

/* Validates a context handle (MISUSE with a message naming `fn`). */
AIRC_HIDDEN airc_status airc_check_context(const airc_context *ctx, const char *fn);
AIRC_HIDDEN void airc_context_retain(airc_context *ctx);
AIRC_HIDDEN void airc_context_release(airc_context *ctx);
/* Frees the context's named-pass table (src/passmgr/registry.c). */
AIRC_HIDDEN void airc_pass_registry_destroy(airc_context *ctx);
/* Frees the context's custom GE op types (backends/ge/custom_types.c). */
AIRC_HIDDEN void airc_ge_type_table_destroy(airc_context *ctx);
/* Unloads the context's plugins, newest first (src/plugin/plugin.c); called
 * last, once nothing the plugins registered can run any more. */
AIRC_HIDDEN void airc_plugins_close(airc_context *ctx);

AIRC_HIDDEN void airc_log(airc_context *ctx, int32_t level, const char *fmt, ...) AIRC_PRINTF(3, 4);
AIRC_HIDDEN bool airc_log_enabled(const airc_context *ctx, int32_t level);

/* ---- allocation (always through the context's hook) -------------------- */

AIRC_HIDDEN void *airc_malloc(airc_context *ctx, size_t size);
AIRC_HIDDEN void *airc_calloc(airc_context *ctx, size_t n, size_t size); /* overflow-checked */
AIRC_HIDDEN void *airc_realloc(airc_context *ctx, void *p, size_t size);
AIRC_HIDDEN void airc_free(airc_context *ctx, void *p);
AIRC_HIDDEN char *airc_strdup(airc_context *ctx, const char *s);
/* Hint: the caller is about to write all of the fresh block [p, p+size)
 * (at least AIRC_PREFAULT_MIN bytes; smaller ones are left alone), so its
 * pages are mapped in one system call instead of one fault each. Never
 * fails; the memory's contents are unchanged. */
#define AIRC_PREFAULT_MIN ((size_t)256 << 10)
AIRC_HIDDEN void airc_prefault(void *p, size_t size);

/* Grows *data (elements of elem_size) so that it holds at least `need`
 * elements; *cap is updated. Doubling. Returns false on OOM (nothing
 * changed; no error recorded). */
AIRC_HIDDEN bool airc_grow(airc_context *ctx, void **data, size_t *cap, size_t need,
                           size_t elem_size);

/* Strings handed to callers (char ** out-params); freed by airc_string_free
 * even after the context is gone (the allocator is copied in a header). */
AIRC_HIDDEN char *airc_string_new(airc_context *ctx, const char *s, size_t len);
/* Turns a block from airc_malloc holding len bytes of text, and at least
 * airc_string_header_size() + len + 1 bytes in all, into a caller string
 * in place (the text moves up behind the header). Cannot fail. */
AIRC_HIDDEN size_t airc_string_header_size(void);
AIRC_HIDDEN char *airc_string_adopt(airc_context *ctx, char *block, size_t len);

/* ---- arena: bump allocation, freed all at once ------------------------- */

typedef struct airc_arena_chunk airc_arena_chunk;
typedef struct airc_arena {
    airc_context *ctx;
    airc_arena_chunk *head;
    size_t bytes; /* total allocated from the hook */
} airc_arena;

AIRC_HIDDEN void airc_arena_init(airc_arena *a, airc_context *ctx);
AIRC_HIDDEN void airc_arena_free(airc_arena *a);
/* 16-byte aligned; NULL on OOM (no error recorded). size 0 gives a valid
 * unique pointer. */
AIRC_HIDDEN void *airc_arena_alloc(airc_arena *a, size_t size);
AIRC_HIDDEN void *airc_arena_calloc(airc_arena *a, size_t n, size_t size);
AIRC_HIDDEN char *airc_arena_strdup(airc_arena *a, const char *s);
AIRC_HIDDEN char *airc_arena_strndup(airc_arena *a, const char *s, size_t len);
AIRC_HIDDEN void *airc_arena_memdup(airc_arena *a, const void *p, size_t size);

/* ---- string map: key -> pointer, open addressing, xxhash --------------- */

typedef struct airc_strmap_slot {
    const char *key; /* borrowed: must outlive the entry; NULL: empty slot */
    void *value;     /* NULL in a removed entry's slot */
    uint32_t len;    /* keys are shorter than 4 GiB (put refuses longer ones) */
    uint32_t hash;   /* low bits of the key's hash */
} airc_strmap_slot;

typedef struct airc_strmap {
    airc_context *ctx;
    airc_strmap_slot *slots;
    size_t cap;   /* power of two or 0 */
    size_t count; /* live entries */
    size_t used;  /* live + tombstones */
} airc_strmap;

AIRC_HIDDEN void airc_strmap_init(airc_strmap *m, airc_context *ctx);
AIRC_HIDDEN void airc_strmap_free(airc_strmap *m);
AIRC_HIDDEN void *airc_strmap_get(const airc_strmap *m, const char *key);
AIRC_HIDDEN void *airc_strmap_getn(const airc_strmap *m, const char *key, size_t len);
/* The hash the map uses, so that a caller that looks a key up and then
 * inserts it hashes it once. */
AIRC_HIDDEN uint64_t airc_strmap_hash(const char *key, size_t len);
AIRC_HIDDEN void *airc_strmap_get_hashed(const airc_strmap *m, const char *key, size_t len,
                                         uint64_t hash);
/* Makes room so that `extra` further puts cannot fail. false on OOM. */
AIRC_HIDDEN bool airc_strmap_reserve(airc_strmap *m, size_t extra);
/* Inserts or replaces. false on OOM (map unchanged). */
AIRC_HIDDEN bool airc_strmap_put(airc_strmap *m, const char *key, void *value);
/* Inserts a key known to be absent (key[0..len), len <= UINT32_MAX, hash
 * from airc_strmap_hash) into room made by airc_strmap_reserve. Cannot
 * fail. */
AIRC_HIDDEN void airc_strmap_insert_new(airc_strmap *m, const char *key, size_t len,
                                        uint64_t hash, void *value);
/* Hints that the key with this hash is about to be inserted: its slot is
 * fetched while the caller does other work. */
AIRC_HIDDEN void airc_strmap_prefetch(const airc_strmap *m, uint64_t hash);
/* Replaces the value of an existing key (first len bytes of key); false
 * when absent. Never allocates. */
AIRC_HIDDEN bool airc_strmap_put_existing(airc_strmap *m, const char *key, size_t len,
                                          void *value);
/* Removes; returns the old value or NULL. */
AIRC_HIDDEN void *airc_strmap_remove(airc_strmap *m, const char *key);

/* ---- string buffer ----------------------------------------------------- */

typedef struct airc_strbuf {
    airc_context *ctx;
    char *data;
    size_t len;
    size_t cap;
    bool oom; /* sticky: set when an append failed */
} airc_strbuf;

AIRC_HIDDEN void airc_sb_init(airc_strbuf *sb, airc_context *ctx);
AIRC_HIDDEN void airc_sb_free(airc_strbuf *sb);
AIRC_HIDDEN void airc_sb_putn(airc_strbuf *sb, const char *s, size_t n);
AIRC_HIDDEN void airc_sb_puts(airc_strbuf *sb, const char *s);
AIRC_HIDDEN void airc_sb_putc(airc_strbuf *sb, char c);
AIRC_HIDDEN void airc_sb_printf(airc_strbuf *sb, const char *fmt, ...) AIRC_PRINTF(2, 3);
/* NUL-terminated view (never NULL; "" on OOM). */
AIRC_HIDDEN const char *airc_sb_cstr(airc_strbuf *sb);
/* Hands the text over as a caller string (airc_string_free); frees sb.
 * AIRC_E_OUT_OF_MEMORY if any append failed. */
AIRC_HIDDEN airc_status airc_sb_detach(airc_strbuf *sb, char **out);

/* ---- misc -------------------------------------------------------------- */

/* Reads a whole file ("-" = stdin) into memory from the context's hook.
 * AIRC_E_IO / AIRC_E_NOT_FOUND with the path in the message. */
AIRC_HIDDEN airc_status airc_read_file(airc_context *ctx, const char *path, char **data,
                                       size_t *len);
/* Writes len bytes to path (created or truncated). AIRC_E_IO naming the
 * path and the reason. */
AIRC_HIDDEN airc_status airc_write_file(const char *path, const void *data, size_t len);
/* mkdir -p: creates path and its missing parents. AIRC_E_IO naming the
 * folder that could not be made. */
AIRC_HIDDEN airc_status airc_make_dirs(const char *path);
/* Value of a hexadecimal digit, -1 for any other character. */
AIRC_HIDDEN int airc_hex_digit(int c);
/* Python's repr() of a float: shortest round-trip digits, "1e-05", "2.0",
 * "inf", "-inf", "nan". buf must hold 32 bytes. */
AIRC_HIDDEN void airc_format_double(double v, char *buf);

#endif
