/* Fuzz target: API sequences. The bytes drive a small program:
 *   byte 0     picks a seed graph (FX text below);
 *   bytes 1..4 the shape of the f32 inputs given to untyped placeholders;
 *   then       a sequence of edits, each chosen and parametrized by the
 *              next bytes: create call_function nodes of known ops with
 *              arguments drawn from the graph's nodes and literals, erase,
 *              replace_all_uses_with, move, set_target, update args and
 *              kwargs, set meta, DCE, clone... Every edit may fail; none may
 *              crash, leak or corrupt the graph.
 * Then lint; a graph that lints is printed, re-parsed, and compiled in each
 * mode (eager, reduce-overhead, max-autotune) and run once (twice for
 * reduce-overhead, to replay); every graph mode's results must be eager's.
 * Graphs and tensors stay small so one input runs in well under 100 ms. */
#include "fuzz_common.h"

#include <airc/runtime.h>

#include <math.h>
#include <stdbool.h>

enum { MAX_EDITS = 24, MAX_NODES = 64, MAX_ARGS = 12, MAX_LIST = 4, MAX_NUMEL = 4096 };

static const char *const seeds[] = {
    "graph():\n"
    "    %x_1 : [#users=2] = placeholder[target=x_1]\n"
    "    %mm : [#users=2] = call_function[target=torch.ops.aten.mm.default](args = (%x_1, %x_1), "
    "kwargs = {})\n"
    "    %abs_1 : [#users=1] = call_function[target=torch.ops.aten.abs.default](args = (%mm,), "
    "kwargs = {})\n"
    "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%abs_1, 1), "
    "kwargs = {})\n"
    "    %sub : [#users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x_1, %mm), "
    "kwargs = {})\n"
    "    return (add, sub)\n",

    "graph():\n"
    "    %x_1 : [#users=2] = placeholder[target=x_1]\n"
    "    %y_1 : [#users=1] = placeholder[target=y_1]\n"
    "    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x_1, %y_1), "
    "kwargs = {})\n"
    "    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%mul,), "
    "kwargs = {})\n"
    "    %_softmax : [#users=1] = call_function[target=torch.ops.aten._softmax.default](args = "
    "(%relu, -1, False), kwargs = {})\n"
    "    %sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%x_1, "
    "[-1], True), kwargs = {})\n"
    "    return (_softmax, sum_1)\n",

    "graph():\n"
    "    %x_1 : [#users=2] = placeholder[target=x_1]\n"
    "    %clone : [#users=1] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), "
    "kwargs = {})\n"
    "    %add_ : [#users=1] = call_function[target=torch.ops.aten.add_.Tensor](args = (%clone, "
    "%x_1), kwargs = {alpha: 0.5})\n"
    "    %mul_ : [#users=1] = call_function[target=torch.ops.aten.mul_.Scalar](args = (%add_, 2), "
    "kwargs = {})\n"
    "    return (mul_,)\n",

    "graph():\n"
    "    %x_1 : [#users=3] = placeholder[target=x_1]\n"
    "    %t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%x_1,), kwargs = "
    "{})\n"
    "    %unsqueeze : [#users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = "
    "(%x_1, 0), kwargs = {})\n"
    "    %view : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%x_1, "
    "[-1]), kwargs = {})\n"
    "    %clone : [#users=1] = call_function[target=torch.ops.aten.clone.default](args = (%t,), "
    "kwargs = {})\n"
    "    return (clone, unsqueeze, view)\n",

    "graph():\n"
    "    %x_1 : [#users=2] = placeholder[target=x_1]\n"
    "    %max_1 : [#users=2] = call_function[target=torch.ops.aten.max.dim](args = (%x_1, -1), "
    "kwargs = {})\n"
    "    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%max_1, 0), "
    "kwargs = {})\n"
    "    %getitem_1 : [#users=1] = call_function[target=operator.getitem](args = (%max_1, 1), "
    "kwargs = {})\n"
    "    %gt : [#users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%x_1, 0.5), "
    "kwargs = {})\n"
    "    return (getitem, getitem_1, gt)\n",

    "graph():\n"
    "    %x_1 : f32[2, 3] [#users=1] = placeholder[target=x_1]\n"
    "    %w_1 : f32[3, 4] [#users=1] = placeholder[target=w_1]\n"
    "    %b_1 : f32[4] [#users=1] = placeholder[target=b_1]\n"
    "    %addmm : [#users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%b_1, "
    "%x_1, %w_1), kwargs = {})\n"
    "    %tanh : [#users=1] = call_function[target=torch.ops.aten.tanh.default](args = "
    "(%addmm,), kwargs = {})\n"
    "    return (tanh,)\n",

    "graph():\n"
    "    %x_1 : [#users=1] = placeholder[target=x_1]\n"
    "    %full : [#users=1] = call_function[target=torch.ops.aten.full.default](args = ([2], "
    "1.5), kwargs = {dtype: torch.float32, device: cpu, pin_memory: False})\n"
    "    %sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.default](args = (%x_1,), "
    "kwargs = {})\n"
    "    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%full, "
    "%sum_1), kwargs = {})\n"
    "    return (add,)\n",

    ("graph():\n"
     "    return ()\n"),
};
enum { NSEEDS = sizeof seeds / sizeof seeds[0] };

