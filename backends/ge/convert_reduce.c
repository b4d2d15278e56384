/* Reductions to and from Ascend IR, with TorchAir's choices:
 * sum / mean / amax / amin / max / min / prod / all / any -> ReduceSum,
 * ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceAll, ReduceAny (axes a
 * Const int64 input, keep_dims an attribute); max.dim / min.dim ->
 * ArgMaxWithValue / ArgMinWithValue (outputs indice, values); argmax /
 * argmin -> ArgMaxV2 / ArgMin (dimension a Const; no dim: a Reshape to 1-d
 * first, and with keepdim one to all ones after; keepdim: ArgMaxWithValue's
 * indices); cumsum / cumprod -> Cumsum / Cumprod; softmax /
 * log_softmax -> SoftmaxV2 / LogSoftmaxV2 (attribute axes); var / var_mean
 * -> ReduceMean + Sub + Mul + ReduceSum + RealDiv (TorchAir has no var
 * converter; this is torch's own formula in real GE ops), std -> the same
 * and Sqrt; logsumexp -> ReduceMax, IsInf + SelectV2 (an infinite max is
 * 0), Sub, Exp, ReduceSum, Log, Add; norm, linalg_vector_norm -> LpNormV2; nansum ->
 * SelectV2(IsNan) of 0, then ReduceSum; count_nonzero -> Cast to bool,
 * then to int64, ReduceSum; aminmax -> ReduceMin and ReduceMax.
 * The input is cast to the dtype the node computes in first (sum of ints ->
 * int64, all/any -> bool, a dtype= argument), as TorchAir's dtype_promote
 * does. Axes are always explicit and non-negative: GE reads empty axes as
 * "reduce nothing", which only a 0-d input gets. */
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"
#include "ops/meta_util.h"
#include "ops/ops.h"
#include <string.h>

/* ---- shared helpers ------------------------------------------------------------ */

/* The int list / int / None bound to argument arg: *n items in out, *none
 * when None (or absent). */
static airc_status int_list_arg(airc_ge_builder *b, size_t arg, int64_t *out, size_t cap, size_t *n,
                                bool *none)
{
    const airc_value *v = airc_ge_arg(b, arg);
    *n = 0;
    *none = !v || v->kind == AIRC_VALUE_NONE;
    if (*none)
        return AIRC_OK;
    if (v->kind == AIRC_VALUE_INT) {
        out[0] = v->u.i;
        *n = 1;
        return AIRC_OK;
    }
    if (v->kind != AIRC_VALUE_LIST && v->kind != AIRC_VALUE_TUPLE)
        return airc_fail(AIRC_E_UNSUPPORTED, "argument %zu is not an int list", arg);
    if (v->len > cap)
        return airc_fail(AIRC_E_UNSUPPORTED, "argument %zu has more than %zu items", arg, cap);
    for (uint32_t i = 0; i < v->len; i++)
        if (airc_value_get_int(v->u.items[i], &out[i]) != AIRC_OK)
            return airc_fail(AIRC_E_UNSUPPORTED, "argument %zu is not an int list", arg);
    *n = v->len;
    return AIRC_OK;
}

/* Dims wrapped into [0, rank) (a 0-d tensor takes 0 and -1 and reduces
 * nothing); empty or absent means every dim. Sorted, duplicates refused. */
static airc_status norm_dims(int32_t rank, int64_t *dims, size_t *n, bool all)
{
    if (all || !*n) {
        for (int32_t i = 0; i < rank; i++)
            dims[i] = i;
        *n = (size_t)rank;
        return AIRC_OK;
    }
    if (!rank) {
        for (size_t i = 0; i < *n; i++)
            if (dims[i] < -1 || dims[i] > 0)
                return airc_fail(AIRC_E_INVALID_ARGUMENT,
                                 "dim %lld is out of range for a 0-d tensor", (long long)dims[i]);
        *n = 0;
        return AIRC_OK;
    }
    for (size_t i = 0; i < *n; i++) {
        if (dims[i] < -rank || dims[i] >= rank)
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "dim %lld is out of range for rank %d",
                             (long long)dims[i], rank);
        if (dims[i] < 0)
            dims[i] += rank;
    }
    for (size_t i = 1; i < *n; i++) /* insertion sort: a handful of dims */
        for (size_t j = i; j > 0 && dims[j - 1] > dims[j]; j--) {
            int64_t t = dims[j];
            dims[j] = dims[j - 1];
            dims[j - 1] = t;
        }
    for (size_t i = 1; i < *n; i++)
        if (dims[i] == dims[i - 1])
            return airc_fail(AIRC_E_INVALID_ARGUMENT, "dim %lld is repeated", (long long)dims[i]);
    return AIRC_OK;
}

/* The reduced dims from argument arg (-1: none; absent, None or empty:
 * every dim), wrapped and sorted by norm_dims, into dims[0..*n). */
static airc_status dims_arg(airc_ge_builder *b, int arg, int32_t rank, int64_t *dims, size_t *n)
{
    bool none = true;
    *n = 0;
    if (arg >= 0)
        AIRC_TRY(int_list_arg(b, (size_t)arg, dims, AIRC_MAX_DIMS, n, &none));
    return norm_dims(rank, dims, n, none);
}

/* x's dtype and shape (copied into shape). */
static airc_status meta_of(airc_ge_builder *b, airc_ge_tensor x, airc_dtype *dt, int32_t *nd,
                           int64_t *shape)
{
    const int64_t *s;
    AIRC_TRY(airc_ge_tensor_meta(b, x, dt, nd, &s));
    memcpy(shape, s, sizeof *shape * (size_t)*nd);
    return AIRC_OK;
}

