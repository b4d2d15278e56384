/* The public schema API: standalone parsing, printing in PyTorch's own
 * str(schema) form, and NULL/out-of-range safe accessors. */
#include "ops/schema_internal.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static bool valid(const airc_schema *s)
{
    return s && s->magic == AIRC_MAGIC_SCHEMA;
}

airc_status airc_schema_parse(airc_context *ctx, const char *text, airc_schema **out)
{
    AIRC_TRY(airc_check_context(ctx, "airc_schema_parse"));
    if (!text || !out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_schema_parse: %s is NULL",
                         !text ? "text" : "out");
    /* the arena struct itself comes from the hook: the schema lives inside
     * it and frees it last */
    airc_arena *a = airc_malloc(ctx, sizeof *a);
    if (!a)
        return airc_fail_oom("schema arena");
    airc_arena_init(a, ctx);
    airc_schema *s;
    airc_status st = airc_schema_parse_in(ctx, a, text, &s);
    if (st != AIRC_OK) {
        airc_arena_free(a);
        airc_free(ctx, a);
        return st;
    }
    s->owns_arena = true;
    airc_context_retain(ctx);
    *out = s;
    return AIRC_OK;
}

void airc_schema_destroy(airc_schema *s)
{
    /* schemas owned by an op (registry) die with their context */
    if (!valid(s) || !s->owns_arena)
        return;
    airc_context *ctx = s->ctx;
    airc_arena *a = s->arena;
    s->magic = AIRC_MAGIC_DEAD;
    airc_arena_free(a);
    airc_free(ctx, a);
    airc_context_release(ctx);
}

/* ---- printing ---------------------------------------------------------- */

/* c10's printQuotedString */
static void write_quoted(airc_strbuf *sb, const char *s, size_t len)
{
    airc_sb_putc(sb, '"');
    for (size_t k = 0; k < len; k++) {
        unsigned char c = (unsigned char)s[k];
        const char *esc = NULL;
        switch (c) {
        case '\\': esc = "\\\\"; break;
        case '\'': esc = "\\'"; break;
        case '"': esc = "\\\""; break;
        case '\a': esc = "\\a"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        case '\v': esc = "\\v"; break;
        default: break;
        }
        if (esc)
            airc_sb_puts(sb, esc);
        else if (c >= 0x20 && c < 0x7f)
            airc_sb_putc(sb, (char)c);
        else
            airc_sb_printf(sb, "\\%03o", c);
    }
    airc_sb_putc(sb, '"');
}

/* c10's IValue printing of a double: integral values below 1e10 as "1.",
 * others with max_digits10 (%.17g). Always '.' whatever the locale. */
static void write_double(airc_strbuf *sb, double d)
{
    int c = fpclassify(d);
    if (isnan(d)) {
        airc_sb_puts(sb, "nan");
        return;
    }
    if ((c == FP_NORMAL || c == FP_ZERO) && fabs(d) < 1e10) {
        int64_t i = (int64_t)d;
        if ((double)i == d) {
            if (i == 0 && signbit(d))
                airc_sb_puts(sb, "-0.");
            else
                airc_sb_printf(sb, "%lld.", (long long)i);
            return;
        }
    }
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", d);
    const char *dp = localeconv()->decimal_point;
    if (dp && dp[0] && strcmp(dp, ".") != 0) {
        char *hit = strstr(buf, dp);
        if (hit) {
            size_t dl = strlen(dp);
            *hit = '.';
            memmove(hit + 1, hit + dl, strlen(hit + dl) + 1);
        }
    }
    /* %.17g writes integral values in [1e10, 1e17) without a '.' or an
     * exponent, which would read back as an int (torch has that flaw) */
    if (!strpbrk(buf, ".eEn"))
        strcat(buf, ".");
    airc_sb_puts(sb, buf);
}

/* A word that reads back as a bare name (not a keyword or number). */
static bool bare_word(const char *s)
{
    static const char *const reserved[] = {"None", "True", "False", "inf", "nan"};
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return false;
    for (const char *q = s; *q; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || *q == '_' ||
              (*q >= '0' && *q <= '9')))
            return false;
    for (size_t k = 0; k < sizeof reserved / sizeof reserved[0]; k++)
        if (strcmp(s, reserved[k]) == 0)
            return false;
    return true;
}

