/* Meta functions of view and reshape ops. Views keep their input's memory:
 * the strides follow from the input's strides exactly as torch's geometry
 * functions compute them (computeStride, inferExpandGeometry,
 * inferUnsqueezeGeometry...). */
#include "ops/meta_util.h"

#include <inttypes.h>
#include <string.h>

static airc_status read_sizes(const airc_meta_args *a, const char *name, int64_t *out, int32_t *n)
{
    bool present;
    AIRC_TRY(airc_meta_int_list(a, name, out, AIRC_MAX_DIMS, n, &present));
    if (!present)
        return airc_fail(AIRC_E_SHAPE, "%s: argument '%s' is missing", a->op, name);
    return AIRC_OK;
}

airc_status airc_meta_inplace_view_ok(const airc_node *n, const airc_node *self)
{
    const char *op = n->target;
    if (self->kind == AIRC_NODE_PLACEHOLDER || self->kind == AIRC_NODE_GET_ATTR)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "%s: changes the shape of %s '%s' in place, which airc cannot pass back "
                         "to its owner; use the out-of-place op",
                         op, self->kind == AIRC_NODE_PLACEHOLDER ? "graph input" : "constant",
                         self->name);
    for (uint32_t i = 0; i < self->nusers; i++) {
        const airc_node *u = self->users[i];
        if (u != n && u->order > n->order)
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "%s: '%s' reads '%s' after '%s' changed its shape in place; airc "
                             "tracks the new shape on the result: read '%s' instead",
                             op, u->name, self->name, n->name, n->name);
    }
    return AIRC_OK;
}

static airc_status inplace_view_ok(const airc_node *n, const airc_meta_args *a)
{
    const airc_value *v = airc_meta_get(a, "self");
    if (!airc_meta_is_inplace(a) || !v || v->kind != AIRC_VALUE_NODE)
        return AIRC_OK;
    return airc_meta_inplace_view_ok(n, v->u.node);
}

/* view.dtype(self, dtype): self's bytes read as dtype, torch 1.13's
 * view_dtype: the same element size keeps shape and strides; otherwise
 * self must have dims and a unit last stride, and the last dim scales by
 * the size ratio (growing: it and every other stride must divide by it).
 * torch also checks that a growing view's storage offset divides by the
 * ratio; a meta has no storage offset (a view here starts at its own
 * first element), so that one check is not made. */
airc_status airc_meta_view_dtype(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    airc_dtype to;
    bool present;
    AIRC_TRY(airc_meta_opt_dtype(&a, "dtype", &to, &present));
    if (!present)
        return airc_fail(AIRC_E_SHAPE, "%s: argument 'dtype' is missing", a.op);
    int64_t from_size = (int64_t)airc_dtype_size(self.dtype),
            to_size = (int64_t)airc_dtype_size(to);
    airc_tmeta out = self;
    out.dtype = to;
    if (from_size == to_size)
        return airc_meta_set(n, &out);
    const char *from_name = airc_dtype_torch_type_name(self.dtype),
               *to_name = airc_dtype_torch_type_name(to);
    if (self.ndim == 0)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: self.dim() cannot be 0 to view %s as %s (different element sizes)",
                         a.op, from_name, to_name);
    int32_t last = self.ndim - 1;
    if (from_size > to_size) { /* smaller elements: the last dim grows */
        int64_t ratio = from_size / to_size;
        if (self.strides[last] != 1)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: self.stride(-1) must be 1 to view %s as %s (different element "
                             "sizes), but got %" PRId64,
                             a.op, from_name, to_name, self.strides[last]);
        for (int32_t d = 0; d < last; d++)
            if (__builtin_mul_overflow(self.strides[d], ratio, &out.strides[d]))
                return airc_meta_overflow(&a);
        if (__builtin_mul_overflow(self.shape[last], ratio, &out.shape[last]))
            return airc_meta_overflow(&a);
        return airc_meta_set(n, &out);
    }
    int64_t ratio = to_size / from_size; /* larger elements: the last dim shrinks */
    if (self.shape[last] % ratio)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: self.size(-1) must be divisible by %" PRId64
                         " to view %s as %s (different element sizes), but got %" PRId64,
                         a.op, ratio, from_name, to_name, self.shape[last]);
    if (self.strides[last] != 1)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: self.stride(-1) must be 1 to view %s as %s (different element "
                         "sizes), but got %" PRId64,
                         a.op, from_name, to_name, self.strides[last]);
    for (int32_t d = 0; d < last; d++) {
        if (self.strides[d] % ratio)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: self.stride(%d) must be divisible by %" PRId64
                             " to view %s as %s (different element sizes), but got %" PRId64,
                             a.op, (int)d, ratio, from_name, to_name, self.strides[d]);
        out.strides[d] = self.strides[d] / ratio;
    }
    out.shape[last] = self.shape[last] / ratio;
    return airc_meta_set(n, &out);
}

