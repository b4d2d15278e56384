/* Parser of the torch.fx text format (str(graph), DESIGN.md "Text format").
 *
 * The text is first cut into sections: the main graph, then one section per
 * `# submodule PATH` line (PATH is dotted for nested graphs, parents before
 * children, as text_print.c writes them). Every section's graph is created
 * and attached to its parent before any body is parsed, so a call_module
 * node always finds its submodule, and errors still come in text order.
 *
 * Each body is parsed by recursive descent over a lazily lexed token stream
 * (one token of lookahead, lexed only when asked for, so that the raw
 * `target=...]` span can be read straight from the bytes). Values go to the
 * graph's arena; scratch arrays live in the parser and are freed at the end.
 * On any failure the half-built graph is destroyed: nothing stays allocated. */
#include "ir/text_parse.h"
#include "ops/ops.h"

#include <stdio.h>
#include <string.h>

/* ---- tokens --------------------------------------------------------------- */

void airc_text_set_newline_mode(airc_text_parser *p)
{
    p->lx.skip_newlines = p->bracket > 0;
}

airc_status airc_text_peek(airc_text_parser *p, const airc_token **t)
{
    if (!p->have_tok) {
        AIRC_TRY(airc_lex_next(&p->lx, &p->tok));
        p->have_tok = true;
    }
    *t = &p->tok;
    return AIRC_OK;
}

airc_status airc_text_take(airc_text_parser *p, airc_token *t)
{
    const airc_token *pk;
    AIRC_TRY(airc_text_peek(p, &pk));
    if (t)
        *t = *pk;
    p->have_tok = false;
    return AIRC_OK;
}

airc_status airc_text_expect_punct(airc_text_parser *p, char c, airc_token *out)
{
    airc_token t;
    AIRC_TRY(airc_text_take(p, &t));
    if (!airc_tok_is_punct(&t, c)) {
        char what[4] = {'\'', c, '\'', '\0'};
        return airc_lex_expected(&p->lx, &t, what);
    }
    if (c == '(' || c == '[' || c == '{')
        p->bracket++;
    else if (c == ')' || c == ']' || c == '}')
        p->bracket--;
    airc_text_set_newline_mode(p);
    if (out)
        *out = t;
    return AIRC_OK;
}

airc_status airc_text_expect_word(airc_text_parser *p, const char *w, const char *what)
{
    airc_token t;
    AIRC_TRY(airc_text_take(p, &t));
    if (!airc_tok_is_word(&t, w))
        return airc_lex_expected(&p->lx, &t, what);
    return AIRC_OK;
}

airc_status airc_text_located(const airc_text_parser *p, const airc_token *t, airc_status st)
{
    if (st == AIRC_E_OUT_OF_MEMORY)
        return st;
    /* what the IR refuses here (a name taken, a bad argument) is a fault of
     * the text: report it as one; unknown things keep NOT_FOUND */
    airc_status code = st == AIRC_E_NOT_FOUND || st == AIRC_E_UNSUPPORTED ? st : AIRC_E_PARSE;
    char msg[768];
    snprintf(msg, sizeof msg, "%s", airc_last_error());
    return airc_fail(code, "%s:%u:%u: %s", p->source, (unsigned)t->line, (unsigned)t->col, msg);
}

airc_status airc_text_oom(const char *what)
{
    return airc_fail_oom(what);
}

/* ---- statements ----------------------------------------------------------- */

static airc_status end_of_statement(airc_text_parser *p)
{
    airc_token t;
    AIRC_TRY(airc_text_take(p, &t));
    if (t.kind == AIRC_TOK_NEWLINE || t.kind == AIRC_TOK_EOF)
        return AIRC_OK;
    return airc_lex_expected(&p->lx, &t, "end of line");
}

static airc_status cstr(airc_text_parser *p, airc_strbuf *sb, const char *s, size_t len,
                        const char **out)
{
    sb->len = 0;
    airc_sb_putn(sb, s, len);
    if (sb->oom)
        return airc_text_oom("name");
    *out = airc_sb_cstr(sb);
    return AIRC_OK;
}

