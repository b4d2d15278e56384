/* Private to the schema files (schema_parse.c, schema_api.c, schema_check.c):
 * PyTorch's integer encodings of enum-typed defaults. torch prints a
 * ScalarType/MemoryFormat/Layout default as its C++ enum value
 * ("ScalarType? dtype=4"), and airc stores such defaults as typed values
 * (AIRC_VALUE_DTYPE ...), so both directions are needed. */
#ifndef AIRC_OPS_SCHEMA_INTERNAL_H
#define AIRC_OPS_SCHEMA_INTERNAL_H

#include "ops/ops.h"

#include <string.h>

/* c10::ScalarType code -> airc dtype; AIRC_DTYPE_UNDEFINED when airc has no
 * such dtype (complex, quantized). */
AIRC_HIDDEN airc_dtype airc_schema_dtype_from_torch(int64_t code);
/* airc dtype -> c10::ScalarType code; -1 for an invalid dtype. */
AIRC_HIDDEN int64_t airc_schema_dtype_to_torch(airc_dtype d);
/* c10::MemoryFormat code <-> airc_memory_format (-1 when unknown). */
AIRC_HIDDEN int32_t airc_schema_memory_format_from_torch(int64_t code);
AIRC_HIDDEN int64_t airc_schema_memory_format_to_torch(int32_t f);
/* c10::Layout code <-> airc_layout (-1 when unknown). */
AIRC_HIDDEN int32_t airc_schema_layout_from_torch(int64_t code);
AIRC_HIDDEN int64_t airc_schema_layout_to_torch(int32_t l);

/* Appends a default value as torch prints it in a schema: ints, floats as
 * c10 prints doubles ("1.", "1.0000000000000001e-05"), strings double-quoted
 * with c10's escapes, enums as their torch codes, lists "[a, b]". */
AIRC_HIDDEN void airc_schema_write_default(airc_strbuf *sb, const airc_value *v);

/* ---- the lexer shared by schema_parse.c and schema_default.c ---------- */

#define AIRC_SCHEMA_MAX_TEXT (1u << 20)
#define AIRC_SCHEMA_MAX_IDENT 1024u
#define AIRC_SCHEMA_MAX_DEPTH 32
#define AIRC_SCHEMA_MAX_ARGS 1024u
#define AIRC_SCHEMA_MAX_NUMBER 64u

typedef struct airc_schema_lexer {
    airc_arena *a; /* where results go */
    const char *s; /* the text */
    size_t n;      /* its length */
    size_t i;      /* cursor */
} airc_schema_lexer;

static inline bool sl_is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
static inline bool sl_is_id_start(int c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static inline bool sl_is_digit(int c)
{
    return c >= '0' && c <= '9';
}
static inline bool sl_is_id_char(int c)
{
    return sl_is_id_start(c) || sl_is_digit(c);
}

/* Skips blanks; the byte at the cursor, or -1 at the end. */
static inline int sl_peek(airc_schema_lexer *p)
{
    while (p->i < p->n && sl_is_space((unsigned char)p->s[p->i]))
        p->i++;
    return p->i < p->n ? (unsigned char)p->s[p->i] : -1;
}

static inline bool sl_accept(airc_schema_lexer *p, char c)
{
    if (sl_peek(p) == (unsigned char)c) {
        p->i++;
        return true;
    }
    return false;
}

/* The identifier `word` (whole word) at the cursor, consumed if so. */
static inline bool sl_accept_word(airc_schema_lexer *p, const char *word)
{
    size_t k = strlen(word);
    if (sl_peek(p) < 0 || p->n - p->i < k || memcmp(p->s + p->i, word, k) != 0)
        return false;
    if (p->i + k < p->n && sl_is_id_char((unsigned char)p->s[p->i + k]))
        return false;
    p->i += k;
    return true;
}

static inline bool sl_span_is(const char *s, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(s, word, len) == 0;
}

/* AIRC_E_PARSE "schema:COL: <message> in '<excerpt>'" for position at. */
AIRC_HIDDEN airc_status airc_sl_fail(const airc_schema_lexer *p, size_t at, const char *fmt, ...)
    AIRC_PRINTF(3, 4);
/* "expected <what>, got <what is at the cursor>" */
AIRC_HIDDEN airc_status airc_sl_expected(const airc_schema_lexer *p, const char *what);
/* An identifier at the cursor (after blanks): its span in the text. */
AIRC_HIDDEN airc_status airc_sl_ident(airc_schema_lexer *p, const char *what, const char **start,
                                      size_t *len);
/* Makes room for `need` elements in an arena array (doubling, old copy
 * left in the arena). false on OOM. */
AIRC_HIDDEN bool airc_sl_arena_grow(airc_schema_lexer *p, void **data, size_t *cap, size_t need,
                                    size_t elem);

/* Reads a default value for type t at the cursor (schema_default.c): ints
 * widened for float, enum names and torch codes turned into typed values,
 * lists, strings with escapes. Arena values with owner NULL. */
AIRC_HIDDEN airc_status airc_schema_parse_default(airc_schema_lexer *p, const airc_type *t,
                                                  const airc_value **out);

#endif