airc_status airc_meta_view(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    int64_t size[AIRC_MAX_DIMS];
    int32_t nd;
    /* view/_unsafe_view call it "size", reshape "shape" */
    AIRC_TRY(read_sizes(&a, airc_meta_find(&a, "size") >= 0 ? "size" : "shape", size, &nd));
    airc_tmeta out = self;
    out.ndim = nd;
    AIRC_TRY(airc_meta_infer_size(&a, size, nd, airc_tmeta_numel(&self), out.shape));
    if (!airc_meta_view_strides(&self, out.shape, nd, out.strides)) {
        if (strcmp(airc_meta_name(&a), "reshape"))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: view size is not compatible with input tensor's size and stride "
                             "(at least one dimension spans across two contiguous subspaces). "
                             "Use .reshape(...) instead.",
                             a.op);
        /* reshape copies into a contiguous tensor when no view exists */
        airc_tmeta_contiguous(&out);
    }
    return airc_meta_set(n, &out);
}

/* The index one past the last element a tensor of `shape` and `strides`
 * (none negative) reaches from `offset`; false when it overflows. */
static bool view_extent(const int64_t *shape, const int64_t *strides, int32_t ndim,
                        int64_t offset, int64_t *out)
{
    int64_t end = offset, step;
    for (int32_t i = 0; i < ndim; i++) {
        if (shape[i] == 0) {
            *out = 0;
            return true;
        }
        if (__builtin_mul_overflow(shape[i] - 1, strides[i], &step) ||
            __builtin_add_overflow(end, step, &end))
            return false;
    }
    return !__builtin_add_overflow(end, 1, out);
}

/* torch's setStorage check: the view must lie inside the storage. The
 * kernel counts storage_offset from self's first element, so the storage
 * here is what self itself spans from there. */
static airc_status check_in_storage(const airc_meta_args *a, const airc_tmeta *self,
                                    const airc_tmeta *out, int64_t offset)
{
    if (offset < 0)
        return airc_fail(AIRC_E_SHAPE, "%s: Tensor: invalid storage offset %" PRId64, a->op,
                         offset);
    int64_t need, have;
    if (!view_extent(out->shape, out->strides, out->ndim, offset, &need))
        return airc_meta_overflow(a);
    if (need == 0)
        return AIRC_OK;
    if (!view_extent(self->shape, self->strides, self->ndim, 0, &have))
        return airc_meta_overflow(a);
    if (need > have) {
        char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
        return airc_fail(AIRC_E_SHAPE,
                         "%s: setStorage: sizes %s, strides %s, storage offset %" PRId64
                         " requiring a storage size of %" PRId64
                         " elements are out of bounds for storage of size %" PRId64,
                         a->op, airc_meta_shape_str(out->shape, out->ndim, s1),
                         airc_meta_shape_str(out->strides, out->ndim, s2), offset, need, have);
    }
    return AIRC_OK;
}

/* The as_strided(size, stride, storage_offset) view of base (as_strided
 * and _reshape_alias; self a copy of base for _reshape_alias's count) */
