/* Advanced indexing to and from Ascend IR. index.Tensor(self, indices) ->
 * IndexByTensor(x, indices0..) with the attribute indices_mask (1 where
 * indices holds a tensor, 0 for None), each index Cast to int64, as
 * TorchAir; the raiser rebuilds the list, None where the mask is 0.
 * index_put (TorchAir has no converter) -> TensorScatterUpdate /
 * TensorScatterAdd, or MaskedFill for one mask and one value; raised back
 * to index_put. index_copy -> TensorScatterUpdate with dim moved first;
 * index_add -> TensorScatterAdd of alpha * source the same way.
 * scatter / scatter_add -> ScatterElements (reduction none / add), as
 * TorchAir. index_fill -> SelectV2 of a mask along dim (ReduceAny of
 * Equal with the indices); take -> GatherV2 of self as one dim;
 * masked_scatter -> a Cumsum of the mask, GatherV2 of the source there
 * and SelectV2. put -> ScatterElements of self as one dim; index_reduce and
 * segment_reduce masked composites (conv_index_reduce,
 * conv_segment_reduce). */
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"
#include "ops/meta_util.h"

#include <math.h>
#include <string.h>

static airc_status conv_index(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x, idx[AIRC_MAX_DIMS];
    AIRC_TRY(airc_ge_input(b, 0, &x));
    const airc_value *list = airc_ge_arg(b, 1);
    size_t len = airc_ge_input_list_length(b, 1), count = 0;
    if (!len || len > AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_UNSUPPORTED, "index: %zu indices (1 to %d)", len, AIRC_MAX_DIMS);
    int64_t mask[AIRC_MAX_DIMS];
    for (size_t j = 0; j < len; j++) {
        const airc_value *item = airc_value_item(list, j);
        mask[j] = item && item->kind != AIRC_VALUE_NONE;
        if (!mask[j])
            continue;
        AIRC_TRY(airc_ge_input_list_item(b, 1, j, &idx[count]));
        AIRC_TRY(airc_ge_cast(b, idx[count], AIRC_DTYPE_I64, &idx[count]));
        count++;
    }
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "IndexByTensor", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input_list(op, "indices", idx, count));
    AIRC_TRY(airc_ge_op_attr_ints(op, "indices_mask", mask, len));
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    return airc_ge_set_result(b, 0, y);
}

/* ---- index_put ----------------------------------------------------------------- */

/* index_put with one mask and one value, no accumulate (torch's
 * masked_fill path) -> MaskedFill with the mask reshaped to x's rank. */
static airc_status put_mask_fill(airc_ge_builder *b, airc_ge_tensor x, airc_dtype dt,
                                 const airc_tmeta *xm, size_t p)
{
    airc_ge_tensor m, v, y;
    AIRC_TRY(airc_ge_input_list_item(b, 1, p, &m));
    AIRC_TRY(airc_ge_cast(b, m, AIRC_DTYPE_BOOL, &m));
    airc_dtype mdt = AIRC_DTYPE_UNDEFINED;
    int32_t mn = 0;
    const int64_t *ms;
    AIRC_TRY(airc_ge_tensor_meta(b, m, &mdt, &mn, &ms));
    int64_t shape[AIRC_MAX_DIMS];
    for (int32_t d = 0; d < xm->ndim; d++)
        shape[d] = d >= (int32_t)p && d < (int32_t)p + mn ? ms[d - p] : 1;
    AIRC_TRY(airc_ge_reshape(b, m, AIRC_DTYPE_BOOL, xm->ndim, shape, &m));
    AIRC_TRY(airc_ge_operand(b, 2, dt, &v));
    AIRC_TRY(airc_ge_reshape(b, v, dt, 0, NULL, &v));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "MaskedFill", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "mask", m));
    AIRC_TRY(airc_ge_op_input(op, "value", v));
    AIRC_TRY(airc_ge_op_output(op, "y", dt, xm->ndim, xm->shape, &y));
    return airc_ge_set_result(b, 0, y);
}

/* index_put(self, indices, values, accumulate) with integer indices ->
 * TensorScatterUpdate / TensorScatterAdd on self transposed so that the
 * indexed dims come first, the indices (negatives wrapped: + size where
 * < 0) packed along a last dim, values broadcast to the indexing result
 * and its block moved first; transposed back. One mask with one value and
 * no accumulate is MaskedFill; a mask with tensor values has no lowering
 * (TorchAir has no index_put converter at all). */
