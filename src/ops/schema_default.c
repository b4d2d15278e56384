/* Default values in schemas: "=1", "=1e-05", "=-inf", "=[0, 1]", "='none'",
 * "=contiguous_format", "=long", "=Mean", "=None". Read as the argument's
 * type asks, so that each default is stored as the value a caller would
 * pass: ints widened to float for float, ScalarType/MemoryFormat/Layout
 * torch codes and names turned into typed values (torch prints them as
 * codes, so both spellings occur). Also holds torch's enum code tables. */
#include "ops/schema_internal.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef airc_schema_lexer sp;

static airc_value *new_value(sp *p, airc_value_kind kind)
{
    return airc_value_alloc(p->a, NULL, kind);
}

/* A number literal at the cursor: [-] digits [. digits] [e [+-] digits],
 * or [-]inf / nan. *is_float tells which kind it was. */
static airc_status parse_number(sp *p, bool *is_float, int64_t *iv, double *fv)
{
    sl_peek(p);
    size_t b = p->i, k = p->i;
    bool neg = false;
    if (k < p->n && p->s[k] == '-') {
        neg = true;
        k++;
    }
    p->i = k;
    if (sl_accept_word(p, "inf") || sl_accept_word(p, "nan")) {
        bool nan = p->s[p->i - 1] == 'n';
        *is_float = true;
        *fv = nan ? NAN : (neg ? -INFINITY : INFINITY);
        return AIRC_OK;
    }
    size_t digits = 0;
    bool flt = false;
    while (k < p->n && sl_is_digit((unsigned char)p->s[k])) {
        k++;
        digits++;
    }
    if (k < p->n && p->s[k] == '.') {
        flt = true;
        k++;
        while (k < p->n && sl_is_digit((unsigned char)p->s[k])) {
            k++;
            digits++;
        }
    }
    if (!digits) {
        p->i = b;
        return airc_sl_expected(p, "a number");
    }
    if (k < p->n && (p->s[k] == 'e' || p->s[k] == 'E')) {
        flt = true;
        k++;
        if (k < p->n && (p->s[k] == '+' || p->s[k] == '-'))
            k++;
        if (k >= p->n || !sl_is_digit((unsigned char)p->s[k])) {
            p->i = k;
            return airc_sl_expected(p, "exponent digits");
        }
        while (k < p->n && sl_is_digit((unsigned char)p->s[k]))
            k++;
    }
    if (k < p->n && sl_is_id_char((unsigned char)p->s[k])) {
        p->i = k;
        return airc_sl_expected(p, "the end of the number");
    }
    p->i = k;
    *is_float = flt;
    if (!flt) {
        /* accumulate the magnitude as unsigned: INT64_MIN must fit */
        uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
        uint64_t m = 0;
        for (size_t j = b + neg; j < k; j++) {
            unsigned dgt = (unsigned)(p->s[j] - '0');
            if (m > (limit - dgt) / 10)
                return airc_sl_fail(p, b, "integer '%.*s' out of int64 range",
                                    (int)(k - b > 40 ? 40 : k - b), p->s + b);
            m = m * 10 + dgt;
        }
        *iv = neg ? (int64_t)(0 - m) : (int64_t)m;
        return AIRC_OK;
    }
    if (k - b >= AIRC_SCHEMA_MAX_NUMBER)
        return airc_sl_fail(p, b, "number longer than %u characters", AIRC_SCHEMA_MAX_NUMBER);
    /* strtod follows LC_NUMERIC: hand it the locale's decimal point */
    char buf[AIRC_SCHEMA_MAX_NUMBER + 8];
    const char *dp = localeconv()->decimal_point;
    size_t o = 0;
    for (size_t j = b; j < k; j++) {
        if (p->s[j] == '.' && dp && dp[0] && strlen(dp) < 8) {
            memcpy(buf + o, dp, strlen(dp));
            o += strlen(dp);
        } else {
            buf[o++] = p->s[j];
        }
    }
    buf[o] = '\0';
    double d = strtod(buf, NULL);
    if (isinf(d))
        return airc_sl_fail(p, b, "float '%.*s' out of range", (int)(k - b), p->s + b);
    *fv = d;
    return AIRC_OK;
}


