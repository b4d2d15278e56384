/* Built-in CPU kernels, shape family: views (no copy: the output's shape
 * and strides come from the node's meta, the kernel only points it at the
 * input's memory plus the view's storage offset), and the table of the
 * whole family (copies, joins, indexing, creation and the diagonal family
 * live in k_shape_copy.c, k_shape_index.c, k_shape_create.c and
 * k_shape_diag.c). */
#include "backends/cpu/k_shape_impl.h"

static airc_status need_input(airc_kernel_ctx *k, size_t i)
{
    if (i < k->nargs && k->in && k->in[i])
        return AIRC_OK;
    return airc_cpu_fail(k, AIRC_E_INVALID_ARGUMENT, "argument %zu must be a tensor", i);
}

/* out[0] at the input's data + offset elements. An empty view reads
 * nothing: it stays at the input's data (meta lets its offset be anything,
 * as_strided's 2^63 - 1 included, as torch does). */
static airc_status view_at(airc_kernel_ctx *k, size_t out, int64_t offset)
{
    const airc_tview *x = k->in[0];
    /* an empty tensor may have no memory at all */
    k->out[out].data = x->data && airc_cpu_numel(&k->out[out]) > 0
                           ? (char *)x->data + offset * (int64_t)airc_dtype_size(x->dtype)
                           : x->data;
    return AIRC_OK;
}

/* view (.dtype too: the meta's dtype, same bytes), _reshape_alias, alias,
 * detach, lift, lift_fresh, permute, transpose, t,
 * expand, squeeze, unsqueeze, and the in-place squeeze_, unsqueeze_, t_,
 * transpose_: the view starts where the input does. */
static airc_status k_alias(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(need_input(k, 0));
    return view_at(k, 0, 0);
}

/* as_strided(self, size, stride, storage_offset): the offset counts from
 * the start of self's storage. A view here does not know where its
 * storage starts, so the offset is taken from self's own first element:
 * exact for graph inputs and fresh results (offset 0), which is what
 * make_fx graphs pass to it. */
static airc_status k_as_strided(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(need_input(k, 0));
    return view_at(k, 0, airc_cpu_arg_int(k, 3, 0));
}

/* slice.Tensor(self, dim=0, start=None, end=None, step=1) */
static airc_status k_slice(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(need_input(k, 0));
    const airc_tview *x = k->in[0];
    int32_t d = airc_cpu_wrap_dim(airc_cpu_arg_int(k, 1, 0), x->ndim);
    if (d < 0 || d >= x->ndim)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "dim %d out of range for a %d-d tensor", (int)d,
                             (int)x->ndim);
    int64_t size = x->shape[d], s = airc_cpu_arg_int(k, 2, 0);
    /* torch's clamping of start into [0, size] */
    if (s < 0)
        s += size;
    if (s < 0)
        s = 0;
    else if (s > size)
        s = size;
    return view_at(k, 0, s * x->strides[d]);
}

/* select.int(self, dim, index) */
static airc_status k_select(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(need_input(k, 0));
    const airc_tview *x = k->in[0];
    int32_t d = airc_cpu_wrap_dim(airc_cpu_arg_int(k, 1, 0), x->ndim);
    if (d < 0 || d >= x->ndim)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "dim %d out of range for a %d-d tensor", (int)d,
                             (int)x->ndim);
    int64_t size = x->shape[d], i = airc_cpu_arg_int(k, 2, 0);
    if (i < -size || i >= size)
        return airc_cpu_fail(k, AIRC_E_RUNTIME,
                             "select(): index %lld out of range for tensor of size %lld at "
                             "dimension %d",
                             (long long)i, (long long)size, (int)d);
    if (i < 0)
        i += size;
    return view_at(k, 0, i * x->strides[d]);
}

/* unfold(self, dimension, size, step): the windows start where self does */
static airc_status k_unfold(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(need_input(k, 0));
    return view_at(k, 0, 0);
}