/* `(args = (...), kwargs = {...})` of call_function / call_module. */
static airc_status parse_call(airc_text_parser *p, size_t *abase, size_t *nargs,
                              const char ***kw_names, size_t *kbase, size_t *nkw)
{
    AIRC_TRY(airc_text_expect_punct(p, '(', NULL));
    AIRC_TRY(airc_text_expect_word(p, "args", "'args'"));
    AIRC_TRY(airc_text_expect_punct(p, '=', NULL));
    airc_token open;
    AIRC_TRY(airc_text_expect_punct(p, '(', &open));
    AIRC_TRY(airc_text_enter(p, &open));
    bool comma;
    AIRC_TRY(airc_text_parse_items(p, ')', abase, nargs, &comma));
    p->depth--;
    AIRC_TRY(airc_text_expect_punct(p, ',', NULL));
    AIRC_TRY(airc_text_expect_word(p, "kwargs", "'kwargs'"));
    AIRC_TRY(airc_text_expect_punct(p, '=', NULL));
    AIRC_TRY(airc_text_expect_punct(p, '{', NULL));
    airc_strmap_free(&p->kw_seen);
    airc_strmap_init(&p->kw_seen, p->ctx);
    *kbase = p->nstack;
    *nkw = 0;
    size_t names_cap = 0;
    const char **names = NULL;
    for (;;) {
        airc_token k;
        AIRC_TRY(airc_text_take(p, &k));
        if (airc_tok_is_punct(&k, '}') && *nkw == 0)
            break;
        const char *key;
        size_t klen;
        if (k.kind == AIRC_TOK_IDENT) {
            key = k.start;
            klen = k.len;
        } else if (k.kind == AIRC_TOK_STRING) {
            key = p->lx.str.data ? p->lx.str.data : "";
            klen = p->lx.str.len;
        } else {
            return airc_lex_expected(&p->lx, &k, "a keyword name");
        }
        char *name = airc_arena_strndup(&p->scratch, key, klen);
        if (!name || !airc_grow(p->ctx, (void **)&names, &names_cap, *nkw + 1, sizeof *names))
            return airc_text_oom("keyword arguments");
        *kw_names = names; /* the caller frees it, whatever happens next */
        /* duplicates: a scan for the usual few, a map past that so that a
         * hostile dict stays linear */
        bool dup = false;
        if (*nkw < 8) {
            for (size_t i = 0; i < *nkw; i++)
                dup = dup || !strcmp(names[i], name);
        } else {
            for (size_t i = p->kw_seen.count; i < *nkw; i++) /* first time: the first 8 */
                if (!airc_strmap_put(&p->kw_seen, names[i], (void *)names[i]))
                    return airc_text_oom("keyword table");
            dup = airc_strmap_get(&p->kw_seen, name) != NULL;
            if (!dup && !airc_strmap_put(&p->kw_seen, name, name))
                return airc_text_oom("keyword table");
        }
        if (dup)
            return airc_lex_error(&p->lx, k.line, k.col, "duplicate keyword '%.64s'", name);
        names[(*nkw)++] = name;
        AIRC_TRY(airc_text_expect_punct(p, ':', NULL));
        const airc_value *v;
        AIRC_TRY(airc_text_parse_value(p, &v));
        AIRC_TRY(airc_text_push(p, v));
        AIRC_TRY(airc_text_take(p, &k));
        if (airc_tok_is_punct(&k, '}'))
            break;
        if (!airc_tok_is_punct(&k, ','))
            return airc_lex_expected(&p->lx, &k, "',' or '}'");
    }
    p->bracket--;
    airc_text_set_newline_mode(p);
    return airc_text_expect_punct(p, ')', NULL);
}

static airc_status parse_users(airc_text_parser *p)
{
    AIRC_TRY(airc_text_expect_punct(p, '[', NULL));
    airc_token t;
    AIRC_TRY(airc_text_take(p, &t));
    bool num_users = false;
    if (airc_tok_is_punct(&t, '#')) {
        AIRC_TRY(airc_text_expect_word(p, "users", "'users'"));
    } else if (airc_tok_is_word(&t, "num_users")) {
        num_users = true;
    } else {
        return airc_lex_expected(&p->lx, &t, "'#users=' or 'num_users='");
    }
    if (!p->users_style_seen) {
        p->g->num_users_style = num_users;
        p->users_style_seen = true;
    }
    AIRC_TRY(airc_text_expect_punct(p, '=', NULL));
    AIRC_TRY(airc_text_take(p, &t));
    if (t.kind != AIRC_TOK_INT) /* the count itself is recomputed, not checked */
        return airc_lex_expected(&p->lx, &t, "a user count");
    return airc_text_expect_punct(p, ']', NULL);
}

