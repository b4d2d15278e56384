/* Creation and selection ops to and from Ascend IR, with TorchAir's
 * choices: zeros, ones, full, empty, new_*, full_like, empty_like, fill ->
 * Fill(Const dims, value) (shapes are static: dims is a Const of the
 * result's shape, value a 0-d Const of its dtype), zeros_like/ones_like ->
 * ZerosLike/OnesLike, scalar_tensor -> Const, arange -> Range (+ Cast),
 * where -> SelectV2, masked_fill -> MaskedFill, native_dropout (its
 * deterministic cases) -> the input or Muls by 0, and a Fill of the mask. empty's values are
 * unspecified: Fill with 0, as TorchAir's empty.memory_format does. */
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"
#include "ops/meta_util.h"
#include "ops/ops.h"

#include <math.h>
#include <string.h>

static const airc_tmeta *node_meta(airc_ge_builder *b)
{
    const airc_node *n = b->node;
    return n && n->meta_kind != AIRC_META_NONE && n->nout ? &n->out[0] : NULL;
}

/* ---- Fill ---------------------------------------------------------------------- */

/* Where each creation op keeps its fill value. */
typedef struct fill_op {
    int value_arg; /* argument holding the value; -1: constant */
    double value;  /* the constant */
} fill_op;

static const fill_op f_zero = {-1, 0};
static const fill_op f_one = {-1, 1};
static const fill_op f_arg1 = {1, 0}; /* full(size, v), full_like(self, v), fill(self, v) */
static const fill_op f_arg2 = {2, 0}; /* new_full(self, size, v) */

/* Fill(dims, value) shaped and typed like the node's result; value is the
 * node's argument (a number, or a tensor for fill) or a constant. */
static airc_status conv_fill(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    const fill_op *f = ud;
    const airc_tmeta *m = node_meta(b);
    if (!m)
        return airc_fail(AIRC_E_SHAPE, "the node has no tensor meta");
    airc_ge_tensor dims, value;
    AIRC_TRY(airc_ge_const_ints(b, m->shape, (size_t)m->ndim, &dims));
    if (f->value_arg >= 0)
        AIRC_TRY(airc_ge_operand(b, (size_t)f->value_arg, m->dtype, &value));
    else
        AIRC_TRY(airc_ge_const_scalar(b, m->dtype, f->value, &value));
    airc_ge_tensor in[2] = {dims, value};
    static const char *const names[] = {"dims", "value"};
    return airc_ge_simple(b, "Fill", names, in, 2, NULL);
}

/* zeros_like / ones_like: ZerosLike / OnesLike of self in the result's
 * dtype (TorchAir casts self first when dtype is given). */
static airc_status conv_like(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    AIRC_TRY(airc_ge_cast(b, x, airc_ge_node_dtype(b, 0), &x));
    static const char *const names[] = {"x"};
    return airc_ge_simple(b, ud, names, &x, 1, NULL);
}

/* zero_: kept in place by functionalize (airc registers no aten.zero
 * twin). A GE graph has no in-place writes, so it becomes ZerosLike only
 * when nothing can observe the write: self is computed in the graph (or
 * a constant the passes folded), is not a view, and nothing reads it
 * after this node. */
static airc_status conv_zero_inplace(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_value *v = airc_ge_arg(b, 0);
    const airc_node *self = v && v->kind == AIRC_VALUE_NODE ? v->u.node : NULL;
    bool computed =
        self &&
        ((self->kind == AIRC_NODE_CALL_FUNCTION && self->op && !(self->op->flags & AIRC_OP_VIEW)) ||
         self->kind == AIRC_NODE_GET_ATTR); /* a folded creation */
    if (!computed)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "zero_ writes a graph input or a view: the write would be lost in GE");
    for (uint32_t i = 0; i < self->nusers; i++)
        if (self->users[i] != n && self->users[i]->order > n->order)
            return airc_fail(AIRC_E_UNSUPPORTED, "zero_: '%s' is read after it is zeroed",
                             self->name);
    return conv_like(b, n, "ZerosLike");
}

static airc_status conv_scalar_tensor(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor c;
    AIRC_TRY(airc_ge_operand(b, 0, airc_ge_node_dtype(b, 0), &c));
    return airc_ge_set_result(b, 0, c);
}

/* ---- arange -------------------------------------------------------------------- */

/* Range(start, limit, delta) in the result's dtype when GE's Range has it
 * (f32, f64, i32, i64), else in f32/i64 and Cast. */
