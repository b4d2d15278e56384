/* The built-in converters and raisers of every family, looked up by name
 * (sorted once, then binary search), and the helpers the family files
 * share. */
#include "backends/cpu/ew.h"
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"
#include "ops/meta_util.h"
#include "ops/ops.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const ge_family *const families[] = {
    &airc_ge_family_elementwise, &airc_ge_family_linalg,       &airc_ge_family_shape,
    &airc_ge_family_create,      &airc_ge_family_reduce,       &airc_ge_family_nn,
    &airc_ge_family_sort,        &airc_ge_family_index,        &airc_ge_family_activation,
    &airc_ge_family_spatial,     &airc_ge_family_diag,         &airc_ge_family_loss,
    &airc_ge_family_scan,        &airc_ge_family_pool,         &airc_ge_family_norm,
    &airc_ge_family_upsample3d,  &airc_ge_family_histc,        &airc_ge_family_embedding_bag,
    &airc_ge_family_trilinear,   &airc_ge_family_view_scatter, &airc_ge_family_attention,
    &airc_ge_family_upsample_aa, &airc_ge_family_special,      &airc_ge_family_lapack,
    &airc_ge_family_lapack_lu,   &airc_ge_family_householder,  &airc_ge_family_bessel,
    &airc_ge_family_matrix_exp,  &airc_ge_family_quant,
};
#define NFAMILIES (sizeof families / sizeof *families)

static const ge_conv_entry **conv_sorted;
static size_t nconv;
static const ge_raise_entry **raise_sorted;
static size_t nraise;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int cmp_conv(const void *a, const void *b)
{
    return strcmp((*(const ge_conv_entry *const *)a)->aten,
                  (*(const ge_conv_entry *const *)b)->aten);
}

static int cmp_raise(const void *a, const void *b)
{
    return strcmp((*(const ge_raise_entry *const *)a)->type,
                  (*(const ge_raise_entry *const *)b)->type);
}

/* Process-wide tables (plain malloc: they live as long as the library). */
static void build(void)
{
    size_t c = 0, r = 0;
    for (size_t f = 0; f < NFAMILIES; f++) {
        c += families[f]->nconv;
        r += families[f]->nraise;
    }
    const ge_conv_entry **cs = malloc(sizeof *cs * (c + 1));
    const ge_raise_entry **rs = malloc(sizeof *rs * (r + 1));
    if (!cs || !rs) {
        free(cs);
        free(rs);
        return; /* lookups find nothing: "no converter" errors, not a crash */
    }
    c = r = 0;
    for (size_t f = 0; f < NFAMILIES; f++) {
        for (size_t i = 0; i < families[f]->nconv; i++)
            cs[c++] = &families[f]->conv[i];
        for (size_t i = 0; i < families[f]->nraise; i++)
            rs[r++] = &families[f]->raise[i];
    }
    qsort(cs, c, sizeof *cs, cmp_conv);
    qsort(rs, r, sizeof *rs, cmp_raise);
    conv_sorted = cs;
    nconv = c;
    raise_sorted = rs;
    nraise = r;
}

