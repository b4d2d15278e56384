#!/usr/bin/python3
"""Writes src/ops/builtin_ops.c: airc's built-in op table.

Run with Debian's python3-torch (PyTorch 1.13):  /usr/bin/python3 tests/gen_builtin_table.py
The schemas are copied verbatim from torch (str(op._schema)); the committed
builtin_ops.c is what builds, this script only regenerates it.
"""
import os
import sys

import torch

A = torch.ops.aten

# (op "name.overload" in aten, C meta function). Flags come from the schema:
# a written argument or no result (an assertion) -> SIDE_EFFECT; ops that always return a view of their
# input are listed in VIEWS (the in-place views squeeze_, t_... are both:
# they write self's shape, and their result views self).
ATEN = [
    # unary, same dtype
    ("abs.default", "unary"), ("abs_.default", "unary"),
    ("neg.default", "unary"), ("neg_.default", "unary"),
    ("relu.default", "unary"), ("relu_.default", "unary"),
    ("gelu.default", "unary"), ("gelu_.default", "unary"),
    ("silu.default", "unary"), ("silu_.default", "unary"),
    ("floor.default", "unary"), ("ceil.default", "unary"),
    ("round.default", "unary"), ("trunc.default", "unary"),
    ("sign.default", "unary"), ("bitwise_not.default", "unary"),
    ("hardtanh.default", "unary"), ("leaky_relu.default", "unary"),
    ("floor_.default", "unary"), ("ceil_.default", "unary"), ("round_.default", "unary"),
    ("trunc_.default", "unary"), ("sign_.default", "unary"), ("bitwise_not_.default", "unary"),
    ("hardtanh_.default", "unary"), ("leaky_relu_.default", "unary"),
    ("hardswish.default", "unary"), ("hardswish_.default", "unary"),
    ("hardsigmoid.default", "unary"), ("hardsigmoid_.default", "unary"),
    ("prelu.default", "prelu"), ("glu.default", "glu"),
    ("softplus.default", "unary"), ("elu.default", "unary"), ("elu_.default", "unary"),
    ("mish.default", "unary"), ("mish_.default", "unary"),
    ("log_sigmoid_forward.default", "log_sigmoid"),
    ("nan_to_num.default", "unary"), ("nan_to_num_.default", "unary"),
    ("isnan.default", "logical_not"), ("isinf.default", "logical_not"),
    ("frac.default", "unary"), ("frac_.default", "unary"),
    ("sgn.default", "unary"), ("sgn_.default", "unary"),
    ("threshold.default", "unary"), ("threshold_.default", "unary"),
    ("hardshrink.default", "unary"), ("softshrink.default", "unary"),
    ("celu.default", "unary"), ("celu_.default", "unary"),
    ("signbit.default", "logical_not"),
    ("heaviside.default", "binary"), ("heaviside_.default", "binary"),
    # three operands
    ("addcmul.default", "addcmul"), ("addcmul_.default", "addcmul"),
    ("addcdiv.default", "addcmul"), ("addcdiv_.default", "addcmul"),
    ("lerp.Scalar", "lerp"), ("lerp.Tensor", "lerp"),
    ("lerp_.Scalar", "lerp"), ("lerp_.Tensor", "lerp"),
    # unary, integers promoted to float
    ("exp.default", "unary_float"), ("exp_.default", "unary_float"),
    ("log.default", "unary_float"), ("log_.default", "unary_float"),
    ("sqrt.default", "unary_float"), ("sqrt_.default", "unary_float"),
    ("rsqrt.default", "unary_float"), ("rsqrt_.default", "unary_float"),
    ("exp2.default", "unary_float"), ("exp2_.default", "unary_float"),
    ("reciprocal.default", "unary_float"), ("reciprocal_.default", "unary_float"),
    ("sigmoid.default", "unary_float"), ("sigmoid_.default", "unary_float"),
    ("tanh.default", "unary_float"), ("tanh_.default", "unary_float"),
    ("sin.default", "unary_float"), ("sin_.default", "unary_float"),
    ("cos.default", "unary_float"), ("cos_.default", "unary_float"),
    ("erf.default", "unary_float"), ("log1p.default", "unary_float"),
    ("expm1.default", "unary_float"), ("log2.default", "unary_float"),
    ("erf_.default", "unary_float"), ("log1p_.default", "unary_float"),
    ("expm1_.default", "unary_float"), ("log2_.default", "unary_float"),
    ("tan.default", "unary_float"), ("tan_.default", "unary_float"),
    ("atan.default", "unary_float"), ("atan_.default", "unary_float"),
    ("logit.default", "unary_float"), ("logit_.default", "unary_float"),
    ("sinc.default", "unary_float"), ("sinc_.default", "unary_float"),
    ("deg2rad.default", "unary_float"), ("deg2rad_.default", "unary_float"),
    ("erfinv.default", "unary_float"), ("erfinv_.default", "unary_float"),
    ("lgamma.default", "unary_float"), ("lgamma_.default", "unary_float"),
    ("digamma.default", "unary_float"), ("digamma_.default", "unary_float"),
    ("angle.default", "unary_float"), ("rad2deg.default", "unary_float"),
    ("rad2deg_.default", "unary_float"),
    ("special_entr.default", "unary_float"), ("special_erfcx.default", "unary_float"),
    ("special_ndtri.default", "unary_float"), ("special_log_ndtr.default", "unary_float"),
    ("i0.default", "unary_float"), ("i0_.default", "unary_float"),
    ("special_i0e.default", "unary_float"),
    ("polygamma.default", "unary_float"), ("polygamma_.default", "unary_float"),
    ("asin.default", "unary_float"), ("asin_.default", "unary_float"),
    ("acos.default", "unary_float"), ("acos_.default", "unary_float"),
    ("sinh.default", "unary_float"), ("sinh_.default", "unary_float"),
    ("cosh.default", "unary_float"), ("cosh_.default", "unary_float"),
    ("asinh.default", "unary_float"), ("asinh_.default", "unary_float"),
    ("acosh.default", "unary_float"), ("acosh_.default", "unary_float"),
    ("atanh.default", "unary_float"), ("atanh_.default", "unary_float"),
    ("log10.default", "unary_float"), ("log10_.default", "unary_float"),
    ("erfc.default", "unary_float"), ("erfc_.default", "unary_float"),
    ("logical_not.default", "logical_not"), ("logical_not_.default", "logical_not"),
    # binary
    ("add.Tensor", "binary"), ("add.Scalar", "binary"),
    ("add_.Tensor", "binary"), ("add_.Scalar", "binary"),
    ("sub.Tensor", "binary"), ("sub.Scalar", "binary"),
    ("sub_.Tensor", "binary"), ("sub_.Scalar", "binary"),
    ("rsub.Tensor", "binary"), ("rsub.Scalar", "binary"),
    ("mul.Tensor", "binary"), ("mul.Scalar", "binary"),
    ("mul_.Tensor", "binary"), ("mul_.Scalar", "binary"),
    ("div.Tensor", "binary"), ("div.Scalar", "binary"),
    ("div.Tensor_mode", "binary"), ("div.Scalar_mode", "binary"),
    ("div_.Tensor", "binary"), ("div_.Scalar", "binary"),
    ("div_.Tensor_mode", "binary"), ("div_.Scalar_mode", "binary"),
    ("maximum.default", "binary"), ("minimum.default", "binary"),
    ("pow.Tensor_Tensor", "binary"), ("pow.Tensor_Scalar", "binary"),
    ("pow.Scalar", "binary"),
    ("pow_.Tensor", "binary"), ("pow_.Scalar", "binary"),
    ("eq.Tensor", "compare"), ("eq.Scalar", "compare"),
    ("ne.Tensor", "compare"), ("ne.Scalar", "compare"),
    ("lt.Tensor", "compare"), ("lt.Scalar", "compare"),
    ("le.Tensor", "compare"), ("le.Scalar", "compare"),
    ("gt.Tensor", "compare"), ("gt.Scalar", "compare"),
    ("ge.Tensor", "compare"), ("ge.Scalar", "compare"),
    ("logical_and.default", "compare"), ("logical_or.default", "compare"),
    ("logical_xor.default", "compare"),
    ("floor_divide.default", "binary"),
    ("floor_divide.Scalar", "binary"),
    ("floor_divide_.Tensor", "binary"),
    ("floor_divide_.Scalar", "binary"),
    ("remainder.Tensor", "binary"),
    ("remainder.Scalar", "binary"),
    ("remainder_.Tensor", "binary"),
    ("remainder_.Scalar", "binary"),
    ("fmod.Tensor", "binary"),
    ("fmod.Scalar", "binary"),
    ("fmod_.Tensor", "binary"),
    ("fmod_.Scalar", "binary"),
    ("atan2.default", "binary"),
    ("fmax.default", "binary"), ("fmin.default", "binary"), ("logaddexp.default", "binary"),
    ("xlogy.Tensor", "binary"), ("xlogy.Scalar_Other", "binary"),
    ("xlogy_.Tensor", "binary"), ("xlogy_.Scalar_Other", "binary"),
    ("xlogy.Scalar_Self", "binary"), ("logaddexp2.default", "binary"),
    ("special_xlog1py.default", "binary"), ("special_xlog1py.self_scalar", "binary"),
    ("special_xlog1py.other_scalar", "binary"),
    ("gcd.default", "binary"), ("gcd_.default", "binary"),
    ("lcm.default", "binary"), ("lcm_.default", "binary"),
    ("nextafter.default", "binary"), ("nextafter_.default", "binary"),
    ("igamma.default", "binary"), ("igamma_.default", "binary"),
    ("igammac.default", "binary"), ("igammac_.default", "binary"),
    ("special_zeta.default", "binary"), ("special_zeta.self_scalar", "binary"),
    ("special_zeta.other_scalar", "binary"),
    ("atan2_.default", "binary"),
    ("copysign.Tensor", "binary"), ("copysign.Scalar", "binary"),
    ("copysign_.Tensor", "binary"), ("copysign_.Scalar", "binary"),
    ("hypot.default", "binary"), ("hypot_.default", "binary"),
    ("bitwise_and.Tensor", "binary"),
    ("bitwise_and.Scalar", "binary"),
    ("bitwise_and_.Tensor", "binary"),
    ("bitwise_and_.Scalar", "binary"),
    ("bitwise_or.Tensor", "binary"),
    ("bitwise_or.Scalar", "binary"),
    ("bitwise_or_.Tensor", "binary"),
    ("bitwise_or_.Scalar", "binary"),
    ("bitwise_xor.Tensor", "binary"),
    ("bitwise_xor.Scalar", "binary"),
    ("bitwise_xor_.Tensor", "binary"),
    ("bitwise_xor_.Scalar", "binary"),
    ("eq_.Tensor", "compare"), ("eq_.Scalar", "compare"),
    ("ne_.Tensor", "compare"), ("ne_.Scalar", "compare"),
    ("lt_.Tensor", "compare"), ("lt_.Scalar", "compare"),
    ("le_.Tensor", "compare"), ("le_.Scalar", "compare"),
    ("gt_.Tensor", "compare"), ("gt_.Scalar", "compare"),
    ("ge_.Tensor", "compare"), ("ge_.Scalar", "compare"),
    ("logical_and_.default", "compare"), ("logical_or_.default", "compare"),
    ("logical_xor_.default", "compare"),
    ("where.self", "where"), ("where.ScalarSelf", "where"),
    ("where.ScalarOther", "where"), ("where.Scalar", "where"),
    ("clamp.default", "clamp"), ("clamp.Tensor", "clamp"),
    ("clamp_.default", "clamp"), ("clamp_.Tensor", "clamp"),
    ("clamp_min.default", "clamp"), ("clamp_min.Tensor", "clamp"),
    ("clamp_min_.default", "clamp"), ("clamp_min_.Tensor", "clamp"),
    ("clamp_max.default", "clamp"), ("clamp_max.Tensor", "clamp"),
    ("clamp_max_.default", "clamp"), ("clamp_max_.Tensor", "clamp"),
    ("masked_fill.Scalar", "masked_fill"), ("masked_fill.Tensor", "masked_fill"),
    ("masked_fill_.Scalar", "masked_fill"), ("masked_fill_.Tensor", "masked_fill"),
    # reductions
    ("std.correction", "reduce"), ("logsumexp.default", "reduce"),
    ("norm.ScalarOpt_dim", "reduce"), ("linalg_vector_norm.default", "reduce"),
    ("sum.default", "reduce"), ("sum.dim_IntList", "reduce"),
    ("mean.default", "reduce"), ("mean.dim", "reduce"),
    ("prod.default", "reduce"), ("prod.dim_int", "reduce"),
    ("amax.default", "reduce"), ("amin.default", "reduce"),
    ("argmax.default", "reduce"), ("argmin.default", "reduce"),
    ("any.default", "reduce"), ("any.dim", "reduce"),
    ("all.default", "reduce"), ("all.dim", "reduce"),
    ("max.default", "reduce"), ("min.default", "reduce"),
    ("max.dim", "reduce"), ("min.dim", "reduce"),
    ("var.default", "reduce"), ("var.dim", "reduce"), ("var.correction", "reduce"),
    ("var_mean.correction", "reduce"), ("std_mean.correction", "reduce"),
    ("nansum.default", "reduce"), ("aminmax.default", "reduce"),
    ("count_nonzero.default", "reduce"), ("count_nonzero.dim_IntList", "reduce"),
    ("histc.default", "histc"),
    ("cumsum.default", "cumsum"), ("cumprod.default", "cumsum"),
    ("cummax.default", "scan"), ("cummin.default", "scan"), ("logcumsumexp.default", "scan"),
    # views and reshapes
    ("view.default", "view"), ("reshape.default", "view"),
    ("_unsafe_view.default", "view"),
    ("_reshape_alias.default", "as_strided"), ("as_strided.default", "as_strided"),
    ("permute.default", "permute"), ("transpose.int", "transpose"),
    ("t.default", "transpose"),
    ("expand.default", "expand"),
    ("squeeze.default", "squeeze"), ("squeeze.dim", "squeeze"),
    ("unsqueeze.default", "unsqueeze"),
    ("squeeze_.default", "squeeze"), ("squeeze_.dim", "squeeze"),
    ("unsqueeze_.default", "unsqueeze"), ("t_.default", "transpose"),
    ("transpose_.default", "transpose"),
    ("slice.Tensor", "slice"), ("select.int", "select"),
    ("split.Tensor", "split"), ("split_with_sizes.default", "split"),
    ("unbind.int", "split"),
    ("unsafe_split.Tensor", "split"), ("unsafe_split_with_sizes.default", "split"),
    ("unfold.default", "unfold"), ("diagonal.default", "diagonal"),
    ("diag_embed.default", "diag_embed"), ("diag.default", "diag"), ("trace.default", "trace"),
    ("eye.default", "create"), ("eye.m", "create"), ("linspace.default", "create"),
    ("tril_indices.default", "create"), ("triu_indices.default", "create"),
    ("logspace.default", "create"),
    ("detach.default", "alias"), ("alias.default", "alias"),
    ("lift_fresh.default", "alias"),
    # matmul, conv, pooling
    ("mm.default", "mm"), ("bmm.default", "mm"), ("addmm.default", "mm"),
    ("baddbmm.default", "mm"), ("mv.default", "mv"), ("dot.default", "mv"),
    ("addbmm.default", "mm"), ("addmv.default", "addmv"), ("addr.default", "addr"),
    ("linear.default", "linear"), ("matmul.default", "matmul"),
    ("convolution.default", "convolution"),
    ("im2col.default", "fold"), ("col2im.default", "fold"),
    ("max_pool2d_with_indices.default", "pool2d"), ("avg_pool2d.default", "pool2d"),
    ("adaptive_avg_pool2d.default", "adaptive_pool2d"),
    ("_adaptive_avg_pool2d.default", "adaptive_pool2d"),
    ("adaptive_max_pool2d.default", "adaptive_pool2d"),
    ("max_pool3d_with_indices.default", "pool2d"), ("avg_pool3d.default", "pool2d"),
    ("_adaptive_avg_pool3d.default", "adaptive_pool2d"),
    ("adaptive_max_pool3d.default", "adaptive_pool2d"),
    ("max_unpool2d.default", "max_unpool"), ("max_unpool3d.default", "max_unpool"),
    ("upsample_nearest2d.vec", "upsample2d"), ("upsample_bilinear2d.vec", "upsample2d"),
    ("upsample_nearest2d.default", "upsample2d"), ("upsample_bilinear2d.default", "upsample2d"),
    ("grid_sampler_2d.default", "grid_sampler"),
    ("grid_sampler_3d.default", "grid_sampler_3d"),
    ("fractional_max_pool2d.default", "fractional_max_pool"),
    ("fractional_max_pool3d.default", "fractional_max_pool"),
    ("_ctc_loss.default", "ctc_loss"), ("_ctc_loss.Tensor", "ctc_loss"),
    ("affine_grid_generator.default", "affine_grid"),
    ("upsample_bicubic2d.vec", "upsample2d"), ("upsample_bicubic2d.default", "upsample2d"),
    ("upsample_nearest1d.vec", "upsample2d"), ("upsample_linear1d.vec", "upsample2d"),
    ("upsample_nearest1d.default", "upsample2d"), ("upsample_linear1d.default", "upsample2d"),
    ("upsample_nearest3d.vec", "upsample2d"), ("upsample_trilinear3d.vec", "upsample2d"),
    ("upsample_nearest3d.default", "upsample2d"), ("upsample_trilinear3d.default", "upsample2d"),
    ("_upsample_nearest_exact1d.vec", "upsample2d"),
    ("_upsample_nearest_exact1d.default", "upsample2d"),
    ("_upsample_nearest_exact2d.vec", "upsample2d"),
    ("_upsample_nearest_exact2d.default", "upsample2d"),
    ("_upsample_nearest_exact3d.vec", "upsample2d"),
    ("_upsample_nearest_exact3d.default", "upsample2d"),
    ("_upsample_bilinear2d_aa.vec", "upsample2d"), ("_upsample_bilinear2d_aa.default", "upsample2d"),
    ("_upsample_bicubic2d_aa.vec", "upsample2d"), ("_upsample_bicubic2d_aa.default", "upsample2d"),
    # softmax, norms
    ("_softmax.default", "softmax"), ("_log_softmax.default", "softmax"),
    ("softmax.int", "softmax"), ("log_softmax.int", "softmax"),
    ("native_layer_norm.default", "layer_norm"),
    ("native_batch_norm.default", "batch_norm"), ("native_group_norm.default", "group_norm"),
    ("_weight_norm_interface.default", "weight_norm"),
    # linear algebra on LAPACK
    ("linalg_inv_ex.default", "lapack"), ("_linalg_det.default", "lapack"),
    ("_linalg_slogdet.default", "lapack"), ("linalg_cholesky_ex.default", "lapack"),
    ("cholesky.default", "lapack"), ("cholesky_inverse.default", "lapack"),
    ("cholesky_solve.default", "lapack"), ("linalg_lu_factor_ex.default", "lapack"),
    ("linalg_lu.default", "lapack"), ("_linalg_solve_ex.default", "lapack"),
    ("_linalg_eigh.default", "lapack"), ("_linalg_svd.default", "lapack"),
    ("linalg_qr.default", "lapack"), ("linalg_pinv.atol_rtol_tensor", "lapack"), ("linalg_solve_triangular.default", "lapack"),
    ("triangular_solve.default", "lapack"),
    ("_linalg_check_errors.default", "linalg_check_errors"),
    # the fused inference attention of torch's "fast path"
    ("_native_multi_head_attention.default", "multi_head_attention"),
    ("_transformer_encoder_layer_fwd.default", "transformer_encoder_layer"),
    # sorting
    ("sort.default", "sort"), ("sort.stable", "sort"), ("argsort.stable", "sort"), ("topk.default", "topk"),
    ("median.default", "pick"), ("median.dim", "pick"), ("nanmedian.default", "pick"),
    ("nanmedian.dim", "pick"), ("kthvalue.default", "pick"),
    # copies
    ("clone.default", "copy"), ("copy.default", "copy"), ("copy_.default", "copy"),
    ("_to_copy.default", "copy"), ("to.dtype", "copy"), ("to.dtype_layout", "copy"),
    ("to.device", "copy"), ("contiguous.default", "copy"),
    ("lift_fresh_copy.default", "copy"),
    ("fill.Scalar", "copy"), ("fill_.Scalar", "copy"), ("zero_.default", "copy"),
    ("ones_like.default", "copy"), ("zeros_like.default", "copy"),
    ("empty_like.default", "copy"), ("full_like.default", "copy"),
    ("tril.default", "copy"), ("triu.default", "copy"),
    ("tril_.default", "copy"), ("triu_.default", "copy"),
    ("repeat.default", "repeat"), ("flip.default", "flip"),
    ("pixel_shuffle.default", "pixel_shuffle"), ("roll.default", "roll"),
    ("pixel_unshuffle.default", "pixel_shuffle"),
    ("reflection_pad2d.default", "pad2d"), ("replication_pad2d.default", "pad2d"),
    ("reflection_pad1d.default", "pad2d"), ("replication_pad1d.default", "pad2d"),
    ("reflection_pad3d.default", "pad2d"), ("replication_pad3d.default", "pad2d"),
    # creation
    ("full.default", "create"), ("zeros.default", "create"), ("ones.default", "create"),
    ("empty.memory_format", "create"), ("scalar_tensor.default", "create"),
    ("arange.default", "create"), ("arange.start", "create"),
    ("arange.start_step", "create"),
    ("new_zeros.default", "create"), ("new_ones.default", "create"),
    ("new_empty.default", "create"), ("new_full.default", "create"),
    ("empty_strided.default", "create"), ("new_empty_strided.default", "create"),
    # joining, indexing
    ("cat.default", "cat"), ("stack.default", "cat"),
    ("index_select.default", "index_select"), ("gather.default", "gather"),
    ("index.Tensor", "index"), ("index_put.default", "index_put"),
    ("index_put_.default", "index_put"),
    ("mse_loss.default", "pointwise_loss"), ("smooth_l1_loss.default", "pointwise_loss"),
    ("huber_loss.default", "pointwise_loss"), ("binary_cross_entropy.default", "bce"),
    ("soft_margin_loss.default", "soft_margin_loss"),
    ("multi_margin_loss.default", "multi_margin_loss"),
    ("multilabel_margin_loss_forward.default", "multilabel_margin_loss"),
    ("binary_cross_entropy_with_logits.default", "bce_logits"),
    ("nll_loss_forward.default", "nll_loss"), ("nll_loss2d_forward.default", "nll_loss"),
    ("channel_shuffle.default", "channel_shuffle"), ("_cdist_forward.default", "cdist"),
    ("_euclidean_dist.default", "cdist"), ("_pdist_forward.default", "pdist"),
    ("linalg_cross.default", "cross"),
    ("scatter.src", "scatter"), ("scatter.value", "scatter"), ("scatter_add.default", "scatter"),
    ("scatter_.src", "scatter"), ("scatter_.value", "scatter"),
    ("scatter_add_.default", "scatter"),
    ("scatter_reduce.two", "scatter"), ("scatter_reduce_.two", "scatter"),
    ("index_copy.default", "index_copy"), ("index_copy_.default", "index_copy"),
    ("index_add.default", "index_copy"), ("index_add_.default", "index_copy"),
    ("index_fill.int_Scalar", "index_fill"), ("index_fill.int_Tensor", "index_fill"),
    ("index_fill_.int_Scalar", "index_fill"), ("index_fill_.int_Tensor", "index_fill"),
    ("take.default", "take"), ("rot90.default", "rot90"),
    ("masked_scatter.default", "masked_scatter"),
    ("bucketize.Tensor", "search"), ("bucketize.Scalar", "search"),
    ("searchsorted.Tensor", "search"), ("searchsorted.Scalar", "search"),
    ("embedding.default", "embedding"), ("constant_pad_nd.default", "constant_pad_nd"),
    ("_embedding_bag.default", "embedding_bag"),
    ("_embedding_bag_forward_only.default", "embedding_bag"),
    ("embedding_renorm.default", "embedding_renorm"),
    ("embedding_renorm_.default", "embedding_renorm"),
    ("_trilinear.default", "trilinear"),
    ("rrelu_with_noise.default", "rrelu_with_noise"), ("frexp.Tensor", "frexp"),
    ("mvlgamma.default", "mvlgamma"), ("mode.default", "pick"), ("renorm.default", "renorm"),
    ("index_reduce.default", "index_reduce"), ("put.default", "put"),
    ("block_diag.default", "block_diag"), ("histogram.bin_ct", "histogram"),
    ("histogram.bins_tensor", "histogram"), ("segment_reduce.default", "segment_reduce"),
    ("isin.Tensor_Tensor", "isin"), ("isin.Tensor_Scalar", "isin"), ("isin.Scalar_Tensor", "isin"),
    ("slice_scatter.default", "scatter_view"), ("select_scatter.default", "scatter_view"),
    ("diagonal_scatter.default", "diagonal_scatter"),
    ("as_strided_scatter.default", "as_strided_scatter"),
    ("fake_quantize_per_tensor_affine_cachemask.default", "fake_quantize"),
    ("_fake_quantize_per_tensor_affine_cachemask_tensor_qparams.default", "fake_quantize"),
    ("fake_quantize_per_channel_affine_cachemask.default", "fake_quantize"),
    ("_fake_quantize_learnable_per_tensor_affine.default", "fake_quantize"),
    ("_fake_quantize_learnable_per_channel_affine.default", "fake_quantize"),
    ("_histogramdd_bin_edges.default", "histogramdd"),
    ("_histogramdd_from_bin_cts.default", "histogramdd"),
    ("_histogramdd_from_bin_tensors.default", "histogramdd"),
]

