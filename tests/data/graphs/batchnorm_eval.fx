graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %w_1 : [#users=1] = placeholder[target=w_1]
    %rm_1 : [#users=1] = placeholder[target=rm_1]
    %rv_1 : [#users=1] = placeholder[target=rv_1]
    %g_1 : [#users=1] = placeholder[target=g_1]
    %b_1 : [#users=1] = placeholder[target=b_1]
    %y_1 : [#users=1] = placeholder[target=y_1]
    %rm1_1 : [#users=1] = placeholder[target=rm1_1]
    %rv1_1 : [#users=1] = placeholder[target=rv1_1]
    %convolution : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%x_1, %w_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
    %empty : [#users=0] = call_function[target=torch.ops.aten.empty.memory_format](args = ([0],), kwargs = {dtype: torch.uint8, layout: torch.strided, device: cpu})
    %native_batch_norm : [#users=3] = call_function[target=torch.ops.aten.native_batch_norm.default](args = (%convolution, %g_1, %b_1, %rm_1, %rv_1, False, 0.1, 0.001), kwargs = {})
    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%native_batch_norm, 0), kwargs = {})
    %getitem_1 : [#users=0] = call_function[target=operator.getitem](args = (%native_batch_norm, 1), kwargs = {})
    %getitem_2 : [#users=0] = call_function[target=operator.getitem](args = (%native_batch_norm, 2), kwargs = {})
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%getitem,), kwargs = {})
    %empty_1 : [#users=0] = call_function[target=torch.ops.aten.empty.memory_format](args = ([0],), kwargs = {dtype: torch.uint8, layout: torch.strided, device: cpu})
    %native_batch_norm_1 : [#users=3] = call_function[target=torch.ops.aten.native_batch_norm.default](args = (%y_1, None, None, %rm1_1, %rv1_1, False, 0.1, 1e-05), kwargs = {})
    %getitem_3 : [#users=1] = call_function[target=operator.getitem](args = (%native_batch_norm_1, 0), kwargs = {})
    %getitem_4 : [#users=0] = call_function[target=operator.getitem](args = (%native_batch_norm_1, 1), kwargs = {})
    %getitem_5 : [#users=0] = call_function[target=operator.getitem](args = (%native_batch_norm_1, 2), kwargs = {})
    return (relu, getitem_3)
