/* Meta functions of copies and fills (clone, copy, _to_copy, to, contiguous,
 * *_like, fill, tril/triu) and of tensor creation (full, zeros, ones, empty,
 * arange, range, scalar_tensor, new_*). A copy keeps its input's layout where
 * torch's memory_format=preserve does. */
#include "ops/meta_util.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/* Layout of a fresh tensor like t with the op's memory_format argument
 * (absent/None: preserve). */
static airc_status like_layout(const airc_meta_args *a, const airc_tmeta *t, airc_memory_format def,
                               airc_tmeta *out)
{
    airc_memory_format fmt = def;
    bool present = false;
    if (airc_meta_find(a, "memory_format") >= 0)
        AIRC_TRY(airc_meta_opt_memory_format(a, "memory_format", &fmt, &present));
    if (!present)
        fmt = def;
    if ((fmt == AIRC_MEMORY_FORMAT_CHANNELS_LAST && t->ndim != 4) ||
        (fmt == AIRC_MEMORY_FORMAT_CHANNELS_LAST_3D && t->ndim != 5))
        return airc_fail(AIRC_E_SHAPE, "%s: required rank %d tensor to use %s format", a->op,
                         fmt == AIRC_MEMORY_FORMAT_CHANNELS_LAST ? 4 : 5,
                         fmt == AIRC_MEMORY_FORMAT_CHANNELS_LAST ? "channels_last"
                                                                 : "channels_last_3d");
    if (fmt == AIRC_MEMORY_FORMAT_CHANNELS_LAST_3D)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: channels_last_3d is not supported", a->op);
    airc_tmeta src = *t; /* t may be out */
    out->ndim = src.ndim;
    memcpy(out->shape, src.shape, sizeof src.shape);
    airc_meta_like_strides(&src, fmt, true, out->strides);
    return AIRC_OK;
}

/* channels_last_3d counts as never met: like_layout then refuses a tensor
 * of another rank, as torch does, and the format itself for rank 5. */
static bool is_contiguous_as(const airc_tmeta *t, airc_memory_format fmt)
{
    if (fmt == AIRC_MEMORY_FORMAT_CHANNELS_LAST_3D)
        return false;
    return fmt == AIRC_MEMORY_FORMAT_CHANNELS_LAST ? airc_meta_is_channels_last_contiguous(t)
                                                   : airc_meta_is_contiguous(t);
}

/* copy/copy_: src must broadcast to self (expand's rule). */
static airc_status check_src(const airc_meta_args *a, const airc_tmeta *self, airc_tmeta *out)
{
    airc_tmeta src;
    AIRC_TRY(airc_meta_tensor(a, "src", &src));
    *out = src;
    int64_t shape[AIRC_MAX_DIMS];
    int32_t nd;
    AIRC_TRY(airc_meta_broadcast2(a, "src", src.shape, src.ndim, "self", self->shape, self->ndim,
                                  shape, &nd));
    bool same = nd == self->ndim;
    for (int32_t i = 0; same && i < nd; i++)
        same = shape[i] == self->shape[i];
    if (!same) {
        char s1[AIRC_META_SHAPE_STR], s2[AIRC_META_SHAPE_STR];
        return airc_fail(AIRC_E_SHAPE, "%s: src of shape %s does not broadcast to self's shape %s",
                         a->op, airc_meta_shape_str(src.shape, src.ndim, s1),
                         airc_meta_shape_str(self->shape, self->ndim, s2));
    }
    return AIRC_OK;
}

/* fill / fill_'s value: a number, or a 0-dim tensor (whose item() is
 * converted to self's dtype when the kernel reads it) */
static airc_status check_fill_value(const airc_meta_args *a)
{
    airc_operand v;
    AIRC_TRY(airc_meta_operand(a, "value", &v));
    if (v.present && !v.wrapped && v.t.ndim != 0)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: fill_ only supports 0-dimension value tensor but got tensor with %d "
                         "dimensions.",
                         a->op, (int)v.t.ndim);
    return AIRC_OK;
}

