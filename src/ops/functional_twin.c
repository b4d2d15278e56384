/* The functional twin of an in-place op (ops.h: airc_op_functional_twin).
 *
 * A registered twin is found by name and checked by signature (the rules
 * functionalize always used). A custom op without one gets a synthesized
 * twin, TorchAir's `my_op_functional`: its schema is the in-place schema
 * with the alias annotations dropped and one Tensor return per written
 * argument; its meta copies the written arguments' meta; its kernels wrap
 * the in-place op's: copy each written argument into output k, then run
 * the in-place kernel with the outputs in place of the written arguments.
 * The twin is registered through the registry's own path (airc_registry_add)
 * with its origin and kernels filled in before it is published, so a thread
 * that finds it by name sees it whole; two threads racing to make it both
 * end with the one that got in first. */
#include "ops/kernel.h"
#include "ops/schema_internal.h"

#include <stdio.h>
#include <string.h>

/* Most arguments / returns a synthesized twin handles (custom ops have a
 * few; the kernel wrapper keeps its views on the stack). */
#define TWIN_MAX_ARGS 64

/* ---- the registered twin --------------------------------------------------- */

/* aten in-place ops whose functional variant has another overload name
 * (native_functions.yaml): pow_.Scalar is pow(Tensor, Scalar), which is
 * pow.Tensor_Scalar, while pow.Scalar is pow(Scalar, Tensor). */
static const char *const renamed_twins[][2] = {
    {"aten.pow_.Scalar", "aten.pow.Tensor_Scalar"},
    {"aten.pow_.Tensor", "aten.pow.Tensor_Tensor"},
    {"aten.floor_divide_.Tensor", "aten.floor_divide.default"},
    {"aten.zero_.default", "aten.zeros_like.default"},
    {"aten.transpose_.default", "aten.transpose.int"},
};

static bool same_type(const airc_type *a, const airc_type *b)
{
    return a->kind == b->kind && a->optional == b->optional && a->is_list == b->is_list &&
           a->elem_optional == b->elem_optional;
}

/* Whether twin takes op's arguments (plus keyword-only ones with defaults:
 * zeros_like's dtype, layout, ...) and writes none. */
static bool takes_same_args(const airc_op *op, const airc_op *twin)
{
    const airc_schema *a = op->schema, *b = twin->schema;
    bool ok = !b->is_mutable && a->nargs <= b->nargs;
    for (uint32_t i = 0; ok && i < a->nargs; i++)
        ok = !strcmp(a->args[i].name, b->args[i].name) &&
             same_type(&a->args[i].type, &b->args[i].type) &&
             a->args[i].kwarg_only == b->args[i].kwarg_only;
    for (uint32_t i = a->nargs; ok && i < b->nargs; i++)
        ok = b->args[i].kwarg_only && b->args[i].def;
    return ok;
}

/* The op named `name` when it is registered and takes op's arguments;
 * NULL otherwise. Fails only on out-of-memory (loading a built-in). */
static airc_status find_fitting(airc_context *ctx, const airc_op *op, const char *name,
                                const airc_op **out)
{
    *out = NULL;
    const airc_op *t = NULL;
    airc_status st = airc_registry_find(ctx, name, strlen(name), &t);
    if (st == AIRC_E_NOT_FOUND) {
        airc_set_error(AIRC_OK, "");
        return AIRC_OK;
    }
    AIRC_TRY(st);
    if (takes_same_args(op, t))
        *out = t;
    return AIRC_OK;
}

/* The twin by name: `ns.name_.ov` -> `ns.name.ov`, or a renamed one. */
static airc_status registered_twin(airc_context *ctx, const airc_op *op, const airc_op **out)
{
    *out = NULL;
    const char *q = op->qualname;
    char buf[512];
    size_t r = 0, nr = sizeof renamed_twins / sizeof renamed_twins[0];
    while (r < nr && strcmp(renamed_twins[r][0], q))
        r++;
    if (r < nr)
        return find_fitting(ctx, op, renamed_twins[r][1], out);
    const char *dot = strrchr(q, '.');
    if (!dot || dot == q || dot[-1] != '_' || (dot - q >= 2 && dot[-2] == '_'))
        return AIRC_OK; /* not name_ (dunder names are not in-place variants) */
    size_t head = (size_t)(dot - q) - 1, tail = strlen(dot);
    if (head + tail + 1 > sizeof buf)
        return AIRC_OK;
    memcpy(buf, q, head);
    memcpy(buf + head, dot, tail + 1);
    return find_fitting(ctx, op, buf, out);
}