/* Ops with kernels and meta that combine well; others are drawn from the
 * whole registry now and then. */
static const char *const common_ops[] = {"aten.add.Tensor",
                                         "aten.sub.Tensor",
                                         "aten.mul.Tensor",
                                         "aten.div.Tensor",
                                         "aten.add.Scalar",
                                         "aten.mul.Scalar",
                                         "aten.relu.default",
                                         "aten.abs.default",
                                         "aten.neg.default",
                                         "aten.exp.default",
                                         "aten.sigmoid.default",
                                         "aten.tanh.default",
                                         "aten.sqrt.default",
                                         "aten.pow.Tensor_Scalar",
                                         "aten.clamp.default",
                                         "aten.sum.dim_IntList",
                                         "aten.sum.default",
                                         "aten.mean.dim",
                                         "aten.amax.default",
                                         "aten.mm.default",
                                         "aten.bmm.default",
                                         "aten.addmm.default",
                                         "aten.view.default",
                                         "aten.reshape.default",
                                         "aten.permute.default",
                                         "aten.t.default",
                                         "aten.transpose.int",
                                         "aten.clone.default",
                                         "aten.expand.default",
                                         "aten.slice.Tensor",
                                         "aten.select.int",
                                         "aten.unsqueeze.default",
                                         "aten.squeeze.dim",
                                         "aten.cat.default",
                                         "aten.stack.default",
                                         "aten.where.self",
                                         "aten.gt.Scalar",
                                         "aten.eq.Tensor",
                                         "aten._softmax.default",
                                         "aten.max.dim",
                                         "operator.getitem",
                                         "aten.split.Tensor",
                                         "aten.full.default",
                                         "aten.ones.default",
                                         "aten.zeros.default",
                                         "aten.arange.default",
                                         "aten.add_.Tensor",
                                         "aten.mul_.Scalar",
                                         "aten.copy_.default",
                                         "aten.masked_fill.Scalar",
                                         "aten._to_copy.default",
                                         "aten.detach.default",
                                         "aten.alias.default",
                                         "aten.repeat.default",
                                         "aten.native_layer_norm.default",
                                         "aten.embedding.default",
                                         "aten.constant_pad_nd.default",
                                         "aten.index_select.default",
                                         "aten.cumsum.default",
                                         "aten.argmax.default"};
enum { NCOMMON = sizeof common_ops / sizeof common_ops[0] };

/* Ops added after the corpus was grown, drawn often enough to be reached
 * (the corpus keeps its meaning: common_ops is unchanged). */