static airc_status conv_index_put(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *xm = &n->out[0];
    airc_dtype dt = xm->dtype;
    int32_t nd = xm->ndim;
    airc_ge_tensor x, idx[AIRC_MAX_DIMS], v, y;
    AIRC_TRY(airc_ge_operand(b, 0, dt, &x));
    const airc_value *list = airc_ge_arg(b, 1);
    size_t len = airc_ge_input_list_length(b, 1), k = 0;
    bool acc = airc_ge_bool_arg(b, 3, false);
    int64_t pos[AIRC_MAX_DIMS], bshape[AIRC_MAX_DIMS];
    int32_t bnd = 0;
    if (!len || len > (size_t)nd)
        return airc_fail(AIRC_E_UNSUPPORTED, "index_put: %zu indices for rank %d", len, (int)nd);
    for (size_t j = 0; j < len; j++) {
        const airc_value *item = airc_value_item(list, j);
        if (!item || item->kind == AIRC_VALUE_NONE)
            continue;
        AIRC_TRY(airc_ge_input_list_item(b, 1, j, &idx[k]));
        airc_dtype it = AIRC_DTYPE_UNDEFINED;
        int32_t in = 0;
        const int64_t *is;
        AIRC_TRY(airc_ge_tensor_meta(b, idx[k], &it, &in, &is));
        if (it == AIRC_DTYPE_BOOL || it == AIRC_DTYPE_U8) {
            const airc_value *vals = airc_ge_arg(b, 2);
            airc_ge_tensor vt;
            int32_t vn = 0;
            const int64_t *vs;
            airc_dtype vd;
            int64_t numel = 1;
            if (vals && vals->kind == AIRC_VALUE_NODE) {
                AIRC_TRY(airc_ge_input(b, 2, &vt));
                AIRC_TRY(airc_ge_tensor_meta(b, vt, &vd, &vn, &vs));
                for (int32_t d = 0; d < vn; d++)
                    numel *= vs[d];
            }
            if (acc || numel != 1)
                return airc_fail(AIRC_E_UNSUPPORTED,
                                 "index_put by a mask with tensor values (or accumulate) has no "
                                 "Ascend IR lowering");
            return put_mask_fill(b, x, dt, xm, j);
        }
        /* B: the broadcast of the index shapes */
        int32_t outn = in > bnd ? in : bnd;
        int64_t next[AIRC_MAX_DIMS];
        for (int32_t d = 0; d < outn; d++) {
            int32_t a = d - (outn - in), c = d - (outn - bnd);
            int64_t sa = a < 0 ? 1 : is[a], sc = c < 0 ? 1 : bshape[c];
            next[d] = sc == 1 ? sa : sc;
        }
        memcpy(bshape, next, sizeof *next * (size_t)outn);
        bnd = outn;
        pos[k++] = (int64_t)j;
    }
    if (!k || bnd + 1 > AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_UNSUPPORTED, "index_put: no index tensor, or a %d-d block",
                         (int)bnd);
    bool adjacent = pos[k - 1] - pos[0] == (int64_t)k - 1;
    int32_t before = adjacent ? (int32_t)pos[0] : 0;
    /* self's dims: the indexed first, then the rest */
    int64_t perm[AIRC_MAX_DIMS], inv[AIRC_MAX_DIMS], rest[AIRC_MAX_DIMS];
    int32_t np = 0, nrest = 0;
    bool identity = true;
    for (size_t i = 0; i < k; i++)
        perm[np++] = pos[i];
    for (int32_t d = 0; d < nd; d++) {
        bool indexed = false;
        for (size_t i = 0; i < k; i++)
            indexed |= pos[i] == d;
        if (!indexed) {
            rest[nrest++] = xm->shape[d];
            perm[np++] = d;
        }
    }
    for (int32_t d = 0; d < nd; d++) {
        inv[perm[d]] = d;
        identity = identity && perm[d] == d;
    }
    if (!identity)
        AIRC_TRY(airc_ge_transpose(b, x, dt, nd, xm->shape, perm, &x));
    /* the packed indices [B, k] */
    for (size_t i = 0; i < k; i++) {
        airc_ge_tensor zero, size, neg, t[2];
        AIRC_TRY(airc_ge_cast(b, idx[i], AIRC_DTYPE_I64, &idx[i]));
        AIRC_TRY(airc_ge_broadcast(b, idx[i], bnd, bshape, &idx[i]));
        AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, 0, &zero));
        AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, (double)xm->shape[pos[i]], &size));
        t[0] = idx[i];
        t[1] = zero;
        AIRC_TRY(airc_ge_ew_op(b, "Less", t, 2, AIRC_DTYPE_BOOL, bnd, bshape, &neg));
        AIRC_TRY(airc_ge_cast(b, neg, AIRC_DTYPE_I64, &neg));
        t[0] = neg;
        t[1] = size;
        AIRC_TRY(airc_ge_ew_op(b, "Mul", t, 2, AIRC_DTYPE_I64, bnd, bshape, &neg));
        t[0] = idx[i];
        t[1] = neg;
        AIRC_TRY(airc_ge_ew_op(b, "Add", t, 2, AIRC_DTYPE_I64, bnd, bshape, &idx[i]));
    }
    int64_t ishape[AIRC_MAX_DIMS];
    memcpy(ishape, bshape, sizeof *bshape * (size_t)bnd);
    ishape[bnd] = (int64_t)k;
    airc_ge_tensor ind;
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Pack", &op));
    AIRC_TRY(airc_ge_op_input_list(op, "x", idx, k));
    AIRC_TRY(airc_ge_op_attr_int(op, "axis", bnd));
    AIRC_TRY(airc_ge_op_attr_int(op, "N", (int64_t)k));
    AIRC_TRY(airc_ge_op_output(op, "y", AIRC_DTYPE_I64, bnd + 1, ishape, &ind));
    /* values: broadcast to the indexing result, its block moved first */
    int64_t r[2 * AIRC_MAX_DIMS], vperm[2 * AIRC_MAX_DIMS];
    int32_t rn = 0;
    for (int32_t d = 0; d < before; d++)
        r[rn++] = xm->shape[perm[k + (size_t)d]];
    for (int32_t d = 0; d < bnd; d++)
        r[rn++] = bshape[d];
    for (int32_t d = before; d < nrest; d++)
        r[rn++] = rest[d];
    if (rn > AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_UNSUPPORTED, "index_put: a %d-d indexing result", (int)rn);
    AIRC_TRY(airc_ge_operand(b, 2, dt, &v));
    AIRC_TRY(airc_ge_broadcast(b, v, rn, r, &v));
    int32_t un = 0;
    for (int32_t d = 0; d < bnd; d++)
        vperm[un++] = before + d;
    for (int32_t d = 0; d < before; d++)
        vperm[un++] = d;
    for (int32_t d = before + bnd; d < rn; d++)
        vperm[un++] = d;
    if (before)
        AIRC_TRY(airc_ge_transpose(b, v, dt, rn, r, vperm, &v));
    int64_t tshape[AIRC_MAX_DIMS];
    for (int32_t d = 0; d < nd; d++)
        tshape[d] = xm->shape[perm[d]];
    AIRC_TRY(airc_ge_op_create(b, acc ? "TensorScatterAdd" : "TensorScatterUpdate", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "indices", ind));
    AIRC_TRY(airc_ge_op_input(op, "updates", v));
    AIRC_TRY(airc_ge_op_output(op, "y", dt, nd, tshape, &y));
    if (!identity)
        AIRC_TRY(airc_ge_transpose(b, y, dt, nd, tshape, inv, &y));
    return airc_ge_set_result(b, 0, y);
}

/* TensorScatterUpdate / TensorScatterAdd(x, indices [B, k], updates) ->
 * index_put(x, [indices[..., 0], ..., indices[..., k-1]], updates) */
static airc_status raise_scatter(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 3));
    const Ge__Proto__TensorDescriptor *d = r->op->n_input_desc > 1 ? r->op->input_desc[1] : NULL;
    size_t rank = d && d->shape ? d->shape->n_dim : 0;
    int64_t k = rank ? d->shape->dim[rank - 1] : 0;
    if (!rank || k < 1 || k > AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): indices need a last dim of 1 to %d",
                         r->op->name, r->op->type, AIRC_MAX_DIMS);
    const airc_value *items[AIRC_MAX_DIMS], *list = NULL;
    for (int64_t i = 0; i < k; i++) {
        const airc_value *args[3] = {airc_ge_vnode(r, r->in[1]), airc_ge_vint(r, -1),
                                     airc_ge_vint(r, i)};
        airc_node *sel;
        AIRC_TRY(airc_ge_raise_call(r, "aten.select.int", args, 3, NULL, NULL, 0, &sel));
        if (!(items[i] = airc_ge_vnode(r, sel)))
            return airc_fail_oom("raised indices");
    }
    airc_value_list(r->g, items, (size_t)k, &list);
    const airc_value *args[4] = {airc_ge_vnode(r, r->in[0]), list, airc_ge_vnode(r, r->in[2]),
                                 airc_ge_vbool(r, r->data != NULL)};
    return airc_ge_raise_call(r, "aten.index_put.default", args, 4, NULL, NULL, 0, &r->out[0]);
}