/* '...' or "..." with C/Python escapes (what torch's lexer accepts and
 * c10's printQuotedString writes). */
static airc_status parse_string(sp *p, const airc_value **out)
{
    char q = p->s[p->i];
    size_t b = p->i;
    size_t k = p->i + 1;
    /* the decoded string is never longer than the source span */
    size_t e = k;
    while (e < p->n && p->s[e] != q) {
        if (p->s[e] == '\\' && e + 1 < p->n)
            e++;
        e++;
    }
    if (e >= p->n)
        return airc_sl_fail(p, b, "unterminated string");
    char *d = airc_arena_alloc(p->a, e - k + 1);
    if (!d)
        return airc_fail_oom("schema string default");
    size_t o = 0;
    while (k < e) {
        char c = p->s[k++];
        if (c != '\\') {
            if (c == '\0')
                return airc_sl_fail(p, k - 1, "NUL byte in a string");
            d[o++] = c;
            continue;
        }
        char x = p->s[k++];
        int v;
        switch (x) {
        case '\\': v = '\\'; break;
        case '\'': v = '\''; break;
        case '"': v = '"'; break;
        case 'a': v = '\a'; break;
        case 'b': v = '\b'; break;
        case 'f': v = '\f'; break;
        case 'n': v = '\n'; break;
        case 'r': v = '\r'; break;
        case 't': v = '\t'; break;
        case 'v': v = '\v'; break;
        case 'x': {
            int h1 = k < e ? airc_hex_digit((unsigned char)p->s[k]) : -1;
            int h2 = k + 1 < e ? airc_hex_digit((unsigned char)p->s[k + 1]) : -1;
            if (h1 < 0 || h2 < 0)
                return airc_sl_fail(p, k - 2, "expected two hex digits after '\\x'");
            v = h1 * 16 + h2;
            k += 2;
            break;
        }
        default:
            if (x >= '0' && x <= '7') {
                v = x - '0';
                for (int j = 0; j < 2 && k < e && p->s[k] >= '0' && p->s[k] <= '7'; j++)
                    v = v * 8 + (p->s[k++] - '0');
                if (v > 255)
                    return airc_sl_fail(p, k - 4, "octal escape out of range");
                break;
            }
            return airc_sl_fail(p, k - 2, "unknown escape '\\%c' in a string",
                                (x >= 0x20 && x < 0x7f) ? x : '?');
        }
        if (v == 0)
            return airc_sl_fail(p, k - 2, "NUL byte in a string");
        d[o++] = (char)v;
    }
    d[o] = '\0';
    p->i = e + 1;
    if (o > UINT32_MAX)
        return airc_sl_fail(p, b, "string too long");
    airc_value *v = new_value(p, AIRC_VALUE_STRING);
    if (!v)
        return airc_fail_oom("schema string default");
    v->u.s = d;
    v->len = (uint32_t)o;
    *out = v;
    return AIRC_OK;
}

static const struct {
    const char *name;
    airc_dtype dtype;
} dtype_names[] = {
    {"uint8", AIRC_DTYPE_U8},    {"byte", AIRC_DTYPE_U8},       {"int8", AIRC_DTYPE_I8},
    {"char", AIRC_DTYPE_I8},     {"int16", AIRC_DTYPE_I16},     {"short", AIRC_DTYPE_I16},
    {"int32", AIRC_DTYPE_I32},   {"int", AIRC_DTYPE_I32},       {"int64", AIRC_DTYPE_I64},
    {"long", AIRC_DTYPE_I64},    {"float16", AIRC_DTYPE_F16},   {"half", AIRC_DTYPE_F16},
    {"float32", AIRC_DTYPE_F32}, {"float", AIRC_DTYPE_F32},     {"float64", AIRC_DTYPE_F64},
    {"double", AIRC_DTYPE_F64},  {"bfloat16", AIRC_DTYPE_BF16}, {"bool", AIRC_DTYPE_BOOL},
};

