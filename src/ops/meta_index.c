/* Meta functions of joining and indexing ops: cat, stack, index_select,
 * gather, embedding, constant_pad_nd, slice_scatter, select_scatter. */
#include "ops/meta_util.h"

#include <inttypes.h>
#include <string.h>

/* The tensors of a Tensor[] argument, in a heap array (*out, *n) the
 * caller frees with airc_free. */
static airc_status tensor_list(const airc_meta_args *a, const char *name, airc_tmeta **out,
                               size_t *n)
{
    const airc_value *v = airc_meta_get(a, name);
    if (!v || (v->kind != AIRC_VALUE_LIST && v->kind != AIRC_VALUE_TUPLE))
        return airc_fail(AIRC_E_SHAPE, "%s: argument '%s' must be a list of tensors", a->op, name);
    airc_context *ctx = a->node->graph->ctx;
    airc_tmeta *ts = airc_calloc(ctx, v->len ? v->len : 1, sizeof *ts);
    if (!ts)
        return airc_fail_oom("meta scratch");
    for (uint32_t i = 0; i < v->len; i++) {
        airc_status st = airc_meta_value_tensor(a, name, v->u.items[i], &ts[i]);
        if (st != AIRC_OK) {
            airc_free(ctx, ts);
            return st;
        }
    }
    *out = ts;
    *n = v->len;
    return AIRC_OK;
}

static bool same_shape(const airc_tmeta *x, const airc_tmeta *y)
{
    if (x->ndim != y->ndim)
        return false;
    for (int32_t i = 0; i < x->ndim; i++)
        if (x->shape[i] != y->shape[i])
            return false;
    return true;
}

/* cat over ts[0..n) along dim (not yet wrapped). */
static airc_status cat_meta(const airc_meta_args *a, const airc_tmeta *ts, size_t n, int64_t dim,
                            airc_tmeta *out)
{
    if (n == 0)
        return airc_fail(AIRC_E_SHAPE, "%s: torch.cat(): expected a non-empty list of Tensors",
                         a->op);
    /* every input has dims (0-dim ones are refused), so result_type is
     * plain promotion */
    const airc_tmeta *ref = NULL; /* first tensor that is not a legacy empty [0] */
    airc_dtype dtype = AIRC_DTYPE_UNDEFINED;
    for (size_t i = 0; i < n; i++) {
        if (ts[i].ndim == 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: zero-dimensional tensor (at position %zu) cannot be concatenated",
                             a->op, i);
        dtype = airc_promote_types(dtype, ts[i].dtype);
        if (!ref && !(ts[i].ndim == 1 && ts[i].shape[0] == 0))
            ref = &ts[i];
    }
    if (!ref) {
        *out = ts[0];
        out->dtype = dtype;
        airc_tmeta_contiguous(out);
        return AIRC_OK;
    }
    int32_t d;
    AIRC_TRY(airc_meta_wrap_dim(a, dim, ref->ndim, false, &d));
    *out = *ref;
    out->dtype = dtype;
    out->shape[d] = 0;
    for (size_t i = 0; i < n; i++) {
        const airc_tmeta *t = &ts[i];
        if (t->ndim == 1 && t->shape[0] == 0)
            continue;
        if (t->ndim != ref->ndim)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: Tensors must have same number of dimensions: got %d and %d",
                             a->op, (int)ref->ndim, (int)t->ndim);
        for (int32_t k = 0; k < t->ndim; k++) {
            if (k != d && t->shape[k] != ref->shape[k])
                return airc_fail(AIRC_E_SHAPE,
                                 "%s: Sizes of tensors must match except in dimension %d. "
                                 "Expected size %" PRId64 " but got size %" PRId64
                                 " for tensor number %zu in the list.",
                                 a->op, (int)d, ref->shape[k], t->shape[k], i);
        }
        if (__builtin_add_overflow(out->shape[d], t->shape[d], &out->shape[d]))
            return airc_meta_overflow(a);
    }
    AIRC_TRY(airc_meta_check_numel(a, out->shape, out->ndim));
    /* compute_output_memory_format: channels-last only when all agree */
    bool channels_last = true;
    for (size_t i = 0; i < n; i++)
        channels_last = channels_last && airc_meta_is_channels_last_like(&ts[i]);
    if (channels_last && out->ndim == 4)
        airc_meta_channels_last_strides(out);
    else
        airc_tmeta_contiguous(out);
    return AIRC_OK;
}