static const char *const newer_ops[] = {
    "aten.flip.default",
    "aten.sort.default",
    "aten.sort.stable",
    "aten.topk.default",
    "aten.index.Tensor",
    "aten.hardswish.default",
    "aten.hardsigmoid_.default",
    "aten.native_group_norm.default",
    "aten.native_batch_norm.default",
    "aten.upsample_nearest2d.vec",
    "aten.upsample_bilinear2d.vec",
    "aten.repeat.default",
    "aten.mv.default",
    "aten.dot.default",
    "aten.squeeze_.dim",
    "aten.unsqueeze_.default",
    "aten.threshold.default",
    "aten.reflection_pad1d.default",
    "aten.upsample_linear1d.vec",
    "aten.pixel_unshuffle.default",
    "aten.adaptive_max_pool2d.default",
    "aten.upsample_bicubic2d.vec",
    "aten.grid_sampler_2d.default",
    "aten.affine_grid_generator.default",
    "aten.im2col.default",
    "aten.col2im.default",
    "aten.unsafe_split.Tensor",
    "aten.addcmul_.default",
    "aten.addcdiv.default",
    "aten.lerp.Scalar",
    "aten.lerp.Tensor",
    "aten.softshrink.default",
    "aten.celu_.default",
    "aten.logit.default",
    "aten.heaviside.default",
    "aten.erfinv.default",
    "aten.digamma.default",
    "aten.angle.default",
    "aten.special_ndtri.default",
    "aten.special_erfcx.default",
    "aten.i0_.default",
    "aten.polygamma.default",
    "aten.special_xlog1py.self_scalar",
    "aten.gcd.default",
    "aten.lcm_.default",
    "aten.nextafter.default",
    "aten.igammac.default",
    "aten.special_zeta.other_scalar",
    "aten.special_bessel_y0.default",
    "aten.special_airy_ai.default",
    "aten.special_scaled_modified_bessel_k1.default",
    "aten.special_chebyshev_polynomial_v.default",
    "aten.special_hermite_polynomial_h.x_scalar",
    "aten.special_legendre_polynomial_p.n_scalar",
    "aten.unfold.default",
    "aten.diagonal.default",
    "aten.diag_embed.default",
    "aten.trace.default",
    "aten.linspace.default",
    "aten.mse_loss.default",
    "aten.binary_cross_entropy.default",
    "aten.binary_cross_entropy_with_logits.default",
    "aten.nll_loss_forward.default",
    "aten.nll_loss2d_forward.default",
    "aten.channel_shuffle.default",
    "aten._cdist_forward.default",
    "aten.linalg_cross.default",
    "aten.index_add.default",
    "aten.scatter_reduce.two",
    "aten.copysign.Tensor",
    "aten.hypot.default",
    "aten.nansum.default",
    "aten.aminmax.default",
    "aten.count_nonzero.dim_IntList",
    "aten.cummax.default",
    "aten.logcumsumexp.default",
    "aten.addmv.default",
    "aten.addr.default",
    "aten.addbmm.default",
    "aten.index_fill.int_Scalar",
    "aten.take.default",
    "aten.rot90.default",
    "aten.searchsorted.Tensor",
    "aten.median.dim",
    "aten.kthvalue.default",
    "aten.masked_scatter.default",
    "aten.tril_indices.default",
    "aten.max_pool3d_with_indices.default",
    "aten.avg_pool3d.default",
    "aten._adaptive_avg_pool3d.default",
    "aten.adaptive_max_pool3d.default",
    "aten.max_unpool2d.default",
    "aten.max_unpool3d.default",
    "aten._weight_norm_interface.default",
    "aten.soft_margin_loss.default",
    "aten.reflection_pad3d.default",
    "aten.replication_pad3d.default",
    "aten.upsample_nearest3d.vec",
    "aten.upsample_trilinear3d.vec",
    "aten._pdist_forward.default",
    "aten.histc.default",
    "aten.multi_margin_loss.default",
    "aten.multilabel_margin_loss_forward.default",
    "aten.linalg_vector_norm.default",
    "aten.argsort.stable",
    "aten._embedding_bag.default",
    "aten._trilinear.default",
    "aten.diagonal_scatter.default",
    "aten.as_strided_scatter.default",
    "aten._native_multi_head_attention.default",
    "aten._transformer_encoder_layer_fwd.default",
    "aten._upsample_nearest_exact2d.vec",
    "aten._upsample_nearest_exact3d.vec",
    "aten._upsample_bilinear2d_aa.vec",
    "aten._upsample_bicubic2d_aa.vec",
    "aten.isin.Tensor_Tensor",
    "aten.linalg_inv_ex.default",
    "aten._linalg_slogdet.default",
    "aten._linalg_solve_ex.default",
    "aten.linalg_cholesky_ex.default",
    "aten._linalg_eigh.default",
    "aten._linalg_svd.default",
    "aten.linalg_qr.default",
    "aten.linalg_lu.default",
    "aten.linalg_solve_triangular.default",
    "aten._linalg_check_errors.default",
    "aten.linalg_pinv.atol_rtol_tensor",
    "aten.grid_sampler_3d.default",
    "aten.linalg_matrix_exp.default",
    "aten.fractional_max_pool2d.default",
    "aten.fractional_max_pool3d.default",
    "aten._ctc_loss.default",
    "aten._ctc_loss.Tensor",
    "aten.embedding_renorm.default",
    "aten.embedding_renorm_.default",
    "aten.mode.default",
    "aten.renorm.default",
    "aten.index_reduce.default",
    "aten.put.default",
    "aten.block_diag.default",
    "aten.mvlgamma.default",
    "aten.frexp.Tensor",
    "aten.histogram.bin_ct",
    "aten.histogram.bins_tensor",
    "aten.rrelu_with_noise.default",
    "aten.segment_reduce.default",
    "aten.lu_unpack.default",
    "aten.linalg_lu_solve.default",
    "aten.linalg_lstsq.default",
    "aten.geqrf.default",
    "aten.linalg_householder_product.default",
    "aten.ormqr.default",
    "aten.linalg_ldl_factor_ex.default",
    "aten.linalg_ldl_solve.default",
    "aten.symeig.default",
    "aten.fake_quantize_per_tensor_affine_cachemask.default",
    "aten._fake_quantize_per_tensor_affine_cachemask_tensor_qparams.default",
    "aten.fake_quantize_per_channel_affine_cachemask.default",
    "aten._fake_quantize_learnable_per_tensor_affine.default",
    "aten._fake_quantize_learnable_per_channel_affine.default",
    "aten._histogramdd_bin_edges.default",
    "aten._histogramdd_from_bin_cts.default",
    "aten._histogramdd_from_bin_tensors.default",
    "aten.__lshift__.Tensor",
    "aten.__rshift__.Scalar",
    "aten.bitwise_left_shift.Tensor_Scalar",
    "aten.bitwise_right_shift.Scalar_Tensor",
    "aten.bitwise_and.Scalar_Tensor",
    "aten.remainder.Scalar_Tensor",
    "aten.isposinf.default",
    "aten.isneginf.default",
    "aten._add_relu.Tensor",
    "aten._add_relu.Scalar",
    "aten._addmm_activation.default",
    "aten._aminmax.dim",
    "aten.vdot.default",
    "aten.dist.default",
    "aten.norm.Scalar",
    "aten.norm.ScalarOpt_dtype",
    "aten.norm.ScalarOpt_dim_dtype",
    "aten.round.decimals",
    "aten.fill.Tensor",
    "aten.zero.default",
    "aten.narrow_copy.default",
    "aten.lift.default",
    "aten._efficientzerotensor.default",
    "aten._stack.default",
    "aten._conj_physical.default",
    "aten._neg_view.default",
    "aten.scatter.reduce",
    "aten.scatter.value_reduce",
    "aten.view.dtype",
    "aten.special_i1.default",
    "aten.special_i1e.default",
    "aten.range.default",
    "aten.range.step",
    "aten.hann_window.default",
    "aten.hann_window.periodic",
    "aten.hamming_window.default",
    "aten.hamming_window.periodic",
    "aten.hamming_window.periodic_alpha",
    "aten.hamming_window.periodic_alpha_beta",
    "aten.bartlett_window.default",
    "aten.bartlett_window.periodic",
    "aten.blackman_window.default",
    "aten.blackman_window.periodic",
    "aten.kaiser_window.default",
    "aten.kaiser_window.periodic",
    "aten.kaiser_window.beta",
    "aten.fft_fftfreq.default",
    "aten.fft_rfftfreq.default",
    "aten._convolution.default",
    "aten.conv_tbc.default",
    "aten._slow_conv2d_forward.default",
    "aten.slow_conv3d_forward.default",
    "aten.slow_conv_dilated2d.default",
    "aten.slow_conv_dilated3d.default",
    "aten.slow_conv_transpose2d.default",
    "aten.slow_conv_transpose3d.default",
    "aten.native_dropout.default",
    "aten.batch_norm_update_stats.default",
    "aten._masked_softmax.default",
    "aten._assert_async.default",
    "aten._cholesky_solve_helper.default",
    "aten._compute_linear_combination.default",
};
enum { NNEWER = sizeof newer_ops / sizeof newer_ops[0] };

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

