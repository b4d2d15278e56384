graph():
    %x_1 : [#users=4] = placeholder[target=x_1]
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x_1, 2), kwargs = {})
    %mul_1 : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x_1, 3), kwargs = {})
    %mul_2 : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x_1, 2.0), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, 1), kwargs = {})
    %mul_3 : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add, 2), kwargs = {})
    return (mul, mul_1, mul_2, mul_3)