/* stack: cat of the tensors unsqueezed at dim; all shapes equal. */
static airc_status stack_meta(const airc_meta_args *a, const airc_tmeta *ts, size_t n, int64_t dim,
                              airc_tmeta *out)
{
    if (n == 0)
        return airc_fail(AIRC_E_SHAPE, "%s: stack expects a non-empty TensorList", a->op);
    for (size_t i = 1; i < n; i++) {
        if (!same_shape(&ts[0], &ts[i])) {
            char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
            return airc_fail(AIRC_E_SHAPE,
                             "%s: stack expects each tensor to be equal size, but got %s at "
                             "entry 0 and %s at entry %zu",
                             a->op, airc_meta_shape_str(ts[0].shape, ts[0].ndim, s1),
                             airc_meta_shape_str(ts[i].shape, ts[i].ndim, s2), i);
        }
    }
    if (ts[0].ndim >= AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: result would have more than %d dims", a->op,
                         AIRC_MAX_DIMS);
    int32_t d;
    AIRC_TRY(airc_meta_wrap_dim(a, dim, ts[0].ndim + 1, false, &d));
    *out = ts[0];
    for (size_t i = 1; i < n; i++)
        out->dtype = airc_promote_types(out->dtype, ts[i].dtype);
    out->ndim = ts[0].ndim + 1;
    for (int32_t i = out->ndim - 1; i > d; i--)
        out->shape[i] = ts[0].shape[i - 1];
    out->shape[d] = (int64_t)n;
    AIRC_TRY(airc_meta_check_numel(a, out->shape, out->ndim));
    airc_tmeta_contiguous(out);
    return AIRC_OK;
}

airc_status airc_meta_cat(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta *ts = NULL;
    size_t count = 0;
    int64_t dim = 0;
    airc_tmeta out;
    AIRC_TRY(tensor_list(&a, "tensors", &ts, &count));
    airc_status st = airc_meta_int(&a, "dim", 0, &dim);
    if (st == AIRC_OK)
        st = !strcmp(airc_meta_name(&a), "stack") || !strcmp(airc_meta_name(&a), "_stack")
                 ? stack_meta(&a, ts, count, dim, &out)
                 : cat_meta(&a, ts, count, dim, &out);
    airc_free(n->graph->ctx, ts);
    AIRC_TRY(st);
    return airc_meta_set(n, &out);
}

static airc_status index_dtype(const airc_meta_args *a, const char *fname, const airc_tmeta *index,
                               bool allow_i32)
{
    if (index->dtype == AIRC_DTYPE_I64 || (allow_i32 && index->dtype == AIRC_DTYPE_I32))
        return AIRC_OK;
    return airc_fail(AIRC_E_SHAPE, "%s: %s(): Expected dtype %sint64 for index, got %s", a->op,
                     fname, allow_i32 ? "int32 or " : "", airc_dtype_name(index->dtype));
}

airc_status airc_meta_index_select(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self, index;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(airc_meta_tensor(&a, "index", &index));
    int64_t dim;
    int32_t d;
    AIRC_TRY(airc_meta_int(&a, "dim", 0, &dim));
    AIRC_TRY(airc_meta_wrap_dim(&a, dim, self.ndim, true, &d));
    AIRC_TRY(index_dtype(&a, "index_select", &index, true));
    if (index.ndim > 1)
        return airc_fail(AIRC_E_SHAPE, "%s: index_select(): Index is supposed to be a vector",
                         a.op);
    airc_tmeta out = self;
    int64_t count = airc_tmeta_numel(&index);
    if (self.ndim == 0) {
        if (count != 1)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: index_select(): Index to scalar can have only 1 value, got %" PRId64
                             " value(s)",
                             a.op, count);
    } else {
        out.shape[d] = count;
    }
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