/* The next byte, 0 once the input is used up (the program then ends). */
static uint32_t next_byte(reader *r)
{
    if (!r->n)
        return 0;
    r->n--;
    return *r->p++;
}

static uint32_t pick(reader *r, uint32_t mod)
{
    return mod ? next_byte(r) % mod : 0;
}

static airc_context *ctx;
static airc_runtime *rt;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    ctx = fuzz_context_create();
    airc_cpu_runtime_options opts;
    airc_cpu_runtime_options_init(&opts);
    opts.num_threads = 1;
    if (ctx && airc_cpu_runtime_create(ctx, &opts, &rt) != AIRC_OK)
        rt = NULL;
    return 0;
}

typedef struct pool {
    airc_node *nodes[MAX_NODES];
    size_t n;
} pool;

static void gather(airc_graph *g, pool *p)
{
    p->n = 0;
    for (airc_node *n = airc_graph_first_node(g); n && p->n < MAX_NODES; n = airc_node_next(n))
        p->nodes[p->n++] = n;
}

static airc_node *pick_node(reader *r, const pool *p)
{
    return p->n ? p->nodes[pick(r, (uint32_t)p->n)] : NULL;
}

/* A value node: not the output node. NULL when there is none. */
static airc_node *pick_value_node(reader *r, const pool *p)
{
    airc_node *n = pick_node(r, p);
    for (size_t tries = 0; n && airc_node_get_kind(n) == AIRC_NODE_OUTPUT && tries < 4; tries++)
        n = pick_node(r, p);
    return n && airc_node_get_kind(n) != AIRC_NODE_OUTPUT ? n : NULL;
}

static const char *pick_op(reader *r)
{
    uint32_t b = next_byte(r);
    if (b < 224 || !airc_context_num_ops(ctx))
        return common_ops[b % NCOMMON];
    if (b < 232)
        return newer_ops[next_byte(r) % NNEWER];
    uint32_t i = (next_byte(r) << 8) | next_byte(r);
    return airc_context_op_name(ctx, i % airc_context_num_ops(ctx));
}

