/* Views, reshapes, joins, splits and indexing to and from Ascend IR, with
 * TorchAir's choices: view/reshape/alias -> Reshape (a Const shape;
 * _reshape_alias with other than contiguous strides -> AsStrided),
 * t/transpose/permute -> Transpose (a Const perm), expand -> BroadcastTo,
 * squeeze/unsqueeze -> Squeeze/Unsqueeze, slice -> StridedSliceV2,
 * select/index_select/embedding -> GatherV2, cat -> ConcatV2, stack -> Pack,
 * split -> SplitV, unbind -> Unpack, repeat -> Tile, flip -> ReverseV2,
 * gather -> GatherElements, constant_pad_nd / reflection_pad1d|2d|3d /
 * replication_pad1d|2d|3d -> PadV3 (mode constant / reflect / edge), tril/triu ->
 * Tril/Triu, as_strided -> AsStrided, copy -> Identity/BroadcastTo,
 * detach/contiguous/to -> Identity or Cast.
 * Shapes are static, so every shape/perm/index input is a Const computed
 * from the node's meta. select_scatter and slice_scatter (TorchAir:
 * ScatterElements over Range indices) become StridedSliceV2 pieces joined
 * by ConcatV2, or Unpack/Pack for a strided slice: the same values, from
 * ops the reference executor can run without a scatter kernel.
 **/
#include "backends/ge/ge_internal.h"
#include "ir/ir.h"
#include "ops/meta_util.h"
#include "ops/ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- converter helpers ---------------------------------------------------------- */

/* Input tensor arg with its dtype, rank and shape (copied into dims). */
static airc_status input_meta(airc_ge_builder *b, size_t arg, airc_ge_tensor *t, airc_dtype *dt,
                              int32_t *nd, int64_t *dims)
{
    const int64_t *shape;
    AIRC_TRY(airc_ge_input(b, arg, t));
    AIRC_TRY(airc_ge_tensor_meta(b, *t, dt, nd, &shape));
    memcpy(dims, shape, sizeof *dims * (size_t)*nd);
    return AIRC_OK;
}

static int64_t wrap_dim(int64_t d, int32_t nd)
{
    return d < 0 ? d + (nd > 0 ? nd : 1) : d;
}

static bool same_shape(int32_t na, const int64_t *a, int32_t nb, const int64_t *b)
{
    return na == nb && (!na || !memcmp(a, b, sizeof *a * (size_t)na));
}

/* Result 0 of the node: its rank and shape. */
static const airc_tmeta *node_meta(airc_ge_builder *b, size_t j)
{
    const airc_node *n = b->node;
    return n && n->meta_kind != AIRC_META_NONE && j < n->nout ? &n->out[j] : NULL;
}

static airc_status identity(airc_ge_builder *b, airc_ge_tensor x)
{
    static const char *const names[] = {"x"};
    return airc_ge_simple(b, "Identity", names, &x, 1, NULL);
}

/* op(x, Const ints) named (xname, cname), output like the node's result. */
static airc_status with_const(airc_ge_builder *b, const char *type, airc_ge_tensor x,
                              const char *cname, const int64_t *v, size_t n)
{
    airc_ge_tensor c;
    AIRC_TRY(airc_ge_const_ints(b, v, n, &c));
    airc_ge_tensor in[2] = {x, c};
    const char *names[2] = {"x", cname};
    return airc_ge_simple(b, type, names, in, 2, NULL);
}

/* ---- reshapes, identities, casts ---------------------------------------------- */

/* view, _unsafe_view, reshape, alias (and _reshape_alias with contiguous
 * strides): Reshape to the node's shape. */
static airc_status conv_reshape(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    const airc_tmeta *m = node_meta(b, 0);
    if (!m)
        return airc_fail(AIRC_E_SHAPE, "the node has no tensor meta");
    return with_const(b, "Reshape", x, "shape", m->shape, (size_t)m->ndim);
}

static airc_status conv_identity(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    return identity(b, x);
}

/* to.device / to.dtype_layout: Identity, or Cast to the node's dtype. */
static airc_status conv_to(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x, y;
    airc_dtype have = AIRC_DTYPE_UNDEFINED;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    AIRC_TRY(airc_ge_tensor_meta(b, x, &have, NULL, NULL));
    airc_dtype want = airc_ge_node_dtype(b, 0);
    if (have == want)
        return identity(b, x);
    AIRC_TRY(airc_ge_cast(b, x, want, &y));
    return airc_ge_set_result(b, 0, y);
}

/* copy(self, src): src in self's dtype, broadcast to self's shape. */
static airc_status conv_copy(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor src;
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t dims[AIRC_MAX_DIMS];
    AIRC_TRY(input_meta(b, 1, &src, &dt, &nd, dims));
    const airc_tmeta *m = node_meta(b, 0);
    if (!m)
        return airc_fail(AIRC_E_SHAPE, "the node has no tensor meta");
    AIRC_TRY(airc_ge_cast(b, src, m->dtype, &src));
    if (same_shape(nd, dims, m->ndim, m->shape))
        return identity(b, src);
    return with_const(b, "BroadcastTo", src, "shape", m->shape, (size_t)m->ndim);
}

/* ---- transposes, broadcasts, squeezes ------------------------------------------ */

static airc_status conv_transpose(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_ge_tensor x;
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t dims[AIRC_MAX_DIMS], perm[AIRC_MAX_DIMS];
    AIRC_TRY(input_meta(b, 0, &x, &dt, &nd, dims));
    for (int32_t i = 0; i < nd; i++)
        perm[i] = i;
    const char *q = n->op->qualname;
    if (!strcmp(q, "aten.permute.default")) {
        size_t k = 0;
        AIRC_TRY(airc_ge_ints_arg(b, 1, perm, AIRC_MAX_DIMS, &k));
        if ((int32_t)k != nd)
            return airc_fail(AIRC_E_INVALID_GRAPH, "permute: %zu dims for a rank-%d tensor", k,
                             (int)nd);
        for (size_t i = 0; i < k; i++)
            perm[i] = wrap_dim(perm[i], nd);
    } else {
        if (nd < 2) /* t of a vector or a scalar */
            return identity(b, x);
        int64_t d0 = !strcmp(q, "aten.t.default") ? 0 : wrap_dim(airc_ge_int_arg(b, 1, 0), nd);
        int64_t d1 = !strcmp(q, "aten.t.default") ? 1 : wrap_dim(airc_ge_int_arg(b, 2, 1), nd);
        if (d0 < 0 || d0 >= nd || d1 < 0 || d1 >= nd)
            return airc_fail(AIRC_E_INVALID_GRAPH, "transpose: dims out of range");
        perm[d0] = d1;
        perm[d1] = d0;
    }
    return with_const(b, "Transpose", x, "perm", perm, (size_t)nd);
}

static airc_status conv_expand(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x;
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t dims[AIRC_MAX_DIMS];
    AIRC_TRY(input_meta(b, 0, &x, &dt, &nd, dims));
    const airc_tmeta *m = node_meta(b, 0);
    if (!m)
        return airc_fail(AIRC_E_SHAPE, "the node has no tensor meta");
    if (same_shape(nd, dims, m->ndim, m->shape)) /* TorchAir: no broadcast needed */
        return airc_ge_set_result(b, 0, x);
    return with_const(b, "BroadcastTo", x, "shape", m->shape, (size_t)m->ndim);
}

/* repeat(self, repeats) -> Tile(x, multiples); self is first Reshaped to
 * len(repeats) dims when repeats is longer (Tile's multiples match the
 * rank). */
static airc_status conv_repeat(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x;
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t dims[AIRC_MAX_DIMS], rep[AIRC_MAX_DIMS], padded[AIRC_MAX_DIMS];
    size_t nr = 0;
    AIRC_TRY(input_meta(b, 0, &x, &dt, &nd, dims));
    AIRC_TRY(airc_ge_ints_arg(b, 1, rep, AIRC_MAX_DIMS, &nr));
    if (nr < (size_t)nd)
        return airc_fail(AIRC_E_SHAPE, "repeat: %zu repeats for a %d-d tensor", nr, (int)nd);
    if (nr > (size_t)nd) {
        size_t pad = nr - (size_t)nd;
        for (size_t i = 0; i < nr; i++)
            padded[i] = i < pad ? 1 : dims[i - pad];
        AIRC_TRY(airc_ge_reshape(b, x, dt, (int32_t)nr, padded, &x));
    }
    return with_const(b, "Tile", x, "multiples", rep, nr);
}