airc_status airc_ge_reduce(airc_ge_builder *b, const char *type, airc_ge_tensor x,
                           const int64_t *dims, size_t n, bool keep, airc_dtype dt, int32_t nd,
                           const int64_t *shape, airc_ge_tensor *out)
{
    airc_ge_tensor axes;
    AIRC_TRY(airc_ge_const_ints(b, dims, n, &axes));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, type, &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "axes", axes));
    AIRC_TRY(airc_ge_op_attr_bool(op, "keep_dims", keep));
    return airc_ge_op_output(op, "y", dt, nd, shape, out);
}

/* The shape of x reduced over dims (kept as 1 or dropped). */
static int32_t reduced_shape(int32_t nd, const int64_t *shape, const int64_t *dims, size_t n,
                             bool keep, int64_t *out)
{
    int32_t k = 0;
    for (int32_t i = 0; i < nd; i++) {
        bool r = false;
        for (size_t j = 0; j < n; j++)
            r |= dims[j] == i;
        if (!r)
            out[k++] = shape[i];
        else if (keep)
            out[k++] = 1;
    }
    return k;
}

/* ---- Reduce* ------------------------------------------------------------------------ */

/* What an element becomes before the reduction. */
typedef enum reduce_pre {
    PRE_NONE,
    PRE_NONZERO, /* Cast to bool, then to the result (count_nonzero) */
    PRE_NAN_ZERO /* SelectV2(IsNan(x), 0, x) (nansum) */
} reduce_pre;

typedef struct reduce_desc {
    const char *ge;
    int dim_arg;  /* -1: every dim */
    int keep_arg; /* -1: keepdim false */
    bool logical; /* computes in bool (all/any) */
    reduce_pre pre;
} reduce_desc;

static const reduce_desc r_sum = {"ReduceSum", -1, -1, false, PRE_NONE};
static const reduce_desc r_sum_dim = {"ReduceSum", 1, 2, false, PRE_NONE};
static const reduce_desc r_mean = {"ReduceMean", -1, -1, false, PRE_NONE};
static const reduce_desc r_mean_dim = {"ReduceMean", 1, 2, false, PRE_NONE};
static const reduce_desc r_amax = {"ReduceMax", 1, 2, false, PRE_NONE};
static const reduce_desc r_amin = {"ReduceMin", 1, 2, false, PRE_NONE};
static const reduce_desc r_max = {"ReduceMax", -1, -1, false, PRE_NONE};
static const reduce_desc r_min = {"ReduceMin", -1, -1, false, PRE_NONE};
static const reduce_desc r_prod = {"ReduceProd", -1, -1, false, PRE_NONE};
static const reduce_desc r_prod_dim = {"ReduceProd", 1, 2, false, PRE_NONE};
static const reduce_desc r_all = {"ReduceAll", -1, -1, true, PRE_NONE};
static const reduce_desc r_all_dim = {"ReduceAll", 1, 2, true, PRE_NONE};
static const reduce_desc r_any = {"ReduceAny", -1, -1, true, PRE_NONE};
static const reduce_desc r_any_dim = {"ReduceAny", 1, 2, true, PRE_NONE};
static const reduce_desc r_nansum = {"ReduceSum", 1, 2, false, PRE_NAN_ZERO};
static const reduce_desc r_count_nonzero = {"ReduceSum", 1, -1, false, PRE_NONZERO};

static airc_status conv_reduce(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const reduce_desc *d = ud;
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    airc_dtype in_dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t shape[AIRC_MAX_DIMS];
    AIRC_TRY(meta_of(b, x, &in_dt, &nd, shape));
    int64_t dims[AIRC_MAX_DIMS];
    size_t ndims = 0;
    AIRC_TRY(dims_arg(b, d->dim_arg, nd, dims, &ndims));
    bool keep = d->keep_arg >= 0 && airc_ge_bool_arg(b, (size_t)d->keep_arg, false);
    airc_dtype want = airc_ge_node_dtype(b, 0);
    airc_dtype comp = d->logical ? AIRC_DTYPE_BOOL : want;
    if (d->pre == PRE_NONZERO)
        AIRC_TRY(airc_ge_cast(b, x, AIRC_DTYPE_BOOL, &x));
    AIRC_TRY(airc_ge_cast(b, x, comp, &x));
    if (d->pre == PRE_NAN_ZERO && airc_dtype_is_floating(comp)) {
        airc_ge_tensor nan, zero;
        AIRC_TRY(airc_ge_ew_op(b, "IsNan", &x, 1, AIRC_DTYPE_BOOL, nd, shape, &nan));
        AIRC_TRY(airc_ge_const_scalar(b, comp, 0, &zero));
        AIRC_TRY(airc_ge_select(b, nan, zero, x, comp, nd, shape, &x));
    }
    const airc_tmeta *o = &n->out[0];
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_reduce(b, d->ge, x, dims, ndims, keep, comp, o->ndim, o->shape, &y));
    AIRC_TRY(airc_ge_cast(b, y, want, &y));
    return airc_ge_set_result(b, 0, y);
}

/* aminmax(self, *, dim=None, keepdim=False): ReduceMin and ReduceMax */
static airc_status conv_aminmax(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_ge_tensor x, y;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t shape[AIRC_MAX_DIMS], dims[AIRC_MAX_DIMS];
    AIRC_TRY(meta_of(b, x, &dt, &nd, shape));
    size_t ndims = 0;
    AIRC_TRY(dims_arg(b, 1, nd, dims, &ndims));
    bool keep = airc_ge_bool_arg(b, 2, false);
    static const char *const types[] = {"ReduceMin", "ReduceMax"};
    for (int j = 0; j < 2; j++) {
        const airc_tmeta *o = &n->out[j];
        AIRC_TRY(airc_ge_reduce(b, types[j], x, dims, ndims, keep, dt, o->ndim, o->shape, &y));
        if (nd == 0 && o->ndim == 1) /* torch's keepdim of a 0-dim self: [1] */
            AIRC_TRY(airc_ge_reshape(b, y, dt, o->ndim, o->shape, &y));
        AIRC_TRY(airc_ge_set_result(b, (size_t)j, y));
    }
    return AIRC_OK;
}