static airc_status conv_arange(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *m = node_meta(b);
    if (!m)
        return airc_fail(AIRC_E_SHAPE, "the node has no tensor meta");
    const char *q = n->op->qualname;
    double start = 0, end, step = 1;
    if (!strcmp(q, "aten.arange.default")) {
        end = airc_ge_number_arg(b, 0, 0);
    } else {
        start = airc_ge_number_arg(b, 0, 0);
        end = airc_ge_number_arg(b, 1, 0);
        if (!strcmp(q, "aten.arange.start_step"))
            step = airc_ge_number_arg(b, 2, 1);
    }
    airc_dtype dt = m->dtype, rt = dt;
    if (dt != AIRC_DTYPE_F32 && dt != AIRC_DTYPE_F64 && dt != AIRC_DTYPE_I32 &&
        dt != AIRC_DTYPE_I64)
        rt = airc_dtype_is_floating(dt) ? AIRC_DTYPE_F32 : AIRC_DTYPE_I64;
    /* an integer range: torch counts its elements in double but steps from
     * start and by step truncated to int64 (arange(-1.5, 2, dtype=uint8)
     * is 4 elements from -1: [255, 0, 1, 2]); the limit follows from that
     * count (the meta's), not from end */
    if (!airc_dtype_is_floating(dt) && m->ndim == 1) {
        start = trunc(start);
        step = trunc(step);
        end = start + (double)m->shape[0] * step;
    }
    airc_ge_tensor c[3], y;
    double v[3] = {start, end, step};
    for (int i = 0; i < 3; i++)
        AIRC_TRY(airc_ge_const_scalar(b, rt, v[i], &c[i]));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Range", &op));
    AIRC_TRY(airc_ge_op_input(op, "start", c[0]));
    AIRC_TRY(airc_ge_op_input(op, "limit", c[1]));
    AIRC_TRY(airc_ge_op_input(op, "delta", c[2]));
    AIRC_TRY(airc_ge_op_output(op, "y", rt, m->ndim, m->shape, &y));
    AIRC_TRY(airc_ge_cast(b, y, dt, &y));
    return airc_ge_set_result(b, 0, y);
}

/* ---- native_dropout ------------------------------------------------------------ */

/* native_dropout(input, p, train?), deterministic only (meta: evaluation,
 * or training with p 0 or 1): the input (p 1: Mul by a 0 Const twice,
 * input * mask * scale as torch, NaN for inf and NaN), the mask a Fill of
 * true (p 1: false); an empty input's mask a Fill of its dtype. */
static airc_status conv_native_dropout(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0], *mm = &n->out[1];
    bool drop = airc_ge_bool_arg(b, 2, true) && airc_ge_number_arg(b, 1, 0) == 1.0 &&
                airc_tmeta_numel(om) > 0;
    airc_ge_tensor y, mask, t[2];
    AIRC_TRY(airc_ge_operand(b, 0, om->dtype, &y));
    for (int i = 0; drop && i < 2; i++) {
        t[0] = y;
        AIRC_TRY(airc_ge_const_scalar(b, om->dtype, 0, &t[1]));
        AIRC_TRY(airc_ge_ew_op(b, "Mul", t, 2, om->dtype, om->ndim, om->shape, &y));
    }
    AIRC_TRY(airc_ge_fill(b, mm->dtype, mm->ndim, mm->shape, drop ? 0 : 1, &mask));
    AIRC_TRY(airc_ge_set_result(b, 0, y));
    return airc_ge_set_result(b, 1, mask);
}

/* ---- where, masked_fill ------------------------------------------------------------ */

static airc_status conv_where(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_dtype dt = airc_ge_node_dtype(b, 0);
    airc_ge_tensor in[3];
    AIRC_TRY(airc_ge_operand(b, 0, AIRC_DTYPE_BOOL, &in[0]));
    AIRC_TRY(airc_ge_operand(b, 1, dt, &in[1]));
    AIRC_TRY(airc_ge_operand(b, 2, dt, &in[2]));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "SelectV2", &op));
    static const char *const names[] = {"condition", "then", "else"};
    for (int i = 0; i < 3; i++)
        AIRC_TRY(airc_ge_op_input(op, names[i], in[i]));
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_op_output_like_node(op, "result", 0, &y));
    return airc_ge_set_result(b, 0, y);
}

static airc_status conv_masked_fill(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_dtype dt = airc_ge_node_dtype(b, 0);
    airc_ge_tensor in[3];
    AIRC_TRY(airc_ge_operand(b, 0, dt, &in[0]));
    AIRC_TRY(airc_ge_operand(b, 1, AIRC_DTYPE_BOOL, &in[1]));
    AIRC_TRY(airc_ge_operand(b, 2, dt, &in[2]));
    static const char *const names[] = {"x", "mask", "value"};
    return airc_ge_simple(b, "MaskedFill", names, in, 3, NULL);
}

/* ---- raisers ------------------------------------------------------------------------ */