/* flip(self, dims) -> ReverseV2(x, axis), dims wrapped; Identity when
 * nothing is reversed (no dims, or a 0-dim tensor). */
static airc_status conv_flip(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x;
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t dims[AIRC_MAX_DIMS], axis[AIRC_MAX_DIMS];
    size_t na = 0;
    AIRC_TRY(input_meta(b, 0, &x, &dt, &nd, dims));
    AIRC_TRY(airc_ge_ints_arg(b, 1, axis, AIRC_MAX_DIMS, &na));
    if (!na || !nd)
        return identity(b, x);
    for (size_t i = 0; i < na; i++)
        axis[i] = wrap_dim(axis[i], nd);
    return with_const(b, "ReverseV2", x, "axis", axis, na);
}

static airc_status conv_squeeze(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_ge_tensor x;
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t dims[AIRC_MAX_DIMS], axes[AIRC_MAX_DIMS];
    size_t k = 0;
    AIRC_TRY(input_meta(b, 0, &x, &dt, &nd, dims));
    if (!strcmp(n->op->qualname, "aten.squeeze.dim")) {
        int64_t d = wrap_dim(airc_ge_int_arg(b, 1, 0), nd);
        if (nd > 0 && d >= 0 && d < nd && dims[d] == 1)
            axes[k++] = d;
    } else {
        for (int32_t i = 0; i < nd; i++)
            if (dims[i] == 1)
                axes[k++] = i;
    }
    if (!k)
        return identity(b, x);
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Squeeze", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_attr_ints(op, "axis", axes, k));
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    return airc_ge_set_result(b, 0, y);
}

static airc_status conv_unsqueeze(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    const airc_tmeta *m = node_meta(b, 0);
    if (!m)
        return airc_fail(AIRC_E_SHAPE, "the node has no tensor meta");
    int64_t axis = wrap_dim(airc_ge_int_arg(b, 1, 0), m->ndim);
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Unsqueeze", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_attr_ints(op, "axes", &axis, 1));
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    return airc_ge_set_result(b, 0, y);
}

/* ---- slicing and indexing ---------------------------------------------------------- */

/* StridedSliceV2(x, [begin], [end], [axis], [step]) with an output of
 * dtype dt and shape (nd, dims); begin/end already in [0, size]. */
static airc_status strided_slice(airc_ge_builder *b, airc_ge_tensor x, int64_t axis, int64_t begin,
                                 int64_t end, int64_t step, airc_dtype dt, int32_t nd,
                                 const int64_t *dims, airc_ge_tensor *out)
{
    airc_ge_tensor c[4];
    int64_t v[4] = {begin, end, axis, step};
    for (int i = 0; i < 4; i++)
        AIRC_TRY(airc_ge_const_ints(b, &v[i], 1, &c[i]));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "StridedSliceV2", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "begin", c[0]));
    AIRC_TRY(airc_ge_op_input(op, "end", c[1]));
    AIRC_TRY(airc_ge_op_input(op, "axes", c[2]));
    AIRC_TRY(airc_ge_op_input(op, "strides", c[3]));
    static const char *const masks[] = {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                        "shrink_axis_mask"};
    for (size_t i = 0; i < sizeof masks / sizeof *masks; i++)
        AIRC_TRY(airc_ge_op_attr_int(op, masks[i], 0));
    return airc_ge_op_output(op, "y", dt, nd, dims, out);
}

/* Python slice bounds: start/end (None: 0/size) clamped into [0, size]. */
static void slice_bounds(const airc_value *vs, const airc_value *ve, int64_t size, int64_t *start,
                         int64_t *end)
{
    int64_t s = 0, e = size;
    if (vs)
        airc_value_get_int(vs, &s);
    if (ve)
        airc_value_get_int(ve, &e);
    if (s < 0)
        s += size;
    if (e < 0)
        e += size;
    s = s < 0 ? 0 : s > size ? size : s;
    e = e < s ? s : e > size ? size : e;
    *start = s;
    *end = e;
}

static airc_status conv_slice(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x, y;
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t dims[AIRC_MAX_DIMS];
    AIRC_TRY(input_meta(b, 0, &x, &dt, &nd, dims));
    const airc_tmeta *m = node_meta(b, 0);
    if (!m || nd < 1)
        return airc_fail(AIRC_E_SHAPE, "slice of a tensor without dims or meta");
    int64_t dim = wrap_dim(airc_ge_int_arg(b, 1, 0), nd), step = airc_ge_int_arg(b, 4, 1), s, e;
    if (dim < 0 || dim >= nd || step < 1)
        return airc_fail(AIRC_E_INVALID_GRAPH, "slice: dim %lld or step %lld out of range",
                         (long long)dim, (long long)step);
    if (same_shape(nd, dims, m->ndim, m->shape)) /* TorchAir: nothing sliced */
        return airc_ge_set_result(b, 0, x);
    slice_bounds(airc_ge_arg(b, 2), airc_ge_arg(b, 3), dims[dim], &s, &e);
    AIRC_TRY(strided_slice(b, x, dim, s, e, step, m->dtype, m->ndim, m->shape, &y));
    return airc_ge_set_result(b, 0, y);
}

/* view.dtype(self, dtype) -> Bitcast(x; type), TensorFlow's: to smaller
 * elements it adds a last dim of the ratio (Reshape'd into the last one),
 * to larger ones it takes the last dim Reshape'd to [.., n / ratio, ratio]
 * and drops it; the meta checked torch's rules (a unit last stride: the
 * last dim's bytes are consecutive, as in GE's dense tensors). */
static airc_status conv_view_dtype(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_ge_tensor x, y;
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t dims[AIRC_MAX_DIMS + 1];
    AIRC_TRY(input_meta(b, 0, &x, &dt, &nd, dims));
    const airc_tmeta *m = &n->out[0];
    size_t from = airc_dtype_size(dt), to = airc_dtype_size(m->dtype);
    if (from < to) { /* [.., n] -> [.., n / r, r] */
        if (nd < 1 || nd >= AIRC_MAX_DIMS)
            return airc_fail(AIRC_E_UNSUPPORTED, "view.dtype of a %d-dim tensor", (int)nd);
        dims[nd - 1] = m->shape[nd - 1];
        dims[nd++] = (int64_t)(to / from);
        AIRC_TRY(airc_ge_reshape(b, x, dt, nd, dims, &x));
    } else if (from > to) {
        if (nd >= AIRC_MAX_DIMS)
            return airc_fail(AIRC_E_UNSUPPORTED, "view.dtype of a %d-dim tensor", (int)nd);
        dims[nd++] = (int64_t)(from / to);
    }
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Bitcast", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_attr_dtype(op, "type", m->dtype));
    if (from < to)
        AIRC_TRY(airc_ge_op_output(op, "y", m->dtype, m->ndim, m->shape, &y));
    else
        AIRC_TRY(airc_ge_op_output(op, "y", m->dtype, nd, dims, &y));
    if (from > to)
        AIRC_TRY(airc_ge_reshape(b, y, m->dtype, m->ndim, m->shape, &y));
    return airc_ge_set_result(b, 0, y);
}

/* narrow_copy(self, dim, start, length): StridedSliceV2 of [start, start +
 * length) (a negative start from the end; the meta checked the range) */
static airc_status conv_narrow_copy(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x, y;
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t dims[AIRC_MAX_DIMS];
    AIRC_TRY(input_meta(b, 0, &x, &dt, &nd, dims));
    const airc_tmeta *m = node_meta(b, 0);
    int64_t dim = nd ? wrap_dim(airc_ge_int_arg(b, 1, 0), nd) : -1;
    if (!m || dim < 0 || dim >= nd)
        return airc_fail(AIRC_E_SHAPE, "narrow_copy of a tensor without dims or meta");
    int64_t s = airc_ge_int_arg(b, 2, 0);
    if (s < 0)
        s += dims[dim];
    AIRC_TRY(strided_slice(b, x, dim, s, s + m->shape[dim], 1, m->dtype, m->ndim, m->shape, &y));
    return airc_ge_set_result(b, 0, y);
}

