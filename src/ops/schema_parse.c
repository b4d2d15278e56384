/* PyTorch's schema language (torch._C.parse_schema, native_functions.yaml):
 *
 *   schema  := name '(' args ')' '->' returns
 *   name    := [IDENT '::'] IDENT ['.' IDENT]
 *   args    := [arg (',' arg)*]   with arg := type IDENT ['=' default] | '*' | '...'
 *   returns := '(' [ret (',' ret)*] ')' | '...' | ret     with ret := type [IDENT]
 *   type    := base [alias] ('?' | '[' [N] ']' [alias])*
 *   base    := IDENT | '__torch__' ('.' IDENT)+ | Dict(K, V) | Future(T) | ...
 *              | '(' [type (',' type)*] ')'
 *   alias   := '(' set ['!'] ['->' set] ')'   with set := '*' | IDENT ('|' IDENT)*
 *
 * Recursive descent straight over the text (default values are read by
 * schema_default.c); everything (the schema, its strings and default values)
 * goes into the caller's arena, so a failure needs no cleanup here. Types
 * airc has no kind for (type variables `t`, Dict, tuples, nested lists,
 * custom classes) are AIRC_TYPE_ANY with their text kept, which is all lint
 * and printing need. Recursion is bounded by AIRC_SCHEMA_MAX_DEPTH, ints are
 * overflow-checked, and lengths are capped, so no input can crash the
 * parser. */
#include "ops/schema_internal.h"

#include <stdio.h>
#include <string.h>

typedef airc_schema_lexer sp;

/* Text built in the arena by doubling (the waste is bounded by 2x). */
typedef struct tbuf {
    char *d;
    size_t len, cap;
    bool oom;
} tbuf;

/* ---- errors ---------------------------------------------------------- */

/* A short, printable excerpt of the text around `at` for messages (the
 * error buffer is 1 KiB, and the text may be binary). */