void airc_schema_write_default(airc_strbuf *sb, const airc_value *v)
{
    if (!v) {
        airc_sb_puts(sb, "None");
        return;
    }
    switch (v->kind) {
    case AIRC_VALUE_NONE: airc_sb_puts(sb, "None"); break;
    case AIRC_VALUE_BOOL: airc_sb_puts(sb, v->u.b ? "True" : "False"); break;
    case AIRC_VALUE_INT: airc_sb_printf(sb, "%lld", (long long)v->u.i); break;
    case AIRC_VALUE_FLOAT: write_double(sb, v->u.f); break;
    case AIRC_VALUE_STRING: write_quoted(sb, v->u.s, v->len); break;
    case AIRC_VALUE_DTYPE:
        airc_sb_printf(sb, "%lld", (long long)airc_schema_dtype_to_torch(v->u.dtype));
        break;
    case AIRC_VALUE_MEMORY_FORMAT:
        airc_sb_printf(sb, "%lld", (long long)airc_schema_memory_format_to_torch(v->u.e));
        break;
    case AIRC_VALUE_LAYOUT:
        airc_sb_printf(sb, "%lld", (long long)airc_schema_layout_to_torch(v->u.e));
        break;
    case AIRC_VALUE_DEVICE: {
        /* torch prints a device default bare ("Device d=cpu"); one with an
         * index is quoted so that it reads back */
        const char *type = v->u.dev.type ? v->u.dev.type : "";
        if (v->u.dev.index < 0 && bare_word(type)) {
            airc_sb_puts(sb, type);
        } else {
            char buf[64];
            if (v->u.dev.index >= 0)
                snprintf(buf, sizeof buf, "%.40s:%d", type, (int)v->u.dev.index);
            else
                snprintf(buf, sizeof buf, "%.40s", type);
            write_quoted(sb, buf, strlen(buf));
        }
        break;
    }
    case AIRC_VALUE_LIST:
    case AIRC_VALUE_TUPLE:
        airc_sb_putc(sb, v->kind == AIRC_VALUE_LIST ? '[' : '(');
        for (uint32_t k = 0; k < v->len; k++) {
            if (k)
                airc_sb_puts(sb, ", ");
            airc_schema_write_default(sb, v->u.items[k]);
        }
        if (v->kind == AIRC_VALUE_TUPLE && v->len == 1)
            airc_sb_putc(sb, ',');
        airc_sb_putc(sb, v->kind == AIRC_VALUE_LIST ? ']' : ')');
        break;
    default:
        /* node refs cannot be defaults; print something that fails to parse */
        airc_sb_puts(sb, "<?>");
        break;
    }
}

static void write_arg(airc_strbuf *sb, const airc_arg *a)
{
    airc_sb_puts(sb, a->type.text ? a->type.text : "Any");
    if (a->name && a->name[0]) {
        airc_sb_putc(sb, ' ');
        airc_sb_puts(sb, a->name);
    }
    if (a->def) {
        airc_sb_putc(sb, '=');
        airc_schema_write_default(sb, a->def);
    }
}

/* FunctionSchema's operator<< (torch 1.13) */
static void write_schema(airc_strbuf *sb, const airc_schema *s)
{
    if (s->ns && s->ns[0]) {
        airc_sb_puts(sb, s->ns);
        airc_sb_puts(sb, "::");
    }
    airc_sb_puts(sb, s->name);
    if (s->overload && s->overload[0]) {
        airc_sb_putc(sb, '.');
        airc_sb_puts(sb, s->overload);
    }
    airc_sb_putc(sb, '(');
    bool seen_kw = false;
    for (uint32_t i = 0; i < s->nargs; i++) {
        if (i)
            airc_sb_puts(sb, ", ");
        if (s->args[i].kwarg_only && !seen_kw) {
            airc_sb_puts(sb, "*, ");
            seen_kw = true;
        }
        write_arg(sb, &s->args[i]);
    }
    if (s->vararg)
        airc_sb_puts(sb, s->nargs ? ", ..." : "...");
    airc_sb_puts(sb, ") -> ");
    /* parentheses unless one plain return or a bare "..."; a single return
     * whose type starts with '(' (a tuple type) needs them to read back */
    bool paren = !((s->nrets == 1 && !s->varret) || (s->nrets == 0 && s->varret));
    if (s->nrets == 1 && !s->varret && s->rets[0].type.text && s->rets[0].type.text[0] == '(')
        paren = true;
    if (paren)
        airc_sb_putc(sb, '(');
    for (uint32_t i = 0; i < s->nrets; i++) {
        if (i)
            airc_sb_puts(sb, ", ");
        write_arg(sb, &s->rets[i]);
    }
    if (s->varret)
        airc_sb_puts(sb, s->nrets ? ", ..." : "...");
    if (paren)
        airc_sb_putc(sb, ')');
}