/* ---- the two forms ------------------------------------------------------- */

/* An in-place op's written arguments, and for each of its returns the
 * written argument it aliases. false when the op has neither form. */
typedef struct twin_form {
    uint32_t pos[TWIN_MAX_ARGS]; /* schema positions of the written arguments */
    uint32_t npos;
    uint32_t ret_of[TWIN_MAX_ARGS]; /* form A: return r aliases written argument ret_of[r] */
} twin_form;

static bool get_form(const airc_schema *s, twin_form *f)
{
    f->npos = 0;
    if (!s->is_mutable || s->vararg || s->varret || s->nargs > TWIN_MAX_ARGS)
        return false;
    for (uint32_t i = 0; i < s->nargs; i++) {
        const airc_type *t = &s->args[i].type;
        if (!t->is_write)
            continue;
        if (t->kind != AIRC_TYPE_TENSOR || t->is_list || t->optional || !t->alias)
            return false;
        f->pos[f->npos++] = i;
    }
    if (!f->npos)
        return false;
    if (!s->nrets)
        return true; /* form B */
    if (s->nrets != f->npos)
        return false;
    bool used[TWIN_MAX_ARGS] = {false};
    for (uint32_t r = 0; r < s->nrets; r++) {
        const airc_type *t = &s->rets[r].type;
        if (t->kind != AIRC_TYPE_TENSOR || t->is_list || t->optional || !t->alias || !t->is_write)
            return false;
        uint32_t k = 0;
        while (k < f->npos && strcmp(s->args[f->pos[k]].type.alias, t->alias))
            k++;
        if (k == f->npos || used[k])
            return false;
        used[k] = true;
        f->ret_of[r] = k;
    }
    return true; /* form A */
}

/* ---- meta ------------------------------------------------------------------ */

/* Result k has written argument k's meta (an overlapping layout, such as
 * an expanded tensor's, becomes contiguous: the result is a fresh tensor). */
static airc_status twin_meta(airc_node *n, void *user_data)
{
    (void)user_data;
    const airc_op *origin = n->op->inplace_origin;
    twin_form f;
    if (!origin || !get_form(origin->schema, &f))
        return airc_fail(AIRC_E_INTERNAL, "%s: not a synthesized twin", n->op->qualname);
    if (n->op->schema->nargs > TWIN_MAX_ARGS)
        return airc_fail(AIRC_E_INTERNAL, "%s: too many arguments", n->op->qualname);
    const airc_value *bound[TWIN_MAX_ARGS];
    airc_schema_bind(n, bound);
    airc_tmeta out[TWIN_MAX_ARGS];
    for (uint32_t k = 0; k < f.npos; k++) {
        const airc_arg *a = &n->op->schema->args[f.pos[k]];
        const airc_value *v = bound[f.pos[k]];
        const airc_node *x = v && v->kind == AIRC_VALUE_NODE ? v->u.node : NULL;
        if (!x || x->meta_kind != AIRC_META_TENSOR || x->nout != 1)
            return airc_fail(AIRC_E_SHAPE, "%s: argument '%s' of '%s' is not a tensor with meta",
                             n->op->qualname, a->name, n->name);
        out[k] = x->out[0];
        for (int32_t d = 0; d < out[k].ndim; d++)
            if (out[k].strides[d] == 0 && out[k].shape[d] > 1)
                airc_tmeta_contiguous(&out[k]);
    }
    if (f.npos == 1)
        return airc_node_set_meta(n, out[0].dtype, out[0].ndim, out[0].shape, out[0].strides);
    AIRC_TRY(airc_node_set_meta_tuple(n, f.npos));
    for (uint32_t k = 0; k < f.npos; k++)
        AIRC_TRY(airc_node_set_output_meta(n, k, out[k].dtype, out[k].ndim, out[k].shape,
                                           out[k].strides));
    return AIRC_OK;
}

/* ---- the kernel wrapper -------------------------------------------------- */

typedef struct twin_kernel_data {
    const airc_op *origin;
    const char *device_type;
} twin_kernel_data;

