/* Printer of the torch.fx text format: byte for byte torch 1.13's
 * str(graph) (Graph.__str__ / Node.format_node / _format_arg): the header
 * `graph():`, then "\n    " + one line per node, and no trailing newline.
 *
 * airc's additions, all read back by text_parse.c:
 * - the type slot (`%x : f32[2, 3] [#users=1] = ...`, torch's place for
 *   node.type) for nodes whose text carried one, or every node with meta
 *   under AIRC_PRINT_TYPES;
 * - strings are unquoted as torch prints them only when they read back as
 *   the same string, and quoted repr-style otherwise;
 * - nested graphs follow the main one, each as
 *       "\n\n# submodule PATH\n" + its own `graph():` block
 *   in pre-order (a parent before its children), PATH being the dotted path
 *   from the main graph (`fused_0`, `fused_0.inner`). The blank line keeps
 *   the blocks apart for readers; the parser ignores blank lines. */
#include "ir/text_lex.h"
#include "ops/ops.h"

#include <inttypes.h>
#include <string.h>

/* Args mode is _format_arg (node refs as %name, strings bare); output mode
 * is Python's str() of the output structure (node refs bare, so every
 * other identifier-like value must be spelled unambiguously). */
typedef enum { MODE_ARGS, MODE_OUTPUT } print_mode;

static void put_value(airc_strbuf *sb, const airc_value *v, print_mode mode);

static void put_items(airc_strbuf *sb, const airc_value *const *items, size_t n, print_mode mode)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            airc_sb_puts(sb, ", ");
        put_value(sb, items[i], mode);
    }
}

static void put_tuple(airc_strbuf *sb, const airc_value *const *items, size_t n, print_mode mode)
{
    airc_sb_putc(sb, '(');
    put_items(sb, items, n, mode);
    if (n == 1)
        airc_sb_putc(sb, ',');
    airc_sb_putc(sb, ')');
}

static void put_device(airc_strbuf *sb, const airc_value *v, print_mode mode)
{
    const char *type = v->u.dev.type;
    /* str(device) is `cuda:0`; repr is needed where a bare word would be
     * read as something else (output mode, unknown device types) */
    if (mode == MODE_ARGS && airc_text_is_device_type(type, strlen(type))) {
        airc_sb_puts(sb, type);
        if (v->u.dev.index >= 0)
            airc_sb_printf(sb, ":%d", (int)v->u.dev.index);
        return;
    }
    airc_sb_puts(sb, "device(type=");
    airc_text_put_quoted(sb, type, strlen(type));
    if (v->u.dev.index >= 0)
        airc_sb_printf(sb, ", index=%d", (int)v->u.dev.index);
    airc_sb_putc(sb, ')');
}

static bool is_literal_word(const char *s)
{
    static const char *const words[] = {"True", "False", "None", "inf", "nan"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strcmp(s, words[i]))
            return true;
    return false;
}