bool airc_ge_builtin_converter(const char *qualname, airc_ge_converter_fn *fn, void **user_data)
{
    pthread_once(&once, build);
    size_t lo = 0, hi = nconv;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(conv_sorted[mid]->aten, qualname);
        if (!c) {
            *fn = conv_sorted[mid]->fn;
            *user_data = (void *)conv_sorted[mid]->data;
            return true;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

const ge_raise_entry *airc_ge_builtin_raiser(const char *type)
{
    pthread_once(&once, build);
    size_t lo = 0, hi = nraise;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(raise_sorted[mid]->type, type);
        if (!c)
            return raise_sorted[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* ---- converter helpers ------------------------------------------------------------ */

airc_dtype airc_ge_node_dtype(const airc_ge_builder *b, size_t j)
{
    const airc_node *n = b->node;
    return n && n->meta_kind != AIRC_META_NONE && j < n->nout ? n->out[j].dtype
                                                              : AIRC_DTYPE_UNDEFINED;
}

airc_status airc_ge_operand(airc_ge_builder *b, size_t arg, airc_dtype dtype, airc_ge_tensor *out)
{
    const airc_value *v = airc_ge_arg(b, arg);
    if (v && v->kind == AIRC_VALUE_NODE) {
        airc_ge_tensor t;
        AIRC_TRY(airc_ge_input(b, arg, &t));
        return airc_ge_cast(b, t, dtype, out);
    }
    double d = 0;
    int64_t i = 0;
    int32_t bl = 0;
    /* an int first (airc_value_get_float takes ints too): exact past 2^53,
     * converted to dtype as the CPU kernels convert an int64 */
    if (v && v->kind == AIRC_VALUE_INT && airc_dtype_size(dtype)) {
        uint64_t bytes[2] = {0, 0};
        airc_cpu_cast(dtype, bytes, 1, AIRC_DTYPE_I64, &v->u.i, 1, 1);
        return airc_ge_const(b, dtype, 0, NULL, bytes, out);
    }
    if (v && airc_value_get_float(v, &d) == AIRC_OK)
        return airc_ge_const_scalar(b, dtype, d, out);
    if (v && airc_value_get_int(v, &i) == AIRC_OK)
        return airc_ge_const_scalar(b, dtype, (double)i, out);
    if (v && airc_value_get_bool(v, &bl) == AIRC_OK)
        return airc_ge_const_scalar(b, dtype, bl, out);
    return airc_fail(AIRC_E_UNSUPPORTED, "argument %zu is neither a tensor nor a number", arg);
}

/* torch.result_type of the node's first two arguments (a 0-dim tensor and
 * a number weigh less than a dimensioned tensor); UNDEFINED when they
 * cannot be read. */
airc_dtype airc_ge_promoted_dtype(const airc_node *n)
{
    airc_meta_args a;
    airc_operand ops[2];
    if (airc_meta_bind((airc_node *)n, &a) != AIRC_OK || a.schema->nargs < 2) {
        airc_set_error(AIRC_OK, "");
        return AIRC_DTYPE_UNDEFINED;
    }
    for (int i = 0; i < 2; i++)
        if (airc_meta_operand(&a, a.schema->args[i].name, &ops[i]) != AIRC_OK || !ops[i].present) {
            airc_set_error(AIRC_OK, "");
            return AIRC_DTYPE_UNDEFINED;
        }
    return airc_result_type(ops, 2);
}

bool airc_ge_arg_present(airc_ge_builder *b, size_t arg)
{
    const airc_value *v = airc_ge_arg(b, arg);
    return v && v->kind != AIRC_VALUE_NONE;
}

int64_t airc_ge_int_arg(airc_ge_builder *b, size_t arg, int64_t dflt)
{
    const airc_value *v = airc_ge_arg(b, arg);
    int64_t i = 0;
    return v && airc_value_get_int(v, &i) == AIRC_OK ? i : dflt;
}

bool airc_ge_bool_arg(airc_ge_builder *b, size_t arg, bool dflt)
{
    const airc_value *v = airc_ge_arg(b, arg);
    int32_t bl = 0;
    if (v && v->kind == AIRC_VALUE_INT) /* torch takes an int for a bool: its truth */
        return v->u.i != 0;
    return v && airc_value_get_bool(v, &bl) == AIRC_OK ? bl != 0 : dflt;
}

double airc_ge_number_arg(airc_ge_builder *b, size_t arg, double dflt)
{
    const airc_value *v = airc_ge_arg(b, arg);
    double d = 0;
    int64_t i = 0;
    /* get_float takes ints and get_int takes bools */
    if (v && airc_value_get_float(v, &d) == AIRC_OK)
        return d;
    if (v && airc_value_get_int(v, &i) == AIRC_OK)
        return (double)i;
    return dflt;
}

airc_status airc_ge_scale(airc_ge_builder *b, airc_ge_tensor t, size_t arg, airc_ge_tensor *out)
{
    const airc_value *v = airc_ge_arg(b, arg);
    double s = 1;
    if (!v || v->kind == AIRC_VALUE_NONE || (airc_value_get_float(v, &s) == AIRC_OK && s == 1)) {
        *out = t;
        return AIRC_OK;
    }
    airc_dtype d = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    const int64_t *shape = NULL;
    AIRC_TRY(airc_ge_tensor_meta(b, t, &d, &nd, &shape));
    int64_t dims[AIRC_MAX_DIMS];
    memcpy(dims, shape, sizeof *dims * (size_t)nd);
    airc_ge_tensor c;
    AIRC_TRY(airc_ge_operand(b, arg, d, &c));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Mul", &op));
    AIRC_TRY(airc_ge_op_input(op, "x1", t));
    AIRC_TRY(airc_ge_op_input(op, "x2", c));
    return airc_ge_op_output(op, "y", d, nd, dims, out);
}

airc_status airc_ge_simple(airc_ge_builder *b, const char *type, const char *const *names,
                           const airc_ge_tensor *in, size_t nin, airc_ge_op **op_out)
{
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, type, &op));
    for (size_t i = 0; i < nin; i++)
        AIRC_TRY(airc_ge_op_input(op, names[i], in[i]));
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    if (op_out)
        *op_out = op;
    return airc_ge_set_result(b, 0, y);
}

/* ---- raiser helpers ----------------------------------------------------------------- */

const Ge__Proto__AttrDef *airc_ge_find_attr(const Ge__Proto__OpDef *op, const char *key)
{
    for (size_t i = 0; i < op->n_attr; i++)
        if (op->attr[i] && op->attr[i]->key && !strcmp(op->attr[i]->key, key))
            return op->attr[i]->value;
    return NULL;
}

static airc_status attr_missing(const ge_raise *r, const char *key, const char *kind)
{
    return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): attribute '%s' (%s) is missing",
                     r->op->name, r->op->type, key, kind);
}