airc_status airc_meta_copy(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    const char *name = airc_meta_name(&a);
    airc_tmeta out = self;
    bool present;

    if (airc_meta_is_inplace(&a)) {
        /* copy_, fill_, zero_, tril_, triu_: the result is self */
        airc_tmeta src;
        if (!strcmp(name, "copy_")) {
            AIRC_TRY(check_src(&a, &self, &src));
            AIRC_TRY(airc_meta_no_internal_overlap(&a, &self));
        }
        if (!strcmp(name, "fill_"))
            AIRC_TRY(check_fill_value(&a));
    } else if (!strcmp(name, "copy")) {
        /* torch 1.13's functional copy: src.to(self.dtype), expanded (and
         * cloned) to self's shape when it differs; with the same dtype and
         * shape it is src itself */
        airc_tmeta src;
        AIRC_TRY(check_src(&a, &self, &src));
        out = src;
        if (src.dtype != self.dtype) {
            airc_meta_like_strides(&src, AIRC_MEMORY_FORMAT_PRESERVE, true, out.strides);
            out.dtype = self.dtype;
        }
        bool same = src.ndim == self.ndim;
        for (int32_t i = 0; same && i < self.ndim; i++)
            same = src.shape[i] == self.shape[i];
        if (!same) {
            airc_tmeta expanded;
            airc_meta_expand_to(&out, self.shape, self.ndim, &expanded);
            out = expanded;
            airc_meta_like_strides(&expanded, AIRC_MEMORY_FORMAT_PRESERVE, true, out.strides);
        }
    } else if (!strcmp(name, "contiguous")) {
        airc_memory_format fmt = AIRC_MEMORY_FORMAT_CONTIGUOUS;
        AIRC_TRY(airc_meta_opt_memory_format(&a, "memory_format", &fmt, &present));
        /* torch returns a tensor already contiguous as asked before it
         * checks the format, and preserve asks for plain contiguity */
        if (fmt == AIRC_MEMORY_FORMAT_PRESERVE && !is_contiguous_as(&self, fmt))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: preserve memory format is unsupported by the contiguous "
                             "operator",
                             a.op);
        if (!is_contiguous_as(&self, fmt))
            AIRC_TRY(like_layout(&a, &self, fmt, &out));
    } else if (!strcmp(name, "to")) {
        bool copy;
        AIRC_TRY(airc_meta_opt_dtype(&a, "dtype", &out.dtype, &present));
        AIRC_TRY(airc_meta_bool(&a, "copy", false, &copy));
        airc_memory_format fmt = AIRC_MEMORY_FORMAT_PRESERVE;
        AIRC_TRY(airc_meta_opt_memory_format(&a, "memory_format", &fmt, &present));
        /* to() returns self when nothing changes */
        bool noop = !copy && out.dtype == self.dtype &&
                    (fmt == AIRC_MEMORY_FORMAT_PRESERVE || is_contiguous_as(&self, fmt));
        if (!noop)
            AIRC_TRY(like_layout(&a, &self, AIRC_MEMORY_FORMAT_PRESERVE, &out));
    } else if (!strcmp(name, "tril") || !strcmp(name, "triu")) {
        if (self.ndim < 2)
            return airc_fail(AIRC_E_SHAPE, "%s: %s: input tensor must have at least 2 dimensions",
                             a.op, name);
        airc_tmeta_contiguous(&out);
    } else {
        /* clone, _to_copy, lift_fresh_copy, fill, zero, _conj_physical,
         * *_like: empty_like(self) with the op's memory format and dtype */
        if (!strcmp(name, "fill"))
            AIRC_TRY(check_fill_value(&a));
        AIRC_TRY(like_layout(&a, &self, AIRC_MEMORY_FORMAT_PRESERVE, &out));
        if (airc_meta_find(&a, "dtype") >= 0) {
            airc_dtype d;
            AIRC_TRY(airc_meta_opt_dtype(&a, "dtype", &d, &present));
            if (present)
                out.dtype = d;
        }
    }
    /* fill and full_like convert their value to the result's dtype, checked */
    AIRC_TRY(airc_meta_check_scalar(&a, "value", out.dtype));
    AIRC_TRY(airc_meta_check_scalar(&a, "fill_value", out.dtype));
    return airc_meta_set(n, &out);
}