airc_status airc_meta_gather(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self, index;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(airc_meta_tensor(&a, "index", &index));
    int64_t dim;
    int32_t d;
    AIRC_TRY(airc_meta_int(&a, "dim", 0, &dim));
    AIRC_TRY(airc_meta_wrap_dim(&a, dim, self.ndim, true, &d));
    int32_t sd = self.ndim ? self.ndim : 1, id = index.ndim ? index.ndim : 1;
    /* torch checks an empty index neither for its dtype nor its shape */
    if (airc_tmeta_numel(&index) != 0) {
        AIRC_TRY(index_dtype(&a, "gather", &index, false));
        if (sd != id)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: Index tensor must have the same number of dimensions as input "
                             "tensor",
                             a.op);
        for (int32_t k = 0; k < self.ndim && k < index.ndim; k++) {
            if (k != d && index.shape[k] > self.shape[k]) {
                char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
                return airc_fail(AIRC_E_SHAPE,
                                 "%s: Size does not match at dimension %d expected index %s to be "
                                 "smaller than self %s apart from dimension %d",
                                 a.op, (int)k, airc_meta_shape_str(index.shape, index.ndim, s1),
                                 airc_meta_shape_str(self.shape, self.ndim, s2), (int)d);
            }
        }
    }
    airc_tmeta out = index;
    out.dtype = self.dtype;
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

airc_status airc_meta_embedding(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta w, idx;
    AIRC_TRY(airc_meta_tensor(&a, "weight", &w));
    AIRC_TRY(airc_meta_tensor(&a, "indices", &idx));
    if (w.ndim != 2)
        return airc_fail(AIRC_E_SHAPE, "%s: 'weight' must be 2-D", a.op);
    if (idx.dtype != AIRC_DTYPE_I64 && idx.dtype != AIRC_DTYPE_I32)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Expected tensor for argument #1 'indices' to have one of the "
                         "following scalar types: Long, Int; but got %s instead",
                         a.op, airc_dtype_torch_type_name(idx.dtype));
    if (idx.ndim >= AIRC_MAX_DIMS)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: too many dims", a.op);
    airc_tmeta out = idx;
    out.dtype = w.dtype;
    out.shape[out.ndim++] = w.shape[1];
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

airc_status airc_meta_constant_pad_nd(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    int64_t pad[2 * AIRC_MAX_DIMS + 2];
    int32_t np;
    bool present;
    AIRC_TRY(airc_meta_int_list(&a, "pad", pad, 2 * AIRC_MAX_DIMS + 2, &np, &present));
    if (np % 2)
        return airc_fail(AIRC_E_SHAPE, "%s: Length of pad must be even but instead it equals %d",
                         a.op, (int)np);
    if (np > 2 * self.ndim)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Length of pad should be no more than twice the number of "
                         "dimensions of the input. Pad length is %d while the input has %d "
                         "dimensions.",
                         a.op, (int)np, (int)self.ndim);
    airc_tmeta out = self;
    bool all_non_positive = true;
    for (int32_t i = 0; i < np / 2; i++) {
        int32_t d = self.ndim - 1 - i;
        int64_t lo = pad[2 * i], hi = pad[2 * i + 1];
        int64_t size;
        /* torch narrows by the negative pads first, the front then the
         * back: each narrow must fit (shape >= 0, so no overflow here) */
        int64_t narrowed = self.shape[d] + (lo < 0 ? lo : 0);
        if (narrowed >= 0)
            narrowed += hi < 0 ? hi : 0;
        if (narrowed < 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: narrowing dimension %d of size %" PRId64
                             " by the padding %" PRId64 " and %" PRId64 " leaves a negative length",
                             a.op, (int)d, self.shape[d], lo, hi);
        if (__builtin_add_overflow(self.shape[d], lo, &size) ||
            __builtin_add_overflow(size, hi, &size))
            return airc_meta_overflow(&a);
        out.shape[d] = size;
        all_non_positive = all_non_positive && lo <= 0 && hi <= 0;
    }
    /* with a positive pad torch makes a new tensor, filled with value
     * (converted with the overflow check), and every padded dimension must
     * come out non-empty (new_dim > 0) */
    if (!all_non_positive)
        AIRC_TRY(airc_meta_check_scalar(&a, "value", self.dtype));
    for (int32_t i = 0; i < np / 2 && !all_non_positive; i++) {
        int32_t d = self.ndim - 1 - i;
        if (out.shape[d] <= 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: The input size %" PRId64 ", plus negative padding %" PRId64
                             " and %" PRId64
                             " resulted in a negative output size, which is invalid. Check "
                             "dimension %d of your input.",
                             a.op, self.shape[d], pad[2 * i], pad[2 * i + 1], (int)d);
    }
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    if (all_non_positive) {
        /* torch returns a clone of the narrowed input (strides kept) */
        airc_tmeta narrowed = out;
        memcpy(narrowed.strides, self.strides, sizeof self.strides);
        airc_meta_like_strides(&narrowed, AIRC_MEMORY_FORMAT_PRESERVE, true, out.strides);
    } else if (airc_meta_is_channels_last_like(&self)) {
        airc_meta_channels_last_strides(&out);
    } else {
        airc_tmeta_contiguous(&out);
    }
    return airc_meta_set(n, &out);
}

