graph():
    %x : [#users=1] = placeholder[target=x]
    %mul_tensor : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x, 3), kwargs = {})
    return mul_tensor
