/* Argument binding and readers, type promotion, shape helpers and output
 * setting for the meta functions. Layout rules are in meta_layout.c. */
#include "ops/meta_util.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- binding ----------------------------------------------------------- */

airc_status airc_meta_bind(airc_node *n, airc_meta_args *a)
{
    const airc_op *op = n->op;
    if (!op || !op->schema)
        return airc_fail(AIRC_E_INTERNAL, "node '%s' has no op", n->name);
    if (op->schema->nargs > AIRC_META_MAX_ARGS)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: schema has %u arguments (at most %d)",
                         op->qualname, (unsigned)op->schema->nargs, AIRC_META_MAX_ARGS);
    /* binding assumes a well-formed call; graphs that were never linted get
     * here too */
    AIRC_TRY(airc_schema_check_node(n));
    memset(a, 0, sizeof *a);
    a->node = n;
    a->schema = op->schema;
    a->op = op->qualname;
    airc_schema_bind(n, a->v);
    return AIRC_OK;
}

int airc_meta_find(const airc_meta_args *a, const char *name)
{
    for (uint32_t i = 0; i < a->schema->nargs; i++)
        if (!strcmp(a->schema->args[i].name, name))
            return (int)i;
    return -1;
}

const airc_value *airc_meta_get(const airc_meta_args *a, const char *name)
{
    int i = airc_meta_find(a, name);
    if (i < 0 || !a->v[i] || a->v[i]->kind == AIRC_VALUE_NONE)
        return NULL;
    return a->v[i];
}

const char *airc_meta_name(const airc_meta_args *a)
{
    return a->schema->name;
}

const char *airc_meta_overload(const airc_meta_args *a)
{
    return a->schema->overload;
}

bool airc_meta_is_inplace(const airc_meta_args *a)
{
    return a->schema->nargs > 0 && a->schema->args[0].type.is_write;
}

/* ---- readers ----------------------------------------------------------- */

static const char *kind_name(airc_value_kind k)
{
    static const char *const names[] = {"None",   "int",    "float",  "bool",
                                        "str",    "a node", "dtype",  "device",
                                        "memory format", "layout", "list", "tuple"};
    return k >= 0 && k <= AIRC_VALUE_TUPLE ? names[k] : "?";
}

static airc_status bad_kind(const airc_meta_args *a, const char *name, const char *want,
                            const airc_value *v)
{
    return airc_fail(AIRC_E_SHAPE, "%s: argument '%s' must be %s, got %s", a->op, name, want,
                     kind_name(v ? v->kind : AIRC_VALUE_NONE));
}

airc_status airc_meta_value_tensor(const airc_meta_args *a, const char *what, const airc_value *v,
                                   airc_tmeta *out)
{
    if (!v || v->kind != AIRC_VALUE_NODE)
        return bad_kind(a, what, "a tensor", v);
    const airc_node *x = v->u.node;
    if (x->meta_kind == AIRC_META_NONE)
        return airc_fail(AIRC_E_SHAPE, "%s: %s ('%s') has no meta", a->op, what, x->name);
    if (x->meta_kind != AIRC_META_TENSOR || x->nout != 1)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: %s ('%s') is a tuple of %u tensors, not a tensor: read it with "
                         "operator.getitem",
                         a->op, what, x->name, (unsigned)x->nout);
    *out = x->out[0];
    return AIRC_OK;
}

airc_status airc_meta_tensor(const airc_meta_args *a, const char *name, airc_tmeta *out)
{
    int i = airc_meta_find(a, name);
    return airc_meta_value_tensor(a, name, i < 0 ? NULL : a->v[i], out);
}

airc_status airc_meta_opt_tensor(const airc_meta_args *a, const char *name, airc_tmeta *out,
                                 bool *present)
{
    const airc_value *v = airc_meta_get(a, name);
    *present = v != NULL;
    return v ? airc_meta_value_tensor(a, name, v, out) : AIRC_OK;
}