static airc_status strided_view(const airc_meta_args *a, const airc_tmeta *base, airc_tmeta *out)
{
    *out = *base;
    int32_t ns;
    AIRC_TRY(read_sizes(a, "size", out->shape, &out->ndim));
    AIRC_TRY(read_sizes(a, "stride", out->strides, &ns));
    if (ns != out->ndim)
        return airc_fail(AIRC_E_SHAPE, "%s: mismatch in length of strides and shape (%d vs %d)",
                         a->op, (int)ns, (int)out->ndim);
    for (int32_t i = 0; i < out->ndim; i++) {
        if (out->shape[i] < 0)
            return airc_fail(AIRC_E_SHAPE, "%s: negative size %" PRId64 " in dim %d", a->op,
                             out->shape[i], (int)i);
        if (out->strides[i] < 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: as_strided: Negative strides are not supported at the moment, "
                             "got stride %" PRId64 " in dim %d",
                             a->op, out->strides[i], (int)i);
    }
    AIRC_TRY(airc_meta_check_numel(a, out->shape, out->ndim));
    if (!strcmp(airc_meta_name(a), "_reshape_alias") &&
        airc_tmeta_numel(out) != airc_tmeta_numel(base)) {
        char s1[AIRC_META_SHAPE_STR];
        return airc_fail(AIRC_E_SHAPE, "%s: shape '%s' is invalid for input of size %" PRId64,
                         a->op, airc_meta_shape_str(out->shape, out->ndim, s1),
                         airc_tmeta_numel(base));
    }
    int64_t offset = 0;
    if (airc_meta_find(a, "storage_offset") >= 0)
        AIRC_TRY(airc_meta_int(a, "storage_offset", 0, &offset));
    return check_in_storage(a, base, out, offset);
}

airc_status airc_meta_as_strided(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self, out;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(strided_view(&a, &self, &out));
    return airc_meta_set(n, &out);
}

/* as_strided_scatter(self, src, size, stride, storage_offset): the view
 * taken of self.clone() (its storage: self's elements, in self's layout
 * where dense, else contiguous), src written there; a view whose elements
 * share memory is refused, as torch's copy_ */
airc_status airc_meta_as_strided_scatter(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self, src, clone, view;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(airc_meta_tensor(&a, "src", &src));
    clone = self;
    airc_meta_like_strides(&self, AIRC_MEMORY_FORMAT_PRESERVE, true, clone.strides);
    AIRC_TRY(strided_view(&a, &clone, &view));
    AIRC_TRY(airc_meta_src_fits_slice(&a, &src, &view));
    if (airc_tmeta_numel(&view)) /* torch's copy_ checks a view of elements */
        AIRC_TRY(airc_meta_no_internal_overlap(&a, &view));
    return airc_meta_set(n, &clone);
}

airc_status airc_meta_permute(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    int64_t dims[AIRC_MAX_DIMS];
    int32_t nd;
    AIRC_TRY(read_sizes(&a, "dims", dims, &nd));
    if (nd != self.ndim)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: number of dims don't match in permute: self has %d dims but dims "
                         "has %d entries",
                         a.op, (int)self.ndim, (int)nd);
    bool seen[AIRC_MAX_DIMS] = {false};
    airc_tmeta out = self;
    for (int32_t i = 0; i < nd; i++) {
        int32_t d;
        AIRC_TRY(airc_meta_wrap_dim(&a, dims[i], self.ndim, false, &d));
        if (seen[d])
            return airc_fail(AIRC_E_SHAPE, "%s: repeated dim in permute (dim %d)", a.op, (int)d);
        seen[d] = true;
        out.shape[i] = self.shape[d];
        out.strides[i] = self.strides[d];
    }
    return airc_meta_set(n, &out);
}

