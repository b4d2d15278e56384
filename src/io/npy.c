/* .npy files (numpy's format, versions 1.0, 2.0 and 3.0).
 *
 * Layout: "\x93NUMPY", major, minor, a little-endian header length (2 bytes
 * in 1.0, 4 in 2.0/3.0), then the header: a Python dict literal such as
 *     {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
 * padded with spaces and a newline, then the raw C-order data.
 *
 * Reading is strict where numpy is strict (exactly the three keys, a real
 * tuple for the shape, True/False for fortran_order) and never trusts a
 * length: the header is read no further than the bytes present, and the
 * data size is checked against what is there before anything big is
 * allocated. Choices where numpy leaves room:
 * - big-endian data ('>f4') is byte-swapped on read; '|' and '=' mean native;
 * - fortran_order True is accepted only when the layout equals C order (at
 *   most one dim larger than 1), refused otherwise;
 * - bytes after the data are ignored, as np.load does (several arrays may be
 *   saved one after another into one file; the first is read);
 * - bool bytes other than 0 are read as 1, so kernels can rely on 0/1.
 * Writing produces exactly the bytes numpy 1.24's np.save writes (version
 * 1.0, the header padded to 64 bytes with room for a growing first axis). */
#include "io/io.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_ALIGN 64
/* numpy leaves this many digits of room for the growing axis. */
#define NPY_GROWTH_AXIS_MAX_DIGITS 21

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_LITTLE 0
#else
#define HOST_LITTLE 1
#endif

typedef struct npy_header {
    airc_dtype dtype;
    bool swap; /* stored in the other byte order than the host's */
    bool fortran;
    int32_t ndim;
    int64_t shape[AIRC_MAX_DIMS];
    size_t nbytes;
} npy_header;

/* ---- dtypes ------------------------------------------------------------ */

static const struct {
    const char *code; /* descr without the byte-order character */
    airc_dtype dtype;
    const char *write; /* descr numpy writes */
} npy_types[] = {
    {"f4", AIRC_DTYPE_F32, "<f4"}, {"f8", AIRC_DTYPE_F64, "<f8"}, {"f2", AIRC_DTYPE_F16, "<f2"},
    {"i8", AIRC_DTYPE_I64, "<i8"}, {"i4", AIRC_DTYPE_I32, "<i4"}, {"i2", AIRC_DTYPE_I16, "<i2"},
    {"i1", AIRC_DTYPE_I8, "|i1"},  {"u1", AIRC_DTYPE_U8, "|u1"},  {"b1", AIRC_DTYPE_BOOL, "|b1"},
};
#define NPY_NTYPES (sizeof npy_types / sizeof npy_types[0])

/* A readable name for a dtype airc does not read, from numpy's kind codes. */
static const char *describe_unsupported(const char *code)
{
    static const struct {
        const char *code;
        const char *name;
    } known[] = {
        {"c8", "complex64"},   {"c16", "complex128"}, {"c32", "complex256"},
        {"u2", "uint16"},      {"u4", "uint32"},      {"u8", "uint64"},
        {"f12", "float96"},    {"f16", "float128"},   {"g", "long double"},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(code, known[i].code))
            return known[i].name;
    switch (code[0]) {
    case 'b': return "bool of unusual size";
    case 'i': return "signed integer of unsupported size";
    case 'u': return "unsigned integer of unsupported size";
    case 'f': return "float of unsupported size";
    case 'c': return "complex";
    case 'S': case 'a': return "byte string";
    case 'U': return "unicode string";
    case 'V': return "void (raw bytes)";
    case 'M': return "datetime64";
    case 'm': return "timedelta64";
    default: return "unknown type code";
    }
}

/* ---- header parsing ---------------------------------------------------- */

typedef struct cursor {
    const char *src;  /* name for messages */
    const char *base; /* header start */
    const char *p;
    const char *end;
    size_t offset; /* file offset of base, for messages */
} cursor;

static size_t cur_off(const cursor *c)
{
    return c->offset + (size_t)(c->p - c->base);
}

static airc_status cur_fail(const cursor *c, const char *what)
{
    if (c->p >= c->end)
        return airc_fail(AIRC_E_PARSE, "%s: malformed npy header: %s, found end of header",
                         c->src, what);
    return airc_fail(AIRC_E_PARSE, "%s: malformed npy header at byte %zu: %s, found '%c'", c->src,
                     cur_off(c), what, *c->p);
}