/* narrow_copy(self, dim, start, length): torch 1.13's checks in its order
 * (a 0-dim self; a negative dim wrapped, one past the end its bare
 * TORCH_CHECK; a negative start wrapped as a dim of the size's; the
 * range), a contiguous copy of the narrowed self. */
airc_status airc_meta_narrow_copy(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    int64_t dim, start, length;
    AIRC_TRY(airc_meta_int(&a, "dim", 0, &dim));
    AIRC_TRY(airc_meta_int(&a, "start", 0, &start));
    AIRC_TRY(airc_meta_int(&a, "length", 0, &length));
    if (self.ndim == 0)
        return airc_fail(AIRC_E_SHAPE, "%s: narrow() cannot be applied to a 0-dim tensor.", a.op);
    int32_t d;
    if (dim < 0) {
        AIRC_TRY(airc_meta_wrap_dim(&a, dim, self.ndim, true, &d));
    } else if (dim >= self.ndim) {
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, "
                         "but got false.  (Could this error message be improved?  If so, please "
                         "report an enhancement request to PyTorch.)",
                         a.op);
    } else {
        d = (int32_t)dim;
    }
    int64_t size = self.shape[d];
    if (start < 0) {
        int64_t lo = size ? -size : -1;
        if (start < lo)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: Dimension out of range (expected to be in range of [%" PRId64
                             ", %" PRId64 "], but got %" PRId64 ")",
                             a.op, lo, size ? size - 1 : 0, start);
        start += size ? size : 1;
    }
    if (length < 0 || start > size - length)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: start (%" PRId64 ") + length (%" PRId64
                         ") exceeds dimension size (%" PRId64 ").",
                         a.op, start, length, size);
    airc_tmeta out = self;
    out.shape[d] = length;
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

/* ---- creation ---------------------------------------------------------- */

static airc_status creation_size(const airc_meta_args *a, airc_tmeta *out)
{
    bool present;
    AIRC_TRY(airc_meta_int_list(a, "size", out->shape, AIRC_MAX_DIMS, &out->ndim, &present));
    if (!present)
        return airc_fail(AIRC_E_SHAPE, "%s: argument 'size' is missing", a->op);
    for (int32_t i = 0; i < out->ndim; i++) {
        if (out->shape[i] < 0) {
            char s[AIRC_META_SHAPE_STR];
            return airc_fail(AIRC_E_SHAPE,
                             "%s: Trying to create tensor with negative dimension %" PRId64 ": %s",
                             a->op, out->shape[i], airc_meta_shape_str(out->shape, out->ndim, s));
        }
    }
    return airc_meta_check_numel(a, out->shape, out->ndim);
}

/* empty_strided / new_empty_strided: the strides given, one per dim, none
 * negative (torch's storage size computation refuses them) */
static airc_status given_strides(const airc_meta_args *a, airc_tmeta *out)
{
    int64_t st[AIRC_MAX_DIMS];
    int32_t ns;
    bool present;
    AIRC_TRY(airc_meta_int_list(a, "stride", st, AIRC_MAX_DIMS, &ns, &present));
    if (ns != out->ndim)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: dimensionality of sizes (%d) must match dimensionality of strides "
                         "(%d)",
                         a->op, (int)out->ndim, (int)ns);
    for (int32_t i = 0; i < ns; i++) {
        if (st[i] < 0)
            return airc_fail(AIRC_E_SHAPE, "%s: negative stride %" PRId64 " in dim %d", a->op,
                             st[i], (int)i);
        out->strides[i] = st[i];
    }
    int64_t span = 1; /* the last element's offset + 1 must fit */
    for (int32_t i = 0; i < ns && airc_tmeta_numel(out) > 0; i++) {
        int64_t t;
        if (__builtin_mul_overflow(out->shape[i] - 1, st[i], &t) ||
            __builtin_add_overflow(span, t, &span))
            return airc_meta_overflow(a);
    }
    return AIRC_OK;
}