static const char *const kind_words[] = {"placeholder", "get_attr", "call_function", "call_module"};

static airc_status duplicate_name(airc_text_parser *p, const airc_token *name, uint64_t hash)
{
    if (!airc_text_find_node_hashed(p, name->start, name->len, hash))
        return AIRC_OK;
    return airc_lex_error(&p->lx, name->line, name->col, "duplicate node name '%%%.*s%s'",
                          (int)(name->len > 64 ? 64 : name->len), name->start,
                          name->len > 64 ? "..." : "");
}

/* The statement after its node name; *checked once the name was checked. */
static airc_status parse_node_rest(airc_text_parser *p, const airc_token *name_tok,
                                   uint64_t name_hash, bool *checked)
{
    const airc_token name = *name_tok;
    AIRC_TRY(airc_text_expect_punct(p, ':', NULL));
    AIRC_TRY(airc_text_parse_type_slot(p));
    AIRC_TRY(parse_users(p));
    AIRC_TRY(airc_text_expect_punct(p, '=', NULL));
    airc_token kw;
    AIRC_TRY(airc_text_take(p, &kw));
    int kind = -1;
    for (int k = 0; k < 4; k++)
        if (airc_tok_is_word(&kw, kind_words[k]))
            kind = k;
    if (kind < 0 && airc_tok_is_word(&kw, "call_method"))
        return airc_fail(AIRC_E_UNSUPPORTED, "%s:%u:%u: call_method nodes are not supported",
                         p->source, (unsigned)kw.line, (unsigned)kw.col);
    if (kind < 0)
        return airc_lex_expected(&p->lx, &kw,
                                 "placeholder, get_attr, call_function or call_module");
    AIRC_TRY(airc_text_expect_punct(p, '[', NULL));
    AIRC_TRY(airc_text_expect_word(p, "target", "'target='"));
    AIRC_TRY(airc_text_expect_punct(p, '=', NULL));
    airc_token target;
    AIRC_TRY(airc_lex_raw_until(&p->lx, ']', &target));
    AIRC_TRY(airc_text_expect_punct(p, ']', NULL));

    const airc_op *op = NULL;
    if (kind == AIRC_NODE_CALL_FUNCTION) {
        /* a built-in op is materialised on first use, which can run out of
         * memory: tell that apart from an unknown name */
        airc_status found = airc_registry_find(p->ctx, target.start, target.len, &op);
        if (found == AIRC_E_OUT_OF_MEMORY)
            return found;
        if (found != AIRC_OK) {
            return airc_fail(AIRC_E_NOT_FOUND, "%s:%u:%u: unknown op '%.*s%s'", p->source,
                             (unsigned)target.line, (unsigned)target.col,
                             (int)(target.len > 128 ? 128 : target.len), target.start,
                             target.len > 128 ? "..." : "");
        }
    }
    size_t abase = p->nstack, nargs = 0, kbase = p->nstack, nkw = 0;
    const char **kw_names = NULL;
    airc_status st = AIRC_OK;
    if (kind == AIRC_NODE_PLACEHOLDER) {
        const airc_token *pk;
        AIRC_TRY(airc_text_peek(p, &pk));
        if (airc_tok_is_punct(pk, '(')) {
            AIRC_TRY(airc_text_expect_punct(p, '(', NULL));
            AIRC_TRY(airc_text_expect_word(p, "default", "'default='"));
            AIRC_TRY(airc_text_expect_punct(p, '=', NULL));
            const airc_value *v;
            AIRC_TRY(airc_text_parse_value(p, &v));
            AIRC_TRY(airc_text_push(p, v));
            AIRC_TRY(airc_text_expect_punct(p, ')', NULL));
            nargs = 1;
        }
    } else if (kind != AIRC_NODE_GET_ATTR) {
        st = parse_call(p, &abase, &nargs, &kw_names, &kbase, &nkw);
    }
    const char *cname = NULL, *ctarget = NULL;
    if (st == AIRC_OK)
        st = end_of_statement(p);
    if (st == AIRC_OK)
        st = cstr(p, &p->name_buf, name.start, name.len, &cname);
    if (st == AIRC_OK)
        st = cstr(p, &p->target_buf, target.start, target.len, &ctarget);
    airc_node *n = NULL;
    if (st == AIRC_OK) {
        *checked = true;
        st = duplicate_name(p, &name, name_hash);
    }
    if (st == AIRC_OK) {
        /* no value pushed yet (a placeholder first): stack is NULL, and
         * NULL + 0 is undefined behaviour */
        const airc_value **args = p->stack ? p->stack + abase : NULL;
        const airc_value **kw_values = p->stack ? p->stack + kbase : NULL;
        st = airc_node_create(p->g, (airc_node_kind)kind, op ? NULL : ctarget, op, args, nargs,
                              kw_names, kw_values, nkw, cname, AIRC_CREATE_EXACT_NAME, &n);
        if (st != AIRC_OK)
            st = airc_text_located(p, &name, st);
    }
    airc_free(p->ctx, kw_names);
    p->nstack = abase;
    if (st == AIRC_OK)
        airc_text_remember_node(p, n, name_hash);
    if (st == AIRC_OK)
        st = airc_text_apply_type(p, n, &name);
    return st;
}