/* ---- max.dim / min.dim, argmax / argmin ----------------------------------------------- */

typedef struct arg_desc {
    const char *with_value; /* ArgMaxWithValue */
    const char *v2;         /* ArgMaxV2 */
} arg_desc;

static const arg_desc a_max = {"ArgMaxWithValue", "ArgMaxV2"};
static const arg_desc a_min = {"ArgMinWithValue", "ArgMin"};

static airc_status wrap_dim(int64_t *dim, int32_t rank)
{
    int32_t r = rank ? rank : 1;
    if (*dim < -r || *dim >= r)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "dim %lld is out of range for rank %d",
                         (long long)*dim, rank);
    if (*dim < 0)
        *dim += r;
    return AIRC_OK;
}

/* ArgMaxWithValue(x, dimension, keep_dims): indice (int64) and values. */
static airc_status with_value(airc_ge_builder *b, const char *type, airc_ge_tensor x, int64_t dim,
                              bool keep, const airc_tmeta *om, airc_ge_tensor *indice,
                              airc_ge_tensor *values)
{
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    const int64_t *s;
    AIRC_TRY(airc_ge_tensor_meta(b, x, &dt, &nd, &s));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, type, &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_attr_int(op, "dimension", dim));
    AIRC_TRY(airc_ge_op_attr_bool(op, "keep_dims", keep));
    AIRC_TRY(airc_ge_op_output(op, "indice", AIRC_DTYPE_I64, om->ndim, om->shape, indice));
    return airc_ge_op_output(op, "values", dt, om->ndim, om->shape, values);
}

static airc_status conv_max_dim(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const arg_desc *d = ud;
    airc_ge_tensor x, idx, val;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    AIRC_TRY(airc_ge_tensor_meta(b, x, &dt, &nd, NULL));
    int64_t dim = airc_ge_int_arg(b, 1, 0);
    AIRC_TRY(wrap_dim(&dim, nd));
    AIRC_TRY(with_value(b, d->with_value, x, dim, airc_ge_bool_arg(b, 2, false), &n->out[0], &idx,
                        &val));
    AIRC_TRY(airc_ge_set_result(b, 0, val));
    return airc_ge_set_result(b, 1, idx);
}

/* argmax(self, dim=None, keepdim=False): no dim -> Reshape(x, [-1]) then
 * ArgMaxV2 over 0 (keepdim: then a Reshape to all ones); keepdim ->
 * ArgMaxWithValue's indices; else ArgMaxV2. */
static airc_status conv_argmax(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const arg_desc *d = ud;
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t shape[AIRC_MAX_DIMS];
    AIRC_TRY(meta_of(b, x, &dt, &nd, shape));
    const airc_value *dv = airc_ge_arg(b, 1);
    bool keep = airc_ge_bool_arg(b, 2, false);
    const airc_tmeta *om = &n->out[0];
    int64_t dim = 0;
    bool flat = !dv || dv->kind == AIRC_VALUE_NONE;
    if (flat) {
        int64_t numel = 1;
        for (int32_t i = 0; i < nd; i++)
            numel *= shape[i];
        airc_ge_tensor s;
        int64_t minus1 = -1;
        AIRC_TRY(airc_ge_const_ints(b, &minus1, 1, &s));
        airc_ge_op *r;
        AIRC_TRY(airc_ge_op_create(b, "Reshape", &r));
        AIRC_TRY(airc_ge_op_input(r, "x", x));
        AIRC_TRY(airc_ge_op_input(r, "shape", s));
        AIRC_TRY(airc_ge_op_attr_int(r, "axis", 0));
        AIRC_TRY(airc_ge_op_attr_int(r, "num_axes", -1));
        AIRC_TRY(airc_ge_op_output(r, "y", dt, 1, &numel, &x));
    } else {
        AIRC_TRY(airc_value_get_int(dv, &dim));
        AIRC_TRY(wrap_dim(&dim, nd));
        if (keep) {
            airc_ge_tensor idx, val;
            AIRC_TRY(with_value(b, d->with_value, x, dim, true, om, &idx, &val));
            return airc_ge_set_result(b, 0, idx);
        }
    }
    airc_ge_tensor dimension;
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, (double)dim, &dimension));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, d->v2, &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "dimension", dimension));
    AIRC_TRY(airc_ge_op_attr_dtype(op, "dtype", AIRC_DTYPE_I64));
    airc_ge_tensor y;
    if (!flat || !keep) {
        AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
        return airc_ge_set_result(b, 0, y);
    }
    /* dim=None, keepdim=True: the 0-d index reshaped to the result's
     * all-ones shape */
    airc_ge_tensor s;
    AIRC_TRY(airc_ge_op_output(op, "y", AIRC_DTYPE_I64, 0, NULL, &y));
    AIRC_TRY(airc_ge_const_ints(b, om->shape, (size_t)om->ndim, &s));
    airc_ge_op *r;
    AIRC_TRY(airc_ge_op_create(b, "Reshape", &r));
    AIRC_TRY(airc_ge_op_input(r, "x", y));
    AIRC_TRY(airc_ge_op_input(r, "shape", s));
    AIRC_TRY(airc_ge_op_output_like_node(r, "y", 0, &y));
    return airc_ge_set_result(b, 0, y);
}

