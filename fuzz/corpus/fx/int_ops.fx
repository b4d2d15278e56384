graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %idx_1 : [#users=3] = placeholder[target=idx_1]
    %argmax : [#users=1] = call_function[target=torch.ops.aten.argmax.default](args = (%x_1, 1), kwargs = {})
    %cumsum : [#users=1] = call_function[target=torch.ops.aten.cumsum.default](args = (%idx_1, 0), kwargs = {})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%idx_1, 3), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul, 2), kwargs = {})
    %max_1 : [#users=2] = call_function[target=torch.ops.aten.max.dim](args = (%x_1, 1), kwargs = {})
    %getitem : [#users=1] = call_function[target=operator.getitem](args = (%max_1, 0), kwargs = {})
    %getitem_1 : [#users=1] = call_function[target=operator.getitem](args = (%max_1, 1), kwargs = {})
    %arange : [#users=1] = call_function[target=torch.ops.aten.arange.default](args = (6,), kwargs = {dtype: torch.int64, device: cpu, pin_memory: False})
    %add_1 : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arange, %idx_1), kwargs = {})
    return (argmax, cumsum, add, getitem, getitem_1, add_1)