static const airc_value *gen_scalar(airc_graph *g, reader *r, airc_type_kind kind, const pool *p)
{
    static const int64_t ints[] = {0, 1, -1, 2, 3, -2, 4, 1, 0, INT64_MAX, INT64_MIN, 7};
    static const double floats[] = {0.0, 0.5, -1.5, 1.0, 2.0, 1e-8, 1e30, -0.0};
    static const char *const strs[] = {"floor", "trunc", "tanh", "none", "mean", "sum", ""};
    const airc_value *v = NULL;
    switch (kind) {
    case AIRC_TYPE_TENSOR: {
        airc_node *n = pick_value_node(r, p);
        if (n)
            airc_value_node(g, n, &v);
        else
            airc_value_none(g, &v);
        break;
    }
    case AIRC_TYPE_INT:
    case AIRC_TYPE_SYMINT: airc_value_int(g, ints[pick(r, 12)], &v); break;
    case AIRC_TYPE_FLOAT: {
        uint32_t b = pick(r, 10);
        airc_value_float(g, b < 8 ? floats[b] : b == 8 ? INFINITY : NAN, &v);
        break;
    }
    case AIRC_TYPE_BOOL: airc_value_bool(g, (int32_t)pick(r, 2), &v); break;
    case AIRC_TYPE_SCALAR:
        if (pick(r, 2))
            airc_value_int(g, ints[pick(r, 12)], &v);
        else
            airc_value_float(g, floats[pick(r, 8)], &v);
        break;
    case AIRC_TYPE_SCALAR_TYPE: airc_value_dtype(g, (airc_dtype)(1 + pick(r, 10)), &v); break;
    case AIRC_TYPE_DEVICE: airc_value_device(g, pick(r, 4) ? "cpu" : "meta", -1, &v); break;
    case AIRC_TYPE_LAYOUT: airc_value_layout(g, AIRC_LAYOUT_STRIDED, &v); break;
    case AIRC_TYPE_MEMORY_FORMAT:
        airc_value_memory_format(g, (airc_memory_format)pick(r, 4), &v);
        break;
    case AIRC_TYPE_STR: airc_value_string(g, strs[pick(r, 7)], &v); break;
    default: airc_value_none(g, &v); break;
    }
    return v;
}

/* A value for a schema argument of this type; now and then one of another
 * kind (the lint and the meta functions must refuse it). */
static const airc_value *gen_value(airc_graph *g, reader *r, airc_type_kind kind, int32_t is_list,
                                   int32_t list_size, int32_t optional, const pool *p)
{
    const airc_value *v = NULL;
    uint32_t mood = next_byte(r);
    if (mood >= 248) /* any kind at all */
        return gen_scalar(g, r, (airc_type_kind)pick(r, 16), p);
    if (optional && mood % 8 == 0) {
        airc_value_none(g, &v);
        return v;
    }
    if (!is_list)
        return gen_scalar(g, r, kind, p);
    const airc_value *items[MAX_LIST];
    size_t n = list_size > 0 && list_size <= MAX_LIST ? (size_t)list_size : pick(r, MAX_LIST + 1);
    for (size_t i = 0; i < n; i++)
        if (!(items[i] = gen_scalar(g, r, kind, p)))
            return NULL;
    airc_value_list(g, items, n, &v);
    return v;
}

static void set_insert_point(airc_graph *g, reader *r, const pool *p)
{
    airc_node *out = airc_graph_output_node(g);
    uint32_t b = pick(r, 8);
    if (b < 5 && out)
        airc_graph_set_insert_point(g, AIRC_INSERT_BEFORE, out);
    else if (b == 5)
        airc_graph_set_insert_point(g, AIRC_INSERT_AFTER, pick_node(r, p));
    else if (b == 6)
        airc_graph_set_insert_point(g, AIRC_INSERT_BEFORE, pick_node(r, p));
    else
        airc_graph_set_insert_point(g, pick(r, 4), pick_node(r, p));
}

static void edit_create(airc_graph *g, reader *r, const pool *p)
{
    const char *name = pick_op(r);
    const airc_op *op = NULL;
    if (!name || airc_context_find_op(ctx, name, &op) != AIRC_OK)
        return;
    const airc_schema *s = airc_op_schema(op);
    const airc_value *args[MAX_ARGS], *kw_values[MAX_ARGS];
    const char *kw_names[MAX_ARGS];
    size_t nargs = 0, nkw = 0, total = airc_schema_num_args(s);
    for (size_t i = 0; i < total && i < MAX_ARGS; i++) {
        int32_t has_default = airc_schema_arg_default(s, i) != NULL;
        if (has_default && pick(r, 3) == 0)
            continue; /* leave it to its default */
        const airc_value *v =
            gen_value(g, r, airc_schema_arg_type(s, i), airc_schema_arg_is_list(s, i),
                      airc_schema_arg_list_size(s, i), airc_schema_arg_is_optional(s, i), p);
        if (!v)
            return;
        if (airc_schema_arg_is_kwarg_only(s, i) || nargs < i || pick(r, 8) == 0) {
            kw_names[nkw] = airc_schema_arg_name(s, i);
            kw_values[nkw++] = v;
        } else {
            args[nargs++] = v;
        }
    }
    if (pick(r, 16) == 0 && nargs) /* a wrong arity now and then */
        nargs--;
    set_insert_point(g, r, p);
    airc_node *n = NULL;
    airc_graph_create_node(g, AIRC_NODE_CALL_FUNCTION, name, args, nargs, kw_names, kw_values, nkw,
                           pick(r, 4) ? NULL : "x_1", &n);
}

