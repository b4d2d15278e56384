graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %wt_1 : [#users=1] = placeholder[target=wt_1]
    %bt_1 : [#users=1] = placeholder[target=bt_1]
    %wg_1 : [#users=1] = placeholder[target=wg_1]
    %w_1 : [#users=1] = placeholder[target=w_1]
    %z_1 : [#users=1] = placeholder[target=z_1]
    %wt1_1 : [#users=1] = placeholder[target=wt1_1]
    %convolution : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%x_1, %wt_1, %bt_1, [2, 2], [1, 1], [1, 1], True, [1, 1], 1), kwargs = {})
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%convolution,), kwargs = {})
    %convolution_1 : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%relu, %w_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
    %convolution_2 : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%x_1, %wg_1, None, [2, 1], [0, 1], [1, 2], True, [0, 0], 2), kwargs = {})
    %convolution_3 : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%z_1, %wt1_1, None, [3], [0], [1], True, [2], 1), kwargs = {})
    return (convolution_1, convolution_2, convolution_3)
