graph():
    %a_1 : [#users=2] = placeholder[target=a_1]
    %b_1 : [#users=1] = placeholder[target=b_1]
    %mul_tensor : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%a_1, 3), kwargs = {})
    %relu : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%mul_tensor,), kwargs = {})
    %add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%a_1, %b_1), kwargs = {})
    %relu_1 : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%add_1,), kwargs = {})
    return (relu, relu_1)