static void skip_ws(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

static bool accept(cursor *c, char ch)
{
    skip_ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

/* A Python string literal without escapes ('...' or "..."). */
static airc_status parse_string(cursor *c, const char **s, size_t *len, const char *what)
{
    skip_ws(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
        return cur_fail(c, what);
    char q = *c->p++;
    const char *start = c->p;
    while (c->p < c->end && *c->p != q) {
        if (*c->p == '\\')
            return cur_fail(c, "escape sequences are not supported in header strings");
        c->p++;
    }
    if (c->p >= c->end)
        return cur_fail(c, "unterminated string");
    *s = start;
    *len = (size_t)(c->p - start);
    c->p++;
    return AIRC_OK;
}

static bool accept_word(cursor *c, const char *w)
{
    skip_ws(c);
    size_t n = strlen(w);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, w, n))
        return false;
    const char *after = c->p + n;
    if (after < c->end && (*after == '_' || (*after >= 'a' && *after <= 'z') ||
                           (*after >= 'A' && *after <= 'Z') || (*after >= '0' && *after <= '9')))
        return false;
    c->p = after;
    return true;
}

static airc_status parse_descr(cursor *c, npy_header *h)
{
    skip_ws(c);
    if (c->p < c->end && *c->p == '[')
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: structured (record) dtypes are not supported; airc reads plain "
                         "arrays of f4 f8 f2 i8 i4 i2 i1 u1 b1",
                         c->src);
    const char *s;
    size_t len;
    AIRC_TRY(parse_string(c, &s, &len, "expected a dtype string for 'descr'"));
    char descr[32];
    if (len == 0 || len >= sizeof descr)
        return airc_fail(AIRC_E_PARSE, "%s: malformed npy header: bad descr '%.*s'", c->src,
                         (int)(len < 40 ? len : 40), s);
    memcpy(descr, s, len);
    descr[len] = '\0';
    char order = '|';
    const char *code = descr;
    if (strchr("<>=|", descr[0])) {
        order = descr[0];
        code++;
    }
    for (const char *q = code; *q; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') ||
              *q == '[' || *q == ']'))
            return airc_fail(AIRC_E_PARSE, "%s: malformed npy header: bad descr '%s'", c->src,
                             descr);
    if (!*code)
        return airc_fail(AIRC_E_PARSE, "%s: malformed npy header: bad descr '%s'", c->src, descr);
    if (!strcmp(code, "O"))
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: object arrays ('%s') are not supported: their data is a Python "
                         "pickle",
                         c->src, descr);
    for (size_t i = 0; i < NPY_NTYPES; i++) {
        if (strcmp(code, npy_types[i].code))
            continue;
        h->dtype = npy_types[i].dtype;
        bool multi = airc_dtype_size(h->dtype) > 1;
        bool little = order == '<' || ((order == '=' || order == '|') && HOST_LITTLE);
        h->swap = multi && little != HOST_LITTLE;
        return AIRC_OK;
    }
    return airc_fail(AIRC_E_UNSUPPORTED,
                     "%s: unsupported dtype '%s' (%s); airc reads f4 f8 f2 i8 i4 i2 i1 u1 b1",
                     c->src, descr, describe_unsupported(code));
}

static airc_status parse_fortran(cursor *c, npy_header *h)
{
    if (accept_word(c, "True"))
        h->fortran = true;
    else if (accept_word(c, "False"))
        h->fortran = false;
    else
        return cur_fail(c, "expected True or False for 'fortran_order'");
    return AIRC_OK;
}