airc_status airc_meta_scatter_view(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self, src;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(airc_meta_tensor(&a, "src", &src));
    int64_t dim;
    int32_t d;
    AIRC_TRY(airc_meta_int(&a, "dim", 0, &dim));
    if (self.ndim == 0)
        return airc_fail(AIRC_E_SHAPE, "%s: cannot be applied to a 0-dim tensor", a.op);
    AIRC_TRY(airc_meta_wrap_dim(&a, dim, self.ndim, false, &d));
    airc_tmeta slice = self;
    if (!strcmp(airc_meta_name(&a), "select_scatter")) {
        int64_t index;
        AIRC_TRY(airc_meta_int(&a, "index", 0, &index));
        if (index < -self.shape[d] || index >= self.shape[d])
            return airc_fail(AIRC_E_SHAPE,
                             "%s: index %" PRId64 " out of range for dimension %d of size %" PRId64,
                             a.op, index, (int)d, self.shape[d]);
        slice.ndim--;
        for (int32_t i = d; i < slice.ndim; i++)
            slice.shape[i] = self.shape[i + 1];
    } else {
        int64_t start = 0, end = 0, step;
        bool has_start, has_end;
        AIRC_TRY(airc_meta_opt_int(&a, "start", &start, &has_start));
        AIRC_TRY(airc_meta_opt_int(&a, "end", &end, &has_end));
        AIRC_TRY(airc_meta_int(&a, "step", 1, &step));
        if (step <= 0)
            return airc_fail(AIRC_E_SHAPE, "%s: slice step must be positive", a.op);
        int64_t size = self.shape[d];
        int64_t s = has_start ? start : 0, e = has_end ? end : INT64_MAX;
        if (s < 0)
            s += size;
        if (e < 0)
            e += size;
        s = s < 0 ? 0 : (s > size ? size : s);
        e = e < s ? s : (e > size ? size : e);
        slice.shape[d] = e == s ? 0 : (e - s - 1) / step + 1;
    }
    AIRC_TRY(airc_meta_src_fits_slice(&a, &src, &slice));
    return airc_meta_set_clone(n, &self);
}

airc_status airc_meta_src_fits_slice(const airc_meta_args *a, const airc_tmeta *src,
                                     const airc_tmeta *slice)
{
    if (same_shape(slice, src))
        return AIRC_OK;
    char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
    return airc_fail(AIRC_E_SHAPE,
                     "%s: expected src to have a size equal to the slice of self. src size = "
                     "%s, slice size = %s",
                     a->op, airc_meta_shape_str(src->shape, src->ndim, s1),
                     airc_meta_shape_str(slice->shape, slice->ndim, s2));
}

airc_status airc_meta_set_clone(airc_node *n, const airc_tmeta *self)
{
    airc_tmeta out = *self;
    airc_meta_like_strides(self, AIRC_MEMORY_FORMAT_PRESERVE, true, out.strides);
    return airc_meta_set(n, &out);
}

/* scatter.src / scatter.value / scatter_add (and the in-place forms),
 * scatter.reduce / .value_reduce (reduce 'add' or 'multiply'):
 * self's shape and dtype, contiguous (in place: self). An empty index is
 * not checked, as torch; else an int64 index of self's rank (and src's),
 * no larger than self apart from dim, nor than src; src of self's dtype.
 * Each index value is checked when the graph runs. */