/* index_copy(self, dim, index, source) -> TensorScatterUpdate on self and
 * source with dim moved first, the index as [n, 1]; moved back. A 0-dim
 * self becomes the source's last value (torch writes them in order, all
 * at index 0); an empty index leaves self. */
static airc_status conv_index_copy(airc_ge_builder *b, const airc_node *n, void *ud)
{
    bool add = ud != NULL; /* index_add: TensorScatterAdd of alpha * source */
    const airc_tmeta *om = &n->out[0];
    int32_t nd = om->ndim;
    airc_ge_tensor x, idx, src, y;
    AIRC_TRY(airc_ge_operand(b, 0, om->dtype, &x));
    AIRC_TRY(airc_ge_operand(b, 3, om->dtype, &src));
    if (add)
        AIRC_TRY(airc_ge_scale(b, src, 4, &src));
    AIRC_TRY(airc_ge_input(b, 2, &idx));
    airc_dtype it = AIRC_DTYPE_UNDEFINED;
    int32_t in = 0;
    const int64_t *is;
    AIRC_TRY(airc_ge_tensor_meta(b, idx, &it, &in, &is));
    int64_t count = in ? is[0] : 1;
    static const char *const one[] = {"x"};
    if (!count)
        return airc_ge_simple(b, "Identity", one, &x, 1, NULL);
    if (nd == 0 && add) { /* self plus every source value */
        airc_ge_tensor t[2] = {x, src}, y0;
        int64_t axis = 0;
        AIRC_TRY(airc_ge_reshape(b, src, om->dtype, 1, &count, &t[1]));
        AIRC_TRY(airc_ge_reduce(b, "ReduceSum", t[1], &axis, 1, false, om->dtype, 0, NULL,
                                &t[1]));
        AIRC_TRY(airc_ge_ew_op(b, "Add", t, 2, om->dtype, 0, NULL, &y0));
        return airc_ge_set_result(b, 0, y0);
    }
    if (nd == 0) { /* every index is 0: the last of the source's values wins */
        int64_t last = count - 1;
        airc_ge_tensor ci;
        AIRC_TRY(airc_ge_reshape(b, src, om->dtype, 1, &count, &src));
        AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_I64, 0, NULL, &last, &ci));
        AIRC_TRY(airc_ge_gather(b, src, ci, 0, om->dtype, 0, NULL, &y));
        return airc_ge_set_result(b, 0, y);
    }
    int64_t dim = airc_ge_int_arg(b, 1, 0), perm[AIRC_MAX_DIMS], inv[AIRC_MAX_DIMS];
    dim = dim < 0 ? dim + nd : dim;
    if (dim < 0 || dim >= nd)
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "index_copy: dim out of range");
    int64_t ishape[2] = {count, 1}, sshape[AIRC_MAX_DIMS], tshape[AIRC_MAX_DIMS];
    AIRC_TRY(airc_ge_cast(b, idx, AIRC_DTYPE_I64, &idx));
    AIRC_TRY(airc_ge_reshape(b, idx, AIRC_DTYPE_I64, 2, ishape, &idx));
    perm[0] = dim; /* dim first, the others in order */
    for (int32_t d = 0, np = 1; d < nd; d++)
        if (d != dim)
            perm[np++] = d;
    for (int32_t d = 0; d < nd; d++) {
        inv[perm[d]] = d;
        sshape[d] = d == dim ? count : om->shape[d];
        tshape[d] = om->shape[perm[d]];
    }
    if (dim) {
        AIRC_TRY(airc_ge_transpose(b, x, om->dtype, nd, om->shape, perm, &x));
        AIRC_TRY(airc_ge_transpose(b, src, om->dtype, nd, sshape, perm, &src));
    }
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, add ? "TensorScatterAdd" : "TensorScatterUpdate", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "indices", idx));
    AIRC_TRY(airc_ge_op_input(op, "updates", src));
    AIRC_TRY(airc_ge_op_output(op, "y", om->dtype, nd, tshape, &y));
    if (dim)
        AIRC_TRY(airc_ge_transpose(b, y, om->dtype, nd, tshape, inv, &y));
    return airc_ge_set_result(b, 0, y);
}

/* ---- scatter -------------------------------------------------------------------- */

/* scatter.src / scatter.value / scatter_add(self, dim, index, src|value)
 * -> ScatterElements(data, indices, updates; axis, reduction none|add), as
 * TorchAir; a value is broadcast to the index's shape; an empty index
 * leaves self (Identity). ud: the reduction, "add" for scatter_add (and
 * "mul" for scatter.reduce's multiply); NULL: none. */
static airc_status conv_scatter(airc_ge_builder *b, const airc_node *n, void *ud)
{
    const airc_tmeta *om = &n->out[0];
    airc_ge_tensor x, idx, upd, y;
    AIRC_TRY(airc_ge_operand(b, 0, om->dtype, &x));
    AIRC_TRY(airc_ge_input(b, 2, &idx));
    airc_dtype it = AIRC_DTYPE_UNDEFINED;
    int32_t in = 0;
    const int64_t *is;
    AIRC_TRY(airc_ge_tensor_meta(b, idx, &it, &in, &is));
    int64_t numel = 1, ishape[AIRC_MAX_DIMS];
    for (int32_t d = 0; d < in; d++)
        numel *= ishape[d] = is[d];
    static const char *const one[] = {"x"};
    if (!numel)
        return airc_ge_simple(b, "Identity", one, &x, 1, NULL);
    const airc_value *src = airc_ge_arg(b, 3);
    AIRC_TRY(airc_ge_operand(b, 3, om->dtype, &upd));
    if (!src || src->kind != AIRC_VALUE_NODE) /* the value, broadcast to the index */
        AIRC_TRY(airc_ge_broadcast(b, upd, in, ishape, &upd));
    int64_t dim = airc_ge_int_arg(b, 1, 0);
    dim = dim < 0 ? dim + (om->ndim ? om->ndim : 1) : dim;
    AIRC_TRY(airc_ge_scatter_elements_reduce(b, x, idx, upd, dim, ud ? (const char *)ud : "none",
                                             om->dtype, om->ndim, om->shape, &y));
    return airc_ge_set_result(b, 0, y);
}