static void put_value(airc_strbuf *sb, const airc_value *v, print_mode mode)
{
    char buf[32];
    const char *s;
    switch (v ? v->kind : AIRC_VALUE_NONE) {
    case AIRC_VALUE_NONE:
        airc_sb_puts(sb, "None");
        return;
    case AIRC_VALUE_INT:
        airc_sb_printf(sb, "%" PRId64, v->u.i);
        return;
    case AIRC_VALUE_FLOAT:
        airc_format_double(v->u.f, buf);
        airc_sb_puts(sb, buf);
        return;
    case AIRC_VALUE_BOOL:
        airc_sb_puts(sb, v->u.b ? "True" : "False");
        return;
    case AIRC_VALUE_STRING:
        if (mode == MODE_ARGS && airc_text_is_bare_string(v->u.s, v->len))
            airc_sb_putn(sb, v->u.s, v->len);
        else
            airc_text_put_quoted(sb, v->u.s, v->len);
        return;
    case AIRC_VALUE_NODE:
        /* torch writes output refs bare; a name that would read back as a
         * literal (a node named `nan`) keeps its '%', which the parser
         * accepts there too */
        if (mode == MODE_ARGS || is_literal_word(v->u.node->name))
            airc_sb_putc(sb, '%');
        airc_sb_puts(sb, v->u.node->name);
        return;
    case AIRC_VALUE_DTYPE:
        s = airc_dtype_torch_name(v->u.dtype);
        airc_sb_puts(sb, s ? s : "None");
        return;
    case AIRC_VALUE_DEVICE:
        put_device(sb, v, mode);
        return;
    case AIRC_VALUE_MEMORY_FORMAT:
        s = airc_text_memory_format_name(v->u.e);
        airc_sb_puts(sb, s ? s : "None");
        return;
    case AIRC_VALUE_LAYOUT:
        s = airc_text_layout_name(v->u.e);
        airc_sb_puts(sb, s ? s : "None");
        return;
    case AIRC_VALUE_LIST:
        airc_sb_putc(sb, '[');
        put_items(sb, v->u.items, v->len, mode);
        airc_sb_putc(sb, ']');
        return;
    case AIRC_VALUE_TUPLE:
        put_tuple(sb, v->u.items, v->len, mode);
        return;
    default:
        airc_sb_puts(sb, "None");
        return;
    }
}

static void put_dims(airc_strbuf *sb, const int64_t *d, int32_t n, char open, char close)
{
    airc_sb_putc(sb, open);
    for (int32_t i = 0; i < n; i++)
        airc_sb_printf(sb, i ? ", %" PRId64 : "%" PRId64, d[i]);
    airc_sb_putc(sb, close);
}

static void put_tmeta(airc_strbuf *sb, const airc_tmeta *m)
{
    airc_sb_puts(sb, airc_dtype_name(m->dtype));
    put_dims(sb, m->shape, m->ndim, '[', ']');
    if (!airc_tmeta_is_contiguous(m))
        put_dims(sb, m->strides, m->ndim, '{', '}');
}

static bool printable_meta(const airc_node *n)
{
    if (n->meta_kind == AIRC_META_NONE || (n->meta_kind == AIRC_META_TENSOR && n->nout < 1))
        return false;
    for (uint32_t i = 0; i < n->nout; i++)
        if (!airc_dtype_name(n->out[i].dtype))
            return false;
    return true;
}

static void put_type_slot(airc_strbuf *sb, const airc_node *n, uint32_t flags)
{
    if (flags & AIRC_PRINT_NO_TYPES)
        return;
    if (!(n->type_annotated || (flags & AIRC_PRINT_TYPES)) || !printable_meta(n))
        return;
    if (n->meta_kind == AIRC_META_TENSOR) {
        put_tmeta(sb, &n->out[0]);
    } else {
        airc_sb_putc(sb, '(');
        for (uint32_t i = 0; i < n->nout; i++) {
            if (i)
                airc_sb_puts(sb, ", ");
            put_tmeta(sb, &n->out[i]);
        }
        if (n->nout == 1)
            airc_sb_putc(sb, ',');
        airc_sb_putc(sb, ')');
    }
    airc_sb_putc(sb, ' ');
}

static const char *kind_word(airc_node_kind k)
{
    switch (k) {
    case AIRC_NODE_PLACEHOLDER:
        return "placeholder";
    case AIRC_NODE_GET_ATTR:
        return "get_attr";
    case AIRC_NODE_CALL_FUNCTION:
        return "call_function";
    case AIRC_NODE_CALL_MODULE:
        return "call_module";
    default:
        return "output";
    }
}