airc_status airc_ge_attr_i(const ge_raise *r, const char *key, bool required, int64_t dflt,
                           int64_t *out)
{
    const Ge__Proto__AttrDef *a = airc_ge_find_attr(r->op, key);
    if (a && a->value_case == GE__PROTO__ATTR_DEF__VALUE_I) {
        *out = a->i;
        return AIRC_OK;
    }
    if (a && a->value_case == GE__PROTO__ATTR_DEF__VALUE_DT) {
        *out = a->dt;
        return AIRC_OK;
    }
    if (required)
        return attr_missing(r, key, "int");
    *out = dflt;
    return AIRC_OK;
}

airc_status airc_ge_attr_ints(const ge_raise *r, const char *key, bool required, int64_t *out,
                              size_t cap, size_t *n)
{
    const Ge__Proto__AttrDef *a = airc_ge_find_attr(r->op, key);
    *n = 0;
    if (!a || a->value_case != GE__PROTO__ATTR_DEF__VALUE_LIST || !a->list)
        return required ? attr_missing(r, key, "list int") : AIRC_OK;
    if (a->list->n_i > cap)
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "op '%s' (%s): attribute '%s' has %zu items (at most %zu)", r->op->name,
                         r->op->type, key, a->list->n_i, cap);
    if (a->list->n_i) /* an empty list has no array (i NULL) */
        memcpy(out, a->list->i, sizeof *out * a->list->n_i);
    *n = a->list->n_i;
    return AIRC_OK;
}

airc_status airc_ge_attr_b(const ge_raise *r, const char *key, bool required, bool dflt, bool *out)
{
    const Ge__Proto__AttrDef *a = airc_ge_find_attr(r->op, key);
    if (a && a->value_case == GE__PROTO__ATTR_DEF__VALUE_B) {
        *out = a->b;
        return AIRC_OK;
    }
    if (required)
        return attr_missing(r, key, "bool");
    *out = dflt;
    return AIRC_OK;
}

airc_status airc_ge_attr_f(const ge_raise *r, const char *key, bool required, double dflt,
                           double *out)
{
    const Ge__Proto__AttrDef *a = airc_ge_find_attr(r->op, key);
    if (a && a->value_case == GE__PROTO__ATTR_DEF__VALUE_F) {
        *out = a->f;
        return AIRC_OK;
    }
    if (required)
        return attr_missing(r, key, "float");
    *out = dflt;
    return AIRC_OK;
}

airc_status airc_ge_const_input_ints(const ge_raise *r, size_t i, int64_t *out, size_t cap,
                                     size_t *n)
{
    const Ge__Proto__TensorDef *t = i < r->nin ? r->cin[i] : NULL;
    if (!t || !t->desc)
        return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (%s): input %zu must be a Const", r->op->name,
                         r->op->type, i);
    size_t es = t->desc->dtype == GE__PROTO__DATA_TYPE__DT_INT64   ? 8
                : t->desc->dtype == GE__PROTO__DATA_TYPE__DT_INT32 ? 4
                                                                   : 0;
    if (!es || t->data.len % es || t->data.len / es > cap)
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "op '%s' (%s): Const input %zu is not a short int32/int64 list",
                         r->op->name, r->op->type, i);
    *n = t->data.len / es;
    for (size_t k = 0; k < *n; k++) {
        if (es == 8) {
            memcpy(&out[k], t->data.data + 8 * k, 8);
        } else {
            int32_t v = 0;
            memcpy(&v, t->data.data + 4 * k, 4);
            out[k] = v;
        }
    }
    return AIRC_OK;
}