/* A bare enum name (contiguous_format, strided, long, Mean) for a type. */
static airc_status enum_default(sp *p, airc_type_kind kind, const airc_value **out)
{
    size_t b = p->i;
    const char *s;
    size_t len;
    AIRC_TRY(airc_sl_ident(p, "a default value", &s, &len));
    airc_value *v = NULL;
    if (kind == AIRC_TYPE_SCALAR_TYPE) {
        for (size_t k = 0; k < sizeof dtype_names / sizeof dtype_names[0]; k++)
            if (sl_span_is(s, len, dtype_names[k].name)) {
                if (!(v = new_value(p, AIRC_VALUE_DTYPE)))
                    return airc_fail_oom("schema default");
                v->u.dtype = dtype_names[k].dtype;
            }
    } else if (kind == AIRC_TYPE_MEMORY_FORMAT) {
        static const char *const names[] = {"contiguous_format", "channels_last", "preserve_format",
                                            "channels_last_3d"};
        for (int32_t k = 0; k < 4; k++)
            if (sl_span_is(s, len, names[k])) {
                if (!(v = new_value(p, AIRC_VALUE_MEMORY_FORMAT)))
                    return airc_fail_oom("schema default");
                v->u.e = k; /* the order of airc_memory_format */
            }
    } else if (kind == AIRC_TYPE_LAYOUT) {
        static const char *const names[] = {"strided", "sparse_coo"};
        for (int32_t k = 0; k < 2; k++)
            if (sl_span_is(s, len, names[k])) {
                if (!(v = new_value(p, AIRC_VALUE_LAYOUT)))
                    return airc_fail_oom("schema default");
                v->u.e = k;
            }
    } else if (kind == AIRC_TYPE_INT || kind == AIRC_TYPE_SYMINT) {
        /* at::Reduction in native_functions.yaml: "int reduction=Mean" */
        static const char *const names[] = {"None", "Mean", "Sum"};
        for (int64_t k = 1; k < 3; k++)
            if (sl_span_is(s, len, names[k])) {
                if (!(v = new_value(p, AIRC_VALUE_INT)))
                    return airc_fail_oom("schema default");
                v->u.i = k;
            }
    } else if (kind == AIRC_TYPE_DEVICE) {
        if (!(v = new_value(p, AIRC_VALUE_DEVICE)))
            return airc_fail_oom("schema default");
        v->u.dev.type = airc_arena_strndup(p->a, s, len);
        v->u.dev.index = -1;
        if (!v->u.dev.type)
            return airc_fail_oom("schema default");
    }
    if (!v)
        return airc_sl_fail(p, b, "expected a default value, got unknown name '%.*s'",
                            (int)(len > 64 ? 64 : len), s);
    *out = v;
    return AIRC_OK;
}

/* Device given as a string default: "cpu", "cuda:1". */
static airc_status device_from_string(sp *p, size_t at, const airc_value *str,
                                      const airc_value **out)
{
    const char *s = str->u.s;
    const char *colon = strchr(s, ':');
    size_t tlen = colon ? (size_t)(colon - s) : strlen(s);
    int64_t idx = -1;
    if (tlen == 0 || !sl_is_id_start((unsigned char)s[0]))
        return airc_sl_fail(p, at, "expected a device such as \"cpu\" or \"cuda:0\"");
    for (size_t k = 0; k < tlen; k++)
        if (!sl_is_id_char((unsigned char)s[k]))
            return airc_sl_fail(p, at, "expected a device such as \"cpu\" or \"cuda:0\"");
    if (colon) {
        const char *q = colon + 1;
        idx = 0;
        if (!*q)
            return airc_sl_fail(p, at, "expected a device index after ':'");
        for (; *q; q++) {
            if (!sl_is_digit((unsigned char)*q) || idx > 100000000)
                return airc_sl_fail(p, at, "expected a device index after ':'");
            idx = idx * 10 + (*q - '0');
        }
    }
    airc_value *v = new_value(p, AIRC_VALUE_DEVICE);
    if (!v || !(v->u.dev.type = airc_arena_strndup(p->a, s, tlen)))
        return airc_fail_oom("schema default");
    v->u.dev.index = (int32_t)idx;
    *out = v;
    return AIRC_OK;
}