airc_status airc_meta_opt_int(const airc_meta_args *a, const char *name, int64_t *out,
                              bool *present)
{
    const airc_value *v = airc_meta_get(a, name);
    *present = false;
    if (!v)
        return AIRC_OK;
    if (v->kind == AIRC_VALUE_INT)
        *out = v->u.i;
    else if (v->kind == AIRC_VALUE_BOOL)
        *out = v->u.b != 0;
    else if (v->kind == AIRC_VALUE_NODE)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: argument '%s' is a dynamic size ('%s')", a->op,
                         name, v->u.node->name);
    else
        return bad_kind(a, name, "an int", v);
    *present = true;
    return AIRC_OK;
}

airc_status airc_meta_int(const airc_meta_args *a, const char *name, int64_t def, int64_t *out)
{
    bool present;
    int64_t x = def;
    AIRC_TRY(airc_meta_opt_int(a, name, &x, &present));
    *out = x;
    return AIRC_OK;
}

airc_status airc_meta_bool(const airc_meta_args *a, const char *name, bool def, bool *out)
{
    const airc_value *v = airc_meta_get(a, name);
    if (!v) {
        *out = def;
        return AIRC_OK;
    }
    if (v->kind == AIRC_VALUE_BOOL)
        *out = v->u.b != 0;
    else if (v->kind == AIRC_VALUE_INT)
        *out = v->u.i != 0;
    else
        return bad_kind(a, name, "a bool", v);
    return AIRC_OK;
}

airc_status airc_meta_double(const airc_meta_args *a, const char *name, double def, double *out)
{
    const airc_value *v = airc_meta_get(a, name);
    if (!v) {
        *out = def;
        return AIRC_OK;
    }
    if (v->kind == AIRC_VALUE_FLOAT)
        *out = v->u.f;
    else if (v->kind == AIRC_VALUE_INT)
        *out = (double)v->u.i;
    else if (v->kind == AIRC_VALUE_BOOL)
        *out = v->u.b != 0;
    else
        return bad_kind(a, name, "a number", v);
    return AIRC_OK;
}

airc_status airc_meta_int_list(const airc_meta_args *a, const char *name, int64_t *out,
                               int32_t cap, int32_t *n, bool *present)
{
    const airc_value *v = airc_meta_get(a, name);
    *n = 0;
    *present = v != NULL;
    if (!v)
        return AIRC_OK;
    if (v->kind == AIRC_VALUE_INT) {
        /* torch accepts one int for int[N] (repeated N times) and int[1] */
        int i = airc_meta_find(a, name);
        int32_t times = a->schema->args[i].type.list_size > 0 ? a->schema->args[i].type.list_size
                                                               : 1;
        if (times > cap)
            return airc_fail(AIRC_E_UNSUPPORTED, "%s: argument '%s' too long", a->op, name);
        for (int32_t k = 0; k < times; k++)
            out[k] = v->u.i;
        *n = times;
        return AIRC_OK;
    }
    if (v->kind != AIRC_VALUE_LIST && v->kind != AIRC_VALUE_TUPLE)
        return bad_kind(a, name, "a list of ints", v);
    if (v->len > (uint32_t)cap)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: argument '%s' has %u items (at most %d)", a->op,
                         name, (unsigned)v->len, (int)cap);
    for (uint32_t k = 0; k < v->len; k++) {
        const airc_value *it = v->u.items[k];
        if (it->kind == AIRC_VALUE_INT)
            out[k] = it->u.i;
        else if (it->kind == AIRC_VALUE_NODE)
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "%s: argument '%s' item %u is a dynamic size ('%s')", a->op, name,
                             (unsigned)k, it->u.node->name);
        else
            return airc_fail(AIRC_E_SHAPE, "%s: argument '%s' item %u must be an int, got %s",
                             a->op, name, (unsigned)k, kind_name(it->kind));
    }
    *n = (int32_t)v->len;
    return AIRC_OK;
}

airc_status airc_meta_opt_dtype(const airc_meta_args *a, const char *name, airc_dtype *out,
                                bool *present)
{
    const airc_value *v = airc_meta_get(a, name);
    *present = false;
    if (!v)
        return AIRC_OK;
    if (v->kind != AIRC_VALUE_DTYPE)
        return bad_kind(a, name, "a dtype", v);
    *out = v->u.dtype;
    *present = true;
    return AIRC_OK;
}