/* scatter.reduce / .value_reduce(self, dim, index, src|value, *, reduce):
 * ScatterElements with reduction add, or mul for 'multiply' */
static airc_status conv_scatter_add_mul(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_value *r = airc_ge_arg(b, 4);
    const char *reduce = r && r->kind == AIRC_VALUE_STRING ? r->u.s : "";
    if (strcmp(reduce, "add") && strcmp(reduce, "multiply"))
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "%s: reduce argument must be either add or multiply.", n->target);
    return conv_scatter(b, n, !strcmp(reduce, "add") ? "add" : "mul");
}

/* ScatterElements(data, indices, updates; axis, reduction) -> scatter.src
 * (reduction none) or scatter_add (add) */
static airc_status raise_scatter_elements(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 3));
    int64_t axis = 0;
    AIRC_TRY(airc_ge_attr_i(r, "axis", false, 0, &axis));
    const Ge__Proto__AttrDef *red = airc_ge_find_attr(r->op, "reduction");
    bool str = red && red->value_case == GE__PROTO__ATTR_DEF__VALUE_S;
    bool add = str && red->s.len == 3 && !memcmp(red->s.data, "add", 3);
    bool mul = str && red->s.len == 3 && !memcmp(red->s.data, "mul", 3);
    if (red && !add && !mul && (!str || red->s.len != 4 || memcmp(red->s.data, "none", 4)))
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "op '%s' (ScatterElements): reduction must be 'none', 'add' or 'mul'",
                         r->op->name);
    const airc_value *args[4] = {airc_ge_vnode(r, r->in[0]), airc_ge_vint(r, axis),
                                 airc_ge_vnode(r, r->in[1]), airc_ge_vnode(r, r->in[2])};
    if (mul) {
        static const char *const names[] = {"reduce"};
        const airc_value *kw[1] = {NULL};
        AIRC_TRY(airc_value_string(r->g, "multiply", &kw[0]));
        return airc_ge_raise_call(r, "aten.scatter.reduce", args, 4, names, kw, 1, &r->out[0]);
    }
    return airc_ge_raise_call(r, add ? "aten.scatter_add.default" : "aten.scatter.src", args, 4,
                              NULL, NULL, 0, &r->out[0]);
}

/* IndexByTensor(x, indices0..; indices_mask) -> index.Tensor */
static airc_status raise_index(ge_raise *r)
{
    int64_t mask[AIRC_MAX_DIMS];
    size_t n = 0, count = 0;
    AIRC_TRY(airc_ge_attr_ints(r, "indices_mask", true, mask, AIRC_MAX_DIMS, &n));
    for (size_t j = 0; j < n; j++)
        count += mask[j] != 0;
    AIRC_TRY(airc_ge_raise_arity(r, 1 + count));
    const airc_value *items[AIRC_MAX_DIMS], *list = NULL;
    for (size_t j = 0, k = 1; j < n; j++)
        if (!(items[j] = mask[j] ? airc_ge_vnode(r, r->in[k++]) : airc_ge_vnone(r)))
            return airc_fail_oom("raised indices");
    airc_value_list(r->g, items, n, &list);
    const airc_value *args[2] = {airc_ge_vnode(r, r->in[0]), list};
    return airc_ge_raise_call(r, "aten.index.Tensor", args, 2, NULL, NULL, 0, &r->out[0]);
}

/* scatter_reduce.two: reduce "sum" with include_self is scatter_add
 * (ScatterElements, reduction add); the other reductions, and a sum
 * without self, have no lowering here */
static airc_status conv_scatter_reduce(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_value *r = airc_ge_arg(b, 4);
    const char *reduce = r && r->kind == AIRC_VALUE_STRING ? r->u.s : "";
    if (strcmp(reduce, "sum") || !airc_ge_bool_arg(b, 5, true))
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: scatter_reduce '%s'%s has no Ascend IR lowering (sum with "
                         "include_self has: ScatterElements add)",
                         n->target, reduce, airc_ge_bool_arg(b, 5, true) ? "" : " without self");
    return conv_scatter(b, n, "add");
}

/* idx (int64, nd dims) with negative entries moved up by size:
 * SelectV2(Less(idx, 0), Add(idx, size), idx) */
static airc_status wrap_index(airc_ge_builder *b, airc_ge_tensor idx, int64_t size, int32_t nd,
                              const int64_t *shape, airc_ge_tensor *out)
{
    airc_ge_tensor t[2] = {idx}, neg, up;
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, 0, &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Less", t, 2, AIRC_DTYPE_BOOL, nd, shape, &neg));
    AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, (double)size, &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Add", t, 2, AIRC_DTYPE_I64, nd, shape, &up));
    return airc_ge_select(b, neg, up, idx, AIRC_DTYPE_I64, nd, shape, out);
}

/* index_fill(self, dim, index, value): a mask along dim, ReduceAny of
 * Equal(positions [S, 1], the wrapped indices [1, n]) over the indices,
 * reshaped to broadcast, then SelectV2(mask, value, self). An index out
 * of range selects nothing (torch's range check is data-dependent). */
static airc_status conv_index_fill(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    int32_t nd = om->ndim;
    int64_t dim = airc_ge_int_arg(b, 1, 0);
    int32_t d = nd ? (int32_t)(dim < 0 ? dim + nd : dim) : 0;
    if (d < 0 || (nd && d >= nd))
        return airc_fail(AIRC_E_INVALID_ARGUMENT, "%s: dim %lld out of range", n->target,
                         (long long)dim);
    int64_t size = nd ? om->shape[d] : 1;
    airc_ge_tensor x, idx, t[2], hit, value;
    AIRC_TRY(airc_ge_operand(b, 0, om->dtype, &x));
    AIRC_TRY(airc_ge_input(b, 2, &idx));
    int32_t in = 0;
    const int64_t *is;
    AIRC_TRY(airc_ge_tensor_meta(b, idx, NULL, &in, &is));
    int64_t count = in ? is[0] : 1;
    static const char *const one[] = {"x"};
    if (!count)
        return airc_ge_simple(b, "Identity", one, &x, 1, NULL);
    if (!size) /* every index is out of range: known without the data */
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "%s: index is out of bounds for dimension %d with size 0", n->target,
                         (int)d);
    int64_t row[2] = {1, count}, col[2] = {size, 1}, sq[2] = {size, count}, axis = 1;
    AIRC_TRY(airc_ge_reshape(b, idx, AIRC_DTYPE_I64, 2, row, &idx));
    AIRC_TRY(wrap_index(b, idx, size, 2, row, &t[1]));
    AIRC_TRY(airc_ge_positions(b, 0, 2, col, &t[0]));
    AIRC_TRY(airc_ge_ew_op(b, "Equal", t, 2, AIRC_DTYPE_BOOL, 2, sq, &hit));
    AIRC_TRY(airc_ge_reduce(b, "ReduceAny", hit, &axis, 1, false, AIRC_DTYPE_BOOL, 1, &size, &hit));
    int64_t mshape[AIRC_MAX_DIMS];
    for (int32_t i = 0; i < nd; i++)
        mshape[i] = i == d ? size : 1;
    AIRC_TRY(airc_ge_reshape(b, hit, AIRC_DTYPE_BOOL, nd, mshape, &hit));
    AIRC_TRY(airc_ge_operand(b, 3, om->dtype, &value));
    AIRC_TRY(airc_ge_select(b, hit, value, x, om->dtype, nd, om->shape, &x));
    return airc_ge_set_result(b, 0, x);
}