static airc_status parse_literal(sp *p, airc_type_kind kind, int depth, const airc_value **out);

/* '[' [item (',' item)*] ']' */
static airc_status parse_list(sp *p, airc_type_kind kind, int depth, const airc_value **out)
{
    if (depth > AIRC_SCHEMA_MAX_DEPTH)
        return airc_sl_fail(p, p->i, "default nested deeper than %d levels", AIRC_SCHEMA_MAX_DEPTH);
    if (!sl_accept(p, '['))
        return airc_sl_expected(p, "'['");
    const airc_value **items = NULL;
    size_t n = 0, cap = 0;
    if (!sl_accept(p, ']')) {
        for (;;) {
            const airc_value *item;
            AIRC_TRY(parse_literal(p, kind, depth + 1, &item));
            if (n >= UINT32_MAX)
                return airc_sl_fail(p, p->i, "list too long");
            if (!airc_sl_arena_grow(p, (void **)&items, &cap, n + 1, sizeof *items))
                return airc_fail_oom("schema list default");
            items[n++] = item;
            if (sl_accept(p, ','))
                continue;
            if (!sl_accept(p, ']'))
                return airc_sl_expected(p, "',' or ']' in a list");
            break;
        }
    }
    airc_value *v = new_value(p, AIRC_VALUE_LIST);
    if (!v)
        return airc_fail_oom("schema list default");
    v->len = (uint32_t)n;
    v->u.items = items;
    v->depth = 1;
    for (size_t k = 0; k < n; k++)
        if (items[k]->depth + 1 > v->depth)
            v->depth = items[k]->depth + 1;
    *out = v;
    return AIRC_OK;
}

static bool kind_takes_number(airc_type_kind kind)
{
    switch (kind) {
    case AIRC_TYPE_INT:
    case AIRC_TYPE_SYMINT:
    case AIRC_TYPE_FLOAT:
    case AIRC_TYPE_SCALAR:
    case AIRC_TYPE_SCALAR_TYPE:
    case AIRC_TYPE_LAYOUT:
    case AIRC_TYPE_MEMORY_FORMAT:
    case AIRC_TYPE_ANY: return true;
    default: return false;
    }
}

static const char *kind_word(airc_type_kind kind)
{
    static const char *const names[] = {
        "Tensor", "int",    "SymInt",       "float",     "bool", "str",  "Scalar",  "ScalarType",
        "Device", "Layout", "MemoryFormat", "Generator", "Any",  "None", "Dimname", "Storage"};
    return kind >= 0 && kind <= AIRC_TYPE_STORAGE ? names[kind] : "?";
}

static const char *article(airc_type_kind kind)
{
    return strchr("aeiouAEIOU", kind_word(kind)[0]) ? "an" : "a";
}

/* One default literal, read as the element kind asks: ints are widened to
 * float for float, enum codes become typed values, names are resolved. */