airc_status airc_meta_transpose(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(inplace_view_ok(n, &a));
    int32_t d0, d1;
    if (airc_meta_name(&a)[0] == 't' && airc_meta_name(&a)[1] != 'r') { /* t, t_ */
        if (self.ndim > 2)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: t() expects a tensor with <= 2 dimensions, but self is %dD",
                             a.op, (int)self.ndim);
        d0 = 0;
        d1 = self.ndim == 2 ? 1 : 0;
    } else {
        int64_t i0, i1;
        AIRC_TRY(airc_meta_int(&a, "dim0", 0, &i0));
        AIRC_TRY(airc_meta_int(&a, "dim1", 0, &i1));
        AIRC_TRY(airc_meta_wrap_dim(&a, i0, self.ndim, true, &d0));
        AIRC_TRY(airc_meta_wrap_dim(&a, i1, self.ndim, true, &d1));
    }
    airc_tmeta out = self;
    if (self.ndim > 0) {
        out.shape[d0] = self.shape[d1];
        out.shape[d1] = self.shape[d0];
        out.strides[d0] = self.strides[d1];
        out.strides[d1] = self.strides[d0];
    }
    return airc_meta_set(n, &out);
}

airc_status airc_meta_expand(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    int64_t sizes[AIRC_MAX_DIMS];
    int32_t nd;
    AIRC_TRY(read_sizes(&a, "size", sizes, &nd));
    char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
    if (nd < self.ndim)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: expand(%s, size=%s): the number of sizes provided (%d) must be "
                         "greater or equal to the number of dimensions in the tensor (%d)",
                         a.op, airc_meta_shape_str(self.shape, self.ndim, s1),
                         airc_meta_shape_str(sizes, nd, s2), (int)nd, (int)self.ndim);
    /* inferExpandGeometry */
    airc_tmeta out = self;
    out.ndim = nd;
    for (int32_t i = nd - 1; i >= 0; i--) {
        int32_t dim = self.ndim - 1 - (nd - 1 - i);
        int64_t size = dim >= 0 ? self.shape[dim] : 1;
        int64_t stride = 1;
        if (dim >= 0)
            stride = self.strides[dim];
        else if (i + 1 < nd &&
                 __builtin_mul_overflow(out.shape[i + 1], out.strides[i + 1], &stride))
            stride = INT64_MAX; /* kept only by a size-1 dim: never used */
        int64_t target = sizes[i];
        if (target == -1) {
            if (dim < 0)
                return airc_fail(AIRC_E_SHAPE,
                                 "%s: The expanded size of the tensor (-1) isn't allowed in a "
                                 "leading, non-existing dimension %d",
                                 a.op, (int)i);
            target = size;
        }
        if (size != target) {
            if (size != 1 || target < 0)
                return airc_fail(AIRC_E_SHAPE,
                                 "%s: The expanded size of the tensor (%" PRId64
                                 ") must match the existing size (%" PRId64
                                 ") at non-singleton dimension %d.  Target sizes: %s.  Tensor "
                                 "sizes: %s",
                                 a.op, target, size, (int)i, airc_meta_shape_str(sizes, nd, s2),
                                 airc_meta_shape_str(self.shape, self.ndim, s1));
            size = target;
            stride = 0;
        }
        out.shape[i] = size;
        out.strides[i] = stride;
    }
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    return airc_meta_set(n, &out);
}

airc_status airc_meta_squeeze(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(inplace_view_ok(n, &a));
    int32_t only = -1;
    if (airc_meta_find(&a, "dim") >= 0) {
        int64_t dim;
        AIRC_TRY(airc_meta_int(&a, "dim", 0, &dim));
        AIRC_TRY(airc_meta_wrap_dim(&a, dim, self.ndim, true, &only));
        if (self.ndim == 0)
            return airc_meta_set(n, &self);
    }
    airc_tmeta out = self;
    out.ndim = 0;
    for (int32_t d = 0; d < self.ndim; d++) {
        if (self.shape[d] == 1 && (only < 0 || only == d))
            continue;
        out.shape[out.ndim] = self.shape[d];
        out.strides[out.ndim++] = self.strides[d];
    }
    return airc_meta_set(n, &out);
}