static void edit_output(airc_graph *g, reader *r, const pool *p)
{
    airc_node *out = airc_graph_output_node(g);
    const airc_value *items[MAX_LIST], *tuple = NULL;
    size_t n = 1 + pick(r, MAX_LIST);
    for (size_t i = 0; i < n; i++) {
        airc_node *v = pick_value_node(r, p);
        if (!v || airc_value_node(g, v, &items[i]) != AIRC_OK)
            return;
    }
    if (airc_value_tuple(g, items, n, &tuple) != AIRC_OK)
        return;
    if (out)
        airc_node_set_args(out, &tuple, 1);
    else
        airc_graph_output(g, tuple, NULL);
}

static void edit_meta(reader *r, const pool *p)
{
    airc_node *n = pick_value_node(r, p);
    if (!n)
        return;
    if (pick(r, 4) == 0) {
        airc_node_clear_meta(n);
        return;
    }
    int64_t shape[4];
    int32_t ndim = (int32_t)pick(r, 5);
    for (int32_t d = 0; d < ndim; d++)
        shape[d] = (int64_t)pick(r, 5);
    airc_dtype dtype = pick(r, 4) ? AIRC_DTYPE_F32 : (airc_dtype)pick(r, 12);
    airc_node_set_meta(n, dtype, ndim, shape, NULL);
}

static airc_graph *edit(airc_graph *g, reader *r)
{
    pool p;
    gather(g, &p);
    airc_node *a = NULL, *b = NULL;
    uint32_t which = pick(r, 16);
    switch (which) {
    case 0:
    case 1:
    case 2:
    case 3: edit_create(g, r, &p); break;
    case 4: airc_graph_erase_node(g, pick_node(r, &p)); break;
    case 5:
        a = pick_value_node(r, &p);
        b = pick_value_node(r, &p);
        if (a && b)
            airc_node_replace_all_uses_with(a, b, NULL, NULL, NULL);
        break;
    case 6:
        a = pick_node(r, &p);
        b = pick_node(r, &p);
        if (a && b) {
            if (pick(r, 2))
                airc_node_move_before(a, b);
            else
                airc_node_move_after(a, b);
        }
        break;
    case 7:
        if ((a = pick_node(r, &p)))
            airc_node_set_target(a, pick_op(r));
        break;
    case 8:
        a = pick_node(r, &p);
        if (a && airc_node_num_args(a)) {
            size_t i = pick(r, (uint32_t)airc_node_num_args(a) + 1);
            const airc_value *v = gen_scalar(g, r, (airc_type_kind)pick(r, 8), &p);
            if (v)
                airc_node_update_arg(a, i, v);
        }
        break;
    case 9:
        if ((a = pick_node(r, &p))) {
            static const char *const keys[] = {"alpha", "dtype", "keepdim", "dim", "bogus"};
            const airc_value *v =
                pick(r, 3) ? gen_scalar(g, r, (airc_type_kind)pick(r, 8), &p) : NULL;
            airc_node_update_kwarg(a, keys[pick(r, 5)], v);
        }
        break;
    case 10: airc_graph_eliminate_dead_code(g, NULL); break;
    case 11: edit_meta(r, &p); break;
    case 12:
        airc_graph_set_insert_point(g, AIRC_INSERT_FRONT, NULL);
        airc_graph_placeholder(g, pick(r, 2) ? "z_1" : "x_1", NULL);
        break;
    case 13: edit_output(g, r, &p); break;
    case 14:
        a = pick_node(r, &p);
        b = pick_value_node(r, &p);
        if (a && b && airc_node_num_inputs(a))
            airc_node_replace_input_with(
                a, airc_node_input(a, pick(r, 4) % airc_node_num_inputs(a)), b);
        break;
    default: {
        uint32_t k = pick(r, 4);
        if (k == 0) {
            airc_graph *copy = NULL;
            if (airc_graph_clone(g, &copy) == AIRC_OK) {
                airc_graph_destroy(g);
                g = copy;
            }
        } else if (k == 1) {
            airc_node *two[2] = {pick_node(r, &p), pick_node(r, &p)};
            if (two[0] && two[1])
                airc_graph_erase_nodes(g, two, two[0] == two[1] ? 1 : 2);
        } else if (k == 2) {
            airc_graph_propagate_meta(g);
        } else {
            const airc_value *v = NULL;
            if ((a = pick_node(r, &p)) && airc_value_string(g, "s1", &v) == AIRC_OK)
                airc_node_set_attr(a, pick(r, 2) ? "stream_label" : "k", v);
        }
        break;
    }
    }
    return g;
}

/* One input per placeholder: its own meta when it has one (bounded), else
 * f32 of the shape the input asked for. Values are small and varied. */
