graph():
    %pos_1 : [#users=1] = placeholder[target=pos_1]
    %feat_1 : [#users=4] = placeholder[target=feat_1]
    %_reshape_alias : [#users=1] = call_function[target=torch.ops.aten._reshape_alias.default](args = (%pos_1, [1, 5, 5, 8], [200, 40, 8, 1]), kwargs = {})
    %permute : [#users=1] = call_function[target=torch.ops.aten.permute.default](args = (%_reshape_alias, [0, 3, 1, 2]), kwargs = {})
    %upsample_bicubic2d : [#users=1] = call_function[target=torch.ops.aten.upsample_bicubic2d.vec](args = (%permute, [7, 6], False, None), kwargs = {})
    %permute_1 : [#users=1] = call_function[target=torch.ops.aten.permute.default](args = (%upsample_bicubic2d, [0, 2, 3, 1]), kwargs = {})
    %_reshape_alias_1 : [#users=1] = call_function[target=torch.ops.aten._reshape_alias.default](args = (%permute_1, [1, 42, 8], [42, 1, 42]), kwargs = {})
    %upsample_bicubic2d_1 : [#users=1] = call_function[target=torch.ops.aten.upsample_bicubic2d.vec](args = (%feat_1, None, True, [1.5, 1.5]), kwargs = {})
    %adaptive_max_pool2d : [#users=2] = call_function[target=torch.ops.aten.adaptive_max_pool2d.default](args = (%feat_1, [1, 1]), kwargs = {})
    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%adaptive_max_pool2d, 0), kwargs = {})
    %getitem_1 : [#users=0] = call_function[target=operator.getitem](args = (%adaptive_max_pool2d, 1), kwargs = {})
    %mean : [#users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%feat_1, [-1, -2], True), kwargs = {})
    %cat : [#users=1] = call_function[target=torch.ops.aten.cat.default](args = ([%getitem, %mean], 1), kwargs = {})
    %adaptive_max_pool2d_1 : [#users=2] = call_function[target=torch.ops.aten.adaptive_max_pool2d.default](args = (%feat_1, [3, 2]), kwargs = {})
    %getitem_2 : [#users=1] = call_function[target=operator.getitem](args = (%adaptive_max_pool2d_1, 0), kwargs = {})
    %getitem_3 : [#users=1] = call_function[target=operator.getitem](args = (%adaptive_max_pool2d_1, 1), kwargs = {})
    %_reshape_alias_2 : [#users=1] = call_function[target=torch.ops.aten._reshape_alias.default](args = (%cat, [2, 8], [8, 1]), kwargs = {})
    return (_reshape_alias_1, upsample_bicubic2d_1, _reshape_alias_2, getitem_2, getitem_3)
