/* Meta functions of reductions (sum, nansum, mean, prod, amax/amin,
 * aminmax, argmax/argmin, any/all, count_nonzero, max/min, var, var_mean,
 * std, logsumexp, norm, linalg_vector_norm), cumsum and
 * cumprod.
 * Reduction results are contiguous, as torch's resize_reduction makes
 * them. */
#include "ops/meta_util.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The dims a reduction removes: `mask[d]` for each reduced d. An absent,
 * None or empty dim list reduces every dim. *all is set when it does. */
static airc_status reduced_dims(const airc_meta_args *a, const airc_tmeta *self, bool *mask,
                                bool *all)
{
    memset(mask, 0, AIRC_MAX_DIMS * sizeof *mask);
    int64_t dims[4 * AIRC_MAX_DIMS]; /* more would repeat a dim */
    int32_t nd = 0;
    bool present = false;
    if (airc_meta_find(a, "dim") >= 0)
        AIRC_TRY(airc_meta_int_list(a, "dim", dims, 4 * AIRC_MAX_DIMS, &nd, &present));
    *all = nd == 0;
    if (*all) {
        for (int32_t d = 0; d < self->ndim; d++)
            mask[d] = true;
        return AIRC_OK;
    }
    return airc_meta_dim_mask(a, dims, nd, self->ndim, mask);
}

static void reduced_shape(const airc_tmeta *self, const bool *mask, bool keepdim, airc_dtype dtype,
                          airc_tmeta *out)
{
    memset(out, 0, sizeof *out);
    out->dtype = dtype;
    for (int32_t d = 0; d < self->ndim; d++) {
        if (!mask[d])
            out->shape[out->ndim++] = self->shape[d];
        else if (keepdim)
            out->shape[out->ndim++] = 1;
    }
    airc_tmeta_contiguous(out);
}

/* max/min/amax/amin/argmax/argmin have no identity: refuse empty slices
 * with torch's messages. */
static airc_status check_nonempty(const airc_meta_args *a, const char *fname,
                                  const airc_tmeta *self, const bool *mask, bool all)
{
    if (all) {
        if (airc_tmeta_numel(self) == 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: %s(): Expected reduction dim to be specified for input.numel() "
                             "== 0. Specify the reduction dim with the 'dim' argument.",
                             a->op, fname);
        return AIRC_OK;
    }
    for (int32_t d = 0; d < self->ndim; d++)
        if (mask[d] && self->shape[d] == 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: %s(): Expected reduction dim %d to have non-zero size.", a->op,
                             fname, (int)d);
    return AIRC_OK;
}

/* aminmax: no identity (torch's two messages: every dim, or a dim of size
 * 0); torch 1.13's CPU build has no f16 kernel, and a bf16 one only for
 * the reduction of every dim. */
static airc_status aminmax_checks(const airc_meta_args *a, const airc_tmeta *self, const bool *mask,
                                  bool all)
{
    if (all && airc_tmeta_numel(self) == 0)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: aminmax(): cannot compute aminmax over an empty dimension as the "
                         "operation has no identity.",
                         a->op);
    if (self->dtype == AIRC_DTYPE_F16 || (self->dtype == AIRC_DTYPE_BF16 && !all))
        return airc_fail(AIRC_E_SHAPE, "%s: \"aminmax_cpu\" not implemented for '%s'", a->op,
                         airc_dtype_torch_type_name(self->dtype));
    for (int32_t d = 0; !all && d < self->ndim; d++)
        if (mask[d] && self->shape[d] == 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: aminmax: Expected reduction dim %d to have non-zero size.",
                             a->op, (int)d);
    return AIRC_OK;
}

/* sum/prod/cumsum's dtype: the dtype argument, else integers widen to i64. */
static airc_status accumulate_dtype(const airc_meta_args *a, airc_dtype self, airc_dtype *out)
{
    bool present;
    AIRC_TRY(airc_meta_opt_dtype(a, "dtype", out, &present));
    if (!present)
        *out = airc_dtype_is_integral(self, true) ? AIRC_DTYPE_I64 : self;
    return AIRC_OK;
}

/* torch's order for an inf or negative order over an empty self: each dim
 * of the list wrapped and checked before the reduction's duplicate check. */