airc_status airc_schema_to_string(const airc_schema *s, char **out)
{
    if (!valid(s))
        return airc_fail(AIRC_E_MISUSE, "airc_schema_to_string: invalid schema handle");
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_schema_to_string: out is NULL");
    airc_strbuf sb;
    airc_sb_init(&sb, s->ctx);
    write_schema(&sb, s);
    char *text;
    airc_status st = airc_sb_detach(&sb, &text);
    if (st != AIRC_OK)
        return st;
    *out = text;
    return AIRC_OK;
}

/* ---- accessors --------------------------------------------------------- */

const char *airc_schema_namespace(const airc_schema *s)
{
    return valid(s) ? s->ns : "";
}

const char *airc_schema_name(const airc_schema *s)
{
    return valid(s) ? s->name : "";
}

const char *airc_schema_overload(const airc_schema *s)
{
    return valid(s) ? s->overload : "";
}

size_t airc_schema_num_args(const airc_schema *s)
{
    return valid(s) ? s->nargs : 0;
}

size_t airc_schema_num_returns(const airc_schema *s)
{
    return valid(s) ? s->nrets : 0;
}

static const airc_arg *arg_at(const airc_schema *s, size_t i)
{
    return valid(s) && i < s->nargs ? &s->args[i] : NULL;
}

static const airc_arg *ret_at(const airc_schema *s, size_t i)
{
    return valid(s) && i < s->nrets ? &s->rets[i] : NULL;
}

const char *airc_schema_arg_name(const airc_schema *s, size_t i)
{
    const airc_arg *a = arg_at(s, i);
    return a ? a->name : "";
}

/* Out of range: AIRC_TYPE_NONE (0 would read as Tensor). */
airc_type_kind airc_schema_arg_type(const airc_schema *s, size_t i)
{
    const airc_arg *a = arg_at(s, i);
    return a ? a->type.kind : AIRC_TYPE_NONE;
}

const char *airc_schema_arg_type_string(const airc_schema *s, size_t i)
{
    const airc_arg *a = arg_at(s, i);
    return a && a->type.text ? a->type.text : "";
}

int32_t airc_schema_arg_is_optional(const airc_schema *s, size_t i)
{
    const airc_arg *a = arg_at(s, i);
    return a ? a->type.optional : 0;
}

int32_t airc_schema_arg_is_list(const airc_schema *s, size_t i)
{
    const airc_arg *a = arg_at(s, i);
    return a ? a->type.is_list : 0;
}

int32_t airc_schema_arg_list_size(const airc_schema *s, size_t i)
{
    const airc_arg *a = arg_at(s, i);
    return a ? a->type.list_size : 0;
}

int32_t airc_schema_arg_is_kwarg_only(const airc_schema *s, size_t i)
{
    const airc_arg *a = arg_at(s, i);
    return a ? a->kwarg_only : 0;
}

const airc_value *airc_schema_arg_default(const airc_schema *s, size_t i)
{
    const airc_arg *a = arg_at(s, i);
    return a ? a->def : NULL;
}

const char *airc_schema_arg_alias(const airc_schema *s, size_t i)
{
    const airc_arg *a = arg_at(s, i);
    return a ? a->type.alias : NULL;
}

int32_t airc_schema_arg_is_write(const airc_schema *s, size_t i)
{
    const airc_arg *a = arg_at(s, i);
    return a ? a->type.is_write : 0;
}

airc_type_kind airc_schema_return_type(const airc_schema *s, size_t i)
{
    const airc_arg *r = ret_at(s, i);
    return r ? r->type.kind : AIRC_TYPE_NONE;
}

const char *airc_schema_return_type_string(const airc_schema *s, size_t i)
{
    const airc_arg *r = ret_at(s, i);
    return r && r->type.text ? r->type.text : "";
}

const char *airc_schema_return_name(const airc_schema *s, size_t i)
{
    const airc_arg *r = ret_at(s, i);
    return r ? r->name : "";
}

const char *airc_schema_return_alias(const airc_schema *s, size_t i)
{
    const airc_arg *r = ret_at(s, i);
    return r ? r->type.alias : NULL;
}

int32_t airc_schema_return_is_write(const airc_schema *s, size_t i)
{
    const airc_arg *r = ret_at(s, i);
    return r ? r->type.is_write : 0;
}

int32_t airc_schema_is_mutable(const airc_schema *s)
{
    return valid(s) ? s->is_mutable : 0;
}