/* A duplicate name is checked once the statement is parsed, so that the
 * name table's slot, a cache miss in a big graph, is fetched meanwhile. An
 * error on the way is reported as the duplicate name, as if checked
 * first. */
static airc_status parse_node(airc_text_parser *p)
{
    airc_token name;
    AIRC_TRY(airc_text_take(p, &name));
    uint64_t name_hash = airc_strmap_hash(name.start, name.len);
    airc_strmap_prefetch(&p->g->ns.used, name_hash);
    bool checked = false;
    airc_status st = parse_node_rest(p, &name, name_hash, &checked);
    if (st != AIRC_OK && !checked) {
        airc_status dup = duplicate_name(p, &name, name_hash);
        if (dup != AIRC_OK)
            return dup;
    }
    return st;
}

static airc_status parse_return(airc_text_parser *p)
{
    airc_token kw;
    AIRC_TRY(airc_text_take(p, &kw));
    p->output_mode = true;
    const airc_value *v;
    airc_status st = airc_text_parse_value(p, &v);
    p->output_mode = false;
    AIRC_TRY(st);
    AIRC_TRY(end_of_statement(p));
    airc_node *n;
    st =
        airc_node_create(p->g, AIRC_NODE_OUTPUT, "output", NULL, &v, 1, NULL, NULL, 0, NULL, 0, &n);
    return st == AIRC_OK ? AIRC_OK : airc_text_located(p, &kw, st);
}

/* `graph():` (also `graph(x, y):`, whose names are the placeholders'). */
static airc_status parse_header(airc_text_parser *p)
{
    airc_token t;
    for (;;) {
        AIRC_TRY(airc_text_take(p, &t));
        if (t.kind != AIRC_TOK_NEWLINE && t.kind != AIRC_TOK_COMMENT)
            break;
    }
    if (!airc_tok_is_word(&t, "graph"))
        return airc_lex_expected(&p->lx, &t, "'graph():'");
    AIRC_TRY(airc_text_expect_punct(p, '(', NULL));
    for (;;) {
        AIRC_TRY(airc_text_take(p, &t));
        if (airc_tok_is_punct(&t, ')'))
            break;
        if (t.kind != AIRC_TOK_IDENT && t.kind != AIRC_TOK_NAME && !airc_tok_is_punct(&t, ','))
            return airc_lex_expected(&p->lx, &t, "')'");
    }
    p->bracket--;
    airc_text_set_newline_mode(p);
    AIRC_TRY(airc_text_expect_punct(p, ':', NULL));
    return end_of_statement(p);
}

