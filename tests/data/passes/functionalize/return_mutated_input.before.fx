graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %add_ : [#users=1] = call_function[target=torch.ops.aten.add_.Tensor](args = (%x_1, 1), kwargs = {})
    return add_