static airc_status vector_norm_empty_dims(const airc_meta_args *a, const airc_tmeta *self)
{
    const airc_value *v = airc_meta_get(a, "ord");
    double ord = 2;
    AIRC_TRY(airc_meta_double(a, "ord", 2, &ord));
    if (airc_tmeta_numel(self) || !(ord < 0 || (isinf(ord) && ord > 0)))
        return AIRC_OK;
    char ord_s[32]; /* a Scalar as torch prints it */
    if (v && v->kind == AIRC_VALUE_INT)
        snprintf(ord_s, sizeof ord_s, "%" PRId64, v->u.i);
    else
        snprintf(ord_s, sizeof ord_s, "%g", ord);
    int64_t dims[4 * AIRC_MAX_DIMS];
    int32_t nd = 0;
    bool present;
    AIRC_TRY(airc_meta_int_list(a, "dim", dims, 4 * AIRC_MAX_DIMS, &nd, &present));
    if (!nd)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: linalg.vector_norm cannot compute the %s norm on an empty tensor "
                         "because the operation does not have an identity",
                         a->op, ord_s);
    for (int32_t i = 0; i < nd; i++) {
        int32_t d;
        AIRC_TRY(airc_meta_wrap_dim(a, dims[i], self->ndim, true, &d));
        if (self->ndim && self->shape[d] == 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: linalg.vector_norm cannot compute the %s norm on the dimension "
                             "%" PRId64 "because this dimension is empty and the operation does "
                             "not have an identity",
                             a->op, ord_s, dims[i]);
    }
    return AIRC_OK;
}

/* linalg_vector_norm: a floating self, a floating dtype= that self converts
 * to without narrowing (the result's dtype), then the empty-dim checks. */
static airc_status vector_norm_checks(const airc_meta_args *a, const airc_tmeta *self,
                                      airc_dtype *dtype)
{
    if (!airc_dtype_is_floating(self->dtype))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: linalg.vector_norm: Expected a floating point or complex tensor as "
                         "input. Got %s",
                         a->op, airc_dtype_torch_type_name(self->dtype));
    bool present;
    AIRC_TRY(airc_meta_opt_dtype(a, "dtype", dtype, &present));
    if (!present)
        *dtype = self->dtype;
    else if (!airc_dtype_is_floating(*dtype))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: linalg.vector_norm: dtype should be floating point or complex, but "
                         "got %s",
                         a->op, airc_dtype_torch_type_name(*dtype));
    else if (airc_promote_types(self->dtype, *dtype) != *dtype)
        return airc_fail(AIRC_E_SHAPE,
                         "%s: linalg.vector_norm: the dtype of the input (%s) should be "
                         "convertible without narrowing to the specified dtype (%s)",
                         a->op, airc_dtype_torch_type_name(self->dtype),
                         airc_dtype_torch_type_name(*dtype));
    return vector_norm_empty_dims(a, self);
}

airc_status airc_meta_reduce(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    const char *name = airc_meta_name(&a);
    airc_dtype dtype = self.dtype;
    if (!strcmp(name, "linalg_vector_norm"))
        AIRC_TRY(vector_norm_checks(&a, &self, &dtype));
    /* norm's dtype= overloads are the norm of self.to(dtype): any self */
    bool norm_dtype = !strcmp(name, "norm") && airc_meta_find(&a, "dtype") >= 0;
    if (norm_dtype) {
        bool present;
        AIRC_TRY(airc_meta_opt_dtype(&a, "dtype", &dtype, &present));
        if (!airc_dtype_is_floating(dtype))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: norm(): the desired output dtype should be either floating "
                             "point or complex. Got %s instead.",
                             a.op, airc_dtype_torch_type_name(dtype));
    }
    bool keepdim;
    AIRC_TRY(airc_meta_bool(&a, "keepdim", false, &keepdim));
    bool mask[AIRC_MAX_DIMS], all;
    AIRC_TRY(reduced_dims(&a, &self, mask, &all));

    if (!strcmp(name, "sum") || !strcmp(name, "prod") || !strcmp(name, "nansum")) {
        AIRC_TRY(accumulate_dtype(&a, self.dtype, &dtype));
    } else if (!strcmp(name, "count_nonzero")) {
        dtype = AIRC_DTYPE_I64;
    } else if (!strcmp(name, "aminmax") || !strcmp(name, "_aminmax")) {
        AIRC_TRY(aminmax_checks(&a, &self, mask, all));
    } else if (!strcmp(name, "mean")) {
        bool present;
        AIRC_TRY(airc_meta_opt_dtype(&a, "dtype", &dtype, &present));
        if (!airc_dtype_is_floating(dtype))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: mean(): could not infer output dtype. %s dtype must be either a "
                             "floating point or complex dtype. Got: %s",
                             a.op, present ? "Optional" : "Input",
                             airc_dtype_torch_type_name(dtype));
    } else if (!strcmp(name, "argmax") || !strcmp(name, "argmin")) {
        AIRC_TRY(check_nonempty(&a, name, &self, mask, all));
        dtype = AIRC_DTYPE_I64;
    } else if (!strcmp(name, "amax") || !strcmp(name, "amin") || !strcmp(name, "max") ||
               !strcmp(name, "min")) {
        AIRC_TRY(check_nonempty(&a, name, &self, mask, all));
    } else if (!strcmp(name, "any") || !strcmp(name, "all")) {
        dtype = self.dtype == AIRC_DTYPE_U8 ? AIRC_DTYPE_U8 : AIRC_DTYPE_BOOL;
    } else if (!strcmp(name, "logsumexp")) {
        int64_t dims[4 * AIRC_MAX_DIMS];
        int32_t nd = 0;
        bool present;
        AIRC_TRY(airc_meta_int_list(&a, "dim", dims, 4 * AIRC_MAX_DIMS, &nd, &present));
        /* a 0-d result of elements, which torch's kernel refuses */
        if (!nd && self.ndim && !keepdim && airc_tmeta_numel(&self) > 0)
            return airc_fail(AIRC_E_SHAPE,
                             "%s: output with shape [] doesn't match the broadcast shape [1]",
                             a.op);
        if (!airc_dtype_is_floating(dtype))
            dtype = AIRC_DTYPE_F32; /* integers in the default float dtype */
    } else if (!strcmp(name, "norm") && !norm_dtype) {
        if (!airc_dtype_is_floating(dtype))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: norm(): input dtype should be either floating point or complex. "
                             "Got %s instead.",
                             a.op, airc_dtype_torch_type_name(dtype));
    } else if (!strcmp(name, "var") || !strcmp(name, "var_mean") || !strcmp(name, "std") ||
               !strcmp(name, "std_mean")) {
        if (!airc_dtype_is_floating(self.dtype))
            return airc_fail(AIRC_E_SHAPE,
                             "%s: std and var only support floating point and complex dtypes "
                             "(got %s)",
                             a.op, airc_dtype_torch_type_name(self.dtype));
    }
    airc_tmeta out;
    reduced_shape(&self, mask, keepdim, dtype, &out);
    bool same_dtype = !strcmp(name, "var_mean") || !strcmp(name, "std_mean") ||
                      !strcmp(name, "aminmax") || !strcmp(name, "_aminmax");
    bool pair = same_dtype || ((!strcmp(name, "max") || !strcmp(name, "min")) &&
                               !strcmp(airc_meta_overload(&a), "dim"));
    if (!pair)
        return airc_meta_set(n, &out);
    /* torch 1.13's aminmax over a dim of a 0-dim self, keepdim: [1] */
    bool dim_given = airc_meta_find(&a, "dim") >= 0 && airc_meta_get(&a, "dim") &&
                     airc_meta_get(&a, "dim")->kind != AIRC_VALUE_NONE;
    if ((!strcmp(name, "aminmax") || !strcmp(name, "_aminmax")) && !self.ndim && keepdim &&
        dim_given) {
        out.ndim = 1;
        out.shape[0] = out.strides[0] = 1;
    }
    airc_tmeta outs[2] = {out, out};
    if (!same_dtype)
        outs[1].dtype = AIRC_DTYPE_I64; /* max.dim/min.dim: (values, indices) */
    return airc_meta_set_tuple(n, outs, 2);
}

