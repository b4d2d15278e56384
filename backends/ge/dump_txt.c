/* `txt` graph dump: the protobuf text format of a protobuf-c message,
 * written generically from its descriptors, byte for byte what protoc 3.21
 * (`protoc --decode=ge.proto.GraphDef ge_model.proto`) prints for the same
 * message packed with protobuf-c. TorchAir's `.txt` dump is str(GraphDef).
 *
 * What protoc's TextFormat::Printer does, and so what this file does:
 * - fields in field-number order (protobuf-c's descriptors keep that order),
 *   unknown fields after them; two spaces of indent a level; a message is
 *   `name {` ... `}`, a scalar `name: value`, one line per repeated element;
 * - presence: a proto3 scalar is printed when protobuf-c would pack it (not
 *   zero, not "", bytes with a data pointer - protobuf-c's own pack rule, so
 *   -0.0f is left out as it is on the wire); a oneof member when its case is
 *   set, default value or not (`dt: 0`); a submessage when its pointer is set,
 *   even when empty (`shape {` `}`);
 * - map fields (repeated `XxxEntry` messages with key/value) sorted by key
 *   (bytewise for strings; a stable sort: entries with equal keys all stay,
 *   in their order, as protoc's reflection parse keeps them), each entry
 *   printing its key and value even when they are default;
 * - strings and bytes with C escapes: \n \r \t \" \' \\ and every other byte
 *   below 0x20 or from 0x7f as three octal digits (UTF-8 too);
 * - floats as SimpleFtoa: %.6g, or %.9g when that does not read back as the
 *   same float or strtof reports a range error, as for subnormals (0.1,
 *   1e-05, 3.4e+38, 0.123456791, -1.96181785e-44); doubles %.15g / %.17g;
 *   inf, -inf, nan; enums by name (number when unnamed); bools true/false;
 * - unknown fields as `N: value` (varints unsigned, fixed32/64 as 0x%08x /
 *   0x%016x), length-delimited ones as a nested `N {` block when the bytes
 *   parse as a message (up to 10 levels deep), as a string otherwise. */
#include "backends/ge/dump.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* protoc refuses to parse messages nested deeper than this */
#define TXT_MAX_DEPTH 100
/* TextFormat's kUnknownFieldRecursionLimit */
#define TXT_UNKNOWN_BUDGET 10

typedef struct txt_writer {
    airc_strbuf *out;
} txt_writer;

static void put_indent(airc_strbuf *sb, int indent)
{
    static const char spaces[] = "                                ";
    size_t n = (size_t)indent * 2;
    while (n > 0) {
        size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        airc_sb_putn(sb, spaces, k);
        n -= k;
    }
}

/* protobuf's CEscape */
static void put_escaped(airc_strbuf *sb, const uint8_t *p, size_t n)
{
    size_t run = 0; /* start of the pending literal run */
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        const char *esc = NULL;
        char oct[5];
        switch (c) {
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        case '"': esc = "\\\""; break;
        case '\'': esc = "\\'"; break;
        case '\\': esc = "\\\\"; break;
        default:
            if (c < 0x20 || c >= 0x7f) {
                snprintf(oct, sizeof oct, "\\%03o", (unsigned)c);
                esc = oct;
            }
        }
        if (!esc)
            continue;
        airc_sb_putn(sb, (const char *)p + run, i - run);
        airc_sb_puts(sb, esc);
        run = i + 1;
    }
    airc_sb_putn(sb, (const char *)p + run, n - run);
}

static void put_quoted(airc_strbuf *sb, const uint8_t *p, size_t n)
{
    airc_sb_putc(sb, '"');
    put_escaped(sb, p, n);
    airc_sb_putc(sb, '"');
}

/* A decimal comma from the C locale becomes a point (DelocalizeRadix). */
static void delocalize(char *buf)
{
    for (char *c = buf; *c; c++)
        if (*c == ',')
            *c = '.';
}

