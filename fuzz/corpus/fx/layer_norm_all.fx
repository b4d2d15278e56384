graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %g_1 : [#users=1] = placeholder[target=g_1]
    %b_1 : [#users=1] = placeholder[target=b_1]
    %native_layer_norm : [#users=3] = call_function[target=torch.ops.aten.native_layer_norm.default](args = (%x_1, [5, 8], %g_1, %b_1, 1e-05), kwargs = {})
    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%native_layer_norm, 0), kwargs = {})
    %getitem_1 : [#users=1] = call_function[target=operator.getitem](args = (%native_layer_norm, 1), kwargs = {})
    %getitem_2 : [#users=1] = call_function[target=operator.getitem](args = (%native_layer_norm, 2), kwargs = {})
    %native_layer_norm_1 : [#users=3] = call_function[target=torch.ops.aten.native_layer_norm.default](args = (%x_1, [8], None, None, 0.001), kwargs = {})
    %getitem_3 : [#users=1] = call_function[target=operator.getitem](args = (%native_layer_norm_1, 0), kwargs = {})
    %getitem_4 : [#users=1] = call_function[target=operator.getitem](args = (%native_layer_norm_1, 1), kwargs = {})
    %getitem_5 : [#users=1] = call_function[target=operator.getitem](args = (%native_layer_norm_1, 2), kwargs = {})
    return (getitem, getitem_1, getitem_2, getitem_3, getitem_4, getitem_5)