airc_status airc_meta_scatter(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self, index, src;
    bool has_src = false;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(airc_meta_tensor(&a, "index", &index));
    if (airc_meta_find(&a, "src") >= 0) {
        AIRC_TRY(airc_meta_tensor(&a, "src", &src));
        has_src = true;
        if (src.dtype != self.dtype)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: scatter(): Expected self.dtype to be equal to "
                             "src.dtype",
                             a.op);
    }
    int64_t dim;
    int32_t d;
    AIRC_TRY(airc_meta_int(&a, "dim", 0, &dim));
    AIRC_TRY(airc_meta_wrap_dim(&a, dim, self.ndim, true, &d));
    bool scatter_reduce = !strncmp(airc_meta_name(&a), "scatter_reduce", 14);
    if (airc_meta_find(&a, "reduce") >= 0 && !scatter_reduce) { /* scatter.reduce, value_reduce */
        const char *r = NULL;
        AIRC_TRY(airc_meta_opt_string(&a, "reduce", &r));
        if (!r || (strcmp(r, "add") && strcmp(r, "multiply")))
            return airc_fail(AIRC_E_SHAPE, "%s: reduce argument must be either add or multiply.",
                             a.op);
    }
    if (scatter_reduce) { /* scatter_reduce.two */
        const char *r = NULL;
        AIRC_TRY(airc_meta_opt_string(&a, "reduce", &r));
        static const char *const names[] = {"sum", "prod", "mean", "amax", "amin"};
        bool known = false;
        for (int i = 0; r && i < 5; i++)
            known = known || !strcmp(r, names[i]);
        if (!known)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: reduce argument must be either sum, prod, mean, amax or amin, "
                             "got %s",
                             a.op, r ? r : "None");
        if (!strcmp(r, "mean") && self.dtype == AIRC_DTYPE_BOOL)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: \"scatter_gather_tensor_cpu_reduce_mean\" not implemented for "
                             "'Bool'",
                             a.op);
    }
    if (airc_tmeta_numel(&index) != 0) {
        AIRC_TRY(index_dtype(&a, "scatter", &index, false));
        if (!has_src) /* the value converts to self's dtype, checked */
            AIRC_TRY(airc_meta_check_scalar(&a, "value", self.dtype));
        int32_t sd = self.ndim ? self.ndim : 1, id = index.ndim ? index.ndim : 1;
        if (sd != id)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: Index tensor must have the same number of dimensions as self "
                             "tensor",
                             a.op);
        if (has_src && (src.ndim ? src.ndim : 1) != id)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: Index tensor must have the same number of dimensions as src "
                             "tensor",
                             a.op);
        for (int32_t k = 0; k < index.ndim; k++) {
            if ((k != d && k < self.ndim && index.shape[k] > self.shape[k]) ||
                (has_src && k < src.ndim && index.shape[k] > src.shape[k])) {
                char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR], s3[AIRC_META_SHAPE_STR];
                return airc_fail(AIRC_E_SHAPE,
                                 "%s: Expected index %s to be smaller than self %s apart from "
                                 "dimension %d and to be smaller size than src %s",
                                 a.op, airc_meta_shape_str(index.shape, index.ndim, s1),
                                 airc_meta_shape_str(self.shape, self.ndim, s2), (int)d,
                                 has_src ? airc_meta_shape_str(src.shape, src.ndim, s3) : "[]");
            }
        }
    }
    airc_tmeta out = self;
    if (!airc_meta_is_inplace(&a))
        airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

/* index_copy(self, dim, index, source) and index_copy_: torch 1.13's
 * checks (an int64 index of at most one dim, one per source slice along
 * dim, slices of self's shape, self's dtype); the result is contiguous
 * (in place: self). Index values are checked when the graph runs.
 * index_add / index_add_ (self, dim, index, source, alpha): the same, an
 * int32 index allowed. */