static void put_float(airc_strbuf *sb, float v)
{
    char buf[48];
    if (isinf(v)) {
        airc_sb_puts(sb, v > 0 ? "inf" : "-inf");
        return;
    }
    if (isnan(v)) {
        airc_sb_puts(sb, "nan");
        return;
    }
    snprintf(buf, sizeof buf, "%.*g", FLT_DIG, (double)v);
    char *end = NULL;
    errno = 0; /* protobuf's safe_strtof: underflow (a subnormal) fails too */
    float back = strtof(buf, &end);
    if (*end != '\0' || errno != 0 || back != v)
        snprintf(buf, sizeof buf, "%.*g", FLT_DIG + 3, (double)v);
    delocalize(buf);
    airc_sb_puts(sb, buf);
}

static void put_double(airc_strbuf *sb, double v)
{
    char buf[48];
    if (isinf(v)) {
        airc_sb_puts(sb, v > 0 ? "inf" : "-inf");
        return;
    }
    if (isnan(v)) {
        airc_sb_puts(sb, "nan");
        return;
    }
    snprintf(buf, sizeof buf, "%.*g", DBL_DIG, v);
    char *end = NULL;
    errno = 0;
    double back = strtod(buf, &end);
    if (*end != '\0' || errno != 0 || back != v)
        snprintf(buf, sizeof buf, "%.*g", DBL_DIG + 2, v);
    delocalize(buf);
    airc_sb_puts(sb, buf);
}

/* Size of one element of a repeated field's array. */
static size_t elem_size(ProtobufCType t)
{
    switch (t) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_ENUM: return 4;
    case PROTOBUF_C_TYPE_FLOAT: return sizeof(float);
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64: return 8;
    case PROTOBUF_C_TYPE_DOUBLE: return sizeof(double);
    case PROTOBUF_C_TYPE_BOOL: return sizeof(protobuf_c_boolean);
    case PROTOBUF_C_TYPE_STRING: return sizeof(char *);
    case PROTOBUF_C_TYPE_BYTES: return sizeof(ProtobufCBinaryData);
    case PROTOBUF_C_TYPE_MESSAGE: return sizeof(ProtobufCMessage *);
    }
    return 0;
}

/* Writes a non-message value (the text after "name: "). */
static void put_scalar(airc_strbuf *sb, const ProtobufCFieldDescriptor *f, const void *v)
{
    switch (f->type) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32: airc_sb_printf(sb, "%d", *(const int32_t *)v); break;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32: airc_sb_printf(sb, "%u", *(const uint32_t *)v); break;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
        airc_sb_printf(sb, "%lld", (long long)*(const int64_t *)v);
        break;
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
        airc_sb_printf(sb, "%llu", (unsigned long long)*(const uint64_t *)v);
        break;
    case PROTOBUF_C_TYPE_FLOAT: put_float(sb, *(const float *)v); break;
    case PROTOBUF_C_TYPE_DOUBLE: put_double(sb, *(const double *)v); break;
    case PROTOBUF_C_TYPE_BOOL:
        airc_sb_puts(sb, *(const protobuf_c_boolean *)v ? "true" : "false");
        break;
    case PROTOBUF_C_TYPE_ENUM: {
        int32_t e = *(const int32_t *)v;
        const ProtobufCEnumValue *ev =
            protobuf_c_enum_descriptor_get_value((const ProtobufCEnumDescriptor *)f->descriptor, e);
        if (ev)
            airc_sb_puts(sb, ev->name);
        else
            airc_sb_printf(sb, "%d", e);
        break;
    }
    case PROTOBUF_C_TYPE_STRING: {
        const char *s = *(const char *const *)v;
        s = s ? s : "";
        put_quoted(sb, (const uint8_t *)s, strlen(s));
        break;
    }
    case PROTOBUF_C_TYPE_BYTES: {
        const ProtobufCBinaryData *b = v;
        put_quoted(sb, b->data, b->data ? b->len : 0);
        break;
    }
    case PROTOBUF_C_TYPE_MESSAGE: break;
    }
}