static airc_status parse_dim(cursor *c, int64_t *out)
{
    skip_ws(c);
    if (c->p < c->end && *c->p == '-') {
        const char *q = c->p + 1;
        while (q < c->end && *q >= '0' && *q <= '9')
            q++;
        return airc_fail(AIRC_E_PARSE, "%s: negative dimension %.*s in shape", c->src,
                         (int)(q - c->p < 24 ? q - c->p : 24), c->p);
    }
    if (c->p >= c->end || *c->p < '0' || *c->p > '9')
        return cur_fail(c, "expected a dimension (a non-negative integer)");
    uint64_t v = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
        unsigned d = (unsigned)(*c->p - '0');
        if (v > ((uint64_t)INT64_MAX - d) / 10)
            return airc_fail(AIRC_E_PARSE, "%s: dimension in shape exceeds int64 at byte %zu",
                             c->src, cur_off(c));
        v = v * 10 + d;
        c->p++;
    }
    /* Python 2's numpy wrote longs as "3L". */
    if (c->p < c->end && (*c->p == 'L' || *c->p == 'l'))
        c->p++;
    *out = (int64_t)v;
    return AIRC_OK;
}

static airc_status parse_shape(cursor *c, npy_header *h)
{
    if (!accept(c, '('))
        return cur_fail(c, "expected a tuple '(' for 'shape'");
    int32_t n = 0;
    bool trailing_comma = false;
    while (!accept(c, ')')) {
        int64_t d = 0;
        AIRC_TRY(parse_dim(c, &d));
        if (n == AIRC_MAX_DIMS)
            return airc_fail(AIRC_E_UNSUPPORTED, "%s: shape has more than %d dimensions", c->src,
                             AIRC_MAX_DIMS);
        h->shape[n++] = d;
        trailing_comma = accept(c, ',');
        if (!trailing_comma) {
            if (!accept(c, ')'))
                return cur_fail(c, "expected ',' or ')' in shape");
            break;
        }
    }
    /* "(3)" is an int in Python, not a tuple; numpy refuses it too. */
    if (n == 1 && !trailing_comma)
        return airc_fail(AIRC_E_PARSE, "%s: malformed npy header: shape (%lld) is not a tuple "
                         "(a 1-d shape is written (%lld,))",
                         c->src, (long long)h->shape[0], (long long)h->shape[0]);
    h->ndim = n;
    return AIRC_OK;
}

static airc_status parse_header(const char *src, const char *text, size_t len, size_t offset,
                                npy_header *h)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)text[i];
        if ((ch < 0x20 || ch > 0x7e) && ch != '\n' && ch != '\r' && ch != '\t')
            return airc_fail(AIRC_E_PARSE,
                             "%s: malformed npy header: byte 0x%02x at byte %zu is not printable "
                             "ASCII",
                             src, ch, offset + i);
    }
    cursor c = {src, text, text, text + len, offset};
    memset(h, 0, sizeof *h);
    if (!accept(&c, '{'))
        return cur_fail(&c, "expected '{'");
    bool seen[3] = {false, false, false};
    static const char *const keys[3] = {"descr", "fortran_order", "shape"};
    while (!accept(&c, '}')) {
        const char *k;
        size_t klen;
        AIRC_TRY(parse_string(&c, &k, &klen, "expected a key string or '}'"));
        int which = -1;
        for (int i = 0; i < 3; i++)
            if (klen == strlen(keys[i]) && !memcmp(k, keys[i], klen))
                which = i;
        if (which < 0)
            return airc_fail(AIRC_E_PARSE,
                             "%s: malformed npy header: unexpected key '%.*s' (expected 'descr', "
                             "'fortran_order' and 'shape')",
                             src, (int)(klen < 40 ? klen : 40), k);
        if (seen[which])
            return airc_fail(AIRC_E_PARSE, "%s: malformed npy header: duplicate key '%s'", src,
                             keys[which]);
        seen[which] = true;
        if (!accept(&c, ':'))
            return cur_fail(&c, "expected ':' after a key");
        airc_status st = which == 0 ? parse_descr(&c, h)
                         : which == 1 ? parse_fortran(&c, h)
                                      : parse_shape(&c, h);
        if (st != AIRC_OK)
            return st;
        if (!accept(&c, ',')) {
            if (!accept(&c, '}'))
                return cur_fail(&c, "expected ',' or '}' after a value");
            break;
        }
    }
    skip_ws(&c);
    if (c.p != c.end)
        return cur_fail(&c, "expected only padding after '}'");
    for (int i = 0; i < 3; i++)
        if (!seen[i])
            return airc_fail(AIRC_E_PARSE, "%s: malformed npy header: missing key '%s'", src,
                             keys[i]);

    size_t numel = 1, big = 0;
    for (int32_t i = 0; i < h->ndim; i++) {
        if (h->shape[i] == 0)
            numel = 0;
        if (h->shape[i] > 1)
            big++;
    }
    if (h->fortran && big > 1)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: Fortran-order (column-major) arrays are not supported; save a "
                         "C-order array (np.ascontiguousarray)",
                         src);
    size_t elem = airc_dtype_size(h->dtype);
    if (numel) {
        for (int32_t i = 0; i < h->ndim; i++) {
            if ((uint64_t)h->shape[i] > SIZE_MAX / numel)
                return airc_fail(AIRC_E_PARSE, "%s: shape too large (element count overflows)",
                                 src);
            numel *= (size_t)h->shape[i];
        }
        if (numel > (SIZE_MAX - AIRC_TENSOR_ALIGN) / elem)
            return airc_fail(AIRC_E_PARSE, "%s: shape too large (%zu elements of %zu bytes)", src,
                             numel, elem);
    }
    h->nbytes = numel * elem;
    return AIRC_OK;
}

