graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %w_1 : [#users=1] = placeholder[target=w_1]
    %bias_1 : [#users=1] = placeholder[target=bias_1]
    %convolution : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%x_1, %w_1, %bias_1, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%convolution,), kwargs = {})
    %max_pool2d_with_indices : [#users=2] = call_function[target=torch.ops.aten.max_pool2d_with_indices.default](args = (%relu, [2, 2]), kwargs = {})
    %getitem : [#users=2] = call_function[target=operator.getitem](args = (%max_pool2d_with_indices, 0), kwargs = {})
    %getitem_1 : [#users=0] = call_function[target=operator.getitem](args = (%max_pool2d_with_indices, 1), kwargs = {})
    %avg_pool2d : [#users=1] = call_function[target=torch.ops.aten.avg_pool2d.default](args = (%getitem, [2, 2]), kwargs = {})
    %mean : [#users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%getitem, [-1, -2], True), kwargs = {})
    return (avg_pool2d, mean)