# Ops whose result is always a view of their input (never a copy).
# unsafe_split's schema declares no alias, but torch's kernel returns views
# of self (what "unsafe" means: autograd does not track them), so a graph
# that writes one of them writes self in torch too.
VIEWS = {"view.default", "_reshape_alias.default", "as_strided.default", "permute.default",
         "transpose.int", "t.default", "expand.default", "squeeze.default", "squeeze.dim",
         "unsqueeze.default", "slice.Tensor", "select.int", "split.Tensor",
         "split_with_sizes.default", "unbind.int", "detach.default", "alias.default",
         "lift_fresh.default", "squeeze_.default", "squeeze_.dim", "unsqueeze_.default",
         "t_.default", "transpose_.default", "unsafe_split.Tensor", "unfold.default",
         "diagonal.default",
         "unsafe_split_with_sizes.default"}

EXTRA = [
    ("operator.getitem", "operator::getitem(Any self, int idx) -> Any", "AIRC_OP_PURE", "getitem"),
    ("air.scope_enter.default",
     "air::scope_enter(str[] keys, str[] values, bool need_execute=False) -> ()",
     "AIRC_OP_SIDE_EFFECT", "air"),
    ("air.scope_exit.default", "air::scope_exit(bool need_execute=False) -> ()",
     "AIRC_OP_SIDE_EFFECT", "air"),
    ("air.record.default", "air::record(*, Device? device=None) -> Tensor",
     "AIRC_OP_SIDE_EFFECT", "air"),
    ("air.wait.default", "air::wait(Tensor[] x) -> ()", "AIRC_OP_SIDE_EFFECT", "air"),
]


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    rows = []
    for spec, meta in ATEN:
        name, overload = spec.split(".")
        schema = getattr(getattr(A, name), overload)._schema
        text = str(schema)
        flags = []
        # a written argument, or nothing returned (an assertion)
        if any(a.alias_info is not None and a.alias_info.is_write for a in schema.arguments) \
                or not schema.returns:
            flags.append("AIRC_OP_SIDE_EFFECT")
        if spec in VIEWS:
            flags.append("AIRC_OP_VIEW")
        qual = "aten.%s.%s" % (name, overload)
        rows.append((qual, text, " | ".join(flags) or "AIRC_OP_PURE", meta))
    rows += EXTRA
    rows.sort(key=lambda r: r[0].encode())
    names = [r[0] for r in rows]
    if len(set(names)) != len(names):
        sys.exit("duplicate op in the table")
    metas = sorted({r[3] for r in rows})

    out = []
    out.append("/* The built-in op table, sorted by qualname (strcmp order).\n"
               " * Generated by tests/gen_builtin_table.py from PyTorch 1.13's schemas;\n"
               " * regenerate rather than edit. */\n")
    out.append('#include "ops/meta_util.h"\n#include "ops/ops.h"\n\n')
    out.append("const airc_builtin_op airc_builtin_ops[] = {\n")
    for qual, text, flags, meta in rows:
        out.append("    {%s,\n     %s,\n     %s, airc_meta_%s},\n"
                   % (c_string(qual), c_string(text), flags, meta))
    out.append("};\n\nconst size_t airc_num_builtin_ops = sizeof(airc_builtin_ops) / "
               "sizeof(airc_builtin_ops[0]);\n")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.path.join(root, "src", "ops", "builtin_ops.c")
    with open(path, "w") as f:
        f.write("".join(out))
    print("wrote %s: %d ops; meta functions: %s" % (path, len(rows), " ".join(metas)))


if __name__ == "__main__":
    main()
