graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %clone : [#users=2] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %slice_1 : [#users=2] = call_function[target=torch.ops.aten.slice.Tensor](args = (%clone, 0, 1, 9223372036854775807), kwargs = {})
    %add_ : [#users=1] = call_function[target=torch.ops.aten.add_.Tensor](args = (%clone, 1), kwargs = {})
    %select : [#users=1] = call_function[target=torch.ops.aten.select.int](args = (%slice_1, 0, 0), kwargs = {})
    %mul_ : [#users=0] = call_function[target=torch.ops.aten.mul_.Tensor](args = (%select, 2), kwargs = {})
    return (add_, slice_1)
