graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %y_1 : [#users=2] = placeholder[target=y_1]
    %z_1 : [#users=1] = placeholder[target=z_1]
    %add : [#users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, %y_1), kwargs = {})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add, %y_1), kwargs = {})
    %add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul, %z_1), kwargs = {})
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%add_1,), kwargs = {})
    return (relu, add)