static airc_status parse_body(airc_text_parser *p, const airc_text_section *s)
{
    airc_lex_free(&p->lx);
    airc_lex_init(&p->lx, p->ctx, p->text, s->body, s->end, s->line, s->body, p->source);
    p->have_tok = false;
    p->bracket = 0;
    p->depth = 0;
    p->g = s->g;
    p->users_style_seen = false;
    memset(p->recent, 0, sizeof p->recent);
    /* at most one node per line: size the name table once, no rehashing */
    size_t lines = 0;
    for (const char *c = p->text + s->body, *e = p->text + s->end;
         (c = memchr(c, '\n', (size_t)(e - c))) != NULL; c++)
        lines++;
    if (!airc_graph_reserve_names(s->g, lines + 1))
        return airc_text_oom("node names");
    AIRC_TRY(parse_header(p));
    for (;;) {
        const airc_token *t;
        AIRC_TRY(airc_text_peek(p, &t));
        if (t->kind == AIRC_TOK_EOF)
            return AIRC_OK;
        if (t->kind == AIRC_TOK_NEWLINE || t->kind == AIRC_TOK_COMMENT) {
            AIRC_TRY(airc_text_take(p, NULL));
        } else if (t->kind == AIRC_TOK_NAME) {
            AIRC_TRY(parse_node(p));
        } else if (airc_tok_is_word(t, "return")) {
            AIRC_TRY(parse_return(p));
        } else {
            return airc_lex_expected(&p->lx, t, "'%name : ...' or 'return'");
        }
    }
}

/* ---- sections ------------------------------------------------------------- */

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static bool path_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.';
}

/* Recognises `# submodule PATH` on the line [ls, le). Returns 1 (header,
 * path span out), 0 (not a header), or a parse error. */
static airc_status header_line(airc_text_parser *p, size_t ls, size_t le, uint32_t line,
                               bool *is_header, size_t *ps, size_t *pe)
{
    const char *t = p->text;
    size_t i = ls;
    *is_header = false;
    while (i < le && blank(t[i]))
        i++;
    if (i >= le || t[i] != '#')
        return AIRC_OK;
    i++;
    while (i < le && blank(t[i]))
        i++;
    static const char kw[] = "submodule";
    size_t kwlen = sizeof kw - 1;
    if (le - i < kwlen || memcmp(t + i, kw, kwlen) || (i + kwlen < le && !blank(t[i + kwlen])))
        return AIRC_OK;
    i += kwlen;
    while (i < le && blank(t[i]))
        i++;
    size_t s = i;
    while (i < le && path_char(t[i]))
        i++;
    size_t e = i;
    while (i < le && blank(t[i]))
        i++;
    /* bad: no name, trailing bytes, or empty path parts (".a", "a..b", "a.") */
    size_t bad = e == s || i != le ? (e == s ? s : i) : SIZE_MAX;
    if (bad == SIZE_MAX && (t[s] == '.' || t[e - 1] == '.'))
        bad = s;
    for (size_t k = s; bad == SIZE_MAX && k + 1 < e; k++)
        if (t[k] == '.' && t[k + 1] == '.')
            bad = s;
    if (bad != SIZE_MAX) {
        size_t col = bad - ls + 1;
        return airc_lex_error(&p->lx, line, (uint32_t)(col > UINT32_MAX ? UINT32_MAX : col),
                              "expected a submodule name (a.b.c) after '# submodule'");
    }
    *is_header = true;
    *ps = s;
    *pe = e;
    return AIRC_OK;
}

static airc_status add_section(airc_text_parser *p, airc_text_section s)
{
    if (!airc_grow(p->ctx, (void **)&p->secs, &p->secs_cap, p->nsecs + 1, sizeof *p->secs))
        return airc_text_oom("submodule list");
    p->secs[p->nsecs++] = s;
    return AIRC_OK;
}

static airc_status attach(airc_text_parser *p, airc_text_section *s)
{
    /* the parent is the longest earlier path that prefixes this one at a dot */
    airc_graph *parent = p->secs[0].g;
    const char *name = s->path;
    for (size_t k = strlen(s->path); k-- > 0;) {
        if (s->path[k] != '.')
            continue;
        char *prefix = airc_arena_strndup(&p->scratch, s->path, k);
        if (!prefix)
            return airc_text_oom("submodule path");
        airc_text_section *ps = airc_strmap_get(&p->sec_by_path, prefix);
        if (ps) {
            parent = ps->g;
            name = s->path + k + 1;
            break;
        }
    }
    airc_status st = airc_graph_create(p->ctx, &s->g);
    if (st != AIRC_OK)
        return st;
    st = airc_graph_add_submodule(parent, name, s->g);
    if (st != AIRC_OK) {
        airc_graph_destroy(s->g);
        s->g = NULL;
        airc_token at = {.line = s->hdr_line, .col = s->hdr_col};
        return airc_text_located(p, &at, st);
    }
    return AIRC_OK;
}