airc_status airc_meta_cumsum(airc_node *n, void *user_data)
{
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    int64_t dim;
    int32_t d;
    AIRC_TRY(airc_meta_int(&a, "dim", 0, &dim));
    AIRC_TRY(airc_meta_wrap_dim(&a, dim, self.ndim, true, &d));
    airc_tmeta out = self;
    AIRC_TRY(accumulate_dtype(&a, self.dtype, &out.dtype));
    if (out.dtype == AIRC_DTYPE_BOOL) /* torch has no bool running sum or product */
        return airc_fail(AIRC_E_SHAPE, "%s: \"%s_out_cpu\" not implemented for 'Bool'", a.op,
                         airc_meta_name(&a));
    airc_tmeta_contiguous(&out);
    return airc_meta_set(n, &out);
}

/* cummax / cummin (values, int64 indices) and logcumsumexp: contiguous
 * results of self's shape and dtype. torch 1.13's CPU build has no f16
 * kernel for them; logcumsumexp takes floating dtypes only. */
airc_status airc_meta_scan(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    int64_t dim;
    int32_t d;
    AIRC_TRY(airc_meta_int(&a, "dim", 0, &dim));
    const char *name = airc_meta_name(&a);
    bool log = !strcmp(name, "logcumsumexp");
    /* torch's cummax / cummin take any dim for a 0-d or empty self */
    if (log || (self.ndim && airc_tmeta_numel(&self)))
        AIRC_TRY(airc_meta_wrap_dim(&a, dim, self.ndim, true, &d));
    /* (a 0-d cummax / cummin is a fill, with no kernel to miss) */
    if ((self.dtype == AIRC_DTYPE_F16 && (self.ndim || log)) ||
        (log && !airc_dtype_is_floating(self.dtype)))
        return airc_fail(AIRC_E_SHAPE, "%s: \"%s_cpu\" not implemented for '%s'", a.op,
                         log ? "logcumsumexp_out" : name, airc_dtype_torch_type_name(self.dtype));
    airc_tmeta outs[2] = {self, self};
    airc_tmeta_contiguous(&outs[0]);
    if (log)
        return airc_meta_set(n, &outs[0]);
    outs[1] = outs[0];
    outs[1].dtype = AIRC_DTYPE_I64;
    return airc_meta_set_tuple(n, outs, 2);
}
