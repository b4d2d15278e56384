graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %w1_1 : [#users=1] = placeholder[target=w1_1]
    %b1_1 : [#users=1] = placeholder[target=b1_1]
    %ws1_1 : [#users=1] = placeholder[target=ws1_1]
    %wz1_1 : [#users=1] = placeholder[target=wz1_1]
    %s_in_1 : [#users=1] = placeholder[target=s_in_1]
    %z_in_1 : [#users=1] = placeholder[target=z_in_1]
    %s1_1 : [#users=1] = placeholder[target=s1_1]
    %z1_1 : [#users=1] = placeholder[target=z1_1]
    %w2_1 : [#users=1] = placeholder[target=w2_1]
    %b2_1 : [#users=1] = placeholder[target=b2_1]
    %ws2_1 : [#users=1] = placeholder[target=ws2_1]
    %wz2_1 : [#users=1] = placeholder[target=wz2_1]
    %s2_1 : [#users=1] = placeholder[target=s2_1]
    %z2_1 : [#users=1] = placeholder[target=z2_1]
    %ls_1 : [#users=1] = placeholder[target=ls_1]
    %lz_1 : [#users=1] = placeholder[target=lz_1]
    %ones : [#users=1] = call_function[target=torch.ops.aten.ones.default](args = ([1],), kwargs = {dtype: torch.int64, layout: torch.strided, device: cpu})
    %_fake_quantize_per_tensor_affine_cachemask_tensor_qparams : [#users=2] = call_function[target=torch.ops.aten._fake_quantize_per_tensor_affine_cachemask_tensor_qparams.default](args = (%x_1, %s_in_1, %z_in_1, %ones, 0, 255), kwargs = {})
    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%_fake_quantize_per_tensor_affine_cachemask_tensor_qparams, 0), kwargs = {})
    %getitem_1 : [#users=0] = call_function[target=operator.getitem](args = (%_fake_quantize_per_tensor_affine_cachemask_tensor_qparams, 1), kwargs = {})
    %fake_quantize_per_channel_affine_cachemask : [#users=2] = call_function[target=torch.ops.aten.fake_quantize_per_channel_affine_cachemask.default](args = (%w1_1, %ws1_1, %wz1_1, 0, -128, 127), kwargs = {})
    %getitem_2 : [#users=1] = call_function[target=operator.getitem](args = (%fake_quantize_per_channel_affine_cachemask, 0), kwargs = {})
    %getitem_3 : [#users=0] = call_function[target=operator.getitem](args = (%fake_quantize_per_channel_affine_cachemask, 1), kwargs = {})
    %convolution : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%getitem, %getitem_2, %b1_1, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%convolution,), kwargs = {})
    %ones_1 : [#users=1] = call_function[target=torch.ops.aten.ones.default](args = ([1],), kwargs = {dtype: torch.int64, layout: torch.strided, device: cpu})
    %_fake_quantize_per_tensor_affine_cachemask_tensor_qparams_1 : [#users=2] = call_function[target=torch.ops.aten._fake_quantize_per_tensor_affine_cachemask_tensor_qparams.default](args = (%relu, %s1_1, %z1_1, %ones_1, 0, 255), kwargs = {})
    %getitem_4 : [#users=1] = call_function[target=operator.getitem](args = (%_fake_quantize_per_tensor_affine_cachemask_tensor_qparams_1, 0), kwargs = {})
    %getitem_5 : [#users=0] = call_function[target=operator.getitem](args = (%_fake_quantize_per_tensor_affine_cachemask_tensor_qparams_1, 1), kwargs = {})
    %mean : [#users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%getitem_4, [2, 3]), kwargs = {})
    %fake_quantize_per_channel_affine_cachemask_1 : [#users=2] = call_function[target=torch.ops.aten.fake_quantize_per_channel_affine_cachemask.default](args = (%w2_1, %ws2_1, %wz2_1, 0, -128, 127), kwargs = {})
    %getitem_6 : [#users=1] = call_function[target=operator.getitem](args = (%fake_quantize_per_channel_affine_cachemask_1, 0), kwargs = {})
    %getitem_7 : [#users=0] = call_function[target=operator.getitem](args = (%fake_quantize_per_channel_affine_cachemask_1, 1), kwargs = {})
    %t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%getitem_6,), kwargs = {})
    %addmm : [#users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%b2_1, %mean, %t), kwargs = {})
    %ones_2 : [#users=1] = call_function[target=torch.ops.aten.ones.default](args = ([1],), kwargs = {dtype: torch.int64, layout: torch.strided, device: cpu})
    %_fake_quantize_per_tensor_affine_cachemask_tensor_qparams_2 : [#users=2] = call_function[target=torch.ops.aten._fake_quantize_per_tensor_affine_cachemask_tensor_qparams.default](args = (%addmm, %s2_1, %z2_1, %ones_2, -128, 127), kwargs = {})
    %getitem_8 : [#users=3] = call_function[target=operator.getitem](args = (%_fake_quantize_per_tensor_affine_cachemask_tensor_qparams_2, 0), kwargs = {})
    %getitem_9 : [#users=0] = call_function[target=operator.getitem](args = (%_fake_quantize_per_tensor_affine_cachemask_tensor_qparams_2, 1), kwargs = {})
    %fake_quantize_per_tensor_affine_cachemask : [#users=2] = call_function[target=torch.ops.aten.fake_quantize_per_tensor_affine_cachemask.default](args = (%getitem_8, 0.0625, 0, -128, 127), kwargs = {})
    %getitem_10 : [#users=1] = call_function[target=operator.getitem](args = (%fake_quantize_per_tensor_affine_cachemask, 0), kwargs = {})
    %getitem_11 : [#users=0] = call_function[target=operator.getitem](args = (%fake_quantize_per_tensor_affine_cachemask, 1), kwargs = {})
    %_fake_quantize_learnable_per_tensor_affine : [#users=1] = call_function[target=torch.ops.aten._fake_quantize_learnable_per_tensor_affine.default](args = (%getitem_8, %ls_1, %lz_1, 0, 255), kwargs = {})
    return (getitem_8, getitem_10, _fake_quantize_learnable_per_tensor_affine)