/* Checks magic and version in the first 8 bytes; returns the size of the
 * length field (2 or 4). */
static airc_status parse_magic(const char *src, const unsigned char *p, size_t len,
                               size_t *len_field)
{
    if (len == 0)
        return airc_fail(AIRC_E_PARSE, "%s: not a .npy file (it is empty)", src);
    size_t n = len < NPY_MAGIC_LEN ? len : NPY_MAGIC_LEN;
    if (memcmp(p, NPY_MAGIC, n) != 0)
        return airc_fail(AIRC_E_PARSE, "%s: not a .npy file (bad magic: expected \\x93NUMPY)", src);
    if (len < 8)
        return airc_fail(AIRC_E_PARSE, "%s: truncated npy preamble: expected 8 bytes, got %zu",
                         src, len);
    unsigned major = p[6], minor = p[7];
    if (minor != 0 || major < 1 || major > 3)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: npy format version %u.%u is not supported (1.0, 2.0, 3.0 are)", src,
                         major, minor);
    *len_field = major == 1 ? 2 : 4;
    return AIRC_OK;
}

static size_t read_le(const unsigned char *p, size_t n)
{
    size_t v = 0;
    for (size_t i = n; i-- > 0;)
        v = (v << 8) | p[i];
    return v;
}

/* ---- data fix-ups ------------------------------------------------------- */

static void swap_bytes(void *data, size_t nbytes, size_t elem)
{
    unsigned char *p = data;
    for (size_t i = 0; i + elem <= nbytes; i += elem)
        for (size_t a = 0, b = elem - 1; a < b; a++, b--) {
            unsigned char t = p[i + a];
            p[i + a] = p[i + b];
            p[i + b] = t;
        }
}

static void fix_data(airc_tensor *t, const npy_header *h)
{
    if (h->swap)
        swap_bytes(t->data, t->nbytes, airc_dtype_size(t->dtype));
    if (t->dtype == AIRC_DTYPE_BOOL) {
        unsigned char *p = t->data;
        for (size_t i = 0; i < t->nbytes; i++)
            p[i] = p[i] != 0;
    }
}

static airc_status truncated_data(const char *src, size_t expected, size_t got)
{
    return airc_fail(AIRC_E_PARSE, "%s: truncated data: expected %zu bytes, got %zu", src,
                     expected, got);
}

/* ---- reading ------------------------------------------------------------ */