/* GatherV2(x, indices, Const axis) like the node's result. */
static airc_status gather_v2(airc_ge_builder *b, airc_ge_tensor x, airc_ge_tensor idx, int64_t axis,
                             bool axis_1d, bool negative_ok)
{
    airc_ge_tensor ax;
    if (axis_1d)
        AIRC_TRY(airc_ge_const_ints(b, &axis, 1, &ax));
    else
        AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_I64, 0, NULL, &axis, &ax));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "GatherV2", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "indices", idx));
    AIRC_TRY(airc_ge_op_input(op, "axis", ax));
    AIRC_TRY(airc_ge_op_attr_int(op, "batch_dims", 0));
    if (negative_ok)
        AIRC_TRY(airc_ge_op_attr_bool(op, "negative_index_support", 1));
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    return airc_ge_set_result(b, 0, y);
}

/* select.int(self, dim, index): GatherV2 with a 0-d index, [dim]. */
static airc_status conv_select(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x, idx;
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t dims[AIRC_MAX_DIMS];
    AIRC_TRY(input_meta(b, 0, &x, &dt, &nd, dims));
    int64_t dim = wrap_dim(airc_ge_int_arg(b, 1, 0), nd), index = airc_ge_int_arg(b, 2, 0);
    if (nd < 1 || dim < 0 || dim >= nd || index < -dims[dim] || index >= dims[dim])
        return airc_fail(AIRC_E_INVALID_GRAPH, "select: dim or index out of range");
    if (index < 0)
        index += dims[dim];
    AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_I64, 0, NULL, &index, &idx));
    return gather_v2(b, x, idx, dim, true, true);
}

static airc_status conv_index_select(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x, idx;
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t dims[AIRC_MAX_DIMS];
    AIRC_TRY(input_meta(b, 0, &x, &dt, &nd, dims));
    static const char *const names[] = {"x"};
    if (nd == 0) /* a 0-d self: its one index must be 0 (a data check), itself */
        return airc_ge_simple(b, "Identity", names, &x, 1, NULL);
    AIRC_TRY(airc_ge_input(b, 2, &idx));
    airc_dtype idt = AIRC_DTYPE_UNDEFINED;
    int32_t ind = 0;
    AIRC_TRY(airc_ge_tensor_meta(b, idx, &idt, &ind, NULL));
    int64_t one = 1;
    if (ind == 0) /* a 0-d index keeps the dim (GatherV2 would drop it): [1] */
        AIRC_TRY(airc_ge_reshape(b, idx, idt, 1, &one, &idx));
    return gather_v2(b, x, idx, wrap_dim(airc_ge_int_arg(b, 1, 0), nd), false, false);
}

static airc_status conv_embedding(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor w, idx;
    AIRC_TRY(airc_ge_input(b, 0, &w));
    AIRC_TRY(airc_ge_input(b, 1, &idx));
    return gather_v2(b, w, idx, 0, true, false);
}

static airc_status conv_gather(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x, idx;
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t dims[AIRC_MAX_DIMS];
    AIRC_TRY(input_meta(b, 0, &x, &dt, &nd, dims));
    AIRC_TRY(airc_ge_input(b, 2, &idx));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "GatherElements", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "index", idx));
    AIRC_TRY(airc_ge_op_attr_int(op, "dim", wrap_dim(airc_ge_int_arg(b, 1, 0), nd)));
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    return airc_ge_set_result(b, 0, y);
}

/* ---- joins and splits ------------------------------------------------------------ */

static airc_status conv_cat(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    bool stack = !strcmp(n->op->qualname, "aten.stack.default") ||
                 !strcmp(n->op->qualname, "aten._stack.default");
    size_t count = airc_ge_input_list_length(b, 0);
    const airc_tmeta *m = node_meta(b, 0);
    if (!count || !m)
        return airc_fail(AIRC_E_INVALID_GRAPH, "%s of no tensors", stack ? "stack" : "cat");
    airc_ge_tensor *in = airc_arena_alloc(&b->mem, sizeof *in * (count + 1));
    if (!in)
        return airc_fail_oom("cat inputs");
    /* operands (cast: cat promotes) and the Const come before the op */
    for (size_t j = 0; j < count; j++) {
        AIRC_TRY(airc_ge_input_list_item(b, 0, j, &in[j]));
        AIRC_TRY(airc_ge_cast(b, in[j], m->dtype, &in[j]));
    }
    int64_t dim = wrap_dim(airc_ge_int_arg(b, 1, 0), m->ndim);
    airc_ge_tensor c;
    if (!stack)
        AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_I64, 0, NULL, &dim, &c));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, stack ? "Pack" : "ConcatV2", &op));
    AIRC_TRY(airc_ge_op_input_list(op, "x", in, count));
    if (stack)
        AIRC_TRY(airc_ge_op_attr_int(op, "axis", dim));
    else
        AIRC_TRY(airc_ge_op_input(op, "concat_dim", c));
    AIRC_TRY(airc_ge_op_attr_int(op, "N", (int64_t)count));
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    return airc_ge_set_result(b, 0, y);
}

/* Outputs y0..y{n-1} like the node's results, each set as a result. */
static airc_status split_outputs(airc_ge_builder *b, airc_ge_op *op, size_t count)
{
    for (size_t j = 0; j < count; j++) {
        char name[32];
        airc_ge_tensor y;
        snprintf(name, sizeof name, "y%zu", j);
        AIRC_TRY(airc_ge_op_output_like_node(op, name, j, &y));
        AIRC_TRY(airc_ge_set_result(b, j, y));
    }
    return AIRC_OK;
}

/* split.Tensor / split_with_sizes: SplitV with the results' sizes. */
static airc_status conv_split(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_ge_tensor x, sizes, dimc;
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t dims[AIRC_MAX_DIMS];
    AIRC_TRY(input_meta(b, 0, &x, &dt, &nd, dims));
    int64_t dim = wrap_dim(airc_ge_int_arg(b, 2, 0), nd);
    size_t count = n->meta_kind == AIRC_META_NONE ? 0 : n->nout;
    if (nd < 1 || dim < 0 || dim >= nd || !count)
        return airc_fail(AIRC_E_INVALID_GRAPH, "split: dim out of range or no results");
    int64_t *sz = airc_arena_alloc(&b->mem, sizeof *sz * count);
    if (!sz)
        return airc_fail_oom("split sizes");
    for (size_t j = 0; j < count; j++)
        sz[j] = n->out[j].ndim > dim ? n->out[j].shape[dim] : 0;
    int32_t dim32 = (int32_t)dim;
    AIRC_TRY(airc_ge_const_ints(b, sz, count, &sizes));
    AIRC_TRY(airc_ge_const(b, AIRC_DTYPE_I32, 0, NULL, &dim32, &dimc));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "SplitV", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "size_splits", sizes));
    AIRC_TRY(airc_ge_op_input(op, "split_dim", dimc));
    AIRC_TRY(airc_ge_op_attr_int(op, "num_split", (int64_t)count));
    return split_outputs(b, op, count);
}

static airc_status conv_unbind(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_ge_tensor x;
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t dims[AIRC_MAX_DIMS];
    AIRC_TRY(input_meta(b, 0, &x, &dt, &nd, dims));
    int64_t dim = wrap_dim(airc_ge_int_arg(b, 1, 0), nd);
    size_t count = n->meta_kind == AIRC_META_NONE ? 0 : n->nout;
    if (nd < 1 || dim < 0 || dim >= nd)
        return airc_fail(AIRC_E_INVALID_GRAPH, "unbind: dim out of range");
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Unpack", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_attr_int(op, "num", (int64_t)count));
    AIRC_TRY(airc_ge_op_attr_int(op, "axis", dim));
    return split_outputs(b, op, count);
}