airc_status airc_ge_raise_arity(const ge_raise *r, size_t nin)
{
    if (r->nin != nin)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): %zu data inputs, expected %zu",
                         r->op->name, r->op->type, r->nin, nin);
    for (size_t i = 0; i < nin; i++)
        if (!r->in[i])
            return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): input %zu is absent", r->op->name,
                             r->op->type, i);
    return AIRC_OK;
}

airc_status airc_ge_raise_call(ge_raise *r, const char *aten, const airc_value *const *args,
                               size_t nargs, const char *const *kw_names,
                               const airc_value *const *kw_values, size_t nkw, airc_node **out)
{
    for (size_t i = 0; i < nargs; i++)
        if (!args[i])
            return airc_fail_oom("raised arguments");
    for (size_t i = 0; i < nkw; i++)
        if (!kw_values[i])
            return airc_fail_oom("raised arguments");
    return airc_graph_create_node(r->g, AIRC_NODE_CALL_FUNCTION, aten, args, nargs, kw_names,
                                  kw_values, nkw, NULL, out);
}

airc_status airc_ge_raise_getitems(ge_raise *r, airc_node *t, size_t n)
{
    if (r->nout != n)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): %zu outputs, expected %zu",
                         r->op->name, r->op->type, r->nout, n);
    for (size_t j = 0; j < n; j++) {
        const airc_value *args[2] = {airc_ge_vnode(r, t), airc_ge_vint(r, (int64_t)j)};
        AIRC_TRY(airc_ge_raise_call(r, "operator.getitem", args, 2, NULL, NULL, 0, &r->out[j]));
    }
    return AIRC_OK;
}

const airc_value *airc_ge_vnode(ge_raise *r, airc_node *n)
{
    const airc_value *v = NULL;
    if (!n || airc_value_node(r->g, n, &v) != AIRC_OK)
        return NULL;
    return v;
}

const airc_value *airc_ge_vint(ge_raise *r, int64_t v)
{
    const airc_value *out = NULL;
    airc_value_int(r->g, v, &out);
    return out;
}

const airc_value *airc_ge_vbool(ge_raise *r, bool v)
{
    const airc_value *out = NULL;
    airc_value_bool(r->g, v, &out);
    return out;
}

const airc_value *airc_ge_vfloat(ge_raise *r, double v)
{
    const airc_value *out = NULL;
    airc_value_float(r->g, v, &out);
    return out;
}

const airc_value *airc_ge_vnone(ge_raise *r)
{
    const airc_value *out = NULL;
    airc_value_none(r->g, &out);
    return out;
}

const airc_value *airc_ge_vints(ge_raise *r, const int64_t *vals, size_t n)
{
    const airc_value *items[AIRC_MAX_DIMS * 2];
    if (n > sizeof items / sizeof *items)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (airc_value_int(r->g, vals[i], &items[i]) != AIRC_OK)
            return NULL;
    const airc_value *v = NULL;
    if (airc_value_list(r->g, items, n, &v) != AIRC_OK)
        return NULL;
    return v;
}

airc_status airc_ge_tensordef_number(ge_raise *r, const Ge__Proto__TensorDef *t,
                                     const airc_value **out, airc_dtype *dt)
{
    if (!t || !t->desc)
        return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (%s): the scalar input must be a Const",
                         r->op->name, r->op->type);
    airc_dtype d = airc_ge_from_proto_dtype(t->desc->dtype);
    size_t es = airc_dtype_size(d);
    if (d == AIRC_DTYPE_UNDEFINED || !es || t->data.len < es)
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "op '%s' (%s): a scalar Const holds no value of a known dtype",
                         r->op->name, r->op->type);
    *out = NULL;
    if (dt)
        *dt = d;
    if (airc_dtype_is_floating(d)) {
        double v = 0;
        airc_cpu_cast(AIRC_DTYPE_F64, &v, 1, d, t->data.data, 1, 1);
        airc_value_float(r->g, v, out);
    } else {
        int64_t v = 0; /* exact: int64 holds every integer and bool value */
        airc_cpu_cast(AIRC_DTYPE_I64, &v, 1, d, t->data.data, 1, 1);
        airc_value_int(r->g, v, out);
    }
    return AIRC_OK;
}
