graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %sin : [#users=1] = call_function[target=torch.ops.aten.sin.default](args = (%x_1,), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%sin, %x_1), kwargs = {})
    return add