airc_status airc_meta_index_copy(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    /* index_add / index_add_ take an int32 index too, and alpha */
    bool add = !strncmp(airc_meta_name(&a), "index_add", 9);
    airc_tmeta self, index, src;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(airc_meta_tensor(&a, "index", &index));
    AIRC_TRY(airc_meta_tensor(&a, "source", &src));
    int64_t dim;
    int32_t d;
    AIRC_TRY(airc_meta_int(&a, "dim", 0, &dim));
    AIRC_TRY(airc_meta_wrap_dim(&a, dim, self.ndim, true, &d));
    if (index.ndim >= 2)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: index_copy_(): Index should have dimension 1 or 0 (got %d)", a.op,
                         (int)index.ndim);
    int64_t count = airc_tmeta_numel(&index);
    if (src.ndim == 0 && count != 1)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: index_copy_(): When source is scalar, index should have one "
                         "element (got %" PRId64 ")",
                         a.op, count);
    if (self.ndim && src.ndim && self.ndim != src.ndim)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: index_copy_(): When source and destination are not scalars, their "
                         "dimensionality must match. Source dimensionality (%d), destination "
                         "dimensionality (%d)",
                         a.op, (int)src.ndim, (int)self.ndim);
    if (index.dtype != AIRC_DTYPE_I64 && (!add || index.dtype != AIRC_DTYPE_I32))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: index_copy_(): Expected a long tensor for index, but got %s", a.op,
                         airc_dtype_torch_type_name(index.dtype));
    /* the slice shapes: each shape without dim (a 0-dim one stays empty) */
    bool same = (self.ndim ? self.ndim - 1 : 0) == (src.ndim ? src.ndim - 1 : 0);
    for (int32_t k = 0; same && k < self.ndim && k < src.ndim; k++)
        same = k == d || self.shape[k] == src.shape[k];
    if (!same)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: index_copy_(): Source/destination tensor must have same slice "
                         "shapes",
                         a.op);
    if (src.ndim && count != src.shape[d])
        return airc_fail(AIRC_E_SHAPE,
                         "%s: index_copy_(): Number of indices (%" PRId64 ") should be equal to "
                         "source.size(dim) (%" PRId64 ")",
                         a.op, count, src.shape[d]);
    if (src.dtype != self.dtype)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: index_copy_(): self and source expected to have the same dtype, but "
                         "got (self) %s and (source) %s",
                         a.op, airc_dtype_torch_type_name(self.dtype),
                         airc_dtype_torch_type_name(src.dtype));
    airc_tmeta out = self;
    if (!airc_meta_is_inplace(&a))
        airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

/* index_fill(self, dim, index, value) and index_fill_: self's shape and
 * dtype (the functional form keeps self's layout: torch clones it with
 * preserve_format); an int64 index of at most 1 dim; a number value
 * converts to self's dtype, checked, a tensor value must be 0-dim. */
airc_status airc_meta_index_fill(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self, index;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(airc_meta_tensor(&a, "index", &index));
    int64_t dim;
    int32_t d;
    AIRC_TRY(airc_meta_int(&a, "dim", 0, &dim));
    AIRC_TRY(airc_meta_wrap_dim(&a, dim, self.ndim, true, &d));
    if (index.dtype != AIRC_DTYPE_I64)
        return airc_fail(AIRC_E_SHAPE, "%s: index_fill_(): Expected dtype int64 for index.", a.op);
    if (index.ndim > 1)
        return airc_fail(AIRC_E_SHAPE, "%s: Index has to be a vector/scalar", a.op);
    airc_operand value;
    AIRC_TRY(airc_meta_operand(&a, "value", &value));
    if (!value.present)
        return airc_fail(AIRC_E_SHAPE, "%s: argument 'value' is missing", a.op);
    if (!value.wrapped && value.t.ndim != 0)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: index_fill_ only supports a 0-dimensional value tensor, but got "
                         "tensor with %d dimension(s).",
                         a.op, (int)value.t.ndim);
    AIRC_TRY(airc_meta_check_scalar(&a, "value", self.dtype));
    airc_tmeta out = self;
    if (!airc_meta_is_inplace(&a))
        airc_meta_like_strides(&self, AIRC_MEMORY_FORMAT_PRESERVE, true, out.strides);
    return airc_meta_set(n, &out);
}

/* take(self, index): self read as a flat contiguous tensor at an int64
 * index; the result has the index's shape, contiguous. */
airc_status airc_meta_take(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self, index;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(airc_meta_tensor(&a, "index", &index));
    if (index.dtype != AIRC_DTYPE_I64)
        return airc_fail(AIRC_E_SHAPE, "%s: take(): Expected a long tensor for index, but got %s",
                         a.op, airc_dtype_torch_type_name(index.dtype));
    if (airc_tmeta_numel(&self) == 0 && airc_tmeta_numel(&index) != 0)
        return airc_fail(AIRC_E_SHAPE, "%s: take(): tried to take from an empty tensor", a.op);
    airc_tmeta out = index;
    out.dtype = self.dtype;
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

/* masked_scatter(self, mask, source): self and a bool (or uint8) mask
 * broadcast together, contiguous, in self's dtype; source of self's dtype
 * (its element count against the mask's is torch's data check). */
airc_status airc_meta_masked_scatter(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self, mask, src;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(airc_meta_tensor(&a, "mask", &mask));
    AIRC_TRY(airc_meta_tensor(&a, "source", &src));
    if (mask.dtype != AIRC_DTYPE_BOOL && mask.dtype != AIRC_DTYPE_U8)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: masked_scatter only supports boolean masks, but got mask with dtype "
                         "%s",
                         a.op, airc_dtype_torch_type_name(mask.dtype));
    if (src.dtype != self.dtype)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: masked_scatter: expected self and source to have same dtypes but "
                         "got%s and %s",
                         a.op, airc_dtype_torch_type_name(self.dtype),
                         airc_dtype_torch_type_name(src.dtype));
    airc_tmeta out = self;
    AIRC_TRY(airc_meta_broadcast2(&a, "self", self.shape, self.ndim, "mask", mask.shape, mask.ndim,
                                  out.shape, &out.ndim));
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