/* Default dtype of a number: bool and int give i64 (torch.ops reads a bool
 * Scalar as an int), float the default dtype f32. */
static airc_dtype number_dtype(const airc_value *v)
{
    return v && v->kind == AIRC_VALUE_FLOAT ? AIRC_DTYPE_F32 : AIRC_DTYPE_I64;
}

static airc_status number(const airc_meta_args *a, const char *name, double def, double *d,
                          int64_t *i)
{
    const airc_value *v = airc_meta_get(a, name);
    AIRC_TRY(airc_meta_double(a, name, def, d));
    if (v && v->kind == AIRC_VALUE_INT)
        *i = v->u.i;
    else if (v && v->kind == AIRC_VALUE_BOOL)
        *i = v->u.b != 0;
    else
        *i = (*d >= 9.2e18 || *d <= -9.2e18 || isnan(*d)) ? 0 : (int64_t)*d;
    return AIRC_OK;
}

/* arange's and range's checks of their bounds, as their accumulate type
 * holds them; `bound` is the word range's message has for arange's
 * "larger" */
static airc_status range_checks(const airc_meta_args *a, double xs, double xe, double xst,
                                const char *bound)
{
    if (!(xst > 0 || xst < 0))
        return airc_fail(AIRC_E_SHAPE, "%s: step must be nonzero", a->op);
    if (!isfinite(xs) || !isfinite(xe))
        return airc_fail(AIRC_E_SHAPE, "%s: unsupported range: %g -> %g", a->op, xs, xe);
    if (!((xst > 0 && xe >= xs) || (xst < 0 && xe <= xs)))
        return airc_fail(AIRC_E_SHAPE, "%s: upper bound and %s bound inconsistent with step sign",
                         a->op, bound);
    return AIRC_OK;
}

static airc_status arange_size(const airc_meta_args *a, airc_dtype dtype, int64_t *out)
{
    double s, e, st;
    int64_t is, ie, ist;
    bool has_start = airc_meta_find(a, "start") >= 0;
    AIRC_TRY(number(a, "end", 0, &e, &ie));
    if (has_start)
        AIRC_TRY(number(a, "start", 0, &s, &is));
    else
        s = 0, is = 0;
    if (airc_meta_find(a, "step") >= 0)
        AIRC_TRY(number(a, "step", 1, &st, &ist));
    else
        st = 1, ist = 1;
    bool integral = airc_dtype_is_integral(dtype, true);
    /* integer outputs accumulate in int64: the bounds truncate */
    double xs = integral ? (double)is : s, xe = integral ? (double)ie : e,
           xst = integral ? (double)ist : st;
    AIRC_TRY(range_checks(a, xs, xe, xst, "larger"));
    int64_t span;
    if (dtype == AIRC_DTYPE_I64 && __builtin_sub_overflow(ie, is, &span))
        return airc_fail(AIRC_E_SHAPE, "%s: invalid size, possible overflow?", a->op);
    double size_d = dtype == AIRC_DTYPE_I64 ? ceil((double)span / (double)ist)
                                            : ceil((e - s) / st);
    if (!(size_d >= 0) || size_d > 9.2e18)
        return airc_fail(AIRC_E_SHAPE, "%s: invalid size, possible overflow?", a->op);
    *out = (int64_t)size_d;
    return AIRC_OK;
}

/* range(start, end, step=1): torch's deprecated range, end included:
 * (end - start) / step + 1 elements, counted in the dtype's accumulate
 * type (int64 of the truncated bounds for integers, float for bf16,
 * double for f32 and f64); no bool or f16 kernel. */