static airc_status split_sections(airc_text_parser *p)
{
    airc_text_section main_sec = {.path = NULL, .body = 0, .end = p->len, .line = 1};
    AIRC_TRY(add_section(p, main_sec));
    size_t ls = 0;
    uint32_t line = 1;
    while (ls < p->len) {
        const char *nl = memchr(p->text + ls, '\n', p->len - ls);
        size_t le = nl ? (size_t)(nl - p->text) : p->len;
        bool is_header;
        size_t ps, pe;
        AIRC_TRY(header_line(p, ls, le, line, &is_header, &ps, &pe));
        if (is_header) {
            p->secs[p->nsecs - 1].end = ls;
            char *path = airc_arena_strndup(&p->scratch, p->text + ps, pe - ps);
            if (!path)
                return airc_text_oom("submodule path");
            if (airc_strmap_get(&p->sec_by_path, path))
                return airc_lex_error(&p->lx, line, (uint32_t)(ps - ls + 1),
                                      "duplicate submodule '%.64s'", path);
            airc_text_section s = {.path = path,
                                   .body = nl ? le + 1 : p->len,
                                   .end = p->len,
                                   .line = line + 1,
                                   .hdr_line = line,
                                   .hdr_col = (uint32_t)(ps - ls + 1)};
            AIRC_TRY(add_section(p, s));
            if (!airc_strmap_put(&p->sec_by_path, path, &p->secs[p->nsecs - 1]))
                return airc_text_oom("submodule table");
        }
        if (!nl)
            break;
        ls = le + 1;
        line++;
    }
    /* sec_by_path points into secs, which may have moved while growing */
    for (size_t i = 1; i < p->nsecs; i++)
        if (!airc_strmap_put(&p->sec_by_path, p->secs[i].path, &p->secs[i]))
            return airc_text_oom("submodule table");
    return AIRC_OK;
}

static airc_status parse_all(airc_text_parser *p, airc_graph **out)
{
    AIRC_TRY(split_sections(p));
    AIRC_TRY(airc_graph_create(p->ctx, &p->secs[0].g));
    for (size_t i = 1; i < p->nsecs; i++)
        AIRC_TRY(attach(p, &p->secs[i]));
    for (size_t i = 0; i < p->nsecs; i++)
        AIRC_TRY(parse_body(p, &p->secs[i]));
    *out = p->secs[0].g;
    return AIRC_OK;
}

airc_status airc_graph_parse(airc_context *ctx, const char *text, size_t len, const char *source,
                             airc_graph **out)
{
    AIRC_TRY(airc_check_context(ctx, "airc_graph_parse"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_graph_parse: out is NULL");
    if (!text && len)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_graph_parse: text is NULL");
    airc_text_parser p;
    memset(&p, 0, sizeof p);
    p.ctx = ctx;
    p.text = text ? text : "";
    p.len = len;
    p.source = source ? source : "<text>";
    airc_arena_init(&p.scratch, ctx);
    airc_sb_init(&p.name_buf, ctx);
    airc_sb_init(&p.target_buf, ctx);
    airc_strmap_init(&p.sec_by_path, ctx);
    airc_strmap_init(&p.kw_seen, ctx);
    airc_lex_init(&p.lx, ctx, p.text, 0, len, 1, 0, p.source);
    airc_graph *g = NULL;
    airc_status st = parse_all(&p, &g);
    if (st != AIRC_OK && p.nsecs) {
        airc_graph_destroy(p.secs[0].g); /* takes the attached submodules along */
    }
    airc_lex_free(&p.lx);
    airc_strmap_free(&p.sec_by_path);
    airc_strmap_free(&p.kw_seen);
    airc_sb_free(&p.name_buf);
    airc_sb_free(&p.target_buf);
    airc_free(ctx, p.stack);
    airc_free(ctx, p.types);
    airc_free(ctx, p.secs);
    airc_arena_free(&p.scratch);
    if (st == AIRC_OK)
        *out = g;
    return st;
}

airc_status airc_graph_parse_file(airc_context *ctx, const char *path, airc_graph **out)
{
    AIRC_TRY(airc_check_context(ctx, "airc_graph_parse_file"));
    if (!path || !out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_graph_parse_file: NULL argument");
    char *data;
    size_t len;
    AIRC_TRY(airc_read_file(ctx, path, &data, &len));
    airc_status st = airc_graph_parse(ctx, data, len, strcmp(path, "-") ? path : "<stdin>", out);
    airc_free(ctx, data);
    return st;
}
