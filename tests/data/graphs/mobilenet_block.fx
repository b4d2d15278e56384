graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %w1_1 : [#users=1] = placeholder[target=w1_1]
    %rm_1 : [#users=1] = placeholder[target=rm_1]
    %rv_1 : [#users=1] = placeholder[target=rv_1]
    %g_1 : [#users=1] = placeholder[target=g_1]
    %b_1 : [#users=1] = placeholder[target=b_1]
    %wd_1 : [#users=1] = placeholder[target=wd_1]
    %wse1_1 : [#users=1] = placeholder[target=wse1_1]
    %wse2_1 : [#users=1] = placeholder[target=wse2_1]
    %convolution : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%x_1, %w1_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1), kwargs = {})
    %empty : [#users=0] = call_function[target=torch.ops.aten.empty.memory_format](args = ([0],), kwargs = {dtype: torch.uint8, layout: torch.strided, device: cpu})
    %native_batch_norm : [#users=3] = call_function[target=torch.ops.aten.native_batch_norm.default](args = (%convolution, %g_1, %b_1, %rm_1, %rv_1, False, 0.1, 1e-05), kwargs = {})
    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%native_batch_norm, 0), kwargs = {})
    %getitem_1 : [#users=0] = call_function[target=operator.getitem](args = (%native_batch_norm, 1), kwargs = {})
    %getitem_2 : [#users=0] = call_function[target=operator.getitem](args = (%native_batch_norm, 2), kwargs = {})
    %hardswish : [#users=1] = call_function[target=torch.ops.aten.hardswish.default](args = (%getitem,), kwargs = {})
    %convolution_1 : [#users=2] = call_function[target=torch.ops.aten.convolution.default](args = (%hardswish, %wd_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 8), kwargs = {})
    %mean : [#users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%convolution_1, [-1, -2], True), kwargs = {})
    %convolution_2 : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%mean, %wse1_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1), kwargs = {})
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%convolution_2,), kwargs = {})
    %convolution_3 : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%relu, %wse2_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1), kwargs = {})
    %hardsigmoid : [#users=1] = call_function[target=torch.ops.aten.hardsigmoid.default](args = (%convolution_3,), kwargs = {})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convolution_1, %hardsigmoid), kwargs = {})
    return mul