/* block_diag(tensors): the 0-d, 1-d ([n] as [1, n]) and 2-d tensors on
 * the diagonal of a contiguous [sum rows, sum cols] of torch.result_type
 * of them all; none gives a [1, 0] f32. */
airc_status airc_meta_block_diag(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta *ts = NULL;
    size_t count = 0;
    AIRC_TRY(tensor_list(&a, "tensors", &ts, &count));
    airc_context *ctx = n->graph->ctx;
    airc_operand *ops = airc_calloc(ctx, count ? count : 1, sizeof *ops);
    airc_status st = ops ? AIRC_OK : airc_fail_oom("meta scratch");
    airc_tmeta out = {.dtype = AIRC_DTYPE_F32, .ndim = 2, .shape = {count ? 0 : 1, 0}};
    for (size_t i = 0; st == AIRC_OK && i < count; i++) {
        const airc_tmeta *t = &ts[i];
        if (t->ndim > 2) {
            st = airc_fail(AIRC_E_SHAPE,
                           "%s: torch.block_diag: Input tensors must have 2 or fewer dimensions. "
                           "Input %zu has %d dimensions",
                           a.op, i, (int)t->ndim);
            break;
        }
        ops[i] = (airc_operand){.t = *t, .present = true, .name = "tensors"};
        int64_t rows = t->ndim == 2 ? t->shape[0] : 1, cols = t->ndim ? t->shape[t->ndim - 1] : 1;
        if (__builtin_add_overflow(out.shape[0], rows, &out.shape[0]) ||
            __builtin_add_overflow(out.shape[1], cols, &out.shape[1]))
            st = airc_meta_overflow(&a);
    }
    if (st == AIRC_OK && count)
        out.dtype = airc_result_type(ops, count);
    airc_free(ctx, ops);
    airc_free(ctx, ts);
    AIRC_TRY(st);
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, 2));
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

/* put(self, index, source, accumulate=False): self.clone() with source's
 * elements written (added) at index's flat positions of self, torch's
 * put_ checks in its order. An index out of range is the kernel's. */
airc_status airc_meta_put(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self, index, source;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(airc_meta_tensor(&a, "index", &index));
    AIRC_TRY(airc_meta_tensor(&a, "source", &source));
    if (index.dtype != AIRC_DTYPE_I64)
        return airc_fail(AIRC_E_SHAPE, "%s: put_(): Expected a long tensor for index, but got %s",
                         a.op, airc_dtype_torch_type_name(index.dtype));
    if (self.dtype != source.dtype)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: put_(): self and source expected to have the same dtype, but got "
                         "self.dtype = %s and source.dtype = %s",
                         a.op, airc_dtype_torch_type_name(self.dtype),
                         airc_dtype_torch_type_name(source.dtype));
    int64_t ni = airc_tmeta_numel(&index), ns = airc_tmeta_numel(&source);
    if (ni != ns)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: put_(): Expected source and index to have the same number of "
                         "elements, but got source.numel() = %" PRId64 ", index.numel() = %" PRId64,
                         a.op, ns, ni);
    if (airc_tmeta_numel(&self) == 0 && ni != 0)
        return airc_fail(AIRC_E_SHAPE, "%s: put_(): Tried to put elements into an empty tensor",
                         a.op);
    return airc_meta_set_clone(n, &self);
}

/* The position of reduce in names[0, n), -1 when absent */
static int reduction_index(const char *reduce, const char *const *names, int n)
{
    for (int i = 0; reduce && i < n; i++)
        if (!strcmp(reduce, names[i]))
            return i;
    return -1;
}

int airc_index_reduce_kind(const char *reduce)
{
    static const char *const names[] = {"prod", "mean", "amax", "amin"};
    return reduction_index(reduce, names, 4);
}