/* SIZE_MAX (and nothing left allocated) when a placeholder is too large. */
static size_t make_inputs(const airc_graph *g, int32_t ndim, const int64_t *shape,
                          airc_tensor **ins, size_t cap)
{
    size_t n = 0;
    for (airc_node *p = airc_graph_first_node(g); p; p = airc_node_next(p)) {
        if (airc_node_get_kind(p) != AIRC_NODE_PLACEHOLDER)
            continue;
        if (n == cap)
            goto fail;
        airc_dtype dt = AIRC_DTYPE_F32;
        int32_t nd = ndim;
        const int64_t *sh = shape;
        if (airc_node_meta_kind(p) == AIRC_META_TENSOR &&
            airc_node_output_meta(p, 0, &dt, &nd, &sh, NULL) == AIRC_OK) {
            int64_t numel = 1;
            for (int32_t d = 0; d < nd; d++) {
                if (sh[d] < 0 || sh[d] > MAX_NUMEL)
                    goto fail;
                numel *= sh[d];
                if (numel > MAX_NUMEL)
                    goto fail;
            }
        }
        if (airc_tensor_create(ctx, dt, nd, sh, &ins[n]) != AIRC_OK)
            goto fail;
        uint8_t *data = airc_tensor_data(ins[n]);
        size_t numel = airc_tensor_numel(ins[n]), es = airc_dtype_size(dt);
        for (size_t i = 0; i < numel; i++) {
            int32_t k = (int32_t)((i * 7 + n * 3) % 5) - 2;
            switch (dt) {
            case AIRC_DTYPE_F32: ((float *)data)[i] = (float)k * 0.75f; break;
            case AIRC_DTYPE_F64: ((double *)data)[i] = k * 0.75; break;
            case AIRC_DTYPE_I64: ((int64_t *)data)[i] = k < 0 ? 0 : k; break;
            case AIRC_DTYPE_I32: ((int32_t *)data)[i] = k < 0 ? 0 : k; break;
            case AIRC_DTYPE_BOOL: data[i] = (uint8_t)(k > 0); break;
            default: memset(data + i * es, 0, es); break;
            }
        }
        n++;
    }
    return n;
fail:
    for (size_t i = 0; i < n; i++)
        airc_tensor_destroy(ins[i]);
    return SIZE_MAX;
}

/* A contiguous copy of t (NULL when out of memory). */
static airc_tensor *copy_tensor(const airc_tensor *t)
{
    airc_tensor *c = NULL;
    if (airc_tensor_create(ctx, airc_tensor_dtype(t), airc_tensor_ndim(t), airc_tensor_shape(t),
                           &c) != AIRC_OK)
        return NULL;
    if (airc_tensor_nbytes(t))
        memcpy(airc_tensor_data(c), airc_tensor_data(t), airc_tensor_nbytes(t));
    return c;
}

/* Whether got holds want's values: DESIGN.md's tolerance for f32/f64 (rtol
 * 1e-4, atol 1e-4 x (1 + max|want|), NaN equal to NaN), the same bytes for
 * integers and bools; f16/bf16 are not compared (a lowering may round
 * differently on the way). */
static bool same_values(const airc_tensor *got, const airc_tensor *want)
{
    airc_dtype dt = airc_tensor_dtype(want);
    int32_t nd = airc_tensor_ndim(want);
    if (airc_tensor_dtype(got) != dt || airc_tensor_ndim(got) != nd ||
        memcmp(airc_tensor_shape(got), airc_tensor_shape(want), sizeof(int64_t) * (size_t)nd)) {
        fprintf(stderr, "dtype %d ndim %d, eager's dtype %d ndim %d\n", (int)airc_tensor_dtype(got),
                (int)airc_tensor_ndim(got), (int)dt, (int)nd);
        return false;
    }
    size_t n = airc_tensor_numel(want);
    if (dt == AIRC_DTYPE_F16 || dt == AIRC_DTYPE_BF16)
        return true;
    if (dt != AIRC_DTYPE_F32 && dt != AIRC_DTYPE_F64) {
        if (!n || !memcmp(airc_tensor_data(got), airc_tensor_data(want), airc_tensor_nbytes(want)))
            return true;
        fprintf(stderr, "the %s bytes differ\n", airc_dtype_name(dt));
        return false;
    }
    const void *g = airc_tensor_data(got), *w = airc_tensor_data(want);
#define AT(p, i) (dt == AIRC_DTYPE_F32 ? (double)((const float *)(p))[i] : ((const double *)(p))[i])
    double big = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(AT(w, i)) && fabs(AT(w, i)) > big)
            big = fabs(AT(w, i));
    for (size_t i = 0; i < n; i++) {
        double x = AT(g, i), y = AT(w, i);
        if (isnan(x) && isnan(y))
            continue;
        if (x == y)
            continue;
        if (!isfinite(x) || !isfinite(y) || fabs(x - y) > 1e-4 * (1 + big) + 1e-4 * fabs(y)) {
            fprintf(stderr, "element %zu is %g, eager's %g\n", i, x, y);
            return false;
        }
    }
#undef AT
    return true;
}

