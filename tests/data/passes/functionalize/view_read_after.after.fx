graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %clone : [#users=4] = call_function[target=torch.ops.aten.clone.default](args = (%x_1,), kwargs = {})
    %view : [#users=0] = call_function[target=torch.ops.aten.view.default](args = (%clone, [-1]), kwargs = {})
    %select : [#users=1] = call_function[target=torch.ops.aten.select.int](args = (%clone, 0, 0), kwargs = {})
    %mul : [#users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%select, 2), kwargs = {})
    %select_scatter : [#users=1] = call_function[target=torch.ops.aten.select_scatter.default](args = (%clone, %mul, 0, 0), kwargs = {})
    %view_1 : [#users=1] = call_function[target=torch.ops.aten.view.default](args = (%select_scatter, [-1]), kwargs = {})
    %add : [#users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%view_1, 1), kwargs = {})
    %mul_1 : [#users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, 3), kwargs = {})
    return (add, mul_1, clone)