static airc_status range_size(const airc_meta_args *a, airc_dtype dtype, int64_t *out)
{
    if (dtype == AIRC_DTYPE_BOOL || dtype == AIRC_DTYPE_F16)
        return airc_fail(AIRC_E_SHAPE, "%s: \"range_cpu\" not implemented for '%s'", a->op,
                         airc_dtype_torch_type_name(dtype));
    double s, e, st;
    int64_t is, ie, ist;
    AIRC_TRY(number(a, "start", 0, &s, &is));
    AIRC_TRY(number(a, "end", 0, &e, &ie));
    AIRC_TRY(number(a, "step", 1, &st, &ist));
    bool integral = airc_dtype_is_integral(dtype, true);
    if (dtype == AIRC_DTYPE_BF16)
        s = (float)s, e = (float)e, st = (float)st;
    double xs = integral ? (double)is : s, xe = integral ? (double)ie : e,
           xst = integral ? (double)ist : st;
    AIRC_TRY(range_checks(a, xs, xe, xst, "lower"));
    if (integral) {
        int64_t span;
        if (__builtin_sub_overflow(ie, is, &span) || (span == INT64_MIN && ist == -1) ||
            span / ist == INT64_MAX)
            return airc_fail(AIRC_E_SHAPE, "%s: invalid size, possible overflow?", a->op);
        *out = span / ist + 1;
        return AIRC_OK;
    }
    double size_d = dtype == AIRC_DTYPE_BF16 ? (double)((float)((float)(e - s) / (float)st) + 1.0f)
                                             : (e - s) / st + 1;
    if (!(size_d >= 1) || size_d > 9.2e18)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: IntArrayRef contains an int that cannot be represented as a SymInt",
                         a->op);
    *out = (int64_t)size_d;
    return AIRC_OK;
}

/* The sum over rows r < row of clamp(r + k, 0, col), in closed form:
 * rows where r + k <= 0 give 0, those below col - k give r + k, the rest
 * col (row, col <= 2^31 and k clamped: every term fits int64). */
static int64_t clamped_rows(int64_t row, int64_t col, int64_t k)
{
    int64_t r0 = -k < 0 ? 0 : -k > row ? row : -k;                  /* the first row above 0 */
    int64_t r1 = col - k < r0 ? r0 : col - k > row ? row : col - k; /* the first at col */
    int64_t n = r1 - r0, ends = r0 + r1 - 1 + 2 * k;                /* its first + last term */
    int64_t ramp = n % 2 ? n * (ends / 2) : n / 2 * ends;
    return ramp + (row - r1) * col;
}

int64_t airc_tri_count(int64_t row, int64_t col, int64_t offset, bool upper)
{
    /* lower: columns c <= r + offset; upper: c >= r + offset */
    offset = airc_tri_offset(row, col, offset);
    return upper ? row * col - clamped_rows(row, col, offset) : clamped_rows(row, col, offset + 1);
}

