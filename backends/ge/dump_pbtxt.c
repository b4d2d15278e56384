/* `pbtxt` graph dump: TensorFlow-GraphDef-style text that Netron and
 * TensorBoard open, written the way TorchAir writes it.
 *
 * Followed: Ascend/torchair python/torchair/_ge_concrete_graph/utils.py,
 * _GraphPbtxt / convert_to_pbtxt (called by dump_graph for any path not
 * ending in .txt or .py), with torch._inductor's IndentedBuffer (four spaces
 * a level, every line ended by '\n'). Per OpDef, in GraphDef order:
 *
 *   node {
 *       name: "<op.name>"
 *       op: "<op.type>"
 *       input: "<op.input[i]>"        data edges as they are: "add:0" stays
 *                                     "add:0" (TorchAir does not shorten
 *                                     ":0"), "" (absent optional) stays ""
 *       input: "^<name>"              an input whose text after the first
 *                                     ':' (up to a second ':') is "-1"
 *       attr {                        one per OpDef.attr entry, in the
 *           key: "<key>"              entries' order (the order airc's
 *           value {                   lowering adds them; Python's map
 *               s: '<str(AttrDef)>'   order is its hash table's)
 *           }
 *       }
 *       attr { key: "[i]<desc.name>" value { s: '<str(TensorDescriptor)>' } }
 *                                     per input_desc, then "[o]<name>" per
 *                                     output_desc, laid out like the above
 *   }
 *
 * TorchAir does not map AttrDef to TensorFlow's AttrValue kinds (i:, f:,
 * list {}, type: DT_...): every value, descriptors included, is `s:` holding
 * the protobuf text of the AttrDef / TensorDescriptor (str(v)), written as
 * Python writes repr(bytes)[1:]: single quotes (double quotes when the text
 * holds ' and no "), \\ \' \t \n \r escaped, other bytes below 0x20 or from
 * 0x7f as \xhh. That text is airc_ge_text_message's, protoc's format: Python
 * protobuf prints floats by version (1.0 or 0.10000000149011612 where protoc
 * prints 1 and 0.1), so airc keeps the one spelling of the txt dump.
 * Graph name, graph inputs/outputs and graph attributes are not written
 * (TorchAir writes only the nodes); an empty graph gives an empty text.
 *
 * name/op/input/key are written f'"{v}"' by TorchAir, unescaped; airc
 * writes them the same way except that '"', '\\' and control bytes are
 * C-escaped (\", \\, \n, \t, \r, octal), so a name that would break the
 * text still reads back; bytes from 0x80 (UTF-8) are written as they are. */
#include "backends/ge/dump.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_indent(airc_strbuf *sb, int level)
{
    for (int i = 0; i < level; i++)
        airc_sb_putn(sb, "    ", 4);
}

/* A `k: "v"` line (TorchAir's _GraphPbtxt.set for a str). */
static void put_str_line(airc_strbuf *sb, int level, const char *k, const char *prefix,
                         const char *v)
{
    put_indent(sb, level);
    airc_sb_puts(sb, k);
    airc_sb_puts(sb, ": \"");
    airc_sb_puts(sb, prefix);
    v = v ? v : "";
    size_t run = 0, n = strlen(v);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)v[i];
        const char *esc = NULL;
        char oct[5];
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\n': esc = "\\n"; break;
        case '\t': esc = "\\t"; break;
        case '\r': esc = "\\r"; break;
        default:
            if (c < 0x20 || c == 0x7f) {
                snprintf(oct, sizeof oct, "\\%03o", (unsigned)c);
                esc = oct;
            }
        }
        if (!esc)
            continue;
        airc_sb_putn(sb, v + run, i - run);
        airc_sb_puts(sb, esc);
        run = i + 1;
    }
    airc_sb_putn(sb, v + run, n - run);
    airc_sb_puts(sb, "\"\n");
}

/* Python's repr(bytes)[1:]: the quoted literal without the b. */
static void put_py_bytes(airc_strbuf *sb, const char *p, size_t n)
{
    bool has_sq = memchr(p, '\'', n) != NULL, has_dq = memchr(p, '"', n) != NULL;
    char quote = has_sq && !has_dq ? '"' : '\'';
    airc_sb_putc(sb, quote);
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        char esc[5] = {0};
        if (c == '\\' || c == (unsigned char)quote) {
            esc[0] = '\\';
            esc[1] = (char)c;
        } else if (c == '\t' || c == '\n' || c == '\r') {
            esc[0] = '\\';
            esc[1] = c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
        } else if (c < 0x20 || c >= 0x7f) {
            snprintf(esc, sizeof esc, "\\x%02x", (unsigned)c);
        } else {
            continue;
        }
        airc_sb_putn(sb, p + run, i - run);
        airc_sb_puts(sb, esc);
        run = i + 1;
    }
    airc_sb_putn(sb, p + run, n - run);
    airc_sb_putc(sb, quote);
}

