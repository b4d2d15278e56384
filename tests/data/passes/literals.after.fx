graph():
    %x_1 : [#users=4] = placeholder[target=x_1]
    %mul_1 : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x_1, 3), kwargs = {})
    %mul_2 : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%x_1, 2.0), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, 1), kwargs = {})
    %add_tensor : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x_1, %x_1), kwargs = {})
    %add_tensor_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add, %add), kwargs = {})
    return (add_tensor, mul_1, mul_2, add_tensor_1)