/* ---- cumsum, softmax ------------------------------------------------------------------- */

/* cumsum / cumprod (ud: the GE type) -> Cumsum / Cumprod(x, axis). A 0-dim
 * self converted to a narrower integer dtype is refused: torch converts
 * its value with an overflow check, which a Cast does not make. */
static airc_status conv_cumsum(airc_ge_builder *b, const airc_node *n, void *ud)
{
    airc_ge_tensor x, axis;
    const airc_node *self =
        n->nargs && n->args[0]->kind == AIRC_VALUE_NODE ? n->args[0]->u.node : NULL;
    airc_dtype to = airc_ge_node_dtype(b, 0);
    if (self && self->meta_kind == AIRC_META_TENSOR && self->out[0].ndim == 0 &&
        airc_dtype_is_integral(to, false) &&
        (airc_dtype_is_floating(self->out[0].dtype) ||
         airc_dtype_size(self->out[0].dtype) > airc_dtype_size(to)))
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s of a 0-dim %s into %s: torch checks the value for overflow, which "
                         "Ascend IR's Cast does not",
                         n->op->qualname, airc_dtype_name(self->out[0].dtype), airc_dtype_name(to));
    AIRC_TRY(airc_ge_operand(b, 0, airc_ge_node_dtype(b, 0), &x));
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    AIRC_TRY(airc_ge_tensor_meta(b, x, &dt, &nd, NULL));
    int64_t dim = airc_ge_int_arg(b, 1, 0);
    AIRC_TRY(wrap_dim(&dim, nd));
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, (double)dim, &axis));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, ud, &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "axis", axis));
    AIRC_TRY(airc_ge_op_attr_bool(op, "exclusive", 0));
    AIRC_TRY(airc_ge_op_attr_bool(op, "reverse", 0));
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    return airc_ge_set_result(b, 0, y);
}

/* _softmax(self, dim, half_to_float) / softmax.int(self, dim, dtype): the
 * input is cast to the result dtype first, so half_to_float is false. */
static airc_status conv_softmax(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    bool log = ud != NULL;
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_operand(b, 0, airc_ge_node_dtype(b, 0), &x));
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    AIRC_TRY(airc_ge_tensor_meta(b, x, &dt, &nd, NULL));
    int64_t dim = airc_ge_int_arg(b, 1, -1);
    AIRC_TRY(wrap_dim(&dim, nd));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, log ? "LogSoftmaxV2" : "SoftmaxV2", &op));
    AIRC_TRY(airc_ge_op_input(op, log ? "logits" : "x", x));
    AIRC_TRY(airc_ge_op_attr_ints(op, "axes", &dim, 1));
    if (!log)
        AIRC_TRY(airc_ge_op_attr_bool(op, "half_to_float", 0));
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_op_output_like_node(op, log ? "logsoftmax" : "y", 0, &y));
    return airc_ge_set_result(b, 0, y);
}

/* ---- var, var_mean ----------------------------------------------------------------------- */

typedef struct var_desc {
    int dim_arg, keep_arg;
    int unbiased_arg;   /* var.default / var.dim: bool unbiased */
    int correction_arg; /* var.correction: int? correction */
    bool with_mean;     /* var_mean: (var, mean) */
    bool root;          /* std: the variance's Sqrt */
} var_desc;

static const var_desc v_default = {-1, -1, 1, -1, false, false};
static const var_desc v_dim = {1, 3, 2, -1, false, false};
static const var_desc v_correction = {1, 3, -1, 2, false, false};
static const var_desc v_mean_correction = {1, 3, -1, 2, true, false};
static const var_desc v_std_correction = {1, 3, -1, 2, false, true};
static const var_desc v_std_mean_correction = {1, 3, -1, 2, true, true};

/* var = ReduceSum((x - ReduceMean(x, keep))^2) / max(0, N - correction). */
static airc_status conv_var(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const var_desc *d = ud;
    airc_dtype want = airc_ge_node_dtype(b, 0);
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_operand(b, 0, want, &x));
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t shape[AIRC_MAX_DIMS];
    AIRC_TRY(meta_of(b, x, &dt, &nd, shape));
    int64_t dims[AIRC_MAX_DIMS];
    size_t ndims = 0;
    AIRC_TRY(dims_arg(b, d->dim_arg, nd, dims, &ndims));
    bool keep = d->keep_arg >= 0 && airc_ge_bool_arg(b, (size_t)d->keep_arg, false);
    int64_t corr = 1;
    if (d->unbiased_arg >= 0)
        corr = airc_ge_bool_arg(b, (size_t)d->unbiased_arg, true) ? 1 : 0;
    else
        corr = airc_ge_int_arg(b, (size_t)d->correction_arg, 1);
    int64_t count = 1;
    for (size_t i = 0; i < ndims; i++)
        count *= shape[dims[i]];
    int64_t kshape[AIRC_MAX_DIMS];
    int32_t knd = reduced_shape(nd, shape, dims, ndims, true, kshape);
    airc_ge_tensor mean_k, diff, sq, ss, div, var;
    AIRC_TRY(airc_ge_reduce(b, "ReduceMean", x, dims, ndims, true, dt, knd, kshape, &mean_k));
    static const char *const xy[] = {"x1", "x2"};
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Sub", &op));
    AIRC_TRY(airc_ge_op_input(op, xy[0], x));
    AIRC_TRY(airc_ge_op_input(op, xy[1], mean_k));
    AIRC_TRY(airc_ge_op_output(op, "y", dt, nd, shape, &diff));
    AIRC_TRY(airc_ge_op_create(b, "Mul", &op));
    AIRC_TRY(airc_ge_op_input(op, xy[0], diff));
    AIRC_TRY(airc_ge_op_input(op, xy[1], diff));
    AIRC_TRY(airc_ge_op_output(op, "y", dt, nd, shape, &sq));
    const airc_tmeta *om = &n->out[0];
    AIRC_TRY(airc_ge_reduce(b, "ReduceSum", sq, dims, ndims, keep, dt, om->ndim, om->shape, &ss));
    /* the divisor max(0, N - correction) in double, as the CPU kernel: a
     * correction near INT64_MIN overflows int64 */
    double den = (double)count - (double)corr;
    AIRC_TRY(airc_ge_const_scalar(b, dt, den > 0 ? den : 0, &div));
    AIRC_TRY(airc_ge_op_create(b, "RealDiv", &op));
    AIRC_TRY(airc_ge_op_input(op, xy[0], ss));
    AIRC_TRY(airc_ge_op_input(op, xy[1], div));
    AIRC_TRY(airc_ge_op_output(op, "y", dt, om->ndim, om->shape, &var));
    if (d->root)
        AIRC_TRY(airc_ge_ew_op(b, "Sqrt", &var, 1, dt, om->ndim, om->shape, &var));
    AIRC_TRY(airc_ge_set_result(b, 0, var));
    if (!d->with_mean)
        return AIRC_OK;
    airc_ge_tensor mean = mean_k;
    if (!keep)
        AIRC_TRY(
            airc_ge_reduce(b, "ReduceMean", x, dims, ndims, false, dt, om->ndim, om->shape, &mean));
    return airc_ge_set_result(b, 1, mean);
}