/* take(self, index): GatherV2 of self reshaped to one dim at the wrapped
 * index (an index out of range is torch's data-dependent check). */
static airc_status conv_take(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    airc_ge_tensor x, idx, y;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t xd = 0;
    const int64_t *xs;
    AIRC_TRY(airc_ge_tensor_meta(b, x, &dt, &xd, &xs));
    int64_t numel = 1;
    for (int32_t i = 0; i < xd; i++)
        numel *= xs[i];
    if (!numel || !airc_tmeta_numel(om)) { /* nothing to take: an empty result */
        uint64_t none = 0;
        AIRC_TRY(airc_ge_const(b, om->dtype, om->ndim, om->shape, &none, &y));
        return airc_ge_set_result(b, 0, y);
    }
    AIRC_TRY(airc_ge_reshape(b, x, dt, 1, &numel, &x));
    AIRC_TRY(airc_ge_input(b, 1, &idx));
    AIRC_TRY(wrap_index(b, idx, numel, om->ndim, om->shape, &idx));
    AIRC_TRY(airc_ge_gather(b, x, idx, 0, om->dtype, om->ndim, om->shape, &y));
    return airc_ge_set_result(b, 0, y);
}

/* Cumsum of int64 x (nd, shape) along axis (inclusive, forward) */
static airc_status cumsum_i64(airc_ge_builder *b, airc_ge_tensor x, int64_t axis, int32_t nd,
                              const int64_t *shape, airc_ge_tensor *out)
{
    airc_ge_tensor ax;
    airc_ge_op *op;
    AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_I64, 0, NULL, &axis, &ax));
    AIRC_TRY(airc_ge_op_create(b, "Cumsum", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "axis", ax));
    AIRC_TRY(airc_ge_op_attr_bool(op, "exclusive", 0));
    AIRC_TRY(airc_ge_op_attr_bool(op, "reverse", 0));
    return airc_ge_op_output(op, "y", AIRC_DTYPE_I64, nd, shape, out);
}

/* masked_scatter(self, mask, source): the mask (as bool) broadcast to the
 * result and flattened, each set place's source position its Cumsum less
 * one (clamped into the source), GatherV2 of the flattened
 * source there, SelectV2(mask, that, self). Too few source elements is
 * torch's data check; an empty source leaves self. */
static airc_status conv_masked_scatter(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    airc_ge_tensor x, m, src, t[2], pos;
    AIRC_TRY(airc_ge_operand(b, 0, om->dtype, &x));
    AIRC_TRY(airc_ge_input(b, 2, &src));
    int32_t sd = 0;
    const int64_t *ss;
    AIRC_TRY(airc_ge_tensor_meta(b, src, NULL, &sd, &ss));
    int64_t count = 1, cells = airc_tmeta_numel(om);
    for (int32_t i = 0; i < sd; i++)
        count *= ss[i];
    if (!count || !cells) { /* nothing to take: self, broadcast */
        AIRC_TRY(airc_ge_broadcast(b, x, om->ndim, om->shape, &x));
        return airc_ge_set_result(b, 0, x);
    }
    AIRC_TRY(airc_ge_operand(b, 1, AIRC_DTYPE_BOOL, &m));
    AIRC_TRY(airc_ge_broadcast(b, m, om->ndim, om->shape, &m));
    AIRC_TRY(airc_ge_cast(b, m, AIRC_DTYPE_I64, &pos));
    AIRC_TRY(airc_ge_reshape(b, pos, AIRC_DTYPE_I64, 1, &cells, &pos));
    AIRC_TRY(cumsum_i64(b, pos, 0, 1, &cells, &pos));
    static const char *const clamp[] = {"Sub", "Maximum", "Minimum"};
    const double by[] = {1, 0, (double)(count - 1)};
    for (int i = 0; i < 3; i++) { /* less one, into [0, count) */
        t[0] = pos;
        AIRC_TRY(airc_ge_const_scalar(b, AIRC_DTYPE_I64, by[i], &t[1]));
        AIRC_TRY(airc_ge_ew_op(b, clamp[i], t, 2, AIRC_DTYPE_I64, 1, &cells, &pos));
    }
    AIRC_TRY(airc_ge_reshape(b, src, om->dtype, 1, &count, &src));
    AIRC_TRY(airc_ge_gather(b, src, pos, 0, om->dtype, 1, &cells, &t[0]));
    AIRC_TRY(airc_ge_reshape(b, t[0], om->dtype, om->ndim, om->shape, &t[0]));
    AIRC_TRY(airc_ge_select(b, m, t[0], x, om->dtype, om->ndim, om->shape, &x));
    return airc_ge_set_result(b, 0, x);
}

/* put(self, index, source, accumulate): self Reshaped to one dim,
 * ScatterElements (reduction none, or add to accumulate) of the source's
 * elements at the wrapped indices, Reshaped back (bool accumulates in
 * int32). An index out of range is torch's data check, not made here. */
static airc_status conv_put(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    airc_ge_tensor idx;
    int32_t in = 0;
    const int64_t *is;
    AIRC_TRY(airc_ge_input(b, 1, &idx));
    AIRC_TRY(airc_ge_tensor_meta(b, idx, NULL, &in, &is));
    int64_t numel = airc_tmeta_numel(om), count = 1;
    for (int32_t i = 0; i < in; i++)
        count *= is[i];
    bool acc = airc_ge_bool_arg(b, 3, false);
    airc_dtype ct = acc && om->dtype == AIRC_DTYPE_BOOL ? AIRC_DTYPE_I32 : om->dtype;
    airc_ge_tensor x, src, y;
    static const char *const one[] = {"x"};
    AIRC_TRY(airc_ge_operand(b, 0, count ? ct : om->dtype, &x));
    if (!count)
        return airc_ge_simple(b, "Identity", one, &x, 1, NULL);
    AIRC_TRY(airc_ge_reshape(b, x, ct, 1, &numel, &x));
    AIRC_TRY(airc_ge_reshape(b, idx, AIRC_DTYPE_I64, 1, &count, &idx));
    AIRC_TRY(wrap_index(b, idx, numel, 1, &count, &idx));
    AIRC_TRY(airc_ge_operand(b, 2, ct, &src));
    AIRC_TRY(airc_ge_reshape(b, src, ct, 1, &count, &src));
    AIRC_TRY(airc_ge_scatter_elements(b, x, idx, src, 0, acc, ct, 1, &numel, &y));
    AIRC_TRY(airc_ge_cast(b, y, om->dtype, &y));
    AIRC_TRY(airc_ge_reshape(b, y, om->dtype, om->ndim, om->shape, &y));
    return airc_ge_set_result(b, 0, y);
}

