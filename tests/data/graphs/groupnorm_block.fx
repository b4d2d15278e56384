graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %g_1 : [#users=1] = placeholder[target=g_1]
    %b_1 : [#users=1] = placeholder[target=b_1]
    %w_1 : [#users=1] = placeholder[target=w_1]
    %y_1 : [#users=1] = placeholder[target=y_1]
    %native_group_norm : [#users=3] = call_function[target=torch.ops.aten.native_group_norm.default](args = (%x_1, %g_1, %b_1, 2, 8, 36, 4, 1e-05), kwargs = {})
    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%native_group_norm, 0), kwargs = {})
    %getitem_1 : [#users=0] = call_function[target=operator.getitem](args = (%native_group_norm, 1), kwargs = {})
    %getitem_2 : [#users=0] = call_function[target=operator.getitem](args = (%native_group_norm, 2), kwargs = {})
    %silu : [#users=1] = call_function[target=torch.ops.aten.silu.default](args = (%getitem,), kwargs = {})
    %convolution : [#users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%silu, %w_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%convolution, %x_1), kwargs = {})
    %native_group_norm_1 : [#users=3] = call_function[target=torch.ops.aten.native_group_norm.default](args = (%y_1, None, None, 3, 4, 5, 2, 1e-05), kwargs = {})
    %getitem_3 : [#users=1] = call_function[target=operator.getitem](args = (%native_group_norm_1, 0), kwargs = {})
    %getitem_4 : [#users=0] = call_function[target=operator.getitem](args = (%native_group_norm_1, 1), kwargs = {})
    %getitem_5 : [#users=0] = call_function[target=operator.getitem](args = (%native_group_norm_1, 2), kwargs = {})
    return (add, getitem_3)
