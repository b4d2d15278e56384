graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %clone : [#users=2] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %t : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%clone,), kwargs = {})
    %unsqueeze_ : [#users=1] = call_function[target=torch.ops.aten.unsqueeze_.default](args = (%clone, 1), kwargs = {})
    %mul_ : [#users=1] = call_function[target=torch.ops.aten.mul_.Tensor](args = (%unsqueeze_, 2), kwargs = {})
    %transpose_ : [#users=1] = call_function[target=torch.ops.aten.transpose_.default](args = (%mul_, 0, 1), kwargs = {})
    %squeeze_ : [#users=1] = call_function[target=torch.ops.aten.squeeze_.dim](args = (%transpose_, 0), kwargs = {})
    %t_ : [#users=1] = call_function[target=torch.ops.aten.t_.default](args = (%squeeze_,), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%t_, 1), kwargs = {})
    return (add, t)