/* The identity of index_reduce's reduction kind (0 prod, 1 mean, 2 amax,
 * 3 amin) as a 0-d Const of ct (f32 / f64 / int64) */
static airc_status reduce_identity(airc_ge_builder *b, int kind, airc_dtype ct, airc_ge_tensor *out)
{
    if (kind < 2)
        return airc_ge_const_scalar(b, ct, kind == 0 ? 1 : 0, out);
    if (ct != AIRC_DTYPE_I64)
        return airc_ge_const_scalar(b, ct, kind == 2 ? -INFINITY : INFINITY, out);
    int64_t v = kind == 2 ? INT64_MIN : INT64_MAX;
    return airc_ge_const(b, AIRC_DTYPE_I64, 0, NULL, &v, out);
}

/* index_reduce(self, dim, index, source, reduce, *, include_self): a
 * composite over [.., k, size, ..] (k indices, size self's dim; TorchAir
 * has no converter): a one-hot mask Equal(index [k, 1], positions [1,
 * size]) SelectV2s source (BroadcastTo self's slices, Reshaped to
 * [.., k, 1, ..]) or the reduction's identity, then ReduceProd / ReduceSum
 * / ReduceMax / ReduceMin over k; with self Mul / Add / Maximum / Minimum
 * (mean: RealDiv, FloorDiv for integers, by the count plus one), without
 * it SelectV2 where the ReduceSum'd mask counts a write (mean divided by
 * the count). In f32 for f16 / bf16 (rounded once where torch rounds each
 * step), int64 for integers and bool (wrapping as the narrower type's
 * product does). A source of another rank than self is refused; an index
 * out of range is torch's data check, not made here. */
static airc_status conv_index_reduce(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    airc_tmeta source = {0}, *sm = &source;
    airc_ge_tensor st;
    const int64_t *shape;
    AIRC_TRY(airc_ge_input(b, 3, &st));
    AIRC_TRY(airc_ge_tensor_meta(b, st, &source.dtype, &source.ndim, &shape));
    memcpy(source.shape, shape, sizeof *shape * (size_t)source.ndim);
    const airc_value *rv = airc_ge_arg(b, 4);
    int kind = airc_index_reduce_kind(rv && rv->kind == AIRC_VALUE_STRING ? rv->u.s : NULL);
    int32_t nd = om->ndim ? om->ndim : 1;
    int64_t dim = airc_ge_int_arg(b, 1, 0), xs[AIRC_MAX_DIMS], ss[AIRC_MAX_DIMS];
    dim += dim < 0 ? nd : 0;
    if (kind < 0 || dim < 0 || dim >= nd)
        return airc_fail(AIRC_E_INVALID_GRAPH, "%s: reduce or dim out of range", n->target);
    if ((sm->ndim ? sm->ndim : 1) != nd || nd == AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: index_reduce of a %d-dim source into a %d-dim self has no Ascend "
                         "IR form (its composite takes a source of self's rank, below %d dims)",
                         n->target, (int)sm->ndim, (int)om->ndim, AIRC_MAX_DIMS);
    for (int32_t i = 0; i < nd; i++) {
        xs[i] = om->ndim ? om->shape[i] : 1;
        ss[i] = i == dim ? (sm->ndim ? sm->shape[i] : 1) : xs[i];
    }
    int64_t k = ss[dim], size = xs[dim], rest = 1;
    for (int32_t i = 0; i < nd; i++)
        rest *= i == dim ? 1 : xs[i];
    airc_dtype ct =
        airc_dtype_is_floating(om->dtype) ? airc_ge_compute_dtype(om->dtype) : AIRC_DTYPE_I64;
    airc_ge_tensor x, src, idx, t[2], mask, sel, red, cnt, y;
    AIRC_TRY(airc_ge_operand(b, 0, ct, &x));
    static const char *const one[] = {"x"};
    if (k && !size) /* every index is out of range: known without the data */
        return airc_fail(AIRC_E_INVALID_ARGUMENT,
                         "%s: index out of range in self (dim %d has size 0)", n->target, (int)dim);
    if (!k || !rest) {
        AIRC_TRY(airc_ge_cast(b, x, om->dtype, &x));
        return airc_ge_simple(b, "Identity", one, &x, 1, NULL);
    }
    if (k > (INT64_C(1) << 28) / size / rest)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: index_reduce of %lld indices into %lld slices of %lld has no Ascend "
                         "IR form (its composite is their product, past 2^28)",
                         n->target, (long long)k, (long long)size, (long long)rest);
    AIRC_TRY(airc_ge_reshape(b, x, ct, nd, xs, &x));
    AIRC_TRY(airc_ge_operand(b, 3, ct, &src));
    int64_t sf[AIRC_MAX_DIMS];
    int32_t sn = sm->ndim ? sm->ndim : 1;
    for (int32_t i = 0; i < sn; i++)
        sf[i] = sm->ndim ? sm->shape[i] : 1;
    AIRC_TRY(airc_ge_reshape(b, src, ct, sn, sf, &src));
    AIRC_TRY(airc_ge_broadcast(b, src, nd, ss, &src));
    /* [.., k, size, ..] and its pieces */
    int64_t cs[AIRC_MAX_DIMS + 1], s5[AIRC_MAX_DIMS + 1], m5[AIRC_MAX_DIMS + 1], ms[AIRC_MAX_DIMS];
    for (int32_t i = 0; i <= nd; i++) {
        cs[i] = i < dim ? xs[i] : i == dim ? k : i == dim + 1 ? size : xs[i - 1];
        s5[i] = i == dim + 1 ? 1 : cs[i];
        m5[i] = i == dim || i == dim + 1 ? cs[i] : 1;
    }
    for (int32_t i = 0; i < nd; i++)
        ms[i] = i == dim ? size : 1;
    AIRC_TRY(airc_ge_reshape(b, src, ct, nd + 1, s5, &src));
    int64_t col[2] = {k, 1}, row[2] = {1, size}, sq[2] = {k, size}, axis = dim;
    AIRC_TRY(airc_ge_input(b, 2, &idx));
    AIRC_TRY(airc_ge_cast(b, idx, AIRC_DTYPE_I64, &idx));
    AIRC_TRY(airc_ge_reshape(b, idx, AIRC_DTYPE_I64, 2, col, &t[0]));
    AIRC_TRY(airc_ge_positions(b, 0, 2, row, &t[1]));
    AIRC_TRY(airc_ge_ew_op(b, "Equal", t, 2, AIRC_DTYPE_BOOL, 2, sq, &mask));
    AIRC_TRY(airc_ge_reshape(b, mask, AIRC_DTYPE_BOOL, nd + 1, m5, &mask));
    AIRC_TRY(reduce_identity(b, kind, ct, &t[0]));
    AIRC_TRY(airc_ge_select(b, mask, src, t[0], ct, nd + 1, cs, &sel));
    static const char *const reducer[] = {"ReduceProd", "ReduceSum", "ReduceMax", "ReduceMin"};
    AIRC_TRY(airc_ge_reduce(b, reducer[kind], sel, &axis, 1, false, ct, nd, xs, &red));
    AIRC_TRY(airc_ge_cast(b, mask, ct, &cnt));
    AIRC_TRY(airc_ge_reshape(b, cnt, ct, 2, sq, &cnt));
    int64_t zero_axis = 0;
    AIRC_TRY(airc_ge_reduce(b, "ReduceSum", cnt, &zero_axis, 1, false, ct, 1, &size, &cnt));
    AIRC_TRY(airc_ge_reshape(b, cnt, ct, nd, ms, &cnt));
    bool self_too = airc_ge_bool_arg(b, 5, true);
    const char *div = ct == AIRC_DTYPE_I64 ? "FloorDiv" : "RealDiv";
    if (kind == 1) { /* mean: the sum over the count (plus one for self) */
        if (self_too) {
            t[0] = x;
            t[1] = red;
            AIRC_TRY(airc_ge_ew_op(b, "Add", t, 2, ct, nd, xs, &red));
        }
        t[0] = cnt;
        AIRC_TRY(airc_ge_const_scalar(b, ct, 1, &t[1]));
        AIRC_TRY(airc_ge_ew_op(b, self_too ? "Add" : "Maximum", t, 2, ct, nd, ms, &t[1]));
        t[0] = red;
        AIRC_TRY(airc_ge_ew_op(b, div, t, 2, ct, nd, xs, &red));
    }
    if (self_too && kind != 1) {
        static const char *const with_self[] = {"Mul", NULL, "Maximum", "Minimum"};
        t[0] = x;
        t[1] = red;
        AIRC_TRY(airc_ge_ew_op(b, with_self[kind], t, 2, ct, nd, xs, &y));
    } else if (self_too) {
        y = red;
    } else {
        t[0] = cnt;
        AIRC_TRY(airc_ge_const_scalar(b, ct, 0, &t[1]));
        AIRC_TRY(airc_ge_ew_op(b, "Greater", t, 2, AIRC_DTYPE_BOOL, nd, ms, &t[0]));
        AIRC_TRY(airc_ge_select(b, t[0], red, x, ct, nd, xs, &y));
    }
    AIRC_TRY(airc_ge_cast(b, y, om->dtype, &y));
    AIRC_TRY(airc_ge_reshape(b, y, om->dtype, om->ndim, om->shape, &y));
    return airc_ge_set_result(b, 0, y);
}

