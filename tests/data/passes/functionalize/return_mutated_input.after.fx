graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %add : [#users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, 1), kwargs = {})
    %copy_ : [#users=0] = call_function[target=torch.ops.aten.copy_.default](args = (%x_1, %add), kwargs = {})
    return add
