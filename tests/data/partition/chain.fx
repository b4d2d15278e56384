graph():
    %x : [#users=3] = placeholder[target=x]
    %relu_default : [#users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})
    %neg_default : [#users=1] = call_function[target=torch.ops.aten.neg.default](args = (%relu_default,), kwargs = {})
    %add_tensor : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%neg_default, %x), kwargs = {})
    %mul_tensor : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_tensor, %x), kwargs = {})
    return mul_tensor