airc_status airc_meta_opt_memory_format(const airc_meta_args *a, const char *name,
                                        airc_memory_format *out, bool *present)
{
    const airc_value *v = airc_meta_get(a, name);
    *present = false;
    if (!v)
        return AIRC_OK;
    if (v->kind != AIRC_VALUE_MEMORY_FORMAT)
        return bad_kind(a, name, "a memory format", v);
    *out = v->u.e;
    *present = true;
    return AIRC_OK;
}

airc_status airc_meta_opt_string(const airc_meta_args *a, const char *name, const char **out)
{
    const airc_value *v = airc_meta_get(a, name);
    *out = NULL;
    if (!v)
        return AIRC_OK;
    if (v->kind != AIRC_VALUE_STRING)
        return bad_kind(a, name, "a string", v);
    *out = v->u.s;
    return AIRC_OK;
}

airc_status airc_meta_operand(const airc_meta_args *a, const char *name, airc_operand *out)
{
    const airc_value *v = airc_meta_get(a, name);
    memset(out, 0, sizeof *out);
    out->name = name;
    if (!v)
        return AIRC_OK;
    out->present = true;
    switch (v->kind) {
    case AIRC_VALUE_NODE:
        return airc_meta_value_tensor(a, name, v, &out->t);
    case AIRC_VALUE_INT:
        out->t.dtype = AIRC_DTYPE_I64;
        break;
    case AIRC_VALUE_FLOAT:
        out->t.dtype = AIRC_DTYPE_F64;
        break;
    case AIRC_VALUE_BOOL: {
        /* torch.ops hands a bool given for a Scalar argument over as an int
         * (add.Scalar(bool_t, True) is int64); for a Tensor argument it
         * stays a bool (mul.Tensor(bool_t, True) is bool) */
        int i = airc_meta_find(a, name);
        bool scalar = a->schema->args[i].type.kind == AIRC_TYPE_SCALAR;
        out->t.dtype = scalar ? AIRC_DTYPE_I64 : AIRC_DTYPE_BOOL;
        break;
    }
    default:
        return bad_kind(a, name, "a tensor or a number", v);
    }
    out->wrapped = true;
    out->t.ndim = 0;
    return AIRC_OK;
}

/* ---- type promotion ---------------------------------------------------- */

bool airc_dtype_is_floating(airc_dtype d)
{
    return d == AIRC_DTYPE_F32 || d == AIRC_DTYPE_F64 || d == AIRC_DTYPE_F16 ||
           d == AIRC_DTYPE_BF16;
}

bool airc_dtype_is_integral(airc_dtype d, bool include_bool)
{
    return (d >= AIRC_DTYPE_I64 && d <= AIRC_DTYPE_U8) || (include_bool && d == AIRC_DTYPE_BOOL);
}

airc_dtype airc_promote_types(airc_dtype a, airc_dtype b)
{
    enum {
        F32 = AIRC_DTYPE_F32, F64 = AIRC_DTYPE_F64, F16 = AIRC_DTYPE_F16, BF16 = AIRC_DTYPE_BF16,
        I64 = AIRC_DTYPE_I64, I32 = AIRC_DTYPE_I32, I16 = AIRC_DTYPE_I16, I8 = AIRC_DTYPE_I8,
        U8 = AIRC_DTYPE_U8, BOOL = AIRC_DTYPE_BOOL
    };
    /* torch.promote_types, rows and columns in airc's dtype order */
    static const uint8_t table[10][10] = {
        /* F32  */ {F32, F64, F32, F32, F32, F32, F32, F32, F32, F32},
        /* F64  */ {F64, F64, F64, F64, F64, F64, F64, F64, F64, F64},
        /* F16  */ {F32, F64, F16, F32, F16, F16, F16, F16, F16, F16},
        /* BF16 */ {F32, F64, F32, BF16, BF16, BF16, BF16, BF16, BF16, BF16},
        /* I64  */ {F32, F64, F16, BF16, I64, I64, I64, I64, I64, I64},
        /* I32  */ {F32, F64, F16, BF16, I64, I32, I32, I32, I32, I32},
        /* I16  */ {F32, F64, F16, BF16, I64, I32, I16, I16, I16, I16},
        /* I8   */ {F32, F64, F16, BF16, I64, I32, I16, I8, I16, I8},
        /* U8   */ {F32, F64, F16, BF16, I64, I32, I16, I16, U8, U8},
        /* BOOL */ {F32, F64, F16, BF16, I64, I32, I16, I8, U8, BOOL},
    };
    if (a < F32 || a > BOOL)
        return b;
    if (b < F32 || b > BOOL)
        return a;
    return table[a - 1][b - 1];
}