/* ---- logsumexp, norm ---------------------------------------------------------------------- */

/* logsumexp(self, dim, keepdim) = Log(ReduceSum(Exp(x - m))) + m, m =
 * ReduceMax(x, keep) with an infinite max replaced by 0 (IsInf,
 * SelectV2), as torch does. */
static airc_status conv_logsumexp(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_dtype dt = airc_ge_node_dtype(b, 0);
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_operand(b, 0, dt, &x));
    int32_t nd = 0;
    int64_t shape[AIRC_MAX_DIMS], dims[AIRC_MAX_DIMS], kshape[AIRC_MAX_DIMS];
    AIRC_TRY(meta_of(b, x, &dt, &nd, shape));
    size_t ndims = 0;
    AIRC_TRY(dims_arg(b, 1, nd, dims, &ndims));
    bool keep = airc_ge_bool_arg(b, 2, false);
    int32_t knd = reduced_shape(nd, shape, dims, ndims, true, kshape);
    const airc_tmeta *om = &n->out[0];
    airc_ge_tensor m, inf, zero, t[2], y;
    AIRC_TRY(airc_ge_reduce(b, "ReduceMax", x, dims, ndims, true, dt, knd, kshape, &m));
    AIRC_TRY(airc_ge_ew_op(b, "IsInf", &m, 1, AIRC_DTYPE_BOOL, knd, kshape, &inf));
    AIRC_TRY(airc_ge_const_scalar(b, dt, 0, &zero));
    AIRC_TRY(airc_ge_select(b, inf, zero, m, dt, knd, kshape, &m));
    t[0] = x;
    t[1] = m;
    AIRC_TRY(airc_ge_ew_op(b, "Sub", t, 2, dt, nd, shape, &t[0]));
    AIRC_TRY(airc_ge_ew_op(b, "Exp", t, 1, dt, nd, shape, &t[0]));
    AIRC_TRY(
        airc_ge_reduce(b, "ReduceSum", t[0], dims, ndims, keep, dt, om->ndim, om->shape, &t[0]));
    AIRC_TRY(airc_ge_ew_op(b, "Log", t, 1, dt, om->ndim, om->shape, &t[0]));
    if (!keep)
        AIRC_TRY(airc_ge_reshape(b, m, dt, om->ndim, om->shape, &m));
    t[1] = m;
    AIRC_TRY(airc_ge_ew_op(b, "Add", t, 2, dt, om->ndim, om->shape, &y));
    return airc_ge_set_result(b, 0, y);
}

/* norm.ScalarOpt_dim(self, p, dim, keepdim) and linalg_vector_norm(self,
 * ord, dim, keepdim, *, dtype) -> LpNormV2(x; p, axes, keepdim, epsilon 0)
 * of x cast to the result's dtype (dtype=), as TorchAir; p None is 2. */
/* LpNormV2(x; p from argument p_arg, every dim, no keepdim) of x */
static airc_status lp_norm_all(airc_ge_builder *b, airc_ge_tensor x, size_t p_arg)
{
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t shape[AIRC_MAX_DIMS], dims[AIRC_MAX_DIMS];
    AIRC_TRY(meta_of(b, x, &dt, &nd, shape));
    size_t ndims = 0;
    AIRC_TRY(dims_arg(b, -1, nd, dims, &ndims));
    airc_ge_op *op;
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_op_create(b, "LpNormV2", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_attr_float(op, "p", airc_ge_number_arg(b, p_arg, 2.0)));
    AIRC_TRY(airc_ge_op_attr_ints(op, "axes", dims, ndims));
    AIRC_TRY(airc_ge_op_attr_bool(op, "keepdim", false));
    AIRC_TRY(airc_ge_op_attr_float(op, "epsilon", 0));
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    return airc_ge_set_result(b, 0, y);
}