/* protobuf-c's field_is_zeroish: a proto3 scalar it leaves off the wire. */
static bool is_zeroish(const ProtobufCFieldDescriptor *f, const void *v)
{
    switch (f->type) {
    case PROTOBUF_C_TYPE_BOOL: return *(const protobuf_c_boolean *)v == 0;
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_ENUM: return *(const uint32_t *)v == 0;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64: return *(const uint64_t *)v == 0;
    case PROTOBUF_C_TYPE_FLOAT: return *(const float *)v == 0;
    case PROTOBUF_C_TYPE_DOUBLE: return *(const double *)v == 0;
    case PROTOBUF_C_TYPE_STRING: {
        const char *s = *(const char *const *)v;
        return !s || !*s;
    }
    case PROTOBUF_C_TYPE_BYTES: return ((const ProtobufCBinaryData *)v)->data == NULL;
    case PROTOBUF_C_TYPE_MESSAGE: return *(const void *const *)v == NULL;
    }
    return true;
}

static airc_status print_message(txt_writer *w, const ProtobufCMessage *m, int indent);
static void print_unknown(txt_writer *w, const ProtobufCMessageUnknownField *u, int indent);

static airc_status print_value(txt_writer *w, const ProtobufCFieldDescriptor *f, const void *v,
                               int indent)
{
    put_indent(w->out, indent);
    airc_sb_puts(w->out, f->name);
    if (f->type != PROTOBUF_C_TYPE_MESSAGE) {
        airc_sb_puts(w->out, ": ");
        put_scalar(w->out, f, v);
        airc_sb_putc(w->out, '\n');
        return AIRC_OK;
    }
    airc_sb_puts(w->out, " {\n");
    const ProtobufCMessage *sub = *(const ProtobufCMessage *const *)v;
    if (sub)
        AIRC_TRY(print_message(w, sub, indent + 1));
    put_indent(w->out, indent);
    airc_sb_puts(w->out, "}\n");
    return AIRC_OK;
}

/* ---- map fields ---------------------------------------------------------- */

/* protoc names a map field's entry type after the field in CamelCase plus
 * "Entry" and gives it key = 1 and value = 2: what tells a map field from a
 * repeated message field, since protobuf-c's descriptors carry no map flag. */
static bool is_map_field(const ProtobufCFieldDescriptor *f)
{
    if (f->label != PROTOBUF_C_LABEL_REPEATED || f->type != PROTOBUF_C_TYPE_MESSAGE)
        return false;
    const ProtobufCMessageDescriptor *d = f->descriptor;
    if (d->n_fields != 2 || strcmp(d->fields[0].name, "key") != 0 || d->fields[0].id != 1 ||
        strcmp(d->fields[1].name, "value") != 0 || d->fields[1].id != 2)
        return false;
    char want[256];
    size_t n = 0;
    bool upper = true;
    for (const char *c = f->name; *c; c++) {
        if (*c == '_') {
            upper = true;
            continue;
        }
        if (n + 8 >= sizeof want)
            return false;
        want[n++] = upper && *c >= 'a' && *c <= 'z' ? (char)(*c - 'a' + 'A') : *c;
        upper = false;
    }
    memcpy(want + n, "Entry", 6);
    return strcmp(d->short_name, want) == 0;
}

typedef struct map_item {
    const ProtobufCMessage *entry;
    size_t index; /* position in the field: keeps the sort stable */
} map_item;