/* Fill: value broadcast to the Const dims (a fresh tensor). */
static airc_status raise_fill(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 2));
    int64_t dims[AIRC_MAX_DIMS];
    size_t n = 0;
    AIRC_TRY(airc_ge_const_input_ints(r, 0, dims, AIRC_MAX_DIMS, &n));
    airc_node *e;
    const airc_value *a[2] = {airc_ge_vnode(r, r->in[1]), airc_ge_vints(r, dims, n)};
    AIRC_TRY(airc_ge_raise_call(r, "aten.expand.default", a, 2, NULL, NULL, 0, &e));
    const airc_value *c[1] = {airc_ge_vnode(r, e)};
    return airc_ge_raise_call(r, "aten.clone.default", c, 1, NULL, NULL, 0, &r->out[0]);
}

static airc_status raise_like(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    const airc_value *a[1] = {airc_ge_vnode(r, r->in[0])};
    return airc_ge_raise_call(r, r->data, a, 1, NULL, NULL, 0, &r->out[0]);
}

/* Range of three scalar Consts: arange(start, limit, delta) in their dtype. */
static airc_status raise_range(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 3));
    const airc_value *a[3];
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    for (size_t i = 0; i < 3; i++) {
        if (!r->cin[i])
            return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (Range): input %zu must be a Const",
                             r->op->name, i);
        AIRC_TRY(airc_ge_tensordef_number(r, r->cin[i], &a[i], i ? NULL : &dt));
    }
    const airc_value *kw[1] = {NULL};
    airc_value_dtype(r->g, dt, &kw[0]);
    static const char *const names[] = {"dtype"};
    return airc_ge_raise_call(r, "aten.arange.start_step", a, 3, names, kw, 1, &r->out[0]);
}

static airc_status raise_select_v2(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 3));
    const airc_value *a[3] = {airc_ge_vnode(r, r->in[0]), airc_ge_vnode(r, r->in[1]),
                              airc_ge_vnode(r, r->in[2])};
    return airc_ge_raise_call(r, "aten.where.self", a, 3, NULL, NULL, 0, &r->out[0]);
}

static airc_status raise_masked_fill(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 3));
    const airc_value *a[3] = {airc_ge_vnode(r, r->in[0]), airc_ge_vnode(r, r->in[1]),
                              airc_ge_vnode(r, r->in[2])};
    return airc_ge_raise_call(r, "aten.masked_fill.Tensor", a, 3, NULL, NULL, 0, &r->out[0]);
}

/* ---- the family ------------------------------------------------------------------------ */

static const ge_conv_entry conv[] = {
    {"aten.zeros.default", conv_fill, &f_zero},
    {"aten.ones.default", conv_fill, &f_one},
    {"aten.full.default", conv_fill, &f_arg1},
    {"aten.empty.memory_format", conv_fill, &f_zero},
    {"aten.zeros_like.default", conv_like, "ZerosLike"},
    {"aten.ones_like.default", conv_like, "OnesLike"},
    {"aten.full_like.default", conv_fill, &f_arg1},
    {"aten.empty_like.default", conv_fill, &f_zero},
    {"aten.empty_strided.default", conv_fill, &f_zero},
    {"aten.new_empty_strided.default", conv_fill, &f_zero},
    {"aten.new_empty.default", conv_fill, &f_zero},
    {"aten.new_full.default", conv_fill, &f_arg2},
    {"aten.new_ones.default", conv_fill, &f_one},
    {"aten.new_zeros.default", conv_fill, &f_zero},
    {"aten.fill.Scalar", conv_fill, &f_arg1},
    {"aten.fill.Tensor", conv_fill, &f_arg1},
    {"aten.zero.default", conv_like, "ZerosLike"},
    {"aten._efficientzerotensor.default", conv_fill, &f_zero},
    {"aten.zero_.default", conv_zero_inplace, NULL},
    {"aten.scalar_tensor.default", conv_scalar_tensor, NULL},
    {"aten.native_dropout.default", conv_native_dropout, NULL},
    {"aten.arange.default", conv_arange, NULL},
    {"aten.arange.start", conv_arange, NULL},
    {"aten.arange.start_step", conv_arange, NULL},
    {"aten.where.self", conv_where, NULL},
    {"aten.where.Scalar", conv_where, NULL},
    {"aten.where.ScalarOther", conv_where, NULL},
    {"aten.where.ScalarSelf", conv_where, NULL},
    {"aten.masked_fill.Scalar", conv_masked_fill, NULL},
    {"aten.masked_fill.Tensor", conv_masked_fill, NULL},
};

static const ge_raise_entry raise[] = {
    {"Fill", raise_fill, NULL},
    {"ZerosLike", raise_like, "aten.zeros_like.default"},
    {"OnesLike", raise_like, "aten.ones_like.default"},
    {"Range", raise_range, NULL},
    {"SelectV2", raise_select_v2, NULL},
    {"MaskedFill", raise_masked_fill, NULL},
};

const ge_family airc_ge_family_create = {conv, sizeof conv / sizeof *conv, raise,
                                         sizeof raise / sizeof *raise};