/* dst = src element by element, both strided, in host memory. */
static void strided_copy(const airc_tview *dst, const airc_tview *src)
{
    size_t es = airc_dtype_size(src->dtype);
    int32_t nd = src->ndim;
    for (int32_t d = 0; d < nd; d++)
        if (src->shape[d] == 0)
            return;
    int64_t idx[AIRC_MAX_DIMS] = {0};
    const char *s = src->data;
    char *t = dst->data;
    for (;;) {
        int64_t so = 0, to = 0;
        for (int32_t d = 0; d < nd; d++) {
            so += idx[d] * src->strides[d];
            to += idx[d] * dst->strides[d];
        }
        memcpy(t + to * (int64_t)es, s + so * (int64_t)es, es);
        int32_t d = nd - 1;
        while (d >= 0 && ++idx[d] == src->shape[d])
            idx[d--] = 0;
        if (d < 0)
            return;
    }
}

static bool same_shape(const airc_tview *a, const airc_tview *b)
{
    if (a->dtype != b->dtype || a->ndim != b->ndim)
        return false;
    for (int32_t d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d])
            return false;
    return true;
}

static airc_status twin_kernel(airc_kernel_ctx *k, void *user_data)
{
    const twin_kernel_data *d = user_data;
    const airc_op *origin = d->origin;
    const char *who = k->node ? k->node->name : k->op->qualname;
    twin_form f;
    if (!get_form(origin->schema, &f) || k->nargs != origin->schema->nargs || k->nout != f.npos)
        return airc_fail(AIRC_E_INTERNAL, "%s ('%s'): arguments do not fit %s", k->op->qualname,
                         who, origin->qualname);
    airc_kernel_ref ref;
    if (!airc_op_registered_kernel(origin, d->device_type, &ref))
        return airc_fail(AIRC_E_RUNTIME, "%s ('%s'): %s has no '%s' kernel any more",
                         k->op->qualname, who, origin->qualname, d->device_type);
    const airc_tview *in[TWIN_MAX_ARGS];
    memcpy(in, k->in, k->nargs * sizeof *in);
    for (uint32_t j = 0; j < f.npos; j++) {
        const airc_tview *src = k->in[f.pos[j]];
        airc_tview *dst = &k->out[j];
        if (!src || !same_shape(src, dst))
            return airc_fail(AIRC_E_RUNTIME,
                             "%s ('%s'): argument '%s' is not a tensor of its result's shape",
                             k->op->qualname, who, origin->schema->args[f.pos[j]].name);
        strided_copy(dst, src);
        in[f.pos[j]] = dst;
    }
    airc_tview out[TWIN_MAX_ARGS];
    for (uint32_t r = 0; r < origin->schema->nrets; r++)
        out[r] = k->out[f.ret_of[r]]; /* form A: the written argument, now output */
    airc_kernel_ctx k2 = *k;
    k2.op = origin;
    k2.in = in;
    k2.out = out;
    k2.nout = origin->schema->nrets;
    return ref.fn(&k2, ref.user_data);
}

/* ---- synthesis ------------------------------------------------------------- */

/* The type's canonical text without its alias annotation:
 * "Tensor(a!)" -> "Tensor", "Tensor(a)?" -> "Tensor?". */
static void write_type(airc_strbuf *sb, const airc_type *t)
{
    const char *text = t->text ? t->text : "Any";
    const char *open = t->alias ? strchr(text, '(') : NULL;
    const char *close = open ? strchr(open, ')') : NULL;
    if (!close) {
        airc_sb_puts(sb, text);
        return;
    }
    airc_sb_putn(sb, text, (size_t)(open - text));
    airc_sb_puts(sb, close + 1);
}

/* "ns::name_functional.ov": TorchAir's name for the twin of name_.ov. */
static void write_twin_name(airc_strbuf *sb, const airc_schema *s)
{
    size_t len = strlen(s->name);
    if (len > 1 && s->name[len - 1] == '_')
        len--;
    airc_sb_printf(sb, "%s::%.*s_functional", s->ns, (int)len, s->name);
    if (*s->overload)
        airc_sb_printf(sb, ".%s", s->overload);
}