/* diagonal(self, offset=0, dim1=0, dim2=1) */
static airc_status k_diagonal(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    AIRC_TRY(need_input(k, 0));
    const airc_tview *x = k->in[0];
    int32_t d1 = airc_cpu_wrap_dim(airc_cpu_arg_int(k, 2, 0), x->ndim),
            d2 = airc_cpu_wrap_dim(airc_cpu_arg_int(k, 3, 1), x->ndim);
    const airc_tview *o = &k->out[0];
    if (d1 < 0 || d1 >= x->ndim || d2 < 0 || d2 >= x->ndim || d1 == d2 || o->ndim < 1)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "bad diagonal dims for a %d-d tensor",
                             (int)x->ndim);
    int64_t len = o->shape[o->ndim - 1];
    return view_at(k, 0, airc_cpu_diagonal_offset(x, airc_cpu_arg_int(k, 1, 0), d1, d2, len));
}

/* split.Tensor / split_with_sizes / unbind.int (and unsafe_split): output i starts after the
 * sizes (along dim) of the outputs before it, which meta fixed. */
static airc_status split_views(airc_kernel_ctx *k, size_t dim_arg, bool unbind)
{
    AIRC_TRY(need_input(k, 0));
    const airc_tview *x = k->in[0];
    int32_t d = airc_cpu_wrap_dim(airc_cpu_arg_int(k, dim_arg, 0), x->ndim);
    if (d < 0 || d >= x->ndim)
        return airc_cpu_fail(k, AIRC_E_RUNTIME, "dim %d out of range for a %d-d tensor", (int)d,
                             (int)x->ndim);
    int64_t start = 0;
    for (uint32_t i = 0; i < k->nout; i++) {
        view_at(k, i, start * x->strides[d]);
        start += unbind ? 1 : k->out[i].shape[d];
    }
    return AIRC_OK;
}

static airc_status k_split(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return split_views(k, 2, false);
}

static airc_status k_unbind(airc_kernel_ctx *k, void *ud)
{
    (void)ud;
    return split_views(k, 1, true);
}

airc_tview *airc_cpu_inplace_target(airc_kernel_ctx *k)
{
    if (!k->out[0].data && k->in && k->in[0])
        k->out[0] = *k->in[0];
    return &k->out[0];
}

