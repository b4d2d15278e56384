graph():
    %x : [#users=1] = placeholder[target=x]
    %y : [#users=2] = placeholder[target=y]
    %add_tensor : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x, %y), kwargs = {})
    %mul_tensor : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_tensor, %y), kwargs = {})
    %relu_default : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%mul_tensor,), kwargs = {})
    return relu_default
