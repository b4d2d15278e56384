graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %w_1 : [#users=1] = placeholder[target=w_1]
    %wt_1 : [#users=1] = placeholder[target=wt_1]
    %replication_pad3d : [#users=1] = call_function[target=torch.ops.aten.replication_pad3d.default](args = (%x_1, [1, 1, 1, 1, 1, 1]), kwargs = {})
    %convolution : [#users=5] = call_function[target=torch.ops.aten.convolution.default](args = (%replication_pad3d, %w_1, None, [1, 2, 2], [0, 0, 0], [1, 1, 1], False, [0, 0, 0], 1), kwargs = {})
    %max_pool3d_with_indices : [#users=2] = call_function[target=torch.ops.aten.max_pool3d_with_indices.default](args = (%convolution, [2, 2, 2]), kwargs = {})
    %getitem : [#users=2] = call_function[target=operator.getitem](args = (%max_pool3d_with_indices, 0), kwargs = {})
    %getitem_1 : [#users=1] = call_function[target=operator.getitem](args = (%max_pool3d_with_indices, 1), kwargs = {})
    %max_unpool3d : [#users=1] = call_function[target=torch.ops.aten.max_unpool3d.default](args = (%getitem, %getitem_1, [5, 4, 3], [2, 2, 2], [0, 0, 0]), kwargs = {})
    %max_pool3d_with_indices_1 : [#users=2] = call_function[target=torch.ops.aten.max_pool3d_with_indices.default](args = (%convolution, [2, 3, 2], [1, 1, 1], [0, 0, 0], [1, 1, 2], True), kwargs = {})
    %getitem_2 : [#users=1] = call_function[target=operator.getitem](args = (%max_pool3d_with_indices_1, 0), kwargs = {})
    %getitem_3 : [#users=0] = call_function[target=operator.getitem](args = (%max_pool3d_with_indices_1, 1), kwargs = {})
    %avg_pool3d : [#users=1] = call_function[target=torch.ops.aten.avg_pool3d.default](args = (%convolution, [1, 2, 2], [], [0, 1, 1], False, False), kwargs = {})
    %_adaptive_avg_pool3d : [#users=1] = call_function[target=torch.ops.aten._adaptive_avg_pool3d.default](args = (%convolution, [2, 3, 3]), kwargs = {})
    %adaptive_max_pool3d : [#users=2] = call_function[target=torch.ops.aten.adaptive_max_pool3d.default](args = (%convolution, [1, 2, 2]), kwargs = {})
    %getitem_4 : [#users=1] = call_function[target=operator.getitem](args = (%adaptive_max_pool3d, 0), kwargs = {})
    %getitem_5 : [#users=1] = call_function[target=operator.getitem](args = (%adaptive_max_pool3d, 1), kwargs = {})
    %upsample_trilinear3d : [#users=1] = call_function[target=torch.ops.aten.upsample_trilinear3d.vec](args = (%avg_pool3d, None, False, [1.0, 2.0, 2.0]), kwargs = {})
    %upsample_nearest3d : [#users=1] = call_function[target=torch.ops.aten.upsample_nearest3d.vec](args = (%_adaptive_avg_pool3d, [4, 6, 5], None), kwargs = {})
    %reflection_pad3d : [#users=1] = call_function[target=torch.ops.aten.reflection_pad3d.default](args = (%x_1, [1, 1, 2, 2, 1, 1]), kwargs = {})
    %convolution_1 : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%getitem, %wt_1, None, [2, 2, 2], [0, 0, 0], [1, 1, 1], True, [1, 0, 1], 1), kwargs = {})
    return (max_unpool3d, getitem_2, upsample_trilinear3d, upsample_nearest3d, getitem_4, getitem_5, reflection_pad3d, convolution_1)