/* ---- padding, triangles, strides -------------------------------------------------- */

/* constant_pad_nd / reflection_pad1d|2d|3d / replication_pad1d|2d|3d -> PadV3 with
 * mode (ud) "constant" / "reflect" / "edge" */
static airc_status conv_pad(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    const char *mode = ud;
    airc_ge_tensor x, pads, value;
    airc_dtype dt = AIRC_DTYPE_UNDEFINED;
    int32_t nd = 0;
    int64_t dims[AIRC_MAX_DIMS], pad[2 * AIRC_MAX_DIMS], p[2 * AIRC_MAX_DIMS];
    size_t k = 0;
    AIRC_TRY(input_meta(b, 0, &x, &dt, &nd, dims));
    AIRC_TRY(airc_ge_ints_arg(b, 1, pad, 2 * AIRC_MAX_DIMS, &k));
    if (k % 2 || k > 2 * (size_t)nd)
        return airc_fail(AIRC_E_INVALID_GRAPH, "constant_pad_nd: %zu pads for rank %d", k, (int)nd);
    /* torch: last dim first, (before, after); PadV3: dim order, contiguous */
    memset(p, 0, sizeof p);
    for (size_t i = 0; i < k / 2; i++) {
        size_t d = (size_t)nd - 1 - i;
        p[2 * d] = pad[2 * i];
        p[2 * d + 1] = pad[2 * i + 1];
    }
    AIRC_TRY(airc_ge_const_ints(b, p, 2 * (size_t)nd, &pads));
    bool constant = !strcmp(mode, "constant");
    if (constant && airc_ge_arg(b, 2))
        AIRC_TRY(airc_ge_operand(b, 2, dt, &value));
    else if (constant)
        AIRC_TRY(airc_ge_const_scalar(b, dt, 0, &value));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "PadV3", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_input(op, "paddings", pads));
    if (constant)
        AIRC_TRY(airc_ge_op_input(op, "constant_values", value));
    AIRC_TRY(airc_ge_op_attr_string(op, "mode", mode));
    AIRC_TRY(airc_ge_op_attr_bool(op, "paddings_contiguous", 1));
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    return airc_ge_set_result(b, 0, y);
}

static airc_status conv_triangle(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    airc_ge_tensor x;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, ud, &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_attr_int(op, "diagonal", airc_ge_int_arg(b, 1, 0)));
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    return airc_ge_set_result(b, 0, y);
}

static airc_status conv_as_strided(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)n;
    (void)ud;
    airc_ge_tensor x, c[3];
    int64_t size[AIRC_MAX_DIMS], stride[AIRC_MAX_DIMS];
    size_t ns, nst;
    AIRC_TRY(airc_ge_input(b, 0, &x));
    AIRC_TRY(airc_ge_ints_arg(b, 1, size, AIRC_MAX_DIMS, &ns));
    AIRC_TRY(airc_ge_ints_arg(b, 2, stride, AIRC_MAX_DIMS, &nst));
    int64_t offset = airc_ge_int_arg(b, 3, 0);
    AIRC_TRY(airc_ge_const_ints(b, size, ns, &c[0]));
    AIRC_TRY(airc_ge_const_ints(b, stride, nst, &c[1]));
    AIRC_TRY(airc_ge_const_ints(b, &offset, 1, &c[2]));
    airc_ge_tensor in[4] = {x, c[0], c[1], c[2]};
    static const char *const names[] = {"x", "size", "stride", "storage_offset"};
    return airc_ge_simple(b, "AsStrided", names, in, 4, NULL);
}

/* _reshape_alias(self, size, stride): a Reshape when stride is size's
 * contiguous strides (reshape's own use), else the view it describes,
 * AsStrided (a stride of 0 repeats elements). */
static airc_status conv_reshape_alias(airc_ge_builder *b, const airc_node *n, void *ud)
{
    int64_t size[AIRC_MAX_DIMS], stride[AIRC_MAX_DIMS];
    size_t ns, nst;
    AIRC_TRY(airc_ge_ints_arg(b, 1, size, AIRC_MAX_DIMS, &ns));
    AIRC_TRY(airc_ge_ints_arg(b, 2, stride, AIRC_MAX_DIMS, &nst));
    bool contiguous = ns == nst;
    int64_t expect = 1;
    for (size_t d = ns; contiguous && d-- > 0;) {
        contiguous = size[d] < 2 || stride[d] == expect;
        expect *= size[d] > 1 ? size[d] : 1;
    }
    return contiguous ? conv_reshape(b, n, ud) : conv_as_strided(b, n, ud);
}

/* ---- scatters into views ------------------------------------------------------------- */

/* self with positions [s, e) of dim replaced by src (step 1): ConcatV2 of
 * self[:s], src, self[e:] (empty pieces left out). */
static airc_status concat_pieces(airc_ge_builder *b, airc_ge_tensor self, airc_ge_tensor src,
                                 int64_t dim, int64_t s, int64_t e, int32_t nd, const int64_t *dims)
{
    const airc_tmeta *m = node_meta(b, 0);
    airc_ge_tensor piece[3];
    size_t k = 0;
    int64_t pd[AIRC_MAX_DIMS];
    memcpy(pd, dims, sizeof *pd * (size_t)nd);
    if (s > 0) {
        pd[dim] = s;
        AIRC_TRY(strided_slice(b, self, dim, 0, s, 1, m->dtype, nd, pd, &piece[k++]));
    }
    piece[k++] = src;
    if (e < dims[dim]) {
        pd[dim] = dims[dim] - e;
        AIRC_TRY(strided_slice(b, self, dim, e, dims[dim], 1, m->dtype, nd, pd, &piece[k++]));
    }
    if (k == 1)
        return identity(b, src);
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_concat(b, piece, k, dim, m->dtype, m->ndim, m->shape, &y));
    return airc_ge_set_result(b, 0, y);
}

/* Unpack(x) along dim into out[0..dims[dim]) (each dims without dim). */
static airc_status unpack(airc_ge_builder *b, airc_ge_tensor x, int64_t dim, airc_dtype dt,
                          int32_t nd, const int64_t *dims, airc_ge_tensor *out)
{
    int64_t sd[AIRC_MAX_DIMS];
    int32_t k = 0;
    for (int32_t i = 0; i < nd; i++)
        if (i != dim)
            sd[k++] = dims[i];
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Unpack", &op));
    AIRC_TRY(airc_ge_op_input(op, "x", x));
    AIRC_TRY(airc_ge_op_attr_int(op, "num", dims[dim]));
    AIRC_TRY(airc_ge_op_attr_int(op, "axis", dim));
    for (int64_t j = 0; j < dims[dim]; j++) {
        char name[32];
        snprintf(name, sizeof name, "y%lld", (long long)j);
        AIRC_TRY(airc_ge_op_output(op, name, dt, k, sd, &out[j]));
    }
    return AIRC_OK;
}

/* Strided slice_scatter: Unpack self and src along dim, Pack back with
 * src's pieces at start, start + step, ... */
static airc_status strided_scatter(airc_ge_builder *b, airc_ge_tensor self, airc_ge_tensor src,
                                   int64_t dim, int64_t s, int64_t step, int32_t nd,
                                   const int64_t *dims, int32_t snd, const int64_t *sdims)
{
    const airc_tmeta *m = node_meta(b, 0);
    if (dims[dim] > 4096)
        return airc_fail(AIRC_E_UNSUPPORTED, "slice_scatter with a step over a dim of %lld",
                         (long long)dims[dim]);
    airc_ge_tensor *a = airc_arena_alloc(&b->mem, sizeof *a * (size_t)(dims[dim] + sdims[dim] + 1));
    if (!a)
        return airc_fail_oom("slice_scatter pieces");
    airc_ge_tensor *sp = a + dims[dim];
    AIRC_TRY(unpack(b, self, dim, m->dtype, nd, dims, a));
    if (sdims[dim] > 0)
        AIRC_TRY(unpack(b, src, dim, m->dtype, snd, sdims, sp));
    for (int64_t j = 0; j < sdims[dim]; j++)
        a[s + j * step] = sp[j];
    airc_ge_op *op;
    AIRC_TRY(airc_ge_op_create(b, "Pack", &op));
    for (int64_t j = 0; j < dims[dim]; j++) {
        char name[32];
        snprintf(name, sizeof name, "x%lld", (long long)j);
        AIRC_TRY(airc_ge_op_input(op, name, a[j]));
    }
    AIRC_TRY(airc_ge_op_attr_int(op, "axis", dim));
    AIRC_TRY(airc_ge_op_attr_int(op, "N", dims[dim]));
    airc_ge_tensor y;
    AIRC_TRY(airc_ge_op_output_like_node(op, "y", 0, &y));
    return airc_ge_set_result(b, 0, y);
}

