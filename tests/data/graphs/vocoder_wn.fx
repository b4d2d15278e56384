graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %v1_1 : [#users=1] = placeholder[target=v1_1]
    %g1_1 : [#users=1] = placeholder[target=g1_1]
    %v2_1 : [#users=1] = placeholder[target=v2_1]
    %g2_1 : [#users=1] = placeholder[target=g2_1]
    %y_1 : [#users=1] = placeholder[target=y_1]
    %img_1 : [#users=1] = placeholder[target=img_1]
    %_weight_norm_interface : [#users=2] = call_function[target=torch.ops.aten._weight_norm_interface.default](args = (%v1_1, %g1_1), kwargs = {})
    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%_weight_norm_interface, 0), kwargs = {})
    %getitem_1 : [#users=0] = call_function[target=operator.getitem](args = (%_weight_norm_interface, 1), kwargs = {})
    %convolution : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%x_1, %getitem, None, [1], [1], [1], False, [0], 1), kwargs = {})
    %leaky_relu : [#users=1] = call_function[target=torch.ops.aten.leaky_relu.default](args = (%convolution, 0.1), kwargs = {})
    %_weight_norm_interface_1 : [#users=2] = call_function[target=torch.ops.aten._weight_norm_interface.default](args = (%v2_1, %g2_1), kwargs = {})
    %getitem_2 : [#users=1] = call_function[target=operator.getitem](args = (%_weight_norm_interface_1, 0), kwargs = {})
    %getitem_3 : [#users=0] = call_function[target=operator.getitem](args = (%_weight_norm_interface_1, 1), kwargs = {})
    %convolution_1 : [#users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%leaky_relu, %getitem_2, None, [2], [0], [1], True, [0], 1), kwargs = {})
    %mean : [#users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%convolution_1, [1]), kwargs = {})
    %soft_margin_loss : [#users=1] = call_function[target=torch.ops.aten.soft_margin_loss.default](args = (%mean, %y_1), kwargs = {})
    %max_pool2d_with_indices : [#users=2] = call_function[target=torch.ops.aten.max_pool2d_with_indices.default](args = (%img_1, [2, 2]), kwargs = {})
    %getitem_4 : [#users=1] = call_function[target=operator.getitem](args = (%max_pool2d_with_indices, 0), kwargs = {})
    %getitem_5 : [#users=1] = call_function[target=operator.getitem](args = (%max_pool2d_with_indices, 1), kwargs = {})
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%getitem_4,), kwargs = {})
    %max_unpool2d : [#users=1] = call_function[target=torch.ops.aten.max_unpool2d.default](args = (%relu, %getitem_5, [6, 5]), kwargs = {})
    return (convolution_1, soft_margin_loss, max_unpool2d)
