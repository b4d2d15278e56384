graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %w_1 : [#users=1] = placeholder[target=w_1]
    %add : [#users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, %w_1), kwargs = {})
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%add,), kwargs = {})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add, %relu), kwargs = {})
    return mul