static airc_status conv_norm(airc_ge_builder *b, const airc_node *n, void *ud)
{
    airc_dtype dt = airc_ge_node_dtype(b, 0);
    airc_ge_tensor x, y;
    AIRC_TRY(airc_ge_operand(b, 0, dt, &x));
    if (ud) /* norm.Scalar / norm.ScalarOpt_dtype: every dim */
        return lp_norm_all(b, x, 1);
    int32_t nd = 0;
    int64_t shape[AIRC_MAX_DIMS], dims[AIRC_MAX_DIMS];
    AIRC_TRY(meta_of(b, x, &dt, &nd, shape));
    size_t ndims = 0;
    AIRC_TRY(dims_arg(b, 2, nd, dims, &ndims));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "LpNormV2", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_attr_float(op, "p", airc_ge_number_arg(b, 1, 2.0)));
    AIRC_TRY(airc_ge_op_attr_ints(op, "axes", dims, ndims));
    AIRC_TRY(airc_ge_op_attr_bool(op, "keepdim", airc_ge_bool_arg(b, 3, false)));
    AIRC_TRY(airc_ge_op_attr_float(op, "epsilon", 0));
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    (void)n;
    return airc_ge_set_result(b, 0, y);
}

/* dist(self, other, p): LpNormV2 over every dim of Sub(self, other) in the
 * result's dtype (torch's norm(self - other, p)) */
static airc_status conv_dist(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_dtype dt = n->out[0].dtype;
    airc_ge_tensor in[2], d;
    AIRC_TRY(airc_ge_operand(b, 0, dt, &in[0]));
    AIRC_TRY(airc_ge_operand(b, 1, dt, &in[1]));
    /* the broadcast shape: of both operands' metas */
    const airc_value *v0 = airc_ge_arg(b, 0), *v1 = airc_ge_arg(b, 1);
    if (!v0 || !v1 || v0->kind != AIRC_VALUE_NODE || v1->kind != AIRC_VALUE_NODE)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: self and other must be tensors", n->target);
    const airc_tmeta *m0 = &v0->u.node->out[0], *m1 = &v1->u.node->out[0];
    int32_t nd = m0->ndim > m1->ndim ? m0->ndim : m1->ndim;
    int64_t shape[AIRC_MAX_DIMS];
    for (int32_t i = 0; i < nd; i++) {
        int32_t i0 = i - (nd - m0->ndim), i1 = i - (nd - m1->ndim);
        int64_t s0 = i0 >= 0 ? m0->shape[i0] : 1, s1 = i1 >= 0 ? m1->shape[i1] : 1;
        shape[i] = s0 == 1 ? s1 : s0;
    }
    AIRC_TRY(airc_ge_ew_op(b, "Sub", in, 2, dt, nd, shape, &d));
    return lp_norm_all(b, d, 2);
}

/* ---- raisers ------------------------------------------------------------------------------ */

/* Rank of data input i, from its input_desc. */
static airc_status input_rank(const ge_raise *r, size_t i, int32_t *rank)
{
    const Ge__Proto__TensorDescriptor *d = i < r->op->n_input_desc ? r->op->input_desc[i] : NULL;
    if (!d)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): input %zu has no input_desc",
                         r->op->name, r->op->type, i);
    *rank = d->shape ? (int32_t)d->shape->n_dim : 0;
    return AIRC_OK;
}

typedef struct reduce_raise {
    const char *list_op; /* takes (x, dims, keepdim); NULL: one dim at a time */
    const char *dim_op;  /* (x, dim, keepdim) */
    const char *all_op;  /* (x): every dim, no keepdim */
    bool dtype_kw;       /* gets dtype= (sum and prod widen integers) */
} reduce_raise;

static const reduce_raise rr_sum = {"aten.sum.dim_IntList", NULL, NULL, true};
static const reduce_raise rr_mean = {"aten.mean.dim", NULL, NULL, false};
static const reduce_raise rr_max = {"aten.amax.default", NULL, NULL, false};
static const reduce_raise rr_min = {"aten.amin.default", NULL, NULL, false};
static const reduce_raise rr_prod = {NULL, "aten.prod.dim_int", "aten.prod.default", true};
static const reduce_raise rr_all = {NULL, "aten.all.dim", "aten.all.default", false};
static const reduce_raise rr_any = {NULL, "aten.any.dim", "aten.any.default", false};

/* dtype= the GE op's output 0 dtype: GE reduces in the input's dtype where
 * aten.sum / prod / cumsum would widen integers to int64. */
static airc_status out_dtype_kw(ge_raise *r, const airc_value **kw)
{
    if (r->op->n_output_desc < 1 || !r->op->output_desc[0])
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): no output description",
                         r->op->name, r->op->type);
    *kw = NULL;
    airc_value_dtype(r->g, airc_ge_from_proto_dtype(r->op->output_desc[0]->dtype), kw);
    return AIRC_OK;
}

static airc_status raise_reduce(ge_raise *r)
{
    const reduce_raise *d = r->data;
    AIRC_TRY(airc_ge_raise_arity(r, 2));
    int64_t dims[AIRC_MAX_DIMS];
    size_t n = 0;
    AIRC_TRY(airc_ge_const_input_ints(r, 1, dims, AIRC_MAX_DIMS, &n));
    bool keep = false;
    AIRC_TRY(airc_ge_attr_b(r, "keep_dims", false, false, &keep));
    int32_t rank = 0;
    AIRC_TRY(input_rank(r, 0, &rank));
    if (norm_dims(rank, dims, &n, false) != AIRC_OK)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): axes out of range for rank %d",
                         r->op->name, r->op->type, rank);
    if (!n || !rank) { /* nothing reduced (GE: empty axes) */
        const airc_value *args[1] = {airc_ge_vnode(r, r->in[0])};
        return airc_ge_raise_call(r, "aten.clone.default", args, 1, NULL, NULL, 0, &r->out[0]);
    }
    static const char *const names[] = {"dtype"};
    const airc_value *kw[1] = {NULL};
    size_t nkw = d->dtype_kw ? 1 : 0;
    if (nkw)
        AIRC_TRY(out_dtype_kw(r, &kw[0]));
    if (d->list_op) {
        const airc_value *args[3] = {airc_ge_vnode(r, r->in[0]), airc_ge_vints(r, dims, n),
                                     airc_ge_vbool(r, keep)};
        return airc_ge_raise_call(r, d->list_op, args, 3, names, kw, nkw, &r->out[0]);
    }
    if (!keep && n == (size_t)rank) {
        const airc_value *args[1] = {airc_ge_vnode(r, r->in[0])};
        return airc_ge_raise_call(r, d->all_op, args, 1, names, kw, nkw, &r->out[0]);
    }
    airc_node *y = r->in[0]; /* one dim at a time, the last first */
    for (size_t i = n; i-- > 0;) {
        const airc_value *args[3] = {airc_ge_vnode(r, y), airc_ge_vint(r, dims[i]),
                                     airc_ge_vbool(r, keep)};
        AIRC_TRY(airc_ge_raise_call(r, d->dim_op, args, 3, names, kw, nkw, &y));
    }
    r->out[0] = y;
    return AIRC_OK;
}