/* segment_reduce(data, reduce, *, lengths, indices, offsets, axis, unsafe,
 * initial): a composite over [pre, count, size, post] (no TorchAir
 * converter): each segment's start and end from the offsets (GatherV2 of
 * [0, count) and [1, count]) or the lengths (Cumsum, Sub); a mask of the
 * positions (a Const) GreaterEqual the start and Less the end SelectV2s
 * data or the reduction's identity, then ReduceSum / ReduceMax /
 * ReduceMin / ReduceProd over the segment's items; initial joins by Add /
 * Maximum / Minimum / Mul; mean RealDiv by the length, an empty
 * segment's mean initial (NaN without). In f32 for f16 / bf16 (rounded
 * once where torch rounds each step); torch's checks of the lengths'
 * values are data checks, not made here. */
static airc_status conv_segment_reduce(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    const airc_tmeta *om = &n->out[0];
    const airc_value *rv = airc_ge_arg(b, 1);
    int kind = airc_segment_reduce_kind(rv && rv->kind == AIRC_VALUE_STRING ? rv->u.s : NULL);
    airc_ge_tensor x, t[2], start, end, mask, y;
    airc_dtype dt;
    int32_t nd = 0;
    const int64_t *xs;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    AIRC_TRY(airc_ge_tensor_meta(b, x, &dt, &nd, &xs));
    int64_t axis = airc_ge_int_arg(b, 5, 0);
    axis += axis < 0 ? nd : 0;
    if (kind < 0 || nd < 1 || axis < 0 || axis >= nd || om->ndim != nd)
        return airc_fail(AIRC_E_INVALID_GRAPH, "%s: reduce or axis out of range", n->target);
    int64_t pre = 1, post = 1, size = xs[axis], count = om->shape[axis];
    for (int32_t i = 0; i < nd; i++)
        if (i < axis)
            pre *= xs[i];
        else if (i > axis)
            post *= xs[i];
    bool has_init = airc_ge_arg_present(b, 7), offsets = airc_ge_arg_present(b, 4);
    double init = airc_ge_number_arg(b, 7, 0);
    airc_dtype ct = airc_ge_compute_dtype(om->dtype);
    static const double identity[] = {0, 0, -INFINITY, INFINITY, 1};
    if (!pre || !count || !post || !size) { /* nothing to read: every segment empty */
        double v = kind == 1 ? (has_init ? init : NAN) : has_init ? init : identity[kind];
        AIRC_TRY(airc_ge_fill(b, om->dtype, om->ndim, om->shape, v, &y));
        return airc_ge_set_result(b, 0, y);
    }
    if (pre * count > (INT64_C(1) << 28) / size / post)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: segment_reduce of %lld segments over %lld items has no Ascend IR "
                         "form (its composite is their product, past 2^28)",
                         n->target, (long long)(pre * count * post), (long long)size);
    int64_t sc[2] = {pre, count}, s3[3] = {pre, count, 1};
    if (offsets) {
        int64_t so[2] = {pre, count + 1};
        AIRC_TRY(airc_ge_input(b, 4, &t[0]));
        AIRC_TRY(airc_ge_cast(b, t[0], AIRC_DTYPE_I64, &t[0]));
        AIRC_TRY(airc_ge_reshape(b, t[0], AIRC_DTYPE_I64, 2, so, &t[0]));
        AIRC_TRY(airc_ge_positions(b, 0, 1, &count, &t[1]));
        AIRC_TRY(airc_ge_gather(b, t[0], t[1], 1, AIRC_DTYPE_I64, 2, sc, &start));
        AIRC_TRY(airc_ge_positions(b, 1, 1, &count, &t[1]));
        AIRC_TRY(airc_ge_gather(b, t[0], t[1], 1, AIRC_DTYPE_I64, 2, sc, &end));
    } else {
        airc_ge_tensor len;
        AIRC_TRY(airc_ge_input(b, 2, &len));
        AIRC_TRY(airc_ge_cast(b, len, AIRC_DTYPE_I64, &len));
        AIRC_TRY(airc_ge_reshape(b, len, AIRC_DTYPE_I64, 2, sc, &len));
        AIRC_TRY(cumsum_i64(b, len, 1, 2, sc, &end));
        t[0] = end;
        t[1] = len;
        AIRC_TRY(airc_ge_ew_op(b, "Sub", t, 2, AIRC_DTYPE_I64, 2, sc, &start));
    }
    AIRC_TRY(airc_ge_reshape(b, start, AIRC_DTYPE_I64, 3, s3, &start));
    AIRC_TRY(airc_ge_reshape(b, end, AIRC_DTYPE_I64, 3, s3, &end));
    int64_t ps[3] = {1, 1, size};
    int64_t ms[3] = {pre, count, size}, m4[4] = {pre, count, size, 1}, x4[4] = {pre, 1, size, post};
    int64_t c4[4] = {pre, count, size, post}, r3[3] = {pre, count, post}, red_axis = 2;
    airc_ge_tensor p, lo, hi;
    AIRC_TRY(airc_ge_positions(b, 0, 3, ps, &p));
    t[0] = p;
    t[1] = start;
    AIRC_TRY(airc_ge_ew_op(b, "GreaterEqual", t, 2, AIRC_DTYPE_BOOL, 3, ms, &lo));
    t[1] = end;
    AIRC_TRY(airc_ge_ew_op(b, "Less", t, 2, AIRC_DTYPE_BOOL, 3, ms, &hi));
    t[0] = lo;
    t[1] = hi;
    AIRC_TRY(airc_ge_ew_op(b, "LogicalAnd", t, 2, AIRC_DTYPE_BOOL, 3, ms, &mask));
    AIRC_TRY(airc_ge_reshape(b, mask, AIRC_DTYPE_BOOL, 4, m4, &mask));
    AIRC_TRY(airc_ge_cast(b, x, ct, &x));
    AIRC_TRY(airc_ge_reshape(b, x, ct, 4, x4, &x));
    AIRC_TRY(airc_ge_const_scalar(b, ct, identity[kind], &t[0]));
    AIRC_TRY(airc_ge_select(b, mask, x, t[0], ct, 4, c4, &y));
    static const char *const reducer[] = {"ReduceSum", "ReduceSum", "ReduceMax", "ReduceMin",
                                          "ReduceProd"};
    AIRC_TRY(airc_ge_reduce(b, reducer[kind], y, &red_axis, 1, false, ct, 3, r3, &y));
    airc_ge_tensor iv;
    if (has_init) {
        static const char *const join[] = {"Add", "Add", "Maximum", "Minimum", "Mul"};
        AIRC_TRY(airc_ge_const_scalar(b, ct, init, &iv));
        t[0] = y;
        t[1] = iv;
        AIRC_TRY(airc_ge_ew_op(b, join[kind], t, 2, ct, 3, r3, &y));
    }
    if (kind == 1) { /* mean: by the length; an empty segment initial, or NaN */
        airc_ge_tensor len, empty;
        t[0] = end;
        t[1] = start;
        AIRC_TRY(airc_ge_ew_op(b, "Sub", t, 2, AIRC_DTYPE_I64, 3, s3, &len));
        AIRC_TRY(airc_ge_cast(b, len, ct, &len));
        t[0] = y;
        t[1] = len;
        AIRC_TRY(airc_ge_ew_op(b, "RealDiv", t, 2, ct, 3, r3, &y));
        t[0] = len;
        AIRC_TRY(airc_ge_const_scalar(b, ct, 0, &t[1]));
        AIRC_TRY(airc_ge_ew_op(b, "Equal", t, 2, AIRC_DTYPE_BOOL, 3, s3, &empty));
        AIRC_TRY(airc_ge_const_scalar(b, ct, has_init ? init : NAN, &t[0]));
        AIRC_TRY(airc_ge_select(b, empty, t[0], y, ct, 3, r3, &y));
    }
    AIRC_TRY(airc_ge_cast(b, y, om->dtype, &y));
    AIRC_TRY(airc_ge_reshape(b, y, om->dtype, om->ndim, om->shape, &y));
    return airc_ge_set_result(b, 0, y);
}