/* select_scatter(self, src, dim, index) / slice_scatter(self, src, dim,
 * start, end, step). */
static airc_status conv_scatter_view(airc_ge_builder *b, const airc_node *n, void *ud)
{
    (void)ud;
    airc_ge_tensor self, src;
    airc_dtype dt, sdt;
    int32_t nd, snd;
    int64_t dims[AIRC_MAX_DIMS], sdims[AIRC_MAX_DIMS];
    AIRC_TRY(input_meta(b, 0, &self, &dt, &nd, dims));
    AIRC_TRY(input_meta(b, 1, &src, &sdt, &snd, sdims));
    const airc_tmeta *m = node_meta(b, 0);
    int64_t dim = wrap_dim(airc_ge_int_arg(b, 2, 0), nd);
    if (!m || nd < 1 || dim < 0 || dim >= nd)
        return airc_fail(AIRC_E_INVALID_GRAPH, "scatter into a view: dim out of range");
    AIRC_TRY(airc_ge_cast(b, self, m->dtype, &self));
    AIRC_TRY(airc_ge_cast(b, src, m->dtype, &src));
    if (!strcmp(n->op->qualname, "aten.select_scatter.default")) {
        int64_t index = airc_ge_int_arg(b, 3, 0);
        if (index < -dims[dim] || index >= dims[dim] || snd != nd - 1)
            return airc_fail(AIRC_E_INVALID_GRAPH, "select_scatter: index or src out of range");
        if (index < 0)
            index += dims[dim];
        int64_t ud_dims[AIRC_MAX_DIMS];
        memcpy(ud_dims, dims, sizeof *ud_dims * (size_t)nd);
        ud_dims[dim] = 1;
        airc_ge_op *op;
        AIRC_TRY(airc_ge_op_create(b, "Unsqueeze", &op));
        AIRC_TRY(airc_ge_op_input(op, "x", src));
        AIRC_TRY(airc_ge_op_attr_ints(op, "axes", &dim, 1));
        AIRC_TRY(airc_ge_op_output(op, "y", m->dtype, nd, ud_dims, &src));
        return concat_pieces(b, self, src, dim, index, index + 1, nd, dims);
    }
    int64_t s, e, step = airc_ge_int_arg(b, 5, 1);
    if (step < 1 || snd != nd)
        return airc_fail(AIRC_E_INVALID_GRAPH, "slice_scatter: bad step or src rank");
    slice_bounds(airc_ge_arg(b, 3), airc_ge_arg(b, 4), dims[dim], &s, &e);
    if (step == 1)
        return concat_pieces(b, self, src, dim, s, e, nd, dims);
    if (s + (sdims[dim] - 1) * step >= dims[dim] && sdims[dim] > 0)
        return airc_fail(AIRC_E_INVALID_GRAPH, "slice_scatter: src does not fit the slice");
    return strided_scatter(b, self, src, dim, s, step, nd, dims, snd, sdims);
}

/* ---- raisers ----------------------------------------------------------------------- */

/* Rank of data input i (its input_desc); -1 when unknown. */
static int32_t input_rank(const ge_raise *r, size_t i)
{
    if (i < r->nin && r->cin[i] && r->cin[i]->desc)
        return r->cin[i]->desc->shape ? (int32_t)r->cin[i]->desc->shape->n_dim : 0;
    if (i >= r->op->n_input_desc || !r->op->input_desc[i])
        return -1;
    const Ge__Proto__ShapeDef *s = r->op->input_desc[i]->shape;
    return s ? (int32_t)s->n_dim : 0;
}

static airc_status need_rank(const ge_raise *r, size_t i, int32_t *nd)
{
    *nd = input_rank(r, i);
    if (*nd < 0)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): input %zu has no input_desc",
                         r->op->name, r->op->type, i);
    return AIRC_OK;
}

/* The single int of Const input i. */
static airc_status const_int(const ge_raise *r, size_t i, int64_t *out)
{
    int64_t v[1];
    size_t n = 0;
    AIRC_TRY(airc_ge_const_input_ints(r, i, v, 1, &n));
    if (n != 1)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): Const input %zu must hold one int",
                         r->op->name, r->op->type, i);
    *out = v[0];
    return AIRC_OK;
}

/* aten(x, a1); a1 NULL means its value could not be allocated (out of
 * memory), not "no argument": that is call0. */
static airc_status call1(ge_raise *r, const char *aten, airc_node *x, const airc_value *a1,
                         airc_node **out)
{
    const airc_value *args[2] = {airc_ge_vnode(r, x), a1};
    return airc_ge_raise_call(r, aten, args, 2, NULL, NULL, 0, out);
}

static airc_status call0(ge_raise *r, const char *aten, airc_node *x, airc_node **out)
{
    const airc_value *args[1] = {airc_ge_vnode(r, x)};
    return airc_ge_raise_call(r, aten, args, 1, NULL, NULL, 0, out);
}

static airc_status raise_reshape(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 2));
    int64_t shape[AIRC_MAX_DIMS], axis, num_axes;
    size_t n = 0;
    AIRC_TRY(airc_ge_const_input_ints(r, 1, shape, AIRC_MAX_DIMS, &n));
    AIRC_TRY(airc_ge_attr_i(r, "axis", false, 0, &axis));
    AIRC_TRY(airc_ge_attr_i(r, "num_axes", false, -1, &num_axes));
    if (axis != 0 || num_axes != -1)
        return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (Reshape): axis/num_axes other than 0/-1",
                         r->op->name);
    return call1(r, "aten.reshape.default", r->in[0], airc_ge_vints(r, shape, n), &r->out[0]);
}

/* Bitcast(x; type) -> view.dtype, Reshape'd to the op's output_desc where
 * the element sizes differ (TensorFlow's shapes: to smaller elements a new
 * last dim of the size ratio, to larger ones the last dim dropped, where
 * view.dtype scales the last dim). */
static airc_status raise_bitcast(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    const Ge__Proto__AttrDef *t = airc_ge_find_attr(r->op, "type");
    airc_dtype to = t && t->value_case == GE__PROTO__ATTR_DEF__VALUE_DT
                        ? airc_ge_from_attr_dtype(t->dt)
                        : AIRC_DTYPE_UNDEFINED;
    const Ge__Proto__TensorDescriptor *in = r->op->n_input_desc ? r->op->input_desc[0] : NULL,
                                      *out = r->op->n_output_desc ? r->op->output_desc[0] : NULL;
    airc_dtype from = in ? airc_ge_from_proto_dtype((int32_t)in->dtype) : AIRC_DTYPE_UNDEFINED;
    if (to == AIRC_DTYPE_UNDEFINED || from == AIRC_DTYPE_UNDEFINED || !out ||
        (out->shape && out->shape->n_dim > AIRC_MAX_DIMS))
        return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (Bitcast): no type, input or output desc",
                         r->op->name);
    const airc_value *dt = NULL;
    AIRC_TRY(airc_value_dtype(r->g, to, &dt));
    if (airc_dtype_size(from) == airc_dtype_size(to))
        return call1(r, "aten.view.dtype", r->in[0], dt, &r->out[0]);
    airc_node *v;
    AIRC_TRY(call1(r, "aten.view.dtype", r->in[0], dt, &v));
    size_t nd = out->shape ? out->shape->n_dim : 0;
    return call1(r, "aten.reshape.default", v, airc_ge_vints(r, nd ? out->shape->dim : NULL, nd),
                 &r->out[0]);
}

