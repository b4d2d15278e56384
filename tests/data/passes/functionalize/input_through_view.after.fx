graph():
    %x_1 : [#users=3] = placeholder[target=x_1]
    %slice_1 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%x_1, 0, 1, 9223372036854775807), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%slice_1, 1), kwargs = {})
    %slice_scatter : [#users=2] = call_function[target=torch.ops.aten.slice_scatter.default](args = (%x_1, %add, 0, 1, 9223372036854775807), kwargs = {})
    %sum_1 : [#users=1] = call_function[target=torch.ops.aten.sum.default](args = (%slice_scatter,), kwargs = {})
    %copy_ : [#users=0] = call_function[target=torch.ops.aten.copy_.default](args = (%x_1, %slice_scatter), kwargs = {})
    return sum_1