/* getitem j of a tuple-returning node. */
static airc_status getitem(ge_raise *r, airc_node *t, int64_t j, airc_node **out)
{
    const airc_value *args[2] = {airc_ge_vnode(r, t), airc_ge_vint(r, j)};
    return airc_ge_raise_call(r, "operator.getitem", args, 2, NULL, NULL, 0, out);
}

/* ArgMaxWithValue -> max.dim: output 0 indice, 1 values. */
static airc_status raise_with_value(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    int64_t dim = 0;
    bool keep = false;
    AIRC_TRY(airc_ge_attr_i(r, "dimension", true, 0, &dim));
    AIRC_TRY(airc_ge_attr_b(r, "keep_dims", false, false, &keep));
    if (r->nout != 2)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): %zu outputs, expected 2", r->op->name,
                         r->op->type, r->nout);
    const airc_value *args[3] = {airc_ge_vnode(r, r->in[0]), airc_ge_vint(r, dim),
                                 airc_ge_vbool(r, keep)};
    airc_node *t;
    AIRC_TRY(airc_ge_raise_call(r, r->data, args, 3, NULL, NULL, 0, &t));
    AIRC_TRY(getitem(r, t, 1, &r->out[0]));
    return getitem(r, t, 0, &r->out[1]);
}

/* ArgMaxV2 / ArgMin -> argmax / argmin over the Const dimension. */
/* LpNormV2(x; p, axes, keepdim, epsilon) -> norm.ScalarOpt_dim; a
 * nonzero epsilon (a floor on the norm) has no aten counterpart here */
static airc_status raise_lp_norm(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    double p = 2, eps = 0;
    bool keep = false;
    int64_t axes[AIRC_MAX_DIMS];
    size_t n = 0;
    AIRC_TRY(airc_ge_attr_f(r, "p", false, 2, &p));
    AIRC_TRY(airc_ge_attr_f(r, "epsilon", false, 0, &eps));
    AIRC_TRY(airc_ge_attr_b(r, "keepdim", false, false, &keep));
    AIRC_TRY(airc_ge_attr_ints(r, "axes", false, axes, AIRC_MAX_DIMS, &n));
    if (eps != 0)
        return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (LpNormV2): epsilon %g is not supported",
                         r->op->name, eps);
    const airc_value *args[4] = {airc_ge_vnode(r, r->in[0]), airc_ge_vfloat(r, p),
                                 airc_ge_vints(r, axes, n), airc_ge_vbool(r, keep)};
    return airc_ge_raise_call(r, "aten.norm.ScalarOpt_dim", args, 4, NULL, NULL, 0, &r->out[0]);
}

static airc_status raise_argmax(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 2));
    int64_t dim[2];
    size_t n = 0;
    AIRC_TRY(airc_ge_const_input_ints(r, 1, dim, 2, &n));
    if (n != 1)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): dimension must hold one value",
                         r->op->name, r->op->type);
    int64_t dt = 0;
    AIRC_TRY(airc_ge_attr_i(r, "dtype", false, airc_ge_attr_dtype(AIRC_DTYPE_I64), &dt));
    airc_dtype want = airc_ge_from_attr_dtype(dt);
    if (want != AIRC_DTYPE_I64 && want != AIRC_DTYPE_I32)
        return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (%s): dtype %lld is not int32/int64",
                         r->op->name, r->op->type, (long long)dt);
    const airc_value *args[3] = {airc_ge_vnode(r, r->in[0]), airc_ge_vint(r, dim[0]),
                                 airc_ge_vbool(r, false)};
    AIRC_TRY(airc_ge_raise_call(r, r->data, args, 3, NULL, NULL, 0, &r->out[0]));
    if (want == AIRC_DTYPE_I64)
        return AIRC_OK;
    const airc_value *a2[1] = {airc_ge_vnode(r, r->out[0])};
    const airc_value *kw[1] = {NULL};
    airc_value_dtype(r->g, want, &kw[0]);
    static const char *const names[] = {"dtype"};
    return airc_ge_raise_call(r, "aten._to_copy.default", a2, 1, names, kw, 1, &r->out[0]);
}

/* Cumsum / Cumprod (data: the aten op) */
static airc_status raise_cumsum(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 2));
    int64_t dim[2];
    size_t n = 0;
    AIRC_TRY(airc_ge_const_input_ints(r, 1, dim, 2, &n));
    if (n != 1)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): axis must hold one value",
                         r->op->name, r->op->type);
    bool excl, rev;
    AIRC_TRY(airc_ge_attr_b(r, "exclusive", false, false, &excl));
    AIRC_TRY(airc_ge_attr_b(r, "reverse", false, false, &rev));
    if (excl || rev)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "op '%s' (%s): exclusive or reverse scans are not supported", r->op->name,
                         r->op->type);
    const airc_value *args[2] = {airc_ge_vnode(r, r->in[0]), airc_ge_vint(r, dim[0])};
    const airc_value *kw[1];
    static const char *const names[] = {"dtype"};
    AIRC_TRY(out_dtype_kw(r, &kw[0]));
    return airc_ge_raise_call(r, r->data, args, 2, names, kw, 1, &r->out[0]);
}

