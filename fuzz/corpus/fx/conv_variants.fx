graph():
    %x_1 : [#users=11] = placeholder[target=x_1]
    %w1_1 : [#users=1] = placeholder[target=w1_1]
    %b1_1 : [#users=1] = placeholder[target=b1_1]
    %w2_1 : [#users=1] = placeholder[target=w2_1]
    %w3_1 : [#users=1] = placeholder[target=w3_1]
    %wd_1 : [#users=1] = placeholder[target=wd_1]
    %bd_1 : [#users=1] = placeholder[target=bd_1]
    %convolution : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%x_1, %w1_1, %b1_1, [2, 2], [1, 2], [1, 1], False, [0, 0], 1), kwargs = {})
    %convolution_1 : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%x_1, %w2_1, None, [1, 2], [2, 2], [2, 2], False, [0, 0], 2), kwargs = {})
    %convolution_2 : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%x_1, %w3_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1), kwargs = {})
    %convolution_3 : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%x_1, %wd_1, %bd_1, [1, 1], [1, 1], [1, 1], False, [0, 0], 4), kwargs = {})
    %max_pool2d_with_indices : [#users=2] = call_function[target=torch.ops.aten.max_pool2d_with_indices.default](args = (%x_1, [3, 3], [2, 2], [1, 1], [1, 1], True), kwargs = {})
    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%max_pool2d_with_indices, 0), kwargs = {})
    %getitem_1 : [#users=1] = call_function[target=operator.getitem](args = (%max_pool2d_with_indices, 1), kwargs = {})
    %max_pool2d_with_indices_1 : [#users=2] = call_function[target=torch.ops.aten.max_pool2d_with_indices.default](args = (%x_1, [2, 3], [2, 1], [0, 0], [1, 2]), kwargs = {})
    %getitem_2 : [#users=1] = call_function[target=operator.getitem](args = (%max_pool2d_with_indices_1, 0), kwargs = {})
    %getitem_3 : [#users=0] = call_function[target=operator.getitem](args = (%max_pool2d_with_indices_1, 1), kwargs = {})
    %avg_pool2d : [#users=1] = call_function[target=torch.ops.aten.avg_pool2d.default](args = (%x_1, [3, 3], [2, 2], [1, 1]), kwargs = {})
    %avg_pool2d_1 : [#users=1] = call_function[target=torch.ops.aten.avg_pool2d.default](args = (%x_1, [3, 3], [2, 2], [1, 1], True, False), kwargs = {})
    %avg_pool2d_2 : [#users=1] = call_function[target=torch.ops.aten.avg_pool2d.default](args = (%x_1, [2, 2], [], [0, 0], False, True, 3), kwargs = {})
    %_adaptive_avg_pool2d : [#users=1] = call_function[target=torch.ops.aten._adaptive_avg_pool2d.default](args = (%x_1, [3, 2]), kwargs = {})
    %mean : [#users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%x_1, [-1, -2], True), kwargs = {})
    return (convolution, convolution_1, convolution_2, convolution_3, getitem, getitem_1, getitem_2, avg_pool2d, avg_pool2d_1, avg_pool2d_2, _adaptive_avg_pool2d, mean)