static airc_status parse_literal(sp *p, airc_type_kind kind, int depth, const airc_value **out)
{
    int c = sl_peek(p);
    size_t at = p->i;
    airc_value *v;
    /* torch takes None for any type ("Tensor x=None"), optional or not */
    if (sl_accept_word(p, "None")) {
        if (!(v = new_value(p, AIRC_VALUE_NONE)))
            return airc_fail_oom("schema default");
        *out = v;
        return AIRC_OK;
    }
    if (c == '[') {
        if (kind != AIRC_TYPE_ANY)
            return airc_sl_expected(p, "a default value");
        return parse_list(p, AIRC_TYPE_ANY, depth, out);
    }
    if (sl_accept_word(p, "True") || sl_accept_word(p, "False")) {
        if (kind != AIRC_TYPE_BOOL && kind != AIRC_TYPE_SCALAR && kind != AIRC_TYPE_ANY) {
            p->i = at;
            return airc_sl_fail(p, at, "expected %s %s default, got '%s'", article(kind),
                                kind_word(kind), p->s[at] == 'T' ? "True" : "False");
        }
        if (!(v = new_value(p, AIRC_VALUE_BOOL)))
            return airc_fail_oom("schema default");
        v->u.b = p->s[at] == 'T';
        *out = v;
        return AIRC_OK;
    }
    if (c == '\'' || c == '"') {
        if (kind != AIRC_TYPE_STR && kind != AIRC_TYPE_DEVICE && kind != AIRC_TYPE_DIMNAME &&
            kind != AIRC_TYPE_ANY)
            return airc_sl_fail(p, at, "expected %s %s default, got a string", article(kind),
                                kind_word(kind));
        const airc_value *str = NULL;
        AIRC_TRY(parse_string(p, &str));
        if (kind == AIRC_TYPE_DEVICE)
            return device_from_string(p, at, str, out);
        *out = str;
        return AIRC_OK;
    }
    if (c == '-' || sl_is_digit(c) || sl_accept_word(p, "inf") || sl_accept_word(p, "nan")) {
        p->i = at;
        bool is_float = false;
        int64_t iv = 0;
        double fv = 0;
        AIRC_TRY(parse_number(p, &is_float, &iv, &fv));
        if (!kind_takes_number(kind))
            return airc_sl_fail(p, at, "expected %s %s default, got a number", article(kind),
                                kind_word(kind));
        if (is_float && kind != AIRC_TYPE_FLOAT && kind != AIRC_TYPE_SCALAR &&
            kind != AIRC_TYPE_ANY)
            return airc_sl_fail(p, at, "expected %s %s default, got a float", article(kind),
                                kind_word(kind));
        if (is_float || kind == AIRC_TYPE_FLOAT) {
            if (!(v = new_value(p, AIRC_VALUE_FLOAT)))
                return airc_fail_oom("schema default");
            v->u.f = is_float ? fv : (double)iv;
        } else if (kind == AIRC_TYPE_SCALAR_TYPE && airc_schema_dtype_from_torch(iv)) {
            if (!(v = new_value(p, AIRC_VALUE_DTYPE)))
                return airc_fail_oom("schema default");
            v->u.dtype = airc_schema_dtype_from_torch(iv);
        } else if (kind == AIRC_TYPE_MEMORY_FORMAT &&
                   airc_schema_memory_format_from_torch(iv) >= 0) {
            if (!(v = new_value(p, AIRC_VALUE_MEMORY_FORMAT)))
                return airc_fail_oom("schema default");
            v->u.e = airc_schema_memory_format_from_torch(iv);
        } else if (kind == AIRC_TYPE_LAYOUT && airc_schema_layout_from_torch(iv) >= 0) {
            if (!(v = new_value(p, AIRC_VALUE_LAYOUT)))
                return airc_fail_oom("schema default");
            v->u.e = airc_schema_layout_from_torch(iv);
        } else {
            /* codes of enum members airc lacks (complex dtypes...) stay ints */
            if (!(v = new_value(p, AIRC_VALUE_INT)))
                return airc_fail_oom("schema default");
            v->u.i = iv;
        }
        *out = v;
        return AIRC_OK;
    }
    if (sl_is_id_start(c)) {
        if (kind == AIRC_TYPE_ANY || kind == AIRC_TYPE_STR) {
            /* a bare word for a type variable: kept as a string */
            const char *s;
            size_t len;
            if (kind == AIRC_TYPE_STR)
                return airc_sl_expected(p, "a quoted string");
            AIRC_TRY(airc_sl_ident(p, "a default value", &s, &len));
            if (!(v = new_value(p, AIRC_VALUE_STRING)) ||
                !(v->u.s = airc_arena_strndup(p->a, s, len)))
                return airc_fail_oom("schema default");
            v->len = (uint32_t)len;
            *out = v;
            return AIRC_OK;
        }
        return enum_default(p, kind, out);
    }
    return airc_sl_expected(p, "a default value");
}

