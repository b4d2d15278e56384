graph():
    %a_1 : [#users=2] = placeholder[target=a_1]
    %b_1 : [#users=2] = placeholder[target=b_1]
    %c_1 : [#users=1] = placeholder[target=c_1]
    %bmm : [#users=1] = call_function[target=torch.ops.aten.bmm.default](args = (%a_1, %b_1), kwargs = {})
    %bmm_1 : [#users=1] = call_function[target=torch.ops.aten.bmm.default](args = (%bmm, %c_1), kwargs = {})
    %mean : [#users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%b_1, [0]), kwargs = {})
    %_reshape_alias : [#users=1] = call_function[target=torch.ops.aten._reshape_alias.default](args = (%a_1, [12, 5], [5, 1]), kwargs = {})
    %mm : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%_reshape_alias, %mean), kwargs = {})
    %_unsafe_view : [#users=1] = call_function[target=torch.ops.aten._unsafe_view.default](args = (%mm, [3, 4, 6]), kwargs = {})
    %div : [#users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%bmm_1, 4), kwargs = {})
    return (div, _unsafe_view)
