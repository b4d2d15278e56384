/* Lexer of the torch.fx text format (str(graph)), shared by the parser and
 * by the printer (which asks it whether a string reads back unquoted). */
#ifndef AIRC_TEXT_LEX_H
#define AIRC_TEXT_LEX_H

#include "core/core.h"

typedef enum airc_tok_kind {
    AIRC_TOK_EOF = 0,
    AIRC_TOK_NEWLINE,
    AIRC_TOK_IDENT,   /* [A-Za-z_][A-Za-z0-9_.]*: keywords, dtypes, strings... */
    AIRC_TOK_NAME,    /* %ident: a node reference or definition */
    AIRC_TOK_INT,     /* -?[0-9]+ within int64 */
    AIRC_TOK_FLOAT,   /* 1.5, 1e-05, -inf (also `inf`/`nan` after classification) */
    AIRC_TOK_STRING,  /* '...' or "..." with Python escapes, decoded into lx->str */
    AIRC_TOK_COMMENT, /* '#' as the first non-blank byte of a line, to end of line */
    AIRC_TOK_PUNCT    /* one of ( ) [ ] { } , : = # */
} airc_tok_kind;

typedef struct airc_token {
    airc_tok_kind kind;
    const char *start; /* source span (for NAME without the '%') */
    size_t len;
    uint32_t line, col; /* 1-based, col in bytes */
    char punct;
    int64_t i;
    double f;
} airc_token;

typedef struct airc_lexer {
    const char *src;    /* whole text (not NUL-terminated) */
    size_t pos, end;    /* cursor and end of the part being lexed */
    uint32_t line;      /* line of src[pos] */
    size_t line_start;  /* offset of the first byte of that line */
    bool at_line_start; /* nothing but blanks seen on this line yet */
    bool skip_newlines; /* inside brackets: newlines are blanks (Python joining) */
    const char *source; /* name for messages */
    airc_strbuf str;    /* decoded text of the last STRING token */
} airc_lexer;

/* Prepares a lexer over src[pos, end) whose first byte is on `line`. */
AIRC_HIDDEN void airc_lex_init(airc_lexer *lx, airc_context *ctx, const char *src, size_t pos,
                               size_t end, uint32_t line, size_t line_start, const char *source);
AIRC_HIDDEN void airc_lex_free(airc_lexer *lx);

/* Lexes the next token. AIRC_E_PARSE "source:line:col: ..." for a malformed
 * token (stray byte, bad escape, unterminated string, int beyond int64),
 * AIRC_E_OUT_OF_MEMORY while decoding a string. */
AIRC_HIDDEN airc_status airc_lex_next(airc_lexer *lx, airc_token *tok);

/* The next byte at the cursor, after blanks (spaces, tabs, '\r'), without
 * consuming anything; -1 at the end. */
AIRC_HIDDEN int airc_lex_peek_byte(const airc_lexer *lx);
/* The byte exactly at the cursor (no blank skipping); -1 at the end. */
AIRC_HIDDEN int airc_lex_raw_byte(const airc_lexer *lx);

/* Reads raw bytes up to (not including) `stop` on the current line, after
 * blanks: the `x` of `target=x]`. Fails when the line or text ends first, or
 * when the span is empty or holds a control byte. */
AIRC_HIDDEN airc_status airc_lex_raw_until(airc_lexer *lx, char stop, airc_token *tok);

/* Records AIRC_E_PARSE "source:line:col: <message>". */
AIRC_HIDDEN airc_status airc_lex_error(const airc_lexer *lx, uint32_t line, uint32_t col,
                                       const char *fmt, ...) AIRC_PRINTF(4, 5);
/* Records AIRC_E_PARSE "source:line:col: expected <what>, got <tok>", the
 * token described shortly ("'foo'", "end of input", "end of line"; long
 * spans cut). */
AIRC_HIDDEN airc_status airc_lex_expected(const airc_lexer *lx, const airc_token *tok,
                                          const char *what);

/* --- the vocabulary, shared with the printer ---------------------------- */

/* Device types written bare (`cpu`, `cuda:0`). */
AIRC_HIDDEN bool airc_text_is_device_type(const char *s, size_t len);
/* `torch.contiguous_format` ... -> memory format; -1 when not one. */
AIRC_HIDDEN int32_t airc_text_memory_format(const char *s, size_t len);
AIRC_HIDDEN const char *airc_text_memory_format_name(int32_t f);
AIRC_HIDDEN int32_t airc_text_layout(const char *s, size_t len);
AIRC_HIDDEN const char *airc_text_layout_name(int32_t l);
/* true when the string, printed without quotes, lexes back as the same
 * string (an identifier that is no keyword, number, dtype, enum or device). */
AIRC_HIDDEN bool airc_text_is_bare_string(const char *s, size_t len);
/* true when s is a Python identifier ([A-Za-z_][A-Za-z0-9_]*). */
AIRC_HIDDEN bool airc_text_is_identifier(const char *s, size_t len);
/* Appends s as a Python repr() string literal (quotes chosen as Python does;
 * control bytes as \xHH, bytes >= 0x80 as they are). */
AIRC_HIDDEN void airc_text_put_quoted(airc_strbuf *sb, const char *s, size_t len);

/* Nesting limit for values (lists in tuples in ...). */
#define AIRC_TEXT_MAX_DEPTH 256

#endif
