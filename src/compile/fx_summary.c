/* debug.fx_summary's csv (fx_summary.h): the graph is walked once in order,
 * as TorchAir's interpreter runs it, each node's argument and result
 * signatures written as Python would print them and counted per target;
 * then one row per target. */
#include "compile/fx_summary.h"

#include "backends/ge/ge_internal.h"
#include "exec/data_dump.h"
#include "ir/ir.h"
#include "ir/text_lex.h"
#include "ops/ops.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One target: its first node (name, status) and how many nodes call it. */
typedef struct fxs_row {
    const airc_node *first;
    uint64_t count;
} fxs_row;

/* One distinct signature of one row's inputs (kind 'I') or outputs ('O').
 * seq: the order first seen, which breaks ties between equal counts. */
typedef struct fxs_sig {
    const char *text; /* the repr, inside the map's key */
    size_t row;
    char kind;
    size_t seq;
    uint64_t count;
} fxs_sig;

typedef struct fxs {
    airc_context *ctx;
    airc_arena keys;      /* the maps' keys */
    airc_strmap rows_map; /* qualname -> row index + 1 */
    airc_strmap sigs_map; /* "<row><kind><repr>" -> sig index + 1 */
    fxs_row *rows;
    size_t nrows, rows_cap;
    fxs_sig *sigs;
    size_t nsigs, sigs_cap;
    airc_strbuf key;   /* scratch: the key of the signature being counted */
    airc_strbuf field; /* scratch: a csv field being built */
} fxs;

/* ---- Python's repr of what the interpreter sees ------------------------------- */

/* A tensor as TorchAir prints a fake one: f"{dtype name}{tuple(size)}". */
static void put_tensor(airc_strbuf *sb, const airc_tmeta *m)
{
    const char *name = airc_dtype_torch_name(m->dtype); /* "torch.float32" */
    airc_sb_puts(sb, name ? name + strlen("torch.") : "unknown");
    airc_sb_putc(sb, '(');
    for (int32_t d = 0; d < m->ndim; d++)
        airc_sb_printf(sb, d ? ", %" PRId64 : "%" PRId64, m->shape[d]);
    if (m->ndim == 1)
        airc_sb_putc(sb, ',');
    airc_sb_putc(sb, ')');
}

/* A node's value: a tensor, a tuple of tensors (a list for an op that
 * returns `Tensor[]`), None for an op that returns nothing. */
static void put_node(airc_strbuf *sb, const airc_node *n)
{
    const airc_schema *s = n->kind == AIRC_NODE_CALL_FUNCTION && n->op ? n->op->schema : NULL;
    if ((s && s->nrets == 0 && !s->varret) || n->meta_kind == AIRC_META_NONE ||
        (n->meta_kind == AIRC_META_TENSOR && n->nout < 1)) {
        airc_sb_puts(sb, "None");
        return;
    }
    if (n->meta_kind == AIRC_META_TENSOR) {
        put_tensor(sb, &n->out[0]);
        return;
    }
    bool list = s && s->nrets == 1 && s->rets[0].type.is_list;
    airc_sb_putc(sb, list ? '[' : '(');
    for (uint32_t i = 0; i < n->nout; i++) {
        if (i)
            airc_sb_puts(sb, ", ");
        put_tensor(sb, &n->out[i]);
    }
    if (!list && n->nout == 1)
        airc_sb_putc(sb, ',');
    airc_sb_putc(sb, list ? ']' : ')');
}

static void put_value(airc_strbuf *sb, const airc_value *v);

static void put_items(airc_strbuf *sb, const airc_value *const *items, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            airc_sb_puts(sb, ", ");
        put_value(sb, items[i]);
    }
}

static void put_tuple(airc_strbuf *sb, const airc_value *const *items, size_t n)
{
    airc_sb_putc(sb, '(');
    put_items(sb, items, n);
    if (n == 1)
        airc_sb_putc(sb, ',');
    airc_sb_putc(sb, ')');
}

static void put_name(airc_strbuf *sb, const char *s)
{
    airc_sb_puts(sb, s ? s : "None");
}

static void put_value(airc_strbuf *sb, const airc_value *v)
{
    char buf[32];
    switch (v ? v->kind : AIRC_VALUE_NONE) {
    case AIRC_VALUE_INT: airc_sb_printf(sb, "%" PRId64, v->u.i); return;
    case AIRC_VALUE_FLOAT:
        airc_format_double(v->u.f, buf);
        airc_sb_puts(sb, buf);
        return;
    case AIRC_VALUE_BOOL: airc_sb_puts(sb, v->u.b ? "True" : "False"); return;
    case AIRC_VALUE_STRING: airc_text_put_quoted(sb, v->u.s, v->len); return;
    case AIRC_VALUE_NODE: put_node(sb, v->u.node); return;
    case AIRC_VALUE_DTYPE: put_name(sb, airc_dtype_torch_name(v->u.dtype)); return;
    case AIRC_VALUE_DEVICE: /* repr(torch.device) */
        airc_sb_puts(sb, "device(type=");
        airc_text_put_quoted(sb, v->u.dev.type, strlen(v->u.dev.type));
        if (v->u.dev.index >= 0)
            airc_sb_printf(sb, ", index=%d", (int)v->u.dev.index);
        airc_sb_putc(sb, ')');
        return;
    case AIRC_VALUE_MEMORY_FORMAT: put_name(sb, airc_text_memory_format_name(v->u.e)); return;
    case AIRC_VALUE_LAYOUT: put_name(sb, airc_text_layout_name(v->u.e)); return;
    case AIRC_VALUE_LIST:
        airc_sb_putc(sb, '[');
        put_items(sb, v->u.items, v->len);
        airc_sb_putc(sb, ']');
        return;
    case AIRC_VALUE_TUPLE: put_tuple(sb, v->u.items, v->len); return;
    default: airc_sb_puts(sb, "None"); return;
    }
}