airc_status airc_npy_read_buffer(airc_context *ctx, const void *data, size_t len,
                                 const char *source, airc_tensor **out)
{
    AIRC_TRY(airc_check_context(ctx, "airc_npy_read_buffer"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_npy_read_buffer: out is NULL");
    if (!data && len)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_npy_read_buffer: data is NULL");
    const char *src = source ? source : "<buffer>";
    const unsigned char *p = data;
    size_t lf;
    AIRC_TRY(parse_magic(src, p, len, &lf));
    if (len < 8 + lf)
        return airc_fail(AIRC_E_PARSE, "%s: truncated npy preamble: expected %zu bytes, got %zu",
                         src, 8 + lf, len);
    size_t hlen = read_le(p + 8, lf);
    size_t off = 8 + lf;
    if (hlen > len - off)
        return airc_fail(AIRC_E_PARSE, "%s: truncated header: expected %zu bytes, got %zu", src,
                         hlen, len - off);
    npy_header h;
    AIRC_TRY(parse_header(src, (const char *)p + off, hlen, off, &h));
    off += hlen;
    if (h.nbytes > len - off)
        return truncated_data(src, h.nbytes, len - off);
    airc_tensor *t;
    airc_status st = airc_tensor_new(ctx, h.dtype, h.ndim, h.shape, false, &t);
    if (st != AIRC_OK)
        return st == AIRC_E_OUT_OF_MEMORY ? airc_fail_prefix("%s", src) : st;
    if (h.nbytes)
        memcpy(t->data, p + off, h.nbytes);
    fix_data(t, &h);
    *out = t;
    return AIRC_OK;
}

/* Reads exactly n bytes unless the stream ends; returns the count read. */
static size_t read_full(FILE *f, void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        size_t k = fread((char *)buf + got, 1, n - got, f);
        if (k == 0)
            break;
        got += k;
    }
    return got;
}

/* Reads a header of claimed length n, growing the buffer only as bytes
 * actually arrive, so a lying length cannot make us allocate gigabytes. */
static airc_status read_header(airc_context *ctx, FILE *f, const char *src, size_t n, char **out)
{
    char *buf = NULL;
    size_t cap = 0, got = 0;
    while (got < n) {
        size_t want = n - got < 65536 ? n - got : 65536;
        if (!airc_grow(ctx, (void **)&buf, &cap, got + want, 1)) {
            airc_free(ctx, buf);
            return airc_fail_oom("npy header");
        }
        size_t k = read_full(f, buf + got, want);
        got += k;
        if (k < want)
            break;
    }
    if (got < n) {
        airc_free(ctx, buf);
        if (ferror(f))
            return airc_fail(AIRC_E_IO, "%s: read error: %s", src, strerror(errno));
        return airc_fail(AIRC_E_PARSE, "%s: truncated header: expected %zu bytes, got %zu", src, n,
                         got);
    }
    *out = buf;
    return AIRC_OK;
}

static airc_status read_stream(airc_context *ctx, FILE *f, const char *path, airc_tensor **out)
{
    unsigned char pre[12];
    size_t got = read_full(f, pre, 8);
    if (ferror(f))
        return airc_fail(AIRC_E_IO, "%s: read error: %s", path, strerror(errno));
    size_t lf;
    AIRC_TRY(parse_magic(path, pre, got, &lf));
    got = read_full(f, pre + 8, lf);
    if (got < lf)
        return airc_fail(AIRC_E_PARSE, "%s: truncated npy preamble: expected %zu bytes, got %zu",
                         path, 8 + lf, 8 + got);
    size_t hlen = read_le(pre + 8, lf);
    char *text = NULL;
    AIRC_TRY(read_header(ctx, f, path, hlen, &text));
    npy_header h;
    airc_status st = parse_header(path, text, hlen, 8 + lf, &h);
    airc_free(ctx, text);
    if (st != AIRC_OK)
        return st;
    /* Refuse a short regular file before allocating what its header claims. */
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode)) {
        long pos = ftell(f);
        if (pos >= 0 && sb.st_size >= pos && (uint64_t)(sb.st_size - pos) < h.nbytes)
            return truncated_data(path, h.nbytes, (size_t)(sb.st_size - pos));
    }
    airc_tensor *t;
    st = airc_tensor_new(ctx, h.dtype, h.ndim, h.shape, false, &t);
    if (st != AIRC_OK)
        return st == AIRC_E_OUT_OF_MEMORY ? airc_fail_prefix("%s", path) : st;
    got = read_full(f, t->data, h.nbytes);
    if (got < h.nbytes) {
        bool err = ferror(f);
        int saved = errno;
        airc_tensor_destroy(t);
        if (err)
            return airc_fail(AIRC_E_IO, "%s: read error: %s", path, strerror(saved));
        return truncated_data(path, h.nbytes, got);
    }
    fix_data(t, &h);
    *out = t;
    return AIRC_OK;
}

