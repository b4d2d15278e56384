graph():
    %x_1 : f32[2, 6] [#users=4] = placeholder[target=x_1]
    %idx_1 : i64[3] [#users=1] = placeholder[target=idx_1]
    %max_1 : [#users=2] = call_function[target=torch.ops.aten.max.dim](args = (%x_1, 1, True), kwargs = {})
    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%max_1, 0), kwargs = {})
    %getitem_1 : [#users=1] = call_function[target=operator.getitem](args = (%max_1, 1), kwargs = {})
    %split : [#users=2] = call_function[target=torch.ops.aten.split.Tensor](args = (%x_1, 3, 1), kwargs = {})
    %getitem_2 : [#users=1] = call_function[target=operator.getitem](args = (%split, 0), kwargs = {})
    %getitem_3 : [#users=1] = call_function[target=operator.getitem](args = (%split, 1), kwargs = {})
    %native_layer_norm : [#users=3] = call_function[target=torch.ops.aten.native_layer_norm.default](args = (%getitem_2, [3], None, None, 1e-05), kwargs = {})
    %getitem_4 : [#users=1] = call_function[target=operator.getitem](args = (%native_layer_norm, 0), kwargs = {})
    %getitem_5 : [#users=1] = call_function[target=operator.getitem](args = (%native_layer_norm, 1), kwargs = {})
    %getitem_6 : [#users=1] = call_function[target=operator.getitem](args = (%native_layer_norm, 2), kwargs = {})
    %sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.default](args = (%getitem_4,), kwargs = {})
    %gt : [#users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%x_1, 0.5), kwargs = {})
    %index_select : [#users=1] = call_function[target=torch.ops.aten.index_select.default](args = (%x_1, 0, %idx_1), kwargs = {})
    return (getitem, getitem_1, getitem_3, getitem_5, getitem_6, sum_1, gt, index_select)