/* f"{args}", or f"{args}, {kwargs}" when there are kwargs. */
static void put_inputs(airc_strbuf *sb, const airc_node *n)
{
    put_tuple(sb, n->args, n->nargs);
    if (!n->nkw)
        return;
    airc_sb_puts(sb, ", {");
    for (uint32_t i = 0; i < n->nkw; i++) {
        if (i)
            airc_sb_puts(sb, ", ");
        airc_text_put_quoted(sb, n->kw_names[i], strlen(n->kw_names[i]));
        airc_sb_puts(sb, ": ");
        put_value(sb, n->kw_values[i]);
    }
    airc_sb_putc(sb, '}');
}

/* ---- counting -------------------------------------------------------------- */

static bool is_builtin(const airc_op *op)
{
    return !strncmp(op->qualname, "operator.", strlen("operator."));
}

static airc_status row_of(fxs *s, const airc_node *n, size_t *row)
{
    void *hit = airc_strmap_get(&s->rows_map, n->op->qualname);
    if (hit) {
        *row = (size_t)(uintptr_t)hit - 1;
        return AIRC_OK;
    }
    if (!airc_grow(s->ctx, (void **)&s->rows, &s->rows_cap, s->nrows + 1, sizeof *s->rows) ||
        !airc_strmap_put(&s->rows_map, n->op->qualname, (void *)(uintptr_t)(s->nrows + 1)))
        return airc_fail_oom("fx summary");
    s->rows[s->nrows] = (fxs_row){n, 0};
    *row = s->nrows++;
    return AIRC_OK;
}

/* Counts the signature in s->key (prefix bytes of row and kind, then the
 * repr). */
static airc_status count_sig(fxs *s, size_t row, char kind, size_t prefix)
{
    if (s->key.oom)
        return airc_fail_oom("fx summary");
    void *hit = airc_strmap_getn(&s->sigs_map, s->key.data, s->key.len);
    if (hit) {
        s->sigs[(size_t)(uintptr_t)hit - 1].count++;
        return AIRC_OK;
    }
    char *key = airc_arena_strndup(&s->keys, s->key.data, s->key.len);
    if (!key ||
        !airc_grow(s->ctx, (void **)&s->sigs, &s->sigs_cap, s->nsigs + 1, sizeof *s->sigs) ||
        !airc_strmap_put(&s->sigs_map, key, (void *)(uintptr_t)(s->nsigs + 1)))
        return airc_fail_oom("fx summary");
    s->sigs[s->nsigs] = (fxs_sig){key + prefix, row, kind, s->nsigs, 1};
    s->nsigs++;
    return AIRC_OK;
}

static airc_status count_node(fxs *s, const airc_node *n)
{
    size_t row = 0;
    AIRC_TRY(row_of(s, n, &row));
    s->rows[row].count++;
    for (int k = 0; k < 2; k++) {
        char kind = k ? 'O' : 'I';
        s->key.len = 0;
        airc_sb_printf(&s->key, "%zu%c", row, kind);
        size_t prefix = s->key.len;
        if (kind == 'I')
            put_inputs(&s->key, n);
        else
            put_node(&s->key, n);
        AIRC_TRY(count_sig(s, row, kind, prefix));
    }
    return AIRC_OK;
}

/* Row, then inputs before outputs, then the most frequent first, ties in
 * the order first seen (Python's stable sort of TorchAir's dict). */
