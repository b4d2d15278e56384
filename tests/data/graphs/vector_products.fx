graph():
    %m_1 : [#users=3] = placeholder[target=m_1]
    %v_1 : [#users=4] = placeholder[target=v_1]
    %u_1 : [#users=1] = placeholder[target=u_1]
    %v2_1 : [#users=1] = placeholder[target=v2_1]
    %w_1 : [#users=1] = placeholder[target=w_1]
    %b_1 : [#users=1] = placeholder[target=b_1]
    %bt_1 : [#users=1] = placeholder[target=bt_1]
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%m_1, 1), kwargs = {})
    %t_ : [#users=1] = call_function[target=torch.ops.aten.t_.default](args = (%add,), kwargs = {})
    %unsqueeze_ : [#users=1] = call_function[target=torch.ops.aten.unsqueeze_.default](args = (%t_, 0), kwargs = {})
    %transpose_ : [#users=1] = call_function[target=torch.ops.aten.transpose_.default](args = (%unsqueeze_, 0, 2), kwargs = {})
    %squeeze_ : [#users=1] = call_function[target=torch.ops.aten.squeeze_.default](args = (%transpose_,), kwargs = {})
    %mv : [#users=1] = call_function[target=torch.ops.aten.mv.default](args = (%m_1, %v_1), kwargs = {})
    %dot : [#users=1] = call_function[target=torch.ops.aten.dot.default](args = (%v_1, %v2_1), kwargs = {})
    %unsqueeze : [#users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%u_1, 0), kwargs = {})
    %mm : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%unsqueeze, %m_1), kwargs = {})
    %squeeze__1 : [#users=1] = call_function[target=torch.ops.aten.squeeze_.dim](args = (%mm, 0), kwargs = {})
    %t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%w_1,), kwargs = {})
    %unsqueeze_1 : [#users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%v_1, 0), kwargs = {})
    %mm_1 : [#users=1] = call_function[target=torch.ops.aten.mm.default](args = (%unsqueeze_1, %t), kwargs = {})
    %squeeze__2 : [#users=1] = call_function[target=torch.ops.aten.squeeze_.dim](args = (%mm_1, 0), kwargs = {})
    %add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%squeeze__2, %b_1), kwargs = {})
    %_reshape_alias : [#users=1] = call_function[target=torch.ops.aten._reshape_alias.default](args = (%bt_1, [6, 5], [5, 1]), kwargs = {})
    %mv_1 : [#users=1] = call_function[target=torch.ops.aten.mv.default](args = (%_reshape_alias, %v_1), kwargs = {})
    %_unsafe_view : [#users=1] = call_function[target=torch.ops.aten._unsafe_view.default](args = (%mv_1, [2, 3]), kwargs = {})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%squeeze_, 2), kwargs = {})
    return (mv, dot, squeeze__1, add_1, _unsafe_view, mul)