airc_status airc_meta_create(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    const char *name = airc_meta_name(&a);
    airc_tmeta out;
    memset(&out, 0, sizeof out);
    airc_dtype dtype;
    bool has_dtype;
    AIRC_TRY(airc_meta_opt_dtype(&a, "dtype", &dtype, &has_dtype));

    if (!strncmp(name, "new_", 4)) {
        airc_tmeta self;
        AIRC_TRY(airc_meta_tensor(&a, "self", &self));
        out.dtype = has_dtype ? dtype : self.dtype;
        AIRC_TRY(creation_size(&a, &out));
    } else if (!strcmp(name, "arange")) {
        if (has_dtype) {
            out.dtype = dtype;
        } else {
            out.dtype = AIRC_DTYPE_I64;
            static const char *const bounds[] = {"start", "end", "step"};
            for (int i = 0; i < 3; i++)
                if (number_dtype(airc_meta_get(&a, bounds[i])) == AIRC_DTYPE_F32)
                    out.dtype = AIRC_DTYPE_F32;
        }
        out.ndim = 1;
        AIRC_TRY(arange_size(&a, out.dtype, &out.shape[0]));
    } else if (!strcmp(name, "range")) {
        out.dtype = has_dtype ? dtype : AIRC_DTYPE_F32;
        out.ndim = 1;
        AIRC_TRY(range_size(&a, out.dtype, &out.shape[0]));
        AIRC_TRY(airc_meta_check_numel(&a, out.shape, 1));
    } else if (!strcmp(name, "eye")) {
        /* eye(n) / eye.m(n, m) */
        out.dtype = has_dtype ? dtype : AIRC_DTYPE_F32;
        out.ndim = 2;
        AIRC_TRY(airc_meta_int(&a, "n", 0, &out.shape[0]));
        out.shape[1] = out.shape[0];
        if (airc_meta_find(&a, "m") >= 0)
            AIRC_TRY(airc_meta_int(&a, "m", 0, &out.shape[1]));
        for (int i = 0; i < 2; i++)
            if (out.shape[i] < 0)
                return airc_fail(AIRC_E_SHAPE, "%s: %s must be greater or equal to 0, got %" PRId64,
                                 a.op, i ? "m" : "n", out.shape[i]);
        AIRC_TRY(airc_meta_check_numel(&a, out.shape, 2));
    } else if (!strcmp(name, "tril_indices") || !strcmp(name, "triu_indices")) {
        /* [2, N]: the (row, col) pairs of the triangle, int64 or int32 */
        out.dtype = has_dtype ? dtype : AIRC_DTYPE_I64;
        if (out.dtype != AIRC_DTYPE_I64 && out.dtype != AIRC_DTYPE_I32)
            return airc_fail(AIRC_E_SHAPE, "%s: \"%s\" not implemented for '%s'", a.op, name,
                             airc_dtype_torch_type_name(out.dtype));
        int64_t row, col, offset;
        AIRC_TRY(airc_meta_int(&a, "row", 0, &row));
        AIRC_TRY(airc_meta_int(&a, "col", 0, &col));
        AIRC_TRY(airc_meta_int(&a, "offset", 0, &offset));
        if (row < 0 || col < 0)
            return airc_fail(AIRC_E_SHAPE, "%s: %s must be non-negative, got%" PRId64, a.op,
                             row < 0 ? "row" : "col", row < 0 ? row : col);
        if (row > (INT64_C(1) << 31) || col > (INT64_C(1) << 31))
            return airc_fail(AIRC_E_UNSUPPORTED, "%s: a triangle of %" PRId64 " x %" PRId64, a.op,
                             row, col);
        out.ndim = 2;
        out.shape[0] = 2;
        out.shape[1] = airc_tri_count(row, col, offset, name[3] == 'u');
        AIRC_TRY(airc_meta_check_numel(&a, out.shape, 2));
    } else if (!strcmp(name, "linspace") || !strcmp(name, "logspace")) {
        /* steps values from start to end (logspace: base to their power);
         * the bounds convert to the dtype, checked; no bool kernel */
        out.dtype = has_dtype ? dtype : AIRC_DTYPE_F32;
        out.ndim = 1;
        AIRC_TRY(airc_meta_int(&a, "steps", 0, &out.shape[0]));
        if (out.shape[0] < 0)
            return airc_fail(AIRC_E_SHAPE, "%s: number of steps must be non-negative", a.op);
        if (out.dtype == AIRC_DTYPE_BOOL)
            return airc_fail(AIRC_E_SHAPE, "%s: \"%s_cpu\" not implemented for 'Bool'", a.op, name);
        /* torch converts them in its kernel, which an empty result skips
         * (logspace checks them so, and computes in double for integers) */
        if (out.shape[0] > 0) {
            AIRC_TRY(airc_meta_check_scalar(&a, "start", out.dtype));
            AIRC_TRY(airc_meta_check_scalar(&a, "end", out.dtype));
        }
        if (out.shape[0] == 1 && !strcmp(name, "logspace")) {
            /* one step is fill_(base ** start), a checked conversion */
            double start, base;
            AIRC_TRY(airc_meta_double(&a, "start", 0, &start));
            AIRC_TRY(airc_meta_double(&a, "base", 10, &base));
            if (airc_meta_number_overflows(true, pow(base, start), 0, out.dtype))
                return airc_fail(AIRC_E_SHAPE,
                                 "%s: value cannot be converted to type %s without overflow",
                                 a.op, airc_meta_number_overflows(true, pow(base, start), 0,
                                                                  out.dtype));
        }
        AIRC_TRY(airc_meta_check_numel(&a, out.shape, 1));
    } else if (!strcmp(name, "scalar_tensor")) {
        out.dtype = has_dtype ? dtype : AIRC_DTYPE_F32;
        out.ndim = 0;
    } else {
        /* full, zeros, ones, empty */
        out.dtype = has_dtype ? dtype
                    : !strcmp(name, "full") ? number_dtype(airc_meta_get(&a, "fill_value"))
                                            : AIRC_DTYPE_F32;
        AIRC_TRY(creation_size(&a, &out));
    }
    /* full, new_full and scalar_tensor convert their value, checked */
    AIRC_TRY(airc_meta_check_scalar(&a, "fill_value", out.dtype));
    AIRC_TRY(airc_meta_check_scalar(&a, "s", out.dtype));
    airc_tmeta_contiguous(&out);
    if (airc_meta_find(&a, "memory_format") >= 0)
        AIRC_TRY(like_layout(&a, &out, AIRC_MEMORY_FORMAT_CONTIGUOUS, &out));
    if (airc_meta_find(&a, "stride") >= 0)
        AIRC_TRY(given_strides(&a, &out));
    return airc_meta_set(n, &out);
}