airc_status airc_meta_unsqueeze(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(inplace_view_ok(n, &a));
    if (self.ndim >= AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: result would have more than %d dims", a.op,
                         AIRC_MAX_DIMS);
    int64_t dim;
    int32_t d;
    AIRC_TRY(airc_meta_int(&a, "dim", 0, &dim));
    AIRC_TRY(airc_meta_wrap_dim(&a, dim, self.ndim + 1, false, &d));
    airc_tmeta out = self;
    out.ndim = self.ndim + 1;
    for (int32_t i = self.ndim; i > d; i--) {
        out.shape[i] = self.shape[i - 1];
        out.strides[i] = self.strides[i - 1];
    }
    out.shape[d] = 1;
    out.strides[d] = 1;
    if (d < self.ndim && __builtin_mul_overflow(self.shape[d], self.strides[d], &out.strides[d]))
        out.strides[d] = INT64_MAX; /* a size-1 dim's stride is never used */
    return airc_meta_set(n, &out);
}

/* torch's slice arithmetic on one dim: clamps start/end into [0, size]. */
static void slice_dim(airc_tmeta *t, int32_t d, bool has_start, int64_t start, bool has_end,
                      int64_t end, int64_t step)
{
    int64_t size = t->shape[d];
    int64_t s = has_start ? start : 0, e = has_end ? end : INT64_MAX;
    if (s < 0)
        s += size;
    if (e < 0)
        e += size;
    if (s < 0)
        s = 0;
    else if (s >= size)
        s = size;
    if (e < s)
        e = s;
    else if (e >= size)
        e = size;
    /* (len + step - 1) / step without overflow */
    t->shape[d] = e == s ? 0 : (e - s - 1) / step + 1;
    if (__builtin_mul_overflow(t->strides[d], step, &t->strides[d]))
        t->strides[d] = INT64_MAX;
}

airc_status airc_meta_slice(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    if (self.ndim == 0)
        return airc_fail(AIRC_E_SHAPE, "%s: slice() cannot be applied to a 0-dim tensor.", a.op);
    int64_t dim, start = 0, end = 0, step;
    bool has_start, has_end;
    int32_t d;
    AIRC_TRY(airc_meta_int(&a, "dim", 0, &dim));
    AIRC_TRY(airc_meta_wrap_dim(&a, dim, self.ndim, false, &d));
    AIRC_TRY(airc_meta_opt_int(&a, "start", &start, &has_start));
    AIRC_TRY(airc_meta_opt_int(&a, "end", &end, &has_end));
    AIRC_TRY(airc_meta_int(&a, "step", 1, &step));
    if (step <= 0)
        return airc_fail(AIRC_E_SHAPE, "%s: slice step must be positive (got %" PRId64 ")", a.op,
                         step);
    airc_tmeta out = self;
    slice_dim(&out, d, has_start, start, has_end, end, step);
    return airc_meta_set(n, &out);
}

/* self with dim d removed (select's result). */
static void drop_dim(const airc_tmeta *self, int32_t d, airc_tmeta *out)
{
    *out = *self;
    out->ndim = self->ndim - 1;
    for (int32_t i = d; i < out->ndim; i++) {
        out->shape[i] = self->shape[i + 1];
        out->strides[i] = self->strides[i + 1];
    }
}

airc_status airc_meta_select(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    if (self.ndim == 0)
        return airc_fail(AIRC_E_SHAPE, "%s: select() cannot be applied to a 0-dim tensor.", a.op);
    int64_t dim, index;
    int32_t d;
    AIRC_TRY(airc_meta_int(&a, "dim", 0, &dim));
    AIRC_TRY(airc_meta_int(&a, "index", 0, &index));
    AIRC_TRY(airc_meta_wrap_dim(&a, dim, self.ndim, false, &d));
    int64_t size = self.shape[d];
    if (index < -size || index >= size) {
        char s1[AIRC_META_SHAPE_STR];
        return airc_fail(AIRC_E_SHAPE,
                         "%s: select(): index %" PRId64
                         " out of range for tensor of size %s at dimension %d",
                         a.op, index, airc_meta_shape_str(self.shape, self.ndim, s1), (int)d);
    }
    airc_tmeta out;
    drop_dim(&self, d, &out);
    return airc_meta_set(n, &out);
}