/* c10's combine_categories (complex types aside). */
static airc_dtype combine_categories(airc_dtype higher, airc_dtype lower)
{
    if (airc_dtype_is_floating(higher))
        return higher;
    if (higher == AIRC_DTYPE_BOOL || airc_dtype_is_floating(lower))
        return airc_promote_types(higher, lower);
    return higher != AIRC_DTYPE_UNDEFINED ? higher : lower;
}

airc_dtype airc_result_type(const airc_operand *ops, size_t n)
{
    airc_dtype dim = AIRC_DTYPE_UNDEFINED, zero = AIRC_DTYPE_UNDEFINED,
               wrapped = AIRC_DTYPE_UNDEFINED;
    for (size_t i = 0; i < n; i++) {
        if (!ops[i].present)
            continue;
        airc_dtype cur = ops[i].t.dtype;
        if (ops[i].wrapped) {
            /* a Python float counts as the default dtype */
            if (airc_dtype_is_floating(cur))
                cur = AIRC_DTYPE_F32;
            wrapped = airc_promote_types(wrapped, cur);
        } else if (ops[i].t.ndim > 0) {
            dim = airc_promote_types(dim, cur);
        } else {
            zero = airc_promote_types(zero, cur);
        }
    }
    return combine_categories(dim, combine_categories(zero, wrapped));
}

bool airc_can_cast(airc_dtype from, airc_dtype to)
{
    if (airc_dtype_is_floating(from) && airc_dtype_is_integral(to, false))
        return false;
    if (from != AIRC_DTYPE_BOOL && to == AIRC_DTYPE_BOOL)
        return false;
    return true;
}

const char *airc_dtype_torch_type_name(airc_dtype d)
{
    static const char *const names[] = {"Undefined", "Float", "Double", "Half",  "BFloat16", "Long",
                                        "Int",       "Short", "Char",   "Byte",  "Bool"};
    return d >= 0 && d <= AIRC_DTYPE_BOOL ? names[d] : "Undefined";
}

const char *airc_dtype_type_meta_name(airc_dtype d)
{
    switch (d) {
    case AIRC_DTYPE_F32: return "float";
    case AIRC_DTYPE_F64: return "double";
    case AIRC_DTYPE_F16: return "c10::Half";
    case AIRC_DTYPE_BF16: return "c10::BFloat16";
    case AIRC_DTYPE_I64: return "long int";
    case AIRC_DTYPE_I32: return "int";
    case AIRC_DTYPE_I16: return "short int";
    case AIRC_DTYPE_I8: return "signed char";
    case AIRC_DTYPE_U8: return "unsigned char";
    case AIRC_DTYPE_BOOL: return "bool";
    default: return airc_dtype_name(d);
    }
}

/* ---- shapes ------------------------------------------------------------ */

const char *airc_meta_shape_str(const int64_t *shape, int32_t ndim, char *buf)
{
    size_t o = 0;
    buf[o++] = '[';
    for (int32_t i = 0; i < ndim && o + 26 < AIRC_META_SHAPE_STR; i++)
        o += (size_t)snprintf(buf + o, AIRC_META_SHAPE_STR - o, "%s%" PRId64, i ? ", " : "",
                              shape[i]);
    buf[o++] = ']';
    buf[o] = '\0';
    return buf;
}