/* Transpose: permute by the Const perm. */
static airc_status raise_transpose(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 2));
    int64_t perm[AIRC_MAX_DIMS];
    size_t n = 0;
    AIRC_TRY(airc_ge_const_input_ints(r, 1, perm, AIRC_MAX_DIMS, &n));
    return call1(r, "aten.permute.default", r->in[0], airc_ge_vints(r, perm, n), &r->out[0]);
}

/* BroadcastTo / Expand: a copy of x expanded to the Const shape. */
static airc_status raise_broadcast(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 2));
    int64_t shape[AIRC_MAX_DIMS];
    size_t n = 0;
    airc_node *e;
    AIRC_TRY(airc_ge_const_input_ints(r, 1, shape, AIRC_MAX_DIMS, &n));
    AIRC_TRY(call1(r, "aten.expand.default", r->in[0], airc_ge_vints(r, shape, n), &e));
    return call0(r, "aten.clone.default", e, &r->out[0]);
}

/* Tile(x, multiples): repeat by the Const multiples. */
static airc_status raise_tile(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 2));
    int64_t m[AIRC_MAX_DIMS];
    size_t n = 0;
    AIRC_TRY(airc_ge_const_input_ints(r, 1, m, AIRC_MAX_DIMS, &n));
    return call1(r, "aten.repeat.default", r->in[0], airc_ge_vints(r, m, n), &r->out[0]);
}

/* ReverseV2(x, axis): flip along the Const axis. */
static airc_status raise_reverse(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 2));
    int64_t axis[AIRC_MAX_DIMS];
    size_t n = 0;
    AIRC_TRY(airc_ge_const_input_ints(r, 1, axis, AIRC_MAX_DIMS, &n));
    return call1(r, "aten.flip.default", r->in[0], airc_ge_vints(r, axis, n), &r->out[0]);
}

static int cmp_desc(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Squeeze: every size-1 dim (axis empty) or those listed, highest first. */
static airc_status raise_squeeze(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    int64_t axes[AIRC_MAX_DIMS];
    size_t n = 0;
    AIRC_TRY(airc_ge_attr_ints(r, "axis", false, axes, AIRC_MAX_DIMS, &n));
    if (!n)
        return call0(r, "aten.squeeze.default", r->in[0], &r->out[0]);
    int32_t nd = 0;
    AIRC_TRY(need_rank(r, 0, &nd));
    for (size_t i = 0; i < n; i++) {
        axes[i] = wrap_dim(axes[i], nd);
        if (axes[i] < 0 || axes[i] >= nd)
            return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (Squeeze): axis out of range",
                             r->op->name);
    }
    qsort(axes, n, sizeof *axes, cmp_desc);
    airc_node *x = r->in[0];
    for (size_t i = 0; i < n; i++)
        AIRC_TRY(call1(r, "aten.squeeze.dim", x, airc_ge_vint(r, axes[i]), &x));
    r->out[0] = x;
    return AIRC_OK;
}

/* Unsqueeze: new size-1 dims at the listed axes of the result, lowest first. */
static airc_status raise_unsqueeze(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    int64_t axes[AIRC_MAX_DIMS];
    size_t n = 0;
    int32_t nd = 0;
    AIRC_TRY(airc_ge_attr_ints(r, "axes", true, axes, AIRC_MAX_DIMS, &n));
    AIRC_TRY(need_rank(r, 0, &nd));
    int32_t out_nd = nd + (int32_t)n;
    for (size_t i = 0; i < n; i++) {
        axes[i] = wrap_dim(axes[i], out_nd);
        if (axes[i] < 0 || axes[i] >= out_nd)
            return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (Unsqueeze): axis out of range",
                             r->op->name);
    }
    qsort(axes, n, sizeof *axes, cmp_desc);
    airc_node *x = r->in[0];
    for (size_t i = n; i-- > 0;)
        AIRC_TRY(call1(r, "aten.unsqueeze.default", x, airc_ge_vint(r, axes[i]), &x));
    r->out[0] = x;
    return AIRC_OK;
}

/* StridedSliceV2 without masks: one aten.slice per listed axis. */
static airc_status raise_strided_slice(ge_raise *r)
{
    if (r->nin < 3 || r->nin > 5 || !r->in[0])
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "op '%s' (StridedSliceV2): needs inputs x, begin, end", r->op->name);
    static const char *const masks[] = {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                        "shrink_axis_mask"};
    for (size_t i = 0; i < sizeof masks / sizeof *masks; i++) {
        int64_t v = 0;
        AIRC_TRY(airc_ge_attr_i(r, masks[i], false, 0, &v));
        if (v)
            return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (StridedSliceV2): %s is not supported",
                             r->op->name, masks[i]);
    }
    int64_t begin[AIRC_MAX_DIMS], end[AIRC_MAX_DIMS], axes[AIRC_MAX_DIMS], steps[AIRC_MAX_DIMS];
    size_t nb, ne, na, ns;
    AIRC_TRY(airc_ge_const_input_ints(r, 1, begin, AIRC_MAX_DIMS, &nb));
    AIRC_TRY(airc_ge_const_input_ints(r, 2, end, AIRC_MAX_DIMS, &ne));
    if (r->nin > 3 && r->in[3]) {
        AIRC_TRY(airc_ge_const_input_ints(r, 3, axes, AIRC_MAX_DIMS, &na));
    } else {
        na = nb;
        for (size_t i = 0; i < na; i++)
            axes[i] = (int64_t)i;
    }
    if (r->nin > 4 && r->in[4]) {
        AIRC_TRY(airc_ge_const_input_ints(r, 4, steps, AIRC_MAX_DIMS, &ns));
    } else {
        ns = nb;
        for (size_t i = 0; i < ns; i++)
            steps[i] = 1;
    }
    if (nb != ne || nb != na || nb != ns)
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "op '%s' (StridedSliceV2): begin/end/axes/strides differ in length",
                         r->op->name);
    airc_node *x = r->in[0];
    for (size_t i = 0; i < nb; i++) {
        if (steps[i] < 1)
            return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (StridedSliceV2): stride %lld",
                             r->op->name, (long long)steps[i]);
        const airc_value *args[5] = {airc_ge_vnode(r, x), airc_ge_vint(r, axes[i]),
                                     airc_ge_vint(r, begin[i]), airc_ge_vint(r, end[i]),
                                     airc_ge_vint(r, steps[i])};
        AIRC_TRY(airc_ge_raise_call(r, "aten.slice.Tensor", args, 5, NULL, NULL, 0, &x));
    }
    /* a fresh tensor, as GE's output is */
    return call0(r, "aten.clone.default", x, &r->out[0]);
}

/* GatherV2 (batch_dims 0): select for a 0-d Const index, index_select for
 * 1-d indices, else index_select of the flattened indices reshaped to
 * x.shape[:axis] + indices.shape + x.shape[axis+1:]. */
