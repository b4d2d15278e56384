/* Meta functions of sort and topk: (values, indices), values in self's
 * dtype, indices int64. sort keeps self's layout (its results are
 * empty_like(self)); topk's are contiguous. */
#include "ops/meta_util.h"

#include <inttypes.h>
#include <string.h>

/* sort(self, dim=-1, descending=False) and sort.stable(self, *, stable,
 * dim=-1, descending=False), whose stable torch requires to be set. */
airc_status airc_meta_sort(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    int64_t dim;
    int32_t d;
    AIRC_TRY(airc_meta_int(&a, "dim", -1, &dim));
    AIRC_TRY(airc_meta_wrap_dim(&a, dim, self.ndim, true, &d));
    if (!strcmp(airc_meta_overload(&a), "stable") && !airc_meta_get(&a, "stable"))
        return airc_fail(AIRC_E_SHAPE,
                         "%s: sort(): c10::optional<bool> for stable has to have value.", a.op);
    airc_tmeta outs[2] = {self, self};
    airc_meta_like_strides(&self, AIRC_MEMORY_FORMAT_PRESERVE, true, outs[0].strides);
    memcpy(outs[1].strides, outs[0].strides, sizeof outs[0].strides);
    outs[1].dtype = AIRC_DTYPE_I64;
    return airc_meta_set_tuple(n, outs, 2);
}

/* topk(self, k, dim=-1, largest=True, sorted=True): k in [0, size(dim)]
 * (a 0-dim tensor's size counts as 1). torch 1.13's CPU kernel has no
 * half and no bool topk. */
airc_status airc_meta_topk(airc_node *n, void *user_data)
{
    (void)user_data;
    airc_meta_args a;
    AIRC_TRY(airc_meta_bind(n, &a));
    airc_tmeta self;
    AIRC_TRY(airc_meta_tensor(&a, "self", &self));
    int64_t k, dim;
    int32_t d;
    AIRC_TRY(airc_meta_int(&a, "k", 0, &k));
    AIRC_TRY(airc_meta_int(&a, "dim", -1, &dim));
    AIRC_TRY(airc_meta_wrap_dim(&a, dim, self.ndim, true, &d));
    int64_t size = self.ndim ? self.shape[d] : 1;
    if (k < 0 || k > size)
        return airc_fail(AIRC_E_SHAPE, "%s: selected index k out of range (k = %" PRId64
                         ", size %" PRId64 ")", a.op, k, size);
    if (self.dtype == AIRC_DTYPE_F16 || self.dtype == AIRC_DTYPE_BOOL)
        return airc_fail(AIRC_E_SHAPE, "%s: \"topk_cpu\" not implemented for '%s'", a.op,
                         airc_dtype_torch_type_name(self.dtype));
    airc_tmeta outs[2] = {self, self};
    if (self.ndim)
        outs[0].shape[d] = k;
    airc_tmeta_contiguous(&outs[0]);
    outs[1] = outs[0];
    outs[1].dtype = AIRC_DTYPE_I64;
    return airc_meta_set_tuple(n, outs, 2);
}