airc_status airc_meta_check_numel(const airc_meta_args *a, const int64_t *shape, int32_t ndim)
{
    /* sizes 0 count as 1, as in contiguous strides: those must fit too */
    int64_t span = 1;
    for (int32_t i = 0; i < ndim; i++) {
        if (shape[i] < 0) {
            char buf[AIRC_META_SHAPE_STR];
            return airc_fail(AIRC_E_SHAPE, "%s: negative size in result shape %s", a->op,
                             airc_meta_shape_str(shape, ndim, buf));
        }
        if (__builtin_mul_overflow(span, shape[i] ? shape[i] : 1, &span))
            return airc_meta_overflow(a);
    }
    return AIRC_OK;
}

/* The type as torch's message names it when v overflows dt, else NULL. */
static const char *scalar_overflows(const airc_value *v, airc_dtype dt)
{
    if (!v || (v->kind != AIRC_VALUE_INT && v->kind != AIRC_VALUE_FLOAT))
        return NULL;
    bool is_float = v->kind == AIRC_VALUE_FLOAT;
    return airc_meta_number_overflows(is_float, is_float ? v->u.f : 0, is_float ? 0 : v->u.i, dt);
}

const char *airc_meta_number_overflows(bool is_float, double f, int64_t i, airc_dtype dt)
{
    static const struct {
        airc_dtype dt;
        const char *name;
        double lo, hi; /* the range, as doubles */
    } types[] = {
        {AIRC_DTYPE_F16, "at::Half", -65504.0, 65504.0},
        {AIRC_DTYPE_BF16, "at::BFloat16", -3.3895313892515355e38, 3.3895313892515355e38},
        {AIRC_DTYPE_F32, "float", -FLT_MAX, FLT_MAX},
        {AIRC_DTYPE_I64, "int64_t", -9223372036854775808.0, 9223372036854775807.0},
        {AIRC_DTYPE_I32, "int", INT32_MIN, INT32_MAX},
        {AIRC_DTYPE_I16, "int16_t", INT16_MIN, INT16_MAX},
        {AIRC_DTYPE_I8, "int8_t", INT8_MIN, INT8_MAX},
        {AIRC_DTYPE_U8, "uint8_t", 0, UINT8_MAX},
    };
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
        if (types[k].dt != dt)
            continue;
        if (airc_dtype_is_floating(dt)) {
            double d = is_float ? f : (double)i;
            /* infinities and NaN fit a floating type */
            return isfinite(d) && (d < types[k].lo || d > types[k].hi) ? types[k].name : NULL;
        }
        if (is_float) {
            /* no infinity or NaN in an integer type; compared as doubles,
             * as torch does (so 2^63 passes for int64, and converts to
             * INT64_MIN) */
            return !isfinite(f) || f < types[k].lo || f > types[k].hi ? types[k].name : NULL;
        }
        if (dt == AIRC_DTYPE_U8) /* negatives down to -255 wrap */
            return i < -UINT8_MAX || i > UINT8_MAX ? types[k].name : NULL;
        return (double)i < types[k].lo || (double)i > types[k].hi ? types[k].name : NULL;
    }
    return NULL; /* f64, bool: every int64 or double fits */
}

airc_status airc_meta_check_scalar(const airc_meta_args *a, const char *name, airc_dtype dt)
{
    const char *type = scalar_overflows(airc_meta_get(a, name), dt);
    if (type)
        return airc_fail(AIRC_E_SHAPE, "%s: value cannot be converted to type %s without overflow",
                         a->op, type);
    return AIRC_OK;
}

airc_status airc_meta_no_internal_overlap(const airc_meta_args *a, const airc_tmeta *t)
{
    for (int32_t d = 0; d < t->ndim; d++)
        if (t->shape[d] > 1 && t->strides[d] == 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: unsupported operation: more than one element of the written-to "
                             "tensor refers to a single memory location. Please clone() the "
                             "tensor before performing the operation.",
                             a->op);
    return AIRC_OK;
}