static airc_status raise_gather_v2(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 3));
    int64_t axis = 0, batch_dims = 0;
    bool neg = false;
    AIRC_TRY(const_int(r, 2, &axis));
    AIRC_TRY(airc_ge_attr_i(r, "batch_dims", false, 0, &batch_dims));
    AIRC_TRY(airc_ge_attr_b(r, "negative_index_support", false, false, &neg));
    if (batch_dims)
        return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (GatherV2): batch_dims %lld", r->op->name,
                         (long long)batch_dims);
    int32_t nd, ni;
    AIRC_TRY(need_rank(r, 0, &nd));
    AIRC_TRY(need_rank(r, 1, &ni));
    axis = wrap_dim(axis, nd);
    if (axis < 0 || axis >= nd)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (GatherV2): axis out of range",
                         r->op->name);
    const Ge__Proto__TensorDef *ci = r->cin[1];
    if (ni == 0 && ci) {
        int64_t index = 0;
        AIRC_TRY(const_int(r, 1, &index));
        airc_node *s;
        const airc_value *args[3] = {airc_ge_vnode(r, r->in[0]), airc_ge_vint(r, axis),
                                     airc_ge_vint(r, index)};
        AIRC_TRY(airc_ge_raise_call(r, "aten.select.int", args, 3, NULL, NULL, 0, &s));
        return call0(r, "aten.clone.default", s, &r->out[0]);
    }
    airc_node *idx = r->in[1];
    if (ni != 1) {
        int64_t flat = -1;
        AIRC_TRY(call1(r, "aten.reshape.default", idx, airc_ge_vints(r, &flat, 1), &idx));
    }
    const airc_value *args[3] = {airc_ge_vnode(r, r->in[0]), airc_ge_vint(r, axis),
                                 airc_ge_vnode(r, idx)};
    airc_node *y;
    AIRC_TRY(airc_ge_raise_call(r, "aten.index_select.default", args, 3, NULL, NULL, 0, &y));
    if (ni != 1) {
        /* the result's shape, from the input descs */
        if (r->op->n_input_desc < 2 || !r->op->input_desc[0] || !r->op->input_desc[1] ||
            !r->op->input_desc[0]->shape)
            return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (GatherV2): input_desc missing",
                             r->op->name);
        const Ge__Proto__ShapeDef *xs = r->op->input_desc[0]->shape,
                                  *is = r->op->input_desc[1]->shape;
        int64_t shape[2 * AIRC_MAX_DIMS];
        size_t k = 0;
        for (int64_t i = 0; i < axis; i++)
            shape[k++] = xs->dim[i];
        for (size_t i = 0; is && i < is->n_dim; i++)
            shape[k++] = is->dim[i];
        for (size_t i = (size_t)axis + 1; i < xs->n_dim; i++)
            shape[k++] = xs->dim[i];
        AIRC_TRY(call1(r, "aten.reshape.default", y, airc_ge_vints(r, shape, k), &y));
    }
    r->out[0] = y;
    return AIRC_OK;
}

static airc_status raise_gather_elements(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 2));
    int64_t dim = 0;
    AIRC_TRY(airc_ge_attr_i(r, "dim", false, 0, &dim));
    const airc_value *args[3] = {airc_ge_vnode(r, r->in[0]), airc_ge_vint(r, dim),
                                 airc_ge_vnode(r, r->in[1])};
    return airc_ge_raise_call(r, "aten.gather.default", args, 3, NULL, NULL, 0, &r->out[0]);
}

/* A list value of input nodes in[first..first+n). */
static const airc_value *node_list(ge_raise *r, size_t first, size_t n)
{
    const airc_value **items = airc_arena_alloc(&r->g->arena, sizeof *items * (n + 1));
    if (!items)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (!(items[i] = airc_ge_vnode(r, r->in[first + i])))
            return NULL;
    const airc_value *v = NULL;
    airc_value_list(r->g, items, n, &v);
    return v;
}

/* ConcatV2 (x0..x{N-1}, concat_dim) / Pack (x0..x{N-1}; axis). */
static airc_status raise_join(ge_raise *r)
{
    bool pack = !strcmp(r->op->type, "Pack");
    int64_t n = 0, dim = 0;
    AIRC_TRY(airc_ge_attr_i(r, "N", pack, 1, &n));
    if (n < 1 || n > 4096)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (%s): N %lld out of range", r->op->name,
                         r->op->type, (long long)n);
    AIRC_TRY(airc_ge_raise_arity(r, (size_t)n + (pack ? 0 : 1)));
    if (pack)
        AIRC_TRY(airc_ge_attr_i(r, "axis", false, 0, &dim));
    else
        AIRC_TRY(const_int(r, (size_t)n, &dim));
    const airc_value *args[2] = {node_list(r, 0, (size_t)n), airc_ge_vint(r, dim)};
    return airc_ge_raise_call(r, pack ? "aten.stack.default" : "aten.cat.default", args, 2, NULL,
                              NULL, 0, &r->out[0]);
}

static airc_status raise_split_v(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 3));
    int64_t num = 0, dim = 0;
    AIRC_TRY(airc_ge_attr_i(r, "num_split", true, 0, &num));
    int64_t *sizes = airc_arena_alloc(&r->g->arena, sizeof *sizes * (r->nout + 1));
    size_t n = 0;
    if (!sizes)
        return airc_fail_oom("SplitV sizes");
    AIRC_TRY(airc_ge_const_input_ints(r, 1, sizes, r->nout, &n));
    AIRC_TRY(const_int(r, 2, &dim));
    if (num < 1 || (size_t)num != r->nout || n != r->nout)
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "op '%s' (SplitV): num_split %lld, %zu sizes, %zu outputs", r->op->name,
                         (long long)num, n, r->nout);
    const airc_value *sz = NULL;
    const airc_value **items = airc_arena_alloc(&r->g->arena, sizeof *items * (n + 1));
    if (!items)
        return airc_fail_oom("SplitV sizes");
    for (size_t i = 0; i < n; i++)
        items[i] = airc_ge_vint(r, sizes[i]);
    airc_value_list(r->g, items, n, &sz);
    const airc_value *args[3] = {airc_ge_vnode(r, r->in[0]), sz, airc_ge_vint(r, dim)};
    airc_node *t;
    AIRC_TRY(airc_ge_raise_call(r, "aten.split_with_sizes.default", args, 3, NULL, NULL, 0, &t));
    return airc_ge_raise_getitems(r, t, r->nout);
}

static airc_status raise_unpack(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    int64_t num = 0, axis = 0;
    AIRC_TRY(airc_ge_attr_i(r, "num", true, 0, &num));
    AIRC_TRY(airc_ge_attr_i(r, "axis", false, 0, &axis));
    if (num < 0 || (size_t)num != r->nout)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (Unpack): num %lld, %zu outputs",
                         r->op->name, (long long)num, r->nout);
    airc_node *t;
    AIRC_TRY(call1(r, "aten.unbind.int", r->in[0], airc_ge_vint(r, axis), &t));
    return airc_ge_raise_getitems(r, t, r->nout);
}

/* PadV3 (constant mode): back to torch's last-dim-first pad list. */
static airc_status raise_pad_v3(ge_raise *r)
{
    if (r->nin < 2 || r->nin > 3 || !r->in[0] || !r->in[1])
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (PadV3): needs inputs x and paddings",
                         r->op->name);
    const Ge__Proto__AttrDef *mode = airc_ge_find_attr(r->op, "mode");
    const char *pad3d = NULL, *pad2d = NULL, *pad1d = NULL; /* a non-constant mode's ops */
    if (mode && mode->value_case == GE__PROTO__ATTR_DEF__VALUE_S && mode->s.len == 7 &&
        !memcmp(mode->s.data, "reflect", 7))
        pad3d = "aten.reflection_pad3d.default", pad2d = "aten.reflection_pad2d.default",
        pad1d = "aten.reflection_pad1d.default";
    else if (mode && mode->value_case == GE__PROTO__ATTR_DEF__VALUE_S && mode->s.len == 4 &&
             !memcmp(mode->s.data, "edge", 4))
        pad3d = "aten.replication_pad3d.default", pad2d = "aten.replication_pad2d.default",
        pad1d = "aten.replication_pad1d.default";
    else if (mode && (mode->value_case != GE__PROTO__ATTR_DEF__VALUE_S || mode->s.len != 8 ||
                      memcmp(mode->s.data, "constant", 8)))
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "op '%s' (PadV3): mode must be 'constant', 'reflect' or 'edge'",
                         r->op->name);
    bool contiguous = false;
    AIRC_TRY(airc_ge_attr_b(r, "paddings_contiguous", false, true, &contiguous));
    int64_t p[2 * AIRC_MAX_DIMS], pad[2 * AIRC_MAX_DIMS];
    size_t n = 0;
    AIRC_TRY(airc_ge_const_input_ints(r, 1, p, 2 * AIRC_MAX_DIMS, &n));
    if (n % 2)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (PadV3): an odd number of paddings",
                         r->op->name);
    size_t nd = n / 2;
    for (size_t d = 0; d < nd; d++) {
        size_t i = nd - 1 - d; /* torch order: last dim first */
        pad[2 * i] = contiguous ? p[2 * d] : p[d];
        pad[2 * i + 1] = contiguous ? p[2 * d + 1] : p[nd + d];
    }
    if (pad2d) { /* torch's pads: pad1d a 2-d input (its last dim), pad2d the last two dims
                  * of a 3-d or 4-d input, pad3d the last three of a 4-d or 5-d input */
        bool depth = n >= 8 && (pad[4] || pad[5]);
        size_t keep = n == 4 ? 2 : n == 10 || depth ? 6 : 4;
        const char *op = n == 4 ? pad1d : keep == 6 ? pad3d : pad2d;
        if (n != 4 && n != 6 && n != 8 && n != 10)
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "op '%s' (PadV3): a non-constant mode needs a 2-d to 5-d input",
                             r->op->name);
        for (size_t i = keep; i < n; i++)
            if (pad[i])
                return airc_fail(AIRC_E_UNSUPPORTED,
                                 "op '%s' (PadV3): a non-constant mode pads the last %s dims",
                                 r->op->name, n == 10 ? "three" : "two or three");
        const airc_value *args[2] = {airc_ge_vnode(r, r->in[0]), airc_ge_vints(r, pad, keep)};
        return airc_ge_raise_call(r, op, args, 2, NULL, NULL, 0, &r->out[0]);
    }
    const airc_value *value = NULL;
    if (r->nin == 3 && r->in[2]) {
        if (!r->cin[2])
            return airc_fail(AIRC_E_UNSUPPORTED, "op '%s' (PadV3): constant_values must be a Const",
                             r->op->name);
        AIRC_TRY(airc_ge_tensordef_number(r, r->cin[2], &value, NULL));
    } else {
        airc_value_float(r->g, 0, &value);
    }
    const airc_value *args[3] = {airc_ge_vnode(r, r->in[0]), airc_ge_vints(r, pad, n), value};
    return airc_ge_raise_call(r, "aten.constant_pad_nd.default", args, 3, NULL, NULL, 0,
                              &r->out[0]);
}