/* attr { key: "<prefix><key>" value { s: '<text of msg>' } } */
static airc_status put_attr(airc_strbuf *sb, airc_strbuf *tmp, int level, const char *prefix,
                            const char *key, const ProtobufCMessage *msg)
{
    tmp->len = 0;
    if (tmp->data)
        tmp->data[0] = '\0';
    if (msg)
        AIRC_TRY(airc_ge_text_message(msg, 0, tmp));
    put_indent(sb, level);
    airc_sb_puts(sb, "attr {\n");
    put_str_line(sb, level + 1, "key", prefix, key);
    put_indent(sb, level + 1);
    airc_sb_puts(sb, "value {\n");
    put_indent(sb, level + 2);
    airc_sb_puts(sb, "s: ");
    put_py_bytes(sb, tmp->data ? tmp->data : "", tmp->len);
    airc_sb_putc(sb, '\n');
    put_indent(sb, level + 1);
    airc_sb_puts(sb, "}\n");
    put_indent(sb, level);
    airc_sb_puts(sb, "}\n");
    return AIRC_OK;
}

static airc_status put_node(airc_strbuf *sb, airc_strbuf *tmp, const Ge__Proto__OpDef *op)
{
    put_indent(sb, 0);
    airc_sb_puts(sb, "node {\n");
    put_str_line(sb, 1, "name", "", op->name);
    put_str_line(sb, 1, "op", "", op->type);
    for (size_t i = 0; i < op->n_input; i++) {
        const char *in = op->input[i] ? op->input[i] : "";
        const char *colon = strchr(in, ':');
        if (colon && strncmp(colon + 1, "-1", 2) == 0 && (colon[3] == '\0' || colon[3] == ':')) {
            /* TorchAir: input.split(":")[1] == "-1" -> "^" + split[0] */
            size_t len = (size_t)(colon - in);
            char small[128];
            char *name = len < sizeof small ? small : airc_malloc(sb->ctx, len + 1);
            if (!name)
                return airc_fail_oom("control input of a pbtxt dump");
            memcpy(name, in, len);
            name[len] = '\0';
            put_str_line(sb, 1, "input", "^", name);
            if (name != small)
                airc_free(sb->ctx, name);
        } else {
            put_str_line(sb, 1, "input", "", in);
        }
    }
    for (size_t i = 0; i < op->n_attr; i++) {
        const Ge__Proto__OpDef__AttrEntry *e = op->attr[i];
        if (e)
            AIRC_TRY(put_attr(sb, tmp, 1, "", e->key, e->value ? &e->value->base : NULL));
    }
    for (size_t i = 0; i < op->n_input_desc; i++) {
        const Ge__Proto__TensorDescriptor *d = op->input_desc[i];
        if (d)
            AIRC_TRY(put_attr(sb, tmp, 1, "[i]", d->name, &d->base));
    }
    for (size_t i = 0; i < op->n_output_desc; i++) {
        const Ge__Proto__TensorDescriptor *d = op->output_desc[i];
        if (d)
            AIRC_TRY(put_attr(sb, tmp, 1, "[o]", d->name, &d->base));
    }
    put_indent(sb, 0);
    airc_sb_puts(sb, "}\n");
    return AIRC_OK;
}

airc_status airc_ge_dump_pbtxt(const Ge__Proto__GraphDef *g, airc_strbuf *out)
{
    if (!g || !out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_ge_dump_pbtxt: %s is NULL",
                         !g ? "the graph" : "the output buffer");
    if (g->base.descriptor != &ge__proto__graph_def__descriptor)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_ge_dump_pbtxt: not a ge.proto.GraphDef");
    size_t start = out->len;
    airc_strbuf tmp;
    airc_sb_init(&tmp, out->ctx);
    airc_status st = AIRC_OK;
    for (size_t i = 0; i < g->n_op && st == AIRC_OK; i++)
        if (g->op[i])
            st = put_node(out, &tmp, g->op[i]);
    if (st == AIRC_OK && out->oom)
        st = airc_fail_oom("pbtxt dump text");
    if (st != AIRC_OK)
        airc_fail_prefix("pbtxt dump of graph \"%s\"", g->name ? g->name : "");
    airc_sb_free(&tmp);
    if (st != AIRC_OK && out->data) {
        out->len = start;
        out->data[start] = '\0';
    }
    return st;
}
