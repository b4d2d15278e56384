graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %clone : [#users=2] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %t : [#users=0] = call_function[target=torch.ops.aten.t.default](args = (%clone,), kwargs = {})
    %unsqueeze : [#users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%clone, 1), kwargs = {})
    %mul : [#users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%unsqueeze, 2), kwargs = {})
    %transpose : [#users=1] = call_function[target=torch.ops.aten.transpose.int](args = (%mul, 0, 1), kwargs = {})
    %squeeze : [#users=1] = call_function[target=torch.ops.aten.squeeze.dim](args = (%transpose, 0), kwargs = {})
    %t_1 : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%squeeze,), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%t_1, 1), kwargs = {})
    %squeeze_1 : [#users=1] = call_function[target=torch.ops.aten.squeeze.dim](args = (%mul, 1), kwargs = {})
    %t_2 : [#users=1] = call_function[target=torch.ops.aten.t.default](args = (%squeeze_1,), kwargs = {})
    return (add, t_2)