/* Sorted by qualname (strcmp order); a test checks. */
const airc_cpu_kernel_entry airc_cpu_kernels_shape[] = {
    {"aten._conj_physical.default", airc_cpu_k_clone},
    {"aten._efficientzerotensor.default", airc_cpu_k_zeros},
    {"aten._embedding_bag.default", airc_cpu_k_embedding_bag},
    {"aten._embedding_bag_forward_only.default", airc_cpu_k_embedding_bag},
    {"aten._reshape_alias.default", k_alias},
    {"aten._stack.default", airc_cpu_k_stack},
    {"aten._unsafe_view.default", airc_cpu_k_reshape_copy},
    {"aten.alias.default", k_alias},
    {"aten.arange.default", airc_cpu_k_arange},
    {"aten.arange.start", airc_cpu_k_arange_start},
    {"aten.arange.start_step", airc_cpu_k_arange_start_step},
    {"aten.as_strided.default", k_as_strided},
    {"aten.as_strided_scatter.default", airc_cpu_k_as_strided_scatter},
    {"aten.bartlett_window.default", airc_cpu_k_window},
    {"aten.bartlett_window.periodic", airc_cpu_k_window},
    {"aten.blackman_window.default", airc_cpu_k_window},
    {"aten.blackman_window.periodic", airc_cpu_k_window},
    {"aten.block_diag.default", airc_cpu_k_block_diag},
    {"aten.bucketize.Scalar", airc_cpu_k_bucketize},
    {"aten.bucketize.Tensor", airc_cpu_k_bucketize},
    {"aten.cat.default", airc_cpu_k_cat},
    {"aten.channel_shuffle.default", airc_cpu_k_channel_shuffle},
    {"aten.clone.default", airc_cpu_k_clone},
    {"aten.constant_pad_nd.default", airc_cpu_k_constant_pad_nd},
    {"aten.contiguous.default", airc_cpu_k_clone},
    {"aten.copy.default", airc_cpu_k_copy},
    {"aten.copy_.default", airc_cpu_k_copy_},
    {"aten.detach.default", k_alias},
    {"aten.diag.default", airc_cpu_k_diag},
    {"aten.diag_embed.default", airc_cpu_k_diag_embed},
    {"aten.diagonal.default", k_diagonal},
    {"aten.diagonal_scatter.default", airc_cpu_k_diagonal_scatter},
    {"aten.embedding.default", airc_cpu_k_embedding},
    {"aten.embedding_renorm.default", airc_cpu_k_embedding_renorm},
    {"aten.embedding_renorm_.default", airc_cpu_k_embedding_renorm},
    {"aten.empty.memory_format", airc_cpu_k_zeros},
    {"aten.empty_like.default", airc_cpu_k_zeros},
    {"aten.empty_strided.default", airc_cpu_k_zeros},
    {"aten.expand.default", k_alias},
    {"aten.eye.default", airc_cpu_k_eye},
    {"aten.eye.m", airc_cpu_k_eye},
    {"aten.fft_fftfreq.default", airc_cpu_k_window},
    {"aten.fft_rfftfreq.default", airc_cpu_k_window},
    {"aten.fill.Scalar", airc_cpu_k_fill_arg1},
    {"aten.fill.Tensor", airc_cpu_k_fill_tensor},
    {"aten.fill_.Scalar", airc_cpu_k_fill_},
    {"aten.flip.default", airc_cpu_k_flip},
    {"aten.full.default", airc_cpu_k_fill_arg1},
    {"aten.full_like.default", airc_cpu_k_fill_arg1},
    {"aten.gather.default", airc_cpu_k_gather},
    {"aten.hamming_window.default", airc_cpu_k_window},
    {"aten.hamming_window.periodic", airc_cpu_k_window},
    {"aten.hamming_window.periodic_alpha", airc_cpu_k_window},
    {"aten.hamming_window.periodic_alpha_beta", airc_cpu_k_window},
    {"aten.hann_window.default", airc_cpu_k_window},
    {"aten.hann_window.periodic", airc_cpu_k_window},
    {"aten.index.Tensor", airc_cpu_k_index},
    {"aten.index_add.default", airc_cpu_k_index_add},
    {"aten.index_add_.default", airc_cpu_k_index_add},
    {"aten.index_copy.default", airc_cpu_k_index_copy},
    {"aten.index_copy_.default", airc_cpu_k_index_copy},
    {"aten.index_fill.int_Scalar", airc_cpu_k_index_fill},
    {"aten.index_fill.int_Tensor", airc_cpu_k_index_fill},
    {"aten.index_fill_.int_Scalar", airc_cpu_k_index_fill},
    {"aten.index_fill_.int_Tensor", airc_cpu_k_index_fill},
    {"aten.index_put.default", airc_cpu_k_index_put},
    {"aten.index_put_.default", airc_cpu_k_index_put},
    {"aten.index_reduce.default", airc_cpu_k_index_reduce},
    {"aten.index_select.default", airc_cpu_k_index_select},
    {"aten.isin.Scalar_Tensor", airc_cpu_k_isin},
    {"aten.isin.Tensor_Scalar", airc_cpu_k_isin},
    {"aten.isin.Tensor_Tensor", airc_cpu_k_isin},
    {"aten.kaiser_window.beta", airc_cpu_k_window},
    {"aten.kaiser_window.default", airc_cpu_k_window},
    {"aten.kaiser_window.periodic", airc_cpu_k_window},
    {"aten.lift.default", k_alias},
    {"aten.lift_fresh.default", k_alias},
    {"aten.lift_fresh_copy.default", airc_cpu_k_clone},
    {"aten.linspace.default", airc_cpu_k_linspace},
    {"aten.logspace.default", airc_cpu_k_logspace},
    {"aten.masked_scatter.default", airc_cpu_k_masked_scatter},
    {"aten.narrow_copy.default", airc_cpu_k_narrow_copy},
    {"aten.native_dropout.default", airc_cpu_k_native_dropout},
    {"aten.new_empty.default", airc_cpu_k_zeros},
    {"aten.new_empty_strided.default", airc_cpu_k_zeros},
    {"aten.new_full.default", airc_cpu_k_new_full},
    {"aten.new_ones.default", airc_cpu_k_ones},
    {"aten.new_zeros.default", airc_cpu_k_zeros},
    {"aten.ones.default", airc_cpu_k_ones},
    {"aten.ones_like.default", airc_cpu_k_ones},
    {"aten.permute.default", k_alias},
    {"aten.pixel_shuffle.default", airc_cpu_k_pixel_shuffle},
    {"aten.pixel_unshuffle.default", airc_cpu_k_pixel_unshuffle},
    {"aten.put.default", airc_cpu_k_put},
    {"aten.range.default", airc_cpu_k_range},
    {"aten.range.step", airc_cpu_k_range},
    {"aten.reflection_pad1d.default", airc_cpu_k_reflection_pad},
    {"aten.reflection_pad2d.default", airc_cpu_k_reflection_pad},
    {"aten.reflection_pad3d.default", airc_cpu_k_reflection_pad},
    {"aten.repeat.default", airc_cpu_k_repeat},
    {"aten.replication_pad1d.default", airc_cpu_k_replication_pad},
    {"aten.replication_pad2d.default", airc_cpu_k_replication_pad},
    {"aten.replication_pad3d.default", airc_cpu_k_replication_pad},
    {"aten.reshape.default", airc_cpu_k_reshape_copy},
    {"aten.roll.default", airc_cpu_k_roll},
    {"aten.rot90.default", airc_cpu_k_rot90},
    {"aten.scalar_tensor.default", airc_cpu_k_scalar_tensor},
    {"aten.scatter.reduce", airc_cpu_k_scatter_add_multiply},
    {"aten.scatter.src", airc_cpu_k_scatter},
    {"aten.scatter.value", airc_cpu_k_scatter},
    {"aten.scatter.value_reduce", airc_cpu_k_scatter_add_multiply},
    {"aten.scatter_.src", airc_cpu_k_scatter},
    {"aten.scatter_.value", airc_cpu_k_scatter},
    {"aten.scatter_add.default", airc_cpu_k_scatter_add},
    {"aten.scatter_add_.default", airc_cpu_k_scatter_add},
    {"aten.scatter_reduce.two", airc_cpu_k_scatter_reduce},
    {"aten.scatter_reduce_.two", airc_cpu_k_scatter_reduce},
    {"aten.searchsorted.Scalar", airc_cpu_k_searchsorted},
    {"aten.searchsorted.Tensor", airc_cpu_k_searchsorted},
    {"aten.select.int", k_select},
    {"aten.select_scatter.default", airc_cpu_k_select_scatter},
    {"aten.slice.Tensor", k_slice},
    {"aten.slice_scatter.default", airc_cpu_k_slice_scatter},
    {"aten.split.Tensor", k_split},
    {"aten.split_with_sizes.default", k_split},
    {"aten.squeeze.default", k_alias},
    {"aten.squeeze.dim", k_alias},
    {"aten.squeeze_.default", k_alias},
    {"aten.squeeze_.dim", k_alias},
    {"aten.stack.default", airc_cpu_k_stack},
    {"aten.t.default", k_alias},
    {"aten.t_.default", k_alias},
    {"aten.take.default", airc_cpu_k_take},
    {"aten.trace.default", airc_cpu_k_trace},
    {"aten.transpose.int", k_alias},
    {"aten.transpose_.default", k_alias},
    {"aten.tril.default", airc_cpu_k_tril},
    {"aten.tril_.default", airc_cpu_k_tril_},
    {"aten.tril_indices.default", airc_cpu_k_tri_indices},
    {"aten.triu.default", airc_cpu_k_triu},
    {"aten.triu_.default", airc_cpu_k_triu_},
    {"aten.triu_indices.default", airc_cpu_k_tri_indices},
    {"aten.unbind.int", k_unbind},
    {"aten.unfold.default", k_unfold},
    {"aten.unsafe_split.Tensor", k_split},
    {"aten.unsafe_split_with_sizes.default", k_split},
    {"aten.unsqueeze.default", k_alias},
    {"aten.unsqueeze_.default", k_alias},
    {"aten.view.default", k_alias},
    {"aten.view.dtype", k_alias},
    {"aten.zero.default", airc_cpu_k_zeros},
    {"aten.zero_.default", airc_cpu_k_zero_},
    {"aten.zeros.default", airc_cpu_k_zeros},
    {"aten.zeros_like.default", airc_cpu_k_zeros},
};
const size_t airc_cpu_num_kernels_shape =
    sizeof airc_cpu_kernels_shape / sizeof airc_cpu_kernels_shape[0];