static int key_cmp(const ProtobufCMessage *a, const ProtobufCMessage *b)
{
    const ProtobufCFieldDescriptor *k = &a->descriptor->fields[0];
    const void *va = (const char *)a + k->offset;
    const void *vb = (const char *)b + k->offset;
    switch (k->type) {
    case PROTOBUF_C_TYPE_STRING: {
        const char *sa = *(const char *const *)va, *sb = *(const char *const *)vb;
        return strcmp(sa ? sa : "", sb ? sb : ""); /* compares as unsigned char */
    }
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32: {
        int32_t x = *(const int32_t *)va, y = *(const int32_t *)vb;
        return (x > y) - (x < y);
    }
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32: {
        uint32_t x = *(const uint32_t *)va, y = *(const uint32_t *)vb;
        return (x > y) - (x < y);
    }
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64: {
        int64_t x = *(const int64_t *)va, y = *(const int64_t *)vb;
        return (x > y) - (x < y);
    }
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64: {
        uint64_t x = *(const uint64_t *)va, y = *(const uint64_t *)vb;
        return (x > y) - (x < y);
    }
    case PROTOBUF_C_TYPE_BOOL: {
        int x = *(const protobuf_c_boolean *)va != 0, y = *(const protobuf_c_boolean *)vb != 0;
        return x - y;
    }
    default: return 0; /* no other key type exists */
    }
}

static int item_cmp(const void *pa, const void *pb)
{
    const map_item *a = pa, *b = pb;
    int c = key_cmp(a->entry, b->entry);
    if (c != 0)
        return c;
    return (a->index > b->index) - (a->index < b->index);
}

static airc_status print_map(txt_writer *w, const ProtobufCFieldDescriptor *f,
                             ProtobufCMessage *const *entries, size_t n, int indent)
{
    map_item stack[32];
    map_item *items = stack;
    if (n > sizeof stack / sizeof stack[0]) {
        if (n > SIZE_MAX / sizeof *items || !(items = airc_malloc(w->out->ctx, n * sizeof *items)))
            return airc_fail_oom("map entries of a txt dump");
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (entries[i]) /* a NULL entry is not packed */
            items[m++] = (map_item){entries[i], i};
    qsort(items, m, sizeof *items, item_cmp);
    const ProtobufCMessageDescriptor *ed = f->descriptor;
    airc_status st = AIRC_OK;
    for (size_t i = 0; i < m && st == AIRC_OK; i++) {
        const char *e = (const char *)items[i].entry;
        put_indent(w->out, indent);
        airc_sb_puts(w->out, f->name);
        airc_sb_puts(w->out, " {\n");
        st = print_value(w, &ed->fields[0], e + ed->fields[0].offset, indent + 1);
        if (st == AIRC_OK)
            st = print_value(w, &ed->fields[1], e + ed->fields[1].offset, indent + 1);
        for (unsigned u = 0; u < items[i].entry->n_unknown_fields; u++)
            print_unknown(w, &items[i].entry->unknown_fields[u], indent + 1);
        put_indent(w->out, indent);
        airc_sb_puts(w->out, "}\n");
    }
    if (items != stack)
        airc_free(w->out->ctx, items);
    return st;
}

/* ---- unknown fields ------------------------------------------------------- */

/* Reads a varint of at most 10 bytes; false when truncated or longer. */
static bool read_varint(const uint8_t *p, size_t n, size_t *pos, uint64_t *v)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < 10; i++) {
        if (*pos >= n)
            return false;
        uint8_t b = p[(*pos)++];
        r |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            *v = r;
            return true;
        }
    }
    return false;
}

/* Whether p[pos..n) parses as protobuf's UnknownFieldSet: up to the end (top
 * level, group == 0) or to the END_GROUP tag of group number `group`, with
 * at most `budget` nested groups. */
static bool unknown_parses(const uint8_t *p, size_t n, size_t *pos, uint32_t group, int budget)
{
    for (;;) {
        if (*pos == n)
            return group == 0;
        uint64_t tag64, v;
        if (!read_varint(p, n, pos, &tag64))
            return false;
        uint32_t tag = (uint32_t)tag64, num = tag >> 3;
        if (tag == 0)
            return false;
        switch (tag & 7) {
        case 0:
            if (!read_varint(p, n, pos, &v))
                return false;
            break;
        case 1:
            if (n - *pos < 8)
                return false;
            *pos += 8;
            break;
        case 5:
            if (n - *pos < 4)
                return false;
            *pos += 4;
            break;
        case 2:
            if (!read_varint(p, n, pos, &v))
                return false;
            v = (uint32_t)v;
            if (num == 0 || v > n - *pos)
                return false;
            *pos += (size_t)v;
            break;
        case 3:
            if (num == 0 || budget <= 0 || !unknown_parses(p, n, pos, num, budget - 1))
                return false;
            break;
        case 4: return group != 0 && num == group;
        default: return false;
        }
        if (num == 0)
            return false;
    }
}