static airc_status raise_triangle(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 1));
    int64_t diagonal = 0;
    AIRC_TRY(airc_ge_attr_i(r, "diagonal", false, 0, &diagonal));
    const char *aten = !strcmp(r->op->type, "Tril") ? "aten.tril.default" : "aten.triu.default";
    return call1(r, aten, r->in[0], airc_ge_vint(r, diagonal), &r->out[0]);
}

static airc_status raise_as_strided(ge_raise *r)
{
    AIRC_TRY(airc_ge_raise_arity(r, 4));
    int64_t size[AIRC_MAX_DIMS], stride[AIRC_MAX_DIMS], offset = 0;
    size_t ns, nst;
    AIRC_TRY(airc_ge_const_input_ints(r, 1, size, AIRC_MAX_DIMS, &ns));
    AIRC_TRY(airc_ge_const_input_ints(r, 2, stride, AIRC_MAX_DIMS, &nst));
    AIRC_TRY(const_int(r, 3, &offset));
    if (ns != nst)
        return airc_fail(AIRC_E_INVALID_GRAPH, "op '%s' (AsStrided): %zu sizes, %zu strides",
                         r->op->name, ns, nst);
    /* GE reads x's memory as laid out contiguously */
    airc_node *x, *y;
    AIRC_TRY(call0(r, "aten.clone.default", r->in[0], &x));
    const airc_value *args[4] = {airc_ge_vnode(r, x), airc_ge_vints(r, size, ns),
                                 airc_ge_vints(r, stride, nst), airc_ge_vint(r, offset)};
    AIRC_TRY(airc_ge_raise_call(r, "aten.as_strided.default", args, 4, NULL, NULL, 0, &y));
    return call0(r, "aten.clone.default", y, &r->out[0]);
}

/* ---- the family ---------------------------------------------------------------------- */

static const ge_conv_entry conv[] = {
    {"aten._reshape_alias.default", conv_reshape_alias, NULL},
    {"aten._unsafe_view.default", conv_reshape, NULL},
    {"aten.view.default", conv_reshape, NULL},
    {"aten.reshape.default", conv_reshape, NULL},
    {"aten.alias.default", conv_reshape, NULL},
    {"aten.detach.default", conv_identity, NULL},
    {"aten.lift_fresh.default", conv_identity, NULL},
    {"aten.lift.default", conv_identity, NULL},
    {"aten.narrow_copy.default", conv_narrow_copy, NULL},
    {"aten.view.dtype", conv_view_dtype, NULL},
    {"aten.lift_fresh_copy.default", conv_identity, NULL},
    {"aten.contiguous.default", conv_identity, NULL},
    {"aten.to.device", conv_to, NULL},
    {"aten.to.dtype_layout", conv_to, NULL},
    {"aten.copy.default", conv_copy, NULL},
    {"aten.t.default", conv_transpose, NULL},
    {"aten.transpose.int", conv_transpose, NULL},
    {"aten.permute.default", conv_transpose, NULL},
    {"aten.expand.default", conv_expand, NULL},
    {"aten.repeat.default", conv_repeat, NULL},
    {"aten.flip.default", conv_flip, NULL},
    {"aten.squeeze.default", conv_squeeze, NULL},
    {"aten.squeeze.dim", conv_squeeze, NULL},
    {"aten.unsqueeze.default", conv_unsqueeze, NULL},
    {"aten.slice.Tensor", conv_slice, NULL},
    {"aten.select.int", conv_select, NULL},
    {"aten.index_select.default", conv_index_select, NULL},
    {"aten.embedding.default", conv_embedding, NULL},
    {"aten.gather.default", conv_gather, NULL},
    {"aten.cat.default", conv_cat, NULL},
    {"aten.stack.default", conv_cat, NULL},
    {"aten._stack.default", conv_cat, NULL},
    {"aten.split.Tensor", conv_split, NULL},
    {"aten.split_with_sizes.default", conv_split, NULL},
    {"aten.unbind.int", conv_unbind, NULL},
    {"aten.unsafe_split.Tensor", conv_split, NULL},
    {"aten.unsafe_split_with_sizes.default", conv_split, NULL},
    {"aten.constant_pad_nd.default", conv_pad, "constant"},
    {"aten.reflection_pad2d.default", conv_pad, "reflect"},
    {"aten.replication_pad2d.default", conv_pad, "edge"},
    {"aten.reflection_pad1d.default", conv_pad, "reflect"},
    {"aten.replication_pad1d.default", conv_pad, "edge"},
    {"aten.reflection_pad3d.default", conv_pad, "reflect"},
    {"aten.replication_pad3d.default", conv_pad, "edge"},
    {"aten.tril.default", conv_triangle, "Tril"},
    {"aten.triu.default", conv_triangle, "Triu"},
    {"aten.as_strided.default", conv_as_strided, NULL},
    {"aten.select_scatter.default", conv_scatter_view, NULL},
    {"aten.slice_scatter.default", conv_scatter_view, NULL},
};

static const ge_raise_entry raise[] = {
    {"Reshape", raise_reshape, NULL},
    {"Bitcast", raise_bitcast, NULL},
    {"Transpose", raise_transpose, NULL},
    {"BroadcastTo", raise_broadcast, NULL},
    {"Tile", raise_tile, NULL},
    {"ReverseV2", raise_reverse, NULL},
    {"Expand", raise_broadcast, NULL},
    {"Squeeze", raise_squeeze, NULL},
    {"Unsqueeze", raise_unsqueeze, NULL},
    {"StridedSliceV2", raise_strided_slice, NULL},
    {"GatherV2", raise_gather_v2, NULL},
    {"GatherElements", raise_gather_elements, NULL},
    {"ConcatV2", raise_join, NULL},
    {"Pack", raise_join, NULL},
    {"SplitV", raise_split_v, NULL},
    {"Unpack", raise_unpack, NULL},
    {"PadV3", raise_pad_v3, NULL},
    {"Tril", raise_triangle, NULL},
    {"Triu", raise_triangle, NULL},
    {"AsStrided", raise_as_strided, NULL},
};

const ge_family airc_ge_family_shape = {conv, sizeof conv / sizeof *conv, raise,
                                        sizeof raise / sizeof *raise};