/* Compiles g in each mode (eager, reduce-overhead, max-autotune) and runs
 * it on fresh inputs each time (an in-place op may write them), twice in
 * reduce-overhead (capture, then replay). A mode may refuse the graph; the
 * results of every run that works must be eager's. */
static void compile_and_run(const airc_graph *g, int32_t ndim, const int64_t *shape)
{
    static const char *const modes[] = {"eager", "reduce-overhead", "max-autotune"};
    airc_tensor *ins[MAX_NODES], *want[64];
    size_t nin = make_inputs(g, ndim, shape, ins, MAX_NODES), nwant = 0;
    if (nin == SIZE_MAX)
        return;
    bool have_want = false;
    airc_config *cfg = NULL;
    airc_example_inputs *ex = NULL;
    if (airc_config_create(ctx, &cfg) != AIRC_OK || airc_example_inputs_create(ctx, &ex) != AIRC_OK)
        goto done;
    for (size_t i = 0; i < nin; i++)
        if (airc_example_inputs_add_tensor(ex, ins[i]) != AIRC_OK)
            goto done;
    for (size_t m = 0; m < 3; m++) {
        if (airc_config_set(cfg, "mode", modes[m]) != AIRC_OK)
            continue;
        airc_compile_options co;
        airc_compile_options_init(&co);
        co.config = cfg;
        co.example_inputs = ex;
        co.runtime = rt;
        airc_compiled *c = NULL;
        if (airc_compile(g, &co, &c) != AIRC_OK)
            continue;
        size_t cap = 0;
        airc_tensor *outs[64];
        if (airc_graph_num_results(airc_compiled_graph(c), &cap) == AIRC_OK && cap <= 64) {
            for (int rep = 0; rep < (m == 1 ? 2 : 1); rep++) {
                for (size_t i = 0; i < nin; i++)
                    airc_tensor_destroy(ins[i]);
                if (make_inputs(g, ndim, shape, ins, MAX_NODES) != nin)
                    abort(); /* made once already: deterministic */
                size_t nout = 0;
                if (airc_compiled_run(c, ins, nin, outs, cap, &nout) != AIRC_OK)
                    break;
                if (m == 0 && !have_want) {
                    for (; nwant < nout; nwant++)
                        if (!(want[nwant] = copy_tensor(outs[nwant])))
                            break;
                    have_want = nwant == nout;
                } else if (have_want) {
                    bool same = nout == nwant;
                    if (!same)
                        fprintf(stderr, "%zu results, eager's %zu\n", nout, nwant);
                    for (size_t i = 0; same && i < nout; i++)
                        if (!(same = same_values(outs[i], want[i])))
                            fprintf(stderr, "(result %zu, run %d)\n", i, rep);
                    if (!same) {
                        char *text = NULL;
                        airc_graph_print(g, AIRC_PRINT_TYPES, &text);
                        fprintf(stderr, "in %s, of:\n%s\n", modes[m], text ? text : "?");
                        fuzz_require(false, "a graph mode's results differ from eager's", NULL);
                    }
                }
                for (size_t i = 0; i < nout; i++) {
                    volatile uint32_t sink = fuzz_touch_tensor(outs[i]);
                    (void)sink;
                    airc_tensor_destroy(outs[i]);
                }
            }
        }
        airc_compiled_destroy(c);
    }
done:
    for (size_t i = 0; i < nwant; i++)
        airc_tensor_destroy(want[i]);
    for (size_t i = 0; i < nin; i++)
        airc_tensor_destroy(ins[i]);
    airc_example_inputs_destroy(ex);
    airc_config_destroy(cfg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ctx || !rt || size > 512)
        return 0;
    reader r = {data, size};
    const char *seed = seeds[pick(&r, NSEEDS)];
    int64_t shape[3];
    int32_t ndim = (int32_t)pick(&r, 4);
    for (int32_t d = 0; d < 3; d++)
        shape[d] = 1 + (int64_t)pick(&r, 4);
    airc_graph *g = NULL;
    if (airc_graph_parse(ctx, seed, strlen(seed), "seed", &g) != AIRC_OK)
        abort(); /* the seeds are valid graphs */
    for (int e = 0; e < MAX_EDITS && r.n; e++)
        g = edit(g, &r);
    char *text = NULL;
    if (airc_graph_print(g, AIRC_PRINT_DEFAULT, &text) == AIRC_OK) {
        airc_graph *again = NULL;
        if (airc_graph_parse(ctx, text, strlen(text), "reprint", &again) == AIRC_OK)
            airc_graph_destroy(again);
        airc_string_free(text);
    }
    if (airc_graph_lint(g) == AIRC_OK)
        fuzz_require_reprint(ctx, g); /* a valid graph survives its text */
    if (airc_graph_lint(g) == AIRC_OK && airc_graph_num_nodes(g) <= MAX_NODES) {
        compile_and_run(g, ndim, shape);
    }
    airc_graph_destroy(g);
    return 0;
}