/* SoftmaxV2 / LogSoftmaxV2 (one axis) -> _softmax / _log_softmax. */
static airc_status raise_softmax(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    int64_t axes[AIRC_MAX_DIMS];
    size_t n = 0;
    AIRC_TRY(airc_ge_attr_ints(r, "axes", true, axes, AIRC_MAX_DIMS, &n));
    if (n != 1)
        return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (%s): %zu axes; one is supported",
                         r->op->name, r->op->type, n);
    bool h2f = false;
    AIRC_TRY(airc_ge_attr_b(r, "half_to_float", false, false, &h2f));
    const airc_value *args[3] = {airc_ge_vnode(r, r->in[0]), airc_ge_vint(r, axes[0]),
                                 airc_ge_vbool(r, h2f)};
    return airc_ge_raise_call(r, r->data, args, 3, NULL, NULL, 0, &r->out[0]);
}

/* ---- the family ------------------------------------------------------------------------------ */

static const ge_conv_entry conv[] = {
    {"aten.sum.default", conv_reduce, &r_sum},
    {"aten.sum.dim_IntList", conv_reduce, &r_sum_dim},
    {"aten.mean.default", conv_reduce, &r_mean},
    {"aten.mean.dim", conv_reduce, &r_mean_dim},
    {"aten.amax.default", conv_reduce, &r_amax},
    {"aten.amin.default", conv_reduce, &r_amin},
    {"aten.max.default", conv_reduce, &r_max},
    {"aten.min.default", conv_reduce, &r_min},
    {"aten.prod.default", conv_reduce, &r_prod},
    {"aten.prod.dim_int", conv_reduce, &r_prod_dim},
    {"aten.all.default", conv_reduce, &r_all},
    {"aten.all.dim", conv_reduce, &r_all_dim},
    {"aten.any.default", conv_reduce, &r_any},
    {"aten.any.dim", conv_reduce, &r_any_dim},
    {"aten.nansum.default", conv_reduce, &r_nansum},
    {"aten.count_nonzero.default", conv_reduce, &r_count_nonzero},
    {"aten.count_nonzero.dim_IntList", conv_reduce, &r_count_nonzero},
    {"aten.aminmax.default", conv_aminmax, NULL},
    {"aten._aminmax.default", conv_aminmax, NULL},
    {"aten._aminmax.dim", conv_aminmax, NULL},
    {"aten.max.dim", conv_max_dim, &a_max},
    {"aten.min.dim", conv_max_dim, &a_min},
    {"aten.argmax.default", conv_argmax, &a_max},
    {"aten.argmin.default", conv_argmax, &a_min},
    {"aten.cumsum.default", conv_cumsum, "Cumsum"},
    {"aten.cumprod.default", conv_cumsum, "Cumprod"},
    {"aten._softmax.default", conv_softmax, NULL},
    {"aten.softmax.int", conv_softmax, NULL},
    {"aten._log_softmax.default", conv_softmax, "log"},
    {"aten.log_softmax.int", conv_softmax, "log"},
    {"aten.var.default", conv_var, &v_default},
    {"aten.var.dim", conv_var, &v_dim},
    {"aten.var.correction", conv_var, &v_correction},
    {"aten.var_mean.correction", conv_var, &v_mean_correction},
    {"aten.std_mean.correction", conv_var, &v_std_mean_correction},
    {"aten.std.correction", conv_var, &v_std_correction},
    {"aten.logsumexp.default", conv_logsumexp, NULL},
    {"aten.norm.ScalarOpt_dim", conv_norm, NULL},
    {"aten.norm.ScalarOpt_dim_dtype", conv_norm, NULL},
    {"aten.norm.Scalar", conv_norm, "all"},
    {"aten.norm.ScalarOpt_dtype", conv_norm, "all"},
    {"aten.dist.default", conv_dist, NULL},
    {"aten.linalg_vector_norm.default", conv_norm, NULL},
};

static const ge_raise_entry raise[] = {
    {"ReduceSum", raise_reduce, &rr_sum},
    {"ReduceMean", raise_reduce, &rr_mean},
    {"ReduceMax", raise_reduce, &rr_max},
    {"ReduceMin", raise_reduce, &rr_min},
    {"ReduceProd", raise_reduce, &rr_prod},
    {"ReduceAll", raise_reduce, &rr_all},
    {"ReduceAny", raise_reduce, &rr_any},
    {"ArgMaxWithValue", raise_with_value, "aten.max.dim"},
    {"ArgMinWithValue", raise_with_value, "aten.min.dim"},
    {"ArgMaxV2", raise_argmax, "aten.argmax.default"},
    {"ArgMin", raise_argmax, "aten.argmin.default"},
    {"Cumsum", raise_cumsum, "aten.cumsum.default"},
    {"Cumprod", raise_cumsum, "aten.cumprod.default"},
    {"LpNormV2", raise_lp_norm, NULL},
    {"SoftmaxV2", raise_softmax, "aten._softmax.default"},
    {"LogSoftmaxV2", raise_softmax, "aten._log_softmax.default"},
};

const ge_family airc_ge_family_reduce = {conv, sizeof conv / sizeof *conv, raise,
                                         sizeof raise / sizeof *raise};
