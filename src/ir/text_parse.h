/* Internal to the text parser (text_parse.c: statements and sections;
 * text_values.c: values and the type slot). */
#ifndef AIRC_TEXT_PARSE_H
#define AIRC_TEXT_PARSE_H

#include "ir/ir.h"
#include "ir/text_lex.h"

#include <string.h>

typedef struct airc_text_section {
    const char *path; /* NUL-terminated (scratch arena); NULL for the main graph */
    size_t body, end; /* byte range of the body */
    uint32_t line;    /* line of the first body byte */
    uint32_t hdr_line, hdr_col;
    airc_graph *g;
} airc_text_section;

typedef struct airc_text_parser {
    airc_context *ctx;
    const char *text;
    size_t len;
    const char *source;
    airc_lexer lx;
    airc_token tok;
    bool have_tok;
    int bracket;      /* open brackets: newlines inside them are blanks */
    int depth;        /* value nesting */
    bool output_mode; /* `return X`: bare identifiers are node references */
    airc_graph *g;    /* graph being filled */
    bool users_style_seen;

    airc_arena scratch;       /* section paths, kwargs names until node creation */
    const airc_value **stack; /* items of the lists being parsed */
    size_t nstack, stack_cap;
    airc_strbuf name_buf, target_buf;
    airc_tmeta *types; /* the type slot of the current statement */
    size_t ntypes, types_cap;
    bool has_type, type_is_tuple;
    airc_text_section *secs;
    size_t nsecs, secs_cap;
    airc_strmap sec_by_path;
    airc_strmap kw_seen; /* keyword names of the node being parsed */
    /* nodes by name hash, in front of the graph's name table: arguments
     * mostly name recent nodes, and a probe of a table of a million names
     * is a cache miss. Cleared for each section. */
    airc_node *recent[64];
} airc_text_parser;

/* Tokens: one token of lookahead, lexed only when asked for. */
AIRC_HIDDEN airc_status airc_text_peek(airc_text_parser *p, const airc_token **t);
AIRC_HIDDEN airc_status airc_text_take(airc_text_parser *p, airc_token *t);
/* Takes punctuation c; brackets update the newline mode. */
AIRC_HIDDEN airc_status airc_text_expect_punct(airc_text_parser *p, char c, airc_token *out);
AIRC_HIDDEN airc_status airc_text_expect_word(airc_text_parser *p, const char *w, const char *what);
AIRC_HIDDEN void airc_text_set_newline_mode(airc_text_parser *p);
/* Re-raises the last error (status st, from the IR) at t's location, as
 * AIRC_E_PARSE unless it is NOT_FOUND, UNSUPPORTED or OUT_OF_MEMORY. */
AIRC_HIDDEN airc_status airc_text_located(const airc_text_parser *p, const airc_token *t,
                                          airc_status st);
AIRC_HIDDEN airc_status airc_text_oom(const char *what);

static inline bool airc_tok_is_punct(const airc_token *t, char c)
{
    return t->kind == AIRC_TOK_PUNCT && t->punct == c;
}

static inline bool airc_tok_is_word(const airc_token *t, const char *w)
{
    return t->kind == AIRC_TOK_IDENT && strlen(w) == t->len && !memcmp(t->start, w, t->len);
}

/* Values (text_values.c). */
AIRC_HIDDEN airc_node *airc_text_find_node(airc_text_parser *p, const char *s, size_t len);
/* The same, the name's hash (airc_strmap_hash) given. */
AIRC_HIDDEN airc_node *airc_text_find_node_hashed(airc_text_parser *p, const char *s, size_t len,
                                                  uint64_t hash);
/* Remembers a new node for airc_text_find_node; hash is its name's. */
AIRC_HIDDEN void airc_text_remember_node(airc_text_parser *p, airc_node *n, uint64_t hash);
AIRC_HIDDEN airc_status airc_text_push(airc_text_parser *p, const airc_value *v);
AIRC_HIDDEN airc_status airc_text_enter(airc_text_parser *p, const airc_token *t);
AIRC_HIDDEN airc_status airc_text_parse_items(airc_text_parser *p, char close, size_t *base,
                                              size_t *n, bool *comma);
AIRC_HIDDEN airc_status airc_text_parse_value(airc_text_parser *p, const airc_value **out);
/* The type slot between ':' and '[#users=', into p->types. */
AIRC_HIDDEN airc_status airc_text_parse_type_slot(airc_text_parser *p);
AIRC_HIDDEN airc_status airc_text_apply_type(airc_text_parser *p, airc_node *n,
                                             const airc_token *at);

#endif