airc_status airc_meta_overflow(const airc_meta_args *a)
{
    return airc_fail(AIRC_E_SHAPE, "%s: the result's size overflows int64", a->op);
}

airc_status airc_meta_broadcast2(const airc_meta_args *a, const char *na, const int64_t *sa,
                                 int32_t da, const char *nb, const int64_t *sb, int32_t db,
                                 int64_t *shape, int32_t *ndim)
{
    int32_t nd = da > db ? da : db;
    int64_t out[AIRC_MAX_DIMS];
    for (int32_t i = nd - 1; i >= 0; i--) {
        int32_t ia = i - (nd - da), ib = i - (nd - db);
        int64_t x = ia >= 0 ? sa[ia] : 1, y = ib >= 0 ? sb[ib] : 1;
        if (x != y && x != 1 && y != 1) {
            char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
            return airc_fail(AIRC_E_SHAPE,
                             "%s: %s has shape %s but %s has shape %s: sizes %" PRId64
                             " and %" PRId64 " at dimension %d do not broadcast",
                             a->op, na, airc_meta_shape_str(sa, da, s1), nb,
                             airc_meta_shape_str(sb, db, s2), x, y, (int)i);
        }
        out[i] = x == 1 ? y : x;
    }
    AIRC_TRY(airc_meta_check_numel(a, out, nd));
    memcpy(shape, out, (size_t)nd * sizeof *out);
    *ndim = nd;
    return AIRC_OK;
}

airc_status airc_meta_broadcast(const airc_meta_args *a, const airc_operand *ops, size_t n,
                                int64_t *shape, int32_t *ndim)
{
    /* pairwise, as torch's infer_size folds; `from` remembers which operand
     * fixed each dim so a message names the two that disagree */
    int64_t cur[AIRC_MAX_DIMS];
    int32_t nd = 0;
    size_t from[AIRC_MAX_DIMS] = {0};
    for (size_t k = 0; k < n; k++) {
        if (!ops[k].present)
            continue;
        const airc_tmeta *t = &ops[k].t;
        int32_t nn = nd > t->ndim ? nd : t->ndim;
        int64_t next[AIRC_MAX_DIMS];
        size_t nfrom[AIRC_MAX_DIMS];
        for (int32_t i = nn - 1; i >= 0; i--) {
            int32_t ic = i - (nn - nd), it = i - (nn - t->ndim);
            int64_t x = ic >= 0 ? cur[ic] : 1, y = it >= 0 ? t->shape[it] : 1;
            size_t fx = ic >= 0 ? from[ic] : k;
            if (x != y && x != 1 && y != 1) {
                const airc_operand *o = &ops[fx];
                return airc_meta_broadcast2(a, o->name, o->t.shape, o->t.ndim, ops[k].name,
                                            t->shape, t->ndim, next, &nn);
            }
            next[i] = x == 1 ? y : x;
            nfrom[i] = x == 1 ? k : fx;
        }
        memcpy(cur, next, sizeof next);
        memcpy(from, nfrom, sizeof nfrom);
        nd = nn;
    }
    AIRC_TRY(airc_meta_check_numel(a, cur, nd));
    memcpy(shape, cur, (size_t)nd * sizeof *cur);
    *ndim = nd;
    return AIRC_OK;
}

airc_status airc_meta_wrap_dim(const airc_meta_args *a, int64_t dim, int32_t ndim,
                               bool wrap_scalar, int32_t *out)
{
    int64_t n = ndim;
    if (n == 0) {
        if (!wrap_scalar)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: dimension specified as %" PRId64 " but tensor has no dimensions",
                             a->op, dim);
        n = 1;
    }
    if (dim < -n || dim >= n)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Dimension out of range (expected to be in range of [%" PRId64
                         ", %" PRId64 "], but got %" PRId64 ")",
                         a->op, -n, n - 1, dim);
    *out = (int32_t)(dim < 0 ? dim + n : dim);
    return AIRC_OK;
}

