graph():
    %x : [#users=1] = placeholder[target=x]
    %add_tensor : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x, %x), kwargs = {})
    return add_tensor