static void put_uint(airc_strbuf *sb, size_t v)
{
    char buf[24];
    size_t i = sizeof buf;
    do {
        buf[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    airc_sb_putn(sb, buf + i, sizeof buf - i);
}

static void put_node(airc_strbuf *sb, const airc_graph *g, const airc_node *n, uint32_t flags)
{
    airc_sb_puts(sb, "\n    ");
    if (n->kind == AIRC_NODE_OUTPUT) {
        airc_sb_puts(sb, "return ");
        put_value(sb, n->nargs ? n->args[0] : NULL, MODE_OUTPUT);
        return;
    }
    /* pieces rather than printf: this runs once per node of graphs of a
     * million nodes */
    airc_sb_putc(sb, '%');
    airc_sb_puts(sb, n->name);
    airc_sb_puts(sb, " : ");
    put_type_slot(sb, n, flags);
    airc_sb_puts(sb, g->num_users_style ? "[num_users=" : "[#users=");
    put_uint(sb, n->nusers);
    airc_sb_puts(sb, "] = ");
    airc_sb_puts(sb, kind_word(n->kind));
    airc_sb_puts(sb, "[target=");
    if (n->kind == AIRC_NODE_CALL_FUNCTION && n->op)
        airc_sb_puts(sb, airc_op_target_string(n->op));
    else
        airc_sb_puts(sb, n->target ? n->target : "");
    airc_sb_putc(sb, ']');
    if (n->kind == AIRC_NODE_PLACEHOLDER) {
        if (n->nargs) {
            airc_sb_puts(sb, "(default=");
            put_value(sb, n->args[0], MODE_ARGS);
            airc_sb_putc(sb, ')');
        }
        return;
    }
    if (n->kind == AIRC_NODE_GET_ATTR)
        return;
    airc_sb_puts(sb, "(args = ");
    put_tuple(sb, n->args, n->nargs, MODE_ARGS);
    airc_sb_puts(sb, ", kwargs = {");
    for (uint32_t i = 0; i < n->nkw; i++) {
        const char *k = n->kw_names[i];
        if (i)
            airc_sb_puts(sb, ", ");
        if (airc_text_is_identifier(k, strlen(k)))
            airc_sb_puts(sb, k);
        else
            airc_text_put_quoted(sb, k, strlen(k));
        airc_sb_puts(sb, ": ");
        put_value(sb, n->kw_values[i], MODE_ARGS);
    }
    airc_sb_puts(sb, "})");
}

static void put_block(airc_strbuf *sb, const airc_graph *g, uint32_t flags)
{
    airc_sb_puts(sb, "graph():");
    AIRC_FOR_EACH_NODE(g, n)
        put_node(sb, g, n, flags);
}

/* path holds the parent's dotted path; it is extended and restored. */
static void put_submodules(airc_strbuf *sb, const airc_graph *g, airc_strbuf *path, uint32_t flags)
{
    for (size_t i = 0; i < g->nsubs; i++) {
        size_t keep = path->len;
        if (keep)
            airc_sb_putc(path, '.');
        airc_sb_puts(path, g->sub_names[i]);
        if (path->oom)
            return; /* reported by airc_graph_print */
        airc_sb_puts(sb, "\n\n# submodule ");
        airc_sb_putn(sb, airc_sb_cstr(path), path->len);
        airc_sb_putc(sb, '\n');
        put_block(sb, g->subs[i], flags);
        put_submodules(sb, g->subs[i], path, flags);
        if (path->oom)
            return;
        path->len = keep;
        path->data[keep] = '\0';
    }
}

airc_status airc_graph_print(const airc_graph *g, uint32_t flags, char **out)
{
    AIRC_TRY(airc_check_graph(g, "airc_graph_print"));
    if (!out)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "airc_graph_print: out is NULL");
    airc_strbuf sb, path;
    airc_sb_init(&sb, g->ctx);
    airc_sb_init(&path, g->ctx);
    put_block(&sb, g, flags);
    put_submodules(&sb, g, &path, flags);
    bool path_oom = path.oom;
    airc_sb_free(&path);
    if (path_oom) {
        airc_sb_free(&sb);
        return airc_fail_oom("submodule path");
    }
    return airc_sb_detach(&sb, out);
}
