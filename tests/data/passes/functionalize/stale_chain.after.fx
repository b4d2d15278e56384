graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %clone : [#users=2] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %slice_1 : [#users=2] = call_function[target=torch.ops.aten.slice.Tensor](args = (%clone, 0, 1, 9223372036854775807), kwargs = {})
    %add : [#users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%clone, 1), kwargs = {})
    %select : [#users=0] = call_function[target=torch.ops.aten.select.int](args = (%slice_1, 0, 0), kwargs = {})
    %slice_2 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%add, 0, 1, 9223372036854775807), kwargs = {})
    %select_1 : [#users=1] = call_function[target=torch.ops.aten.select.int](args = (%slice_2, 0, 0), kwargs = {})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%select_1, 2), kwargs = {})
    %slice_3 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%add, 0, 1, 9223372036854775807), kwargs = {})
    %select_scatter : [#users=1] = call_function[target=torch.ops.aten.select_scatter.default](args = (%slice_3, %mul, 0, 0), kwargs = {})
    %slice_scatter : [#users=1] = call_function[target=torch.ops.aten.slice_scatter.default](args = (%add, %select_scatter, 0, 1, 9223372036854775807), kwargs = {})
    return (slice_scatter, slice_1)
