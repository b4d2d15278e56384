graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %w1_1 : [#users=1] = placeholder[target=w1_1]
    %s1_1 : [#users=1] = placeholder[target=s1_1]
    %t1_1 : [#users=1] = placeholder[target=t1_1]
    %w2_1 : [#users=1] = placeholder[target=w2_1]
    %s2_1 : [#users=1] = placeholder[target=s2_1]
    %t2_1 : [#users=1] = placeholder[target=t2_1]
    %wp_1 : [#users=1] = placeholder[target=wp_1]
    %fc_w_1 : [#users=1] = placeholder[target=fc_w_1]
    %fc_b_1 : [#users=1] = placeholder[target=fc_b_1]
    %convolution : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%x_1, %w1_1, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
    %view : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%s1_1, [1, -1, 1, 1]), kwargs = {})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convolution, %view), kwargs = {})
    %view_1 : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%t1_1, [1, -1, 1, 1]), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul, %view_1), kwargs = {})
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%add,), kwargs = {})
    %convolution_1 : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%relu, %w2_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
    %view_2 : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%s2_1, [1, -1, 1, 1]), kwargs = {})
    %mul_1 : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convolution_1, %view_2), kwargs = {})
    %view_3 : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%t2_1, [1, -1, 1, 1]), kwargs = {})
    %add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_1, %view_3), kwargs = {})
    %convolution_2 : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%x_1, %wp_1, None, [2, 2], [0, 0], [1, 1], False, [0, 0], 1), kwargs = {})
    %add_2 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_1, %convolution_2), kwargs = {})
    %relu_1 : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%add_2,), kwargs = {})
    %max_pool2d_with_indices : [#users=2] = call_function[target=torch.ops.aten.max_pool2d_with_indices.default](args = (%relu_1, [2, 2]), kwargs = {})
    %getitem : [#users=2] = call_function[target=operator.getitem](args = (%max_pool2d_with_indices, 0), kwargs = {})
    %getitem_1 : [#users=0] = call_function[target=operator.getitem](args = (%max_pool2d_with_indices, 1), kwargs = {})
    %mean : [#users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%getitem, [-1, -2], True), kwargs = {})
    %_reshape_alias : [#users=1] = call_function[target=torch.ops.aten._reshape_alias.default](args = (%mean, [2, 16], [16, 1]), kwargs = {})
    %t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%fc_w_1,), kwargs = {})
    %addmm : [#users=2] = call_function[target=torch.ops.aten.addmm.default](args = (%fc_b_1, %_reshape_alias, %t), kwargs = {})
    %_log_softmax : [#users=1] = call_function[target=torch.ops.aten._log_softmax.default](args = (%addmm, 1, False), kwargs = {})
    return (addmm, _log_softmax, getitem)