airc_status airc_meta_split(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    const char *name = airc_meta_name(&a);
    int64_t dim;
    int32_t d;
    AIRC_TRY(airc_meta_int(&a, "dim", 0, &dim));
    if (self.ndim == 0 && strcmp(name, "unbind"))
        return airc_fail(AIRC_E_SHAPE, "%s: split expects at least a 1-dimensional tensor", a.op);
    AIRC_TRY(airc_meta_wrap_dim(&a, dim, self.ndim, false, &d));
    int64_t dim_size = self.shape[d];
    /* the most results a node's tuple meta holds */
    const int64_t max_outputs = 4096;

    if (!strcmp(name, "unbind")) {
        if (dim_size > max_outputs)
            return airc_fail(AIRC_E_UNSUPPORTED, "%s: %" PRId64 " outputs (at most %" PRId64 ")",
                             a.op, dim_size, max_outputs);
        airc_tmeta out;
        drop_dim(&self, d, &out);
        AIRC_TRY(airc_node_set_meta_tuple(n, (size_t)dim_size));
        for (int64_t i = 0; i < dim_size; i++)
            AIRC_TRY(airc_node_set_output_meta(n, (size_t)i, out.dtype, out.ndim, out.shape,
                                               out.strides));
        return AIRC_OK;
    }

    int64_t count, split_size = 0;
    const airc_value *sizes = NULL; /* split_with_sizes' list */
    if (!strcmp(name, "split") || !strcmp(name, "unsafe_split")) {
        AIRC_TRY(airc_meta_int(&a, "split_size", 0, &split_size));
        if (split_size < 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: split expects split_size be non-negative, but got "
                             "split_size=%" PRId64,
                             a.op, split_size);
        if (split_size == 0 && dim_size != 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: split_size can only be 0 if dimension size is 0, but got "
                             "dimension size of %" PRId64,
                             a.op, dim_size);
        count = split_size && dim_size ? (dim_size - 1) / split_size + 1 : 1;
    } else {
        sizes = airc_meta_get(&a, "split_sizes");
        if (!sizes || (sizes->kind != AIRC_VALUE_LIST && sizes->kind != AIRC_VALUE_TUPLE))
            return airc_fail(AIRC_E_SHAPE, "%s: argument 'split_sizes' must be a list of ints",
                             a.op);
        count = sizes->len;
        int64_t sum = 0;
        for (uint32_t i = 0; i < sizes->len; i++) {
            const airc_value *it = sizes->u.items[i];
            if (it->kind != AIRC_VALUE_INT)
                return airc_fail(AIRC_E_UNSUPPORTED,
                                 "%s: split_sizes item %u is not a constant int", a.op,
                                 (unsigned)i);
            if (it->u.i < 0)
                return airc_fail(AIRC_E_SHAPE,
                                 "%s: split_with_sizes expects split_sizes have only "
                                 "non-negative entries, but got %" PRId64 " at position %u",
                                 a.op, it->u.i, (unsigned)i);
            if (__builtin_add_overflow(sum, it->u.i, &sum))
                return airc_meta_overflow(&a);
        }
        if (sum != dim_size)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: split_with_sizes expects split_sizes to sum exactly to %" PRId64
                             " (input tensor's size at dimension %d), but they sum to %" PRId64,
                             a.op, dim_size, (int)d, sum);
    }
    if (count > max_outputs)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: %" PRId64 " outputs (at most %" PRId64 ")",
                         a.op, count, max_outputs);
    AIRC_TRY(airc_node_set_meta_tuple(n, (size_t)count));
    for (int64_t i = 0; i < count; i++) {
        airc_tmeta out = self;
        /* narrow keeps the strides */
        if (sizes)
            out.shape[d] = sizes->u.items[i]->u.i;
        else
            out.shape[d] = i < count - 1 ? split_size : dim_size - split_size * (count - 1);
        AIRC_TRY(airc_node_set_output_meta(n, (size_t)i, out.dtype, out.ndim, out.shape,
                                           out.strides));
    }
    return AIRC_OK;
}

airc_status airc_meta_alias(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    return airc_meta_set(n, &self);
}