/* repeat(self, repeats): self with 1s prepended to len(repeats) dims, each
 * size times its repeat; contiguous. At most AIRC_MAX_DIMS / 2 dims (the
 * kernel views each dim as repeats x size). */
airc_status airc_meta_repeat(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    int64_t rep[AIRC_MAX_DIMS];
    int32_t nr;
    bool present;
    AIRC_TRY(airc_meta_int_list(&a, "repeats", rep, AIRC_MAX_DIMS, &nr, &present));
    if (nr < x.ndim)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: Number of dimensions of repeat dims can not be smaller than number "
                         "of dimensions of tensor",
                         a.op);
    if (nr > AIRC_MAX_DIMS / 2)
        return airc_fail(AIRC_E_UNSUPPORTED, "%s: repeat over %d dims (at most %d)", a.op, (int)nr,
                         AIRC_MAX_DIMS / 2);
    airc_tmeta out = x;
    out.ndim = nr;
    for (int32_t i = 0; i < nr; i++) {
        int64_t size = i < nr - x.ndim ? 1 : x.shape[i - (nr - x.ndim)];
        if (__builtin_mul_overflow(size, rep[i], &out.shape[i]))
            return airc_meta_overflow(&a);
    }
    AIRC_TRY(airc_meta_check_numel(&a, out.shape, out.ndim));
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

/* flip(self, dims): self's shape and dtype in a fresh tensor laid out as
 * empty_like(preserve); dims wrapped, none named twice. */
airc_status airc_meta_flip(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta x;
    AIRC_TRY(airc_meta_tensor(&a, "self", &x));
    int64_t dims[4 * AIRC_MAX_DIMS]; /* more would name a dim twice */
    int32_t nd;
    bool present, mask[AIRC_MAX_DIMS];
    AIRC_TRY(airc_meta_int_list(&a, "dims", dims, 4 * AIRC_MAX_DIMS, &nd, &present));
    AIRC_TRY(airc_meta_dim_mask(&a, dims, nd, x.ndim, mask));
    airc_tmeta out = x;
    AIRC_TRY(like_layout(&a, &x, AIRC_MEMORY_FORMAT_PRESERVE, &out));
    return airc_meta_set(n, &out);
}