airc_status airc_meta_dim_mask(const airc_meta_args *a, const int64_t *dims, int32_t nd,
                               int32_t ndim, bool *mask)
{
    memset(mask, 0, AIRC_MAX_DIMS * sizeof *mask);
    bool seen[AIRC_MAX_DIMS] = {false}; /* a 0-dim tensor's dims wrap to 0: [0, -1] repeats */
    for (int32_t i = 0; i < nd; i++) {
        int32_t d = 0;
        AIRC_TRY(airc_meta_wrap_dim(a, dims[i], ndim, true, &d));
        if (seen[d])
            return airc_fail(AIRC_E_SHAPE, "%s: dim %d appears multiple times in the list of dims",
                             a->op, (int)d);
        seen[d] = true;
        mask[d] = ndim > 0;
    }
    return AIRC_OK;
}

airc_status airc_meta_infer_size(const airc_meta_args *a, const int64_t *shape, int32_t n,
                                 int64_t numel, int64_t *out)
{
    char buf[AIRC_META_SHAPE_STR];
    int64_t newsize = 1;
    int32_t infer = -1;
    for (int32_t i = 0; i < n; i++) {
        if (shape[i] == -1) {
            if (infer >= 0)
                return airc_fail(AIRC_E_SHAPE, "%s: only one dimension can be inferred", a->op);
            infer = i;
        } else if (shape[i] >= 0) {
            if (shape[i] && newsize > INT64_MAX / shape[i])
                return airc_fail(AIRC_E_SHAPE, "%s: shape overflows int64", a->op);
            newsize *= shape[i];
        } else {
            return airc_fail(AIRC_E_SHAPE, "%s: invalid shape dimension %" PRId64, a->op,
                             shape[i]);
        }
        out[i] = shape[i];
    }
    if (numel == newsize || (infer >= 0 && newsize > 0 && numel % newsize == 0)) {
        if (infer >= 0) {
            /* torch: a -1 next to a zero size is ambiguous */
            if (newsize == 0)
                return airc_fail(AIRC_E_SHAPE,
                                 "%s: cannot reshape tensor of 0 elements into shape %s because "
                                 "the unspecified dimension size -1 can be any value and is "
                                 "ambiguous",
                                 a->op, airc_meta_shape_str(shape, n, buf));
            out[infer] = numel / newsize;
        }
        return AIRC_OK;
    }
    return airc_fail(AIRC_E_SHAPE, "%s: shape '%s' is invalid for input of size %" PRId64, a->op,
                     airc_meta_shape_str(shape, n, buf), numel);
}