/* The name, then "(args without aliases) -> Tensor" (or a tuple). */
static void write_twin_schema(airc_strbuf *sb, const airc_schema *s, uint32_t nrets)
{
    write_twin_name(sb, s);
    airc_sb_putc(sb, '(');
    bool seen_kw = false;
    for (uint32_t i = 0; i < s->nargs; i++) {
        const airc_arg *a = &s->args[i];
        if (i)
            airc_sb_puts(sb, ", ");
        if (a->kwarg_only && !seen_kw) {
            airc_sb_puts(sb, "*, ");
            seen_kw = true;
        }
        write_type(sb, &a->type);
        airc_sb_printf(sb, " %s", a->name);
        if (a->def) {
            airc_sb_putc(sb, '=');
            airc_schema_write_default(sb, a->def);
        }
    }
    airc_sb_puts(sb, nrets == 1 ? ") -> Tensor" : ") -> (");
    for (uint32_t k = 0; nrets > 1 && k < nrets; k++)
        airc_sb_puts(sb, k ? ", Tensor" : "Tensor");
    if (nrets > 1)
        airc_sb_putc(sb, ')');
}

/* Before the twin is published: its origin, and a wrapper kernel for each
 * device type the origin has a kernel for. */
static airc_status setup_twin(airc_op *twin, airc_arena *a, void *user_data)
{
    const airc_op *origin = user_data;
    airc_context *ctx = origin->schema->ctx;
    twin->inplace_origin = origin;
    airc_registry_lock(ctx);
    airc_status st = AIRC_OK;
    for (size_t i = 0; st == AIRC_OK && i < origin->nkernels; i++) {
        twin_kernel_data *d = airc_arena_calloc(a, 1, sizeof *d);
        const char *dev_in_arena = airc_arena_strdup(a, origin->kernels[i].device_type);
        char *dev = airc_strdup(ctx, origin->kernels[i].device_type);
        if (!d || !dev_in_arena || !dev ||
            !airc_grow(ctx, (void **)&twin->kernels, &twin->kernels_cap, twin->nkernels + 1,
                       sizeof *twin->kernels)) {
            airc_free(ctx, dev);
            st = airc_fail_oom("functional twin kernels");
            break;
        }
        *d = (twin_kernel_data){origin, dev_in_arena};
        twin->kernels[twin->nkernels++] =
            (airc_op_kernel){dev, (airc_generic_fn)twin_kernel, d, NULL};
    }
    airc_registry_unlock(ctx);
    return st;
}

airc_status airc_op_functional_twin(airc_context *ctx, const airc_op *op, const airc_op **out)
{
    *out = NULL;
    if (!op->schema->is_mutable)
        return AIRC_OK;
    AIRC_TRY(registered_twin(ctx, op, out));
    twin_form f;
    if (*out || op->builtin || op->inplace_origin || !get_form(op->schema, &f))
        return AIRC_OK;
    airc_strbuf name, text;
    airc_sb_init(&name, ctx);
    airc_sb_init(&text, ctx);
    write_twin_name(&name, op->schema);
    write_twin_schema(&text, op->schema, f.npos);
    airc_status st = AIRC_OK;
    const airc_op *twin = NULL;
    if (name.oom || text.oom) {
        st = airc_fail_oom("functional twin schema");
        goto done;
    }
    airc_op_def def;
    airc_op_def_init(&def);
    def.schema = airc_sb_cstr(&text);
    def.meta = twin_meta;
    st = airc_registry_add(ctx, &def, setup_twin, (void *)op, &twin);
    if (st == AIRC_E_EXISTS) {
        /* made by another thread meanwhile, or a name the user took */
        airc_set_error(AIRC_OK, "");
        st = airc_registry_find(ctx, name.data, name.len, &twin);
        if (st == AIRC_OK && twin->inplace_origin != op) {
            /* the user's own op of that name: a twin if it fits */
            bool fits = takes_same_args(op, twin) && twin->schema->nrets == f.npos;
            if (!fits)
                airc_log(ctx, AIRC_LOG_INFO,
                         "functional twin of %s: '%s' is registered already and does not fit",
                         op->qualname, twin->qualname);
            twin = fits ? twin : NULL;
        }
    }
done:
    airc_sb_free(&name);
    airc_sb_free(&text);
    if (st != AIRC_OK)
        return airc_fail_prefix("functional twin of %s", op->qualname);
    *out = twin;
    return AIRC_OK;
}

const airc_op *airc_op_inplace_origin(const airc_op *twin)
{
    return twin ? twin->inplace_origin : NULL;
}