static void print_unknown_set(txt_writer *w, const uint8_t *p, size_t n, size_t *pos,
                              uint32_t group, int indent, int budget);

/* One length-delimited unknown field's payload. */
static void print_unknown_bytes(txt_writer *w, uint32_t num, const uint8_t *p, size_t n, int indent,
                                int budget)
{
    size_t pos = 0;
    put_indent(w->out, indent);
    airc_sb_printf(w->out, "%u", num);
    if (n > 0 && budget > 0 && unknown_parses(p, n, &pos, 0, budget)) {
        airc_sb_puts(w->out, " {\n");
        pos = 0;
        print_unknown_set(w, p, n, &pos, 0, indent + 1, budget - 1);
        put_indent(w->out, indent);
        airc_sb_puts(w->out, "}\n");
        return;
    }
    airc_sb_puts(w->out, ": ");
    put_quoted(w->out, p, n);
    airc_sb_putc(w->out, '\n');
}

static uint64_t read_le(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* Prints a field set that unknown_parses accepted. */
static void print_unknown_set(txt_writer *w, const uint8_t *p, size_t n, size_t *pos,
                              uint32_t group, int indent, int budget)
{
    while (*pos < n) {
        uint64_t tag64 = 0, v = 0;
        read_varint(p, n, pos, &tag64);
        uint32_t tag = (uint32_t)tag64, num = tag >> 3;
        switch (tag & 7) {
        case 0:
            read_varint(p, n, pos, &v);
            put_indent(w->out, indent);
            airc_sb_printf(w->out, "%u: %llu\n", num, (unsigned long long)v);
            break;
        case 1:
            put_indent(w->out, indent);
            airc_sb_printf(w->out, "%u: 0x%016llx\n", num,
                           (unsigned long long)read_le(p + *pos, 8));
            *pos += 8;
            break;
        case 5:
            put_indent(w->out, indent);
            airc_sb_printf(w->out, "%u: 0x%08x\n", num, (unsigned)read_le(p + *pos, 4));
            *pos += 4;
            break;
        case 2:
            read_varint(p, n, pos, &v);
            v = (uint32_t)v;
            print_unknown_bytes(w, num, p + *pos, (size_t)v, indent, budget);
            *pos += (size_t)v;
            break;
        case 3:
            put_indent(w->out, indent);
            airc_sb_printf(w->out, "%u {\n", num);
            print_unknown_set(w, p, n, pos, num, indent + 1, budget - 1);
            put_indent(w->out, indent);
            airc_sb_puts(w->out, "}\n");
            break;
        default: /* 4: the END_GROUP of `group` */ (void)group; return;
        }
    }
}

/* protobuf-c keeps an unknown field as its wire bytes after the tag. */
static void print_unknown(txt_writer *w, const ProtobufCMessageUnknownField *u, int indent)
{
    const uint8_t *p = u->data;
    size_t n = u->data ? u->len : 0, pos = 0;
    uint64_t v = 0;
    switch (u->wire_type) {
    case PROTOBUF_C_WIRE_TYPE_VARINT:
        read_varint(p, n, &pos, &v);
        put_indent(w->out, indent);
        airc_sb_printf(w->out, "%u: %llu\n", u->tag, (unsigned long long)v);
        break;
    case PROTOBUF_C_WIRE_TYPE_64BIT:
        put_indent(w->out, indent);
        airc_sb_printf(w->out, "%u: 0x%016llx\n", u->tag,
                       (unsigned long long)(n >= 8 ? read_le(p, 8) : 0));
        break;
    case PROTOBUF_C_WIRE_TYPE_32BIT:
        put_indent(w->out, indent);
        airc_sb_printf(w->out, "%u: 0x%08x\n", u->tag, (unsigned)(n >= 4 ? read_le(p, 4) : 0));
        break;
    case PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED:
        /* the data starts with the length varint */
        if (!read_varint(p, n, &pos, &v) || v > n - pos)
            v = 0;
        print_unknown_bytes(w, u->tag, p + pos, (size_t)v, indent, TXT_UNKNOWN_BUDGET);
        break;
    default: break; /* protobuf-c keeps no group */
    }
}

/* ---- messages ------------------------------------------------------------- */

static airc_status print_message(txt_writer *w, const ProtobufCMessage *m, int indent)
{
    if (indent > TXT_MAX_DEPTH)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "txt dump: message %s nested deeper than %d levels", m->descriptor->name,
                         TXT_MAX_DEPTH);
    const ProtobufCMessageDescriptor *d = m->descriptor;
    const char *base = (const char *)m;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        const void *v = base + f->offset;
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n = *(const size_t *)(base + f->quantifier_offset);
            const char *arr = *(const char *const *)v;
            if (n == 0 || !arr)
                continue;
            if (is_map_field(f)) {
                AIRC_TRY(print_map(w, f, (ProtobufCMessage *const *)arr, n, indent));
                continue;
            }
            size_t sz = elem_size(f->type);
            for (size_t j = 0; j < n; j++) {
                if (f->type == PROTOBUF_C_TYPE_MESSAGE && !((ProtobufCMessage *const *)arr)[j])
                    continue;
                AIRC_TRY(print_value(w, f, arr + j * sz, indent));
            }
            continue;
        }
        bool ptr_type = f->type == PROTOBUF_C_TYPE_MESSAGE || f->type == PROTOBUF_C_TYPE_STRING;
        if (ptr_type && *(const void *const *)v == NULL)
            continue;
        if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
            if (*(const uint32_t *)(base + f->quantifier_offset) != f->id)
                continue;
        } else if (f->label == PROTOBUF_C_LABEL_OPTIONAL) {
            if (ptr_type ? *(const void *const *)v == f->default_value
                         : !*(const protobuf_c_boolean *)(base + f->quantifier_offset))
                continue;
        } else if (f->label == PROTOBUF_C_LABEL_NONE) {
            if (is_zeroish(f, v))
                continue;
        }
        AIRC_TRY(print_value(w, f, v, indent));
    }
    for (unsigned i = 0; i < m->n_unknown_fields; i++)
        print_unknown(w, &m->unknown_fields[i], indent);
    return AIRC_OK;
}

airc_status airc_ge_text_message(const ProtobufCMessage *msg, int indent, airc_strbuf *out)
{
    if (!msg || !out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "txt dump: %s is NULL",
                         !msg ? "the message" : "the output buffer");
    if (!msg->descriptor || msg->descriptor->magic != PROTOBUF_C__MESSAGE_DESCRIPTOR_MAGIC)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "txt dump: not a protobuf-c message");
    size_t start = out->len;
    txt_writer w = {out};
    airc_status st = print_message(&w, msg, indent < 0 ? 0 : indent);
    if (st == AIRC_OK && out->oom)
        st = airc_fail_oom("txt dump text");
    if (st != AIRC_OK && out->data) {
        out->len = start;
        out->data[start] = '\0';
    }
    return st;
}

airc_status airc_ge_dump_txt(const Ge__Proto__GraphDef *g, airc_strbuf *out)
{
    if (!g || !out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_ge_dump_txt: %s is NULL",
                         !g ? "the graph" : "the output buffer");
    if (g->base.descriptor != &ge__proto__graph_def__descriptor)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_ge_dump_txt: not a ge.proto.GraphDef");
    return airc_ge_text_message(&g->base, 0, out);
}
