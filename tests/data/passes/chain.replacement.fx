graph():
    %x : [#users=1] = placeholder[target=x]
    %y : [#users=2] = placeholder[target=y]
    %add_tensor : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x, %y), kwargs = {})
    %mul_tensor : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_tensor, %y), kwargs = {})
    %clamp_min_default : [#users=1] = call_function[target=torch.ops.aten.clamp_min.default](args = (%mul_tensor, 0), kwargs = {})
    return clamp_min_default
