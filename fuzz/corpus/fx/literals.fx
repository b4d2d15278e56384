graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %y_1 : [#users=3] = placeholder[target=y_1]
    %sub : [#users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x_1, 2), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%sub, 9223372036854775807), kwargs = {})
    %sub_1 : [#users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%x_1, 9223372036854775807), kwargs = {})
    %full : [#users=1] = call_function[target=torch.ops.aten.full.default](args = ([2], -9223372036854775808), kwargs = {dtype: torch.int64, device: cpu, pin_memory: False})
    %gt : [#users=1] = call_function[target=torch.ops.aten.gt.Scalar](args = (%y_1, 0.5), kwargs = {})
    %masked_fill : [#users=1] = call_function[target=torch.ops.aten.masked_fill.Scalar](args = (%y_1, %gt, -inf), kwargs = {})
    %_softmax : [#users=1] = call_function[target=torch.ops.aten._softmax.default](args = (%masked_fill, -1, False), kwargs = {})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%y_1, 1e-300), kwargs = {})
    %add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul, 2.5e-08), kwargs = {})
    %clamp : [#users=1] = call_function[target=torch.ops.aten.clamp.default](args = (%add_1, None, inf), kwargs = {})
    return (add, sub_1, full, _softmax, clamp)