airc_status airc_schema_parse_default(sp *p, const airc_type *t, const airc_value **out)
{
    if (t->is_list) {
        size_t at = p->i;
        if (sl_accept_word(p, "None")) {
            p->i = at;
            return parse_literal(p, t->kind, 0, out);
        }
        if (sl_peek(p) == '[')
            return parse_list(p, t->kind, 1, out);
        /* "int[2] stride=1": one value the consumer broadcasts, as torch does */
        if (t->list_size > 0)
            return parse_literal(p, t->kind, 1, out);
        return airc_sl_expected(p, "a list default '[...]'");
    }
    return parse_literal(p, t->kind, 0, out);
}

/* ---- torch enum codes -------------------------------------------------- */

/* c10::ScalarType: Byte Char Short Int Long Half Float Double ComplexHalf
 * ComplexFloat ComplexDouble Bool QInt8 QUInt8 QInt32 BFloat16 */
static const airc_dtype torch_dtypes[] = {
    AIRC_DTYPE_U8,        AIRC_DTYPE_I8,        AIRC_DTYPE_I16,       AIRC_DTYPE_I32,
    AIRC_DTYPE_I64,       AIRC_DTYPE_F16,       AIRC_DTYPE_F32,       AIRC_DTYPE_F64,
    AIRC_DTYPE_UNDEFINED, AIRC_DTYPE_UNDEFINED, AIRC_DTYPE_UNDEFINED, AIRC_DTYPE_BOOL,
    AIRC_DTYPE_UNDEFINED, AIRC_DTYPE_UNDEFINED, AIRC_DTYPE_UNDEFINED, AIRC_DTYPE_BF16,
};
#define NUM_TORCH_DTYPES ((int64_t)(sizeof torch_dtypes / sizeof torch_dtypes[0]))

airc_dtype airc_schema_dtype_from_torch(int64_t code)
{
    return code >= 0 && code < NUM_TORCH_DTYPES ? torch_dtypes[code] : AIRC_DTYPE_UNDEFINED;
}

int64_t airc_schema_dtype_to_torch(airc_dtype d)
{
    for (int64_t k = 0; k < NUM_TORCH_DTYPES; k++)
        if (d != AIRC_DTYPE_UNDEFINED && torch_dtypes[k] == d)
            return k;
    return -1;
}

/* c10::MemoryFormat: Contiguous, Preserve, ChannelsLast, ChannelsLast3d */
static const int32_t torch_formats[] = {AIRC_MEMORY_FORMAT_CONTIGUOUS, AIRC_MEMORY_FORMAT_PRESERVE,
                                        AIRC_MEMORY_FORMAT_CHANNELS_LAST,
                                        AIRC_MEMORY_FORMAT_CHANNELS_LAST_3D};

int32_t airc_schema_memory_format_from_torch(int64_t code)
{
    return code >= 0 && code < 4 ? torch_formats[code] : -1;
}

int64_t airc_schema_memory_format_to_torch(int32_t f)
{
    for (int64_t k = 0; k < 4; k++)
        if (torch_formats[k] == f)
            return k;
    return -1;
}

/* c10::Layout: Strided, Sparse (COO), ... */
int32_t airc_schema_layout_from_torch(int64_t code)
{
    return code == 0 ? AIRC_LAYOUT_STRIDED : code == 1 ? AIRC_LAYOUT_SPARSE_COO : -1;
}

int64_t airc_schema_layout_to_torch(int32_t l)
{
    return l == AIRC_LAYOUT_STRIDED ? 0 : l == AIRC_LAYOUT_SPARSE_COO ? 1 : -1;
}
