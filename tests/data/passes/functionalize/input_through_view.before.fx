graph():
    %x_1 : [#users=2] = placeholder[target=x_1]
    %slice_1 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%x_1, 0, 1, 9223372036854775807), kwargs = {})
    %add_ : [#users=0] = call_function[target=torch.ops.aten.add_.Tensor](args = (%slice_1, 1), kwargs = {})
    %sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.default](args = (%x_1,), kwargs = {})
    return sum_1