airc_status airc_npy_read(airc_context *ctx, const char *path, airc_tensor **out)
{
    AIRC_TRY(airc_check_context(ctx, "airc_npy_read"));
    if (!path || !out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_npy_read: %s is NULL",
                         !path ? "path" : "out");
    bool is_stdin = !strcmp(path, "-");
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return airc_fail(errno == ENOENT ? AIRC_E_NOT_FOUND : AIRC_E_IO, "%s: cannot open: %s",
                         path, strerror(errno));
    airc_status st = read_stream(ctx, f, path, out);
    if (!is_stdin)
        fclose(f);
    return st;
}

/* ---- writing ------------------------------------------------------------ */

/* Builds numpy's version 1.0 header for t into buf; returns its length
 * (preamble included); 0 when cap is too small (16 dims of 19 digits need
 * about 500 bytes). */
static size_t build_header(const airc_tensor *t, const char *descr, char *buf, size_t cap)
{
    char dict[768];
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                     descr);
    for (int32_t i = 0; i < t->ndim; i++)
        n += snprintf(dict + n, sizeof dict - (size_t)n, "%s%lld", i ? ", " : "",
                      (long long)t->shape[i]);
    n += snprintf(dict + n, sizeof dict - (size_t)n, "%s), }", t->ndim == 1 ? "," : "");
    if (t->ndim > 0) {
        int digits = snprintf(NULL, 0, "%lld", (long long)t->shape[0]);
        for (int i = digits; i < NPY_GROWTH_AXIS_MAX_DIGITS; i++)
            dict[n++] = ' ';
    }
    size_t hlen = (size_t)n + 1; /* + '\n' */
    /* magic, version and the 2-byte length field: 10 bytes */
    size_t pad = NPY_ALIGN - (NPY_MAGIC_LEN + 4 + hlen) % NPY_ALIGN;
    size_t total = NPY_MAGIC_LEN + 4 + hlen + pad;
    if (total > cap)
        return 0;
    memcpy(buf, NPY_MAGIC, NPY_MAGIC_LEN);
    buf[6] = 1;
    buf[7] = 0;
    size_t field = hlen + pad;
    buf[8] = (char)(field & 0xff);
    buf[9] = (char)(field >> 8);
    memcpy(buf + 10, dict, (size_t)n);
    memset(buf + 10 + n, ' ', pad);
    buf[total - 1] = '\n';
    return total;
}

static bool write_data(FILE *f, const airc_tensor *t)
{
    size_t elem = airc_dtype_size(t->dtype);
    if (HOST_LITTLE || elem == 1)
        return fwrite(t->data, 1, t->nbytes, f) == t->nbytes;
    unsigned char chunk[4096];
    for (size_t off = 0; off < t->nbytes; off += sizeof chunk) {
        size_t n = t->nbytes - off < sizeof chunk ? t->nbytes - off : sizeof chunk;
        memcpy(chunk, (const unsigned char *)t->data + off, n);
        swap_bytes(chunk, n, elem);
        if (fwrite(chunk, 1, n, f) != n)
            return false;
    }
    return true;
}

airc_status airc_npy_write(const airc_tensor *t, const char *path)
{
    AIRC_TRY(airc_check_tensor(t, "airc_npy_write"));
    if (!path)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_npy_write: path is NULL");
    const char *descr = NULL;
    for (size_t i = 0; i < NPY_NTYPES; i++)
        if (npy_types[i].dtype == t->dtype)
            descr = npy_types[i].write;
    if (!descr)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: cannot write %s to .npy: numpy has no such dtype (cast bf16 to "
                         "f32 first)",
                         path, airc_dtype_name(t->dtype) ? airc_dtype_name(t->dtype) : "?");
    char header[NPY_ALIGN * 16];
    size_t hn = build_header(t, descr, header, sizeof header);
    if (!hn)
        return airc_fail(AIRC_E_INTERNAL, "%s: npy header does not fit", path);
    FILE *f = fopen(path, "wb");
    if (!f)
        return airc_fail(AIRC_E_IO, "%s: cannot open for writing: %s", path, strerror(errno));
    bool ok = fwrite(header, 1, hn, f) == hn && write_data(f, t);
    int saved = errno;
    if (fclose(f) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        remove(path); /* no half-written file left behind */
        return airc_fail(AIRC_E_IO, "%s: write error: %s", path, strerror(saved));
    }
    return AIRC_OK;
}