static void excerpt(const sp *p, size_t at, char *buf, size_t cap)
{
    size_t from = 0, to = p->n;
    bool pre = false, post = false;
    if (p->n > 160) {
        from = at > 70 ? at - 70 : 0;
        to = from + 140 < p->n ? from + 140 : p->n;
        pre = from > 0;
        post = to < p->n;
    }
    size_t o = 0;
    if (pre)
        o += (size_t)snprintf(buf, cap, "...");
    for (size_t k = from; k < to && o + 4 < cap; k++) {
        unsigned char c = (unsigned char)p->s[k];
        buf[o++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    buf[o] = '\0';
    if (post && o + 4 < cap)
        memcpy(buf + o, "...", 4);
}

/* What is at position `at`, for "got ..." */
static void describe(const sp *p, size_t at, char *buf, size_t cap)
{
    if (at >= p->n) {
        snprintf(buf, cap, "end of text");
        return;
    }
    unsigned char c = (unsigned char)p->s[at];
    if (c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
        size_t e = at;
        while (e < p->n && e - at < 32) {
            unsigned char d = (unsigned char)p->s[e];
            if (!(d == '_' || (d >= 'a' && d <= 'z') || (d >= 'A' && d <= 'Z') ||
                  (d >= '0' && d <= '9') || d == '.'))
                break;
            e++;
        }
        snprintf(buf, cap, "'%.*s%s'", (int)(e - at), p->s + at,
                 e < p->n && e - at == 32 ? "..." : "");
    } else if (c >= 0x20 && c < 0x7f) {
        snprintf(buf, cap, "'%c'", c);
    } else {
        snprintf(buf, cap, "byte 0x%02x", c);
    }
}

airc_status airc_sl_fail(const sp *p, size_t at, const char *fmt, ...)
{
    char msg[320], ex[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    excerpt(p, at, ex, sizeof ex);
    return airc_fail(AIRC_E_PARSE, "schema:%zu: %s in '%s'", at + 1, msg, ex);
}

airc_status airc_sl_expected(const sp *p, const char *what)
{
    char got[64];
    describe(p, p->i, got, sizeof got);
    return airc_sl_fail(p, p->i, "expected %s, got %s", what, got);
}

/* ---- lexing ------------------------------------------------------------ */

static bool accept_str(sp *p, const char *tok)
{
    size_t k = strlen(tok);
    if (sl_peek(p) >= 0 && p->n - p->i >= k && memcmp(p->s + p->i, tok, k) == 0) {
        p->i += k;
        return true;
    }
    return false;
}

static airc_status expect(sp *p, char c, const char *what)
{
    return sl_accept(p, c) ? AIRC_OK : airc_sl_expected(p, what);
}

airc_status airc_sl_ident(sp *p, const char *what, const char **start, size_t *len)
{
    if (!sl_is_id_start(sl_peek(p)))
        return airc_sl_expected(p, what);
    size_t b = p->i;
    while (p->i < p->n && sl_is_id_char((unsigned char)p->s[p->i]))
        p->i++;
    if (p->i - b > AIRC_SCHEMA_MAX_IDENT)
        return airc_sl_fail(p, b, "identifier longer than %u characters", AIRC_SCHEMA_MAX_IDENT);
    *start = p->s + b;
    *len = p->i - b;
    return AIRC_OK;
}

/* ---- arena helpers ----------------------------------------------------- */

static void tb_putn(sp *p, tbuf *tb, const char *s, size_t n)
{
    if (tb->oom)
        return;
    if (tb->len + n + 1 > tb->cap) {
        size_t cap = tb->cap ? tb->cap : 32;
        while (cap < tb->len + n + 1)
            cap *= 2;
        char *d = airc_arena_alloc(p->a, cap);
        if (!d) {
            tb->oom = true;
            return;
        }
        if (tb->len)
            memcpy(d, tb->d, tb->len);
        tb->d = d;
        tb->cap = cap;
    }
    memcpy(tb->d + tb->len, s, n);
    tb->len += n;
    tb->d[tb->len] = '\0';
}

static void tb_puts(sp *p, tbuf *tb, const char *s)
{
    tb_putn(p, tb, s, strlen(s));
}

bool airc_sl_arena_grow(sp *p, void **data, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t ncap = *cap ? *cap * 2 : 4;
    while (ncap < need)
        ncap *= 2;
    void *d = airc_arena_calloc(p->a, ncap, elem);
    if (!d)
        return false;
    if (*cap)
        memcpy(d, *data, *cap * elem);
    *data = d;
    *cap = ncap;
    return true;
}

/* ---- types ------------------------------------------------------------- */

static const struct {
    const char *name;
    airc_type_kind kind;
} base_types[] = {
    {"Tensor", AIRC_TYPE_TENSOR},
    {"int", AIRC_TYPE_INT},
    {"SymInt", AIRC_TYPE_SYMINT},
    {"float", AIRC_TYPE_FLOAT},
    {"bool", AIRC_TYPE_BOOL},
    {"str", AIRC_TYPE_STR},
    {"Scalar", AIRC_TYPE_SCALAR},
    {"number", AIRC_TYPE_SCALAR}, /* TorchScript's name for Scalar */
    {"ScalarType", AIRC_TYPE_SCALAR_TYPE},
    {"Device", AIRC_TYPE_DEVICE},
    {"Layout", AIRC_TYPE_LAYOUT},
    {"MemoryFormat", AIRC_TYPE_MEMORY_FORMAT},
    {"Generator", AIRC_TYPE_GENERATOR},
    {"Any", AIRC_TYPE_ANY},
    {"None", AIRC_TYPE_NONE},
    {"NoneType", AIRC_TYPE_NONE},
    {"Dimname", AIRC_TYPE_DIMNAME},
    {"Storage", AIRC_TYPE_STORAGE},
    {"DeviceIndex", AIRC_TYPE_INT},
    /* torch types airc has no values for: checked as Any */
    {"complex", AIRC_TYPE_ANY},
    {"QScheme", AIRC_TYPE_ANY},
    {"Stream", AIRC_TYPE_ANY},
    {"ConstQuantizerPtr", AIRC_TYPE_ANY},
    {"Capsule", AIRC_TYPE_ANY},
    {"AnyType", AIRC_TYPE_ANY},
    {"AnyClassType", AIRC_TYPE_ANY},
    {"AnyEnumType", AIRC_TYPE_ANY},
    {"AnyListType", AIRC_TYPE_ANY},
    {"AnyTupleType", AIRC_TYPE_ANY},
};

/* Generic containers: name and number of type parameters (-1: one or more). */
static const struct {
    const char *name;
    int arity;
} generic_types[] = {
    {"Dict", 2}, {"Future", 1}, {"RRef", 1}, {"Await", 1}, {"Union", -1},
};

/* (set) of an alias annotation: '*' or a|b|c. */
static airc_status parse_alias_set(sp *p, tbuf *tb)
{
    for (;;) {
        if (sl_accept(p, '*')) {
            tb_putn(p, tb, "*", 1);
        } else {
            const char *s;
            size_t len;
            AIRC_TRY(airc_sl_ident(p, "an alias set name or '*'", &s, &len));
            tb_putn(p, tb, s, len);
        }
        if (!sl_accept(p, '|'))
            return AIRC_OK;
        tb_putn(p, tb, "|", 1);
    }
}

/* '(' set ['!'] ['->' set] ')'. The before-set's text goes to *set. */
static airc_status parse_alias(sp *p, tbuf *tb, const char **set, bool *is_write)
{
    AIRC_TRY(expect(p, '(', "'('"));
    tb_putn(p, tb, "(", 1);
    size_t b = tb->len;
    AIRC_TRY(parse_alias_set(p, tb));
    size_t e = tb->len;
    *is_write = sl_accept(p, '!');
    if (*is_write)
        tb_putn(p, tb, "!", 1);
    if (accept_str(p, "->")) {
        tb_putn(p, tb, " -> ", 4);
        AIRC_TRY(parse_alias_set(p, tb));
    }
    AIRC_TRY(expect(p, ')', "')' closing the alias annotation"));
    tb_putn(p, tb, ")", 1);
    if (tb->oom)
        return airc_fail_oom("schema type text");
    *set = airc_arena_strndup(p->a, tb->d + b, e - b);
    return *set ? AIRC_OK : airc_fail_oom("schema alias set");
}

static airc_status parse_type_rec(sp *p, tbuf *tb, airc_type *t, int depth);

/* Comma-separated types up to ')', rendered "A, B". Returns the count. */
static airc_status parse_type_list(sp *p, tbuf *tb, int depth, size_t *count)
{
    size_t k = 0;
    if (!sl_accept(p, ')')) {
        for (;;) {
            if (k)
                tb_putn(p, tb, ", ", 2);
            AIRC_TRY(parse_type_rec(p, tb, NULL, depth + 1));
            k++;
            if (sl_accept(p, ','))
                continue;
            AIRC_TRY(expect(p, ')', "',' or ')' in a type list"));
            break;
        }
    }
    tb_putn(p, tb, ")", 1);
    *count = k;
    return AIRC_OK;
}

/* One type, rendered canonically into tb. t (top level only) receives the
 * flattened description; nested types (inside Dict(...) or tuples) pass
 * NULL and are described by their text alone. */
static airc_status parse_type_rec(sp *p, tbuf *tb, airc_type *t, int depth)
{
    if (depth > AIRC_SCHEMA_MAX_DEPTH)
        return airc_sl_fail(p, p->i, "type nested deeper than %d levels", AIRC_SCHEMA_MAX_DEPTH);
    airc_type_kind kind = AIRC_TYPE_ANY;
    size_t at = p->i;
    if (sl_accept(p, '(')) {
        tb_putn(p, tb, "(", 1);
        size_t k;
        AIRC_TRY(parse_type_list(p, tb, depth, &k));
    } else {
        const char *s;
        size_t len;
        AIRC_TRY(airc_sl_ident(p, "a type", &s, &len));
        at = (size_t)(s - p->s);
        tb_putn(p, tb, s, len);
        bool known = false;
        for (size_t k = 0; k < sizeof base_types / sizeof base_types[0]; k++)
            if (sl_span_is(s, len, base_types[k].name)) {
                kind = base_types[k].kind;
                known = true;
            }
        for (size_t k = 0; !known && k < sizeof generic_types / sizeof generic_types[0]; k++) {
            if (!sl_span_is(s, len, generic_types[k].name))
                continue;
            known = true;
            char what[64];
            snprintf(what, sizeof what, "'(' after %s", generic_types[k].name);
            AIRC_TRY(expect(p, '(', what));
            tb_putn(p, tb, "(", 1);
            size_t got;
            AIRC_TRY(parse_type_list(p, tb, depth, &got));
            int want = generic_types[k].arity;
            if ((want < 0 && got == 0) || (want >= 0 && got != (size_t)want))
                return airc_sl_fail(p, at, "%s takes %s%d type parameter%s, got %zu",
                                    generic_types[k].name, want < 0 ? "at least " : "",
                                    want < 0 ? 1 : want, want == 1 || want < 0 ? "" : "s", got);
        }
        if (!known && sl_span_is(s, len, "__torch__")) {
            /* a custom class: __torch__.torch.classes.ns.Name */
            known = true;
            int parts = 0;
            while (sl_accept(p, '.')) {
                AIRC_TRY(airc_sl_ident(p, "a class name after '.'", &s, &len));
                tb_putn(p, tb, ".", 1);
                tb_putn(p, tb, s, len);
                if (++parts > AIRC_SCHEMA_MAX_DEPTH)
                    return airc_sl_fail(p, at, "class name with more than %d parts",
                                        AIRC_SCHEMA_MAX_DEPTH);
            }
            if (!parts)
                return airc_sl_expected(p, "'.' after __torch__");
        }
        /* torch: any other lower-case name is a type variable ("t", "tVal") */
        if (!known && !(s[0] >= 'a' && s[0] <= 'z'))
            return airc_sl_fail(p, at, "expected a type, got unknown type '%.*s'",
                                (int)(len > 64 ? 64 : len), s);
    }

    const char *alias = NULL;
    bool is_write = false, have_alias = false;
    if (sl_peek(p) == '(') {
        AIRC_TRY(parse_alias(p, tb, &alias, &is_write));
        have_alias = true;
    }
    /* suffixes: the flattened view needs the optional marks around the
     * list suffixes and the last list's size */
    size_t nlists = 0;
    bool opt_before = false, opt_after = false;
    int32_t size = 0;
    for (;;) {
        if (sl_accept(p, '?')) {
            tb_putn(p, tb, "?", 1);
            if (nlists)
                opt_after = true;
            else
                opt_before = true;
        } else if (sl_accept(p, '[')) {
            tb_putn(p, tb, "[", 1);
            size = 0;
            if (sl_is_digit(sl_peek(p))) {
                size_t nb = p->i;
                int64_t v = 0;
                while (p->i < p->n && sl_is_digit((unsigned char)p->s[p->i])) {
                    v = v * 10 + (p->s[p->i] - '0');
                    p->i++;
                    if (v > INT32_MAX)
                        return airc_sl_fail(p, nb, "list size out of range");
                }
                if (v == 0)
                    return airc_sl_fail(p, nb, "list size must be at least 1");
                size = (int32_t)v;
                char num[16];
                snprintf(num, sizeof num, "%d", size);
                tb_puts(p, tb, num);
            }
            AIRC_TRY(expect(p, ']', "']'"));
            tb_putn(p, tb, "]", 1);
            if (++nlists > AIRC_SCHEMA_MAX_DEPTH)
                return airc_sl_fail(p, p->i - 1, "type nested deeper than %d levels",
                                    AIRC_SCHEMA_MAX_DEPTH);
            opt_after = false;
            if (!have_alias && sl_peek(p) == '(') {
                AIRC_TRY(parse_alias(p, tb, &alias, &is_write));
                have_alias = true;
            }
        } else {
            break;
        }
    }
    if (tb->oom)
        return airc_fail_oom("schema type text");
    if (t) {
        t->kind = nlists > 1 ? AIRC_TYPE_ANY : kind; /* elements are lists */
        t->is_list = nlists > 0;
        t->list_size = nlists ? size : 0;
        t->optional = nlists ? opt_after : opt_before;
        t->elem_optional = nlists == 1 && opt_before;
        t->alias = alias;
        t->is_write = is_write;
    }
    return AIRC_OK;
}

static airc_status parse_type(sp *p, airc_type *t)
{
    tbuf tb = {0};
    memset(t, 0, sizeof *t);
    AIRC_TRY(parse_type_rec(p, &tb, t, 0));
    t->text = tb.d;
    return AIRC_OK;
}

/* ---- arguments, returns, schema ---------------------------------------- */

typedef struct arglist {
    airc_arg *v;
    size_t n, cap;
} arglist;

static airc_status push_arg(sp *p, arglist *l, const airc_arg *arg)
{
    if (l->n >= AIRC_SCHEMA_MAX_ARGS)
        return airc_sl_fail(p, p->i, "more than %u arguments or returns", AIRC_SCHEMA_MAX_ARGS);
    if (!airc_sl_arena_grow(p, (void **)&l->v, &l->cap, l->n + 1, sizeof *l->v))
        return airc_fail_oom("schema arguments");
    l->v[l->n++] = *arg;
    return AIRC_OK;
}

static airc_status parse_args(sp *p, airc_schema *sc)
{
    arglist l = {0};
    bool kw = false;
    AIRC_TRY(expect(p, '(', "'(' starting the arguments"));
    if (!sl_accept(p, ')')) {
        for (;;) {
            if (accept_str(p, "...")) {
                sc->vararg = true;
                AIRC_TRY(expect(p, ')', "')' after '...' (it must come last)"));
                break;
            }
            size_t at = p->i;
            if (sl_accept(p, '*')) {
                if (kw)
                    return airc_sl_fail(p, at, "a second '*' in the arguments");
                kw = true;
            } else {
                airc_arg arg;
                memset(&arg, 0, sizeof arg);
                AIRC_TRY(parse_type(p, &arg.type));
                const char *s;
                size_t len;
                AIRC_TRY(airc_sl_ident(p, "an argument name", &s, &len));
                if (!(arg.name = airc_arena_strndup(p->a, s, len)))
                    return airc_fail_oom("schema argument name");
                if (sl_accept(p, '='))
                    AIRC_TRY(airc_schema_parse_default(p, &arg.type, &arg.def));
                arg.kwarg_only = kw;
                AIRC_TRY(push_arg(p, &l, &arg));
            }
            if (sl_accept(p, ','))
                continue;
            AIRC_TRY(expect(p, ')', "',' or ')' after an argument"));
            break;
        }
    }
    sc->args = l.v;
    sc->nargs = (uint32_t)l.n;
    return AIRC_OK;
}

static airc_status parse_return(sp *p, arglist *l)
{
    airc_arg r;
    memset(&r, 0, sizeof r);
    AIRC_TRY(parse_type(p, &r.type));
    r.name = "";
    if (sl_is_id_start(sl_peek(p))) {
        const char *s;
        size_t len;
        AIRC_TRY(airc_sl_ident(p, "a return name", &s, &len));
        if (!(r.name = airc_arena_strndup(p->a, s, len)))
            return airc_fail_oom("schema return name");
    }
    return push_arg(p, l, &r);
}

static airc_status parse_returns(sp *p, airc_schema *sc)
{
    arglist l = {0};
    if (!accept_str(p, "->"))
        return airc_sl_expected(p, "'->'");
    if (sl_accept(p, '(')) {
        if (!sl_accept(p, ')')) {
            for (;;) {
                if (accept_str(p, "...")) {
                    sc->varret = true;
                    AIRC_TRY(expect(p, ')', "')' after '...' (it must come last)"));
                    break;
                }
                AIRC_TRY(parse_return(p, &l));
                if (sl_accept(p, ','))
                    continue;
                AIRC_TRY(expect(p, ')', "',' or ')' after a return"));
                break;
            }
        }
    } else if (accept_str(p, "...")) {
        sc->varret = true;
    } else {
        AIRC_TRY(parse_return(p, &l));
    }
    sc->rets = l.v;
    sc->nrets = (uint32_t)l.n;
    return AIRC_OK;
}

static airc_status parse_name(sp *p, airc_schema *sc)
{
    const char *s, *s2;
    size_t len, len2;
    AIRC_TRY(airc_sl_ident(p, "an operator name", &s, &len));
    const char *ns = "", *name;
    size_t nslen = 0;
    if (accept_str(p, "::")) {
        AIRC_TRY(airc_sl_ident(p, "an operator name after '::'", &s2, &len2));
        ns = s;
        nslen = len;
        s = s2;
        len = len2;
    }
    name = s;
    const char *ov = "";
    size_t ovlen = 0;
    if (sl_accept(p, '.')) {
        AIRC_TRY(airc_sl_ident(p, "an overload name after '.'", &ov, &ovlen));
    }
    sc->ns = airc_arena_strndup(p->a, ns, nslen);
    sc->name = airc_arena_strndup(p->a, name, len);
    sc->overload = airc_arena_strndup(p->a, ov, ovlen);
    if (!sc->ns || !sc->name || !sc->overload)
        return airc_fail_oom("schema name");
    return AIRC_OK;
}

airc_status airc_schema_parse_in(airc_context *ctx, airc_arena *a, const char *text,
                                 airc_schema **out)
{
    if (!text)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "schema: text is NULL");
    sp p = {a, text, strnlen(text, (size_t)AIRC_SCHEMA_MAX_TEXT + 1), 0};
    if (p.n > AIRC_SCHEMA_MAX_TEXT)
        return airc_fail(AIRC_E_PARSE, "schema:1: text longer than %u bytes", AIRC_SCHEMA_MAX_TEXT);
    airc_schema *sc = airc_arena_calloc(a, 1, sizeof *sc);
    if (!sc)
        return airc_fail_oom("schema");
    sc->ctx = ctx;
    sc->arena = a;
    AIRC_TRY(parse_name(&p, sc));
    AIRC_TRY(parse_args(&p, sc));
    AIRC_TRY(parse_returns(&p, sc));
    if (sl_peek(&p) >= 0)
        return airc_sl_expected(&p, "end of schema");
    for (uint32_t k = 0; k < sc->nargs; k++)
        if (sc->args[k].type.is_write)
            sc->is_mutable = true;
    sc->magic = AIRC_MAGIC_SCHEMA;
    *out = sc;
    return AIRC_OK;
}
