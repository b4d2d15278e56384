graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %clone : [#users=2] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %view : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%clone, [-1]), kwargs = {})
    %slice_1 : [#users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%view, 0, 1, 4), kwargs = {})
    %mul : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%slice_1, 3), kwargs = {})
    %view_1 : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%clone, [-1]), kwargs = {})
    %slice_scatter : [#users=1] = call_function[target=torch.ops.aten.slice_scatter.default](args = (%view_1, %mul, 0, 1, 4), kwargs = {})
    %view_2 : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%slice_scatter, [2, 3]), kwargs = {})
    return view_2