static int sig_order(const void *pa, const void *pb)
{
    const fxs_sig *a = pa, *b = pb;
    if (a->row != b->row)
        return a->row < b->row ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind == 'I' ? -1 : 1;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* ---- csv --------------------------------------------------------------------- */

/* One field as csv.writer writes it (QUOTE_MINIMAL, '"' doubled). */
static void put_field(airc_strbuf *sb, const char *f, size_t len, bool last)
{
    bool quote = false;
    for (size_t i = 0; i < len && !quote; i++)
        quote = f[i] == ',' || f[i] == '"' || f[i] == '\r' || f[i] == '\n';
    if (quote) {
        airc_sb_putc(sb, '"');
        size_t run = 0;
        for (size_t i = 0; i < len; i++)
            if (f[i] == '"') {
                airc_sb_putn(sb, f + run, i + 1 - run);
                airc_sb_putc(sb, '"');
                run = i + 1;
            }
        airc_sb_putn(sb, f + run, len - run);
        airc_sb_putc(sb, '"');
    } else {
        airc_sb_putn(sb, f, len);
    }
    airc_sb_puts(sb, last ? "\r\n" : ",");
}

/* The statistics of sigs[*at ..) of row and kind, as one field; *at moves
 * past them. */
static void put_stats(airc_strbuf *sb, fxs *s, size_t *at, size_t row, char kind, bool last)
{
    airc_strbuf *field = &s->field;
    field->len = 0;
    for (bool first = true; *at < s->nsigs && s->sigs[*at].row == row && s->sigs[*at].kind == kind;
         (*at)++, first = false)
        airc_sb_printf(field, "%s%" PRIu64 "次：%s", first ? "" : "\n", s->sigs[*at].count,
                       s->sigs[*at].text);
    put_field(sb, field->data ? field->data : "", field->len, last);
}

static void put_row(airc_strbuf *sb, fxs *s, size_t row, size_t *at)
{
    airc_strbuf *field = &s->field;
    const airc_node *n = s->rows[row].first;
    const char *q = n->op->qualname;
    airc_ge_converter_fn fn;
    void *ud;
    bool builtin = is_builtin(n->op);
    field->len = 0;
    if (builtin)
        airc_sb_printf(field, "<built-in function %s>", q + strlen("operator."));
    else
        airc_sb_puts(field, q);
    put_field(sb, field->data ? field->data : "", field->len, false);
    const char *type = builtin ? "builtin" : strstr(q, "prim") ? "prims" : "aten";
    put_field(sb, type, strlen(type), false);
    /* the air.* stream markers have no converter: the lowering handles them */
    bool supported =
        builtin || !airc_ge_node_needs_converter(n) || airc_ge_find_converter(n->op, &fn, &ud);
    const char *status = supported ? "已支持" : "未注册";
    put_field(sb, status, strlen(status), false);
    char count[32];
    snprintf(count, sizeof count, "%" PRIu64, s->rows[row].count);
    put_field(sb, count, strlen(count), false);
    put_stats(sb, s, at, row, 'I', false);
    put_stats(sb, s, at, row, 'O', true);
}

static airc_status summarize(fxs *s, const airc_graph *g, airc_strbuf *sb)
{
    AIRC_FOR_EACH_NODE(g, n)
    {
        if (n->kind == AIRC_NODE_CALL_FUNCTION && n->op)
            AIRC_TRY(count_node(s, n));
    }
    if (s->nsigs)
        qsort(s->sigs, s->nsigs, sizeof *s->sigs, sig_order);
    static const char *const header[] = {"目标函数", "函数类型", "支持状态",
                                         "调用次数", "输入统计", "输出统计"};
    airc_sb_puts(sb, "\xEF\xBB\xBF"); /* utf-8-sig */
    for (size_t i = 0; i < 6; i++)
        put_field(sb, header[i], strlen(header[i]), i == 5);
    size_t at = 0;
    for (size_t r = 0; r < s->nrows; r++)
        put_row(sb, s, r, &at);
    return sb->oom || s->field.oom ? airc_fail_oom("fx summary") : AIRC_OK;
}

airc_status airc_fx_summary_csv(const airc_graph *g, airc_strbuf *sb)
{
    fxs s;
    memset(&s, 0, sizeof s);
    s.ctx = g->ctx;
    airc_arena_init(&s.keys, g->ctx);
    airc_strmap_init(&s.rows_map, g->ctx);
    airc_strmap_init(&s.sigs_map, g->ctx);
    airc_sb_init(&s.key, g->ctx);
    airc_sb_init(&s.field, g->ctx);
    airc_status st = summarize(&s, g, sb);
    airc_sb_free(&s.field);
    airc_sb_free(&s.key);
    airc_free(g->ctx, s.sigs);
    airc_free(g->ctx, s.rows);
    airc_strmap_free(&s.sigs_map);
    airc_strmap_free(&s.rows_map);
    airc_arena_free(&s.keys);
    return st;
}

airc_status airc_fx_summary_write(const airc_graph *g, const char *dir, char *path, size_t cap)
{
    char stamp[32];
    airc_data_dump_stamp(stamp, sizeof stamp);
    int n = snprintf(path, cap, "%s/summary_rank_0_pid_%ld_ts_%s.csv", dir, (long)getpid(), stamp);
    if (n < 0 || (size_t)n >= cap)
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "debug.fx_summary: the path of the summary in '%.200s' is too long", dir);
    airc_strbuf sb;
    airc_sb_init(&sb, g->ctx);
    airc_status st = airc_fx_summary_csv(g, &sb);
    if (st == AIRC_OK)
        st = airc_make_dirs(dir);
    if (st == AIRC_OK)
        st = airc_write_file(path, sb.data, sb.len);
    airc_sb_free(&sb);
    if (st != AIRC_OK && st != AIRC_E_OUT_OF_MEMORY)
        return airc_fail_prefix("debug.fx_summary");
    return st;
}