int airc_segment_reduce_kind(const char *reduce)
{
    static const char *const names[] = {"sum", "mean", "max", "min", "prod"};
    return reduction_index(reduce, names, 5);
}

/* index_reduce(self, dim, index, source, reduce, *, include_self=True): a
 * contiguous copy of self whose slices index[i] along dim are reduced with
 * source's slices i. torch's checks in its order (its meta's: the reduce,
 * dim, index_func_meta_impl's, and the source slice broadcasting into
 * self's, which torch's CPU kernel checks only for a self of 2 or more
 * dims and an index not empty). An index out of range is the kernel's. */
airc_status airc_meta_index_reduce(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    const char *reduce;
    AIRC_TRY(airc_meta_opt_string(&a, "reduce", &reduce));
    if (airc_index_reduce_kind(reduce) < 0)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: index_reduce(): Expected reduce to be one of prod, mean, amax or "
                         "amin but got %s.",
                         a.op, reduce ? reduce : "None");
    airc_tmeta self, index, source;
    int64_t dim;
    int32_t d;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    AIRC_TRY(airc_meta_tensor(&a, "index", &index));
    AIRC_TRY(airc_meta_tensor(&a, "source", &source));
    AIRC_TRY(airc_meta_int(&a, "dim", 0, &dim));
    AIRC_TRY(airc_meta_wrap_dim(&a, dim, self.ndim, true, &d));
    char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
    if (index.ndim > 1)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: index_reduce_(): Index is supposed to be a vector, but got dim: %d "
                         "with type: %s and size: %s",
                         a.op, (int)index.ndim, airc_dtype_torch_type_name(index.dtype),
                         airc_meta_shape_str(index.shape, index.ndim, s1));
    if (index.dtype != AIRC_DTYPE_I64 && index.dtype != AIRC_DTYPE_I32)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: index_reduce_(): Expected dtype int32/int64 for index but got: %s",
                         a.op, airc_dtype_torch_type_name(index.dtype));
    if (self.dtype != source.dtype)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: index_reduce_(): self (%s) and source (%s) must have the same "
                         "scalar type",
                         a.op, airc_dtype_torch_type_name(self.dtype),
                         airc_dtype_torch_type_name(source.dtype));
    if (d != 0 && d >= source.ndim)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: index_reduce_(): Indexing dim %d is out of bounds of the source "
                         "tensor with dim %d",
                         a.op, (int)d, (int)source.ndim);
    int64_t ni = airc_tmeta_numel(&index), count = source.ndim ? source.shape[d] : 1;
    if (ni != count)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: index_reduce_(): Number of indices (%" PRId64
                         ") should be equal to source.size(dim): (%" PRId64 "), for dim: %d",
                         a.op, ni, count, (int)d);
    if (self.ndim > 0) { /* source.select(dim, 0) must broadcast into self.select(dim, 0) */
        int64_t ss[AIRC_MAX_DIMS], rs[AIRC_MAX_DIMS], bs[AIRC_MAX_DIMS];
        int32_t sn = 0, rn = 0, bn;
        for (int32_t i = 0; i < self.ndim; i++)
            if (i != d)
                ss[sn++] = self.shape[i];
        for (int32_t i = 0; i < source.ndim; i++)
            if (i != d)
                rs[rn++] = source.shape[i];
        for (int32_t i = 1; i <= sn || i <= rn; i++) {
            int64_t x = i <= sn ? ss[sn - i] : 1, y = i <= rn ? rs[rn - i] : 1;
            if (x != y && x != 1 && y != 1)
                return airc_fail(AIRC_E_SHAPE,
                                 "%s: The size of tensor a (%" PRId64
                                 ") must match the size of tensor b (%" PRId64
                                 ") at non-singleton dimension %d",
                                 a.op, x, y, (int)((sn > rn ? sn : rn) - i));
        }
        AIRC_TRY(airc_meta_broadcast2(&a, "self", ss, sn, "source", rs, rn, bs, &bn));
        bool same = bn == sn;
        for (int32_t i = 0; same && i < bn; i++)
            same = bs[i] == ss[i];
        if (!same)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: output with shape %s doesn't match the broadcast shape %s", a.op,
                             airc_meta_shape_str(ss, sn, s1), airc_meta_shape_str(bs, bn, s2));
    }
    airc_tmeta_contiguous(&self);
    return airc_meta_set(n, &self);
}
