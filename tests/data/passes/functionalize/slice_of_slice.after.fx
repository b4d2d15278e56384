graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %clone : [#users=3] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %slice_1 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%clone, 0, 0, 9223372036854775807), kwargs = {})
    %slice_2 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%slice_1, 1, 1, 9223372036854775807, 2), kwargs = {})
    %slice_3 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%slice_2, 0, 1, 9223372036854775807), kwargs = {})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%slice_3, 10), kwargs = {})
    %slice_4 : [#users=2] = call_function[target=torch.ops.aten.slice.Tensor](args = (%clone, 0, 0, 9223372036854775807), kwargs = {})
    %slice_5 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%slice_4, 1, 1, 9223372036854775807, 2), kwargs = {})
    %slice_scatter : [#users=1] = call_function[target=torch.ops.aten.slice_scatter.default](args = (%slice_5, %mul, 0, 1, 9223372036854775807), kwargs = {})
    %slice_scatter_1 : [#users=1] = call_function[target=torch.ops.aten.slice_scatter.default](args = (%slice_4, %slice_scatter, 1, 1, 9223372036854775807, 2), kwargs = {})
    %slice_scatter_2 : [#users=1] = call_function[target=torch.ops.aten.slice_scatter.default](args = (%clone, %slice_scatter_1, 0, 0, 9223372036854775807), kwargs = {})
    return slice_scatter_2