static const ge_conv_entry conv[] = {
    {"aten.masked_scatter.default", conv_masked_scatter, NULL},
    {"aten.index_fill.int_Scalar", conv_index_fill, NULL},
    {"aten.index_fill.int_Tensor", conv_index_fill, NULL},
    {"aten.take.default", conv_take, NULL},
    {"aten.scatter_reduce.two", conv_scatter_reduce, NULL},
    {"aten.index.Tensor", conv_index, NULL},
    {"aten.index_put.default", conv_index_put, NULL},
    {"aten.index_copy.default", conv_index_copy, NULL},
    {"aten.index_add.default", conv_index_copy, "add"},
    {"aten.index_reduce.default", conv_index_reduce, NULL},
    {"aten.put.default", conv_put, NULL},
    {"aten.segment_reduce.default", conv_segment_reduce, NULL},
    {"aten.scatter.src", conv_scatter, NULL},
    {"aten.scatter.value", conv_scatter, NULL},
    {"aten.scatter.reduce", conv_scatter_add_mul, NULL},
    {"aten.scatter.value_reduce", conv_scatter_add_mul, NULL},
    {"aten.scatter_add.default", conv_scatter, "add"},
};

static const ge_raise_entry raise[] = {
    {"IndexByTensor", raise_index, NULL},
    {"TensorScatterUpdate", raise_scatter, NULL},
    {"TensorScatterAdd", raise_scatter, "accumulate"},
    {"ScatterElements", raise_scatter_elements, NULL},
};

const ge_family airc_ge_family_index = {conv, sizeof conv / sizeof *conv, raise,
                                        sizeof raise / sizeof *raise};