bool airc_meta_view_strides(const airc_tmeta *in, const int64_t *newshape, int32_t n,
                            int64_t *newstrides)
{
    /* torch's computeStride (TensorUtils.cpp) */
    if (in->ndim == 0) {
        for (int32_t i = 0; i < n; i++)
            newstrides[i] = 1;
        return true;
    }
    int64_t numel = airc_tmeta_numel(in);
    if (numel == 0) {
        bool same = n == in->ndim;
        for (int32_t i = 0; same && i < n; i++)
            same = newshape[i] == in->shape[i];
        if (same) {
            memcpy(newstrides, in->strides, (size_t)n * sizeof *newstrides);
            return true;
        }
        /* contiguous strides of an empty shape, whose other sizes may
         * multiply past int64: saturated (nothing is ever read) */
        for (int32_t d = n - 1; d >= 0; d--) {
            int64_t s = 1;
            if (d < n - 1 && __builtin_mul_overflow(newshape[d + 1] > 1 ? newshape[d + 1] : 1,
                                                    newstrides[d + 1], &s))
                s = INT64_MAX;
            newstrides[d] = s;
        }
        return true;
    }
    int32_t view_d = n - 1;
    int64_t chunk_base_stride = in->strides[in->ndim - 1];
    int64_t tensor_numel = 1, view_numel = 1;
    for (int32_t td = in->ndim - 1; td >= 0; td--) {
        int64_t chunk_stride;
        tensor_numel *= in->shape[td];
        /* an overflowing product cannot equal a real stride */
        bool overflow = __builtin_mul_overflow(tensor_numel, chunk_base_stride, &chunk_stride);
        if (td == 0 ||
            (in->shape[td - 1] != 1 && (overflow || in->strides[td - 1] != chunk_stride))) {
            while (view_d >= 0 && (view_numel < tensor_numel || newshape[view_d] == 1)) {
                if (__builtin_mul_overflow(view_numel, chunk_base_stride, &newstrides[view_d]))
                    return false;
                view_numel *= newshape[view_d];
                view_d--;
            }
            if (view_numel != tensor_numel)
                return false;
            if (td > 0) {
                chunk_base_stride = in->strides[td - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    return view_d == -1;
}

void airc_meta_expand_to(const airc_tmeta *t, const int64_t *shape, int32_t ndim,
                         airc_tmeta *out)
{
    airc_tmeta r = *t;
    r.ndim = ndim;
    for (int32_t i = ndim - 1; i >= 0; i--) {
        int32_t dim = t->ndim - 1 - (ndim - 1 - i);
        int64_t size = dim >= 0 ? t->shape[dim] : 1;
        int64_t stride = 1;
        if (dim >= 0)
            stride = t->strides[dim];
        else if (i + 1 < ndim && __builtin_mul_overflow(r.shape[i + 1], r.strides[i + 1], &stride))
            stride = INT64_MAX; /* only a size-1 dim keeps it: never used */
        if (size != shape[i]) {
            size = shape[i];
            stride = 0;
        }
        r.shape[i] = size;
        r.strides[i] = stride;
    }
    *out = r;
}

/* ---- output ------------------------------------------------------------ */

/* torch computes the bytes of every tensor it makes (storage extent times
 * element size) and refuses one that overflows int64: sizes [2^62] fit in
 * numel but not in bytes of f32. A view's extent lies in its base's. */
static airc_status check_nbytes(const airc_node *n, const airc_tmeta *t)
{
    int64_t extent = 1, step;
    for (int32_t i = 0; i < t->ndim; i++)
        if (t->shape[i] == 0)
            return AIRC_OK;
    bool overflow = false;
    for (int32_t i = 0; i < t->ndim && !overflow; i++) {
        int64_t st = t->strides[i] < 0 ? -t->strides[i] : t->strides[i];
        overflow = __builtin_mul_overflow(st, t->shape[i] - 1, &step) ||
                   __builtin_add_overflow(extent, step, &extent);
    }
    if (overflow || __builtin_mul_overflow(extent, (int64_t)airc_dtype_size(t->dtype), &step)) {
        char buf[AIRC_META_SHAPE_STR];
        return airc_fail(AIRC_E_SHAPE, "%s: Storage size calculation overflowed with sizes=%s",
                         n->op ? n->op->qualname : n->name,
                         airc_meta_shape_str(t->shape, t->ndim, buf));
    }
    return AIRC_OK;
}

airc_status airc_meta_set(airc_node *n, const airc_tmeta *t)
{
    AIRC_TRY(check_nbytes(n, t));
    return airc_node_set_meta(n, t->dtype, t->ndim, t->shape, t->strides);
}

airc_status airc_meta_set_tuple(airc_node *n, const airc_tmeta *ts, size_t count)
{
    for (size_t i = 0; i < count; i++)
        AIRC_TRY(check_nbytes(n, &ts[i]));
    AIRC_TRY(airc_node_set_meta_tuple(n, count));
    for (size_t i = 0; i < count; i++)
        AIRC_TRY(airc_node_set_output_meta(n, i, ts[i].dtype, ts[i].ndim, ts[i].shape,
                                           ts[i].strides));
    return AIRC_OK;
}

airc_status airc_meta_same_dtype(const airc_meta_args *a, const char *na, const airc_tmeta *x,
                                 const char *nb, const airc_tmeta *y)
{
    if (x->dtype == y->dtype)
        return AIRC_OK;
    return airc_fail(AIRC_E_SHAPE, "%s: %s has dtype %s but %s has dtype %s: dtypes must match",
                     a->op, na, airc_dtype_name(x->dtype), nb, airc_dtype_name(y->dtype));
}
